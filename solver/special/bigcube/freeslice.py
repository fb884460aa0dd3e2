"""Edge pairing of the NxNxN by free-slice macros, with the centres solved before and after.

Outer turns move no centre piece and carry whole composite edges, so they never pair nor unpair an
edge. A macro W X W' (W a wide turn, X up to MACRO_DEPTH outer turns) whose centres come back home
moves wings between composite edges: the slice W took away is brought back with other pieces in
it. That is how people pair edges (the "free slice"); here every such macro is listed once per
size (those whose permutations are alike kept once), and the pairing picks, step after step, an
outer set-up turn (or none) and the macro that pairs the most edges per turn. Macros are even on
every wing orbit, so the parity the centre phases left stays even.

When no macro pairs one more edge (often the last two), the pairing stops and the 3-cycles finish.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np

from solver import deadline as solve_budget
from solver.special.bigcube.model import BigCube, parse_turn

MACRO_DEPTH = 4  # outer turns between W and W': 9,183 distinct macros for the 4x4x4, built in < 1 s
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


def build(cube: BigCube, names: list[str], sources: np.ndarray, inverse: np.ndarray) -> Macros:
    """Every centre-preserving macro W X W' of the cube, each permutation once, outer turns first."""
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

    def add(candidates, w):
        """Keep the candidate sequences W X W' (rows of X's sources) whose centres come home."""
        xs_sources = np.array([p for _, p in candidates])
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

    for w in wide:
        solve_budget.check()
        add(xs, w)
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
    for w in wide:
        solve_budget.check()
        last_two += [k for k in add(shaped, w) if edges.unpaired(solved[perms[k]][None])[0] == 2]
    set_ups = [()] + [seq for seq, _ in xs if len(seq) <= SET_UP_DEPTH]
    set_up_sources = np.array([np.arange(cube.size)] + [p for seq, p in xs if len(seq) <= SET_UP_DEPTH])
    return Macros(moves, np.array(perms, dtype=np.int32), np.array([len(m) for m in moves]),
                  np.array(last_two), set_ups, set_up_sources)


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
        self.first = np.array([[a for _, a, _ in row] for row in rows])
        self.second = np.array([[b for _, _, b in row] for row in rows])

    def unpaired(self, states: np.ndarray) -> np.ndarray:
        """(K,) how many composite edges are not one colour pair all along, in each of K states."""
        a, b = states[:, self.first], states[:, self.second]
        paired = (a == a[:, :, :1]).all(axis=2) & (b == b[:, :, :1]).all(axis=2)
        return (~paired).sum(axis=1)


def pair(state: np.ndarray, macros: Macros, edges: Edges, deadline: float) -> list[int]:
    """Move indices pairing as many edges of `state` (centres solved) as macros can, greedily: each
    step the set-up (none or one outer turn) and macro with the most edges paired per turn; when
    none pairs one more, a last-two-edges macro after a set-up of up to SET_UP_DEPTH turns."""
    path: list[int] = []
    left = int(edges.unpaired(state[None])[0])
    one_turn = [k for k, seq in enumerate(macros.set_ups) if len(seq) <= 1]
    while left and time.perf_counter() < deadline:
        best = _best(state, left, macros, edges, one_turn, np.arange(len(macros.moves)))
        if best is None and len(macros.last_two):
            best = _best(state, left, macros, edges, range(len(macros.set_ups)), macros.last_two)
        if best is None:
            break
        k, i = best
        path += list(macros.set_ups[k]) + list(macros.moves[i])
        state = state[macros.set_up_sources[k]][macros.sources[i]]
        left = int(edges.unpaired(state[None])[0])
    return path


def _best(state, left, macros, edges, set_ups, chosen) -> tuple[int, int] | None:
    """The set-up (of `set_ups`) and macro (of `chosen`) pairing most edges per turn, if any pairs one."""
    best = None
    sources = macros.sources[chosen]
    for k in set_ups:
        solve_budget.check()  # about 20 ms per set-up for the 4x4x4 and all macros
        gained = left - edges.unpaired(state[macros.set_up_sources[k]][sources])
        rate = gained / (macros.lengths[chosen] + len(macros.set_ups[k]))
        i = int(np.argmax(rate))
        if gained[i] > 0 and (best is None or rate[i] > best[0]):
            best = (rate[i], k, int(chosen[i]))
    return best and best[1:]
