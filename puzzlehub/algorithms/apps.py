from django.apps import AppConfig


class AlgorithmsConfig(AppConfig):
    name = "puzzlehub.algorithms"
    label = "algorithms"
