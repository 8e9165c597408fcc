"""One word, one meaning (docs/conventions.md, "Words"): stage targets are named
``*_stage``, never ``*_study``; a Snakemake rule is called "Snakemake rule" in the docs,
not "Snakefile rule" or "workflow rule"; the glossary defines every word it promises."""

import re
from pathlib import Path

import pytest

#: Names a Snakemake rule of a stage's outputs once had (a study is a ``rules.studies`` entry).
STUDY_TARGET = re.compile(r"\b(sweep|tables|rules|queens|exact|figures|report)_study\b")
#: Other names for a Snakemake rule, the old name of the default pipeline, and "pipeline run"
#: (a run is one walk of the knight).
WRONG_WORDS = re.compile(r"\b(snakefile rules?|workflow rules?|default study|pipeline runs?)\b", re.IGNORECASE)
GLOSSARY = ("board", "start", "order", "rule", "run", "tour", "study", "stage", "Snakemake rule", "job", "target")


def docs(repo) -> list[Path]:
    return [Path(repo, "README.md"), *sorted(Path(repo, "docs").glob("*.md"))]


def smk_files(repo) -> list[Path]:
    return [Path(repo, "Snakefile"), *sorted(Path(repo, "workflow", "rules").glob("*.smk"))]


def study_targets(text: str) -> list[str]:
    """Every ``*_study`` stage target named in ``text``."""
    return [m.group(0) for m in STUDY_TARGET.finditer(text)]


def wrong_words(text: str) -> list[str]:
    """Every "Snakefile rule" / "workflow rule" / "default study" / "pipeline run" in ``text``."""
    return [m.group(0) for m in WRONG_WORDS.finditer(text)]


def snakemake_rules(repo) -> dict[str, str]:
    """Snakemake rule name -> its docstring (first line), over the Snakefile and every .smk file."""
    found = {}
    for path in smk_files(repo):
        for m in re.finditer(r'(?m)^rule (\w+):\n(?:\s+"""(.*))?', path.read_text()):
            found[m.group(1)] = m.group(2) or ""
    return found


def test_the_checks_catch_the_old_words():
    assert study_targets("snakemake --cores all sweep_study, `exact_study`") == ["sweep_study", "exact_study"]
    assert study_targets("knight.queens.speedup.time_searches; study=corner; sweep_stage") == []
    assert wrong_words("The Snakefile rule `x` and workflow rules; the default study; a pipeline run") == [
        "Snakefile rule",
        "workflow rules",
        "default study",
        "pipeline run",
    ]
    assert wrong_words("a Snakemake rule, the workflow's rules stage, the default pipeline") == []


@pytest.mark.parametrize("kind", ["smk", "docs"])
def test_no_study_targets(repo, kind):
    files = smk_files(repo) if kind == "smk" else docs(repo)
    bad = {p.name: study_targets(p.read_text()) for p in files}
    assert not {k: v for k, v in bad.items() if v}


def test_no_other_names_for_a_snakemake_rule(repo):
    bad = {p.name: wrong_words(p.read_text()) for p in docs(repo)}
    assert not {k: v for k, v in bad.items() if v}


def test_stage_targets_are_named_for_their_stage(repo):
    """Every Snakemake rule that makes "just" one stage is ``STAGE_stage``, and every
    ``*_stage`` the docs name is a Snakemake rule of the workflow."""
    rules = snakemake_rules(repo)
    just = {name for name, doc in rules.items() if doc.startswith("Just ")}
    assert just and all(name.endswith("_stage") or name == "figures" for name in just), just
    named = {m for p in docs(repo) for m in re.findall(r"\b[a-z]+_stage\b", p.read_text())}
    assert named and named <= set(rules), named - set(rules)


def test_glossary_defines_every_word(repo):
    text = Path(repo, "docs", "conventions.md").read_text()
    section = text.split("\n## Words\n", 1)[1].split("\n## ", 1)[0]
    defined = re.findall(r"(?m)^- \*\*([^*]+)\*\*", section)
    assert [w for w in GLOSSARY if w not in defined] == []
