from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "puzzlehub.jobs"
    label = "jobs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from puzzlehub.jobs import signals  # noqa: F401  (connects the discovery of new puzzles)
