"""One verdict from the decisions at a grid of points: the logic every grid rule shares.

A claim checked at several points (sample sizes, confidence levels, instances) is violated
as printed when some point is, and holds when every point does; with a corrected statement
beside the printed one, ``holds_after_correction`` when the printed statement fails somewhere
and the corrected one holds everywhere.

Alpha is split only where a decision needs it.  "Violated at some point" is a union: a false
alarm at any of G points makes it, so each point's violation side is tested at the claim's
alpha split over the points (Bonferroni).  "Holds at every point" is an intersection: a false
"holds" needs the point where the statement is false to pass its own test, so each point's
holds side is tested at the claim's whole alpha (the intersection-union principle; Berger,
Technometrics 1982).  The rules of :mod:`verification.rules` decide each point so, and this
module turns their decisions into one :class:`~verification.verdicts.Verdict`.

Power (``min_detectable_ratio``) is that of the grid's weakest point: the largest of the
points' figures, over the points at which the printed statement can be false at all (a point
the statement cannot fail at, ``vacuous``, is reported and left out); the smallest is kept
beside it (``min_detectable_ratio_best_point``).  ``can_fail`` is derived from it by the
verdict (:attr:`verification.verdicts.Verdict.can_fail`): a grid "holds" only when it is true.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["PointDecision", "grid_verdict", "power", "with_correction"]


@dataclass(frozen=True)
class PointDecision:
    """A rule's decision at one point of a claim's grid.

    Attributes
    ----------
    key : str
        The point's name.
    statistic, bound : float
        The measured value and the printed bound it is compared with.
    interval : tuple of float
        The interval of the statistic that decided (each end at the point's level).
    ratio : float
        statistic / bound, oriented so that above 1 the printed statement is exceeded.
    printed_violated, printed_holds : bool
        The printed statement's decision at this point.
    pvalue : float
        The p-value of the test that decides ``printed_violated`` at this point (H0: the
        printed statement holds here), before any split over points.
    min_detectable_ratio : float
        The smallest ratio at which some law the assumptions allow at this point is rejected
        by the point's violation test with the design power (inf: none is).
    corrected_violated, corrected_holds : bool or None
        The corrected statement's decision, None when the claim has no correction.
    vacuous : bool
        The printed statement cannot be false at this point whatever the law (a probability
        bound of 1 or more, an impossible event, a mean bound at or above the a-priori upper
        end): reported, and left out of the grid's power.
    counterexample : dict or None
        What reproduces a printed violation at this point.
    row : dict
        The figures the report shows for the point.
    """

    key: str
    statistic: float
    bound: float
    interval: tuple[float, float]
    ratio: float
    printed_violated: bool
    printed_holds: bool
    pvalue: float
    min_detectable_ratio: float
    corrected_violated: bool | None = None
    corrected_holds: bool | None = None
    vacuous: bool = False
    counterexample: Mapping[str, Any] | None = None
    row: Mapping[str, Any] = field(default_factory=dict)

    @property
    def can_fail(self) -> bool:
        """Whether the point's test can reject the printed statement: a finite figure."""
        return math.isfinite(self.min_detectable_ratio)


def _after_violation(corrected_holds: bool, corrected_violated: bool) -> tuple[str, str | None]:
    """The outcome of a claim whose printed statement is violated and that has a correction."""
    if corrected_holds:
        return HOLDS_AFTER_CORRECTION, None
    if corrected_violated:
        return VIOLATED, "the corrected statement is violated too"
    # The verdict is about the statement as printed, which is refuted; verdict_corrected
    # carries the correction's own (undecided) verdict beside it.
    return VIOLATED, "the printed statement is violated; the corrected one is undecided"


def power(points: Sequence[PointDecision]) -> tuple[float, float]:
    """(weakest, best) point's ``min_detectable_ratio`` over the points that could be false;
    (inf, inf) when there is none."""
    figures = [p.min_detectable_ratio for p in points if not p.vacuous]
    return max(figures, default=math.inf), min(figures, default=math.inf)


def _outcome(points: Sequence[PointDecision]) -> tuple[str, str | None]:
    corrected = any(p.corrected_holds is not None for p in points)
    if any(p.printed_violated for p in points):
        if not corrected:
            return VIOLATED, None
        return _after_violation(all(_corrected(p)[1] for p in points), any(_corrected(p)[0] for p in points))
    if all(p.vacuous for p in points):
        return INCONCLUSIVE, "the printed statement cannot be false at any point tried"
    blind = [p.key for p in points if not p.vacuous and not p.can_fail]
    if blind:
        return INCONCLUSIVE, (f"the check cannot detect a violation at {len(blind)} point(s) where the statement "
                              f"could be false ({', '.join(blind[:3])}{', ...' if len(blind) > 3 else ''})")
    if all(p.printed_holds for p in points):
        return HOLDS, None
    return INCONCLUSIVE, "some point's interval straddles its bound"


def grid_verdict(claim_id: str, rule: str, points: Sequence[PointDecision], *, alpha: float,
                 splits: int, n_trials: int, details: Mapping[str, Any] | None = None,
                 reason: str | None = None) -> Verdict:
    """The verdict of a grid of point decisions.

    Parameters
    ----------
    claim_id, rule : str
    points : sequence of PointDecision
        At least one.
    alpha : float
        The claim's share of the run's false-alarm budget.
    splits : int
        Into how many tests the claim's alpha was split on the violation side (Bonferroni):
        each point's violation test ran at level ``1 - alpha / splits``, the verdict's
        ``level``.
    n_trials : int
    details : mapping, optional
        Claim-specific figures, kept beside the points' rows.
    reason : str, optional
        Why the rule could not decide, used when the verdict is inconclusive and the caller
        knows the reason better than the points do.

    Returns
    -------
    Verdict
        The statistic is that of the point with the largest ratio (a printed violation
        first); the p-value Bonferroni's, ``splits`` times the smallest point p-value
        (consistent with deciding each point's violation at ``1 - alpha / splits``); the
        ``min_detectable_ratio`` the largest over the points that could be false (the weakest
        point), and ``min_detectable_ratio_best_point`` the smallest.
    """
    if not points:
        raise ValueError("points must not be empty")
    verdict, why = _outcome(points)
    worst = max(points, key=lambda p: (p.printed_violated, _sortable(p.ratio)))
    level = 1.0 - alpha / splits
    pvalue = min(1.0, splits * min(p.pvalue for p in points))
    first_bad = next((p for p in points if p.printed_violated), None)
    weakest, best = power(points)
    info = {**(details or {}), "points": {p.key: dict(p.row) for p in points}, "worst_point": worst.key}
    vacuous = [p.key for p in points if p.vacuous]
    if vacuous:
        info["points_that_cannot_be_false"] = vacuous
    why = (reason or why) if verdict == INCONCLUSIVE else why
    if why:
        info["reason"] = why
    corrected = any(p.corrected_holds is not None for p in points)
    reachable = [p for p in points if p.can_fail] or list(points)
    worst_reached = max(reachable, key=lambda p: _sortable(p.ratio))
    return Verdict(
        claim_id=claim_id, verdict=verdict, rule=rule,
        statistic=worst.statistic, bound=worst.bound, interval=tuple(worst.interval), level=level,
        alpha=alpha, tightness=worst.ratio,
        counterexample=None if first_bad is None else dict(first_bad.counterexample or {"point": first_bad.key}),
        elapsed_s=0.0, n_trials=n_trials, pvalue=pvalue, details=info,
        min_detectable_ratio=weakest, min_detectable_ratio_best_point=best, worst_ratio=worst_reached.ratio,
        worst_instance={"point": worst_reached.key, **{k: v for k, v in (worst_reached.counterexample or {}).items()
                                                      if k != "point"}},
        verdict_printed=_side([p.printed_violated for p in points], [p.printed_holds for p in points],
                              math.isfinite(weakest)),
        verdict_corrected=_side([_corrected(p)[0] for p in points], [_corrected(p)[1] for p in points],
                                True) if corrected else None,
    )


def _corrected(p: PointDecision) -> tuple[bool, bool]:
    """(violated, holds) of the corrected statement at a point; a point the correction leaves
    alone (no corrected bound of its own) is decided as printed."""
    if p.corrected_holds is None:
        return p.printed_violated, p.printed_holds
    return bool(p.corrected_violated), bool(p.corrected_holds)


def _side(violated: Sequence[bool], holds: Sequence[bool], can_fail: bool) -> str:
    """One statement's verdict over the points: violated at some, holds at every one."""
    if any(violated):
        return VIOLATED
    return HOLDS if all(holds) and can_fail else INCONCLUSIVE


def _sortable(ratio: float) -> float:
    return -math.inf if math.isnan(ratio) else ratio


def with_correction(printed: Verdict, corrected: Verdict, alpha: float,
                    details: Mapping[str, Any] | None = None) -> Verdict:
    """One verdict from the printed statement's and the corrected statement's own checks,
    each decided at ``alpha / 2``.

    For claims whose correction changes the algorithm run or the event rather than only the
    bound: ``holds_after_correction`` when the printed check is violated and the corrected
    one holds, ``violated`` when both are, else inconclusive; without a printed violation,
    the printed verdict.  The p-value is the printed check's, doubled (Bonferroni over the
    two checks), so that it agrees with deciding at ``alpha``.  Both sub-verdicts are kept
    in ``details`` (``verdict_printed``, ``verdict_corrected``).
    """
    info = {**printed.details, **(details or {}),
            "corrected": {k: corrected.details.get(k) for k in ("points", "worst_point", "reason")}}
    outcome, why = printed.verdict, printed.details.get("reason")
    if printed.verdict == VIOLATED:
        outcome, why = _after_violation(corrected.verdict == HOLDS, corrected.verdict == VIOLATED)
    info.pop("reason", None)
    if why and outcome == INCONCLUSIVE:
        info["reason"] = why
    # Exact only when both checks are: the combined verdict leans on the corrected one too.
    return replace(printed, verdict=outcome, alpha=alpha, pvalue=min(1.0, 2 * printed.pvalue), details=info,
                   exact=printed.exact and corrected.exact,
                   verdict_printed=printed.verdict_printed or printed.verdict,
                   verdict_corrected=corrected.verdict_printed or corrected.verdict)
