"""docs/development.md, "Adding a stage": every stage has the files that page lists."""

import importlib
import re
from pathlib import Path

import pytest

from knight.pipeline.config import SCHEMA, _settings_builders, load_schema
from knight.pipeline.versions import VERSIONS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "development.md"
#: Each stage: its package, its config sections, its rules files, its docs pages.
STAGES = {
    "sweep": (("sweep", "census"), ("sweep", "tables", "census"), ("sweep", "tables", "census")),
    "rules": (("rules",), ("rules",), ("rules",)),
    "queens": (("queens",), ("queens",), ("queens",)),
    "exact": (("exact",), ("exact",), ("exact",)),
    "claims": (("claims",), ("claims",), ("claims",)),
    "report": (("figures",), ("figures",), ("figures",)),
}
#: A stage's module of knight/pipeline/jobs/ where it is not named as the stage.
JOBS = {"report": "figures"}


def test_the_stages_here_are_the_packages_the_architecture_knows():
    from test_architecture import STAGES as PACKAGES

    assert set(STAGES) == {*PACKAGES, "report"}


def test_the_page_lists_what_this_test_holds():
    page = PAGE.read_text()
    section = page[page.index("## Adding a stage") :]
    section = section[: section.index("\n## ", 3)]
    for words in ("settings.py", "schema.yaml", "paths.py", "workflow/rules/NAME.smk", "jobs/NAME.py", "versions.py"):
        assert words in section, words


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_a_stage_has_every_file_it_needs(stage):
    sections, smk_files, pages = STAGES[stage]
    package = ROOT / "knight" / stage
    assert (package / "__init__.py").is_file()
    settings = importlib.import_module(f"knight.{stage}.settings")
    assert any(hasattr(getattr(settings, n), "from_config") for n in dir(settings) if n.endswith("Settings"))
    builders = _settings_builders()
    root = load_schema(SCHEMA)["properties"]
    for section in sections:
        assert section in builders, section
        assert section in root, section
        if "$ref" in root[section]:
            assert (SCHEMA.parent / root[section]["$ref"]).is_file(), section
    from knight.pipeline.plan import Plan

    jobs = importlib.import_module(f"knight.pipeline.jobs.{JOBS.get(stage, stage)}")
    mixins = [c for c in vars(jobs).values() if isinstance(c, type) and c.__module__ == jobs.__name__]
    assert len(mixins) == 1 and mixins[0] in Plan.__bases__, stage
    paths = importlib.import_module(f"knight.{stage}.paths").PATHS
    assert paths and all(p.startswith(("results/", "docs/results/")) for p in paths.values())
    snakefile = (ROOT / "Snakefile").read_text()
    guide = (ROOT / "docs" / "user-guide.md").read_text()
    for name in smk_files:
        smk = ROOT / "workflow" / "rules" / f"{name}.smk"
        assert f'include: "workflow/rules/{name}.smk"' in snakefile, name
        for rule in re.findall(r'PLAN\.params\("([\w-]+)"\)', smk.read_text()):
            assert any(kind.split(":")[0] == rule for kind in VERSIONS), rule
    for page in pages:
        assert (ROOT / "docs" / f"{page}.md").is_file(), page
        assert re.search(rf"^{page}$", guide, re.M), page


def test_every_path_belongs_to_one_stage():
    from knight.pipeline.paths import PATHS

    owned = [key for stage in STAGES for key in importlib.import_module(f"knight.{stage}.paths").PATHS]
    assert sorted(owned) == sorted(PATHS)
