from django.apps import AppConfig


class ReposConfig(AppConfig):
    name = "puzzlehub.repos"
    label = "repos"
