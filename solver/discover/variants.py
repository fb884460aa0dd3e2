"""Variants of an algorithm and the arrows that draw its effect.

Variants have the same effect class (effects.py): the inverse, and the images of the sequence
under the puzzle's symmetries (the move-set automorphisms: a symmetry s turns move m into the move
s m s'). An image is a mirror when it turns a piece's stickers the other way round (a corner read
clockwise reads anticlockwise), else a rotation; where no piece has three stickers or more the two
cannot be told apart and the image is a "symmetric" one. Images that keep the algorithm on the
pieces it moves (a mirror through its layer) come first.

Arrows: per moved piece, one arrow from its place to the place the algorithm takes it, marked when
it arrives turned; a piece turned in its place is marked as twisted.
"""

from __future__ import annotations

import math

from solver import perm
from solver.definition.model import Definition
from solver.discover.effects import effects_for
from solver.engine import inverse_sequence

MAX_VARIANTS = 8


def sequence_perm(defn: Definition, moves: list[str]) -> tuple:
    """Where the sticker at each position goes after `moves`."""
    total = perm.identity(defn.stickers)
    for name in moves:
        total = perm.compose(total, defn.move(name).perm)
    return total


def _image(defn: Definition, s, moves: list[str], names: dict) -> list[str] | None:
    out = []
    for name in moves:
        m = defn.move(name).perm
        image = [0] * len(m)
        for x, y in enumerate(m):
            image[s[x]] = s[y]
        found = names.get(tuple(image))
        if found is None:
            return None
        out.append(found)
    return out


def _handedness(defn: Definition):
    """A function telling whether a symmetry mirrors (True), turns (False) or cannot be told (None);
    None when no piece can tell."""
    effects = effects_for(defn)
    orbits = [o for o in effects.model.orbits if len(o.slots[0]) >= 3 and o.twists == len(o.slots[0])]
    if not orbits:
        return None
    where = {x: slot for o in orbits for slot in o.slots for x in slot}

    def mirrors(s) -> bool | None:
        for slot in (slot for o in orbits for slot in o.slots):
            seen = tuple(s[x] for x in slot)
            target = where.get(seen[0])
            if target is None or set(seen) != set(target):  # the symmetry takes this piece elsewhere
                continue
            turns = {tuple(target[(i + k) % len(target)] for i in range(len(target))) for k in range(len(target))}
            return seen not in turns
        return None

    return mirrors


def variants(defn: Definition, moves: list[str]) -> list[dict]:
    """[{kind, moves}], at most MAX_VARIANTS, each distinct and other than `moves`."""
    if defn.guarded:
        return []
    names: dict = {}
    for m in defn.moves:
        names.setdefault(m.perm, m.name)
    p = sequence_perm(defn, moves)
    touched = {x for x in range(defn.stickers) if p[x] != x}
    mirrors = _handedness(defn)
    inverse = inverse_sequence(defn, moves)
    found: dict[tuple, dict] = {tuple(moves): {}}
    if inverse is not None:
        found.setdefault(tuple(inverse), {"kind": "inverse", "moves": inverse, "rank": (0, 0)})
    for s in effects_for(defn).automorphisms:
        if perm.is_identity(s):
            continue
        mirrored = None if mirrors is None else mirrors(s)
        kind = "symmetric" if mirrored is None else ("mirror" if mirrored else "rotation")
        overlap = len({s[x] for x in touched} & touched)
        for base, label in ((moves, kind), (inverse, f"{kind} of the inverse")):
            if base is None:
                continue
            image = _image(defn, s, base, names)
            if image is not None:
                # images on the same pieces first, mirrors before rotations, the inverse's last
                rank = (1 + (base is inverse), -overlap, kind != "mirror")
                if tuple(image) not in found or found[tuple(image)].get("rank", (9,)) > rank:
                    found[tuple(image)] = {"kind": label, "moves": image, "rank": rank}
    chosen = sorted((v for v in found.values() if v), key=lambda v: v["rank"])[:MAX_VARIANTS]
    return [{"kind": v["kind"], "moves": v["moves"]} for v in chosen]


def arrows(defn: Definition, moves: list[str], cells) -> list[dict]:
    """[{"from": sticker, "to": sticker, "turned": bool, "twist": bool, "cycle": int}] for the pieces
    `moves` move: an arrow from a piece's place to the place it goes, drawn between stickers that
    correspond in the two places (of those, the pair closest in the layout, so a layer's arrows
    stay on its face); `turned` when the piece arrives turned, `twist` (from == to) for a piece
    turned in its place; `cycle` numbers the cycle of places the arrow belongs to (0, 1, ... in the
    order met), so a drawing can tell crossing cycles apart. `cells` are the drawing's places of
    the stickers ((x, y, ...) or None)."""
    p = sequence_perm(defn, moves)
    model = effects_for(defn).model
    out = []
    cycles = 0
    for orbit in model.orbits:
        slot_of = {x: slot for slot in orbit.slots for x in slot}
        cycle_of: dict[tuple, int] = {}
        for slot in orbit.slots:
            if all(p[x] == x for x in slot):
                continue
            if slot not in cycle_of:  # a new cycle of places: number all of it
                place = slot
                while place not in cycle_of:
                    cycle_of[place] = cycles
                    place = slot_of[p[place[0]]]
                cycles += 1
            target = slot_of[p[slot[0]]]
            pairs = [(a, b) for a, b in zip(slot, target) if cells[a] is not None and cells[b] is not None]
            if not pairs:
                continue
            if target == slot:  # turned in its place
                out.append({"from": pairs[0][0], "to": pairs[0][0], "turned": True, "twist": True,
                            "cycle": cycle_of[slot]})
                continue
            a, b = min(pairs, key=lambda ab: math.dist(cells[ab[0]][:2], cells[ab[1]][:2]))
            out.append({"from": a, "to": b, "turned": p[a] != b, "twist": False, "cycle": cycle_of[slot]})
    return out
