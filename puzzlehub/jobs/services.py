"""Writes about jobs: submit (everything validated before anything is queued), claim, heartbeat,
finish, cancel, and the janitor's sweep.

The lease protocol (DESIGN.md): `claim` is one conditional UPDATE (owner token, expiry, attempts+1),
so two deliveries of one message never run the job at the same time; `heartbeat` renews the lease
and writes progress; `finish` writes the outcome only while the caller still holds the lease
(fencing); `sweep` gives expired leases back to the queue, fails jobs that ran out of attempts and
sends again queued jobs whose message was lost.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Min
from django.db.models.functions import Coalesce
from django.utils import timezone

from puzzlehub.algorithms.models import Algorithm, AlgorithmSet, SetCase
from puzzlehub.algorithms.selectors import sets_for, visible_algorithms
from puzzlehub.algorithms.services import known_to_readers, record_discovered_algorithm
from puzzlehub.jobs import cancel_signal, dispatch, transitions
from puzzlehub.jobs.models import Job, PatternDatabase
from puzzlehub.jobs.selectors import active_count, definition_of, quota_of, visible_jobs
from puzzlehub.jobs.selectors import open_to_readers as _open_to_readers
from puzzlehub.repos.models import Repository
from puzzlehub.repos.selectors import get_revision, readers_of
from solver import api as solver_api, catalog
from solver.errors import PuzzleError

log = logging.getLogger(__name__)

MAX_DISCOVERY_LENGTH = 40  # moves per discovered sequence a user may ask for
FIRST_DISCOVERY_KEEP = 8  # sequences per effect class a puzzle's first discovery run keeps
REACHABILITY_SECONDS = 0.1  # of a request, at most, for a reachability check without group data
MAX_FOUND = 100  # sequences a find-algorithms job may ask for


class QuotaExceeded(Exception):
    """The user already has as many queued or running jobs as allowed (HTTP 429, Retry-After:
    `retry_after` seconds, when the soonest of them should have ended)."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


# ----------------------------------------------------------------------------------- submitting


def _number(field: str, value, *, low: float, high: float, integer: bool = False):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not float(value).is_integer()):
        raise ValidationError({field: f"expected {'a whole number' if integer else 'a number'}, got {value!r}"})
    if not low <= value <= high:
        raise ValidationError({field: f"must be between {low:g} and {high:g}"})
    return int(value) if integer else float(value)


def _time_limit(kind: str, value) -> float:
    default, most = settings.JOB_TIME_LIMITS[kind]
    chosen = _number("time_limit", value, low=0.1, high=most)
    return float(default) if chosen is None else chosen


def _memory_limit(value) -> int:
    default, most = settings.JOB_MEMORY_MB
    chosen = _number("memory_mb", value, low=16, high=most, integer=True)
    return (default if chosen is None else chosen) * 2**20


def _dedupe_key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _submitter(user):
    if user is None or not user.is_authenticated:
        raise PermissionDenied("log in to submit jobs")
    return user


def _revision(repository: Repository, number):
    number = _number("revision", number, low=1, high=2**31 - 1, integer=True)
    return get_revision(repository=repository, number=number, field="revision")


def _queue(*, user, repository: Repository, revision, kind: str, options: dict, dedupe_key: str,
           time_limit: float, memory_limit: int, quota: bool = True, send: bool = True,
           progress_text: str = "", background: bool = False) -> Job:
    """Create a queued job within the user's quota (unless `quota` is off: the catalog's own
    discoveries, which go to the backfill queue when `background`); its message is sent once the
    row is committed (unless `send` is false: a job waiting for another's work, which the janitor
    sends if it stays queued past JOB_REDISPATCH)."""
    # one submission at a time per user, so that concurrent requests cannot overrun the quota
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if quota and active_count(user) >= settings.JOB_QUOTA:
        full = quota_of(user)
        raise QuotaExceeded(full.refusal(), retry_after=full.soonest()[1])
    job = Job.objects.create(
        kind=kind, user=user, repository=repository, revision=revision, content_hash=revision.content_hash,
        options=options, dedupe_key=dedupe_key, time_limit=time_limit, memory_limit=memory_limit,
        max_attempts=settings.JOB_ATTEMPTS, dispatched_at=timezone.now() if send else None, progress_text=progress_text,
        background=background,
    )
    transitions.record(job_id=job.id, kind=kind, before=transitions.NEW, after=Job.QUEUED)
    if send:
        _send_on_commit(job)
    return job


def _send_on_commit(job: Job) -> None:
    transaction.on_commit(partial(dispatch.send, job_id=job.id, kind=job.kind, queue=job.queue, time_limit=job.time_limit))


def _answered(**fields) -> Job:
    """A job answered at once from stored work: created finished."""
    job = Job.objects.create(**fields)
    transitions.record(job_id=job.id, kind=job.kind, before=transitions.NEW, after=job.status)
    return job


def _start_state(defn, revision, *, state, scramble, goal=None) -> tuple:
    """The state a solve starts from; towards a partial goal (parsed) it may show `?` too, and
    is checked as the projected puzzle sees it."""
    if (state is None) == (scramble is None):
        raise ValidationError({"state": "give either a state (colours) or a scramble (moves), not both"})
    if scramble is not None:
        try:
            start = solver_api.apply_moves(defn, solver_api.parse_moves(defn, scramble))
        except PuzzleError as exc:
            raise ValidationError({"scramble": str(exc)}) from None
    else:
        try:
            start = solver_api.parse_state(defn, state, wildcard=None if goal is None else solver_api.WILDCARD)
        except PuzzleError as exc:
            raise ValidationError({"state": str(exc)}) from None
    try:
        checked_defn, checked_start = _projected(defn, start, goal)  # refuses a mask it cannot honour
        # a scramble's state is reachable by construction; a given one is checked from the revision's
        # group data in milliseconds, or without it (not analysed yet, a group of another kind, a
        # partial goal) for at most REACHABILITY_SECONDS here, and the worker's solve checks again
        reason = None if scramble is not None else solver_api.reachability(
            checked_defn, checked_start, revision.group_data if goal is None else None,
            time_limit=REACHABILITY_SECONDS)
    except PuzzleError as exc:  # a piece the puzzle does not have, a mask it cannot honour
        field, _, problem = str(exc).partition(": ")
        raise ValidationError({field: problem}) from None
    if reason is not None:
        raise ValidationError({"state": f"state cannot be solved: {reason}"})
    return start


def _projected(defn, start, goal):
    if goal is None:
        return defn, start
    projection = solver_api.partial_goal(defn, goal)
    return projection.defn, projection.state(start)


def _goal(defn, goal):
    """A partial goal (`?` where a sticker does not matter), parsed; None when not given."""
    if goal is None:
        return None
    try:
        return solver_api.parse_goal(defn, goal)
    except PuzzleError as exc:
        raise ValidationError({"goal": str(exc).removeprefix("goal: ")}) from None


def _stored_solution(defn, *, repository: Repository, key: str, start: tuple, goal=None) -> Job | None:
    """A finished solve with this key, open to the repository's readers, whose solution still
    replays from `start` to a goal."""
    defn, start = _projected(defn, start, goal)
    solves = Job.objects.filter(kind=Job.SOLVE, dedupe_key=key, status=Job.SUCCEEDED,
                                id__in=_open_to_readers(repository))
    for done in solves.order_by("-finished_at")[:3]:
        moves = (done.result or {}).get("solution")
        if moves is not None and solver_api.verify(defn, start, moves):
            return done
    return None


@transaction.atomic
def submit_solve(*, user, repository: Repository, state=None, scramble=None, optimal=False, method=None,
                 time_limit=None, max_length=None, revision=None, goal=None) -> Job:
    """A solve of `state` (colours) or of the state `scramble` (moves) makes from the goal, towards
    the puzzle's goal or a partial `goal` (`?` where a sticker does not matter).

    A state this puzzle cannot reach is refused here, with the reason. The same state on the same
    canonical puzzle with the same options answers at once from the stored result of a job every
    reader of the repository may open (never from another user's private repository)."""
    user = _submitter(user)
    if not isinstance(optimal, bool):
        raise ValidationError({"optimal": "true or false"})
    try:
        solver_api.check_solve_options(method=method, max_length=max_length)
    except PuzzleError as exc:
        field, _, problem = str(exc).partition(": ")
        raise ValidationError({field: problem}) from None
    limit = _time_limit(Job.SOLVE, time_limit)
    rev = _revision(repository, revision)
    defn = definition_of(rev)
    target = _goal(defn, goal)
    start = _start_state(defn, rev, state=state, scramble=scramble, goal=target)
    options = {"state": list(start), "optimal": optimal, "method": method, "max_length": max_length}
    if scramble is not None:
        options["scramble"] = solver_api.parse_moves(defn, scramble)
    if target is not None:
        options["goal"] = list(target)
    # a target length and a partial goal are part of the question (keys of solves without are unchanged)
    key = _dedupe_key(Job.SOLVE, rev.content_hash, list(start), optimal, method,
                      *([] if max_length is None else [max_length]), *([] if target is None else [list(target)]))
    done = _stored_solution(defn, repository=repository, key=key, start=start, goal=target)
    if done is not None:
        now = timezone.now()
        return _answered(
            kind=Job.SOLVE, status=Job.SUCCEEDED, user=user, repository=repository, revision=rev,
            content_hash=rev.content_hash, options=options, dedupe_key=key, time_limit=limit, memory_limit=0,
            max_attempts=0, progress=1.0, progress_text=f"answered from job {done.id}",
            result=dict(done.result, cached_from=done.id), started_at=now, finished_at=now,
        )
    return _queue(user=user, repository=repository, revision=rev, kind=Job.SOLVE, options=options,
                  dedupe_key=key, time_limit=limit, memory_limit=_memory_limit(None))


def _projection_text(projection, defn, memory: int) -> str | None:
    """The projection in the solver's compact JSON text (a list of parts), checked against the
    puzzle and the memory budget; None for the solver's own plan."""
    if projection is None or projection == "":
        return None
    if isinstance(projection, str):
        try:
            projection = json.loads(projection)
        except (ValueError, RecursionError) as exc:
            raise ValidationError({"projection": f"not valid JSON ({exc})"}) from None
    if not isinstance(projection, list) or not projection:
        raise ValidationError({"projection": "a list of parts [orbit, [pieces], twist, merged, [free pieces]]"})
    try:
        return solver_api.check_projection(defn, json.dumps(projection, separators=(",", ":")), memory)
    except PuzzleError as exc:
        raise ValidationError({"projection": str(exc).removeprefix("projection: ")}) from None


def submit_pattern_database(*, user, repository: Repository, projection=None, memory_mb=None,
                            time_limit=None, revision=None) -> Job:
    """A pattern-database build. The work is shared, the job is not: every user gets a job of their
    own (nobody is handed another's, which may be on a private repository). Tables already stored
    answer at once; while the same tables are being built for someone else, the job waits for that
    build (finish completes it) instead of building them a second time. Either is said, and the
    other job named, only when every reader of the repository may open that job."""
    user = _submitter(user)
    rev = _revision(repository, revision)
    defn = definition_of(rev)
    memory = _memory_limit(memory_mb)
    text = _projection_text(projection, defn, memory)
    limit = _time_limit(Job.PDB, time_limit)
    # without a projection the solver plans the tables itself, and the plan depends on the budget
    key = _dedupe_key(Job.PDB, rev.content_hash, text if text is not None else f"plan:{memory}")
    mine = Job.objects.filter(kind=Job.PDB, dedupe_key=key, user=user, status__in=Job.ACTIVE).first()
    if mine is not None:
        return mine
    options = {"projection": text}
    builds = Job.objects.filter(kind=Job.PDB, dedupe_key=key)
    # the work is shared, what is said of it is not: tables, or a build under way, that only jobs
    # hidden from the repository's readers hold are used without a word about them
    shown = _open_to_readers(repository)
    built, said = _pdb_built(builds.filter(id__in=shown)), "these tables were already built and stored"
    if built is None:
        built, said = _pdb_built(builds), ""
    if built is not None:
        now = timezone.now()
        return _answered(
            kind=Job.PDB, status=Job.SUCCEEDED, user=user, repository=repository, revision=rev,
            content_hash=rev.content_hash, options=options, dedupe_key=key, time_limit=limit, memory_limit=memory,
            max_attempts=0, progress=1.0, progress_text=said, result=built.result, started_at=now, finished_at=now,
        )
    under_way = builds.filter(status__in=Job.ACTIVE)
    try:
        with transaction.atomic():
            job = _queue(user=user, repository=repository, revision=rev, kind=Job.PDB, options=options,
                         dedupe_key=key, time_limit=limit, memory_limit=memory,
                         send=not under_way.exists(), progress_text="waiting for the same tables, being built already"
                         if under_way.filter(id__in=shown).exists() else "")
    except IntegrityError:  # the same user asked twice at the same moment
        return Job.objects.get(kind=Job.PDB, dedupe_key=key, user=user, status__in=Job.ACTIVE)
    return job


def _pdb_built(builds) -> Job | None:
    """The latest successful build among `builds` whose files are all stored (a build that waited
    for another's tables, or was answered from them, lists the same files)."""
    done = builds.filter(status=Job.SUCCEEDED).order_by("-finished_at").first()
    if done is None:
        return None
    names = [db["storage_name"] for db in (done.result or {}).get("databases", [])]
    return done if PatternDatabase.objects.filter(storage_name__in=names).count() == len(names) else None


@transaction.atomic
def submit_discovery(*, user, repository: Repository, max_length=None, max_support=None, time_limit=None,
                     revision=None) -> Job:
    """A discovery run; the algorithms it finds are recorded under the repository's puzzle."""
    user = _submitter(user)
    options = {
        "max_length": _number("max_length", max_length, low=1, high=MAX_DISCOVERY_LENGTH, integer=True),
        "max_support": _number("max_support", max_support, low=1, high=10_000, integer=True),
    }
    rev = _revision(repository, revision)
    limit = _time_limit(Job.DISCOVER, time_limit)
    key = _dedupe_key(Job.DISCOVER, rev.content_hash, options, limit)
    return _queue(user=user, repository=repository, revision=rev, kind=Job.DISCOVER, options=options,
                  dedupe_key=key, time_limit=limit, memory_limit=_memory_limit(None))


@transaction.atomic
def submit_find(*, user, repository: Repository, state=None, scramble=None, goal=None, count=None, extra=None,
                moves=None, time_limit=None, revision=None) -> Job:
    """Find algorithms for a state (colours, or what `scramble` makes): the shortest sequences
    to the goal or a partial `goal`, all of the shortest length first, then up to `extra` moves
    longer, `count` of them, optionally with only `moves`. They are recorded as algorithms of the
    repository (so a private repository's stay private), credited to the user."""
    user = _submitter(user)
    rev = _revision(repository, revision)
    defn = definition_of(rev)
    if defn.guarded:
        raise ValidationError({"moves": "finding algorithms needs moves that always apply (this puzzle's are guarded)"})
    target = _goal(defn, goal)
    start = _start_state(defn, rev, state=state, scramble=scramble, goal=target)
    if moves is not None:
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise ValidationError({"moves": "a list of move names"})
        unknown = [m for m in moves if m not in defn.move_index]
        if unknown:
            raise ValidationError({"moves": f"no move named {unknown[0]!r}"})
    options = {"find": True, "state": list(start), "goal": None if target is None else list(target),
               "count": _number("count", count, low=1, high=MAX_FOUND, integer=True) or 10,
               "extra": _number("extra", extra, low=0, high=10, integer=True),
               "moves": moves}
    options["extra"] = 2 if options["extra"] is None else options["extra"]
    limit = _time_limit(Job.DISCOVER, time_limit)
    key = _dedupe_key(Job.DISCOVER, rev.content_hash, options, limit, user.id)
    return _queue(user=user, repository=repository, revision=rev, kind=Job.DISCOVER, options=options,
                  dedupe_key=key, time_limit=limit, memory_limit=_memory_limit(None))


def _wants_discovery(revision) -> bool:
    """A puzzle with no algorithms and no discovery run (queued, running or done) for its content
    that its repository's readers can see, whose moves discovery can use (guarded moves it cannot).
    Others' private algorithms and runs count for nothing: they are not the readers' to have."""
    if revision.facts.get("guarded"):
        return False
    readers = readers_of(revision.repository)
    if visible_algorithms(readers).filter(content_hash=revision.content_hash).exists():
        return False
    return not visible_jobs(readers).filter(kind=Job.DISCOVER, content_hash=revision.content_hash).exclude(
        status__in=(Job.FAILED, Job.CANCELLED)).exclude(options__has_key="sets").exists()


@transaction.atomic
def discover_new_puzzle(*, revision, catalog: bool = False, time_limit=None) -> Job | None:
    """Queue a discovery run for a public revision whose puzzle has no algorithms yet, as its
    repository's owner; None when it is not wanted or the owner's quota is full (`catalog`: the
    catalog's own run, outside quotas, on the backfill queue)."""
    repository = revision.repository
    if repository.visibility != Repository.PUBLIC or not _wants_discovery(revision):
        return None
    # more alternatives per effect class than a user's run keeps: a puzzle's first algorithms
    options = {"max_length": None, "max_support": None, "keep": FIRST_DISCOVERY_KEEP}
    limit = _time_limit(Job.DISCOVER, time_limit)
    key = _dedupe_key(Job.DISCOVER, revision.content_hash, options, limit)
    try:
        return _queue(user=repository.owner, repository=repository, revision=revision, kind=Job.DISCOVER,
                      options=options, dedupe_key=key, time_limit=limit, memory_limit=_memory_limit(None),
                      quota=not catalog, background=catalog)
    except QuotaExceeded:
        return None


def discover_catalog(*, repositories) -> list[Job]:
    """The catalog's discovery runs and set builds, outside quotas: first the featured puzzles'
    (catalog.FEATURED: their discoveries, then their set builds), then the others' in the same
    way, smallest puzzles first, so that the common ones have algorithms within minutes of
    `make run` (bench/bench_first_algorithms.py) instead of waiting behind every other puzzle."""
    def size(repository):
        return int(repository.head.state_count) if repository.head.state_count.isdigit() else 10**400

    ordered = sorted(repositories, key=size)
    featured = [r for r in ordered if r.name in catalog.FEATURED]
    return _first_jobs(featured) + _first_jobs([r for r in ordered if r.name not in catalog.FEATURED])


def _first_jobs(ordered) -> list[Job]:
    """Discovery runs for these puzzles (short), then their set builds, in this order."""
    jobs = []
    for repository in ordered:
        job = discover_new_puzzle(revision=repository.head, catalog=True,
                                  time_limit=settings.CATALOG_DISCOVERY_SECONDS)
        if job is not None:
            jobs.append(job)
    for repository in ordered:
        # only sets and builds the repository's readers may see count: a private repository's never stop it
        if not repository.head.facts.get("guarded") and not sets_for(repository=repository).exists() and not Job.objects.filter(
                id__in=_open_to_readers(repository), kind=Job.DISCOVER, content_hash=repository.head.content_hash,
                options__has_key="sets").exclude(status__in=(Job.FAILED, Job.CANCELLED)).exists():
            jobs.append(submit_sets(user=repository.owner, repository=repository, catalog=True,
                                    time_limit=settings.CATALOG_SETS_SECONDS))
    return jobs


@transaction.atomic
def submit_sets(*, user, repository: Repository, moves=None, time_limit=None, revision=None,
                catalog: bool = False) -> Job:
    """A run that builds the staged sets of the puzzle's layers (those `moves` turn; by default one
    layer per kind the puzzle has) and finds algorithms for their cases (`catalog`: the catalog's
    own, outside quotas, on the backfill queue)."""
    user = _submitter(user)
    rev = _revision(repository, revision)
    if moves is not None:
        names = set(definition_of(rev).move_names)
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise ValidationError({"moves": "a list of move names"})
        unknown = [m for m in moves if m not in names]
        if unknown:
            raise ValidationError({"moves": f"no move named {unknown[0]!r}"})
    if rev.facts.get("guarded"):
        raise ValidationError({"moves": "a puzzle with guarded moves has no layers to learn"})
    options = {"sets": True, "moves": moves}
    limit = _time_limit(Job.DISCOVER, time_limit)
    key = _dedupe_key(Job.DISCOVER, rev.content_hash, options, limit)
    return _queue(user=user, repository=repository, revision=rev, kind=Job.DISCOVER, options=options,
                  dedupe_key=key, time_limit=limit, memory_limit=_memory_limit(None), quota=not catalog,
                  background=catalog)


# ----------------------------------------------------------------------------------- the lease


def _lease_expiry():
    return timezone.now() + timedelta(seconds=settings.JOB_LEASE)


def claim(*, job_id: int, owner: str, worker: str) -> Job | None:
    """Take the job for `owner` if it is queued (or its lease ran out); None when someone else has
    it, it is finished or cancelled, or it has used all its attempts."""
    now = timezone.now()
    claimable = Job.objects.filter(id=job_id, cancel_requested=False, attempts__lt=F("max_attempts"))
    take = dict(status=Job.RUNNING, lease_owner=owner, lease_expires=_lease_expiry(), worker=worker,
                attempts=F("attempts") + 1, started_at=Coalesce("started_at", now), heartbeat_at=now)
    # queued first; a running job whose lease ran out (its worker went silent) is taken over
    before = Job.QUEUED
    if not claimable.filter(status=Job.QUEUED).update(**take):
        before = Job.RUNNING
        if not claimable.filter(status=Job.RUNNING, lease_expires__lt=now).update(**take):
            return None
    # the revision's text is not needed: definition_of loads it once per process
    job = Job.objects.select_related("revision").defer("revision__definition").get(id=job_id)
    if before == Job.RUNNING:
        transitions.lease_expired(kind=job.kind)
    since = job.created_at if job.attempts == 1 else job.dispatched_at
    transitions.record(job_id=job.id, kind=job.kind, before=before, after=Job.RUNNING,
                       since=since if before == Job.QUEUED else None, worker=worker)
    return job


def heartbeat(*, job_id: int, owner: str, progress: float | None = None, text: str = "") -> tuple[bool, bool]:
    """Renew the lease and write progress. Returns (still held, cancel requested)."""
    changes = {"lease_expires": _lease_expiry(), "heartbeat_at": timezone.now()}
    if progress is not None:
        changes.update(progress=progress, progress_text=text[:200])
    held = Job.objects.filter(id=job_id, lease_owner=owner, status=Job.RUNNING).update(**changes)
    if not held:
        return False, False
    return True, Job.objects.filter(id=job_id).values_list("cancel_requested", flat=True).get()


def finish(*, job_id: int, owner: str, status: str, result=None, error: str = "",
           progress: float | None = None, text: str = "") -> bool:
    """Write the outcome if `owner` still holds the lease; False (nothing written) otherwise."""
    if status not in Job.FINISHED:
        raise ValueError(f"status: {status!r} is not a finished status")
    changes = {"status": status, "result": result, "error": error[:5000], "finished_at": timezone.now(),
               "lease_owner": "", "lease_expires": None}
    if status == Job.SUCCEEDED:
        changes["progress"] = 1.0
    elif progress is not None:  # a stopped job keeps how far it got
        changes.update(progress=progress, progress_text=text[:200])
    held = Job.objects.filter(id=job_id, lease_owner=owner, status=Job.RUNNING)
    records = status == Job.SUCCEEDED and bool({"algorithms", "databases", "sets", "found"} & set(result or {}))
    if not records:  # most jobs: one conditional UPDATE
        if held.update(**changes) != 1:
            return False
        job = Job.objects.only("kind", "started_at", "worker").get(id=job_id)
        transitions.record(job_id=job_id, kind=job.kind, before=Job.RUNNING, after=status, since=job.started_at,
                           worker=job.worker)
        return True
    with transaction.atomic():  # what the job found is recorded with its outcome, or not at all
        job = held.select_for_update().first()
        if job is None:
            return False
        if job.kind == Job.DISCOVER and "algorithms" in result:
            changes["result"] = _record_algorithms(job, result)
        if job.kind == Job.DISCOVER and "sets" in result:
            changes["result"] = _record_sets(job, result)
        if job.kind == Job.DISCOVER and "found" in result:
            changes["result"] = _record_found(job, result)
        if (result or {}).get("databases"):  # a build's, or a solve's on the way
            _record_pattern_databases(job, result)
        Job.objects.filter(id=job_id).update(**changes)
        transitions.record(job_id=job_id, kind=job.kind, before=Job.RUNNING, after=status, since=job.started_at,
                           worker=job.worker)
        if job.kind == Job.PDB:  # the builds that waited for this one share its tables
            waiting = Job.objects.select_for_update().filter(kind=Job.PDB, dedupe_key=job.dedupe_key, status=Job.QUEUED)
            for waiter in waiting.only("id", "created_at", "repository"):
                transitions.record(job_id=waiter.id, kind=Job.PDB, before=Job.QUEUED, after=status,
                                   since=waiter.created_at)
                # named only where every reader of the waiter may open it
                named = waiter.repository is not None and _open_to_readers(waiter.repository).filter(id=job.id).exists()
                Job.objects.filter(id=waiter.id).update(
                    **changes, started_at=changes["finished_at"],
                    progress_text=f"the same tables were built by job {job.id}" if named else "")
    return True


def _record_algorithms(job: Job, result: dict) -> dict:
    """Record what the job found under its puzzle, deduplicated by effect class (the effect key is
    the same up to setups, inversion and the puzzle's symmetries): a class the puzzle has no
    algorithm for is recorded whole, a known class only by sequences shorter than its best."""
    recorded, known = [], 0
    # what counts as known is what the repository's readers see: never another user's private ones
    seen = visible_algorithms(readers_of(job.revision.repository)) if job.revision else Algorithm.objects.none()
    best = dict(
        seen.filter(content_hash=job.content_hash).exclude(effect_key="")
        .values_list("effect_key").annotate(shortest=Min("length")).order_by()
    )
    for found in result.get("algorithms", []):
        moves = " ".join(found["moves"])
        key = found.get("effect_key") or ""
        shorter = not key or key not in best or len(found["moves"]) < best[key]
        # known to the repository's readers: a sequence held only in others' private repositories is new
        if job.revision is None or not shorter or known_to_readers(job.revision, moves) is not None:
            known += 1
            continue
        try:
            algorithm = record_discovered_algorithm(revision=job.revision, moves=found["moves"], effect=found,
                                                    job=job)
        except ValidationError as exc:  # replay refused it: never store what does not verify
            log.warning("job %s: discovered sequence %r refused: %s", job.id, moves, exc)
            continue
        recorded.append(algorithm.id)
    return dict(result, recorded=recorded, already_known=known)


def _record_found(job: Job, result: dict) -> dict:
    """Record what a find-algorithms job found as algorithms of its repository, credited to the
    user who asked; a sequence the repository's readers already see is kept by reference. The
    result lists them in order, each with its algorithm's id."""
    found = []
    for entry in result.get("found", []):
        if job.revision is None:
            break
        try:
            algorithm = record_discovered_algorithm(revision=job.revision, moves=entry["moves"], effect=entry,
                                                    job=job, author=job.user)
        except ValidationError as exc:  # replay refused it: never store what does not verify
            log.warning("job %s: found sequence %r refused: %s", job.id, entry["moves"], exc)
            continue
        found.append({"algorithm": algorithm.id, "moves": entry["moves"], "length": entry["length"],
                      "shortest": entry.get("shortest", False), "effect": entry.get("effect", "")})
    return dict(result, found=found)


def _record_sets(job: Job, result: dict) -> dict:
    """Record the sets a job built, their cases and the cases' algorithms (each replayed on
    recording); the job's result keeps a summary: cases, cases with an algorithm, lengths.

    Sets are the job's own (a repository shows those of jobs its readers may open, selectors.sets_for),
    and a case takes, of the algorithms already stored, only one its repository's readers see: what
    another user's private repository holds is recorded again here, never attached."""
    summary = []
    for entry in result.get("sets", []):
        if job.revision is None:
            break
        algorithm_set, _ = AlgorithmSet.objects.update_or_create(
            job=job, move=entry["move"], kind=entry["kind"],
            defaults={"content_hash": job.content_hash, "stickers": entry["stickers"], "goal": entry["goal"],
                      "states": entry["states"]},
        )
        lengths: dict[int, int] = {}
        for found in entry["cases"]:
            case, _ = SetCase.objects.update_or_create(
                algorithm_set=algorithm_set, number=found["number"],
                defaults={"state": found["state"], "size": found["size"]},
            )
            for algorithm in found["algorithms"]:
                moves = " ".join(algorithm["moves"])
                try:  # the one the readers see, else recorded on the job's repository
                    stored = record_discovered_algorithm(revision=job.revision, moves=algorithm["moves"],
                                                         effect=algorithm, job=job)
                except ValidationError as exc:
                    log.warning("job %s: case algorithm %r refused: %s", job.id, moves, exc)
                    continue
                case.algorithms.add(stored)
            shortest = case.algorithms.aggregate(shortest=Min("length"))["shortest"]
            if shortest is not None:
                lengths[shortest] = lengths.get(shortest, 0) + 1
        summary.append({"set": algorithm_set.id, "name": algorithm_set.name, "cases": len(entry["cases"]),
                        "solved": sum(lengths.values()), "lengths": dict(sorted(lengths.items()))})
    return {"sets": summary}


def _record_pattern_databases(job: Job, result: dict) -> None:
    for db in result.get("databases", []):
        PatternDatabase.objects.update_or_create(
            storage_name=db["storage_name"],
            defaults={"content_hash": job.content_hash, "projection": db["projection"],
                      "description": db.get("description", "")[:300], "bytes": db["bytes"],
                      "sha256": db["sha256"], "header": db.get("header", {}), "job": job},
        )


def cancel(*, job: Job, user) -> Job:
    """A queued job is cancelled at once; a running one is asked to stop, and its worker hears of it
    within a fraction of a second (jobs.cancel_signal), or at its next heartbeat."""
    if user is None or job.user_id != user.id:
        raise PermissionDenied("only the user who submitted a job can cancel it")
    if Job.objects.filter(id=job.id, status=Job.QUEUED).update(
        status=Job.CANCELLED, cancel_requested=True, finished_at=timezone.now(), error="cancelled before it started",
    ):
        transitions.record(job_id=job.id, kind=job.kind, before=Job.QUEUED, after=Job.CANCELLED, since=job.created_at)
    if Job.objects.filter(id=job.id, status=Job.RUNNING).update(cancel_requested=True):
        transaction.on_commit(partial(cancel_signal.announce, job.id))
    job.refresh_from_db()
    return job


# ----------------------------------------------------------------------------------- the janitor


def _lost(now) -> list[Job]:
    """Queued jobs (locked) whose message is lost: sent over JOB_RESEND_AFTER seconds ago and no
    longer waiting in their queue, yet not claimed (Redis restarted or was flushed; a worker took
    the message and died before claiming). Without a way to read the queues (no Redis broker, or
    it does not answer), those sent over JOB_REDISPATCH seconds ago. A job waiting for another's
    build (never sent) is sent JOB_REDISPATCH seconds after it was made, in case that build is lost."""
    queued = Job.objects.select_for_update(skip_locked=True).filter(status=Job.QUEUED).only("id", "kind", "background", "time_limit", "dispatched_at")
    unsent = list(queued.filter(dispatched_at=None, created_at__lt=now - timedelta(seconds=settings.JOB_REDISPATCH))[:500])
    sent = list(queued.filter(dispatched_at__lt=now - timedelta(seconds=settings.JOB_RESEND_AFTER))[:2000])
    waiting = dispatch.waiting({job.queue for job in sent}) if sent else set()
    if waiting is None:
        cutoff = now - timedelta(seconds=settings.JOB_REDISPATCH)
        return unsent + [job for job in sent if job.dispatched_at is not None and job.dispatched_at < cutoff]
    return unsent + [job for job in sent if job.id not in waiting]


def sweep() -> dict:
    """Jobs whose worker went silent go back to the queue (or fail after their last attempt); queued
    jobs whose message was lost are sent again (a duplicate is harmless: claims are exclusive). Safe
    to run anywhere, often and concurrently: rows are locked and skipped when another sweep holds them."""
    now = timezone.now()
    counts = {"requeued": 0, "failed": 0, "cancelled": 0, "resent": 0}
    with transaction.atomic():
        expired = Job.objects.select_for_update(skip_locked=True).filter(status=Job.RUNNING, lease_expires__lt=now)
        for job in expired[:500]:
            job.lease_owner, job.lease_expires = "", None
            transitions.lease_expired(kind=job.kind)
            if job.cancel_requested:
                job.status, job.finished_at, job.error = Job.CANCELLED, now, "cancelled (its worker stopped answering)"
                counts["cancelled"] += 1
            elif job.attempts >= job.max_attempts:
                job.status, job.finished_at = Job.FAILED, now
                job.error = (f"gave up after {job.attempts} attempts: the worker running it ({job.worker}) stopped "
                             f"renewing its lease (killed, out of memory, over its hard time limit, or its machine went away)")
                counts["failed"] += 1
            else:
                job.status, job.dispatched_at = Job.QUEUED, now
                job.progress_text = f"queued again: worker {job.worker} stopped answering"[:200]
                _send_on_commit(job)
                counts["requeued"] += 1
            job.save()
            transitions.record(job_id=job.id, kind=job.kind, before=Job.RUNNING, after=job.status,
                               since=job.started_at, worker=job.worker)
        for job in _lost(now):
            Job.objects.filter(id=job.id).update(dispatched_at=now)
            _send_on_commit(job)
            counts["resent"] += 1
    if any(counts.values()):
        log.info("janitor: %s", counts)
    return counts
