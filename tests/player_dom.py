"""Reading the player's drawing back from the DOM (static/web/player.js marks every drawn sticker
with data-position and data-colour) and comparing it with the server's replay of the same moves."""

PLAYER = "#player-play"


def drawn_state(page, root=PLAYER) -> dict[int, str]:
    pairs = page.eval_on_selector_all(f"{root} g.sticker", "gs => gs.map(g => [g.dataset.position, g.dataset.colour])")
    return {int(p): c for p, c in pairs}


def server_state(client, path, setup="", alg="") -> list[str]:
    """The state the server reaches from the goal after `setup` and `alg` (/api/.../play/)."""
    response = client.get(f"/api/repos/{path}/play/", {"setup": setup, "alg": alg})
    assert response.status_code == 200, response.content
    return response.json()["end"]


def assert_drawn(page, expected, root=PLAYER):
    """Once no move is animating, every drawn sticker shows the colour `expected` has there."""
    page.wait_for_function(f"() => !document.querySelector('{root}').player.animation")
    drawn = drawn_state(page, root)
    assert drawn, "nothing drawn"
    assert drawn == {i: expected[i] for i in drawn}
