"""The claims stage's settings (the workflow's ``claims`` section): its scans and its
claims, each built as the library builds it (:class:`knight.claims.scan.Scan`,
:class:`knight.claims.spec.Claim`), and how they fit together and with the rules
stage's studies. :class:`~knight.core.checks.SettingError` names the key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from knight.claims.scan import Scan
from knight.claims.spec import QUEENS, SCAN_FINDINGS, Claim
from knight.core.checks import Problems


@dataclass(frozen=True)
class ClaimsSettings:
    """``scans`` and ``claims`` by name; ``studies`` maps a rules study's name to its rules.
    A claim tested by nothing configured is not an error: it shows as not run."""

    scans: dict[str, Scan]
    claims: dict[str, Claim]

    @classmethod
    def from_config(cls, section: Mapping, studies: Mapping[str, Sequence[str]]) -> ClaimsSettings:
        found = Problems()
        scans: dict[str, Scan] = {}
        for i, entry in enumerate(section.get("scans", [])):
            if entry["name"] in scans or entry["name"] in studies or entry["name"] == QUEENS:
                found.add(f"scans[{i}].name", f"{entry['name']!r}: another scan or study has this name")
                continue
            with found.under(f"scans[{i}]"):
                scans[entry["name"]] = Scan.from_config(entry)
        for i, entry in enumerate(section.get("scans", [])):
            scan = scans.get(entry["name"])
            if scan is not None and scan.of is not None:
                _check_source(found, f"scans[{i}].orders.of", scan, scans)
        claims: dict[str, Claim] = {}
        for i, entry in enumerate(section.get("entries", [])):
            if entry["key"] in claims:
                found.add(f"entries[{i}].key", f"{entry['key']!r}: another claim has this key")
            with found.under(f"entries[{i}]"):
                claim = Claim.from_config(entry)
                _check_tested_by(found, f"entries[{i}]", claim, scans, studies)
                claims[entry["key"]] = claim
        found.raise_any()
        return cls(scans, claims)


def _check_source(found: Problems, key: str, scan: Scan, scans: Mapping[str, Scan]) -> None:
    """A scan taking the orders of another: that one is a first-failure scan of all or listed orders."""
    source = scans.get(scan.of)
    if source is None:
        found.add(key, f"{scan.of!r}: no scan of this config has this name")
    elif source.of is not None or source.every_board:
        found.add(key, f"{scan.of!r}: not a first-failure scan of all or listed orders")


def _check_tested_by(found: Problems, key: str, claim: Claim, scans, studies) -> None:
    """What tests a claim suits its finding, and its rule is one the study runs."""
    scan_finding = claim.finding in SCAN_FINDINGS
    by = claim.tested_by
    if by in scans and not scan_finding or by in studies and scan_finding:
        kind = "a scan" if by in scans else "a rules study"
        found.add(f"{key}.tested_by", f"{by!r}: is {kind}, which {claim.finding} cannot read")
    elif by in scans and scans[by].every_board != (claim.finding == "failure_share"):
        kind = "an every-board scan" if scans[by].every_board else "a first-failure scan"
        found.add(f"{key}.tested_by", f"{by!r}: is {kind}, which {claim.finding} cannot read")
    elif by in studies:
        rules = list(dict.fromkeys(studies[by]))
        if claim.rule is not None and claim.rule not in rules:
            found.add(f"{key}.rule", f"{claim.rule!r}: study {by!r} runs {', '.join(rules)}")
        elif claim.rule is None and len(rules) > 1:
            found.add(f"{key}.rule", f"(none): study {by!r} runs {', '.join(rules)}: name one")
