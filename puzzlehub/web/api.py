"""The player's API: what a permalink's setup and alg expand to, and scrambles from the server.

Both read a repository the requester may see, at `rev` (default: the latest revision). Bad input
(unknown revision, unknown moves, unbalanced brackets, too long) is a 400 naming the field.
"""

from django.core.exceptions import ValidationError
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView
from drf_spectacular.utils import OpenApiParameter, extend_schema

from puzzlehub.repos import selectors as repo_selectors
from puzzlehub.repos.services import load_definition
from puzzlehub.web import player


def revision_for(request, owner, name):
    """The repository's revision named by `?rev=` (default: the latest); a ValidationError on `rev`."""
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    rev = request.GET.get("rev", "").strip()
    if not rev:
        return repository, repository.head
    if not rev.isdigit() or int(rev) < 1:
        raise ValidationError({"rev": f"a revision number (1 or more), got {rev[:40]!r}"})
    return repository, repo_selectors.get_revision(repository=repository, number=int(rev), field="rev")


class PlaySerializer(serializers.Serializer):
    setup = serializers.ListField(child=serializers.CharField(), help_text="the setup's moves, expanded")
    alg = serializers.ListField(child=serializers.CharField(), help_text="the alg's moves, expanded")
    origin = serializers.ListField(child=serializers.CharField(),
                                   help_text="the start state as the player shows it (? where the goal does not look)")
    goal = serializers.ListField(child=serializers.CharField(), allow_null=True, help_text="the partial goal, if one was given")
    start = serializers.ListField(child=serializers.CharField(), help_text="the state after the setup")
    end = serializers.ListField(child=serializers.CharField(), help_text="the state after setup and alg")
    solved = serializers.BooleanField()


REV = OpenApiParameter("rev", int, description="revision number (default: the latest)")


class Play(APIView):
    """Expand a permalink's `setup` and `alg` (alg notation) and replay them from its `state` (default:
    the goal) towards its `goal` (a partial goal, `?` where a sticker does not matter)."""

    @extend_schema(parameters=[REV, OpenApiParameter("setup", str), OpenApiParameter("alg", str),
                               OpenApiParameter("state", str, description="the start state (default: the goal)"),
                               OpenApiParameter("goal", str, description="a partial goal: ? where a sticker does not matter")],
                   responses=PlaySerializer)
    def get(self, request, owner, name):
        try:
            _repository, revision = revision_for(request, owner, name)
            defn = load_definition(revision.definition)
            result = player.play_state(defn, **{key: request.GET.get(key, "") for key in ("setup", "alg", "state", "goal")})
        except ValidationError as exc:
            return Response(exc.message_dict, status=400)
        return Response(result)


class ScrambleSerializer(serializers.Serializer):
    moves = serializers.ListField(child=serializers.CharField())
    state = serializers.ListField(child=serializers.CharField())


class Scramble(APIView):
    """A scramble from the server's scrambler: random moves and the state they lead to."""

    @extend_schema(parameters=[REV], responses=ScrambleSerializer)
    def get(self, request, owner, name):
        try:
            _repository, revision = revision_for(request, owner, name)
            return Response(player.scramble(load_definition(revision.definition)))
        except ValidationError as exc:
            return Response(exc.message_dict, status=400)
