"""Pages: the solve form, and a job's page (progress while it runs, the solution step by step after).

Everything is rendered on the server and readable without JavaScript; static/jobs/job.js only
refreshes the progress and steps through the solution.
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
from solver import api as solver_api

# colours for definitions that give none, by colour index
FALLBACK_HEX = ["#f4f4f4", "#d01010", "#109030", "#1040c0", "#f0c000", "#f07000", "#8040c0", "#20b0c0",
                "#c04080", "#808080", "#603010", "#101010"]


def page_base() -> str:
    """The site's page frame when the web app provides one, else this app's plain frame."""
    try:
        get_template("web/base.html")
        return "web/base.html"
    except TemplateDoesNotExist:
        return "jobs/base.html"


def colour_map(defn) -> dict[str, str]:
    given = {symbol: hex_ for symbol, _name, hex_ in defn.colors if hex_}
    return {c: given.get(c, FALLBACK_HEX[i % len(FALLBACK_HEX)]) for i, c in enumerate(defn.colours)}


def solution_steps(job: Job) -> list[dict]:
    """The start state and the state after each move of a solve's solution, replayed here."""
    solution = (job.result or {}).get("solution")
    if job.kind != Job.SOLVE or job.status != Job.SUCCEEDED or solution is None or job.revision is None:
        return []
    defn = selectors.definition_of(job.revision)
    colours = colour_map(defn)
    state = tuple(job.options["state"])
    steps = [{"number": 0, "move": None, "cells": [(c, colours[c]) for c in state]}]
    for k, move in enumerate(solution, 1):
        state = solver_api.apply_moves(defn, [move], state)
        steps.append({"number": k, "move": move, "cells": [(c, colours[c]) for c in state]})
    return steps


def job_page(request, job_id: int):
    job = selectors.get_job(job_id=job_id, user=request.user)
    return render(request, "jobs/job.html", {
        "base": page_base(), "job": job, "steps": solution_steps(job),
        "can_cancel": request.user.is_authenticated and job.user_id == request.user.id and not job.finished,
        "percent": round(job.progress * 100),
    })


def solve_page(request, owner: str, name: str):
    """GET: the solve form on its own; POST: queue the solve and go to its page."""
    repository = get_repository(owner=owner, name=name, user=request.user)
    errors, values, code = {}, {}, 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/login/?next={request.path}")
        values = {k: request.POST.get(k, "").strip() for k in ("state", "scramble", "time_limit")}
        values["optimal"] = request.POST.get("optimal") == "on"
        try:
            time_limit = float(values["time_limit"]) if values["time_limit"] else None
        except ValueError:
            errors["time_limit"], code = ["a number of seconds"], 400
        if not errors:
            try:
                job = services.submit_solve(
                    user=request.user, repository=repository, state=values["state"] or None,
                    scramble=values["scramble"] or None, optimal=values["optimal"], time_limit=time_limit,
                )
                return redirect("job", job_id=job.id)
            except ValidationError as exc:
                errors = {("form" if field == "__all__" else field): m for field, m in exc.message_dict.items()}
                code = 400
            except services.QuotaExceeded as exc:
                errors, code = {"form": [str(exc)]}, 429
    return render(request, "jobs/solve.html", {
        "base": page_base(), "repository": repository, "errors": errors, "values": values,
    }, status=code)


@require_POST
@login_required
def cancel_page(request, job_id: int):
    job = selectors.get_job(job_id=job_id, user=request.user)
    services.cancel(job=job, user=request.user)
    return redirect("job", job_id=job.id)
