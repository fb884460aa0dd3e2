from django.urls import path

from puzzlehub.ops import metrics, views

urlpatterns = [
    path("metrics", metrics.metrics, name="metrics"),
    path("ops/", views.operator_page, name="operator-page"),
]
