"""Coordinates: the parts of a cubie state the two-phase search tracks, each numbered 0..N-1, with a
`get_` and a `set_` (any cube with that coordinate) for each. All are 0 on the solved cube except
u_edges and d_edges (numbered, like slice_sorted, by the places of their four edges).

- twist (2187): corner orientations (8 pieces, base 3); flip (2048): edge orientations (12, base 2);
  both read and set by get_orientation and set_orientation.
- slice_sorted (11880): where the middle-layer edges BL BR FR FL are and in which order;
  slice_sorted // 24 is the slice coordinate (495 sets of places), and in phase 2, where they are
  all in the middle layer, slice_sorted < 24 is their order.
- u_edges, d_edges (11880 each): the same for the U-layer and the D-layer edges.
- corners (40320): corner permutation; ud_edges (40320): permutation of the 8 U/D-layer edges,
  meaningful in phase 2 where they stay in the U and D layers.
"""

from __future__ import annotations

import numpy as np
from solver.compiled import njit

from solver.special.lehmer import rank_permutation, unrank_permutation

N_TWIST = 2187
N_FLIP = 2048
N_SLICE = 495
N_PERM4 = 24
N_SELECTION = N_SLICE * N_PERM4
N_CORNERS = 40320
N_UD_EDGES = 40320
SLICE_EDGE, U_EDGE, D_EDGE = 0, 4, 8  # first edge number of each group of four

_BINOMIAL = np.array([[0 if k > n else
                       int(np.prod(np.arange(n - k + 1, n + 1)) // np.prod(np.arange(1, k + 1)))
                       for k in range(5)] for n in range(13)], dtype=np.int64)


@njit(cache=True, nogil=True)
def get_orientation(o, n, base):
    """The orientations of pieces 0..n-2 as base-`base` digits; the last piece's follows from the
    zero sum, so it carries no information."""
    v = 0
    for i in range(n - 1):
        v = base * v + o[i]
    return v


@njit(cache=True, nogil=True)
def set_orientation(o, v, n, base):
    total = 0
    for i in range(n - 2, -1, -1):
        o[i] = v % base
        total += o[i]
        v //= base
    o[n - 1] = (base - total % base) % base


@njit(cache=True, nogil=True)
def get_selection(ep, first):
    """Places and order of edges first..first+3: (combination rank of the places) * 24 + order."""
    comb = 0
    k = 0
    order = np.empty(4, dtype=np.int64)
    for p in range(12):
        e = ep[p] - first
        if 0 <= e < 4:
            k += 1
            comb += _BINOMIAL[p, k]
            order[k - 1] = e
    return comb * N_PERM4 + rank_permutation(order, 4)


@njit(cache=True, nogil=True)
def selection_places(v, places):
    """places[0..4) = the increasing places encoded by a selection coordinate; returns its order rank."""
    rem = v // N_PERM4
    for k in range(4, 0, -1):
        p = k - 1
        while _BINOMIAL[p + 1, k] <= rem:
            p += 1
        rem -= _BINOMIAL[p, k]
        places[k - 1] = p
    return v % N_PERM4


@njit(cache=True, nogil=True)
def set_selection(ep, first, v):
    """Put edges first..first+3 where the coordinate says and the other edges in the other places."""
    places = np.empty(4, dtype=np.int64)
    order = np.empty(4, dtype=np.int64)
    unrank_permutation(selection_places(v, places), 4, order)
    for p in range(12):
        ep[p] = -1
    for k in range(4):
        ep[places[k]] = first + order[k]
    other = 0
    for p in range(12):
        if ep[p] < 0:
            while first <= other < first + 4:
                other += 1
            ep[p] = other
            other += 1


@njit(cache=True, nogil=True)
def get_corners(cp):
    return rank_permutation(cp, 8)


@njit(cache=True, nogil=True)
def set_corners(cp, v):
    unrank_permutation(v, 8, cp)


@njit(cache=True, nogil=True)
def get_ud_edges(ep):
    return rank_permutation(ep[4:], 8)


@njit(cache=True, nogil=True)
def set_ud_edges(ep, v):
    for i in range(4):
        ep[i] = i
    unrank_permutation(v, 8, ep[4:])
    for i in range(4, 12):
        ep[i] += 4


@njit(cache=True, nogil=True)
def ud_edges_from_layers(u_edges, d_edges):
    """The ud_edges coordinate of a phase-2 cube from its u_edges and d_edges coordinates."""
    ep = np.empty(12, dtype=np.int64)
    places = np.empty(4, dtype=np.int64)
    order = np.empty(4, dtype=np.int64)
    for first, v in ((U_EDGE, u_edges), (D_EDGE, d_edges)):
        unrank_permutation(selection_places(v, places), 4, order)
        for k in range(4):
            ep[places[k]] = first + order[k]
    return rank_permutation(ep[4:], 8)


# Coordinate kinds, so that move tables and symmetry tables are built by one loop for all of them.
TWIST, FLIP, SLICE_SORTED, U_EDGES, D_EDGES, CORNERS, UD_EDGES, FLIPSLICE = range(8)
SIZE = {TWIST: N_TWIST, FLIP: N_FLIP, SLICE_SORTED: N_SELECTION, U_EDGES: N_SELECTION,
        D_EDGES: N_SELECTION, CORNERS: N_CORNERS, UD_EDGES: N_UD_EDGES, FLIPSLICE: N_SLICE * N_FLIP}


@njit(cache=True, nogil=True)
def get_coordinate(kind, cp, co, ep, eo):
    if kind == TWIST:
        return get_orientation(co, 8, 3)
    if kind == FLIP:
        return get_orientation(eo, 12, 2)
    if kind == SLICE_SORTED:
        return get_selection(ep, SLICE_EDGE)
    if kind == U_EDGES:
        return get_selection(ep, U_EDGE)
    if kind == D_EDGES:
        return get_selection(ep, D_EDGE)
    if kind == CORNERS:
        return get_corners(cp)
    if kind == UD_EDGES:
        return get_ud_edges(ep)
    # FLIPSLICE: the slice coordinate (places of the middle-layer edges) with the flip.
    return get_selection(ep, SLICE_EDGE) // N_PERM4 * N_FLIP + get_orientation(eo, 12, 2)


@njit(cache=True, nogil=True)
def set_coordinate(kind, v, cp, co, ep, eo):
    """Make the arrays a cube (solved in everything else) with that coordinate."""
    for i in range(8):
        cp[i] = i
        co[i] = 0
    for i in range(12):
        ep[i] = i
        eo[i] = 0
    if kind == TWIST:
        set_orientation(co, v, 8, 3)
    elif kind == FLIP:
        set_orientation(eo, v, 12, 2)
    elif kind == SLICE_SORTED:
        set_selection(ep, SLICE_EDGE, v)
    elif kind == U_EDGES:
        set_selection(ep, U_EDGE, v)
    elif kind == D_EDGES:
        set_selection(ep, D_EDGE, v)
    elif kind == CORNERS:
        set_corners(cp, v)
    elif kind == UD_EDGES:
        set_ud_edges(ep, v)
    else:
        set_selection(ep, SLICE_EDGE, v // N_FLIP * N_PERM4)
        set_orientation(eo, v % N_FLIP, 12, 2)
