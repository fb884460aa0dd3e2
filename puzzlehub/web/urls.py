"""Page URLs. Fixed paths come first; `<owner>/` and `<owner>/<name>/` take what is left (usernames
that would collide with a fixed path are reserved at sign-up)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from puzzlehub.web import views

repo = "<str:owner>/<str:name>/"

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("settings/", views.account_settings, name="settings"),
    path("new/", views.new_repository, name="new-repository"),
    path("algorithms/<int:pk>/", views.algorithm_page, name="algorithm"),
    path("algorithms/<int:pk>/vote/", views.vote, name="vote"),
    path("algorithms/<int:pk>/comments/", views.add_comment, name="add-comment"),
    path("comments/<int:pk>/edit/", views.edit_comment, name="edit-comment"),
    path("comments/<int:pk>/delete/", views.delete_comment, name="delete-comment"),
    path("<str:owner>/", views.user_page, name="user"),
    path(repo, views.repository_page, name="repository"),
    path(repo + "play", views.play_page, name="play"),
    path(repo + "embed", views.embed_page, name="embed"),
    path(repo + "edit/", views.edit_repository, name="edit-repository"),
    path(repo + "delete/", views.delete_repository, name="delete-repository"),
    path(repo + "revisions/", views.revisions_page, name="revisions"),
    path(repo + "revisions/<int:number>/", views.revision_page, name="revision"),
    path(repo + "compare/<str:other_owner>/<str:other_name>/", views.compare_page, name="compare"),
    path(repo + "fork/", views.fork, name="fork"),
    path(repo + "star/", views.star, name="star"),
    path(repo + "algorithms/", views.submit_algorithm, name="submit-algorithm"),
    path(repo + "discover/", views.discover, name="discover"),
]
