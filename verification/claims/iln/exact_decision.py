"""A verdict decided on exact values: the printed statement, the corrected one beside it.

Where a claim's left-hand side is computed exactly (:mod:`verification.claims.iln.finite_laws`)
its verdict has no sampling error: at each instance the exact left side is compared with the
right side as :mod:`iln.theory` computes it (double precision, a few operations: relative
error far below :data:`TIE`), and a gap smaller than :data:`TIE` is a tie, which decides
nothing.  A statement is

* ``violated`` when some instance exceeds its right side;
* ``holds`` when no instance does and the search covered every variable of its domain to
  each end the statement admits (issue 41: a "holds" is worth the hardest instance tried);
* ``inconclusive`` otherwise, naming the variables and ranges not covered.

The claim's verdict is about the printed statement: ``holds_after_correction`` when it is
violated and the corrected statement holds, ``violated`` when it is violated and the
corrected one is violated or undecided (``verdict_corrected`` says which), else the printed
statement's verdict.  The Monte Carlo conformance of the shipped implementation to the exact
law at the same instances is decided by a rule of :mod:`verification.rules` and reported
beside, in ``details["conformance"]``: it is about the code, the verdict about the paper.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from verification import rules
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["RULE", "TIE", "Coverage", "ExactPoint", "exact_verdict"]

RULE = ("exact evaluation (deterministic: rational arithmetic on the finite law of Algorithm 2's "
        "estimate, every branch enumerated)")
#: relative gap below which the exact left side and the right side are a tie (undecided).
TIE = Fraction(1, 10**9)
#: how many points of each statement the details list (the worst, then the smallest violation).
SHOWN = 8


@dataclass(frozen=True)
class ExactPoint:
    """One instance: the exact left side against the right side.

    Attributes
    ----------
    key : str
        The instance's name; the caller lists points smallest instance first, so that the
        first violation is the smallest counterexample searched.
    lhs : Fraction
        The left side, exact.
    rhs : float
        The right side as :mod:`iln.theory` computes it, positive.
    instance : mapping
        What reproduces the instance.
    """

    key: str
    lhs: Fraction
    rhs: float
    instance: Mapping[str, Any] = field(default_factory=dict)

    @property
    def outcome(self) -> str:
        """``"above"``, ``"below"`` or ``"tie"``."""
        rhs = Fraction(self.rhs)
        if self.lhs > rhs * (1 + TIE):
            return "above"
        return "below" if self.lhs < rhs * (1 - TIE) else "tie"

    @property
    def ratio(self) -> float:
        """Left side over right side, as a float."""
        return float(self.lhs / Fraction(self.rhs))

    def row(self, statement: str) -> dict[str, Any]:
        """The point as a row of the verdict's table, for ``statement``."""
        return {"statement": statement, "mean": float(self.lhs), "bound": self.rhs, "ratio": self.ratio,
                "outcome": self.outcome, "exact_lhs": _short(self.lhs), **self.instance}


@dataclass(frozen=True)
class Coverage:
    """One variable of a statement's domain: what the statement admits and what was searched."""

    admissible: str
    searched: str
    values_tried: int
    covered: bool

    def to_json(self) -> dict[str, Any]:
        """The coverage as JSON."""
        return {"admissible": self.admissible, "searched": self.searched, "values_tried": self.values_tried,
                "covered": self.covered}


def _short(value: Fraction) -> str | None:
    """The fraction as text when it is short enough to read, else None (the float is beside)."""
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > 96:
        return None
    return str(value)


def _side(points: Sequence[ExactPoint], coverage: Mapping[str, Coverage]) -> tuple[str, str | None]:
    """A statement's verdict from its points and the coverage of its domain, with the reason."""
    if any(p.outcome == "above" for p in points):
        return VIOLATED, None
    missing = [f"{name} (admissible {c.admissible}; searched {c.searched})" for name, c in coverage.items()
               if not c.covered]
    ties = [p.key for p in points if p.outcome == "tie"]
    if ties:
        return INCONCLUSIVE, f"ties within {float(TIE):g} of the bound at {', '.join(ties[:3])}"
    if missing:
        return INCONCLUSIVE, ("exact at every instance searched, but not every variable was searched "
                              "to each end its statement admits: " + "; ".join(missing))
    return HOLDS, None


def _shown(points: Sequence[ExactPoint], statement: str) -> dict[str, dict]:
    """The worst points by ratio, and the first (smallest) violation if it is not among them."""
    worst = sorted(points, key=lambda p: p.ratio, reverse=True)[:SHOWN]
    first = next((p for p in points if p.outcome == "above"), None)
    if first is not None and first not in worst:
        worst.append(first)
    return {f"{statement}/{p.key}": p.row(statement) for p in worst}


def _summary(points: Sequence[ExactPoint]) -> dict[str, Any]:
    outcomes = [p.outcome for p in points]
    first = next((p for p in points if p.outcome == "above"), None)
    return {"instances": len(points), "above": outcomes.count("above"), "ties": outcomes.count("tie"),
            "largest_ratio": max(p.ratio for p in points), "smallest_violation": None if first is None else first.key}


def exact_verdict(claim_id: str, printed: Sequence[ExactPoint], corrected: Sequence[ExactPoint], *,
                  coverage: Mapping[str, Mapping[str, Coverage]], alpha: float, n_trials: int,
                  conformance: Verdict | None = None, details: Mapping[str, Any] | None = None) -> Verdict:
    """The verdict of a claim decided exactly (see the module docstring).

    Parameters
    ----------
    claim_id : str
    printed, corrected : sequence of ExactPoint
        The instances of each statement, smallest first; ``corrected`` may be empty (no
        correction).
    coverage : mapping
        ``{"printed": {variable: Coverage}, "corrected": {...}}``.
    alpha : float
        The claim's share of the run's false-alarm budget (recorded: an exact decision makes
        no false alarm, so its p-value is 0 or 1).
    n_trials : int
        The conformance trials.
    conformance : Verdict, optional
        The Monte Carlo conformance of the shipped implementation at the exact instances.
    details : mapping, optional
        The claim's own figures.

    Returns
    -------
    Verdict
    """
    if not printed:
        raise ValueError("printed must hold at least one instance")
    printed_verdict, printed_why = _side(printed, coverage["printed"])
    corrected_verdict, corrected_why = _side(corrected, coverage["corrected"]) if corrected else (None, None)
    worst = max(printed, key=lambda p: p.ratio)
    first = next((p for p in printed if p.outcome == "above"), worst)
    info: dict[str, Any] = {**(details or {}), "points": {**_shown(printed, "printed"),
                                                          **(_shown(corrected, "corrected") if corrected else {})},
                            "exact": {"printed": _summary(printed),
                                      **({"corrected": _summary(corrected)} if corrected else {})},
                            "coverage": {side: {name: c.to_json() for name, c in table.items()}
                                         for side, table in coverage.items()},
                            "tie_margin": float(TIE)}
    if conformance is not None:
        info["conformance"] = {"verdict": conformance.verdict, "rule": conformance.rule,
                               "statistic": conformance.statistic, "n_trials": conformance.n_trials,
                               "details": conformance.details}
    verdict = printed_verdict
    if printed_verdict == VIOLATED:
        verdict = HOLDS_AFTER_CORRECTION if corrected_verdict == HOLDS else VIOLATED
        if corrected_why:
            info["reason_corrected"] = corrected_why
    elif printed_why:
        info["reason"] = printed_why
    base = rules.invariant(claim_id, broken=printed_verdict == VIOLATED,
                           share=_summary(printed)["above"] / len(printed), checked=len(printed), alpha=alpha,
                           counterexample={"point": first.key, **first.row("printed")}
                           if printed_verdict == VIOLATED else None,
                           n_trials=n_trials, details=info, statistic=float(first.lhs), bound=first.rhs, rule=RULE)
    return replace(base, verdict=verdict, tightness=first.ratio, worst_ratio=worst.ratio,
                   worst_instance={"point": worst.key, **worst.row("printed")},
                   verdict_printed=printed_verdict, verdict_corrected=corrected_verdict,
                   # exact: an instance just past the bound (beyond the tie margin) is decided
                   # violated with certainty, so no false alarm is possible (out of Holm's family)
                   min_detectable_ratio=float(1 + TIE), min_detectable_ratio_best_point=float(1 + TIE),
                   exact=True, pvalue=0.0 if printed_verdict == VIOLATED else 1.0)
