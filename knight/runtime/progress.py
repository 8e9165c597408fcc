"""Progress lines on a terminal; silent when stderr is not a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    """Report ``done / total`` on stderr at most every ``interval`` seconds, on a TTY only."""

    def __init__(self, total: int, label: str, *, interval: float = 0.5, stream=None, enabled=None):
        self.total = max(int(total), 1)
        self.label = label
        self.interval = interval
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self._t0 = time.perf_counter()
        self._last = 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._last >= self.interval or self.done >= self.total:
            self._last = now
            pct = 100.0 * self.done / self.total
            self.stream.write(f"\r{self.label}: {self.done}/{self.total} ({pct:5.1f}%) {now - self._t0:7.1f} s")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
