"""Where and how work runs, never what it computes: Dask clients (:mod:`.cluster`),
script logging (:mod:`.logs`), progress lines (:mod:`.progress`).
"""
