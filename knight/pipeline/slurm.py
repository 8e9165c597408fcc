"""Slurm's limits, learned once when the workflow starts: every job fits its partition.

When the workflow submits its jobs to Slurm (``snakemake --workflow-profile
workflow/profiles/slurm``), the main process asks ``sinfo`` for the nodes of the
partition (:func:`partition`): their CPUs, memory and the partition's time limit.
``workflow/rules/common.smk`` then caps every job's threads at the CPUs of the
partition's largest node (as ``--max-threads`` does, so a printed command works on a
2-CPU node and on a 128-CPU one alike), and before the first submission
:func:`impossible` lists every job that no node of its partition could ever run (more
memory than any node has, a longer time than the partition allows, an unknown
partition): the run stops at once, one line per Snakemake rule, instead of failing at
``sbatch`` hours later while ``keep-going`` hides it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache

#: ``sinfo`` output: one line per (partition, node) with CPUs, memory (MB), time limit.
_SINFO = ["sinfo", "--noheader", "--Node", "--format=%P|%c|%m|%l"]
_TIME = re.compile(r"^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$")


class SlurmError(ValueError):
    """Slurm cannot run the workflow's jobs as asked; the message names what and why."""


@dataclass(frozen=True)
class Partition:
    """A Slurm partition: ``nodes`` as (CPUs, memory in MB); ``minutes``: its time limit
    (None when unlimited); ``default``: the partition jobs go to when none is named."""

    name: str
    nodes: tuple[tuple[int, int], ...]
    minutes: int | None
    default: bool = False

    @property
    def cpus(self) -> int:
        """CPUs of the largest node: the most one job (one task on one node) can get."""
        return max(c for c, _ in self.nodes)

    @property
    def mem_mb(self) -> int:
        """Memory of the largest node, MB."""
        return max(m for _, m in self.nodes)

    def refusal(self, cpus: int, mem_mb: int | None, minutes: int | None) -> str | None:
        """Why no node of the partition can run a job of ``cpus`` CPUs, ``mem_mb`` MB and
        ``minutes`` minutes, or None when one can."""
        if self.minutes is not None and minutes is not None and minutes > self.minutes:
            return f"runtime {minutes} min is longer than partition {self.name}'s limit of {self.minutes} min"
        if not any(c >= cpus and (mem_mb is None or m >= mem_mb) for c, m in self.nodes):
            return (
                f"{cpus} CPU(s) and {mem_mb} MB: no node of partition {self.name} has that much "
                f"(its largest: {self.cpus} CPUs, {self.mem_mb} MB)"
            )
        return None


def parse_minutes(text: str) -> int | None:
    """Minutes of a Slurm time limit (``infinite``, ``30``, ``4:00:00``, ``1-12:00:00``);
    None for no limit."""
    text = text.strip()
    if text.lower() in ("infinite", "unlimited", "n/a", ""):
        return None
    m = _TIME.match(text)
    if not m:
        raise SlurmError(f"sinfo: cannot read the time limit {text!r}")
    days, a, b, c = (int(g) if g else 0 for g in m.groups())
    if m.group(1) is not None:  # days-hours[:minutes[:seconds]]
        return days * 1440 + a * 60 + b + (1 if c else 0)
    if m.group(4) is not None:  # hours:minutes:seconds
        return a * 60 + b + (1 if c else 0)
    if m.group(3) is not None:  # minutes:seconds
        return a + (1 if b else 0)
    return a  # minutes


def parse_sinfo(text: str) -> dict[str, Partition]:
    """Partitions from the output of :data:`_SINFO` (the default one marked ``*``)."""
    nodes: dict[str, list] = {}
    limits: dict[str, int | None] = {}
    default = None
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            name, cpus, mem, limit = line.split("|")
            cpus, mem = int(cpus.rstrip("+")), int(mem.rstrip("+"))
        except ValueError:
            raise SlurmError(f"sinfo: cannot read the line {line!r}") from None
        if name.endswith("*"):
            name = default = name[:-1]
        nodes.setdefault(name, []).append((cpus, mem))
        limits[name] = parse_minutes(limit)
    return {p: Partition(p, tuple(v), limits[p], p == default) for p, v in nodes.items()}


@lru_cache(maxsize=1)
def partitions() -> dict[str, Partition]:
    """Every partition this Slurm offers (asked once); :class:`SlurmError` if ``sinfo``
    cannot be run or answers with an error."""
    if shutil.which("sinfo") is None:
        raise SlurmError("the jobs go to Slurm, but there is no sinfo here (is this a Slurm login node?)")
    try:
        out = subprocess.run(_SINFO, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise SlurmError("sinfo did not answer within 60 s (is slurmctld up?)") from None
    if out.returncode != 0:
        raise SlurmError(f"sinfo failed: {(out.stderr or out.stdout).strip()}")
    found = parse_sinfo(out.stdout)
    if not found:
        raise SlurmError("sinfo lists no partition")
    return found


def partition(name: str | None = None) -> Partition:
    """The partition ``name``, or the default one (``sinfo``'s ``*``); :class:`SlurmError`
    naming it when Slurm has no such partition."""
    found = partitions()
    if name is None:
        default = [p for p in found.values() if p.default]
        if not default:
            raise SlurmError(
                "Slurm has no default partition: name one with --default-resources slurm_partition=NAME "
                f"(partitions: {', '.join(sorted(found))})"
            )
        return default[0]
    if name not in found:
        raise SlurmError(f"slurm_partition {name!r}: Slurm has no such partition (it has {', '.join(sorted(found))})")
    return found[name]


def submits_to_slurm(resource_settings) -> bool:
    """Whether this snakemake run submits its jobs to a cluster: the executor is not local,
    so ``--cores`` is unset while ``--jobs`` is set (a dry run counts 1 core: not a
    submission). The project's only cluster profile is Slurm's."""
    return resource_settings.cores is None and resource_settings.nodes is not None


def _value(resource):
    """The value of a Snakemake resource; for one given on the command line (an
    expression evaluated per job) its text, unquoted."""
    if resource is None or not hasattr(resource, "is_evaluable"):
        return getattr(resource, "value", resource)
    if resource.is_evaluable():
        return str(resource.raw).strip().strip("'\"")
    return resource.value


def default_partition_name(resource_settings) -> str | None:
    """``slurm_partition`` of ``--default-resources`` (the profile's), or None."""
    defaults = resource_settings.default_resources
    if defaults is None:
        return None
    name = _value(defaults.get("slurm_partition"))
    return str(name) if name not in (None, "") else None


def impossible(jobs) -> list[str]:
    """One line per Snakemake rule whose jobs no node of their partition can run (see
    :meth:`Partition.refusal`); ``jobs`` are Snakemake jobs (``rule.name``, ``threads``,
    ``resources``), local ones skipped."""
    lines: dict[str, str] = {}
    for job in jobs:
        if getattr(job, "is_local", False) or job.rule.name in lines:
            continue
        res = job.resources
        mem, minutes = _value(res.get("mem_mb")), _value(res.get("runtime"))
        mem = mem if isinstance(mem, int) else None
        minutes = minutes if isinstance(minutes, int) else None
        try:
            name = _value(res.get("slurm_partition"))
            why = partition(str(name) if name not in (None, "") else None).refusal(job.threads, mem, minutes)
        except SlurmError as exc:
            why = str(exc)
        if why:
            lines[job.rule.name] = f"rule {job.rule.name}: {why}"
    return sorted(lines.values())
