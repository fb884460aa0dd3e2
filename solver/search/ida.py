"""Iterative-deepening A* over pieces, with the maximum of several pattern databases (sums within
an additive set) as the lower bound, canonical move sequences, several goals and guarded moves.

The compiled kernel keeps its whole depth-first stack in arrays owned by the caller and stops after
a node quota, so the Python driver can report progress, honour time and node limits and cancel
between slices, then resume exactly where it stopped. A weight above 1 (f = g + w*h) gives the
fast, non-optimal search the fallback uses.
"""

from __future__ import annotations

import functools
import hashlib
import os
import time
from dataclasses import dataclass, field

import numpy as np

from solver import deadline
from solver.definition.canonical import content_hash
from solver.search import njit
from solver.search.budget import Budget
from solver.search.kernels import apply_move, is_goal, occupancy, prefetch, puzzle_arrays
from solver.search.ranking import (
    BINOM, FPIECE, G0, G1, KIND, MAX_SLOTS, ORI, PE, PS, PTW, SIZE, pieces_read, rank_factor,
)

FOUND, EXHAUSTED, PAUSED = 1, 0, 2
DEPTH, NODES, NEXT_BOUND = range(3)
MAX_DEPTH = 250


@dataclass
class Heuristic:
    """Pattern databases side by side in the arrays the kernel reads."""

    factors: np.ndarray
    groups: np.ndarray
    pieces: np.ndarray
    bodies: tuple  # the databases' bodies (a tuple: indexing a typed list costs more than the lookup)
    span: np.ndarray  # [pdb, 2]: factor range
    bits: np.ndarray
    sets: np.ndarray  # additive set of each database; the bound is the max over sets of sums
    n_sets: int
    model: object = field(repr=False)  # whose moves the move tables follow

    # The kernel's move tables are made on first use: a search in plain Python (solver.search.plain_ida)
    # reads its own, and making these may load numba.
    @functools.cached_property
    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        tables, toff = _move_tables(self.model, self.factors, self.groups, self.pieces)
        return _read_only(tables), toff  # read-only whether memory-mapped or just built: one kernel type

    @property
    def tables(self) -> np.ndarray:
        """int32: move tables of factors, tables[toff[f] + m*size + digit]."""
        return self._tables[0]

    @property
    def toff(self) -> np.ndarray:
        """Per factor: offset in `tables`, or -1 to rank it from the pieces instead."""
        return self._tables[1]


# A table lookup that misses the cache costs more than ranking a few pieces: only factors whose
# tables stay small get one.
TABLE_LIMIT = 2_000_000  # move-table entries of one factor


def _shape(factors, groups, f: int) -> tuple:
    """What factor f's move table depends on: moves map locations whichever piece is there, so
    factors over as many pieces of one orbit in groups alike have the same table (a twist-by-slot
    factor reads its orbit's pieces: it keeps its first piece)."""
    row = [int(x) for x in factors[f]]
    row[G0] = row[G1] = 0
    if row[KIND] != ORI:
        row[FPIECE] = 0
    rows = [[int(x) for x in g] for g in groups[factors[f, G0]: factors[f, G1]]]
    for g in rows:
        g[PS], g[PE] = 0, g[PE] - g[PS]
    return tuple(row), tuple(map(tuple, rows))


def _move_tables(model, factors, groups, pieces, limit: float = TABLE_LIMIT, build: bool = True,
                 keep_from: int = 1_000_000) -> tuple[np.ndarray, np.ndarray] | None:
    """Forward move tables for the factors of at most `limit` entries, so a child's digit is one
    lookup from its parent's. Twist-of-piece factors and guarded puzzles rank from the pieces
    instead. Tables of `keep_from` entries and more are kept in the cache folder; without `build`,
    None unless they are there already."""
    from solver.search.pdb import _factor_table, cache_dir, model_key

    moves = len(model.move_names)
    toff = np.full(len(factors), -1, dtype=np.int64)
    if model.guarded:
        return np.zeros(1, dtype=np.int32), toff
    chosen, total, made = [], 0, {}
    for f in range(len(factors)):
        rows = int(factors[f, SIZE]) * moves
        if factors[f, KIND] != PTW and rows <= limit:
            same = made.get(_shape(factors, groups, f))
            if same is not None:  # the dino cube's two 6-edge databases share one table
                toff[f] = same
                continue
            toff[f] = made[_shape(factors, groups, f)] = total
            chosen.append(f)
            total += rows
    # kept in the cache folder beside the databases: building them costs seconds per process
    key = hashlib.sha256(content_hash(model.defn).encode() + model_key(model).encode() + factors.tobytes()
                         + groups.tobytes() + pieces.tobytes() + toff.tobytes()).hexdigest()[:24]
    path = cache_dir() / f"moves-{key}.npy"
    if path.exists():
        try:
            tables = np.load(path, mmap_mode="r")
            if tables.shape == (max(total, 1),) and tables.dtype == np.int32:
                return tables, toff
        except (OSError, ValueError):
            pass
    if not build:
        return None
    tables = np.zeros(max(total, 1), dtype=np.int32)
    pz = puzzle_arrays(model)
    tracked = np.arange(model.n_pieces, dtype=np.int32)
    budget = deadline.current() or Budget()
    with budget.watching() as stop:  # a solve's time limit and cancel hold while its move tables are built
        for f in chosen:
            rows = int(factors[f, SIZE]) * moves
            _factor_table(pz, f, f, factors, groups, pieces, tracked, model.goals[0], moves,
                          tables[toff[f] : toff[f] + rows], stop)
    if stop[0]:
        raise budget.stop_reason()
    if total >= keep_from:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}.npy")
        np.save(tmp, tables)
        os.replace(tmp, path)
    return tables, toff


# The kernels are compiled once per argument type, and a tuple's type includes its length and
# its arrays' writability: bodies are passed read-only, padded to a multiple of BODY_SLOTS, so that
# every solve with up to that many databases runs the same compiled (and disk-cached) kernel
# instead of compiling anew (tens of seconds) for each number of databases.
BODY_SLOTS = 8


def _read_only(array) -> np.ndarray:
    view = np.asarray(array).view()
    view.setflags(write=False)
    return view


def combine(model, databases, sets: list[int] | None = None) -> Heuristic:
    factors, groups, pieces, span = [], [], [], []
    bodies = []
    for db in databases:
        f = db.ranker.factors.copy()
        g = db.ranker.groups.copy()
        f[:, G0] += sum(len(x) for x in groups)
        f[:, G1] += sum(len(x) for x in groups)
        g[:, PS] += sum(len(x) for x in pieces)
        g[:, PE] += sum(len(x) for x in pieces)
        start = sum(len(x) for x in factors)
        span.append((start, start + len(f)))
        factors.append(f)
        groups.append(g)
        pieces.append(db.ranker.pieces)
        bodies.append(_read_only(db.body))
    slots = max(1, -(-len(bodies) // BODY_SLOTS)) * BODY_SLOTS
    bodies = tuple(bodies + [_read_only(np.zeros(1, dtype=np.uint8))] * (slots - len(bodies)))
    sets = list(range(len(databases))) if sets is None else sets
    cat = lambda xs, shape, dt: np.concatenate(xs).astype(dt) if xs else np.zeros(shape, dt)
    factors, groups, pieces = cat(factors, (0, 10), np.int64), cat(groups, (0, 9), np.int64), cat(pieces, (0,), np.int32)
    return Heuristic(
        factors, groups, pieces, bodies,
        np.array(span, dtype=np.int64).reshape(len(span), 2), np.array([db.bits for db in databases], dtype=np.int64),
        np.array(sets, dtype=np.int64), max(sets, default=-1) + 1, model,
    )


@njit(nogil=True)
def digits_of(loc, hf, hg, hp, out, work):
    """Every factor's digit of `loc`, ranked from the pieces."""
    for f in range(hf.shape[0]):
        out[f] = rank_factor(loc, f, hf, hg, hp, BINOM, work)


@njit(nogil=True)
def child_digits(loc, parent, move, hf, hg, hp, tables, toff, out, work):
    """The child's digits: one table lookup per factor that has a move table."""
    for f in range(hf.shape[0]):
        if toff[f] >= 0:
            out[f] = tables[toff[f] + move * hf[f, SIZE] + parent[f]]
        else:
            out[f] = rank_factor(loc, f, hf, hg, hp, BINOM, work)


@njit(nogil=True)
def bound_from(digits, hf, bodies, span, bits, sets, n_sets, acc):
    """The lower bound: per additive set the sum of its databases, the max over sets."""
    for s in range(n_sets):
        acc[s] = 0
    for i in range(span.shape[0]):
        r = np.int64(0)
        for f in range(span[i, 0], span[i, 1]):
            r = r * hf[f, SIZE] + digits[f]
        body = bodies[i]
        if bits[i] == 8:
            v = body[r]
        else:
            v = (body[r >> 1] >> ((r & 1) << 2)) & 15
        acc[sets[i]] += v
    h = 0
    for s in range(n_sets):
        if acc[s] > h:
            h = acc[s]
    return h


@njit(nogil=True)
def bound_of(loc, hf, hg, hp, bodies, span, bits, sets, n_sets, work, acc):
    digits = np.zeros(hf.shape[0], dtype=np.int64)
    digits_of(loc, hf, hg, hp, digits, work)
    return bound_from(digits, hf, bodies, span, bits, sets, n_sets, acc)


@njit(nogil=True)
def whole_loc(pz, locs, path, d, m, dst, full, guarded):
    """Every piece's location after path[0..d-1] and m from the root (dst when all pieces moved)."""
    if guarded:
        return dst
    full[:] = locs[0]
    for i in range(d + 1):
        row = pz.tables[pz.case_start[path[i] if i < d else m]]
        for p in range(full.shape[0]):
            full[p] = row[full[p]]
    return full


@njit(nogil=True)
def ida_slice(pz, goal_views, allowed, hf, hg, hp, bodies, span, bits, sets, n_sets, tables, toff, weight, bound,
              locs, digs, next_move, path, ctl, quota, guarded, all_pieces, moved, ahead):
    """Run the depth-first search for at most `quota` nodes. The stack is locs[0..depth] (and
    the factor digits digs[0..depth]) with next_move[d] the next move to try at depth d;
    path[d] the move that led to depth d+1. Without guards only the `moved` pieces follow the
    moves (those some factor ranks from the pieces).
    ahead[i]: database i is read through move tables alone, so its entries can be fetched for
    every child of a node before any child is looked at."""
    n_moves = allowed.shape[1]
    lazy = n_sets == span.shape[0]  # no additive sets: the bound is a plain max
    work = np.zeros(MAX_SLOTS + 2, dtype=np.int64)
    acc = np.zeros(max(n_sets, 1), dtype=np.int64)
    n_pieces = locs.shape[1]
    occ = np.empty(n_pieces, dtype=np.int32)
    cur = np.empty(n_pieces, dtype=np.int32)
    full = np.empty(n_pieces, dtype=np.int32)  # the goal test's whole child
    nodes = 0
    d = ctl[DEPTH]
    while True:
        if nodes >= quota:
            ctl[DEPTH] = d
            ctl[NODES] += nodes
            return PAUSED
        m = next_move[d]
        if m >= n_moves:
            if d == 0:
                ctl[NODES] += nodes
                return EXHAUSTED
            d -= 1
            continue
        next_move[d] = m + 1
        prev = path[d - 1] if d > 0 else n_moves
        if m == 0 and lazy:
            # first visit: the entries of databases read through move tables alone are known for
            # every child now; asking the memory for them all at once overlaps their cache misses
            for i in range(span.shape[0]):
                if not ahead[i]:
                    continue
                body = bodies[i]
                for mm in range(n_moves):
                    if allowed[prev, mm]:
                        r = np.int64(0)
                        for fa in range(span[i, 0], span[i, 1]):
                            r = r * hf[fa, SIZE] + tables[toff[fa] + mm * hf[fa, SIZE] + digs[d, fa]]
                        prefetch(body, r if bits[i] == 8 else r >> 1)
        if not allowed[prev, m]:
            continue
        # the child goes to `cur` (indexing the stack in place: a view per node costs more than the move)
        if guarded:
            src = locs[d]
            occupancy(pz, src, all_pieces, occ)
            if not apply_move(pz, src, cur, m, all_pieces, occ):
                continue
            if d > 0:
                same = True
                for p in range(n_pieces):
                    if cur[p] != locs[d - 1, p]:
                        same = False
                        break
                if same:
                    continue
        else:
            c = pz.case_start[m]
            for i in range(moved.shape[0]):
                p = moved[i]
                cur[p] = pz.tables[c, locs[d, p]]
        nodes += 1
        if lazy:
            # databases one at a time, stopping at the first that prunes the child
            h = 0
            for i in range(span.shape[0]):
                r = np.int64(0)
                for fa in range(span[i, 0], span[i, 1]):
                    if toff[fa] >= 0:
                        x = tables[toff[fa] + m * hf[fa, SIZE] + digs[d, fa]]
                    else:
                        x = rank_factor(cur, fa, hf, hg, hp, BINOM, work)
                    digs[d + 1, fa] = x
                    r = r * hf[fa, SIZE] + x
                body = bodies[i]
                v = body[r] if bits[i] == 8 else (body[r >> 1] >> ((r & 1) << 2)) & 15
                if v > h:
                    h = v
                    if (d + 1) + weight * h > bound:
                        break
        else:
            child_digits(cur, digs[d], m, hf, hg, hp, tables, toff, digs[d + 1], work)
            h = bound_from(digs[d + 1], hf, bodies, span, bits, sets, n_sets, acc)
        f = (d + 1) + weight * h
        if f > bound:
            if f < ctl[NEXT_BOUND]:
                ctl[NEXT_BOUND] = f
            continue
        if h == 0 and (goal_views.shape[0] == 0 or is_goal(pz, whole_loc(pz, locs, path, d, m, cur, full, guarded),
                                                              goal_views)):
            path[d] = m
            ctl[DEPTH] = d + 1
            ctl[NODES] += nodes
            return FOUND
        if d + 2 >= locs.shape[0] or d + 1 >= bound:
            if d + 2 < ctl[NEXT_BOUND]:
                ctl[NEXT_BOUND] = d + 2
            continue
        for i in range(moved.shape[0]):
            locs[d + 1, moved[i]] = cur[moved[i]]
        path[d] = m
        d += 1
        next_move[d] = 0


@dataclass
class Outcome:
    moves: list[int] | None
    nodes: int
    proven: bool  # the search finished its bounds: the answer (or none) is optimal for weight 1


class IdaSearch:
    """One search from one state; `run` drives the kernel slice by slice under a budget."""

    def __init__(self, model, heuristic: Heuristic, allowed: np.ndarray, goal_views: np.ndarray, weight: int = 1):
        """`goal_views` empty: the goal is every database at 0 (the phases of the fallback)."""
        self.model = model
        self.pz = puzzle_arrays(model)
        self.h = heuristic
        self.allowed = allowed
        self.goal_views = goal_views
        self.weight = weight
        self.all_pieces = np.arange(model.n_pieces, dtype=np.int32)
        # the pieces some factor without a move table reads: the only ones the search must move
        self.moved = self.all_pieces if model.guarded else pieces_read(
            heuristic.factors, heuristic.groups, heuristic.pieces, np.flatnonzero(heuristic.toff < 0))
        self.ahead = np.array([not model.guarded and bool(np.all(heuristic.toff[a:b] >= 0)) for a, b in heuristic.span],
                              dtype=np.bool_)
        self.nodes = 0  # so far, readable after the budget stopped a run

    def lower_bound(self, loc: np.ndarray) -> int:
        h = self.h
        return int(bound_of(loc, h.factors, h.groups, h.pieces, h.bodies, h.span, h.bits, h.sets, h.n_sets,
                            np.zeros(MAX_SLOTS + 2, dtype=np.int64), np.zeros(max(h.n_sets, 1), dtype=np.int64)))

    def run(self, loc: np.ndarray, budget: Budget, *, max_bound: int = MAX_DEPTH) -> Outcome:
        pz, h = self.pz, self.h
        if len(self.goal_views) == 0 and self.lower_bound(loc) == 0 or is_goal(pz, loc, self.goal_views):
            return Outcome([], 1, True)
        locs = np.zeros((MAX_DEPTH + 2, self.model.n_pieces), dtype=np.int32)
        digs = np.zeros((MAX_DEPTH + 2, max(len(h.factors), 1)), dtype=np.int64)
        digits_of(loc, h.factors, h.groups, h.pieces, digs[0], np.zeros(MAX_SLOTS + 2, dtype=np.int64))
        next_move = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
        path = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
        ctl = np.zeros(3, dtype=np.int64)
        locs[0] = loc
        bound = self.weight * self.lower_bound(loc)
        quota = 20_000
        nodes = 0
        while bound <= max_bound * max(self.weight, 1):
            next_move[0] = 0
            ctl[DEPTH] = 0
            ctl[NEXT_BOUND] = 1 << 60
            while True:
                started = time.monotonic()
                status = ida_slice(pz, self.goal_views, self.allowed, h.factors, h.groups, h.pieces, h.bodies,
                                   h.span, h.bits, h.sets, h.n_sets, h.tables, h.toff, self.weight, bound, locs,
                                   digs, next_move, path, ctl, quota, self.model.guarded, self.all_pieces,
                                   self.moved, self.ahead)
                spent = time.monotonic() - started
                nodes = self.nodes = int(ctl[NODES])
                if status == FOUND:
                    return Outcome([int(m) for m in path[: ctl[DEPTH]]], nodes, self.weight == 1)
                budget.tick(nodes, int(ctl[DEPTH]), bound)  # raises Stopped when the budget is used up
                if status == EXHAUSTED:
                    break
                # slices of about 50 ms keep limits and cancels prompt
                quota = int(min(max(quota * (0.05 / max(spent, 1e-4)), 1000), 50_000_000))
            if ctl[NEXT_BOUND] >= 1 << 60:
                return Outcome(None, nodes, True)  # nothing beyond: no goal is reachable
            bound = int(ctl[NEXT_BOUND])
        return Outcome(None, nodes, False)
