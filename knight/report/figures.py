"""Figures: drawn tours, per-square heatmaps, outcome grids and curves against N.

Library code on matplotlib's object API (:class:`matplotlib.figure.Figure`), so no GUI
backend is ever needed. Boards are drawn as people read the numbered board: row 1 at
the top, column 1 on the left, axes labelled with 1-based rows and columns. Grids are
``[rows, cols]`` arrays indexed by 0-based ``(r, c)``; square index ``s = r * cols + c``.
Colour maps are viridis/cividis (colour-blind safe, monotone in lightness for print);
every count is also written in its cell on small boards.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib import colormaps, rc_context
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, ScalarFormatter

from knight.core.board import Board
from knight.core.io import atomic_path

#: Light and dark squares of the drawn board: greys, readable in print under lines.
LIGHT, DARK = "#f2f2f2", "#bdbdbd"
#: Metadata dropped from saved figures (dates, versions), so equal data give equal bytes.
_METADATA = {"svg": {"Date": None}, "png": {"Software": None}, "pdf": {"CreationDate": None}}
#: SVG element ids drawn from a fixed salt, not at random, for the same reason.
_FIXED = {"svg.hashsalt": "knight"}
#: Outcome categories of :func:`outcome_grid_figure` (code -> label).
OUTCOMES = ("incomplete", "open tour", "closed tour")
_OUTCOME_COLOURS = ListedColormap([colormaps["cividis"](x) for x in (0.05, 0.55, 0.95)])


#: The formats :func:`save` writes (by the file name's suffix).
FORMATS = ("png", "svg", "pdf")


def check_picture_path(path: str | os.PathLike, *, label: str = "path") -> str:
    """The format of a picture file ``path`` (:data:`FORMATS`, from its suffix) after
    checking, writing nothing, that its folder exists; ``ValueError`` in one line naming
    ``label``, the path and what is wrong otherwise.

    >>> check_picture_path("t.bmpx")
    Traceback (most recent call last):
    ValueError: path 't.bmpx': unknown picture format '.bmpx'; the file name must end in .png, .svg or .pdf
    >>> check_picture_path("/nonexistent/dir/t.png")
    Traceback (most recent call last):
    ValueError: path '/nonexistent/dir/t.png': no folder /nonexistent/dir (create it first)
    """
    path = Path(path)
    where = f"{label} {str(path)!r}"
    fmt = path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        shown = f"'{path.suffix}'" if path.suffix else "(none)"
        raise ValueError(
            f"{where}: unknown picture format {shown}; the file name must end in "
            + ", ".join(f".{f}" for f in FORMATS[:-1])
            + f" or .{FORMATS[-1]}"
        )
    folder = path.parent
    if not folder.exists():
        raise ValueError(f"{where}: no folder {folder} (create it first)")
    if not folder.is_dir():
        raise ValueError(f"{where}: {folder} is a file, not a folder")
    if path.is_dir():
        raise ValueError(f"{where}: is a folder, not a file")
    return fmt


def save(fig: Figure, path: str | os.PathLike, *, dpi: int = 150, sealed: bool = True) -> None:
    """Write ``fig`` atomically; the format comes from the suffix (``.png``, ``.svg``).

    Metadata carrying dates are dropped so a rerun on the same data gives the same bytes.
    ``sealed`` (the workflow's outputs) writes the seal a rerun checks the file against
    (:mod:`knight.core.seal`); a picture a user asks for gets none.
    """
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower()
    with atomic_path(path, sealed=sealed) as tmp, rc_context(_FIXED):
        fig.savefig(tmp, format=fmt, dpi=dpi, metadata=_METADATA.get(fmt))


def render(fig: Figure, fmt: str, *, dpi: int = 100) -> bytes:
    """``fig`` as the bytes of a ``png``, ``svg`` or ``pdf`` file (as :func:`save` writes it)."""
    out = io.BytesIO()
    with rc_context(_FIXED):
        fig.savefig(out, format=fmt, dpi=dpi, metadata=_METADATA.get(fmt))
    return out.getvalue()


def _board_axes(ax, board: Board) -> None:
    """1-based row/column ticks, row 1 on top, equal aspect."""
    ax.set_xlim(-0.5, board.cols - 0.5)
    ax.set_ylim(board.rows - 0.5, -0.5)
    ax.set_aspect("equal")
    step_c = max(1, board.cols // 10)
    step_r = max(1, board.rows // 10)
    ax.set_xticks(np.arange(0, board.cols, step_c), [str(c + 1) for c in range(0, board.cols, step_c)])
    ax.set_yticks(np.arange(0, board.rows, step_r), [str(r + 1) for r in range(0, board.rows, step_r)])
    ax.set_xlabel("column (1 = left)")
    ax.set_ylabel("row (1 = top)")
    ax.tick_params(length=0)


def _figsize(board: Board, extra_w: float = 0.0, base: float = 5.0) -> tuple[float, float]:
    scale = base / max(board.rows, board.cols)
    return board.cols * scale + 1.2 + extra_w, board.rows * scale + 1.3


def tour_figure(run, *, title: str | None = None) -> Figure:
    """A walk of the knight (:class:`knight.core.tour.Tour`) on a chequered board.

    Lines join the centres of consecutive squares; the start is a filled circle, the end
    a filled square, unvisited squares carry a cross. The closing move of a closed tour
    is drawn dashed.
    """
    board = run.board
    fig = Figure(figsize=_figsize(board, extra_w=0.0), layout="constrained")
    ax = fig.add_subplot()
    chequer = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).astype(float)
    ax.imshow(chequer, cmap=ListedColormap([LIGHT, DARK]), vmin=0, vmax=1, interpolation="nearest")
    r, c = np.divmod(np.asarray(run.path, dtype=np.int64), board.cols)
    small = board.size <= 400
    lw = 1.6 if small else max(0.4, 1.6 * 20 / max(board.rows, board.cols))
    ax.plot(c, r, "-", color="black", lw=lw, zorder=2)
    if small:
        ax.plot(c, r, "o", color="black", ms=2.5, zorder=3)
    if run.closed:
        ax.plot([c[-1], c[0]], [r[-1], r[0]], "--", color="black", lw=lw, zorder=2, label="closing move")
    ms = 11 if small else 7
    ax.plot(
        c[0],
        r[0],
        "o",
        ms=ms,
        mfc=colormaps["viridis"](0.85),
        mec="black",
        mew=1.2,
        zorder=4,
        label=f"start ({r[0] + 1}, {c[0] + 1})",
    )
    ax.plot(
        c[-1],
        r[-1],
        "s",
        ms=ms,
        mfc=colormaps["viridis"](0.15),
        mec="black",
        mew=1.2,
        zorder=4,
        label=f"end ({r[-1] + 1}, {c[-1] + 1})",
    )
    seen = np.zeros(board.size, dtype=bool)
    seen[np.asarray(run.path)] = True
    ur, uc = np.divmod(np.flatnonzero(~seen), board.cols)
    if len(ur):
        ax.plot(uc, ur, "x", color="black", ms=ms * 0.8, mew=1.5, zorder=4, label=f"unvisited ({len(ur)})")
    _board_axes(ax, board)
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.12 if board.rows <= 12 else -0.08),
        ncol=3,
        fontsize=8,
        frameon=False,
    )
    state = (
        "closed tour"
        if run.closed
        else "open tour"
        if run.complete
        else f"incomplete, {run.visited}/{board.size} squares"
    )
    ax.set_title(title or f"{board.name}, order {run.order}: {state}", fontsize=10)
    return fig


def _annotate(ax, grid: np.ma.MaskedArray, norm, cmap, fmt=str) -> None:
    """Write each unmasked value in its cell, black on light colours and white on dark."""
    for (r, c), v in np.ndenumerate(grid.filled(np.nan)):
        if np.isnan(v):
            continue
        lum = np.dot(cmap(norm(v))[:3], (0.299, 0.587, 0.114))
        ax.text(c, r, fmt(v), ha="center", va="center", fontsize=7, color="black" if lum > 0.5 else "white")


def square_heatmap(
    grid, *, title: str, label: str, cmap: str = "cividis", annotate: bool = True, board: Board | None = None
) -> Figure:
    """Heatmap of one count per square (``grid[rows, cols]``; NaN/masked cells are hatched).

    ``label`` names the quantity and its unit for the colour bar; ``annotate`` writes
    each value in its cell.
    """
    grid = np.ma.masked_invalid(np.ma.asarray(grid, dtype=float))
    board = board or Board(*grid.shape)
    fig = Figure(figsize=_figsize(board, extra_w=1.4), layout="constrained")
    ax = fig.add_subplot()
    cm = colormaps[cmap].with_extremes(bad=(0, 0, 0, 0))  # masked: the hatched background shows
    ax.patch.set_hatch("///")
    ax.patch.set_edgecolor("#b0b0b0")
    vmax = float(grid.max()) if grid.count() and grid.max() > 0 else 1.0
    im = ax.imshow(grid, cmap=cm, vmin=0, vmax=vmax, interpolation="nearest")
    _board_axes(ax, board)
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, label=label, shrink=0.9)
    if annotate:
        _annotate(ax, grid, im.norm, cm, fmt=lambda v: f"{int(round(v))}")
    return fig


def outcome_grid_figure(
    board: Board,
    panels: Sequence[tuple[str, np.ndarray, np.ndarray]],
    *,
    title: str,
    ncols: int = 4,
    annotate: bool = True,
) -> Figure:
    """Per-start outcome grids side by side (e.g. an order and its symmetric images).

    Each panel is ``(title, codes[rows, cols], unvisited[rows, cols])`` with codes indexing
    :data:`OUTCOMES` (0 incomplete, 1 open tour, 2 closed tour); incomplete cells show
    the number of unvisited squares, tours show ``O`` (open) or ``C`` (closed).
    """
    n = len(panels)
    ncols = min(ncols, n)
    nrows = -(-n // ncols)
    w, h = _figsize(board, base=3.0)
    fig = Figure(figsize=(w * ncols, h * nrows + 0.8), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    norm = BoundaryNorm([-0.5, 0.5, 1.5, 2.5], 3)
    for ax, (name, codes, unvisited) in zip(axes.flat, panels):
        ax.imshow(codes, cmap=_OUTCOME_COLOURS, norm=norm, interpolation="nearest")
        _board_axes(ax, board)
        ax.set_title(name, fontsize=8)
        if annotate:
            labels = np.where(codes == 2, "C", np.where(codes == 1, "O", unvisited.astype(str)))
            for (r, c), text in np.ndenumerate(labels):
                lum = np.dot(_OUTCOME_COLOURS(int(codes[r, c]))[:3], (0.299, 0.587, 0.114))
                ax.text(c, r, text, ha="center", va="center", fontsize=7, color="black" if lum > 0.5 else "white")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    handles = [
        Patch(facecolor=_OUTCOME_COLOURS(i), edgecolor="black", label=lab)
        for i, lab in enumerate(["incomplete (cell: unvisited squares)", "open tour (O)", "closed tour (C)"])
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(title, fontsize=10)
    return fig


def _board_x(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """x position of a board on an 'against N' axis: N for N x N, sqrt(rows*cols) otherwise."""
    return np.sqrt(np.asarray(rows, float) * np.asarray(cols, float))


def _label_non_square(ax, rows, cols, x, y) -> None:
    for r, c, xi, yi in zip(rows, cols, x, y):
        if r != c:
            ax.annotate(f"{r}x{c}", (xi, yi), textcoords="offset points", xytext=(4, 4), fontsize=7)


def rates_figure(rows, cols, completion_rate, closed_rate) -> Figure:
    """Completion rate and closed rate (fraction of runs, in %) against N.

    Square boards are joined by lines; an R x C board sits at sqrt(R*C), labelled.
    """
    rows, cols = np.asarray(rows), np.asarray(cols)
    x = _board_x(rows, cols)
    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    sq = rows == cols
    order = np.argsort(x)
    cmap = colormaps["viridis"]
    for values, name, marker, colour in (
        (completion_rate, "complete tours", "o", cmap(0.2)),
        (closed_rate, "closed tours", "s", cmap(0.7)),
    ):
        y = 100.0 * np.asarray(values, float)
        o = order[sq[order]]
        ax.plot(x[o], y[o], marker + "-", color=colour, label=f"{name} (N x N)")
        if (~sq).any():
            ax.plot(x[~sq], y[~sq], marker, color=colour, mfc="none", label=f"{name} (R x C)")
            _label_non_square(ax, rows[~sq], cols[~sq], x[~sq], y[~sq])
    ax.set_xlabel("board side N (squares; sqrt(R·C) for an R x C board)")
    ax.set_ylabel("share of runs (%)")
    ax.set_ylim(-2, 102)
    ax.set_xticks(np.unique(np.round(x[sq]).astype(int)) if sq.any() else np.unique(np.round(x)))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Warnsdorff runs (start x tie order) that complete, and that close", fontsize=10)
    return fig


def _minor_log_label(value: float, _pos) -> str:
    """Label minor ticks 2 and 5 of each decade on a log axis (e.g. 0.2, 5, 20)."""
    if value <= 0:
        return ""
    mantissa = value / 10 ** np.floor(np.log10(value))
    return f"{value:g}" if round(mantissa, 6) in (2.0, 5.0) else ""


def runtime_figure(rows, cols, seconds, runs=None) -> Figure:
    """Wall time of a board's sweep jobs (seconds, summed over its jobs) against N, log scale."""
    rows, cols = np.asarray(rows), np.asarray(cols)
    x = _board_x(rows, cols)
    seconds = np.asarray(seconds, float)
    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    sq = rows == cols
    order = np.argsort(x)
    o = order[sq[order]]
    colour = colormaps["viridis"](0.3)
    ax.plot(x[o], seconds[o], "o-", color=colour, label="N x N boards")
    if (~sq).any():
        ax.plot(x[~sq], seconds[~sq], "o", color=colour, mfc="none", label="R x C boards")
        _label_non_square(ax, rows, cols, x, seconds)
    ax.legend(fontsize=8)
    if runs is not None:
        for xi, yi, n in zip(x, seconds, np.asarray(runs)):
            ax.annotate(f"{int(n):,} runs", (xi, yi), textcoords="offset points", xytext=(4, -10), fontsize=7)
    ax.set_yscale("log")
    positive = seconds[seconds > 0]
    if len(positive):
        ax.set_ylim(positive.min() / 2, positive.max() * 2)
    ax.yaxis.set_major_formatter(ScalarFormatter())
    ax.yaxis.set_minor_formatter(FuncFormatter(_minor_log_label))
    ax.set_xticks(np.unique(np.round(x).astype(int)))
    ax.set_xlabel("board side N (squares; sqrt(R·C) for an R x C board)")
    ax.set_ylabel("wall time (s, sum over sweep jobs)")
    ax.grid(alpha=0.3, which="both")
    ax.set_title("Run time of the Warnsdorff sweep against N", fontsize=10)
    return fig


def _panels(n: int, ncols: int, w: float, h: float) -> tuple[Figure, np.ndarray]:
    ncols = max(1, min(ncols, n))
    nrows = -(-n // ncols)
    fig = Figure(figsize=(w * ncols, h * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, axes.flat[:n]


def rule_curves_figure(
    panels: Sequence[tuple[str, str, dict]],
    *,
    ylabel: str,
    title: str,
    log: bool = False,
    percent: bool = False,
    xlabel: str = "board side N (N x N)",
) -> Figure:
    """Panels of per-rule results against board side N (or another integer).

    Each panel is ``(title, kind, data)``: ``kind`` "lines" draws ``{rule: (x, y, low,
    high)}`` as one line per rule with a band from ``low`` to ``high`` (a 95 % interval;
    None for none); "bars" draws ``{rule: y}`` as one bar per rule (a single board);
    "events" draws ``{rule: (x, failed)}`` as one row per rule with a mark at every x where
    ``failed`` is true (deterministic rules, one run per board). ``percent`` plots
    fractions as %, ``log`` a log y axis.
    """
    fig, axes = _panels(len(panels), 2, 6.0, 4.0)
    scale = 100.0 if percent else 1.0
    cmap = colormaps["tab10"]
    for ax, (name, kind, data) in zip(axes, panels):
        rules = sorted(data)
        colour = {rule: cmap(i % 10) for i, rule in enumerate(rules)}
        if kind == "events":
            for i, rule in enumerate(rules):
                x, failed = (np.asarray(v) for v in data[rule])
                ax.plot(x[failed], np.full(failed.sum(), i), "|", ms=12, mew=1.5, color=colour[rule])
                ax.plot(x[~failed], np.full((~failed).sum(), i), ".", ms=2, color=colour[rule], alpha=0.3)
            ax.set_yticks(range(len(rules)), rules)
            ax.set_ylim(-0.7, len(rules) - 0.3)
            ax.set_xlabel(xlabel)
            ax.set_title(f"{name}: boards where the run fails (|); dots: complete tours", fontsize=9)
            ax.grid(alpha=0.3, axis="x")
            continue
        if kind == "bars":
            ax.bar(range(len(rules)), [scale * float(data[r]) for r in rules], color=[colour[r] for r in rules])
            ax.set_xticks(range(len(rules)), rules)
        else:
            for rule in rules:
                x, y, low, high = data[rule]
                x = np.asarray(x, float)
                order = np.argsort(x)
                ax.plot(
                    x[order],
                    scale * np.asarray(y, float)[order],
                    "-",
                    marker="." if len(x) < 60 else None,
                    ms=4,
                    lw=1.2,
                    color=colour[rule],
                    label=rule,
                )
                if low is not None:
                    ax.fill_between(
                        x[order],
                        scale * np.asarray(low, float)[order],
                        scale * np.asarray(high, float)[order],
                        color=colour[rule],
                        alpha=0.2,
                        lw=0,
                    )
            ax.set_xlabel(xlabel)
            ax.legend(fontsize=7, ncol=2)
        if log:
            ax.set_yscale("log")
        ax.set_ylabel(ylabel)
        ax.set_title(name, fontsize=9)
        ax.grid(alpha=0.3, which="both")
    fig.suptitle(title, fontsize=10)
    return fig


def square_multiples_figure(
    panels: Sequence[tuple[str, np.ndarray]], *, title: str, label: str, ncols: int = 4, cmap: str = "cividis"
) -> Figure:
    """Small multiples of per-square heatmaps (``[rows, cols]`` grids of different boards),
    each scaled to its own maximum (the colour bar reads as a share of it)."""
    fig, axes = _panels(len(panels), ncols, 3.0, 3.0)
    cm = colormaps[cmap]
    im = None
    for ax, (name, grid) in zip(axes, panels):
        grid = np.asarray(grid, float)
        peak = grid.max() if grid.size and grid.max() > 0 else 1.0
        im = ax.imshow(grid / peak, cmap=cm, vmin=0, vmax=1, interpolation="nearest")
        ax.set_title(f"{name} (max {int(peak):,})", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    if im is not None:
        fig.colorbar(im, ax=list(axes), label=label, shrink=0.8)
    fig.suptitle(title, fontsize=10)
    return fig


def speedup_figure(timings, table) -> Figure:
    """Speed-up S(p) and efficiency E(p) against the worker count p (queens speed-up measurement).

    ``timings``: every timed run (``knight.queens.speedup.time_searches``); ``table``: its
    medians (``speedup_table``). Lines join the medians; every timed run is drawn as
    a point (S = median T(1) / that run's T(p)), so nothing is cut off; an instance whose
    repeats disagree by more than 10 % is marked in the legend.
    """
    import polars as pl

    fig = Figure(figsize=(10, 4.2), layout="constrained")
    ax_s, ax_e = fig.subplots(1, 2)
    timed = table.filter(pl.col("seconds").is_not_null())
    ps = sorted(set(timed["workers"].to_list())) or [1]
    ax_s.plot(ps, ps, "k--", lw=1, label="ideal S(p) = p")
    ax_e.plot(ps, [1.0] * len(ps), "k--", lw=1, label="ideal E(p) = 1")
    cmap = colormaps["tab10"]
    runs = timings.filter((pl.col("mode") == "dask") & pl.col("seconds").is_not_null())
    for i, ((name,), part) in enumerate(timed.sort("workers").group_by(["instance"], maintain_order=True)):
        colour = cmap(i % 10)
        t1 = part.filter(pl.col("workers") == 1)["seconds"]
        label = f"{name} (T(1) = {t1[0]:.2f} s)" if len(t1) else name
        if part["unstable"].any():
            label += ", repeats disagree > 10 %"
        ax_s.plot(part["workers"], part["speedup"], "o-", color=colour, label=label)
        ax_e.plot(part["workers"], part["efficiency"], "o-", color=colour, label=label)
        if len(t1):
            mine = runs.filter(pl.col("instance") == name)
            s = t1[0] / mine["seconds"].to_numpy()
            p = mine["workers"].to_numpy()
            ax_s.plot(p, s, ".", color=colour, alpha=0.6, ms=6)
            ax_e.plot(p, s / p, ".", color=colour, alpha=0.6, ms=6)
    ax_s.set(
        xlabel="workers p", ylabel="speed-up S(p) = T(1) / T(p)", title="Speed-up (lines: medians; dots: every run)"
    )
    ax_e.set(xlabel="workers p", ylabel="efficiency E(p) = S(p) / p", title="Efficiency")
    top = max([1.15, *[float(v) for v in ax_e.get_ylim()[1:]]])
    ax_e.set_ylim(0, top)
    for ax in (ax_s, ax_e):
        ax.set_xticks(ps)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    skipped = table.filter(pl.col("seconds").is_null())["note"].drop_nulls().unique().to_list()
    if skipped:
        fig.suptitle("; ".join(skipped), fontsize=8)
    return fig
