"""Reads about users."""

from django.contrib.auth import get_user_model
from django.http import Http404

User = get_user_model()


def get_user(*, username: str) -> User:
    user = User.objects.filter(username__iexact=username, is_active=True).select_related("profile").first()
    if user is None:
        raise Http404(f"no user {username}")
    return user
