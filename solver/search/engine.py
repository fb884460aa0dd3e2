"""Choosing and running a search for one state: the entry point of solver/search.

Methods (`method=`):
- "table": walk down the full distance table (God's algorithm); optimal. Chosen when the whole
  state space fits the memory budget.
- "ida": IDA* over pieces with pattern databases chosen under the budget; optimal.
- "phases": phase by phase down a chain of subgroups chosen from the moves (solver.search.multiphase:
  Kociemba-like power chains, block building by dropping moves), the finisher for what no phase
  reaches; when no chain fits or none answers, the fallback below. Labelled optimal False.
- "fallback": phase by phase: pieces are brought home a few at a time (in the order of the
  planned databases, one class at a time inside each), each phase an optimal IDA* whose goal is
  "these pieces home" with databases over exactly the pieces homed so far; a phase that does not
  finish in its share of the time hands over to the finisher (solver.search.macros); labelled
  optimal False.
- "astar": A* with the same lower bounds; optimal; for small spaces (it keeps every state).
- "bidir": bidirectional breadth-first search; optimal; compiled over full-state ranks when the
  puzzle's states rank into 64 bits, else the plain search on sticker states.
- "bfs": the plain breadth-first search on sticker states (the reference; small puzzles only).

Without a method: "table" when it fits, else "ida" when `optimal` (or "phases" when not) if
some pattern database fits, else "bidir". Tables are built on first use and kept in the cache
folder (PUZZLEHUB_CACHE).
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field, replace

import numpy as np

from solver import compiled, deadline
from solver.definition.model import Definition
from solver.engine import Codec, State
from solver.errors import PuzzleError
from solver.recent import Recent
from solver.search import bfs, multiphase, pdb, plain_ida, table
from solver.search.astar import astar
from solver.search.bidir import BidirectionalSearch
from solver.search.budget import Budget, Stopped
from solver.search.ida import Heuristic, IdaSearch, combine
from solver.search.kernels import apply_move, occupancy, puzzle_arrays
from solver.search.macros import Finisher
from solver.search.methods import METHODS
from solver.search.model import search_model
from solver.search.plan import entries, full_size, make_plan, only_wide
from solver.search.ranking import Projection, full_projection, make_ranker
from solver.simplify import simplify




@dataclass
class SolveResult:
    moves: list[str] | None  # None when no solution was found within the budget
    optimal: bool
    method: str
    nodes: int = 0
    seconds: float = 0.0
    complete: bool = True  # False when a budget ran out or the search was cancelled
    stopped: str | None = None  # why it stopped early: "time limit", "node limit", "cancelled"
    extra: dict = field(default_factory=dict)


def memory_budget() -> int:
    """Memory for tables per puzzle: PUZZLEHUB_PDB_BUDGET (bytes, or with a K/M/G suffix)."""
    text = os.environ.get("PUZZLEHUB_PDB_BUDGET", "").strip().upper()
    if not text:
        return pdb.DEFAULT_BUDGET
    scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1], 1)
    try:
        return int(float(text.rstrip("KMG")) * scale)
    except ValueError:
        raise PuzzleError(f"PUZZLEHUB_PDB_BUDGET: {text!r} is not a size") from None


def solve(
    defn: Definition,
    state: State,
    *,
    optimal: bool = False,
    method: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress=None,
    cancel=None,
    budget: Budget | None = None,
) -> SolveResult:
    """`budget` (time limit, node limit, progress, cancel) replaces the four arguments of that name;
    tables built on the way are listed in the current solve's budget (solver.deadline), or in
    this one's when the search runs on its own."""
    if method is not None and method not in METHODS:
        raise PuzzleError(f"method: unknown method {method!r}; methods: {', '.join(METHODS)}")
    budget = budget or Budget(time_limit=time_limit, node_limit=node_limit, progress=progress, cancel=cancel)
    try:
        if deadline.current() is None:
            with deadline.limit(budget):
                return _solve(defn, tuple(state), optimal, method, budget)
        return _solve(defn, tuple(state), optimal, method, budget)
    except Stopped as stop:  # outside a search's own loop: planning, table building
        return SolveResult(None, False, method or "auto", seconds=budget.elapsed, complete=False, stopped=stop.reason,
                           extra={"phase": getattr(stop, "phase", deadline.current_phase() or budget.phase)})


def _solve(defn: Definition, state: State, optimal: bool, method: str | None, budget: Budget) -> SolveResult:
    if method == "bfs":
        return _plain(defn, state, method, budget)
    with deadline.phase("planning"):
        try:
            model = search_model(defn)
        except PuzzleError:
            if method not in (None, "bidir"):
                raise
            return _plain(defn, state, "bidir", budget)
        if method == "bidir" and full_size(model) is None:
            return _plain(defn, state, "bidir", budget)
        loc = model.encode(state)
        model.check_twists(loc)
        goal_views = model.goals_for(state)
        plan = make_plan(model, memory_budget())
    chosen = method is None
    if method is None:
        if plan.full is not None:
            method = "table"
        elif plan.databases and not only_wide(model, plan):
            method = "ida" if optimal else "phases"
        elif not optimal and not model.guarded:  # no table, or tables of a few pieces of large orbits: the finisher
            method = "fallback"
        elif full_size(model) is not None:
            method = "bidir"
        else:
            return _plain(defn, state, "bidir", budget)
    if chosen and method == "fallback":
        # (chosen only without a table to try near states with first, or with tables of a few
        # pieces of large orbits alone): a short bidirectional search on the stickers
        near = _plain(defn, state, "bidir", budget.part(QUICK_SHARE * (budget.remaining() or QUICK_SECONDS / QUICK_SHARE)))
        if near.moves is not None or near.stopped == "cancelled":
            near.seconds = budget.elapsed
            return near
    if method == "phases":
        result = _phases(defn, state, model, plan, loc, goal_views, budget)
    else:
        runner = {"table": _table, "ida": _ida, "fallback": _fallback, "astar": _astar, "bidir": _bidir}[method]
        result = runner(model, plan, loc, goal_views, budget)
    if chosen and result.extra.get("refused") and budget.remaining() != 0:
        result = _without_table(model, loc, goal_views, budget)
    result.seconds = budget.elapsed
    return result


QUICK_TABLE_SECONDS = 2.0  # a complete table built sooner (estimated, pessimistic: the 3x3 sliding puzzle 1.5 s for 0.5 s) than this is built by a first solve
# Past this many stickers the piece analysis may take seconds (a globe of 1,650: 2 s) and complete
# tables seldom fit: such puzzles are not asked, so that a state near a goal keeps its quick answer.
QUICK_TABLE_STICKERS = 200


def walks_table(defn: Definition, build_from: float = 0) -> bool:
    """Whether a solve of `defn` by default walks down a complete distance table that is in the
    cache folder already or quick to build (of at least `build_from` entries): every answer then
    comes at once, and the next processes walk it without loading numba (a short search first
    would only cost time)."""
    if defn.stickers > QUICK_TABLE_STICKERS:
        return False
    try:
        with deadline.phase("planning"):
            model = search_model(defn)
            plan = make_plan(model, memory_budget())
        if plan.full is None:
            return False
        db = pdb.cached(model, plan.full, full=True, build_missing=False)
    except PuzzleError:  # no piece model, or a damaged file (the solve builds it again)
        return False
    if db is None:
        quick = pdb.build_seconds(model, plan.full) <= QUICK_TABLE_SECONDS
        return quick and make_ranker(model, plan.full).size >= build_from
    return db.exact


def _plain(defn, state, method, budget) -> SolveResult:
    codec = Codec(defn)
    search = bfs.bfs if method == "bfs" else bfs.bidirectional_bfs
    try:
        moves, nodes = search(codec, codec.encode(state), budget)
    except Stopped as stop:
        return SolveResult(None, False, method, seconds=budget.elapsed, complete=False, stopped=stop.reason)
    return SolveResult(moves, moves is not None, method, nodes=nodes, seconds=budget.elapsed)


def _names(model, moves: list[int]) -> list[str]:
    return [model.move_names[m] for m in moves]


def _databases(model, projections: list[Projection], full: bool = False, budget: Budget | None = None) -> list:
    """The databases from the cache, building the missing ones; under a time limit only those
    whose build fits in half the time left (the search then runs with what it has)."""
    out = []
    for p in projections:
        left = budget.remaining() if budget is not None else None
        if left is not None:
            cost = pdb.build_seconds(model, p)
            db = pdb.cached(model, p, budget_bytes=memory_budget(), full=full, build_missing=cost < left / 2)
            if db is not None:
                out.append(db)
            continue
        out.append(pdb.cached(model, p, budget_bytes=memory_budget(), full=full))
    return out


def _table(model, plan, loc, goal_views, budget) -> SolveResult:
    projection = plan.full
    if projection is None:
        raise PuzzleError("method table: the full distance table does not fit the memory budget")
    found = _databases(model, [projection], full=True, budget=budget)
    if not found:
        return SolveResult(None, False, "table", complete=False, stopped="time limit",
                           extra={"phase": "table building", "refused": True})
    (db,) = found
    if not db.exact:  # distances beyond 15 packed in 4 bits: use the table as a bound instead
        return _search(model, combine(model, [db]), loc, goal_views, budget, 1, "table")
    moves = table.walk(model, db, loc, goal_views)
    if moves is None:
        raise PuzzleError("the state is not reachable from any goal (its distance table entry is empty)")
    return SolveResult(_names(model, moves), True, "table", nodes=len(moves))


QUICK_SHARE = 0.05  # of the time left: a bidirectional search before building smaller tables
QUICK_SECONDS = 1.0  # that search without a time limit


def _without_table(model, loc, goal_views, budget) -> SolveResult:
    """When the full table cannot be built in the time left: a short bidirectional search (near
    states answer in milliseconds), then IDA* with databases that can be built in time."""
    quick = budget.part(budget.remaining() * QUICK_SHARE)
    if full_size(model) is not None:
        near = _bidir(model, None, loc, goal_views, quick)
        if near.moves is not None or near.stopped == "cancelled":
            return near
    return _ida(model, plan_in_time(model, budget), loc, goal_views, budget)


def plan_in_time(model, budget: Budget):
    """A plan of databases small enough to be built in half the time left (the rate is
    pessimistic), within the memory budget."""
    left = budget.remaining()
    most = memory_budget()
    if left is not None:
        fit = left / 2 / (len(model.move_names) * pdb.TABLE_SECONDS_PER_ENTRY_MOVE)  # entries
        most = min(most, int(fit / 2))  # bytes at 4 bits an entry
    return make_plan(model, most)


_heuristics: Recent = Recent()  # (id(model), projections) -> (model, heuristic), the recent ones


def _heuristic(model, plan, budget: Budget | None = None) -> Heuristic:
    """The databases of `plan` with their move tables, kept for the process."""
    projections = [plan.full] if plan.full is not None else plan.databases
    key = (id(model), tuple(p.to_json() for p in projections))
    hit = _heuristics.get(key)
    if hit is not None and hit[0] is model:
        return hit[1]
    with deadline.phase("table building"):
        databases = _databases(model, projections, full=plan.full is not None, budget=budget)
        heuristic = combine(model, databases, [0] * len(databases) if plan.additive else None)
    if len(databases) == len(projections):  # keep only complete sets
        _heuristics[key] = (model, heuristic)
    return heuristic


def _search(model, heuristic, loc, goal_views, budget, weight, method) -> SolveResult:
    allowed = model.canonical_pairs()
    search = None
    try:
        # without numba loaded, a short optimal search runs sooner in plain Python than its start-up
        plain = weight == 1 and not compiled.loaded()
        out = plain_ida.search(model, heuristic, allowed, loc, goal_views, budget) if plain else None
        if out is None:
            search = IdaSearch(model, heuristic, allowed, goal_views, weight)
            out = search.run(loc, budget)
    except Stopped as stop:
        return SolveResult(None, False, method, nodes=search.nodes if search else 0, complete=False, stopped=stop.reason)
    if search is not None and weight == 1 and out.nodes <= plain_ida.NODE_LIMIT:
        try:  # a search short enough for plain Python: its move tables, for the next processes
            plain_ida.prepare(model, heuristic)
        except Stopped:
            pass
    if out.moves is None:
        if out.proven:
            raise PuzzleError("no goal is reachable from this state with these moves")
        return SolveResult(None, False, method, nodes=out.nodes, complete=False, stopped="depth limit")
    return SolveResult(_names(model, out.moves), out.proven, method, nodes=out.nodes)


def _ida(model, plan, loc, goal_views, budget) -> SolveResult:
    return _search(model, _heuristic(model, plan, budget), loc, goal_views, budget, 1, "ida")


def phases(model, plan) -> list[list[Projection]]:
    """The databases of each fallback phase: the finished chunks, then the current chunk's first
    classes, growing by one class per phase while their table stays under a quarter of the
    chunk's (so that the phases add cheap tables), then the chunk itself."""
    if plan.full is not None:
        return [[plan.full]]
    out, done = [], []
    for proj in plan.databases:
        (part,) = proj.parts
        orb = model.orbits[part.orbit]
        order = [c for c in dict.fromkeys(int(orb.classes[p]) for p in part.pieces) if c not in
                 {int(orb.classes[p]) for p in part.free}]
        taken: list[int] = []
        limit = entries(model, proj) / 4
        for cls in order[:-1]:
            taken += [int(p) for p in np.flatnonzero(orb.classes == cls)]
            prefix = Projection((replace(part, pieces=tuple(taken) + part.free),))
            if entries(model, prefix) > limit:
                break
            out.append(done + [prefix])
        done = done + [proj]
        out.append(list(done))
    return out


FIRST_TRY = 0.2  # share of the time (or seconds without a limit, times 10) for an optimal try first
PHASE_SHARE = 0.6  # of the time left, split among the phases left; the rest stays for the finisher
PHASE_SECONDS = 20.0  # a phase's time without a time limit
# of the time left, at most, for the finisher's one-time search for algorithms; its aims and library
# of conjugates are built after it, unbudgeted (a globe of 8x33 bands: 0.3-1 s)
ALGORITHM_SHARE = 0.7
RETRY_SECONDS = 2.0  # time left for going on with that search when it was cut short (it restarts in about a second)


PHASES_SHARE = 0.7  # of the time left for the chains; the rest stays for the fallback if none answers
PHASES_FIRST_TRY = 0.05  # the optimal try before the chains: enough for near states (chains answer the rest)


def _phases(defn, state, model, plan, loc, goal_views, budget) -> SolveResult:
    """A short optimal try, then the chains of solver.search.multiphase, then the fallback when no
    chain fits or answers."""
    first = _first_try(model, plan, loc, goal_views, budget, "phases", PHASES_FIRST_TRY)
    if first.moves is not None or first.stopped == "cancelled":
        return first
    if not model.guarded:
        try:
            moves, info = multiphase.solve(defn, state, budget, reserve=1 - PHASES_SHARE)
        except Stopped as stop:
            if stop.reason == "cancelled" or budget.remaining() == 0:
                return SolveResult(None, False, "phases", complete=False, stopped=stop.reason)
            moves, info = None, {}
        if moves is not None:
            return SolveResult(moves, False, "phases", nodes=first.nodes, extra=info)
    # no chain answered (a partial goal, a state the chains' tables miss): the fallback, whose own
    # longer optimal try comes first, as it did before the chains' short one
    result = _fallback(model, plan, loc, goal_views, budget)
    result.nodes += first.nodes
    return result


def _first_try(model, plan, loc, goal_views, budget, method, share: float = FIRST_TRY) -> SolveResult:
    """A short optimal try: near states are solved exactly and fast; with the plan's tables built
    first when they are small (_small_tables), every state of a puzzle such as the dino cube."""
    if not (plan.databases or plan.full is not None) or only_wide(model, plan):  # near states: the bidirectional try
        return SolveResult(None, False, method)
    _small_tables(model, plan, budget)
    left = budget.remaining()
    quick = budget.part(share * (left if left is not None else 10))
    return _search(model, _heuristic(model, plan, quick), loc, goal_views, quick, 1, method)


SMALL_TABLES_SHARE = 0.4  # of the time left, at most, for building the plan's missing tables before the first try
SMALL_TABLES_SLACK = 5  # ... when this many times their estimate fits in it (the estimate is low on a busy machine)


def _small_tables(model, plan, budget: Budget) -> None:
    """Build the plan's missing databases when they are small beside the time left: built once,
    they make the first try answer the next states at once (a dino cube's two tables of 665,280
    entries: about a second, where its chains and their finisher took over 10 s on an empty
    cache). A build the time cuts short leaves the tables done before it in the cache."""
    left = budget.remaining()
    missing = [p for p in plan.databases if not pdb.is_cached(model, p)]
    if left is None or not missing:
        return
    part = budget.part(left * SMALL_TABLES_SHARE)
    if SMALL_TABLES_SLACK * sum(pdb.build_seconds(model, p) for p in missing) > part.remaining():
        return
    try:
        with deadline.phase("table building"):
            for p in missing:
                pdb.cached(model, p, budget_bytes=memory_budget(), budget=part)
    except Stopped:
        if budget.cancelled():
            raise


def _fallback(model, plan, loc, goal_views, budget) -> SolveResult:
    """A short optimal try (near states are solved exactly and fast), then the phases."""
    first = _first_try(model, plan, loc, goal_views, budget, "fallback")
    if first.moves is not None or first.stopped == "cancelled":
        return first
    result = solve_by_phases(model, plan, loc, goal_views, budget)
    result.nodes += first.nodes
    return result


def _phase_budget(budget: Budget, phases_left: int) -> Budget:
    left = budget.remaining()
    seconds = PHASE_SECONDS if left is None else left * PHASE_SHARE / phases_left
    return budget.part(seconds)


def solve_by_phases(model, plan, loc, goal_views, budget) -> SolveResult:
    """The fallback's phases in turn from the piece state `loc`; verified by `solve`'s caller.
    A phase that does not finish in its share of the time (or whose tables cannot be built in
    it) hands the state to the finisher, which homes the rest with few-slot algorithms."""
    moves: list[int] = []
    nodes = 0
    stages = phases(model, plan)
    allowed = model.canonical_pairs()
    pz = puzzle_arrays(model)
    finisher = _finisher(model, budget)  # first, so that its algorithms are ready in time
    # tables over a few pieces of large orbits place those pieces; the finisher does the rest
    whole = not only_wide(model, plan)
    for i, stage in enumerate(stages):
        last = i == len(stages) - 1 and whole
        share = _phase_budget(budget, len(stages) - i)
        databases = _databases(model, stage, full=plan.full is not None, budget=share)
        if len(databases) < len(stage):  # a table that cannot be built in the phase's time
            break
        heuristic = combine(model, databases, [0] * len(stage) if plan.additive else None)
        search = IdaSearch(model, heuristic, allowed, goal_views if last else goal_views[:0])
        try:
            out = search.run(loc, share)
        except Stopped as stop:
            nodes += search.nodes
            if stop.reason == "cancelled" or budget.remaining() == 0:
                return SolveResult(None, False, "fallback", nodes=nodes, complete=False, stopped=stop.reason)
            break
        nodes += out.nodes
        if out.moves is None:
            break
        loc = _after(model, pz, loc, out.moves)
        moves += out.moves
    else:
        if stages and whole:
            return SolveResult(simplify(model.defn, _names(model, moves)), False, "fallback", nodes=nodes)
    rest = None
    if finisher is not None:
        rest = finisher.finish_shortest(loc, goal_views, budget.deadline)
        # a finisher whose one-time search the deadline cut short goes on with it while time is left
        while rest is None and not finisher.complete and _worth_resuming(finisher, budget.remaining() or 0) \
                and not budget.cancelled():
            finisher = _finisher(model, budget)
            rest = finisher.finish_shortest(loc, goal_views, budget.deadline)
    if rest is None:
        return SolveResult(None, False, "fallback", nodes=nodes, complete=False,
                           stopped="time limit" if budget.remaining() == 0 or (finisher is not None and not finisher.complete)
                           else "no phase solution",
                           extra={"phase": "finishing" if finisher is not None else "search"})
    return SolveResult(simplify(model.defn, _names(model, moves + rest)), False, "fallback", nodes=nodes)


def _after(model, pz, loc, moves: list[int]) -> np.ndarray:
    """The piece state after `moves`."""
    for m in moves:
        nxt = loc.copy()
        apply_move(pz, loc, nxt, m, np.arange(model.n_pieces, dtype=np.int32), _occupied(pz, loc))
        loc = nxt
    return loc


_finishers: Recent = Recent()  # id(model) -> (model, finisher), the recent ones


def _finisher(model, budget) -> Finisher | None:
    """The model's finisher, kept for the process (None for guarded puzzles). One whose one-time
    search for algorithms was cut short goes on with it when the time left is worth its resuming
    (reading back what it found: 5 s for a master skewb's), else serves with what it has."""
    if model.guarded:
        return None
    hit = _finishers.get(id(model))
    left = budget.remaining()
    if hit is None or hit[0] is not model or (not hit[1].complete and _worth_resuming(hit[1], left)):
        # Its one-time search for algorithms leaves the phases time; cut short, it resumes next time.
        hit = _finishers[id(model)] = (model, Finisher(model, None if left is None else time.monotonic() + ALGORITHM_SHARE * left))
    return hit[1]


def _worth_resuming(finisher: Finisher, left: float | None) -> bool:
    return left is None or left > RETRY_SECONDS + 2 * finisher.resume_seconds


def _occupied(pz, loc) -> np.ndarray:
    occ = np.empty(len(loc), dtype=np.int32)
    occupancy(pz, loc, np.arange(len(loc), dtype=np.int32), occ)
    return occ


def _bidir(model, plan, loc, goal_views, budget) -> SolveResult:
    goals = [g for g in model.goals if any((model.view(g) == v).all() for v in goal_views)]
    try:
        moves, nodes = BidirectionalSearch(model).run(loc, goals, budget)
    except Stopped as stop:
        return SolveResult(None, False, "bidir", complete=False, stopped=stop.reason)
    if moves is None:
        raise PuzzleError("no goal is reachable from this state with these moves")
    return SolveResult(_names(model, moves), True, "bidir", nodes=nodes)


def _astar(model, plan, loc, goal_views, budget) -> SolveResult:
    try:
        moves, nodes = astar(model, _heuristic(model, plan, budget), loc, goal_views, budget)
    except Stopped as stop:
        return SolveResult(None, False, "astar", complete=False, stopped=stop.reason)
    if moves is None:
        raise PuzzleError("no goal is reachable from this state with these moves")
    return SolveResult(_names(model, moves), True, "astar", nodes=nodes)


def pdb_build(defn: Definition, projection: Projection | None = None, budget_bytes: int | None = None,
              budget: Budget | None = None) -> list[dict]:
    """Build (or find in the cache) the tables `solve` would use, or one given projection.
    Returns their headers, each with its file's `path`. A projection over the memory budget is
    refused with the size it needs. Under `budget` (time limit, cancel, progress) a build stops
    within about budget.POLL seconds (Cancelled, OutOfTime) and keeps nothing half-built."""
    memory = budget_bytes or memory_budget()
    with deadline.within(budget or Budget()):
        with deadline.phase("planning"):
            model = search_model(defn)
            plan = make_plan(model, memory) if projection is None else None
        if projection is not None:
            wanted, full = [projection], False
        elif plan.full is not None:
            wanted, full = [plan.full], True
        elif plan.databases:
            wanted, full = plan.databases, False
        else:
            raise pdb.PatternDatabaseError("pattern database: no projection of this puzzle fits the budget")
        out = []
        for p in wanted:
            db = pdb.cached(model, p, budget_bytes=memory, full=full)
            out.append(dict(db.header, path=str(db.path)))
        return out


def pdb_check(defn: Definition, projection_json: str, budget_bytes: int) -> str:
    """A projection given as JSON, checked against the puzzle and the budget without building
    anything; returns its canonical JSON. Refused with a PuzzleError naming the problem."""
    model = search_model(defn)
    projection = Projection.from_json(projection_json)
    size = make_ranker(model, projection).size
    if pdb.stored_bytes(size, 4) > budget_bytes:
        raise PuzzleError(f"projection: {projection.describe(model)} has {size:,} entries and needs "
                          f"{pdb.stored_bytes(size, 4):,} bytes at 4 bits, over the budget of {budget_bytes:,} bytes")
    return projection.to_json()


def pdb_list() -> list[dict]:
    """Every pattern database in the cache folder (headers with path and size)."""
    return pdb.list_cached()


def gods(defn: Definition, budget_bytes: int | None = None) -> dict:
    """The distance distribution of the whole state space (builds the full table)."""
    budget = budget_bytes or memory_budget()
    model = search_model(defn)
    size = full_size(model)
    if size is None:
        raise PuzzleError("gods: the state space of this puzzle cannot be ranked as one table")
    if pdb.stored_bytes(size, 4) > budget or size > pdb.MAX_ENTRIES:
        raise pdb.PatternDatabaseError(
            f"gods: the full table has {size:,} entries and needs {pdb.stored_bytes(size, 4):,} bytes at 4 bits; "
            f"the budget is {budget:,} bytes and one table at most {pdb.MAX_ENTRIES:,} entries"
        )
    db = pdb.cached(model, full_projection(model), budget_bytes=budget, full=True)
    return table.summary(db.header["distribution"])


# small catalog puzzles whose solves by every method compile every kernel of the generic search:
# move and pattern-database tables (4 and 8 bits an entry), IDA*, A*, the compiled bidirectional
# search and the phases of the fallback, for puzzles with twisting pieces and for guarded (sliding) ones
WARM_UP_PUZZLES = ("pyraminx", "floppy", "sliding-2x3")
WARM_UP_SLOTS = 3  # IDA*'s kernels are compiled per multiple of ida.BODY_SLOTS databases: up to this many


def warm_up() -> None:
    """Compile (or load from numba's cache) the generic search's kernels, e.g. before a worker pool
    forks, so that no solve's time limit pays for them (the tables built go to the cache folder)."""
    from solver import catalog
    from solver.analysis.scramble import random_moves
    from solver.definition.formats import load_data
    from solver.engine import apply_moves
    from solver.search.ida import BODY_SLOTS

    for name in WARM_UP_PUZZLES:
        defn = load_data(catalog.build(name))
        state = apply_moves(defn, random_moves(defn, 12, random.Random(1)))
        for method in METHODS:
            if method != "bfs":  # plain Python: nothing to compile
                solve(defn, state, method=method, budget=Budget(time_limit=60.0))
        # plans of many databases (a megaminx's phases): the same databases, repeated
        model = search_model(defn)
        plan = make_plan(model, memory_budget())
        databases = _databases(model, plan.databases or [plan.full])
        loc, goal_views = model.encode(state), model.goals_for(state)
        for slots in range(2, WARM_UP_SLOTS + 1):
            many = (databases * BODY_SLOTS * slots)[: BODY_SLOTS * (slots - 1) + 1]
            _search(model, combine(model, many), loc, goal_views, Budget(time_limit=60.0), 1, "ida")
        # the fallback's phases and finisher (its commutator scans and set-up tables are compiled
        # too; a 12-move state is answered by the optimal try and never reaches them)
        solve_by_phases(model, plan, loc, goal_views, Budget(time_limit=60.0))
