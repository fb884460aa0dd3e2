"""The effect of a move sequence on pieces: cycles of pieces with their orientation change, the
pieces touched (support), the order, a text, and a key that is the same for effects that differ
only by a setup (conjugation), by inversion or by a symmetry of the move set.

The key of one orbit is the multiset of its piece cycles, each as (length, twist class), where the
twist class is the conjugacy class, in the orbit's orientation group, of the orientation a piece
comes back with after going once round its cycle. That multiset is unchanged by conjugation with
anything that maps pieces to pieces; the key is the smallest such signature over the images of the
effect and its inverse under the move-set automorphisms.

Effects are read as seen: a goal rotation that the definition declares solved is taken out, and
pieces that look alike in the goal may trade places unseen (balls of one colour on the ball ring).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from solver import perm
from solver.analysis.pieces import Orbit, PieceModel, piece_model
from solver.definition.model import Definition
from solver.discover import naming, symmetry
from solver.discover.moveset import MoveSet
from solver.engine import parse_moves
from solver.errors import NotationError
from solver.perm import Perm

ORDER_STEPS = 100_000  # up to this order, repeats are replayed one by one
PIECE_KINDS = {"corners": "corner", "edges": "edge", "centres": "centre", "tiles": "tile"}


@dataclass(frozen=True)
class Effect:
    text: str
    key: str
    support: int  # pieces touched
    order: int  # how many times the sequence is repeated to get back to a goal
    cycles: tuple  # per cycle: {"orbit", "pieces", "twist"}
    perm: Perm = field(repr=False)  # the sticker permutation read, after taking out a goal rotation

    def as_dict(self) -> dict:
        return {"effect": self.text, "effect_key": self.key, "support": self.support, "order": self.order,
                "cycles": [dict(c) for c in self.cycles]}


def _twist_classes(orbit: Orbit) -> list[int]:
    """Per orientation, the smallest orientation conjugate to it in the orientation group."""
    index = {r: i for i, r in enumerate(orbit.rot)}
    out = []
    for r in orbit.rot:
        out.append(min(index[perm.compose(perm.inverse(a), r, a)] for a in orbit.rot))
    return out


class Effects:
    """Reads effects for one definition; built once, used for many sequences."""

    def __init__(self, defn: Definition, moves: MoveSet | None = None):
        self.defn = defn
        self.moves = moves if moves is not None else (None if defn.guarded else MoveSet.of(defn))
        self.model: PieceModel = piece_model(defn)
        self._keys: dict[tuple, str] = {}
        self._twists = [_twist_classes(o) for o in self.model.orbits]
        labels = [f"{len(o.slots)}x{len(o.slots[0])}/{o.twists}" for o in self.model.orbits]
        self._labels = [lab if labels.count(lab) == 1 else f"{lab}#{i}" for i, lab in enumerate(labels)]

    @cached_property
    def automorphisms(self) -> list[Perm]:
        if self.moves is None:
            return [perm.identity(self.defn.stickers)]
        return symmetry.automorphisms(self.moves.perms)[0]

    @cached_property
    def automorphism_generators(self) -> list[Perm]:
        return symmetry.generators_of(self.automorphisms)

    @cached_property
    def rotations(self) -> list[Perm]:
        """The goal rotations that map pieces onto pieces, identity first."""
        n = self.defn.stickers
        group = symmetry.closure([p for _name, p in self.defn.symmetries], n) or [perm.identity(n)]
        out = []
        for r in group:
            try:
                self.model.action(r)
            except ValueError:
                continue
            out.append(r)
        return out

    @cached_property
    def rotation_inverses(self) -> list[Perm]:
        return [perm.inverse(r) for r in self.rotations]

    @cached_property
    def names(self) -> list[list[str] | None]:
        if self.moves is None:
            return [None] * len(self.model.orbits)
        return naming.piece_names(self.defn, self.moves, self.model, [_kind(o.name) for o in self.model.orbits])

    @cached_property
    def lookalike(self) -> bool:
        """Whether some pieces look alike in the goal (same colours, or a piece that shows the same
        colours turned): then effects are read as seen, and equal looks hide exchanges."""
        goal = self.defn.goal
        for orbit in self.model.orbits:
            looks = set()
            for slot in orbit.slots:
                for o, r in enumerate(orbit.rot):
                    turned = [""] * len(slot)
                    for j, x in enumerate(slot):
                        turned[r[j]] = goal[x]
                    key = tuple(turned)
                    if key in looks:
                        return True
                    looks.add(key)
        return False

    def reduce(self, p: Perm) -> Perm:
        """The permutation as seen: the goal rotation taken out that changes the fewest stickers'
        colours, then every exchange of look-alike pieces taken out (see `_settle`)."""
        goal = self.defn.goal
        best, best_count = p, None
        for rinv in self.rotation_inverses:
            q = perm.compose(p, rinv) if len(self.rotation_inverses) > 1 else p
            count = sum(1 for i, x in enumerate(q) if goal[i] != goal[x])
            if best_count is None or count < best_count:
                best, best_count = q, count
        return self._settle(best) if self.lookalike else best

    def _settle(self, q: Perm) -> Perm:
        """Where a slot shows its goal colours but holds another piece (or its own piece turned to
        look the same), let that piece stay and send the look-alike on in its place:
        q' = k q with k exchanging the slot's stickers with those of the piece that came in. k keeps
        the goal's colours, so q' gives the same state, and it moves one piece fewer. One pass:
        a fix changes no other slot's colours, so no slot needs a second look."""
        goal = self.defn.goal
        q = list(q)
        src = list(perm.inverse(q))
        for orbit in self.model.orbits:
            for slot in orbit.slots:
                if all(src[x] == x for x in slot) or any(goal[src[x]] != goal[x] for x in slot):
                    continue
                came = {x: src[x] for x in slot}
                if set(came.values()) == set(slot):  # the piece itself, turned
                    k = dict(came)
                else:
                    k = {**came, **{y: x for x, y in came.items()}}
                update = {y: q[k[y]] for y in k}
                for y, v in update.items():
                    q[y] = v
                    src[v] = y
        return tuple(q)

    def _cycles(self, q: Perm) -> list[list[tuple[int, list[int], int]]]:
        """Per orbit, its nontrivial piece cycles as (length, slots, orientation class after one round)."""
        out = []
        for oi, t in enumerate(self.model.action(q)):
            k = self.model.orbits[oi].twists
            seen = set()
            cycles = []
            for s in range(len(t) // k):
                if s in seen:
                    continue
                slots, x = [], s * k
                while True:
                    slots.append(x // k)
                    seen.add(x // k)
                    x = int(t[x])
                    if x // k == s:
                        break
                twist = self._twists[oi][x % k]
                if len(slots) > 1 or twist:
                    cycles.append((len(slots), slots, twist))
            out.append(cycles)
        return out

    def _signature(self, q: Perm) -> tuple:
        return tuple(
            (self._labels[oi], tuple(sorted((length, twist) for length, _slots, twist in cycles)))
            for oi, cycles in enumerate(self._cycles(q)) if cycles
        )

    @staticmethod
    def _key_text(signature: tuple) -> str:
        if not signature:
            return "identity"
        return ";".join(sorted(  # by orbit label, not orbit number: numbering stickers differently keeps the key
            label + ":" + ",".join(f"{length}" + (f"t{twist}" if twist else "") for length, twist in cycles)
            for label, cycles in signature
        ))

    def key(self, q: Perm) -> str:
        """The effect key of a reduced permutation (see the module text)."""
        signature = self._signature(q)
        cached = self._keys.get(signature)
        if cached is not None:
            return cached
        reps = {signature: q}
        inv = perm.inverse(q)
        reps.setdefault(self._signature(inv), inv)
        queue = list(reps.values())
        for rep in queue:
            for s in self.automorphism_generators:
                image = perm.compose(perm.inverse(s), rep, s)
                sig = self._signature(image)
                if sig not in reps:
                    reps[sig] = image
                    queue.append(image)
        key = min(self._key_text(sig) for sig in reps)
        for sig in reps:
            self._keys[sig] = key
        return key

    def order(self, p: Perm) -> int:
        """How many repeats of p bring the goal back to a goal: the order of the visible effect,
        which can be less than the order of p when pieces look alike or goals are rotations."""
        full = perm.order(p)
        goals = self.defn.goal_set
        if full <= ORDER_STEPS:
            state = self.defn.goal
            for k in range(1, full + 1):
                state = perm.apply(p, state)
                if state in goals:
                    return k
            return full
        for k in sorted(d for d in _divisors(full)):
            if perm.apply(perm.power(p, k), self.defn.goal) in goals:
                return k
        return full

    def of_perm(self, p: Perm) -> Effect:
        q = self.reduce(p)
        cycles, support = [], 0
        groups: dict[str, list] = {}  # kind of piece -> its cycles, for the text
        for oi, orbit_cycles in enumerate(self._cycles(q)):
            names = self.names[oi]
            orbit = self.model.orbits[oi]
            for length, slots, twist in orbit_cycles:
                support += length
                pieces = [names[s] if names else s for s in slots]
                cycles.append({"orbit": orbit.name, "pieces": pieces, "twist": twist})
                groups.setdefault(_kind(orbit.name), []).append(
                    (length, pieces if names else None, twist, orbit.twists))
        parts = [part for kind, group in groups.items() for part in _describe(kind, group)]
        text = " + ".join(parts) if parts else "no effect"
        return Effect(text=text, key=self.key(q), support=support, order=self.order(p),
                      cycles=tuple(cycles), perm=q)

    def of_moves(self, names: list[str]) -> Effect:
        """The effect of a sequence of move names (already checked), replayed from the goal so
        that guarded moves take the case that applies there."""
        n = self.defn.stickers
        state = self.defn.goal
        p = perm.identity(n)
        for k, name in enumerate(names):
            case = self.defn.move(name).case_for(state)
            if case is None:
                raise NotationError(f"moves[{k}]: move {name} cannot be made in this state (no case's guard holds)")
            state = perm.apply(case.perm, state)
            p = perm.compose(p, case.perm)
        return self.of_perm(p)


@lru_cache(maxsize=16)
def effects_for(defn: Definition) -> Effects:
    """The Effects of a definition, kept for the next call (symmetries take a moment to find)."""
    return Effects(defn)


def effect(defn: Definition, moves) -> dict:
    """The effect of a move sequence (names, as a list or space-separated) on the goal."""
    return effects_for(defn).of_moves(parse_moves(defn, moves)).as_dict()


def _kind(orbit_name: str) -> str:
    """"corners 2" -> "corners": orbits of the same kind of piece are described together."""
    words = orbit_name.split()
    if len(words) == 2 and words[0] in PIECE_KINDS and words[1].isdigit():
        return words[0]
    return orbit_name


def _describe(kind: str, cycles: list) -> list[str]:
    """Texts like `corner 3-cycle (URF URB ULB)`, `2 corners twisted (URF DRB)`, or generic
    `3-cycle of orbit 2` when the kind of piece has no name."""
    singular = PIECE_KINDS.get(kind)
    word = "flipped" if all(c[3] == 2 for c in cycles) else "twisted"
    by_length: dict[int, list] = {}
    for c in cycles:
        by_length.setdefault(c[0], []).append(c)
    parts = []
    for length in sorted(by_length):
        group = by_length[length]
        count = len(group)
        named = all(pieces is not None for _l, pieces, _t, _k in group)
        if length == 1:
            what = f"{count} {singular}{'s' if count > 1 else ''} {word}" if singular else f"{count} of {kind} {word}"
            if named:
                what += " (" + " ".join(pieces[0] for _l, pieces, _t, _k in group) + ")"
            if len({t for _l, _p, t, _k in group}) > 1:
                what += ", in different ways"
            parts.append(what)
            continue
        if singular:
            what = f"{singular} {length}-cycle" if count == 1 else f"{count} {singular} {length}-cycles"
        else:
            what = f"{length}-cycle of {kind}" if count == 1 else f"{count} {length}-cycles of {kind}"
        if named:
            what += " " + "".join("(" + " ".join(pieces) + ")" for _l, pieces, _t, _k in group)
        if any(t for _l, _p, t, _k in group):
            what += f", {word}"
        parts.append(what)
    return parts


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n ** 0.5) + 1) if n % d == 0]
    return small + [n // d for d in small if d * d != n]
