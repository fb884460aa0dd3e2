from django.urls import path

from puzzlehub.web import api, preview

repo = "repos/<str:owner>/<str:name>/"

urlpatterns = [
    path(repo + "play/", api.Play.as_view(), name="api-play"),
    path(repo + "scramble/", api.Scramble.as_view(), name="api-play-scramble"),
    path("preview/", preview.Preview.as_view(), name="api-preview"),
]
