"""Bidirectional breadth-first search on full-state ranks, compiled: for puzzles with no useful
pattern database (one orbit of look-alike pieces, like the ball ring) whose states still rank into
64 bits. Each side keeps its layers as sorted rank arrays; the smaller frontier grows by one layer
at a time; the first layer that meets the other side gives the optimum (a shorter path would have
met earlier). The path is rebuilt by stepping from the meeting state through the layers.
"""

from __future__ import annotations

import numpy as np

from solver.search import njit
from solver.search.budget import Budget
from solver.search.kernels import apply_move, occupancy, puzzle_arrays
from solver.search.pdb import inverse_puzzle
from solver.search.ranking import BINOM, MAX_SLOTS, full_projection, make_ranker, rank, unrank


@njit(nogil=True)
def _expand(ranks, pz, factors, groups, pieces, start, n_moves, out):
    """out[i*n_moves + m]: rank reached from ranks[i] by move m, or -1 when m cannot be made."""
    loc = start.copy()
    nxt = start.copy()
    work = np.zeros(MAX_SLOTS + 2, dtype=np.int64)
    digits = np.zeros(64 + pieces.shape[0] + factors.shape[0], dtype=np.int64)
    every = np.arange(start.shape[0]).astype(np.int32)
    occ = np.empty(start.shape[0], dtype=np.int32)
    for i in range(ranks.shape[0]):
        unrank(ranks[i], factors, groups, pieces, BINOM, loc, digits)
        occupancy(pz, loc, every, occ)
        for m in range(n_moves):
            if apply_move(pz, loc, nxt, m, every, occ):
                out[i * n_moves + m] = rank(nxt, factors, groups, pieces, BINOM, work)
            else:
                out[i * n_moves + m] = -1


CHUNK = 20_000  # frontier states per compiled call between budget checks


class Side:
    """One side's layers, each a sorted array of ranks; they are disjoint, so together they are
    the states seen (kept apart: merging them into one sorted array took seconds on big layers
    with no look at the clock)."""

    def __init__(self, search, pz, seeds: np.ndarray):
        self.search, self.pz = search, pz
        self.layers = [_sorted_set(seeds)]

    @property
    def frontier(self) -> np.ndarray:
        return self.layers[-1]

    @property
    def size(self) -> int:
        return sum(len(layer) for layer in self.layers)

    def successors(self, ranks: np.ndarray) -> np.ndarray:
        s = self.search
        out = np.empty(len(ranks) * s.n_moves, dtype=np.int64)
        _expand(ranks, self.pz, s.r.factors, s.r.groups, s.r.pieces, s.start, s.n_moves, out)
        return out

    def seen(self, xs: np.ndarray, budget: Budget, nodes: int, layers: list[np.ndarray] | None = None) -> np.ndarray:
        """Which of the sorted xs are in this side's `layers` (default all), a chunk at a time."""
        found = np.zeros(len(xs), dtype=bool)
        for i in range(0, len(xs), CHUNK * 8):
            part = xs[i : i + CHUNK * 8]
            for layer in self.layers if layers is None else layers:
                found[i : i + len(part)] |= _members(layer, part)
            budget.tick(nodes, len(self.layers))
        return found

    def grow(self, budget: Budget, nodes: int) -> np.ndarray:
        """The next layer. The frontier is expanded in chunks, and their successors merged range by
        range of ranks, so the budget is checked often whatever the layer's size."""
        parts = []
        for i in range(0, len(self.frontier), CHUNK):
            parts.append(_sorted_set(self.successors(self.frontier[i : i + CHUNK])))
            budget.tick(nodes + i, len(self.layers))
        # with moves that can be undone, a neighbour of the frontier lies in it or the layer before
        older = None if self.search.model.guarded else self.layers[-2:]
        new = []
        for lo, hi in _rank_ranges(parts, CHUNK * self.search.n_moves):
            piece = _sorted_set(np.concatenate([p[np.searchsorted(p, lo) : np.searchsorted(p, hi)] for p in parts]))
            new.append(piece[~self.seen(piece, budget, nodes, older)])
        new = np.concatenate(new) if new else np.zeros(0, dtype=np.int64)
        self.layers.append(new)
        return new

    def depth_of(self, x: int) -> int:
        return next((d for d, layer in enumerate(self.layers) if _member(layer, x)), -1)


def _rank_ranges(parts: list[np.ndarray], size: int) -> list[tuple[int, int]]:
    """Consecutive [lo, hi) rank ranges covering every sorted part, each holding about `size` of
    their ranks (bounds from a sample of them)."""
    total = sum(len(p) for p in parts)
    if not total:
        return []
    step = max(1, min(len(p) for p in parts if len(p)) // 64)
    sample = np.unique(np.concatenate([p[::step] for p in parts]))
    cuts = sample[np.linspace(0, len(sample), max(1, total // size) + 1, dtype=np.int64)[1:-1]]
    bounds = [0, *np.unique(cuts).tolist(), np.iinfo(np.int64).max]
    return list(zip(bounds[:-1], bounds[1:]))


class BidirectionalSearch:
    def __init__(self, model):
        self.model = model
        self.r = make_ranker(model, full_projection(model))
        self.start = model.goals[0].copy()
        self.n_moves = len(model.move_names)

    def run(self, loc: np.ndarray, goal_locs: list[np.ndarray], budget: Budget) -> tuple[list[int] | None, int]:
        fwd = Side(self, puzzle_arrays(self.model), np.array([self.r.rank(loc)], dtype=np.int64))
        back = Side(self, inverse_puzzle(self.model), np.array([self.r.rank(g) for g in goal_locs], dtype=np.int64))
        meet = fwd.frontier[_members(back.frontier, fwd.frontier)]
        while not len(meet):
            side, other = (fwd, back) if len(fwd.frontier) <= len(back.frontier) else (back, fwd)
            if not len(side.frontier):
                return None, fwd.size + back.size
            nodes = fwd.size + back.size
            new = side.grow(budget, nodes)
            meet = new[other.seen(new, budget, nodes)]
        x = min(meet, key=lambda y: fwd.depth_of(y) + back.depth_of(y))
        return self._path(fwd, back, int(x)), fwd.size + back.size

    def _path(self, fwd: Side, back: Side, x: int) -> list[int]:
        moves_to_x = []
        cur = x
        for d in range(fwd.depth_of(x), 0, -1):
            # a state of layer d-1 with a move onto cur: undo each move (unguarded), or try the
            # whole layer (guarded moves have no inverse table)
            layer = fwd.layers[d - 1]
            if self.model.guarded:
                succ = fwd.successors(layer).reshape(len(layer), self.n_moves)
                i, m = np.argwhere(succ == cur)[0]
                cur = int(layer[i])
            else:
                before = back.successors(np.array([cur], dtype=np.int64))
                m = next(m for m, y in enumerate(before) if _member(layer, y))
                cur = int(before[m])
            moves_to_x.append(int(m))
        moves = moves_to_x[::-1]
        cur = x
        for d in range(back.depth_of(x), 0, -1):
            succ = fwd.successors(np.array([cur], dtype=np.int64))
            layer = back.layers[d - 1]
            m = next(m for m, y in enumerate(succ) if _member(layer, y))
            moves.append(m)
            cur = int(succ[m])
        return moves


def _sorted_set(ranks: np.ndarray) -> np.ndarray:
    """The distinct non-negative ranks, sorted."""
    a = ranks[ranks >= 0]
    a.sort(kind="stable")
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a


def _members(sorted_set: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Which of xs are in the sorted array."""
    if not len(sorted_set):
        return np.zeros(len(xs), dtype=bool)
    i = np.minimum(np.searchsorted(sorted_set, xs), len(sorted_set) - 1)
    return sorted_set[i] == xs


def _member(layer: np.ndarray, x: int) -> bool:
    i = np.searchsorted(layer, x)
    return x >= 0 and i < len(layer) and layer[i] == x
