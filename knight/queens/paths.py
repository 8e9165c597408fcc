"""The files the queens stage's workflow jobs write, by name (as :mod:`knight.sweep.paths`)."""

PATHS = {
    "queens_timings": "results/queens/timings.{ext}",
    "queens_timings.log": "results/logs/queens/timings.log",
    "queens_speedup": "results/queens/speedup.{ext}",
    "queens_speedup.log": "results/logs/queens/speedup.log",
    "queens_sets": "results/queens/{name}.{ext}",
    "queens_sets.log": "results/logs/queens/sets.log",
    "frontier_unit": "results/queens/frontier/{search}/unit-{unit}.json",
    "queens_unit.log": "results/logs/queens/{search}/unit-{unit}.log",
    "queens_frontier": "results/queens/frontier/{search}.{ext}",
    "queens_frontier.log": "results/logs/queens/{search}/merge.log",
}
