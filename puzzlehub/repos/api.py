"""API: repositories, revisions, forks, compare and stars. Views are thin: they parse, check who may
do what, and call services and selectors."""

from django.core.exceptions import PermissionDenied
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from puzzlehub.repos import exports, selectors, services
from puzzlehub.repos.models import Repository
from puzzlehub.rest import StrictSerializer, TextField, created, int_param, validated

VISIBILITY = [Repository.PUBLIC, Repository.PRIVATE]


def repository_url(request, repository) -> str:
    return request.build_absolute_uri(
        reverse("api-repo", kwargs={"owner": repository.owner.username, "name": repository.name})
    )


class HeadSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    hash = serializers.CharField(source="content_hash")
    state_count = serializers.CharField(help_text="decimal digits: counts can exceed 64 bits")
    state_count_exact = serializers.BooleanField()
    stickers = serializers.IntegerField()
    moves = serializers.IntegerField(source="moves_count")
    analysis_pending = serializers.BooleanField(source="facts.pending", default=False,
                                                help_text="true while a worker computes the counts (empty until then)")


class ForkedFromSerializer(serializers.Serializer):
    visible = serializers.BooleanField(help_text="false: a repository the caller cannot see, or deleted")
    full_name = serializers.CharField(allow_null=True, help_text="null when the caller may not know it")
    revision = serializers.IntegerField(allow_null=True)
    url = serializers.CharField(allow_null=True, help_text="null unless the caller can see the parent")


class RepositorySerializer(serializers.Serializer):
    owner = serializers.CharField(source="owner.username")
    name = serializers.CharField()
    full_name = serializers.CharField()
    description = serializers.CharField()
    visibility = serializers.ChoiceField(choices=VISIBILITY)
    license = serializers.CharField()
    topics = serializers.SerializerMethodField()
    forked_from = serializers.SerializerMethodField()
    stars_count = serializers.IntegerField()
    # as the selectors count them for the caller; a repository just made (created, forked) has none
    forks_count = serializers.IntegerField(source="forks_seen", default=0)
    head = HeadSerializer()
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()
    url = serializers.SerializerMethodField()
    html_url = serializers.SerializerMethodField()

    def get_topics(self, repository) -> list[str]:
        return sorted(t.name for t in repository.topics.all())

    @extend_schema_field(ForkedFromSerializer(allow_null=True))
    def get_forked_from(self, repository) -> dict | None:
        request = self.context["request"]
        parent = selectors.parent_of(repository=repository, user=request.user)
        if parent is None:
            return None
        shown = parent.pop("repository")
        return dict(parent, url=repository_url(request, shown) if shown else None)

    def get_url(self, repository) -> str:
        return repository_url(self.context["request"], repository)

    def get_html_url(self, repository) -> str:
        return self.context["request"].build_absolute_uri(f"/{repository.full_name}/")


class RepositoryCreateSerializer(serializers.Serializer):
    name = TextField(max_length=100)
    description = TextField(required=False, allow_blank=True, max_length=2000, default="")
    visibility = serializers.ChoiceField(choices=VISIBILITY, default=Repository.PUBLIC)
    license = TextField(required=False, allow_blank=True, max_length=64, default="")
    topics = serializers.ListField(child=TextField(max_length=40), required=False, default=list,
                                   max_length=20)
    definition = TextField(help_text="the puzzle definition: YAML (native or seed format), KPuzzle JSON or a ksolve/twsearch file",
                           trim_whitespace=False, max_length=services.MAX_DEFINITION_CHARS)
    message = TextField(required=False, allow_blank=True, max_length=500, default="")


class RepositoryUpdateSerializer(StrictSerializer):
    shown = RepositorySerializer
    hints = {"definition": "read-only here: a new definition is a new revision (POST .../revisions/)"}

    name = TextField(max_length=100, required=False)
    description = TextField(required=False, allow_blank=True, max_length=2000)
    visibility = serializers.ChoiceField(choices=VISIBILITY, required=False)
    license = TextField(required=False, allow_blank=True, max_length=64)
    topics = serializers.ListField(child=TextField(max_length=40), required=False, max_length=20)


class RevisionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    hash = serializers.CharField(source="content_hash")
    message = serializers.CharField()
    author = serializers.CharField(source="author.username", default=None)
    created = serializers.DateTimeField()
    puzzle_name = serializers.CharField()
    stickers = serializers.IntegerField()
    moves = serializers.IntegerField(source="moves_count")
    state_count = serializers.CharField()
    state_count_exact = serializers.BooleanField()
    group_order = serializers.CharField()
    analysis_pending = serializers.BooleanField(source="facts.pending", default=False,
                                                help_text="true while a worker computes the counts (empty until then)")
    url = serializers.SerializerMethodField()

    def get_url(self, revision) -> str:
        repo = revision.repository
        return self.context["request"].build_absolute_uri(reverse(
            "api-revision", kwargs={"owner": repo.owner.username, "name": repo.name, "number": revision.number}
        ))


class RevisionDetailSerializer(RevisionSerializer):
    definition = serializers.CharField()
    facts = serializers.JSONField()


class RevisionCreateSerializer(serializers.Serializer):
    definition = TextField(trim_whitespace=False, max_length=services.MAX_DEFINITION_CHARS)
    message = TextField(required=False, allow_blank=True, max_length=500, default="")


class ForkSerializer(serializers.Serializer):
    name = TextField(max_length=100, required=False, help_text="default: the parent's name")


def owned(repository, user):
    """The repository when `user` owns it; anyone else may only read it."""
    if repository.owner_id != user.id:
        raise PermissionDenied("only the owner can change this repository")
    return repository


REPO_LIST_PARAMS = [
    OpenApiParameter("q", str, description="words matched against name, description, owner and topics"),
    OpenApiParameter("owner", str), OpenApiParameter("topic", str),
    OpenApiParameter("ordering", str, enum=sorted(selectors.ORDERINGS)),
]


class RepositoryList(ListAPIView):
    serializer_class = RepositorySerializer

    def get_queryset(self):
        params = self.request.query_params
        return selectors.search_repositories(
            user=self.request.user, q=params.get("q", ""), owner=params.get("owner", ""),
            topic=params.get("topic", ""), ordering=params.get("ordering", ""),
        ).prefetch_related("topics")

    @extend_schema(parameters=REPO_LIST_PARAMS, summary="Public repositories and the caller's own")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request=RepositoryCreateSerializer, responses={201: RepositorySerializer},
                   summary="Create a repository with its first revision")
    def post(self, request):
        repository = services.create_repository(owner=request.user, **validated(RepositoryCreateSerializer, request))
        return created(RepositorySerializer, repository, request)


class RepositoryDetail(APIView):
    @extend_schema(responses=RepositorySerializer)
    def get(self, request, owner, name):
        repository = selectors.get_repository(owner=owner, name=name, user=request.user)
        return Response(RepositorySerializer(repository, context={"request": request}).data)

    @extend_schema(request=RepositoryUpdateSerializer, responses=RepositorySerializer)
    def patch(self, request, owner, name):
        repository = owned(selectors.get_repository(owner=owner, name=name, user=request.user), request.user)
        changes = validated(RepositoryUpdateSerializer, request, partial=True)
        repository = services.update_repository(repository=repository, **changes)
        return Response(RepositorySerializer(repository, context={"request": request}).data)

    @extend_schema(responses={204: None})
    def delete(self, request, owner, name):
        repository = owned(selectors.get_repository(owner=owner, name=name, user=request.user), request.user)
        services.delete_repository(repository=repository)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RevisionList(ListAPIView):
    """Revisions, newest first."""

    serializer_class = RevisionSerializer

    def get_queryset(self):
        kwargs = self.kwargs
        repository = selectors.get_repository(owner=kwargs["owner"], name=kwargs["name"], user=self.request.user)
        return selectors.revisions_of(repository).select_related("repository__owner")

    @extend_schema(request=RevisionCreateSerializer, responses={201: RevisionDetailSerializer},
                   summary="Add a revision (owner only); the definition must validate")
    def post(self, request, owner, name):
        repository = owned(selectors.get_repository(owner=owner, name=name, user=request.user), request.user)
        data = validated(RevisionCreateSerializer, request)
        revision = services.create_revision(repository=repository, author=request.user, **data)
        return created(RevisionDetailSerializer, revision, request)


class RevisionDetail(APIView):
    @extend_schema(responses=RevisionDetailSerializer)
    def get(self, request, owner, name, number):
        repository = selectors.get_repository(owner=owner, name=name, user=request.user)
        revision = selectors.get_revision(repository=repository, number=number)
        return Response(RevisionDetailSerializer(revision, context={"request": request}).data)


class Export(APIView):
    """The definition as a file to download: `native` (YAML), `kpuzzle` (KPuzzle JSON) or `ksolve`
    (a ksolve/twsearch .tws); the head revision, or revision `number`. Whoever may read the
    repository may export it (others get 404); a format that cannot hold the puzzle (several
    solved states, guarded moves) is a 400 naming `format` and the reason."""

    @extend_schema(responses={(200, "application/yaml"): str, (200, "application/json"): dict,
                              (200, "text/plain"): str, 400: dict}, summary="Download the definition in a format",
                   parameters=[OpenApiParameter("fmt", str, OpenApiParameter.PATH, enum=list(exports.FORMATS))])
    def get(self, request, owner, name, fmt, number=None):
        repository = selectors.get_repository(owner=owner, name=name, user=request.user)
        return exports.exported(selectors.get_revision(repository=repository, number=number), fmt)


class Fork(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ForkSerializer, responses={201: RepositorySerializer},
                   summary="Fork into the caller's account, with the whole history")
    def post(self, request, owner, name):
        repository = selectors.get_repository(owner=owner, name=name, user=request.user)
        data = validated(ForkSerializer, request)
        fork = services.fork_repository(repository=repository, user=request.user, **data)
        return created(RepositorySerializer, fork, request)


class ForkList(ListAPIView):
    """The repository's direct forks that the caller can see."""

    serializer_class = RepositorySerializer

    def get_queryset(self):
        kwargs = self.kwargs
        repository = selectors.get_repository(owner=kwargs["owner"], name=kwargs["name"], user=self.request.user)
        return selectors.forks_of(repository=repository, user=self.request.user).prefetch_related("topics")


class CompareSideSerializer(serializers.Serializer):
    repository = serializers.CharField()
    revision = serializers.IntegerField()
    hash = serializers.CharField()


class CompareSerializer(serializers.Serializer):
    base = CompareSideSerializer()
    head = CompareSideSerializer()
    same_puzzle = serializers.BooleanField()
    semantic = serializers.JSONField(help_text="moves added, removed, renamed, changed; goals; stickers")
    text_diff = serializers.CharField(help_text="unified diff of the definition texts")


class Compare(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("base", int, description="revision of the first repository (default: latest)"),
                    OpenApiParameter("head", int, description="revision of the second repository (default: latest)")],
        responses=CompareSerializer, summary="Semantic and text difference of two repositories or revisions",
    )
    def get(self, request, owner, name, other_owner, other_name):
        base_repo = selectors.get_repository(owner=owner, name=name, user=request.user)
        head_repo = selectors.get_repository(owner=other_owner, name=other_name, user=request.user)
        base = selectors.get_revision(repository=base_repo, number=int_param(request, "base", minimum=1))
        head = selectors.get_revision(repository=head_repo, number=int_param(request, "head", minimum=1))
        result = selectors.compare_revisions(base, head)
        side = lambda r: {"repository": r.repository.full_name, "revision": r.number, "hash": r.content_hash}  # noqa: E731
        return Response({"base": side(base), "head": side(head),
                         "same_puzzle": base.content_hash == head.content_hash, **result})


class StarSerializer(serializers.Serializer):
    starred = serializers.BooleanField()
    stars_count = serializers.IntegerField()


class StarView(APIView):
    permission_classes = [IsAuthenticated]

    def _answer(self, repository, starred):
        repository.refresh_from_db(fields=["stars_count"])
        return Response({"starred": starred, "stars_count": repository.stars_count})

    @extend_schema(request=None, responses=StarSerializer, summary="Star (idempotent)")
    def put(self, request, owner, name):
        repository = selectors.get_repository(owner=owner, name=name, user=request.user, related=False)
        services.star_repository(user=request.user, repository=repository)
        return self._answer(repository, True)

    @extend_schema(request=None, responses=StarSerializer, summary="Remove the caller's star")
    def delete(self, request, owner, name):
        repository = selectors.get_repository(owner=owner, name=name, user=request.user, related=False)
        services.unstar_repository(user=request.user, repository=repository)
        return self._answer(repository, False)
