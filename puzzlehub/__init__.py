"""The PuzzleHub Django site. The Celery app object lives here so the site can send tasks by name."""

from puzzlehub.celery import app as celery_app

__all__ = ["celery_app"]
