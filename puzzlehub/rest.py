"""What every API view shares: JSON errors with field names, write throttling, pagination, reading a
checked request body and answering 201 Created."""

from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import SuspiciousOperation, ValidationError as DjangoValidationError
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    """Services raise Django's ValidationError({field: message}); answer it as a DRF 400."""
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, SuspiciousOperation):  # Django refusing the body (too big, too many fields)
        exc = exceptions.ParseError(str(exc))
    return drf_exception_handler(exc, context)


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing (400, not 500) a body nested deeper than Python's parser can go."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - the body is nested too deeply") from None


class WriteThrottle(SimpleRateThrottle):
    """Limits writes (POST, PUT, PATCH, DELETE) per user, or per address for anonymous callers; reads
    are not limited. The rate is settings.PUZZLEHUB_WRITE_RATE, read on every request. A refused
    request gets 429 with Retry-After."""

    scope = "write"

    def get_rate(self):
        return settings.PUZZLEHUB_WRITE_RATE

    def get_cache_key(self, request, view):
        if request.method in SAFE_METHODS:
            return None
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def int_param(request, key: str, *, minimum: int) -> int | None:
    """An optional whole-number query parameter; a bad one is a 400 naming it."""
    value = request.query_params.get(key, "")
    if value == "":
        return None
    if not value.isdigit() or int(value) < minimum:
        raise exceptions.ValidationError({key: f"a whole number, {minimum} or more"})
    return int(value)


class TextField(serializers.CharField):
    """A request's text: DRF's CharField turns a number into text (123 becomes "123"), which in a
    JSON body is a client's mistake, not a name."""

    default_error_messages = {"invalid": "must be a string"}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictSerializer(serializers.Serializer):
    """A request body whose fields this serializer does not take is refused, each named (400), not
    silently ignored: "read-only" for a field of the answer (`shown`, a serializer class), the
    `hints` text for one changed some other way, else "unknown field"."""

    shown = None
    hints: dict[str, str] = {}

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            read_only = self.shown().fields if self.shown else {}
            refused = {key: self.hints.get(key) or ("read-only" if key in read_only else "unknown field")
                       for key in data if key not in self.fields}
            if refused:
                raise exceptions.ValidationError(refused)
        return super().to_internal_value(data)


def validated(serializer_class, request, **options) -> dict:
    """The request body as the serializer checks it; a bad body is a 400 naming the fields."""
    data = serializer_class(data=request.data, **options)
    data.is_valid(raise_exception=True)
    return data.validated_data


def created(serializer_class, instance, request) -> Response:
    """201 Created with the new object as the serializer writes it."""
    return Response(serializer_class(instance, context={"request": request}).data, status=status.HTTP_201_CREATED)


class Pagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
