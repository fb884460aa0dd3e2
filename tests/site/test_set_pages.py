"""Set and case pages in a real Chromium: a grid of cases drawn with only the set's stickers
coloured, filters by length and by moves, a case with its algorithms and their Play links (each
replayed here to the set's goal). Screenshots (desktop and 390 px wide) go to /tmp/shots/sets-*.png."""

import html
import os
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from puzzlehub.jobs import services
from puzzlehub.jobs.models import Job
from puzzlehub.repos import services as repos
from puzzlehub.repos.models import Repository
from puzzlehub.repos.services import publish_catalog
from solver import api as solver_api
from solver import perm

from player_dom import PLAYER
from chromium import browser, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def cube2_sets():
    """The 2x2x2's U-layer sets with their algorithms (a worker's result, made here)."""
    return solver_api.algorithm_sets(solver_api.load("cube2"), moves=["U"], time_limit=300)


@pytest.fixture(scope="module")
def cube3_sets():
    """The 3x3x3's U-layer sets, orient (57 cases, like OLL) and permute (21, like PLL), with their
    algorithms (its full set is too large to be built)."""
    return solver_api.algorithm_sets(solver_api.load("cube3"), moves=["U"], time_limit=600)


def _record(repo, sets):
    """Record sets built by solver_api.algorithm_sets on the repository's puzzle, as a set build's job does."""
    defn = repos.load_definition(repo.head.definition)
    job = Job.objects.create(kind=Job.DISCOVER, status=Job.SUCCEEDED, user=repo.owner, repository=repo,
                             revision=repo.head, content_hash=repo.head.content_hash, options={"sets": True},
                             dedupe_key="test", time_limit=1, memory_limit=0, max_attempts=1)
    entries = [dict(entry, cases=[dict(case, algorithms=[{"moves": m, **solver_api.effect(defn, m)}
                                                        for m in case["algorithms"]])
                                  for case in entry["cases"]])
               for entry in sets]
    services._record_sets(job, {"sets": entries})
    return repo


def _publish(owner, cube2_sets, name="pocket", visibility=Repository.PUBLIC):
    repo = repos.create_repository(owner=owner, name=name, visibility=visibility,
                                   definition=solver_api.export_yaml(solver_api.load("cube2")))
    return _record(repo, cube2_sets)


def _catalog_cube3(cube3_sets):
    publish_catalog(names=["cube3"])
    return _record(Repository.objects.get(owner__username="puzzlehub", name="cube3"), cube3_sets)


def _play_links(client, url) -> list[dict]:
    """The Play links of a case page, each as its query: state, goal, alg, at."""
    response = client.get(url)
    assert response.status_code == 200, url
    hrefs = re.findall(r'<a class="play-case" href="([^"]+)"', response.content.decode())
    return [{k: v[0] for k, v in parse_qs(urlsplit(html.unescape(h)).query).items()} for h in hrefs]


def _reaches(defn, state, goal, moves) -> bool:
    """Whether `moves`, each applied as the definition's permutation, take `state` to `goal` (`?`
    in the goal: any colour)."""
    for name in moves:
        state = perm.apply(defn.move(name).perm, state)
    return all(g == "?" or g == s for g, s in zip(goal, state))


@pytest.mark.django_db(transaction=True)
def test_set_and_case_pages(live_server, new_page, alice, bob, cube2_sets):  # noqa: F811
    repo = _publish(alice, cube2_sets)
    base = f"{live_server.url}/alice/{repo.name}/sets/"
    page = new_page()
    page.goto(base)
    assert page.locator("table a:has-text('U layer: orient')").count() == 1
    shot(page, "sets-list")
    page.click("a:has-text('U layer: full')")
    cards = page.locator("#cases > li")
    assert cards.count() == 42  # CLL: every case has a card, a drawing and an algorithm
    assert page.locator("#cases > li svg.puzzle").count() == 42
    assert page.locator("#cases > li p.moves").count() == 42
    # stickers outside the layer are drawn grey: the set's 12 stickers only are coloured
    grey = page.locator("#cases > li:first-child svg rect[fill='#d7dbe0']").count()
    assert grey == 24 - 12
    shot(page, "sets-full")
    lengths = [int(t.split()[0]) for t in page.locator("#cases > li p.small").all_inner_texts()]
    page.fill("input[name=max_length]", str(min(lengths)))
    page.click("button:has-text('Filter')")
    assert page.locator("#cases > li").count() == lengths.count(min(lengths))
    page.fill("input[name=max_length]", "")
    page.fill("input[name=moves]", "R U")  # only algorithms made of R and U turns
    page.click("button:has-text('Filter')")
    for text in page.locator("#cases > li p.moves").all_inner_texts():
        assert set(text.split()) <= {"R", "R'", "R2", "U", "U'", "U2"}
    page.goto(f"{base}U/full/2/")
    assert page.locator("#algorithms tbody tr td.moves").count() >= 1
    shot(page, "sets-case")
    # Play (an orientation case: its goal does not look at where the layer's pieces are): the player
    # starts at the case, shows `?` where the set's goal does, and reaches that goal at the end
    page.goto(f"{base}U/orient/2/")
    page.click("#algorithms a.play-case >> nth=0")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    assert page.get_attribute(PLAYER, "data-solved") == "false"
    goal = page.evaluate("new URL(location.href).searchParams.get('goal')")
    assert 0 < goal.count("?") == page.locator(f"{PLAYER} g.sticker[data-colour='?']").count()
    page.select_option(f"{PLAYER} .player-tempo", "16")
    page.click(f"{PLAYER} .player-play")
    page.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.solved === 'true'")
    assert "goal reached" in page.inner_text(f"{PLAYER} .player-solved")
    shot(page, "sets-case-played")
    page.set_viewport_size(PHONE)
    page.goto(f"{base}U/orient/")
    assert page.locator("#cases > li").count() == 7
    width = page_width(page)
    assert width <= PHONE["width"], f"the page scrolls sideways on a phone ({width} px)"
    shot(page, "sets-orient-390")


@pytest.mark.django_db
def test_sets_of_a_private_puzzle_are_not_shown_to_others(client, alice, bob, cube2_sets):
    repo = _publish(alice, cube2_sets, name="secret", visibility=Repository.PRIVATE)
    client.force_login(bob)
    for url in (f"/alice/{repo.name}/sets/", f"/alice/{repo.name}/sets/U/full/", f"/alice/{repo.name}/sets/U/full/1/"):
        assert client.get(url).status_code == 404
    client.force_login(alice)
    assert client.get(f"/alice/{repo.name}/sets/U/full/1/").status_code == 200


@pytest.mark.django_db
def test_the_sets_api_lists_sets_and_refuses_unknown_moves(client_for, alice, cube2_sets):
    repo = _publish(alice, cube2_sets, name="api")
    client = client_for(alice)
    listed = client.get(f"/api/repos/alice/{repo.name}/sets/").json()
    assert {(s["kind"], s["cases"]) for s in listed} == {("orient", 7), ("permute", 2), ("full", 42)}
    refused = client.post(f"/api/repos/alice/{repo.name}/sets/", {"moves": ["U", "Q"]}, format="json")
    assert refused.status_code == 400 and "moves" in refused.json()
    accepted = client.post(f"/api/repos/alice/{repo.name}/sets/", {"moves": ["R"], "time_limit": 5}, format="json")
    assert accepted.status_code == 202
    assert Job.objects.get(id=accepted.json()["id"]).options == {"sets": True, "moves": ["R"]}


@pytest.mark.django_db
def test_every_play_link_of_a_case_reaches_the_sets_goal(client, alice, cube2_sets, cube3_sets):
    """A stored algorithm solves its case up to turns of the layer before and after it: its Play
    link must start from a state it brings to the goal, which the case's drawn state often is not."""
    missed, links = [], 0
    for repo, sets in [(_publish(alice, cube2_sets), cube2_sets), (_catalog_cube3(cube3_sets), cube3_sets)]:
        defn = repos.load_definition(repo.head.definition)
        for built in sets:
            for case in built["cases"]:
                url = f"/{repo.owner.username}/{repo.name}/sets/{built['move']}/{built['kind']}/{case['number']}/"
                found = _play_links(client, url)
                assert len(found) == len(case["algorithms"]), url
                for query in found:
                    start = solver_api.parse_state(defn, query["state"], wildcard="?")
                    goal = solver_api.parse_goal(defn, query["goal"])
                    assert goal == tuple(built["goal"])  # the set's own goal, not one made to fit
                    links += 1
                    if not _reaches(defn, start, goal, query["alg"].split()):
                        missed.append(f"{url} {query['alg']}")
    assert links >= 7 + 2 + 42 + 57 + 21  # every case has an algorithm, some several
    assert not missed, f"{len(missed)} of {links} Play links end short of the goal: {missed[:5]}"


@pytest.mark.django_db(transaction=True)
def test_a_play_link_reaches_the_goal_where_the_case_needs_a_turn_first(live_server, new_page, cube3_sets):  # noqa: F811
    """A permute case (like a PLL) whose algorithm does not solve the state drawn for the case as it
    is, but a turn of the layer of it: its Play link still ends with the goal reached."""
    _catalog_cube3(cube3_sets)
    defn = solver_api.load("cube3")
    permute = next(s for s in cube3_sets if s["kind"] == "permute")
    case = next(c for c in permute["cases"]
                if not _reaches(defn, tuple(c["state"]), tuple(permute["goal"]), c["algorithms"][0]))
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/puzzlehub/cube3/sets/U/permute/{case['number']}/")
    shot(page, "sets-case-permute")
    page.click("#algorithms a.play-case >> nth=0")
    page.wait_for_selector(f"{PLAYER}.player-ready")
    assert page.get_attribute(PLAYER, "data-solved") == "false"
    page.select_option(f"{PLAYER} .player-tempo", "16")
    page.click(f"{PLAYER} .player-play")
    page.wait_for_function(f"() => document.querySelector('{PLAYER}').dataset.cursor === "
                           f"'{len(case['algorithms'][0])}' && !document.querySelector('{PLAYER}').player.animation")
    assert page.get_attribute(PLAYER, "data-solved") == "true"
    assert "goal reached" in page.inner_text(f"{PLAYER} .player-solved")
    shot(page, "sets-case-permute-played")
    page.set_viewport_size(PHONE)
    shot(page, "sets-case-permute-played-390")
    assert page_width(page) <= PHONE["width"]
