"""Assembling catalog puzzles as native-format definitions (`format: puzzlehub/1`) as plain dicts."""

from __future__ import annotations

import colorsys
from typing import Mapping, Sequence

from solver import perm
from solver.perm import Perm

Colour = tuple[str, str]  # (name, hex)


def move(name: str, p: Perm) -> dict:
    return {"name": name, "cycles": perm.cycles(p)}


def turn_and_inverse(name: str, p: Perm) -> list[dict]:
    """A turn and its inverse, named with a prime (`U`, `U'`)."""
    return [move(name, p), move(name + "'", perm.inverse(p))]


def guarded_move(name: str, cases: Sequence[tuple[Mapping[int, str], Perm]]) -> dict:
    """A move with one case per guard; `cases` are (when, permutation) pairs in order of trial."""
    return {
        "name": name,
        "cases": [{"when": dict(when), "cycles": perm.cycles(p)} for when, p in cases],
    }


def state(symbols: Sequence[str]):
    """A state as the format writes it: a string when every colour is one character, else a list."""
    symbols = list(symbols)
    return "".join(symbols) if all(len(s) == 1 for s in symbols) else symbols


def definition(
    *,
    name: str,
    description: str,
    goal: Sequence[str],
    moves: Sequence[dict],
    colours: Mapping[str, Colour],
    cells: Sequence,
    shape: str = "square",
    symmetries: Sequence[dict] = (),
    geometry: dict | None = None,
) -> dict:
    """One native definition. `cells` holds per sticker [x, y] or [x, y, shape] (the layout)."""
    data = {
        "format": "puzzlehub/1",
        "name": name,
        "description": description,
        "stickers": len(goal),
        "colors": {symbol: {"name": label, "hex": hex_} for symbol, (label, hex_) in colours.items()},
        "moves": list(moves),
        "goal": state(goal),
        "layout": {"shape": shape, "cells": [list(c) for c in cells]},
    }
    if symmetries:
        data["symmetries"] = list(symmetries)
    if geometry:
        data["geometry"] = geometry
    return data


def grid_cells(rows: int, cols: int) -> list[tuple[int, int]]:
    """The layout of a puzzle with one sticker per cell of a rows x cols grid, read row by row."""
    return [(c, r) for r in range(rows) for c in range(cols)]


def hsv_hex(hue: float, saturation: float, value: float) -> str:
    """A hex colour from hue (0..1 around the wheel), saturation and value (0..1)."""
    r, g, b = colorsys.hsv_to_rgb(hue % 1.0, saturation, value)
    return "#{:02x}{:02x}{:02x}".format(round(r * 255), round(g * 255), round(b * 255))
