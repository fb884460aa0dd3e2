"""Files of the cache folder checked intact once (a checksum over the whole body) are remembered so
in a stamp beside them (`.checked`: size, modification time, inode, checksum), so that the next
processes do not read the whole file again: 44 MB for the 2x2x2's full table, 980 MB for the
5x5x5's phase tables, read in every process that solved one. A file written since is checked again.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

CHECK_AGE = 2.0  # seconds a file must have stood unchanged before its check is remembered


def _stamp(stat: os.stat_result, digest: str) -> str:
    return json.dumps([stat.st_size, stat.st_mtime_ns, stat.st_ino, digest])


def known(path: Path, stat: os.stat_result, digest: str) -> bool:
    """Whether `path`, as `stat` finds it, was checked to have the checksum `digest`."""
    try:
        return path.with_suffix(".checked").read_text() == _stamp(stat, digest)
    except OSError:
        return False


def remember(path: Path, stat: os.stat_result, digest: str) -> None:
    """Keep the check's stamp; not for a file just written, since a rewrite within the file
    system's clock tick would leave the same modification time."""
    if time.time() - stat.st_mtime < CHECK_AGE:
        return
    stamp = path.with_suffix(".checked")
    tmp = stamp.with_suffix(f".tmp{os.getpid()}")
    try:
        tmp.write_text(_stamp(stat, digest))
        os.replace(tmp, stamp)
    except OSError:  # a read-only cache folder: every process checks
        tmp.unlink(missing_ok=True)
