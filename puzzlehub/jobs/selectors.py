"""Reads about jobs and pattern databases. A job is visible to the user who submitted it and to
anyone who can see its repository; a job on a private repository is a 404 to everyone else."""

import math
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from puzzlehub.jobs.models import Job, PatternDatabase
from puzzlehub.repos.models import Repository, Revision
from puzzlehub.repos.selectors import readers_of, visible_repositories
from puzzlehub.repos.services import load_definition


def visible_jobs(user) -> QuerySet[Job]:
    query = Q(repository__visibility=Repository.PUBLIC)
    if user is not None and user.is_authenticated:
        query |= Q(user=user) | Q(repository__owner=user)
    return Job.objects.filter(query).select_related("user", "repository__owner", "revision")


def open_to_readers(repository: Repository):
    """Ids of the jobs everyone who can read `repository` may open: a job on it reuses work of
    these only, names no other (its result and progress are shown to all its readers), and the
    repository shows only what these built (sets)."""
    return visible_jobs(readers_of(repository)).values("id")


def with_repository_seen(jobs: QuerySet[Job], user) -> QuerySet[Job]:
    """Each job with `repository_seen`: whether `user` may see its repository now. A job stays its
    submitter's when its repository is made private (or deleted), and then shows nothing of it:
    no name, link or player."""
    return jobs.annotate(repository_seen=Exists(visible_repositories(user).filter(id=OuterRef("repository_id"))))


def get_job(*, job_id: int, user) -> Job:
    job = with_repository_seen(visible_jobs(user), user).filter(id=job_id).first()
    if job is None:
        raise Http404(f"no job {job_id}")
    return job


def jobs_of(*, user, status: str = "", kind: str = "") -> QuerySet[Job]:
    """The caller's own jobs, newest first, optionally of one status and one kind."""
    jobs = with_repository_seen(Job.objects.filter(user=user).select_related("repository__owner"), user)
    if status:
        if status not in dict(Job.STATUS_CHOICES):
            raise ValidationError({"status": f"unknown status {status!r}; statuses: {', '.join(dict(Job.STATUS_CHOICES))}"})
        jobs = jobs.filter(status=status)
    if kind:
        if kind not in dict(Job.KIND_CHOICES):
            raise ValidationError({"kind": f"unknown kind {kind!r}; kinds: {', '.join(dict(Job.KIND_CHOICES))}"})
        jobs = jobs.filter(kind=kind)
    return jobs


def queue_position(job: Job) -> int | None:
    """A queued job's place in its queue (1: the next a worker takes), counted in the order their
    messages were sent, as the broker hands them out; None for a job not waiting in a queue (running,
    finished, or a build waiting for another's tables, never sent)."""
    if job.status != Job.QUEUED or job.dispatched_at is None:
        return None
    same_queue = Q(background=True) if job.background else Q(background=False, kind=job.kind)
    ahead = Job.objects.filter(same_queue, status=Job.QUEUED, dispatched_at__isnull=False).filter(
        Q(dispatched_at__lt=job.dispatched_at) | Q(dispatched_at=job.dispatched_at, id__lt=job.id))
    return 1 + ahead.count()


def progress_of(job: Job) -> dict:
    """A job's progress as the API and its page show it; a job waiting in its queue says so in the
    words too, with how many jobs are ahead of it (else "Solving…" with an empty bar explains nothing)."""
    position, text = queue_position(job), job.progress_text
    if position is not None:
        ahead = "next in line" if position == 1 else f"{position - 1} job{'s' if position > 2 else ''} ahead of it"
        text = "; ".join(filter(None, [text, f"waiting for a worker, {ahead}"]))  # "queued again: ..." kept
    return {"fraction": job.progress, "text": text, "queue_position": position}


def active_count(user) -> int:
    return Job.objects.filter(user=user, status__in=Job.ACTIVE).count()


@dataclass(frozen=True)
class Quota:
    """A user's queued and running jobs against the quota (one for every kind of job)."""

    limit: int
    active: list  # the jobs queued or running, oldest first

    @property
    def used(self) -> int:
        return len(self.active)

    @property
    def full(self) -> bool:
        return self.used >= self.limit

    def by_kind(self) -> list[dict]:
        """Queued and running jobs of each kind, every kind listed."""
        return [{"kind": kind, "label": label,
                 "queued": sum(job.kind == kind and job.status == Job.QUEUED for job in self.active),
                 "running": sum(job.kind == kind and job.status == Job.RUNNING for job in self.active)}
                for kind, label in Job.KIND_CHOICES]

    def soonest(self) -> tuple[Job | None, int]:
        """The job that should end first and in how many seconds (at least 1): a running job ends
        by its time limit counted from its start; a queued one, once started, takes at most its
        time limit. (None, 1) without active jobs."""
        now = timezone.now()

        def ends_in(job):
            return job.time_limit - ((now - job.started_at).total_seconds() if job.status == Job.RUNNING
                                     and job.started_at else 0.0)
        if not self.active:
            return None, 1
        job = min(self.active, key=ends_in)
        return job, max(1, math.ceil(ends_in(job)))

    def refusal(self) -> str:
        """What a refused submission is told: why, and when to try again."""
        job, seconds = self.soonest()
        if job is None:  # a quota of 0: submissions are switched off
            return f"you may have {self.limit} jobs queued or running"
        when = (f"when job {job.id} reaches its time limit at the latest" if job.status == Job.RUNNING
                else "as your jobs are waiting for a worker, and the first takes at most that long once started")
        return (f"you have {self.used} jobs queued or running, the most allowed ({self.limit}): "
                f"try again in {seconds} s, {when}, or cancel one")


def quota_of(user) -> Quota:
    active = Job.objects.filter(user=user, status__in=Job.ACTIVE).order_by("created_at", "id").select_related(
        "repository__owner").only("id", "kind", "status", "time_limit", "started_at", "created_at", "progress",
                                  "repository__name", "repository__owner__username")
    active = with_repository_seen(active, user)
    return Quota(limit=settings.JOB_QUOTA, active=list(active))


def pattern_databases_for(*, repository: Repository, user) -> list[dict]:
    """The stored pattern databases of the repository's puzzle (shared by every repository of it)
    that a job `user` may open was given (built, waited for, or answered from: its result lists
    them), each with the first such job and when it finished; then the builds under way that
    `user` may see. Tables only jobs hidden from them hold are not shown, nor when they were made."""
    content_hash = repository.head.content_hash
    jobs = visible_jobs(user).filter(content_hash=content_hash)
    given = {}
    for job in jobs.filter(status=Job.SUCCEEDED, result__has_key="databases").select_related(None).only(
            "id", "finished_at", "result").order_by("finished_at", "id"):
        for db in job.result["databases"]:
            given.setdefault(db["storage_name"], job)
    rows = [
        {"status": "ready", "projection": db.projection, "description": db.description, "bytes": db.bytes,
         "sha256": db.sha256, "job": given[db.storage_name].id, "created_at": given[db.storage_name].finished_at}
        for db in PatternDatabase.objects.filter(content_hash=content_hash, storage_name__in=list(given))
    ]
    building = jobs.filter(kind=Job.PDB, status__in=Job.ACTIVE)
    rows += [
        {"status": job.status, "projection": job.options.get("projection"), "description": "", "bytes": None,
         "sha256": None, "job": job.id, "created_at": job.created_at}
        for job in building.order_by("created_at")
    ]
    return rows


@lru_cache(maxsize=64)
def _definition(revision_id: int, content_hash: str):
    return load_definition(Revision.objects.values_list("definition", flat=True).get(id=revision_id))


def definition_of(revision: Revision):
    """The solver's Definition of a revision; revisions never change, so each process loads it once."""
    return _definition(revision.id, revision.content_hash)
