"""GET /metrics: Prometheus's text format, for staff or a scraper holding PUZZLEHUB_METRICS_TOKEN
(`Authorization: Bearer <token>`); anyone else gets the site's 404.

Nothing is kept in the web process: requests, lease expiries and table-cache hits are counters
shared through Redis (puzzlehub.ops.counters), job counts and durations come from the jobs table
and queue depths from the broker, all read at scrape time. A part that cannot be read is left out
and flagged by puzzlehub_scrape_error{part}.
"""

import hmac
import logging

from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from puzzlehub.jobs.models import Job
from puzzlehub.ops import counters, selectors

log = logging.getLogger(__name__)


def allowed(request) -> bool:
    if request.user.is_authenticated and request.user.is_staff:
        return True
    token = settings.PUZZLEHUB_METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def _requests():
    requests = CounterMetricFamily("puzzlehub_http_requests", "Requests answered, by method, route name and status",
                                   labels=["method", "route", "status"])
    seconds = CounterMetricFamily("puzzlehub_http_request_duration_seconds",
                                  "Seconds spent answering requests, by method, route name and status",
                                  labels=["method", "route", "status"])
    for labels, value in sorted(counters.read("http_requests").items()):
        requests.add_metric(labels, value)
    for labels, value in sorted(counters.read("http_request_seconds").items()):
        seconds.add_metric(labels, value)
    return [requests, seconds]


def _shared_counts():
    # every series from 0, so that rate() and alerts work before the first event
    expiries = CounterMetricFamily("puzzlehub_lease_expiries", "Job leases that ran out (the worker went silent), by kind",
                                   labels=["kind"])
    counted = counters.read("lease_expiries")
    for kind, _ in Job.KIND_CHOICES:
        expiries.add_metric([kind], counted.get((kind,), 0.0))
    cache = CounterMetricFamily("puzzlehub_table_cache", "Pattern-database lookups in a worker's local cache: "
                                "hit (a checked local copy used) or miss (fetched from the artifact storage)",
                                labels=["result"])
    counted = counters.read("table_cache")
    for result in ("hit", "miss"):
        cache.add_metric([result], counted.get((result,), 0.0))
    return [expiries, cache]


def _jobs():
    jobs = GaugeMetricFamily("puzzlehub_jobs", "Jobs by kind and status", labels=["kind", "status"])
    for (kind, status), n in sorted(selectors.job_counts().items()):
        jobs.add_metric([kind, status], n)
    durations = HistogramMetricFamily("puzzlehub_job_duration_seconds",
                                      "Finished jobs' seconds from first start to end, by kind and outcome",
                                      labels=["kind", "outcome"])
    for row in selectors.job_durations():
        buckets = [(f"{bound:g}", n) for bound, n in row["buckets"]] + [("+Inf", row["count"])]
        durations.add_metric([row["kind"], row["outcome"]], buckets, row["seconds"])
    return [jobs, durations]


def _queues():
    depth = GaugeMetricFamily("puzzlehub_queue_depth", "Messages waiting in each job queue", labels=["queue"])
    for queue, n in selectors.queue_depths().items():
        depth.add_metric([queue], n)
    return [depth]


PARTS = {"requests": _requests, "shared_counters": _shared_counts, "jobs": _jobs, "queues": _queues}


class Collector:
    def collect(self):
        errors = GaugeMetricFamily("puzzlehub_scrape_error", "1 when this part could not be read in this scrape",
                                   labels=["part"])
        for part, read in PARTS.items():
            try:
                yield from read()
                errors.add_metric([part], 0)
            except Exception as exc:  # Redis or the database away: the other parts still answer
                log.warning("metrics: %s not read: %s", part, exc)
                errors.add_metric([part], 1)
        yield errors


@never_cache
@require_GET
def metrics(request):
    if not allowed(request):
        raise Http404("no such page")
    registry = CollectorRegistry(auto_describe=False)
    registry.register(Collector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
