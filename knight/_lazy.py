"""Lazy public names of a package (PEP 562): imported on first use, so ``import knight``
stays light and a package's ``__init__`` names no module a caller does not use.

A package lists its public names in a dict literal ``_EXPORTS = {name: module}`` and
calls :func:`attach`; its submodules are reachable as attributes too.
"""

from __future__ import annotations

import importlib


def attach(package: str, exports: dict[str, str]):
    """``(__getattr__, __dir__)`` for ``package``: each name of ``exports`` comes from its
    module on first use, and ``package.sub`` imports the submodule ``sub``."""

    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if name in exports:
            value = getattr(importlib.import_module(exports[name]), name)
        else:
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(importlib.import_module(package).__dict__) | set(exports))

    return __getattr__, __dir__
