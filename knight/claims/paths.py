"""The files the claims stage's workflow jobs write, by name (as :mod:`knight.sweep.paths`)."""

PATHS = {
    "scan_part": "results/claims/scans/{scan}/part-{slice}.parquet",
    "scan_times": "results/claims/scans/{scan}/times-{slice}.json",
    "claims_scan.log": "results/logs/claims/{scan}/part-{slice}.log",
    "claim_finding": "results/claims/claim/{claim}.{ext}",
    "claim_finding.log": "results/logs/claims/{claim}.log",
    "claims_table": "results/claims/claims.{ext}",
    "claims_table.log": "results/logs/claims/table.log",
    "publish_claims": "docs/results/claims.md",
    "publish_claims.log": "results/logs/claims/publish.log",
}
