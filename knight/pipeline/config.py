"""The workflow configuration, checked in one place: schema, defaults and meaning.

:func:`load` is called once, at workflow start (``workflow/rules/common.smk``). It runs
the JSON schema (``knight/pipeline/schemas/config.schema.yaml`` with one sibling file per
section), fills in the schema's defaults, then has each stage build its section
(:func:`settings`): the stage's settings class checks what a schema cannot express
(boards parse, starts lie on their boards, orders are permutations, queens fit their
board, ...) and this module only collects the problems. Every problem is reported at once, one
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

#: The config's JSON schema, shipped inside the package (one sibling file per section).
SCHEMA = Path(__file__).resolve().parent / "schemas" / "config.schema.yaml"


class ConfigError(ValueError):
    """The configuration is invalid; the message names every bad key and value."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (two ``sweep:``
    blocks, two ``boards:`` in one block): PyYAML and Snakemake keep the last one
    silently, so the file would mean something other than it reads."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            first: dict = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue  # keys merged in (<<) may be overridden: that is not a repeat
                key = self.construct_object(key_node, deep=True)
                again = key_node.start_mark.line + 1
                try:
                    line = first.get(key)
                    first.setdefault(key, again)
                except TypeError:
                    continue  # an unhashable key: construct_mapping below names it
                if line is not None:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping",
                        node.start_mark,
                        f"key {key!r} given twice (at line {line} and line {again}): give it once",
                        key_node.start_mark,
                    )
        return super().construct_mapping(node, deep=deep)


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

    # "integer" is an int, never a whole float: JSON Schema counts 2.0 as an integer, but
    # every integer of the config (and of the API) is refused as a float, so 2.0 means
    # the same everywhere (knight.core.checks.integer).
    strict = cls.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return validators.extend(cls, {"properties": properties}, type_checker=strict)


_Validator = _with_defaults(Draft202012Validator)


def _library_values() -> dict[str, list[tuple[tuple[str, ...], dict]]]:
    """What the library declares and the schemas show: by schema file, (path to a node,
    the keys filled in there)."""
    from knight.engine.rows import DEFAULT_ENGINE, ENGINES
    from knight.rules.study import DEFAULT_CHUNK_STEPS
    from knight.sweep.census_check import CHECK_LARGEST, CHECK_SAMPLES, CHECK_SEED, CHECK_SMALLEST
    from knight.sweep.spec import DEFAULT_CHUNK_RUNS

    sweep = ("properties", "sweep", "properties")
    return {
        SCHEMA.name: [
            ((*sweep, "engine"), {"enum": list(ENGINES), "default": DEFAULT_ENGINE}),
            ((*sweep, "chunk_runs"), {"default": DEFAULT_CHUNK_RUNS}),
        ],
        "rules.schema.yaml": [
            (("properties", "chunk_steps"), {"default": DEFAULT_CHUNK_STEPS}),
            (("properties", "chunk_runs"), {"default": DEFAULT_CHUNK_RUNS}),
        ],
        "census.schema.yaml": [
            (("properties", "check_samples"), {"default": CHECK_SAMPLES}),
            (("properties", "check_seed"), {"default": CHECK_SEED}),
            (("properties", "check_largest"), {"default": CHECK_LARGEST, "minimum": CHECK_SMALLEST}),
        ],
    }


def load_schema(path: str | Path) -> dict:
    """The schema file ``path`` as the validator and the docs read it, with what the
    library declares filled in, so that each is declared in one place: the sweep's
    engines, the default engine and the chunk sizes, the census check's defaults
    (:func:`_library_values`), and the rules section's rule names (``$defs.rule``) and
    each rule's settings with their defaults (``properties.settings``,
    :data:`knight.engine.rule_registry.REGISTRY`).

    >>> rules = load_schema(SCHEMA.parent / "rules.schema.yaml")
    >>> len(rules["$defs"]["rule"]["enum"]), rules["properties"]["settings"]["properties"]["pohl"]["properties"]
    (9, {'order': {'$ref': '#/$defs/order', 'default': '12345678'}})
    """
    path = Path(path)
    schema = yaml.safe_load(path.read_text())
    for where, values in _library_values().get(path.name, []):
        node = schema
        for key in where:
            node = node[key]
        node.update(values)
    if path.name == "rules.schema.yaml":
        from knight.engine.rule_registry import REGISTRY

        schema["$defs"]["rule"]["enum"] = [r.name for r in REGISTRY]
        schema["properties"]["settings"]["properties"] = {
            r.name: {
                "description": r.summary,
                "type": "object",
                "additionalProperties": False,
                "default": {},
                "properties": {name: {"$ref": f"#/$defs/{name}", "default": value} for name, value in r.settings},
            }
            for r in REGISTRY
        }
    return schema


def _validator(schema_path: Path):
    folder = schema_path.parent

    def retrieve(uri: str) -> Resource:
        contents = load_schema(folder / uri.rsplit("/", 1)[-1])
        # Without "$schema" the section is validated by this class, which fills in defaults
        # (jsonschema picks a class by "$schema" on descending into a resource).
        contents.pop("$schema", None)
        return Resource.from_contents(contents, default_specification=DRAFT202012)

    return _Validator(load_schema(schema_path), registry=Registry(retrieve=retrieve))


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


# --- each section's meaning: built by its stage, problems collected here ---------------
def _settings_builders() -> dict:
    """Each section's builder: the stage's settings class, which checks what a schema
    cannot say and raises :class:`~knight.core.checks.SettingError` keyed within the
    section. Imported on use: the stages' modules are heavier than this one."""
    from knight.claims.settings import ClaimsSettings
    from knight.exact.settings import ExactSettings
    from knight.queens.settings import QueensSettings
    from knight.report.settings import FigureSettings
    from knight.rules.settings import RulesSettings
    from knight.runtime.cluster import DaskSettings
    from knight.sweep.settings import CensusSettings, SweepSettings

    def claims(section: dict, config: dict):
        studies = {s["name"]: s["rules"] for s in config.get("rules", {}).get("studies", [])}
        return ClaimsSettings.from_config(section, studies)

    return {
        "sweep": lambda section, config: SweepSettings.from_config(section),
        "dask": lambda section, config: DaskSettings.from_config(section),
        "queens": lambda section, config: QueensSettings.from_config(section),
        "exact": lambda section, config: ExactSettings.from_config(section),
        "figures": lambda section, config: FigureSettings.from_config(section),
        "rules": lambda section, config: RulesSettings.from_config(section),
        "census": lambda section, config: CensusSettings.from_config(section),
        "claims": claims,
    }


def settings(config: dict) -> dict:
    """Each section of a schema-checked ``config`` built by its stage (section name ->
    settings object); :class:`ConfigError` naming every bad key and value otherwise."""
    from knight.core.checks import SettingError

    built, msgs = {}, []
    for section, build in _settings_builders().items():
        if section not in config:
            continue
        try:
            built[section] = build(config[section], config)
        except SettingError as exc:
            msgs += [f"config key {section}.{key}: {message}" for key, message in exc.problems]
    if msgs:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(msgs))
    return built


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
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader: no Python objects
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


def check(config: dict, schema_path: str | Path = SCHEMA) -> tuple[dict, dict]:
    """Check ``config`` whole: (the config with defaults filled in and canonical lists,
    each section's settings object, :func:`settings`). The settings are built once, from
    the config as given, so that a problem names the place the user wrote it; they
    canonicalize their lists themselves, and the workflow's plan takes them as they are.

    Raises :class:`ConfigError` listing every problem; the input is not modified.
    """
    config = copy.deepcopy(dict(config))
    msgs = schema_errors(config, schema_path)
    if msgs:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(msgs))
    built = settings(config)
    return canonical(config), built


def load(config: dict, schema_path: str | Path = SCHEMA) -> dict:
    """The checked config (:func:`check`) with defaults filled in and canonical lists."""
    return check(config, schema_path)[0]
