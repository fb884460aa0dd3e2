"""gunicorn's configuration for PuzzleHub: `gunicorn -c deploy/gunicorn.conf.py puzzlehub.wsgi`.

Why gunicorn with threaded workers (gthread): every request is short and bounded (solver work over
PUZZLEHUB_ANALYSIS_BUDGET goes to Celery), but most of its time is spent waiting, not computing: on
PostgreSQL and Redis round trips, and on a durable COMMIT (an fdatasync of the WAL, 7.5 ms on the
bench machine) for every write. A sync worker process holds its one request through all of that,
so it can serve only one at a time. Measured with the load bench's mix at 200 requests/s (2026-11-25,
a machine loaded by other work): 5 sync processes were inside Django half the time, some 200
connections waited in the listen backlog, and at times they answered only 60-100 requests/s at p50
2-3 s. Threads let one process wait on several requests at once (psycopg2 and redis-py release the
GIL while they wait): on the same stack, alternately, 3 processes x 8 threads answered 150-200
requests/s at p50 0.4-0.5 s (5 x 4 did worse: 162 requests/s, p50 1 s). Under heavier load (load
average 13-20) both are short of CPU: the web needs some 5 ms of CPU a request (0.8-0.9 of a core at
200 requests/s), and sync then did as well or better at p50. Connections are kept alive
(`keepalive`), so a client or proxy does not open one TCP connection per request. A crashed worker process is replaced by the master
without dropping the others; slow clients are the proxy's job (nginx or a load balancer buffers in
front).

Environment: PUZZLEHUB_BIND (default 127.0.0.1:$PORT, PORT default 8000), WEB_CONCURRENCY
(processes, default 1 per core + 1: the GIL lets one process use one core, and the extra one keeps
every core serving while a process is replaced), PUZZLEHUB_WEB_THREADS (threads per process, default
8: enough for the waits of 200 requests/s at ~40 ms each on 2 cores, each thread holding one
database connection), PUZZLEHUB_WEB_TIMEOUT (seconds, default 30).

The timeout: the master replaces a process whose main loop (which accepts connections and hands
them to the threads) is silent this long. A request stuck in a thread holds that thread only; a
request's own work is bounded elsewhere (the analysis budget, the solver's limits).

Graceful reload: `kill -HUP <master>` (systemctl reload puzzlehub-web) starts new workers with the
new code and configuration, then stops the old ones once their requests are answered (within
graceful_timeout). The application is therefore not preloaded in the master: a preloaded app would
keep the old code across a HUP.
"""

import multiprocessing
import os

bind = os.environ.get("PUZZLEHUB_BIND") or f"127.0.0.1:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() + 1)
worker_class = "gthread"
threads = int(os.environ.get("PUZZLEHUB_WEB_THREADS") or 8)
# a worker whose main loop is silent this long is stuck (see above: a request is bounded elsewhere)
timeout = int(os.environ.get("PUZZLEHUB_WEB_TIMEOUT") or 30)
graceful_timeout = 30  # on HUP or TERM, what a worker may take to finish the requests it has
keepalive = 5  # seconds an idle connection from the proxy or a client stays open
# A worker is replaced after this many requests (jitter: not all at once): memory growth stays
# bounded. Measured: a process grew from 99 MB to 112 MB over its first 1,300 requests of the load
# bench's mix, then by under 1 MB per 5,000 (119.5 MB at 15,000). Replacing one costs 1.3 s of CPU
# (loading the application) and a core's process while it loads: every 2,000 requests was one every
# 10 s at 200 requests/s.
max_requests = 20000
max_requests_jitter = 2000
preload_app = False

# the request log is our own (puzzlehub.ops.requestlog: one JSON line with route, user, request id);
# gunicorn's access log would only repeat it
accesslog = None
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
