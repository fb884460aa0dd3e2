"""Draw a puzzle state as SVG from its definition's layout and colours.

Each sticker is drawn at its layout cell (x, y in cell units, y downwards) in its shape; a puzzle
without a layout is drawn as a grid in sticker order. Colours come from the definition's `colors`
hex values, else the site's one mapping (colours.py); a blank is drawn as an empty cell. Tile
puzzles (every sticker a colour of its own: sliding puzzles, Loopover) also carry the tile's
symbol, since there the symbol is what a player reads.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from django.utils.safestring import SafeString, mark_safe

from puzzlehub.web.colours import blank_symbols, colour_map

CELL = 30      # pixels per layout unit
GAP = 0.08     # fraction of a cell left empty around each sticker


def sticker_cells(defn) -> list[tuple[float, float, str] | None]:
    """Where each sticker is drawn (x, y, shape), None for a sticker not drawn."""
    if defn.layout is not None:
        return list(defn.layout.cells)
    columns = max(1, math.ceil(math.sqrt(defn.stickers)))
    return [(i % columns, i // columns, "square") for i in range(defn.stickers)]


def _shape(shape: str, x: float, y: float, fill: str, title: str) -> str:
    inset = GAP * CELL
    left, top, size = x * CELL + inset, y * CELL + inset, CELL - 2 * inset
    right, bottom, cx, cy = left + size, top + size, left + size / 2, top + size / 2
    attrs = f'fill="{fill}" stroke="#1b1f24" stroke-width="1"'
    if shape == "circle":
        body = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size / 2:.1f}" {attrs}>'
        end = "</circle>"
    elif shape in ("triangle-up", "triangle-down", "diamond"):
        points = {
            "triangle-up": [(cx, top), (right, bottom), (left, bottom)],
            "triangle-down": [(left, top), (right, top), (cx, bottom)],
            "diamond": [(cx, top), (right, cy), (cx, bottom), (left, cy)],
        }[shape]
        text = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        body, end = f'<polygon points="{text}" {attrs}>', "</polygon>"
    else:
        body = f'<rect x="{left:.1f}" y="{top:.1f}" width="{size:.1f}" height="{size:.1f}" rx="3" {attrs}>'
        end = "</rect>"
    return f"{body}<title>{escape(title)}</title>{end}"


def _label(x: float, y: float, symbol: str) -> str:
    size = CELL * (0.5 if len(symbol) <= 2 else 0.34)
    return (f'<text x="{(x + 0.5) * CELL:.1f}" y="{(y + 0.5) * CELL:.1f}" font-size="{size:.1f}" '
            f'text-anchor="middle" dominant-baseline="central" fill="#111" stroke="#fff" stroke-width="2" '
            f'paint-order="stroke" font-family="sans-serif" pointer-events="none">{escape(symbol)}</text>')


def _arrow(ax: float, ay: float, bx: float, by: float, turned: bool = False) -> str:
    """An arrow between two cell centres, shortened at both ends and moved a little to its right,
    so that the two arrows of a swap run side by side."""
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    side = 0.12 * CELL
    ax, ay = ax + ux * 0.22 * CELL - uy * side, ay + uy * 0.22 * CELL + ux * side
    bx, by = bx - ux * 0.22 * CELL - uy * side, by - uy * 0.22 * CELL + ux * side
    head, wing = 0.3 * CELL, 0.14 * CELL
    tip = [(bx, by), (bx - ux * head - uy * wing, by - uy * head + ux * wing),
           (bx - ux * head + uy * wing, by - uy * head - ux * wing)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in tip)
    dash = ' stroke-dasharray="4 3"' if turned else ""  # the piece arrives turned
    return (f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx - ux * head * 0.8:.1f}" y2="{by - uy * head * 0.8:.1f}" '
            f'stroke="#111" stroke-width="2.2" stroke-linecap="round"{dash}/><polygon points="{points}" fill="#111"/>')


def _twist_mark(x: float, y: float) -> str:
    r = 0.3 * CELL
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="none" stroke="#111" stroke-width="2" '
            f'stroke-dasharray="{1.5 * r:.1f} {0.35 * r:.1f}"/>'
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{CELL * 0.42:.1f}" text-anchor="middle" '
            f'dominant-baseline="central" fill="#111" font-family="sans-serif">↻</text>')


def puzzle_svg(defn, state=None, *, label: str = "", extra_colours: dict | None = None,
               arrows: list | None = None) -> SafeString:
    """An <svg> element drawing `state` (default: the first goal); every sticker has a tooltip
    with its position and colour. `extra_colours` adds symbols the goal does not have (the
    wildcard `?` of a partial state). `arrows` ({from, to, twist} over stickers, see
    solver.discover.variants.arrows; dashed when the piece arrives turned) are drawn over the stickers: an algorithm's effect."""
    state = tuple(state) if state is not None else defn.goal
    colours = dict(colour_map(defn), **(extra_colours or {}))
    cells = sticker_cells(defn)
    drawn = [(i, c) for i, c in enumerate(cells) if c is not None]
    if not drawn:
        return mark_safe('<p class="muted">This puzzle has no drawn stickers.</p>')
    min_x = min(c[0] for _, c in drawn)
    min_y = min(c[1] for _, c in drawn)
    width = (max(c[0] for _, c in drawn) - min_x + 1) * CELL
    height = (max(c[1] for _, c in drawn) - min_y + 1) * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="puzzle" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label={quoteattr(label or defn.name)}>'
    ]
    tiles = len(set(defn.goal)) == defn.stickers
    blanks = blank_symbols(defn)
    for i, (x, y, shape) in drawn:
        symbol = state[i]
        fill = "none" if symbol in blanks else colours[symbol]
        parts.append(_shape(shape, x - min_x, y - min_y, fill, f"sticker {i}: {symbol}"))
        if tiles and symbol not in blanks:
            parts.append(_label(x - min_x, y - min_y, symbol))
    if arrows:
        def centre(i):
            return (cells[i][0] - min_x + 0.5) * CELL, (cells[i][1] - min_y + 0.5) * CELL

        parts.append('<g class="effect-arrows" aria-hidden="true">')
        for a in arrows:
            if a["twist"]:
                parts.append(_twist_mark(*centre(a["from"])))
            else:
                parts.append(_arrow(*centre(a["from"]), *centre(a["to"]), a.get("turned", False)))
        parts.append("</g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))
