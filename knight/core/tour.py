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
    """One walk of the knight: the board, the squares visited in order and what made it.

    Squares are indices ``row * cols + col`` (0-based) of ``board``; what a tour shows is
    1-based ``(row, col)`` (:doc:`/conventions`). Made by :func:`knight.tour` or the exact
    solvers; two tours are equal when every field is.

    Parameters
    ----------
    board : Board
        The board walked.
    start : int
        Square index of the first square.
    order : str or None
        The tie order used, highest priority first (``"12345678"``); None for the rules
        random and squirrel-cull and for the exact solvers' tours.
    path : ArrayLike of int
        Square indices in the order visited, ``start`` first; stored read-only as int64.
    ties : int or None
        Residual tie points of a Warnsdorff run; None for an exact solver's tour.
    rule : str or None
        The tie-break rule (:doc:`/conventions`); None for an exact solver's tour.
    attempts : int
        Walks made to get this one (random-order retries; 1 otherwise).
    solver : str
        What made the walk: ``"warnsdorff"``, ``"backtrack"`` or ``"construct"``.

    Raises
    ------
    ValueError
        ``solver`` is not one of the three.

    See Also
    --------
    knight.tour, knight.exact.backtrack, knight.exact.construct

    Examples
    --------
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
        """Number of squares visited, the start included."""
        return len(self.path)

    @property
    def end(self) -> int:
        """Square index where the knight stopped (the path's last)."""
        return int(self.path[-1])

    @property
    def complete(self) -> bool:
        """True when every square of the board is visited."""
        return self.visited == self.board.size

    @property
    def closed(self) -> bool:
        """True when complete and the end is one knight move from the start."""
        return self.complete and self.board.is_knight_move(self.start, self.end)

    @property
    def squares(self) -> list[tuple[int, int]]:
        """The path as 1-based ``(row, col)`` pairs, start first."""
        rows, cols = np.divmod(self.path, self.board.cols)
        return list(zip((rows + 1).tolist(), (cols + 1).tolist()))

    def numbering(self) -> np.ndarray:
        """Step number of each square.

        Returns
        -------
        numpy.ndarray
            ``int64[rows, cols]``: 1 at the start, ``visited`` at the end, 0 where unvisited.
        """
        return step_numbers(self.board, self.path)

    def summary(self) -> str:
        """The thesis's closing lines: board size, start, end, unvisited squares, open or closed.

        Returns
        -------
        str
            Five lines, squares 1-based ``R,C``.

        Examples
        --------
        >>> from knight import tour
        >>> print(tour(5).summary())
        board size = 5x5
        start square 1,1
        end square 3,3
        unvisited squares = 0
        path is open.
        """
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
        """The outcome in words.

        Returns
        -------
        str
            ``"closed tour"``, ``"open tour"`` or ``"stuck after N"`` (N squares visited).
        """
        return "closed tour" if self.closed else ("open tour" if self.complete else f"stuck after {self.visited}")

    def how(self) -> str:
        """What made the walk, in words.

        Returns
        -------
        str
            ``"order 12345678"``, ``"pohl, order 12345678"``, ``"random"``, ``"backtrack"``, ...
        """
        if self.solver != "warnsdorff":
            return self.solver
        if self.rule == "fixed":
            return f"order {self.order}"
        return f"{self.rule}, order {self.order}" if self.order else str(self.rule)

    def title(self) -> str:
        """One line naming the board, start, how and outcome (a drawing's title).

        Returns
        -------
        str
            e.g. ``"5x5 from (1, 1), order 12345678: open tour"``.
        """
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
        """The tour as plain JSON types, as ``knight tour --json`` prints it.

        Returns
        -------
        dict
            ``rows``, ``cols``, ``start``, ``order`` (null where no tie order was used),
            ``path``, ``visited``, ``end``, ``complete``, ``closed``; squares 1-based ``[row, col]``.
        """
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
        """A drawing of the walk (matplotlib, imported on first use).

        Parameters
        ----------
        title : str or None
            The figure's heading; None for none.

        Returns
        -------
        ``matplotlib.figure.Figure``
            The board with the path drawn over it.

        See Also
        --------
        svg, png, save
        """
        return _figures().tour_figure(self, title=title)

    def svg(self) -> str:
        """The drawing, headed by :meth:`title`, as SVG.

        Returns
        -------
        str
            SVG text.
        """
        return _figures().render(self.figure(title=self.title()), "svg").decode()

    def png(self, dpi: int = 100) -> bytes:
        """The drawing, headed by :meth:`title`, as PNG.

        Parameters
        ----------
        dpi : int
            Resolution, in dots per inch.

        Returns
        -------
        bytes
            PNG image.
        """
        return _figures().render(self.figure(title=self.title()), "png", dpi=dpi)

    def save(self, path, *, dpi: int = 150) -> None:
        """Draw the walk, headed by :meth:`title`, to a file, atomically.

        The format follows the suffix. No seal is written beside the picture (seals are the
        workflow's).

        Parameters
        ----------
        path : str or os.PathLike
            File to write, ending ``.svg``, ``.png`` or ``.pdf``; its folder must exist.
        dpi : int
            Resolution of a PNG, in dots per inch.

        Raises
        ------
        ValueError
            A missing folder or another suffix, in one line, before drawing.
        """
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
