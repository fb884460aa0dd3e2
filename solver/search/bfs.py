"""Plain breadth-first searches on whole sticker states: the reference solvers.

Optimal for any definition (guarded moves, several goals), limited by memory; compiled engines in
this package are checked against them. States are bytes (or tuples, past 256 colours) from `engine.Codec`.
"""

from __future__ import annotations

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
