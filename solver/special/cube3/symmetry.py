"""Whole-cube symmetries at the cubie level, and the reduction of a coordinate to classes under the 16
symmetries that keep the U-D axis (pruning tables store one entry per class).

A symmetry s (a rotation or reflection of space, as a sticker permutation from geometry) acts on a
cube X by conjugation, s^-1 X s: the same cube seen through s. At the cubie level s moves position i
to position map[i] and its sticker k to sticker (t[i] + sign * k) of that position (sign -1 for a
reflection, which reverses the clockwise order); for edges sticker k goes to sticker (k xor r[i]).
A piece j at position i with twist o then becomes piece map[j] at map[i] with twist
t[i] - t[j] + sign * o, and an edge's flip becomes o xor r[i] xor r[j].
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from solver.compiled import njit

from solver import perm
from solver.special.cube3 import coord, facelet, geometry
from solver.special.cube3.cubie import empty_cubie


class CubieSymmetry(NamedTuple):
    corner_map: np.ndarray
    corner_twist: np.ndarray
    sign: int
    edge_map: np.ndarray
    edge_flip: np.ndarray


def cubie_symmetry(sticker_perm: perm.Perm) -> CubieSymmetry:
    """How a whole-cube symmetry moves positions and their stickers."""
    def place(stickers_of_places, sticker):
        for i, stickers in enumerate(stickers_of_places):
            if sticker in stickers:
                return i, stickers.index(sticker)
        raise ValueError(sticker)

    corner_map, corner_twist, signs = [], [], set()
    for stickers in facelet.CORNER_STICKERS:
        target, t = place(facelet.CORNER_STICKERS, sticker_perm[stickers[0]])
        _, t1 = place(facelet.CORNER_STICKERS, sticker_perm[stickers[1]])
        corner_map.append(target)
        corner_twist.append(t)
        signs.add(1 if (t1 - t) % 3 == 1 else -1)
    edge_map, edge_flip = [], []
    for stickers in facelet.EDGE_STICKERS:
        target, r = place(facelet.EDGE_STICKERS, sticker_perm[stickers[0]])
        edge_map.append(target)
        edge_flip.append(r)
    (sign,) = signs
    return CubieSymmetry(np.array(corner_map), np.array(corner_twist), sign, np.array(edge_map), np.array(edge_flip))


@njit(cache=True, nogil=True)
def conjugate_into(cp, co, ep, eo, cmap, ctwist, sign, emap, eflip, out_cp, out_co, out_ep, out_eo):
    """out = the cube (cp, co, ep, eo) seen through the symmetry."""
    for i in range(8):
        j = cp[i]
        out_cp[cmap[i]] = cmap[j]
        out_co[cmap[i]] = (ctwist[i] - ctwist[j] + sign * co[i]) % 3
    for i in range(12):
        j = ep[i]
        out_ep[emap[i]] = emap[j]
        out_eo[emap[i]] = eo[i] ^ eflip[i] ^ eflip[j]


UD_STICKER_PERMS = tuple(p for p, _ in geometry.ud_symmetries())
N_SYM = len(UD_STICKER_PERMS)
_UD = [cubie_symmetry(p) for p in UD_STICKER_PERMS]
SYM_CORNER_MAP = np.array([s.corner_map for s in _UD])
SYM_CORNER_TWIST = np.array([s.corner_twist for s in _UD])
SYM_SIGN = np.array([s.sign for s in _UD])
SYM_EDGE_MAP = np.array([s.edge_map for s in _UD])
SYM_EDGE_FLIP = np.array([s.edge_flip for s in _UD])
SYM_INVERSE = np.array([UD_STICKER_PERMS.index(perm.inverse(p)) for p in UD_STICKER_PERMS])


@njit(cache=True, nogil=True)
def _fill_conjugation(kind, cmap, ctwist, sign, emap, eflip, out):
    cp, co, ep, eo = empty_cubie()
    cp2, co2, ep2, eo2 = empty_cubie()
    for v in range(out.shape[0]):
        coord.set_coordinate(kind, v, cp, co, ep, eo)
        for s in range(out.shape[1]):
            conjugate_into(cp, co, ep, eo, cmap[s], ctwist[s], sign[s], emap[s], eflip[s], cp2, co2, ep2, eo2)
            out[v, s] = coord.get_coordinate(kind, cp2, co2, ep2, eo2)


def conjugation_table(kind: int) -> np.ndarray:
    """table[v, s] = coordinate `kind` of a cube with coordinate v seen through symmetry s. Defined
    for coordinates whose image depends on the coordinate alone: twist, flipslice, corners, and
    ud_edges in phase 2."""
    dtype = np.uint32 if coord.SIZE[kind] > 65535 else np.uint16
    out = np.empty((coord.SIZE[kind], N_SYM), dtype=dtype)
    _fill_conjugation(kind, SYM_CORNER_MAP, SYM_CORNER_TWIST, SYM_SIGN, SYM_EDGE_MAP, SYM_EDGE_FLIP, out)
    return out


@njit(cache=True, nogil=True)
def _fill_classes(conj, inverse, klass, sym, rep, stabiliser):
    n_classes = 0
    klass[:] = -1
    for v in range(conj.shape[0]):
        if klass[v] >= 0:
            continue
        rep[n_classes] = v
        mask = 0
        for s in range(conj.shape[1]):
            w = conj[v, s]
            if w == v:
                mask |= 1 << s
            if klass[w] < 0:
                klass[w] = n_classes
                sym[w] = inverse[s]
        stabiliser[n_classes] = mask
        n_classes += 1
    return n_classes


class SymmetryClasses(NamedTuple):
    """klass[v]: the class of coordinate v; sym[v]: a symmetry that takes v to its class's
    representative; rep[c]: the representative; stabiliser[c]: bit mask of the symmetries that fix it."""
    klass: np.ndarray
    sym: np.ndarray
    rep: np.ndarray
    stabiliser: np.ndarray


def symmetry_classes(conj: np.ndarray) -> SymmetryClasses:
    n = conj.shape[0]
    klass = np.empty(n, dtype=np.int32)
    sym = np.empty(n, dtype=np.uint8)
    rep = np.empty(n, dtype=np.int32)
    stabiliser = np.empty(n, dtype=np.uint16)
    count = _fill_classes(conj, SYM_INVERSE, klass, sym, rep, stabiliser)
    return SymmetryClasses(klass, sym, rep[:count].copy(), stabiliser[:count].copy())
