"""Work of the claims' scans (knight.claims.scan), as one process prints it.

Usage::

    python benchmarks/bench_scans.py [--to 300] [--every-to 600]

Two pieces of ``config/claims.yaml``'s Roth scans, from (1, 1): the first failures of
``roth`` under all 40,320 residual orders on every N x N board, N = 5 .. ``--to`` (the
``roth-residual`` scan: the tie tree over the orders still completing), and the
every-board tally of the two orders that first fail at 428 (``roth-428``: the pair
kernel), N = 5 .. ``--every-to``. Printed: CPU seconds, knight steps and a digest of
the rows of each. To compare two versions of the code, run it as whole processes in
turn, the other version first on ``PYTHONPATH`` (e.g. a ``git worktree`` of an earlier
commit); equal digests mean equal rows.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from knight.claims.scan import failures_every_board, first_failures
from knight.core.board import Board
from knight.core.orders import rank


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--to", type=int, default=300, help="last board of the first-failure scan (default 300)")
    p.add_argument("--every-to", type=int, default=600, help="last board of the every-board tally (default 600)")
    args = p.parse_args(argv)
    t0 = time.process_time()
    rows = first_failures("roth", [Board(n, n) for n in range(5, args.to + 1)], np.arange(40320))
    t1 = time.process_time()
    pair = [rank("34152768"), rank("65847231")]
    every = failures_every_board("roth", [Board(n, n) for n in range(5, args.every_to + 1)], pair)
    t2 = time.process_time()
    digest = hashlib.blake2b(digest_size=8)
    for key in ("order", "first_rows", "first_cols", "visited", "boards"):
        digest.update(np.ascontiguousarray(rows[key]).data)
    print(
        f"roth first failures, 40,320 orders, N = 5..{args.to}: {t1 - t0:.1f} s CPU, "
        f"{int(rows['steps'][0]):,} knight steps, rows {digest.hexdigest()}"
    )
    print(
        f"roth every board, 34152768 and 65847231, N = 5..{args.every_to}: {t2 - t1:.1f} s CPU, "
        f"{int(every['steps'][0]):,} knight steps, failures {every['failures'].tolist()} "
        f"(first on {every['first_rows'].tolist()})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
