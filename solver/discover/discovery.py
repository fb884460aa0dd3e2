"""Discovery: short move sequences that touch few pieces, grouped by effect class and ranked.

Phases, each within its share of the time:
1. the pool: every permutation of at most d moves with a shortest sequence (breadth-first,
   duplicates removed); those touching at most K pieces are candidates;
2. commutators [A, B] = A B A' B' of short pieces (pool entries and their powers) whose moved
   pieces overlap in a few pieces;
3. products X Y of what was found, conjugated by short setups, where their pieces nearly coincide;
4. conjugates [S: X] = S X S' of the best of each class, kept when moves cancel;
5. for each class, the meet-in-the-middle search for its shortest sequence (exact up to twice
   the pool depth).
A cheap hash of the cycle shape lets the kernels pass on only a few candidates per shape; each
candidate's effect is then read from its own moves, so every result is replayed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver import deadline
from solver.definition.model import Definition
from solver.discover import kernels
from solver.discover.effects import Effect, Effects
from solver.discover.moveset import MoveSet
from solver.discover.pool import Pool
from solver.discover.shortest import shortest, targets_for
from solver.errors import PuzzleError
from solver.search.budget import Budget, Stopped

DEFAULT_TIME = 30.0
DEFAULT_SUPPORT = 4
DEFAULT_LENGTH = 24
KEEP = 3  # results per effect class
PER_SHAPE = 16  # candidates per cycle shape (cheap class hash) passed on to the exact effect
PAIR_BUDGET = 300_000_000  # commutator pairs looked at, at most
POWER_LENGTH = 12
PRODUCT_SIDE = 12_000  # sequences on each side of the products phase
TARGET_LIMIT = 20_000  # meet-in-the-middle targets per class, at most
PAIRS_PER_CALL = 1_000_000  # pairs per kernel call between budget checks
B_SIDE = 400  # most pool entries on the B side of commutators
ROWS_PER_CHECK = 8192  # rows built between two budget checks


@dataclass(frozen=True)
class Found:
    seq: tuple[int, ...]
    effect: Effect

    def rank(self) -> tuple:
        return (len(self.seq), self.effect.support, len(set(self.seq)), self.seq)


class Discovery:
    def __init__(self, effects: Effects, *, max_length: int, max_support: int, budget: Budget, keep: int = KEEP):
        self.effects = effects
        self.keep = keep
        self.moves = effects.moves
        self.max_length = max_length
        self.max_support = max_support
        self.budget = budget
        self.classes: dict[str, list[Found]] = {}
        self.proven: set[str] = set()  # classes whose shortest length is known
        self.pool: Pool | None = None
        rinv = np.array(effects.rotation_inverses, dtype=self.moves.dtype)
        self.rinv = rinv.reshape(len(effects.rotation_inverses), self.moves.stickers)
        slots = [slot for orbit in effects.model.orbits for slot in orbit.slots]
        self.piece_ptr = np.cumsum([0] + [len(s) for s in slots]).astype(np.int64)
        self.piece_stk = np.array([x for s in slots for x in s], dtype=np.int64)
        index = {c: i for i, c in enumerate(effects.defn.colours)}
        self.colour = np.array([index[c] for c in effects.defn.goal], dtype=np.int32)
        self.ref_stk, self.ref_mask = self._rotation_lookup(slots)

    def _rotation_lookup(self, slots) -> tuple[np.ndarray, np.ndarray]:
        """Reference stickers and masks that let the kernels try only the goal rotations that can
        matter (see kernels.best_support); empty when every rotation must be tried."""
        rotations = self.effects.rotations
        n = self.moves.stickers
        if not 1 < len(rotations) <= 64 or self.effects.lookalike or len(slots) <= self.max_support:
            return np.zeros(0, np.int64), np.zeros((0, n), np.uint64)
        ref = [slot[0] for slot in slots[: self.max_support + 1]]
        mask = np.zeros((len(ref), n), dtype=np.uint64)
        for r, rot in enumerate(rotations):
            for j, x in enumerate(ref):
                mask[j, rot[x]] |= np.uint64(1 << r)
        return np.array(ref, dtype=np.int64), mask

    # -- phases ------------------------------------------------------------------------------

    def build_pool(self, deadline: float) -> None:
        self.pool = Pool.build(self.moves, max_depth=self.max_length, budget=self.budget, deadline=deadline)

    def from_pool(self, deadline: float) -> None:
        """Pool entries touching few pieces, shortest first (as many as the deadline allows)."""
        pool = self.pool
        support = np.zeros(pool.count, dtype=np.int64)
        shape = np.zeros(pool.count, dtype=np.uint64)
        stop = 1
        while stop < pool.count and time.monotonic() < deadline:
            start, stop = stop, min(pool.count, stop + 16384)
            kernels.measure(pool.store, start, stop, self.rinv, self.piece_ptr, self.piece_stk, self.colour,
                            self.max_support, self.ref_stk, self.ref_mask, support, shape)
            self.budget.tick(pool.count)
        chosen = np.nonzero((support[:stop] > 0) & (support[:stop] <= self.max_support))[0]
        self._offer_all((tuple(pool.sequence(int(e))) for e in _first_per_shape(chosen, shape[chosen])), deadline)

    def _offer_all(self, candidates, deadline: float) -> None:
        """Offer candidates (best first) until the deadline: reading an effect is Python work."""
        for n, seq in enumerate(candidates):
            self.offer(seq)
            if n % 64 == 63:
                self.budget.tick(self.pool.count, text=f"{len(self.classes)} effect classes")
                if time.monotonic() > deadline:
                    return

    def b_side(self) -> int:
        """How many pool entries (shortest first) serve as B in commutators and as setups: one
        move, and two when that stays small."""
        pool = self.pool
        two = pool.upto(min(2, pool.complete_depth))
        return two if two <= B_SIDE else pool.upto(1)

    def short_pieces(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The A side of commutators, shortest first: pool entries (as many as the pair budget
        allows) and powers P^k of pool entries of 2..4 moves up to POWER_LENGTH moves (a power often
        keeps a small part of what P does, like (R' D' R D)^2 twisting one corner of U).
        Returns rows, their lengths and how to rebuild each sequence: rows (pool entry, power)."""
        pool = self.pool
        nb = self.b_side()
        depth = len(pool.levels) - 1
        while depth > 1 and pool.upto(depth) * nb > PAIR_BUDGET:
            depth -= 1
        na = pool.upto(depth)
        blocks = [(0, na, 1)]  # (first pool entry, end, power)
        for d in range(2, min(4, pool.complete_depth) + 1):
            start, stop = pool.levels[d]
            blocks += [(start, stop, k) for k in range(2, POWER_LENGTH // d + 1)]
        entries = np.concatenate([np.arange(a, b) for a, b, _k in blocks])
        powers = np.concatenate([np.full(b - a, k) for a, b, k in blocks])
        lengths = pool.depth[entries].astype(np.int64) * powers
        order = np.argsort(lengths, kind="stable")
        entries, powers = entries[order], powers[order]
        # the rows in chunks, the budget checked between them: there may be millions
        rows = np.empty((len(order), pool.store.shape[1]), dtype=pool.store.dtype)
        for s in range(0, len(order), ROWS_PER_CHECK):
            self.budget.check()
            part, k = slice(s, s + ROWS_PER_CHECK), powers[s:s + ROWS_PER_CHECK, None]
            base = pool.store[entries[part]].astype(np.int64)
            current = base
            for power in range(2, int(k.max()) + 1):
                current = np.where(k >= power, np.take_along_axis(base, current, axis=1), current)
            rows[part] = current
        return rows, lengths[order], np.stack([entries, powers], axis=1)

    def _piece_masks(self, rows: np.ndarray, words: int) -> np.ndarray:
        """Which pieces each row moves (bits), in chunks between budget checks."""
        masks = np.zeros((len(rows), words), dtype=np.uint64)
        for s in range(0, len(rows), 8 * ROWS_PER_CHECK):
            self.budget.check()
            part = slice(s, s + 8 * ROWS_PER_CHECK)
            kernels.piece_masks(rows[part], len(rows[part]), self.piece_ptr, self.piece_stk, masks[part])
        return masks

    def _scan(self, a_rows, a_len, b_rows, b_len, commutator: bool, deadline: float) -> np.ndarray:
        """Rows (A, B, support) of the pairs kernel over all A and B, within the deadline; a_len and
        b_len are what each side adds to the length of the result."""
        words = (len(self.piece_ptr) - 1 + 63) // 64
        a_masks, b_masks = self._piece_masks(a_rows, words), self._piece_masks(b_rows, words)
        shapes = np.zeros(1 << 16, dtype=np.uint64)
        counts = np.zeros(1 << 16, dtype=np.int32)
        out = np.zeros((200_000, 3), dtype=np.int64)
        count = 0
        chunk = max(1, PAIRS_PER_CALL // len(b_rows))
        with self.budget.watching() as stop:  # a call may take a second: it reads the stop flag
            for start in range(0, len(a_rows), chunk):
                count = kernels.pairs(a_rows, a_masks, a_len, start, min(len(a_rows), start + chunk), b_rows, b_masks,
                                      b_len, len(b_rows), self.max_length, commutator, self.rinv, self.piece_ptr,
                                      self.piece_stk, self.colour, self.ref_stk, self.ref_mask, self.max_support,
                                      self.max_support, shapes, counts, PER_SHAPE, out, count, stop)
                self.budget.tick(self.pool.count)
                if count >= len(out) or time.monotonic() > deadline:
                    break
        return out[:count]

    def commutators(self, deadline: float) -> None:
        """Every A against single moves first (the classic [A, U]), then against the whole B side."""
        pool = self.pool
        a_rows, a_len, recipe = self.short_pieces()
        inverse_len = np.array([len(s) for s in self.moves.inverse_sequences], dtype=np.int64)
        if self.moves.closed_under_inverse:
            a_full = 2 * a_len
        else:
            a_full = np.array([k * sum(1 + int(inverse_len[m]) for m in pool.sequence(int(e))) for e, k in recipe],
                              dtype=np.int64)

        def built(b_rows):
            # A B A' B' is |A| + |B| plus the inverses (one move each when the definition has them)
            b_len = np.array([sum(1 + int(inverse_len[m]) for m in pool.sequence(e)) for e in range(len(b_rows))],
                             dtype=np.int64)
            for i, j, _support in self._scan(a_rows, a_full, b_rows, b_len, True, deadline):
                e, power = (int(x) for x in recipe[int(i)])
                a = pool.sequence(e) * power
                b = pool.sequence(int(j))
                yield tuple(self.moves.simplify(a + b + self.moves.inverse_of(a) + self.moves.inverse_of(b)))

        for nb in sorted({pool.upto(1), self.b_side()}):
            self._offer_all(built(pool.store[:nb]), deadline)

    def _setups(self) -> list[list[int]]:
        return [self.pool.sequence(e) for e in range(1, self.b_side())]

    def conjugates(self, deadline: float) -> None:
        """[S: X] for the kept X of each class, kept when moves cancel enough to compete."""
        setups = self._setups()
        for key in list(self.classes):
            best = self.classes[key]
            bar = best[-1].rank()[0] if len(best) >= self.keep else best[0].rank()[0] + 2
            for found in list(best):
                x = list(found.seq)
                for s in setups:
                    seq = self.moves.simplify(s + x + self.moves.inverse_of(s))
                    if len(seq) < bar:
                        self.offer(tuple(seq))
            self.budget.tick(self.pool.count, phase="conjugates", text=f"{len(self.classes)} effect classes")
            if time.monotonic() > deadline:
                return

    def products(self, deadline: float) -> None:
        """X Y with X among the kept sequences and Y among the best of each class (and their
        inverses), both conjugated by setups of up to two moves: two effects that share pieces can
        cancel into a smaller one (two edge 3-cycles into an edge flip pair)."""
        kept = [list(f.seq) for fs in self.classes.values() for f in fs]
        best = [list(fs[0].seq) for fs in self.classes.values()]
        if not kept:
            return
        setups = [[]] + self._setups()

        def conjugated(seqs):
            seqs = seqs + [self.moves.inverse_of(x) for x in seqs]
            out = (self.moves.simplify(s + x + self.moves.inverse_of(s)) for x in seqs for s in setups)
            return [[]] + sorted(out, key=len)[:PRODUCT_SIDE]  # entry 0 is skipped on the B side

        a_seqs, b_seqs = conjugated(kept), conjugated(best)
        a_rows, b_rows = self.moves.rows_of(a_seqs), self.moves.rows_of(b_seqs)
        a_len = np.array([len(q) for q in a_seqs], dtype=np.int64)
        b_len = np.array([len(q) for q in b_seqs], dtype=np.int64)
        self._offer_all((tuple(self.moves.simplify(a_seqs[int(i)] + b_seqs[int(j)]))
                         for i, j, _support in self._scan(a_rows, a_len, b_rows, b_len, False, deadline)), deadline)

    def shortest_per_class(self, deadline: float) -> None:
        """Smallest classes first, each with an even share of the time left."""
        order = sorted(self.classes, key=lambda k: self.classes[k][0].rank())
        open_keys = [k for k in order if k not in self.proven]
        for n_left, key in zip(range(len(open_keys), 0, -1), open_keys):
            now = time.monotonic()
            if now > deadline:
                return
            best = self.classes[key][0]
            share = now + max(1.0, (deadline - now) / n_left)
            targets = targets_for(self.effects, best.effect.perm, deadline=min(deadline, share))
            if targets is None or len(targets) > TARGET_LIMIT:
                continue
            limit = min(self.max_length, len(best.seq))
            result = shortest(self.pool, targets, max_length=limit, budget=self.budget, deadline=min(deadline, share))
            # With look-alike pieces a sequence may show the effect with another permutation than
            # the targets, so the search then improves results without proving them shortest.
            exact = not self.effects.lookalike
            if result.length is not None:
                for seq in result.sequences:
                    self.offer(tuple(seq), shortest=exact)
            elif exact and result.exhausted and result.searched_to >= len(best.seq) - 1:
                self.proven.add(key)  # nothing shorter than what we have

    # -- bookkeeping ---------------------------------------------------------------------------

    def offer(self, seq: tuple[int, ...], shortest: bool = False) -> None:
        """Read the effect of a candidate and keep it among the best of its class; `shortest`
        says that no sequence of its class is shorter."""
        if not seq or len(seq) > self.max_length:
            return
        effect = self.effects.of_perm(self.moves.perm_of(seq))
        if effect.support == 0 or effect.support > self.max_support:
            return
        if shortest:
            self.proven.add(effect.key)
        kept = self.classes.setdefault(effect.key, [])
        found = Found(seq, effect)
        same = [f for f in kept if f.effect.perm == effect.perm]  # one sequence per permutation seen
        if same and same[0].rank() <= found.rank():
            return
        for f in same:
            kept.remove(f)
        kept.append(found)
        kept.sort(key=Found.rank)
        del kept[self.keep:]

    def results(self) -> list[dict]:
        out = []
        for key, kept in self.classes.items():
            best_length = len(kept[0].seq)
            for f in kept:
                out.append((f.rank(), {
                    "moves": self.moves.names_of(f.seq),
                    "length": len(f.seq),
                    "effect": f.effect.text,
                    "effect_key": key,
                    "support": f.effect.support,
                    "order": f.effect.order,
                    "shortest": (key in self.proven or best_length == 1) and len(f.seq) == best_length,
                }))
        out.sort(key=lambda item: item[0])
        return [item for _rank, item in out]


def _first_per_shape(indices: np.ndarray, shapes: np.ndarray) -> list[int]:
    """The first PER_SHAPE indices of each shape, in the given order."""
    taken: dict[int, int] = {}
    out = []
    for i, s in zip(indices.tolist(), shapes.tolist()):
        c = taken.get(s, 0)
        if c < PER_SHAPE:
            taken[s] = c + 1
            out.append(i)
    return out


def discover(defn: Definition, *, max_length: int | None = None, max_support: int | None = None,
             time_limit: float | None = None, progress=None, cancel=None, keep: int | None = None) -> list[dict]:
    """Short sequences with small effects, best first: see the module text. `keep`: sequences
    kept per effect class (different permutations of it), KEEP by default."""
    for name, value in (("max_length", max_length), ("max_support", max_support), ("keep", keep)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise PuzzleError(f"{name}: must be a whole number of at least 1, got {value!r}")
    if time_limit is not None and (not isinstance(time_limit, (int, float)) or isinstance(time_limit, bool)
                                   or not time_limit > 0):
        raise PuzzleError(f"time_limit: must be a positive number of seconds, got {time_limit!r}")
    # The budget is for searching: compiling the kernels (once per process; a worker does it before
    # it forks) happens before it starts.
    kernels.warm_up()
    budget = Budget(time_limit=DEFAULT_TIME if time_limit is None else time_limit, progress=progress, cancel=cancel)
    effects = Effects(defn, MoveSet.of(defn))  # MoveSet refuses guarded moves
    run = None
    total = budget.time_limit
    start = budget.started
    try:
        # everything under the budget, the set-up too: the symmetry search alone may take seconds
        with deadline.limit(budget):
            effects.automorphisms  # noqa: B018  (found up front: keys and targets use them)
            run = Discovery(effects, max_length=max_length or DEFAULT_LENGTH,
                            max_support=max_support or DEFAULT_SUPPORT, budget=budget, keep=keep or KEEP)
            run.build_pool(start + 0.25 * total)
            run.from_pool(start + 0.35 * total)
            run.commutators(start + 0.6 * total)
            run.products(start + 0.7 * total)
            run.conjugates(start + 0.72 * total)
            run.shortest_per_class(start + 0.97 * total)
    except Stopped:
        pass
    return [] if run is None else run.results()
