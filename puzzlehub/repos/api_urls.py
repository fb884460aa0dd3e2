from django.urls import path

from puzzlehub.repos import api

repo = "repos/<str:owner>/<str:name>/"

urlpatterns = [
    path("repos/", api.RepositoryList.as_view(), name="api-repos"),
    path(repo, api.RepositoryDetail.as_view(), name="api-repo"),
    path(repo + "revisions/", api.RevisionList.as_view(), name="api-revisions"),
    path(repo + "revisions/<int:number>/", api.RevisionDetail.as_view(), name="api-revision"),
    path(repo + "export/<str:fmt>/", api.Export.as_view(), name="api-export"),
    path(repo + "revisions/<int:number>/export/<str:fmt>/", api.Export.as_view(), name="api-revision-export"),
    path(repo + "fork/", api.Fork.as_view(), name="api-fork"),
    path(repo + "forks/", api.ForkList.as_view(), name="api-forks"),
    path(repo + "compare/<str:other_owner>/<str:other_name>/", api.Compare.as_view(), name="api-compare"),
    path(repo + "star/", api.StarView.as_view(), name="api-star"),
]
