"""Which specialized solver, if any, serves a definition, and how to run it.

A definition is served by a family when it is the catalog's puzzle (same content hash), or when the
isomorphism matcher finds that it is the catalog's puzzle written with another sticker numbering,
other move names, other colours or an equivalent move set. In that second case the state is
relabelled into the catalog's numbering, solved there, and the catalog's moves are translated back
into the user's own move names; solver.api.solve replays the answer on the user's definition.
An NxNxN cube written with other layer moves (single slices, faces, wide turns, mixed) is placed on
the catalog's cube by solver.special.layered_cube and answered the same way, in its own moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from solver import catalog, deadline
from solver.analysis.isomorphism import Match, match
from solver.catalog import flipit as catalog_flipit
from solver.catalog import loopover as catalog_loopover
from solver.catalog import sliding as catalog_sliding
from solver.definition.canonical import content_hash
from solver.definition.formats import load_data
from solver.definition.model import Definition
from solver.recent import Recent
from solver.search.budget import Budget
from solver.special import layered_cube
from solver.special.bigcube import family as bigcube
from solver.special.cube3 import family as cube3
from solver.special.flipit import family as flipit
from solver.special.loopover import family as loopover
from solver.special.sliding import family as sliding

BIG_CUBES = (4, 5, 6, 7)  # cube2 is better served by the generic engine's complete table
SLIDING_OPTIMAL_CELLS = 16


@dataclass(frozen=True)
class Answer:
    moves: list[str]  # in the definition's own move names
    proven: bool  # proven shortest
    tables: list = field(default_factory=list)  # paths of the table files built for it


@dataclass(frozen=True)
class Special:
    """A specialized solver bound to one definition: `solve(state, budget)` returns an Answer;
    every family takes the same call (time limit, cancel, progress, target length and whether a
    shortest answer is wanted are the budget's) and raises Cancelled or OutOfTime when stopped
    before any answer. `target` is the answer length a user wants when they name none (the solve
    stops at the first answer that short)."""

    family: str
    run: Callable[[tuple, Budget], tuple[list[str], bool]]
    can_prove_optimal: bool
    target: int | None = None

    def solve(self, state, budget: Budget) -> Answer:
        before = len(budget.built)
        with deadline.within(budget):  # table builds below read the budget from there
            moves, proven = self.run(tuple(state), budget)
        return Answer(moves, proven, list(budget.built[before:]))


CUBE3_TARGET = 20  # God's number: every cube has an answer this short, and two-phase finds one in ms
CUBE3_TIME_LIMIT, CUBE3_OPTIMAL_TIME_LIMIT = 1.0, 60.0  # when the caller gives none
BIGCUBE_TIME_LIMIT = 10.0  # the most a big-cube reduction spends on its short phases when the caller gives none
LARGE_CUBE_TIME_LIMIT = 60.0  # N > 7 when the caller gives none (8 to 11 nested take 24-52 s of it, to_five.seconds)
# An NxNxN written with other layer moves is served up to 33: a 33x33x33's first solve (its tables
# built) takes about 30 s here (docs/bigcube.md).
LAYERED_SIZES = range(3, 34)


def _runner(family: str, plan, exact_metric: bool) -> Special:
    """Wrap a catalog plan; `exact_metric` says a shortest answer there is shortest here too."""
    if family == "cube3":
        def run(state, budget: Budget):
            if budget.optimal:
                result = plan.solve_optimal(state, budget=budget.with_limit(CUBE3_OPTIMAL_TIME_LIMIT))
                return result.moves, result.optimal and exact_metric
            return plan.solve(state, budget=budget.with_limit(CUBE3_TIME_LIMIT)), False
        return Special(family, run, exact_metric, CUBE3_TARGET)
    if family == "bigcube":
        return Special(family, lambda state, budget: (plan.solve(state, budget.with_limit(BIGCUBE_TIME_LIMIT)), False),
                       False)
    if family == "loopover":
        small = plan.rows * plan.cols <= 9

        def run(state, budget):
            optimal = budget.optimal
            return plan.solve(state, budget, method="optimal" if optimal else "auto"), (optimal or small) and exact_metric
        return Special(family, run, exact_metric)
    if family == "sliding":
        small = plan.rows * plan.cols <= SLIDING_OPTIMAL_CELLS
        return Special(family, lambda state, budget: (plan.solve(state, budget=budget), small and exact_metric),
                       small and exact_metric)
    if family == "flipit":
        return Special(family, lambda state, budget: (plan.solve(state, budget), exact_metric), exact_metric)
    raise ValueError(family)


FAMILIES = {"cube3": cube3, "bigcube": bigcube, "loopover": loopover, "sliding": sliding, "flipit": flipit}


def _direct(defn: Definition):
    for family, module in FAMILIES.items():
        plan = module.recognize(defn)
        if plan is not None and not (family == "bigcube" and plan.n not in BIG_CUBES):
            return family, plan
    return None


def _references(defn: Definition) -> list[str]:
    """Catalog puzzles a definition of this size could be, cheapest checks first."""
    n = defn.stickers
    names = []
    if defn.guarded:
        names += [f"sliding-{r}x{n // r}" for r in catalog_sliding.SIZES if n % r == 0 and n // r in catalog_sliding.SIZES]
        if n % 2 == 0 and n // 2 in catalog_flipit.SIZES:
            names.append(f"flipit-{n // 2}")
        return names
    if n == 54:
        names.append("cube3")
    names += [f"cube{k}" for k in BIG_CUBES if 6 * k * k == n]
    names += [f"loopover-{r}x{n // r}" for r in catalog_loopover.SIZES
              if n % r == 0 and n // r in catalog_loopover.SIZES and len(set(defn.goal)) == n]
    return names


def _bridge(defn: Definition, reference: Definition, m: Match, inner: Special) -> Special:
    # A shortest answer in the catalog's moves is shortest in the user's only when the two move sets
    # correspond one to one.
    one_to_one = len(defn.moves) == len(reference.moves) and all(len(seq) == 1 for seq in m.moves.values())

    def run(state, budget):
        ref_state = [None] * defn.stickers
        for i, colour in enumerate(state):
            ref_state[m.sticker[i]] = m.colour[colour]
        ref_moves, proven = inner.run(tuple(ref_state), budget)
        moves = [name for ref in ref_moves for name in m.moves[ref]]
        return moves, proven and one_to_one

    return Special(inner.family, run, inner.can_prove_optimal and one_to_one, inner.target)


def _layered(defn: Definition) -> Special | None:
    """An NxNxN written with other layer moves: solved on the catalog's cube (the middle layers of an
    odd one first turned so its face centres are home), answered in its own moves."""
    if math.isqrt(defn.stickers // 6) not in LAYERED_SIZES:
        return None
    cube = layered_cube.recognize(defn)
    if cube is None:
        return None
    n = cube.n
    from solver.special.bigcube.reduction import solve_big_cube  # here: recognising loads no solver

    if n == 3:
        inner = _runner("cube3", cube3.recognize(load_data(catalog.build("cube3"))), exact_metric=False)
    else:
        limit = BIGCUBE_TIME_LIMIT if n in BIG_CUBES else LARGE_CUBE_TIME_LIMIT
        inner = Special("bigcube", lambda state, budget: (
            solve_big_cube("".join(state), n, budget=budget.with_limit(limit)), False), False)

    def run(state, budget):
        there, prefix = cube.turn_home(cube.to_catalog(state)) if cube.rotations else (cube.to_catalog(state), [])
        moves, _ = inner.run(tuple(there), budget)
        return prefix + cube.user_moves(moves), False

    return Special(inner.family, run, False, inner.target)


# Remembered per content hash, the most recent few only: a long-lived worker meets many puzzles.
_found: Recent = Recent()


def find(defn: Definition) -> Special | None:
    """The specialized solver for this definition, or None."""
    key = content_hash(defn)
    if key in _found:
        return _found.get(key)
    special = None
    direct = _direct(defn)
    if direct is not None:
        special = _runner(*direct, exact_metric=True)
    else:
        for name in _references(defn):
            reference = load_data(catalog.build(name))
            m = match(defn, reference)
            if m is not None:
                family, plan = _direct(reference)
                special = _bridge(defn, reference, m, _runner(family, plan, exact_metric=True))
                break
        if special is None:
            special = _layered(defn)
    _found[key] = special
    return special


WARM_UP_SECONDS = 120.0  # per puzzle: a 5x5x5 builds its centre tables (about 30 s) on a machine's first warm-up
WARM_UP_PUZZLES = ("cube4", "cube5", "loopover-3x3", "loopover-4x4", "sliding-3x3", "sliding-5x5", "flipit-6")
# also solved with optimal=True: their optimal search has kernels and tables of its own (a job
# loading them cannot hear a cancel for a second or more)
WARM_UP_OPTIMAL = ("loopover-4x4",)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels of every family, and build the tables a
    process keeps in memory (a 4x4x4's centre tables), by solving a scramble of one catalog puzzle
    each (the 3x3x3's are warmed by its own module)."""
    import random

    from solver.analysis.scramble import random_moves
    from solver.engine import apply_moves

    for name in WARM_UP_PUZZLES:
        defn = load_data(catalog.build(name))
        state = apply_moves(defn, random_moves(defn, 12, random.Random(1)))
        find(defn).solve(state, Budget(time_limit=WARM_UP_SECONDS))
        if name in WARM_UP_OPTIMAL:
            short = apply_moves(defn, random_moves(defn, 3, random.Random(1)))
            find(defn).solve(short, Budget(time_limit=WARM_UP_SECONDS, optimal=True))
