"""Pattern-database files in the shared artifacts storage (Django's storage API: a folder by
default, S3-compatible by settings) and in each worker's local cache.

A file is stored once under its solver-given name, which is keyed by the puzzle's content hash and
the projection. A worker copies stored files into its local cache (the folder the solver reads,
PUZZLEHUB_CACHE/pdb) and checks their size and SHA-256 on the way; a damaged file is never used.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.core.files.storage import storages

from puzzlehub.jobs.models import PatternDatabase
from puzzlehub.ops import counters
from solver.errors import PuzzleError

log = logging.getLogger(__name__)

CHUNK = 1 << 20


class ArtifactError(PuzzleError):
    """A stored artifact whose size or checksum is not what its record says."""


def storage():
    return storages["artifacts"]


def local_dir() -> Path:
    return Path(settings.PUZZLEHUB_CACHE) / "pdb"


def local_files() -> set[Path]:
    """The table files in this worker's cache now."""
    return set(local_dir().glob("*.pdb"))


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()


def publish(path: Path) -> dict:
    """Store a local file (once: the name is content-keyed) and return its name, size and SHA-256."""
    name = f"pdb/{path.name}"
    if not storage().exists(name):
        with open(path, "rb") as fh:
            saved = storage().save(name, File(fh, name=path.name))
        if saved != name:  # another worker stored the same file a moment before: keep one
            storage().delete(saved)
    return {"storage_name": name, "bytes": path.stat().st_size, "sha256": _digest(path)}


_checked: set[tuple[str, int]] = set()  # (local path, mtime) whose checksum this process verified


def fetch(artifact: PatternDatabase) -> Path:
    """The artifact's file in the local cache, downloaded first when missing; size and SHA-256 are
    checked once per process, and a local copy that fails is fetched again."""
    dest = local_dir() / Path(artifact.storage_name).name
    if dest.exists():
        mark = (str(dest), dest.stat().st_mtime_ns)
        if mark in _checked or (dest.stat().st_size == artifact.bytes and _digest(dest) == artifact.sha256):
            _checked.add(mark)
            counters.add({("table_cache", ("hit",)): 1})
            return dest
        log.warning("%s: local copy does not match its record; fetching it again", dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(f".part{os.getpid()}")
    h, size = hashlib.sha256(), 0
    try:
        with storage().open(artifact.storage_name, "rb") as src, open(tmp, "wb") as out:
            while chunk := src.read(CHUNK):
                h.update(chunk)
                size += len(chunk)
                out.write(chunk)
        if size != artifact.bytes or h.hexdigest() != artifact.sha256:
            raise ArtifactError(
                f"{artifact.storage_name}: stored file has {size} bytes and SHA-256 {h.hexdigest()[:16]}..., "
                f"its record says {artifact.bytes} bytes and {artifact.sha256[:16]}..."
            )
        os.replace(tmp, dest)  # the solver never sees a half-copied file
    finally:
        tmp.unlink(missing_ok=True)
    counters.add({("table_cache", ("miss",)): 1})
    _checked.add((str(dest), dest.stat().st_mtime_ns))
    return dest


SYNC_EVERY = 30.0  # seconds a worker trusts its cache for a puzzle before asking the database again
_synced: dict[str, float] = {}


def fetch_all(content_hash: str, *, force: bool = False) -> list[Path]:
    """Every stored pattern database of this puzzle in the local cache; damaged ones are skipped
    (the solver then builds what it needs itself). Small solves come in bursts: a worker checks a
    puzzle at most every SYNC_EVERY seconds unless forced."""
    now = time.monotonic()
    if not force and now - _synced.get(content_hash, -SYNC_EVERY) < SYNC_EVERY:
        return []
    _synced[content_hash] = now
    paths = []
    for artifact in PatternDatabase.objects.filter(content_hash=content_hash):
        try:
            paths.append(fetch(artifact))
        except (ArtifactError, OSError) as exc:
            log.warning("pattern database %s not used: %s", artifact.storage_name, exc)
    return paths
