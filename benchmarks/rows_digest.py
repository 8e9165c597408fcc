"""Digests of the rows the walk engine computes, today's and at a git ref, in one process.

For each rule whose ties a tie order breaks (fixed, pohl, roth, corner): every start x
every order of the test boards (5 x 5 to 10 x 10, 3 x 7, 4 x 5, 5 x 6, 6 x 8), by the tie
tree and by brute force (``knight.engine.rows.orbit_rows``, one orbit at a time: the
two engines' digests are equal, their knight steps are printed apart). For
every rule: the rule kernel's outcomes (``knight.engine.walk.outcomes``) of every start
of those boards, trials 0..2 under two seeds (random-order: 3 attempts at most), and one
run from (1, 1) on a few large boards (squirrel-cull's in tiles too); the paths of
``knight.tour`` from (1, 1). Each digest is the SHA-256 of every column (name, dtype,
bytes), first 16 hex digits::

    python benchmarks/rows_digest.py                      # today's only
    python benchmarks/rows_digest.py --before 3881b74     # and at 3881b74, compared
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from knight.engine.rule_registry import names
from knight.engine.rule_registry import rule as registry_rule

BOARDS = ["5", "6", "7", "8", "9", "10", "3x7", "4x5", "5x6", "6x8"]
#: Today's rules, digested under both packages (an older one must run them all).
ORDER_RULES = names(takes_orders=True)
RULES = names()
LARGE = {"fixed": [301], "roth": [2001], "pohl": [301], "corner": [301], "squirrel-cull": [1001, 4100]}


def _digest(parts) -> str:
    h = hashlib.sha256()
    for part in parts:
        for name in sorted(part):
            a = np.ascontiguousarray(part[name])
            h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
            h.update(a.tobytes())
    return h.hexdigest()[:16]


def digests(pkg, boards: list[str], engines=("tree", "brute")) -> dict[str, str]:
    """Name -> digest for the package ``pkg`` (``knight`` or a materialised one)."""
    import importlib

    from versions import found_in

    core = importlib.import_module(f"{pkg}.core.board")
    sweep_spec = found_in(pkg, "SweepSpec", "sweep.spec", "engine.sweep")
    orbit_rows = found_in(pkg, "orbit_rows", "engine.rows", "engine.sweep")
    walk = importlib.import_module(f"{pkg}.engine.walk")
    tour = importlib.import_module(f"{pkg}.warnsdorff").tour
    out = {}
    for engine in engines:
        for rule in ORDER_RULES:
            parts = []
            for name in boards:
                spec = sweep_spec(core.parse_board(name))
                for orbit in spec.orbits():
                    parts.append(orbit_rows(spec.board, orbit, spec.ranks, engine, rule))
            steps = sum(int(p.pop("steps")[0]) for p in parts)
            out[f"sweep {engine} {rule}"] = _digest(parts)  # the same for both engines
            out[f"sweep {engine} {rule} steps"] = f"{steps:,}"
    for rule in RULES:
        parts = []
        for name in boards:
            board = core.parse_board(name)
            switched = registry_rule(rule).switches_orders  # square boards of side 5 or more, from (1, 1)
            if switched and (board.rows != board.cols or board.rows < 5):
                continue
            starts = [0] if switched else np.arange(board.size)
            for seed in (0, 7):
                parts.append(walk.outcomes(board, rule, starts, 3, order="31245678", seed=seed, retries=3))
        for side in LARGE.get(rule, [501]):
            parts.append(walk.outcomes(core.Board(side, side), rule, [0], 1, seed=1, retries=3))
        out[f"walk {rule}"] = _digest(parts)
    paths = []
    for rule in RULES:
        for n in (8, 31, 74):
            t = tour(n, rule=rule, order="76812345", seed=3, trial=1, retries=4)
            order = np.frombuffer((t.order or "-").encode(), np.uint8)
            paths.append(
                {"path": t.path, "ties": np.array([t.ties]), "attempts": np.array([t.attempts]), "order": order}
            )
    out["tour paths"] = _digest(paths)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", metavar="REF", help="also the package at this git ref, compared")
    ap.add_argument("--boards", default=",".join(BOARDS), help="boards of the sweeps and the rule kernel")
    ap.add_argument("--engines", default="tree,brute", help="sweep engines")
    args = ap.parse_args()
    boards = args.boards.split(",")
    engines = args.engines.split(",")
    pkgs = {"today": "knight"}
    if args.before:
        from versions import package

        pkgs = {"before": package(args.before).__name__, **pkgs}
    res = {}
    for label, pkg in pkgs.items():
        t0 = time.perf_counter()
        res[label] = digests(pkg, boards, engines)
        print(f"# {label} ({pkg}): {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"boards {', '.join(boards)}\n")
    print("| rows | " + " | ".join(res) + (" | equal |" if len(res) > 1 else ""))
    print("|---|" + "---|" * (len(res) + (len(res) > 1)))
    for key in res["today"]:
        vals = [r[key] for r in res.values()]
        same = f" | {len(set(vals)) == 1}" if len(vals) > 1 else ""
        print(f"| {key} | " + " | ".join(vals) + same + " |")
    if len(res) > 1 and res["before"] != res["today"]:
        raise SystemExit("rows differ")


if __name__ == "__main__":
    main()
