from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "puzzlehub.web"
    label = "web"
