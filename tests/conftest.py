"""Test set-up shared by every layer.

The site's tests always run on PostgreSQL, never SQLite: DATABASE_URL when it is set (as in .ci/run),
otherwise the machine's local server at postgres://postgres@127.0.0.1:5432/puzzlehub. The test
database is named after this checkout (PUZZLEHUB_TEST_DATABASE overrides), so two checkouts on one
machine can run their tests at the same time. The broker is whatever settings chose
(CELERY_BROKER_URL, else the embedded filesystem transport).
"""

import hashlib
import os
import re

import dj_database_url
import pytest
from django.conf import settings
from django.db import connections

LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/puzzlehub"

# pytest-django has set Django up before this file is read: change the database in place (the
# connection handler holds this same dict, already completed with Django's defaults) and drop any
# connection object made from the old settings; tests/site/test_health.py checks the result.
_db = settings.DATABASES["default"]
if not os.environ.get("DATABASE_URL"):
    _db.update({"OPTIONS": {}, **dj_database_url.parse(LOCAL_POSTGRES)})
    connections.close_all()
    del connections["default"]
# the folder's name and a digest of its whole path: two clones both called "puzzlehub" differ too
_checkout = re.sub(r"[^a-z0-9_]", "_", settings.BASE_DIR.name.lower())
_checkout += "_" + hashlib.sha256(str(settings.BASE_DIR.resolve()).encode()).hexdigest()[:8]
_db["TEST"]["NAME"] = os.environ.get(
    "PUZZLEHUB_TEST_DATABASE", f"test_{_db['NAME']}_{_checkout}"
)


@pytest.fixture(autouse=True)
def _no_discovery_of_new_puzzles(settings):
    """Tests create public puzzles all the time; the discovery run each would get (and the quota
    slot it takes) is switched on only by the tests about it (tests/jobs/test_first_algorithms.py)."""
    settings.DISCOVER_NEW_PUZZLES = False
