"""All tables of the two-phase search: built once, kept in the cache folder through
solver.special.store (one checksummed file per table, memory-mapped read-only).

Bump VERSION whenever a table's meaning or layout changes, so that old files are never read as new.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from solver import deadline
from solver.search.budget import Budget
from solver.special import store
from solver.special.cube3 import coord, moves, pruning, symmetry
from solver.special.cube3.movetable import move_table

VERSION = 1
KIND = "cube3"


class Tables(NamedTuple):
    twist_move: np.ndarray        # [twist, move]
    flip_move: np.ndarray         # [flip, move]
    slice_sorted_move: np.ndarray  # [slice_sorted, move]
    u_edges_move: np.ndarray      # [u_edges, move]
    d_edges_move: np.ndarray      # [d_edges, move]
    corners_move: np.ndarray      # [corners, move]
    ud_edges_move: np.ndarray     # [ud_edges, phase-2 move index]
    twist_conj: np.ndarray        # [twist, symmetry]
    ud_edges_conj: np.ndarray     # [ud_edges, symmetry]
    flipslice_class: np.ndarray   # [slice * 2048 + flip]
    flipslice_sym: np.ndarray
    corner_class: np.ndarray      # [corners]
    corner_sym: np.ndarray
    phase1_depth: np.ndarray      # [flipslice class * 2187 + twist seen through flipslice_sym]
    phase2_depth: np.ndarray      # [corner class * 40320 + ud_edges seen through corner_sym]
    cornslice_depth: np.ndarray   # [corners * 24 + slice_sorted], phase 2


def build(stop: np.ndarray | None = None) -> Tables | None:
    """Compute every table from the cubie model (tens of seconds); None when stop[0] was raised
    first (read between the steps and by the two long table searches)."""
    stop = np.zeros(1, np.int64) if stop is None else stop
    p2 = list(moves.PHASE2_MOVES)
    twist_move = move_table(coord.TWIST)
    flip_move = move_table(coord.FLIP)
    slice_sorted_move = move_table(coord.SLICE_SORTED)
    corners_move = move_table(coord.CORNERS)
    ud_edges_move = move_table(coord.UD_EDGES, p2)
    twist_conj = symmetry.conjugation_table(coord.TWIST)
    ud_edges_conj = symmetry.conjugation_table(coord.UD_EDGES)
    flipslice = symmetry.symmetry_classes(symmetry.conjugation_table(coord.FLIPSLICE))
    corners = symmetry.symmetry_classes(symmetry.conjugation_table(coord.CORNERS))
    if stop[0]:
        return None

    rep_slice = flipslice.rep // coord.N_FLIP
    rep_flip = flipslice.rep % coord.N_FLIP
    flipslice_rep_move = (slice_sorted_move[rep_slice * coord.N_PERM4].astype(np.int64) // coord.N_PERM4
                          * coord.N_FLIP + flip_move[rep_flip])
    phase1_depth = np.empty(len(flipslice.rep) * coord.N_TWIST, dtype=np.uint8)
    pruning.fill_symmetric(phase1_depth, coord.N_TWIST, flipslice_rep_move, flipslice.klass, flipslice.sym,
                           flipslice.stabiliser, np.ascontiguousarray(twist_move.T),
                           np.ascontiguousarray(twist_conj.T), flipslice.klass[0], stop)

    phase2_depth = np.empty(len(corners.rep) * coord.N_UD_EDGES, dtype=np.uint8)
    pruning.fill_symmetric(phase2_depth, coord.N_UD_EDGES, corners_move[corners.rep][:, p2].astype(np.int64),
                           corners.klass, corners.sym, corners.stabiliser,
                           np.ascontiguousarray(ud_edges_move.T), np.ascontiguousarray(ud_edges_conj.T),
                           corners.klass[0], stop)

    cornslice_depth = np.empty(coord.N_CORNERS * coord.N_PERM4, dtype=np.uint8)
    pruning.fill_product(cornslice_depth, corners_move[:, p2], slice_sorted_move[:coord.N_PERM4, p2], stop)
    if stop[0]:
        return None

    return Tables(
        twist_move=twist_move, flip_move=flip_move, slice_sorted_move=slice_sorted_move,
        u_edges_move=move_table(coord.U_EDGES), d_edges_move=move_table(coord.D_EDGES),
        corners_move=corners_move, ud_edges_move=ud_edges_move, twist_conj=twist_conj,
        ud_edges_conj=ud_edges_conj, flipslice_class=flipslice.klass, flipslice_sym=flipslice.sym,
        corner_class=corners.klass, corner_sym=corners.sym, phase1_depth=phase1_depth,
        phase2_depth=phase2_depth, cornslice_depth=cornslice_depth)


def _params(name: str) -> dict:
    return {"table": name, "version": VERSION}


# The second dimension of the tables stored flat that have two.
_COLUMNS = {"twist_move": 18, "flip_move": 18, "slice_sorted_move": 18, "u_edges_move": 18, "d_edges_move": 18,
            "corners_move": 18, "ud_edges_move": len(moves.PHASE2_MOVES), "twist_conj": symmetry.N_SYM,
            "ud_edges_conj": symmetry.N_SYM}


def load() -> Tables | None:
    """The stored tables, memory-mapped, or None when any is missing, old or damaged."""
    arrays = {}
    for name in Tables._fields:
        data = store.load(KIND, name, _params(name))
        if data is None:
            return None
        data = np.asarray(data)
        arrays[name] = data.reshape(-1, _COLUMNS[name]) if name in _COLUMNS else data
    return Tables(**arrays)


_loaded: Tables | None = None


def get_tables(log=None) -> Tables:
    """The tables, loaded once per process; built and stored first when the cache has none, as
    one-time work (store.one_time_build: the current solve's cancel stops it, its time limit does
    not, its seconds are left out of the solve's time; other solvers meet it as a step, a big
    cube's corners). The files built are listed in the budget's `built`."""
    global _loaded
    if _loaded is None:
        tables = load()
        if tables is None:
            start = time.perf_counter()
            with store.one_time_build() as stop:
                built = build(stop)
            budget = deadline.current() or Budget()
            for name, array in built._asdict().items():
                store.save(KIND, name, _params(name), array.ravel())
                budget.built.append(store.table_path(KIND, name))
            if log:
                log(f"cube3 tables built in {time.perf_counter() - start:.1f} s into {store.cache_dir() / KIND}")
            tables = load()
        _loaded = tables
    return _loaded
