# PuzzleHub: `make run` (site + worker on the embedded defaults), `make prod` (the production stack
# against the local PostgreSQL and Redis: deploy/prod), `make test`, `make bench`.
# DATABASE_URL and CELERY_BROKER_URL are honoured when set (see puzzlehub/settings.py).

PORT ?= 8000
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run prod test bench

$(PY):
	$(PYTHON) -m venv $(VENV)

# reinstall only when the project's dependencies changed
$(INSTALLED): pyproject.toml | $(PY)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[test,bench]'
	touch $@

# the worker (with the janitor's schedule, -B) runs in the background under deploy/supervise, which
# starts it again if it dies, and beside it the catalog's backfill worker (its first algorithms: hours
# of discovery runs on a fresh install), below its CPU priority and without a warm-up of its own, so
# that users' jobs never wait behind those; leaving the recipe (Ctrl-C included) stops both
run: $(INSTALLED)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py publish_catalog
	mkdir -p var
	deploy/supervise $(VENV)/bin/celery -A workers worker -Q solve,pdb,discover -B -s var/celerybeat-schedule --loglevel=info & \
	worker=$$!; \
	PUZZLEHUB_WORKER_WARM_UP=0 deploy/supervise nice -n 10 $(VENV)/bin/celery -A workers worker -Q backfill -n backfill@%h --loglevel=info & \
	backfill=$$!; trap 'kill $$worker $$backfill 2>/dev/null; wait $$worker $$backfill' EXIT INT TERM; \
	$(PY) manage.py runserver --noreload 127.0.0.1:$(PORT)

# gunicorn (deploy/gunicorn.conf.py), a Celery worker per queue and beat, with production settings
# on 127.0.0.1:$(PORT); Ctrl-C stops them all
prod: $(INSTALLED)
	PORT=$(PORT) VENV=$(VENV) deploy/prod

test: $(INSTALLED)
	$(PY) -m pytest

bench: $(INSTALLED)
	@for script in bench/bench_*.py; do echo "== $$script"; $(PY) $$script || exit 1; done
