"""The tie-break rules, declared once: each rule's name, integer code, properties and
settings.

Everything else is derived from :data:`REGISTRY`: :mod:`knight.engine.tiebreak`'s
``RULES``, code constants, ``ORDER_RULES``, ``RANDOM_RULES`` and ``DEFAULT_*``
settings; the tables the kernels dispatch on (:func:`kernel_tables`); the config
schema's rule names and settings (:func:`knight.pipeline.config.load_schema`); the
command line's choices. The plain reference of the tests is held equal to it by a test.
The rules themselves are described in docs/conventions.md, "Tie-break rules".
"""

from __future__ import annotations

from dataclasses import dataclass

#: Defaults of the rules' settings: the tie order after a rule's key (highest priority
#: first), the generator's seed, runs per start of a random rule, random-order's
#: attempts per run at most.
DEFAULT_ORDER = "12345678"
DEFAULT_SEED = 1
DEFAULT_TRIALS = 100
DEFAULT_RETRIES = 10

#: The settings' names and their schema definitions (``$defs`` of the rules section's
#: schema, knight/pipeline/schemas/rules.schema.yaml).
SETTINGS = ("order", "seed", "trials", "retries")

_ORDER = (("order", DEFAULT_ORDER),)
_DRAWS = (("seed", DEFAULT_SEED), ("trials", DEFAULT_TRIALS))


@dataclass(frozen=True)
class Rule:
    """One tie-break rule.

    ``name``: as in configs, rows and the command line; ``code``: the int the numba
    kernels take (its index in :data:`REGISTRY`); ``takes_orders``: the ties left after
    the rule's key are broken by a tie order (the tie-tree engine sweeps such rules);
    ``random``: the rule draws random numbers (its rows carry a trial number);
    ``switches_orders``: fixed orders switched along the tour by a schedule that exists
    for square boards of side 5 or more, from (1, 1) only; ``settings``: (name, default)
    pairs of the settings the rule takes, in the order rows and job parameters list them;
    ``summary``: what the rule does, in a line (the config reference shows it).

    What the kernels dispatch on: ``key``, the name of the rule whose key narrows a tie
    first (``""``: none; the key itself is the kernel hook,
    :func:`knight.engine.tiebreak.narrow`); ``draw``, a uniform draw decides what the key
    leaves tied; ``attempts``, whole runs under drawn orders until one completes.
    """

    name: str
    code: int
    takes_orders: bool = False
    random: bool = False
    switches_orders: bool = False
    settings: tuple[tuple[str, object], ...] = ()
    key: str = ""
    draw: bool = False
    attempts: bool = False
    summary: str = ""

    @property
    def defaults(self) -> dict:
        """Setting name -> default value."""
        return dict(self.settings)


#: Every rule, in the order of its code.
REGISTRY = (
    Rule("fixed", 0, takes_orders=True, settings=_ORDER, summary="least degree, then the order"),
    Rule(
        "pohl",
        1,
        takes_orders=True,
        settings=_ORDER,
        key="pohl",
        summary="least degree, then smallest sum of the neighbours' degrees, then the order",
    ),
    Rule(
        "roth",
        2,
        takes_orders=True,
        settings=_ORDER,
        key="roth",
        summary="least degree, then farthest from the centre, then the order",
    ),
    Rule(
        "corner",
        3,
        takes_orders=True,
        settings=_ORDER,
        key="corner",
        summary="least degree, then nearest to a corner, then the order",
    ),
    Rule("random", 4, random=True, settings=_DRAWS, draw=True, summary="least degree, then a uniform draw"),
    Rule(
        "random-order",
        5,
        random=True,
        settings=_DRAWS + (("retries", DEFAULT_RETRIES),),
        attempts=True,
        summary="attempts of fixed under uniformly drawn orders, until a complete tour",
    ),
    Rule(
        "squirrel-cull",
        6,
        switches_orders=True,
        summary="Squirrel and Cull's switched orders (square boards of side 5 or more, from (1, 1))",
    ),
    Rule(
        "pohl-random",
        7,
        random=True,
        settings=_DRAWS,
        key="pohl",
        draw=True,
        summary="least degree, then smallest sum of the neighbours' degrees, then a uniform draw",
    ),
    Rule(
        "roth-random",
        8,
        random=True,
        settings=_DRAWS,
        key="roth",
        draw=True,
        summary="least degree, then farthest from the centre, then a uniform draw",
    ),
)

_BY_NAME = {r.name: r for r in REGISTRY}


def rule(name: str) -> Rule:
    """The rule named ``name``; ``ValueError`` naming the rules for an unknown one."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"rule {name!r} is not one of {', '.join(_BY_NAME)}") from None


def names(**properties: bool) -> tuple[str, ...]:
    """Names of the rules whose properties have the given values, in code order, e.g.
    ``names(random=True)``; every name without arguments."""
    for key in properties:
        if key not in ("takes_orders", "random", "switches_orders"):
            raise ValueError(f"{key!r} is not a property of a rule")
    return tuple(r.name for r in REGISTRY if all(getattr(r, k) == v for k, v in properties.items()))


def kernel_tables():
    """What the numba kernels dispatch on, by rule code: ``key`` (int64, the code of the
    rule whose key narrows a tie, -1 for none) and ``draw`` and ``attempts`` (bool), from
    each rule's properties. Numba freezes global arrays into a kernel when it compiles,
    so these cost the kernels nothing per step.

    >>> key, draw, attempts = kernel_tables()
    >>> int(key[rule("pohl-random").code]) == rule("pohl").code, bool(draw[rule("fixed").code])
    (True, False)
    """
    import numpy as np

    key = np.array([rule(r.key).code if r.key else -1 for r in REGISTRY], np.int64)
    draw = np.array([r.draw for r in REGISTRY], np.bool_)
    attempts = np.array([r.attempts for r in REGISTRY], np.bool_)
    return key, draw, attempts
