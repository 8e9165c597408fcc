"""The sweep's runs table: one row per (board, start, tie order), its columns, its
Parquet encoding, and its assembly from the engine's arrays (no row sort, no copy)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pyarrow as pa

from knight.core.board import Board
from knight.core.io import write_parquet

#: Columns of the runs table, in order.
RUNS_SCHEMA = pa.schema(
    [
        ("rows", pa.uint16()),
        ("cols", pa.uint16()),
        ("start", pa.uint32()),
        ("order", pa.uint16()),
        ("visited", pa.uint32()),
        ("end", pa.uint32()),
        ("complete", pa.bool_()),
        ("closed", pa.bool_()),
        ("ties", pa.uint16()),
    ]
)

#: Parquet writer options of a runs file (``pyarrow.parquet.write_table`` keywords). The
#: rows are sorted by (start, order). ``rows``, ``cols``, ``start``, ``visited`` and
#: ``ties`` take a dictionary with run-length encoded indices (the first three cost a
#: few bytes per row group; ``ties`` has a few hundred values); ``order`` counts up by
#: one within a start, which delta encoding stores in almost nothing; ``complete`` and
#: ``closed`` are run-length encoded bits; ``end`` (a square, up to a few thousand
#: values) is split into byte streams, whose high bytes are nearly constant. Then zstd.
#: These are standard Parquet encodings: pyarrow and polars read them. Sizes against
#: the data's own entropy: docs/performance.md ("Census").
RUNS_PARQUET = {
    "compression": "zstd",
    "row_group_size": 1 << 20,
    "use_dictionary": ["rows", "cols", "start", "visited", "ties"],
    "column_encoding": {
        "order": "DELTA_BINARY_PACKED",
        "complete": "RLE",
        "closed": "RLE",
        "end": "BYTE_STREAM_SPLIT",
    },
}

#: Blocks (one start's rows) shorter than this are copied into one array by :func:`to_table`.
_MIN_BLOCK_ROWS = 4096

OUTCOME_DTYPES = {
    "visited": np.uint32,
    "end": np.uint32,
    "complete": np.bool_,
    "closed": np.bool_,
    "ties": np.uint16,
}

#: NumPy dtype of every column of :data:`RUNS_SCHEMA`.
_COLUMN_DTYPES = {"rows": np.uint16, "cols": np.uint16, "start": np.uint32, "order": np.uint16, **OUTCOME_DTYPES}


def to_table(board: Board, parts: Iterable[dict[str, np.ndarray]], per_start: int) -> pa.Table:
    """Assemble task results into one runs table (``RUNS_SCHEMA``), sorted by (start, order).

    Each part holds whole starts, every start a block of ``per_start`` rows sorted by
    order, so the table is the blocks sorted by start. A column is the blocks in that
    order as the chunks of one Arrow array, each a view of its part's memory (no row
    sort, no copy; a part's array of another dtype is cast, see :func:`_arrow`). Blocks under
    :data:`_MIN_BLOCK_ROWS` rows (a few orders a start) are joined into one array
    instead, so that no column is thousands of tiny chunks.
    """
    parts = list(parts)
    blocks = sorted(
        (int(p["start"][lo]), k, lo) for k, p in enumerate(parts) for lo in range(0, len(p["start"]), per_start)
    )
    n = len(blocks) * per_start
    arrays = []
    for f in RUNS_SCHEMA:
        if f.name in ("rows", "cols"):
            arrays.append(_arrow(np.full(n, getattr(board, f.name), _COLUMN_DTYPES[f.name]), f))
            continue
        column = pa.chunked_array([_arrow(parts[k][f.name][lo : lo + per_start], f) for _, k, lo in blocks], f.type)
        arrays.append(column.combine_chunks() if per_start < _MIN_BLOCK_ROWS else column)
    return pa.Table.from_arrays(arrays, schema=RUNS_SCHEMA)


def _arrow(values: np.ndarray, field: pa.Field) -> pa.Array:
    """``values`` as the Arrow array of runs column ``field``: a view of their memory when
    their dtype is the column's (booleans are packed into bits), otherwise a copy that
    must hold the same values (``ValueError`` if one does not fit). Built from buffers:
    ``pa.array`` imports pandas to inspect a NumPy array, 0.2 s of every job."""
    dtype = np.dtype(_COLUMN_DTYPES[field.name])
    if values.dtype != dtype:
        cast = values.astype(dtype)
        if not np.array_equal(cast, values):
            raise ValueError(f"runs column {field.name}: values do not fit {field.type}")
        values = cast
    data = np.packbits(values, bitorder="little") if dtype == np.bool_ else np.ascontiguousarray(values)
    return pa.Array.from_buffers(field.type, len(values), [None, pa.py_buffer(data)])


def write_runs(table: pa.Table, path: str | Path) -> None:
    """Write a runs table atomically, with the encodings of :data:`RUNS_PARQUET`."""
    write_parquet(table, path, **RUNS_PARQUET)


__all__ = ["RUNS_SCHEMA", "RUNS_PARQUET", "to_table", "write_runs"]
