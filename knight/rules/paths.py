"""The files the rules stage's workflow jobs write, by name (as :mod:`knight.sweep.paths`)."""

PATHS = {
    "rules_folder": "results/rules/{kind}/study={study}/rule={rule}",
    "rules_runs_part": "results/rules/runs/study={study}/rule={rule}/part-{chunk}.parquet",
    "rules_times_part": "results/rules/times/study={study}/rule={rule}/part-{chunk}.parquet",
    "rules_manifest": "results/rules/runs/study={study}/rule={rule}/_manifest.json",
    "rules_chunk.log": "results/logs/rules/{study}/{rule}/part-{chunk}.log",
    "rules_manifest.log": "results/logs/rules/{study}/{rule}/manifest.log",
    "rules_tables": "results/rules/tables/{name}.{ext}",
    "rules_tables.log": "results/logs/rules/tables.log",
    "rules_figures": "results/rules/figures/{name}.{ext}",
    "rules_figures.log": "results/logs/rules/figures.log",
}
