from django.urls import path

from puzzlehub.jobs import api

repo = "repos/<str:owner>/<str:name>/"

urlpatterns = [
    path(repo + "solves/", api.SolveCreate.as_view(), name="api-solves"),
    path(repo + "pdbs/", api.PatternDatabases.as_view(), name="api-pdbs"),
    path(repo + "discoveries/", api.DiscoveryCreate.as_view(), name="api-discoveries"),
    path(repo + "sets/", api.AlgorithmSets.as_view(), name="api-sets"),
    path(repo + "algorithms/find/", api.FindCreate.as_view(), name="api-find"),
    path("jobs/", api.JobList.as_view(), name="api-jobs"),
    path("jobs/<int:job_id>/", api.JobDetail.as_view(), name="api-job"),
    path("jobs/<int:job_id>/cancel/", api.JobCancel.as_view(), name="api-job-cancel"),
]
