"""The configuration layer (knight.pipeline.config): every section's bad values, named by key and value."""

import copy
import os

import pytest
import yaml
from workflow_run import snakemake as run_snakemake

from knight.pipeline.config import SCHEMA, ConfigError, load
from knight.rules.study import RuleSpec

DEFAULT = yaml.safe_load(open(os.path.join(os.path.dirname(__file__), "..", "config", "config.yaml")))


def with_(path: str, value, base=None):
    """The default config with ``path`` (dotted, [i] for list items) set to ``value``."""
    cfg = copy.deepcopy(base if base is not None else DEFAULT)
    keys = path.replace("]", "").replace("[", ".").split(".")
    node = cfg
    for k in keys[:-1]:
        node = node[int(k)] if k.isdigit() else node.setdefault(k, {})
    last = keys[-1]
    node[int(last) if last.isdigit() else last] = value
    return cfg


# (config, text every message must contain): key and value named.
BAD = [
    # sweep
    (with_("sweep.boards", [2]), "config key sweep.boards[0]: 2: a board needs both sides at least 3"),
    (
        with_("sweep.boards", ["300x300"]),
        "config key sweep.boards[0]: '300x300': 90,000 squares is more than this stage's limit of 65,536",
    ),
    (with_("sweep.orders", ["12345677"]), "config key sweep.orders[0]: '12345677': not a permutation"),
    (with_("sweep.starts", [[9, 1]]), "config key sweep.starts[0]: [9, 1]: off the 5x5 board"),
    (with_("sweep.chunk_runs", 0), "config key sweep.chunk_runs: 0:"),
    (with_("sweep.colour", "blue"), "config key sweep.colour: unknown key"),
    # dask
    (with_("dask.workers", 0), "config key dask.workers: 0"),
    (
        with_("dask.scheduler_file", "s.json", with_("dask.scheduler", "tcp://x:1")),
        "config key dask.scheduler_file: 's.json': give dask.scheduler or dask.scheduler_file, not both",
    ),
    # queens
    (
        with_("queens.instances", [{"problem": "dominate", "n": 8, "k": 70}]),
        "config key queens.instances[0].k: 70: 70 queens do not fit on the 8x8 board",
    ),
    (
        with_("queens.instances", [{"problem": "place", "n": 40}]),
        "config key queens.instances[0].n: 40: above the N-queens search's limit of 32",
    ),
    (with_("queens.instances", [{"problem": "place", "n": 8, "k": 3}]), "config key queens.instances[0]:"),
    (with_("queens.sets.dominate", [[8, 99]]), "config key queens.sets.dominate[0].k: 99: 99 queens do not fit"),
    (with_("queens.sets.dominate", [[8]]), "config key queens.sets.dominate[0]: [8]"),
    (with_("queens.counts.dominate", [[8, 99]]), "config key queens.counts.dominate[0].k: 99: 99 queens do not fit"),
    (with_("queens.counts.place", [33]), "config key queens.counts.place[0]: 33"),
    (with_("queens.repeats", 0), "config key queens.repeats: 0"),
    # exact
    (with_("exact.construct.boards", [7]), "config key exact.construct.boards[0]: 7:"),
    (with_("exact.backtrack.boards", [{"board": "2y3"}]), "config key exact.backtrack.boards[0].board: '2y3'"),
    (with_("exact.backtrack.prune", ["sideways"]), "config key exact.backtrack.prune[0]: 'sideways'"),
    # issue 16 point 5: the order's meaning, as for figures.tours[].order
    (with_("exact.backtrack.order", "11111111"), "config key exact.backtrack.order: '11111111': not a permutation"),
    # figures
    (
        with_("figures.tours", [{"board": 8, "start": [9, 1], "order": "12345678"}]),
        "config key figures.tours[0].start: [9, 1]: off the 8x8 board",
    ),
    (
        with_("figures.tours", [{"board": 8, "start": [1, 1], "order": "12345677"}]),
        "config key figures.tours[0].order: '12345677': not a permutation",
    ),
    (with_("figures.dpi", 5), "config key figures.dpi: 5"),
    (
        with_("rules.settings.pohl.order", "12345677"),
        "config key rules.settings.pohl.order: '12345677': not a permutation",
    ),
    (
        with_("rules.studies[2].orders", ["12345678", "11111111"]),
        "config key rules.studies[2].orders[1]: '11111111': not a permutation",
    ),
    # rules
    (with_("rules.studies[0].rules", ["sideways"]), "config key rules.studies[0].rules[0]: 'sideways'"),
    (with_("rules.settings.random.seed", "x"), "config key rules.settings.random.seed: 'x'"),
    (with_("rules.settings.random.seed", 1.5), "config key rules.settings.random.seed: 1.5"),
    (with_("rules.settings.random-order.trials", 0), "config key rules.settings.random-order.trials: 0"),
    (
        with_("rules.studies[0].boards", ["8x9"]),
        "config key rules.studies[0].boards: 8x9: squirrel-cull needs a square board",
    ),
    (
        with_("rules.studies[0].boards", [4]),
        "config key rules.studies[0].boards: 4x4: squirrel-cull needs a square board of side 5 or more",
    ),
    (with_("rules.studies[1].starts", [[31, 1]]), "config key rules.studies[1].starts[0]: [31, 1]: off the 5x5 board"),
    (
        with_("rules.studies[1].name", "corner"),
        "config key rules.studies[1].name: 'corner': another study has this name",
    ),
    (
        with_("rules.studies[0].orders", "all"),
        "config key rules.studies[0].orders: 'all': only fixed, pohl, roth, corner take tie orders",
    ),
    (
        with_("rules.studies[0].boards", {"from": 9, "to": 5}),
        "config key rules.studies[0].boards: {'from': 9, 'to': 5, 'step': 1}: board range is empty",
    ),
    (
        with_("rules.studies[0].starts", "all"),
        "config key rules.studies[0].starts: 'all': squirrel-cull starts from (1, 1) only",
    ),
    (
        with_("census.check_samples", 0),
        "config key census.check_samples: 0: 0 is less than the minimum of 1",
    ),
    (with_("census.check_largest", 4), "config key census.check_largest: 4: 4 is less than the minimum of 5"),
]


# The same side limit (knight.core.board.MIN_SIDE) in every section that takes a knight board.
SIDES = [
    ("sweep.boards", [2], "sweep.boards[0]: 2"),
    ("sweep.boards", ["3x2"], "sweep.boards[0]: '3x2'"),
    ("exact.backtrack.boards", [{"board": 2}], "exact.backtrack.boards[0].board: 2"),
    ("exact.backtrack.boards", [{"board": "2x8"}], "exact.backtrack.boards[0].board: '2x8'"),
    ("exact.construct.boards", ["2x8"], "exact.construct.boards[0]: '2x8'"),
    ("figures.tours", [{"board": 2, "start": [1, 1], "order": "12345678"}], "figures.tours[0].board: 2"),
    ("figures.images_of_order", {"board": "1x5", "order": "12345678"}, "figures.images_of_order.board: '1x5'"),
    ("rules.studies[1].boards", [2], "rules.studies[1].boards[0]: 2"),
]
BAD += [(with_(path, value), f"config key {key}: a board needs both sides at least 3") for path, value, key in SIDES]


@pytest.mark.parametrize(
    "cfg, message", BAD, ids=[m.split(":")[0].removeprefix("config key ") + f"-{i}" for i, (_, m) in enumerate(BAD)]
)
def test_bad_value_is_named(cfg, message):
    with pytest.raises(ConfigError) as info:
        load(cfg)
    text = str(info.value)
    assert message in text, text
    assert text.startswith("invalid configuration:")
    # one line per problem, each naming a key
    assert all(line.strip().startswith("config key ") for line in text.splitlines()[1:])


def test_default_config_is_valid_and_untouched():
    before = copy.deepcopy(DEFAULT)
    cfg = load(DEFAULT)
    assert DEFAULT == before
    assert cfg["rules"]["settings"]["random-order"]["retries"] == 10
    assert cfg["dask"]["scheduler_file"] is None


def test_every_problem_reported_at_once():
    cfg = with_(
        "figures.tours",
        [{"board": 8, "start": [9, 1], "order": "12345677"}],
        with_("queens.instances", [{"problem": "dominate", "n": 8, "k": 70}], with_("sweep.boards", [2, 5])),
    )
    with pytest.raises(ConfigError) as info:
        load(cfg)
    assert len(str(info.value).splitlines()) == 1 + 4


def test_defaults_filled_for_absent_sections():
    cfg = load({"sweep": {"boards": [5]}})
    assert cfg["queens"]["repeats"] == 3 and cfg["exact"]["backtrack"]["limit"] == 500000
    assert cfg["rules"]["settings"]["pohl"]["order"] == "12345678" and cfg["rules"]["studies"] == []
    assert cfg["figures"]["dpi"] == 150


def test_lists_in_canonical_order():
    a = load(with_("sweep.orders", ["87654321", "12345678", "87654321"]))
    b = load(with_("sweep.orders", ["12345678", "87654321"]))
    assert a["sweep"]["orders"] == b["sweep"]["orders"] == ["12345678", "87654321"]


RULES_BAD = [
    ("rules.studies[0].rules", ["sideways"], "rules.studies[0].rules[0]: 'sideways'"),
    ("rules.settings.random.seed", "x", "rules.settings.random.seed: 'x'"),
    ("rules.settings.random.trials", 0, "rules.settings.random.trials: 0"),
    ("rules.studies[0].boards", [4], "rules.studies[0].boards: 4x4: squirrel-cull needs a square board of side 5"),
    (
        "rules.studies[0].starts",
        [[1, 2]],
        "rules.studies[0].starts: [[1, 2]]: squirrel-cull starts from (1, 1) only: use starts: corner",
    ),
    ("rules.studies[0].starts", [[1, 9]], "rules.studies[0].starts[0]: [1, 9]: off the 5x5 board"),
    ("rules.studies[1].starts", [[6, 1]], "rules.studies[1].starts[0]: [6, 1]: off the 5x5 board"),
]


@pytest.mark.slow
@pytest.mark.parametrize("path, value, message", RULES_BAD, ids=[f"{p}={v}" for p, v, _ in RULES_BAD])
def test_workflow_stops_before_any_job(repo, tmp_path, path, value, message):
    """Through Snakemake: the rules stage's bad values stop the run at once, named, nothing written."""
    cfg = with_(
        path,
        value,
        {
            "sweep": {"boards": [5]},
            "rules": {
                "studies": [
                    {"name": "a", "rules": ["fixed", "squirrel-cull"], "boards": [5, 6]},
                    {"name": "b", "rules": ["random"], "boards": [5], "starts": "all"},
                ]
            },
        },
    )
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(cfg))
    res = run_snakemake(tmp_path, configfile=tmp_path / "bad.yaml", cores=1, timeout=300)
    assert res.returncode != 0
    assert message in res.stderr + res.stdout
    assert not (tmp_path / "results").exists()


EXACT_BAD = [
    ("exact.backtrack.order", "11111111", "config key exact.backtrack.order: '11111111': not a permutation"),
    (
        "exact.backtrack.boards",
        [{"board": 2}],
        "exact.backtrack.boards[0].board: 2: a board needs both sides at least 3",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("path, value, message", EXACT_BAD, ids=[p for p, _, _ in EXACT_BAD])
def test_exact_bad_values_stop_the_workflow_before_any_job(repo, tmp_path, path, value, message):
    """Issue 16 point 5: these passed the check and failed inside a job after 4 files were written."""
    cfg = with_(path, value, {"sweep": {"boards": [5]}, "exact": {"backtrack": {"boards": [{"board": 5}]}}})
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(cfg))
    res = run_snakemake(tmp_path, "exact_stage", configfile=tmp_path / "bad.yaml", cores=1, timeout=300)
    assert res.returncode != 0
    assert message in res.stderr + res.stdout
    assert "Traceback" not in res.stderr
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_a_yaml_error_in_the_default_config_names_file_and_line(repo, tmp_path):
    """The Snakefile checks config/config.yaml before its `configfile:` reads it."""
    import shutil

    copy = tmp_path / "repo"
    shutil.copytree(
        repo, copy, ignore=shutil.ignore_patterns(".venv", ".git", "results", ".snakemake", "__pycache__", "*.egg-info")
    )
    config = copy / "config" / "config.yaml"
    lines = config.read_text().splitlines()
    assert lines[5].startswith("  boards: [")
    lines[5] = lines[5].replace("]", "]]", 1)  # a stray bracket on line 6
    config.write_text("\n".join(lines) + "\n")
    work = tmp_path / "work"
    work.mkdir()
    res = run_snakemake(work, "--dry-run", cores=1, timeout=300, repo=str(copy))
    assert res.returncode != 0
    assert f"config file {config}, line 6, column" in res.stderr + res.stdout, res.stderr[-2000:]


def test_the_schema_states_the_libraries_rule_names_and_defaults():
    """One source: the rules section's schema names the rules of
    knight.engine.rule_registry, each with the registry's settings and their defaults,
    within tiebreak's ranges (the command line and the API take them too)."""
    from knight.engine import tiebreak
    from knight.engine.rule_registry import REGISTRY
    from knight.pipeline.config import load_schema

    rules = load_schema(SCHEMA.parent / "rules.schema.yaml")
    assert rules["$defs"]["rule"]["enum"] == [r.name for r in REGISTRY]
    settings = rules["properties"]["settings"]["properties"]
    assert list(settings) == [r.name for r in REGISTRY]
    for r in REGISTRY:
        props = settings[r.name].get("properties", {})
        assert {name: p.get("default") for name, p in props.items()} == r.defaults, r.name
        assert all(p["$ref"] == f"#/$defs/{name}" for name, p in props.items()), r.name
    assert (rules["$defs"]["retries"]["minimum"], rules["$defs"]["retries"]["maximum"]) == tiebreak.LIMITS["retries"]
    for name in ("seed", "trials"):
        low, high = tiebreak.LIMITS[name]
        assert low <= rules["$defs"][name]["minimum"] and rules["$defs"][name]["maximum"] <= high, name
    cfg = load({"sweep": {"boards": [5]}})  # the schema fills in the rest
    for rule in tiebreak.RULES:
        spec = RuleSpec.from_settings(rule, cfg["rules"]["settings"])
        assert spec == RuleSpec(rule), rule  # the config's defaults are the library's


def test_the_census_schema_states_the_census_check_defaults():
    """One source: the census section's defaults are knight.sweep.census_check's."""
    from knight.pipeline.config import load_schema
    from knight.sweep import census_check

    props = load_schema(SCHEMA.parent / "census.schema.yaml")["properties"]
    assert props["check_samples"]["default"] == census_check.CHECK_SAMPLES
    assert props["check_seed"]["default"] == census_check.CHECK_SEED
    assert props["check_largest"]["default"] == census_check.CHECK_LARGEST
    assert props["check_largest"]["minimum"] == census_check.CHECK_SMALLEST
    assert load({"sweep": {"boards": [5]}})["census"] == {
        "check_samples": 20_000,
        "check_seed": 19,
        "check_largest": 16,
    }
