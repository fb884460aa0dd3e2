"""API: submit solves, pattern-database builds and discovery runs; read, list and cancel jobs.

Views are thin: they find the repository, hand the request's fields to services (which validate
everything before queueing) and answer 202 with where to follow the job.
"""

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from puzzlehub.algorithms.selectors import sets_for
from puzzlehub.jobs import selectors, services
from puzzlehub.jobs.models import Job
from puzzlehub.repos.selectors import get_repository
from solver import api as solver_api


class ProgressSerializer(serializers.Serializer):
    fraction = serializers.FloatField()
    text = serializers.CharField(help_text="the solver's words (depth, nodes...); while queued, that it waits for a worker")
    queue_position = serializers.IntegerField(allow_null=True, help_text="while queued: 1 when next in its queue")


class JobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Job.KIND_CHOICES)
    status = serializers.ChoiceField(choices=Job.STATUS_CHOICES)
    repository = serializers.SerializerMethodField()
    options = serializers.JSONField()
    progress = serializers.SerializerMethodField()
    result = serializers.JSONField(help_text="a solve's holds solution, length, optimal, verified")
    error = serializers.CharField()
    attempts = serializers.IntegerField()
    worker = serializers.CharField()
    cancel_requested = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField()
    url = serializers.SerializerMethodField()
    html_url = serializers.SerializerMethodField()

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, job) -> dict:
        return selectors.progress_of(job)

    def get_repository(self, job) -> str | None:
        # also None when the reader may no longer see it (deleted, or made private since)
        return job.repository.full_name if job.repository_seen else None

    def get_url(self, job) -> str:
        return self.context["request"].build_absolute_uri(reverse("api-job", kwargs={"job_id": job.id}))

    def get_html_url(self, job) -> str:
        return self.context["request"].build_absolute_uri(reverse("job", kwargs={"job_id": job.id}))


class AcceptedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    url = serializers.CharField()
    result = serializers.JSONField(allow_null=True, help_text=(
        "set when the job finished at once (a solve answered from a stored result, tables already "
        "built): the job's result; null until a worker finishes it"))


def accepted(request, job: Job) -> Response:
    url = request.build_absolute_uri(reverse("api-job", kwargs={"job_id": job.id}))
    # a job answered from stored work is finished already: its answer comes with it
    return Response({"id": job.id, "status": job.status, "url": url, "result": job.result},
                    status=status.HTTP_202_ACCEPTED, headers={"Location": url})


def quota_refused(exc: services.QuotaExceeded) -> Response:
    """429 saying when to retry, shaped like the abuse limits' refusals (puzzlehub.middleware)."""
    return Response({"detail": str(exc), "retry_after": exc.retry_after}, status=status.HTTP_429_TOO_MANY_REQUESTS,
                    headers={"Retry-After": str(exc.retry_after)})


class SolveRequestSerializer(serializers.Serializer):
    state = serializers.JSONField(required=False, help_text="colours: a list, or a string of colour letters")
    scramble = serializers.JSONField(required=False, help_text="moves from the goal: text or a list of names")
    optimal = serializers.BooleanField(required=False, default=False)
    method = serializers.ChoiceField(choices=solver_api.METHODS, required=False,
                                     help_text="special: the specialized solver; default: it when one serves the puzzle")
    time_limit = serializers.FloatField(required=False, help_text="the most seconds to spend")
    max_length = serializers.IntegerField(required=False, min_value=0,
                                          help_text="target length: stop at the first answer this short")
    revision = serializers.IntegerField(required=False, help_text="default: the latest")
    goal = serializers.JSONField(required=False, help_text="a partial goal: the goal with ? where a sticker does not matter")


class SolveCreate(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=SolveRequestSerializer, responses={202: AcceptedSerializer})
    def post(self, request, owner, name):
        repository = get_repository(owner=owner, name=name, user=request.user, related=False)
        data = request.data
        try:
            job = services.submit_solve(
                user=request.user, repository=repository, state=data.get("state"), scramble=data.get("scramble"),
                optimal=data.get("optimal", False), method=data.get("method"),
                time_limit=data.get("time_limit"), max_length=data.get("max_length"), revision=data.get("revision"),
                goal=data.get("goal"),
            )
        except services.QuotaExceeded as exc:
            return quota_refused(exc)
        return accepted(request, job)


class PatternDatabaseRequestSerializer(serializers.Serializer):
    projection = serializers.JSONField(required=False, help_text="the solver's projection; default: its own plan")
    memory_mb = serializers.IntegerField(required=False)
    time_limit = serializers.FloatField(required=False)
    revision = serializers.IntegerField(required=False)


class PatternDatabaseSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="ready, or the status of the build under way")
    projection = serializers.CharField(allow_null=True)
    description = serializers.CharField()
    bytes = serializers.IntegerField(allow_null=True)
    sha256 = serializers.CharField(allow_null=True)
    job = serializers.IntegerField(help_text="the first job you may open that built or was given them, or the build")
    created_at = serializers.DateTimeField(help_text="when that job finished, or was submitted")


class PatternDatabases(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=PatternDatabaseSerializer(many=True))
    def get(self, request, owner, name):
        repository = get_repository(owner=owner, name=name, user=request.user)
        rows = selectors.pattern_databases_for(repository=repository, user=request.user)
        return Response(PatternDatabaseSerializer(rows, many=True).data)

    @extend_schema(request=PatternDatabaseRequestSerializer, responses={202: AcceptedSerializer})
    def post(self, request, owner, name):
        repository = get_repository(owner=owner, name=name, user=request.user, related=False)
        data = request.data
        try:
            job = services.submit_pattern_database(
                user=request.user, repository=repository, projection=data.get("projection"),
                memory_mb=data.get("memory_mb"), time_limit=data.get("time_limit"), revision=data.get("revision"),
            )
        except services.QuotaExceeded as exc:
            return quota_refused(exc)
        return accepted(request, job)


class DiscoveryRequestSerializer(serializers.Serializer):
    max_length = serializers.IntegerField(required=False)
    max_support = serializers.IntegerField(required=False)
    time_limit = serializers.FloatField(required=False)
    revision = serializers.IntegerField(required=False)


class DiscoveryCreate(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DiscoveryRequestSerializer, responses={202: AcceptedSerializer})
    def post(self, request, owner, name):
        repository = get_repository(owner=owner, name=name, user=request.user, related=False)
        data = request.data
        try:
            job = services.submit_discovery(
                user=request.user, repository=repository, max_length=data.get("max_length"),
                max_support=data.get("max_support"), time_limit=data.get("time_limit"),
                revision=data.get("revision"),
            )
        except services.QuotaExceeded as exc:
            return quota_refused(exc)
        return accepted(request, job)


class FindRequestSerializer(serializers.Serializer):
    state = serializers.JSONField(required=False, help_text="colours: a list, or a string of colour letters")
    scramble = serializers.JSONField(required=False, help_text="moves from the goal: text or a list of names")
    goal = serializers.JSONField(required=False, help_text="a partial goal: the goal with ? where a sticker does not matter")
    count = serializers.IntegerField(required=False, help_text="how many sequences (default 10)")
    extra = serializers.IntegerField(required=False, help_text="moves longer than the shortest still wanted (default 2)")
    moves = serializers.ListField(child=serializers.CharField(), required=False, help_text="only these moves")
    time_limit = serializers.FloatField(required=False)
    revision = serializers.IntegerField(required=False)


class FindCreate(APIView):
    """Find algorithms for a state: a job whose sequences are recorded as the repository's
    algorithms, credited to the asker."""
    permission_classes = [IsAuthenticated]

    @extend_schema(request=FindRequestSerializer, responses={202: AcceptedSerializer})
    def post(self, request, owner, name):
        repository = get_repository(owner=owner, name=name, user=request.user, related=False)
        data = request.data
        try:
            job = services.submit_find(
                user=request.user, repository=repository, state=data.get("state"), scramble=data.get("scramble"),
                goal=data.get("goal"), count=data.get("count"), extra=data.get("extra"), moves=data.get("moves"),
                time_limit=data.get("time_limit"), revision=data.get("revision"),
            )
        except services.QuotaExceeded as exc:
            return quota_refused(exc)
        return accepted(request, job)


class SetsRequestSerializer(serializers.Serializer):
    moves = serializers.ListField(child=serializers.CharField(), required=False,
                                  help_text="the moves whose layers to build (default: one per kind of layer)")
    time_limit = serializers.FloatField(required=False)
    revision = serializers.IntegerField(required=False)


class AlgorithmSetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    move = serializers.CharField()
    kind = serializers.CharField()
    states = serializers.IntegerField()
    cases = serializers.IntegerField(source="cases.count")
    stickers = serializers.ListField(child=serializers.IntegerField())


class AlgorithmSets(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=AlgorithmSetSerializer(many=True))
    def get(self, request, owner, name):
        repository = get_repository(owner=owner, name=name, user=request.user)
        return Response(AlgorithmSetSerializer(sets_for(repository=repository), many=True).data)

    @extend_schema(request=SetsRequestSerializer, responses={202: AcceptedSerializer})
    def post(self, request, owner, name):
        repository = get_repository(owner=owner, name=name, user=request.user, related=False)
        data = request.data
        try:
            job = services.submit_sets(user=request.user, repository=repository, moves=data.get("moves"),
                                       time_limit=data.get("time_limit"), revision=data.get("revision"))
        except services.QuotaExceeded as exc:
            return quota_refused(exc)
        return accepted(request, job)


class JobDetail(APIView):
    @extend_schema(responses=JobSerializer)
    def get(self, request, job_id):
        job = selectors.get_job(job_id=job_id, user=request.user)
        return Response(JobSerializer(job, context={"request": request}).data)


@extend_schema(parameters=[
    OpenApiParameter("status", str, enum=[s for s, _ in Job.STATUS_CHOICES]),
    OpenApiParameter("kind", str, enum=[k for k, _ in Job.KIND_CHOICES]),
])
class JobList(ListAPIView):
    """The caller's own jobs, newest first."""

    permission_classes = [IsAuthenticated]
    serializer_class = JobSerializer

    def get_queryset(self):
        params = self.request.query_params
        return selectors.jobs_of(user=self.request.user, status=params.get("status", ""), kind=params.get("kind", ""))


class JobCancel(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=JobSerializer)
    def post(self, request, job_id):
        job = selectors.get_job(job_id=job_id, user=request.user)
        job = services.cancel(job=job, user=request.user)
        return Response(JobSerializer(job, context={"request": request}).data)
