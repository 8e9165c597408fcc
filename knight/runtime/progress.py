"""Progress bars on a terminal (tqdm: done / total, rate and time left); silent when
stderr is not a terminal (a log, a pipe, a notebook)."""

from __future__ import annotations

import sys

from tqdm import tqdm


class Progress:
    """Count finished tasks of ``total`` under ``label``, drawn on stderr only when it is a
    terminal. ``total`` may be raised or lowered while running; ``done`` counts every
    update, drawn or not."""

    def __init__(self, total: int, label: str, *, stream=None, enabled: bool | None = None):
        stream = stream or sys.stderr
        self.enabled = stream.isatty() if enabled is None else bool(enabled)
        self.done = 0
        self._bar = tqdm(
            total=max(int(total), 1),
            desc=label,
            unit="task",
            file=stream,
            disable=not self.enabled,
            dynamic_ncols=True,
            mininterval=0.5,
            smoothing=0.1,
        )

    @property
    def total(self) -> int:
        return int(self._bar.total)

    @total.setter
    def total(self, value: int) -> None:
        self._bar.total = max(int(value), 1)
        self._bar.refresh()

    def update(self, n: int = 1) -> None:
        self.done += n
        self._bar.update(n)

    def close(self) -> None:
        self._bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
