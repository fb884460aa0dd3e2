"""Wreaths and globes written as plain sticker permutations (tests/solver/outside_puzzles.py), at
sizes swept across their families, solved from random states within a time limit and replayed.
Their orbits reach 198 pieces, beyond a pattern database over the whole orbit: the fallback places
the pieces of a table over a few of them (a ring's crossing balls), its finisher the rest.
The sweeps are sampled (each solve takes seconds) so that the whole file stays near two minutes."""

import random
import time

import pytest

from solver.analysis.scramble import random_state
from solver.engine import verify
from solver.search import engine

from outside_puzzles import globe, ring

LIMIT = 40.0  # seconds per solve: generous (the phases of a ring of 40 take 60% of it), figures in bench/bench_families.py


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))


def _solved_in_time(defn, seed: int, limit: float = LIMIT):
    state, _ = random_state(defn, random.Random(seed))
    started = time.monotonic()
    result = engine.solve(defn, state, time_limit=limit)
    spent = time.monotonic() - started
    assert result.moves is not None, (defn.name, result.stopped, result.extra)
    assert verify(defn, state, result.moves)
    assert result.seconds <= limit * 1.1 and spent <= limit * 1.1 + 3, spent  # kernels' loading aside
    return result


@pytest.mark.parametrize("left,right,per_sticker", [(6, 6, None), (7, 12, None), (21, 21, 12), (33, 33, 6), (60, 60, 12),
                                                     (64, 40, 8), (80, 80, 12), (100, 100, 20)])
def test_rings_of_two_cycles_sharing_two_positions(left, right, per_sticker):
    """`per_sticker`: the most moves per ball (17-18 for rings of 40-64 and 51 for 100 with 3-cycles
    alone; the finisher's narrow commutators [L, R] aimed by setup tables of pairs halve them, to
    9.3, 15.8, 11.2, 24.2 and 36.6 for rings of 33, 60, 64+40, 80 and 100; its setups that sweep on
    from the last one, after the crossing balls are placed by their table, to 3.7, 7.9, 4.7, 7.4
    and 13.5)."""
    defn = ring(left, right)
    result = _solved_in_time(defn, seed=left + right)
    if per_sticker is not None:
        assert len(result.moves) <= per_sticker * defn.stickers, len(result.moves) / defn.stickers


@pytest.mark.parametrize("bands,half", [(1, 4), (1, 16), (1, 25), (2, 5), (2, 6), (3, 33), (6, 8), (8, 16)])
def test_globes_of_bands_and_flips(bands, half):
    """Halves of 25 columns: the commutators of two flips, the shortest narrow algorithms, never
    commute down to a 3-cycle; two 3-cycles [r, f f'] do. Three rows of ten (2, 5): the middle
    row's even and odd columns are blocks every move keeps."""
    _solved_in_time(globe(bands, half), seed=bands * 100 + half)


@pytest.mark.parametrize("defn", [ring(100, 100), globe(8, 33)], ids=["ring-100", "globe-8x33"])
def test_a_short_time_limit_holds_in_every_phase(defn):
    """With a few seconds for a puzzle whose one-time work alone takes longer, the solve returns
    within the limit (and a tenth), with a replayed answer or none, naming the phase that ran out."""
    limit = 4.0
    state, _ = random_state(defn, random.Random(7))
    started = time.monotonic()
    result = engine.solve(defn, state, time_limit=limit)
    spent = time.monotonic() - started
    assert result.seconds <= limit * 1.1, result.seconds
    assert spent <= limit * 1.1 + 3, spent  # loading compiled kernels is left out of a budget
    if result.moves is None:
        assert result.stopped == "time limit" and not result.complete
    else:
        assert verify(defn, state, result.moves)
