"""Drawing a state as text for the terminal, from the definition's layout when it has one."""

from __future__ import annotations

from solver.definition.model import Definition


def draw_text(defn: Definition, state) -> str:
    if defn.layout is None:
        return " ".join(state) if not defn.single_char_colours else "".join(state)
    cells = [(c[0], c[1], state[i]) for i, c in enumerate(defn.layout.cells) if c is not None]
    # Distinct coordinates become columns and rows in order, so any unit or offset draws the same grid.
    columns = {x: k for k, x in enumerate(sorted({x for x, _, _ in cells}))}
    rows = {y: k for k, y in enumerate(sorted({y for _, y, _ in cells}))}
    width = max(len(colour) for _, _, colour in cells)
    grid = [[" " * width] * len(columns) for _ in rows]
    for x, y, colour in cells:
        grid[rows[y]][columns[x]] = colour.rjust(width)
    return "\n".join(" ".join(row).rstrip() for row in grid)
