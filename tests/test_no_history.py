"""Code and config say what and why, never history: no dates, no benchmark figures, no
commit hashes and no "measured" in knight/, workflow/ or config/ (figures live on the
performance page, their history in CHANGELOG.md)."""

import re
from pathlib import Path

import pytest

#: What history looks like in a comment or docstring.
HISTORY = {
    "a date": re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b"),
    '"measured"': re.compile(r"\bmeasured\b", re.IGNORECASE),
    "a speed figure": re.compile(
        r"\b\d+(\.\d+)?\s?%\s(faster|slower)\b"
        r"|(?<![\dx])\d+\.\d+\s?[x×](?!\d)"
        r"|\b\d+(\.\d+)?(-\d+(\.\d+)?)?\stimes\s(the|as)\s(speed|steps|cpu|fast)",
        re.IGNORECASE,
    ),
    "a rate or cost figure": re.compile(
        r"\b\d+(\.\d+)?\s?M\s(knight\s)?steps|\d[\d.,]*\s?CPU[- ](hours?|min|s)\b|~\s?\d[\d.]*\s?(s|min|h|GB|MB)\b",
        re.IGNORECASE,
    ),
    "a commit": re.compile(r"\bcommit\s[0-9a-f]{7,40}\b", re.IGNORECASE),
}
SUFFIXES = {".py", ".smk", ".yaml", ".rst", ".sbatch", ".json"}


def history(text: str) -> list[str]:
    """What in ``text`` reads as history (module docstring), one entry per find."""
    return [f"{what}: {m.group(0)!r}" for what, pattern in HISTORY.items() for m in pattern.finditer(text)]


@pytest.mark.parametrize(
    "text, found",
    [
        ("measured 2026-12-03", 2),
        ("# 5-12 % faster; 1.14x the knight steps", 2),
        ("1.3-1.8 times the speed", 1),
        ("about 60 M steps a second; 4,201 CPU-s; ~4 min", 3),
        ("at commit e7d978c", 1),
        ("an 8x8 board, 0x7F, 40,320 orders, the Wilson interval at 95 %", 0),
    ],
)
def test_history_is_found(text, found):
    assert len(history(text)) == found, history(text)


def test_code_and_config_carry_no_history(repo):
    hits = []
    for folder in ("knight", "workflow", "config"):
        for path in sorted(Path(repo, folder).rglob("*")):
            if path.suffix in SUFFIXES or path.name == "Snakefile":
                for i, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                    hits += [f"{path.relative_to(repo)}:{i}: {h}" for h in history(line)]
    hits += [f"Snakefile: {h}" for h in history(Path(repo, "Snakefile").read_text())]
    assert not hits, "\n".join(hits)
