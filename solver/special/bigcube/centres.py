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

from dataclasses import dataclass

import numpy as np

from solver import deadline


@dataclass(frozen=True)
class Table:
    keys: np.ndarray   # sorted masks
    dist: np.ndarray   # distance of each mask

    def lookup(self, masks: np.ndarray) -> np.ndarray:
        return self.dist[np.searchsorted(self.keys, masks)]


class OrbitMoves:
    """The effect of each catalog turn on one centre orbit, as byte lookups on masks, and on the
    wing parity bits kept above the mask's 24 bits."""

    def __init__(self, positions: list[int], sources: np.ndarray, parity: np.ndarray):
        self.positions = np.array(positions)
        index = {s: k for k, s in enumerate(positions)}
        effects = set()
        for src, flip in zip(sources, parity):  # new[j] = old[src[j]]: the piece at src[j] goes to j
            effects.add((tuple(index[int(src[j])] for j in positions), int(flip)))
        self.flips = np.array([flip for _, flip in sorted(effects)], dtype=np.int64) << 24
        # lookup[m][b][v]: bits of byte b with value v moved by effect m.
        self.lookups = np.zeros((len(effects), 3, 256), dtype=np.int64)
        for m, (effect, _) in enumerate(sorted(effects)):
            target = {src_k: dst_k for dst_k, src_k in enumerate(effect)}
            for b in range(3):
                for v in range(256):
                    out = 0
                    for bit in range(8):
                        if v >> bit & 1:
                            out |= 1 << target[8 * b + bit]
                    self.lookups[m, b, v] = out

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


def _without_parity(moves: OrbitMoves) -> OrbitMoves:
    plain = object.__new__(OrbitMoves)
    plain.positions, plain.lookups = moves.positions, moves.lookups
    plain.flips = np.zeros_like(moves.flips)
    return plain
