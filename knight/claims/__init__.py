"""The claims stage: published claims about Warnsdorff's rule and about queens, checked by
the pipeline's own result tables (:doc:`/claims`).

A :class:`Claim` names its source, its sentence, what tests it (a rules study, a
scan or the queens stage) and how the finding is computed
(:data:`FINDINGS`); :func:`evaluate` computes the :class:`Finding` from those tables;
:func:`first_failures` is the scan itself (for each tie order, the first board on which
a rule fails from (1, 1)), :func:`failures_every_board` the every-board scan (each order
on every board, the boards it fails on) and :func:`longest_lasting` picks the orders
that last longest in a first-failure scan.
"""

from knight._lazy import attach

#: Public names and the module each comes from (imported on first use).
_EXPORTS = {
    "Claim": "knight.claims.spec",
    "FINDINGS": "knight.claims.spec",
    "Finding": "knight.claims.findings",
    "evaluate": "knight.claims.evaluate",
    "first_failures": "knight.claims.scan",
    "failures_every_board": "knight.claims.scan",
    "longest_lasting": "knight.claims.scan",
    "to_table": "knight.claims.scan",
    "Scan": "knight.claims.scan",
}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
__all__ = list(_EXPORTS)
