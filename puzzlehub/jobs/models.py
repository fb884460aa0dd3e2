"""Jobs (solves, pattern-database builds, discovery runs) and the pattern-database artifacts they make.

A job's row is its truth: the broker only carries its id. A worker owns a running job through a
lease (owner token + expiry) that it renews while it works; only the lease holder may write the
outcome, so a job handed to a second worker after the first went silent is never finished twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Job(models.Model):
    SOLVE, PDB, DISCOVER = "solve", "pdb", "discover"
    KIND_CHOICES = [(SOLVE, "solve"), (PDB, "pattern database"), (DISCOVER, "discovery")]
    QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED = "queued", "running", "succeeded", "failed", "cancelled"
    STATUS_CHOICES = [(s, s) for s in (QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED)]
    ACTIVE = (QUEUED, RUNNING)
    FINISHED = (SUCCEEDED, FAILED, CANCELLED)

    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    # the catalog's own discoveries and set builds (publish_catalog): sent to the backfill queue,
    # whose worker runs below the others, so that users' jobs never wait behind hours of them
    background = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs")
    repository = models.ForeignKey("repos.Repository", null=True, on_delete=models.SET_NULL, related_name="jobs")
    revision = models.ForeignKey("repos.Revision", null=True, on_delete=models.SET_NULL, related_name="jobs")
    content_hash = models.CharField(max_length=71)  # the canonical puzzle the job concerns
    options = models.JSONField(default=dict)  # what to do: state, optimal, method, projection, ...
    # same key, same answer: solves of one state on one puzzle with the same options, or builds
    # of one projection of one puzzle
    dedupe_key = models.CharField(max_length=64, db_index=True)
    time_limit = models.FloatField()  # seconds of work
    memory_limit = models.PositiveBigIntegerField()  # bytes of tables the job may build
    # share of the work done (the solver's own figure, else the share of the time budget used)
    progress = models.FloatField(default=0.0)
    progress_text = models.CharField(max_length=200, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    max_attempts = models.PositiveIntegerField()
    lease_owner = models.CharField(max_length=120, blank=True)
    lease_expires = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=120, blank=True)  # who ran (or is running) the last attempt
    cancel_requested = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(null=True, blank=True)  # last time a message was sent for it
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "lease_expires"]),
            models.Index(fields=["status", "dispatched_at"]),
            models.Index(fields=["user", "status"]),
        ]
        constraints = [
            # a user's two requests for the same pattern database attach to one job, even when they race
            models.UniqueConstraint(
                fields=["dedupe_key", "user"], condition=Q(kind="pdb", status__in=["queued", "running"]),
                name="one_active_pdb_build_per_user",
            ),
        ]

    def __str__(self):
        return f"job {self.id} ({self.kind}, {self.status})"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def queue(self) -> str:
        return settings.PUZZLEHUB_BACKFILL_QUEUE if self.background else self.kind


class PatternDatabase(models.Model):
    """One stored pattern-database file, shared by every repository whose puzzle has this hash."""

    content_hash = models.CharField(max_length=71, db_index=True)
    projection = models.TextField()  # the solver's projection text
    description = models.CharField(max_length=300, blank=True)
    storage_name = models.CharField(max_length=300, unique=True)  # its name in the artifacts storage
    bytes = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    header = models.JSONField(default=dict)  # the solver's facts: entries, depths, distribution
    job = models.ForeignKey(Job, null=True, on_delete=models.SET_NULL, related_name="pattern_databases")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["content_hash", "id"]

    def __str__(self):
        return self.storage_name
