"""API: algorithms of a repository's puzzle, votes, comments."""

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from puzzlehub.algorithms import selectors, services
from puzzlehub.algorithms.models import Algorithm
from puzzlehub.repos import selectors as repo_selectors
from puzzlehub.rest import TextField, created, int_param, validated


class AlgorithmSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    moves = serializers.CharField(help_text="the expanded move names, separated by spaces")
    written = serializers.CharField(help_text='as submitted in alg notation ("[R, U]"); "" when that was the plain moves')
    length = serializers.IntegerField()
    lengths = serializers.SerializerMethodField(
        help_text="the length in the puzzle's metrics: moves (each move 1) and turns (each smallest turn 1: quarter turns on cubes)")
    title = serializers.CharField()
    effect = serializers.JSONField(allow_null=True, help_text="the solver's description of what it does")
    source = serializers.ChoiceField(choices=[Algorithm.DISCOVERED, Algorithm.SUBMITTED])
    author = serializers.CharField(source="author.username", default=None)
    score = serializers.IntegerField()
    puzzle_hash = serializers.CharField(source="content_hash")
    repository = serializers.SerializerMethodField()
    revision = serializers.IntegerField(source="revision.number", default=None)
    created = serializers.DateTimeField()
    url = serializers.SerializerMethodField()

    def get_repository(self, algorithm) -> str | None:
        revision = algorithm.revision
        return revision.repository.full_name if revision else None

    def get_lengths(self, algorithm) -> dict | None:
        return selectors.lengths_of(algorithm)

    def get_url(self, algorithm) -> str:
        return self.context["request"].build_absolute_uri(reverse("api-algorithm", kwargs={"pk": algorithm.id}))


class AlgorithmCreateSerializer(serializers.Serializer):
    moves = TextField(max_length=20_000, help_text="alg notation: R U R' U', (R U)3, [R, U], [R: U]")
    title = TextField(required=False, allow_blank=True, max_length=200, default="")


class VoteSerializer(serializers.Serializer):
    value = serializers.ChoiceField(choices=[1, -1])


class VoteResultSerializer(serializers.Serializer):
    score = serializers.IntegerField()
    vote = serializers.IntegerField(help_text="the caller's vote: 1, -1 or 0")


class CommentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    algorithm = serializers.IntegerField(source="algorithm_id")
    parent = serializers.IntegerField(source="parent_id", allow_null=True)
    author = serializers.CharField(source="author.username")
    body = serializers.CharField(help_text="markdown as written")
    body_html = serializers.CharField(help_text="the markdown rendered and sanitized")
    created = serializers.DateTimeField()
    edited = serializers.DateTimeField(allow_null=True)


class CommentCreateSerializer(serializers.Serializer):
    body = TextField(max_length=10_000, trim_whitespace=False)
    parent = serializers.IntegerField(required=False, allow_null=True, default=None,
                                      help_text="the id of a comment on this algorithm, to reply to it")


class CommentUpdateSerializer(serializers.Serializer):
    body = TextField(max_length=10_000, trim_whitespace=False)


class RepositoryAlgorithms(ListAPIView):
    serializer_class = AlgorithmSerializer

    def get_queryset(self):
        request, params = self.request, self.request.query_params
        repository = repo_selectors.get_repository(
            owner=self.kwargs["owner"], name=self.kwargs["name"], user=request.user
        )
        return selectors.algorithms_for(
            repository=repository, user=request.user, effect=params.get("effect", ""),
            max_length=int_param(request, "max_length", minimum=0), ordering=params.get("ordering", ""),
        )

    @extend_schema(
        parameters=[OpenApiParameter("effect", str, description="an effect key, or words of the effect text"),
                    OpenApiParameter("max_length", int),
                    OpenApiParameter("ordering", str, enum=sorted(selectors.ORDERINGS))],
        summary="Algorithms of the repository's current puzzle (shared by every repository of the same puzzle)",
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request=AlgorithmCreateSerializer, responses={201: AlgorithmSerializer},
                   summary="Submit a sequence: the server replays it and computes its effect")
    def post(self, request, owner, name):
        repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
        data = validated(AlgorithmCreateSerializer, request)
        algorithm = services.submit_algorithm(repository=repository, user=request.user, **data)
        return created(AlgorithmSerializer, algorithm, request)


class AlgorithmDetail(APIView):
    @extend_schema(responses=AlgorithmSerializer)
    def get(self, request, pk):
        algorithm = selectors.get_algorithm(algorithm_id=pk, user=request.user)
        return Response(AlgorithmSerializer(algorithm, context={"request": request}).data)


class VoteView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=VoteSerializer, responses=VoteResultSerializer, summary="Vote up (1) or down (-1)")
    def put(self, request, pk):
        algorithm = selectors.get_algorithm(algorithm_id=pk, user=request.user)
        value = validated(VoteSerializer, request)["value"]
        algorithm = services.vote(user=request.user, algorithm=algorithm, value=value)
        return Response({"score": algorithm.score, "vote": value})

    @extend_schema(request=None, responses=VoteResultSerializer, summary="Withdraw the caller's vote")
    def delete(self, request, pk):
        algorithm = selectors.get_algorithm(algorithm_id=pk, user=request.user)
        algorithm = services.unvote(user=request.user, algorithm=algorithm)
        return Response({"score": algorithm.score, "vote": 0})


class AlgorithmComments(ListAPIView):
    """Comments, oldest first; replies carry their parent's id."""

    serializer_class = CommentSerializer

    def get_queryset(self):
        return selectors.all_comments_of(selectors.get_algorithm(algorithm_id=self.kwargs["pk"], user=self.request.user))

    @extend_schema(request=CommentCreateSerializer, responses={201: CommentSerializer},
                   summary="Comment in markdown; `parent` makes it a reply (one level)")
    def post(self, request, pk):
        algorithm = selectors.get_algorithm(algorithm_id=pk, user=request.user)
        data = validated(CommentCreateSerializer, request)
        comment = services.add_comment(algorithm=algorithm, author=request.user, body=data["body"], parent=data["parent"])
        return created(CommentSerializer, comment, request)


class CommentDetail(APIView):
    @extend_schema(responses=CommentSerializer)
    def get(self, request, pk):
        return Response(CommentSerializer(selectors.get_comment(comment_id=pk, user=request.user)).data)

    @extend_schema(request=CommentUpdateSerializer, responses=CommentSerializer, summary="Edit (author only)")
    def patch(self, request, pk):
        comment = selectors.get_comment(comment_id=pk, user=request.user)
        body = validated(CommentUpdateSerializer, request)["body"]
        comment = services.edit_comment(comment=comment, user=request.user, body=body)
        return Response(CommentSerializer(comment).data)

    @extend_schema(responses={204: None}, summary="Delete (author only), with its replies")
    def delete(self, request, pk):
        comment = selectors.get_comment(comment_id=pk, user=request.user)
        services.delete_comment(comment=comment, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
