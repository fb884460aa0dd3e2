"""Recognising a known puzzle: is a user's definition a reference definition written with another
sticker numbering, other move and colour names, or another but equivalent move set?

The search maps each user move (each case, for guarded moves) to a reference move or a power of
one with the same cycle type, and user stickers to reference stickers, by backtracking; every
assignment is propagated through the mapped moves (if i goes to a, the sticker g(i) goes to r(a)),
with colours and guards relabelled along, so contradictions cut branches early. Equal group orders
then make the relabelled move groups equal, and each reference move gets a shortest user sequence.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from solver import perm
from solver.analysis.group import group_order
from solver.analysis.pieces import piece_model
from solver.definition.model import Definition
from solver.perm import Perm

MAX_SEQUENCE = 6  # longest user sequence searched for a reference move (meet in the middle)
MAX_NODES = 200_000  # backtracking budget before giving up
TIME_LIMIT = 10.0  # seconds of backtracking before giving up (the answer is then None)


@dataclass(frozen=True)
class Match:
    sticker: tuple[int, ...]  # user position -> reference position
    colour: dict[str, str]  # user colour -> reference colour
    moves: dict[str, list[str]]  # reference move name -> shortest user sequence


@dataclass(frozen=True)
class _Gen:
    perm: Perm
    inv: Perm
    guard: tuple  # ((position, colour), ...)
    name: str  # the move it belongs to


def _cycle_length(p: Perm, i: int) -> int:
    length, j = 1, p[i]
    while j != i:
        j, length = p[j], length + 1
    return length


def _cycle_type(p: Perm) -> tuple[int, ...]:
    return tuple(sorted(len(c) for c in perm.cycles(p)))


def _user_gens(defn: Definition) -> list[_Gen]:
    out, seen = [], set()
    for m in defn.moves:
        for case in m.cases:
            key = (case.perm, case.guard)
            if key not in seen and not perm.is_identity(case.perm):
                seen.add(key)
                out.append(_Gen(case.perm, perm.inverse(case.perm), case.guard, m.name))
    return out


def _targets(defn: Definition) -> list[_Gen]:
    """Reference permutations a user move may stand for: every case, and every power of an
    unguarded move (so U' or U2 in one definition can be U3 or U U in the other)."""
    out, seen = [], set()
    for m in defn.moves:
        for case in m.cases:
            powers = [case.perm] if case.guard else [perm.power(case.perm, k) for k in range(1, perm.order(case.perm))]
            for p in powers:
                if (p, case.guard) not in seen:
                    seen.add((p, case.guard))
                    out.append(_Gen(p, perm.inverse(p), case.guard, m.name))
    return out


def _pieces(defn: Definition) -> list[frozenset]:
    """Per sticker, the stickers of its piece: pieces must go onto pieces."""
    out = [frozenset((i,)) for i in range(defn.stickers)]
    for orbit in piece_model(defn).orbits:
        for slot in orbit.slots:
            for x in slot:
                out[x] = frozenset(slot)
    return out


def _sticker_classes(defn: Definition) -> list:
    """Per sticker, what relabelling keeps: how many moves (and powers of moves) move it in
    cycles of each length. Equal for stickers that can correspond."""
    counts: list[Counter] = [Counter() for _ in range(defn.stickers)]
    for t in _targets(defn):
        for c in perm.cycles(t.perm):
            for x in c:
                counts[x][len(c)] += 1
    return [tuple(sorted(c.items())) for c in counts]


def _signature(defn: Definition):
    model = piece_model(defn)
    return (
        defn.stickers,
        sorted(Counter(defn.goal).values()),
        sorted(Counter(_sticker_classes(defn)).values()),
        len(defn.goals),
        sorted((len(o.slots), len(o.slots[0]), o.twists) for o in model.orbits),
        len(model.fixed),
        defn.guarded,
    )


class _Search:
    def __init__(self, user: Definition, ref: Definition, time_limit: float = TIME_LIMIT):
        self.deadline = time.monotonic() + time_limit
        self.user, self.ref = user, ref
        self.n = user.stickers
        self.gens = _user_gens(user)
        targets = _targets(ref)
        self.by_type: dict[tuple, list[_Gen]] = {}
        for t in targets:
            self.by_type.setdefault(_cycle_type(t.perm), []).append(t)
        self.guarded = user.guarded
        self.nodes = 0
        self.user_class = _sticker_classes(user)
        self.ref_class = _sticker_classes(ref)
        self.user_piece = _pieces(user)
        self.ref_piece = _pieces(ref)

    # state: phi (user -> ref or -1), psi (ref -> user or -1), cmap, cinv, pairs
    def _set(self, st, i: int, a: int, queue: list) -> bool:
        phi, psi, cmap, cinv, _ = st
        if phi[i] == a:
            return True
        if phi[i] != -1 or psi[a] != -1 or self.user_class[i] != self.ref_class[a]:
            return False
        mates = self.ref_piece[a]
        if any(phi[j] != -1 and phi[j] not in mates for j in self.user_piece[i]):
            return False
        cu, cr = self.user.goal[i], self.ref.goal[a]
        if cmap.get(cu, cr) != cr or cinv.get(cr, cu) != cu:
            return False
        cmap[cu], cinv[cr] = cr, cu
        phi[i], psi[a] = a, i
        queue.append(i)
        return True

    def _propagate(self, st, queue: list) -> bool:
        phi, pairs = st[0], st[4]
        while queue:
            i = queue.pop()
            for g, r in pairs:
                a = phi[i]
                if not self._set(st, g.perm[i], r.perm[a], queue):
                    return False
                if not self._set(st, g.inv[i], r.inv[a], queue):
                    return False
        return True

    def _pair(self, st, g: _Gen, r: _Gen) -> bool:
        """Add the pair g -> r, relabel its guard and propagate from every known sticker."""
        st[4].append((g, r))
        queue: list[int] = []
        if len(g.guard) != len(r.guard):
            return False
        if len(g.guard) == 1:
            (p, c), (q, d) = g.guard[0], r.guard[0]
            if not self._set(st, p, q, queue):
                return False
            if st[2].get(c, d) != d or st[3].get(d, c) != c:
                return False
            st[2][c], st[3][d] = d, c
        queue.extend(i for i in range(self.n) if st[0][i] != -1)
        return self._propagate(st, queue)

    @staticmethod
    def _copy(st):
        phi, psi, cmap, cinv, pairs = st
        return (list(phi), list(psi), dict(cmap), dict(cinv), list(pairs))

    def run(self):
        start = ([-1] * self.n, [-1] * self.n, {}, {}, [])
        return self._assign(start, frozenset(), frozenset())

    def _next_generator(self, st, done: frozenset) -> tuple[int, int]:
        """(known stickers it moves, index) of the unpaired generator moving most known
        stickers, then with fewest candidates."""
        phi = st[0]

        def key(k):
            g = self.gens[k]
            known = sum(1 for i in perm.support(g.perm) if phi[i] != -1)
            return (-known, len(self.by_type.get(_cycle_type(g.perm), ())), k)

        best = min((k for k in range(len(self.gens)) if k not in done), key=key)
        return -key(best)[0], best

    def _assign(self, st, done: frozenset, used: frozenset):
        """Pair generators while some unpaired one moves a placed sticker (its candidates are
        few); otherwise place a sticker a paired move reaches; otherwise pair a generator and
        choose where one of its stickers goes."""
        self.nodes += 1
        if self.nodes > MAX_NODES or (self.nodes % 64 == 0 and time.monotonic() > self.deadline):
            return None
        known, k = self._next_generator(st, done) if len(done) < len(self.gens) else (0, None)
        if not known:
            loose = self._loose_sticker(st)
            if loose is not None:
                for a in self._places(st, loose):
                    branch = self._copy(st)
                    if self._set(branch, loose, a, q := []) and self._propagate(branch, q):
                        found = self._assign(branch, done, used)
                        if found:
                            return found
                return None
        if k is None:
            return self._complete(st)
        g = self.gens[k]
        for r in self.by_type.get(_cycle_type(g.perm), ()):
            if self.guarded and (r.perm, r.guard) in used:
                continue
            if not self._fits(st, g, r):
                continue
            nxt = self._copy(st)
            if not self._pair(nxt, g, r):
                continue
            if not any(nxt[0][i] != -1 for i in perm.support(g.perm)):
                i = perm.support(g.perm)[0]
                for a in perm.support(r.perm):
                    branch = self._copy(nxt)
                    if self._set(branch, i, a, q := []) and self._propagate(branch, q):
                        found = self._assign(branch, done | {k}, used | {(r.perm, r.guard)})
                        if found:
                            return found
                continue
            found = self._assign(nxt, done | {k}, used | {(r.perm, r.guard)})
            if found:
                return found
        return None

    def _loose_sticker(self, st) -> int | None:
        phi, pairs = st[0], st[4]
        for g, _ in pairs:
            for i in perm.support(g.perm):
                if phi[i] == -1:
                    return i
        return None

    def _places(self, st, i: int) -> list[int]:
        """Reference stickers i may go to: unplaced, same class, moved alike by the paired moves."""
        psi, pairs = st[1], st[4]
        out = []
        for a in range(self.n):
            if psi[a] != -1 or self.ref_class[a] != self.user_class[i]:
                continue
            if all(_cycle_length(g.perm, i) == _cycle_length(r.perm, a) for g, r in pairs):
                out.append(a)
        return out

    def _fits(self, st, g: _Gen, r: _Gen) -> bool:
        """Quick check: known stickers of g's support must go to stickers r moves alike."""
        phi = st[0]
        for i in perm.support(g.perm):
            a = phi[i]
            if a != -1:
                j, b = g.perm[i], r.perm[a]
                if phi[j] != -1 and phi[j] != b:
                    return False
                if a == b:
                    return False
        return True

    def _complete(self, st):
        """Every generator is paired: place stickers no known sticker reaches, then the fixed ones."""
        phi, psi = st[0], st[1]
        moved = [i for i in range(self.n) if any(g.perm[i] != i for g in self.gens)]
        loose = next((i for i in moved if phi[i] == -1), None)
        if loose is not None:
            for a in range(self.n):
                if psi[a] == -1:
                    branch = self._copy(st)
                    if self._set(branch, loose, a, q := []) and self._propagate(branch, q):
                        found = self._complete(branch)
                        if found:
                            return found
            return None
        # stickers no move touches: pair them colour by colour, equal counts
        cmap, cinv = st[2], st[3]
        user_left: dict[str, list[int]] = {}
        ref_left: dict[str, list[int]] = {}
        for i in range(self.n):
            if phi[i] == -1:
                user_left.setdefault(self.user.goal[i], []).append(i)
            if psi[i] == -1:
                ref_left.setdefault(self.ref.goal[i], []).append(i)
        for c, xs in user_left.items():
            d = cmap.get(c) or next((d for d, ys in ref_left.items()
                                     if d not in cinv and len(ys) == len(xs)), None)
            if d is None or len(ref_left.get(d, ())) != len(xs):
                return None
            for i, a in zip(xs, ref_left[d]):
                if not self._set(st, i, a, []):
                    return None
        return st if self._verified(st) else None

    def _verified(self, st) -> bool:
        phi, _, cmap, _, pairs = st
        for g, r in pairs:
            if any(r.perm[phi[i]] != phi[g.perm[i]] for i in range(self.n)):
                return False
            if sorted((phi[p], cmap.get(c)) for p, c in g.guard) != sorted(r.guard):
                return False
        user_goals = {tuple(cmap[c] for c in _relabel(goal, phi)) for goal in self.user.goals}
        return user_goals == set(self.ref.goals)


def _relabel(state, phi) -> list:
    out = [None] * len(state)
    for i, c in enumerate(state):
        out[phi[i]] = c
    return out


def _shortest(target: Perm, moves: list[tuple[str, Perm]], n: int) -> list[str] | None:
    """A shortest sequence of the moves whose product is target (meet in the middle)."""
    ident = perm.identity(n)
    if target == ident:
        return []
    forward = {ident: []}
    backward = {target: []}
    inverses = [(name, perm.inverse(p)) for name, p in moves]
    for depth in range(1, MAX_SEQUENCE + 1):
        if depth % 2:  # grow the forward side
            layer = {}
            for p, seq in forward.items():
                if len(seq) == (depth - 1) // 2:
                    for name, m in moves:
                        q = perm.compose(p, m)
                        if q not in forward and q not in layer:
                            layer[q] = seq + [name]
            forward.update(layer)
        else:
            layer = {}
            for p, seq in backward.items():
                if len(seq) == depth // 2 - 1:
                    for name, m in inverses:
                        q = perm.compose(p, m)
                        if q not in backward and q not in layer:
                            layer[q] = [name] + seq
            backward.update(layer)
        best = None
        for p, seq in backward.items():
            if p in forward and (best is None or len(forward[p]) + len(seq) < len(best)):
                best = forward[p] + seq
        if best is not None:
            return best
    return None


def match(defn: Definition, reference: Definition, time_limit: float = TIME_LIMIT) -> Match | None:
    """A relabelling that turns `defn` into `reference`, or None when there is none (or none was
    found within the time limit)."""
    if _signature(defn) != _signature(reference):
        return None
    if not defn.guarded and group_order(defn) != group_order(reference):
        return None
    if defn.guarded and len(_user_gens(defn)) != len(_targets(reference)):
        return None
    found = _Search(defn, reference, time_limit).run()
    if found is None:
        return None
    phi, psi, cmap, _, _ = found
    n = defn.stickers
    moves: dict[str, list[str]] = {}
    if defn.guarded:
        cinv = {d: c for c, d in cmap.items()}
        for m in reference.moves:
            wanted = {(tuple(psi[c.perm[phi[i]]] for i in range(n)),
                       tuple(sorted((psi[q], cinv[d]) for q, d in c.guard))) for c in m.cases}
            user = next((um for um in defn.moves if {(c.perm, c.guard) for c in um.cases} == wanted), None)
            if user is None:
                return None
            moves[m.name] = [user.name]
    else:
        user_moves = [(m.name, m.perm) for m in defn.moves]
        for m in reference.moves:
            back = tuple(psi[m.perm[phi[i]]] for i in range(n))
            seq = _shortest(back, user_moves, n)
            if seq is None:
                return None
            moves[m.name] = seq
    return Match(sticker=tuple(phi), colour=cmap, moves=moves)

