"""All tables of the two-phase search: built once, stored in the cache folder as a versioned directory
of .npy files with a SHA-256 manifest, and loaded memory-mapped (checked against the manifest).

Cache folder: $PUZZLEHUB_CACHE, default ~/.cache/puzzlehub/. Bump VERSION whenever a table's meaning
or layout changes, so that old files are never read as new ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from solver.special.cube3 import coord, moves, pruning, symmetry
from solver.special.cube3.movetable import move_table

VERSION = 1
NAME = f"cube3-twophase-v{VERSION}"


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


def build() -> Tables:
    """Compute every table from the cubie model (tens of seconds)."""
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

    rep_slice = flipslice.rep // coord.N_FLIP
    rep_flip = flipslice.rep % coord.N_FLIP
    flipslice_rep_move = (slice_sorted_move[rep_slice * coord.N_PERM4].astype(np.int64) // coord.N_PERM4
                          * coord.N_FLIP + flip_move[rep_flip])
    phase1_depth = np.empty(len(flipslice.rep) * coord.N_TWIST, dtype=np.uint8)
    pruning.fill_symmetric(phase1_depth, coord.N_TWIST, flipslice_rep_move, flipslice.klass, flipslice.sym,
                           flipslice.stabiliser, np.ascontiguousarray(twist_move.T),
                           np.ascontiguousarray(twist_conj.T), flipslice.klass[0])

    phase2_depth = np.empty(len(corners.rep) * coord.N_UD_EDGES, dtype=np.uint8)
    pruning.fill_symmetric(phase2_depth, coord.N_UD_EDGES, corners_move[corners.rep][:, p2].astype(np.int64),
                           corners.klass, corners.sym, corners.stabiliser,
                           np.ascontiguousarray(ud_edges_move.T), np.ascontiguousarray(ud_edges_conj.T),
                           corners.klass[0])

    cornslice_depth = np.empty(coord.N_CORNERS * coord.N_PERM4, dtype=np.uint8)
    pruning.fill_product(cornslice_depth, corners_move[:, p2], slice_sorted_move[:coord.N_PERM4, p2])

    return Tables(
        twist_move=twist_move, flip_move=flip_move, slice_sorted_move=slice_sorted_move,
        u_edges_move=move_table(coord.U_EDGES), d_edges_move=move_table(coord.D_EDGES),
        corners_move=corners_move, ud_edges_move=ud_edges_move, twist_conj=twist_conj,
        ud_edges_conj=ud_edges_conj, flipslice_class=flipslice.klass, flipslice_sym=flipslice.sym,
        corner_class=corners.klass, corner_sym=corners.sym, phase1_depth=phase1_depth,
        phase2_depth=phase2_depth, cornslice_depth=cornslice_depth)


def cache_folder() -> Path:
    return Path(os.environ.get("PUZZLEHUB_CACHE") or Path.home() / ".cache" / "puzzlehub")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 24), b""):
            digest.update(chunk)
    return digest.hexdigest()


def save(tables: NamedTuple, folder: Path, name: str = NAME) -> Path:
    """Write a named tuple of arrays to folder/name atomically (a whole directory renamed into place)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    staging = Path(tempfile.mkdtemp(prefix=name + ".", dir=folder))
    try:
        manifest = {"version": VERSION, "files": {}}
        for name, array in tables._asdict().items():
            path = staging / f"{name}.npy"
            np.save(path, np.ascontiguousarray(array))
            manifest["files"][name] = _sha256(path)
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1))
        if target.exists():
            shutil.rmtree(target)
        os.rename(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return target


def load(folder: Path, name: str = NAME, kind: type = Tables):
    """The named tuple `kind` of arrays in folder/name, memory-mapped, or None when missing, old or
    damaged."""
    target = folder / name
    try:
        manifest = json.loads((target / "manifest.json").read_text())
        if manifest.get("version") != VERSION or set(manifest["files"]) != set(kind._fields):
            return None
        arrays = {}
        for name, checksum in manifest["files"].items():
            path = target / f"{name}.npy"
            if _sha256(path) != checksum:
                return None
            arrays[name] = np.asarray(np.load(path, mmap_mode="r"))
        return kind(**arrays)
    except (OSError, ValueError, KeyError):
        return None


_loaded: dict[str, NamedTuple] = {}


def cached(name: str, kind: type, build_function, folder: Path | None = None, log=None):
    """Tables loaded once per process from the cache; built and stored first when it has none."""
    if name not in _loaded:
        folder = folder or cache_folder()
        tables = load(folder, name, kind)
        if tables is None:
            start = time.perf_counter()
            save(build_function(), folder, name)
            if log:
                log(f"{name} tables built in {time.perf_counter() - start:.1f} s into {folder / name}")
            tables = load(folder, name, kind)
        _loaded[name] = tables
    return _loaded[name]


def get_tables(folder: Path | None = None, log=None) -> Tables:
    """The two-phase tables (see cached)."""
    return cached(NAME, Tables, build, folder, log)
