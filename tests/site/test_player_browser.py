"""The player in a real Chromium, on catalog puzzles of every family and on a user's seed-format
puzzle without a layout: click moves, undo, scramble, open a permalink and play it to the end. After
each step the drawn state, read back from the DOM (each sticker's data-colour), must equal the
server's state for the same sequence. Screenshots (at rest, mid-animation, 390 px wide) go to
/tmp/shots/player-*.png."""

import pytest
from chromium import browser, log_in, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)
from player_dom import PLAYER, assert_drawn, server_state

from puzzlehub.jobs import services as jobs
from puzzlehub.jobs.models import Job
from puzzlehub.repos.models import Repository
from puzzlehub.repos.services import publish_catalog

DESKTOP = {"width": 1280, "height": 800}
MESSAGE = f"{PLAYER} .player-message"


def enabled_moves(page) -> list[str]:
    return page.eval_on_selector_all(f"{PLAYER} button.move:not([disabled])", "bs => bs.map(b => b.dataset.move)")


SEED_NO_LAYOUT = "seed"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("puzzle", ["cube3", "cube7", "megaminx", "pyraminx", "skewb", "loopover-4x4", "sliding-4x4", "flipit-6",
                                    SEED_NO_LAYOUT])
def test_turn_undo_scramble_and_play_a_permalink(live_server, new_page, client_for, alice, ball_ring, puzzle):
    if puzzle == SEED_NO_LAYOUT:
        response = client_for(alice).post("/api/repos/", {"name": "balls", "definition": ball_ring}, format="json")
        assert response.status_code == 201, response.content
        path = "alice/balls"
    else:
        publish_catalog(names=[puzzle])
        path = f"puzzlehub/{puzzle}"
    api = client_for()
    base = live_server.url
    page = new_page()
    page.goto(f"{base}/{path}/play")
    page.wait_for_selector(f"{PLAYER}.player-ready g.sticker")
    assert_drawn(page, server_state(api, path))

    # click two moves (the first enabled ones: guarded puzzles allow only some)
    clicked = []
    for _ in range(2):
        name = enabled_moves(page)[-1]
        page.click(f"{PLAYER} button.move[data-move=\"{name}\"]")
        clicked.append(name)
    assert_drawn(page, server_state(api, path, alg=" ".join(clicked)))
    assert page.inner_text(f"{PLAYER} .player-counter").startswith("2 / 2")
    page.wait_for_function("() => new URL(location.href).searchParams.get('alg') !== null")

    page.click(f"{PLAYER} .player-undo")
    assert_drawn(page, server_state(api, path, alg=clicked[0]))
    page.click(f"{PLAYER} .player-redo")
    assert_drawn(page, server_state(api, path, alg=" ".join(clicked)))

    # a scramble from the server: the drawing and the URL's setup agree with the server
    page.click(f"{PLAYER} .player-scramble")
    page.wait_for_function(f"() => document.querySelector('{PLAYER}').player.setup.length > 0")
    setup = page.evaluate(f"document.querySelector('{PLAYER}').player.setup.join(' ')")
    assert_drawn(page, server_state(api, path, setup=setup))
    page.wait_for_function("() => new URL(location.href).searchParams.get('setup')")
    shot(page, f"player-{puzzle}-scrambled")

    # a permalink with a setup and an alg in notation (valid on guarded puzzles too: the clicked
    # moves were legal from the goal in this order), played to the end at top tempo
    alg = f"({clicked[1]})1"
    page.goto(f"{base}/{path}/play?setup={clicked[0]}&alg={alg}&at=0")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    assert_drawn(page, server_state(api, path, setup=clicked[0]))
    page.select_option(f"{PLAYER} .player-tempo", "16")
    page.click(f"{PLAYER} .player-play")
    page.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.cursor === '1'")
    assert_drawn(page, server_state(api, path, setup=clicked[0], alg=alg))
    assert page.locator(f"{PLAYER} .move-token.current").inner_text() == clicked[1]

    # mid-animation and narrow screenshots, looked at by hand
    page.select_option(f"{PLAYER} .player-tempo", "0.5")
    page.click(f"{PLAYER} .player-back")
    page.wait_for_timeout(150)
    shot(page, f"player-{puzzle}-mid-animation")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(500)
    shot(page, f"player-{puzzle}-390")
    assert page_width(page) <= PHONE["width"]  # nothing overflows sideways


@pytest.mark.django_db(transaction=True)
def test_bad_permalinks_show_a_message_and_the_player_still_works(live_server, new_page):
    publish_catalog(names=["cube3"])
    page = new_page()
    response = page.goto(f"{live_server.url}/puzzlehub/cube3/play?alg=R%20U%20Q&rev=99")
    assert response.status == 400
    alert = page.inner_text(".flash.error")
    assert 'unknown move "Q" at column 5' in alert and "no revision 99" in alert
    page.wait_for_selector(f"{PLAYER}.player-ready")
    # said once: the field named once, and no empty alert of the player's beside it
    assert alert.count("alg:") == 1
    assert page.locator("[role=alert]").all_inner_texts() == [alert]
    shot(page, "player-bad-permalink")
    page.click(f"{PLAYER} button.move[data-move=R]")
    assert page.inner_text(f"{PLAYER} .player-counter").startswith("1 / 1")
    huge = "(R U R' U')" + "9" * 6
    response = page.goto(f"{live_server.url}/puzzlehub/cube3/play?alg={huge}")
    assert response.status == 400 and "longer than" in page.inner_text(".flash.error")


@pytest.mark.django_db(transaction=True)
def test_keyboard_turns_one_letter_moves(live_server, new_page, client_for):
    publish_catalog(names=["cube3"])
    page = new_page()
    page.goto(f"{live_server.url}/puzzlehub/cube3/play")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    page.keyboard.press("r")
    page.keyboard.press("Shift+U")
    page.keyboard.press("f")
    page.keyboard.press("Backspace")
    assert_drawn(page, server_state(client_for(), "puzzlehub/cube3", alg="R U'"))


@pytest.mark.django_db(transaction=True)
def test_the_job_page_plays_the_solution_from_its_start_state(live_server, new_page, alice, client_for):
    publish_catalog(names=["cube3"])
    job = jobs.submit_solve(user=alice, repository=Repository.objects.get(name="cube3"), scramble="R U")
    Job.objects.filter(id=job.id).update(status=Job.SUCCEEDED, result={
        "solution": ["U'", "R'"], "length": 2, "optimal": True, "verified": True})
    page = new_page()
    page.goto(f"{live_server.url}/jobs/{job.id}/")
    page.wait_for_selector("#player-job.player-ready")
    api = client_for()
    assert_drawn(page, server_state(api, "puzzlehub/cube3", alg="R U"), root="#player-job")
    page.click("#player-job .player-play")
    page.wait_for_function("() => document.querySelector('#player-job').dataset.cursor === '2'")
    assert_drawn(page, server_state(api, "puzzlehub/cube3"), root="#player-job")
    shot(page, "player-job")


def answered_before(user, solution, **given) -> Job:
    """A cube3 solve of `given` that a worker answered with `solution`: a solve of the same state
    is answered at once from it, as an already finished job (docs/jobs.md)."""
    job = jobs.submit_solve(user=user, repository=Repository.objects.get(name="cube3"), **given)
    Job.objects.filter(id=job.id).update(status=Job.SUCCEEDED, result={
        "solution": solution, "length": len(solution), "optimal": True, "verified": True})
    return job


def solve_this(page):
    """Press Solve this and wait for its outcome (no worker runs here: only answers given at once come)."""
    page.click(f"{PLAYER} .player-solve")
    page.wait_for_function(f"() => /Solved|solved|failed/.test(document.querySelector('{MESSAGE}').textContent)")
    return page.inner_text(MESSAGE)


@pytest.mark.django_db(transaction=True)
def test_solve_this_on_a_state_solved_before_plays_the_earlier_answer(live_server, new_page, alice, bob, client_for):
    publish_catalog(names=["cube3"])
    earlier = answered_before(bob, ["U'", "R'"], scramble="R U")
    page = new_page()
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server.url, alice)
    page.goto(f"{live_server.url}/puzzlehub/cube3/play")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    page.click(f"{PLAYER} button.move[data-move=R]")
    page.click(f"{PLAYER} button.move[data-move=U]")
    page.select_option(f"{PLAYER} .player-tempo", "16")
    assert solve_this(page) == "Solved in 2 moves (an earlier answer): playing it."
    player = f"document.querySelector('{PLAYER}').player"
    page.wait_for_function(f"() => !{player}.timer && {player}.cursor === {player}.moves.length")
    assert page.evaluate(f"[{player}.setup, {player}.moves]") == [["R", "U"], ["U'", "R'"]]
    assert_drawn(page, server_state(client_for(), "puzzlehub/cube3"))
    assert page.get_attribute(PLAYER, "data-solved") == "true"
    job = Job.objects.get(user=alice)
    assert job.status == Job.SUCCEEDED and job.result["cached_from"] == earlier.id
    shot(page, "player-solve-this-earlier-answer")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "player-solve-this-earlier-answer-390")
    assert page_width(page) <= PHONE["width"]


@pytest.mark.django_db(transaction=True)
def test_solve_this_on_the_solved_puzzle_says_already_solved(live_server, new_page, alice, bob, client_for):
    publish_catalog(names=["cube3"])
    answered_before(bob, [], state=server_state(client_for(), "puzzlehub/cube3"))
    page = new_page()
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server.url, alice)
    page.goto(f"{live_server.url}/puzzlehub/cube3/play")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    assert solve_this(page) == "Already solved."
    assert page.evaluate(f"document.querySelector('{PLAYER}').player.moves.length") == 0
    assert page.get_attribute(PLAYER, "data-solved") == "true"
    assert Job.objects.get(user=alice).result["solution"] == []
    shot(page, "player-solve-this-already-solved")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "player-solve-this-already-solved-390")
    assert page_width(page) <= PHONE["width"]


@pytest.mark.django_db(transaction=True)
def test_a_queued_solve_says_it_waits_for_a_worker_and_its_page_offers_nothing_to_play(live_server, new_page, alice, bob,
                                                                                         client_for):
    """No worker runs here: alice's solve waits behind bob's. The player says so, and how many jobs
    are ahead; the job's page shows the start state with no play controls (nothing to play yet) and
    follows the queue as it moves."""
    publish_catalog(names=["cube3"])
    ahead = jobs.submit_solve(user=bob, repository=Repository.objects.get(name="cube3"), scramble="F")
    page = new_page()
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server.url, alice)
    page.goto(f"{live_server.url}/puzzlehub/cube3/play")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    page.click(f"{PLAYER} button.move[data-move=R]")
    page.click(f"{PLAYER} .player-solve")
    page.wait_for_function(f"() => /worker/.test(document.querySelector('{MESSAGE}').textContent)")
    assert page.inner_text(MESSAGE) == "Waiting for a worker, 1 job ahead of it"
    shot(page, "player-solve-this-queued")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "player-solve-this-queued-390")

    job = Job.objects.get(user=alice)
    assert job.status == Job.QUEUED
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/jobs/{job.id}/")
    page.wait_for_selector("#player-job.player-ready")
    assert_drawn(page, server_state(client_for(), "puzzlehub/cube3", alg="R"), root="#player-job")
    for control in ("player-play", "player-first", "player-back", "player-forward", "player-last", "player-scrub",
                    "player-tempo", "player-counter"):
        assert page.locator(f"#player-job .{control}").count() == 0, control
    progress = '#job [data-field="progress-text"]'
    assert page.inner_text(progress) == "waiting for a worker, 1 job ahead of it"
    assert "attempt" not in page.inner_text("#job")  # "attempt 0" said nothing
    shot(page, "job-queued")
    Job.objects.filter(id=ahead.id).update(status=Job.RUNNING)  # a worker took bob's: alice's is next
    page.wait_for_function(f"() => /next in line/.test(document.querySelector('{progress}').textContent)")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "job-queued-390")
    assert page_width(page) <= PHONE["width"]
