"""Writes about algorithms: submissions (replayed by the solver), discoveries, votes and comments."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from puzzlehub import limits
from puzzlehub.algorithms import markdown
from puzzlehub.algorithms.models import Algorithm, Comment, Vote
from puzzlehub.algorithms.selectors import known_algorithm
from puzzlehub.repos.models import Repository, Revision
from puzzlehub.repos.selectors import readers_of
from puzzlehub.repos.services import load_definition
from solver import api as solver_api
from solver.errors import PuzzleError

MAX_ALGORITHM_MOVES = 1000

# The solver's effect analysis (discovery, issue 7): effect(defn, moves) -> {"effect", "effect_key",
# "support", "order", ...}. A solver without it leaves algorithms' effects empty.
_solver_effect = getattr(solver_api, "effect", None)


def sequence_effect(defn, moves: list[str]) -> dict | None:
    if _solver_effect is None:
        return None
    try:
        return _solver_effect(defn, moves)
    except PuzzleError:  # a puzzle the analysis cannot describe still takes valid sequences
        return None


def _effect_fields(effect: dict | None) -> dict:
    effect = effect or None
    return {
        "effect": effect,
        "effect_text": str((effect or {}).get("effect", ""))[:300],
        "effect_key": str((effect or {}).get("effect_key", ""))[:300],
    }


def replay(defn, text) -> list[str]:
    """The move names of `text` after replaying them from the goal; errors name the `moves` field."""
    try:
        names = solver_api.parse_moves(defn, text)
        if not names:
            raise ValidationError({"moves": "give at least one move"})
        if len(names) > MAX_ALGORITHM_MOVES:
            raise ValidationError({"moves": f"at most {MAX_ALGORITHM_MOVES} moves"})
        state = solver_api.apply_moves(defn, names)
    except PuzzleError as exc:
        raise ValidationError({"moves": str(exc)}) from None
    if state == defn.goal:
        raise ValidationError({"moves": "the sequence changes nothing: it ends where it starts"})
    return names


KNOWN = "this sequence is already an algorithm of this puzzle"


def known_to_readers(revision: Revision, moves: str) -> Algorithm | None:
    """The sequence as an algorithm that everyone who can read the revision's repository already
    sees on this puzzle. Only that counts as known: what the readers cannot see (another user's
    private repository) never blocks a sequence, nor tells them it exists."""
    return known_algorithm(user=readers_of(revision.repository), content_hash=revision.content_hash, moves=moves)


def written_form(moves, names: list[str]) -> str:
    """The notation as the user wrote it (spaces evened out), or "" when it says no more than the
    expanded move list (or was a list of names)."""
    if not isinstance(moves, str):
        return ""
    written = " ".join(moves.split())
    return "" if written == " ".join(names) else written


def _create(*, revision: Revision, names: list[str], effect, source: str, author=None, title="", job=None,
            written="") -> Algorithm:
    moves = " ".join(names)
    if known_to_readers(revision, moves) is not None:
        raise ValidationError({"moves": KNOWN})
    try:
        with transaction.atomic():
            return Algorithm.objects.create(
                repository_id=revision.repository_id, revision=revision, content_hash=revision.content_hash,
                moves=moves, written=written, length=len(names), source=source, author=author, title=title, job=job,
                **_effect_fields(effect),
            )
    except IntegrityError:  # the same sequence on this repository, a moment ago
        raise ValidationError({"moves": KNOWN}) from None


def submit_algorithm(*, repository: Repository, user, moves, title: str = "") -> Algorithm:
    """A user's sequence on the repository's latest revision, replayed and described by the solver."""
    revision = repository.head
    defn = load_definition(revision.definition)
    names = replay(defn, moves)
    if len(title) > 200:
        raise ValidationError({"title": "at most 200 characters"})
    return _create(revision=revision, names=names, effect=sequence_effect(defn, names),
                   source=Algorithm.SUBMITTED, author=user, title=title, written=written_form(moves, names))


def record_discovered_algorithm(*, revision: Revision, moves: list[str], effect: dict | None, job=None,
                                author=None) -> Algorithm:
    """A sequence found by a job (its source); one the repository's readers already see is returned.
    `author` is the user who asked for it, when a user did (find-algorithms jobs)."""
    existing = known_to_readers(revision, " ".join(moves))
    if existing is not None:
        return existing
    defn = load_definition(revision.definition)
    names = replay(defn, moves)  # a job's result is verified like a user's
    return _create(revision=revision, names=names, effect=effect, source=Algorithm.DISCOVERED, job=job,
                   author=author)


def _rescore(algorithm: Algorithm) -> None:
    algorithm.score = algorithm.votes.aggregate(total=Sum("value"))["total"] or 0
    algorithm.save(update_fields=["score"])


@transaction.atomic
def vote(*, user, algorithm: Algorithm, value: int) -> Algorithm:
    if value not in (Vote.UP, Vote.DOWN):
        raise ValidationError({"value": "1 (up) or -1 (down)"})
    Algorithm.objects.select_for_update().get(id=algorithm.id)  # one score update at a time
    Vote.objects.update_or_create(algorithm=algorithm, user=user, defaults={"value": value})
    _rescore(algorithm)
    return algorithm


@transaction.atomic
def unvote(*, user, algorithm: Algorithm) -> Algorithm:
    Algorithm.objects.select_for_update().get(id=algorithm.id)
    Vote.objects.filter(algorithm=algorithm, user=user).delete()
    _rescore(algorithm)
    return algorithm


def _clean_body(body) -> str:
    if not isinstance(body, str) or not body.strip():
        raise ValidationError({"body": "write something"})
    if len(body) > 10_000:
        raise ValidationError({"body": "at most 10,000 characters"})
    return body


def add_comment(*, algorithm: Algorithm, author, body: str, parent: int | None = None) -> Comment:
    """A comment, or a reply to comment `parent` (an id, as the API and the page form give it) of this
    algorithm; any other id, one of a comment on an algorithm the author cannot see too, is refused
    alike, telling nothing of it."""
    body = _clean_body(body)
    replied = None
    if parent is not None:
        replied = algorithm.comments.filter(id=parent).first()
        if replied is None:
            raise ValidationError({"parent": "no such comment on this algorithm"})
        if replied.parent_id is not None:
            raise ValidationError({"parent": f"replies are one level deep: reply to comment {replied.parent_id}"})
    limits.hit("comment", author.pk)  # after validation: a refused body does not use up the rate
    return Comment.objects.create(
        algorithm=algorithm, author=author, parent=replied, body=body, body_html=markdown.render(body)
    )


def edit_comment(*, comment: Comment, user, body: str) -> Comment:
    if comment.author_id != user.id:
        raise PermissionDenied("only the author can edit a comment")
    comment.body = _clean_body(body)
    comment.body_html = markdown.render(comment.body)
    comment.edited = timezone.now()
    comment.save(update_fields=["body", "body_html", "edited"])
    return comment


def delete_comment(*, comment: Comment, user) -> None:
    """The author deletes a comment, and with it the replies under it."""
    if comment.author_id != user.id:
        raise PermissionDenied("only the author can delete a comment")
    comment.delete()
