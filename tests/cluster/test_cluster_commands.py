"""The cluster commands work as printed on a small Slurm (issue 16, point 6).

- A job that no node can run stops the run before any submission, naming its
  Snakemake rule (it used to fail at sbatch ten minutes in, hidden by keep-going).
- A partition Slurm does not have stops the run at start, named.
- The Dask launch of docs/cluster.md for one node runs as printed there.

Plus the parsing of sinfo's answer (knight.pipeline.slurm), which needs no Slurm.
"""

import re
import subprocess
import time

import pytest
from slurmkit import REPO, env, run, snakemake_cmd, tail, write_config

from knight.pipeline import slurm as limits

SMALL = {"sweep": {"boards": [5], "orders": ["12345678"]}, "queens": {"sets": {"dominate": [[4, 2]], "place": [4]}}}
COUNTS = "results/queens/counts.parquet"


def test_an_impossible_request_stops_before_any_submission(slurm, tmp_path):
    write_config(tmp_path / "cfg.yaml", SMALL)
    log = tmp_path / "snakemake.log"
    cmd = snakemake_cmd(tmp_path, tmp_path / "cfg.yaml", [COUNTS], "--set-resources", "queens_sets:mem_mb=100000000")
    t0 = time.monotonic()
    res = run(cmd, log, timeout=300)
    seconds = time.monotonic() - t0
    text = log.read_text()
    assert res.returncode != 0, tail(log)
    assert "jobs no Slurm node can run" in text, tail(log)
    assert re.search(r"rule queens_sets: 1 CPU\(s\) and 100000000 MB: no node of partition \S+ has that much", text)
    assert "has been submitted" not in text and "SLURM jobid" not in text
    assert not (tmp_path / COUNTS).exists()
    assert seconds < 120


def test_an_unknown_partition_stops_at_start(slurm, tmp_path):
    write_config(tmp_path / "cfg.yaml", SMALL)
    log = tmp_path / "snakemake.log"
    cmd = snakemake_cmd(tmp_path, tmp_path / "cfg.yaml", [COUNTS], "--default-resources", "slurm_partition=nowhere")
    res = run(cmd, log, timeout=300)
    text = log.read_text()
    assert res.returncode != 0, tail(log)
    assert "slurm_partition 'nowhere': Slurm has no such partition" in text, tail(log)
    assert "SLURM jobid" not in text and not (tmp_path / "results").exists()


def docs_block(after: str) -> str:
    """The first bash block of docs/cluster.md after the text ``after``."""
    doc = (REPO / "docs" / "cluster.md").read_text()
    rest = doc[doc.index(after) :]
    return rest.split("```bash\n", 1)[1].split("```", 1)[0]


def test_the_docs_dask_example_for_one_node_runs_as_printed(slurm, tmp_path):
    block = docs_block("On one node a Dask cluster")
    assert "sbatch" in block and "dask-cluster.sbatch" in block and "sweep_stage" in block
    # The commands run from a project folder: the repository's files, linked, and a fresh results/.
    for name in ("Snakefile", "workflow", "config", "knight"):
        (tmp_path / name).symlink_to(REPO / name)
    log = tmp_path / "commands.log"
    with open(log, "w") as out:
        proc = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block],
            cwd=tmp_path,
            env=env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=1500,
        )
    subprocess.run(["scancel", "--name", "knight-dask"], check=False)
    assert proc.returncode == 0, tail(log)
    text = log.read_text()
    assert "Submitted batch job" in text
    assert (tmp_path / "results/tables/completion.parquet").exists()
    sweep_logs = list((tmp_path / "results/logs/sweep").rglob("part-*.log"))  # the chunks' own logs
    assert sweep_logs and all("compute on" in p.read_text() for p in sweep_logs)  # on the Dask cluster


SINFO = """main*|2|21694|infinite
big|64|512000|2-00:00:00
big|32|256000|2-00:00:00
short|8|16000|30:00
"""


def test_sinfo_answer_is_read():
    parts = limits.parse_sinfo(SINFO)
    assert sorted(parts) == ["big", "main", "short"]
    assert parts["main"].default and not parts["big"].default
    assert (parts["big"].cpus, parts["big"].mem_mb, parts["big"].minutes) == (64, 512000, 2880)
    assert parts["short"].minutes == 30 and parts["main"].minutes is None
    assert parts["big"].refusal(48, 300000, 60) is None  # the 64-CPU node takes it
    assert "no node of partition big" in parts["big"].refusal(48, 600000, 60)
    assert "no node of partition main" in parts["main"].refusal(8, 1000, 10)
    assert "longer than partition short's limit of 30 min" in parts["short"].refusal(1, 100, 31)


@pytest.mark.parametrize(
    "text, minutes",
    [("infinite", None), ("UNLIMITED", None), ("30", 30), ("30:01", 31), ("4:00:00", 240), ("1-12", 2160)]
    + [("1-12:30", 2190), ("2-00:00:00", 2880), ("0:00:30", 1)],
)
def test_slurm_time_limits(text, minutes):
    assert limits.parse_minutes(text) == minutes


def test_only_runs_that_submit_learn_the_limits():
    class Settings:
        def __init__(self, cores, nodes):
            self.cores, self.nodes = cores, nodes

    assert limits.submits_to_slurm(Settings(None, 100))  # --workflow-profile ... (executor slurm)
    assert not limits.submits_to_slurm(Settings(2, None))  # --cores 2
    assert not limits.submits_to_slurm(Settings(1, 100))  # a dry run with the profile
