"""Repositories (`owner/name`), their immutable numbered revisions, topics and stars."""

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower

# URL-safe, the same rule as a definition's name
name_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$",
    "use 1-100 letters, digits, '.', '-' or '_', starting with a letter or digit",
)


class Topic(models.Model):
    name = models.SlugField(max_length=40, unique=True)

    def __str__(self):
        return self.name


class Repository(models.Model):
    PUBLIC, PRIVATE = "public", "private"
    VISIBILITY_CHOICES = [(PUBLIC, "public"), (PRIVATE, "private")]

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="repositories")
    name = models.CharField(max_length=100, validators=[name_validator])
    description = models.TextField(blank=True, max_length=2000)
    visibility = models.CharField(max_length=7, choices=VISIBILITY_CHOICES, default=PUBLIC)
    license = models.CharField(max_length=64, blank=True)
    topics = models.ManyToManyField(Topic, blank=True, related_name="repositories")
    # The parent may be deleted; the fork keeps its own copy of the history and the parent's latest
    # name (erased when the parent is deleted while private). Readers see it through selectors.parent_of.
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    forked_from_name = models.CharField(max_length=140, blank=True)
    forked_at_number = models.PositiveIntegerField(null=True, blank=True)  # the parent's revision
    # the latest revision, kept here so that lists need no subquery (every repository has one)
    head = models.ForeignKey("Revision", null=True, on_delete=models.SET_NULL, related_name="+")
    stars_count = models.PositiveIntegerField(default=0)
    forks_count = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("name"), "owner", name="repository_name_unique_per_owner"),
        ]
        indexes = [models.Index(fields=["-stars_count"]), models.Index(fields=["-updated"])]

    def __str__(self):
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.owner.username}/{self.name}"

    @property
    def is_public(self) -> bool:
        return self.visibility == self.PUBLIC


class Revision(models.Model):
    """An immutable version of a repository's definition, with the facts computed once."""

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    definition = models.TextField()  # exactly as submitted
    content_hash = models.CharField(max_length=71, db_index=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    message = models.CharField(max_length=500, blank=True)
    created = models.DateTimeField()
    # facts from solver.api.info; counts can exceed 64 bits, so they are kept as decimal text
    puzzle_name = models.CharField(max_length=100)
    stickers = models.PositiveIntegerField()
    moves_count = models.PositiveIntegerField()
    state_count = models.TextField()  # a 30x30 Loopover's count has over 2,000 digits
    state_count_exact = models.BooleanField()
    group_order = models.TextField(blank=True)
    facts = models.JSONField(default=dict)  # the rest of info(): move names, orbits
    # solver.api.group_data: what deciding a state's reachability needs, so that a request does only
    # that check (null: not an orbit product, or not analysed yet; the worker then checks)
    group_data = models.JSONField(null=True, blank=True)
    # the solved puzzle as a small SVG for cards (puzzlehub.web.drawing.thumbnail_svg), drawn when
    # the revision is made: loading a big definition again for a list would take seconds
    thumbnail = models.TextField(blank=True, default="")
    # a definition written without a layout, isomorphic to a catalog puzzle, is drawn with that
    # puzzle's layout and geometry (solver.api.borrowed_presentation); found by a worker, since the
    # match takes seconds (facts.layout_pending until then)
    presentation = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["repository", "number"], name="revision_number_unique"),
        ]
        ordering = ["-number"]

    def __str__(self):
        return f"{self.repository_id}@{self.number}"


class Star(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stars")
    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="stars")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "repository"], name="one_star_per_user")]
