"""The equivalence rule: an equality claim (unbiasedness) with a stated margin.

Failing to reject a bias is never "holds": the claim ``E[X] = v`` holds only when the
exact-coverage interval of the mean (Hoeffding and empirical Bernstein from the a-priori
range, :mod:`verification.rules.mean`) lies inside ``[v - margin, v + margin]`` (the two
one-sided tests of an equivalence test, TOST); it is violated when the interval excludes
``v`` (a bias is found, whatever its size: the printed statement is an exact equality); else
inconclusive.  The margin and the sample size that reaches it are fixed in the claim's
configuration before any data.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from verification.rules.grid import PointDecision, grid_verdict
from verification.rules.mean import detectable_shift, lower_end, upper_end
from verification.verdicts import Verdict

__all__ = ["EqualityPoint", "equivalence"]

RULE = "equivalence (exact-coverage interval inside a stated margin; TOST)"


@dataclass(frozen=True)
class EqualityPoint:
    """One point of an equality claim: per-trial values of ``X`` and the value ``E[X]`` must equal.

    ``lower`` and ``upper`` are the a-priori range of ``X``; ``margin`` the largest bias the
    claim's "holds" tolerates, in the units of ``X``.
    """

    key: str
    values: Sequence[float]
    exact: float
    lower: float
    upper: float
    margin: float
    instance: Mapping | None = None


def _decide(p: EqualityPoint, tail: float, anytime: bool = False) -> PointDecision:
    values = np.asarray(p.values, dtype=np.float64)
    n = values.size
    below, above = int(np.sum(values < p.lower)), int(np.sum(values > p.upper))
    outside = below + above
    # A value past one end (|E| > ||alpha||_1, say) breaks the premise on that side only:
    # the lower confidence bound needs values >= lower and truncates them at upper (which
    # only lowers the mean), and the upper bound the mirror image.
    lower = p.lower if below == 0 else -math.inf
    upper = p.upper if above == 0 else math.inf
    low, p_low = lower_end(values, lower, p.upper, p.exact, tail, anytime) if below == 0 else (-math.inf, 1.0)
    high = upper_end(values, p.lower, upper, tail, anytime)
    _, p_high = lower_end(-values, -upper, -p.lower, -p.exact, tail, anytime) if above == 0 else (0.0, 1.0)
    mean = float(values.mean())
    bias = mean - p.exact
    # Two sides, each tested at tail (the grid's splits count both): the smaller p-value.
    pvalue = min(p_low, p_high)
    shift = detectable_shift(n, p.upper - p.lower, tail) if outside == 0 else math.inf
    violated = low > p.exact or high < p.exact
    holds = p.exact - p.margin < low and high < p.exact + p.margin
    row = {"mean": mean, "exact": p.exact, "bias": bias, "n": n, "interval": [low, high],
           "margin": p.margin, "range": [p.lower, p.upper], "values_outside_range": outside,
           "detectable_bias": shift, "printed_violated": violated, "printed_holds": holds,
           "covered": not violated,
           "interval_kind": "anytime-valid confidence sequence (betting)" if anytime else "fixed n"}
    return PointDecision(
        key=p.key, statistic=abs(bias) / p.margin, bound=1.0,
        interval=((low - p.exact) / p.margin, (high - p.exact) / p.margin),
        ratio=abs(bias) / p.margin, printed_violated=violated, printed_holds=holds, pvalue=pvalue,
        min_detectable_ratio=shift / p.margin,
        counterexample={"point": p.key, **(p.instance or {}), "mean": mean, "exact": p.exact,
                        "interval": [low, high]}, row=row)


def equivalence(claim_id: str, points: Sequence[EqualityPoint], alpha: float,
                details: Mapping | None = None, anytime: bool = False) -> Verdict:
    """The equivalence rule over a grid of points, each side at ``alpha / (2 G)``.

    The statistic is ``|bias| / margin`` at the worst point (above 1: a bias larger than the
    margin), and ``min_detectable_ratio`` the smallest ``|bias| / margin`` found with the
    design power.  ``anytime=True`` decides with the betting confidence sequence
    (:func:`verification.rules.mean.lower_end`), valid when the claim samples until decided.
    """
    splits = 2 * len(points)
    decisions = [_decide(p, alpha / splits, anytime) for p in points]
    return grid_verdict(claim_id, RULE, decisions, alpha=alpha, splits=splits,
                        n_trials=max(len(p.values) for p in points), details=details)
