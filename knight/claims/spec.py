"""A published claim as the claims stage tests it: its source, its sentence, what tests it
(a rules study, a first-failure scan or the queens stage) and the finding computed from
its result tables (docs/claims.md).

A claim is built from one entry of the workflow's ``claims`` list (or in Python); every
constraint of an entry is checked here, and a bad value raises
:class:`~knight.core.checks.SettingError` naming the entry's key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from knight.core.checks import SettingError

#: The findings a claim can name (a :class:`~knight.claims.Claim`'s ``finding``), each
#: with the keys of a claim it needs; :mod:`knight.claims.findings` computes them.
FINDINGS = {
    "tours_from_corner": ("boards",),
    "failures_from_corner": ("boards",),
    "rate": ("boards", "rate"),
    "first_failures": (),
    "failure_share": ("share",),
    "queens_sequence": ("sequence",),
}
#: Findings read from a scan (:mod:`knight.claims.scan`): the first-failure ones from a
#: first-failure scan, ``failure_share`` from an every-board scan.
SCAN_FINDINGS = ("first_failures", "failure_share")
#: Comparisons of a claimed completion rate with the pipeline's.
RATE_CLAIMS = ("at_least", "at_most", "about")
#: OEIS sequences a ``queens_sequence`` claim checks (docs/queens.md).
SEQUENCES = ("A000170", "A002563", "A002564", "A075458")
#: ``tested_by`` of claims about the queens stage's tables.
QUEENS = "queens"
KEY_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def parse_range(value, key: str = "boards") -> tuple[int, ...]:
    """Board sides of a claimed range: ``{from: a, to: b}`` (both included) or a list of
    sides, each at least 1; sorted, no repeats.

    >>> parse_range({"from": 5, "to": 8})
    (5, 6, 7, 8)
    >>> parse_range([12, 7, 7])
    (7, 12)
    """
    if isinstance(value, Mapping):
        unknown = set(value) - {"from", "to"}
        lo, hi = value.get("from"), value.get("to")
        if unknown or not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)):
            raise SettingError(key, f"{dict(value)!r}: a range is {{from: a, to: b}} with integers a <= b")
        if not 1 <= lo <= hi:
            raise SettingError(key, f"{dict(value)!r}: needs 1 <= from <= to")
        return tuple(range(lo, hi + 1))
    if isinstance(value, (list, tuple)) and value:
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value):
            raise SettingError(key, f"{list(value)!r}: board sides are integers of at least 1")
        return tuple(sorted(set(value)))
    raise SettingError(key, f"{value!r}: give {{from: a, to: b}} or a list of board sides")


def describe_range(sides) -> str:
    """Board sides as short text: ``5..30``, ``5..30, 40``, ``7``.

    >>> describe_range([5, 6, 7, 9, 40, 41])
    '5..7, 9, 40..41'
    """
    sides = sorted(set(int(s) for s in sides))
    if not sides:
        return "none"
    parts, lo, prev = [], sides[0], sides[0]
    for s in sides[1:] + [None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        parts.append(f"{lo:,}" if lo == prev else f"{lo:,}..{prev:,}")
        if s is not None:
            lo = prev = s
    return ", ".join(parts)


@dataclass(frozen=True)
class Claim:
    """One published claim and how the pipeline tests it.

    Parameters
    ----------
    key : str
        The claim's name: lower-case letters, digits, ``-`` and ``_`` (it names its files).
    source : str
        Who published it, where.
    claim : str
        The sentence, as published.
    tested_by : str
        What tests it: a rules study's name (its runs are the evidence), a scan's name
        (:class:`Scan`) or ``"queens"`` (the queens stage's counts).
    finding : str
        How the finding is computed: a key of :data:`FINDINGS`.
    rule : str or None
        The study's rule the claim is about (needed when the study runs several).
    boards : tuple of int
        The board sides m (m x m boards, from (1, 1)) the claim speaks of.
    exclude : tuple of int
        Sides left out of ``boards``.
    rate : tuple or None
        A claimed completion rate ``(comparison, fraction)``: comparison ``"at_least"``,
        ``"at_most"`` or ``"about"``, fraction from 0 to 1.
    most : float
        The share of boards (above 0, at most 1) on which a rate claim must hold ("almost all").
    last_failure : int or None
        The largest m on which the source says the order fails.
    first_failure : int or None
        The side m of the m x m board on which the source says the rule first fails (some
        order must first fail there).
    share : float or None
        For ``failure_share``: some order must fail on fewer than this share of the boards
        (above 0, at most 1).
    sequence : str or None
        For ``queens_sequence``: the OEIS sequence (``A000170``, ``A002563``, ``A002564``
        or ``A075458``).

    Raises
    ------
    knight.core.checks.SettingError
        A bad field, or one its finding needs missing, named in one line (a ``ValueError``).

    See Also
    --------
    evaluate : The claim's finding from the tables.

    Examples
    --------
    >>> Claim("sc", "Squirrel & Cull (1996)", "Tours on every board.", "sc", "tours_from_corner",
    ...       boards=(5, 6)).tested_sides
    (5, 6)
    """

    key: str
    source: str
    claim: str
    tested_by: str
    finding: str
    rule: str | None = None
    boards: tuple[int, ...] = ()
    exclude: tuple[int, ...] = ()
    rate: tuple[str, float] | None = None
    most: float = 1.0
    last_failure: int | None = None
    first_failure: int | None = None
    share: float | None = None
    sequence: str | None = None

    def __post_init__(self) -> None:
        if not KEY_PATTERN.match(self.key or ""):
            raise SettingError("key", f"{self.key!r}: lower-case letters, digits, '-' and '_' (a file name)")
        for name in ("source", "claim", "tested_by"):
            if not str(getattr(self, name) or "").strip():
                raise SettingError(name, f"claim {self.key!r}: needs a {name}")
        if self.finding not in FINDINGS:
            raise SettingError("finding", f"{self.finding!r}: not one of {', '.join(FINDINGS)}")
        for need in FINDINGS[self.finding]:
            if getattr(self, need) in (None, ()):
                raise SettingError(need, f"claim {self.key!r}: finding {self.finding} needs {need}")
        if self.rate is not None:
            how, value = self.rate
            if how not in RATE_CLAIMS:
                raise SettingError("rate", f"{how!r}: a claimed rate is one of {', '.join(RATE_CLAIMS)}")
            if not 0.0 <= value <= 1.0:
                raise SettingError("rate", f"{value!r}: a rate is a fraction from 0 to 1")
        if self.share is not None and not 0.0 < self.share <= 1.0:
            raise SettingError("share", f"{self.share!r}: a share of boards above 0 and at most 1")
        if not 0.0 < self.most <= 1.0:
            raise SettingError("most", f"{self.most!r}: a share of boards above 0 and at most 1")
        if self.sequence is not None and self.sequence not in SEQUENCES:
            raise SettingError("sequence", f"{self.sequence!r}: not one of {', '.join(SEQUENCES)}")
        if (self.tested_by == QUEENS) != (self.finding == "queens_sequence"):
            raise SettingError("tested_by", f"{self.tested_by!r}: queens_sequence findings, and only they, read queens")
        if self.boards and not set(self.boards) - set(self.exclude):
            raise SettingError("exclude", f"{list(self.exclude)!r}: leaves no board of the claim")

    @classmethod
    def from_config(cls, entry: Mapping) -> Claim:
        """A claim from one ``claims`` entry of the workflow's config.

        Parameters
        ----------
        entry : Mapping
            The entry: the fields of :class:`Claim`, with ``rate`` as ``{at_least: p}``,
            ``{at_most: p}`` or ``{about: p}`` and ``boards``, ``exclude`` as lists or
            ``{from, to}`` ranges.

        Returns
        -------
        Claim
            The claim.

        Raises
        ------
        knight.core.checks.SettingError
            A bad entry, naming the key (a ``ValueError``).
        """
        e = dict(entry)
        rate = e.pop("rate", None)
        if rate is not None:
            if not isinstance(rate, Mapping) or len(rate) != 1:
                raise SettingError("rate", f"{rate!r}: one of {{at_least: p}}, {{at_most: p}}, {{about: p}}")
            ((how, value),) = dict(rate).items()
            rate = (how, float(value))
        for name in ("boards", "exclude"):
            if name in e:
                e[name] = parse_range(e[name], name) if e[name] != [] else ()
        return cls(**e, rate=rate)

    @property
    def tested_sides(self) -> tuple[int, ...]:
        """The board sides the claim speaks of (``boards`` less ``exclude``)."""
        return tuple(m for m in self.boards if m not in set(self.exclude))

    def command(self, configfile: str = "config/claims.yaml") -> str:
        """The command that remakes this claim's finding.

        Parameters
        ----------
        configfile : str
            The config file the command names.

        Returns
        -------
        str
            A ``snakemake`` command line.

        Examples
        --------
        >>> Claim("sc", "S&C", "Tours.", "sc", "tours_from_corner", boards=(5,)).command()
        'snakemake --cores all results/claims/claim/sc.json --configfile config/claims.yaml'
        """
        return f"snakemake --cores all results/claims/claim/{self.key}.json --configfile {configfile}"
