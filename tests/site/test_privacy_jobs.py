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
from puzzlehub.repos.models import Repository, Revision
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
        # queued like any new solve: its text is its place in the queue, nothing of the hidden job
        assert body["result"] is None and body["progress"]["text"].startswith("waiting for a worker")
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


TABLE = {"storage_name": "pdb/qxtable-v1.pdb", "projection": "[]", "bytes": 10, "sha256": "0" * 64,
         "description": "qxcorners", "header": {"entries": 10}}


def test_pattern_databases_built_on_a_private_repository_are_not_shown_to_others(alice, bob, make_user, make_repo,
                                                                                 client_for):
    make_repo(alice, "qxpdb8-secret", visibility="private")
    make_repo(bob, "bob-pdb8-probe")  # the same puzzle, public
    url = "/api/repos/bob/bob-pdb8-probe/pdbs/"
    built = client_for(alice).post("/api/repos/alice/qxpdb8-secret/pdbs/", {}, format="json").json()
    worked(built["id"], {"databases": [TABLE]})
    for reader in (bob, None):
        listed = client_for(reader).get(url)
        assert listed.status_code == 200 and listed.json() == [], listed.content
    # asked for, the stored tables are handed over without saying they were there before
    answered = client_for(bob).post(url, {}, format="json").json()
    body, text = seen_by(bob, client_for, answered["id"])
    assert body["status"] == "succeeded" and body["progress"]["text"] == ""
    texts = [text]
    # from then on they are bob's too, as of his job
    for reader in (bob, None):
        rows = client_for(reader).get(url).json()
        assert [(r["status"], r["job"], r["created_at"]) for r in rows] == [("ready", answered["id"],
                                                                             body["finished_at"])]
    # a build under way on the private repository: bob's request waits for it without a word
    building = client_for(alice).post("/api/repos/alice/qxpdb8-secret/pdbs/", {"memory_mb": 16}, format="json").json()
    waiting = client_for(bob).post(url, {"memory_mb": 16}, format="json").json()
    assert client_for(bob).get(f"/api/jobs/{waiting['id']}/").json()["progress"]["text"] == ""
    worked(building["id"], {"databases": [dict(TABLE, storage_name="pdb/qxsmall-v1.pdb")]})
    for reader in (bob, None):
        body, text = seen_by(reader, client_for, waiting["id"])
        assert body["status"] == "succeeded" and body["progress"]["text"] == ""
        texts.append(text)
    joined = "\n".join(texts)
    assert "already" not in joined and "waiting" not in joined and "qxpdb8" not in joined
    assert f"job {built['id']}" not in joined and f"job {building['id']}" not in joined
    # what everyone may open is named: carol's request says the tables were built already
    carol = make_user("carol")
    make_repo(carol, "probe")
    answer = client_for(carol).post("/api/repos/carol/probe/pdbs/", {}, format="json").json()
    assert Job.objects.get(id=answer["id"]).progress_text == "these tables were already built and stored"


def test_a_job_on_a_repository_made_private_no_longer_names_it(alice, bob, make_repo, client_for):
    make_repo(alice, "qxhide-ring")
    done = client_for(bob).post("/api/repos/alice/qxhide-ring/solves/", {"scramble": "A B"}, format="json").json()
    worked(done["id"], SOLVED)
    waiting = client_for(bob).post("/api/repos/alice/qxhide-ring/solves/", {"scramble": "A A B"},
                                   format="json").json()  # still queued: the settings page lists it
    assert "qxhide-ring" in page(bob, f"/jobs/{done['id']}/").content.decode()
    client_for(alice).patch("/api/repos/alice/qxhide-ring/", {"visibility": "private"}, format="json")
    texts = []
    for job_id in (done["id"], waiting["id"]):
        body, text = seen_by(bob, client_for, job_id)
        assert body["repository"] is None
        assert "a repository you cannot see" in text and 'class="player"' not in text
        texts.append(text)
    listed = client_for(bob).get("/api/jobs/").json()["results"]
    assert [j["repository"] for j in listed] == [None, None]
    texts += [str(listed), page(bob, "/settings/").content.decode()]
    assert "qxhide" not in "\n".join(texts) and "/play" not in "\n".join(texts)
    # its owner still sees where the job ran
    assert client_for(alice).get(f"/api/jobs/{done['id']}/").json()["repository"] == "alice/qxhide-ring"
    assert "/alice/qxhide-ring/play" in page(alice, f"/jobs/{done['id']}/").content.decode()


def test_a_solves_result_names_the_tables_it_built_not_where_they_are(alice, make_repo, client_for, monkeypatch,
                                                                      tmp_path):
    from workers import runners

    make_repo(alice, "rings")
    job_id = client_for(alice).post("/api/repos/alice/rings/solves/", {"scramble": "A B"}, format="json").json()["id"]
    solve = solver_api.solve
    table = tmp_path / "var" / "cache" / "rings-v1.table"  # as a solve that built a table here reports it
    monkeypatch.setattr(solver_api, "solve", lambda *args, **kwargs: dict(solve(*args, **kwargs), tables=[str(table)]))
    job = services.claim(job_id=job_id, owner="w1", worker="w1")
    lease = SimpleNamespace(report=lambda info: None, should_stop=lambda: False, cancelled=threading.Event())
    status, result, error = runners.solve(job, lease)
    assert status == Job.SUCCEEDED, error
    assert services.finish(job_id=job_id, owner="w1", status=status, result=result)
    body, text = seen_by(alice, client_for, job_id)
    assert body["result"]["tables"] == ["rings-v1.table"] and str(tmp_path) not in text


def test_solves_stored_with_table_paths_keep_only_the_names(alice, make_repo, client_for):
    from importlib import import_module

    from django.apps import apps

    make_repo(alice, "rings")
    job_id = client_for(alice).post("/api/repos/alice/rings/solves/", {"scramble": "A B"}, format="json").json()["id"]
    worked(job_id, dict(SOLVED, tables=["/work/judgeB/var/cache/pdb/a16f-v1.pdb", "rings-v1.table"]))
    import_module("puzzlehub.jobs.migrations.0004_table_names_not_paths").names_only(apps, None)
    assert client_for(alice).get(f"/api/jobs/{job_id}/").json()["result"]["tables"] == ["a16f-v1.pdb", "rings-v1.table"]


def sets_result(defn, moves):
    """A set build's result (as workers.runners.algorithm_sets gives it): the A layer's orient set,
    one case, solved by `moves`."""
    undone = [m[:-1] if m.endswith("'") else m + "'" for m in reversed(moves)]
    return {"sets": [{"move": "A", "kind": "orient", "stickers": [0, 1, 2, 3], "goal": list("WWWW??"), "states": 7,
                      "cases": [{"number": 1, "state": list(solver_api.apply_moves(defn, undone)), "size": 3,
                                 "algorithms": [{"moves": moves, "effect": "qxswap", "effect_key": "qxkey"}]}]}]}


def test_sets_built_on_a_private_repository_are_not_shown_to_others(alice, bob, make_repo, client_for):
    from puzzlehub.algorithms.models import Algorithm
    from puzzlehub.jobs.selectors import definition_of

    make_repo(alice, "qxsets-secret", visibility="private")
    built = client_for(alice).post("/api/repos/alice/qxsets-secret/sets/", {"moves": ["A"]}, format="json")
    assert built.status_code == 202, built.content
    defn = definition_of(head(alice, "qxsets-secret"))
    worked(built.json()["id"], sets_result(defn, ["A", "B", "A"]))
    hidden = Algorithm.objects.get(repository__name="qxsets-secret", moves="A B A")
    assert client_for(alice).get("/api/repos/alice/qxsets-secret/sets/").json()[0]["name"] == "A layer: orient"
    make_repo(bob, "bob-sets")  # the same puzzle, public
    repo = Repository.objects.get(owner=bob, name="bob-sets")
    base = "/bob/bob-sets/sets/"
    for reader in (bob, None):
        listed = client_for(reader).get(f"/api/repos{base}")
        assert listed.status_code == 200 and listed.json() == [], listed.content
        text = page(reader, base).content.decode()
        assert "A layer" not in text and "No sets for this puzzle yet" in text
        assert page(reader, f"{base}A/orient/").status_code == 404
        assert page(reader, f"{base}A/orient/1/").status_code == 404
    # the hidden build does not stop the repository's own: the catalog's, nor bob's
    queued = services._first_jobs([repo])
    assert [j.repository_id for j in queued if "sets" in j.options] == [repo.id]
    own = client_for(bob).post(f"/api/repos{base}", {"moves": ["A"]}, format="json")
    assert own.status_code == 202 and own.json()["status"] == "queued", own.content
    worked(own.json()["id"], sets_result(defn, ["A", "B", "A"]))  # the same sequence: recorded again, bob's
    mine = Algorithm.objects.get(repository=repo, moves="A B A")
    for reader in (bob, None):
        listed = client_for(reader).get(f"/api/repos{base}").json()
        assert [(s["name"], s["cases"]) for s in listed] == [("A layer: orient", 1)]
        texts = [page(reader, path).content.decode() for path in (base, f"{base}A/orient/", f"{base}A/orient/1/")]
        assert f"/algorithms/{mine.id}/" in texts[2]
        joined = "\n".join(texts) + page(reader, f"/algorithms/{mine.id}/").content.decode()
        assert f"/algorithms/{hidden.id}/" not in joined and "qxsets" not in joined
    # its owner still sees sets on the private repository
    assert [s["name"] for s in client_for(alice).get("/api/repos/alice/qxsets-secret/sets/").json()] == ["A layer: orient"]
