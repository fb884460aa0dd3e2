"""gunicorn's configuration for PuzzleHub: `gunicorn -c deploy/gunicorn.conf.py puzzlehub.wsgi`.

Why gunicorn with sync workers: every request is short and bounded (solver work over
PUZZLEHUB_ANALYSIS_BUDGET goes to Celery), the database driver is blocking psycopg2, and a crashed
or stuck worker process is replaced by the master without dropping the others. Slow clients are
the proxy's job (nginx or a load balancer buffers in front).

Threads were measured and not kept (2026-11-25, the load bench's mix at 200 requests/s, same
session): the web is CPU-bound, some 5 ms of CPU a request (1.1 cores at 200 requests/s once the
CPU of replaced processes is counted), so overlapping the waits buys little, and the GIL costs:
gthread 3 x 8 gave reads p50 260 ms, p99 1.7 s where 5 sync processes gave 110 ms and 720 ms;
5 x 4 threads did worse still. (Under other load, sync sometimes fell behind with some 200
connections in the listen backlog, and 3 x 8 answered more then: the tail follows the CPU left.)

Environment: PUZZLEHUB_BIND (default 127.0.0.1:$PORT, PORT default 8000), WEB_CONCURRENCY
(processes, default 2 per core + 1), PUZZLEHUB_WEB_TIMEOUT (seconds, default 30).

Graceful reload: `kill -HUP <master>` (systemctl reload puzzlehub-web) starts new workers with the
new code and configuration, then stops the old ones once their requests are answered (within
graceful_timeout). The application is therefore not preloaded in the master: a preloaded app would
keep the old code across a HUP.
"""

import multiprocessing
import os

from gunicorn.glogging import Logger

bind = os.environ.get("PUZZLEHUB_BIND") or f"127.0.0.1:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * multiprocessing.cpu_count() + 1)
worker_class = "sync"
# a request never runs solver work past the analysis budget; a worker silent this long is stuck
timeout = int(os.environ.get("PUZZLEHUB_WEB_TIMEOUT") or 30)
graceful_timeout = 30  # on HUP or TERM, what a worker may take to finish the requests it has
keepalive = 5  # seconds an idle connection from the proxy stays open
# A worker is replaced after this many requests (jitter: not all at once): memory growth stays
# bounded. Measured: a process grew from 99 MB to 112 MB over its first 1,300 requests of the load
# bench's mix, then by under 1 MB per 5,000 (119.5 MB at 15,000). Replacing one costs 1.3 s of CPU
# (loading the application): every 2,000 requests was one every 10 s at 200 requests/s, 0.65 ms of
# CPU a request.
max_requests = 20000
max_requests_jitter = 2000
preload_app = False

# the request log is our own (puzzlehub.ops.requestlog: one JSON line with route, user, request id);
# gunicorn's access log would only repeat it
accesslog = None


class WithoutAccessLog(Logger):
    """gunicorn's logger, never building access lines: with a logging configuration (below) it
    builds one per request even with no access log (measured: 3% of a cached page's CPU)."""

    def access(self, resp, req, environ, request_time):
        pass


logger_class = WithoutAccessLog
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()

# gunicorn's own lines (start, worker boot and timeout) in the site's format: JSON in production.
# This replaces gunicorn's default dictConfig section by section, so each section is whole here.
_debug = os.environ.get("DEBUG", "1").lower() in ("1", "true", "yes", "on")
if (os.environ.get("PUZZLEHUB_LOG_FORMAT") or ("text" if _debug else "json")) == "json":
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "puzzlehub.ops.logformat.JsonFormatter"}},
        "handlers": {"error_console": {"class": "logging.StreamHandler", "formatter": "json",
                                       "stream": "ext://sys.stderr"}},
        "root": {"level": loglevel.upper(), "handlers": []},
        "loggers": {"gunicorn.error": {"handlers": ["error_console"], "level": loglevel.upper(), "propagate": False,
                                       "qualname": "gunicorn.error"},
                    "gunicorn.access": {"handlers": [], "level": loglevel.upper(), "propagate": False,
                                        "qualname": "gunicorn.access"}},
    }
