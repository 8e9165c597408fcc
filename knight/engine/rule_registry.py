"""The tie-break rules, declared once: each rule's name, integer code and properties.

Every other list of rule names in the library is derived from :data:`REGISTRY`
(:mod:`knight.engine.tiebreak` re-exports ``RULES``, the code constants,
``ORDER_RULES``, ``RANDOM_RULES`` and the ``DEFAULT_*`` settings); the config schema
and the plain reference of the tests are held equal to it by tests. The rules
themselves are described in docs/conventions.md, "Tie-break rules".
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
    pairs of the settings the rule takes, in the order rows and job parameters list them.
    """

    name: str
    code: int
    takes_orders: bool = False
    random: bool = False
    switches_orders: bool = False
    settings: tuple[tuple[str, object], ...] = ()

    @property
    def defaults(self) -> dict:
        """Setting name -> default value."""
        return dict(self.settings)


#: Every rule, in the order of its code.
REGISTRY = (
    Rule("fixed", 0, takes_orders=True, settings=_ORDER),
    Rule("pohl", 1, takes_orders=True, settings=_ORDER),
    Rule("roth", 2, takes_orders=True, settings=_ORDER),
    Rule("corner", 3, takes_orders=True, settings=_ORDER),
    Rule("random", 4, random=True, settings=_DRAWS),
    Rule("random-order", 5, random=True, settings=_DRAWS + (("retries", DEFAULT_RETRIES),)),
    Rule("squirrel-cull", 6, switches_orders=True),
    Rule("pohl-random", 7, random=True, settings=_DRAWS),
    Rule("roth-random", 8, random=True, settings=_DRAWS),
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
