"""Pattern-database builds and discovery runs on a REAL worker: artifacts stored and listed with
their checksums, discovered algorithms recorded once under the repository."""

import hashlib

import pytest
from django.core.files.storage import FileSystemStorage

from puzzlehub.algorithms.models import Algorithm
from puzzlehub.jobs.models import Job, PatternDatabase
from solver import api as solver_api

from jobwaits import finished

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cube2_repo(alice, make_repo):
    return make_repo(alice, "pocket", definition=solver_api.export_yaml(solver_api.load("cube2")))


def test_a_pattern_database_is_built_once_stored_with_its_checksum_and_listed(worker, alice, cube2_repo, client_for):
    url = f"/api/repos/alice/{cube2_repo.name}/pdbs/"
    client = client_for(alice)
    job = finished(client.post(url, {}, format="json").json()["id"], timeout=180)
    assert job.status == Job.SUCCEEDED, job.error
    rows = client.get(url).json()
    assert rows and all(row["status"] == "ready" for row in rows)
    for db in PatternDatabase.objects.filter(content_hash=cube2_repo.head.content_hash):
        with FileSystemStorage(location=worker.artifacts).open(db.storage_name, "rb") as fh:
            body = fh.read()
        assert len(body) == db.bytes and hashlib.sha256(body).hexdigest() == db.sha256
    # asking again is answered at once from the stored tables (a job of its own), not built twice
    stored = PatternDatabase.objects.count()
    again = client.post(url, {}, format="json").json()
    assert again["id"] != job.id and again["status"] == "succeeded"
    assert Job.objects.get(id=again["id"]).result == job.result and PatternDatabase.objects.count() == stored


def test_a_discovery_records_its_algorithms_once_under_the_repository(worker, alice, cube2_repo, client_for):
    url = f"/api/repos/alice/{cube2_repo.name}/discoveries/"
    client = client_for(alice)
    job = finished(client.post(url, {"max_length": 6, "time_limit": 30}, format="json").json()["id"], timeout=120)
    assert job.status == Job.SUCCEEDED, job.error
    recorded = Algorithm.objects.filter(content_hash=cube2_repo.head.content_hash, source=Algorithm.DISCOVERED)
    assert recorded.count() == len(job.result["recorded"]) > 0
    defn = solver_api.load("cube2")
    for algorithm in recorded:  # each one replays, and changes something
        assert solver_api.apply_moves(defn, algorithm.moves.split()) != defn.goal
    listed = client.get(f"/api/repos/alice/{cube2_repo.name}/algorithms/").json()
    assert listed["count"] == recorded.count()
    again = finished(client.post(url, {"max_length": 6, "time_limit": 30}, format="json").json()["id"], timeout=120)
    assert again.status == Job.SUCCEEDED
    assert recorded.count() == len(job.result["recorded"]) + len(again.result["recorded"])
    assert again.result["already_known"] > 0  # the same sequences were not recorded twice
