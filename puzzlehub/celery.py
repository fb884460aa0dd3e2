"""The Celery app object, configured from the Django settings (names prefixed CELERY_).

Tasks live in `workers/`; the site only sends them by name, so nothing here imports workers.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")

app = Celery("puzzlehub")
app.config_from_object("django.conf:settings", namespace="CELERY")
