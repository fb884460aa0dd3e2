"""API: sign-up, API tokens, public user profiles."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from puzzlehub import limits
from puzzlehub.accounts import selectors, services
from puzzlehub.rest import TextField, WriteThrottle, created, validated


class SignUpSerializer(serializers.Serializer):
    username = TextField(max_length=39)
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    password = TextField(write_only=True, max_length=128, style={"input_type": "password"})


class UserSerializer(serializers.Serializer):
    username = serializers.CharField()
    bio = serializers.CharField(source="profile.bio", default="")
    date_joined = serializers.DateTimeField()
    repositories = serializers.SerializerMethodField()

    def get_repositories(self, user) -> str:
        return self.context["request"].build_absolute_uri(f"/api/repos/?owner={user.username}")


class UserCreate(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=SignUpSerializer, responses={201: UserSerializer}, summary="Sign up")
    def post(self, request):
        user = services.create_user(**validated(SignUpSerializer, request), address=limits.address(request))
        return created(UserSerializer, user, request)


class UserDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=UserSerializer, summary="A user's public profile")
    def get(self, request, username):
        user = selectors.get_user(username=username)
        return Response(UserSerializer(user, context={"request": request}).data)


class TokenCreate(ObtainAuthToken):
    """{username, password} -> {"token"}; send it as `Authorization: Token <token>`."""

    throttle_classes = [WriteThrottle]
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # ObtainAuthToken names DRF's own, unbounded

    def post(self, request, *args, **kwargs):
        username = request.data.get("username", "") if isinstance(request.data, dict) else ""
        username = username if isinstance(username, str) else ""
        limits.before_password(request, username)
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:  # wrong username or password (or missing fields)
            limits.wrong_password(request, username)
            raise
