"""The puzzle player's server side: what the browser needs to turn any definition, and the play state
a permalink stands for.

`player_model` is the definition reduced to what static/web/player.js draws and turns: cells (the
layout, else a grid), the site's colours, each move's cases as cycles with their guards, moves
grouped for buttons (R R' R2). `play_state` reads a permalink's `setup` and `alg` in alg notation;
errors name the field and the column.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict

from django.core.exceptions import ValidationError
from django.urls import reverse

from puzzlehub.repos.services import load_definition
from puzzlehub.web.colours import blank_symbols, colour_map
from puzzlehub.web.drawing import sticker_cells
from solver import api as solver_api
from solver import perm
from solver.definition import geometry
from solver.errors import PuzzleError

MAX_PERMALINK_CHARS = 20_000  # setup + alg text in a URL; longer is refused, not parsed
SCRAMBLE_MOVES = (25, 400)    # random moves: at least, at most (more for puzzles with more stickers)


def _family(name: str) -> str:
    """The button group of a move: its name without a trailing turn amount or prime (R, R', R2 -> R)."""
    return re.sub(r"[0-9]*'?$", "", name) or name


def _groups(defn) -> list[list[str]]:
    groups: dict[str, list[str]] = {}
    for name in defn.move_names:
        groups.setdefault(_family(name), []).append(name)
    return list(groups.values())


_MODELS: OrderedDict[tuple, str] = OrderedDict()  # (revision, presentation found) -> model JSON, most recent last
MODELS_KEPT = 32


def player_model(defn) -> dict:
    colours = colour_map(defn)
    return {
        "name": defn.name,
        "stickers": defn.stickers,
        "goal": list(defn.goal),
        "colours": colours,
        "blanks": sorted(blank_symbols(defn)),
        "tiles": len(set(defn.goal)) == defn.stickers,
        "cells": sticker_cells(defn),  # (x, y, shape) tuples: arrays in the model's JSON
        "moves": [
            {"name": m.name, "cases": [{"cycles": perm.cycles(c.perm), "guard": [list(g) for g in c.guard]}
                                       for c in m.cases]}
            for m in defn.moves
        ],
        "groups": _groups(defn),
        "inverses": {m.name: defn.inverse_name(m.name) for m in defn.moves if not m.guarded},
        "geometry": geometry.data(defn.geometry) if defn.geometry else None,
    }


def revision_definition(revision):
    """The revision's definition as it is drawn: with the layout and geometry borrowed from a
    catalog puzzle when it has none of its own and a worker found one (Revision.presentation)."""
    return solver_api.with_presentation(load_definition(revision.definition), revision.presentation)


def model_json(revision) -> str:
    """The player model of a revision as JSON text, built once per revision and process (not per
    content hash: layout and colours are outside it), again once a borrowed drawing arrives."""
    key = (revision.pk, revision.presentation is not None)
    if key in _MODELS:
        _MODELS.move_to_end(key)
        return _MODELS[key]
    text = json.dumps(player_model(revision_definition(revision)), separators=(",", ":"))
    _MODELS[key] = text
    if len(_MODELS) > MODELS_KEPT:
        _MODELS.popitem(last=False)
    return text


def _moves(defn, field: str, text: str) -> list[str]:
    try:
        return solver_api.parse_moves(defn, text)
    except PuzzleError as exc:  # the notation's errors begin "alg: "; the field named is `field`
        raise ValidationError({field: str(exc).removeprefix("alg: ")}) from None


def _start(defn, state: str, goal: str):
    """A permalink's partial goal (`?` where a sticker does not matter) and the state its moves start
    from, as the player shows them: with a partial goal every piece the goal does not look at is `?`
    (the projected puzzle, solver.partial), so the player turns and solves the smaller puzzle."""
    projection = None
    if goal:
        try:
            projection = solver_api.partial_goal(defn, solver_api.parse_goal(defn, goal))
        except PuzzleError as exc:
            raise ValidationError({"goal": str(exc).removeprefix("goal: ")}) from None
    if not state:
        return (projection.defn.goal if projection else defn.goal), projection
    try:
        start = solver_api.parse_state(defn, state, wildcard=solver_api.WILDCARD if projection else None)
        return (projection.state(start) if projection else start), projection
    except PuzzleError as exc:
        raise ValidationError({"state": str(exc).removeprefix("state: ")}) from None


def play_state(defn, *, setup: str = "", alg: str = "", state: str = "", goal: str = "") -> dict:
    """The expanded setup and alg of a permalink and the states they lead to from its start state
    (`state`, else the goal) towards its goal (`goal`, partial, else the puzzle's)."""
    if len(setup) + len(alg) + len(state) + len(goal) > MAX_PERMALINK_CHARS:
        raise ValidationError({"alg": f"setup, alg, state and goal together are longer than {MAX_PERMALINK_CHARS:,} characters"})
    origin, projection = _start(defn, state, goal)
    setup_moves = _moves(defn, "setup", setup)
    alg_moves = _moves(defn, "alg", alg)
    try:
        start = solver_api.apply_moves(defn, setup_moves, origin)
    except PuzzleError as exc:
        raise ValidationError({"setup": str(exc)}) from None
    try:
        end = solver_api.apply_moves(defn, alg_moves, start)
    except PuzzleError as exc:
        raise ValidationError({"alg": str(exc)}) from None
    return {"setup": setup_moves, "alg": alg_moves, "origin": list(origin), "start": list(start), "end": list(end),
            "goal": list(projection.defn.goal) if projection else None,
            "solved": solver_api.verify(projection.defn if projection else defn, end, [])}


def scramble(defn, seed=None) -> dict:
    """A scramble from the server's scrambler: random moves, more for puzzles with more stickers,
    so that it stays cheap for any size (a uniform random state needs the group, which can take
    seconds on big puzzles)."""
    low, high = SCRAMBLE_MOVES
    moves = max(low, min(high, defn.stickers // 6))
    result = solver_api.scramble(defn, moves=moves, seed=seed)
    return {"moves": result["moves"], "state": list(result["state"])}


def _script_json(data) -> str:
    """JSON safe inside <script type="application/json"> (user text may hold "</script>")."""
    text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def player_context(request, repository, revision, *, key: str = "player", setup=(), alg=(), cursor=None,
                   start=None, goal=None, readonly: bool = False, permalink: bool = False, error: str = "") -> dict:
    """What web/_player.html needs to mount one player; `key` keeps element ids apart when a page
    has several."""
    owner, name = repository.owner.username, repository.name
    alg = list(alg)
    context = {
        "key": key,
        "model": _script_json(model_json(revision)),
        "initial": _script_json({"start": list(start) if start else None, "goal": list(goal) if goal else None,
                                 "setup": list(setup), "alg": alg,
                                 "cursor": len(alg) if cursor is None else cursor, "error": error}),
        "readonly": readonly,
        "permalink": permalink,
        "scramble_url": "" if readonly else reverse("api-play-scramble", kwargs={"owner": owner, "name": name})
        + f"?rev={revision.number}",
        "solve_url": reverse("api-solves", kwargs={"owner": owner, "name": name})
        if request.user.is_authenticated and not readonly else "",
        "play_url": reverse("play", kwargs={"owner": owner, "name": name}) + f"?rev={revision.number}",
    }
    return context
