"""Meet-in-the-middle search for the shortest sequence with a given effect.

The targets are every permutation with the effect: the effect's conjugacy class in the move group
(closure under conjugation by the moves), taken up to move-set automorphisms and inversion (one
representative each: an automorphism or inversion maps sequences to sequences of the same length),
times the goal rotations. A sequence of L > d moves splits into its first d moves, a permutation of
the pool, and the rest, B of L - d moves; so looking up t B' in the pool for every B of b moves,
b = 1, 2, ..., finds the shortest length at the first b with a hit (d = the pool's complete depth).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver.deadline import check
from solver.definition.model import Definition
from solver.discover import kernels
from solver.discover.effects import Effects
from solver.discover.pool import Pool
from solver.engine import parse_moves
from solver.errors import PuzzleError
from solver.perm import Perm
from solver.search.budget import Budget, Stopped

CLASS_LIMIT = 20_000  # conjugacy classes larger than this are not searched
HIT_LIMIT = 64
CHUNK = 2048


@dataclass
class Shortest:
    length: int | None  # None when nothing was found within the limits
    sequences: list[list[int]]  # move indices, every one of that length
    exhausted: bool  # True when no sequence of at most `searched_to` moves has the effect
    searched_to: int


def conjugacy_class(effects: Effects, q: Perm, limit: int = CLASS_LIMIT,
                    deadline: float | None = None) -> np.ndarray | None:
    """Rows of every g' q g for g in the move group, or None past `limit` or the deadline."""
    arr = effects.moves.array.astype(np.int64)
    inv = np.argsort(arr, axis=1)
    start = np.array(q, dtype=np.int64)[None, :]
    seen = {start.tobytes()}
    rows = [start]
    frontier = start
    while len(frontier):
        fresh = []
        for g, ginv in zip(arr, inv):
            check()  # the running job's cancel
            conj = g[frontier[:, ginv]]  # x -> g'(x) -> q -> g
            for row in conj:
                b = row.tobytes()
                if b not in seen:
                    seen.add(b)
                    fresh.append(row)
                    if len(seen) > limit:
                        return None
        frontier = np.array(fresh, dtype=np.int64).reshape(-1, arr.shape[1])
        rows.append(frontier)
        if deadline is not None and time.monotonic() > deadline:
            return None
    return np.concatenate(rows)


def representatives(effects: Effects, members: np.ndarray) -> np.ndarray:
    """One member per orbit of the automorphisms and inversion."""
    index = {row.tobytes(): i for i, row in enumerate(members)}
    autos = np.array(effects.automorphisms, dtype=np.int64)
    auto_inv = np.argsort(autos, axis=1)
    covered = np.zeros(len(members), dtype=bool)
    inverse_ok = effects.moves.closed_under_inverse
    reps = []
    for i, row in enumerate(members):
        if covered[i]:
            continue
        reps.append(row)
        forms = [row, np.argsort(row)] if inverse_ok else [row]
        for form in forms:
            images = autos[np.arange(len(autos))[:, None], form[auto_inv]]  # s(form(s'(x)))
            for image in images:
                j = index.get(image.tobytes())
                if j is not None:
                    covered[j] = True
    return np.array(reps, dtype=np.int64)


def targets_for(effects: Effects, q: Perm, deadline: float | None = None) -> np.ndarray | None:
    members = conjugacy_class(effects, q, deadline=deadline)
    if members is None:
        return None
    reps = representatives(effects, members)
    rotations = np.array(effects.rotations, dtype=np.int64)
    rows = rotations[:, reps]  # [r, i, x] = r(t_i(x)): t_i then r
    return rows.reshape(-1, rows.shape[-1])


def shortest(pool: Pool, targets: np.ndarray, *, max_length: int, budget: Budget,
             deadline: float | None = None) -> Shortest:
    """Shortest sequences (up to HIT_LIMIT of them) whose permutation is one of the targets."""
    rows = targets.astype(pool.store.dtype)
    direct = [e for e in (pool.index_of(t) for t in rows) if e >= 0]
    if direct:
        best = min(int(pool.depth[e]) for e in direct)
        return Shortest(best, [pool.sequence(e) for e in direct if pool.depth[e] == best][:HIT_LIMIT], True, best)
    d = pool.complete_depth
    out = np.empty((HIT_LIMIT, 3), dtype=np.int64)
    searched = d
    for b in range(1, d + 1):
        if d + b > max_length:
            break
        start, stop = pool.levels[b]
        count = 0
        with budget.watching() as flag:  # a call over many targets may take a second: it reads the stop flag
            for j in range(start, stop, CHUNK):
                count = kernels.meet(pool.store, pool.table, j, min(stop, j + CHUNK), rows, out, count, flag)
                budget.tick(pool.count, d + b)
                if deadline is not None and time.monotonic() > deadline:
                    return Shortest(None, [], False, searched)
        if count:
            found = sorted((int(pool.depth[a]) + b, int(a), int(bb)) for a, bb, _t in out[:count])
            best = found[0][0]
            seqs = [pool.sequence(a) + pool.sequence(bb) for total, a, bb in found if total == best]
            return Shortest(best, seqs, True, best)
        searched = d + b
    return Shortest(None, [], True, searched)



def shortest_with_effect(defn: Definition, moves, *, max_length: int | None = None,
                         time_limit: float | None = None, progress=None, cancel=None) -> dict:
    """The shortest sequence with the same effect class as `moves` (replayed), searched up to
    max_length moves or twice the depth of the pool that fits in memory and time. `proven` is
    False when pieces look alike: other permutations may then show the same effect."""
    names = parse_moves(defn, moves)
    effects = Effects(defn)
    target = effects.of_moves(names)
    budget = Budget(time_limit=time_limit, progress=progress, cancel=cancel)
    limit = len(names) if max_length is None else max_length
    found = None
    try:
        pool = Pool.build(effects.moves, max_depth=limit, budget=budget)
        targets = targets_for(effects, target.perm)
        if targets is None:
            raise PuzzleError(f"moves: the effect class of this sequence has more than {CLASS_LIMIT:,} members; "
                              "too large to search")
        found = shortest(pool, targets, max_length=limit, budget=budget)
    except Stopped:
        pass
    # replayed: only a sequence whose own effect has the target's key is reported
    replayed = [seq for seq in (found.sequences if found is not None else [])
                if effects.of_perm(effects.moves.perm_of(seq)).key == target.key]
    if not replayed:
        return {"moves": None, "length": None, "effect": target.text, "effect_key": target.key,
                "proven": False, "searched_to": None if found is None else found.searched_to}
    seq = replayed[0]
    result = effects.of_perm(effects.moves.perm_of(seq))
    return {"moves": effects.moves.names_of(seq), "length": len(seq), "effect": result.text,
            "effect_key": result.key, "proven": not effects.lookalike, "searched_to": found.searched_to}
