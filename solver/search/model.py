"""A definition compiled for the search kernels: pieces as locations, moves as lookup tables.

A search state is `loc`, one int per piece: the *code* of where the piece is, `base + slot*k + o`
(orbit base, slot, orientation). A move is a row of a table over codes, so applying it is
`loc[p] = table[m, loc[p]]` for every piece. Pieces are numbered by their slot in the first goal;
pieces that look the same in that goal form a *class*, and a state names only which class sits where,
so every ranking treats the pieces of one class as interchangeable.

Guarded moves have one table row per case, and each case a list of guard items "the piece at slot S
shows colour c at position p", precomputed as a boolean over (class, orientation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from solver import deadline
from solver.definition.model import Definition
from solver.errors import PuzzleError, StateError, UnreachableError
from solver.partial import WILDCARD
from solver.recent import Recent


@dataclass
class OrbitInfo:
    n: int  # slots
    k: int  # orientations
    base: int  # first code
    first_piece: int  # pieces first_piece .. first_piece+n-1 live in this orbit
    first_slot: int  # global slot index of slot 0
    classes: np.ndarray  # per piece (local): its class, the smallest goal slot of a look-alike
    name: str
    twist_invariant: bool  # every move keeps the sum of orientations mod k
    twist_additive: bool  # every move adds to a piece's twist an amount that depends on its slot only
    slots: tuple = ()
    rot: tuple = ()


@dataclass
class SearchModel:
    defn: Definition
    pieces: object  # the PieceModel
    orbits: list[OrbitInfo]
    move_names: list[str]
    case_start: np.ndarray  # move m has case rows case_start[m] .. case_start[m+1]-1
    tables: np.ndarray  # int32 [cases, codes]
    guard_start: np.ndarray  # case c has guard items guard_start[c] .. guard_start[c+1]-1
    guard_orbit: np.ndarray  # per guard item: orbit index
    guard_slot: np.ndarray  # per guard item: slot within the orbit
    guard_ok: np.ndarray  # bool [items, max_k * max_n]: class*k+o shows the required colour
    guard_static: np.ndarray  # per case: 0 never applies (a fixed position fails), 1 otherwise
    goals: list[np.ndarray] = field(default_factory=list)  # goal loc arrays
    goal_fixed: list[tuple] = field(default_factory=list)  # colours of fixed positions per goal
    goal_sums: list[list[int]] = field(default_factory=list)  # per goal, orientation sum per orbit

    @property
    def guarded(self) -> bool:
        return self.defn.guarded

    @property
    def n_pieces(self) -> int:
        return sum(o.n for o in self.orbits)

    @property
    def n_codes(self) -> int:
        return sum(o.n * o.k for o in self.orbits)

    @property
    def n_slots(self) -> int:
        return self.n_pieces

    @cached_property
    def piece_orbit(self) -> np.ndarray:
        return np.array([r for r, o in enumerate(self.orbits) for _ in range(o.n)], dtype=np.int32)

    @cached_property
    def piece_class(self) -> np.ndarray:
        """Class of each piece as a local class index times k (ready to add an orientation)."""
        return np.concatenate([o.classes * o.k for o in self.orbits]).astype(np.int32) if self.orbits else np.zeros(0, np.int32)

    @cached_property
    def distinct_orbits(self) -> list[int]:
        """The orbits whose pieces all look different: a state says which piece sits where, so
        their slot permutations have a parity."""
        return [r for r, o in enumerate(self.orbits) if len(set(o.classes.tolist())) == o.n]

    def slots_of(self, loc: np.ndarray, r: int) -> list[int]:
        """Per piece of orbit r (pieces are numbered by their slot in the first goal), its slot now."""
        orb = self.orbits[r]
        return ((loc[orb.first_piece:orb.first_piece + orb.n] - orb.base) // orb.k).tolist()

    @cached_property
    def orbit_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(n, k, base, first_slot) per orbit for the kernels."""
        return tuple(
            np.array([getattr(o, f) for o in self.orbits], dtype=np.int32) for f in ("n", "k", "base", "first_slot")
        )

    def encode(self, state) -> np.ndarray:
        """The loc array of a sticker state; StateError when a slot holds no piece of its orbit."""
        views = self.pieces.read(state)
        loc = np.empty(self.n_pieces, dtype=np.int32)
        for r, orb in enumerate(self.orbits):
            view = np.asarray(views[r])
            labels, oris = view // orb.k, view % orb.k
            wanted = np.sort(orb.classes)
            if not np.array_equal(np.sort(labels), wanted):
                raise UnreachableError(f"{orb.name}: the pieces present differ from the goal's (colour counts differ)")
            for cls in set(orb.classes.tolist()):  # (np.unique imports numpy.ma on first use: 20 ms)
                pieces = np.flatnonzero(orb.classes == cls)
                where = np.flatnonzero(labels == cls)
                loc[orb.first_piece + pieces] = orb.base + where * orb.k + oris[where]
        return loc

    def view(self, loc: np.ndarray) -> np.ndarray:
        """What sits at every slot (class*k+o), the form in which equal states compare equal."""
        return slot_view(loc, self.piece_orbit, self.piece_class, *self.orbit_arrays)

    def goals_for(self, state) -> np.ndarray:
        """The goals reachable in principle from `state`: same colours on the fixed positions."""
        fixed = tuple(state[p] for p in self.pieces.fixed)
        rows = [self.view(g) for g, f in zip(self.goals, self.goal_fixed) if f == fixed]
        if not rows:
            raise UnreachableError("the positions no move changes differ from every goal")
        return np.array(rows, dtype=np.int32)

    def check_twists(self, loc: np.ndarray) -> None:
        sums = orientation_sums(self, loc)
        for r, orb in enumerate(self.orbits):
            if orb.twist_invariant and all(gs[r] != sums[r] for gs in self.goal_sums):
                raise UnreachableError(f"{orb.name}: the total twist of the pieces is wrong (no move changes it)")

    def canonical_pairs(self) -> np.ndarray:
        """allowed[a, b]: may move b follow move a in a search (row `a = n_moves` is the start).

        b after a is pruned when a b is the identity or a single move of the definition (a shorter
        sequence does the same), and when a and b commute and b comes first in move order, so of
        each pair of commuting moves only one order is searched. Guarded moves are not pruned here
        (the kernels refuse going straight back to the grandparent state instead).
        """
        m = len(self.move_names)
        allowed = np.ones((m + 1, m), dtype=np.bool_)
        if self.guarded:
            return allowed
        perms = np.array([self.defn.move(name).perm for name in self.move_names], dtype=np.int32)
        singles = {p.tobytes() for p in perms} | {np.arange(self.defn.stickers, dtype=np.int32).tobytes()}
        for a in range(m):
            deadline.check()  # m^2 compositions: a globe of 1,650 stickers has 116 moves
            after = perms[:, perms[a]]  # row b: a then b
            before = perms[a][perms]  # row b: b then a
            for b in range(m):
                if after[b].tobytes() in singles or (b < a and np.array_equal(after[b], before[b])):
                    allowed[a, b] = False
        return allowed


def orientation_sums(model: SearchModel, loc: np.ndarray) -> list[int]:
    out = []
    for orb in model.orbits:
        codes = loc[orb.first_piece : orb.first_piece + orb.n] - orb.base
        out.append(int((codes % orb.k).sum() % orb.k))
    return out


def slot_view(loc, piece_orbit, piece_class, on, ok, obase, oslot):
    from solver.compiled import interpreted
    from solver.search.kernels import slot_view as kernel

    with interpreted():  # one state: loading the compiled kernel would cost more
        return kernel(loc, piece_orbit, piece_class, on, ok, obase, oslot)


def _twist_kind(tables: list[np.ndarray], k: int) -> tuple[bool, bool]:
    """(invariant, additive): additive when every table adds a per-slot twist (o -> o + d mod k);
    invariant when moreover the added twists of every table total 0 mod k."""
    if k == 1:
        return False, False
    invariant = True
    for t in tables:
        t = np.asarray(t).reshape(-1, k) % k
        d = t[:, :1]
        if not np.array_equal(t, (d + np.arange(k)) % k):
            return False, False
        invariant &= int(d.sum()) % k == 0
    return invariant, True


def compile_model(defn: Definition, pieces) -> SearchModel:
    """Build the search form of `defn` from its piece model."""
    orbits: list[OrbitInfo] = []
    goal_views = pieces.read(defn.goal)
    base = first_piece = 0
    for r, orb in enumerate(pieces.orbits):
        n, k = len(orb.slots), orb.twists
        looks = orb.looks(defn.goal)
        if any(o and WILDCARD in seen and seen == looks[h * k][2] for h, o, seen in looks):
            # a partial goal's masked piece (all `?`): a search state could not tell its twist and
            # would ask for one; the colour-level searches serve such a puzzle
            raise PuzzleError(f"{orb.name}: a piece looks the same turned in its slot, so its twist cannot be read")
        classes = np.asarray(goal_views[r]) // k
        orbits.append(OrbitInfo(n, k, base, first_piece, first_piece, classes.astype(np.int32), orb.name, False, False,
                                orb.slots, orb.rot))
        base += n * k
        first_piece += n
    n_codes = base

    # one table row per (move, case)
    rows: list[np.ndarray] = []
    per_orbit: list[list[np.ndarray]] = [[] for _ in orbits]
    case_start = [0]
    guards: list[list[tuple[int, str]]] = []
    for move in defn.moves:
        deadline.check()  # big puzzles take seconds here: a solve's time limit holds
        for case in move.cases:
            parts = pieces.action(case.perm)
            row = np.empty(n_codes, dtype=np.int32)
            for r, orb in enumerate(orbits):
                t = np.asarray(parts[r], dtype=np.int32)
                per_orbit[r].append(t)
                row[orb.base : orb.base + orb.n * orb.k] = t + orb.base
            rows.append(row)
            guards.append(list(case.guard))
        case_start.append(len(rows))
    for r, orb in enumerate(orbits):
        orb.twist_invariant, orb.twist_additive = _twist_kind(per_orbit[r], orb.k)

    # guard items: position -> (orbit, slot, sticker index within the slot)
    where: dict[int, tuple[int, int, int]] = {}
    for r, orb in enumerate(orbits):
        for s, slot in enumerate(orb.slots):
            for j, p in enumerate(slot):
                where[p] = (r, s, j)
    goal = defn.goal
    max_nk = max((o.n * o.k for o in orbits), default=1)
    g_start, g_orbit, g_slot, g_ok, static = [0], [], [], [], []
    for guard in guards:
        ok_case = 1
        for p, colour in guard:
            if p not in where:  # a position no move changes: its colour is the goal's
                ok_case &= int(goal[p] == colour)
                continue
            r, s, j = where[p]
            orb = orbits[r]
            ok = np.zeros(max_nk, dtype=np.bool_)
            for cls in range(orb.n):
                for o in range(orb.k):
                    # the piece of class cls twisted o shows at sticker j its reference sticker rot[o]^-1[j]
                    ref = orb.rot[o].index(j)
                    ok[cls * orb.k + o] = goal[orb.slots[cls][ref]] == colour
            g_orbit.append(r)
            g_slot.append(s)
            g_ok.append(ok)
        g_start.append(len(g_orbit))
        static.append(ok_case)

    model = SearchModel(
        defn=defn,
        pieces=pieces,
        orbits=orbits,
        move_names=[m.name for m in defn.moves],
        case_start=np.array(case_start, dtype=np.int32),
        tables=np.array(rows, dtype=np.int32).reshape(len(rows), n_codes),
        guard_start=np.array(g_start, dtype=np.int32),
        guard_orbit=np.array(g_orbit, dtype=np.int32),
        guard_slot=np.array(g_slot, dtype=np.int32),
        guard_ok=np.array(g_ok, dtype=np.bool_).reshape(len(g_ok), max_nk),
        guard_static=np.array(static, dtype=np.int8),
    )
    for g in defn.goals:
        try:
            loc = model.encode(g)
        except (StateError, UnreachableError):
            continue  # a symmetry image whose colours sit on no piece: not reachable by moves
        model.goals.append(loc)
        model.goal_fixed.append(tuple(g[p] for p in pieces.fixed))
        model.goal_sums.append(orientation_sums(model, loc))
    return model


_cache: Recent = Recent()  # id(defn) -> (defn, model), the recent ones


def search_model(defn: Definition, pieces=None) -> SearchModel:
    """The compiled model of `defn`, kept for the process (definitions are immutable). `pieces`
    overrides the derived piece model (a caller that knows the pieces better)."""
    hit = _cache.get(id(defn))
    if hit is not None and hit[0] is defn and pieces is None:
        return hit[1]
    if pieces is None:
        from solver.analysis.pieces import piece_model

        pieces = piece_model(defn)
    model = compile_model(defn, pieces)
    _cache[id(defn)] = (defn, model)
    return model
