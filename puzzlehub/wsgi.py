"""WSGI entry point for production servers (gunicorn puzzlehub.wsgi).

A chunked request body (no Content-Length) is read here, up to DATA_UPLOAD_MAX_MEMORY_SIZE, and
handed on with its length, so that Django never takes it as empty; a server that cannot say where
such a body ends gets 411, one over the limit 413, both as JSON.
"""

import io
import json
import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")


def _refuse(start_response, status: str, reason: str):
    body = json.dumps({"detail": reason}).encode()
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


def read_chunked_bodies(app):
    def application(environ, start_response):
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            if not environ.get("wsgi.input_terminated"):
                return _refuse(start_response, "411 Length Required",
                               "a chunked body cannot be read here: send Content-Length")
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**31
            body = environ["wsgi.input"].read(limit + 1)
            if len(body) > limit:
                return _refuse(start_response, "413 Content Too Large", f"the body is over {limit:,} bytes")
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        return app(environ, start_response)
    return application


application = read_chunked_bodies(get_wsgi_application())
# Import every view (and the solver) now rather than in the first request: a server that loads the
# application before forking its workers (gunicorn --preload) shares the work and no first request
# runs into the worker timeout.
get_resolver().url_patterns
