"""Answers to anonymous readers, shared: the pages and API reads anyone may see are rendered once per
ANONYMOUS_CACHE_SECONDS and then served from the shared cache (Redis) to every visitor who is
anonymous, before sessions, CSRF, authentication and the view run (a hit costs one Redis round trip).

Privacy: only a GET with no Authorization header and no cookie but `csrftoken` is served from the
cache or stored in it. Such a request sees public repositories only, so nothing private is ever
stored, and a logged-in reader always gets a fresh answer. An answer that sets a cookie or used the
CSRF token is not stored either (none of these routes does that for an anonymous reader).

Freshness: counts (stars, forks, algorithms, votes, comments) are at most ANONYMOUS_CACHE_SECONDS
old for anonymous readers. What may hide or remove something is seen at once: saving or deleting a
repository (visibility, name, description, topics, deletion), a revision, a user or a profile, and
deleting an algorithm or a comment start a new generation once the change is committed, and an
answer is served only under the generation it was stored with: one rendered before the commit
carries the generation read before it, which is then no longer current.

Off (0 seconds) unless the cache is shared by every process (CACHE_URL): a per-process cache would
only hear of its own process's changes.
"""

from __future__ import annotations

import hashlib
import logging
import uuid

import redis

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpResponse
from django.urls import Resolver404, resolve

log = logging.getLogger(__name__)
GENERATION_KEY = "anonymous-cache:generation"
ANONYMOUS_COOKIES = {"csrftoken"}  # CSRF_COOKIE_NAME's default: a cookie anyone may have
ROUTES = {  # url names of the reads whose answer is the same for every anonymous reader
    "home", "user", "repository", "revisions", "revision", "algorithm",
    "api-repos", "api-repo", "api-revisions", "api-revision", "api-forks", "api-repo-algorithms", "api-algorithm",
    "api-comments",
}


def bump(**_) -> None:
    """Start a new generation once the current transaction commits: every stored answer is dropped."""
    transaction.on_commit(_new_generation)


def _new_generation() -> None:
    try:
        cache.set(GENERATION_KEY, uuid.uuid4().hex, None)
    except redis.RedisError:
        # The change is committed and must not answer 500. Redis away cannot serve a stored
        # answer either, and back empty it has none; the one case left (it kept its data through
        # the outage) serves answers at most ANONYMOUS_CACHE_SECONDS old.
        log.error("anonymous cache: Redis did not take the new generation; stored answers expire on their own")


def connect_signals() -> None:
    from django.contrib.auth import get_user_model

    from puzzlehub.accounts.models import Profile
    from puzzlehub.algorithms.models import Algorithm, Comment
    from puzzlehub.repos.models import Repository, Revision

    for model in (Repository, Revision, get_user_model(), Profile):
        post_save.connect(bump, sender=model, dispatch_uid=f"anonymous-cache-save-{model.__name__}")
    for model in (Repository, Revision, get_user_model(), Profile, Algorithm, Comment):
        post_delete.connect(bump, sender=model, dispatch_uid=f"anonymous-cache-delete-{model.__name__}")
    m2m_changed.connect(bump, sender=Repository.topics.through, dispatch_uid="anonymous-cache-topics")


def _anonymous(request) -> bool:
    return (request.method == "GET" and "HTTP_AUTHORIZATION" not in request.META
            and set(request.COOKIES) <= ANONYMOUS_COOKIES)


def _key(request) -> str:
    what = "\n".join((request.scheme, request.get_host(), request.get_full_path(), request.headers.get("Accept", "")))
    return f"anonymous-cache:{hashlib.sha256(what.encode()).hexdigest()}"


class AnonymousCache:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        seconds = settings.ANONYMOUS_CACHE_SECONDS
        if not seconds or not _anonymous(request):
            return self.get_response(request)
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return self.get_response(request)
        if match.url_name not in ROUTES:
            return self.get_response(request)
        request.resolver_match = match  # the request log's route, on a hit too
        key = _key(request)
        # one round trip: the generation and the answer stored with the generation it was rendered under
        try:
            found = cache.get_many([GENERATION_KEY, key])
        except redis.RedisError:  # away (restarting): answered fresh, like a logged-in reader
            return self.get_response(request)
        generation = found.get(GENERATION_KEY) or "0"
        stored = found.get(key)
        if stored is not None and stored[0] == generation:
            response = HttpResponse(stored[2], headers=stored[1])
            response["X-Cache"] = "hit"
            return response
        response = self.get_response(request)
        if (response.status_code == 200 and not response.streaming and not response.cookies
                and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")):
            try:
                cache.set(key, (generation, dict(response.items()), response.content), seconds)
            except redis.RedisError:
                return response
            response["X-Cache"] = "miss"
        return response
