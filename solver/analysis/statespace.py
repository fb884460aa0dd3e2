"""Exhaustive breadth-first enumeration of the colourings reachable from a goal, for puzzles whose
state space is small: counts that no group argument gives (guards, awkward identical pieces) and
exact reachability there. States are packed into 64-bit words and deduplicated by numpy sorting.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from solver import deadline, perm
from solver.definition.model import Definition

BFS_LIMIT = 2_000_000
BFS_BYTES = 300_000_000  # and at most this many bytes of states (states x stickers)


class TooLarge(Exception):
    """The space has more states than the limit."""


def _colour_codes(defn: Definition):
    colours = list(defn.colours)
    code = {c: i for i, c in enumerate(colours)}
    bits = max(1, (len(colours) - 1).bit_length())
    return code, bits


def _words(n: int, bits: int) -> list[list[int]]:
    """Which sticker positions each 64-bit word of a packed state holds, `bits` bits apiece."""
    per_word = 64 // bits
    return [list(range(i, min(n, i + per_word))) for i in range(0, n, per_word)]


def _packer(n: int, bits: int):
    """Rows of colour codes -> an (rows, words) uint64 array holding the same information."""
    words = _words(n, bits)
    shifts = [np.array([bits * j for j in range(len(w))], dtype=np.uint64) for w in words]

    def pack(rows: np.ndarray) -> np.ndarray:
        out = np.empty((len(rows), len(words)), dtype=np.uint64)
        for k, (w, sh) in enumerate(zip(words, shifts)):
            out[:, k] = (rows[:, w].astype(np.uint64) << sh).sum(axis=1, dtype=np.uint64)
        return out

    return pack


def _sorted_order(keys: np.ndarray, tie=None) -> np.ndarray:
    columns = tuple(keys[:, k] for k in reversed(range(keys.shape[1])))
    return np.lexsort(((tie,) if tie is not None else ()) + columns)


def _first_of_each(keys: np.ndarray) -> np.ndarray:
    """Indices of one row per distinct key."""
    order = _sorted_order(keys)
    ordered = keys[order]
    keep = np.ones(len(order), dtype=bool)
    keep[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    return order[keep]


def _absent(seen: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Mask of the (distinct) keys that are not rows of `seen` (distinct too)."""
    both = np.concatenate([seen, keys])
    tie = np.concatenate([np.zeros(len(seen), np.int8), np.ones(len(keys), np.int8)])
    order = _sorted_order(both, tie)
    ordered = both[order]
    repeat = np.zeros(len(order), dtype=bool)
    repeat[1:] = np.all(ordered[1:] == ordered[:-1], axis=1)
    absent = np.ones(len(keys), dtype=bool)
    hit = order[repeat]
    absent[hit[hit >= len(seen)] - len(seen)] = False
    return absent


def contains(seen: np.ndarray, key: np.ndarray) -> bool:
    return not _absent(seen, key)[0]


def _steps(defn: Definition, code: dict, dtype):
    """(source index array, guard positions, guard codes) per case; a guarded move applies its
    first case whose guard holds, so later cases exclude the earlier cases' guards."""
    steps = []
    for m in defn.moves:
        earlier = []
        for case in m.cases:
            src = np.array(perm.sources(case.perm), dtype=np.intp)
            pos = np.array([p for p, _ in case.guard], dtype=np.intp)
            col = np.array([code.get(c, len(code)) for _, c in case.guard], dtype=dtype)
            steps.append((src, pos, col, list(earlier)))
            earlier.append((pos, col))
    return steps


@lru_cache(maxsize=4)
def reachable_states(defn: Definition, limit: int = BFS_LIMIT) -> tuple[np.ndarray, callable]:
    """Every colouring reachable from the goal, packed, with the packing function of one state
    (test a state with `contains(seen, pack(state))`).
    Raises TooLarge when there are more than `limit`."""
    code, bits = _colour_codes(defn)
    limit = min(limit, BFS_BYTES // max(1, defn.stickers))
    dtype = np.uint8 if len(code) < 255 else np.uint16
    pack = _packer(defn.stickers, bits)
    steps = _steps(defn, code, dtype)
    start = np.array([[code[c] for c in defn.goal]], dtype=dtype)
    seen = pack(start)
    frontier = start
    while len(frontier):
        deadline.check()
        if len(frontier) * len(steps) * defn.stickers > BFS_BYTES:
            raise TooLarge(len(seen))
        children = []
        for src, pos, col, earlier in steps:
            deadline.check()
            rows = frontier
            if len(pos):
                mask = np.all(rows[:, pos] == col, axis=1)
                for epos, ecol in earlier:
                    if len(epos):
                        mask &= ~np.all(rows[:, epos] == ecol, axis=1)
                rows = rows[mask]
            if len(rows):
                children.append(rows[:, src])
        if not children:
            break
        rows = np.concatenate(children)
        keys = pack(rows)
        first = _first_of_each(keys)
        new = first[_absent(seen, keys[first])]
        frontier = rows[new]
        seen = np.concatenate([seen, keys[new]])
        if len(seen) > limit:
            raise TooLarge(len(seen))
    return seen, lambda state: pack(np.array([[code.get(c, len(code)) for c in state]], dtype=dtype))


def unpack(defn: Definition, key: np.ndarray) -> tuple[str, ...]:
    """The state a packed row of `reachable_states` stands for."""
    code, bits = _colour_codes(defn)
    colours = list(code)
    state = [""] * defn.stickers
    for word, positions in zip(key.tolist(), _words(defn.stickers, bits)):
        for j, x in enumerate(positions):
            state[x] = colours[(word >> (bits * j)) & ((1 << bits) - 1)]
    return tuple(state)


def count_states(defn: Definition, limit: int = BFS_LIMIT) -> int | None:
    """The number of reachable colourings, or None when there are more than `limit`."""
    try:
        return len(reachable_states(defn, limit)[0])
    except TooLarge:
        return None
