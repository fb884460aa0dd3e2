"""Celery worker entry point: `celery -A workers worker -Q solve,pdb,discover`.

Tasks are thin glue in `workers.tasks`: load a job row, run the solver, write back through
puzzlehub services.
"""

from puzzlehub.celery import app

app.autodiscover_tasks(["workers"])

__all__ = ["app"]
