"""The arrows of an algorithm's effect (solver.api.effect_arrows): one per moved piece, from its
place to where the moves take it, numbered by the cycle of places it belongs to. Checked against
a replay of the moves on a state whose stickers are all distinct."""

import random

import pytest

from analysis_geometry import renumbered
from solver import api
from solver.analysis.pieces import piece_model


def layout_cells(defn):
    return [(x, 0) for x in range(defn.stickers)]  # any drawing: every sticker has a place


@pytest.mark.parametrize("name", ["cube3", "megaminx", "pyraminx", "cube4"])
@pytest.mark.parametrize("relabel", [False, True])
def test_arrows_follow_the_pieces_and_their_cycles(name, relabel):
    defn = api.load(name)
    if relabel:
        defn = renumbered(defn, random.Random(7))[0]
    rng = random.Random(name)
    for _ in range(3):
        moves = [rng.choice(defn.move_names) for _ in range(rng.randint(3, 9))]
        arrows = api.effect_arrows(defn, moves, layout_cells(defn))
        # replay: a state naming each position, after the moves, says where each sticker went
        after = api.apply_moves(defn, moves, tuple(f"s{i}" for i in range(defn.stickers)))
        went = {int(symbol[1:]): where for where, symbol in enumerate(after)}
        moved = {x for x in range(defn.stickers) if went[x] != x}
        assert arrows or not moved
        cycle_places: dict[int, set] = {}
        for a in arrows:
            # the arrow ends on the piece's new place, at the sticker it lands on unless it turned
            assert _piece_of(defn, went[a["from"]]) == _piece_of(defn, a["to"]), a
            assert a["turned"] == (went[a["from"]] != a["to"])
            assert a["from"] in moved or any(went[x] != x for x in _piece_of(defn, a["from"]))
            cycle_places.setdefault(a["cycle"], set()).add(a["from"])
        # each number is one whole cycle: following the arrows from any of its places visits all
        # of its pieces and no other's
        next_piece = {_piece_of(defn, a["from"]): _piece_of(defn, a["to"]) for a in arrows}
        for places in cycle_places.values():
            pieces = {_piece_of(defn, x) for x in places}
            start = piece = next(iter(pieces))
            seen = set()
            while piece not in seen:
                seen.add(piece)
                piece = next_piece[piece]
            assert piece == start and seen == pieces


def _piece_of(defn, sticker):
    for orbit in piece_model(defn).orbits:
        for slot in orbit.slots:
            if sticker in slot:
                return slot
    return (sticker,)
