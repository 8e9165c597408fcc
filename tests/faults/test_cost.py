"""Cost before work: the API and the command estimate the CPU time and the memory of a
request before they work or allocate, and refuse one that cannot finish or fit in one
line giving the estimate and the limit; the memory estimates are upper bounds of what a
run takes, the CPU estimates lower bounds of what it costs."""

import json
import subprocess
import sys
import time

import pytest
from conftest import memory_limit

import knight
from knight.core.board import Board
from knight.rules.driver import run_bytes
from knight.runtime.memory import MemoryNeedError
from knight.sweep.spec import sweep_bytes
from knight.warnsdorff import tour_bytes

KNIGHT = [sys.executable, "-m", "knight.cli"]
REFUSED = (
    r"needs about [\d.]+ [GT]iB of memory; [\d.]+ [KMGT]?i?B "
    r"(available|left under the address-space limit \(ulimit -v\)): choose a smaller request$"
)


@pytest.mark.parametrize(
    "request_, what",
    [
        (lambda: knight.tour(46000), r"tour of 46000x46000 \(fixed\)"),
        (lambda: knight.tour(46000, rule="roth"), r"tour of 46000x46000 \(roth\)"),
        (
            lambda: knight.sweep.run(10**4, orders=["12345678"], max_cpu_hours=float("inf")),
            r"sweep of 10000x10000 \(100,000,000 runs\)",
        ),
        (
            lambda: knight.rules.run(40000, "roth", starts="all"),
            r"rules run of roth on 40000x40000 \(1,600,000,000 runs\)",
        ),
    ],
)
def test_a_request_that_cannot_fit_is_refused_before_it_allocates(request_, what):
    t0 = time.perf_counter()
    with pytest.raises(MemoryNeedError, match=f"^{what} {REFUSED}"):
        request_()
    assert time.perf_counter() - t0 < 5  # refused, not started


def test_the_command_refuses_it_in_one_line():
    done = subprocess.run(
        [*KNIGHT, "sweep", "10000", "--orders", "12345678", "--max-cpu-hours", "inf"], capture_output=True, text=True
    )
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("knight sweep: error: sweep of 10000x10000 (100,000,000 runs) needs about ")


SLOW_SWEEP = (
    "sweep of 1000x1000 (40,320,000,000 runs, tree engine) needs at least an estimated 3,360 CPU-hours, "
    "more than the limit of 1,000: choose a smaller sweep or raise the limit"
)


def test_a_sweep_that_could_not_finish_is_refused_alike_by_the_api_and_the_command():
    """The API keeps every row, the command streams them to disk: memory tells them
    apart, the CPU time does not, and it is checked first, so both refuse 1000 x 1000
    in the same line, each naming its own knob."""
    t0 = time.perf_counter()
    with pytest.raises(ValueError) as refused:
        knight.sweep.run(1000)
    assert str(refused.value) == f"max_cpu_hours: {SLOW_SWEEP}"
    done = subprocess.run([*KNIGHT, "sweep", "1000"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"knight sweep: error: --max-cpu-hours: {SLOW_SWEEP}"]
    assert time.perf_counter() - t0 < 30  # refused, not started


@pytest.mark.parametrize("limit", [0, -1, float("nan"), "10", True])
def test_a_cpu_limit_must_be_a_number_above_zero(limit):
    with pytest.raises(ValueError, match=rf"^max_cpu_hours: {limit!r}: must be a number above 0$"):
        knight.sweep.run(5, orders=["12345678"], max_cpu_hours=limit)


def test_an_address_space_limit_counts_as_what_is_available():
    done = subprocess.run(
        [*KNIGHT, "tour", "12000"], capture_output=True, text=True, preexec_fn=memory_limit(3 * 2**30), timeout=120
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("knight tour: error: tour of 12000x12000 (fixed) needs about 5.5 GiB")
    assert line.endswith("left under the address-space limit (ulimit -v): choose a smaller request")


#: Peak memory of one request beyond the interpreter's, in a process of its own: the
#: resident high-water mark (VmHWM) is reset after the kernels are compiled (Linux's
#: clear_refs), so the peak is the request's, not compiling's.
PEAK = """
import json, sys
import knight
from knight.core.board import Board

def status(key):
    line = next(l for l in open("/proc/self/status") if l.startswith(key + ":"))
    return int(line.split()[1]) * 1024

# Compiled first (every kernel these use), so that compiling is not measured.
knight.tour(8, rule="roth"); knight.sweep.run("3x4"); knight.sweep.run(5, orders=["12345678"])
knight.rules.run(8, "roth", progress=False)
base = status("VmRSS")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
what = sys.argv[1]
if what == "tour":
    knight.tour(3000)
elif what == "tour-roth":
    knight.tour(3000, rule="roth")
elif what == "sweep":
    knight.sweep.run(7)
elif what == "sweep-board":
    knight.sweep.run(400, starts=[(1, 1)], orders=["12345678"])
else:
    knight.rules.run(2000, "roth", starts=[(1, 1), (5, 5)], trials=1)
print(json.dumps(status("VmHWM") - base))
"""


@pytest.mark.slow  # five runs of up to 9 million squares or 2 million rows
@pytest.mark.parametrize(
    "what, estimate",
    [
        ("tour", lambda: tour_bytes(Board(3000, 3000))),
        ("tour-roth", lambda: tour_bytes(Board(3000, 3000), "roth")),
        ("sweep", lambda: sweep_bytes(Board(7, 7), 49, 40320)),
        ("sweep-board", lambda: sweep_bytes(Board(400, 400), 1, 1)),
        ("rules", lambda: run_bytes(Board(2000, 2000), "roth", 2, 1)),
    ],
)
def test_the_estimates_are_upper_bounds(what, estimate):
    done = subprocess.run([sys.executable, "-c", PEAK, what], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    peak = json.loads(done.stdout)
    assert peak <= estimate() <= 4 * peak + 2**24, (peak, estimate())
