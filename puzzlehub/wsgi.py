"""WSGI entry point for production servers (gunicorn puzzlehub.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")

application = get_wsgi_application()
