"""The player's server side: permalinks and the play API expand alg notation and replay it; bad
permalinks give a clear 400, never a 500; every page that shows a puzzle carries the player with
the site's one colour mapping."""

import json
import re

import pytest

from puzzlehub.repos.services import publish_catalog
from puzzlehub.web.colours import WILDCARD_FILL, colour_map
from puzzlehub.web.player import player_model
from solver import api as solver_api
from solver import catalog


def _script(page: str, kind: str, key: str = r"\w+") -> dict:
    """The JSON of a player's model or initial state ("model" / "initial") on a page."""
    found = re.search(rf'<script type="application/json" id="player-{kind}-{key}">(.*?)</script>', page, re.S)
    assert found, f"no player {kind} on the page"
    return json.loads(found.group(1))


def test_the_play_api_expands_and_replays(make_repo, alice, client_for):
    make_repo(alice)
    response = client_for().get("/api/repos/alice/rings/play/", {"setup": "(A B)2", "alg": "[A, B]"})
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["setup"] == ["A", "B", "A", "B"] and data["alg"] == ["A", "B", "A'", "B'"]
    defn = solver_api.load_text(client_for().get("/api/repos/alice/rings/revisions/1/").json()["definition"])
    start = solver_api.apply_moves(defn, data["setup"])
    assert data["start"] == list(start)
    assert data["end"] == list(solver_api.apply_moves(defn, data["alg"], start))


def test_a_permalink_starts_from_its_state_towards_its_partial_goal(make_repo, alice, client_for):
    make_repo(alice)
    response = client_for().get("/api/repos/alice/rings/play/", {"state": "RWWWWR", "goal": "WWWW??", "alg": "A"})
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["goal"] == list("WWWW??")
    assert data["origin"] == list("?WWWW?")  # the reds do not matter: shown as `?`
    assert data["end"] == list("W?WWW?") and not data["solved"]  # A carries 0 to 1, 1 to 2, ...
    done = client_for().get("/api/repos/alice/rings/play/", {"state": "RWWWWR", "goal": "WWWW??", "alg": "A2 B'"}).json()
    assert done["solved"] and done["end"] == list("WWWW??")


@pytest.mark.parametrize("query, field, words", [
    ({"goal": "RWWWRR"}, "goal", ["position 0"]),
    ({"state": "WW?WRR"}, "state", ["?"]),
    ({"state": "WWWW", "goal": "WWWW??"}, "state", ["6"]),
    ({"alg": "A Q"}, "alg", ['unknown move "Q" at column 3']),
    ({"alg": "[A, B"}, "alg", ['unbalanced "[" at column 1']),
    ({"setup": "A)"}, "setup", ['unbalanced ")" at column 2']),
    ({"alg": "((A B)1000)1000"}, "alg", ["longer than"]),
    ({"alg": "A " * 100_000}, "alg", ["longer than"]),
    ({"rev": "9"}, "rev", ["no revision 9", "latest: 1"]),
    ({"rev": "x"}, "rev", ["revision number"]),
])
def test_bad_permalinks_are_a_400_naming_the_field(make_repo, alice, client_for, query, field, words):
    make_repo(alice)
    for url in ("/api/repos/alice/rings/play/", "/alice/rings/play"):
        response = client_for().get(url, query)
        assert response.status_code == 400, (url, response.status_code)
        text = " ".join(response.json()[field]) if url.startswith("/api") else response.content.decode()
        for word in words:
            assert word.replace('"', "&quot;") in text or word in text, (url, word)
        assert ": alg: " not in text and not text.startswith("alg: "), (url, text[:200])  # the field is named once


def test_scramble_comes_from_the_server_and_replays(make_repo, alice, client_for):
    make_repo(alice)
    data = client_for().get("/api/repos/alice/rings/scramble/").json()
    defn = solver_api.load_text(client_for().get("/api/repos/alice/rings/revisions/1/").json()["definition"])
    assert len(data["moves"]) >= 25
    assert data["state"] == list(solver_api.apply_moves(defn, data["moves"]))


def test_a_private_repository_has_no_player_for_others(make_repo, alice, bob, client_for):
    make_repo(alice, visibility="private")
    assert client_for(bob).get("/alice/rings/play").status_code == 404
    assert client_for(bob).get("/api/repos/alice/rings/play/").status_code == 404
    assert client_for(bob).get("/api/repos/alice/rings/scramble/").status_code == 404
    owner = client_for()
    owner.force_login(alice)
    assert owner.get("/alice/rings/play").status_code == 200


def test_every_puzzle_page_carries_the_player_with_one_colour_mapping(make_repo, alice, client_for):
    make_repo(alice)
    client = client_for(alice)
    submitted = client.post("/api/repos/alice/rings/algorithms/", {"moves": "[A, B]"}, format="json")
    assert submitted.status_code == 201, submitted.content
    pages = ["/alice/rings/", "/alice/rings/revisions/1/", f"/algorithms/{submitted.json()['id']}/",
             "/alice/rings/play?alg=A", "/alice/rings/embed?alg=A"]
    client.force_login(alice)
    models = [_script(client.get(url).content.decode(), "model") for url in pages]
    assert all(m == models[0] for m in models)
    # the definition's own hex values, and grey for `?` (a sticker a partial goal does not look at)
    assert models[0]["colours"] == {"W": "#f4f4f4", "R": "#d01010", "?": WILDCARD_FILL}
    embed = client.get("/alice/rings/embed")
    assert "X-Frame-Options" not in embed and "<header" not in embed.content.decode()


def test_the_model_groups_moves_and_keeps_guards():
    cube = solver_api.load_data(catalog.build("cube3"))
    model = player_model(cube)
    assert ["R", "R'", "R2"] in model["groups"]
    assert model["inverses"]["R"] == "R'"
    sliding = solver_api.load_data(catalog.build("sliding-3x3"))
    model = player_model(sliding)
    assert model["blanks"] == ["0"] and model["tiles"]
    assert all(case["guard"] for move in model["moves"] for case in move["cases"])
    # a move's cycles carry the state exactly as the solver does
    state = list(sliding.goal)
    for case in model["moves"][0]["cases"]:
        if all(state[p] == c for p, c in case["guard"]):
            after = state[:]
            for cycle in case["cycles"]:
                for k, i in enumerate(cycle):
                    after[cycle[(k + 1) % len(cycle)]] = state[i]
            assert tuple(after) == solver_api.apply_moves(sliding, [model["moves"][0]["name"]])
            break


@pytest.mark.django_db
def test_job_pages_and_repository_pages_draw_with_the_same_colours(alice, client_for):
    """The job page drew with its own palette (orange red, red blue); now both use colours.py."""
    from puzzlehub.jobs import services as jobs
    from puzzlehub.repos.models import Repository

    publish_catalog(names=["cube3"])
    repo = Repository.objects.get(name="cube3")
    job = jobs.submit_solve(user=alice, repository=repo, scramble="R U")
    client = client_for()
    client.force_login(alice)
    page = client.get(f"/jobs/{job.id}/").content.decode()
    model, initial = _script(page, "model", "job"), _script(page, "initial", "job")
    cube = solver_api.load_data(catalog.build("cube3"))
    assert model["colours"] == colour_map(cube)
    assert initial["start"] == list(solver_api.apply_moves(cube, ["R", "U"]))
    assert "jobs/jobs.css" in page  # the job page's stylesheet is loaded


@pytest.mark.django_db
def test_search_finds_catalog_puzzles_by_their_usual_names_and_home_shows_favourites(client_for, alice, make_repo):
    publish_catalog(names=["cube3", "cube4", "sliding-3x3"])
    make_repo(alice)
    client = client_for()
    for query in ("rubik", "3x3x3", "3x3", "Rubik"):
        names = [r["name"] for r in client.get("/api/repos/", {"q": query}).json()["results"]]
        assert "cube3" in names, query
    assert "cube4" not in [r["name"] for r in client.get("/api/repos/", {"q": "3x3"}).json()["results"]]
    home = client.get("/").content.decode()
    popular = home[home.index("Popular"):] if "Popular" in home else home
    assert popular.index("puzzlehub/cube3") < popular.index("alice/rings")  # favourites first


def test_the_solve_form_speaks_the_puzzles_own_moves(make_repo, alice, client_for):
    make_repo(alice)
    client = client_for()
    client.force_login(alice)
    page = client.get("/alice/rings/").content.decode()
    assert 'placeholder="e.g. A B A&#x27;"' in page
    assert "This puzzle's moves: A B A&#x27; B&#x27;" in page and "e.g. R U" not in page
