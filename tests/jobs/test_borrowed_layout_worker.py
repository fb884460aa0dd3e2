"""A definition written without a layout that is a catalog puzzle in another sticker numbering (a
renumbered 3x3x3): the revision is saved at once with its drawing pending, a real worker finds the
catalog puzzle (the match takes seconds, too long for a request) and stores the borrowed layout and
geometry, and from then on the page draws it in 3D; in Chromium, turning it draws the server's state."""

import json
import random
import re

import pytest
import yaml
from chromium import browser, new_page, PHONE, shot  # noqa: F401  (fixtures)
from player_dom import assert_drawn, server_state

from jobwaits import wait_for
from puzzlehub.repos.models import Revision
from solver import catalog


def renumbered_cube3(seed=3) -> str:
    """The catalog's 3x3x3 with its stickers numbered at random and no layout or geometry."""
    data = catalog.build("cube3")
    new_of = list(range(data["stickers"]))
    random.Random(seed).shuffle(new_of)
    goal = [None] * len(new_of)
    for i, colour in enumerate(data["goal"]):
        goal[new_of[i]] = colour
    moves = [{"name": m["name"], "cycles": [[new_of[i] for i in cycle] for cycle in m["cycles"]]} for m in data["moves"]]
    return yaml.safe_dump({"format": "puzzlehub/1", "name": "my-cube", "colors": data["colors"],
                           "moves": moves, "goal": "".join(goal)}, sort_keys=False)


@pytest.mark.django_db(transaction=True)
def test_a_renumbered_cube_is_drawn_as_the_catalog_cube_once_a_worker_matched_it(
        worker, live_server, new_page, alice, make_repo, client, client_for):
    revision = make_repo(alice, "my-cube", definition=renumbered_cube3()).head  # as saved, before any worker
    grid_thumbnail = revision.thumbnail
    assert revision.facts["layout_pending"] and revision.presentation is None

    revision = wait_for(lambda: Revision.objects.filter(id=revision.id, facts__layout_pending__isnull=True,
                                                        presentation__isnull=False).first(), timeout=180)
    assert revision.presentation["catalog"] == "cube3"
    assert revision.thumbnail != grid_thumbnail and revision.thumbnail.count("<path") == 3  # three faces in 3D

    page_html = client.get("/alice/my-cube/").content.decode()
    assert "Drawn as" in page_html and "cube3" in page_html
    model = json.loads(re.search(r'id="player-model-player">(.*?)</script>', page_html, re.S).group(1))
    assert model["geometry"] is not None and len(model["geometry"]["moves"]) == 18

    page = new_page()
    page.goto(f"{live_server.url}/alice/my-cube/play")
    page.wait_for_selector("#player-play.player-ready svg.player-3d")
    api = client_for()
    for move in ["R", "U'", "F2"]:
        page.click(f"#player-play button.move[data-move=\"{move}\"]")
    assert_drawn(page, server_state(api, "alice/my-cube", alg="R U' F2"))
    shot(page, "player-borrowed-3d")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "player-borrowed-3d-390")
