"""Writes about repositories: create, edit, delete, new revisions, forks, stars.

Every definition goes through the solver's loader; its error, which names the place and the problem,
becomes the error of the `definition` field. Facts are computed once per revision and stored.
"""

from functools import lru_cache

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from puzzlehub.accounts.services import profile_of
from puzzlehub.repos import analysis
from puzzlehub.repos.models import Repository, Revision, Star, Topic
from solver import api as solver_api
from solver import catalog
from solver.errors import PuzzleError

MAX_DEFINITION_CHARS = 2_000_000  # the solver's own file limit


@lru_cache(maxsize=32)
def _parsed(text: str):
    # Revisions never change and parsing a big definition takes a while: pages and submissions on
    # the same revision reuse the immutable Definition. Errors are not cached.
    return solver_api.load_text(text)


def load_definition(text: str):
    """The solver's Definition for `text`, or a ValidationError on the `definition` field."""
    if not isinstance(text, str) or not text.strip():
        raise ValidationError({"definition": "a puzzle definition (YAML, KPuzzle JSON or ksolve) is required"})
    if len(text) > MAX_DEFINITION_CHARS:
        raise ValidationError({"definition": f"longer than {MAX_DEFINITION_CHARS:,} characters"})
    try:
        return _parsed(text)
    except PuzzleError as exc:
        raise ValidationError({"definition": str(exc)}) from None


def _set_topics(repository: Repository, topics) -> None:
    names = []
    for raw in topics:
        name = str(raw).strip().lower()
        if not name:
            continue
        topic = Topic(name=name)
        try:
            topic.full_clean(validate_unique=False)
        except ValidationError:
            raise ValidationError({"topics": f"{raw!r}: use letters, digits, '-' or '_' (up to 40)"}) from None
        names.append(name)
    if len(names) > 20:
        raise ValidationError({"topics": "at most 20 topics"})
    repository.topics.set([Topic.objects.get_or_create(name=n)[0] for n in dict.fromkeys(names)])


def _check_name_free(owner, name: str, exclude_id=None) -> None:
    taken = Repository.objects.filter(owner=owner, name__iexact=name).exclude(id=exclude_id)
    if taken.exists():
        raise ValidationError({"name": f"you already have a repository named {name}"})


def _add_revision(*, repository, author, definition: str, message: str, number: int, facts: dict) -> Revision:
    revision = Revision.objects.create(
        repository=repository, number=number, definition=definition, author=author,
        message=message, created=timezone.now(), **facts,
    )
    if facts["facts"].get("pending") or facts["facts"].get("layout_pending"):
        analysis.analyse_later(revision.content_hash)
    Repository.objects.filter(id=repository.id).update(head=revision, updated=revision.created)
    repository.head, repository.updated = revision, revision.created
    return revision


@transaction.atomic
def create_repository(
    *, owner, name: str, definition: str, message: str = "", description: str = "",
    visibility: str = Repository.PUBLIC, license: str = "", topics=(),
) -> Repository:
    repository = Repository(
        owner=owner, name=name, description=description, visibility=visibility, license=license
    )
    repository.full_clean(exclude=["head"], validate_constraints=False)
    _check_name_free(owner, name)
    facts = analysis.revision_facts(load_definition(definition))  # refuse a bad definition before anything is written
    try:
        with transaction.atomic():
            repository.save()
    except IntegrityError:  # a concurrent create with the same name
        raise ValidationError({"name": f"you already have a repository named {name}"}) from None
    _set_topics(repository, topics)
    _add_revision(repository=repository, author=owner, definition=definition,
                  message=message or "Create the puzzle", number=1, facts=facts)
    return repository


@transaction.atomic
def update_repository(*, repository: Repository, **changes) -> Repository:
    """Change description, visibility, license, name or topics."""
    allowed = {"description", "visibility", "license", "name", "topics"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValidationError({sorted(unknown)[0]: "cannot be changed here"})
    topics = changes.pop("topics", None)
    for field, value in changes.items():
        setattr(repository, field, value)
    repository.full_clean(exclude=["head", "owner"], validate_constraints=False)
    if "name" in changes:
        _check_name_free(repository.owner, repository.name, exclude_id=repository.id)
        # forks name their parent as it is now (a name it had only while private is not kept)
        repository.forks.update(forked_from_name=repository.full_name)
    repository.save()
    if "visibility" in changes and repository.forked_from_id:
        _count_forks(repository.forked_from_id)
    if topics is not None:
        _set_topics(repository, topics)
    return repository


@transaction.atomic
def delete_repository(*, repository: Repository) -> None:
    """Delete a repository; its forks keep their own history. What a private repository held (its
    algorithms and their comments) goes with it; a public one's algorithms stay with the puzzle."""
    if not repository.is_public:
        repository.algorithms.all().delete()
        repository.forks.update(forked_from_name="")  # forks no longer name what nobody else saw
    parent_id = repository.forked_from_id
    repository.delete()
    if parent_id:
        _count_forks(parent_id)


def create_revision(*, repository: Repository, author, definition: str, message: str = "") -> Revision:
    facts = analysis.revision_facts(load_definition(definition))  # before any lock is taken
    with transaction.atomic():
        # lock the repository row so that two concurrent revisions get consecutive numbers
        locked = Repository.objects.select_for_update().get(id=repository.id)
        head = locked.head
        if head is not None and head.definition == definition:
            raise ValidationError({"definition": f"identical to revision {head.number}"})
        revision = _add_revision(
            repository=locked, author=author, definition=definition, message=message,
            number=(head.number if head else 0) + 1, facts=facts,
        )
    repository.head, repository.updated = locked.head, locked.updated
    return revision


@transaction.atomic
def fork_repository(*, repository: Repository, user, name: str | None = None) -> Repository:
    """Copy `repository` with its whole revision history under `user`."""
    name = name or repository.name
    fork = Repository(
        owner=user, name=name, description=repository.description, visibility=repository.visibility,
        license=repository.license, forked_from=repository, forked_from_name=repository.full_name,
        forked_at_number=repository.head.number,
    )
    fork.full_clean(exclude=["head"], validate_constraints=False)
    _check_name_free(user, name)
    fork.save()
    fork.topics.set(repository.topics.all())
    copied = Revision.objects.bulk_create(
        Revision(
            repository=fork, number=r.number, definition=r.definition, content_hash=r.content_hash,
            author_id=r.author_id, message=r.message, created=r.created, puzzle_name=r.puzzle_name,
            stickers=r.stickers, moves_count=r.moves_count, state_count=r.state_count,
            state_count_exact=r.state_count_exact, group_order=r.group_order, facts=r.facts,
            group_data=r.group_data, thumbnail=r.thumbnail, presentation=r.presentation,
        )
        for r in repository.revisions.order_by("number")
    )
    fork.head = max(copied, key=lambda r: r.number)
    fork.save(update_fields=["head"])
    _count_forks(repository.id)
    return fork


def _count_forks(parent_id: int) -> None:
    """A repository's fork count is what anyone may be shown: its public forks only (a private
    fork is nobody else's business, not even as a number)."""
    public_forks = (Repository.objects.filter(forked_from_id=parent_id, visibility=Repository.PUBLIC)
                    .order_by().values("forked_from_id").annotate(n=Count("id")).values("n")[:1])
    Repository.objects.filter(id=parent_id).update(forks_count=Coalesce(Subquery(public_forks), 0))


@transaction.atomic
def star_repository(*, user, repository: Repository) -> bool:
    """Star once; True when this call added the star."""
    _, created = Star.objects.get_or_create(user=user, repository=repository)
    if created:
        Repository.objects.filter(id=repository.id).update(stars_count=F("stars_count") + 1)
    return created


@transaction.atomic
def unstar_repository(*, user, repository: Repository) -> bool:
    deleted, _ = Star.objects.filter(user=user, repository=repository).delete()
    if deleted:
        Repository.objects.filter(id=repository.id, stars_count__gt=0).update(stars_count=F("stars_count") - 1)
    return bool(deleted)


CATALOG_OWNER = "puzzlehub"


def _catalog_owner():
    user, created = get_user_model().objects.get_or_create(username=CATALOG_OWNER)
    if created:
        user.set_unusable_password()  # nobody logs in as the catalog; it only publishes
        user.save(update_fields=["password"])
    profile_of(user)
    return user


def publish_catalog(*, names=None) -> list[tuple[str, str]]:
    """Publish built-in catalog puzzles as public repositories of user `puzzlehub`.

    Idempotent: a repository whose latest revision already holds the same text is left alone; a
    changed generator adds a revision. Returns (name, "created" | "updated" | "unchanged") pairs.
    """
    owner = _catalog_owner()
    report = []
    for name in names or catalog.names():
        defn = solver_api.load_data(catalog.build(name))
        text = solver_api.export_yaml(defn)
        repository = Repository.objects.filter(owner=owner, name=name).select_related("head").first()
        if repository is None:
            create_repository(
                owner=owner, name=name, definition=text, message="Publish from the built-in catalog",
                description=defn.description, topics=["catalog"] + catalog.topics(name),
            )
            report.append((name, "created"))
        elif repository.head.definition != text:
            create_revision(repository=repository, author=owner, definition=text,
                            message="Update from the built-in catalog")
            report.append((name, "updated"))
        else:
            report.append((name, "unchanged"))
    return report
