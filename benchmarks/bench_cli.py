"""Start-up time of the knight command, as a new process each time (median of 7).

    python benchmarks/bench_cli.py

``knight --help`` should import no library (each command imports what it uses, when
it runs); one 8 x 8 tour pays for numpy and numba (the kernel from numba's cache) only.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

CASES = [["--help"], ["tour", "8"], ["tour", "8", "--rule", "pohl"]]


def main() -> None:
    for args in CASES:
        subprocess.run([sys.executable, "-m", "knight.cli", *args], capture_output=True, check=True)  # warm caches
        times = []
        for _ in range(7):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "knight.cli", *args], capture_output=True, check=True)
            times.append(time.perf_counter() - t0)
        print(f"knight {' '.join(args):22s} median {statistics.median(times):.3f} s (best {min(times):.3f} s)")


if __name__ == "__main__":
    main()
