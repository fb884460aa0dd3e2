"""3-cycles of one orbit of the NxNxN cube, found by search, and every 3-cycle reachable from them
by a short set-up.

An orbit is a set of sticker positions the layer turns permute among themselves. A centre piece is one
sticker; a wing (an edge piece off the middle) never flips in place, so one sticker of each wing, all
in one orbit, stands for it. A commutator [X Y X', Z] = X Y X' Z X Y' X' Z' of single layer turns
whose supports meet in one piece moves exactly three pieces; conjugating it by a set-up S (S C S')
cycles the three positions S sends onto its own. So the library of an orbit maps (from, to, third) to
the shortest set-up and commutator that moves the piece at `from` to `to`, `to` to `third` and
`third` to `from`, leaving every other sticker in place, or (for orbits without such a pure
commutator, the T-centres of odd cubes) moving besides only stickers of orbits solved later.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from solver import perm
from solver.special.bigcube.model import BigCube, Layer


def inverse_layers(seq: list[Layer]) -> list[Layer]:
    return [Layer(m.face, m.depth, 4 - m.turns) for m in reversed(seq)]


def sticker_orbits(cube: BigCube) -> list[list[int]]:
    """The orbits of sticker positions under the layer turns, each sorted, in order of first sticker."""
    quarter_turns = (cube.layer_perm(layer) for layer in cube.layers() if layer.turns == 1)
    groups: dict[int, list[int]] = {}
    for i, r in enumerate(perm.orbit_roots(cube.size, quarter_turns)):
        groups.setdefault(r, []).append(i)
    return sorted(groups.values())


@dataclass
class Library:
    positions: list[int]  # the orbit's stickers (one per piece)
    # (from, to) -> {third: (catalog turns, set-up, commutator)}
    cycles: dict[tuple[int, int], dict[int, tuple[int, tuple, tuple]]] = field(default_factory=dict)

    def sequence(self, entry) -> list[Layer]:
        _, setup, commutator = entry
        return list(setup) + list(commutator) + inverse_layers(list(setup))


@lru_cache(maxsize=1024)  # bounds the memory: a 33x33x33 has 288 layer turns of 52 KB
def layer_array(cube: BigCube, layer: Layer) -> np.ndarray:
    """A layer turn's permutation as an array (kept: converting a 33x33x33's takes half a millisecond),
    a half or three-quarter turn from the quarter turn's."""
    if layer.turns == 1:
        return np.asarray(cube.layer_perm(layer))
    quarter = layer_array(cube, Layer(layer.face, layer.depth, 1))
    return quarter[layer_array(cube, Layer(layer.face, layer.depth, layer.turns - 1))]


def inverse_array(p: np.ndarray) -> np.ndarray:
    """The inverse of a permutation array (a scatter: argsort sorts)."""
    inverse = np.empty_like(p)
    inverse[p] = np.arange(len(p))
    return inverse


def _array(cube: BigCube, seq) -> np.ndarray:
    """The permutation of a sequence of layer turns as an array (first turn first)."""
    p = np.arange(cube.size)
    for m in seq:
        p = layer_array(cube, m)[p]
    return p


@dataclass
class PieceOrbit:
    kind: str              # "wing" or "centre"
    positions: list[int]   # one sticker per piece position
    partner: dict[int, int]  # wing: the other sticker of the piece at each position


def piece_orbits(cube: BigCube) -> list[PieceOrbit]:
    """The orbits the 3-cycles solve: centres (orbits of one-sticker pieces with more than one
    position) and wings (edge pieces off the middle; one of the two sticker orbits of each)."""
    result = []
    taken = set()
    for orbit in sticker_orbits(cube):
        sizes = {len(cube.pieces[cube.cubie_of(s)]) for s in orbit}
        if sizes == {1} and len(orbit) > 1:
            result.append(PieceOrbit("centre", orbit, {}))
        elif sizes == {2} and orbit[0] not in taken:
            partner = {}
            for s in orbit:
                (other,) = [t for t in cube.pieces[cube.cubie_of(s)] if t != s]
                partner[s] = other
                taken.add(other)
            middle = any(cube.points[s].count(0) for s in orbit)
            if not middle:
                result.append(PieceOrbit("wing", orbit, partner))
    return result


def moving_layers(cube: BigCube, orbit: PieceOrbit) -> list[Layer]:
    """The layer turns that move some piece of the orbit."""
    return [m for m in cube.layers() if (layer_array(cube, m)[orbit.positions] != orbit.positions).any()]


def find_commutators(cube: BigCube, orbit: PieceOrbit, may_move: set[int], limit: int = 8,
                     layers: list[Layer] | None = None) -> list[tuple[Layer, ...]]:
    """Up to `limit` commutators [X Y X', Z] of layer turns (by default all) that 3-cycle pieces of the
    orbit and move no other sticker outside `may_move` (stickers of orbits solved later), each a
    different permutation."""
    layers = layers or cube.layers()
    arrays = {m: layer_array(cube, m) for m in layers}
    inverses = {m: np.argsort(a) for m, a in arrays.items()}
    identity = np.arange(cube.size)
    own = np.array(orbit.positions)
    allowed = np.zeros(cube.size, dtype=bool)
    allowed[list(may_move | set(orbit.positions) | set(orbit.partner.values()))] = True
    found, seen = [], set()
    for x, y in itertools.product(layers, repeat=2):
        if x.face == y.face or x.turns == 2:
            continue
        x_inv = Layer(x.face, x.depth, 4 - x.turns)
        a = arrays[x_inv][arrays[y][arrays[x]]]
        a_inv = np.argsort(a)
        for z in layers:
            c = inverses[z][a_inv[arrays[z][a]]]
            moved = c != identity
            if np.count_nonzero(moved[own]) != 3 or not allowed[moved].all():
                continue
            key = c.tobytes()
            if key not in seen:
                seen.add(key)
                found.append((x, y, x_inv, z, x, Layer(y.face, y.depth, 4 - y.turns), x_inv,
                              Layer(z.face, z.depth, 4 - z.turns)))
                if len(found) == limit:
                    return found
    return found


def setups(cube: BigCube, max_length: int = 2, layers: list[Layer] | None = None
           ) -> list[tuple[tuple[Layer, ...], np.ndarray]]:
    """Set-up sequences of at most max_length layer turns (by default all; no layer twice in a row),
    each with the inverse of its permutation."""
    result = []
    for length in range(max_length + 1):
        for setup in itertools.product(layers or cube.layers(), repeat=length):
            if any(m.face == n.face and m.depth == n.depth for m, n in zip(setup, setup[1:])):
                continue
            result.append((setup, inverse_array(_array(cube, setup))))
    return result


def build_library(cube: BigCube, orbit: PieceOrbit, commutators: list[tuple[Layer, ...]],
                  setup_list: list[tuple[tuple[Layer, ...], np.ndarray]]) -> Library:
    """Every 3-cycle of the orbit reachable as S C S' with a commutator C and a set-up S, the
    shortest for each (from, to, third)."""
    library = Library(orbit.positions)
    bases = []
    for seq in commutators:
        p = _array(cube, seq)
        a = next(s for s in orbit.positions if p[s] != s)
        bases.append((a, int(p[a]), int(p[p[a]]), seq))
    for setup, inverse in setup_list:
        for a, b, c, seq in bases:
            # S C S' moves the pieces that S brings to a, b, c: those at S'(a), S'(b), S'(c) (in the
            # same orbit, which every turn maps onto itself).
            pa, pb, pc = int(inverse[a]), int(inverse[b]), int(inverse[c])
            cost = 2 * sum(m.cost for m in setup) + sum(m.cost for m in seq)
            for frm, to, third in ((pa, pb, pc), (pb, pc, pa), (pc, pa, pb)):
                slot = library.cycles.setdefault((frm, to), {})
                if third not in slot or slot[third][0] > cost:
                    slot[third] = (cost, setup, seq)
    return library
