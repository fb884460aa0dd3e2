"""What every search is given: a time limit, a node limit, a progress callback and a cancel callback.

Searches call `tick` every so often; it reports progress and says whether to stop, so that a time
limit is honoured within a fraction of a second and a cancelled job stops between steps.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable


class Stopped(Exception):
    """Raised inside a search when its budget says stop; carries why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Budget:
    time_limit: float | None = None
    node_limit: int | None = None
    progress: Callable[[dict], None] | None = None
    cancel: Callable[[], bool] | None = None
    progress_every: float = 0.5  # seconds between progress reports
    started: float = field(default_factory=time.monotonic)
    _last_report: float = 0.0

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def deadline(self) -> float | None:
        return None if self.time_limit is None else self.started + self.time_limit

    def remaining(self) -> float | None:
        return None if self.time_limit is None else max(0.0, self.time_limit - self.elapsed)

    def tick(self, nodes: int, depth: int = 0, bound: int | None = None) -> None:
        """Report progress now and then; raise Stopped when time, nodes or a cancel say so."""
        now = time.monotonic()
        if self.node_limit is not None and nodes >= self.node_limit:
            raise Stopped("node limit")
        if self.time_limit is not None and now - self.started >= self.time_limit:
            raise Stopped("time limit")
        if now - self._last_report >= self.progress_every:
            self._last_report = now
            if self.cancel is not None and self.cancel():
                raise Stopped("cancelled")
            if self.progress is not None:
                self.progress({"nodes": nodes, "depth": depth, "bound": bound, "seconds": round(now - self.started, 3)})
