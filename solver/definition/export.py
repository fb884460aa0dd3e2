"""Writing definitions back out: the native format (everything) and the seed format (what it can hold)."""

from __future__ import annotations

import yaml

from solver import perm
from solver.definition import geometry
from solver.definition.formats import NATIVE_FORMAT
from solver.definition.model import Definition, Move
from solver.errors import DefinitionError


def _state_out(defn: Definition, state) -> str | list[str]:
    return "".join(state) if defn.single_char_colours else list(state)


def _move_out(move: Move) -> dict:
    if not move.guarded:
        return {"name": move.name, "cycles": perm.cycles(move.perm)}
    return {
        "name": move.name,
        "cases": [{"when": {p: c for p, c in case.guard}, "cycles": perm.cycles(case.perm)} for case in move.cases],
    }


def native_data(defn: Definition) -> dict:
    base = set(defn.base_moves)
    data: dict = {"format": NATIVE_FORMAT, "name": defn.name}
    if defn.description:
        data["description"] = defn.description
    data["stickers"] = defn.stickers
    if defn.colors:
        data["colors"] = {s: ({"name": name, "hex": hx} if hx else {"name": name}) for s, name, hx in defn.colors}
    data["moves"] = [_move_out(m) for m in defn.moves if m.name in base]
    if defn.extenders:
        data["extenders"] = [{"name": e.name, "function": e.function, "params": list(e.params)} for e in defn.extenders]
    given = defn.goals[: defn.given_goals]
    if len(given) == 1:
        data["goal"] = _state_out(defn, given[0])
    else:
        data["goals"] = [_state_out(defn, g) for g in given]
    if defn.symmetries:
        data["symmetries"] = [{"name": name, "cycles": perm.cycles(p)} for name, p in defn.symmetries]
    if defn.layout:
        cells = [None if c is None else ([c[0], c[1]] if c[2] == defn.layout.shape else list(c)) for c in defn.layout.cells]
        data["layout"] = {"shape": defn.layout.shape, "cells": cells}
    if defn.geometry:
        data["geometry"] = geometry.data(defn.geometry)
    return data


def seed_data(defn: Definition) -> dict:
    if defn.guarded:
        raise DefinitionError("seed format: it has no guarded moves")
    if len(defn.goals) > 1:
        raise DefinitionError("seed format: it has one goal and no symmetries")
    reverses = {e.name: e.params[0] for e in defn.extenders if e.function == "REVERSE"}
    base_turns = [
        {"name": m.name, "value": perm.closed_array(m.perm)} for m in defn.moves
        if m.name not in reverses or reverses[m.name] in reverses
    ]
    turn_set: dict = {"baseTurns": base_turns}
    kept = [n for n, target in reverses.items() if target not in reverses]
    if kept:
        turn_set["extenders"] = [{"name": n, "function": "REVERSE", "params": [reverses[n]]} for n in kept]
    names = dict(defn.seed_names)
    return {
        "name": defn.name,
        "turnSet": turn_set,
        "colorSetName": names.get("colorSetName", defn.name),
        "representationName": names.get("representationName", defn.name),
        "goal": {"finalState": list(defn.goal)},
    }


def to_yaml(data: dict) -> str:
    # Leaf lists (cycles, cells, states) inline; everything else in block style, keys in written order.
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)
