from django.apps import AppConfig


class OpsConfig(AppConfig):
    """What operators see: structured logs, Prometheus metrics, the operator page."""

    name = "puzzlehub.ops"
    label = "ops"
