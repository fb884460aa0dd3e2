"""Submitting jobs through the API: validation before queueing, quotas, visibility, listing, dedupe
and attach. These tests run inside a transaction that is rolled back, so no message is ever sent."""

from datetime import timedelta

import pytest
from django.utils import timezone

from puzzlehub.jobs.models import Job
from solver import api as solver_api


SOLVED = "WWWWWWWWWOOOGGGRRRBBBOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"


def solves_url(repo):
    return f"/api/repos/{repo.owner.username}/{repo.name}/solves/"


def test_a_scramble_is_accepted_and_queued_with_its_state(alice, repo, client_for, cube3):
    response = client_for(alice).post(solves_url(repo), {"scramble": "R U"}, format="json")
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "queued" and body["url"].endswith(f"/api/jobs/{body['id']}/")
    job = Job.objects.get(id=body["id"])
    assert tuple(job.options["state"]) == solver_api.apply_moves(cube3, ["R", "U"])
    assert job.content_hash == repo.head.content_hash and job.attempts == 0


@pytest.mark.parametrize("payload, field, words", [
    ({"state": "WWW"}, "state", "54"),
    ({"state": "X" * 54}, "state", "colour"),
    ({"scramble": "R Q"}, "scramble", 'unknown move "Q" at column 3'),
    ({}, "state", "either"),
    ({"state": "W" * 54, "scramble": "R"}, "state", "either"),
    ({"scramble": "R", "time_limit": -1}, "time_limit", "between"),
    ({"scramble": "R", "time_limit": 10**6}, "time_limit", "between"),
    ({"scramble": "R", "optimal": "yes"}, "optimal", "true or false"),
    ({"scramble": "R", "method": "guess"}, "method", "unknown method 'guess'"),
    ({"scramble": "R", "max_length": -1}, "max_length", "0 or more"),
    ({"scramble": "R", "max_length": "20"}, "max_length", "whole number"),
    ({"scramble": "R", "revision": 7}, "revision", "no revision 7"),
    # partial goals: `?` where a sticker does not matter, the rest the puzzle's goal
    ({"scramble": "R", "goal": "?" * 53}, "goal", "54"),
    ({"scramble": "R", "goal": "X" + "?" * 53}, "goal", "colour 'X'"),
    ({"scramble": "R", "goal": "Y" + "?" * 53}, "goal", "position 0 has 'Y' where the puzzle's goal has 'W'"),
    ({"scramble": "R", "goal": "?" * 54}, "goal", "every sticker is `?`"),
    ({"state": SOLVED[:19] + "W" + SOLVED[20:], "goal": "?" * 45 + "Y" * 9}, "state",
     "the piece at positions 1, 19 shows W W, a piece this puzzle does not have"),
    ({"state": "?" * 54}, "state", "colour '?'"),  # `?` in a state only towards a partial goal
])
def test_bad_requests_are_refused_with_the_reason_before_anything_is_queued(alice, repo, client_for, payload, field, words):
    response = client_for(alice).post(solves_url(repo), payload, format="json")
    assert response.status_code in (400, 404), response.content
    assert words in str(response.json()[field])
    assert not Job.objects.exists()


def test_a_solve_towards_a_partial_goal_keeps_the_goal_and_accepts_unknown_stickers(alice, repo, client_for, cube3):
    goal = "?" * 45 + "Y" * 9  # the bottom face only
    state = "".join(c if c == "Y" else "?" for c in solver_api.apply_moves(cube3, ["R"]))  # the bottom colour
    response = client_for(alice).post(solves_url(repo), {"state": state, "goal": goal}, format="json")
    assert response.status_code == 202, response.content
    job = Job.objects.get(id=response.json()["id"])
    assert "".join(job.options["goal"]) == goal and "".join(job.options["state"]) == state


def test_every_method_of_the_solver_is_accepted_with_a_target_length(alice, repo, client_for, settings):
    """The API and the library share one list of methods (solver.api.METHODS), "special" included."""
    settings.JOB_QUOTA = len(solver_api.METHODS)
    for method in solver_api.METHODS:
        response = client_for(alice).post(solves_url(repo), {"scramble": "R U", "method": method, "max_length": 2},
                                          format="json")
        assert response.status_code == 202, (method, response.content)
        assert Job.objects.get(id=response.json()["id"]).options["max_length"] == 2


def test_the_schema_describes_the_solve_body_as_it_is_validated(client_for):
    schema = client_for(None).get("/api/schema/?format=json").json()
    schemas = schema["components"]["schemas"]
    body = schemas["SolveRequest"]["properties"]
    assert body["optimal"]["type"] == "boolean" and body["max_length"]["type"] == "integer"
    method = body["method"]["allOf"][0]["$ref"].rsplit("/", 1)[1]
    assert schemas[method]["enum"] == list(solver_api.METHODS)


def test_an_unreachable_state_is_a_400_naming_why(alice, repo, client_for, cube3):
    state = list(cube3.goal)
    # swap two stickers of one corner piece: colours are right, the state is not reachable
    state[0], state[9] = state[9], state[0]
    assert solver_api.reachability(cube3, tuple(state)) is not None  # independent of the API
    response = client_for(alice).post(solves_url(repo), {"state": state}, format="json")
    assert response.status_code == 400
    assert response.json()["state"][0].startswith("state cannot be solved: ")
    assert not Job.objects.exists()


def test_a_request_decides_reachability_from_the_revisions_group_data(alice, repo, client_for, cube3):
    """The revision keeps the group data its analysis computed; a solve request decides from it
    without building the move group in the web process."""
    from solver.analysis import group

    assert repo.head.group_data == solver_api.group_data(cube3)
    state = list(cube3.goal)
    state[0], state[9], state[20] = state[9], state[20], state[0]  # one corner turned in place
    group.move_group.cache_clear()
    response = client_for(alice).post(solves_url(repo), {"state": state}, format="json")
    assert response.json() == {"state": ["state cannot be solved: corner twist"]}
    assert group.move_group.cache_info().misses == 0


def test_anonymous_users_cannot_submit(repo, client_for):
    response = client_for(None).post(solves_url(repo), {"scramble": "R"}, format="json")
    assert response.status_code in (401, 403)
    assert not Job.objects.exists()


def test_a_user_has_at_most_the_quota_of_active_jobs(alice, repo, client_for, settings):
    settings.JOB_QUOTA = 2
    client = client_for(alice)
    codes = [client.post(solves_url(repo), {"scramble": s}, format="json").status_code for s in ("R", "U", "F")]
    assert codes == [202, 202, 429]
    assert Job.objects.filter(user=alice).count() == 2
    Job.objects.filter(user=alice).update(status=Job.SUCCEEDED)  # finished jobs do not count
    assert client.post(solves_url(repo), {"scramble": "F"}, format="json").status_code == 202


def test_a_quota_refusal_says_when_to_retry(alice, repo, client_for, settings):
    settings.JOB_QUOTA = 2
    client = client_for(alice)
    first, second = (client.post(solves_url(repo), {"scramble": s, "time_limit": t}, format="json").json()["id"]
                     for s, t in (("R", 30), ("U", 50)))
    # all queued: the first would take at most its time limit once started
    refused = client.post(solves_url(repo), {"scramble": "F"}, format="json")
    assert refused.status_code == 429 and refused["Retry-After"] == "30"
    assert refused.json()["retry_after"] == 30
    assert "try again in 30 s" in refused.json()["detail"] and "waiting for a worker" in refused.json()["detail"]
    # the second has run 45 s of its 50: it ends first, within 5 s
    Job.objects.filter(id=second).update(status=Job.RUNNING, started_at=timezone.now() - timedelta(seconds=45))
    refused = client.post(solves_url(repo), {"scramble": "F"}, format="json")
    assert 4 <= int(refused["Retry-After"]) <= 5
    assert (f"try again in {refused['Retry-After']} s, when job {second} reaches its time limit at the latest"
            in refused.json()["detail"])
    assert Job.objects.filter(user=alice).count() == 2 and Job.objects.get(id=first).status == Job.QUEUED


def test_a_solved_state_answers_from_the_stored_result_on_the_same_canonical_puzzle(alice, make_user, make_repo, repo, client_for, cube3):
    state = solver_api.apply_moves(cube3, ["R", "U"])
    first = Job.objects.get(id=client_for(alice).post(solves_url(repo), {"scramble": "R U"}, format="json").json()["id"])
    Job.objects.filter(id=first.id).update(status=Job.SUCCEEDED, result={"solution": ["U'", "R'"], "length": 2, "verified": True})
    # another user's repository holding the same puzzle written again: same content hash
    bob = make_user("bob")
    other = make_repo(bob, "again", definition=solver_api.export_yaml(cube3, "seed"))
    assert other.head.content_hash == repo.head.content_hash
    response = client_for(bob).post(solves_url(other), {"state": "".join(state)}, format="json")
    assert response.status_code == 202 and response.json()["status"] == "succeeded"
    cached = Job.objects.get(id=response.json()["id"])
    assert cached.result["cached_from"] == first.id and cached.result["solution"] == ["U'", "R'"]
    # other options are another question
    response = client_for(bob).post(solves_url(other), {"scramble": "R U", "optimal": True}, format="json")
    assert response.json()["status"] == "queued"


def test_a_solve_answered_at_once_carries_its_result_in_the_answer(alice, repo, client_for):
    """The player plays what the submission answers: a job finished at once holds its result there,
    as the schema says; a queued one holds null until a worker answers (then the job has it)."""
    client = client_for(alice)
    queued = client.post(solves_url(repo), {"scramble": "R U"}, format="json").json()
    assert queued["status"] == "queued" and queued["result"] is None
    Job.objects.filter(id=queued["id"]).update(status=Job.SUCCEEDED, result={"solution": ["U'", "R'"], "length": 2,
                                                                              "verified": True})
    again = client.post(solves_url(repo), {"scramble": "R U"}, format="json")
    assert again.status_code == 202 and again.json()["status"] == "succeeded"
    assert again.json()["result"] == {"solution": ["U'", "R'"], "length": 2, "verified": True, "cached_from": queued["id"]}
    assert again.json()["result"] == client.get(again.json()["url"]).json()["result"]
    schema = client_for(None).get("/api/schema/?format=json").json()["components"]["schemas"]
    assert "result" in schema["Accepted"]["properties"]


def test_a_queued_job_says_it_waits_for_a_worker_and_its_place_in_its_queue(alice, make_user, repo, client_for):
    bob = make_user("bob")
    first = client_for(bob).post(solves_url(repo), {"scramble": "F"}, format="json").json()["id"]
    pdbs = f"/api/repos/{repo.owner.username}/{repo.name}/pdbs/"
    assert client_for(alice).post(pdbs, {"projection": [[0, [0, 1, 2], 1, 0, []]]}, format="json").status_code == 202
    second = client_for(alice).post(solves_url(repo), {"scramble": "R"}, format="json").json()["id"]

    def progress(job_id):
        return client_for(alice).get(f"/api/jobs/{job_id}/").json()["progress"]

    # the build waits in another queue: only bob's solve is ahead
    assert progress(second) == {"fraction": 0.0, "text": "waiting for a worker, 1 job ahead of it", "queue_position": 2}
    Job.objects.filter(id=first).update(status=Job.RUNNING, progress=0.25, progress_text="depth 9")
    assert progress(first) == {"fraction": 0.25, "text": "depth 9", "queue_position": None}
    assert progress(second) == {"fraction": 0.0, "text": "waiting for a worker, next in line", "queue_position": 1}
    # a job sent again after its worker was lost keeps saying why
    Job.objects.filter(id=second).update(progress_text="queued again: worker w1 stopped answering")
    assert progress(second)["text"] == "queued again: worker w1 stopped answering; waiting for a worker, next in line"


def test_a_stored_result_that_does_not_replay_is_not_reused(alice, repo, client_for):
    first = client_for(alice).post(solves_url(repo), {"scramble": "R U"}, format="json").json()["id"]
    Job.objects.filter(id=first).update(status=Job.SUCCEEDED, result={"solution": ["U", "R"], "verified": True})
    again = client_for(alice).post(solves_url(repo), {"scramble": "R U"}, format="json").json()
    assert again["status"] == "queued" and again["id"] != first


def test_a_pattern_database_request_is_one_job_per_user(alice, make_user, repo, client_for):
    url = f"/api/repos/{repo.owner.username}/{repo.name}/pdbs/"
    first = client_for(alice).post(url, {"projection": [[0, [0, 1, 2], 1, 0, []]]}, format="json")
    assert first.status_code == 202
    same = client_for(alice).post(url, {"projection": "[[0, [0,1,2], 1, 0, []]]"}, format="json")
    assert same.json()["id"] == first.json()["id"]
    other = client_for(alice).post(url, {"projection": [[0, [0, 1], 1, 0, []]]}, format="json")
    assert other.json()["id"] != first.json()["id"]
    listing = client_for(None).get(url).json()
    assert sorted(row["status"] for row in listing) == ["queued", "queued"]
    assert client_for(alice).post(url, {"projection": "{"}, format="json").status_code == 400


def test_jobs_are_listed_per_user_and_filtered(alice, make_user, repo, client_for):
    client = client_for(alice)
    ids = [client.post(solves_url(repo), {"scramble": s}, format="json").json()["id"] for s in ("R", "U")]
    Job.objects.filter(id=ids[0]).update(status=Job.FAILED)
    listed = client.get("/api/jobs/?status=queued&kind=solve").json()["results"]
    assert [j["id"] for j in listed] == [ids[1]]
    assert client_for(make_user("bob")).get("/api/jobs/").json()["results"] == []
    assert client.get("/api/jobs/?status=lost").status_code == 400


def test_a_job_on_a_private_repository_is_a_404_to_others(alice, make_user, make_repo, client_for):
    private = make_repo(alice, "secret", visibility="private")
    job_id = client_for(alice).post(solves_url(private), {"scramble": "R"}, format="json").json()["id"]
    assert client_for(alice).get(f"/api/jobs/{job_id}/").json()["status"] == "queued"
    assert client_for(make_user("bob")).get(f"/api/jobs/{job_id}/").status_code == 404
    assert client_for(None).get(f"/api/jobs/{job_id}/").status_code == 404
    # nor can anyone else send work to it: every kind of submission looks it up as they see it
    bob = client_for(Job._meta.get_field("user").related_model.objects.get(username="bob"))
    for kind in ("solves", "pdbs", "discoveries", "algorithms/find", "sets"):
        assert bob.post(f"/api/repos/alice/secret/{kind}/", {"scramble": "R"}, format="json").status_code == 404, kind
    assert Job.objects.filter(user__username="bob").count() == 0


def test_cancelling_a_queued_job_is_immediate_and_only_for_its_submitter(alice, make_user, repo, client_for):
    job_id = client_for(alice).post(solves_url(repo), {"scramble": "R"}, format="json").json()["id"]
    assert client_for(make_user("bob")).post(f"/api/jobs/{job_id}/cancel/").status_code == 403
    body = client_for(alice).post(f"/api/jobs/{job_id}/cancel/").json()
    assert body["status"] == "cancelled" and body["finished_at"] is not None


def pdbs_url(repo):
    return f"/api/repos/{repo.owner.username}/{repo.name}/pdbs/"


def test_pattern_database_work_is_shared_but_every_user_has_their_own_job(alice, make_user, make_repo, client_for):
    from puzzlehub.jobs import services

    secret = make_repo(alice, "secret", visibility="private")
    bob, carol = make_user("bob"), make_user("carol")
    public = make_repo(bob, "cube")
    projection = [[0, [0, 1, 2], 1, 0, []]]
    mine = client_for(alice).post(pdbs_url(secret), {"projection": projection}, format="json").json()
    his = client_for(bob).post(pdbs_url(public), {"projection": projection}, format="json").json()
    assert his["id"] != mine["id"]
    assert client_for(bob).get(f"/api/jobs/{his['id']}/").status_code == 200
    assert client_for(bob).get(f"/api/jobs/{mine['id']}/").status_code == 404
    assert [row["job"] for row in client_for(None).get(pdbs_url(public)).json()] == [his["id"]]
    # the build under way is not started twice: bob's job waits for alice's and shares its tables
    # (without a word of a build on a private repository)
    assert Job.objects.get(id=his["id"]).progress_text == "" and Job.objects.get(id=his["id"]).dispatched_at is None
    assert services.claim(job_id=mine["id"], owner="w1", worker="w1") is not None
    stored = {"storage_name": "cube-corners.pdb", "projection": "[[0,[0,1,2],1,0,[]]]", "bytes": 10, "sha256": "0" * 64}
    assert services.finish(job_id=mine["id"], owner="w1", status=Job.SUCCEEDED, result={"databases": [stored]})
    waited = Job.objects.get(id=his["id"])
    assert waited.status == Job.SUCCEEDED and waited.result["databases"][0]["storage_name"] == "cube-corners.pdb"
    ready = client_for(None).get(pdbs_url(public)).json()
    assert [(row["status"], row["job"]) for row in ready] == [("ready", his["id"])]  # alice's private job unnamed
    later = client_for(carol).post(pdbs_url(public), {"projection": projection}, format="json").json()
    assert later["id"] not in (mine["id"], his["id"]) and later["status"] == "succeeded"


@pytest.mark.parametrize("projection, words", [
    ([[9, [0], 1, 0, []]], "orbit 9 does not exist"),
    ([[0, [0, 99], 1, 0, []]], "must be in"),
    ([[0, [0, 1, 2], 1, 0]], "not a valid projection"),
    ([[1, list(range(12)), 1, 0, []]], "over the budget"),
    ({"orbit": 0}, "a list of parts"),
])
def test_a_pattern_database_projection_is_checked_when_submitted(alice, repo, client_for, projection, words):
    response = client_for(alice).post(pdbs_url(repo), {"projection": projection, "memory_mb": 16}, format="json")
    assert response.status_code == 400, response.content
    assert words in response.json()["projection"][0]
    assert not Job.objects.filter(kind=Job.PDB).exists()
