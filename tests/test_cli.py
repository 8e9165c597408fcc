"""The knight command imports only what the chosen command uses (startup time)."""

import json
import subprocess
import sys

PROBE = """
import sys
from knight.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
libraries = {{'numba', 'dask', 'distributed', 'matplotlib', 'polars', 'pyarrow', 'snakemake'}}
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & libraries)
print('\\n' + __import__('json').dumps(heavy))
"""


def loaded(argv):
    res = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, timeout=120)
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_help_imports_no_library():
    assert loaded(["--help"]) == []
    assert loaded(["tour", "--help"]) == ["numba"]  # its choices name the tie-break rules


def test_one_tour_imports_numba_only():
    assert loaded(["tour", "8"]) == ["numba"]
    assert loaded(["tour", "8", "--rule", "pohl"]) == ["numba"]
