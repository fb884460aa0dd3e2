"""Find algorithms for a state: a job (API and page) whose sequences become algorithms of the
repository, credited to the asker; a private repository's stay private (issue 15)."""

import os
import re

import pytest

from puzzlehub.algorithms.models import Algorithm
from puzzlehub.algorithms.selectors import visible_algorithms
from puzzlehub.jobs.models import Job
from puzzlehub.repos.models import Repository
from solver import api as solver_api

from jobwaits import finished

SOLVED = "WWWWWWWWWOOOGGGRRRBBBOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"


def find_url(repo):
    return f"/api/repos/{repo.owner.username}/{repo.name}/algorithms/find/"


@pytest.mark.django_db
@pytest.mark.parametrize("payload, field, words", [
    ({}, "state", "either"),
    ({"scramble": "R U", "count": 0}, "count", "between"),
    ({"scramble": "R U", "count": "many"}, "count", "whole number"),
    ({"scramble": "R U", "moves": ["R", "Q"]}, "moves", "no move named 'Q'"),
    ({"scramble": "R U", "moves": "R U"}, "moves", "a list of move names"),
    ({"scramble": "R U", "goal": "Y" + "?" * 53}, "goal", "position 0 has 'Y'"),
    ({"scramble": "R U", "extra": 11}, "extra", "between"),
    ({"state": SOLVED[:19] + "W" + SOLVED[20:], "goal": "?" * 45 + "Y" * 9}, "state", "does not have"),
])
def test_bad_requests_name_the_field_before_anything_is_queued(alice, repo, client_for, payload, field, words):
    response = client_for(alice).post(find_url(repo), payload, format="json")
    assert response.status_code == 400, response.content
    assert words in str(response.json()[field])
    assert not Job.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_found_sequences_are_the_repositorys_algorithms_credited_to_the_asker(worker, alice, make_user, make_repo,
                                                                             client_for, cube3):
    private = make_repo(alice, "mine", visibility=Repository.PRIVATE)
    response = client_for(alice).post(find_url(private), {"scramble": "R U R' U R U2 R'", "count": 4},
                                      format="json")
    assert response.status_code == 202, response.content
    job = finished(response.json()["id"], timeout=120)
    assert job.status == Job.SUCCEEDED, job.error
    found = job.result["found"]
    assert len(found) == 4 and job.result["shortest"] == 7
    lengths = [f["length"] for f in found]
    assert lengths == sorted(lengths) and lengths[0] == 7 and found[0]["shortest"]
    start = solver_api.apply_moves(cube3, "R U R' U R U2 R'".split())
    for f in found:  # every one replays from the state to the goal, and is stored as it was found
        assert solver_api.verify(cube3, start, f["moves"])
        algorithm = Algorithm.objects.get(id=f["algorithm"])
        assert algorithm.moves == " ".join(f["moves"]) and algorithm.author == alice and algorithm.job_id == job.id
        assert algorithm.repository_id == private.id
    ids = [f["algorithm"] for f in found]
    bob = make_user("bob")
    assert not visible_algorithms(bob).filter(id__in=ids).exists()  # a private repository's stay private
    assert visible_algorithms(alice).filter(id__in=ids).count() == 4
    for algorithm_id in ids:
        assert client_for(bob).get(f"/api/algorithms/{algorithm_id}/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_partial_goal_with_some_moves_only(worker, alice, repo, client_for, cube3):
    goal = "?" * 45 + "Y" * 9  # the bottom face only
    response = client_for(alice).post(find_url(repo), {"scramble": "R U R'", "goal": goal, "count": 3,
                                                       "moves": ["R", "R'", "R2", "U", "U'", "U2"]}, format="json")
    job = finished(response.json()["id"], timeout=120)
    assert job.status == Job.SUCCEEDED, job.error
    start = solver_api.apply_moves(cube3, "R U R'".split())
    for f in job.result["found"]:
        end = solver_api.apply_moves(cube3, f["moves"], start)
        assert "".join(end[45:]) == "Y" * 9 and set(f["moves"]) <= {"R", "R'", "R2", "U", "U'", "U2"}
    assert job.result["found"][0]["moves"] == ["R", "U'", "R'"]


# ---------------------------------------------------------------------------------- in Chromium

from chromium import browser, new_page, page_width, PHONE, shot  # noqa: E402, F401  (fixtures)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.mark.django_db(transaction=True)
def test_find_algorithms_from_the_solve_form_then_the_algorithm_page(worker, live_server, new_page, alice,  # noqa: F811
                                                                    repo):
    base = live_server.url
    page = new_page()
    page.goto(f"{base}/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "pw-" + "x" * 12)
    page.click("button:has-text('Log in')")
    page.goto(f"{base}/jobs/solve/alice/{repo.name}/")
    page.fill("#solve-scramble", "R U R' U R U2 R'")
    page.click("button:has-text('Find algorithms')")
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))
    page.wait_for_selector("[data-field=status]:has-text('succeeded')", timeout=120_000)
    found = page.locator("ol.found li")
    assert found.count() >= 5 and "(shortest)" in found.first.inner_text()
    assert page.locator("h1").inner_text().startswith("Find algorithms")
    shot(page, "algos-find-job")
    page.set_viewport_size(PHONE)
    assert page_width(page) <= PHONE["width"]
    shot(page, "algos-find-job-390")

    page.set_viewport_size({"width": 1280, "height": 900})
    found.first.locator("a").click()
    page.wait_for_url(re.compile(r"/algorithms/\d+/$"))
    arrows = page.locator("figure.effect svg g.effect-arrows")
    assert arrows.count() == 1 and arrows.locator("path.arrow").count() == 7  # Sune: 4 corners and 3 edges move
    kinds = page.locator(".variants li .kind").all_inner_texts()
    assert kinds[0] == "inverse" and "mirror" in kinds and "rotation" in kinds
    moves = page.locator("h1.moves").inner_text().split()
    cube3 = solver_api.load("cube3")
    for text in page.locator(".variants li code.moves").all_inner_texts():  # same effect class, by replay
        assert solver_api.effect(cube3, text.split())["effect_key"] == solver_api.effect(cube3, moves)["effect_key"]
    shot(page, "algos-algorithm")
    page.locator("figure.effect").screenshot(path="/tmp/shots/algos-effect.png")
    page.set_viewport_size(PHONE)
    page.reload()
    assert page_width(page) <= PHONE["width"]
    shot(page, "algos-algorithm-390")


@pytest.mark.django_db(transaction=True)
def test_a_solve_job_towards_a_partial_goal(worker, alice, repo, client_for, cube3):
    goal = "?" * 45 + "Y" * 9  # the bottom face only
    response = client_for(alice).post(f"/api/repos/alice/{repo.name}/solves/",
                                      {"scramble": "R U F' D2 L B", "goal": goal, "optimal": True}, format="json")
    job = finished(response.json()["id"], timeout=120)
    assert job.status == Job.SUCCEEDED, job.error
    start = solver_api.apply_moves(cube3, "R U F' D2 L B".split())
    end = solver_api.apply_moves(cube3, job.result["solution"], start)
    assert "".join(end[45:]) == "Y" * 9 and job.result["optimal"] and job.result["verified"]
