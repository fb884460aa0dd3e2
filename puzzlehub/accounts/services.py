"""Writes about users: sign-up, API tokens, profiles."""

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from rest_framework.authtoken.models import Token

from puzzlehub.accounts.models import Profile

User = get_user_model()

# Usernames are the first part of page URLs (/<owner>/<name>/): URL-safe and not a site path.
USERNAME_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38})$")
RESERVED_USERNAMES = frozenset(
    "about admin algorithms api comments compare healthz login logout new search settings signup "
    "static media users explore puzzlehub".split()
)


def validate_username(username: str) -> None:
    if not USERNAME_RE.match(username or ""):
        raise ValidationError(
            {"username": "use 1-39 letters, digits, '-' or '_', starting with a letter or digit"}
        )
    if username.lower() in RESERVED_USERNAMES:
        raise ValidationError({"username": f"{username!r} is reserved"})
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": "this username is taken"})


@transaction.atomic
def create_user(*, username: str, email: str, password: str) -> User:
    validate_username(username)
    user = User(username=username, email=email)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from None
    user.set_password(password)
    user.full_clean(exclude=["password", "username"])
    user.save()
    Profile.objects.create(user=user)
    return user


def profile_of(user: User) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def update_profile(*, user: User, bio: str) -> Profile:
    profile = profile_of(user)
    profile.bio = bio
    profile.full_clean()
    profile.save(update_fields=["bio"])
    return profile


def api_token(*, user: User) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


@transaction.atomic
def regenerate_api_token(*, user: User) -> str:
    """A new token; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user).key
