"""Reads about repositories. Visibility is decided here: a private repository exists only for its
owner; to everyone else it is a 404, never a 403."""

import difflib

from django.core.exceptions import ValidationError
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404

from puzzlehub.repos.models import Repository, Revision, Star
from puzzlehub.repos.services import load_definition
from solver.definition.diff import diff as definition_diff

ORDERINGS = {"stars": ("-stars_count", "-updated"), "-stars": ("-stars_count", "-updated"),
             "-updated": ("-updated",), "updated": ("updated",), "name": ("name",)}


def visible_repositories(user) -> QuerySet[Repository]:
    """What `user` may see, each with `forks_seen`: the forks they can see (the stored count is the
    public ones, what anyone may be shown; their own private forks count for them too)."""
    query = Q(visibility=Repository.PUBLIC)
    forks_seen = F("forks_count")
    if user is not None and user.is_authenticated:
        query |= Q(owner=user)
        own_private = (Repository.objects.filter(forked_from=OuterRef("pk"), owner=user, visibility=Repository.PRIVATE)
                       .order_by().values("forked_from_id").annotate(n=Count("id")).values("n")[:1])
        forks_seen += Coalesce(Subquery(own_private), 0)
    return (Repository.objects.filter(query).annotate(forks_seen=forks_seen)
            .select_related("owner", "head", "forked_from__owner"))


def readers_of(repository: Repository):
    """Whose view stands for everyone who can read `repository`: anyone's (None) when it is public,
    its owner's when it is private."""
    return None if repository.is_public else repository.owner


def search_repositories(*, user, q: str = "", owner: str = "", topic: str = "", ordering: str = "") -> QuerySet:
    repos = visible_repositories(user)
    for word in q.split():
        repos = repos.filter(
            Q(name__icontains=word) | Q(description__icontains=word) | Q(owner__username__iexact=word)
            | Q(topics__name__iexact=word)
        )
    if owner:
        repos = repos.filter(owner__username__iexact=owner)
    if topic:
        repos = repos.filter(topics__name__iexact=topic)
    return repos.distinct().order_by(*ORDERINGS.get(ordering, ("-stars_count", "-updated")), "id")


def get_repository(*, owner: str, name: str, user, related: bool = True) -> Repository:
    """The repository `owner`/`name` as `user` may see it, else 404. `related=False` loads none of
    its relations with it (the head is read when first used): for a write that needs little more
    than its id, a star or a job's submission, whose query otherwise cost more to build than to run."""
    repos = visible_repositories(user) if related else visible_repositories(user).select_related(None)
    repository = repos.filter(owner__username__iexact=owner, name__iexact=name).first()
    if repository is None:
        raise Http404(f"no repository {owner}/{name}")
    return repository


def get_revision(*, repository: Repository, number: int | None = None, field: str | None = None) -> Revision:
    """Revision `number` (None: the latest), else 404; a number a request gave in `field` (a body field
    or query parameter, not the path) is a ValidationError naming it instead: the route exists, the value is wrong."""
    if number is None:
        return repository.head
    revision = repository.revisions.filter(number=number).first()
    if revision is None:
        if field is not None:
            raise ValidationError({field: f"{repository.full_name} has no revision {number} "
                                          f"(latest: {repository.head.number})"})
        raise Http404(f"{repository.full_name} has no revision {number}")
    return revision


def revisions_of(repository: Repository) -> QuerySet[Revision]:
    """Newest first, without their definitions: lists never show the text (megabytes on big cubes)."""
    return repository.revisions.select_related("author").defer("definition").order_by("-number")


def forks_of(*, repository: Repository, user) -> QuerySet[Repository]:
    return visible_repositories(user).filter(forked_from=repository).order_by("-updated", "id")


def parent_of(*, repository: Repository, user) -> dict | None:
    """What `user` may know of the repository a fork was made from: None when it is no fork; the
    parent itself (current name, link) when they can see it; its name as recorded when it was
    deleted while public; otherwise only that it is a repository they cannot see."""
    if repository.forked_at_number is None:
        return None
    parent = repository.forked_from
    if parent is not None and visible_repositories(user).filter(id=parent.id).exists():
        return {"visible": True, "repository": parent, "full_name": parent.full_name,
                "revision": repository.forked_at_number}
    if parent is None and repository.forked_from_name:  # services erase the name of a private parent
        return {"visible": False, "repository": None, "full_name": repository.forked_from_name,
                "revision": repository.forked_at_number}
    return {"visible": False, "repository": None, "full_name": None, "revision": None}


def has_starred(*, user, repository: Repository) -> bool:
    return user.is_authenticated and Star.objects.filter(user=user, repository=repository).exists()


def starred_by(*, user, viewer) -> QuerySet[Repository]:
    return visible_repositories(viewer).filter(stars__user=user).order_by("-stars__created")


def compare_revisions(base: Revision, head: Revision) -> dict:
    """The semantic difference (moves, goals, stickers, same puzzle or not) and a unified text diff."""
    try:
        semantic = definition_diff(load_definition(base.definition), load_definition(head.definition))
    except ValidationError as exc:  # stored definitions validated once; a stricter solver may refuse them now
        semantic = {"error": " ".join(exc.messages), "same_puzzle": base.content_hash == head.content_hash}
    base_label = f"{base.repository.full_name}@{base.number}"
    head_label = f"{head.repository.full_name}@{head.number}"
    text = "\n".join(difflib.unified_diff(
        base.definition.splitlines(), head.definition.splitlines(),
        fromfile=base_label, tofile=head_label, lineterm="",
    ))
    return {"semantic": semantic, "text_diff": text}
