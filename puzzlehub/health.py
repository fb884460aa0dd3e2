"""GET /healthz: are the database and the broker really answering?

200 {"database": "ok", "broker": "ok"}; 503 with the failed part's error in place of "ok".
"""

import logging

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from puzzlehub.celery import app

log = logging.getLogger(__name__)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_broker() -> None:
    timeout = settings.HEALTH_CHECK_TIMEOUT
    with app.connection_for_write(connect_timeout=timeout) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)
        # a round trip on a channel, not only a socket: declaring the default queue is idempotent
        with conn.channel() as channel:
            channel.queue_declare(queue=app.conf.task_default_queue, durable=True, auto_delete=False)


CHECKS = {"database": check_database, "broker": check_broker}


@never_cache
@require_GET
def healthz(request):
    report, healthy = {}, True
    for part, check in CHECKS.items():
        try:
            check()
            report[part] = "ok"
        except Exception as exc:  # any failure of the part is the answer, not a server error
            log.warning("health check %s failed: %s", part, exc)
            report[part] = f"error: {exc}" if str(exc) else f"error: {type(exc).__name__}"
            healthy = False
    return JsonResponse(report, status=200 if healthy else 503)
