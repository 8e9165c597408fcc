"""The workflow configuration, checked in one place: schema, defaults and meaning.

:func:`load` is called once, at workflow start (``workflow/rules/common.smk``). It runs
the JSON schema (``knight/pipeline/schemas/config.schema.yaml`` with one sibling file per
section), fills in the schema's defaults, then runs each section's checks of what a
schema cannot express (boards parse, starts lie on their boards, orders are
permutations, queens fit their board, ...). Every problem is reported at once, one
line each, as ``config key <path>: <value>: <what is wrong>``; nothing is computed or
written before. The returned config has canonical list forms (sorted, no repeats)
where order and repeats cannot change a result, so that reordering a list reruns
nothing.
"""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from knight.core.board import MIN_SIDE, Board, parse_board, parse_boards
from knight.core.orders import parse_order

#: The config's JSON schema, shipped inside the package (one sibling file per section).
SCHEMA = Path(__file__).resolve().parent / "schemas" / "config.schema.yaml"

#: Largest board of the sweep stage (every start x every order): 65,536 squares is
#: 2.6e9 runs, about 660 jobs of the default size.
MAX_SWEEP_SQUARES = 65_536
#: Largest board of the rules stage (one padded byte per square in a run).
MAX_RULES_SQUARES = 100_000_000


class ConfigError(ValueError):
    """The configuration is invalid; the message names every bad key and value."""


def _path(parts) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def _with_defaults(cls):
    """A validator class that also fills in ``default`` values of absent properties."""
    check_properties = cls.VALIDATORS["properties"]

    def properties(validator, props, instance, schema):
        if isinstance(instance, dict):
            for name, sub in props.items():
                if isinstance(sub, dict) and "default" in sub and name not in instance:
                    instance[name] = copy.deepcopy(sub["default"])
        yield from check_properties(validator, props, instance, schema)

    return validators.extend(cls, {"properties": properties})


_Validator = _with_defaults(Draft202012Validator)


def _validator(schema_path: Path):
    folder = schema_path.parent

    def retrieve(uri: str) -> Resource:
        contents = yaml.safe_load((folder / uri.rsplit("/", 1)[-1]).read_text())
        # Without "$schema" the section is validated by this class, which fills in defaults
        # (jsonschema picks a class by "$schema" on descending into a resource).
        contents.pop("$schema", None)
        return Resource.from_contents(contents, default_specification=DRAFT202012)

    schema = yaml.safe_load(schema_path.read_text())
    return _Validator(schema, registry=Registry(retrieve=retrieve))


def schema_errors(config: dict, schema_path: str | Path = SCHEMA) -> list[str]:
    """Messages for every schema violation, each naming the key and the value.

    Fills in the schema's defaults in ``config`` (in place) as a side effect.
    """
    msgs = []
    errors = list(_validator(Path(schema_path)).iter_errors(config))
    for err in sorted(errors, key=lambda e: list(map(str, e.absolute_path))):
        where = list(err.absolute_path)
        if err.validator == "additionalProperties":
            allowed = sorted(err.schema.get("properties", {}))
            for key in sorted(set(err.instance) - set(allowed)):
                msgs.append(f"config key {_path([*where, key])}: unknown key (allowed here: {', '.join(allowed)})")
        elif err.validator == "oneOf":
            msgs.append(f"config key {_path(where)}: {err.instance!r}: {err.schema.get('description', err.message)}")
        else:
            msgs.append(f"config key {_path(where)}: {err.instance!r}: {err.message}")
    return msgs


# --- each section's meaning ------------------------------------------------------
def _board(key: str, value, msgs: list[str], *, max_squares: int | None = None) -> Board | None:
    """The knight board ``value`` of ``key``, within the sides every stage accepts
    (:data:`knight.core.board.MIN_SIDE`) and ``max_squares``; None after a message."""
    try:
        board = parse_board(value)
    except ValueError as exc:
        msgs.append(f"config key {key}: {value!r}: {exc}")
        return None
    if min(board.rows, board.cols) < MIN_SIDE:
        msgs.append(f"config key {key}: {value!r}: a board needs both sides at least {MIN_SIDE}")
        return None
    if max_squares is not None and board.size > max_squares:
        msgs.append(
            f"config key {key}: {value!r}: {board.size:,} squares is more than this stage's limit of {max_squares:,}"
        )
        return None
    return board


def _order(key: str, value, msgs: list[str]) -> None:
    try:
        parse_order(str(value))
    except ValueError:
        msgs.append(f"config key {key}: {value!r}: not a permutation of 12345678")


def _starts_on(key: str, starts, boards: list[Board], msgs: list[str]) -> None:
    """Each 1-based [row, col] pair of ``starts`` lies on every board."""
    for i, pair in enumerate(starts):
        for board in boards:
            if not (1 <= pair[0] <= board.rows and 1 <= pair[1] <= board.cols):
                msgs.append(
                    f"config key {key}[{i}]: {pair!r}: off the {board.name} board "
                    f"(rows 1..{board.rows}, columns 1..{board.cols})"
                )
                break


def sweep_errors(sweep: dict) -> list[str]:
    """The ``sweep`` section: boards, starts on every board, orders permutations."""
    msgs: list[str] = []
    spec = sweep.get("boards") or []
    if isinstance(spec, dict):
        try:
            items = [(f"sweep.boards ({b.name})", b.name) for b in parse_boards(spec)]
        except ValueError as exc:
            msgs.append(f"config key sweep.boards: {spec!r}: {exc}")
            items = []
    else:
        items = [(f"sweep.boards[{i}]", v) for i, v in enumerate(spec)]
    boards = []
    for key, v in items:
        b = _board(key, v, msgs, max_squares=MAX_SWEEP_SQUARES)
        if b is None and isinstance(spec, dict):
            break  # a range's boards grow: the first bad one says it
        boards.append(b)
    boards = [b for b in boards if b is not None]
    starts = sweep.get("starts", "all")
    if isinstance(starts, str):
        if starts != "all":
            msgs.append(f'config key sweep.starts: {starts!r}: must be "all" or a list of [row, col] pairs')
    else:
        _starts_on("sweep.starts", starts, boards, msgs)
    orders = sweep.get("orders", "all")
    if isinstance(orders, str):
        if orders != "all":
            msgs.append(f'config key sweep.orders: {orders!r}: must be "all" or a list of order strings')
    elif not orders:
        msgs.append('config key sweep.orders: []: give "all" or at least one order')
    else:
        for i, o in enumerate(orders):
            _order(f"sweep.orders[{i}]", o, msgs)
    return msgs


def dask_errors(dask: dict) -> list[str]:
    """The ``dask`` section: worker count; at most one of scheduler and scheduler_file."""
    from knight.runtime.cluster import check_scheduler_choice

    msgs = []
    workers = dask.get("workers", "auto")
    if isinstance(workers, bool) or not (workers == "auto" or (isinstance(workers, int) and workers >= 1)):
        msgs.append(f'config key dask.workers: {workers!r}: must be "auto" or an integer of at least 1')
    try:
        check_scheduler_choice(dask.get("scheduler"), dask.get("scheduler_file"))
    except ValueError as exc:
        msgs.append(f"config key dask.scheduler_file: {dask['scheduler_file']!r}: {exc}")
    return msgs


def queens_errors(queens: dict) -> list[str]:
    """The ``queens`` section: every board side within its search's limit, k <= n*n."""
    from knight.queens.checks import MAX_DOMINATE_N, MAX_PLACE_N

    msgs = []

    def check(key: str, n: int, k: int | None) -> None:
        limit = MAX_DOMINATE_N if k is not None else MAX_PLACE_N
        if n > limit:
            what = "domination search" if k is not None else "N-queens search"
            msgs.append(f"config key {key}.n: {n}: above the {what}'s limit of {limit}")
        elif k is not None and k > n * n:
            msgs.append(f"config key {key}.k: {k}: {k} queens do not fit on the {n}x{n} board ({n * n} squares)")

    for i, inst in enumerate(queens.get("instances", [])):
        check(f"queens.instances[{i}]", inst["n"], inst.get("k") if inst["problem"] == "dominate" else None)
    for i, inst in enumerate(queens.get("frontier", [])):
        check(f"queens.frontier[{i}]", inst["n"], inst["k"])
    for section in ("sets", "counts"):
        lists = queens.get(section, {})
        for i, (n, k) in enumerate(lists.get("dominate", [])):
            check(f"queens.{section}.dominate[{i}]", n, k)
        for i, n in enumerate(lists.get("place", [])):
            check(f"queens.{section}.place[{i}]", n, None)
    return msgs


def exact_errors(exact: dict) -> list[str]:
    """The ``exact`` section: boards parse; constructed boards have a closed tour we can build."""
    from knight.exact.construct import choose_method

    msgs: list[str] = []
    backtrack = exact.get("backtrack", {})
    for i, item in enumerate(backtrack.get("boards", [])):
        _board(f"exact.backtrack.boards[{i}].board", item["board"], msgs)
    if "order" in backtrack:
        _order("exact.backtrack.order", backtrack["order"], msgs)
    construct = exact.get("construct", {})
    for name in ("boards", "tours"):
        for i, value in enumerate(construct.get(name, [])):
            board = _board(f"exact.construct.{name}[{i}]", value, msgs)
            if board is None:
                continue
            try:
                choose_method(board)
            except ValueError as exc:
                msgs.append(f"config key exact.construct.{name}[{i}]: {value!r}: {exc}")
    return msgs


def figures_errors(figures: dict) -> list[str]:
    """The ``figures`` section: drawn tours' boards, starts and orders."""
    msgs: list[str] = []
    items = [(f"figures.tours[{i}]", t) for i, t in enumerate(figures.get("tours", []))]
    if figures.get("images_of_order") is not None:
        items.append(("figures.images_of_order", figures["images_of_order"]))
    for key, item in items:
        _order(f"{key}.order", item["order"], msgs)
        board = _board(f"{key}.board", item["board"], msgs)
        if board is not None and "start" in item:
            r, c = item["start"]
            if not (1 <= r <= board.rows and 1 <= c <= board.cols):
                msgs.append(
                    f"config key {key}.start: {item['start']!r}: off the {board.name} board "
                    f"(rows 1..{board.rows}, columns 1..{board.cols})"
                )
    return msgs


def rules_errors(rules: dict) -> list[str]:
    """The ``rules`` section: each rule's settings and each study are built as the library
    builds them (:class:`knight.rules.studies.RuleSpec`, :class:`~knight.rules.studies.Study`),
    which hold every constraint; their errors become config lines. Board limits, list
    indices and study names are the config's own."""
    from knight.core.checks import SettingError
    from knight.rules.studies import RuleSpec, Study

    msgs: list[str] = []
    for rule, settings in rules.get("settings", {}).items():
        if isinstance(settings, dict) and "order" in settings:
            _order(f"rules.settings.{rule}.order", settings["order"], msgs)
            if msgs:
                continue
        try:
            RuleSpec.from_settings(rule, {rule: settings})
        except SettingError as exc:
            msgs.append(f"config key rules.settings.{rule}.{exc.key}: {exc.message}")
    if msgs:
        return msgs  # every study would repeat them
    names: set[str] = set()
    for i, study in enumerate(rules.get("studies", [])):
        key = f"rules.studies[{i}]"
        if study["name"] in names:
            msgs.append(f"config key {key}.name: {study['name']!r}: another study has this name")
        names.add(study["name"])
        try:
            boards = parse_boards(study["boards"])
        except ValueError as exc:
            msgs.append(f"config key {key}.boards: {study['boards']!r}: {exc}")
            continue
        before = len(msgs)
        for j, board in enumerate(boards):
            where = f"{key}.boards" + ("" if isinstance(study["boards"], dict) else f"[{j}]")
            _board(where, board.name, msgs, max_squares=MAX_RULES_SQUARES)
        if isinstance(study.get("starts"), list):
            _starts_on(f"{key}.starts", study["starts"], boards, msgs)
        if isinstance(study.get("orders"), list):
            for j, order in enumerate(study["orders"]):
                _order(f"{key}.orders[{j}]", order, msgs)
        for rule, own in (study.get("settings") or {}).items():
            if "order" in own:
                _order(f"{key}.settings.{rule}.order", own["order"], msgs)
        if len(msgs) > before:
            continue  # the study cannot be built from values already named
        try:
            Study.from_config(study, rules)
        except SettingError as exc:
            msgs.append(f"config key {key}.{exc.key}: {exc.message}")
    return msgs


def claims_errors(claims: dict, config: dict) -> list[str]:
    """The ``claims`` section: each scan and claim is built as the library builds it
    (:class:`knight.claims.scan.Scan`, :class:`knight.claims.spec.Claim`); names are
    unique; what tests a claim suits its finding, and its rule is one the study runs. A
    claim tested by nothing configured is not an error: it shows as not run."""
    from knight.claims.scan import Scan
    from knight.claims.spec import QUEENS, SCAN_FINDINGS, Claim
    from knight.core.checks import SettingError

    msgs: list[str] = []
    studies = {s["name"]: s for s in config.get("rules", {}).get("studies", [])}
    scans: dict[str, Scan] = {}
    for i, entry in enumerate(claims.get("scans", [])):
        key = f"claims.scans[{i}]"
        if entry["name"] in scans or entry["name"] in studies or entry["name"] == QUEENS:
            msgs.append(f"config key {key}.name: {entry['name']!r}: another scan or study has this name")
            continue
        try:
            scans[entry["name"]] = Scan.from_config(entry)
        except SettingError as exc:
            msgs.append(f"config key {key}.{exc.key}: {exc.message}")
    for i, entry in enumerate(claims.get("scans", [])):
        scan = scans.get(entry["name"])
        if scan is None or scan.of is None:
            continue
        source = scans.get(scan.of)
        if source is None:
            msgs.append(f"config key claims.scans[{i}].orders.of: {scan.of!r}: no scan of this config has this name")
        elif source.of is not None or source.every_board:
            msgs.append(
                f"config key claims.scans[{i}].orders.of: {scan.of!r}: not a first-failure scan of all or listed orders"
            )
    keys: set[str] = set()
    for i, entry in enumerate(claims.get("entries", [])):
        key = f"claims.entries[{i}]"
        if entry["key"] in keys:
            msgs.append(f"config key {key}.key: {entry['key']!r}: another claim has this key")
        keys.add(entry["key"])
        try:
            claim = Claim.from_config(entry)
        except SettingError as exc:
            msgs.append(f"config key {key}.{exc.key}: {exc.message}")
            continue
        scan_finding = claim.finding in SCAN_FINDINGS
        by = claim.tested_by
        if by in scans and not scan_finding or by in studies and scan_finding:
            kind = "a scan" if by in scans else "a rules study"
            msgs.append(f"config key {key}.tested_by: {by!r}: is {kind}, which {claim.finding} cannot read")
        elif by in scans and scans[by].every_board != (claim.finding == "failure_share"):
            kind = "an every-board scan" if scans[by].every_board else "a first-failure scan"
            msgs.append(f"config key {key}.tested_by: {by!r}: is {kind}, which {claim.finding} cannot read")
        elif by in studies:
            rules = list(dict.fromkeys(studies[by]["rules"]))
            if claim.rule is not None and claim.rule not in rules:
                msgs.append(f"config key {key}.rule: {claim.rule!r}: study {by!r} runs {', '.join(rules)}")
            elif claim.rule is None and len(rules) > 1:
                msgs.append(f"config key {key}.rule: (none): study {by!r} runs {', '.join(rules)}: name one")
    return msgs


SECTION_CHECKS = {
    "sweep": sweep_errors,
    "dask": dask_errors,
    "queens": queens_errors,
    "exact": exact_errors,
    "figures": figures_errors,
    "rules": rules_errors,
}


def canonical(config: dict) -> dict:
    """Sorted, repeat-free forms of lists whose order cannot change a result."""
    sweep = config.get("sweep", {})
    if isinstance(sweep.get("orders"), list):
        sweep["orders"] = sorted(set(map(str, sweep["orders"])))
    if isinstance(sweep.get("starts"), list):
        sweep["starts"] = [list(p) for p in sorted({tuple(p) for p in sweep["starts"]})]
    for study in config.get("rules", {}).get("studies", []):
        if isinstance(study.get("orders"), list):
            study["orders"] = sorted(set(study["orders"]))
        if isinstance(study.get("starts"), list):
            study["starts"] = [list(p) for p in sorted({tuple(p) for p in study["starts"]})]
        study["rules"] = list(dict.fromkeys(study["rules"]))
    return config


#: The default config of the checkout this package runs from (read by the Snakefile's
#: ``configfile:`` directive); absent from an installed package.
CHECKOUT_CONFIG = Path(__file__).resolve().parents[2] / "config" / "config.yaml"


def default_config_file(folder: str | Path = ".") -> Path | None:
    """The workflow's default config as ``snakemake`` run in ``folder`` reads it: the
    project's ``config/config.yaml`` there, else the checkout's; None when neither exists."""
    for path in (Path(folder) / "config" / "config.yaml", CHECKOUT_CONFIG):
        if path.is_file():
            return path
    return None


def read_config_file(path: str | Path) -> dict:
    """The mapping of keys in a YAML (or JSON) config file.

    Raises :class:`ConfigError` in one line naming the file, and for a syntax error its
    line and column (Snakemake's own message names neither)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        hint = ""
        if isinstance(exc, FileNotFoundError) and not Path(path).suffix:
            hint = "; a target? write targets before --configfile, which takes every word after it as a file"
        raise ConfigError(f"config file {path}: cannot be read ({exc.strerror or exc}){hint}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        context, start = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and start is not None:
            problem += f" ({context} at line {start.line + 1}, column {start.column + 1})"
        raise ConfigError(f"config file {path}{where}: not valid YAML: {problem}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path}: must hold keys at its top level (sweep:, queens:, ...), got {data!r}")
    return data


def check_config_file(path: str | Path) -> None:
    """For the Snakefile, before its ``configfile:`` directive reads ``path``: a file that
    is not valid YAML stops the workflow in one line naming its file and line."""
    from snakemake.exceptions import WorkflowError

    try:
        read_config_file(path)
    except ConfigError as exc:
        raise WorkflowError(str(exc)) from None


def merge(base: dict, override: dict) -> dict:
    """``base`` updated by ``override`` as Snakemake merges config files: mappings key by
    key, every other value (lists included) replaced."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def load_files(paths=(), *, default: str | Path | None = None) -> dict:
    """The checked config (:func:`load`) of the ``default`` config file (if any) then each
    of ``paths`` merged in order, as ``snakemake --configfile PATH ...`` reads them."""
    config: dict = {}
    for path in ([Path(default)] if default is not None else []) + [Path(p) for p in paths]:
        config = merge(config, read_config_file(path))
    return load(config)


def load(config: dict, schema_path: str | Path = SCHEMA) -> dict:
    """Check ``config`` whole and return it with defaults filled in and canonical lists.

    Raises :class:`ConfigError` listing every problem; the input is not modified.
    """
    config = copy.deepcopy(dict(config))
    msgs = schema_errors(config, schema_path)
    if not msgs:
        for section, check in SECTION_CHECKS.items():
            if section in config:
                msgs += check(config[section])
        if not msgs and "claims" in config:
            msgs += claims_errors(config["claims"], config)
    if msgs:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(msgs))
    return canonical(config)
