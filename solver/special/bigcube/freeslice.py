"""Edge pairing of the NxNxN by free-slice macros, with the centres solved before and after.

Outer turns move no centre piece and carry whole composite edges, so they never pair nor unpair an
edge. A macro W X W' (W a wide turn, X up to MACRO_DEPTH outer turns) whose centres come back home
moves wings between composite edges: the slice W took away is brought back with other pieces in
it. That is how people pair edges (the "free slice"); here every such macro is listed once per
size (those whose permutations are alike kept once), with the classical last-two-edges shape
W a b c a' b' W' (five outer turns), and a beam search chains set-up turns and macros until every
edge is paired (`pair`). Macros are even on every wing orbit, so the parity the centre phases
left stays even. Should no macro pair one more edge, the reduction's 3-cycles finish.
"""

from __future__ import annotations

import functools
import itertools
import time
from dataclasses import dataclass

import numpy as np

from solver import deadline as solve_budget
from solver.compiled import njit
from solver.special.bigcube.model import BigCube, parse_turn

MACRO_DEPTH = 4  # outer turns between W and W': 11,775 distinct macros for the 4x4x4 (2-6 s, then cached)
WIDTH = 8  # states the pairing beam keeps
PER_EDGE = 2.0  # a rank per edge left (tried 1.5-2.5 on 16 states: 2.0 paired in 23.9 turns, 2.5 in 25.5)
SET_UP_DEPTH = 3  # outer turns before a last-two-edges macro (one before any other macro)
_OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
_ORDER = "URFDLB"


@dataclass(frozen=True)
class Macros:
    moves: list[tuple[int, ...]]  # move indices of each macro, in order
    sources: np.ndarray           # (K, S): new_state = state[sources[k]]
    lengths: np.ndarray           # (K,) catalog turns
    last_two: np.ndarray          # indices of the macros that pair two edges breaking no other
    set_ups: list[tuple[int, ...]]  # outer sequences of up to SET_UP_DEPTH turns, shortest first
    set_up_sources: np.ndarray    # their permutations, the first row the identity


def find(cube: BigCube, names: list[str], sources: np.ndarray, inverse: np.ndarray) -> np.ndarray:
    """Every centre-preserving macro W X W' of the cube, each permutation once, outer turns first,
    as rows of move indices padded with -1, the last column 1 for the last-two-edges macros (the
    form the cache stores; `macros` reads it)."""
    faces = [parse_turn(name)[0] for name in names]
    outer = [k for k, name in enumerate(names) if parse_turn(name)[1] == 1]
    wide = [k for k, name in enumerate(names) if parse_turn(name)[1] > 1]
    centre = np.array([s for s in range(cube.size) if len(cube.pieces[cube.cubie_of(s)]) == 1])
    face_of = np.array([_ORDER.index(f) for f in cube.faces])
    # X: outer sequences with no face twice in a row and opposite faces in one order only.
    level = [((), np.arange(cube.size))]
    xs: list[tuple[tuple[int, ...], np.ndarray]] = []
    for _ in range(MACRO_DEPTH):
        solve_budget.check()
        level = [(seq + (m,), p[sources[m]]) for seq, p in level for m in outer
                 if not seq or _canonical(faces[seq[-1]], faces[m])]
        xs += level
    moves = [(m,) for m in outer]
    perms = [sources[m] for m in outer]
    seen = {p.tobytes() for p in perms}

    def add(candidates, xs_sources, w):
        """Keep the candidate sequences W X W' (X's sources: xs_sources) whose centres come home."""
        composed = sources[w][xs_sources][:, sources[inverse[w]]]
        home = (face_of[composed[:, centre]] == face_of[centre]).all(axis=1)
        kept = []
        for i in np.flatnonzero(home):
            key = composed[i].tobytes()
            if key not in seen:
                seen.add(key)
                kept.append(len(moves))
                moves.append((w,) + candidates[i][0] + (int(inverse[w]),))
                perms.append(composed[i])
        return kept

    xs_sources = np.array([p for _, p in xs])
    for w in wide:
        solve_budget.check()
        add(xs, xs_sources, w)
    # The last two edges: W a b c a' b' W' (as Dw R F' U R' F Dw'), a, b, c outer quarter turns,
    # kept when it pairs two edges and breaks no other (checked on the solved cube: two unpaired).
    quarter = [m for m in outer if names[m][-1:] not in "2"]
    shaped = []
    for a, b, c in itertools.product(quarter, repeat=3):
        if len({faces[a], faces[b], faces[c]}) == 3:
            p = np.arange(cube.size)
            for m in (a, b, c, inverse[a], inverse[b]):
                p = p[sources[m]]
            shaped.append(((a, b, c, int(inverse[a]), int(inverse[b])), p))
    edges = Edges(cube)
    solved = np.array([_ORDER.index(f) for f in cube.faces], dtype=np.uint8)
    last_two = []
    shaped_sources = np.array([p for _, p in shaped])
    for w in wide:
        solve_budget.check()
        last_two += [k for k in add(shaped, shaped_sources, w) if edges.unpaired(solved[perms[k]][None])[0] == 2]
    rows = np.full((len(moves), 2 * MACRO_DEPTH + 2), -1, dtype=np.int16)
    for k, seq in enumerate(moves):
        rows[k, :len(seq)] = seq
    rows[:, -1] = 0
    rows[last_two, -1] = 1
    return rows


def macros(cube: BigCube, names: list[str], sources: np.ndarray, rows: np.ndarray) -> Macros:
    """The macros of `find`'s rows with their permutations, and the outer set-ups."""
    moves = [tuple(int(m) for m in row[:-1] if m >= 0) for row in rows]
    perms = np.tile(np.arange(cube.size, dtype=np.int32), (len(rows), 1))
    for column in rows[:, :-1].T:
        used = column >= 0
        perms[used] = np.take_along_axis(perms[used], sources[column[used]], axis=1)
    faces = [parse_turn(name)[0] for name in names]
    outer = [k for k, name in enumerate(names) if parse_turn(name)[1] == 1]
    level, set_ups = [()], [()]
    for _ in range(SET_UP_DEPTH):
        level = [seq + (m,) for seq in level for m in outer if not seq or _canonical(faces[seq[-1]], faces[m])]
        set_ups += level
    set_up_sources = np.array([functools.reduce(lambda p, m: p[sources[m]], seq, np.arange(cube.size))
                               for seq in set_ups])
    return Macros(moves, perms, np.array([len(m) for m in moves]), np.flatnonzero(rows[:, -1] == 1),
                  set_ups, set_up_sources)


def _canonical(before: str, face: str) -> bool:
    return face != before and not (_OPPOSITE[before] == face and _ORDER.index(face) < _ORDER.index(before))


class Edges:
    """The composite edges of the cube: the stickers of its pieces on each of its two faces."""

    def __init__(self, cube: BigCube):
        edges: dict[tuple, list] = {}
        for cubie, stickers in cube.pieces.items():
            if len(stickers) == 2:
                free = next(i for i, c in enumerate(cubie) if abs(c) != cube.n - 1)
                key = tuple(c if i != free else None for i, c in enumerate(cubie))
                a, b = sorted(stickers, key=lambda s: cube.faces[s])
                edges.setdefault(key, []).append((cubie[free], a, b))
        rows = [sorted(pieces) for pieces in edges.values()]
        first = np.array([[a for _, a, _ in row] for row in rows])
        second = np.array([[b for _, _, b in row] for row in rows])
        self.stickers = np.stack([first, second])  # (2, edges, pieces along an edge)

    def unpaired(self, states: np.ndarray) -> np.ndarray:
        """(K,) how many composite edges are not one colour pair all along, in each of K states."""
        return self.unpaired_of(states[:, self.stickers])

    @staticmethod
    def unpaired_of(colours: np.ndarray) -> np.ndarray:
        """unpaired() from the colours of `stickers` alone, (K, 2, edges, pieces)."""
        return (colours != colours[..., :1]).any(axis=(1, 3)).sum(axis=1)

    def seams(self, states: np.ndarray) -> np.ndarray:
        """(K,) how many neighbouring pieces along the composite edges differ, in each of K states:
        0 when all are paired, one per unpaired edge on the 4x4x4; on bigger cubes it also sees
        an edge half paired (a wing onto the 5x5x5's midge)."""
        return self.seams_of(states[:, self.stickers])

    @staticmethod
    def seams_of(colours: np.ndarray) -> np.ndarray:
        """seams() from the colours of `stickers` alone, (K, 2, edges, pieces)."""
        return (colours[..., 1:] != colours[..., :-1]).any(axis=1).sum(axis=(1, 2))


def pair(state: np.ndarray, macros: Macros, edges: Edges, deadline: float, stop: float,
         width: int = WIDTH) -> list[list[int]]:
    """Ways (move indices) to pair every edge of `state` (centres solved), shortest first, up to
    `width` of them; when macros cannot pair them all, the one way that pairs most.

    A beam search whose steps are a set-up (none or one outer turn) and a macro that pairs at least
    one more edge, or, when none does, a last-two-edges macro after a set-up of up to SET_UP_DEPTH
    turns; states are ranked by turns so far plus PER_EDGE per edge left. After `deadline` the
    beam narrows to one (a greedy finish, a few hundred milliseconds); at `stop` the search ends
    with the best it has."""
    start = int(edges.seams(state[None])[0])
    beam = [(0, [], state, start)]
    best: tuple[int, int, list[int]] = (start, 0, [])  # (edges left, turns, path): fewest left, then shortest
    finished: list[tuple[int, list[int]]] = []
    one_turn = np.array([k for k, seq in enumerate(macros.set_ups) if len(seq) <= 1])
    every_set_up = np.arange(len(macros.set_ups))
    everything = np.arange(len(macros.moves))
    read = macros.sources[:, edges.stickers].astype(np.int16)  # only the edge stickers are read
    last_two = read[macros.last_two]
    while beam and time.perf_counter() < stop:
        wide = width if time.perf_counter() < deadline else 1
        steps = []  # (rank, node, set-up, macro, edges left after)
        for node, (turns, _, st, left) in enumerate(beam):
            if time.perf_counter() > stop:
                break
            found = _steps(st, turns, left, macros, one_turn, everything, read, wide, stop)
            if not found and len(macros.last_two):
                found = _steps(st, turns, left, macros, every_set_up, macros.last_two, last_two, wide, stop)
            steps += [(rank, node, k, i, after) for rank, k, i, after in found]
        steps.sort()
        next_beam, seen = [], set()
        for _, node, k, i, after in steps:
            turns, path, st, _ = beam[node]
            child = st[macros.set_up_sources[k]][macros.sources[i]]
            key = child.tobytes()
            if key in seen:
                continue
            seen.add(key)
            entry = (turns + len(macros.set_ups[k]) + int(macros.lengths[i]),
                     path + list(macros.set_ups[k]) + list(macros.moves[i]), child, after)
            best = min(best, (after, entry[0], entry[1]), key=lambda b: b[:2])
            if after:
                next_beam.append(entry)
            else:
                finished.append(entry[:2])
            if len(seen) == wide:
                break
        beam = next_beam
    if not finished:
        return [best[2]]
    return [path for _, path in sorted(finished, key=lambda f: f[0])[:width]]


def _steps(state, turns, left, macros, set_ups, chosen, sources, width, stop):
    """The `width` best steps from a state: (rank, set-up, macro, edges left after), each pairing one
    edge or more; `sources`: the edge stickers' sources of the `chosen` macros."""
    solve_budget.check()
    if time.perf_counter() > stop:
        return []
    after = seams_after(state, macros.set_up_sources, set_ups, sources)  # (set-ups, macros)
    lengths = np.array([len(macros.set_ups[k]) for k in set_ups])
    rank = turns + lengths[:, None] + macros.lengths[chosen][None, :] + PER_EDGE * after
    rank = np.where(after < left, rank, np.inf).ravel()
    if len(rank) > width:  # ties broken by set-up, then macro (a stable sort of those up to the width-th rank)
        best = np.flatnonzero(rank <= rank[np.argpartition(rank, width)[:width]].max())
    else:
        best = np.arange(len(rank))
    best = best[np.argsort(rank[best], kind="stable")][:width]
    return [(float(rank[j]), int(set_ups[j // len(chosen)]), int(chosen[j % len(chosen)]),
             int(after.flat[j])) for j in best if rank[j] < np.inf]


@njit(cache=True, nogil=True)
def seams_after(state, set_up_sources, set_ups, sources):
    """Edges.seams of the state after each set-up (rows `set_ups` of `set_up_sources`) and then each macro
    (rows of `sources`: the macros' sources of the edge stickers, (macros, 2, edges, pieces)): a
    (set-ups, macros) array. Compiled: the 4x4x4's beam scores 19 x 11,775 of them per state."""
    out = np.zeros((len(set_ups), sources.shape[0]), dtype=np.int64)
    set_up = np.empty(len(state), dtype=state.dtype)
    for k in range(len(set_ups)):
        for s in range(len(state)):
            set_up[s] = state[set_up_sources[set_ups[k], s]]
        for i in range(sources.shape[0]):
            count = 0
            for e in range(sources.shape[2]):
                for p in range(1, sources.shape[3]):
                    if (set_up[sources[i, 0, e, p]] != set_up[sources[i, 0, e, p - 1]]
                            or set_up[sources[i, 1, e, p]] != set_up[sources[i, 1, e, p - 1]]):
                        count += 1
            out[k, i] = count
    return out
