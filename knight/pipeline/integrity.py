"""The workflow's start-up check: every stored result against the seal its writer recorded.

Run once per workflow run, before Snakemake builds its plan of jobs (``common.smk``).
Under ``results/`` it finds, with one line each:

- a file whose bytes (size, SHA-256) or place differ from its seal, or whose seal is
  damaged: it was changed after its writer wrote it;
- a file some Snakemake rule makes (``is_output``) that has no seal: written before seals
  existed, or by a job that never finished;
- a file that another plan made: its seal's ``made_by`` (the job's rule, results version
  and parameters) differs from what the current plan's job for that path would have
  (``made_by_plan``), e.g. a part copied from a run with other orders, or written by
  code of another results version;
- a file at a path some rule makes whose seal names no workflow job: ``made_by`` absent
  or ``{"by": WRITER}``, e.g. ``knight sweep --out results/runs`` or the Python API
  writing into the workflow's folders (the workflow trusts only what its jobs made);
- a seal whose file is gone (deleted by hand, or by Snakemake after its job failed);
- every result made from one of the above, or from an input that has been remade
  since (its seal's ``from`` lists what its job read, with their checksums).

A real run removes them (the seal with each file), so Snakemake remakes them and what
is made from them, exactly as a clean run would: a damaged or foreign file never leads
to "Nothing to be done". A run that only plans (``-n``, ``--summary``, ``--lint``,
``--report``, ``--list-*``) only names them: it changes nothing on disk. Files are
hashed in parallel threads (hashlib releases the GIL).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from knight.core import seal

#: ``made_by_plan(made_by, path)``: why the file at ``path``, made by the job its seal
#: records, is not what the current plan makes there (a short phrase), or None.
MadeByPlan = Callable[[dict, str], "str | None"]


@dataclass
class Findings:
    """What the check found: file -> why it cannot be trusted, in four groups."""

    damaged: dict[str, str] = field(default_factory=dict)  # changed, damaged seal, or no seal
    foreign: dict[str, str] = field(default_factory=dict)  # made by another plan
    missing: dict[str, str] = field(default_factory=dict)  # a seal without its file
    derived: dict[str, str] = field(default_factory=dict)  # made from one of the above
    removed: bool = False  # whether the files were removed (a real run) or only named
    checked: int = 0  # sealed files whose bytes were checked
    bytes: int = 0

    @property
    def untrusted(self) -> list[str]:
        """Every file found, damaged, foreign or derived (the missing have no file)."""
        return sorted({*self.damaged, *self.foreign, *self.derived})

    def lines(self) -> list[str]:
        """One line per damaged, foreign or missing file, then one per folder of the
        results made from them, naming each file."""
        then = "removed, the workflow remakes it" if self.removed else "its job would rerun (not removed: no run)"
        out = [f"{p}: {why}; {then}" for p, why in sorted(self.damaged.items())]
        out += [f"{p}: {why}; {then}" for p, why in sorted(self.foreign.items())]
        out += [f"{p}: {why}; the results made from it are remade" for p, why in sorted(self.missing.items())]
        by_folder: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self.derived):
            by_folder[os.path.dirname(path)].append(os.path.basename(path))
        verb = "removed" if self.removed else "would be remade"
        for folder, names in by_folder.items():
            out.append(f"{folder}/: {', '.join(names)}: made from a file above, {verb}")
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
    root: str = "results",
    *,
    is_output: Callable[[str], bool] = lambda path: False,
    made_by_plan: MadeByPlan | None = None,
    remove: bool = True,
    workers: int | None = None,
) -> Findings:
    """Check every sealed file under ``root`` against its seal and against the current
    plan (``made_by_plan``), and every file ``is_output`` accepts for a seal; with
    ``remove``, remove what cannot be trusted and what was made from it (see the module
    docstring). Paths are as found under ``root`` (relative to the working folder when
    ``root`` is, as the workflow's inputs are)."""
    found = Findings(removed=remove)
    if not os.path.isdir(root):
        return found
    seals, files = _walk(root)
    present = set(files)
    sealed = [p for p in files if p in seals]
    with ThreadPoolExecutor(max_workers=workers or min(8, os.cpu_count() or 1)) as pool:
        results = dict(zip(sealed, pool.map(_check_one, sealed)))
    good = {}
    for path, (record, why) in results.items():
        if why is not None:
            found.damaged[path] = why
            continue
        found.checked += 1
        found.bytes += record["bytes"]
        other = _foreign(record.get("made_by"), path, is_output, made_by_plan) if made_by_plan else None
        if other is not None:
            found.foreign[path] = other
        else:
            good[path] = record
    for path in files:
        if path not in seals and is_output(path):
            found.damaged[path] = "no seal (written before seals, or by a job that did not finish)"
    for path in seals:
        if path not in present:
            found.missing[path] = "missing, though its writer sealed it (deleted, or its job failed)"
    _follow(found, good, root)
    if remove:
        reasons = {**found.derived, **found.missing, **found.foreign, **found.damaged}
        remove_files(reasons)
    return found


class CannotRemoveError(RuntimeError):
    """A file the workflow must remake cannot be removed (an immutable file, a folder or
    disk mounted read-only): one line naming the file, why it goes and what to do."""


def remove_files(reasons: dict[str, str]) -> None:
    """Remove each file of ``reasons`` (path -> why it must be remade) with its seal, as
    many as can be; :class:`CannotRemoveError` naming the first that cannot (and how many
    more) afterwards. Snakemake would otherwise trust the file, or stop with a traceback."""
    failed = []
    for path, why in reasons.items():
        try:
            seal.remove(path)
        except OSError as exc:
            failed.append((path, why, exc))
    if failed:
        path, why, exc = failed[0]
        more = f" (and {len(failed) - 1} more file(s))" if len(failed) > 1 else ""
        raise CannotRemoveError(
            f"{path}{more}: must be remade ({why}) but cannot be removed ({exc.strerror or exc}): "
            "make it writable (chattr -i, chmod u+w on its folder, or a read-write mount) "
            "or remove it yourself, then run the same command again"
        )


def _foreign(made_by, path: str, is_output: Callable[[str], bool], made_by_plan: MadeByPlan) -> str | None:
    """Why a sealed file is not what the current plan makes there, or None."""
    if isinstance(made_by, dict) and "rule" in made_by:
        return made_by_plan(made_by, path)
    if not is_output(path):
        return None  # no workflow job makes this path: nothing of the plan reads it
    if isinstance(made_by, dict) and made_by.get("by"):
        return f"made by {made_by['by']}, not by a job of this workflow"
    return "its seal names no maker (written outside this workflow, or by an older version)"


def _follow(found: Findings, good: dict[str, dict], root: str) -> None:
    """Move to ``found.derived`` every good file made from an untrusted, missing or remade input."""
    gone = set(found.damaged) | set(found.foreign) | set(found.missing)
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
