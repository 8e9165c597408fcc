"""Loaded by every Python process the workflow's jobs start (the Snakefile puts this folder
first on their PYTHONPATH): a Ctrl-C that lands while a job's script is still starting
(Snakemake's preamble, heavy imports) ends the job with one line instead of a traceback.
Once the script runs, :func:`knight.runtime.logs.script_logging` takes over (one line in
the job's log). It also spares every job the interpreter's last garbage collections at
exit (below). Any other ``sitecustomize`` further down the path is run as well."""

import atexit
import gc
import importlib.machinery
import importlib.util
import os
import sys


def _interrupted(kind, value):
    """A Ctrl-C, also one wrapped by the import it landed in (knight.runtime.logs.interrupted)."""
    try:
        from knight.runtime.logs import interrupted
    except Exception:  # knight itself not importable: only the plain case
        return issubclass(kind, KeyboardInterrupt)
    return interrupted(value)


def _said_interrupted(kind, value):
    """Write the job's one line and return True if ``value`` is a Ctrl-C."""
    if not _interrupted(kind, value):
        return False
    name = os.path.basename(sys.argv[0] or "python")  # Snakemake's copy: tmpXXXXXXXX.SCRIPT.py
    sys.stderr.write(f"{name.split('.', 1)[-1] if name.startswith('tmp') else name}: interrupted (Ctrl-C)\n")
    return True


def _excepthook(kind, value, tb, _previous=sys.excepthook):
    if not _said_interrupted(kind, value):
        _previous(kind, value, tb)


def _unraisablehook(unraisable, _previous=sys.unraisablehook):
    """A Ctrl-C while the interpreter waits for its threads at exit (threading._shutdown)."""
    if not _said_interrupted(unraisable.exc_type, unraisable.exc_value):
        _previous(unraisable)


sys.excepthook = _excepthook
sys.unraisablehook = _unraisablehook
# Registered first, so it runs after every other exit handler (Dask's, logging's): the
# objects a job leaves (numba's kernels, Dask, Arrow) move out of the collector's sight,
# and the interpreter's collections at exit, which would walk them all, have little left
# to do. A job closes what it writes before its script ends.
atexit.register(gc.freeze)

_here = os.path.dirname(os.path.abspath(__file__))
for _entry in sys.path:
    if os.path.abspath(_entry or os.curdir) == _here:
        continue
    _spec = importlib.machinery.PathFinder.find_spec("sitecustomize", [_entry or os.curdir])
    if _spec is not None and _spec.loader is not None:
        _spec.loader.exec_module(importlib.util.module_from_spec(_spec))
        break
