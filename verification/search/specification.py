"""A claim as a specification: the statement, its domain, its right sides and its left side.

A :class:`Statement` reads like the lemma: the variables it quantifies over (a
:class:`~verification.search.domain.Domain`), the right side as printed and each corrected
one as formula strings (:class:`~verification.search.formula.Formula`), and the left side
through its evaluators (:class:`LeftSide`): ``exact`` (in log space, wherever the instance's
law is known) and ``sample`` (one trial of the shipped implementation).  It holds no grid, no
seed plumbing and no decision: :mod:`verification.search.search` searches it and
:mod:`verification.search.decide` decides it.

Statements are registered by id (:func:`register_statement`) so that the engine and the
command line find a claim's specification (:func:`declared_domain`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from verification.search.domain import Choice, Domain
from verification.search.formula import Formula

__all__ = ["EXPECTATION", "PRINTED", "PROBABILITY", "ExactValue", "LeftSide", "Plan", "Statement", "declared_domain",
           "register_statement", "registered", "statement"]

#: the name of the printed right side among a statement's sides.
PRINTED = "printed"
#: the kinds of left side: a probability ``P[event]`` (a trial says whether the event happened)
#: or an expectation ``E[X]`` of a bounded ``X >= 0`` (a trial draws ``X``).
PROBABILITY, EXPECTATION = "probability", "expectation"


@dataclass(frozen=True)
class ExactValue:
    """The left side at one instance, in exact (or stated-precision) arithmetic.

    Attributes
    ----------
    log : float
        Its natural logarithm (``-inf`` for 0).
    text : str
        The value as computed (a rational ``p/q``, or a decimal with its precision).
    method : str
        How: ``"rational arithmetic"``, ``"log-space float64 (relative error < 1e-9)"``.
    """

    log: float
    text: str
    method: str


@dataclass(frozen=True)
class LeftSide:
    """The left side of a bound (a probability or an expectation) and its evaluators.

    Parameters
    ----------
    text : str
        The left side in words or formulas, ``"P[|E - <f, Phi(x)>| > eps]"``.
    exact : callable ``(instance) -> array``
        The natural logarithm of the left side at an instance (variable -> value), the line
        variable of the domain given as an array (the result broadcasts over it); fast, for
        the search.
    sample : callable ``(instance, seed) -> bool`` or ``(instance, seed) -> float``
        One trial of the shipped implementation, called with its public defaults: whether
        the event happened (``kind="probability"``), or one draw of the quantity whose mean
        is the left side (``kind="expectation"``).
    certify : callable ``(instance) -> ExactValue``, optional
        The left side at one instance in exact arithmetic, for the verdict; without it the
        verdict uses ``exact``.
    sampling_point : callable ``(instance) -> instance``, optional
        An instance with the same exact left side at which sampling is not decided by the
        rounding of a tie (the middle of the step the instance is on); the engine checks the
        two exact values agree.
    kind : {"probability", "expectation"}, default "probability"
        What the left side is, so what a trial returns and how the conformance of the
        implementation is tested (exact binomial for a probability; for an expectation an
        interval of the mean that is exact for every law on ``sample_range``).
    sample_range : callable ``(instance) -> (low, high)``, optional
        For an expectation (required there): the range a draw of ``sample`` is known to lie
        in at an instance, a priori (the statement's assumptions), which makes the mean's
        interval valid without any assumption on the law.
    """

    text: str
    exact: Callable[[Mapping[str, Any]], np.ndarray]
    sample: Callable[[Mapping[str, Any], np.random.SeedSequence], bool | float]
    certify: Callable[[Mapping[str, Any]], ExactValue] | None = None
    sampling_point: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    kind: str = PROBABILITY
    sample_range: Callable[[Mapping[str, Any]], tuple[float, float]] | None = None

    def __post_init__(self):
        if self.kind not in (PROBABILITY, EXPECTATION):
            raise ValueError(f"kind must be {PROBABILITY!r} or {EXPECTATION!r}, got {self.kind!r}")
        if self.kind == EXPECTATION and self.sample_range is None:
            raise ValueError("sample_range is required for an expectation: the a-priori range of one draw")


@dataclass(frozen=True)
class Plan:
    """The search plan, fixed with the statement before any search runs.

    Attributes
    ----------
    budget : int
        The most cells (instances of the non-line variables) evaluated per right side,
        the coarse product first, smallest values first.
    coarse : int
        Values per variable in the coarse product (both searched ends and evenly spaced
        values between them).
    sweeps : int
        From how many of the best cells every value of every variable is tried in turn.
    restarts : int
        From how many of the best cells the local refinement (scipy) and the seeded local
        search start.
    local_steps : int
        Steps of the seeded local search from each restart.
    best : int
        How many of the best instances (distinct cells) are kept and decided exactly.
    tie_offset : float
        Relative offset of the values just below and above each tie.
    seed : int
        Seed of the local search.
    """

    budget: int = 6000
    coarse: int = 5
    sweeps: int = 4
    restarts: int = 4
    local_steps: int = 200
    best: int = 5
    tie_offset: float = 1e-12
    seed: int = 0

    def __post_init__(self):
        for name in ("budget", "coarse", "best"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)!r}")
        if not 0 < self.tie_offset < 1e-3:
            raise ValueError(f"tie_offset must be in (0, 1e-3), got {self.tie_offset!r}")


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: searches are cached per statement
class Statement:
    """A probability bound ``LHS <= RHS`` over a declared domain, printed and corrected.

    Parameters
    ----------
    id : str
        The claim's id.
    domain : Domain
    lhs : LeftSide
    printed : str
        The right side as printed, a formula string over the domain's variables.
    corrected : mapping name -> str, optional
        Each corrected right side (the errata ledger's), by name.
    scope : str
        Which of the statement's instances the domain's variables describe, in words (what
        the search cannot reach is said here and in the coverage).
    plan : Plan
    shipped : mapping name -> callable ``(instance) -> float``, optional
        The shipped code's own value of a right side (a function of :mod:`iln.theory` that
        users and other claims call), checked equal to the formula at the searched instances.
    pinned : mapping side -> (mapping variable -> option), optional
        Choice variables a side's search holds at one option: the reading a side is about,
        when the printed and the corrected statements differ in the left side (the printed
        algorithm under the printed side, the corrected one under its correction) rather than
        in the right side alone.  Each side's coverage names the option it searched.
    """

    id: str
    domain: Domain
    lhs: LeftSide
    printed: str
    corrected: Mapping[str, str] = field(default_factory=dict)
    scope: str = ""
    plan: Plan = field(default_factory=Plan)
    shipped: Mapping[str, Callable[[Mapping[str, Any]], float]] = field(default_factory=dict)
    pinned: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "corrected", dict(self.corrected))
        for side, held in self.pinned.items():
            if side not in self.sides():
                raise ValueError(f"pinned: statement {self.id} has no side {side!r} (sides: {list(self.sides())})")
            for name, option in held.items():
                var = self.domain.get(name)
                if not isinstance(var, Choice) or option not in var.options:
                    raise ValueError(f"pinned: {side}'s {name} = {option!r} is not an option of a Choice "
                                     f"variable of statement {self.id}")
        if PRINTED in self.corrected:
            raise ValueError(f"corrected: {PRINTED!r} names the printed side")
        unknown_sides = sorted(set(self.shipped) - set(self.sides()))
        if unknown_sides:
            raise ValueError(f"statement {self.id}: shipped names sides {unknown_sides} it does not have")
        for name, text in self.sides().items():
            unknown = sorted(Formula(text).names - set(self.domain))
            if unknown:
                raise ValueError(f"statement {self.id}: the {name} right side {text!r} reads {unknown}, "
                                 f"which are not variables of its domain {list(self.domain)}")

    def domain_of(self, side: str) -> Domain:
        """The domain ``side`` is searched over: the statement's, with its pinned choices held."""
        held = self.pinned.get(side, {})
        if not held:
            return self.domain
        return Domain(**{k: (Choice((held[k],), var.admissible()["text"]) if k in held else var)
                         for k, var in self.domain.items()})

    def sides(self) -> dict[str, str]:
        """The right sides by name, printed first."""
        return {PRINTED: self.printed, **self.corrected}

    def with_side(self, name: str, text: str) -> Statement:
        """The same statement with the right side ``name`` replaced by ``text`` (a mutant)."""
        if name not in self.sides():
            raise ValueError(f"name must be one of {list(self.sides())}, got {name!r}")
        if name == PRINTED:
            return replace(self, printed=text)
        return replace(self, corrected={**self.corrected, name: text})

    def declared(self) -> dict[str, Any]:
        """The declared domain and right sides, JSON-ready (``iln-verify list --json``)."""
        return {"variables": self.domain.declared(), "scope": self.scope, "lhs": self.lhs.text,
                "sides": self.sides(), **({"pinned": {k: dict(v) for k, v in self.pinned.items()}} if self.pinned else {}),
                "plan": {k: getattr(self.plan, k) for k in self.plan.__dataclass_fields__}}


_STATEMENTS: dict[str, Statement] = {}


def register_statement(spec: Statement) -> Statement:
    """Make ``spec`` findable by its id (:func:`statement`, :func:`declared_domain`)."""
    if spec.id in _STATEMENTS and _STATEMENTS[spec.id] is not spec:
        raise ValueError(f"statement id {spec.id!r} is registered twice")
    _STATEMENTS[spec.id] = spec
    return spec


def registered() -> dict[str, Statement]:
    """Every registered specification by claim id (those of the claims imported so far:
    :func:`verification.catalog.load` imports them all)."""
    return dict(_STATEMENTS)


def statement(claim_id: str) -> Statement:
    """The registered specification of a claim; ``KeyError`` naming it when there is none."""
    if claim_id not in _STATEMENTS:
        raise KeyError(f"claim {claim_id!r} has no registered specification")
    return _STATEMENTS[claim_id]


def declared_domain(claim_id: str) -> dict[str, Any] | None:
    """The declared domain of a claim that is a specification, None for the others.

    For ``iln-verify list --json``: the claim's variables with their admissible domains and
    search plans, the scope, and its right sides.
    """
    spec = _STATEMENTS.get(claim_id)
    return None if spec is None else spec.declared()
