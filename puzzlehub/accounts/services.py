"""Writes about users: sign-up, API tokens, profiles."""

import re
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import get_resolver
from rest_framework.authtoken.models import Token

from puzzlehub import limits
from puzzlehub.accounts.models import Profile

User = get_user_model()

# Usernames are the first part of page URLs (/<owner>/<name>/): URL-safe and not a site path.
USERNAME_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38})$")
# words kept for the site besides its routes (which site_paths reads from the URLconf)
RESERVED_WORDS = frozenset("about admin explore help media puzzlehub search static users www".split())


def _first_segments(patterns, prefix: str = ""):
    """The fixed first path segment of every route, following includes."""
    for entry in patterns:
        route = prefix + str(getattr(entry.pattern, "_route", entry.pattern.regex.pattern.lstrip("^")))
        literal = re.split(r"[/<(\\[?$]", route, maxsplit=1)[0]
        if hasattr(entry, "url_patterns") and not literal and route == literal:
            yield from _first_segments(entry.url_patterns, route)  # an include mounted at the root
        elif literal:
            yield literal.lower()


@lru_cache(maxsize=1)
def reserved_usernames() -> frozenset[str]:
    """Names no user may take: every fixed first segment of the site's routes (so no user page or
    repository page can be shadowed by a site page), the static and media prefixes, and a few words."""
    prefixes = {url.strip("/").split("/")[0].lower() for url in (settings.STATIC_URL, settings.MEDIA_URL) if url} - {""}
    return frozenset(_first_segments(get_resolver().url_patterns)) | prefixes | RESERVED_WORDS


def validate_username(username: str) -> None:
    if not USERNAME_RE.match(username or ""):
        raise ValidationError(
            {"username": "use 1-39 letters, digits, '-' or '_', starting with a letter or digit"}
        )
    if username.lower() in reserved_usernames():
        raise ValidationError({"username": f"{username!r} is reserved"})
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": "this username is taken"})


@transaction.atomic
def create_user(*, username: str, email: str, password: str, address: str | None = None) -> User:
    """A new user; `address` (the caller's) counts against the sign-up limit once the rest is valid."""
    validate_username(username)
    user = User(username=username, email=email)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from None
    user.set_password(password)
    user.full_clean(exclude=["password", "username"])
    if address is not None:
        limits.hit("signup", address)
    user.save()
    Profile.objects.create(user=user)
    return user


def profile_of(user: User) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def update_profile(*, user: User, bio: str) -> Profile:
    profile = profile_of(user)
    profile.bio = bio
    profile.full_clean()
    profile.save(update_fields=["bio"])
    return profile


def api_token(*, user: User) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


@transaction.atomic
def regenerate_api_token(*, user: User) -> str:
    """A new token; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user).key
