"""The files the exact stage's workflow jobs write, by name (as :mod:`knight.sweep.paths`)."""

PATHS = {
    "exact_backtrack_board": "results/exact/backtrack/{board}-{tour}.parquet",
    "exact_backtrack_board.log": "results/logs/exact/backtrack_{board}-{tour}.log",
    "exact_backtrack_tables": "results/exact/backtrack_{name}.{ext}",
    "exact_backtrack_tables.log": "results/logs/exact/backtrack_tables.log",
    "exact_construct": "results/exact/construct.{ext}",
    "exact_construct.log": "results/logs/exact/construct.log",
    "exact_tour": "results/exact/tours/{board}.parquet",
    "exact_tour.log": "results/logs/exact/tour_{board}.log",
}
