"""The few entry points the site, the workers and the command line call.

Everything here takes and returns plain data (definitions, states as tuples of colour symbols, move
names) and raises solver.errors exceptions for bad input; callers never need the modules below.
"""

from __future__ import annotations

import random
from pathlib import Path

from solver import alg, catalog, deadline, facts, geometry, goals, metrics, partial
from solver.analysis import borrowed, group, membership, pieces, scramble as scrambles
from solver.definition import export, kpuzzle, ksolve
from solver.definition.canonical import content_hash
from solver.definition.formats import load_data, load_file, load_text
from solver.definition.model import Definition
from solver.engine import apply_moves, format_state, parse_moves, parse_state, state_text, verify
from solver.partial import WILDCARD, parse_goal, partial_goal
from solver.errors import DefinitionError, PuzzleError, UnreachableError
from solver.search.budget import Budget, Cancelled, OutOfTime, Stopped
from solver.search.methods import METHODS as GENERIC_METHODS
from solver.simplify import simplify

SPECIAL = "special"
# Every method a solve may name: the site, the workers and the command line check against this list.
METHODS = (SPECIAL, *GENERIC_METHODS)
ANALYSIS_SHARE = 0.5  # of a time limit, at most, for proving a state reachable before searching

__all__ = [
    "Definition", "load", "shape_yaml", "SHAPE_PREFIX", "load_data", "load_file", "load_text", "content_hash", "info", "parse_state", "parse_goal",
    "partial_goal", "WILDCARD",
    "format_state", "state_text", "parse_moves", "apply_moves", "verify", "solve", "scramble", "export_yaml", "import_file", "reachability", "group_data",
    "pdb_build", "pdb_list", "OutOfTime",
    "effect", "lengths", "discover", "find_algorithms", "variants", "effect_arrows", "algorithm_sets", "case_start", "check_projection", "check_solve_options", "METHODS", "SPECIAL", "Budget", "Cancelled",
]


FILE_SUFFIXES = (".yaml", ".yml", ".json", *ksolve.SUFFIXES, *kpuzzle.SUFFIXES)
SHAPE_PREFIX = "shape:"


def load(spec: str) -> Definition:
    """A definition from a catalog name, a file path (YAML/JSON, KPuzzle JSON, ksolve/twsearch),
    `shape:DESCRIPTION` (a solid and its cuts, or a named shape: solver.geometry) or the name of a
    named shape the catalog lacks."""
    if spec.startswith(SHAPE_PREFIX):
        return load_data(geometry.build(spec[len(SHAPE_PREFIX):]))
    path = Path(spec)
    if path.suffix.lower() in FILE_SUFFIXES or "/" in spec or path.is_file():
        if not path.is_file():
            raise DefinitionError(f"{spec}: no such file")
        return load_file(path)
    try:
        return load_data(catalog.build(spec))
    except DefinitionError:
        if geometry.named(spec) is None:
            raise
    slug = geometry.parse(spec).slug  # "Skewb Diamond" is the catalog's skewb-diamond too
    try:
        return load_data(catalog.build(slug))
    except DefinitionError:
        return load_data(geometry.build(spec))


def shape_yaml(description: str, name: str | None = None) -> str:
    """The native YAML of a shape (a description or a named shape), checked by loading it."""
    data = geometry.build(description, name)
    load_data(data)
    return export.to_yaml(data)


def borrowable(defn: Definition) -> bool:
    """Whether a definition without a layout might be drawn as a catalog puzzle (same sticker count);
    `borrowed_presentation` decides, in seconds."""
    return defn.layout is None and bool(borrowed.candidates(defn))


def borrowed_presentation(defn: Definition, time_limit: float = borrowed.TIME_LIMIT) -> dict | None:
    """The layout and geometry of the catalog puzzle a layout-less definition is isomorphic to, in its
    own numbering (JSON), or None."""
    return borrowed.presentation(defn, time_limit)


def with_presentation(defn: Definition, presentation: dict | None) -> Definition:
    """The definition drawn with a presentation from `borrowed_presentation`."""
    return borrowed.apply(defn, presentation)


def info(defn: Definition) -> dict:
    model = pieces.piece_model(defn)
    count, exact = facts.remembered(defn, "state_count", lambda: group.state_count(defn))
    order, order_exact = (None, False) if defn.guarded else facts.remembered(
        defn, "group_order", lambda: group.group_order(defn))
    return {
        "name": defn.name,
        "stickers": defn.stickers,
        "moves": len(defn.moves),
        "move_names": defn.move_names,
        "goals": len(defn.goals),
        "guarded": defn.guarded,
        "orbits": [
            {"name": o.name, "pieces": len(o.slots), "stickers_per_piece": len(o.slots[0]), "orientations": o.twists}
            for o in model.orbits
        ],
        "group_order": order,
        "group_order_exact": order_exact,
        "state_count": count,
        "state_count_exact": exact,
        "hash": content_hash(defn),
    }


def group_data(defn: Definition) -> dict | None:
    """What deciding reachability needs, as JSON data to store with the definition (computed once:
    a minute for a 20x20x20 cube), or None when the puzzle's group is not of the kind it describes."""
    return membership.group_data(defn)


def reachability(defn: Definition, state, group_data: dict | None = None,
                 time_limit: float | None = None) -> str | None:
    """None when a goal can be reached from `state` (or it cannot be ruled out), else the reason it
    cannot. With the definition's `group_data` the check takes milliseconds; without it, it may
    have to build the move group, and a `time_limit` that runs out first answers None."""
    if group_data is not None and membership.usable(defn, group_data):
        return membership.reachability(defn, group_data, state)
    if time_limit is None:  # within a solve, the solve's clock holds
        return group.reachability(defn, state)
    try:
        with deadline.limit(time_limit):
            return group.reachability(defn, state)
    except deadline.OutOfTime:
        return None


def solve(
    defn: Definition,
    state,
    *,
    optimal: bool = False,
    method: str | None = None,
    time_limit: float | None = None,
    max_length: int | None = None,
    node_limit: int | None = None,
    progress=None,
    cancel=None,
    group_data: dict | None = None,
    goal=None,
) -> dict:
    """Solve `state`; refuses unreachable states before searching; every answer is replayed here.
    `group_data` (solver.api.group_data of this definition) makes the reachability check quick.

    `goal` (optional, a parsed goal: see parse_goal) is a partial goal, `?` where a sticker does not
    matter: the solve is then one of the projected puzzle (solver.partial), as fast as any other.

    A specialized solver serves the puzzle when one recognises it (method "special", or by default
    unless `optimal` asks for a proof it cannot give); otherwise the generic search engine.
    `time_limit` is the most the solve may spend, in every phase (analysis, recognition, table
    building, search); it stops sooner at the first answer of at most `max_length` moves (the
    target length; by default the solver's own, e.g. 20 for the 3x3x3). Every solver asks
    `cancel()` at least every budget.POLL seconds and passes `progress` its figures (nodes, depth
    or phase, best length so far). `seconds` leaves out compiling kernels (`compile_seconds`);
    `tables` lists the table files the solve built (paths)."""
    check_solve_options(method=method, max_length=max_length)
    budget = Budget(time_limit=time_limit, node_limit=node_limit, progress=progress, cancel=cancel,
                    max_length=max_length, optimal=optimal, phase="loading")
    state = tuple(state)
    if goal is not None:  # a solve of the projected puzzle, whose group data is not the definition's
        projection = partial.partial_goal(defn, tuple(goal))
        defn, state, group_data = projection.defn, projection.state(state), None
    with deadline.limit(budget):
        try:
            out = _solve(defn, state, method, budget, group_data)
        except Stopped as stop:  # a phase without a search of its own ran out, or a cancel came
            out = {"solution": None, "length": None, "optimal": False, "verified": False, "method": None,
                   "seconds": 0.0, "nodes": 0, "complete": False, "stopped": stop.reason,
                   "phase": getattr(stop, "phase", budget.phase)}
    out["seconds"] = round(budget.elapsed, 4)
    out["compile_seconds"] = round(budget.compile_seconds, 4)
    out["tables"] = [str(path) for path in budget.built]
    return out


def _solve(defn: Definition, state: tuple, method: str | None, budget: Budget, group_data: dict | None) -> dict:
    from solver.search import engine as search  # here: `puzzle info` and the like start without numba
    from solver.special import families

    optimal = budget.optimal
    checked = True
    try:  # the check may take half the time; a solve that cannot wait for it searches unchecked
        with deadline.share(ANALYSIS_SHARE), deadline.phase("analysis"):
            reason = reachability(defn, state, group_data)
    except deadline.OutOfTime:
        reason, checked = None, False
    if reason is not None:
        raise UnreachableError(f"state cannot be solved: {reason}")
    with deadline.phase("recognition"):
        special = families.find(defn) if method in (None, SPECIAL) else None
    if method == SPECIAL and special is None:
        raise PuzzleError("method: no specialized solver recognises this puzzle")
    with deadline.phase("search"):
        # States that are solved or a few moves from a goal get a shortest answer before any long
        # method; a walk down a complete table (cached, or quick to build) answers any state sooner.
        # Asked for a shortest answer, it comes before a specialized solver too when cached; it is
        # built first for guarded puzzles too large for the short search, whose steps run in Python
        # (the 3x3 sliding puzzle's: a tenth of a second for 2,000 states), not for tiny ones.
        build_from = 0 if special is None else goals.SHORT_NODES if defn.guarded else float("inf")
        walk = method is None and (special is None or optimal) and search.walks_table(defn, build_from)
        special = None if walk else special
        result = (goals.short_solution(defn, state, budget.remaining(), budget.cancel)
                  if method in (None, SPECIAL) and not walk else None)
        if result is None and special is not None and (method == SPECIAL or not optimal or special.can_prove_optimal):
            target = budget.max_length if budget.max_length is not None or optimal else special.target
            result = _solve_special(special, state, budget.part(max_length=target))
        elif result is None:
            result = search.solve(defn, state, optimal=optimal, method=method, budget=budget.part())
    moves = simplify(defn, result.moves)
    verified = moves is not None and verify(defn, state, moves)  # a quick replay: never cut short
    return {
        "solution": moves,
        "length": None if moves is None else len(moves),
        "optimal": bool(result.optimal and verified),
        "verified": verified,
        "method": result.method,
        "nodes": result.nodes,
        "complete": result.complete,
        "stopped": result.stopped,
        "phase": result.extra.get("phase", "search") if result.stopped else None,  # the phase that ran out
        "reachability_checked": checked,
    }


def check_solve_options(*, method: str | None = None, max_length=None) -> None:
    """The options of a solve, checked before anything runs (the site checks them with this too);
    a PuzzleError's text starts with the field it names."""
    if method is not None and method not in METHODS:
        raise PuzzleError(f"method: unknown method {method!r}; methods: {', '.join(METHODS)}")
    # no answer is longer than the longest sequence the solver reads; beyond int64 the compiled searches overflow
    if max_length is not None and (isinstance(max_length, bool) or not isinstance(max_length, int)
                                   or not 0 <= max_length <= alg.MAX_MOVES):
        raise PuzzleError(f"max_length: a whole number of moves, 0 or more and at most {alg.MAX_MOVES:,}")


def _solve_special(special, state, budget: Budget):
    from solver.search import engine as search

    name = f"{SPECIAL}:{special.family}"
    try:
        answer = special.solve(state, budget)
    except Stopped as exc:  # cancelled, or out of time before any answer
        return search.SolveResult(None, False, name, seconds=budget.elapsed, complete=False, stopped=exc.reason,
                                  extra={"phase": getattr(exc, "phase", "search")})
    # Asked for a shortest answer and not proven one: the budget ran out first (or a cancel came).
    stopped = None
    if budget.optimal and not answer.proven:
        stopped = "cancelled" if budget.cancelled() else "time limit"
    return search.SolveResult(answer.moves, answer.proven, name, seconds=budget.elapsed, complete=stopped is None,
                              stopped=stopped)


def pdb_build(defn: Definition, *, projection_json: str | None = None, budget_bytes: int | None = None,
              time_limit: float | None = None, progress=None, cancel=None) -> list[dict]:
    """Build (or find in the cache) the pattern databases a solve would use, or the one given
    projection (JSON); their headers, each with its file's `path`. The time limit and cancel hold
    in the builds (Cancelled, OutOfTime; nothing half-built is kept)."""
    from solver.search import engine as search
    from solver.search.ranking import Projection

    projection = None if projection_json is None else Projection.from_json(projection_json)
    budget = Budget(time_limit=time_limit, progress=progress, cancel=cancel, phase="table building")
    return search.pdb_build(defn, projection, budget_bytes=budget_bytes, budget=budget)


def pdb_list() -> list[dict]:
    """Every pattern database in the cache folder (headers with path and size)."""
    from solver.search import engine as search

    return search.pdb_list()


def check_projection(defn: Definition, projection_json: str, budget_bytes: int) -> str:
    """A pattern-database projection (JSON) checked against the puzzle and a memory budget without
    building anything; its canonical JSON, or a PuzzleError naming the problem."""
    from solver.search import engine as search

    return search.pdb_check(defn, projection_json, budget_bytes)


def scramble(defn: Definition, *, moves: int | None = None, random_state: bool = False, seed=None) -> dict:
    """A scramble: `moves` random moves, or a random reachable state (`uniform` says whether it was
    drawn uniformly or, where the group is not known, is the end of a long random walk)."""
    rng = random.Random(seed)
    if random_state:
        state, uniform = scrambles.random_state(defn, rng)
        return {"moves": None, "state": state, "uniform": uniform}
    if moves is None or not 0 <= moves <= alg.MAX_MOVES:
        raise PuzzleError(f"moves: give a number of moves from 0 to {alg.MAX_MOVES:,}")
    sequence = scrambles.random_moves(defn, moves, rng)
    return {"moves": sequence, "state": apply_moves(defn, sequence)}


def export_yaml(defn: Definition, fmt: str = "native") -> str:
    """The definition written in one of the formats we read (kpuzzle: JSON; ksolve: its own text)."""
    if fmt == "native":
        return export.to_yaml(export.native_data(defn))
    if fmt == "seed":
        return export.to_yaml(export.seed_data(defn))
    if fmt == "kpuzzle":
        return kpuzzle.write(defn)
    if fmt == "ksolve":
        return ksolve.write(defn)
    raise PuzzleError(f"format: unknown format {fmt!r}; formats: native, seed, kpuzzle, ksolve")


def import_file(path: str, fmt: str | None = None) -> Definition:
    """A definition from a file in any format we read; `fmt` forces one (else guessed from the file
    name, then from the content)."""
    if fmt is None:
        name = Path(path).name.lower()
        fmt = next((f for f, mod in (("kpuzzle", kpuzzle), ("ksolve", ksolve)) if name.endswith(mod.SUFFIXES)), None)
    if not Path(path).is_file():
        raise DefinitionError(f"{path}: no such file")
    return load_file(path, fmt)



def effect(defn: Definition, moves) -> dict:
    """What a move sequence does to the pieces: {effect, effect_key, support, order, cycles}."""
    from solver import discover as discovery  # here, so that numba loads only when discovery is used

    return discovery.effect(defn, moves)


def lengths(defn: Definition, moves) -> dict:
    """A sequence's length in the puzzle's metrics: {moves, turns} (solver.metrics)."""
    return metrics.lengths(defn, moves)


def discover(
    defn: Definition,
    *,
    max_length: int | None = None,
    max_support: int | None = None,
    time_limit: float | None = None,
    progress=None,
    cancel=None,
    keep: int | None = None,
) -> list[dict]:
    """Short sequences that touch few pieces, best first, `keep` (default 3) per effect class: each
    {moves, length, effect, effect_key, support, order, shortest}; every one replayed."""
    from solver import discover as discovery

    return discovery.discover(defn, max_length=max_length, max_support=max_support, time_limit=time_limit,
                              progress=progress, cancel=cancel, keep=keep)


def find_algorithms(defn: Definition, state, *, goal=None, count: int = 10, extra: int = 2, moves=None,
                    time_limit: float | None = 30.0, progress=None, cancel=None) -> dict:
    """Several shortest sequences from `state` to a goal (or a partial `goal`), all of the shortest
    length first, then up to `extra` moves longer, optionally with only `moves`; each replayed and
    described by its effect: see solver.discover.find."""
    from solver.discover.find import find_algorithms as find

    found = find(defn, state, goal=goal, count=count, extra=extra, moves=moves, time_limit=time_limit,
                 progress=progress, cancel=cancel)
    checked, start = defn, tuple(state)
    if goal is not None:
        projection = partial.partial_goal(defn, tuple(goal))
        checked, start = projection.defn, projection.state(start)
    found["algorithms"] = [dict(_effect_or_none(defn, a["moves"]), **a) for a in found["algorithms"]
                           if verify(checked, start, a["moves"])]  # never report what does not replay
    return found


def _effect_or_none(defn: Definition, moves) -> dict:
    try:
        return effect(defn, moves)
    except PuzzleError:  # a puzzle the piece analysis cannot describe
        return {}


def variants(defn: Definition, moves) -> list[dict]:
    """An algorithm's inverse, mirrors and rotations (same effect class): [{kind, moves}]."""
    from solver.discover import variants as found

    return found.variants(defn, list(moves))


def effect_arrows(defn: Definition, moves, cells) -> list[dict]:
    """Arrows of a sequence's effect over a drawing whose sticker places are `cells`: [{from, to, twist}]."""
    from solver.discover import variants as found

    return found.arrows(defn, list(moves), cells)


def algorithm_sets(defn: Definition, *, moves=None, time_limit: float = 60.0, progress=None, cancel=None) -> list[dict]:
    """The staged sets of the puzzle's layers (orient, permute, full) with algorithms for their
    cases: see solver.discover.cases."""
    from solver.discover import cases

    return cases.build_sets(defn, moves=moves, time_limit=time_limit, progress=progress, cancel=cancel)


def case_start(defn: Definition, goal, moves) -> tuple:
    """The state of a set's case that one of its algorithms brings to the set's goal exactly: see
    solver.discover.cases.case_start."""
    from solver.discover import cases

    return cases.case_start(defn, goal, list(moves))
