"""Pieces and orbits, derived from a definition's moves.

A piece is a set of stickers that always move together: we start from stickers moved by the same
moves and refine until every move maps pieces onto pieces (a block system of the move group).
Pieces that moves can carry onto one another form an orbit. Inside an orbit every slot gets a
reference order of its stickers (carried from a reference slot by a move sequence), and the ways a
piece can sit in its slot form the orientation group, found from the Schreier generators of the
reference slot's stabiliser, so any group works, not only twists and flips.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from solver import perm
from solver.definition.model import Definition
from solver.errors import StateError
from solver.perm import Perm

# An orbit whose orientation group is larger than this is modelled sticker by sticker instead:
# such "pieces" are not what a solver wants, and their action tables would be huge.
MAX_TWISTS = 720

PIECE_NAMES = {1: "centres", 2: "edges", 3: "corners"}


@dataclass(frozen=True)
class Orbit:
    slots: tuple[tuple[int, ...], ...]
    twists: int
    rot: tuple[tuple[int, ...], ...]
    name: str

    @property
    def stickers(self) -> list[int]:
        """The orbit's sticker positions, slot by slot in reference order."""
        return [x for slot in self.slots for x in slot]

    def looks(self, goal) -> list[tuple[int, int, tuple]]:
        """(slot h, orientation o, colours seen at a slot holding goal piece h turned by o)."""
        out = []
        for h, slot in enumerate(self.slots):
            for o, r in enumerate(self.rot):
                seen = [""] * len(slot)
                for j, x in enumerate(slot):
                    seen[r[j]] = goal[x]
                out.append((h, o, tuple(seen)))
        return out


@dataclass(frozen=True)
class PieceModel:
    orbits: tuple[Orbit, ...]
    fixed: tuple[int, ...]
    goal: tuple[str, ...] = field(repr=False, compare=False, default=())
    # per sticker: (orbit, slot, index in slot) or None for fixed stickers
    _where: tuple = field(init=False, repr=False, compare=False, default=())
    _rot_index: tuple = field(init=False, repr=False, compare=False, default=())
    _rot_mult: tuple = field(init=False, repr=False, compare=False, default=())
    _goal_keys: tuple = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self):
        n = len(self.goal)
        where: list = [None] * n
        for oi, orbit in enumerate(self.orbits):
            for s, slot in enumerate(orbit.slots):
                for j, x in enumerate(slot):
                    where[x] = (oi, s, j)
        rot_index = tuple({r: o for o, r in enumerate(orb.rot)} for orb in self.orbits)
        rot_mult = tuple(
            tuple(tuple(ri[perm.compose(a, b)] for b in orb.rot) for a in orb.rot)
            for orb, ri in zip(self.orbits, rot_index)
        )
        object.__setattr__(self, "_where", tuple(where))
        object.__setattr__(self, "_rot_index", rot_index)
        object.__setattr__(self, "_rot_mult", rot_mult)
        object.__setattr__(self, "_goal_keys", tuple(self._keys(orb) for orb in self.orbits))

    def _keys(self, orbit: Orbit) -> dict:
        """Colours seen at a slot -> label*k + o, for every goal piece in every orientation."""
        keys: dict[tuple, int] = {}
        for h, o, seen in orbit.looks(self.goal):
            keys.setdefault(seen, h * orbit.twists + o)
        return keys

    def has_identical_pieces(self, oi: int) -> bool:
        """Whether two goal pieces of orbit `oi` look alike (in some orientation)."""
        orbit = self.orbits[oi]
        return len({code // orbit.twists for code in self._goal_keys[oi].values()}) < len(orbit.slots)

    @property
    def n_pieces(self) -> int:
        return sum(len(o.slots) for o in self.orbits)

    def action(self, p: Perm) -> list[np.ndarray]:
        """Per orbit, t[s*k+o] = s2*k+o2: where a piece at slot s with orientation o goes."""
        out = []
        for oi, orbit in enumerate(self.orbits):
            k = orbit.twists
            t = np.empty(len(orbit.slots) * k, dtype=np.int32)
            for s, slot in enumerate(orbit.slots):
                images = [self._where[p[x]] for x in slot]
                s2 = images[0][1]
                sigma = tuple(w[2] for w in images)
                if any(w[0] != oi or w[1] != s2 for w in images) or sigma not in self._rot_index[oi]:
                    raise ValueError("the permutation does not map pieces onto pieces")
                e = self._rot_index[oi][sigma]
                mult = self._rot_mult[oi]
                for o in range(k):
                    t[s * k + o] = s2 * k + mult[o][e]
            out.append(t)
        return out

    def read(self, state) -> list[np.ndarray]:
        """Per orbit, at slot s: label*k + o of the piece sitting there (see PIECES.md)."""
        if len(state) != len(self.goal):
            raise StateError(f"state has {len(state)} stickers, the puzzle has {len(self.goal)}")
        out = []
        for orbit, keys in zip(self.orbits, self._goal_keys):
            arr = np.empty(len(orbit.slots), dtype=np.int32)
            for s, slot in enumerate(orbit.slots):
                seen = tuple(state[x] for x in slot)
                code = keys.get(seen)
                if code is None:
                    raise StateError(
                        f"{orbit.name}: the piece at stickers {', '.join(map(str, slot))} has "
                        f"colours {' '.join(map(str, seen))}, which match no piece of the goal"
                    )
                arr[s] = code
            out.append(arr)
        return out


def piece_generators(defn: Definition) -> list[Perm]:
    """The permutations pieces are derived from: unguarded moves and every case of guarded ones."""
    gens = []
    for m in defn.moves:
        for case in m.cases:
            if not perm.is_identity(case.perm) and case.perm not in gens:
                gens.append(case.perm)
    return gens


def _blocks(n: int, gens: list[Perm]) -> list[int]:
    """Block id per sticker: the coarsest partition finer than 'moved by the same moves' that
    every move (and inverse) maps block onto block.

    Hopcroft's partition refinement (as in DFA minimisation): each block taken as a splitter splits
    every block by whether a move sends its stickers into the splitter; after a split only the
    smaller half needs to be a splitter again. O(moves * n log n), where refining every block
    at once until nothing changes took O(moves * n^2) on one long cycle."""
    moves = list(gens) + [perm.inverse(g) for g in gens]
    pulls = [perm.inverse(m) for m in moves]  # pull[x]: the sticker the move sends onto x
    block_of = _renumber([tuple(g[i] != i for g in gens) for i in range(n)])
    blocks: list[set[int]] = [set() for _ in range(max(block_of, default=-1) + 1)]
    for i, b in enumerate(block_of):
        blocks[b].add(i)
    pending, waiting = list(range(len(blocks))), set(range(len(blocks)))
    while pending:
        splitter = pending.pop()
        waiting.discard(splitter)
        members = list(blocks[splitter])
        for pull in pulls:
            touched: dict[int, list[int]] = {}
            for x in members:
                i = pull[x]
                touched.setdefault(block_of[i], []).append(i)
            for b, inside in touched.items():
                if len(inside) == len(blocks[b]):
                    continue
                # the touched stickers leave b for a new block: work in proportion to them only
                new = len(blocks)
                blocks[b].difference_update(inside)
                blocks.append(set(inside))
                for i in inside:
                    block_of[i] = new
                # a waiting block's halves both wait; otherwise the smaller half is enough
                if b in waiting or len(inside) <= len(blocks[b]):
                    pending.append(new)
                    waiting.add(new)
                else:
                    pending.append(b)
                    waiting.add(b)
    return _renumber(block_of)


def _renumber(keys: list) -> list[int]:
    index: dict = {}
    return [index.setdefault(k, len(index)) for k in keys]


def _orientation_group(ref: tuple[int, ...], block_of: list[int], gens: list[Perm]):
    """Frames (transporter images of the reference piece) per reachable piece and the
    orientation group generated by the Schreier generators; None when it exceeds MAX_TWISTS."""
    frames = {block_of[ref[0]]: ref}
    queue = [block_of[ref[0]]]
    schreier: set[tuple[int, ...]] = set()
    for b in queue:
        frame = frames[b]
        for g in gens:
            image = tuple(g[x] for x in frame)
            b2 = block_of[image[0]]
            if b2 not in frames:
                frames[b2] = image
                queue.append(b2)
            else:
                pos = {x: j for j, x in enumerate(frames[b2])}
                sigma = tuple(pos[x] for x in image)
                if not perm.is_identity(sigma):
                    schreier.add(sigma)
    group = perm.group_elements(sorted(schreier), len(ref), MAX_TWISTS)
    return frames, None if group is None else tuple(sorted(group))


def _orbit_names(sizes: list[int]) -> list[str]:
    """Names by piece size; one-sticker pieces are "tiles" when no piece has several stickers."""
    names = []
    multi = any(s > 1 for s in sizes)
    for i, size in enumerate(sizes):
        name = PIECE_NAMES.get(size) if multi else "tiles"
        names.append(name or f"orbit {i}")
    counts = Counter(names)
    numbered: Counter = Counter()
    out = []
    for name in names:
        if counts[name] > 1 and not name.startswith("orbit "):
            numbered[name] += 1
            name = f"{name} {numbered[name]}"
        out.append(name)
    return out


def build_piece_model(defn: Definition) -> PieceModel:
    n = defn.stickers
    gens = piece_generators(defn)
    moved = sorted({i for g in gens for i in range(n) if g[i] != i})
    fixed = tuple(i for i in range(n) if all(g[i] == i for g in gens))
    single = set()  # stickers of orbits whose orientation group was too large
    while True:
        block_of = _blocks(n, gens)
        if single:
            block_of = [(-1 - i) if i in single else b for i, b in enumerate(block_of)]
        members: dict[int, list[int]] = {}
        for i in moved:
            members.setdefault(block_of[i], []).append(i)
        pieces = sorted(tuple(m) for m in members.values())
        block_of = list(block_of)
        orbits_raw = []
        done: set[int] = set()
        too_big = None
        for piece in pieces:
            b = block_of[piece[0]]
            if b in done:
                continue
            frames, rot = _orientation_group(piece, block_of, gens)
            done.update(frames)
            if rot is None:
                too_big = [x for f in frames.values() for x in f]
                break
            slots = tuple(sorted(frames.values(), key=min))
            orbits_raw.append((slots, rot))
        if too_big is None:
            break
        single.update(too_big)
    names = _orbit_names([len(slots[0]) for slots, _ in orbits_raw])
    orbits = tuple(Orbit(slots=slots, twists=len(rot), rot=rot, name=name)
                   for (slots, rot), name in zip(orbits_raw, names))
    return PieceModel(orbits=orbits, fixed=fixed, goal=tuple(defn.goal))


@lru_cache(maxsize=64)
def piece_model(defn: Definition) -> PieceModel:
    """The piece model of a definition (cached per definition)."""
    return build_piece_model(defn)
