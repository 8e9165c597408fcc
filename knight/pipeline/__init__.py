"""The workflow's side of the library: the configuration check (:mod:`.config`) and the
hash of the code each workflow script runs (:mod:`.codehash`).
"""
