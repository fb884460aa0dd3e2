"""Beam search over sticker states: one phase of the short NxNxN reduction (short.py).

From the start state the search keeps, depth after depth, the `width` best distinct states by a
phase score (0 = the phase is done), expanding each by every move. All states of one depth are one
numpy array, so a move is one gather for the whole beam. Turns of one axis commute, so a sequence is
only expanded in one order of them (by the move's `key` along its axis), and a layer never turns
twice in a row.

Each move also carries parity bits (one per wing orbit: odd on it or not), and a state only counts
as done when the accumulated parity is the one asked for: the reduction needs every wing orbit even
before the edges can be paired.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from solver import deadline as solve_budget
from solver.compiled import njit


@dataclass(frozen=True)
class MoveSet:
    sources: np.ndarray   # (M, S): new_state = state[sources[m]]
    axis: np.ndarray      # (M,) the axis of each move (turns of one axis commute)
    key: np.ndarray       # (M,) the layer along its axis (a layer never turns twice in a row)
    parity: np.ndarray    # (M,) wing-orbit parity bits the move flips


class Timeout(Exception):
    """The phase found no finished state before the deadline."""


class Stuck(Exception):
    """The best score has not improved for STALL depths: a wider beam is needed."""


STALL = 6
SCORE_CHUNK = 4096  # states scored between two budget checks


class Ball:
    """Every state of a few stickers (`watched`, their colours seen through `classes`: colour ->
    class) within `radius` turns of the goal's, with parity bits (when `parity`), and a shortest way
    from each to the goal: the beam ends as soon as it enters the ball, so the last turns of a
    phase, where a score is least informative, are exact."""

    def __init__(self, goal: np.ndarray, watched: np.ndarray, classes: np.ndarray, parity: bool,
                 moves: MoveSet, inverse: np.ndarray, radius: int):
        self.watched, self.classes = watched, classes
        flips = moves.parity if parity else np.zeros_like(moves.parity)
        self.weights = np.random.default_rng(1).integers(1, 2**62, size=len(watched) + 1, dtype=np.int64)
        local = {int(s): k for k, s in enumerate(watched)}
        # The watched stickers map onto themselves under every turn (they are whole orbits).
        self.local_sources = np.array([[local[int(src[s])] for s in watched] for src in moves.sources])
        states = classes[goal[watched]][None].astype(np.int64)
        pars = np.zeros(1, dtype=np.int64)
        keys = self._hash(states, pars)
        self.paths: dict[int, tuple[int, ...]] = {int(keys[0]): ()}
        paths = [()]
        for _ in range(radius):
            parent, move = np.divmod(np.arange(len(states) * len(moves.axis)), len(moves.axis))
            children = states[parent[:, None], self.local_sources[move]]
            child_pars = pars[parent] ^ flips[move]
            child_keys = self._hash(children, child_pars)
            keep, new_paths = [], []
            for i, key in enumerate(child_keys.tolist()):
                if key not in self.paths:
                    # From the child back to the goal: the inverse turn, then the parent's way.
                    self.paths[key] = (int(inverse[move[i]]),) + paths[parent[i]]
                    keep.append(i)
                    new_paths.append(self.paths[key])
            states, pars, paths = children[keep], child_pars[keep], new_paths
        self.keys = np.array(sorted(self.paths), dtype=np.int64)

    def _hash(self, states: np.ndarray, pars: np.ndarray) -> np.ndarray:
        return states @ self.weights[:-1] + pars * self.weights[-1]

    def find(self, states: np.ndarray, pars: np.ndarray) -> tuple[int, tuple[int, ...]] | None:
        """The first state inside the ball, with its way to the goal."""
        keys = self._hash(self.classes[states[:, self.watched]], pars)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        inside = np.flatnonzero(self.keys[at] == keys)
        if len(inside) == 0:
            return None
        return int(inside[0]), self.paths[int(keys[inside[0]])]


def search(start: np.ndarray, moves: MoveSet, score: Callable[[np.ndarray], np.ndarray], width: int,
           deadline: float, parity: int | None = None, max_depth: int = 60, ball: Ball | None = None) -> list[int]:
    """The move indices of a sequence taking `start` to a state of score 0 whose parity bits,
    starting from `parity`, come back to 0 (parity None: any parity), or into the ball (with its
    way out appended). score(states, parities)."""
    if parity is None:
        parity, flips = 0, np.zeros_like(moves.parity)
    else:
        flips = moves.parity
    first = score(start[None], np.array([parity]))[0]
    if first == 0 and parity == 0:
        return []
    states = start[None].copy()
    pars = np.array([parity], dtype=np.int64)
    last = np.array([-1], dtype=np.int64)
    history: list[tuple[np.ndarray, np.ndarray]] = []  # per depth: (parent index, move)
    weights = np.random.default_rng(0).integers(1, 2**62, size=start.shape[0], dtype=np.int64)
    seen = np.zeros(0, dtype=np.int64)  # hashes of the states kept so far, sorted
    best, since = first, 0
    n_moves = len(moves.axis)
    for depth in range(max_depth):
        solve_budget.check()  # the solve's own budget: a cancel, or its time limit, ends the search here
        if (budget := solve_budget.current()) is not None:
            budget.now_and_then(phase=budget.phase, depth=depth, text=f"score {float(best):g}")
        if time.perf_counter() > deadline:
            raise Timeout("beam search: out of time")
        # Which (state, move) pairs to expand: not the same layer again, same axis only upwards.
        prev = last[:, None]
        allowed = np.ones((len(states), n_moves), dtype=bool)
        has_prev = prev >= 0
        prev_axis = np.where(has_prev, moves.axis[np.maximum(prev, 0)], -1)
        prev_key = np.where(has_prev, moves.key[np.maximum(prev, 0)], -1)
        allowed &= ~((moves.axis[None] == prev_axis) & (moves.key[None] <= prev_key))
        parent, move = np.nonzero(allowed)
        children = states[parent[:, None], moves.sources[move]]
        solve_budget.check()  # a wide layer: a tenth of a second per step below
        hashes = children.astype(np.int64) @ weights
        _, unique = np.unique(hashes, return_index=True)
        solve_budget.check()
        fresh = unique[~np.isin(hashes[unique], seen)]
        if len(fresh) == 0:
            break
        parent, move, children, hashes = parent[fresh], move[fresh], children[fresh], hashes[fresh]
        child_pars = pars[parent] ^ flips[move]
        values = _in_chunks(score, children, child_pars).astype(np.float64)
        history.append((parent, move))
        done = np.nonzero((values == 0) & (child_pars == 0))[0]
        if len(done):
            return _path(history, int(done[0]))
        if ball is not None:
            found = ball.find(children, child_pars)
            if found is not None:
                return _path(history, found[0]) + list(found[1])
        since = 0 if values.min() < best else since + 1
        best = min(best, values.min())
        if since > STALL:
            raise Stuck(f"beam search: no progress below {best} in {STALL} turns")
        # Ties are broken at random so the beam does not fill up with one family of states.
        values = values + np.random.default_rng(len(history)).random(len(values)) * 0.5
        if len(values) > width:
            keep = np.argpartition(values, width)[:width]
        else:
            keep = np.arange(len(values))
        seen = np.union1d(seen, hashes[keep])
        states, pars, last = children[keep], child_pars[keep], move[keep]
        history[-1] = (parent[keep], move[keep])
    raise Timeout("beam search: no finished state within the depth limit")


def _in_chunks(score, states: np.ndarray, pars: np.ndarray) -> np.ndarray:
    """score(states, pars) a chunk of rows at a time, the solve's budget checked between them: a
    wide beam's layer may take a second."""
    parts = []
    for start in range(0, len(states), SCORE_CHUNK):
        solve_budget.check()
        parts.append(np.asarray(score(states[start:start + SCORE_CHUNK], pars[start:start + SCORE_CHUNK])))
    return np.concatenate(parts)


def _path(history, index: int) -> list[int]:
    path = []
    for parent, move in reversed(history):
        path.append(int(move[index]))
        index = int(parent[index])
    return path[::-1]


def by_cost(start: np.ndarray, moves: MoveSet, costs: np.ndarray, pieces: np.ndarray, neighbours: np.ndarray,
            width: int, aim: float, deadline: float, most: int = 600) -> list[int]:
    """The move indices of a sequence taking `start` to a state where every one of `pieces` has
    the colour of its neighbour (`neighbours`: indices in the state, as `pieces`), for moves of
    different costs (`costs`: catalog turns; a conjugate W X W' is four where a turn is one). The
    states are expanded in order of the cost so far, and of those reached at one cost the `width`
    with the fewest pieces unmatched are kept, so the first state with none is the cheapest this
    beam finds (the depth of `search` counts a conjugate as one turn). Ties are broken at random.
    A state's children are scored and hashed by one compiled kernel without being made, and only
    those kept are (the numpy gathers of all of them took most of the 7x7x7's rows' time). When
    the pieces matched so far, at the pace so far, would not all be matched by the `aim`, the beam
    keeps half as many from then on, as often as needed (`_Pace`): a loaded machine gets a longer
    answer, not none. Timeout past the `deadline` (after the aim: the pace may misjudge the last
    pieces); `most`: the highest cost (a beam halved to a few states has gone past 200)."""
    weights = np.random.default_rng(0).integers(1, 2**62, size=start.shape[0], dtype=np.int64)
    first_hash, first_score = _children(start[None], np.arange(len(start))[None], pieces, neighbours, weights)
    if first_score[0] == 0:
        return []
    levels = {0: (start[None], np.array([-1]), np.array([-1]))}  # cost -> (states kept, parent index, move)
    pending: dict[int, list[tuple]] = {}  # cost -> chunks of (parent cost, parent index, move, hash, score)
    seen = first_hash
    pace = _Pace(width, int(first_score[0]), aim)
    for cost in range(most + 1):
        solve_budget.check()
        if time.perf_counter() > deadline:
            raise Timeout("beam search by cost: out of time")
        if cost:
            chunks = pending.pop(cost, [])
            if not chunks:
                if not pending:
                    break
                continue
            parent_cost, parent, move, hashes, scores = (np.concatenate([chunk[k] for chunk in chunks]) for k in range(5))
            _, unique = np.unique(hashes, return_index=True)
            fresh = unique[~np.isin(hashes[unique], seen)]
            done = fresh[scores[fresh] == 0]
            keep = done[:1] if len(done) else fresh
            wide = pace.now(int(scores[keep].min())) if len(keep) else pace.width
            if len(keep) > wide:
                noisy = scores[keep] + np.random.default_rng(cost).random(len(keep)) * 0.5
                keep = keep[np.argpartition(noisy, wide)[:wide]]
            parents = np.stack([levels[int(c)][0][i] for c, i in zip(parent_cost[keep], parent[keep])])
            levels[cost] = (parents[np.arange(len(keep))[:, None], moves.sources[move[keep]]],
                            np.stack([parent_cost[keep], parent[keep]], axis=1), move[keep])
            if len(done):
                return _cost_path(levels, cost, 0)
            seen = np.union1d(seen, hashes[keep])
        states = levels[cost][0]
        hashes, scores = _children(states, moves.sources, pieces, neighbours, weights)
        parent, move = np.divmod(np.arange(len(states) * len(costs)), len(costs))
        for step in np.unique(costs):
            at = np.flatnonzero(costs[move] == step)
            pending.setdefault(cost + int(step), []).append(
                (np.full(len(at), cost), parent[at], move[at], hashes[at], scores[at]))
    raise Timeout("beam search by cost: no finished state within the cost limit")


class _Pace:
    """The width of a beam aimed to end by `aim`: halved whenever the pieces matched since the
    last change (at least FROM of the first score), at their pace, foretell a finish past it,
    stretched by MARGIN (the last pieces of a beam take longer than the first).

    Measured (nested 10x10x10s, 60 s): the beam a quarter as wide from a fixed share of its time
    (as it was) ran out of time under load, the inner 8x8x8's rows first, and the whole cube fell
    back to the batched commutators (1,925 turns); halving by this pace kept 12 states of 8 to 11
    nested on a quiet machine and four 10x10x10s (547-907 turns) with three busy processes on the
    two cores. A margin of 1.2 ran out on two states in three, and judging by the recent pace
    alone narrowed too late: the last few pieces are the hardest, and a narrow beam did not match
    them."""

    FROM, MARGIN = 0.1, 1.5

    def __init__(self, width: int, first: int, aim: float):
        self.width, self.first, self.aim = width, first, aim
        self.since, self.from_score = time.perf_counter(), first

    def now(self, best: int) -> int:
        """The width from now on, `best` the fewest pieces unmatched in the beam."""
        matched = self.from_score - best
        if self.width > 1 and matched >= self.FROM * self.first:
            moment = time.perf_counter()
            if moment + self.MARGIN * (moment - self.since) * best / matched > self.aim:
                self.width //= 2
                self.since, self.from_score = moment, best
        return self.width


@njit(cache=True, nogil=True)
def _children(states, sources, pieces, neighbours, weights):
    """The hash and the pieces unmatched of each state's child by each move (rows of `sources`),
    state by state: (hashes, scores), each of len(states) * len(sources)."""
    hashes = np.empty(len(states) * len(sources), dtype=np.int64)
    scores = np.empty(len(states) * len(sources), dtype=np.int64)
    for i in range(len(states)):
        for j in range(len(sources)):
            h = 0
            for s in range(states.shape[1]):
                h += weights[s] * np.int64(states[i, sources[j, s]])
            unmatched = 0
            for p in range(len(pieces)):
                if states[i, sources[j, pieces[p]]] != states[i, sources[j, neighbours[p]]]:
                    unmatched += 1
            hashes[i * len(sources) + j] = h
            scores[i * len(sources) + j] = unmatched
    return hashes, scores


def _cost_path(levels, cost: int, index: int) -> list[int]:
    path = []
    while cost > 0:
        _, back, move = levels[cost]
        path.append(int(move[index]))
        cost, index = int(back[index, 0]), int(back[index, 1])
    return path[::-1]
