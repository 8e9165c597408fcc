# exact stage: backtracking tour search from every start (seeds 001, 003) and
# divide-and-conquer closed tours (seed 004). Config: the `exact:` section
# (workflow/schemas/exact.schema.yaml). Outputs under results/exact/.
from pathlib import Path

from snakemake.utils import validate

from knight.board import parse_board
from knight.exact.construct import choose_method

validate(config.setdefault("exact", {}), str(Path(workflow.current_basedir) / "../schemas/exact.schema.yaml"))
EXACT_BT = config["exact"]["backtrack"]
EXACT_CO = config["exact"]["construct"]

# Semantic checks the schema cannot express: stop before any job runs, naming the value.
EXACT_BT_RUNS = {}  # "RxC-open" / "RxC-closed" -> (board name, closed)
for _item in EXACT_BT["boards"]:
    _b = parse_board(_item["board"])
    _tour = "closed" if _item["closed"] else "open"
    EXACT_BT_RUNS[f"{_b.name}-{_tour}"] = (_b.name, _item["closed"])
EXACT_CO_BOARDS = []
for _spec in list(EXACT_CO["boards"]) + list(EXACT_CO["tours"]):
    _b = parse_board(_spec)
    try:
        choose_method(_b)
    except ValueError as _exc:
        raise ValueError(f"config exact.construct: board {_spec!r}: {_exc}") from None
    if _spec in EXACT_CO["boards"]:
        EXACT_CO_BOARDS.append(_b.name)
EXACT_CO_BOARDS = list(dict.fromkeys(EXACT_CO_BOARDS))
EXACT_CO_TOURS = list(dict.fromkeys(parse_board(b).name for b in EXACT_CO["tours"]))

# The library code the results depend on: editing it reruns the stage.
_EXACT_ROOT = (Path(workflow.current_basedir) / "../..").resolve()
EXACT_CODE = sorted(str(p) for p in (_EXACT_ROOT / "knight/exact").glob("*.py")) + [
    str(_EXACT_ROOT / "knight/board.py")
]
EXACT_DATA = sorted(str(p) for p in (_EXACT_ROOT / "knight/data").glob("*base_tours.json"))

ALL_TARGETS += [
    f"results/exact/{name}.{ext}"
    for name in ("backtrack_runs", "backtrack_summary", "backtrack_starts", "construct")
    for ext in ("parquet", "csv")
] + [f"results/exact/tours/{b}.parquet" for b in EXACT_CO_TOURS]


def _starts_tables(wildcards):
    """The Warnsdorff sweep's per-start table of every backtracking board (lead's rules)."""
    if not EXACT_BT["warnsdorff"]:
        return []
    boards = dict.fromkeys(name for name, _ in EXACT_BT_RUNS.values())
    return [f"results/tables/boards/{b}/starts.parquet" for b in boards]


rule exact_backtrack_board:
    """Every start of one board, under each pruning level and move ordering."""
    input:
        code=EXACT_CODE,
    output:
        "results/exact/backtrack/{board}-{tour}.parquet",
    wildcard_constraints:
        board=r"\d+x\d+",
        tour="open|closed",
    params:
        closed=lambda w: w.tour == "closed",
        prune=EXACT_BT["prune"],
        orderings=EXACT_BT["orderings"],
        order=EXACT_BT["order"],
        limit=EXACT_BT["limit"],
    log:
        "results/exact/logs/backtrack_{board}-{tour}.log",
    script:
        "../scripts/exact_backtrack.py"


rule exact_backtrack_tables:
    """Runs of all boards; totals per board, ordering and pruning; per-start answers
    beside the Warnsdorff sweep (starts where the heuristic never succeeds)."""
    input:
        runs=[f"results/exact/backtrack/{key}.parquet" for key in EXACT_BT_RUNS],
        starts=_starts_tables,
        code=EXACT_CODE,
    output:
        runs="results/exact/backtrack_runs.parquet",
        runs_csv="results/exact/backtrack_runs.csv",
        summary="results/exact/backtrack_summary.parquet",
        summary_csv="results/exact/backtrack_summary.csv",
        starts="results/exact/backtrack_starts.parquet",
        starts_csv="results/exact/backtrack_starts.csv",
    log:
        "results/exact/logs/backtrack_tables.log",
    script:
        "../scripts/exact_backtrack_tables.py"


rule exact_construct:
    """Build, check and time a closed tour of every configured board by each method."""
    input:
        code=EXACT_CODE,
        data=EXACT_DATA,
    output:
        parquet="results/exact/construct.parquet",
        csv="results/exact/construct.csv",
    params:
        boards=EXACT_CO_BOARDS,
        methods=EXACT_CO["methods"],
    log:
        "results/exact/logs/construct.log",
    script:
        "../scripts/exact_construct.py"


rule exact_tour:
    """One constructed closed tour: step, row, col (1-based)."""
    input:
        code=EXACT_CODE,
        data=EXACT_DATA,
    output:
        "results/exact/tours/{board}.parquet",
    wildcard_constraints:
        board=r"\d+x\d+",
    log:
        "results/exact/logs/tour_{board}.log",
    script:
        "../scripts/exact_tour.py"


rule exact_study:
    """Just the exact stage (snakemake exact_study)."""
    input:
        [t for t in ALL_TARGETS if t.startswith("results/exact/")],
