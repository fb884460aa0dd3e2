"""The 3x3x3 at the cubie level: corner permutation and orientation (cp, co), edge permutation and
orientation (ep, eo), centres fixed.

Position numbering (the seed articles' convention): corners 0 ULB, 1 UBR, 2 URF, 3 UFL, 4-7 the D
layer below them (DLB, DBR, DRF, DFL); edges 0-3 the middle layer BL, BR, FR, FL, 4-7 the U layer UB,
UR, UF, UL, 8-11 the D layer DB, DR, DF, DL. `cp[i]` is the corner that sits at position i, `co[i]`
its twist there (0-2), and the same for edges (flip 0-1). Applying b after a:
`cp[i] = a.cp[b.cp[i]]`, `co[i] = a.co[b.cp[i]] + b.co[i] (mod 3)`, likewise for edges (mod 2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from solver.compiled import njit

from solver import perm
from solver.errors import UnreachableError

CORNER_NAMES = ("ULB", "UBR", "URF", "UFL", "DLB", "DBR", "DRF", "DFL")
EDGE_NAMES = ("BL", "BR", "FR", "FL", "UB", "UR", "UF", "UL", "DB", "DR", "DF", "DL")
N_CORNERS = 8
N_EDGES = 12


@njit(cache=True, nogil=True)
def empty_cubie():
    """Uninitialised (cp, co, ep, eo) arrays: scratch space for the table builders' inner loops."""
    return (np.empty(N_CORNERS, np.int64), np.empty(N_CORNERS, np.int64),
            np.empty(N_EDGES, np.int64), np.empty(N_EDGES, np.int64))


@njit(cache=True, nogil=True)
def multiply_into(cp, co, ep, eo, mcp, mco, mep, meo, out_cp, out_co, out_ep, out_eo):
    """out = (cp, co, ep, eo) followed by (mcp, mco, mep, meo); the arrays may not overlap out."""
    for i in range(8):
        out_cp[i] = cp[mcp[i]]
        out_co[i] = (co[mcp[i]] + mco[i]) % 3
    for i in range(12):
        out_ep[i] = ep[mep[i]]
        out_eo[i] = (eo[mep[i]] + meo[i]) % 2


@dataclass(frozen=True)
class CubieCube:
    cp: tuple[int, ...]
    co: tuple[int, ...]
    ep: tuple[int, ...]
    eo: tuple[int, ...]

    @classmethod
    def solved(cls) -> "CubieCube":
        return cls(tuple(range(8)), (0,) * 8, tuple(range(12)), (0,) * 12)

    @classmethod
    def from_arrays(cls, cp, co, ep, eo) -> "CubieCube":
        return cls(*(tuple(int(v) for v in a) for a in (cp, co, ep, eo)))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(np.array(a, dtype=np.int64) for a in (self.cp, self.co, self.ep, self.eo))

    def __mul__(self, other: "CubieCube") -> "CubieCube":
        """self followed by other."""
        out = empty_cubie()
        multiply_into(*self.arrays(), *other.arrays(), *out)
        return CubieCube.from_arrays(*out)

    def inverse(self) -> "CubieCube":
        cp = [0] * 8
        co = [0] * 8
        ep = [0] * 12
        eo = [0] * 12
        for i, c in enumerate(self.cp):
            cp[c] = i
            co[c] = (-self.co[i]) % 3
        for i, e in enumerate(self.ep):
            ep[e] = i
            eo[e] = self.eo[i]
        return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))

    def is_solved(self) -> bool:
        return self == CubieCube.solved()

    def check(self) -> None:
        """Raise UnreachableError unless this is a state the face turns reach from solved."""
        for name, pieces, size in (("corner", self.cp, 8), ("edge", self.ep, 12)):
            if sorted(pieces) != list(range(size)):
                raise UnreachableError(f"cube: the {name} permutation {list(pieces)} is not a permutation")
        if any(o not in (0, 1, 2) for o in self.co) or sum(self.co) % 3:
            raise UnreachableError("cube: the corner twists do not add up (one corner is twisted)")
        if any(o not in (0, 1) for o in self.eo) or sum(self.eo) % 2:
            raise UnreachableError("cube: the edge flips do not add up (one edge is flipped)")
        if perm.parity(self.cp) != perm.parity(self.ep):
            raise UnreachableError("cube: corner and edge permutation parities differ (two pieces swapped)")


def random_cube(rng: random.Random) -> CubieCube:
    """A uniformly random reachable cube: random permutations of equal parity, random twists and flips
    with a zero sum."""
    cp = list(range(8))
    ep = list(range(12))
    rng.shuffle(cp)
    rng.shuffle(ep)
    if perm.parity(cp) != perm.parity(ep):
        ep[0], ep[1] = ep[1], ep[0]
    co = [rng.randrange(3) for _ in range(7)]
    co.append(-sum(co) % 3)
    eo = [rng.randrange(2) for _ in range(11)]
    eo.append(sum(eo) % 2)
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))
