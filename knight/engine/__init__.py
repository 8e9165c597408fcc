"""The walk engine: Warnsdorff's rule computed, in numba kernels that release the GIL.

Every stage that walks a knight uses these modules and no other copy of them:
:mod:`.layout` (the padded board every kernel walks on, the outcome row),
:mod:`.step` (the Warnsdorff step every kernel takes),
:mod:`.tiebreak` (the tie-break rules' names and settings, the narrowing of a tie),
:mod:`.rng` (the counter-based generator of the random rules), :mod:`.squirrel_cull`
(Squirrel and Cull's schedule of orders), :mod:`.walk` (runs of any rule, one at a time
or two side by side, and brute force over (start, order) pairs), :mod:`.brute` (the
fixed rule's pair and single-run names, on :mod:`.walk`),
:mod:`.tree` (the tie tree: every tie order from a start at the cost of its distinct
paths), :mod:`.rows` (the rows of one start orbit by either engine) and
:mod:`.runs_table` (the runs table those rows make).
"""
