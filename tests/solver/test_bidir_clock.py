"""The two-way searches look at the clock and the cancel flag all through a layer, not only between
layers: on a 3x3x3 (array layers of byte states) and on a big ball ring (ranked layers), where one
layer is seconds of work, a time limit ends the search within a fraction of a second of running out
and no two looks at the cancel flag are far apart."""

import time

import pytest

from solver import api
from solver.engine import apply_moves
from solver.search import bfs
from solver.search.budget import Budget, Stopped
from solver.search.engine import Codec

LIMIT = 2.5
HARD_CUBE3 = "R' D' F U' B2 D R2 U' B' L U' F2 U2 L"  # 14 moves: far more than LIMIT both ways


class Looks:
    """A cancel callback that never cancels and notes when it is asked."""

    def __init__(self):
        self.at = []

    def __call__(self) -> bool:
        self.at.append(time.monotonic())
        return False

    def widest_gap(self) -> float:
        return max(b - a for a, b in zip(self.at, self.at[1:]))


def test_array_layers_of_the_cube3_hear_the_clock_within_a_layer():
    cube = api.load("cube3")
    codec = Codec(cube)
    looks = Looks()
    started = time.monotonic()
    with pytest.raises(Stopped, match="time limit"):
        bfs.bidirectional_bfs(codec, codec.encode(apply_moves(cube, HARD_CUBE3.split())),
                              Budget(time_limit=LIMIT, cancel=looks))
    assert time.monotonic() - started < LIMIT + 0.6
    assert len(looks.at) > 5 and looks.widest_gap() < 0.6


def test_ranked_layers_hear_the_clock_within_a_layer(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    ring = api.load("wreath-21x21")
    state = api.scramble(ring, random_state=True, seed=4)["state"]
    # its kernels loaded first: loading them is no part of a time limit (the answer's compile_seconds)
    api.solve(ring, apply_moves(ring, ["L", "R"]), method="bidir")
    looks = Looks()
    started = time.monotonic()
    result = api.solve(ring, state, method="bidir", time_limit=LIMIT, cancel=looks)
    assert result["solution"] is None and result["method"] == "bidir"
    assert time.monotonic() - started < LIMIT + 0.6
    assert len(looks.at) > 5 and looks.widest_gap() < 0.6
