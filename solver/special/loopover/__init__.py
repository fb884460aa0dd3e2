"""Loopover (R x C, rows and columns shift cyclically): a fast constructive solver for every board,
optimal solving from complete distance tables up to 9 cells and by IDA* with a pattern database
up to 16 cells (4x4, 3x4, 3x5).

`solve(tiles, rows, cols)` takes the natural state, the tile number on every cell in row-major
order with tile t belonging on cell t, and returns a list of Shift(kind, index, amount)."""

from __future__ import annotations

import numpy as np

from solver.errors import PuzzleError
from solver.search.budget import Budget
from solver.special.loopover import optimal, pdb_search

from solver.special.loopover.board import Board, Shift, length, shifts
from solver.special.loopover.constructive import solve_kernel
from solver.special.loopover.lines import COL, ROW, replay


def solve_moves(tiles, rows: int, cols: int) -> np.ndarray:
    """The constructive solution as an (m, 3) array of (ROW or COL, index, amount), replayed."""
    board = Board(rows, cols)
    grid = board.check(tiles)
    # The last phase needs an even bottom row to fix parity; with C odd and R even, turn the board.
    transposed = cols % 2 == 1 and rows % 2 == 0
    if transposed:
        moves = solve_kernel(board.transpose(grid), cols, rows)
        moves[:, 0] = np.where(moves[:, 0] == ROW, COL, ROW)
    else:
        moves = solve_kernel(grid.copy(), rows, cols)
    if not (replay(grid, rows, cols, moves) == np.arange(board.cells)).all():
        raise AssertionError("loopover solution does not replay to the goal")
    return moves


def solve_constructive(tiles, rows: int, cols: int) -> list[Shift]:
    return shifts(solve_moves(tiles, rows, cols))


METHODS = ("auto", "optimal", "constructive")


def solve(tiles, rows: int, cols: int, method: str = "auto", budget: Budget | None = None) -> list[Shift]:
    """`auto`: optimal from the complete table up to 9 cells (instant), constructive beyond;
    `optimal`: the table or the pattern-database search (seconds on 4x4), refused on bigger boards;
    `constructive`: always the constructive solver (at most about a second, on 30x30). The
    searches and table builds stop on the budget's cancel or time limit (Cancelled, OutOfTime)."""
    budget = budget or Budget()
    if method not in METHODS:
        raise PuzzleError(f"loopover method must be one of {', '.join(METHODS)}, got {method!r}")
    if method != "constructive" and (rows, cols) in optimal.SIZES:
        budget.report(phase="table")
        return optimal.solve(tiles, rows, cols)
    if method == "optimal":
        return pdb_search.solve(tiles, rows, cols, budget=budget)
    budget.report(phase="constructive")
    return solve_constructive(tiles, rows, cols)


__all__ = ["METHODS", "Board", "Shift", "length", "solve", "solve_constructive", "solve_moves"]
