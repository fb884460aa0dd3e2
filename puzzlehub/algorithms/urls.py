from django.urls import path

from puzzlehub.algorithms import views

repo = "<str:owner>/<str:name>/"

urlpatterns = [
    path(repo + "sets/", views.sets_page, name="sets"),
    path(repo + "sets/<str:move>/<str:kind>/", views.set_page, name="set"),
    path(repo + "sets/<str:move>/<str:kind>/<int:number>/", views.case_page, name="case"),
]
