"""Stored tables of the specialized solvers (pattern databases, complete distance tables).

A table is built once and kept in the cache folder (env PUZZLEHUB_CACHE, default
~/.cache/puzzlehub) as one file: a header line of JSON (format version, the parameters that made
it, dtype, length, sha256 of the data), padded to a page, then the raw array. Loading checks the
header and the checksum once per process and memory-maps the data read-only, so several worker
processes share one copy in the page cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import numpy as np

from solver import deadline, intact
from solver.recent import Recent
from solver.search.budget import Budget, one_time_work

MAGIC = b"PUZZLEHUB-TABLE\n"
PAGE = 4096

_loaded: Recent = Recent()  # (path, params) -> the memory-mapped table, the recent ones


def cache_dir() -> Path:
    return Path(os.environ.get("PUZZLEHUB_CACHE") or Path.home() / ".cache" / "puzzlehub")


def _digest(data: np.ndarray) -> str:
    return hashlib.sha256(memoryview(np.ascontiguousarray(data)).cast("B")).hexdigest()


def table_path(kind: str, name: str) -> Path:
    return cache_dir() / kind / f"{name}.table"


def load(kind: str, name: str, params: dict) -> np.ndarray | None:
    """The stored table, or None when it is missing, from another version, or corrupt."""
    path = table_path(kind, name)
    key = (path, json.dumps(params, sort_keys=True))
    if key in _loaded:
        return _loaded.get(key)
    try:
        with open(path, "rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                return None
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    if header.get("params") != params:
        return None
    try:
        data = np.memmap(path, dtype=np.dtype(header["dtype"]), mode="r", offset=header["offset"],
                         shape=(header["length"],))
    except (OSError, ValueError, KeyError):
        return None
    stat, digest = os.stat(path), str(header.get("sha256"))
    if not intact.known(path, stat, digest):
        if _digest(data) != digest:
            return None
        intact.remember(path, stat, digest)
    _loaded[key] = data
    return data


def save(kind: str, name: str, params: dict, data: np.ndarray) -> np.ndarray:
    """Write atomically (a temporary file renamed into place) and return the memory-mapped copy."""
    path = table_path(kind, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = np.ascontiguousarray(data)
    header = {"params": params, "dtype": data.dtype.str, "length": int(data.size),
              "sha256": _digest(data), "offset": 0}
    # The offset is part of the header; a page of room is enough for any header we write.
    header["offset"] = PAGE * (1 + (len(MAGIC) + len(json.dumps(header)) + 64) // PAGE)
    text = MAGIC + json.dumps(header).encode() + b"\n"
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(text.ljust(header["offset"], b" "))
        f.write(memoryview(data).cast("B"))
    os.replace(tmp, path)
    _loaded.pop((path, json.dumps(params, sort_keys=True)), None)
    loaded = load(kind, name, params)
    assert loaded is not None, f"table {path} did not read back"
    return loaded


@contextmanager
def one_time_build():
    """Build tables inside: the stop flag their kernels read is yielded. A specialized solver's
    tables are one-time work for the machine (a worker builds them before it forks), which a solve
    may meet as a step: the current solve's cancel stops the build (Cancelled is raised after the
    block, and the caller keeps nothing of it), its time limit does not (a nearly finished build
    is not thrown away), and the seconds are left out of the solve's time like compiling
    (`compile_seconds`)."""
    budget = deadline.current() or Budget()
    building = Budget(cancel=budget.cancel, progress=budget.progress, phase="table building", built=budget.built)
    with deadline.limit(building), building.watching() as stop, one_time_work():
        yield stop
    if stop[0]:
        raise building.stop_reason()


def load_or_build(kind: str, name: str, params: dict, build: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The stored table, else `build(stop)` as one-time work (see one_time_build): the build's
    kernels read the stop flag and return early when a cancel raises it, and then nothing is
    stored. A table built is listed in the current solve's `built`."""
    table = load(kind, name, params)
    if table is not None:
        return table
    with one_time_build() as stop:
        data = build(stop)
    table = save(kind, name, params, data)
    (deadline.current() or Budget()).built.append(table_path(kind, name))
    return table
