# exact stage: backtracking tour search from every start (seeds 001, 003) and
# divide-and-conquer closed tours (seed 004). Config: the `exact:` section
# (workflow/schemas/exact.schema.yaml, checked in knight/config.py). Outputs under results/exact/.
from knight.board import parse_board

EXACT_BT = config["exact"]["backtrack"]
EXACT_CO = config["exact"]["construct"]
EXACT_BT_RUNS = {}  # "RxC-open" / "RxC-closed" -> (board name, closed)
for _item in EXACT_BT["boards"]:
    _b = parse_board(_item["board"])
    EXACT_BT_RUNS[f"{_b.name}-{'closed' if _item['closed'] else 'open'}"] = (_b.name, _item["closed"])
EXACT_CO_BOARDS = list(dict.fromkeys(parse_board(b).name for b in EXACT_CO["boards"]))
EXACT_CO_TOURS = list(dict.fromkeys(parse_board(b).name for b in EXACT_CO["tours"]))

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
        code=code("exact_backtrack"),
    resources:
        mem_mb=1000,
        runtime=60,
    log:
        "results/logs/exact/backtrack_{board}-{tour}.log",
    script:
        "../scripts/exact_backtrack.py"


rule exact_backtrack_tables:
    """Runs of all boards; totals per board, ordering and pruning; per-start answers
    beside the Warnsdorff sweep (starts where the heuristic never succeeds)."""
    input:
        runs=[f"results/exact/backtrack/{key}.parquet" for key in EXACT_BT_RUNS],
        starts=_starts_tables,
    output:
        runs="results/exact/backtrack_runs.parquet",
        runs_csv="results/exact/backtrack_runs.csv",
        summary="results/exact/backtrack_summary.parquet",
        summary_csv="results/exact/backtrack_summary.csv",
        starts="results/exact/backtrack_starts.parquet",
        starts_csv="results/exact/backtrack_starts.csv",
    params:
        code=code("exact_backtrack_tables"),
    resources:
        mem_mb=1000,
        runtime=10,
    log:
        "results/logs/exact/backtrack_tables.log",
    script:
        "../scripts/exact_backtrack_tables.py"


rule exact_construct:
    """Build, check and time a closed tour of every configured board by each method."""
    output:
        parquet="results/exact/construct.parquet",
        csv="results/exact/construct.csv",
    params:
        boards=EXACT_CO_BOARDS,
        methods=EXACT_CO["methods"],
        code=code("exact_construct"),
    resources:
        mem_mb=4000,
        runtime=30,
    log:
        "results/logs/exact/construct.log",
    script:
        "../scripts/exact_construct.py"


rule exact_tour:
    """One constructed closed tour: step, row, col (1-based)."""
    output:
        "results/exact/tours/{board}.parquet",
    wildcard_constraints:
        board=r"\d+x\d+",
    params:
        code=code("exact_tour"),
    resources:
        mem_mb=2000,
        runtime=10,
    log:
        "results/logs/exact/tour_{board}.log",
    script:
        "../scripts/exact_tour.py"


rule exact_study:
    """Just the exact stage (snakemake exact_study)."""
    input:
        [t for t in ALL_TARGETS if t.startswith("results/exact/")],
