from django.urls import path

from puzzlehub.accounts import api

urlpatterns = [
    path("users/", api.UserCreate.as_view(), name="api-user-create"),
    path("users/<str:username>/", api.UserDetail.as_view(), name="api-user"),
    path("token/", api.TokenCreate.as_view(), name="api-token"),
]
