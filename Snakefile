# Chessboard combinatorics pipeline. Run: snakemake --cores all
# Config: config/config.yaml (checked against knight/pipeline/schemas/config.schema.yaml).
import logging
import os
import sys

from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version

min_version("9.0")

# The workflow runs its own library (knight/ beside this file), here and in every job,
# whatever else is installed: the plan and the jobs are the same code.
# Jobs also load workflow/site/sitecustomize.py: Ctrl-C while a job starts is one line.
sys.path.insert(0, workflow.basedir)
_JOB_PATH = [os.path.join(workflow.basedir, "workflow", "site"), workflow.basedir]
_JOB_PATH += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in _JOB_PATH]
os.environ.update(PYTHONPATH=os.pathsep.join(_JOB_PATH))

from knight.pipeline.config import check_config_file
from knight.pipeline.locks import check_room
from knight.runtime.faults import describe as describe_fault
from knight.runtime.logs import one_line_interrupts, short_console_lines, sigterm_as_interrupt

# A Ctrl-C as Snakemake itself exits (waiting for its threads) is one line, not Python's
# "Exception ignored ... KeyboardInterrupt" traceback.
one_line_interrupts("snakemake")
# A job's input and reason lists are cut on the console (its log file keeps them whole).
short_console_lines()

# A YAML error, or a key given twice, in the default config or a --configfile file stops
# the run naming its file and line: Snakemake's own message names neither, and its loader
# keeps the last of two keys. The --configfile files were read by Snakemake before this
# file (a syntax error there is Snakemake's to report); each is read again here.
for _path in [os.path.join(workflow.basedir, "config", "config.yaml"), *workflow.overwrite_configfiles]:
    check_config_file(_path)

# A disk already full (or a folder that cannot be written) stops a run in one line, before
# Snakemake's own files need the room. Snakemake's log file is on that disk too: Python's
# logging would print a traceback for each of its lines, so it stays quiet.
if workflow.is_main_process and not workflow.output_settings.dryrun:
    try:
        check_room()
    except OSError as exc:
        logging.raiseExceptions = False
        raise WorkflowError(
            f"{describe_fault(exc) or exc}: free space there (or run in another folder), then run the same command again"
        ) from None


configfile: os.path.join(workflow.basedir, "config", "config.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/sweep.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/queens.smk"
include: "workflow/rules/exact.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/rules.smk"
include: "workflow/rules/census.smk"
include: "workflow/rules/claims.smk"


rule all:
    default_target: True
    input:
        PLAN.targets(),


if workflow.is_main_process:
    check_interpreter_path()
    check_requested_targets()
    check_dask_scheduler()
    take_over_a_dead_runs_lock()
    check_stored_results()


onstart:
    check_slurm_jobs()
    remove_stale_parts()
    sigterm_as_interrupt()


onsuccess:
    for line in PLAN.ending():
        print(line, file=sys.stderr)
