from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "puzzlehub.web"
    label = "web"

    def ready(self):
        from puzzlehub.web import anonymous_cache

        anonymous_cache.connect_signals()
