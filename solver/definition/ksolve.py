"""ksolve and twsearch definition files (.def, .tws): reading and writing (docs/interop.md).

The format, as twsearch documents it (docs/architecture.md and ksolveformat.txt in cubing/twsearch):
line based, `#` starts a comment; `Name N`, then `Set NAME count orientations` per orbit, a `Solved`
block and `Move NAME` blocks, each block closed by `End`. A block lists, per set, the set's name,
a line of 1-based numbers and an optional line of orientations (zeros when left out). Numbers are
passive: slot i holds piece (Solved) or receives the piece from slot (Move) number i. In Solved a
repeated number is an identical piece and `?` an orientation that does not count. Move orientations
are ksolve's: indexed by the slot the piece comes from, not the slot it goes to. Only base moves are
listed; their powers are generated from each move's order (`orbit_model.power_names`).

Our own exports add `# puzzlehub ...` comment lines (sticker numbers, goal colours, move names) that
other programs skip and that make a round trip give back the very same definition.
"""

from __future__ import annotations

from solver.definition.orbit_model import MAX_ORIENTATIONS, Orbit, OrbitPuzzle, from_definition
from solver.errors import DefinitionError

SUFFIXES = (".def", ".tws", ".ksolve")
META = "# puzzlehub "


def looks_like(text: str) -> bool:
    """Whether text reads as a ksolve file: its first command is Name or Set."""
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            return words[0] in ("Name", "Set")
    return False


class _Lines:
    """The commands' lines, split into words as they are read: a file is refused at its first
    mistake without the rest of it (up to 2 MB) being split first. `meta` has the puzzlehub lines
    read so far: all of them once the last line is read."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.meta: dict[str, list[str]] = {}
        self.at = 0  # the next line to look at
        self.ahead = None  # (line number, words) of the next command line, once peeked

    def peek(self):
        while self.ahead is None and self.at < len(self.lines):
            line = self.lines[self.at]
            self.at += 1
            if line.startswith(META):
                words = line[len(META):].split()
                if words:
                    self.meta[words[0]] = words[1:]
                continue
            words = line.split("#", 1)[0].split()
            if words:
                self.ahead = (self.at, words)
        return self.ahead or (None, None)

    def next(self, what: str):
        if self.peek()[0] is None:
            raise DefinitionError(f"end of file: expected {what}")
        item, self.ahead = self.ahead, None
        return item


def _numbers(line: int, words: list[str], count: int, what: str, wildcard: bool = False) -> list:
    if len(words) != count:
        raise DefinitionError(f"line {line}: {what} has {len(words)} numbers, expected {count}")
    out = []
    for w in words:
        if wildcard and w == "?":
            out.append(None)
        elif w.isdigit() and len(w) <= 18:  # a piece number, never thousands of digits (int() refuses past 4,300)
            out.append(int(w))
        elif w.isdigit():
            raise DefinitionError(f"line {line}: {what}: {w[:20]}... is far too large a number")
        else:
            raise DefinitionError(f"line {line}: {what}: {w[:20]!r} is not a whole number")
    return out


def read(text: str) -> OrbitPuzzle:
    lines = _Lines(text)
    name, orbits, solved, moves = "imported", {}, None, {}
    while lines.peek()[0] is not None:
        line, words = lines.next("a command")
        command = words[0]
        if command == "Name":
            if len(words) != 2:
                raise DefinitionError(f"line {line}: Name takes one word")
            name = words[1]
        elif command == "Set":
            if solved is not None or moves:
                raise DefinitionError(f"line {line}: Set after Solved or Move")
            _add_set(orbits, line, words)
        elif command == "Solved":
            if solved is not None:
                raise DefinitionError(f"line {line}: a second Solved block")
            if len(words) != 1:
                raise DefinitionError(f"line {line}: Solved takes nothing after it")
            solved = _block(lines, orbits, line, "Solved")
        elif command == "Move":
            if len(words) != 2:
                raise DefinitionError(f"line {line}: Move takes one name")
            if words[1] in moves:
                raise DefinitionError(f"line {line}: move {words[1]} defined twice")
            moves[words[1]] = _block(lines, orbits, line, f"Move {words[1]}")
        else:
            raise DefinitionError(
                f"line {line}: {command[:30]} is not supported (PuzzleHub reads Name, Set, Solved and Move blocks)"
            )
    if not orbits:
        raise DefinitionError("no Set line")
    if solved is None:
        raise DefinitionError("no Solved block")
    if not moves:
        raise DefinitionError("no Move block")
    meta = lines.meta
    try:
        stickers = [int(w) for w in meta["stickers"]] if "stickers" in meta else None
    except ValueError:
        raise DefinitionError("puzzlehub stickers: expected whole numbers") from None
    return OrbitPuzzle(
        name=name,
        orbits=list(orbits.values()),
        solved={o.name: _solved_orbit(o, solved.get(o.name)) for o in orbits.values()},
        moves={m: {o: _move_orbit(orbits[o], *data) for o, data in blocks.items()} for m, blocks in moves.items()},
        stickers=stickers,
        goal=meta.get("goal"),
        move_names=meta.get("moves"),
    )


def _add_set(orbits: dict, line: int, words: list[str]) -> None:
    if len(words) not in (3, 4) or not all(w.isdigit() for w in words[2:]):
        raise DefinitionError(f"line {line}: expected Set NAME COUNT ORIENTATIONS")
    count, twists = int(words[2]), int(words[3]) if len(words) == 4 else 1
    if words[1] in orbits:
        raise DefinitionError(f"line {line}: set {words[1]} defined twice")
    if not 1 <= count <= 10_000 or not 1 <= twists <= MAX_ORIENTATIONS:
        raise DefinitionError(f"line {line}: a set has 1 to 10000 pieces and 1 to {MAX_ORIENTATIONS} orientations")
    orbits[words[1]] = Orbit(words[1], count, twists)


def _block(lines: _Lines, orbits: dict, start: int, what: str) -> dict:
    """Per set named in the block: (line, numbers, line of orientations or None, orientations)."""
    out = {}
    while True:
        line, words = lines.next(f"End closing {what} (line {start})")
        if words == ["End"]:
            return out
        if len(words) != 1 or words[0] not in orbits:
            raise DefinitionError(f"line {line}: {what}: expected a set name or End, got {' '.join(words)[:40]!r}")
        orbit = orbits[words[0]]
        if orbit.name in out:
            raise DefinitionError(f"line {line}: {what}: set {orbit.name} given twice")
        place = f"{what}, set {orbit.name}"
        line, words = lines.next(f"the numbers of {place}")
        numbers = _numbers(line, words, orbit.pieces, place)
        next_line, next_words = lines.peek()
        twists = None
        if next_words is not None and next_words != ["End"] and not (len(next_words) == 1 and next_words[0] in orbits):
            lines.next("")
            twists = _numbers(next_line, next_words, orbit.pieces, f"{place} orientations", wildcard=what == "Solved")
            for t in twists:
                if t is not None and t >= orbit.orientations:
                    raise DefinitionError(
                        f"line {next_line}: {place}: orientation {t} is out of range 0..{orbit.orientations - 1}"
                    )
        out[orbit.name] = (line, numbers, twists, next_line)


def _solved_orbit(orbit: Orbit, data) -> tuple[list[int], list[int], list[int]]:
    if data is None:
        return list(range(orbit.pieces)), [0] * orbit.pieces, [orbit.orientations] * orbit.pieces
    line, numbers, twists, twist_line = data
    distinct = set(numbers)  # 1..len(distinct), tested without a list as long as the largest number
    if min(distinct, default=1) < 1 or max(distinct, default=0) != len(distinct):
        raise DefinitionError(f"line {line}: Solved, set {orbit.name}: piece numbers must run from 1 without gaps")
    twists = twists or [0] * orbit.pieces
    wild: dict[int, set] = {}
    for n, t in zip(numbers, twists):
        wild.setdefault(n, set()).add(t is None)
    if any(len(v) > 1 for v in wild.values()):
        raise DefinitionError(
            f"line {twist_line}: Solved, set {orbit.name}: identical pieces must all be ? or all numbers"
        )
    return ([n - 1 for n in numbers], [t or 0 for t in twists],
            [1 if t is None else orbit.orientations for t in twists])


def _move_orbit(orbit: Orbit, line: int, numbers: list[int], twists, twist_line) -> tuple[list[int], list[int]]:
    if sorted(numbers) != list(range(1, orbit.pieces + 1)):
        raise DefinitionError(f"line {line}: set {orbit.name}: a move's numbers must be 1..{orbit.pieces}, each once")
    source = [n - 1 for n in numbers]
    twists = twists or [0] * orbit.pieces
    # ksolve writes a move's turn at the slot the piece comes from
    return source, [twists[j] for j in source]


# -- writing ------------------------------------------------------------------------------------


def write(defn) -> str:
    puzzle = from_definition(defn, "ksolve")
    out = [
        f"# {defn.name}: written by PuzzleHub (docs/interop.md). The puzzlehub lines are for reading it back.",
        META + "stickers " + " ".join(map(str, puzzle.stickers)),
        META + "goal " + " ".join(puzzle.goal),
        META + "moves " + " ".join(puzzle.move_names),
        f"Name {defn.name}",
        "",
    ]
    out += [f"Set {o.name} {o.pieces} {o.orientations}" for o in puzzle.orbits]
    out += ["", "Solved"]
    for o in puzzle.orbits:
        ids, orient, mods = puzzle.solved[o.name]
        out += [o.name, " ".join(str(i + 1) for i in ids)]
        if o.orientations > 1:
            out.append(" ".join("?" if m == 1 else str(t) for t, m in zip(orient, mods)))
    out.append("End")
    for name, move in puzzle.moves.items():
        out += ["", f"Move {name}"]
        for o in puzzle.orbits:
            source, delta = move[o.name]
            if source == list(range(o.pieces)) and not any(delta):
                continue
            twists = [0] * o.pieces
            for i, j in enumerate(source):
                twists[j] = delta[i]
            out += [o.name, " ".join(str(j + 1) for j in source)]
            if o.orientations > 1:
                out.append(" ".join(map(str, twists)))
        out.append("End")
    return "\n".join(out) + "\n"
