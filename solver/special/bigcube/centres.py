"""Distance tables for the centres of the NxNxN, one orbit at a time.

Every centre orbit has 24 pieces (4 per face), so which places hold a set of colours is a 24-bit
mask. A table gives, for every mask reachable from the goal mask, the fewest catalog turns that
bring those colours home in that orbit (breadth-first search from the goal: the turns are closed
under inverses). The short reduction scores its centre phases with the sum of these distances over
the orbits: each is exact for its orbit alone, so the beam is steered all the way down, with no
plateau where a last pair of centres needs a commutator. The last phase's tables also carry the
parity of every wing orbit (an inner quarter turn flips it), so that they lead to solved centres
with even wings, from where edges can be paired without a parity algorithm.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver import deadline
from solver.compiled import njit


# The distance of a mask no turn reaches (a bad state's): more than any table's, yet the few
# distances a beam score adds up stay within int8.
OUT_OF_REACH = 40


@dataclass(frozen=True)
class Table:
    keys: np.ndarray   # sorted masks
    dist: np.ndarray   # distance of each mask

    def lookup(self, masks: np.ndarray) -> np.ndarray:
        return self.dense[masks]

    @cached_property
    def dense(self) -> np.ndarray:
        """The distances indexed by mask (int8, 16-64 MB): a beam's lookups are a gather, not a
        binary search (which took a fifth of the 5x5x5's centre time)."""
        out = np.full(1 << int(self.keys[-1]).bit_length(), OUT_OF_REACH, dtype=np.int8)
        out[self.keys] = self.dist
        return out


class OrbitMoves:
    """The effect of each catalog turn on one centre orbit, as byte lookups on masks, and on the
    wing parity bits kept above the mask's 24 bits."""

    def __init__(self, positions: list[int], sources: np.ndarray, parity: np.ndarray):
        self.positions = np.array(positions)
        index = {s: k for k, s in enumerate(positions)}
        # new[j] = old[src[j]]: the piece at src[j] goes to j
        each = [(tuple(index[int(src[j])] for j in positions), int(flip)) for src, flip in zip(sources, parity)]
        effects = sorted(set(each))
        rank = {e: k for k, e in enumerate(effects)}
        self.effect_of = np.array([rank[e] for e in each])  # of each turn, in order
        self.flips = np.array([flip for _, flip in effects], dtype=np.int64) << 24
        # lookup[m][b][v]: bits of byte b with value v moved by effect m.
        bits = (np.arange(256)[:, None] >> np.arange(8)) & 1  # (value, bit)
        self.lookups = np.zeros((len(effects), 3, 256), dtype=np.int64)
        for m, (effect, _) in enumerate(effects):
            target = np.argsort(effect)  # where the piece at each place goes
            for b in range(3):
                self.lookups[m, b] = (bits << target[8 * b:8 * b + 8]).sum(axis=1)

    def digest(self, with_parity: bool) -> str:
        """What a table built from these moves depends on: the set of effects (with their parity
        flips when they count). Orbits alike under the turns share one table: the 4x4x4's centres
        and the 5x5x5's x-centres (the same 16 MB U/D table), a 6x6x6's two x-centre orbits."""
        effects = np.concatenate([self.lookups.reshape(len(self.lookups), -1), self.flips[:, None]], axis=1)
        if not with_parity:
            effects = effects[:, :-1]
        return hashlib.sha256(np.unique(effects, axis=0).tobytes()).hexdigest()[:20]

    def apply(self, keys: np.ndarray, m: int) -> np.ndarray:
        t = self.lookups[m]
        moved = t[0][keys & 255] | t[1][(keys >> 8) & 255] | t[2][(keys >> 16) & 255]
        return moved | ((keys >> 24 << 24) ^ self.flips[m])

    def mask(self, states: np.ndarray, colours) -> np.ndarray:
        """(K,) masks of the orbit places holding one of `colours` in each of K sticker states."""
        hit = np.isin(states[:, self.positions], list(colours))
        return (hit.astype(np.int64) << np.arange(len(self.positions))).sum(1)


def build(moves: OrbitMoves, goal: int, parity_bits: int = 0) -> Table:
    """Distances to `goal` (a mask with even wing orbits); with parity_bits, keys carry the wing
    parity above bit 24 and the goal needs it even, else it is ignored."""
    if not parity_bits:
        moves = _without_parity(moves)
    seen = np.full(1 << (24 + parity_bits), -1, dtype=np.int8)
    seen[goal] = 0
    frontier = np.array([goal], dtype=np.int64)
    depth = 0
    while len(frontier):
        depth += 1
        for m in range(len(moves.lookups)):
            deadline.check()  # built on a size's first solve: seconds, under the solve's budget
            reached = moves.apply(frontier, m)
            seen[reached[seen[reached] < 0]] = depth
        deadline.check()
        # the keys first reached now, each once and in order (a scan: sorting them took up to 0.5 s
        # without a look at the budget)
        frontier = np.flatnonzero(seen == depth)
    keys = np.nonzero(seen >= 0)[0]
    return Table(keys, seen[keys].copy())


@dataclass(frozen=True)
class JointTable:
    """Exact distances of several orbits' masks together: `orbits` list each orbit's reachable
    masks (a Table's keys), `dist` (-1: unreachable) runs over the product of their ranks, the
    first orbit's rank the most significant."""
    orbits: list[Table]
    dist: np.ndarray

    def lookup(self, masks: list[np.ndarray]) -> np.ndarray:
        index = 0
        for table, mask in zip(self.orbits, masks):
            index = index * len(table.keys) + np.searchsorted(table.keys, mask)
        return self.dist[index]


def build_joint(moves: list[OrbitMoves], orbits: list[Table], goals: list[int]) -> np.ndarray:
    """JointTable.dist by breadth-first search over the ranks of the orbits' masks (`moves`: each
    orbit's turns, the same turns in the same order; `goals`: each orbit's goal mask), as one
    int8 array of their product: 24 million states (two orbits of 4,900 masks) in about a second."""
    # each orbit's move table: the rank the mask of each rank reaches by each turn
    steps = [np.stack([np.searchsorted(t.keys, m.apply(t.keys, e)) for e in m.effect_of], axis=1)
             for m, t in zip(moves, orbits)]
    return product_distances(steps, [tuple(int(np.searchsorted(t.keys, g)) for t, g in zip(orbits, goals))])


def product_distances(moves: list[np.ndarray], goals: list[tuple[int, ...]]) -> np.ndarray:
    """Exact distances (int8, -1 unreached) over the product of coordinates, the first the most
    significant, from `goals` (tuples of values): `moves` gives each coordinate's move table
    (values, turns), the same turns in the same order."""
    sizes = np.array([len(m) for m in moves], dtype=np.int64)
    steps = np.zeros((len(moves), moves[0].shape[1], sizes.max()), dtype=np.int32)  # padded to the largest
    for k, m in enumerate(moves):
        steps[k, :, :sizes[k]] = m.T
    dist = np.full(int(np.prod(sizes)), -1, dtype=np.int8)
    dist[np.ravel_multi_index(np.array(goals).T, sizes)] = 0
    depth = 0
    while _joint_layer(dist, steps, sizes, depth):
        depth += 1
        deadline.check()  # built on a size's first solve, under the solve's budget
    return dist


@njit(cache=True, nogil=True)
def _joint_layer(dist, steps, sizes, depth):
    """Mark depth + 1 on every unseen state one turn from a state at `depth`; how many were.
    Row by row (a row: one rank of every orbit but the last), so that a turn's writes land in one
    row of a few thousand bytes, not all over the table (the numpy version, a gather per turn
    over the whole frontier, took about 10 s for 24 million states quiet)."""
    found = 0
    width = sizes[-1]
    last = len(sizes) - 1
    digits = np.empty(last, dtype=np.int64)
    columns = np.empty(width, dtype=np.int64)
    for row in range(len(dist) // width):
        count = 0
        for c in range(width):
            if dist[row * width + c] == depth:
                columns[count] = c
                count += 1
        if count == 0:
            continue
        rest = row
        for k in range(last - 1, -1, -1):  # the first orbit's rank the most significant
            digits[k] = rest % sizes[k]
            rest //= sizes[k]
        for turn in range(steps.shape[1]):
            target = 0
            for k in range(last):
                target = target * sizes[k] + steps[k, turn, digits[k]]
            base = target * width
            for j in range(count):
                child = base + steps[last, turn, columns[j]]
                if dist[child] < 0:
                    dist[child] = depth + 1
                    found += 1
    return found


def _without_parity(moves: OrbitMoves) -> OrbitMoves:
    plain = object.__new__(OrbitMoves)
    plain.positions, plain.lookups, plain.effect_of = moves.positions, moves.lookups, moves.effect_of
    plain.flips = np.zeros_like(moves.flips)
    return plain
