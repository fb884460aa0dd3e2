"""Top-level URL routing: each app includes its own urls module."""

from django.urls import path

from puzzlehub.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
]
