"""Abuse limits: how often one user or one address may do a thing (sign up, get a password wrong,
comment, write through a page form), counted in Django's cache (shared by every web process when
CACHE_URL names Redis) in fixed windows. Going over raises `Refused`, which the middleware answers
with 429 and Retry-After on pages and API alike. The API's general write rate is DRF's
(puzzlehub.rest.WriteThrottle); these are the limits that must hold whichever door is used.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """`10/15m`, `120/min`, `5/hour`: a count per (a number of) seconds, minutes, hours or days."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*", text.lower())
    if not match:
        raise ValueError(f"rate {text!r}: expected COUNT/PERIOD such as 10/15m or 120/min")
    count, many, unit = match.groups()
    return Rate(int(count), int(many or 1) * UNITS[unit])


class Refused(Exception):
    def __init__(self, what: str, retry_after: int):
        super().__init__(f"too many {what}: try again in {retry_after} s")
        self.what, self.retry_after = what, retry_after


WHAT = {"signup": "sign-ups from this address", "login": "wrong passwords",
        "comment": "comments", "page_write": "changes"}


def _window(scope: str, ident) -> tuple[str, Rate, int]:
    rate = parse_rate(settings.PUZZLEHUB_LIMITS[scope])
    now = time.time()
    start = int(now // rate.seconds) * rate.seconds
    # user text (a username tried at log-in) is hashed: any length, any characters
    digest = hashlib.sha256(str(ident).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"limit:{scope}:{digest}:{start}", rate, max(1, int(start + rate.seconds - now + 0.999))


def check(scope: str, ident) -> None:
    """Refuse when `ident` has used up `scope` in this window (without counting this request)."""
    key, rate, left = _window(scope, ident)
    if (cache.get(key) or 0) >= rate.count:
        raise Refused(WHAT[scope], left)


def hit(scope: str, ident) -> None:
    """Count one more; refuse (having counted it) past the limit."""
    key, rate, left = _window(scope, ident)
    cache.add(key, 0, timeout=rate.seconds + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=rate.seconds + 1)
        used = 1
    if used > rate.count:
        raise Refused(WHAT[scope], left)


def address(request) -> str:
    """The caller's address, told the way the API's throttle tells it (X-Forwarded-For behind
    REST_FRAMEWORK's NUM_PROXIES proxies, else REMOTE_ADDR)."""
    return BaseThrottle().get_ident(request) or "unknown"


def _password_idents(request, username: str) -> list[str]:
    return [f"user:{(username or '').strip().lower()}", f"address:{address(request)}"]


def before_password(request, username: str) -> None:
    """Refuse a log-in (page or token) while the username or the address has too many wrong passwords."""
    for ident in _password_idents(request, username):
        check("login", ident)


def wrong_password(request, username: str) -> None:
    for ident in _password_idents(request, username):
        hit("login", ident)
