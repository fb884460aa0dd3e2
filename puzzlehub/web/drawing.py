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

import numpy as np
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
    cx, cy = left + size / 2, top + size / 2
    attrs = f'fill="{fill}" stroke="#1b1f24" stroke-width="1"'
    if shape == "circle":
        body = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size / 2:.1f}" {attrs}>'
        end = "</circle>"
    elif shape in ("triangle-up", "triangle-down", "diamond"):
        text = " ".join(f"{px:.1f},{py:.1f}" for px, py in _corners(shape, left, top, size))
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


# dark colours that stand out on every sticker colour (under a white halo): one per cycle of places
CYCLE_COLOURS = ["#111111", "#c2185b", "#1f4fd1", "#7b1fa2", "#b35900", "#00796b", "#5d4037", "#455a64"]


def _arrow(ax: float, ay: float, bx: float, by: float, turned: bool = False, colour: str = "#111111") -> str:
    """An arrow between two cell centres, shortened at both ends and bowed to its right (the two
    arrows of a swap bow apart, and crossing arrows of a long cycle stay apart), with a white halo
    so that it reads over any sticker."""
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    ax, ay = ax + ux * 0.22 * CELL, ay + uy * 0.22 * CELL
    bx, by = bx - ux * 0.22 * CELL, by - uy * 0.22 * CELL
    bow = min(0.18 * length, 0.9 * CELL)  # the control point's distance to the right of the chord
    cx, cy = (ax + bx) / 2 - uy * bow, (ay + by) / 2 + ux * bow
    # the head points along the curve's tangent at its end (from the control point)
    tx, ty = bx - cx, by - cy
    tangent = math.hypot(tx, ty)
    tx, ty = tx / tangent, ty / tangent
    head, wing = 0.3 * CELL, 0.14 * CELL
    tip = [(bx, by), (bx - tx * head - ty * wing, by - ty * head + tx * wing),
           (bx - tx * head + ty * wing, by - ty * head - tx * wing)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in tip)
    ex, ey = bx - tx * head * 0.8, by - ty * head * 0.8
    d = f"M{ax:.1f},{ay:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}"
    dash = ' stroke-dasharray="4 3"' if turned else ""  # the piece arrives turned
    return (f'<path d="{d}" fill="none" stroke="#fff" stroke-width="4.6" stroke-linecap="round" opacity=".8"/>'
            f'<path class="arrow" d="{d}" fill="none" stroke="{colour}" stroke-width="2.2" stroke-linecap="round"{dash}/>'
            f'<polygon points="{points}" fill="{colour}" stroke="#fff" stroke-width=".8"/>')


def _twist_mark(x: float, y: float, colour: str = "#111111") -> str:
    r = 0.3 * CELL
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#fff" fill-opacity=".6" stroke="{colour}" stroke-width="2" '
            f'stroke-dasharray="{1.5 * r:.1f} {0.35 * r:.1f}"/>'
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{CELL * 0.42:.1f}" text-anchor="middle" '
            f'dominant-baseline="central" fill="{colour}" font-family="sans-serif">↻</text>')


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
            colour = CYCLE_COLOURS[a.get("cycle", 0) % len(CYCLE_COLOURS)]
            if a["twist"]:
                parts.append(_twist_mark(*centre(a["from"]), colour))
            else:
                parts.append(_arrow(*centre(a["from"]), *centre(a["to"]), a.get("turned", False), colour))
        parts.append("</g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))


# --- thumbnails: a small picture of the solved puzzle for cards and lists -----------------------------
THUMB_VIEW = (-35.0, 28.0)  # yaw and pitch in degrees: the player's opening 3D view (static/web/player.js)


def _rotation(axis: int, degrees: float):
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    if axis == 0:
        return ((1, 0, 0), (0, c, -s), (0, s, c))
    return ((c, 0, s), (0, 1, 0), (-s, 0, c))


def _view_matrix():
    yaw, pitch = THUMB_VIEW
    a, b = _rotation(0, pitch), _rotation(1, yaw)
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def _projected(geometry) -> list:
    """(sticker, screen points) of the polygons facing the viewer: the player's view, orthographic,
    y downwards; a polygon whose points turn clockwise on screen faces away."""
    m = _view_matrix()
    out = []
    for i, polygon in enumerate(geometry.stickers):
        if polygon is None:
            continue
        points = [(sum(m[0][k] * p[k] for k in range(3)), -sum(m[1][k] * p[k] for k in range(3))) for p in polygon]
        area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))
        if area < 0:
            out.append((i, points))
    return out


def _closest(points) -> float:
    """The smallest distance between two distinct points: the size a cell can take without
    overlapping its neighbour, in circle layouts too. Vectorised over a grid of buckets, since a
    definition may have ten thousand stickers and this runs in the request."""
    pts = np.unique(np.round(np.asarray(points, dtype=float), 9), axis=0)
    if len(pts) < 2 or not np.isfinite(pts).all():
        return 1.0
    # an upper bound: the nearest of the neighbours in x-then-y and in y-then-x order
    bound = min(float(np.hypot(*np.diff(pts[np.lexsort(keys)], axis=0).T).min())
                for keys in ((pts[:, 1], pts[:, 0]), (pts[:, 0], pts[:, 1])))
    # any closer pair lies in one bucket of that size or in two neighbouring ones
    buckets = np.floor((pts - pts.min(axis=0)) / bound)
    columns, rows = np.unique(buckets[:, 0]), np.unique(buckets[:, 1])

    def bucket_key(dx, dy):  # small integers however far apart the points; -1: no such bucket
        column, row = _rank_in(columns, buckets[:, 0] + dx), _rank_in(rows, buckets[:, 1] + dy)
        return np.where((column >= 0) & (row >= 0), column * len(rows) + row, -1)

    key = bucket_key(0, 0)
    order = np.argsort(key)
    pts, buckets, key, best = pts[order], buckets[order], key[order], bound
    for dx, dy in ((0, 0), (1, -1), (1, 0), (1, 1), (0, 1)):
        target = bucket_key(dx, dy)
        lo, hi = np.searchsorted(key, target, "left"), np.searchsorted(key, target, "right")
        if (dx, dy) == (0, 0):
            lo = np.maximum(lo, np.arange(len(pts)) + 1)  # each pair of one bucket once
        counts = np.maximum(hi - lo, 0)
        if counts.any():
            first = np.repeat(np.arange(len(pts)), counts)
            second = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
            distance = np.hypot(*(pts[second] - pts[first]).T)
            best = float(distance.min(initial=best, where=distance > 0))  # 0: buckets beyond float precision
    return best


def _rank_in(unique, values):
    """Each value's index in the sorted array `unique`, -1 where it is not there."""
    at = np.minimum(np.searchsorted(unique, values), len(unique) - 1)
    return np.where(unique[at] == values, at, -1)


def _cell_path(shape: str, x: float, y: float, size: float) -> str:
    """A cell's outline as path data, at (x, y) its top-left corner."""
    h = size / 2
    cx, cy = x + h, y + h
    if shape == "circle":
        return f"M{cx - h:.1f} {cy:.1f}a{h:.1f} {h:.1f} 0 1 0 {size:.1f} 0a{h:.1f} {h:.1f} 0 1 0 {-size:.1f} 0"
    return "M" + "L".join(f"{px:.1f} {py:.1f}" for px, py in _corners(shape, x, y, size)) + "Z"


def _corners(shape: str, x: float, y: float, size: float) -> list[tuple[float, float]]:
    """The corners of a polygon cell (a square for any other shape), (x, y) its top-left corner."""
    cx, cy, right, bottom = x + size / 2, y + size / 2, x + size, y + size
    return {
        "triangle-up": [(cx, y), (right, bottom), (x, bottom)],
        "triangle-down": [(x, y), (right, y), (cx, bottom)],
        "diamond": [(cx, y), (right, cy), (cx, bottom), (x, cy)],
    }.get(shape, [(x, y), (right, y), (right, bottom), (x, bottom)])


def thumbnail_svg(defn) -> str:
    """The solved puzzle as a small SVG: in 3D from the player's opening view when the definition
    has geometry, else its layout (or grid). One path per colour, no titles, so that even a
    2,400-sticker cube stays a few tens of kilobytes; stored with the revision, since loading a big
    definition takes seconds."""
    colours, blanks = colour_map(defn), blank_symbols(defn)
    paths: dict[str, list[str]] = {}
    if defn.geometry is not None:
        faces = _projected(defn.geometry)
        if not faces:
            return ""
        xs = [x for _, pts in faces for x, _ in pts]
        ys = [y for _, pts in faces for _, y in pts]
        scale = 100 / max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
        x0, y0 = min(xs), min(ys)
        for i, points in faces:
            d = "M" + "L".join(f"{(x - x0) * scale:.1f} {(y - y0) * scale:.1f}" for x, y in points) + "Z"
            paths.setdefault(defn.goal[i], []).append(d)
        width, height = (max(xs) - x0) * scale, (max(ys) - y0) * scale
        stroke = 0.6
    else:
        cells = [(i, c) for i, c in enumerate(sticker_cells(defn)) if c is not None]
        if not cells:
            return ""
        unit = _closest([(c[0], c[1]) for _, c in cells])  # a cell's size in layout units
        x0, y0 = min(c[0] for _, c in cells), min(c[1] for _, c in cells)
        width = max(c[0] for _, c in cells) - x0 + unit
        height = max(c[1] for _, c in cells) - y0 + unit
        scale = 100 / max(width, height)
        size, inset = unit * scale * (1 - 2 * GAP), unit * scale * GAP
        for i, (x, y, shape) in cells:
            paths.setdefault(defn.goal[i], []).append(
                _cell_path(shape, (x - x0) * scale + inset, (y - y0) * scale + inset, size))
        width, height, stroke = width * scale, height * scale, min(1.0, size / 8)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="thumbnail" viewBox="-1 -1 {width + 2:.0f} {height + 2:.0f}" '
             f'role="img" aria-label={quoteattr(defn.name)}>']
    for symbol, ds in paths.items():
        fill = "none" if symbol in blanks else colours[symbol]
        parts.append(f'<path fill="{fill}" stroke="#1b1f24" stroke-width="{stroke:.2f}" stroke-linejoin="round" '
                     f'd="{"".join(ds)}"/>')
    parts.append("</svg>")
    return "".join(parts)


def overlapping_cells(defn, limit: int = 5) -> list[str]:
    """Layout cells that are drawn at the same place (one sticker would hide the other), named as in
    the definition; at most `limit`."""
    if defn.layout is None:
        return []
    seen: dict[tuple[float, float], int] = {}
    found = []
    for i, cell in enumerate(defn.layout.cells):
        if cell is None:
            continue
        where = (round(cell[0], 6), round(cell[1], 6))
        if where in seen:
            found.append(f"layout.cells[{seen[where]}] and layout.cells[{i}] are both drawn at "
                         f"({cell[0]:g}, {cell[1]:g})")
            if len(found) == limit:
                break
        else:
            seen[where] = i
    return found
