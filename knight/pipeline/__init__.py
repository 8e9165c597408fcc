"""The workflow's side of the library: the configuration check (:mod:`.config`), the plan
of every stage's jobs (:mod:`.plan`), the results versions that decide reruns
(:mod:`.versions`), the start-up check of stored results (:mod:`.integrity`) and
Slurm's limits (:mod:`.slurm`).
"""
