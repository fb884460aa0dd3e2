"""Finishing a state with algorithms that move few pieces, found from the group structure.

When a phase's exact search cannot finish (the last pieces of a big puzzle lie deep below any
table's bound), the state is finished greedily: each step applies a conjugate X A X' of an
algorithm A that moves at most a few slots (a commutator x y x' y' of short sequences, or a power
of one), choosing the one that leaves the most slots as in the goal, and only steps that home more
slots than before are taken. Nothing is puzzle-specific: the algorithms come from the move tables.
Solutions are long but found in seconds; the caller verifies them.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

import numpy as np

BASE_LIMIT = 1500  # short sequences kept as commutator halves
SMALL = 3  # an algorithm moves at most this many slots
NARROW = 8  # commutators moving at most this many slots are commuted again
NARROW_LIMIT = 300
SETUP_LIMIT = 400  # setup sequences X of the conjugates
LIBRARY_LIMIT = 400  # algorithms kept (shortest first)
FORMAT = 1  # of the stored algorithm files


class Finisher:
    """The algorithms of one (unguarded) model, built once."""

    def __init__(self, model, deadline: float | None = None):
        self.model = model
        n_moves = len(model.move_names)
        self.moves = [np.asarray(model.tables[model.case_start[m]], dtype=np.int32) for m in range(n_moves)]
        n_codes = model.n_codes
        self.identity = np.arange(n_codes, dtype=np.int32)
        on, ok, ob, os_ = model.orbit_arrays
        orbit_of_code = np.repeat(np.arange(len(on)), on * ok)
        self.slot_of_code = (os_[orbit_of_code] + (self.identity - ob[orbit_of_code]) // ok[orbit_of_code]).astype(np.int32)
        self.slot_starts = np.flatnonzero(np.diff(self.slot_of_code, prepend=-1))
        self.inverse_seq = [self._inverse_of(m) for m in range(n_moves)]
        base = self._short_sequences(model.canonical_pairs())
        self.complete = True  # False when the deadline cut the search for algorithms short
        self.algorithms = self._stored() or self._algorithms(base, deadline)
        if self.complete:
            self._store()
        self.setups = [(s, e) for s, e in base if len(s) <= 2][:SETUP_LIMIT]
        self.library_seqs, self.library = self._conjugates()

    def _path(self):
        from solver.definition.canonical import content_hash
        from solver.search.pdb import cache_dir, model_key

        key = hashlib.sha256(f"{content_hash(self.model.defn)} {model_key(self.model)} {FORMAT}".encode())
        return cache_dir() / f"algorithms-{key.hexdigest()[:24]}.json"

    def _stored(self):
        """The algorithms kept in the cache folder (their search takes seconds), replayed to
        check that each still does what it did."""
        try:
            seqs = json.loads(self._path().read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(seqs, list) or not all(isinstance(q, list) and all(
                isinstance(m, int) and 0 <= m < len(self.moves) for m in q) for q in seqs):
            return None
        out = [(q, self.effect(q)) for q in seqs]
        return out if all(0 < self.support(e) <= SMALL for _, e in out) else None

    def _store(self) -> None:
        path = self._path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps([q for q, _ in self.algorithms]))
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only cache only costs the search again

    def _inverse_of(self, m: int) -> list[int]:
        """A move sequence undoing move m: a move with the inverse table, else m repeated."""
        inv = np.empty_like(self.moves[m])
        inv[self.moves[m]] = self.identity
        for j, t in enumerate(self.moves):
            if np.array_equal(t, inv):
                return [j]
        seq, e = [], self.moves[m]
        while not np.array_equal(e, self.identity):
            seq.append(m)
            e = self.moves[m][e]
        return seq

    def invert(self, seq: list[int]) -> list[int]:
        return [x for m in reversed(seq) for x in self.inverse_seq[m]]

    def effect(self, seq: list[int]) -> np.ndarray:
        """The code map of a sequence (moves applied left to right)."""
        e = self.identity
        for m in seq:
            e = self.moves[m][e]
        return e

    def support(self, e: np.ndarray) -> int:
        return int(self.supports(e[None])[0])

    def supports(self, maps: np.ndarray) -> np.ndarray:
        """Slots each code map moves (a slot's codes are contiguous)."""
        return (np.add.reduceat(maps != self.identity, self.slot_starts, axis=1) > 0).sum(1)

    def _short_sequences(self, allowed) -> list[tuple[list[int], np.ndarray]]:
        """Canonical sequences by length with distinct effects, up to BASE_LIMIT of them."""
        seen = {self.identity.tobytes()}
        out: list[tuple[list[int], np.ndarray]] = []
        frontier = [([], self.identity)]
        while frontier and len(out) < BASE_LIMIT:
            nxt = []
            for seq, e in frontier:
                prev = seq[-1] if seq else len(self.moves)
                for m, t in enumerate(self.moves):
                    if not allowed[prev, m]:
                        continue
                    f = t[e]
                    key = f.tobytes()
                    if key in seen:
                        continue
                    seen.add(key)
                    nxt.append((seq + [m], f))
            out += nxt
            frontier = nxt
        return out[:BASE_LIMIT]

    def _algorithms(self, base, deadline) -> list[tuple[list[int], np.ndarray]]:
        """Algorithms that move at most SMALL slots: powers of short sequences, commutators
        [x, y] of short sequences, then commutators of narrow ones (at most NARROW slots, such
        as [R, U] on a cube) with short sequences, whose supports overlap little."""
        found: dict[bytes, tuple[list[int], np.ndarray]] = {}
        narrow: dict[bytes, tuple[list[int], np.ndarray]] = {}

        def keep(seq, e, size):
            key = e.tobytes()
            for kept, limit in ((found, SMALL), (narrow, NARROW)):
                if 0 < size <= limit and (key not in kept or len(seq) < len(kept[key][0])):
                    kept[key] = (seq, e)

        effects = np.array([e for _, e in base])
        inverses = np.empty_like(effects)
        np.put_along_axis(inverses, effects, np.broadcast_to(self.identity, effects.shape), axis=1)
        rows = np.arange(len(base))[:, None]

        def commutators(xs, x):
            xi = np.empty_like(x)
            xi[x] = self.identity
            # [x, y] = x y x' y' for every y at once: code -> y'[x'[y[x[code]]]]
            c = inverses[rows, xi[effects[:, x]]]
            sizes = self.supports(c)
            back = self.invert(xs)
            for j in np.flatnonzero((sizes > 0) & (sizes <= NARROW)):
                ys = base[j][0]
                keep(xs + ys + back + self.invert(ys), c[j], sizes[j])

        for xs, x in base:
            if deadline is not None and time.monotonic() > deadline:
                self.complete = False
                break
            power = x
            for j in range(2, 13):
                power = x[power]
                if np.array_equal(power, self.identity):
                    break
                keep(xs * j, power, self.support(power))
            commutators(xs, x)
        second = self._varied(sorted(narrow.values(), key=lambda t: len(t[0])), NARROW_LIMIT)
        for xs, x in second:
            if deadline is not None and time.monotonic() > deadline:
                self.complete = False
                break
            commutators(xs, x)
        return self._varied(sorted(found.values(), key=lambda t: len(t[0])), LIBRARY_LIMIT)

    def _varied(self, algorithms, limit: int):
        """The shortest algorithms of every kind (slots moved per orbit, twisted in place or
        not), in turn, so that rare kinds such as pure twists are kept."""
        on, ok, ob, _ = self.model.orbit_arrays
        kinds: dict[tuple, list] = {}
        for seq, e in algorithms:
            moved = e != self.identity
            kind = tuple(int(np.count_nonzero(moved[ob[r]:ob[r] + on[r] * ok[r]])) for r in range(len(on)))
            kind += (bool((self.slot_of_code[e] == self.slot_of_code)[moved].all()),)
            kinds.setdefault(kind, []).append((seq, e))
        out = []
        for i in range(limit):
            for group in kinds.values():
                if i < len(group) and len(out) < limit:
                    out.append(group[i])
        return out

    def _conjugates(self):
        """X A X' for every setup X and algorithm A, as one array of code maps."""
        seqs, maps = [], []
        for a_seq, a in self.algorithms:
            seqs.append(a_seq)
            maps.append(a)
            for x_seq, x in self.setups:
                xi = np.empty_like(x)
                xi[x] = self.identity
                seqs.append(x_seq + a_seq + self.invert(x_seq))
                maps.append(xi[a[x]])
        return seqs, (np.array(maps, dtype=np.int16) if maps else np.zeros((0, len(self.identity)), np.int16))

    def finish(self, loc: np.ndarray, goal_view: np.ndarray, deadline: float | None = None) -> list[int] | None:
        """Moves from `loc` to `goal_view`, or None. When no algorithm homes more slots (say two
        swaps in two orbits, which no algorithm of few slots undoes), one move breaks the
        deadlock and the climb restarts."""
        model = self.model
        n_pieces = model.n_pieces
        # at[p, code]: piece p at `code` shows what the goal shows there
        at = np.zeros((n_pieces, len(self.identity)), dtype=np.int16)
        on, ok, ob, _ = model.orbit_arrays
        for p in range(n_pieces):
            r = model.piece_orbit[p]
            codes = np.arange(ob[r], ob[r] + on[r] * ok[r])
            at[p, codes] = goal_view[self.slot_of_code[codes]] == model.piece_class[p] + (codes - ob[r]) % ok[r]
        moves, loc = self._climb(loc.astype(np.int64), at, deadline)
        if loc is None:
            return moves
        for m, t in enumerate(self.moves):
            more, end = self._climb(t[loc].astype(np.int64), at, deadline)
            if end is None and more is not None:
                return moves + [m] + more
        return None

    def _climb(self, loc, at, deadline):
        """(moves, None) when the goal is reached, (moves, loc) where the climb got stuck,
        (None, None) past the deadline."""
        pieces = np.arange(len(loc))
        if len(self.library) == 0:
            return None, None
        score = int(at[pieces, loc].sum())
        moves: list[int] = []
        while score < len(loc):
            if deadline is not None and time.monotonic() > deadline:
                return None, None
            after = self.library[:, loc]  # [algorithms, pieces]
            scores = at[pieces, after].sum(1)
            best = int(np.argmax(scores))
            if scores[best] <= score:
                return moves, loc
            score = int(scores[best])
            loc = after[best].astype(np.int64)
            moves += self.library_seqs[best]
        return moves, None
