"""Facts about a definition that take time to find and depend only on its content (the group's
order, the number of reachable states): kept per content hash in the cache folder
(PUZZLEHUB_CACHE/facts/<hash>.json), so that the next process reads them instead of finding them
again (`puzzle info cube3` builds no stabiliser chain twice). A damaged or unwritable file only
means finding the fact again.
"""

from __future__ import annotations

import json
import os
from typing import Callable

from solver.definition.canonical import content_hash
from solver.definition.model import Definition
from solver.special.store import cache_dir

FORMAT = 1  # bump when the meaning of a stored fact changes


def _path(defn: Definition):
    return cache_dir() / "facts" / (content_hash(defn).split(":")[-1] + ".json")


def _read(path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT else {}


def remembered(defn: Definition, key: str, find: Callable[[], object]):
    """The fact `key` of this definition: stored, or found by `find()` (JSON data) and stored."""
    path = _path(defn)
    data = _read(path)
    if key in data:
        return data[key]
    value = find()
    data.update({"format": FORMAT, key: value})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)  # readers never see a half-written file
    except (OSError, ValueError):  # ValueError: an integer longer than Python's str() allows is not kept
        pass
    return value
