"""Another version of one of the package's modules, imported from a file, to time against
this one (``--before FILE`` of the bench scripts; e.g. ``git show REV:knight/engine/walk.py
> /tmp/kernel_before.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def load(path: str, name: str | None = None):
    """The file ``path`` imported as module ``name`` (default: the file's name without
    ``.py``), registered in ``sys.modules``: numba's on-disk cache finds a kernel's module
    by that name."""
    spec = importlib.util.spec_from_file_location(name or Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
