"""KPuzzle JSON (cubing.js): reading and writing (docs/interop.md).

A KPuzzle definition has `name`, `orbits` (orbitName, numPieces, numOrientations), `defaultPattern`
(per orbit: `pieces`, `orientation`, optional `orientationMod`), `moves` (per move, per orbit:
`permutation` and `orientationDelta`) and optional `derivedMoves` (name -> a move sequence). cubing.js
applies a move passively: slot i takes the piece of slot permutation[i], whose orientation grows by
orientationDelta[i] (combineTransformationData in cubing.js's kpuzzle); orientationMod m in a pattern
means the orientation counts modulo m (1: not at all). Only base moves are listed; we name their
powers as twsearch does (`orbit_model.power_names`).

Our exports add a `puzzlehub` key (sticker numbers, goal colours, move names) that cubing.js does not
read and that makes a round trip give back the very same definition.
"""

from __future__ import annotations

import json
import re

from solver.definition.orbit_model import MAX_ORIENTATIONS, Orbit, OrbitPuzzle, from_definition
from solver.errors import DefinitionError

SUFFIXES = (".kpuzzle", ".kpuzzle.json")
KNOWN = {"name", "orbits", "defaultPattern", "moves", "derivedMoves", "puzzlehub"}
MAX_ALG = 10_000  # moves in a derived move, repeats expanded
ALG_TOKEN = re.compile(r"\(|\)(\d*)('?)|[^\s()]+")


def looks_like(data) -> bool:
    return isinstance(data, dict) and "orbits" in data and "format" not in data


def _kind(value) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), type(value).__name__)


def _get(data: dict, key: str, types, place: str, what: str):
    if key not in data:
        raise DefinitionError(f"{place}{key}: missing")
    value = data[key]
    if not isinstance(value, types) or isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise DefinitionError(f"{place}{key}: expected {what}, got {_kind(value)}")
    return value


def _ints(data: dict, key: str, place: str, count: int, top: int) -> list[int]:
    values = _get(data, key, list, place, f"an array of {count} whole numbers")
    if len(values) != count:
        raise DefinitionError(f"{place}{key}: has {len(values)} entries, expected {count}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < top:
            raise DefinitionError(f"{place}{key}[{i}]: expected a whole number 0..{top - 1}, got {json.dumps(v)[:20]}")
    return values


def read(data) -> OrbitPuzzle:
    if not isinstance(data, dict):
        raise DefinitionError(f"KPuzzle: expected an object, got {_kind(data)}")
    for key in data:
        if key not in KNOWN and not str(key).startswith("experimental"):
            raise DefinitionError(f"{key}: unknown key; a KPuzzle has {', '.join(sorted(KNOWN - {'puzzlehub'}))}")
    name = data.get("name", "imported")
    if not isinstance(name, str):
        raise DefinitionError(f"name: expected a string, got {_kind(name)}")
    orbits = _orbits(data)
    pattern = _get(data, "defaultPattern", dict, "", "an object of orbits")
    solved = {}
    for orbit in orbits.values():
        place = f"defaultPattern.{orbit.name}."
        entry = _get(pattern, orbit.name, dict, "defaultPattern.", "an object with pieces and orientation")
        pieces = _ints(entry, "pieces", place, orbit.pieces, orbit.pieces)
        orient = _ints(entry, "orientation", place, orbit.pieces, orbit.orientations) if "orientation" in entry \
            else [0] * orbit.pieces
        mods = [orbit.orientations] * orbit.pieces
        if "orientationMod" in entry:
            mods = _ints(entry, "orientationMod", place, orbit.pieces, orbit.orientations + 1)
            for i, m in enumerate(mods):
                if m == 0:
                    mods[i] = orbit.orientations
                elif orbit.orientations % m:
                    raise DefinitionError(f"{place}orientationMod[{i}]: {m} does not divide {orbit.orientations}")
        solved[orbit.name] = (pieces, [o % m for o, m in zip(orient, mods)], mods)
    raw_moves = _get(data, "moves", dict, "", "an object of moves")
    if not raw_moves:
        raise DefinitionError("moves: is empty")
    moves = {name: _move(orbits, str(name), spec) for name, spec in raw_moves.items()}
    derived = {}
    raw_derived = data.get("derivedMoves") or {}
    if not isinstance(raw_derived, dict):
        raise DefinitionError(f"derivedMoves: expected an object, got {_kind(raw_derived)}")
    for dname, alg in raw_derived.items():
        if not isinstance(alg, str):
            raise DefinitionError(f"derivedMoves.{dname}: expected a move sequence as a string, got {_kind(alg)}")
        derived[str(dname)] = _alg(alg, set(moves), f"derivedMoves.{dname}")
    meta = data.get("puzzlehub") or {}
    if not isinstance(meta, dict):
        raise DefinitionError(f"puzzlehub: expected an object, got {_kind(meta)}")
    for key in ("stickers", "goal", "moves"):
        if key in meta and not isinstance(meta[key], list):
            raise DefinitionError(f"puzzlehub.{key}: expected an array, got {_kind(meta[key])}")
    if any(isinstance(x, bool) or not isinstance(x, int) for x in meta.get("stickers", [])):
        raise DefinitionError("puzzlehub.stickers: expected whole numbers")
    return OrbitPuzzle(
        name=name, orbits=list(orbits.values()), solved=solved, moves=moves, derived=derived,
        stickers=meta.get("stickers"), goal=[str(c) for c in meta["goal"]] if "goal" in meta else None,
        move_names=[str(m) for m in meta["moves"]] if "moves" in meta else None,
    )


def _orbits(data: dict) -> dict[str, Orbit]:
    raw = data.get("orbits")
    if isinstance(raw, dict):  # the older form: {name: {numPieces, numOrientations}}
        raw = [{"orbitName": k, **v} if isinstance(v, dict) else v for k, v in raw.items()]
    if not isinstance(raw, list) or not raw:
        raise DefinitionError(f"orbits: expected a non-empty array of orbits, got {_kind(raw)}")
    orbits = {}
    for i, entry in enumerate(raw):
        place = f"orbits[{i}]."
        if not isinstance(entry, dict):
            raise DefinitionError(f"orbits[{i}]: expected an object, got {_kind(entry)}")
        name = _get(entry, "orbitName", str, place, "a string")
        count = _get(entry, "numPieces", int, place, "a whole number")
        twists = _get(entry, "numOrientations", int, place, "a whole number")
        if not 1 <= count <= 10_000 or not 1 <= twists <= MAX_ORIENTATIONS:
            raise DefinitionError(f"orbits[{i}]: 1 to 10000 pieces and 1 to {MAX_ORIENTATIONS} orientations")
        if name in orbits:
            raise DefinitionError(f"orbits[{i}].orbitName: {name} given twice")
        orbits[name] = Orbit(name, count, twists)
    return orbits


def _move(orbits: dict[str, Orbit], name: str, spec) -> dict:
    if not isinstance(spec, dict):
        raise DefinitionError(f"moves.{name}: expected an object of orbits, got {_kind(spec)}")
    out = {}
    for oname, entry in spec.items():
        place = f"moves.{name}.{oname}"
        if oname not in orbits:
            raise DefinitionError(f"{place}: no such orbit")
        if not isinstance(entry, dict):
            raise DefinitionError(f"{place}: expected an object with permutation and orientationDelta")
        orbit = orbits[oname]
        source = _ints(entry, "permutation", place + ".", orbit.pieces, orbit.pieces)
        if len(set(source)) != orbit.pieces:
            raise DefinitionError(f"{place}.permutation: not a permutation (a number appears twice)")
        key = "orientationDelta" if "orientationDelta" in entry or "orientation" not in entry else "orientation"
        delta = _ints(entry, key, place + ".", orbit.pieces, orbit.orientations) if key in entry \
            else [0] * orbit.pieces
        out[oname] = (source, delta)
    return out


def _alg(text: str, known: set[str], place: str) -> list[tuple[str, int]]:
    """A move sequence: names with an optional amount and ', and ( ... )n groups."""
    stack: list[list[tuple[str, int]]] = [[]]
    for m in ALG_TOKEN.finditer(text):
        token = m.group(0)
        if token == "(":
            stack.append([])
        elif token.startswith(")"):
            if len(stack) == 1:
                raise DefinitionError(f"{place}: a ) without its (")
            group = stack.pop()
            amount = int(m.group(1) or 1) * (-1 if m.group(2) else 1)
            inverse = [(n, -a) for n, a in reversed(group)]
            if len(group) * abs(amount) + len(stack[-1]) > MAX_ALG:
                raise DefinitionError(f"{place}: longer than {MAX_ALG:,} moves")
            stack[-1].extend((group if amount > 0 else inverse) * abs(amount))
        else:
            stack[-1].append(_alg_move(token, known, place))
    if len(stack) > 1:
        raise DefinitionError(f"{place}: a ( is not closed")
    return stack[0]


def _alg_move(token: str, known: set[str], place: str) -> tuple[str, int]:
    if token in known:
        return token, 1
    found = re.fullmatch(r"(.+?)(\d*)('?)", token)
    if found is None or found.group(1) not in known:
        raise DefinitionError(f"{place}: {token[:20]!r} is not one of the moves")
    amount = int(found.group(2) or 1)
    return found.group(1), -amount if found.group(3) else amount


# -- writing ------------------------------------------------------------------------------------


def write(defn) -> str:
    puzzle = from_definition(defn, "kpuzzle")
    pattern = {}
    for o in puzzle.orbits:
        ids, orient, mods = puzzle.solved[o.name]
        entry = {"pieces": ids, "orientation": orient}
        if any(m != o.orientations for m in mods):
            entry["orientationMod"] = [0 if m == o.orientations else m for m in mods]
        pattern[o.name] = entry
    data = {
        "name": defn.name,
        "orbits": [{"orbitName": o.name, "numPieces": o.pieces, "numOrientations": o.orientations}
                   for o in puzzle.orbits],
        "defaultPattern": pattern,
        "moves": {name: {o: {"permutation": source, "orientationDelta": delta} for o, (source, delta) in move.items()}
                  for name, move in puzzle.moves.items()},
        "puzzlehub": {"stickers": puzzle.stickers, "goal": puzzle.goal, "moves": puzzle.move_names},
    }
    return json.dumps(data, separators=(",", ":")) + "\n"
