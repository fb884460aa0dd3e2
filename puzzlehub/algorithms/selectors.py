"""Reads about algorithms. An algorithm is visible when the repository it was made on is visible,
or, once that (public) repository is gone, when a visible repository holds the same puzzle; a
repository lists every visible algorithm of its current puzzle. Every list, count and "already
known" check goes through visible_algorithms."""

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404

from puzzlehub.algorithms.models import Algorithm, AlgorithmSet, Comment, SetCase, Vote
from puzzlehub.jobs.selectors import definition_of, open_to_readers
from puzzlehub.repos.models import Repository
from puzzlehub.repos.selectors import readers_of, visible_repositories
from solver import api as solver_api
from solver.errors import PuzzleError

ORDERINGS = {"length": ("length", "-score"), "-score": ("-score", "length"), "score": ("score", "length"),
             "-length": ("-length", "-score"), "-created": ("-created",)}


def visible_algorithms(user) -> QuerySet[Algorithm]:
    visible = visible_repositories(user)
    return Algorithm.objects.filter(
        Q(repository__in=visible.values("id"))
        | Q(repository__isnull=True, content_hash__in=visible.values("head__content_hash"))
    ).select_related("author", "revision__repository__owner")


def known_algorithm(*, user, content_hash: str, moves: str) -> Algorithm | None:
    """The algorithm `user` can see with these moves on this puzzle, if any."""
    return visible_algorithms(user).filter(content_hash=content_hash, moves=moves).order_by("id").first()


def algorithms_for(*, repository: Repository, user, effect: str = "", max_length: int | None = None,
                   ordering: str = "") -> QuerySet[Algorithm]:
    algorithms = visible_algorithms(user).filter(content_hash=repository.head.content_hash)
    if effect:
        algorithms = algorithms.filter(Q(effect_key=effect) | Q(effect_text__icontains=effect))
    if max_length is not None:
        algorithms = algorithms.filter(length__lte=max_length)
    return algorithms.order_by(*ORDERINGS.get(ordering, ("length", "-score")), "id")


def get_algorithm(*, algorithm_id: int, user) -> Algorithm:
    algorithm = visible_algorithms(user).filter(id=algorithm_id).first()
    if algorithm is None:
        raise Http404(f"no algorithm {algorithm_id}")
    return algorithm


def vote_of(*, user, algorithm: Algorithm) -> int:
    if not user.is_authenticated:
        return 0
    vote = Vote.objects.filter(user=user, algorithm=algorithm).first()
    return vote.value if vote else 0


def comments_of(algorithm: Algorithm) -> QuerySet[Comment]:
    """Top-level comments, oldest first, with their replies prefetched."""
    replies = Comment.objects.select_related("author").order_by("created", "id")
    return (algorithm.comments.filter(parent__isnull=True).select_related("author")
            .prefetch_related(Prefetch("replies", queryset=replies)))


def all_comments_of(algorithm: Algorithm) -> QuerySet[Comment]:
    return algorithm.comments.select_related("author").order_by("created", "id")


def get_comment(*, comment_id: int, user) -> Comment:
    comment = Comment.objects.filter(
        id=comment_id, algorithm__in=visible_algorithms(user).values("id")
    ).select_related("author", "algorithm").first()
    if comment is None:
        raise Http404(f"no comment {comment_id}")
    return comment


def sets_for(*, repository: Repository) -> QuerySet[AlgorithmSet]:
    """The sets of the repository's current puzzle (the caller has checked it may see it) built by
    jobs everyone who can read it may open, the latest of each layer and kind: a set built on
    another user's private repository of the same puzzle is not shown, nor counted."""
    built = AlgorithmSet.objects.filter(content_hash=repository.head.content_hash, job__in=open_to_readers(repository))
    newer = built.filter(move=OuterRef("move"), kind=OuterRef("kind"), id__gt=OuterRef("id"))
    return built.filter(~Exists(newer)).order_by("move", "kind")


def get_set(*, repository: Repository, move: str, kind: str) -> AlgorithmSet:
    found = sets_for(repository=repository).filter(move=move, kind=kind).first()
    if found is None:
        raise Http404(f"no {kind} set for the layer of {move}")
    return found


def allowed_by(moves: str, subset: set[str]) -> bool:
    """Whether every move of `moves` is one of `subset` or a power of one (R', R2 for R)."""
    return all(m in subset or m.rstrip("'0123456789") in subset for m in moves.split())


def set_cases(*, algorithm_set: AlgorithmSet, repository: Repository) -> QuerySet[SetCase]:
    """A set's cases, each with its algorithms that everyone who can read `repository` sees prefetched."""
    shown = visible_algorithms(readers_of(repository)).select_related(None).only("id", "length")
    return algorithm_set.cases.prefetch_related(Prefetch("algorithms", queryset=shown))


def case_algorithms(*, case: SetCase, repository: Repository, max_length: int | None = None,
                    subset: set[str] | None = None) -> list:
    """The algorithms of a case that everyone who can read `repository` sees (never another user's
    private ones), shortest first, then best voted, filtered."""
    algorithms = visible_algorithms(readers_of(repository)).filter(cases=case).order_by("length", "-score", "id")
    if max_length is not None:
        algorithms = algorithms.filter(length__lte=max_length)
    return [a for a in algorithms if not subset or allowed_by(a.moves, subset)]


def cases_of(algorithm: Algorithm) -> QuerySet:
    """The set cases the algorithm solves, of the sets its repository shows (sets_for)."""
    repository = algorithm.revision.repository if algorithm.revision is not None else None
    if repository is None:
        return SetCase.objects.none()
    return (algorithm.cases.filter(algorithm_set__in=sets_for(repository=repository)).select_related("algorithm_set")
            .order_by("algorithm_set__move", "algorithm_set__kind", "number"))


def lengths_of(algorithm: Algorithm) -> dict | None:
    """The algorithm's length in its puzzle's metrics ({moves, turns}, solver.metrics); None when it
    has no revision or the stored text no longer loads."""
    if algorithm.revision is None:
        return None
    try:
        return solver_api.lengths(definition_of(algorithm.revision), algorithm.moves.split())
    except (ValidationError, PuzzleError, KeyError):  # KeyError: a move the stored text no longer has
        return None
