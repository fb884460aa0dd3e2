"""What a request that went wrong answers (puzzlehub.urls handler500): never a traceback; with the
database or Redis away (restarting), 503 JSON with Retry-After on every path, pages included. The fault bench
(bench/bench_faults.py) stops a real PostgreSQL under the production server; here the handler is
called as Django calls it, inside the `except` of the error."""

import json

import redis
from django.db import OperationalError
from django.test import RequestFactory

from puzzlehub.web.views import server_error


def answer_to(path, error):
    try:
        raise error
    except Exception:
        return server_error(RequestFactory().get(path))


def test_the_database_away_is_a_503_json_answer_with_retry_after_on_pages_and_api():
    for path in ("/puzzlehub/cube2/", "/api/repos/"):
        response = answer_to(path, OperationalError("server closed the connection unexpectedly"))
        assert response.status_code == 503 and response["Retry-After"] == "5"
        assert "database" in json.loads(response.content)["detail"]


def test_redis_away_is_a_503_json_answer_too():
    """The abuse limits and the write throttle count in Redis: while it restarts, a write is
    told to come back, not answered 500."""
    for path in ("/puzzlehub/cube2/", "/api/repos/"):
        response = answer_to(path, redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379."))
        assert response.status_code == 503 and response["Retry-After"] == "5"
        assert "Redis" in json.loads(response.content)["detail"]


def test_other_errors_are_json_on_the_api_and_a_plain_page_elsewhere():
    api = answer_to("/api/repos/", ZeroDivisionError("division by zero"))
    assert api.status_code == 500 and json.loads(api.content) == {"detail": "server error"}
    page = answer_to("/puzzlehub/cube2/", ZeroDivisionError("division by zero"))
    assert page.status_code == 500 and b"Server error" in page.content and b"division" not in page.content
