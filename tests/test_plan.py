"""The workflow's plan (knight.pipeline.plan), without Snakemake: jobs, paths, parameters,
results versions, and planning that compiles nothing."""

import os
import subprocess
import sys

import pytest

from knight.core.board import Board
from knight.core.seal import params_digest
from knight.pipeline.config import load_files
from knight.pipeline.plan import PATTERNS, Plan, _regex
from knight.pipeline.versions import VERSIONS
from knight.sweep.driver import chunk_path

REPO = os.path.join(os.path.dirname(__file__), "..")
CONFIGS = ["config.yaml", "tiny.yaml", "census.yaml", "claims.yaml", "thesis-large.yaml"]


def plan_of(name: str, cores: int = 2) -> Plan:
    path = os.path.join(REPO, "config", name)
    default = os.path.join(REPO, "config", "config.yaml")
    return Plan(load_files([] if name == "config.yaml" else [path], default=default), cores=cores)


@pytest.fixture(scope="module")
def tiny():
    return plan_of("tiny.yaml")


def test_every_config_that_ships_plans(tiny):
    for name in CONFIGS:
        plan = plan_of(name)
        assert plan.targets(), name
        assert all(t.startswith("results/") for t in plan.targets()), name


def test_sweep_parts_are_where_the_writer_puts_them(tiny):
    """The workflow's pattern and the command line's writer (knight sweep --out) agree."""
    pattern = _regex(PATTERNS["sweep_part"])
    for board in tiny.swept_boards:
        parts = tiny.sweep_parts(board)
        assert len(parts) == len(tiny.spec(board).chunks())
        for k, path in enumerate(parts):
            wc = pattern.match(path).groupdict()
            assert wc["board"] == board
            assert path == chunk_path("results/runs", Board(*map(int, board.split("x"))), k).as_posix()


def test_dataset_parts_match_their_patterns(tiny):
    patterns = [_regex(PATTERNS[k]) for k in ("sweep_part", "rules_runs_part", "rules_times_part")]
    for folder, parts in tiny.datasets().items():
        assert parts, folder
        for path in parts:
            assert path.startswith(folder + "/")
            assert any(p.match(path) for p in patterns), path


def test_every_job_has_its_results_version(tiny):
    """Each job's parameters, evaluated for one of its jobs, carry the version of its kind."""
    jobs = {
        "sweep_chunk": {"board": "5x5", "chunk": "0000"},
        "runs_manifest": {"board": "5x5"},
        "board_tables": {"board": "5x5"},
        "combine_table": {"name": "orders"},
        "rules_chunk": {"study": "corner", "rule": "pohl", "chunk": "0000"},
        "rules_manifest": {"study": "corner", "rule": "pohl"},
        "queens_unit": {"search": "dominate-8-5", "unit": "00000"},
        "queens_frontier": {"search": "dominate-8-5"},
        "exact_backtrack_board": {"board": "5x5", "tour": "open"},
        "figure_tour": {},
        "census_check": {},
    }
    for rule, wildcards in jobs.items():
        params = tiny.job_params(rule, wildcards)
        kind, number = params["version"].split("=")
        assert kind.split(":")[0] == rule and VERSIONS[kind] == int(number), (rule, params)
    assert tiny.job_params("rules_chunk", {"study": "residual-orders", "rule": "roth", "chunk": "0000"})[
        "version"
    ].startswith("rules_chunk:tree=")


def test_a_job_the_plan_does_not_have_is_refused(tiny):
    with pytest.raises(IndexError):
        tiny.job_params("rules_chunk", {"study": "corner", "rule": "pohl", "chunk": "9999"})
    with pytest.raises(KeyError):
        tiny.job_params("queens_unit", {"search": "dominate-9-9", "unit": "00000"})


def test_parameters_decide_the_digest_not_their_order():
    assert params_digest({"a": 1, "b": [1, 2]}) == params_digest({"b": (1, 2), "a": 1})
    assert params_digest({"a": 1, "version": "x=1"}) != params_digest({"a": 1, "version": "x=2"})


def test_threads_and_where_the_work_runs_do_not_change_parameters():
    """Cores, Dask workers or a scheduler cannot change a row: not in any job's params."""
    one, many = plan_of("tiny.yaml", cores=1), plan_of("tiny.yaml", cores=16)
    wc = {"board": "5x5", "chunk": "0000"}
    assert one.job_params("sweep_chunk", wc) == many.job_params("sweep_chunk", wc)
    assert one.threads() == 1 and many.threads() == 16


def test_planning_compiles_no_kernel():
    """Building the plan of the default config imports the kernels' modules but compiles none
    of them (a dry run must not wait for numba)."""
    probe = (
        "import sys, knight, numba\n"
        "from knight.pipeline.config import load_files\n"
        "from knight.pipeline.plan import Plan\n"
        f"plan = Plan(load_files(default={os.path.join(REPO, 'config', 'config.yaml')!r}), cores=2)\n"
        "plan.targets(); [plan.job_params('sweep_chunk', {'board': b, 'chunk': '0000'}) for b in plan.boards]\n"
        "kernel = numba.core.registry.CPUDispatcher\n"
        "compiled = [f'{m}.{n}' for m, mod in list(sys.modules.items()) if m.startswith('knight')\n"
        "            for n, f in vars(mod).items() if isinstance(f, kernel) and f.signatures]\n"
        "print(len(plan.targets()), compiled)\n"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    count, compiled = res.stdout.split(" ", 1)
    assert int(count) > 100 and compiled.strip() == "[]", res.stdout


def test_a_target_past_the_plan_is_named(tiny):
    """Fault 10 of issue 41: snakemake -n results/runs/board=5x5/part-9999.parquet raised
    InputFunctionException (IndexError)."""
    last = tiny.sweep_parts("5x5")[-1]
    assert tiny.why_not_planned(last) is None
    why = tiny.why_not_planned("results/runs/board=5x5/part-9999.parquet")
    assert why == f"not a file of the current plan, which has part-0000.parquet .. {last.rsplit('/', 1)[1]} there"
    assert "not a job of the current plan" in tiny.why_not_planned(
        "results/queens/frontier/dominate-9-9/unit-00000.json"
    )
    assert tiny.why_not_planned("results/tables/completion.parquet") is None


def test_the_workflow_and_the_plan_name_the_same_rules_and_stages():
    """Every Snakemake rule with parameters takes them from the plan under its own name,
    the plan holds parameters for no other rule, and every stage a rule asks targets of
    is one of the plan's: a missing entry fails here, not when Snakemake reads the files."""
    import re
    from pathlib import Path

    plan = plan_of("tiny.yaml")
    files = sorted(Path(REPO, "workflow", "rules").glob("*.smk"))
    text = "\n".join(p.read_text() for p in files) + Path(REPO, "Snakefile").read_text()
    rules = re.split(r"^rule (\w+):", text, flags=re.M)[1:]
    asked = {}
    for name, body in zip(rules[::2], rules[1::2]):
        for wanted in re.findall(r'PLAN\.params\("([\w-]+)"\)', body):
            asked[name] = wanted
    assert asked and all(name == wanted for name, wanted in asked.items()), asked
    assert set(asked) == set(plan._job_params())
    stages = set(re.findall(r'PLAN\.targets\("(\w+)"\)', text))
    assert stages == set(plan._stage_targets())
    with pytest.raises(ValueError, match="no parameters for the rule 'nope'"):
        plan.params("nope")
    with pytest.raises(ValueError, match="stage 'nope' is not one of sweep, tables"):
        plan.targets("nope")


def test_the_workflow_takes_every_path_from_the_plan():
    """The .smk files and the Snakefile name no file under results/ themselves: each path
    is a key of the stages' ``paths`` modules (combined in PATHS), and every key is used."""
    import re
    from pathlib import Path

    from knight.pipeline.paths import PATHS

    files = [*sorted(Path(REPO, "workflow", "rules").glob("*.smk")), Path(REPO, "Snakefile")]
    text = "\n".join(p.read_text() for p in files)
    literal = re.findall(r"""f?["']results/[^"']*["']""", text)
    assert not literal, literal
    plan_text = "\n".join(p.read_text() for p in sorted(Path(REPO, "knight", "pipeline").rglob("*.py")))
    used = set(re.findall(r'path\(\s*"([\w.]+)"', text + plan_text)) | set(re.findall(r'"([\w.]+)"', plan_text))
    assert set(re.findall(r'path\(\s*"([\w.]+)"', text)) <= set(PATHS)
    assert set(PATHS) <= used, sorted(set(PATHS) - used)


@pytest.mark.parametrize("name", CONFIGS)
def test_the_settings_checked_once_are_the_plans(name):
    """The workflow builds each section's settings once, from the config as the user wrote
    it (so a problem names the user's place), and hands them to the plan: they must be
    the settings of the canonical config, lists shuffled and repeated included."""
    from knight.pipeline.config import check, merge, read_config_file, settings

    raw = read_config_file(os.path.join(REPO, "config", "config.yaml"))
    if name != "config.yaml":
        raw = merge(raw, read_config_file(os.path.join(REPO, "config", name)))
    raw.setdefault("sweep", {})
    raw["sweep"]["orders"] = ["87654321", "12345678", "87654321"]
    raw["sweep"]["starts"] = [[2, 2], [1, 1], [2, 2]]
    config, built = check(raw)
    assert built == settings(config)
    assert Plan(config, built=built).targets() == Plan(config).targets()
