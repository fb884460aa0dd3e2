"""A constructive (not optimal) sliding-puzzle solver for boards too big for optimal search.

The classic method, on the board turned half a turn so that the blank's goal is the last cell:
rows are solved top to bottom down to the last two, then the last two rows column by column
left to right, then the final 2 x 2 block. Each step is a breadth-first search of the blank's
moves over (tracked tiles' cells, blank cell) inside the cells not yet solved, treating the
other tiles as interchangeable: one tile for ordinary cells; for the last two cells of a row
(or column pair) both tiles together inside a small window (after bringing them there), which
covers every awkward case of the hand method; all three tiles for the final block.
"""

from __future__ import annotations

from collections import deque

from solver.special.sliding.board import Board


def _search(board: Board, grid: list[int], region: set[int], tracked: list[int], done) -> list[int] | None:
    """Blank cells visited (after its start) along a shortest walk inside `region` after which
    done(cells of the tracked tiles, blank) holds; None when there is none."""
    blank = grid.index(0)
    start = (tuple(grid.index(t) for t in tracked), blank)
    if done(*start):
        return []
    parent = {start: None}
    queue = deque([start])
    while queue:
        cells, b = state = queue.popleft()
        for q in board.neighbours(b):
            if q not in region:
                continue
            nxt = (tuple(b if c == q else c for c in cells), q)
            if nxt in parent:
                continue
            parent[nxt] = state
            if done(*nxt):
                path = []
                while nxt != start:
                    path.append(nxt[1])
                    nxt = parent[nxt]
                return path[::-1]
            queue.append(nxt)
    return None


def _walk(grid: list[int], path: list[int], out: list[int]) -> None:
    b = grid.index(0)
    for q in path:
        grid[b], grid[q] = grid[q], 0
        b = q
    out.extend(path)


def _place(board, grid, free, tracked, targets, window, out):
    """Bring `tracked` tiles onto `targets` (cells), moving only inside `free`; with a window, first
    bring each tile (then the blank) into it and search the final arrangement inside it."""
    if window is not None:
        kept = set()
        for t in tracked:
            path = _search(board, grid, free - kept, [t], lambda cells, b: cells[0] in window)
            if path is None:
                break
            _walk(grid, path, out)
            kept.add(grid.index(t))
        else:
            path = _search(board, grid, free - kept, [], lambda cells, b: b in window)
            if path is not None:
                _walk(grid, path, out)
                path = _search(board, grid, window, tracked, lambda cells, b: list(cells) == targets)
                if path is not None:
                    _walk(grid, path, out)
                    return
    path = _search(board, grid, free, tracked, lambda cells, b: list(cells) == targets)
    if path is None:
        raise AssertionError("sliding: a constructive step found no way (unreachable state?)")
    _walk(grid, path, out)


def solve_cells(board: Board, tiles) -> list[int]:
    """Cells the blank visits (after its start) to reach the goal 0 1 2 ... (blank first)."""
    R, C, N = board.rows, board.cols, board.cells
    # Half a turn: cell p -> N-1-p. Tile t belongs on N-1-t there; call it N-t, so that tile k+1
    # belongs on cell k and the blank on the last cell.
    grid = [N - tiles[N - 1 - q] if tiles[N - 1 - q] else 0 for q in range(N)]
    tile_at = {cell: cell + 1 for cell in range(N - 1)}
    free = set(range(N))
    out: list[int] = []
    for r in range(R - 2):
        for c in range(C - 2):
            cell = r * C + c
            _place(board, grid, free, [tile_at[cell]], [cell], None, out)
            free.discard(cell)
        a, b = r * C + C - 2, r * C + C - 1
        window = {x for x in free if x // C <= r + 2}
        _place(board, grid, free, [tile_at[a], tile_at[b]], [a, b], window, out)
        free -= {a, b}
    for c in range(C - 2):
        a, b = (R - 2) * C + c, (R - 1) * C + c
        window = {x for x in free if x % C <= c + 2}
        _place(board, grid, free, [tile_at[a], tile_at[b]], [a, b], window, out)
        free -= {a, b}
    last = [(R - 2) * C + C - 2, (R - 2) * C + C - 1, (R - 1) * C + C - 2]
    path = _search(board, grid, free, [tile_at[x] for x in last],
                   lambda cells, b: list(cells) == last and b == N - 1)
    if path is None:
        raise AssertionError("sliding: the last block has no solution (unreachable state?)")
    _walk(grid, path, out)
    return [N - 1 - p for p in out]
