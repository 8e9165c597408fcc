"""The claims stage's jobs: scans, each claim's finding, the claims table."""

from __future__ import annotations

from collections.abc import Callable

from knight.pipeline.jobs.common import part_number, version_param
from knight.pipeline.paths import PATTERNS, path


class ClaimsJobs:
    """The claims stage's jobs: scans, each claim's finding, the claims table.

    A mixin of :class:`knight.pipeline.plan.Plan`, whose settings (``self.sweep``,
    ``self.studies``, ...) it reads."""

    def _claims_stage_targets(self) -> dict[str, Callable[[], list[str]]]:
        """The final outputs of this module's stages, by stage."""
        return {
            "claims": self._claims_targets,
        }

    def _claims_rule_params(self) -> dict[str, Callable[[], dict]]:
        """The parameters of this module's Snakemake rules, by rule."""
        return {
            "claims_scan": self._params_claims_scan,
            "claim_finding": self._params_claim_finding,
            "claims_table": lambda: version_param("claims_table"),
            "publish_claims": lambda: version_param("publish_claims"),
        }

    def scan_files(self, name: str, kind: str = "part") -> list[str]:
        """One scan's slice files (part: rows, Parquet; times: steps and seconds, JSON)."""
        pattern = PATTERNS["scan_part" if kind == "part" else "scan_times"]
        return [pattern.format(scan=name, slice=part_number(k)) for k in range(self.scans[name].slices)]

    def scan_inputs(self, scan: str) -> dict:
        """What a scan's slice reads: the stored table of the scan whose orders it takes."""
        of = self.scans[scan].of
        return {"of": self.scan_files(of)} if of else {}

    def claim_kind(self, key: str) -> str:
        """Where a claim's evidence comes from: runs (a rules study), scan, queens, or none."""
        from knight.claims.spec import QUEENS as QUEENS_TABLES

        by = self.claims[key].tested_by
        if by == QUEENS_TABLES:
            return "queens"
        return "runs" if by in self.studies else "scan" if by in self.scans else "none"

    def claim_inputs(self, key: str) -> dict:
        """The stored tables a claim's finding reads (none: what tests it is not in the run)."""
        claim, kind = self.claims[key], self.claim_kind(key)
        if kind == "runs":
            rules = [claim.rule] if claim.rule else [s.rule for s in self.studies[claim.tested_by].rules]
            return {
                "manifests": [f"{self.rules_folder(claim.tested_by, r)}/_manifest.json" for r in rules],
                "times": [f for r in rules for f in self.rules_parts(claim.tested_by, r, "times")],
            }
        if kind == "scan":
            return {"parts": self.scan_files(claim.tested_by), "times": self.scan_files(claim.tested_by, "times")}
        if kind == "queens":
            return {
                "counts": path("queens_sets", name="counts", ext="parquet"),
                "summaries": [path("queens_frontier", search=name, ext="json") for name in self.frontier],
            }
        return {}

    def _claims_targets(self) -> list[str]:
        return [path("claims_table", ext=ext) for ext in ("parquet", "csv", "md", "html")]

    def _params_claims_scan(self) -> dict:
        return {"scan": lambda wc: self.scans[wc.scan].params(int(wc.slice)), **version_param("claims_scan")}

    def _params_claim_finding(self) -> dict:
        entries = {e["key"]: e for e in self.config["claims"]["entries"]}

        def scan_boards(wc):
            if self.claim_kind(wc.claim) != "scan":
                return None
            return self.scans[self.claims[wc.claim].tested_by].params(0)["boards"]

        return {
            "claim": lambda wc: entries[wc.claim],
            "kind": lambda wc: self.claim_kind(wc.claim),
            "scan": scan_boards,
            **version_param("claim_finding"),
        }


#: Job kinds whose only parameter is their results version (their results depend on
#: their inputs and code only).
