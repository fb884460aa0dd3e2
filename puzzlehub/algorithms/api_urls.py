from django.urls import path

from puzzlehub.algorithms import api

urlpatterns = [
    path("repos/<str:owner>/<str:name>/algorithms/", api.RepositoryAlgorithms.as_view(), name="api-repo-algorithms"),
    path("algorithms/<int:pk>/", api.AlgorithmDetail.as_view(), name="api-algorithm"),
    path("algorithms/<int:pk>/vote/", api.VoteView.as_view(), name="api-vote"),
    path("algorithms/<int:pk>/comments/", api.AlgorithmComments.as_view(), name="api-comments"),
    path("comments/<int:pk>/", api.CommentDetail.as_view(), name="api-comment"),
]
