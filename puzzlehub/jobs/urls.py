from django.urls import path

from puzzlehub.jobs import views

urlpatterns = [
    path("jobs/<int:job_id>/", views.job_page, name="job"),
    path("jobs/<int:job_id>/cancel/", views.cancel_page, name="job-cancel"),
    path("jobs/solve/<str:owner>/<str:name>/", views.solve_page, name="solve"),
]
