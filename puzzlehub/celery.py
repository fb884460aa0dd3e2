"""The Celery app object, configured from the Django settings (names prefixed CELERY_).

Tasks live in `workers/`; the site only sends them by name, so nothing here imports workers.
"""

import os

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")

app = Celery("puzzlehub")
app.config_from_object("django.conf:settings", namespace="CELERY")


@setup_logging.connect
def _keep_django_logging(**kwargs) -> None:
    """Workers and beat log through Django's LOGGING (JSON lines in production), not Celery's own
    set-up, which a receiver of this signal replaces; the level is LOG_LEVEL's."""
