""""Solve this" in a real Chromium with a real worker: scramble in the player, press Solve this, the
answer comes back from a solve job and plays; the drawn state at the end (read from the DOM) is the
server's replay of scramble + answer, and that is solved."""

import pytest
from chromium import browser, log_in, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)
from player_dom import PLAYER, assert_drawn, server_state

from puzzlehub.jobs.models import Job
from puzzlehub.repos.services import publish_catalog
from solver import api as solver_api
from solver import perm

PATH = "puzzlehub/cube3"


@pytest.mark.django_db(transaction=True)
def test_solve_this_plays_the_workers_answer_to_a_solved_state(worker, live_server, new_page, alice, client_for):
    publish_catalog(names=["cube3"])
    page = new_page()
    log_in(page, live_server.url, alice)
    page.goto(f"{live_server.url}/{PATH}/play")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    page.click(f"{PLAYER} .player-scramble")
    page.wait_for_function(f"() => document.querySelector('{PLAYER}').player.setup.length > 0")
    player = f"document.querySelector('{PLAYER}').player"
    scramble = page.evaluate(f"{player}.setup.join(' ')")
    api = client_for()
    assert_drawn(page, server_state(api, PATH, setup=scramble))

    page.select_option(f"{PLAYER} .player-tempo", "16")
    page.click(f"{PLAYER} .player-solve")
    page.wait_for_function(f"() => {player}.moves.length > 0 && {player}.timer", timeout=120_000)
    shot(page, "player-solve-this-playing")
    page.wait_for_function(f"() => !{player}.timer && {player}.cursor === {player}.moves.length", timeout=60_000)

    answer = page.evaluate(f"{player}.moves")
    assert page.evaluate(f"{player}.setup.join(' ')") == scramble  # played from the scrambled state
    job = Job.objects.get(user=alice, kind=Job.SOLVE)
    assert job.status == Job.SUCCEEDED and job.result["solution"] == answer
    end = server_state(api, PATH, setup=scramble, alg=" ".join(answer))
    assert_drawn(page, end)
    replay = api.get(f"/api/repos/{PATH}/play/", {"setup": scramble, "alg": " ".join(answer)}).json()
    assert replay["solved"] and end == server_state(api, PATH)  # the goal: the catalog cube3 has one
    assert f"Solved in {len(answer)} move" in page.inner_text(f"{PLAYER} .player-message")
    shot(page, "player-solve-this-solved")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "player-solve-this-390")
    assert page_width(page) <= PHONE["width"]


@pytest.mark.django_db(transaction=True)
def test_solve_this_towards_a_partial_goal_from_a_permalink(worker, live_server, new_page, alice, client_for):
    """First layer only: the permalink's goal keeps the stickers a D turn moves and shows `?` (grey)
    elsewhere; a scramble and Solve this end with those stickers home, whatever the rest shows."""
    publish_catalog(names=["cube3"])
    cube = solver_api.load("cube3")
    kept = set(perm.support(next(m for m in cube.moves if m.name == "D").perm))
    goal = "".join(c if x in kept else "?" for x, c in enumerate(cube.goal))
    page = new_page()
    log_in(page, live_server.url, alice)
    page.goto(f"{live_server.url}/{PATH}/play?goal={goal}")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    assert "20 of 54 stickers matter" in page.inner_text(f"{PLAYER} .player-goal")
    assert page.get_attribute(PLAYER, "data-solved") == "true"
    grey = page.locator(f"{PLAYER} g.sticker[data-colour='?']").count()
    assert grey == 54 - len(kept)
    page.click(f"{PLAYER} .player-scramble")
    page.wait_for_function(f"() => document.querySelector('{PLAYER}').player.setup.length > 0")
    player = f"document.querySelector('{PLAYER}').player"
    scramble = page.evaluate(f"{player}.setup.join(' ')")
    page.select_option(f"{PLAYER} .player-tempo", "16")
    page.click(f"{PLAYER} .player-solve")
    page.wait_for_function(f"() => {player}.moves.length > 0 || /failed/.test(document.querySelector('{PLAYER} .player-message').textContent)", timeout=120_000)
    assert page.evaluate(f"{player}.moves.length") > 0, page.inner_text(f"{PLAYER} .player-message")
    page.wait_for_function(f"() => !{player}.timer && {player}.cursor === {player}.moves.length", timeout=60_000)
    answer = page.evaluate(f"{player}.moves")
    job = Job.objects.get(user=alice, kind=Job.SOLVE)
    assert job.options.get("goal") and job.result["solution"] == answer
    end = solver_api.apply_moves(cube, solver_api.parse_moves(cube, scramble) + answer)
    assert all(end[x] == cube.goal[x] for x in kept)  # the first layer is home
    assert page.get_attribute(PLAYER, "data-solved") == "true"
    assert "goal reached" in page.inner_text(f"{PLAYER} .player-solved")
    assert page.evaluate("new URL(location.href).searchParams.get('goal')") == goal
    shot(page, "player-partial-goal-solved")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "player-partial-goal-390")
    assert page_width(page) <= PHONE["width"]


@pytest.mark.django_db(transaction=True)
def test_solve_this_again_plays_the_earlier_answer_and_the_solved_puzzle_is_already_solved(worker, live_server, new_page,
                                                                                             alice, client_for):
    """The second solve of a state is answered at once from the first's result (docs/jobs.md), and
    so is the solved puzzle's after its first: the player plays that answer, and a zero-move answer
    says so. Before, both said "Solve failed: the job succeeded"."""
    publish_catalog(names=["cube3"])
    page = new_page()
    log_in(page, live_server.url, alice)
    player = f"document.querySelector('{PLAYER}').player"
    message = f"{PLAYER} .player-message"

    def solve_this() -> str:
        page.click(f"{PLAYER} .player-solve")
        page.wait_for_function(f"() => /Solved in|solved\\.|failed/.test(document.querySelector('{message}').textContent)",
                               timeout=120_000)
        return page.inner_text(message)

    answers = []
    for _ in range(2):
        page.goto(f"{live_server.url}/{PATH}/play?setup=R U F")
        page.wait_for_selector(f"{PLAYER}.player-ready")
        page.select_option(f"{PLAYER} .player-tempo", "16")
        said = solve_this()
        assert "failed" not in said, said
        page.wait_for_function(f"() => !{player}.timer && {player}.cursor === {player}.moves.length", timeout=60_000)
        answers.append((said, page.evaluate(f"{player}.moves")))
        assert page.get_attribute(PLAYER, "data-solved") == "true"
    (first, answer), (again, replayed) = answers
    assert first == f"Solved in {len(answer)} moves: playing it."
    assert again == f"Solved in {len(answer)} moves (an earlier answer): playing it." and replayed == answer

    page.click(f"{PLAYER} .player-reset")
    assert [solve_this(), solve_this()] == ["Already solved.", "Already solved."]
    assert page.evaluate(f"{player}.moves.length") == 0
    jobs = list(Job.objects.filter(user=alice).order_by("id"))
    assert [j.status for j in jobs] == [Job.SUCCEEDED] * 4
    assert [bool(j.result.get("cached_from")) for j in jobs] == [False, True, False, True]
    assert jobs[2].result["solution"] == [] and jobs[2].attempts == 1  # the worker's zero-move answer
