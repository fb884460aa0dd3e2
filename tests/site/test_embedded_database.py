"""`make run`'s embedded database (SQLite under PUZZLEHUB_VAR, no DATABASE_URL): the web process and
the worker's children write to one file. Two processes whose transactions read, then write, must
both end, one after the other; a deferred transaction upgrading from its read fails at once with
"database is locked" (a discovery's outcome was lost that way on a fresh `make run`)."""

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# read a count, wait, write it back: the read-then-write shape of recording a job's outcome
TRANSACTION = """
import os, sys, time
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "puzzlehub.settings"
django.setup()
from django.db import connection, transaction
with transaction.atomic():
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM counter")
        seen = cursor.fetchone()[0]
        time.sleep(float(sys.argv[1]))
        cursor.execute("INSERT INTO counter VALUES (%s)", [seen])
print(connection.vendor)
"""


def test_two_processes_writing_the_embedded_database_wait_for_each_other(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DEBUG", "SECRET_KEY")}
    env.update(PUZZLEHUB_VAR=str(tmp_path), PYTHONPATH=str(ROOT))
    with sqlite3.connect(tmp_path / "puzzlehub.sqlite3") as db:
        db.execute("CREATE TABLE counter (seen integer)")

    def start(pause: float) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", TRANSACTION, str(pause)], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    slow = start(3.0)
    time.sleep(1.5)  # the slow one is inside its transaction (Django's start-up takes about a second)
    quick = start(0.0)
    outcomes = [process.communicate(timeout=120) for process in (slow, quick)]
    for process, (out, err) in zip((slow, quick), outcomes):
        assert process.returncode == 0, err[-2000:]
        assert out.split() == ["sqlite"]
    with sqlite3.connect(tmp_path / "puzzlehub.sqlite3") as db:
        seen = sorted(row[0] for row in db.execute("SELECT seen FROM counter"))
    assert seen == [0, 1]  # one after the other: the second saw the first's row
