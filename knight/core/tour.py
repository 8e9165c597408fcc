"""One walk of the knight as a value: the board, the start, the path and its outcome.

A :class:`Tour` is made by Warnsdorff's rule under a tie-break rule (:func:`knight.tour`)
or by an exact solver (:func:`knight.exact.backtrack`, :func:`knight.exact.construct`).
It stores square indices (``row * cols + col``, row 0 at the top); everything it shows
is 1-based ``(row, col)`` (docs/conventions.md). Drawing needs matplotlib, imported
only when a tour is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from knight.core.board import Board, format_grid, step_numbers

#: What makes a tour: Warnsdorff's rule, or one of the exact solvers.
SOLVERS = ("warnsdorff", "backtrack", "construct")


@dataclass(frozen=True, eq=False, repr=False)
class Tour:
    """A walk of the knight: ``path`` holds the visited squares in order (start first), as
    square indices ``row * cols + col`` (0-based) of ``board``; ``start`` is the first.

    ``order`` is the tie order used (None for the rules random and squirrel-cull and for
    constructed tours), ``ties`` the residual tie points of a Warnsdorff run (None for
    an exact solver's tour), ``rule`` the tie-break rule (None for an exact solver's
    tour), ``attempts`` the attempts made (random-order), ``solver`` what made the walk
    (:data:`SOLVERS`). ``path`` is read-only.

    >>> from knight.core.board import Board
    >>> t = Tour(Board(3, 4), 0, None, [0, 6, 8, 1], rule=None, solver="backtrack")
    >>> t.squares, t.visited, t.complete, t.outcome()
    ([(1, 1), (2, 3), (3, 1), (1, 2)], 4, False, 'stuck after 4')
    """

    board: Board
    start: int
    order: str | None
    path: np.ndarray
    ties: int | None = None
    rule: str | None = "fixed"
    attempts: int = 1
    solver: str = "warnsdorff"

    def __post_init__(self) -> None:
        path = np.asarray(self.path, dtype=np.int64).view()
        path.flags.writeable = False
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "start", int(self.start))
        if self.solver not in SOLVERS:
            raise ValueError(f"solver {self.solver!r} is not one of {', '.join(SOLVERS)}")

    @property
    def visited(self) -> int:
        """Squares visited, the start included."""
        return len(self.path)

    @property
    def end(self) -> int:
        """Square index where the knight stopped."""
        return int(self.path[-1])

    @property
    def complete(self) -> bool:
        """Every square visited."""
        return self.visited == self.board.size

    @property
    def closed(self) -> bool:
        """Complete, and the end is one knight move from the start."""
        return self.complete and self.board.is_knight_move(self.start, self.end)

    @property
    def squares(self) -> list[tuple[int, int]]:
        """The path as 1-based ``(row, col)`` pairs, start first."""
        rows, cols = np.divmod(self.path, self.board.cols)
        return list(zip((rows + 1).tolist(), (cols + 1).tolist()))

    def numbering(self) -> np.ndarray:
        """``int[rows, cols]``: step number of each square (1 = start), 0 if unvisited."""
        return step_numbers(self.board, self.path)

    def summary(self) -> str:
        """The thesis's closing lines: board size, start, end, unvisited, open/closed."""
        (sr, sc), (er, ec) = self.board.human(self.start), self.board.human(self.end)
        return "\n".join(
            [
                f"board size = {self.board.rows}x{self.board.cols}",
                f"start square {sr},{sc}",
                f"end square {er},{ec}",
                f"unvisited squares = {self.board.size - self.visited}",
                "path is closed." if self.closed else "path is open.",
            ]
        )

    def __str__(self) -> str:
        """The numbered board (0 = unvisited) and the summary, as ``knight tour`` prints them."""
        return f"{format_grid(self.numbering())}\n{self.summary()}"

    def outcome(self) -> str:
        """``closed tour``, ``open tour`` or ``stuck after N squares``."""
        return "closed tour" if self.closed else ("open tour" if self.complete else f"stuck after {self.visited}")

    def how(self) -> str:
        """What made the walk: ``order 12345678``, ``pohl, order 12345678``, ``random``, ``backtrack``."""
        if self.solver != "warnsdorff":
            return self.solver
        if self.rule == "fixed":
            return f"order {self.order}"
        return f"{self.rule}, order {self.order}" if self.order else str(self.rule)

    def title(self) -> str:
        """One line: board, start, how, outcome (a drawing's title)."""
        sr, sc = self.board.human(self.start)
        return f"{self.board.name} from ({sr}, {sc}), {self.how()}: {self.outcome()}"

    def __repr__(self) -> str:
        end = self.board.human(self.end)
        return f"<Tour {self.title()}, {self.visited}/{self.board.size} squares, end {end}>"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        mine = (self.board, self.start, self.order, self.ties, self.rule, self.attempts, self.solver)
        theirs = (other.board, other.start, other.order, other.ties, other.rule, other.attempts, other.solver)
        return mine == theirs and np.array_equal(self.path, other.path)

    __hash__ = None

    def to_json(self) -> dict:
        """The tour as plain JSON types (``knight tour --json``): squares 1-based
        ``[row, col]``; ``order`` null where no tie order was used."""
        return {
            "rows": self.board.rows,
            "cols": self.board.cols,
            "start": list(self.board.human(self.start)),
            "order": self.order,
            "path": [list(s) for s in self.squares],
            "visited": self.visited,
            "end": list(self.board.human(self.end)),
            "complete": self.complete,
            "closed": self.closed,
        }

    # --- drawing -----------------------------------------------------------------------
    def figure(self, title: str | None = None):
        """A matplotlib ``Figure`` of the walk (:func:`knight.report.figures.tour_figure`),
        headed ``title`` (none by default)."""
        return _figures().tour_figure(self, title=title)

    def svg(self) -> str:
        """The drawing as SVG text."""
        return _figures().render(self.figure(title=self.title()), "svg").decode()

    def png(self, dpi: int = 100) -> bytes:
        """The drawing as PNG bytes at ``dpi`` dots per inch."""
        return _figures().render(self.figure(title=self.title()), "png", dpi=dpi)

    def save(self, path, *, dpi: int = 150) -> None:
        """Draw the walk to ``path`` (``.svg``, ``.png`` or ``.pdf``, by suffix), atomically,
        at ``dpi`` dots per inch (PNG). The folder must exist; a missing folder or another
        suffix is refused in one line (``ValueError``) before drawing. No seal is written
        beside the picture (seals are the workflow's, :mod:`knight.core.seal`)."""
        figures = _figures()
        figures.check_picture_path(path)
        figures.save(self.figure(title=self.title()), path, dpi=dpi, sealed=False)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_png_(self) -> bytes:
        return self.png()


def _figures():
    """:mod:`knight.report.figures` (matplotlib), imported when a tour is first drawn, so
    that making a tour never loads matplotlib."""
    from knight.report import figures

    return figures
