"""The one colour mapping of the site: which fill every colour symbol of a definition gets.

Every drawing (server SVG, the player, job pages, thumbnails) asks here, so a colour is drawn the
same everywhere: the definition's own `colors` hex values first, else the usual cube colours for the
usual one-letter names, else a fixed sequence of distinct colours by the colour's index; `?` (a
sticker that does not matter, solver.partial) is grey. Colours named blank/empty/hole (the sliding
puzzles' gap) are drawn as empty cells.
"""

from __future__ import annotations

from solver.partial import WILDCARD

USUAL_COLOURS = {
    "W": "#f5f5f5", "Y": "#ffd500", "R": "#c8102e", "O": "#ff6a13", "G": "#009b48", "B": "#0046ad",
    "K": "#222222", "P": "#7b3fa0", "_": "#e4e6ea", ".": "#e4e6ea", "X": "#9aa0a6",
}
DISTINCT = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
            "#9c755f", "#bab0ac", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8"]
BLANK_NAMES = {"blank", "empty", "hole", "gap"}
WILDCARD_FILL = "#9aa0a6"  # `?`: a sticker a partial goal or a set does not look at (solver.partial)


def colour_map(defn) -> dict[str, str]:
    given = {symbol: hx for symbol, _name, hx in defn.colors if hx}
    colours = {
        symbol: given.get(symbol) or USUAL_COLOURS.get(symbol) or DISTINCT[i % len(DISTINCT)]
        for i, symbol in enumerate(defn.colours)
    }
    colours.setdefault(WILDCARD, WILDCARD_FILL)
    return colours


def blank_symbols(defn) -> set[str]:
    """Symbols drawn as an empty cell: the gap a sliding puzzle's tiles move into."""
    return {symbol for symbol, name, _hx in defn.colors if (name or "").strip().lower() in BLANK_NAMES}
