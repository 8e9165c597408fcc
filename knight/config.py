"""Checking the workflow configuration: schema errors and meaning, named by key and value.

:func:`check` runs the JSON schema (``workflow/schemas/config.schema.yaml``, with
``$ref`` to sibling files) and then the checks a schema cannot express (board sides,
orders being permutations, starts on every board). Each problem is reported as
``config key <path>: <value>: <what is wrong>``, all of them at once.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from knight.board import parse_board
from knight.orders import parse_order


class ConfigError(ValueError):
    """The configuration is invalid; the message names every bad key and value."""


def _path(parts) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def _validator(schema_path: Path) -> Draft202012Validator:
    folder = schema_path.parent

    def retrieve(uri: str) -> Resource:
        name = uri.rsplit("/", 1)[-1]
        return Resource.from_contents(yaml.safe_load((folder / name).read_text()))

    schema = yaml.safe_load(schema_path.read_text())
    return Draft202012Validator(schema, registry=Registry(retrieve=retrieve))


def schema_errors(config: dict, schema_path: str | Path) -> list[str]:
    """Messages for every schema violation, each naming the key and the value."""
    msgs = []
    for err in sorted(_validator(Path(schema_path)).iter_errors(config), key=lambda e: list(map(str, e.path))):
        if err.validator == "additionalProperties":
            allowed = sorted(err.schema.get("properties", {}))
            extra = sorted(set(err.instance) - set(allowed))
            for key in extra:
                msgs.append(
                    f"config key {_path([*err.path, key])}: unknown key "
                    f"(allowed here: {', '.join(allowed)})"
                )
        else:
            msgs.append(f"config key {_path(err.path)}: {err.instance!r}: {err.message}")
    return msgs


def meaning_errors(config: dict) -> list[str]:
    """Messages for what the schema cannot check in the ``sweep`` and ``dask`` sections."""
    msgs = []
    sweep = config.get("sweep") or {}
    boards = []
    for i, b in enumerate(sweep.get("boards") or []):
        try:
            board = parse_board(b)
        except ValueError as exc:
            msgs.append(f"config key sweep.boards[{i}]: {b!r}: {exc}")
            continue
        if board.rows < 3 or board.cols < 3:
            msgs.append(f"config key sweep.boards[{i}]: {b!r}: a board needs both sides at least 3")
            continue
        boards.append(board)
    starts = sweep.get("starts", "all")
    if isinstance(starts, str):
        if starts != "all":
            msgs.append(f"config key sweep.starts: {starts!r}: must be \"all\" or a list of [row, col] pairs")
    else:
        for i, pair in enumerate(starts):
            ok = isinstance(pair, list) and len(pair) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in pair
            )
            if not ok:
                msgs.append(f"config key sweep.starts[{i}]: {pair!r}: must be a 1-based [row, col] pair")
                continue
            for board in boards:
                if not (1 <= pair[0] <= board.rows and 1 <= pair[1] <= board.cols):
                    msgs.append(f"config key sweep.starts[{i}]: {pair!r}: off the {board.name} board")
    orders = sweep.get("orders", "all")
    if isinstance(orders, str):
        if orders != "all":
            msgs.append(f"config key sweep.orders: {orders!r}: must be \"all\" or a list of order strings")
    else:
        if not orders:
            msgs.append("config key sweep.orders: []: give \"all\" or at least one order")
        for i, o in enumerate(orders):
            try:
                parse_order(str(o))
            except ValueError:
                msgs.append(f"config key sweep.orders[{i}]: {o!r}: not a permutation of 12345678")
    dask = config.get("dask") or {}
    workers = dask.get("workers", "auto")
    if isinstance(workers, bool) or not (workers == "auto" or (isinstance(workers, int) and workers >= 1)):
        msgs.append(f"config key dask.workers: {workers!r}: must be \"auto\" or an integer of at least 1")
    return msgs


def check(config: dict, schema_path: str | Path) -> None:
    """Raise :class:`ConfigError` listing every problem of ``config``; return if none."""
    msgs = schema_errors(config, schema_path)
    if not msgs:
        msgs = meaning_errors(config)
    if msgs:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(msgs))
