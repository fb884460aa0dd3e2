"""Pattern databases: distance tables over a projection, built by breadth-first search in compiled
code, packed at 4 bits per entry (or 8 when exact distances above 15 are needed), stored as
versioned files and loaded memory-mapped so that worker processes share their pages.

A database is identified by (definition hash, piece-model key, projection, format version). The
piece-model key fingerprints the orbits the projection's numbers refer to, so a definition that is
the same puzzle written differently reuses the file, and a changed piece derivation never reads a
stale one. A table whose projection keeps everything is the full distance table (God's algorithm).

File: magic, header length, JSON header (format version, hashes, projection, sizes, distance
distribution, SHA-256 of the body), zero padding to 64 bytes, body. A body whose checksum was
checked is remembered as intact in a stamp beside it (`solver.intact`), so that the next processes
do not read the whole file again.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver import deadline, intact
from solver.compiled import interpreted
from solver.definition.canonical import content_hash
from solver.errors import PuzzleError
from solver.recent import Recent
from solver.search import njit
from solver.search.budget import Budget
from solver.search.kernels import Puzzle, apply_case, guard_holds, occupancy, puzzle_arrays
from solver.search.ranking import (
    BINOM, FK, G0, G1, KIND, MAX_SLOTS, PTW, SIZE, Projection, Ranker, full_projection, make_ranker, rank, rank_factor, unrank, unrank_factor,
)

MAGIC = b"PHPDB\x00\x01\x00"
FORMAT_VERSION = 1
UNSET = 255
STOP_EVERY = (1 << 12) - 1  # the ranking table search reads its stop flag every 4,096 entries (ms apart)
DEFAULT_BUDGET = 512 * 2**20  # bytes of stored tables per puzzle
MAX_ENTRIES = 120_000_000  # per table: keeps one build within about a minute
INTERPRETED_STEPS = 5_000  # entries x moves of a table built as plain Python (about 60 us a step; numba loads in 0.5 s)


class PatternDatabaseError(PuzzleError):
    """A pattern database that cannot be built (budget) or read (wrong puzzle, damaged file)."""


def cache_dir() -> Path:
    root = os.environ.get("PUZZLEHUB_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "puzzlehub")
    return Path(root) / "pdb"


def model_key(model) -> str:
    """Fingerprint of what projection numbers mean: orbits, their slots, twists and classes."""
    h = hashlib.sha256()
    for orb in model.orbits:
        h.update(json.dumps([orb.slots, orb.k, orb.rot, orb.classes.tolist()]).encode())
    return h.hexdigest()[:16]


def stored_bytes(entries: int, bits: int) -> int:
    return entries if bits == 8 else (entries + 1) // 2


@dataclass
class PatternDatabase:
    projection: Projection
    ranker: Ranker
    bits: int  # 4 (distances capped at 15) or 8 (exact up to 254)
    body: np.ndarray  # uint8, possibly a read-only memory map
    header: dict = field(default_factory=dict)
    path: Path | None = None  # its file, once saved or loaded

    @property
    def exact(self) -> bool:
        """True when entries are exact distances (nothing capped)."""
        return self.bits == 8 or self.header.get("max_depth", 15) <= 14

    @property
    def is_full(self) -> bool:
        return bool(self.header.get("full"))

    def distance(self, model, loc: np.ndarray) -> int:
        r = self.ranker.rank(loc)
        v = int(self.body[r]) if self.bits == 8 else (int(self.body[r >> 1]) >> ((r & 1) * 4)) & 15
        return v


# ---------------------------------------------------------------- building


def inverse_puzzle(model) -> Puzzle:
    """The model's arrays with every unguarded move replaced by its inverse, so that a search from
    the goals gives distances *to* the goals. Guarded puzzles (whose definitions list the reverse of
    every slide or jump) keep their moves."""
    pz = puzzle_arrays(model)
    if model.guarded:
        return pz
    inv = np.empty_like(model.tables)
    for c in range(model.tables.shape[0]):
        inv[c, model.tables[c]] = np.arange(model.tables.shape[1], dtype=np.int32)
    return pz._replace(tables=inv)


@njit(nogil=True)
def _successors(pz, loc, move, out, tracked, occ):
    """Cases of `move` that may apply to a projected state (all of them when the guard reads an
    untracked piece: a relaxation, so distances stay lower bounds). Fills out[i]; returns count."""
    cnt = 0
    for case in range(pz.case_start[move], pz.case_start[move + 1]):
        h = guard_holds(pz, loc, case, occ)
        if h == 0:
            continue
        for i in range(tracked.shape[0]):
            out[cnt, tracked[i]] = loc[tracked[i]]
        apply_case(pz, loc, out[cnt], case, tracked)
        cnt += 1
        if h == 1:
            break
    return cnt


@njit(nogil=True)
def _seed(dist, goal_ranks, counts):
    """Level 0 of a table search: the goals' ranks (several goals may share one). Returns how
    many entries are set."""
    reached = 0
    for r in goal_ranks:
        if dist[r] == UNSET:
            dist[r] = 0
            reached += 1
    counts[0] = reached
    return reached


@njit(nogil=True)
def _bfs(dist, pz_back, pz_fwd, factors, groups, pieces, tracked, counted, goal_ranks, n_moves, succ, start, counts,
         stop):
    """Breadth-first search over ranks from the goals (-1 as soon as it sees stop[0] raised). Level d is expanded by pushing (frontier
    scan) while the frontier is small, then by pulling (each unset entry looks for a neighbour at
    d) once most entries are reached, which touches each remaining entry once per level.
    Moves that move no counted piece cost 0 (additive databases): such levels are closed by
    repeating the push until nothing changes."""
    binom = BINOM
    n = dist.shape[0]
    loc = start.copy()
    occ = np.empty(start.shape[0], dtype=np.int32)
    for j in range(succ.shape[0]):
        succ[j, :] = start
    work = np.zeros(MAX_SLOTS + 2, dtype=np.int64)
    digits = np.zeros(64 + pieces.shape[0] + factors.shape[0], dtype=np.int64)
    additive = counted.shape[0] < pieces.shape[0]
    reached = _seed(dist, goal_ranks, counts)
    d = 0
    while d < 253:
        new = 0
        if not additive and counts[d] * 4 > n - reached:
            for r in range(n):
                if r & STOP_EVERY == 0 and stop[0]:
                    return -1
                if dist[r] != UNSET:
                    continue
                unrank(r, factors, groups, pieces, binom, loc, digits)
                occupancy(pz_fwd, loc, tracked, occ)
                hit = False
                for m in range(n_moves):
                    c = _successors(pz_fwd, loc, m, succ, tracked, occ)
                    for j in range(c):
                        if dist[rank(succ[j], factors, groups, pieces, binom, work)] == d:
                            hit = True
                            break
                    if hit:
                        break
                if hit:
                    dist[r] = d + 1
                    new += 1
        else:
            again = True
            while again:
                again = False
                for r in range(n):
                    if r & STOP_EVERY == 0 and stop[0]:
                        return -1
                    if dist[r] != d:
                        continue
                    unrank(r, factors, groups, pieces, binom, loc, digits)
                    occupancy(pz_back, loc, tracked, occ)
                    for m in range(n_moves):
                        c = _successors(pz_back, loc, m, succ, tracked, occ)
                        for j in range(c):
                            r2 = rank(succ[j], factors, groups, pieces, binom, work)
                            if dist[r2] != UNSET:
                                continue
                            cost = 1
                            if additive:
                                cost = 0
                                for i in range(counted.shape[0]):
                                    if succ[j, counted[i]] != loc[counted[i]]:
                                        cost = 1
                                        break
                            if cost == 0:
                                dist[r2] = d
                                counts[d] += 1
                                reached += 1
                                again = True
                            else:
                                dist[r2] = d + 1
                                new += 1
        if new == 0:
            break
        reached += new
        d += 1
        counts[d] = new
    return d


@njit(inline="always")
def _digit(t, f, m, c, offsets, sizes, kinds, adds, add_offsets):
    """Factor f's digit after move m (t: the move tables; c: the digits before)."""
    if kinds[f] == PTW:
        delta = t[offsets[f] + m * sizes[f - 1] + c[f - 1]]
        return adds[add_offsets[f] + c[f] * sizes[f] + delta]
    return t[offsets[f] + m * sizes[f] + c[f]]


@njit(nogil=True)
def _bfs_tables(dist, back, fwd, offsets, sizes, kinds, adds, add_offsets, n_moves, goal_ranks, counts, stop):
    """The same search (also -1 on stop[0]) when every factor has a move table: a move maps each factor's digit
    through its table (back: inverse moves, for pushing; fwd: for pulling). A piece-twist factor
    adds, digit by digit (table `adds`), the twists its move gives at the pieces' old slots.
    Ranks are visited block by block (one block per value of all factors but the last), so the
    part of each move's target that the block shares is computed once."""
    n = dist.shape[0]
    nf = sizes.shape[0]
    last = nf - 1
    size_last = sizes[last]
    c = np.zeros(nf, dtype=np.int64)
    pre = np.zeros(n_moves, dtype=np.int64)
    delta = np.zeros(n_moves, dtype=np.int64)
    twist_last = kinds[last] == PTW
    off_last = offsets[last]
    add_base = add_offsets[last]
    reached = _seed(dist, goal_ranks, counts)
    d = 0
    while d < 253:
        new = 0
        pull = counts[d] * 4 > n - reached  # the frontier outnumbers what is left: look from the other side
        t = fwd if pull else back
        want = UNSET if pull else d
        for outer in range(n // size_last):
            if stop[0]:
                return -1
            base = outer * size_last
            rem = outer
            for f in range(last - 1, -1, -1):
                c[f] = rem % sizes[f]
                rem //= sizes[f]
            prepared = False
            for cl in range(size_last):
                r = base + cl
                if dist[r] != want:
                    continue
                if not prepared:
                    for m in range(n_moves):
                        x = np.int64(0)
                        for f in range(last):
                            x = x * sizes[f] + _digit(t, f, m, c, offsets, sizes, kinds, adds, add_offsets)
                        pre[m] = x * size_last
                        if twist_last:
                            delta[m] = t[off_last + m * sizes[last - 1] + c[last - 1]]
                    prepared = True
                for m in range(n_moves):
                    if twist_last:
                        r2 = pre[m] + adds[add_base + cl * size_last + delta[m]]
                    else:
                        r2 = pre[m] + t[off_last + m * size_last + cl]
                    if pull:
                        if dist[r2] == d:
                            dist[r] = d + 1
                            new += 1
                            break
                    elif dist[r2] == UNSET:
                        dist[r2] = d + 1
                        new += 1
        if new == 0:
            break
        reached += new
        d += 1
        counts[d] = new
    return d


@njit(nogil=True)
def _factor_table(pz, f, src_f, factors, groups, pieces, tracked, start, n_moves, out, stop):
    """out[m*size + c]: the digit of factor f after move m from digit c of factor src_f (the
    factor itself; for a piece-twist factor its position factor, giving the twists added); left
    part-filled when stop[0] is raised."""
    size = factors[src_f, SIZE]
    loc = start.copy()
    dst = start.copy()
    work = np.zeros(MAX_SLOTS + 2, dtype=np.int64)
    digits = np.zeros(64 + pieces.shape[0] + 1, dtype=np.int64)
    for c in range(size):
        if c & STOP_EVERY == 0 and stop[0]:
            return
        unrank_factor(c, src_f, factors, groups, pieces, BINOM, loc, digits)
        for m in range(n_moves):
            apply_case(pz, loc, dst, pz.case_start[m], tracked)
            out[m * size + c] = rank_factor(dst, f, factors, groups, pieces, BINOM, work)


FACTOR_TABLE_LIMIT = 60_000_000  # entries of all factor move tables together
ADD_TABLE_LIMIT = 1 << 24


def _digit_sums(k: int, count: int) -> np.ndarray:
    """adds[a*k^count + b]: digit-wise sum mod k of two base-k numbers of `count` digits."""
    size = k**count
    values = np.arange(size)
    digits = np.stack([(values // k**i) % k for i in range(count)])
    total = np.zeros((size, size), dtype=np.int64)
    for i in range(count):
        total += ((digits[i][:, None] + digits[i][None, :]) % k) * k**i
    return total.astype(np.int32).ravel()


def _factor_tables(model, ranker: Ranker, pz: Puzzle, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    moves = len(model.move_names)
    factors = ranker.factors
    src = [f - 1 if factors[f, KIND] == PTW else f for f in range(len(factors))]
    rows = [int(factors[s, SIZE]) * moves for s in src]
    offsets = np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(np.int64)
    out = np.empty(sum(rows), dtype=np.int32)
    tracked = ranker.tracked()
    for f in range(len(factors)):
        part = out[offsets[f] : offsets[f] + rows[f]]
        _factor_table(pz, f, src[f], factors, ranker.groups, ranker.pieces, tracked, model.goals[0], moves, part, stop)
    return out, offsets


def by_move_tables(model, ranker: Ranker) -> bool:
    """Whether a table over `ranker` is built by the fast search over factor move tables: an
    unguarded puzzle whose factors' move tables (and twist-sum tables) fit their limits."""
    if model.guarded:
        return False
    factors = ranker.factors
    moves = len(model.move_names)
    kinds = factors[:, KIND]
    rows = sum(int(factors[f - 1 if kinds[f] == PTW else f, SIZE]) * moves for f in range(len(factors)))
    twist_sums = all(int(factors[f, SIZE]) ** 2 <= ADD_TABLE_LIMIT for f in range(len(factors)) if kinds[f] == PTW)
    return rows <= FACTOR_TABLE_LIMIT and twist_sums


def _table_plan(model, ranker: Ranker):
    """(kinds, adds, add offsets) when the factor-table search applies, else None."""
    if not by_move_tables(model, ranker):
        return None
    factors = ranker.factors
    kinds = factors[:, KIND].astype(np.int64)
    adds, add_offsets, total = [], [], 0
    for f in range(len(factors)):
        add_offsets.append(total)
        if kinds[f] == PTW:
            size = int(factors[f, SIZE])
            adds.append(_digit_sums(int(factors[f, FK]), int(factors[f, G1] - factors[f, G0])))
            total += size * size
    adds = np.concatenate(adds) if adds else np.zeros(1, dtype=np.int32)
    return kinds, adds, np.array(add_offsets, dtype=np.int64)


TABLE_SECONDS_PER_ENTRY_MOVE = 30e-9  # search by move tables (pessimistic, quiet machine)
RANKING_SECONDS_PER_ENTRY_MOVE = 1e-6  # search that ranks every successor (measured on a loaded machine)


def build_seconds(model, projection: Projection) -> float:
    """A pessimistic estimate of the time to build the table over `projection`."""
    ranker = make_ranker(model, projection)
    rate = TABLE_SECONDS_PER_ENTRY_MOVE if by_move_tables(model, ranker) else RANKING_SECONDS_PER_ENTRY_MOVE
    return ranker.size * len(model.move_names) * rate


def _inverse_tables(tables: np.ndarray, offsets: np.ndarray, ranker: Ranker, moves: int) -> np.ndarray | None:
    """The move tables of the inverse moves, by inverting each move's digit permutation (a move
    permutes a position or twist factor's digits); None when a factor adds twists (PTW) or a row is
    not a permutation of the digits (met on a recoloured, renumbered megaminx's phase)."""
    factors = ranker.factors
    if (factors[:, KIND] == PTW).any():
        return None
    out = np.empty_like(tables)
    for f in range(len(factors)):
        size = int(factors[f, SIZE])
        for m in range(moves):
            row = tables[offsets[f] + m * size : offsets[f] + (m + 1) * size]
            if row.min() < 0 or row.max() >= size or np.count_nonzero(np.bincount(row, minlength=size)) != size:
                return None
            out[offsets[f] + m * size + row] = np.arange(size, dtype=tables.dtype)
    return out


def distances(model, ranker: Ranker, counted: np.ndarray | None = None, stop: np.ndarray | None = None
              ) -> tuple[np.ndarray, list[int]] | None:
    """Distance to the nearest goal of every rank (UNSET where unreachable), and how many ranks
    lie at each distance; None when stop[0] was raised first."""
    stop = np.zeros(1, dtype=np.int64) if stop is None else stop
    dist = np.full(ranker.size, UNSET, dtype=np.uint8)
    goal_ranks = np.array(sorted({ranker.rank(g) for g in model.goals}), dtype=np.int64)
    counts = np.zeros(256, dtype=np.int64)
    fwd, back = puzzle_arrays(model), inverse_puzzle(model)
    moves = len(model.move_names)
    counted = ranker.counted_pieces if counted is None else counted
    sizes = ranker.factors[:, SIZE].astype(np.int64)
    tables = _table_plan(model, ranker) if len(counted) == len(ranker.pieces) else None
    if tables is not None:
        tf, offsets = _factor_tables(model, ranker, fwd, stop)
        tb = _inverse_tables(tf, offsets, ranker, moves)
        if tb is None:
            tb, _ = _factor_tables(model, ranker, back, stop)
        depth = _bfs_tables(dist, tb, tf, offsets, sizes, *tables, moves, goal_ranks, counts, stop)
    else:
        succ = np.zeros((int(np.diff(model.case_start).max()), model.n_pieces), dtype=np.int32)
        depth = _bfs(dist, back, fwd, ranker.factors, ranker.groups, ranker.pieces, ranker.tracked(), counted,
                     goal_ranks, moves, succ, model.goals[0], counts, stop)
    if depth < 0:
        return None
    return dist, [int(c) for c in counts[: depth + 1]]


@njit(nogil=True)
def _pack4(dist, out):
    for i in range(dist.shape[0]):
        v = dist[i]
        if v > 15:
            v = 15
        if i & 1:
            out[i >> 1] |= v << 4
        else:
            out[i >> 1] = v


def build(model, projection: Projection | None = None, *, budget_bytes: int = DEFAULT_BUDGET, full: bool = False,
          budget: Budget | None = None) -> PatternDatabase:
    """Build one database over `projection` (default: everything, the full distance table). Under
    `budget` (default: the current solve's, solver.deadline) a cancel or the time limit stops the
    build within about POLL seconds (Cancelled, OutOfTime)."""
    projection = projection or full_projection(model)
    ranker = make_ranker(model, projection)
    full = full or projection == full_projection(model)
    size = ranker.size
    need4 = stored_bytes(size, 4)
    if need4 > budget_bytes:
        raise PatternDatabaseError(
            f"pattern database {projection.describe(model)}: {size:,} entries need {need4:,} bytes at 4 bits, "
            f"over the budget of {budget_bytes:,} bytes"
        )
    if not model.goals:
        raise PatternDatabaseError("pattern database: the puzzle has no goal its pieces can show")
    started = time.monotonic()
    budget = budget or deadline.current() or Budget()
    budget.report(phase="table building", text=f"{projection.describe(model)}: {size:,} entries")
    # a few thousand steps as plain Python cost less than loading numba (a floppy cube's first solve)
    small = size * len(model.move_names) <= INTERPRETED_STEPS
    with deadline.phase("table building"), budget.watching() as stop, interpreted() if small else nullcontext():
        found = distances(model, ranker, stop=stop)
        if found is None:
            raise budget.stop_reason()
        dist, counts = found
        depth = len(counts) - 1
        bits = 4
        # a full table keeps exact distances so that solving is a walk; so does one over a few
        # pieces of an orbit too large for a slot mask, whose distances run long (a ring's two
        # crossings: 60 turns) so that capped at 15 they would leave a search to place them blind
        wide = any(model.orbits[p.orbit].n > MAX_SLOTS for p in projection.parts)
        if (full or wide) and depth > 14 and stored_bytes(size, 8) <= budget_bytes:
            bits = 8
        if bits == 8:
            body = dist
        else:
            body = np.zeros(stored_bytes(size, 4), dtype=np.uint8)
            _pack4(dist, body)
    header = {
        "format_version": FORMAT_VERSION,
        "definition_hash": content_hash(model.defn),
        "model_key": model_key(model),
        "projection": projection.to_json(),
        "description": projection.describe(model),
        "entries": size,
        "reached": sum(counts),
        "bits": bits,
        "full": bool(full),
        "max_depth": depth,
        "distribution": counts,
        "build_seconds": round(time.monotonic() - started, 3),
        "name": model.defn.name,
    }
    return PatternDatabase(projection, ranker, bits, body, header)


# ---------------------------------------------------------------- files


def file_name(defn_hash: str, key: str, projection: Projection) -> str:
    proj = hashlib.sha256(projection.to_json().encode()).hexdigest()[:12]
    return f"{defn_hash.split(':')[-1][:20]}-{key}-{proj}-v{FORMAT_VERSION}.pdb"


def save(db: PatternDatabase, path: Path) -> Path:
    header = dict(db.header, body_bytes=int(db.body.nbytes), body_sha256=hashlib.sha256(db.body.tobytes()).hexdigest())
    text = json.dumps(header, sort_keys=True).encode()
    head = MAGIC + struct.pack("<I", len(text)) + text
    head += b"\x00" * (-len(head) % 64)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    with open(tmp, "wb") as fh:
        fh.write(head)
        fh.write(db.body.tobytes())
    os.replace(tmp, path)  # readers never see a half-written file
    db.header = header
    return path


def read_header(path: Path) -> tuple[dict, int]:
    """The header and the body's offset; PatternDatabaseError when the file is not one of ours."""
    with open(path, "rb") as fh:
        start = fh.read(12)
        if len(start) < 12 or start[:8] != MAGIC:
            raise PatternDatabaseError(f"{path}: not a PuzzleHub pattern database (bad magic)")
        (n,) = struct.unpack("<I", start[8:12])
        if n > 1_000_000:
            raise PatternDatabaseError(f"{path}: header length {n} is implausible")
        try:
            header = json.loads(fh.read(n))
        except ValueError:
            raise PatternDatabaseError(f"{path}: the header is not valid JSON") from None
    offset = 12 + n + (-(12 + n) % 64)
    return header, offset


def load(path: Path, model, *, check_body: bool = True) -> PatternDatabase:
    """Open a file memory-mapped after checking it belongs to this puzzle and is intact."""
    header, offset = read_header(path)
    if header.get("format_version") != FORMAT_VERSION:
        raise PatternDatabaseError(f"{path}: format version {header.get('format_version')}, expected {FORMAT_VERSION}")
    want = content_hash(model.defn)
    if header.get("definition_hash") != want:
        raise PatternDatabaseError(f"{path}: built for definition {header.get('definition_hash')}, not {want}")
    if header.get("model_key") != model_key(model):
        raise PatternDatabaseError(f"{path}: built for another piece model of this definition")
    projection = Projection.from_json(header["projection"])
    ranker = make_ranker(model, projection)
    bits = int(header.get("bits", 0))
    if bits not in (4, 8) or ranker.size != header.get("entries"):
        raise PatternDatabaseError(f"{path}: sizes in the header do not match its projection")
    size = stored_bytes(ranker.size, bits)
    stat = os.stat(path)
    if stat.st_size != offset + size or header.get("body_bytes") != size:
        raise PatternDatabaseError(f"{path}: the body has {stat.st_size - offset} bytes, expected {size}")
    body = np.memmap(path, dtype=np.uint8, mode="r", offset=offset, shape=(size,))
    digest = str(header.get("body_sha256"))
    if check_body and not intact.known(path, stat, digest):
        if hashlib.sha256(body).hexdigest() != digest:
            raise PatternDatabaseError(f"{path}: the body's checksum does not match (the file is damaged)")
        intact.remember(path, stat, digest)
    return PatternDatabase(projection, ranker, bits, body, header, path)


def cache_path(model, projection: Projection) -> Path:
    """Where the database over `projection` is kept in the cache folder."""
    return cache_dir() / file_name(content_hash(model.defn), model_key(model), projection)


def is_cached(model, projection: Projection) -> bool:
    return cache_path(model, projection).exists()


_opened: Recent = Recent()  # (path, size, mtime) -> database, the recent ones (a worker meets many puzzles)


def cached(model, projection: Projection, *, budget_bytes: int = DEFAULT_BUDGET, build_missing: bool = True, full: bool = False,
           budget: Budget | None = None) -> PatternDatabase | None:
    """The database from the cache folder, built and saved there first when missing (under
    `budget`, default the current solve's, which lists the file in its `built`). A file is
    checked (checksum) once while it stays unchanged; later solves reuse the open memory map."""
    path = cache_path(model, projection)
    if path.exists():
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key in _opened:
            return _opened.get(key)
        try:
            db = _opened[key] = load(path, model)
            return db
        except PatternDatabaseError:
            if not build_missing:
                raise
            path.unlink(missing_ok=True)  # damaged or stale: rebuild it
    if not build_missing:
        return None
    budget = budget or deadline.current() or Budget()
    db = build(model, projection, budget_bytes=budget_bytes, full=full, budget=budget)
    save(db, path)
    budget.built.append(path)
    stat = path.stat()
    db = _opened[(str(path), stat.st_size, stat.st_mtime_ns)] = load(path, model, check_body=False)
    return db


def list_cached() -> list[dict]:
    """Headers of every database in the cache folder (with `path` and `bytes`)."""
    out = []
    folder = cache_dir()
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.pdb")):
        try:
            header, _ = read_header(path)
        except (PatternDatabaseError, OSError):
            continue
        header = {k: v for k, v in header.items() if k != "body_sha256"}
        out.append(dict(header, path=str(path), bytes=path.stat().st_size))
    return out
