"""Choosing and running a search for one state: the entry point of solver/search.

Methods (`method=`):
- "table": walk down the full distance table (God's algorithm); optimal. Chosen when the whole
  state space fits the memory budget.
- "ida": IDA* over pieces with pattern databases chosen under the budget; optimal.
- "fallback": weighted IDA* (f = g + w*h, w = 3, then 2 while time remains) over the same
  databases; fast, verified, labelled optimal False.
- "astar": A* with the same lower bounds; optimal; for small spaces (it keeps every state).
- "bidir", "bfs": plain searches on whole sticker states (the reference; small puzzles only).

Without a method: "table" when it fits, else "ida" when `optimal`, else "fallback". Puzzles whose
pieces the compiled searches cannot rank fall back to "bidir". Tables are built on first use and
kept in the cache folder (PUZZLEHUB_CACHE).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from solver.definition.model import Definition
from solver.engine import Codec, State, verify
from solver.errors import PuzzleError
from solver.search import bfs, pdb, table
from solver.search.astar import astar
from solver.search.budget import Budget, Stopped
from solver.search.ida import Heuristic, IdaSearch, combine
from solver.search.model import search_model
from solver.search.plan import full_size, make_plan
from solver.search.ranking import Projection, full_projection

METHODS = ("table", "ida", "fallback", "astar", "bidir", "bfs")
FALLBACK_WEIGHTS = (3, 2)


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
) -> SolveResult:
    if method is not None and method not in METHODS:
        raise PuzzleError(f"method: unknown method {method!r}; methods: {', '.join(METHODS)}")
    budget = Budget(time_limit=time_limit, node_limit=node_limit, progress=progress, cancel=cancel)
    state = tuple(state)
    if method in ("bfs", "bidir"):
        return _plain(defn, state, method, budget)
    try:
        model = search_model(defn)
    except PuzzleError:
        if method is not None:
            raise
        return _plain(defn, state, "bidir", budget)
    if method is None and full_size(model) is None and not model.orbits:
        return _plain(defn, state, "bidir", budget)
    loc = model.encode(state)
    model.check_twists(loc)
    goal_views = model.goals_for(state)
    plan = make_plan(model, memory_budget())
    if method is None:
        method = "table" if plan.full is not None else ("ida" if optimal else "fallback")
    runner = {"table": _table, "ida": _ida, "fallback": _fallback, "astar": _astar}[method]
    result = runner(model, plan, loc, goal_views, budget)
    if result.moves is not None and not verify(defn, state, result.moves):
        raise PuzzleError(f"internal error: the {method} solution does not replay to a goal")
    result.seconds = budget.elapsed
    return result


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


def _databases(model, projections: list[Projection], full: bool = False) -> list:
    return [pdb.cached(model, p, budget_bytes=memory_budget(), full=full) for p in projections]


def _table(model, plan, loc, goal_views, budget) -> SolveResult:
    projection = plan.full
    if projection is None:
        raise PuzzleError("method table: the full distance table does not fit the memory budget")
    (db,) = _databases(model, [projection], full=True)
    if not db.exact:  # distances beyond 15 packed in 4 bits: use the table as a bound instead
        return _search(model, combine([db]), loc, goal_views, budget, 1, "table")
    moves = table.walk(model, db, loc, goal_views)
    if moves is None:
        raise PuzzleError("the state is not reachable from any goal (its distance table entry is empty)")
    return SolveResult(_names(model, moves), True, "table", nodes=len(moves))


def _heuristic(model, plan) -> Heuristic:
    if plan.full is not None:
        return combine(_databases(model, [plan.full], full=True))
    return combine(_databases(model, plan.databases))


def _search(model, heuristic, loc, goal_views, budget, weight, method) -> SolveResult:
    search = IdaSearch(model, heuristic, model.canonical_pairs(), goal_views, weight)
    try:
        out = search.run(loc, budget)
    except Stopped as stop:
        return SolveResult(None, False, method, nodes=search.nodes, complete=False, stopped=stop.reason)
    if out.moves is None:
        if out.proven:
            raise PuzzleError("no goal is reachable from this state with these moves")
        return SolveResult(None, False, method, nodes=out.nodes, complete=False, stopped="depth limit")
    return SolveResult(_names(model, out.moves), out.proven, method, nodes=out.nodes)


def _ida(model, plan, loc, goal_views, budget) -> SolveResult:
    return _search(model, _heuristic(model, plan), loc, goal_views, budget, 1, "ida")


def _fallback(model, plan, loc, goal_views, budget) -> SolveResult:
    """Weighted searches, heaviest (fastest) first; each later one only keeps a shorter answer.
    With a time limit the remaining time goes to the lighter weights; the best answer stands."""
    heuristic = _heuristic(model, plan)
    best: SolveResult | None = None
    nodes = 0
    for weight in FALLBACK_WEIGHTS:
        result = _search(model, heuristic, loc, goal_views, budget, weight, "fallback")
        nodes += result.nodes
        if result.moves is not None and (best is None or len(result.moves) < len(best.moves)):
            best = result
        if result.stopped or budget.time_limit is None:
            break
    if best is None:
        return SolveResult(None, False, "fallback", nodes=nodes, complete=False, stopped=result.stopped)
    best.optimal = False
    best.nodes = nodes
    return best


def _astar(model, plan, loc, goal_views, budget) -> SolveResult:
    try:
        moves, nodes = astar(model, _heuristic(model, plan), loc, goal_views, budget)
    except Stopped as stop:
        return SolveResult(None, False, "astar", complete=False, stopped=stop.reason)
    if moves is None:
        raise PuzzleError("no goal is reachable from this state with these moves")
    return SolveResult(_names(model, moves), True, "astar", nodes=nodes)


def pdb_build(defn: Definition, projection: Projection | None = None, budget_bytes: int | None = None) -> list[dict]:
    """Build (or find in the cache) the tables `solve` would use, or one given projection.
    Returns their headers. A projection over the budget is refused with the size it needs."""
    budget = budget_bytes or memory_budget()
    model = search_model(defn)
    if projection is not None:
        return [pdb.cached(model, projection, budget_bytes=budget).header]
    plan = make_plan(model, budget)
    if plan.full is not None:
        return [pdb.cached(model, plan.full, budget_bytes=budget, full=True).header]
    if not plan.databases:
        raise pdb.PatternDatabaseError("pattern database: no projection of this puzzle fits the budget")
    return [pdb.cached(model, p, budget_bytes=budget).header for p in plan.databases]


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
