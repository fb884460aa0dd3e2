"""Choosing and running a search for one state: the entry point of solver/search."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from solver.definition.model import Definition
from solver.engine import Codec, State
from solver.errors import PuzzleError
from solver.search import bfs
from solver.search.budget import Budget, Stopped

METHODS = ("bfs", "bidir")


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
    method = method or "bidir"
    if method not in METHODS:
        raise PuzzleError(f"method: unknown method {method!r}; methods: {', '.join(METHODS)}")
    budget = Budget(time_limit=time_limit, node_limit=node_limit, progress=progress, cancel=cancel)
    codec = Codec(defn)
    started = time.monotonic()
    search = bfs.bfs if method == "bfs" else bfs.bidirectional_bfs
    try:
        moves, nodes = search(codec, codec.encode(state), budget)
    except Stopped as stop:
        return SolveResult(None, False, method, seconds=time.monotonic() - started, complete=False, stopped=stop.reason)
    return SolveResult(moves, moves is not None, method, nodes=nodes, seconds=time.monotonic() - started)
