"""Algorithms (move sequences with a computed effect), their votes and comments.

An algorithm belongs to the repository (and revision) it was found or submitted on: it is seen by
whoever can see that repository, in every repository of the same puzzle (same content hash) they
can see. What a private repository held goes with it when it is deleted; a deleted public
repository's algorithms stay, shown wherever the puzzle is still public.
"""

from django.conf import settings
from django.db import models


class Algorithm(models.Model):
    DISCOVERED, SUBMITTED = "discovered", "submitted"
    SOURCE_CHOICES = [(DISCOVERED, "discovered"), (SUBMITTED, "submitted")]

    # null once its repository is deleted (only a public repository's algorithms outlive it)
    repository = models.ForeignKey(
        "repos.Repository", null=True, on_delete=models.SET_NULL, related_name="algorithms"
    )
    revision = models.ForeignKey(
        "repos.Revision", null=True, on_delete=models.SET_NULL, related_name="algorithms"
    )
    content_hash = models.CharField(max_length=71, db_index=True)  # the puzzle it applies to
    moves = models.TextField()  # move names separated by single spaces: what is replayed, counted, unique
    # as the user wrote it in alg notation ("[R, U]", "(R U R' U')3"), for display; "" when it was
    # the plain move list
    written = models.TextField(blank=True, default="")
    length = models.PositiveIntegerField()
    # the solver's description: {"effect": text, "effect_key", "support", "order", ...}; null when
    # the solver gives none
    effect = models.JSONField(null=True, blank=True)
    effect_text = models.CharField(max_length=300, blank=True, db_index=True)
    effect_key = models.CharField(max_length=300, blank=True, db_index=True)
    source = models.CharField(max_length=10, choices=SOURCE_CHOICES)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="algorithms")
    title = models.CharField(max_length=200, blank=True)
    # the discovery or find-algorithms job that found it (null for submissions)
    job = models.ForeignKey("jobs.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="algorithms")
    score = models.IntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        # Across repositories, "already known" is decided among what the asker may see
        # (services.known_algorithm); one repository never holds a sequence twice.
        constraints = [
            models.UniqueConstraint(fields=["repository", "moves"], name="algorithm_unique_per_repository"),
        ]

    def __str__(self):
        return f"#{self.id} {self.moves}"


class Vote(models.Model):
    UP, DOWN = 1, -1

    algorithm = models.ForeignKey(Algorithm, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    value = models.SmallIntegerField(choices=[(UP, "up"), (DOWN, "down")])

    class Meta:
        constraints = [models.UniqueConstraint(fields=["algorithm", "user"], name="one_vote_per_user")]


class Comment(models.Model):
    """Markdown written by a user; `body_html` is its sanitized rendering, made when it is saved."""

    algorithm = models.ForeignKey(Algorithm, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="comments")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies")
    body = models.TextField(max_length=10_000)
    body_html = models.TextField()
    created = models.DateTimeField(auto_now_add=True)
    edited = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]


class AlgorithmSet(models.Model):
    """A set of cases people learn, built by the machine for one puzzle (content hash): the
    orient, permute or full set of the layer one move turns (solver.discover.cases). Each build
    (job) keeps its own: a repository shows those of jobs its readers may open (selectors.sets_for)."""

    content_hash = models.CharField(max_length=71, db_index=True)
    kind = models.CharField(max_length=10)  # orient | permute | full
    move = models.CharField(max_length=100)  # the move whose layer it is
    stickers = models.JSONField()  # the layer's sticker positions: the only ones drawn coloured
    goal = models.JSONField()  # the set's goal colours, "?" where the set does not look
    states = models.PositiveIntegerField()  # reachable states of the set, every case together
    job = models.ForeignKey("jobs.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["content_hash", "move", "kind"]
        constraints = [models.UniqueConstraint(fields=["job", "move", "kind"], name="one_set_per_job_layer_kind")]

    @property
    def name(self) -> str:
        return f"{self.move} layer: {self.kind}"

    def __str__(self):
        return self.name


class SetCase(models.Model):
    """One case of a set: a state seen before the algorithm (up to turns of the layer before and
    after it), and the algorithms that solve it."""

    algorithm_set = models.ForeignKey(AlgorithmSet, on_delete=models.CASCADE, related_name="cases")
    number = models.PositiveIntegerField()
    state = models.JSONField()  # colours of the whole puzzle, "?" where the set does not look
    size = models.PositiveIntegerField()  # states of the set in this case
    algorithms = models.ManyToManyField(Algorithm, related_name="cases", blank=True)

    class Meta:
        ordering = ["algorithm_set", "number"]
        constraints = [models.UniqueConstraint(fields=["algorithm_set", "number"], name="one_case_per_number")]

    def __str__(self):
        return f"{self.algorithm_set} #{self.number}"
