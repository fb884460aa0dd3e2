"""Plain breadth-first searches on whole sticker states: the reference solvers.

Optimal for any definition (guarded moves, several goals), limited by memory; compiled engines in
this package are checked against them. States are bytes (or tuples, past 256 colours) from `engine.Codec`.
"""

from __future__ import annotations

import numpy as np

from solver import perm
from solver.engine import Codec
from solver.search.budget import Budget

CHECK_EVERY = 4096  # nodes between budget checks


def _path(parents: dict, state: bytes) -> list[str]:
    moves = []
    while True:
        parent, move = parents[state]
        if parent is None:
            return moves[::-1]
        moves.append(move)
        state = parent


def bfs(codec: Codec, start: bytes, budget: Budget) -> tuple[list[str] | None, int]:
    """Shortest move sequence from start to any goal (None when no goal is reachable), and the
    number of states visited."""
    if start in codec.goals:
        return [], 1
    parents = {start: (None, None)}
    frontier = [start]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for s in frontier:
            for move, t in codec.successors(s):
                if t in parents:
                    continue
                parents[t] = (s, move)
                if t in codec.goals:
                    return _path(parents, t), len(parents)
                nxt.append(t)
                if len(parents) % CHECK_EVERY == 0:
                    budget.tick(len(parents), depth)
        frontier = nxt
    return None, len(parents)


def bidirectional_bfs(codec: Codec, start: bytes, budget: Budget) -> tuple[list[str] | None, int]:
    """Shortest solution by searching from the start and from every goal until the two meet.

    Each step expands one whole layer of the smaller side; when a layer finds meetings, the shortest
    total over that layer is the optimum (no shorter path met earlier).
    """
    if start in codec.goals:
        return [], 1
    if codec.plain is not None and codec.pack is bytes:
        return _bidirectional_layers(codec, start, budget)
    fwd = {start: (None, None)}
    bwd = {g: (None, None) for g in codec.goals}
    fwd_frontier, bwd_frontier = [start], list(codec.goals)
    fwd_depth = bwd_depth = 0
    fwd_dist = {start: 0}
    bwd_dist = dict.fromkeys(codec.goals, 0)
    while fwd_frontier and bwd_frontier:
        forward = len(fwd_frontier) <= len(bwd_frontier)
        if forward:
            fwd_depth += 1
            frontier, seen, dist, other_dist, step, depth = fwd_frontier, fwd, fwd_dist, bwd_dist, codec.successors, fwd_depth
        else:
            bwd_depth += 1
            frontier, seen, dist, other_dist, step, depth = bwd_frontier, bwd, bwd_dist, fwd_dist, codec.predecessors, bwd_depth
        nxt, best, meet = [], None, None
        for s in frontier:
            # every state expanded: a guarded puzzle's step may take a tenth of a millisecond, and
            # most of its states may be seen already
            budget.tick(len(fwd) + len(bwd), fwd_depth + bwd_depth)
            for move, t in step(s):
                if t in seen:
                    continue
                seen[t] = (s, move)
                dist[t] = depth
                nxt.append(t)
                if t in other_dist and (best is None or depth + other_dist[t] < best):
                    best, meet = depth + other_dist[t], t
        if meet is not None:
            return _path(fwd, meet) + _back_path(bwd, meet), len(fwd) + len(bwd)
        if forward:
            fwd_frontier = nxt
        else:
            bwd_frontier = nxt
    return None, len(fwd) + len(bwd)


class _Side:
    """One side of `_bidirectional_layers`: its layers as arrays of states (one row each), with
    each row's parent (its index in the layer before) and move, and where each state was seen."""

    def __init__(self, states: list[bytes], steps: np.ndarray):
        self.steps = steps  # per move, the index array giving a neighbour's stickers
        self.layers = [np.frombuffer(b"".join(states), dtype=np.uint8).reshape(len(states), -1)]
        self.parents, self.moves = [None], [None]
        self.where = {state: (0, i) for i, state in enumerate(states)}

    def path(self, depth: int, i: int) -> list[int]:
        """Move indices from the side's layer 0 to row i of layer `depth`, in expansion order."""
        out = []
        for d in range(depth, 0, -1):
            out.append(int(self.moves[d][i]))
            i = self.parents[d][i]
        return out[::-1]


CHUNK_BYTES = 1 << 21  # neighbours made between two looks at the budget (a whole layer's are gigabytes; a chunk is a Python step per state, so small)


def _bidirectional_layers(codec: Codec, start: bytes, budget: Budget) -> tuple[list[str] | None, int]:
    """`bidirectional_bfs` for puzzles without guards: a layer's neighbours come from one array
    gather per move instead of a Python step per state and move, several times faster (a default
    3x3x3 solve spends most of its time in this check)."""
    names = [m.name for m in codec.defn.moves]
    cases = [m.cases[0].perm for m in codec.defn.moves]  # one case each: no guards (codec.plain)
    n_moves = len(names)
    fwd = _Side([start], np.array([perm.inverse(p) for p in cases], dtype=np.intp))
    bwd = _Side(list(codec.goals), np.array(cases, dtype=np.intp))
    seen = lambda: len(fwd.where) + len(bwd.where)  # noqa: E731
    while len(fwd.layers[-1]) and len(bwd.layers[-1]):
        side, other = (fwd, bwd) if len(fwd.layers[-1]) <= len(bwd.layers[-1]) else (bwd, fwd)
        depth = len(side.layers)
        frontier = side.layers[-1]
        width = frontier.shape[1]
        where, met_where, kept, rows, best = side.where, other.where, [], [], None
        chunk_rows = max(1, CHUNK_BYTES // (width * n_moves))
        for first in range(0, len(frontier), chunk_rows):
            budget.tick(seen(), len(fwd.layers) + len(bwd.layers) - 1)
            neighbours = frontier[first:first + chunk_rows, side.steps].reshape(-1, width)  # row r * n_moves + move
            states = neighbours.view(np.dtype((np.void, width))).ravel().tolist()  # one bytes per row
            chunk = []
            for k, state in enumerate(states):
                if state in where:
                    continue
                where[state] = (depth, len(kept) + len(chunk))
                met = met_where.get(state)
                if met is not None and (best is None or depth + met[0] < best[0]):
                    best = (depth + met[0], len(kept) + len(chunk), met)
                chunk.append(k)
            rows.append(neighbours[chunk])
            kept += [first * n_moves + k for k in chunk]
        kept = np.array(kept, dtype=np.intp)
        side.layers.append(np.concatenate(rows) if rows else frontier[:0])
        side.parents.append(kept // n_moves)
        side.moves.append(kept % n_moves)
        budget.tick(seen(), len(fwd.layers) + len(bwd.layers) - 2)
        if best is not None:
            _, i, (other_depth, j) = best
            here, there = side.path(depth, i), other.path(other_depth, j)
            forward, backward = (here, there) if side is fwd else (there, here)
            return [names[m] for m in forward + backward[::-1]], seen()
    return None, seen()


def _back_path(parents: dict, state: bytes) -> list[str]:
    """Moves from `state` forward to the goal the backward search started from."""
    moves = []
    while True:
        parent, move = parents[state]
        if parent is None:
            return moves
        moves.append(move)
        state = parent


def count_reachable(codec: Codec, limit: int, budget: Budget | None = None) -> tuple[int, list[int]] | None:
    """Number of states reachable from the goals and the count at each distance (None past `limit`)."""
    seen = set(codec.goals)
    frontier = list(seen)
    layers = [len(frontier)]
    while frontier:
        nxt = []
        for s in frontier:
            for _, t in codec.successors(s):
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
                    if len(seen) > limit:
                        return None
        if budget is not None:
            budget.tick(len(seen), len(layers))
        if nxt:
            layers.append(len(nxt))
        frontier = nxt
    return len(seen), layers
