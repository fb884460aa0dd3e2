"""The job pages: the solve form, a job's progress, and its solution replayed step by step."""

import json
import re

from django.template import Context, Template
from django.test import RequestFactory

from puzzlehub.jobs import services
from puzzlehub.jobs.models import Job
from solver import api as solver_api


def test_the_solve_form_queues_a_job_and_goes_to_its_page(client, alice, repo):
    client.force_login(alice)
    response = client.post(f"/jobs/solve/alice/{repo.name}/", {"scramble": "R U", "time_limit": "5"})
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.id}/"
    assert job.time_limit == 5 and job.options["scramble"] == ["R", "U"]
    page = client.get(response["Location"]).content.decode()
    assert "queued" in page and 'http-equiv="refresh"' in page  # follows progress without JavaScript


def test_the_solve_form_shows_the_reason_a_state_is_refused(client, alice, repo):
    client.force_login(alice)
    response = client.post(f"/jobs/solve/alice/{repo.name}/", {"state": "WWW"})
    assert response.status_code == 400
    assert "state has 3 stickers, the puzzle has 54" in response.content.decode()
    assert not Job.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(client, repo):
    response = client.post(f"/jobs/solve/alice/{repo.name}/", {"scramble": "R"})
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_form_include_renders_on_a_repository_page(alice, repo):
    request = RequestFactory().get("/alice/cube/")
    request.user = alice
    html = Template('{% include "jobs/_solve_form.html" with repository=repo %}').render(
        Context({"repo": repo, "user": alice, "request": request}))
    assert f'action="/jobs/solve/alice/{repo.name}/"' in html and 'name="scramble"' in html


def test_a_solved_job_plays_its_solution_back_state_by_state(client, alice, repo, cube3):
    job = services.submit_solve(user=alice, repository=repo, scramble="R U")
    Job.objects.filter(id=job.id).update(status=Job.SUCCEEDED, result={
        "solution": ["U'", "R'"], "length": 2, "optimal": True, "verified": True})
    page = client.get(f"/jobs/{job.id}/").content.decode()
    # the site's player gets the start state and the solution to play (tests/site/test_player_browser.py
    # plays it in Chromium)
    initial = json.loads(re.search(r'id="player-initial-job">(.*?)</script>', page, re.S).group(1))
    start = solver_api.apply_moves(cube3, ["R", "U"])
    assert initial["start"] == list(start) and initial["alg"] == ["U'", "R'"]
    assert solver_api.apply_moves(cube3, initial["alg"], start) == cube3.goal
    assert "Solution, move by move" in page and "verified by replay" in page
