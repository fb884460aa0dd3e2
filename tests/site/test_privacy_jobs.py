"""Jobs share work across repositories by content hash (solves, pattern databases, discovery); what
is shared never tells anyone else of a private repository: no name, job id, count, table or figure
of its jobs, in the API or on pages. The worker's part is played here through the lease protocol it
uses (claim, finish), so no worker runs and nothing is sent."""

import threading
from types import SimpleNamespace

import pytest
from django.test import Client

from puzzlehub.jobs import services
from puzzlehub.jobs.models import Job
from puzzlehub.repos.models import Revision
from solver import api as solver_api

pytestmark = pytest.mark.django_db


def worked(job_id, result):
    """What a worker does with a queued job: claim it, then write its outcome."""
    assert services.claim(job_id=job_id, owner="w1", worker="w1") is not None
    assert services.finish(job_id=job_id, owner="w1", status=Job.SUCCEEDED, result=result)


def page(user, path):
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser.get(path)


def seen_by(user, client_for, job_id):
    """Everything `user` is shown of a job: its API answer and its page."""
    api = client_for(user).get(f"/api/jobs/{job_id}/")
    assert api.status_code == 200, api.content
    return api.json(), api.content.decode() + page(user, f"/jobs/{job_id}/").content.decode()


# a solution of "A B" on the two rings, with figures only alice's solve had
SOLVED = {"solution": ["B'", "A'"], "length": 2, "optimal": True, "verified": True, "nodes": 987654,
          "seconds": 4.321}


def test_a_solve_is_never_answered_from_a_private_repositorys_job(alice, bob, make_repo, client_for):
    make_repo(alice, "qxsecret-ring", visibility="private")
    hidden = client_for(alice).post("/api/repos/alice/qxsecret-ring/solves/", {"scramble": "A B"}, format="json")
    worked(hidden.json()["id"], SOLVED)
    make_repo(bob, "bob-ring")  # the same puzzle, public
    asked = client_for(bob).post("/api/repos/bob/bob-ring/solves/", {"scramble": "A B"}, format="json")
    assert asked.status_code == 202 and asked.json()["status"] == "queued", asked.content  # solved again
    for reader in (bob, None):
        body, text = seen_by(reader, client_for, asked.json()["id"])
        assert body["result"] is None and body["progress"]["text"] == ""
        assert f"job {hidden.json()['id']}" not in text and "987654" not in text and "qxsecret" not in text
    # what everyone may open is still reused, and named
    worked(asked.json()["id"], dict(SOLVED, nodes=12))
    make_repo(alice, "public-ring")
    again = client_for(alice).post("/api/repos/alice/public-ring/solves/", {"scramble": "A B"}, format="json").json()
    body, _ = seen_by(None, client_for, again["id"])
    assert body["status"] == "succeeded" and body["result"]["cached_from"] == asked.json()["id"]
    assert body["progress"]["text"] == f"answered from job {asked.json()['id']}"


def head(owner, name):
    return Revision.objects.select_related("repository").get(repository__owner=owner, repository__name=name)


def test_a_private_repositorys_algorithms_and_runs_do_not_stop_a_new_public_puzzles_discovery(
        alice, bob, make_repo, client_for, ball_ring):
    """What the signal on a new public revision asks (tests/jobs/test_first_algorithms.py runs it)."""
    make_repo(alice, "qxalgs", visibility="private")
    assert client_for(alice).post("/api/repos/alice/qxalgs/algorithms/", {"moves": "A B"}, format="json").status_code == 201
    make_repo(bob, "rings")
    job = services.discover_new_puzzle(revision=head(bob, "rings"))
    assert job is not None and job.repository.full_name == "bob/rings"
    # nor does a discovery run on a private repository (queued, running or done)
    make_repo(alice, "qxrun", definition=ball_ring, visibility="private")
    assert client_for(alice).post("/api/repos/alice/qxrun/discoveries/", {}, format="json").status_code == 202
    make_repo(bob, "balls", definition=ball_ring)
    job = services.discover_new_puzzle(revision=head(bob, "balls"))
    assert job is not None and job.repository.full_name == "bob/balls"
    # what is public does: a third copy gets no second run
    make_repo(alice, "balls-again", definition=ball_ring)
    assert services.discover_new_puzzle(revision=head(alice, "balls-again")) is None
