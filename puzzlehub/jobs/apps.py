from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "puzzlehub.jobs"
    label = "jobs"
    default_auto_field = "django.db.models.BigAutoField"
