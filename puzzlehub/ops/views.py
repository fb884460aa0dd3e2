"""GET /ops/: the operator page (staff only; anyone else gets the site's 404, as for a page that
does not exist): queue depths, running jobs, workers seen and their last heartbeat, recent failures."""

import logging

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from puzzlehub.ops import selectors

log = logging.getLogger(__name__)


@never_cache
@require_GET
def operator_page(request):
    if not (request.user.is_authenticated and request.user.is_staff):
        raise Http404("no such page")
    try:
        queues, broker_error = selectors.queue_depths(), ""
    except Exception as exc:  # the broker away is what the operator must see, not a server error
        log.warning("operator page: queue depths not read: %s", exc)
        queues, broker_error = {}, str(exc) or type(exc).__name__
    return render(request, "ops/ops.html", {
        "queues": queues, "broker_error": broker_error, "running": selectors.running_jobs(),
        "workers": selectors.workers_seen(), "failures": selectors.recent_failures(),
    })
