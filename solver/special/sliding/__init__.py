"""Sliding puzzles (the 15-puzzle and its R x C relatives): optimal solving with additive pattern
databases and IDA*, and a constructive solver for boards too big for that. `solve(tiles, rows,
cols)` takes the natural state, a tile list with 0 for the blank, and returns the moves by the
direction the tile moves (U D L R)."""

from __future__ import annotations

from solver.errors import PuzzleError
from solver.search.budget import Budget
from solver.special.sliding import constructive
from solver.special.sliding.board import Board, parse_tiles
from solver.special.sliding.search import solve_cells


class BudgetExceeded(PuzzleError):
    """The optimal search ran out of its node budget."""


METHODS = ("auto", "optimal", "constructive")
OPTIMAL_CELLS = 16  # auto: optimal up to the 15-puzzle, constructive beyond


def solve(tiles, rows: int = 4, cols: int = 4, max_nodes: int = 1 << 40, method: str = "auto",
          budget: Budget | None = None) -> list[str]:
    """A move sequence (tile directions) from `tiles` to the goal 0 1 2 ... (blank first): optimal
    (`optimal`, or `auto` up to 16 cells) or constructive (`constructive`, or `auto` beyond). The
    optimal search stops within about budget.POLL seconds of a cancel (Cancelled) or of the time
    limit (Stopped)."""
    budget = budget or Budget()
    if method not in METHODS:
        raise PuzzleError(f"sliding method must be one of {', '.join(METHODS)}, got {method!r}")
    board = Board(rows, cols)
    tiles = board.check(tiles)
    if method == "constructive" or (method == "auto" and board.cells > OPTIMAL_CELLS):
        cells = constructive.solve_cells(board, tiles)
    else:
        budget.report(phase="optimal")
        with budget.watching() as stop:
            cells, nodes = solve_cells(board, tiles, max_nodes=max_nodes, stop=stop)
        if cells is None and stop[0]:
            raise budget.stop_reason()
        if cells is None:
            raise BudgetExceeded(f"optimal search stopped after {nodes} nodes without a solution")
    names = []
    blank = tiles.index(0)
    for c in cells:
        names.append(board.move_name(blank, c))
        blank = c
    if board.apply(tiles, names) != board.goal():
        raise AssertionError("sliding solution does not replay to the goal")
    return names


__all__ = ["METHODS", "Board", "BudgetExceeded", "parse_tiles", "solve"]
