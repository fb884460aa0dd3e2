"""Pages: the solve form (a solve, or "find algorithms" for the state), and a job's page (progress while it runs, the solution step by step after).

The job's start state and its solution are shown in the site's player (puzzlehub/web/player.py);
static/jobs/job.js refreshes the progress while the job runs.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.views.decorators.http import require_POST

from puzzlehub.jobs import selectors, services
from puzzlehub.jobs.models import Job
from puzzlehub.repos.selectors import get_repository
from puzzlehub.web.player import player_context

def page_base() -> str:
    """The site's page frame when the web app provides one, else this app's plain frame."""
    try:
        get_template("web/base.html")
        return "web/base.html"
    except TemplateDoesNotExist:
        return "jobs/base.html"


def job_player(request, job: Job):
    """The site's player on the job's start state (and, for a solve that succeeded, its solution,
    for a find-algorithms job its first sequence, ready to play); None for jobs without a state,
    and on a repository the reader may no longer see."""
    options = job.options or {}
    if not job.repository_seen or job.revision is None or not (job.kind == Job.SOLVE or options.get("find")) or "state" not in options:
        return None
    result = (job.result or {}) if job.status == Job.SUCCEEDED else {}
    # a solve's solution, or the first sequence a find-algorithms job found
    solution = result.get("solution") or next((f["moves"] for f in result.get("found", [])), None)
    try:
        return player_context(request, job.revision.repository, job.revision, start=job.options["state"],
                              alg=solution or [], cursor=0, readonly=True, key="job")
    except ValidationError:  # a stored definition that no longer loads: the page still shows the job
        return None


def job_page(request, job_id: int):
    job = selectors.get_job(job_id=job_id, user=request.user)
    return render(request, "jobs/job.html", {
        "base": page_base(), "job": job, "player": job_player(request, job),
        "can_cancel": request.user.is_authenticated and job.user_id == request.user.id and not job.finished,
        "progress": selectors.progress_of(job), "percent": round(job.progress * 100),
    })


def solve_page(request, owner: str, name: str):
    """GET: the solve form on its own; POST: queue the solve and go to its page."""
    repository = get_repository(owner=owner, name=name, user=request.user)
    errors, values, code = {}, {}, 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/login/?next={request.path}")
        values = {k: request.POST.get(k, "").strip() for k in ("state", "scramble", "goal", "time_limit")}
        values["optimal"] = request.POST.get("optimal") == "on"
        find = request.POST.get("action") == "find"  # find algorithms for the state instead of solving it
        try:
            time_limit = float(values["time_limit"]) if values["time_limit"] else None
        except ValueError:
            errors["time_limit"], code = ["a number of seconds"], 400
        if not errors:
            try:
                given = {"user": request.user, "repository": repository, "state": values["state"] or None,
                         "scramble": values["scramble"] or None, "goal": values["goal"] or None,
                         "time_limit": time_limit}
                job = (services.submit_find(**given) if find
                       else services.submit_solve(**given, optimal=values["optimal"]))
                return redirect("job", job_id=job.id)
            except ValidationError as exc:
                errors = {("form" if field == "__all__" else field): m for field, m in exc.message_dict.items()}
                code = 400
            except services.QuotaExceeded as exc:
                errors, code, retry_after = {"form": [str(exc)]}, 429, exc.retry_after
    response = render(request, "jobs/solve.html", {
        "base": page_base(), "repository": repository, "errors": errors, "values": values,
    }, status=code)
    if code == 429:
        response["Retry-After"] = str(retry_after)
    return response


@require_POST
@login_required
def cancel_page(request, job_id: int):
    job = selectors.get_job(job_id=job_id, user=request.user)
    services.cancel(job=job, user=request.user)
    return redirect("job", job_id=job.id)
