"""The rules stage's settings: the workflow's ``rules`` section checked, every problem
keyed within it, and its studies built (:class:`knight.rules.study.Study`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from knight.core.checks import (
    Problems,
    boards_setting,
    given_once,
    order_setting,
    orders_setting,
    squares_setting,
)
from knight.engine.tiebreak import RULES
from knight.rules.study import RuleSpec, Study

#: Largest board of the rules stage (one padded byte per square in a run).
MAX_RULES_SQUARES = 100_000_000


@dataclass(frozen=True)
class RulesSettings:
    """The rules stage's settings (the workflow's ``rules`` section): its studies, each
    built as :meth:`Study.from_config` builds it. Every constraint of the section is
    checked here or in the objects it builds; problems are keyed within the section
    (``studies[1].starts[0]``, ``settings.pohl.order``)."""

    studies: tuple[Study, ...]

    @classmethod
    def from_config(cls, section: Mapping) -> RulesSettings:
        found = Problems()
        for rule, settings in (section.get("settings") or {}).items():
            if isinstance(settings, Mapping) and "order" in settings:
                with found.under(f"settings.{rule}.order"):
                    order_setting(settings["order"])
                if found:
                    continue
            with found.under(f"settings.{rule}"):
                RuleSpec.from_settings(rule, {rule: settings})
        if found:
            found.raise_any()  # every study would repeat them
        studies, names = [], set()
        for i, entry in enumerate(section.get("studies") or []):
            if entry["name"] in names:
                found.add(f"studies[{i}].name", f"{entry['name']!r}: another study has this name")
            names.add(entry["name"])
            with found.under(f"studies[{i}]"):
                studies.append(_study(entry, section))
        found.raise_any()
        return cls(tuple(studies))

    def by_name(self) -> dict[str, Study]:
        return {s.name: s for s in self.studies}


def _study(entry: Mapping, section: Mapping) -> Study:
    """One study entry: its boards, starts, orders and rules' orders checked as values
    first (each problem named), then the study built (its own constraints)."""
    found = Problems()
    boards = []
    with found.under("boards"):
        boards = boards_setting(entry["boards"], max_squares=MAX_RULES_SQUARES)
    seen: dict = {}
    for i, rule in enumerate(entry["rules"]):
        with found.under(f"rules[{i}]"):
            given_once(seen, rule, f"rules[{i}]", repr(rule))
    if isinstance(entry.get("starts"), list):
        with found.under("starts"):
            squares_setting(entry["starts"], boards)
    if isinstance(entry.get("orders"), list):
        with found.under("orders"):
            orders_setting(entry["orders"])
    for rule, own in (entry.get("settings") or {}).items():
        if "order" in own:
            with found.under(f"settings.{rule}.order"):
                order_setting(own["order"])
    found.raise_any()  # the study cannot be built from values already named
    return Study.from_config(entry, section)


#: ``RULES``: the names a study's ``rules`` may hold (the workflow's ``rule`` wildcard).
__all__ = ["MAX_RULES_SQUARES", "RULES", "RulesSettings"]
