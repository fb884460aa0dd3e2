"""What each kind of job asks of the solver. A runner takes the claimed job and its lease and
returns (status, result, error); solver input errors become the job's error text."""

from __future__ import annotations

import importlib
from pathlib import Path

from puzzlehub.jobs import artifacts
from puzzlehub.jobs.models import Job
from puzzlehub.jobs.selectors import definition_of
from solver import api as solver_api
from solver.errors import PuzzleError

Outcome = tuple[str, dict | None, str]


def _definition(job: Job):
    if job.revision is None:
        raise PuzzleError("the repository revision this job was for has been deleted")
    return definition_of(job.revision)


def _stopped(lease, result: dict | None, reason: str | None, limit: float) -> Outcome:
    if lease.cancelled.is_set() or reason == "cancelled":
        return Job.CANCELLED, result, "cancelled while running"
    # say what ran and for how long: a search that stopped early must not claim the whole limit
    ran = f" after {result['seconds']:g} s of {result['method']} (limit {limit:g} s)" if result else f" within {limit:g} s"
    return Job.FAILED, result, f"{reason or 'stopped'}: no answer{ran}"


def solve(job: Job, lease) -> Outcome:
    defn = _definition(job)
    artifacts.fetch_all(job.content_hash)  # tables other workers built, into this worker's cache
    options = job.options
    result = solver_api.solve(
        defn, tuple(options["state"]), optimal=options.get("optimal", False), method=options.get("method"),
        time_limit=job.time_limit, max_length=options.get("max_length"), progress=lease.report,
        cancel=lease.should_stop, group_data=job.revision.group_data, goal=options.get("goal"),
    )
    # Pattern databases the solve built are stored for every worker (finish records them); the
    # specialized solvers' own tables are built from nothing but the puzzle's size, kept locally.
    shared = {Path(p) for p in result["tables"] if Path(p).parent.resolve() == artifacts.local_dir().resolve()}
    if shared:
        result["databases"] = _publish(shared)
    result["tables"] = [Path(p).name for p in result["tables"]]  # which tables, not where this machine keeps them
    if lease.cancelled.is_set():  # an answer found before the cancel is kept, the job is still cancelled
        return _stopped(lease, result, "cancelled", job.time_limit)
    if result["solution"] is None:
        if result["stopped"]:
            return _stopped(lease, result, result["stopped"], job.time_limit)
        return Job.FAILED, result, "the search ended without reaching a goal"
    if not result["verified"]:  # never store an answer that does not replay
        return Job.FAILED, None, "the solver's answer did not replay to a goal"
    return Job.SUCCEEDED, result, ""


def pattern_database(job: Job, lease) -> Outcome:
    """Build the tables under the job's time limit and cancel (a build stops within about a
    tenth of a second of either, and keeps nothing half-built)."""
    defn = _definition(job)
    artifacts.fetch_all(job.content_hash, force=True)  # what is stored already is reused, not rebuilt
    try:
        headers = solver_api.pdb_build(defn, projection_json=job.options.get("projection"),
                                       budget_bytes=job.memory_limit, time_limit=job.time_limit,
                                       progress=lease.report, cancel=lease.should_stop)
    except solver_api.Cancelled:
        return _stopped(lease, None, "cancelled", job.time_limit)
    except solver_api.OutOfTime as stop:
        return Job.FAILED, None, f"time limit: {stop} (limit {job.time_limit:g} s)"
    if lease.should_stop():
        return _stopped(lease, None, "cancelled", job.time_limit)
    return Job.SUCCEEDED, {"databases": _publish({Path(h["path"]) for h in headers})}, ""


def _publish(paths: set[Path]) -> list[dict]:
    """Store local table files and describe them with the solver's facts."""
    headers = {Path(h["path"]).resolve(): h for h in solver_api.pdb_list()}
    databases = []
    for path in sorted(paths):
        header = headers[path.resolve()]
        facts = {k: header.get(k) for k in ("entries", "bits", "full", "max_depth", "distribution", "build_seconds")}
        databases.append(dict(artifacts.publish(path), projection=header["projection"],
                              description=header.get("description", ""), header=facts))
    return databases


def discovery(job: Job, lease) -> Outcome:
    if job.options.get("sets"):
        return algorithm_sets(job, lease)
    if job.options.get("find"):
        return find_algorithms(job, lease)
    discover = getattr(importlib.import_module("solver.discover"), "discover", None)
    if discover is None:
        raise PuzzleError("discovery: this server's solver cannot discover algorithms yet")
    defn = _definition(job)
    found = discover(defn, max_length=job.options.get("max_length"), max_support=job.options.get("max_support"),
                     time_limit=job.time_limit, progress=lease.report, cancel=lease.should_stop,
                     keep=job.options.get("keep"))
    if lease.cancelled.is_set():
        return Job.CANCELLED, {"algorithms": found}, "cancelled while running"
    return Job.SUCCEEDED, {"algorithms": found}, ""  # services.finish records them under the puzzle


def find_algorithms(job: Job, lease) -> Outcome:
    """Sequences from the job's state to a goal (a discovery job with the `find` option);
    services.finish records them as the repository's algorithms."""
    options = job.options
    found = solver_api.find_algorithms(
        _definition(job), tuple(options["state"]), goal=options.get("goal"), count=options["count"],
        extra=options["extra"], moves=options.get("moves"), time_limit=job.time_limit, progress=lease.report,
        cancel=lease.should_stop,
    )
    if lease.cancelled.is_set():
        return Job.CANCELLED, None, "cancelled while running"
    if not found["algorithms"]:
        return Job.FAILED, None, f"no sequence found within {job.time_limit:g} s"
    result = {"found": found.pop("algorithms"), **found}
    return Job.SUCCEEDED, result, ""


def algorithm_sets(job: Job, lease) -> Outcome:
    """The staged sets of the puzzle's layers and their cases' algorithms (a discovery job with the
    `sets` option); services.finish records them."""
    defn = _definition(job)
    sets = solver_api.algorithm_sets(defn, moves=job.options.get("moves"), time_limit=job.time_limit,
                                     progress=lease.report, cancel=lease.should_stop)
    if lease.cancelled.is_set():
        return Job.CANCELLED, None, "cancelled while running"
    effects = {}
    for entry in sets:  # each algorithm with its effect, as discovery gives them
        for case in entry["cases"]:
            for moves in case["algorithms"]:
                key = " ".join(moves)
                if key not in effects:
                    effects[key] = solver_api.effect(defn, moves)
            case["algorithms"] = [dict(effects[" ".join(m)], moves=m, length=len(m)) for m in case["algorithms"]]
    return Job.SUCCEEDED, {"sets": sets}, ""
