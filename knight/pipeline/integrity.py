"""The workflow's start-up check: every stored result against the seal its writer recorded.

Run once per workflow run, before Snakemake builds its plan of jobs (``common.smk``).
Under ``results/`` it removes, with one line each:

- a file whose bytes (size, SHA-256) or place differ from its seal, or whose seal is
  damaged: it was changed after its writer wrote it;
- a file some Snakemake rule makes (``is_output``) that has no seal: written before seals
  existed, or by a job that never finished;
- a seal whose file is gone (deleted by hand, or by Snakemake after its job failed):
  the seal only;
- every result made from one of the above, or from an input that has been remade
  since (its seal's ``from`` lists what its job read, with their checksums).

Snakemake then remakes what is missing, and what was made from it, exactly as after a
clean run: a damaged file never leads to "Nothing to be done". Files are hashed in
parallel threads (hashlib releases the GIL).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from knight.core import seal


@dataclass
class Findings:
    """What the check found: file -> why it cannot be trusted, in three groups."""

    damaged: dict[str, str] = field(default_factory=dict)  # changed, damaged seal, or no seal
    missing: dict[str, str] = field(default_factory=dict)  # a seal without its file
    derived: dict[str, str] = field(default_factory=dict)  # made from one of the above
    checked: int = 0  # sealed files whose bytes were checked
    bytes: int = 0

    def lines(self, limit: int = 10) -> list[str]:
        """One line per damaged or missing file; derived results summed up."""
        out = [f"{p}: {why}; removed, the workflow remakes it" for p, why in sorted(self.damaged.items())]
        out += [f"{p}: {why}; the results made from it are remade" for p, why in sorted(self.missing.items())]
        if self.derived:
            names = sorted(self.derived)
            shown = ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "")
            out.append(f"removed {len(names)} result(s) made from the files above, the workflow remakes them: {shown}")
        return out


def _walk(root: str) -> tuple[dict[str, str], list[str]]:
    """Seals (file -> seal path) and plain files under ``root`` (hidden files left out)."""
    seals, files = {}, []
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if seal.is_seal(name):
                seals[os.path.normpath(str(seal.sealed_file(path)))] = path
            elif not name.startswith("."):
                files.append(os.path.normpath(path))
    return seals, files


def _check_one(path: str) -> tuple[dict | None, str | None]:
    """(seal, why it does not match or None)."""
    try:
        found = seal.read_seal(path)
    except seal.SealError as exc:
        return None, str(exc).split(": ", 1)[1]
    return found, seal.mismatch(path, found)


def check_results(
    root: str = "results", *, is_output: Callable[[str], bool] = lambda path: False, workers: int | None = None
) -> Findings:
    """Check every sealed file under ``root`` against its seal, and every file ``is_output``
    accepts for a seal; remove what cannot be trusted and what was made from it (see the
    module docstring). Paths are as found under ``root`` (relative to the working folder
    when ``root`` is, as the workflow's inputs are)."""
    found = Findings()
    if not os.path.isdir(root):
        return found
    seals, files = _walk(root)
    present = set(files)
    sealed = [p for p in files if p in seals]
    with ThreadPoolExecutor(max_workers=workers or min(8, os.cpu_count() or 1)) as pool:
        results = dict(zip(sealed, pool.map(_check_one, sealed)))
    good = {}
    for path, (record, why) in results.items():
        if why is None:
            good[path] = record
            found.checked += 1
            found.bytes += record["bytes"]
        else:
            found.damaged[path] = why
    for path in files:
        if path not in seals and is_output(path):
            found.damaged[path] = "no seal (written before seals, or by a job that did not finish)"
    for path in seals:
        if path not in present:
            found.missing[path] = "missing, though its writer sealed it (deleted, or its job failed)"
    _follow(found, good, root)
    for path in [*found.damaged, *found.missing, *found.derived]:
        seal.remove(path)
    return found


def _follow(found: Findings, good: dict[str, dict], root: str) -> None:
    """Move to ``found.derived`` every good file made from an untrusted, missing or remade input."""
    gone = set(found.damaged) | set(found.missing)
    prefix = os.path.normpath(root) + os.sep
    changed = True
    while changed:
        changed = False
        for path, record in list(good.items()):
            for source, sha in (record.get("from") or {}).items():
                source = os.path.normpath(source)
                why = None
                if source in gone:
                    why = f"made from {source}"
                elif sha is not None and source.startswith(prefix):
                    now = good.get(source)
                    if now is None:
                        why = f"made from {source}, which is gone"
                    elif now["sha256"] != sha:
                        why = f"made from an earlier {source}"
                if why:
                    found.derived[path] = why
                    gone.add(path)
                    del good[path]
                    changed = True
                    break
