"""One log line per request (logger `puzzlehub.request`): method, route name, status, duration,
user id, request id; and the same request counted in the shared counters that /metrics reports.

The request id is the proxy's X-Request-ID when it sends a sane one, else a new one; the answer
carries it back, and every other line logged while the request runs carries it too (RequestIdFilter).
"""

import contextvars
import logging
import re
import time
import uuid

from puzzlehub.ops import counters

log = logging.getLogger("puzzlehub.request")

METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
current_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def route_of(request) -> str:
    """The URL pattern's name (or its pattern when unnamed); a bounded set of values, unlike paths."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.view_name or match.route
    return "static" if request.path.startswith("/static/") else "unmatched"


def user_id_of(request):
    user = getattr(request, "user", None)  # DRF puts a token's user here too
    return user.pk if user is not None and user.is_authenticated else None


class RequestLog:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get("X-Request-ID", "")
        request.id = given if SANE_ID.fullmatch(given) else uuid.uuid4().hex
        token = current_request_id.set(request.id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
        finally:
            current_request_id.reset(token)
        seconds = time.perf_counter() - started
        response["X-Request-ID"] = request.id
        method = request.method if request.method in METHODS else "other"
        route, status = route_of(request), response.status_code
        log.info("%s %s %s", request.method, request.path, status, extra={
            "method": method, "route": route, "path": request.path, "status": status,
            "duration_ms": round(seconds * 1000, 1), "user_id": user_id_of(request), "request_id": request.id,
        })
        labels = (method, route, str(status))
        counters.add({("http_requests", labels): 1, ("http_request_seconds", labels): seconds})
        return response


class RequestIdFilter(logging.Filter):
    """Lines logged while a request runs carry its id."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = current_request_id.get()
        if request_id is not None and not hasattr(record, "request_id"):
            record.request_id = request_id
        return True
