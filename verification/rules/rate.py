"""The rate rule: a fitted exponent against a printed one, over independent repetitions.

A rate claim states that a quantity grows no faster than ``size^a`` (``O(T^2)``, ``O(B^4)``):
on a log-log scale, the slope of the quantity on the size is at most the printed exponent
``a``, give or take a stated ``tolerance`` for what the ``O~`` hides (logarithms shift a
slope fitted over a finite grid).  A band, ``a_low - tolerance <= slope <= a + tolerance``,
states both sides, and a lower bound alone, ``slope >= a_low - tolerance`` ("decays at least
like 1/K"), states only the lower one.  Each grid point of the rule (an axis: T, B, ...) receives one fitted
slope per *independent repetition* of the whole measurement, so the repetitions, not the
grid points, are the independent units; the rule decides on their mean.

Each side is a one-sided t test of the mean slope, at level ``1 - alpha / splits`` (the
claim's alpha split by Bonferroni over every side of every point): the upper side is
violated when the lower end of the one-sided t interval exceeds ``a + tolerance``, the
lower side when the upper end falls below ``a_low - tolerance``; a point holds when its
interval lies inside the statement.  The p-value is that of the same t test (violated at
level ``p`` exactly), so Holm's step-down over the run uses the test that decides.

Why a t interval may decide here, when :mod:`verification.rules.mean` refuses one: a slope
is a least-squares fit of log times, a weighted sum of the logarithms of many timing ratios
(each timing itself a sum over many rounds of work), so across repetitions it is close to
normal, which is what the t interval's level rests on.  That rests on enough repetitions to
see the spread: with fewer than :data:`MIN_REPETITIONS` the rule refuses and answers
``inconclusive`` with the reason, reporting its numbers without deciding.  The level is
tested by simulation on normal slopes (``tests/test_rules_rate.py``); a rate over a finite
grid is evidence, not proof, and the verdict says so.

Power (``min_detectable_ratio``): the smallest slope / bound that the side's t test detects
with probability :data:`verification.catalog.DESIGN_POWER`, from the noncentral t law of the
statistic (``scipy.stats.nct``) at the point's n and level, with the spread of the slopes
estimated by their sample standard deviation (a plug-in: the true spread is unknown).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from verification.catalog import DESIGN_POWER
from verification.rules.grid import PointDecision, grid_verdict
from verification.verdicts import Verdict

__all__ = ["MIN_REPETITIONS", "RatePoint", "detectable_effect", "rate_bound"]

RULE = "rate fit (one-sided t interval of the mean log-log slope over independent repetitions)"
#: the fewest independent repetitions the rule decides from: below it the spread of the
#: slopes, on which the t interval's level rests, is too poorly seen.
MIN_REPETITIONS = 10


@dataclass(frozen=True)
class RatePoint:
    """One point of a rate claim: a fitted slope per independent repetition and the exponent.

    Attributes
    ----------
    key : str
        The point's name (the axis, say ``"T"``).
    slopes : sequence of float
        One fitted log-log slope per independent repetition (finite).
    upper : float or None
        The printed exponent: the statement is ``slope <= upper + tolerance``; None for a
        statement with a lower side only (then ``lower`` is required).
    lower : float, optional
        The printed lower exponent: the statement is (also) ``slope >= lower - tolerance``.
    tolerance : float, default 0
        What the statement allows beyond the printed exponents (the ``O~``'s logarithms over
        the grid), fixed before the data.
    instance : mapping, optional
        What reproduces the point (for a counterexample).
    """

    key: str
    slopes: Sequence[float]
    upper: float | None
    lower: float | None = None
    tolerance: float = 0.0
    instance: Mapping | None = None

    def __post_init__(self):
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise ValueError(f"tolerance must be finite and >= 0, got {self.tolerance!r}")
        # The ratio slope / bound is oriented only for a positive bound.
        if self.upper is None and self.lower is None:
            raise ValueError("upper and lower must not both be None: a rate statement needs a side")
        if self.upper is not None and not (math.isfinite(self.upper) and self.upper + self.tolerance > 0):
            raise ValueError(f"upper + tolerance must be finite and > 0, got upper={self.upper!r}")
        if self.lower is not None and not (math.isfinite(self.lower) and self.lower - self.tolerance > 0
                                           and (self.upper is None or self.lower <= self.upper)):
            raise ValueError(f"lower - tolerance must be > 0 and lower <= upper, got lower={self.lower!r}")
        if not np.isfinite(np.asarray(self.slopes, dtype=np.float64)).all():
            raise ValueError(f"slopes of point {self.key!r} must be finite")


@functools.lru_cache(maxsize=256)
def detectable_effect(n: int, tail: float) -> float:
    """The standardized shift ``(mean - bound) / sd`` that a one-sided t test at ``tail``
    with ``n`` repetitions detects with probability :data:`DESIGN_POWER` (noncentral t).

    Parameters
    ----------
    n : int
        Repetitions, at least 2.
    tail : float
        The test's size, in (0, 1).
    """
    if n < 2:
        raise ValueError(f"n must be at least 2, got {n!r}")
    if not 0 < tail < 1:
        raise ValueError(f"tail must lie in (0, 1), got {tail!r}")
    df = n - 1
    critical = stats.t.ppf(1 - tail, df)

    def shortfall(nc: float) -> float:
        return float(stats.nct.sf(critical, df, nc)) - DESIGN_POWER

    high = max(1.0, critical) + 4.0
    while shortfall(high) < 0:  # the power rises with the noncentrality
        high *= 2
    return optimize.brentq(shortfall, 0.0, high, xtol=1e-10) / math.sqrt(n)


def _sides(p: RatePoint) -> int:
    """How many one-sided tests the point's statement makes (each takes a share of alpha)."""
    return (p.upper is not None) + (p.lower is not None)


def _bound(p: RatePoint) -> float:
    """The point's headline bound: the upper side's, else the lower side's."""
    return p.upper + p.tolerance if p.upper is not None else p.lower - p.tolerance


def _side_pvalue(excess: float, se: float, df: int) -> float:
    """One-sided t test of H0 ``excess <= 0`` from the mean's excess over its bound."""
    if se == 0:  # identical slopes: the sign of the excess decides with certainty
        return 0.0 if excess > 0 else 1.0
    return float(stats.t.sf(excess / se, df))


def _refused(p: RatePoint, values: np.ndarray, why: str) -> PointDecision:
    """A point that may not decide (too few repetitions, say): its numbers, and no decision."""
    n = values.size
    mean = float(values.mean()) if n else math.nan
    sd = float(values.std(ddof=1)) if n > 1 else math.nan
    bound = _bound(p)
    row = {"mean": mean, "n": n, "sd": sd, "bound": bound, "printed_exponent": p.upper,
           "tolerance": p.tolerance, "interval": [math.nan, math.nan], "ratio": mean / bound,
           "printed_violated": False, "printed_holds": False, "min_detectable_ratio": math.inf,
           "can_fail": False, "slopes": values.tolist(),
           "why_no_decision": why}
    if p.lower is not None:
        row["lower_bound"] = p.lower - p.tolerance
    return PointDecision(key=p.key, statistic=mean, bound=bound, interval=(math.nan, math.nan),
                         ratio=mean / bound, printed_violated=False, printed_holds=False, pvalue=1.0,
                         min_detectable_ratio=math.inf, can_fail=False, row=row)


def _decide(p: RatePoint, tail: float, refuse: str | None) -> PointDecision:
    values = np.asarray(p.slopes, dtype=np.float64)
    n = values.size
    if refuse is not None:
        return _refused(p, values, refuse)
    if n < MIN_REPETITIONS:
        return _refused(p, values, f"{n} repetitions, fewer than the {MIN_REPETITIONS} the rule needs")
    df = n - 1
    mean, sd = float(values.mean()), float(values.std(ddof=1))
    se = sd / math.sqrt(n)
    half = float(stats.t.ppf(1 - tail, df)) * se
    low, high = mean - half, mean + half
    shift = detectable_effect(n, tail) * sd  # the mean's detectable distance from a bound
    ratios, mdrs, pvalues, bounds = {}, {}, {}, {}
    holds = True
    if p.upper is not None:
        upper = bounds["upper"] = p.upper + p.tolerance
        pvalues["upper"] = _side_pvalue(mean - upper, se, df)
        ratios["upper"] = mean / upper
        mdrs["upper"] = (upper + shift) / upper
        holds = high < upper
    if p.lower is not None:
        lower = bounds["lower"] = p.lower - p.tolerance
        pvalues["lower"] = _side_pvalue(lower - mean, se, df)
        # Oriented like the upper side: above 1 when the slope falls below the band.
        ratios["lower"] = lower / mean if mean > 0 else math.inf
        mdrs["lower"] = lower / (lower - shift) if lower > shift else math.inf
        holds = holds and low > lower
    side = max(ratios, key=ratios.get)
    bound = bounds[side]
    pvalue = min(pvalues.values())
    # Violated exactly when a side's p-value is at most its level (the interval's end then
    # lies past that side's bound), so the p-value and the decision agree.
    violated = pvalue <= tail
    row = {"mean": mean, "n": n, "sd": sd, "bound": _bound(p), "printed_exponent": p.upper,
           "tolerance": p.tolerance, "interval": [low, high], "ratio": ratios[side],
           "pvalues": pvalues, "printed_violated": violated, "printed_holds": holds,
           "min_detectable_ratio": min(mdrs.values()), "can_fail": True, "slopes": values.tolist()}
    if p.lower is not None:
        row.update(lower_bound=p.lower - p.tolerance, printed_lower_exponent=p.lower)
    return PointDecision(
        key=p.key, statistic=mean, bound=bound, interval=(low, high), ratio=ratios[side],
        printed_violated=violated, printed_holds=holds, pvalue=pvalue,
        min_detectable_ratio=min(mdrs.values()), can_fail=True,
        counterexample={"point": p.key, **(p.instance or {}), "mean_slope": mean, "bound": bound,
                        "interval": [low, high], "repetitions": n}, row=row)


def rate_bound(claim_id: str, points: Sequence[RatePoint], alpha: float,
               details: Mapping | None = None, reason: str | None = None,
               refuse: str | None = None) -> Verdict:
    """The rate rule over a grid of points (ICML Theorem 1 part 2 / arXiv Theorem 1.2 is the
    catalog's rate claim: run time ``O~(rho B^4 T^2)``, one point per axis).

    Parameters
    ----------
    claim_id : str
    points : sequence of RatePoint
        At least one.
    alpha : float
        The claim's share of the run's false-alarm budget, in (0, 1).
    details : mapping, optional
        Claim-specific figures, kept beside the points' rows.
    reason : str, optional
        Why the verdict is inconclusive when the caller knows better (a missing or
        file, say); used only when the verdict is inconclusive.
    refuse : str, optional
        Why the slopes are not independent repetitions (rounds of one grid point run back to
        back, say): no point decides, the numbers are reported, and this is the reason.

    Returns
    -------
    Verdict
        From :func:`verification.rules.grid.grid_verdict`; each side of each point tested at
        ``alpha / splits``, ``splits`` the number of sides over all points.  Points with fewer
        than :data:`MIN_REPETITIONS` repetitions decide nothing, and the verdict is then
        inconclusive unless another point shows a violation.
    """
    if not points:
        raise ValueError("points must not be empty")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    splits = sum(_sides(p) for p in points)
    tail = alpha / splits
    decisions = [_decide(p, tail, refuse) for p in points]
    refused = [d for d in decisions if not d.can_fail]
    reason = reason or refuse
    if reason is None and refused:
        reason = ("too few independent repetitions to decide: "
                  + ", ".join(f"{d.key} has {d.row['n']}" for d in refused)
                  + f", fewer than the {MIN_REPETITIONS} the rate rule needs (the t interval's "
                    "level rests on seeing the slopes' spread); the numbers are reported, not decided")
    elif reason is None and not all(d.printed_holds for d in decisions):
        worst = max((d for d in decisions if not d.printed_holds), key=lambda d: d.ratio)
        reason = (f"at {worst.key} the t interval [{worst.interval[0]:.4g}, {worst.interval[1]:.4g}] "
                  f"of the mean slope (n = {worst.row['n']}, level {1 - tail:.6g} per side) "
                  f"straddles the bound {worst.bound:.4g}")
    info = {**(details or {}), "evidence": "a rate over a finite grid is evidence, not proof"}
    return grid_verdict(claim_id, RULE, decisions, alpha=alpha, splits=splits,
                        n_trials=max(len(p.slopes) for p in points), details=info, reason=reason)
