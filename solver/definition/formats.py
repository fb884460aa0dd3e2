"""Reading definitions: the seed format and the native format, into one validated model; KPuzzle
JSON and ksolve/twsearch files are recognised here too and read by their own modules (docs/interop.md).

Both formats go through the same steps: read the goal(s) to learn the sticker count and colours, read
every explicit move, resolve extenders, close the goals under the symmetries, read drawing hints.
Every error names the place (`moves[1] (R)`, `extender L'`, `goal`) and the problem.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from solver import perm
from solver.definition import geometry, safe_yaml
from solver.definition.model import Case, Definition, Extender, Layout, Move
from solver.errors import DefinitionError

MAX_STICKERS = 10_000
MAX_MOVES = 1_000
MAX_GIVEN_GOALS = 64
MAX_GOALS = 5_000  # after closing under the symmetries
MAX_COLOURS = MAX_STICKERS  # every sticker may be told apart
MAX_REPEAT = 1_000
NATIVE_FORMAT = "puzzlehub/1"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
SHAPES = ("square", "circle", "triangle-up", "triangle-down", "diamond")
HEX_RE = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
EXTENDER_FUNCTIONS = ("REVERSE", "REPEAT", "SEQUENCE")
FORMATS = ("native", "seed", "kpuzzle", "ksolve")  # what load_text reads (native and seed: YAML or JSON)


def load_file(path: str | Path, fmt: str | None = None) -> Definition:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > safe_yaml.MAX_BYTES:
            raise DefinitionError(f"{path.name}: {size:,} bytes, the limit is {safe_yaml.MAX_BYTES:,}")
        raw = path.read_bytes()
    except OSError as exc:
        raise DefinitionError(f"{path}: {exc.strerror or exc}") from None
    return load_text(raw, fmt)


def load_text(text: str | bytes, fmt: str | None = None) -> Definition:
    """A definition in any format we read; `fmt` (one of FORMATS) skips guessing it from the text."""
    from solver.definition import ksolve  # here: the interop readers build on this module

    text = safe_yaml.decode(text)
    if fmt not in (None, *FORMATS):
        raise DefinitionError(f"format: unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    if fmt == "ksolve" or fmt is None and ksolve.looks_like(text):
        return _from_orbits(ksolve.read(text))
    return load_data(safe_yaml.parse(text), fmt)


def load_data(data, fmt: str | None = None) -> Definition:
    from solver.definition import kpuzzle  # here: the interop readers build on this module

    if fmt == "kpuzzle" or fmt is None and kpuzzle.looks_like(data):
        return _from_orbits(kpuzzle.read(data))
    if fmt == "ksolve":
        raise DefinitionError("ksolve: a ksolve definition is text, not data")
    if not isinstance(data, dict):
        raise DefinitionError(f"definition: expected a mapping, got {_kind(data)}")
    if "turnSet" in data:
        return _Reader(data, seed=True).read()
    if data.get("format") == NATIVE_FORMAT or "moves" in data:
        return _Reader(data, seed=False).read()
    raise DefinitionError(
        "definition: neither the seed format (turnSet) nor the native format "
        f"(format: {NATIVE_FORMAT} with moves)"
    )


def _from_orbits(puzzle) -> Definition:
    from solver.definition.orbit_model import to_definition

    return to_definition(puzzle)


def _kind(value) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", type(None): "nothing"}.get(
        type(value), type(value).__name__
    )


def _expect(value, types, place: str, what: str):
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _as_tuple(types)):
        raise DefinitionError(f"{place}: expected {what}, got {_kind(value)}")
    return value


def _as_tuple(types):
    return types if isinstance(types, tuple) else (types,)


def _symbol(value, place: str) -> str:
    """A colour symbol: text without spaces (YAML numbers are read as their text)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise DefinitionError(f"{place}: expected a colour symbol, got {_kind(value)}")
    text = str(value)
    if not text or any(ch.isspace() for ch in text) or len(text) > 16:
        raise DefinitionError(f"{place}: colour {text!r} must be 1 to 16 characters without spaces")
    return text


def _state_symbols(value, place: str) -> tuple[str, ...]:
    """A state written as a string of one-letter colours, space-separated symbols, or a list."""
    if isinstance(value, str):
        parts = value.split() if any(ch.isspace() for ch in value.strip()) else list(value)
    elif isinstance(value, list):
        parts = value
    else:
        raise DefinitionError(f"{place}: expected a string or a list of colours, got {_kind(value)}")
    if not parts:
        raise DefinitionError(f"{place}: is empty")
    if len(parts) > MAX_STICKERS:
        raise DefinitionError(f"{place}: {len(parts):,} stickers, the limit is {MAX_STICKERS:,}")
    return tuple(_symbol(v, f"{place}[{i}]") for i, v in enumerate(parts))


class _Reader:
    """One pass over one definition's data; `place` strings follow the data's own keys."""

    def __init__(self, data: dict, seed: bool):
        self.data = data
        self.seed = seed
        self.moves_key = "turnSet.baseTurns" if seed else "moves"
        self.ext_key = "turnSet.extenders" if seed else "extenders"

    def read(self) -> Definition:
        d = self.data
        self._check_keys()
        name = self._name()
        goals = self._goals()
        n = len(goals[0])
        if not self.seed and "stickers" in d:
            given = _expect(d["stickers"], int, "stickers", "a whole number")
            if given != n:
                raise DefinitionError(f"goal has {n} stickers, stickers says {given}")
        colours = {c for g in goals for c in g}
        if len(colours) > MAX_COLOURS:
            raise DefinitionError(f"goal: {len(colours):,} colours, the limit is {MAX_COLOURS:,}")
        raw_moves = self._raw_moves()
        self._check_range(raw_moves, n)
        moves = [self._move(i, entry, n, colours) for i, entry in enumerate(raw_moves)]
        extenders, ext_moves = self._extenders(moves, n)
        all_moves = moves + ext_moves
        self._check_unique(all_moves)
        symmetries = self._symmetries(n)
        closed = _close_goals(goals, [p for _, p in symmetries])
        return Definition(
            name=name,
            stickers=n,
            moves=tuple(all_moves),
            goals=closed,
            base_moves=tuple(m.name for m in moves),
            extenders=tuple(extenders),
            given_goals=len(goals),
            symmetries=tuple(symmetries),
            colors=self._colours(colours),
            layout=self._layout(n),
            geometry=self._geometry(n, all_moves),
            description=self._description(),
            seed_names=self._seed_names(),
        )

    # -- top level -------------------------------------------------------------------------

    def _check_keys(self):
        known = (
            {"name", "turnSet", "colorSetName", "representationName", "goal", "description"}
            if self.seed
            else {"format", "name", "description", "stickers", "colors", "moves", "extenders", "goal", "goals",
                  "symmetries", "layout", "geometry"}
        )
        for key in self.data:
            if key not in known:
                raise DefinitionError(f"{key}: unknown key; known keys are {', '.join(sorted(known))}")
        if not self.seed and self.data.get("format", NATIVE_FORMAT) != NATIVE_FORMAT:
            raise DefinitionError(f"format: unknown format {self.data['format']!r}, expected {NATIVE_FORMAT}")

    def _name(self) -> str:
        if "name" not in self.data:
            raise DefinitionError("name: missing")
        name = self.data["name"]
        if isinstance(name, int) and not isinstance(name, bool):
            name = str(name)
        _expect(name, str, "name", "text")
        if not NAME_RE.match(name):
            raise DefinitionError(
                f"name: {name[:40]!r} must be 1-100 characters of letters, digits, '-', '_', '.', starting with a letter or digit"
            )
        return name

    def _description(self) -> str:
        value = self.data.get("description", "")
        return _expect(value, str, "description", "text")[:5000]

    def _seed_names(self):
        if not self.seed:
            return ()
        return tuple(
            (key, _expect(self.data[key], str, key, "text")) for key in ("colorSetName", "representationName")
            if key in self.data
        )

    def _goals(self) -> list[tuple[str, ...]]:
        d = self.data
        if self.seed:
            goal = d.get("goal")
            if not isinstance(goal, dict) or "finalState" not in goal:
                raise DefinitionError("goal.finalState: missing")
            goals = [_state_symbols(goal["finalState"], "goal.finalState")]
        elif "goal" in d and "goals" in d:
            raise DefinitionError("goal, goals: give one or the other")
        elif "goal" in d:
            goals = [_state_symbols(d["goal"], "goal")]
        elif "goals" in d:
            items = _expect(d["goals"], list, "goals", "a list of states")
            if not items:
                raise DefinitionError("goals: is empty")
            if len(items) > MAX_GIVEN_GOALS:
                raise DefinitionError(f"goals: {len(items)} goals, the limit is {MAX_GIVEN_GOALS}")
            goals = [_state_symbols(g, f"goals[{i}]") for i, g in enumerate(items)]
        else:
            raise DefinitionError("goal: missing")
        for i, g in enumerate(goals[1:], 1):
            if len(g) != len(goals[0]):
                raise DefinitionError(f"goals[{i}] has {len(g)} stickers, goals[0] has {len(goals[0])}")
        return goals

    def _raw_moves(self) -> list:
        if self.seed:
            turn_set = _expect(self.data["turnSet"], dict, "turnSet", "a mapping")
            for key in turn_set:
                if key not in ("baseTurns", "extenders"):
                    raise DefinitionError(f"turnSet.{key}: unknown key; known keys are baseTurns, extenders")
            raw = turn_set.get("baseTurns")
        else:
            raw = self.data.get("moves")
        if raw is None:
            raise DefinitionError(f"{self.moves_key}: missing")
        _expect(raw, list, self.moves_key, "a list of moves")
        if not raw:
            raise DefinitionError(f"{self.moves_key}: is empty")
        if len(raw) > MAX_MOVES:
            raise DefinitionError(f"{self.moves_key}: {len(raw)} moves, the limit is {MAX_MOVES}")
        return raw

    # -- moves -------------------------------------------------------------------------------

    def _place(self, i: int, entry) -> str:
        name = entry.get("name") if isinstance(entry, dict) else None
        return f"{self.moves_key}[{i}]" + (f" ({name})" if isinstance(name, (str, int)) else "")

    def _move_name(self, entry, place: str) -> str:
        if "name" not in entry:
            raise DefinitionError(f"{place}: name missing")
        name = entry["name"]
        if isinstance(name, int) and not isinstance(name, bool):
            name = str(name)
        _expect(name, str, f"{place}.name", "text")
        if not name or len(name) > 32 or any(ch.isspace() for ch in name):
            raise DefinitionError(f"{place}.name: {name[:40]!r} must be 1-32 characters without spaces")
        return name

    def _check_range(self, raw_moves: list, n: int):
        """With no explicit sticker count, a move beyond the goal means the goal is too short."""
        if not self.seed and "stickers" in self.data:
            return  # positions are then checked move by move against the stated count
        highest, where = -1, ""
        for i, entry in enumerate(raw_moves):
            for value in _positions_in(entry):
                if isinstance(value, int) and not isinstance(value, bool) and value > highest:
                    highest, where = value, self._place(i, entry)
        if highest >= n:
            raise DefinitionError(f"goal has {n} stickers, moves use {highest + 1} ({where} uses position {highest})")

    def _move(self, i: int, entry, n: int, colours: set[str]) -> Move:
        place = self._place(i, entry)
        _expect(entry, dict, place, "a mapping with name and cycles, value or cases")
        name = self._move_name(entry, place)
        allowed = {"name", "cycles", "value", "cases"}
        for key in entry:
            if key not in allowed:
                raise DefinitionError(f"{place}: unknown key {key}; a move has name and cycles, value or cases")
        forms = [k for k in ("cycles", "value", "cases") if k in entry]
        if len(forms) != 1 or (self.seed and forms != ["value"]):
            expected = "value" if self.seed else "exactly one of cycles, value, cases"
            raise DefinitionError(f"{place}: expected {expected}")
        if forms == ["cases"]:
            items = _expect(entry["cases"], list, f"{place}.cases", "a list of cases")
            if not items:
                raise DefinitionError(f"{place}.cases: is empty")
            cases = tuple(self._case(f"{place}.cases[{k}]", c, n, colours, name) for k, c in enumerate(items))
        else:
            p = _perm_from(entry, forms[0], place, n, name)
            if perm.is_identity(p):
                raise DefinitionError(f"move {name}: the identity (it moves nothing)")
            cases = (Case(p),)
        return Move(name, cases)

    def _case(self, place: str, entry, n: int, colours: set[str], name: str) -> Case:
        _expect(entry, dict, place, "a mapping with when and cycles or value")
        for key in entry:
            if key not in ("when", "cycles", "value"):
                raise DefinitionError(f"{place}: unknown key {key}; a case has when and cycles or value")
        forms = [k for k in ("cycles", "value") if k in entry]
        if len(forms) != 1:
            raise DefinitionError(f"{place}: expected exactly one of cycles, value")
        p = _perm_from(entry, forms[0], place, n, name)
        if perm.is_identity(p):
            raise DefinitionError(f"move {name}: {place} is the identity (it moves nothing)")
        when = _expect(entry.get("when", {}), dict, f"{place}.when", "a mapping of position to colour")
        guard = []
        for key, colour in when.items():
            pos = _position(key, f"{place}.when", n)
            symbol = _symbol(colour, f"{place}.when[{pos}]")
            if symbol not in colours:
                raise DefinitionError(f"{place}.when[{pos}]: colour {symbol} is not a colour of the goal")
            guard.append((pos, symbol))
        return Case(p, tuple(sorted(guard)))

    def _check_unique(self, moves: list[Move]):
        seen = set()
        for m in moves:
            if m.name in seen:
                raise DefinitionError(f"move {m.name}: defined twice")
            seen.add(m.name)

    # -- extenders ---------------------------------------------------------------------------

    def _extenders(self, moves: list[Move], n: int) -> tuple[list[Extender], list[Move]]:
        if self.seed:
            raw = self.data["turnSet"].get("extenders", [])
        else:
            raw = self.data.get("extenders", [])
        if raw is None:
            raw = []
        _expect(raw, list, self.ext_key, "a list of extenders")
        if len(raw) + len(moves) > MAX_MOVES:
            raise DefinitionError(f"{self.ext_key}: {len(raw) + len(moves)} moves in all, the limit is {MAX_MOVES}")
        specs = [self._extender_spec(i, e) for i, e in enumerate(raw)]
        known = {m.name: m for m in moves}
        defined = set(known) | {s.name for s in specs}
        for s in specs:
            for ref in _extender_refs(s):
                if ref not in defined:
                    raise DefinitionError(f"extender {s.name}: unknown move {ref}")
        # Resolve in dependency order so extenders may build on each other in any written order.
        resolved: dict[str, Move] = {}
        pending = list(specs)
        while pending:
            ready = [s for s in pending if all(r in known or r in resolved for r in _extender_refs(s))]
            if not ready:
                raise DefinitionError(f"extender {pending[0].name}: circular definition")
            for s in ready:
                if s.name in known or s.name in resolved:
                    raise DefinitionError(f"move {s.name}: defined twice")
                resolved[s.name] = _apply_extender(s, {**known, **resolved}, n)
                pending.remove(s)
        return specs, [resolved[s.name] for s in specs]

    def _extender_spec(self, i: int, entry) -> Extender:
        name = entry.get("name") if isinstance(entry, dict) else None
        place = f"{self.ext_key}[{i}]" + (f" ({name})" if isinstance(name, str) else "")
        _expect(entry, dict, place, "a mapping with name, function and params")
        for key in entry:
            if key not in ("name", "function", "params"):
                raise DefinitionError(f"{place}: unknown key {key}; an extender has name, function and params")
        name = self._move_name(entry, place)
        function = entry.get("function")
        if function not in EXTENDER_FUNCTIONS:
            raise DefinitionError(f"extender {name}: function must be one of {', '.join(EXTENDER_FUNCTIONS)}")
        if self.seed and function != "REVERSE":
            raise DefinitionError(f"extender {name}: the seed format has only REVERSE")
        params = _expect(entry.get("params"), list, f"extender {name}: params", "a list")
        params = [str(p) if isinstance(p, int) and not isinstance(p, bool) else p for p in params]
        if function == "REVERSE" and (len(params) != 1 or not isinstance(params[0], str)):
            raise DefinitionError(f"extender {name}: REVERSE takes one move name")
        if function == "REPEAT":
            if len(params) != 2 or not isinstance(params[0], str) or not str(params[1]).isdigit():
                raise DefinitionError(f"extender {name}: REPEAT takes a move name and a count")
            count = int(params[1])
            if not 2 <= count <= MAX_REPEAT:
                raise DefinitionError(f"extender {name}: REPEAT count must be 2..{MAX_REPEAT}")
            params = [params[0], count]
        if function == "SEQUENCE" and (len(params) < 2 or not all(isinstance(p, str) for p in params)):
            raise DefinitionError(f"extender {name}: SEQUENCE takes at least two move names")
        return Extender(name, function, tuple(params))

    # -- symmetries, colours, layout -------------------------------------------------------------

    def _symmetries(self, n: int) -> list[tuple[str, perm.Perm]]:
        raw = self.data.get("symmetries", []) if not self.seed else []
        _expect(raw, list, "symmetries", "a list")
        result = []
        for i, entry in enumerate(raw):
            place = f"symmetries[{i}]"
            _expect(entry, dict, place, "a mapping with name and cycles or value")
            name = self._move_name(entry, place)
            forms = [k for k in ("cycles", "value") if k in entry]
            if len(forms) != 1:
                raise DefinitionError(f"{place} ({name}): expected exactly one of cycles, value")
            result.append((name, _perm_from(entry, forms[0], f"{place} ({name})", n, name)))
        return result

    def _colours(self, used: set[str]) -> tuple[tuple[str, str, str], ...]:
        raw = self.data.get("colors", {}) if not self.seed else {}
        _expect(raw, dict, "colors", "a mapping of colour symbol to name and hex")
        result = []
        for key, spec in raw.items():
            symbol = _symbol(key, "colors")
            place = f"colors.{symbol}"
            if isinstance(spec, str):
                spec = {"hex": spec}
            _expect(spec, dict, place, "a mapping with name and hex, or a hex colour")
            for k in spec:
                if k not in ("name", "hex"):
                    raise DefinitionError(f"{place}: unknown key {k}; a colour has name and hex")
            hex_value = _expect(spec.get("hex", ""), str, f"{place}.hex", "text")
            if hex_value and not HEX_RE.match(hex_value):
                raise DefinitionError(f"{place}.hex: {hex_value[:20]!r} is not a colour like #1a2b3c")
            label = _expect(spec.get("name", symbol), (str, int), f"{place}.name", "text")
            result.append((symbol, str(label)[:40], hex_value))
        return tuple(result)

    def _geometry(self, n: int, moves):
        raw = self.data.get("geometry") if not self.seed else None
        return None if raw is None else geometry.parse(raw, n, [m.name for m in moves])

    def _layout(self, n: int) -> Layout | None:
        raw = self.data.get("layout") if not self.seed else None
        if raw is None:
            return None
        _expect(raw, dict, "layout", "a mapping with shape and cells")
        for k in raw:
            if k not in ("shape", "cells"):
                raise DefinitionError(f"layout: unknown key {k}; a layout has shape and cells")
        shape = raw.get("shape", "square")
        if shape not in SHAPES:
            raise DefinitionError(f"layout.shape: {shape!r} is not one of {', '.join(SHAPES)}")
        cells = _expect(raw.get("cells"), list, "layout.cells", "a list with one entry per sticker")
        if len(cells) != n:
            raise DefinitionError(f"layout.cells has {len(cells)} entries, the puzzle has {n} stickers")
        out = []
        for i, cell in enumerate(cells):
            if cell is None:
                out.append(None)
                continue
            place = f"layout.cells[{i}]"
            _expect(cell, list, place, "[x, y], [x, y, shape] or null")
            if len(cell) not in (2, 3):
                raise DefinitionError(f"{place}: expected [x, y] or [x, y, shape]")
            for v in cell[:2]:
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or abs(v) > 1e6:
                    raise DefinitionError(f"{place}: coordinates must be numbers")
            cell_shape = cell[2] if len(cell) == 3 else shape
            if cell_shape not in SHAPES:
                raise DefinitionError(f"{place}: shape {cell_shape!r} is not one of {', '.join(SHAPES)}")
            out.append((cell[0], cell[1], cell_shape))
        return Layout(shape, tuple(out))


# -- helpers on raw move data -------------------------------------------------------------------


def _positions_in(entry) -> list:
    """Every raw position number a move entry mentions (for the goal-length check)."""
    if not isinstance(entry, dict):
        return []
    found = []
    for holder in [entry] + (entry["cases"] if isinstance(entry.get("cases"), list) else []):
        if not isinstance(holder, dict):
            continue
        if isinstance(holder.get("value"), list):
            found.extend(holder["value"])
        if isinstance(holder.get("cycles"), list):
            for c in holder["cycles"]:
                if isinstance(c, list):
                    found.extend(c)
    return found


def _position(value, place: str, n: int) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DefinitionError(f"{place}: positions are whole numbers, got {_kind(value)}")
    if not 0 <= value < n:
        raise DefinitionError(f"{place}: position {value} is out of range 0..{n - 1}")
    return value


def _perm_from(entry: dict, form: str, place: str, n: int, name: str) -> perm.Perm:
    raw = _expect(entry[form], list, f"{place}.{form}", "a list")
    if form == "value":
        cycles = _split_closed(raw, place, n)
    else:
        cycles = []
        for k, c in enumerate(raw):
            _expect(c, list, f"{place}.cycles[{k}]", "a list of positions")
            cycles.append([_position(v, place, n) for v in c])
    seen = set()
    for c in cycles:
        for x in c:
            if x in seen:
                raise DefinitionError(f"move {name}: position {x} appears twice")
            seen.add(x)
    return perm.from_cycles(n, [c for c in cycles if len(c) > 1])


def _split_closed(raw: list, place: str, n: int) -> list[list[int]]:
    """The seed's flat array: each cycle closed by repeating its first number."""
    values = [_position(v, place, n) for v in raw]
    cycles, i = [], 0
    while i < len(values):
        start = values[i]
        try:
            end = values.index(start, i + 1)
        except ValueError:
            raise DefinitionError(f"{place}: the cycle starting at {start} is not closed (repeat {start} to end it)") from None
        cycles.append(values[i:end])
        i = end + 1
    return cycles


def _extender_refs(spec: Extender) -> list[str]:
    return [spec.params[0]] if spec.function in ("REVERSE", "REPEAT") else list(spec.params)


def _apply_extender(spec: Extender, moves: dict[str, Move], n: int) -> Move:
    if spec.function == "REVERSE":
        source = moves[spec.params[0]]
        cases = tuple(_reverse_case(c) for c in source.cases)
        return Move(spec.name, cases)
    parts = [moves[r] for r in _extender_refs(spec)]
    for part in parts:
        if part.guarded:
            raise DefinitionError(f"extender {spec.name}: {spec.function} of guarded move {part.name} is not supported")
    if spec.function == "REPEAT":
        p = perm.power(parts[0].perm, spec.params[1])
    else:
        p = perm.compose(*[m.perm for m in parts])
    if perm.is_identity(p):
        raise DefinitionError(f"move {spec.name}: the identity (it moves nothing)")
    return Move(spec.name, (Case(p),))


def _reverse_case(case: Case) -> Case:
    """Undo a case: the inverse permutation, guarded where the guarded stickers went."""
    guard = tuple(sorted((case.perm[pos], colour) for pos, colour in case.guard))
    return Case(perm.inverse(case.perm), guard)


def _close_goals(goals: list[tuple[str, ...]], symmetries: list[perm.Perm]) -> tuple[tuple[str, ...], ...]:
    """Every image of every goal under the group the symmetries generate, given goals first."""
    result = perm.orbit(goals, symmetries, lambda goal, s: perm.apply(s, goal), MAX_GOALS)
    if result is None:
        raise DefinitionError(f"symmetries: more than {MAX_GOALS:,} solved states")
    return tuple(result)
