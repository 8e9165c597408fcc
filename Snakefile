# Chessboard combinatorics pipeline. Run: snakemake --cores all
# Config: config/config.yaml (checked against workflow/schemas/config.schema.yaml).
import os
import sys

from snakemake.utils import min_version

min_version("9.0")

# The workflow runs its own library (knight/ beside this file), here and in every job,
# whatever else is installed: the code hashes of the rules are taken from the same code.
sys.path.insert(0, workflow.basedir)
os.environ.update(PYTHONPATH=os.pathsep.join(filter(None, [workflow.basedir, os.environ.get("PYTHONPATH")])))


configfile: os.path.join(workflow.basedir, "config", "config.yaml")


# Each rules file appends the final outputs it owns to ALL_TARGETS.
ALL_TARGETS = []


include: "workflow/rules/common.smk"
include: "workflow/rules/sweep.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/queens.smk"
include: "workflow/rules/exact.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/rules.smk"
include: "workflow/rules/census.smk"


rule all:
    default_target: True
    input:
        ALL_TARGETS,


if workflow.is_main_process:
    check_dask_scheduler()
    check_existing_parts()


onstart:
    remove_stale_parts()
