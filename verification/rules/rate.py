"""The rate rule: a fitted exponent against a printed one, over independent repetitions.

A rate claim states that a quantity grows no faster than ``size^a`` (``O(T^2)``, ``O(B^4)``):
on a log-log scale, the slope of the quantity on the size is at most the printed exponent
``a``, give or take a stated ``tolerance`` for what the ``O~`` hides (logarithms shift a
slope fitted over a finite grid).  A band, ``a_low - tolerance <= slope <= a + tolerance``,
states both sides, and a lower bound alone, ``slope >= a_low - tolerance`` ("decays at least
like 1/K"), states only the lower one.  Each grid point of the rule (an axis: T, B, ...)
receives one fitted slope per *independent repetition* of the whole measurement, so the
repetitions, not the grid points, are the independent units; the rule decides on their
**median**, with the **exact sign test**.

Each side's violation is one sign test at level ``1 - alpha / splits`` (the claim's alpha
split by Bonferroni over every side of every point); its holding, which the claim needs at
every side of every point, at level ``1 - alpha`` (:mod:`verification.rules.grid`).  On the upper side the statement is "the median
slope is at most ``b = a + tolerance``", which for any law of the slopes says ``P[slope > b]
<= 1/2``; of ``n`` repetitions ``k`` have a slope above ``b``, and the side is violated when
``P[Bin(n, 1/2) >= k]`` (``scipy.stats.binomtest``) is at most its level.  Slopes equal to
the bound count against the violation, so the test keeps its level for every law whose
median is at most ``b`` and has it exactly for every continuous law whose median is ``b``:
``k`` is then ``Bin(n, 1/2)`` whatever the law's shape (skewed, heavy-tailed), which is why
the rule no longer uses the t test (a one-sided t test of the mean slope at per-side levels
near 1e-5 rejects tens of times too often on skewed slopes; ``tests/test_rules_rate.py``
shows both).  The side holds when as many slopes lie below ``b`` (the mirror test); the lower
side is the mirror image.  Equivalently, the sign test's distribution-free interval of the
median, the order statistics ``[x_(n-c+1), x_(c)]`` with ``c`` the test's critical count,
decides as the other rules' intervals do: violated when it lies past a bound, holds when it
lies inside the statement; it is the verdict's interval.

The sign test can reject at level ``t`` only from ``n >= log2(1 / t)`` repetitions (all ``n``
on one side give ``2^-n``): :func:`minimum_repetitions`, 17 at the ``1.25e-5`` per side of a
two-sided point in a whole-catalog run of 40 claims.  With fewer the point is reported and not
decided (inconclusive, with the reason).  The mean and the one-sided t interval of the mean
slope are shown beside it, marked as not deciding.

Repetitions measured one after another on one machine (a benchmark) may drift together: such a
point (``time_ordered``) is first tested for serial dependence, Wald and Wolfowitz's runs test
above and below the median in the order measured (too few runs: neighbours alike), exactly, at
:data:`SERIAL_LEVEL`; a point that shows it is reported and not decided.  That pre-test can
only turn decisions into "inconclusive", so it costs power and never level.

Power (``min_detectable_ratio``, :class:`~verification.verdicts.Verdict`): the smallest median /
bound at which some law of the slopes is rejected with probability
:data:`verification.catalog.DESIGN_POWER`.  Once a point has the sign test's minimum of
repetitions, a law concentrated at one slope past the bound puts every slope past it and is
rejected with certainty, however close to the bound: the figure is 1 (any ratio above 1), and
infinite at a point that may not decide.  Beside it, per side, the figure for a law shaped like
the observed slopes (``min_detectable_ratio_observed_shape``): the sign test detects a share
``q*`` of slopes past the bound with the design power (exact,
:func:`verification.statistics.binomial_detectable`), and the observed law shifted until that
share lies past the bound has its median at that ratio (a plug-in: the true law is unknown;
infinite when no shift of it keeps a positive median).  A rate over a finite grid is evidence, not proof,
and the verdict says so.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from verification.catalog import DESIGN_POWER
from verification.rules.grid import PointDecision, grid_verdict
from verification.statistics import binomial_detectable
from verification.verdicts import Verdict

__all__ = ["SERIAL_LEVEL", "RatePoint", "minimum_repetitions", "rate_bound", "serial_dependence_pvalue",
           "sign_test_critical"]

RULE = "rate (exact sign test of the median log-log slope over independent repetitions)"
#: the level of the runs test of serial dependence of time-ordered repetitions.
SERIAL_LEVEL = 0.01


@dataclass(frozen=True)
class RatePoint:
    """One point of a rate claim: a fitted slope per independent repetition and the exponent.

    Attributes
    ----------
    key : str
        The point's name (the axis, say ``"T"``).
    slopes : sequence of float
        One fitted log-log slope per independent repetition (finite), in the order measured.
    upper : float or None
        The printed exponent: the statement is ``median slope <= upper + tolerance``; None for
        a statement with a lower side only (then ``lower`` is required).
    lower : float, optional
        The printed lower exponent: the statement is (also) ``median slope >= lower - tolerance``.
    tolerance : float, default 0
        What the statement allows beyond the printed exponents (the ``O~``'s logarithms over
        the grid), fixed before the data.
    instance : mapping, optional
        What reproduces the point (for a counterexample).
    time_ordered : bool, default False
        The repetitions were measured one after another on one machine, in the order of
        ``slopes`` (a benchmark's): the rule tests them for serial dependence first.  Slopes
        of independently seeded trials are independent by construction and need no test.
    """

    key: str
    slopes: Sequence[float]
    upper: float | None
    lower: float | None = None
    tolerance: float = 0.0
    instance: Mapping | None = None
    time_ordered: bool = False

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
            raise ValueError(f"lower must be finite, lower - tolerance > 0 and lower <= upper, "
                             f"got lower={self.lower!r}")
        if not np.all(np.isfinite(np.asarray(self.slopes, dtype=np.float64))):
            raise ValueError(f"slopes of point {self.key!r} must be finite")


@functools.lru_cache(maxsize=1024)
def sign_test_critical(n: int, tail: float) -> int:
    """The smallest count ``c`` with ``P[Bin(n, 1/2) >= c] <= tail``, ``n + 1`` when none is.

    The sign test at ``tail`` rejects exactly when ``c`` or more of ``n`` slopes lie past the
    bound (the same ``binom.sf`` as ``scipy.stats.binomtest``'s p-value, so the two agree).
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n!r}")
    if not 0 < tail < 1:
        raise ValueError(f"tail must lie in (0, 1), got {tail!r}")
    counts = np.arange(1, n + 1)
    rejects = stats.binom.sf(counts - 1, n, 0.5) <= tail
    return int(counts[rejects][0]) if rejects.any() else n + 1


@functools.lru_cache(maxsize=1024)
def _detectable_share(n: int, tail: float) -> float:
    """The share of slopes past the bound that the sign test at ``tail`` detects from ``n``
    repetitions with the design power (exact)."""
    return binomial_detectable(n, 0.5, tail, DESIGN_POWER)


@functools.lru_cache(maxsize=64)
def minimum_repetitions(tail: float) -> int:
    """The fewest repetitions from which the sign test at ``tail`` can reject: the smallest
    ``n`` with ``2^-n <= tail`` (17 at ``1.25e-5``)."""
    if not 0 < tail < 1:
        raise ValueError(f"tail must lie in (0, 1), got {tail!r}")
    n = max(1, math.floor(math.log2(1.0 / tail)))
    while sign_test_critical(n, tail) > n:
        n += 1
    return n


def _runs_cdf(runs: int, above: int, below: int) -> float:
    """``P[R <= runs]`` for the number R of runs in a random arrangement of ``above`` and
    ``below`` marks (Wald & Wolfowitz 1940; every arrangement equally likely)."""
    total = math.comb(above + below, above)
    mass = 0
    for r in range(2, runs + 1):
        k, odd = divmod(r, 2)
        if odd:
            mass += (math.comb(above - 1, k) * math.comb(below - 1, k - 1)
                     + math.comb(above - 1, k - 1) * math.comb(below - 1, k))
        else:
            mass += 2 * math.comb(above - 1, k - 1) * math.comb(below - 1, k - 1)
    return mass / total


def serial_dependence_pvalue(values: Sequence[float]) -> float:
    """The exact one-sided runs test of serial dependence of ``values`` in their order.

    Each value is marked above or below the median (values equal to it are left out); with
    independent, identically distributed values every arrangement of the marks is equally
    likely, and positive serial dependence (neighbours alike: a drift) makes too few runs.
    Returns ``P[R <= observed runs]`` (1 when one side is empty).

    Examples
    --------
    >>> serial_dependence_pvalue([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])  # a trend: 2 runs of 5
    0.007936507936507936
    >>> serial_dependence_pvalue([1, 10, 2, 9, 3, 8, 4, 7, 5, 6])  # alternating: 10 runs
    1.0
    """
    array = np.asarray(values, dtype=np.float64)
    median = np.median(array)
    marks = array[array != median] > median
    above, below = int(marks.sum()), int((~marks).sum())
    if above == 0 or below == 0:
        return 1.0
    runs = 1 + int(np.count_nonzero(marks[1:] != marks[:-1]))
    return _runs_cdf(runs, above, below)


def _sides(p: RatePoint) -> int:
    """How many one-sided tests the point's statement makes (each takes a share of alpha)."""
    return (p.upper is not None) + (p.lower is not None)


def _bound(p: RatePoint) -> float:
    """The point's headline bound: the upper side's, else the lower side's."""
    return p.upper + p.tolerance if p.upper is not None else p.lower - p.tolerance


def _sign_pvalue(past: int, n: int) -> float:
    """``P[Bin(n, 1/2) >= past]``: the sign test's p-value with ``past`` slopes past the bound."""
    return float(stats.binomtest(past, n, 0.5, alternative="greater").pvalue)


def _description(values: np.ndarray, tail: float) -> dict:
    """The mean and its one-sided t interval at ``tail`` per side: shown, never deciding (named
    so, that no reader takes the median's interval for the mean's)."""
    n = values.size
    mean = float(values.mean()) if n else math.nan
    sd = float(values.std(ddof=1)) if n > 1 else math.nan
    half = float(stats.t.ppf(1 - tail, n - 1)) * sd / math.sqrt(n) if n > 1 else math.nan
    return {"mean_not_deciding": mean, "sd": sd, "t_interval_not_deciding": [mean - half, mean + half]}


def _refused(p: RatePoint, values: np.ndarray, tail: float, why: str) -> PointDecision:
    """A point that may not decide (too few repetitions, say): its numbers, and no decision."""
    n = values.size
    median = float(np.median(values)) if n else math.nan
    bound = _bound(p)
    row = {"median": median, "n": n, **_description(values, tail), "bound": bound, "printed_exponent": p.upper,
           "tolerance": p.tolerance, "interval": [math.nan, math.nan], "ratio": median / bound,
           "printed_violated": False, "printed_holds": False, "min_detectable_ratio": math.inf,
           "can_fail": False, "slopes": values.tolist(), "why_no_decision": why}
    if p.lower is not None:
        row["lower_bound"] = p.lower - p.tolerance
    return PointDecision(key=p.key, statistic=median, bound=bound, interval=(math.nan, math.nan),
                         ratio=median / bound, printed_violated=False, printed_holds=False, pvalue=1.0,
                         min_detectable_ratio=math.inf, row=row)


def _decide(p: RatePoint, tail: float, refuse: str | None, holds_tail: float | None = None) -> PointDecision:
    values = np.asarray(p.slopes, dtype=np.float64)
    n = values.size
    if refuse is not None:
        return _refused(p, values, tail, refuse)
    need = minimum_repetitions(tail)
    if n < need:
        return _refused(p, values, tail, f"{n} repetitions, fewer than the {need} the sign test needs at level "
                                         f"{tail:.3g} per side (all {n} on one side give 2^-{n} = {2.0 ** -n:.3g})")
    serial = serial_dependence_pvalue(values) if p.time_ordered else None
    if serial is not None and serial <= SERIAL_LEVEL:
        return _refused(p, values, tail, f"the {n} repetitions show serial dependence in the order measured "
                                         f"(runs test above and below their median, p = {serial:.3g} <= "
                                         f"{SERIAL_LEVEL:g}): they are not independent repetitions")
    holds_tail = tail if holds_tail is None else holds_tail
    c = sign_test_critical(n, tail)
    ordered = np.sort(values)
    low, high = float(ordered[n - c]), float(ordered[c - 1])  # x_(n-c+1), x_(c)
    median = float(np.median(values))
    share = _detectable_share(n, tail)
    ratios, mdrs, pvalues, bounds, counts = {}, {}, {}, {}, {}
    holds = True
    if p.upper is not None:
        upper = bounds["upper"] = p.upper + p.tolerance
        above, below = int(np.sum(values > upper)), int(np.sum(values < upper))
        counts["upper"] = {"above": above, "below": below}
        pvalues["upper"] = _sign_pvalue(above, n)
        ratios["upper"] = median / upper
        # The observed law shifted until the share ``share`` of it lies above the bound.
        mdrs["upper"] = (upper + median - float(np.quantile(values, 1.0 - share))) / upper
        holds = _sign_pvalue(below, n) <= holds_tail
    if p.lower is not None:
        lower = bounds["lower"] = p.lower - p.tolerance
        above, below = int(np.sum(values > lower)), int(np.sum(values < lower))
        counts["lower"] = {"above": above, "below": below}
        pvalues["lower"] = _sign_pvalue(below, n)
        # Oriented like the upper side: above 1 when the slope falls below the band.
        ratios["lower"] = lower / median if median > 0 else math.inf
        shift = float(np.quantile(values, share)) - median
        mdrs["lower"] = lower / (lower - shift) if lower > shift else math.inf
        holds = holds and _sign_pvalue(above, n) <= holds_tail
    side = max(ratios, key=ratios.get)
    bound = bounds[side]
    pvalue = min(pvalues.values())
    # Violated exactly when a side's p-value is at most its level (the interval's end then
    # lies past that side's bound), so the p-value and the decision agree.
    violated = pvalue <= tail
    row = {"median": median, "n": n, **_description(values, tail), "bound": _bound(p), "printed_exponent": p.upper,
           "tolerance": p.tolerance, "interval": [low, high],
           "interval_kind": f"the median's sign-test interval: order statistics {n - c + 1} and {c} of {n}, "
                            f"each side at level {1 - tail:.6g}",
           "counts": counts, "critical_count": c, "ratio": ratios[side], "pvalues": pvalues,
           "printed_violated": violated, "printed_holds": holds,
           "min_detectable_ratio": 1.0, "min_detectable_ratio_observed_shape": mdrs,
           "detectable_share": share, "can_fail": True,
           "levels": {"violated": 1 - tail, "holds": 1 - holds_tail},
           "slopes": values.tolist()}
    if serial is not None:
        row["serial_dependence_pvalue"] = serial
    if p.lower is not None:
        row.update(lower_bound=p.lower - p.tolerance, printed_lower_exponent=p.lower)
    return PointDecision(
        key=p.key, statistic=median, bound=bound, interval=(low, high), ratio=ratios[side],
        printed_violated=violated, printed_holds=holds, pvalue=pvalue,
        # A law concentrated past the bound is rejected with certainty (the module docstring).
        min_detectable_ratio=1.0,
        counterexample={"point": p.key, **(p.instance or {}), "median_slope": median, "bound": bound,
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
        Why the verdict is inconclusive when the caller knows better (a missing file, say);
        used only when the verdict is inconclusive.
    refuse : str, optional
        Why the slopes are not independent repetitions (rounds of one grid point run back to
        back, say): no point decides, the numbers are reported, and this is the reason.

    Returns
    -------
    Verdict
        From :func:`verification.rules.grid.grid_verdict`; each side's violation tested at
        ``alpha / splits`` (its holding at ``alpha``), ``splits`` the number of sides over all points.  Points with fewer
        than :func:`minimum_repetitions` repetitions at that level, or time-ordered ones that
        show serial dependence, decide nothing, and the verdict is then inconclusive unless
        another point shows a violation.
    """
    if not points:
        raise ValueError("points must not be empty")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    splits = sum(_sides(p) for p in points)
    tail = alpha / splits
    # "Holds" needs every side of every point to hold (an intersection): each at the whole alpha.
    decisions = [_decide(p, tail, refuse, alpha) for p in points]
    refused = [d for d in decisions if "why_no_decision" in d.row]
    reason = reason or refuse
    if reason is None and refused:
        reason = ("not decided, the numbers are reported: "
                  + "; ".join(f"at {d.key}, {d.row['why_no_decision']}" for d in refused))
    elif reason is None and not all(d.printed_holds for d in decisions):
        worst = max((d for d in decisions if not d.printed_holds), key=lambda d: d.ratio)
        reason = (f"at {worst.key} the sign-test interval [{worst.interval[0]:.4g}, {worst.interval[1]:.4g}] "
                  f"of the median slope (n = {worst.row['n']}, level {1 - tail:.6g} per side) "
                  f"straddles the bound {worst.bound:.4g}")
    info = {**(details or {}), "evidence": "a rate over a finite grid is evidence, not proof",
            "decided_on": "the median slope over the repetitions, exact sign test (the mean and its t "
                          "interval are shown, not deciding)"}
    return grid_verdict(claim_id, RULE, decisions, alpha=alpha, splits=splits,
                        n_trials=max(len(p.slopes) for p in points), details=info, reason=reason)
