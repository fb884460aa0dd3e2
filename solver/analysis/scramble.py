"""Scrambles: random move sequences without wasted moves, and uniformly random reachable states.

Move families are derived from the definition: two unguarded moves are in one family when one is
a power of the other (U, U2, U'), so a family never follows itself. Of two moves that commute only
one order is allowed, so U D U (= U2 D) cannot appear either.
"""

from __future__ import annotations

import random
from functools import lru_cache

from solver import perm
from solver.analysis import statespace
from solver.analysis.group import move_group, run_parities, token_groupoid
from solver.definition.model import Definition

WALK_PER_STICKER = 50  # random-walk length per sticker when no uniform method applies


@lru_cache(maxsize=32)
def families(defn: Definition) -> tuple[int, ...]:
    """Per move, the index of its family: moves one of which is a power of the other (U, U2, U')
    share one, named by its first move; each guarded move is its own family."""
    out: list[int] = []
    powers: list[set] = []
    for i, m in enumerate(defn.moves):
        mine = set() if m.guarded else {perm.power(m.perm, k) for k in range(perm.order(m.perm))}
        related = [j for j in range(i) if mine and (m.perm in powers[j] or defn.moves[j].perm in mine)]
        out.append(out[related[0]] if related else i)
        powers.append(mine)
    return tuple(out)


@lru_cache(maxsize=32)
def _commuting(defn: Definition) -> frozenset[tuple[int, int]]:
    """Pairs of families (a, b) with a > b whose moves commute: b may not follow a."""
    fam = families(defn)
    reps = {f: defn.moves[f] for f in set(fam) if not defn.moves[f].guarded}
    pairs = set()
    for a, ma in reps.items():
        for b, mb in reps.items():
            if a > b and perm.compose(ma.perm, mb.perm) == perm.compose(mb.perm, ma.perm):
                pairs.add((a, b))
    return frozenset(pairs)


def random_moves(defn: Definition, n: int, rng: random.Random) -> list[str]:
    """n random move names; each applicable where it is made (guards), never in the family of the
    move before it, never undoing the guarded move before it, commuting moves in one order only."""
    fam, commuting = families(defn), _commuting(defn)
    state = defn.goal if defn.guarded else None
    out: list[str] = []
    last: int | None = None
    last_case = None
    for _ in range(n):
        choices = []
        for i, m in enumerate(defn.moves):
            case = m.case_for(state) if m.guarded else m.cases[0]
            if case is None:
                continue
            if last is not None:
                if fam[i] == fam[last] or (fam[last], fam[i]) in commuting:
                    continue
                if last_case is not None and perm.compose(last_case.perm, case.perm) == perm.identity(defn.stickers):
                    continue
            choices.append((i, case))
        if not choices:  # a puzzle too small for the rules: any applicable move
            choices = [(i, c) for i, m in enumerate(defn.moves)
                       if (c := (m.case_for(state) if m.guarded else m.cases[0])) is not None]
        if not choices:
            break
        i, case = rng.choice(choices)
        out.append(defn.moves[i].name)
        if state is not None:
            state = perm.apply(case.perm, state)
        last, last_case = i, case
    return out


def _random_tiles(defn: Definition, group, rng: random.Random) -> tuple[str, ...]:
    """Uniform over a tile group (every arrangement of each orbit whose parities the moves reach):
    shuffle each orbit, then, if the parities are not reachable, swap two tiles of an orbit
    chosen so they are. Each reachable arrangement comes from exactly as many shuffles."""
    span = {0}
    for v in group.tile_parities:
        span |= {x ^ v for x in span}
    p = list(range(defn.stickers))
    for run in group.tiles:
        images = list(run)
        rng.shuffle(images)
        for x, y in zip(run, images):
            p[x] = y
    bits = run_parities(group.tiles, p)
    if bits not in span:  # the span has index 2^k; fix with the smallest correction (same for all)
        fix = min(bits ^ v for v in span)
        for j, run in enumerate(group.tiles):
            if fix >> j & 1:
                a, b = run[0], run[1]
                p[a], p[b] = p[b], p[a]
    return perm.apply(tuple(p), defn.goal)


def random_state(defn: Definition, rng: random.Random) -> tuple[tuple[str, ...], bool]:
    """(a random reachable state, whether it is uniformly distributed). Uniform for unguarded
    puzzles with a proven group chain (a uniform group element applied to the goal), for
    sliding puzzles (a uniform loop of the token groupoid, then a uniform token position) and for
    guarded puzzles small enough to list; otherwise the end of a long random walk."""
    if not defn.guarded:
        group = move_group(defn)
        if group.chain.complete:
            return perm.apply(group.chain.random_element(rng), defn.goal), True
        if group.tiles:
            return _random_tiles(defn, group, rng), True
    else:
        token = token_groupoid(defn)
        if token is not None and token.loops.complete:
            loop = token.loops.random_element(rng)
            path = token.paths[rng.choice(sorted(token.paths))]
            return perm.apply(path, perm.apply(loop, defn.goal)), True
        try:
            seen, _ = statespace.reachable_states(defn)
            return statespace.unpack(defn, seen[rng.randrange(len(seen))]), True
        except statespace.TooLarge:
            pass
    state = defn.goal
    for _ in range(WALK_PER_STICKER * defn.stickers):
        cases = [c for m in defn.moves if (c := m.case_for(state)) is not None]
        if cases:
            state = perm.apply(rng.choice(cases).perm, state)
    return tuple(state), False
