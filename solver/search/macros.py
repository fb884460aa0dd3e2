"""Finishing a state with algorithms that move few pieces, found from the group structure.

When a phase's exact search cannot finish (the last pieces of a big puzzle lie deep below any
table's bound), the state is finished greedily. Such algorithms (commutators x y x' y' of short
sequences, their powers, commutators of those) are even on every orbit, so first a few moves give
each orbit the parity it needs (or, where small orbits have no algorithm leaving the others alone,
one search down an exact table places those orbits and gives the parities: orbit_table.py). Then
each step applies a conjugate X A X' of an algorithm A that
moves at most a few slots: from a library with setups of up to two moves, the one that homes the
most slots per move; when none homes more, an *aimed* conjugate whose setup X (from a table over
all tuples of slots, see setups.py) carries chosen misplaced or misturned slots onto A's slots.
Every step leaves more slots right, so the climb ends. A setup that begins with the last one costs
only what follows it (the last X' and its X cancel), so aims are also sought as seen after the last
setup: the climb sweeps on (a ring turned on a few steps) instead of turning back and out again.
Nothing is puzzle-specific: the algorithms come from the move tables. Solutions are long but
found in seconds; the caller verifies them.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from itertools import chain

import numpy as np

from solver import perm
from solver.search import finisher_kernels
from solver.search.orbit_table import OrbitTable
from solver.search.setups import SetupTable

BASE_LIMIT = 1500  # short sequences kept as commutator halves
BASE_WORK = BASE_LIMIT**2 * 200  # code-map entries of the commutators of every two short sequences
HALF_WORK = 2 * BASE_WORK  # ... and of the short sequences with the conjugate halves a s a'
SMALL = 3  # an algorithm moves at most this many slots
NARROW = 8  # commutators moving at most this many slots are commuted again
NARROW_LIMIT = 300
NARROW_MORE = 2000  # narrow ones commuted again while some orbit has no algorithm yet
NARROW_SCAN = 20000  # narrow ones looked at to choose those
SETUP_LIMIT = 60  # setup sequences X of the library's conjugates (shortest first; aimed steps reach further)
LIBRARY_LIMIT = 400  # algorithms kept (shortest first)
FORMAT = 3  # of the stored algorithm files
AIMED_PER_KIND = 2  # algorithms per (orbit, slots moved, in place or not) given a setup table
ROUGH_PER_MASK = 64  # rough algorithms kept per orbit and set of other rough orbits moved
PARITY_PATHS = 1 << 14  # parity vectors given their fewest moves
AIMED_FIRST = 6  # wrong slots tried first in one aimed step (each with a few partners)
WIDE_PER_ORBIT = 4  # narrow commutators of short sequences aimed by setup tables of a pair of slots, per orbit
WIDE_HALF = 2  # moves in either half of those commutators
WIDE_TRIES = 8  # setups of fewest moves per aim of a narrow algorithm scored on the whole state in one step
WIDE_STEP = 384  # of those, the cheapest, in all orbits
AIMED_TOGETHER = 64  # best aimed conjugates looked at for a step of several moving disjoint pieces
REPLAY_CHUNK = 4096  # stored sequences replayed at once when a search cut short goes on
GOALS_TRIED = 24  # goals a finish aims at, the one showing most slots first (a cube's 24 rotations)
GOALS_SHARE = 0.1  # of the time left after the first goal's answer, for the others'
AIMED_SETUPS_KEPT = 4096  # setups' code maps kept from one aimed step to the next (a globe's climb asked for 344,000)


@dataclass
class Aim:
    """An algorithm moving at most SMALL slots of one orbit, with the setups that aim it at any of
    the orbit's slots."""

    orbit: int
    slots: tuple[int, ...]  # local slots it moves: in the order of its cycle, or sorted when in place
    table: SetupTable
    # (moves, code map, cycle) of each power: cycle lists positions in `slots` in the order the power
    # moves pieces along, () when it twists in place
    powers: list[tuple[list[int], np.ndarray, tuple[int, ...]]]


@dataclass
class Wide:
    """The narrow algorithms of one orbit that move more than SMALL slots ([L, R] on a wreath:
    two 3-cycles in four moves), each power with, for each slot s it moves to t, a table of setups
    carrying any two slots onto (s, t): aimed at a misplaced piece and a slot wanting it, the rest
    of what it moves is scored on the whole state."""

    orbit: int
    n: int  # slots of the orbit
    aims: list[tuple[list[int], np.ndarray, SetupTable]]  # (moves, code map, setup table of a pair)
    depths: np.ndarray  # [aims, n * n]: setup lengths of each pair, -1 where none
    lengths: np.ndarray  # [aims]: moves of each


class Finisher:
    """The algorithms of one (unguarded) model, built once."""

    def __init__(self, model, deadline: float | None = None):
        self.model = model
        n_moves = len(model.move_names)
        self.moves = [np.asarray(model.tables[model.case_start[m]], dtype=np.int32) for m in range(n_moves)]
        n_codes = model.n_codes
        self.identity = np.arange(n_codes, dtype=np.int32)
        on, ok, ob, os_ = model.orbit_arrays
        self.orbit_of_code = orbit_of_code = np.repeat(np.arange(len(on)), on * ok)
        self.slot_of_code = (os_[orbit_of_code] + (self.identity - ob[orbit_of_code]) // ok[orbit_of_code]).astype(np.int32)
        self.slot_starts = np.flatnonzero(np.diff(self.slot_of_code, prepend=-1))
        self.inverse_seq = [self._inverse_of(m) for m in range(n_moves)]
        self.slot_maps = [self._slot_maps(r) for r in range(len(on))]  # [moves, slots] per orbit
        # orbits of distinct pieces (the others can take any parity) and the fewest moves to each
        # vector of parities over them
        self.distinct_orbits = model.distinct_orbits
        self.move_bits = [sum(perm.parity(self.slot_maps[r][m].tolist()) << r for r in self.distinct_orbits)
                          for m in range(n_moves)]
        self.parity_paths = self._parity_paths()
        base = self._short_sequences(model.canonical_pairs())
        self.deadline = deadline
        self.complete = True  # False when the deadline cut the search for algorithms (or aims) short
        self.resume_seconds = 0.0
        self.algorithms = self._stored() or self._algorithms(base, deadline)
        if self.complete:
            self._store()
        self.setups = [(s, e) for s, e in base if len(s) <= 2][:SETUP_LIMIT]
        self._tables: dict[tuple, tuple[SetupTable, int]] = {}  # (actions, slots) -> table, its orbit
        self._aimed_setups: dict[tuple, tuple | None] = {}  # (aim, slots) -> setup, its code map and inverse
        self.exact: list[int] = []  # orbits placed first by an exact table (orbit_table.py), none of them rough
        self.orbit_table: OrbitTable | None = None  # ... and their table
        self.aims, self.rough = self._aims(base)
        self.wide = self._wide(base)
        seqs, library = self._conjugates()
        # the exact orbits and the rough ones are solved first: the climb after must not move them
        rough_codes = np.isin(self.orbit_of_code, list(self.rough) + self.exact)
        keep = (library[:, rough_codes] == self.identity[rough_codes]).all(1)
        self.library_seqs = [q for q, k in zip(seqs, keep) if k]
        self.library = library[keep]
        self.library_lengths = np.array([len(q) for q in self.library_seqs])
        # the codes each conjugate moves and where to (padded with code 0 staying): a step's gains
        # are read from these few codes, not from the whole state (a globe's library is 24,000
        # conjugates of 400 codes)
        moved = self.library != self.identity
        width = max(1, int(moved.sum(1).max(initial=0)))
        order = np.argsort(~moved, axis=1, kind="stable")[:, :width]
        kept = np.take_along_axis(moved, order, 1)
        self.library_from = np.where(kept, order, 0)
        # a padding entry maps code 0 to itself, also in a conjugate that moves code 0 (read from the
        # conjugate, it counted that code's gain once more for each padding entry: a climb saw gains
        # no step made and turned round for ever)
        self.library_to = np.where(kept, np.take_along_axis(self.library, order, 1), 0).astype(np.int64)

    def _path(self, kind: str = "algorithms"):
        from solver.definition.canonical import content_hash
        from solver.search.pdb import cache_dir, model_key

        key = hashlib.sha256(f"{content_hash(self.model.defn)} {model_key(self.model)} {FORMAT}".encode())
        return cache_dir() / f"{kind}-{key.hexdigest()[:24]}.json"

    def _sequences(self, data) -> list[list[int]] | None:
        """Stored sequences, checked to be lists of this model's move numbers."""
        if not isinstance(data, list) or set(map(type, data)) - {list}:
            return None
        flat = list(chain.from_iterable(data))  # checked at once: a search cut short keeps tens of thousands
        if set(map(type, flat)) - {int} or (flat and not 0 <= min(flat) <= max(flat) < len(self.moves)):
            return None
        return data

    def _write(self, path, data) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps(data))
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only cache only costs the search again

    def _progress(self) -> dict:
        """Where an earlier search for algorithms was cut short by its deadline, so that one-time
        work is never lost: {stage, next, narrow, second} (empty for a fresh start)."""
        try:
            data = json.loads(self._path("algorithm-search").read_text())
        except (OSError, ValueError):
            return {}
        lists = [self._sequences(data.get(k)) if isinstance(data, dict) else None for k in ("narrow", "second")]
        if any(q is None for q in lists) or data.get("stage") not in (1, 2) or not isinstance(data.get("next"), int):
            return {}
        return data

    def _stored(self):
        """The algorithms kept in the cache folder (their search takes seconds), replayed to
        check that each still does what it did."""
        try:
            seqs = self._sequences(json.loads(self._path().read_text()))
        except (OSError, ValueError):
            return None
        if seqs is None:
            return None
        out = [(q, self.effect(q)) for q in seqs]
        return out if all(0 < self.support(e) <= SMALL for _, e in out) else None

    def _store(self) -> None:
        self._write(self._path(), [q for q, _ in self.algorithms])
        self._path("algorithm-search").unlink(missing_ok=True)

    def _inverse_of(self, m: int) -> list[int]:
        """A move sequence undoing move m: a move with the inverse table, else m repeated."""
        inv = _inverse(self.moves[m])
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

    def effects(self, seqs: list[list[int]]) -> np.ndarray:
        """The code maps of many sequences, each move gathered for all of them at once (a master
        skewb's search cut short kept 60,000 narrow ones: replayed one by one, 20 s under load)."""
        order = sorted(range(len(seqs)), key=lambda i: -len(seqs[i]))  # those still moving: a prefix
        lengths = np.array([len(seqs[i]) for i in order], dtype=np.int64)
        padded = np.zeros((len(seqs), lengths[0] if len(seqs) else 0), dtype=np.int64)
        for row, i in enumerate(order):
            padded[row, :lengths[row]] = seqs[i]
        table = np.array(self.moves)
        out = np.tile(self.identity, (len(seqs), 1))
        for j in range(padded.shape[1]):
            n = int(np.count_nonzero(lengths > j))
            out[:n] = table[padded[:n, j, None], out[:n]]
        back = np.empty(len(seqs), dtype=np.int64)
        back[order] = np.arange(len(seqs))
        return out[back]

    def support(self, e: np.ndarray) -> int:
        return int(self.supports(e[None])[0])

    def supports(self, maps: np.ndarray) -> np.ndarray:
        """Slots each code map moves (a slot's codes are contiguous)."""
        if len(self.slot_starts) == len(self.identity):  # one code a slot: no reduction (big rings, globes)
            return (maps != self.identity).sum(1)
        return (np.add.reduceat(maps != self.identity, self.slot_starts, axis=1) > 0).sum(1)

    def _short_sequences(self, allowed) -> list[tuple[list[int], np.ndarray]]:
        """Canonical sequences by length with distinct effects, then every power of every move (a
        big ring's turn taken 25 times is a natural commutator half: [L^25, R] on a wreath of 100),
        up to BASE_LIMIT in all, fewer for puzzles of many codes (their commutators cost more).
        The longest ones kept are spread over their layer (a globe of 8x50 keeps flip pairs f f'
        beside row-and-flip pairs r f)."""
        limit = max(NARROW_LIMIT, min(BASE_LIMIT, int((BASE_WORK / len(self.identity)) ** 0.5)))
        powers = self._move_powers()[: limit // 2]
        seen = {self.identity.tobytes()} | {e.tobytes() for _, e in powers}
        limit -= len(powers)
        out: list[tuple[list[int], np.ndarray]] = []
        frontier = [([], self.identity)]
        while frontier and len(out) < limit:
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
            if len(out) + len(nxt) > limit:  # the last layer evenly sampled, not its first moves only
                nxt = [nxt[j] for j in np.linspace(0, len(nxt) - 1, limit - len(out)).astype(int)]
            out += nxt
            frontier = nxt
        return out + powers

    def _move_powers(self) -> list[tuple[list[int], np.ndarray]]:
        """m^j for every move m and 2 < j < order - 2, each as the shorter of m^j and its inverse's
        power, by length (the squares are among the short sequences)."""
        found: dict[bytes, tuple[list[int], np.ndarray]] = {}
        for m, t in enumerate(self.moves):
            powers = [self.identity, t]
            while not np.array_equal(powers[-1], self.identity):
                powers.append(t[powers[-1]])
            order = len(powers) - 1
            for j in range(3, order - 2):
                seq = [m] * j if 2 * j <= order else self.invert([m] * (order - j))
                key = powers[j].tobytes()
                if key not in found or len(seq) < len(found[key][0]):
                    found[key] = (seq, powers[j])
        return sorted(found.values(), key=lambda t: len(t[0]))

    def _algorithms(self, base, deadline) -> list[tuple[list[int], np.ndarray]]:
        """Algorithms that move at most SMALL slots: powers of short sequences, commutators
        [x, y] of short sequences, then commutators of narrow ones (at most NARROW slots, such
        as [R, U] on a cube) with short sequences, whose supports overlap little."""
        found: dict[bytes, tuple[list[int], np.ndarray]] = {}
        narrow: dict[bytes, tuple[list[int], np.ndarray]] = {}

        covered = np.zeros(len(self.model.orbits), dtype=bool)  # orbits some algorithm found moves

        def keep(seq, e, size):
            key = e.tobytes()
            for kept, limit in ((found, SMALL), (narrow, NARROW)):
                if 0 < size <= limit and (key not in kept or len(seq) < len(kept[key][0])):
                    kept[key] = (seq, e)
            if 0 < size <= SMALL:
                covered[self.orbit_of_code[e != self.identity]] = True

        def commuting_with(halves):
            with_halves = Commutators(halves, self.slot_of_code)
            halves_back = [self.invert(ys) for ys, _ in halves]

            def commutators(xs, x):
                back = self.invert(xs)
                for j, size, c in zip(*with_halves.narrow(x, NARROW)):
                    keep(xs + halves[j][0] + back + halves_back[j], c, size)
            return commutators

        # the short sequences with their conjugates first; the narrow ones (already commutators)
        # with the short sequences only
        first_commutators = commuting_with(base + self._conjugate_halves(base))
        commutators = commuting_with(base)

        def powers(xs, x):
            power = x
            for j in range(2, 13):
                power = x[power]
                if np.array_equal(power, self.identity):
                    break
                keep(xs * j, power, self.support(power))

        # Resume where a search cut short by its deadline stopped (its findings were kept).
        resumed = time.monotonic()
        progress = self._progress()
        stored = progress.get("narrow", [])
        for i in range(0, len(stored), REPLAY_CHUNK):  # the found algorithms are among the narrow ones
            if deadline is not None and time.monotonic() > deadline:
                # a wreath keeps tens of thousands: their replay alone can outlast a short limit;
                # the stored progress stays as it was, and what the whole replay would cost is told
                # (left at 0, every later solve would start it again and be cut short again)
                self.complete = False
                self.resume_seconds = (time.monotonic() - resumed) * len(stored) / max(i, 1)
                return self._varied(sorted(found.values(), key=lambda t: len(t[0])), LIBRARY_LIMIT)
            chunk = stored[i:i + REPLAY_CHUNK]
            maps = self.effects(chunk)
            for seq, e, size in zip(chunk, maps, self.supports(maps)):
                keep(seq, e, int(size))
        second = list(zip(progress.get("second", []), self.effects(progress.get("second", []))))
        stage, start = progress.get("stage", 1), progress.get("next", 0)
        self.resume_seconds = time.monotonic() - resumed  # what going on with this search costs before it goes on

        def cut_short(stage, at) -> bool:
            if deadline is None or time.monotonic() <= deadline:
                return False
            self.complete = False
            self._write(self._path("algorithm-search"), {
                "stage": stage, "next": at, "narrow": self._worth_keeping(narrow, found, stage),
                "second": [q for q, _ in second]})
            return True

        if stage == 1:
            for i in range(start, len(base)):
                if cut_short(1, i):
                    return self._varied(sorted(found.values(), key=lambda t: len(t[0])), LIBRARY_LIMIT)
                powers(*base[i])
                first_commutators(*base[i])
            second, start = self._varied(sorted(narrow.values(), key=lambda t: len(t[0])), NARROW_LIMIT), 0
        i = start
        while not cut_short(2, i):
            if i >= NARROW_LIMIT and covered.all():
                break
            if i == len(second):  # an orbit has no algorithm yet: more narrow ones
                second += self._more_narrow(narrow.values(), second)
                if i == len(second):
                    break
            powers(*second[i])  # a power can keep one orbit's cycles only: [R, U]^3 on a megaminx
            commutators(*second[i])
            i += 1
        return self._varied(sorted(found.values(), key=lambda t: len(t[0])), LIBRARY_LIMIT)

    def _conjugate_halves(self, base) -> list[tuple[list[int], np.ndarray]]:
        """Conjugates a s a' of a move a and a short sequence s (shortest s first), not already
        among `base`, as many as HALF_WORK allows: [U, L U Uw' L'] is a 4x4x4's 10-move wing
        3-cycle and [U Uw', L D Dw' L'] its 12-move centre one, where commutators of the short
        sequences alone need 18 (the base's longest layer is only sampled)."""
        most = int(HALF_WORK / (len(self.identity) * max(len(base), 1))) - len(base)
        seen = {e.tobytes() for _, e in base} | {self.identity.tobytes()}
        allowed = self.model.canonical_pairs()
        out = []
        supports = self.supports(np.array([e for _, e in base]))
        backs = [_inverse(t) for t in self.moves]  # once, not for every s
        for i in sorted(range(len(base)), key=lambda i: (len(base[i][0]), supports[i])):  # slices before wide turns
            s_seq, s = base[i]
            for a, t in enumerate(self.moves):
                if len(out) >= most:
                    return out
                back = self.inverse_seq[a]
                if not (allowed[a, s_seq[0]] and allowed[s_seq[-1], back[0]]):
                    continue
                e = backs[a][s[t]]  # a, then s, then a'
                if e.tobytes() not in seen:
                    seen.add(e.tobytes())
                    out.append(([a] + s_seq + back, e))
        return out

    def _more_narrow(self, narrow, second) -> list[tuple[list[int], np.ndarray]]:
        """Narrow algorithms not in `second`, up to NARROW_MORE in all: shortest first among those
        some move touches in exactly one slot, then the others."""
        if len(second) >= NARROW_MORE:
            return []
        chosen = {e.tobytes() for _, e in second}
        rest = sorted((t for t in narrow if t[1].tobytes() not in chosen), key=lambda t: len(t[0]))[:NARROW_SCAN]
        alone = np.concatenate([self._moved_alone(rest[j:j + 1000]) for j in range(0, len(rest), 1000)] or [[]])
        return [rest[j] for j in np.argsort(~alone.astype(bool), kind="stable")[:NARROW_MORE - len(second)]]

    def _moved_alone(self, algorithms) -> np.ndarray:
        """For each algorithm, whether some move moves exactly one of its slots: its commutator
        with that move moves few slots (on a globe of 25-column halves, where the shortest narrow
        algorithms, commutators of two flips, have no such move, two 3-cycles [r, f f'] have)."""
        n_slots = len(self.slot_starts)
        moved = np.zeros((len(algorithms), n_slots), dtype=np.float32)
        for i, (_, e) in enumerate(algorithms):
            moved[i, self.slot_of_code[e != self.identity]] = 1
        by_move = np.zeros((n_slots, len(self.moves)), dtype=np.float32)
        for m, t in enumerate(self.moves):
            by_move[self.slot_of_code[t != self.identity], m] = 1
        return ((moved @ by_move) == 1).any(1)

    def _varied(self, algorithms, limit: int):
        """The shortest algorithms of every kind, in turn, so that rare kinds such as pure twists
        are kept (`algorithms` shortest first)."""
        kinds = self._kinds([e for _, e in algorithms])
        order = np.lexsort((kinds, _rank_in_kind(kinds)))[:limit]
        return [algorithms[i] for i in order]

    def _kinds(self, maps) -> np.ndarray:
        """Each code map's kind (codes moved per orbit, and whether every slot keeps its own
        pieces: a pure twist), numbered in the order of first appearance."""
        if not len(maps):
            return np.zeros(0, dtype=np.int64)
        ob = self.model.orbit_arrays[2]
        rows = []
        for i in range(0, len(maps), REPLAY_CHUNK):
            chunk = np.asarray(maps[i:i + REPLAY_CHUNK])
            moved = chunk != self.identity
            in_place = ((self.slot_of_code[chunk] == self.slot_of_code) | ~moved).all(1)
            rows.append(np.column_stack([np.add.reduceat(moved, ob, axis=1), in_place]))
        rows = np.concatenate(rows)
        sizes = rows.max(0) + 1  # one integer a row where it fits (faster to sort)
        keys = rows @ np.cumprod(np.r_[1, sizes[:-1]]) if np.prod(sizes.astype(float)) < 2.0**62 else rows
        _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        number = np.empty(len(first), dtype=np.int64)
        number[np.argsort(first)] = np.arange(len(first))
        return number[inverse.ravel()]

    def _worth_keeping(self, narrow: dict, found: dict, stage: int) -> list[list[int]]:
        """The narrow algorithms a search cut short keeps for going on: those the rest of it can
        still choose (the shortest of every kind among the found ones, for the library; in stage 1
        among all, for the narrow ones commuted again; and the shortest NARROW_SCAN + NARROW_MORE,
        for more of those), in the order found, so that the search goes on as an uncut one would.
        All of them, a professor skewb's 330,000 after 10 s, took 6 s to read back: more than a 10 s
        solve leaves for it."""
        seqs = [q for q, _ in narrow.values()]
        by_length = np.argsort(np.fromiter(map(len, seqs), dtype=np.int64, count=len(seqs)), kind="stable")
        keep = np.zeros(len(seqs), dtype=bool)
        keep[by_length[:NARROW_SCAN + NARROW_MORE]] = True
        small = by_length[np.fromiter((k in found for k in narrow), dtype=bool, count=len(seqs))[by_length]]
        chosen = [(small, LIBRARY_LIMIT)] + ([(by_length, NARROW_LIMIT)] if stage == 1 else [])
        maps = [e for _, e in narrow.values()]
        for rows, limit in chosen:  # rows: shortest first
            keep[rows[_rank_in_kind(self._kinds([maps[i] for i in rows])) < limit]] = True
        return [seqs[i] for i in np.flatnonzero(keep)]

    def _conjugates(self):
        """X A X' for every setup X and algorithm A, as one array of code maps."""
        width, n = len(self.identity), len(self.setups) + 1
        xs = np.array([x for _, x in self.setups], dtype=np.int64).reshape(n - 1, width)
        xis = np.empty((n - 1, width), dtype=np.int16)  # row i: the inverse of setup i
        np.put_along_axis(xis, xs, np.broadcast_to(np.arange(width, dtype=np.int16), xs.shape), axis=1)
        backs = [self.invert(x_seq) for x_seq, _ in self.setups]
        seqs, maps = [], np.empty((len(self.algorithms) * n, width), dtype=np.int16)
        for i, (a_seq, a) in enumerate(self.algorithms):  # a globe's 400 algorithms, 60 setups: a gather each
            seqs.append(a_seq)
            seqs += [x_seq + a_seq + back for (x_seq, _), back in zip(self.setups, backs)]
            maps[i * n] = a
            maps[i * n + 1:(i + 1) * n] = np.take_along_axis(xis, a[xs], axis=1)
        return seqs, maps

    def _aims(self, base) -> tuple[list[Aim], dict[int, list[Aim]]]:
        """(aims, rough): the shortest algorithms of each kind that stay in one orbit, each with a
        setup table; and for an orbit that has no such cycle (or twist, when its pieces turn),
        algorithms that cycle or twist its slots while moving orbits solved after it: the rough
        orbits are solved first, with those (a 5x5x5's middle edges, say, given face turns only).
        Rough orbits that cannot be solved one after another are placed before them all by an
        exact table while it fits (`exact`: a master skewb's corners), else given up (no aims)."""
        on, ok, _, _ = self.model.orbit_arrays
        by_orbit: dict[int, list] = {}
        for seq, e in self.algorithms:
            orbits = np.unique(self.orbit_of_code[e != self.identity])
            if len(orbits) == 1:
                by_orbit.setdefault(int(orbits[0]), []).append((seq, e))
        aims = {r: self._choose_aims(by_orbit.get(r, []), r) for r in range(len(on))}

        def lacking(chosen, r):  # no cycle, or no twist for pieces that turn
            return not any(a.powers[0][2] for a in chosen) or (ok[r] > 1 and all(a.powers[0][2] for a in chosen))

        candidates = self._rough_algorithms(base, [r for r in range(len(on)) if lacking(aims[r], r)])
        rough = self._rough_order(candidates, lacking, [])
        # the rest cannot be solved one after another: the smallest of them placed first by an
        # exact table while it fits, and the others ordered again after them
        while len(rough) + len(self.exact) < len(candidates) and not self._late():
            stuck = min(set(candidates) - set(rough) - set(self.exact), key=lambda q: (on[q] * ok[q], q))
            if not OrbitTable(self.model, self.exact + [stuck]).fits:
                break
            self.exact.append(stuck)
            rough = self._rough_order(candidates, lacking, self.exact)
        if self.exact:
            self.orbit_table = OrbitTable(self.model, self.exact)
            if not self.orbit_table.build(self.deadline):  # cut short: placed by no table this time
                self.complete = False
                self.exact = []
        # what is left the finisher gives up on
        rough.update((r, []) for r in candidates if r not in rough and r not in self.exact)
        return [a for r in range(len(on)) if r not in candidates for a in aims[r]], rough

    def _rough_order(self, candidates, lacking, first: list[int]) -> dict[int, list[Aim]]:
        """The rough orbits that can be solved one after another after the orbits `first`, each
        with algorithms leaving the orbits solved before it alone, in that order."""
        on = self.model.orbit_arrays[0]
        rough: dict[int, list[Aim]] = {}
        while True:
            for r in sorted(set(candidates) - set(rough) - set(first), key=lambda q: on[q]):
                usable = sorted((t for moved, found in candidates[r].items()
                                 if moved.isdisjoint(rough) and moved.isdisjoint(first) for t in found),
                                key=lambda t: (len(t[0]), self.support(t[1])))
                chosen = self._choose_aims(usable, r)
                if not lacking(chosen, r):
                    rough[r] = chosen
                    break
            else:
                return rough

    def _choose_aims(self, algorithms, r: int) -> list[Aim]:
        """Up to AIMED_PER_KIND of each kind (slots moved, in place or not) of orbit r, shortest
        first; twists made of two cycles when there is no twist of at most two pieces."""
        on = self.model.orbit_arrays[0]
        chosen: dict[tuple, list[Aim]] = {}

        def add(seq, e, slots, in_place):
            kind = (len(slots), in_place)
            most = 1 if SetupTable.large(on[r], len(slots)) else AIMED_PER_KIND
            if len(chosen.get(kind, ())) < most and SetupTable.fits(on[r], len(slots)) and not self._late():
                table = self._setup_table(r, slots)
                chosen.setdefault(kind, []).append(Aim(r, slots, table, self._powers(seq, e, r, slots)))

        for seq, e in algorithms:
            slots, in_place = self._slots_moved(e, r)
            if slots is not None:
                add(seq, e, slots, in_place)
        # twists of two pieces made of two cycles, where none was found (a twist of three alike
        # turns cannot mend two pieces that need opposite turns in one step)
        if not any(in_place and size <= 2 for size, in_place in chosen):
            for seq, e in self._twists_of_cycles([a for aims in chosen.values() for a in aims]):
                add(seq, e, *self._slots_moved(e, r))
        return [a for aims in chosen.values() for a in aims]

    def _wide(self, base) -> list[Wide]:
        """Up to WIDE_PER_ORBIT narrow commutators of sequences of at most WIDE_HALF moves per
        orbit (shortest first, distinct effects), moving more than SMALL slots of that orbit only
        and each piece along a cycle (no twist in place), with every power."""
        short = [(q, e) for q, e in base if len(q) <= WIDE_HALF]
        if not short:
            return []
        with_short = Commutators(short, self.slot_of_code)
        found: dict[bytes, tuple[list[int], np.ndarray, int]] = {}
        for xs, x in short:
            if self._late():  # what is found so far serves
                break
            back = self.invert(xs)
            for j, size, c in zip(*with_short.narrow(x, NARROW)):
                if size <= SMALL:
                    continue
                orbits = self.orbit_of_code[c != self.identity]  # ascending: one orbit if first is last
                if orbits[0] == orbits[-1] and c.tobytes() not in found:
                    found[c.tobytes()] = (xs + short[j][0] + back + self.invert(short[j][0]), c, int(orbits[0]))
        by_orbit: dict[int, list] = {}
        for seq, e, r in sorted(found.values(), key=lambda t: len(t[0])):
            n = self.model.orbits[r].n
            if len(by_orbit.get(r, ())) >= WIDE_PER_ORBIT or not SetupTable.fits(n, 2) or self._late():
                continue
            by_orbit.setdefault(r, []).append((seq, e))
        ok, ob = self.model.orbit_arrays[1:3]
        out = []
        for r, algorithms in by_orbit.items():
            aims = []
            for seq, e in algorithms:
                power, powers = e, []
                while not np.array_equal(power, self.identity):
                    powers.append(power)
                    power = e[power]
                for j, p in enumerate(powers, start=1):
                    moved = np.flatnonzero(p != self.identity)
                    if (self.slot_of_code[p[moved]] == self.slot_of_code[moved]).any():
                        continue  # some piece turns in place: not a chain of slots
                    moves = seq * j if 2 * j <= len(powers) + 1 else self.invert(seq) * (len(powers) + 1 - j)
                    for s in sorted({self._local_slot(c, r) for c in moved}):
                        aims.append((moves, p, self._setup_table(r, (s, self._local_slot(p[ob[r] + s * ok[r]], r)))))
            if aims:
                out.append(Wide(r, self.model.orbits[r].n, aims, np.array([t.depth for _, _, t in aims]),
                                np.array([len(q) for q, _, _ in aims])))
        return out

    def _setup_table(self, r: int, slots: tuple[int, ...]) -> SetupTable:
        """A setup table onto `slots` of orbit r, shared with an orbit whose moves act on its
        slots alike (a globe's pairs of bands, each turned by its own moves): its moves renamed."""
        first_move = {}  # each action on the orbit's slots -> the first move acting so
        for m in range(len(self.moves) - 1, -1, -1):
            first_move[self.slot_maps[r][m].tobytes()] = m
        key = (frozenset(first_move), slots)
        if key not in self._tables:
            table = SetupTable(self.slot_maps[r], slots, self.deadline)
            self.complete &= table.complete
            self._tables[key] = (table, r)
            return table
        table, other = self._tables[key]
        return table.renamed([first_move[row.tobytes()] for row in self.slot_maps[other]])

    def _rough_algorithms(self, base, rough_orbits: list[int]) -> dict[int, dict[frozenset, list]]:
        """For each rough orbit r, commutators [x, y] of short sequences moving at most SMALL of
        its slots, by the set of rough orbits they move (r among them; any number of orbits: a big
        cube has hundreds): a few of each, shortest first."""
        on, ok, ob, _ = self.model.orbit_arrays
        found: dict[int, dict[frozenset, list]] = {r: {} for r in rough_orbits}
        if not rough_orbits:
            return found
        with_base = Commutators(base, self.slot_of_code)
        orbit_sets: dict[bytes, frozenset] = {}
        for xs, x in base[:NARROW_LIMIT]:
            if self._late():
                break
            c = with_base(x)
            moved = c != self.identity
            slots_moved = {r: moved[:, ob[r]:ob[r] + on[r] * ok[r]].reshape(len(base), on[r], ok[r]).any(2).sum(1)
                           for r in rough_orbits}
            touched = np.array([slots_moved[r] > 0 for r in rough_orbits]).T  # [base, rough orbits]
            for r in rough_orbits:
                for j in np.flatnonzero((slots_moved[r] > 0) & (slots_moved[r] <= SMALL)):
                    row = touched[j].tobytes()
                    if row not in orbit_sets:
                        orbit_sets[row] = frozenset(rough_orbits[i] for i in np.flatnonzero(touched[j]))
                    kept = found[r].setdefault(orbit_sets[row], [])
                    if len(kept) < ROUGH_PER_MASK:
                        ys = base[j][0]
                        kept.append((xs + ys + self.invert(xs) + self.invert(ys), c[j]))
        return found

    def _late(self) -> bool:
        """Past the deadline of the one-time work: what is found so far is used, and not kept."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.complete = False
        return not self.complete

    def _slot_maps(self, r: int) -> np.ndarray:
        """[moves, slots]: where each move takes the piece at each local slot of orbit r."""
        on, ok, ob, _ = self.model.orbit_arrays
        codes = ob[r] + np.arange(on[r]) * ok[r]
        return np.array([(t[codes] - ob[r]) // ok[r] for t in self.moves], dtype=np.int64)

    def _local_slot(self, code, r: int) -> int:
        return int(self.slot_of_code[code]) - int(self.model.orbit_arrays[3][r])

    def _slots_moved(self, e: np.ndarray, r: int) -> tuple[tuple[int, ...] | None, bool]:
        """(slots, in place) of a code map within orbit r: its slots sorted when it twists them in
        place, else in the order of its one cycle; (None, False) when it has several cycles there
        or none."""
        on, ok, ob, _ = self.model.orbit_arrays
        codes = np.arange(ob[r], ob[r] + on[r] * ok[r])
        moved = sorted({self._local_slot(c, r) for c in codes[e[codes] != codes]})
        if not moved:
            return None, False
        step = {s: self._local_slot(e[ob[r] + s * ok[r]], r) for s in moved}
        if all(step[s] == s for s in moved):
            return tuple(moved), True
        cycle = _cycle(step, moved[0])
        return (cycle, False) if len(cycle) == len(moved) else (None, False)

    def _powers(self, seq: list[int], e: np.ndarray, r: int, slots: tuple[int, ...]):
        """Every power of an algorithm that moves orbit r: its moves (the inverse's when shorter),
        code map and cycle over positions in `slots`."""
        on, ok, ob, _ = self.model.orbit_arrays
        maps = [e]
        while not np.array_equal(maps[-1], self.identity):
            maps.append(e[maps[-1]])
        order = len(maps)
        out = []
        codes = np.arange(ob[r], ob[r] + on[r] * ok[r])
        for j, power in enumerate(maps[:-1], start=1):
            if np.array_equal(power[codes], codes):
                continue  # a rough algorithm's power can leave orbit r alone
            moves = seq * j if 2 * j <= order else self.invert(seq) * (order - j)
            step = [slots.index(self._local_slot(power[ob[r] + s * ok[r]], r)) for s in slots]
            out.append((moves, power, () if step[0] == 0 else _cycle(step, 0)))
        return out

    def _twists_of_cycles(self, cycles: list[Aim]) -> list[tuple[list[int], np.ndarray]]:
        """Pure twists Y B Y' A' for 3-cycles A and B, Y carrying A's slots onto B's so that both
        cycle them the same way (rotated, when B is A): the pieces come home, turned otherwise."""
        found: dict[bytes, tuple[list[int], np.ndarray]] = {}
        for a in cycles:
            a_seq, a_map, _ = a.powers[0]
            a_inverse = _inverse(a_map)
            for b in cycles:
                if len(b.slots) != len(a.slots) or not b.powers[0][2]:
                    continue
                b_seq, b_map, _ = b.powers[0]
                for turn in range(len(a.slots)):
                    y_seq = b.table.setup(a.slots[turn:] + a.slots[:turn])
                    if y_seq is None or (b is a and turn == 0):
                        continue
                    y = self.effect(y_seq)
                    twist = a_inverse[_inverse(y)[b_map[y]]]
                    moved = (twist != self.identity) & (self.orbit_of_code == a.orbit)  # rough ones move more
                    if moved.any() and (self.slot_of_code[twist] == self.slot_of_code)[moved].all():
                        seq = y_seq + b_seq + self.invert(y_seq) + self.invert(a_seq)
                        key = twist.tobytes()
                        if key not in found or len(seq) < len(found[key][0]):
                            found[key] = (seq, twist)
        return sorted(found.values(), key=lambda t: (self.support(t[1]), len(t[0])))[:AIMED_PER_KIND]

    def finish(self, loc: np.ndarray, goal_view: np.ndarray, deadline: float | None = None) -> list[int] | None:
        """Moves from `loc` to `goal_view`, or None. Algorithms of few slots are even on every
        orbit, so first the fewest moves that give each orbit of distinct pieces the parity it
        needs (say one face turn of a 3x3x3 with two corners and two edges swapped); then the
        climb."""
        model = self.model
        n_pieces = model.n_pieces
        on, ok, ob, _ = model.orbit_arrays
        k_of_slot = np.repeat(ok, on)
        wanted = goal_view - goal_view % k_of_slot  # the class (times k) each slot wants
        # at[p, code]: piece p at `code` shows what the goal shows there
        at = np.zeros((n_pieces, len(self.identity)), dtype=np.int16)
        for p in range(n_pieces):
            r = model.piece_orbit[p]
            codes = np.arange(ob[r], ob[r] + on[r] * ok[r])
            at[p, codes] = goal_view[self.slot_of_code[codes]] == model.piece_class[p] + (codes - ob[r]) % ok[r]
        need = self._parity_need(loc, wanted)
        if self.exact:  # those orbits placed, and the others' parities made right, by one search
            mask = ~sum(1 << r for r in self.exact)
            moves = self.orbit_table.place(self.moves, model.canonical_pairs(), loc, goal_view,
                                           [b & mask for b in self.move_bits], need & mask, deadline)
        else:
            moves = self._parity_moves(need)
        if moves is None:
            return None
        loc = self.effect(moves)[loc].astype(np.int64)
        for r, aims in self.rough.items():
            rest, loc = self._climb(loc, at, wanted, deadline, aims, np.flatnonzero(model.piece_orbit == r))
            if rest is None or loc is None:
                return None
            moves += rest
        rest, loc = self._climb(loc, at, wanted, deadline, self.aims, np.arange(n_pieces), self.library, self.wide)
        return None if rest is None or loc is None else moves + rest

    def finish_shortest(self, loc: np.ndarray, goal_views: np.ndarray, deadline: float | None = None) -> list[int] | None:
        """The shortest of `finish` towards each of the goals (a cube with every whole-cube rotation
        a goal: 11 % shorter from the best of 24 than from the one showing most slots), the most
        showing first with the whole time until one answers (a user's second goal that the state
        cannot reach, two edges swapped on a megaminx, may show the most), the others while
        GOALS_SHARE of the time left after that lasts."""
        shown = (goal_views == self.model.view(loc)).sum(1)
        order = np.argsort(-shown, kind="stable")[:GOALS_TRIED]
        best, until = None, deadline
        for g in order:
            if until is not None and time.monotonic() > until:
                break
            moves = self.finish(loc, goal_views[g], until)
            if best is None and moves is not None and deadline is not None:
                now = time.monotonic()  # the first answer found: the others get a share of the time left
                until = now + GOALS_SHARE * max(0.0, deadline - now)
            if moves is not None and (best is None or len(moves) < len(best)):
                best = moves
        return best

    def _parity_paths(self) -> dict[int, list[int]]:
        """For the vectors of parities over the orbits of distinct pieces (bit r: orbit r odd)
        nearest to none, up to PARITY_PATHS of them, the fewest moves reaching each (a big puzzle
        of distinct stickers has hundreds of such orbits: its other vectors are solved over GF(2)
        by `_parity_solution`)."""
        paths = {0: []}
        frontier = [0]
        while frontier and len(paths) < PARITY_PATHS:
            grown = []
            for bits in frontier:
                for m, flip in enumerate(self.move_bits):
                    if bits ^ flip not in paths:
                        paths[bits ^ flip] = paths[bits] + [m]
                        grown.append(bits ^ flip)
            frontier = grown
        return paths

    def _parity_solution(self, need: int) -> list[int] | None:
        """Moves, each at most once, whose parity vectors add up to `need` (Gaussian elimination
        over GF(2)); None when no combination does."""
        pivots: dict[int, tuple[int, int]] = {}  # highest bit -> (vector, set of moves as bits)
        for m, bits in enumerate(self.move_bits):
            used = 1 << m
            while bits:
                top = bits.bit_length() - 1
                if top not in pivots:
                    pivots[top] = (bits, used)
                    break
                bits ^= pivots[top][0]
                used ^= pivots[top][1]
        used = 0
        while need:
            top = need.bit_length() - 1
            if top not in pivots:
                return None
            need ^= pivots[top][0]
            used ^= pivots[top][1]
        return [m for m in range(len(self.move_bits)) if used >> m & 1]

    def _parity_need(self, loc, wanted) -> int:
        """The parities of the state's slot permutations on the orbits of distinct pieces (bit r:
        orbit r odd)."""
        on, _, _, first_slot = self.model.orbit_arrays
        need = 0
        for r in self.distinct_orbits:
            pieces = np.flatnonzero(self.model.piece_orbit == r)
            home = {int(c): s for s, c in enumerate(wanted[first_slot[r]:first_slot[r] + on[r]])}
            moved = np.empty(on[r], dtype=np.int64)  # home slot -> slot now
            moved[[home[int(c)] for c in self.model.piece_class[pieces]]] = self.slot_of_code[loc[pieces]] - first_slot[r]
            need |= perm.parity(moved.tolist()) << r
        return need

    def _parity_moves(self, need: int) -> list[int] | None:
        """Fewest moves (or, for parity vectors far from none, some moves) whose slot permutations
        have the parities `need` on every orbit of distinct pieces; None when none has."""
        path = self.parity_paths.get(need)
        if path is None and len(self.parity_paths) >= PARITY_PATHS:
            path = self._parity_solution(need)
        return None if path is None else list(path)  # the caller extends it

    def _climb(self, loc, at, wanted, deadline, aims, pieces, library=None, wide=()):
        """(moves, loc) with `pieces` as in the goal, else (None, None) where the climb got stuck
        or past the deadline. A step applies the library's conjugate that homes the most slots per
        move or an aimed one (see `_aimed`) when none homes more or, given narrow algorithms of
        more slots, when the aimed one homes more per move."""
        score = int(at[pieces, loc[pieces]].sum())
        moves: list[int] = []
        frame: list[int] = []  # the setup X of the last aimed step, whose X' ends `moves`
        step_seconds = 0.0
        while score < len(pieces):
            started = time.monotonic()
            if deadline is not None and started > deadline:
                return None, None
            # aims seen after the last setup double a step's work: not when the step would end late
            seen_after = frame if deadline is None or started + step_seconds < deadline else []
            step, rate = None, 0.0
            if library is not None and len(library):
                occupant = np.full(len(self.identity), len(loc))  # piece at each code; a zero row of `at` where none
                occupant[loc] = np.arange(len(loc))
                at_or_none = np.vstack([at, np.zeros((1, at.shape[1]), dtype=at.dtype)])
                held = occupant[self.library_from]
                gains = (at_or_none[held, self.library_to].astype(np.int64) - at_or_none[held, self.library_from]).sum(1)
                best = int(np.argmax(gains / self.library_lengths))
                if gains[best] > 0:
                    step, rate = (library[best][loc].astype(np.int64), self.library_seqs[best], []), gains[best] / self.library_lengths[best]
            if step is None or wide:  # narrow algorithms aimed far often home more per move than the library
                aimed = self._aimed(loc, at, wanted, aims, pieces, wide, library is not None, seen_after)
                if aimed is not None and aimed[2] > rate:
                    step = aimed[:2] + aimed[3:]
            if step is None:
                return None, None
            loc, step, frame = step
            score = int(at[pieces, loc[pieces]].sum())
            self._append(moves, step)
            step_seconds = time.monotonic() - started
        return moves, loc

    def _append(self, moves: list[int], seq: list[int]) -> None:
        """moves += seq, a move followed by its inverse cancelled (X' of one step, X of the next)."""
        for m in seq:
            if moves and self.inverse_seq[m] == [moves[-1]]:
                moves.pop()
            else:
                moves.append(m)

    def _aimed(self, loc, at, wanted, aims, scored, wide=(), together=False, frame=()):
        """The best conjugate X A X' of an aim whose setup X carries wrong slots onto A's: a cycle
        takes a misplaced piece to a slot that wants it, from a slot the next piece is wanted at;
        a twist turns misturned pieces. Taken when it places or turns more of the `scored`
        pieces right while leaving no fewer of them as in the goal (so the climb always rises).
        Narrow algorithms of more slots (`wide`) are aimed by a pair of slots, the rest of what
        they move scored. `together`: the best conjugates that move disjoint pieces, each at least
        half as good per move as the best, are applied in one step.

        `frame`: the last step's setup F, whose F' ends the moves so far. A setup starting with F
        costs only what follows F (F' F cancels), so aims are also chosen as seen after F (slots
        and what they want carried by F), with setups F Y charged 2|Y| + |A|: the climb sweeps on
        from where the last setup took the puzzle (a ring turned a few steps further) instead of
        turning back and out again. (loc, moves, pieces placed or turned right per move by the
        best, the setup of the last conjugate applied) or None."""
        pieces = np.arange(len(loc))
        on, _, _, first_slot = self.model.orbit_arrays
        occupant = np.empty(len(loc), dtype=np.int64)
        occupant[self.slot_of_code[loc]] = pieces
        has = self.model.piece_class[occupant]  # class (times k) at each slot
        right = at[occupant, loc[occupant]].astype(bool)
        placed = has == wanted
        setups = self._aimed_setups
        if len(setups) > AIMED_SETUPS_KEPT:
            setups.clear()
        views = [([], None, (placed, right, has, wanted))]
        if frame and all(len(self.inverse_seq[m]) == 1 for m in frame):
            f = self.effect(list(frame))
            carried = self.slot_of_code[f[self.slot_starts]]  # slot s's contents (and want) go to carried[s]
            seen = []
            for a in (placed, right, has, wanted):
                b = np.empty_like(a)
                b[carried] = a
                seen.append(b)
            views.append((list(frame), f, tuple(seen)))
            f_inverse = _inverse(f)

        def setup(key, table, slots, prefix, f):
            """(X, its code map and inverse, moves charged) of a setup Y of `slots` after `prefix`."""
            if key not in setups:
                y_seq = table.setup(slots)
                y = None if y_seq is None else self.effect(y_seq)
                setups[key] = None if y_seq is None else (y_seq, y, _inverse(y))
            if setups[key] is None:
                return None
            y_seq, y, y_inverse = setups[key]
            if f is None:
                x_seq, x, x_inverse = y_seq, y, y_inverse
            else:
                x_seq, x, x_inverse = prefix + y_seq, y[f], f_inverse[y_inverse]
            return x_seq, x, x_inverse, len(x_seq) - _common_prefix(frame, x_seq)

        tries = []  # (orbit, (setup, its code map and inverse, moves charged), power)
        for prefix, f, (v_placed, v_right, v_has, v_wanted) in views:
            for aim in aims:
                span = slice(first_slot[aim.orbit], first_slot[aim.orbit] + aim.table.n)
                for power in aim.powers:
                    for slots in _aim_slots(power[2], len(aim.slots), v_placed[span], v_right[span], v_has[span], v_wanted[span]):
                        x = setup((id(aim), slots), aim.table, slots, prefix, f)
                        if x is not None:
                            tries.append((aim.orbit, x, power))
            chosen = [(cost, w, row, slots) for w in wide
                      for cost, row, slots in _cheap_pairs(w, *(a[first_slot[w.orbit]:first_slot[w.orbit] + w.n] for a in (v_placed, v_has, v_wanted)))]
            for _, w, row, slots in sorted(chosen, key=lambda c: c[0])[:WIDE_STEP]:  # the cheapest, on puzzles of many orbits
                moves, effect, table = w.aims[row]
                x = setup((id(table), slots), table, slots, prefix, f)
                if x is not None:
                    tries.append((w.orbit, x, (moves, effect)))
        if not tries:
            return None
        # each conjugate moves the pieces of its aim's orbit (and, for a rough orbit's, of orbits
        # solved later, which are not scored): scored there only
        in_orbit = np.zeros(len(loc), dtype=bool)
        in_orbit[scored] = True
        found = []  # (rate, try, pieces moved)
        for r in dict.fromkeys(t[0] for t in tries):
            group = [t for t in tries if t[0] == r]
            ps = np.flatnonzero(in_orbit & (self.model.piece_orbit == r))
            codes = loc[ps]
            after = np.array([x_inverse[power[1][x[codes]]] for _, (_, x, x_inverse, _), power in group])
            full = at[ps, after].sum(1)
            both = full + (wanted[self.slot_of_code[after]] == self.model.piece_class[ps]).sum(1)
            now_full = int(at[ps, codes].sum())
            now = now_full + int((wanted[self.slot_of_code[codes]] == self.model.piece_class[ps]).sum())
            lengths = np.array([2 * charged + len(power[0]) for _, (_, _, _, charged), power in group])
            rates = np.where((full >= now_full) & (both > now), (both - now) / lengths, -1)
            for i in np.flatnonzero(rates > 0):
                found.append((float(rates[i]), group[i], ps[after[i] != codes]))
        if not found:
            return None
        found.sort(key=lambda f: -f[0])
        # conjugates moving disjoint pieces (of one orbit each, in the last climb) add their gains:
        # several are applied in one step, so that a globe of 1,650 cells needs fewer steps
        moved = np.zeros(len(loc), dtype=bool)
        moves: list[int] = []
        for rate, (_, (x_seq, x, x_inverse, _), power), pieces in found[:AIMED_TOGETHER if together else 1]:
            if rate < found[0][0] / 2 or moved[pieces].any():
                continue
            moved[pieces] = True
            loc = x_inverse[power[1][x[loc]]]
            self._append(moves, x_seq + power[0] + self.invert(x_seq))
            last = x_seq
        return loc, moves, found[0][0], last


class Commutators:
    """[x, y] = x y x' y' of a code map x with every y of `base`: all at once as code maps (numpy
    gathers), or only those moving at most a few slots (a compiled scan that stops at the first
    slot past the limit: most commutators move many, and the scan of a globe's or a wreath's
    hundreds of codes is cut after a few)."""

    def __init__(self, base, slot_of_code: np.ndarray):
        self.effects = effects = np.array([e for _, e in base])
        self.inverses = inverses = np.empty_like(effects)
        np.put_along_axis(inverses, effects, np.broadcast_to(np.arange(effects.shape[1], dtype=effects.dtype), effects.shape), axis=1)
        self.flat = inverses.ravel()
        self.rows = (np.arange(len(base), dtype=effects.dtype) * effects.shape[1])[:, None]
        self.slot_of_code = slot_of_code.astype(np.int32)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """code -> y'[x'[y[x[code]]]] for every y, gathered flat (twice as fast as 2-d indexing)."""
        at = _inverse(x)[np.take(self.effects, x, axis=1)]
        at += self.rows
        return np.take(self.flat, at)

    def narrow(self, x: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(indices of the y, slots moved, code maps) of the commutators moving 1..limit slots."""
        sizes = finisher_kernels.slots_moved(self.effects, self.inverses, x.astype(self.effects.dtype),
                             _inverse(x).astype(self.effects.dtype), self.slot_of_code, limit)
        ys = np.flatnonzero((sizes > 0) & (sizes <= limit))
        maps = self.inverses[ys[:, None], _inverse(x)[self.effects[ys][:, x]]]
        return ys, sizes[ys], maps


def _cycle(step, start) -> tuple:
    """The cycle of `start` under `step` (a mapping), from `start`."""
    cycle = [start]
    while step[cycle[-1]] != start:
        cycle.append(step[cycle[-1]])
    return tuple(cycle)


def _inverse(e: np.ndarray) -> np.ndarray:
    """The code map undoing `e`."""
    out = np.empty_like(e)
    out[e] = np.arange(len(e), dtype=e.dtype)
    return out


def _common_prefix(a, b) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _aim_slots(cycle, size, placed, right, has, wanted):
    """Slot tuples (local to the orbit) to carry onto an aim's slots: along a cycle, a misplaced
    piece's slot, a slot wanting that piece (or holding a look-alike), then a slot wanting the piece
    there (or any misplaced one); in place, misturned slots (or any others to make up the number)."""
    wrong = np.flatnonzero(~placed)
    if cycle:
        for a in wrong[:AIMED_FIRST]:
            # a slot wanting a's piece; or one holding a look-alike of it, passed on along the cycle
            # (two swapped look-alike classes come home through a third slot of either class)
            look_alike = [b for b in np.flatnonzero(placed) if has[b] == has[a]][:1]
            for b in [b for b in wrong if b != a and wanted[b] == has[a]][:2] + look_alike:
                if len(cycle) == 2:
                    chains = [(a, b)]
                else:
                    after = [c for c in wrong if c not in (a, b) and wanted[c] == has[b]][:2]
                    chains = [(a, b, c) for c in after or [c for c in wrong if c not in (a, b)][:2]]
                for chain in chains:
                    slots = [0] * size
                    for position, slot in zip(cycle, chain):
                        slots[position] = int(slot)
                    yield tuple(slots)
        return
    turned = np.flatnonzero(placed & ~right)
    others = np.flatnonzero(right)
    for a in turned[:AIMED_FIRST]:
        rest = [int(b) for b in turned if b != a] + [int(b) for b in others[:2]]
        if size == 1:
            yield (int(a),)
        elif size == 2:
            yield from ((int(a), b) for b in rest)
        else:
            yield from ((int(a), b, c) for i, b in enumerate(rest) for c in rest[i + 1:i + 3])


def _cheap_pairs(wide: Wide, placed, has, wanted) -> list[tuple[int, int, tuple[int, int]]]:
    """(moves, aim, (a, b)): local slots a (a misplaced piece's) and b (misplaced, wanting that
    piece) to carry onto a pair of slots of an aim of `wide`, the WIDE_TRIES of fewest moves per aim."""
    wrong = np.flatnonzero(~placed)
    a, b = wrong[:, None], wrong[None, :]
    index = (a * wide.n + b)[(a != b) & (wanted[b] == has[a])]
    if not len(index):
        return []
    depth = wide.depths[:, index].astype(np.int64)
    cost = np.where(depth >= 0, 2 * depth + wide.lengths[:, None], np.iinfo(np.int64).max)
    kept = min(WIDE_TRIES, len(index))
    best = np.argpartition(cost, kept - 1, axis=1)[:, :kept]  # each aim's own: its collateral moves differ
    best = (best + np.arange(len(cost))[:, None] * len(index)).ravel()
    cost = cost.ravel()
    best = best[cost[best] < np.iinfo(np.int64).max]
    return [(int(cost[f]), int(f // len(index)), divmod(int(index[f % len(index)]), wide.n)) for f in best]


def _rank_in_kind(kinds: np.ndarray) -> np.ndarray:
    """Each entry's place among the earlier entries of its kind (0 for the first)."""
    order = np.argsort(kinds, kind="stable")
    ranked = kinds[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    rank = np.empty(len(kinds), dtype=np.int64)
    rank[order] = np.arange(len(kinds)) - np.repeat(starts, np.diff(np.r_[starts, len(kinds)]))
    return rank
