"""The piece-and-orientation model that KPuzzle JSON and ksolve/twsearch files share, and how it
maps to and from our sticker model (docs/interop.md).

An orbit has `pieces` slots and `orientations` ways a piece can sit in a slot (cyclic: orientations
add modulo that count). States and moves are written passively, per slot: a state says which piece
id sits in slot i and its orientation; a move says from which slot `perm[i]` the piece in slot i
came and how much it turned on the way (`delta[i]`, added to its orientation). This is cubing.js's
KPuzzle convention and twsearch's internal one; ksolve's move orientations are converted on reading.

Stickers: a piece with k orientations becomes k stickers, one per facelet t of the piece. A piece in
orientation o shows its facelet t at the slot's facelet (t + o) mod k, so a move that carries slot j
to slot i turning by d sends sticker (j, f) to (i, f + d). Identical pieces (a repeated id) get the
same colours; a piece whose orientation does not count (orientationMod 1, ksolve `?`) shows one
colour on all its facelets.

Writing reads the orbits off the piece model the solver derives (`solver.analysis.pieces`). An orbit
whose pieces turn as a cycle of their stickers is written as pieces with orientations; any other
orbit (larger orientation groups, pieces that look alike only in some turns) and the stickers no
move touches are written sticker by sticker, one orientation each, which is exact but slower for
the other programs' searches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from solver import perm
from solver.analysis.pieces import piece_model
from solver.definition.formats import MAX_MOVES, MAX_STICKERS, NAME_RE, load_data
from solver.definition.model import Definition
from solver.errors import DefinitionError

MAX_ORIENTATIONS = 126  # twsearch's limit; more is no twisty puzzle


@dataclass
class Orbit:
    name: str
    pieces: int
    orientations: int


@dataclass
class OrbitPuzzle:
    name: str
    orbits: list[Orbit]
    # per orbit name: (piece id per slot, orientation per slot, orientation modulus per slot)
    solved: dict[str, tuple[list[int], list[int], list[int]]]
    # per move name, per orbit name: (perm: slot i receives the piece from perm[i], delta per slot i)
    moves: dict[str, dict[str, tuple[list[int], list[int]]]]
    derived: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # name -> [(move, amount)]
    # what our own exports add so that a round trip gives back the same definition
    stickers: list[int] | None = None  # our sticker position of every (orbit, slot, facelet)
    goal: list[str] | None = None  # our goal colours, by our sticker position
    move_names: list[str] | None = None  # which generated powers the definition has


# -- reading ------------------------------------------------------------------------------------


def power_names(name: str, order: int) -> list[tuple[str, int]]:
    """twsearch's decorated moves: clockwise powers up to half a turn, counterclockwise below it."""
    out = [(f"{name}{j}", j) for j in range(2, order // 2 + 1)]
    out += [(f"{name}{j if j > 1 else ''}'", order - j) for j in range(1, (order + 1) // 2)]
    return out


def _symbol(oi: int) -> str:
    letters = ""
    oi += 1
    while oi:
        oi, r = divmod(oi - 1, 26)
        letters = chr(ord("a") + r) + letters
    return letters


def _safe_name(name: str) -> str:
    if NAME_RE.match(name):
        return name
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-_.")[:100]
    return cleaned if cleaned and NAME_RE.match(cleaned) else "imported"


def to_definition(puzzle: OrbitPuzzle) -> Definition:
    """Our definition of a piece model: a sticker per facelet, generated powers as extenders."""
    # stickers per piece: k, or m when every piece of the orbit counts its orientation modulo m
    # (centres whose turn does not matter are then one sticker each); a file we wrote keeps k
    widths = [orbit.orientations for orbit in puzzle.orbits]
    if puzzle.stickers is None and puzzle.goal is None:
        for oi, orbit in enumerate(puzzle.orbits):
            if len(set(puzzle.solved[orbit.name][2])) == 1:
                widths[oi] = puzzle.solved[orbit.name][2][0]
    positions, n = [], 0
    for orbit, w in zip(puzzle.orbits, widths):
        positions.append(n)
        n += orbit.pieces * w
    if n > MAX_STICKERS:
        raise DefinitionError(f"the pieces make {n:,} stickers, the limit is {MAX_STICKERS:,}")
    if len(puzzle.moves) + len(puzzle.derived) > MAX_MOVES:
        raise DefinitionError(f"{len(puzzle.moves) + len(puzzle.derived)} moves, the limit is {MAX_MOVES}")
    where = list(range(n))
    if puzzle.stickers is not None:
        if sorted(puzzle.stickers) != where:
            raise DefinitionError(f"puzzlehub stickers: expected each of 0..{n - 1} once")
        where = list(puzzle.stickers)
    keys: list = [None] * n
    for oi, orbit in enumerate(puzzle.orbits):
        ids, orient, mods = puzzle.solved[orbit.name]
        k = widths[oi]
        if len({(i, m) for i, m in zip(ids, mods)}) != len(set(ids)):
            raise DefinitionError(f"{orbit.name}: identical pieces must all count their orientation alike")
        for s in range(orbit.pieces):
            for f in range(k):
                keys[positions[oi] + s * k + f] = (oi, ids[s], mods[s], (f - orient[s]) % mods[s])
    if puzzle.goal is not None:
        goal = _checked_goal(puzzle, keys, where, positions)
    else:
        goal = [""] * n
        for x, (oi, piece, mod, t) in enumerate(keys):
            goal[where[x]] = f"{_symbol(oi)}{piece + 1}" + (f".{t}" if mod > 1 else "")

    def sticker_perm(move: dict) -> perm.Perm:
        p = list(range(n))
        for oi, orbit in enumerate(puzzle.orbits):
            if orbit.name not in move:
                continue
            slots, delta = move[orbit.name]
            k = widths[oi]
            for i, (j, d) in enumerate(zip(slots, delta)):
                for f in range(k):
                    p[where[positions[oi] + j * k + f]] = where[positions[oi] + i * k + (f + d) % k]
        return tuple(p)

    explicit = {name: sticker_perm(move) for name, move in puzzle.moves.items()}
    for name, move in explicit.items():
        if perm.is_identity(move):
            raise DefinitionError(f"move {name}: moves nothing")
    for name, parts in puzzle.derived.items():
        if name in explicit:
            raise DefinitionError(f"derivedMoves.{name}: a move of that name exists")
        steps = []
        for part, amount in parts:
            if part not in explicit:
                raise DefinitionError(f"derivedMoves.{name}: unknown move {part}")
            steps.append(perm.power(explicit[part], amount))
        explicit[name] = perm.compose(*steps) if steps else perm.identity(n)
        if perm.is_identity(explicit[name]):
            raise DefinitionError(f"derivedMoves.{name}: moves nothing")
    wanted = set(puzzle.move_names) if puzzle.move_names is not None else None
    orders = {name: perm.order(explicit[name]) for name in puzzle.moves}
    if len(explicit) + sum(o - 2 for o in orders.values() if o > 2) > MAX_MOVES:
        raise DefinitionError(f"the moves and their powers make more than {MAX_MOVES} moves")
    extenders = []
    for name in puzzle.moves:
        for power_name, j in power_names(name, orders[name]):
            if power_name in explicit or (wanted is not None and power_name not in wanted):
                continue
            if j == orders[name] - 1:
                extenders.append({"name": power_name, "function": "REVERSE", "params": [name]})
            else:
                extenders.append({"name": power_name, "function": "REPEAT", "params": [name, j]})
    if wanted is not None:
        missing = wanted - set(explicit) - {e["name"] for e in extenders}
        if missing:
            raise DefinitionError(f"puzzlehub moves: no move {sorted(missing)[0]} in the file")
    data = {
        "format": "puzzlehub/1",
        "name": _safe_name(puzzle.name),
        "stickers": n,
        "moves": [{"name": name, "cycles": perm.cycles(p)} for name, p in explicit.items()],
        "goal": goal,
    }
    if extenders:
        data["extenders"] = extenders
    return load_data(data)


def _checked_goal(puzzle: OrbitPuzzle, keys: list, where: list[int], positions: list[int]) -> list[str]:
    """Our goal colours, refused unless they tell apart exactly what the file's pieces tell apart."""
    goal = puzzle.goal
    if len(goal) != len(keys):
        raise DefinitionError(f"puzzlehub goal: {len(goal)} colours, the pieces have {len(keys)} stickers")
    for oi, orbit in enumerate(puzzle.orbits):
        ids, orient, mods = puzzle.solved[orbit.name]
        k = orbit.orientations
        seen: dict[tuple, tuple] = {}
        for s in range(orbit.pieces):
            facelets = [goal[where[positions[oi] + s * k + (t + orient[s]) % k]] for t in range(k)]
            for o in range(k):
                look = tuple(facelets[(f - o) % k] for f in range(k))
                key = (ids[s], o % mods[s])
                if seen.setdefault(look, key) != key:
                    raise DefinitionError(
                        f"puzzlehub goal: its colours do not match the {orbit.name} pieces of the solved state"
                    )
        if len(set(seen.values())) != len(seen):
            raise DefinitionError(f"puzzlehub goal: its colours do not match the {orbit.name} pieces of the solved state")
    return list(goal)


# -- writing ------------------------------------------------------------------------------------


def from_definition(defn: Definition, fmt: str) -> OrbitPuzzle:
    """The piece model of one of our definitions, for a format without guards or several goals."""
    if defn.guarded:
        raise DefinitionError(f"{fmt}: the format has no guarded moves (sliding and jumping puzzles)")
    if len(defn.goals) > 1:
        raise DefinitionError(f"{fmt}: the format has one solved state; this puzzle has {len(defn.goals)}")
    model = piece_model(defn)
    goal = defn.goal
    sets: list[tuple[Orbit, list[list[int]], tuple]] = []  # orbit, stickers per slot by facelet, solved
    names: set[str] = set()

    def add(name: str, slots: list[list[int]], solved) -> None:
        name = re.sub(r"\W+", "_", name).upper()
        while name in names:
            name += "_"
        names.add(name)
        sets.append((Orbit(name, len(slots), len(slots[0])), slots, solved))

    for orbit in model.orbits:
        framed = _cyclic_frames(orbit, goal)
        if framed is not None:
            add(orbit.name, *framed)
        else:
            add(orbit.name, *_single_stickers(orbit.stickers, goal))
    if model.fixed:
        add("fixed", *_single_stickers(list(model.fixed), goal))
    puzzle = OrbitPuzzle(
        name=defn.name, orbits=[o for o, _, _ in sets], solved={o.name: solved for o, _, solved in sets}, moves={},
        stickers=[x for _, slots, _ in sets for slot in slots for x in slot], goal=list(goal),
        move_names=defn.move_names,
    )
    covered: set[str] = set()
    for move in defn.moves:
        if move.name in covered:
            continue
        puzzle.moves[move.name] = {o.name: _orbit_move(move.perm, slots) for o, slots, _ in sets}
        for power_name, j in power_names(move.name, perm.order(move.perm)):
            if power_name in defn.move_index and defn.move(power_name).perm == perm.power(move.perm, j):
                covered.add(power_name)
    return puzzle


def _cyclic_frames(orbit, goal):
    """Slots as stickers by facelet when the orientation group turns each piece as one cycle, and
    the solved ids and orientations; None when the orbit is to be written sticker by sticker."""
    k = orbit.twists
    size = len(orbit.slots[0])
    if size != k:
        return None  # k stickers per piece is what reading back makes of it
    turn = (0,) if k == 1 else next((r for r in orbit.rot if [len(c) for c in perm.cycles(r)] == [k]), None)
    if turn is None:
        return None
    frame = [0]
    for _ in range(k - 1):
        frame.append(turn[frame[-1]])
    slots = [[slot[j] for j in frame] for slot in orbit.slots]
    ids, orient, mods = [], [], []
    reps: list[tuple[list, int]] = []  # (looks of the id's first piece by orientation, period)
    for slot in slots:
        facelets = [goal[x] for x in slot]
        look = tuple(facelets)
        for rid, (looks, period) in enumerate(reps):
            if look in looks:
                ids.append(rid)
                orient.append(looks.index(look) % period)
                mods.append(period)
                break
        else:
            looks = [tuple(facelets[(f - o) % k] for f in range(k)) for o in range(k)]
            period = next(m for m in range(1, k + 1) if looks[m % k] == look)
            if 1 < period < k:
                return None  # neither ksolve nor a plain piece id says "orientation counts modulo m"
            reps.append((looks, period))
            ids.append(len(reps) - 1)
            orient.append(0)
            mods.append(period)
    return slots, (ids, orient, mods)


def _single_stickers(stickers: list[int], goal):
    colours: dict[str, int] = {}
    ids = [colours.setdefault(goal[x], len(colours)) for x in stickers]
    return [[x] for x in stickers], (ids, [0] * len(stickers), [1] * len(stickers))


def _orbit_move(p: perm.Perm, slots: list[list[int]]) -> tuple[list[int], list[int]]:
    """A move on one written orbit: the slot each slot receives its piece from, and the turn."""
    k = len(slots[0])
    at = {x: (s, f) for s, slot in enumerate(slots) for f, x in enumerate(slot)}
    source, delta = list(range(len(slots))), [0] * len(slots)
    for s, slot in enumerate(slots):
        s2, d = at[p[slot[0]]]
        if any(at[p[x]] != (s2, (f + d) % k) for f, x in enumerate(slot)):
            raise DefinitionError("export: a move does not turn whole pieces (please report this puzzle)")
        source[s2], delta[s2] = s, d
    return source, delta
