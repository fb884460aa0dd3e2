"""Celery worker entry point: `celery -A workers worker -Q solve,pdb,discover`.

Tasks are thin glue in `workers.tasks`: load a job row, run the solver, write back through
puzzlehub services. `workers.warm` loads tables and kernels before the pool forks; `workers.janitor`
runs in beat's process.
"""

from puzzlehub.celery import app
from workers import janitor, warm  # noqa: F401  (connect the janitor to beat, the warm-up to worker start)

app.autodiscover_tasks(["workers"])

__all__ = ["app"]
