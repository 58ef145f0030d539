"""The mean-bound rule: ``E[X] <= b`` at a grid of points, with intervals whose level is real.

Each point's one-sided bounds come from an a-priori range of ``X``, never from the sample's
own spread alone:

* **both ends known** (a frequency, a loss, an estimate with ``|E| <= ||alpha||_1``): the
  better of Hoeffding's and the empirical Bernstein bound (Maurer & Pontil, COLT 2009,
  Theorem 4) on each side, each at half the side's risk (union bound).  Both hold for every
  law on the range and every ``n``.
* **only the lower end known** (a regret is at least ``-T/2``, an excess risk at least 0):
  ``E[X] >= E[min(X, c)]`` for any cap ``c``, and ``min(X, c)`` lies in ``[lower, c]``; so the
  lower bound of the truncated variable is a valid lower bound of ``E[X]`` and a violation
  can be found at its level.  The caps are fixed from the bound before the data
  (``lower + c (b - lower)`` for c in :data:`CAP_FACTORS`, each at a share of the risk, or
  the one cap the claim states; never above a known upper end); the same truncation serves
  the lower end when the upper end is known but vast.  No upper bound exists without
  an upper end, so such a point can never hold: the verdict is inconclusive with that reason.
* **no end known**: the point is reported, and decides nothing.

A bootstrap or t interval of a mean at a level near ``1 - 1e-5`` does not have that level at
the few seeds a claim can afford (a bootstrap interval never leaves ``[min, max]`` of the
data, so with n seeds it misses at least ``2^-n`` per side); the t interval is shown beside
the exact ones for the reader, and never decides.

A value outside the stated range means the premise that bounds ``X`` is broken (by a defect,
say): that end of the range is then not used, and the row says how many values broke it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from verification.catalog import DESIGN_POWER
from verification.rules.grid import PointDecision, grid_verdict
from verification.sequential.betting import SequentialMeanTest
from verification.statistics import hoeffding_detectable_shift
from verification.verdicts import Verdict

__all__ = ["MeanPoint", "detectable_shift", "lower_confidence", "lower_end", "mean_bound", "upper_confidence",
           "upper_end", "violation_pvalue", "violation_sample_size"]

RULE = "mean bound (a-priori range: Hoeffding and empirical Bernstein)"
#: the caps of the violation side, in units of (bound - lower) above lower: a small cap finds
#: a mean just past the bound, a large one a gross violation from few seeds; each is tried
#: at an equal share of the side's risk (union bound), so the largest of their lower bounds
#: keeps the level.
CAP_FACTORS = (2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0)


@dataclass(frozen=True)
class MeanPoint:
    """One grid point of a mean bound: per-seed values of ``X`` and the bound on ``E[X]``.

    Attributes
    ----------
    key : str
    values : sequence of float
        One value per independent trial.
    bound : float
        The printed bound: the statement is ``E[X] <= bound``.
    lower, upper : float
        The a-priori range of ``X`` (``-inf`` / ``inf`` where none is known).
    scale : float, optional
        The unit of the ratio ``1 + (mean - bound) / scale``; default ``|bound|`` (so the
        ratio is mean / bound for a positive bound).  A claim whose bound is 0 (``E[a - b]
        <= 0``) states the scale of ``b``.
    corrected : float, optional
        The corrected bound of the errata ledger.
    cap : float, optional
        The truncation of a variable bounded only below (see the module docstring).
    instance : mapping, optional
        What reproduces the point (for a counterexample).
    """

    key: str
    values: Sequence[float]
    bound: float
    lower: float = -math.inf
    upper: float = math.inf
    scale: float | None = None
    corrected: float | None = None
    cap: float | None = None
    instance: Mapping | None = None


def _one_sided_width(n: int, span: float, variance: float, tail: float) -> float:
    """Half-width of the better of Hoeffding and empirical Bernstein, each at ``tail / 2``."""
    hoeffding = span * math.sqrt(math.log(2.0 / tail) / (2.0 * n))
    if n < 2:
        return hoeffding
    log_term = math.log(4.0 / tail)
    bernstein = math.sqrt(2.0 * variance * log_term / n) + 7.0 * span * log_term / (3.0 * (n - 1))
    return min(hoeffding, bernstein)


def _truncated_moments(values, upper: float) -> tuple[int, float, float]:
    """``n``, mean and unbiased variance (0 for one value) of ``min(X, upper)``."""
    x = np.minimum(np.asarray(values, dtype=np.float64), upper)
    return x.size, float(x.mean()), float(x.var(ddof=1)) if x.size > 1 else 0.0


def lower_confidence(values, lower: float, upper: float, tail: float) -> float:
    """A lower confidence bound of the mean of iid ``X`` in ``[lower, upper]``, missing with
    probability at most ``tail`` for every such law and every ``n``; ``-inf`` when a range
    end is infinite.  Values above ``upper`` are truncated to it (valid for the lower end:
    truncation only lowers the mean)."""
    if not (math.isfinite(lower) and math.isfinite(upper)):
        return -math.inf
    n, mean, variance = _truncated_moments(values, upper)
    return mean - _one_sided_width(n, upper - lower, variance, tail)


def upper_confidence(values, lower: float, upper: float, tail: float) -> float:
    """The mirror of :func:`lower_confidence`: an upper confidence bound of the mean."""
    return -lower_confidence(-np.asarray(values, dtype=np.float64), -upper, -lower, tail)


def violation_pvalue(values, lower: float, cap: float, bound: float) -> float:
    """The smallest tail at which :func:`lower_confidence` exceeds ``bound`` (1 if none):
    the p-value of the test that decides the point's violation."""
    if not (math.isfinite(lower) and math.isfinite(cap)):
        return 1.0  # no lower confidence bound exceeds anything
    # The moments once, not at each of the 62 tails below (the same numbers as
    # lower_confidence's: a third of the time of deciding a quick seed's stored trials).
    n, mean, variance = _truncated_moments(values, cap)

    def exceeds(tail: float) -> bool:
        return mean - _one_sided_width(n, cap - lower, variance, tail) > bound

    if not exceeds(1.0 - 1e-12):
        return 1.0
    lo, hi = -300.0, 0.0
    if exceeds(10.0**lo):
        return 0.0
    for _ in range(60):  # bisection in log10(tail): the bound rises with the tail
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if exceeds(10.0**mid) else (mid, hi)
    return 10.0**hi


def _caps(p: MeanPoint, lower: float, upper: float) -> list[float]:
    """The truncation points of the violation side (empty: no valid lower bound)."""
    if not math.isfinite(lower):
        return []
    if p.cap is not None:
        caps = [p.cap]
    elif p.bound > lower:
        caps = [lower + c * (p.bound - lower) for c in CAP_FACTORS]
    else:
        caps = []
    caps = sorted({min(c, upper) for c in caps if math.isfinite(min(c, upper))})
    if not caps and math.isfinite(upper):
        caps = [upper]
    return caps


def detectable_shift(n: int, span: float, tail: float) -> float:
    """The shift of the mean past a bound that :func:`lower_confidence` at ``tail`` detects
    with the design power, for every law on a range of width ``span``
    (:func:`verification.statistics.hoeffding_detectable_shift`)."""
    return hoeffding_detectable_shift(n, 0.0, span, tail, DESIGN_POWER)


def violation_sample_size(bound: float, lower: float, ratio: float, tail: float) -> int:
    """The smallest n at which the violation side of a point detects ``E[X] = ratio * bound``
    with the design power, for a variable bounded below by ``lower`` (no upper end), at
    ``tail`` per point: what a claim plans its trials from, before any data."""
    if not (bound > 0 and ratio > 1 and bound > lower):
        raise ValueError(f"need bound > max(0, lower) and ratio > 1, got bound={bound!r}, "
                         f"lower={lower!r}, ratio={ratio!r}")
    point = MeanPoint(key="plan", values=(), bound=bound, lower=lower)
    caps = _caps(point, lower, math.inf)
    target = ratio * bound
    # Only a cap at or above the target mean can see it (for laws with no mass above the cap).
    usable = [cap for cap in caps if cap >= target]
    if not usable:
        raise ValueError(f"ratio {ratio!r} lies above every cap of the rule ({caps})")

    def detects(n: int) -> bool:
        return min(detectable_shift(n, cap - lower, tail / len(caps)) for cap in usable) <= target - bound

    n = 2
    while not detects(n):
        n *= 2
    low, high = n // 2, n  # bisection: the shift falls with n
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if detects(mid) else (mid, high)
    return high


def _sequence(values, lower: float, upper: float, tail: float) -> SequentialMeanTest:
    # theta = 1/2 and alpha = 2 tail: each side of the sequence misses with probability at most tail.
    return SequentialMeanTest(lower, upper, 2.0 * tail).update(np.clip(values, lower, upper))


def lower_end(values, lower: float, cap: float, bound: float, tail: float, anytime: bool) -> tuple[float, float]:
    """The lower confidence bound of ``E[min(X, cap)]`` (hence of ``E[X]``) at ``tail`` and the
    p-value of ``E[X] <= bound`` it decides: fixed-n (Hoeffding and empirical Bernstein), or,
    ``anytime``, the betting confidence sequence (Waudby-Smith & Ramdas 2023), valid at any
    stopping time, with the one-sided p-value ``1 / sup_t K+_t(bound)``."""
    if not anytime:
        return lower_confidence(values, lower, cap, tail), violation_pvalue(values, lower, cap, bound)
    test = _sequence(values, lower, cap, tail)
    low = float(test.confidence_sequence().low[-1])
    if bound < lower:
        return low, 0.0
    if bound >= cap:
        return low, 1.0
    return low, float(np.exp(-max(0.0, float(test.capital(bound).log_plus.max()))))


def upper_end(values, lower: float, upper: float, tail: float, anytime: bool) -> float:
    """The upper confidence bound of ``E[X]`` at ``tail`` (mirror of :func:`lower_end`)."""
    if not anytime:
        return upper_confidence(values, lower, upper, tail)
    if not (math.isfinite(lower) and math.isfinite(upper)):
        return math.inf
    return float(_sequence(values, lower, upper, tail).confidence_sequence().high[-1])


def _t_interval(values: np.ndarray, tail: float) -> list[float]:
    n = values.size
    if n < 2 or not np.isfinite(values).all():
        return [math.nan, math.nan]
    half = stats.t.ppf(1 - tail, n - 1) * values.std(ddof=1) / math.sqrt(n)
    return [float(values.mean() - half), float(values.mean() + half)]


def _power(p: MeanPoint, n: int, lower: float, caps: Sequence[float], scale: float, tail: float,
           anytime: bool) -> tuple[float, float, str]:
    """(the definition's figure, the every-law figure, the condition of the latter) at a point.

    The definition's figure (:attr:`verification.verdicts.Verdict.min_detectable_ratio`): the
    smallest ratio at which some law the assumptions allow is rejected with the design power.
    The easiest such law is a constant ``X = mu``, rejected with certainty by a cap ``c``
    once ``mu`` exceeds the bound by the zero-variance width ``w0`` (and ``bound + w0 < c``).
    Beside it, the ratio detected for every law of ``X`` within ``[lower, cap]`` (Hoeffding on
    both steps); a law with mass above every cap needs more, since the rule sees ``min(X, cap)``.
    """
    share = tail / len(caps) if caps else tail
    easiest = [_one_sided_width(n, cap - lower, 0.0, share) for cap in caps] if n else []
    reach = [w for w, cap in zip(easiest, caps, strict=True) if p.bound + w < cap]
    if anytime:  # the confidence sequence is wider: a constant at the cap must still reject
        reach = reach if any(lower_end(np.full(n, cap), lower, cap, p.bound, share, True)[0] > p.bound
                             for cap in caps) else []
    some_law = 1.0 + min(reach) / scale if reach else math.inf
    shifts = [(detectable_shift(n, cap - lower, share), cap) for cap in caps] if n else []
    every = [(s, cap) for s, cap in shifts if p.bound + s <= cap]
    if not every:
        return some_law, math.inf, "no law is detected whatever its spread at this n"
    shift, cap = min(every)
    truncated = math.isinf(p.upper) or cap < p.upper
    condition = (f"for every law of X within [{lower:.6g}, {cap:.6g}]" +
                 (" (the cap: a law with mass above it needs more)" if truncated else ""))
    return some_law, 1.0 + shift / scale, condition


def _decide(p: MeanPoint, tail: float, anytime: bool = False, holds_tail: float | None = None) -> PointDecision:
    values = np.asarray(p.values, dtype=np.float64)
    n = values.size
    below, above = int(np.sum(values < p.lower)), int(np.sum(values > p.upper))
    # A broken premise: that end of the range is not used.
    lower = p.lower if below == 0 else -math.inf
    upper = p.upper if above == 0 else math.inf
    caps = _caps(p, lower, upper)
    ends = [lower_end(values, lower, cap, p.bound, tail / len(caps), anytime) for cap in caps]
    low = max((e[0] for e in ends), default=-math.inf)
    high = upper_end(values, lower, upper, tail if holds_tail is None else holds_tail, anytime)
    mean = float(values.mean())
    scale = p.scale if p.scale is not None else abs(p.bound)
    scale = scale if scale > 0 else 1.0
    ratio = 1.0 + (mean - p.bound) / scale
    # No law on the a-priori range has a mean above a bound at or past its upper end.
    vacuous = p.bound >= upper
    mdr, every_law, condition = (math.inf, math.inf, "the bound is at or above the upper end of X") if vacuous \
        else _power(p, n, lower, caps, scale, tail, anytime)
    violated, holds = low > p.bound, high < p.bound
    row = {"mean": mean, "n": n, "bound": p.bound, "interval": [low, high], "ratio": ratio,
           "printed_violated": violated, "printed_holds": holds, "range": [p.lower, p.upper],
           "caps": caps,
           "values_outside_range": below + above, "min_detectable_ratio": mdr, "can_fail": math.isfinite(mdr),
           "min_detectable_ratio_every_law": every_law, "every_law_condition": condition,
           "cannot_be_false": vacuous,
           "levels": {"violated": 1 - tail, "holds": 1 - (tail if holds_tail is None else holds_tail)},
           "sd": float(values.std(ddof=1)) if n > 1 else 0.0,
           "t_interval_not_deciding": _t_interval(values, tail),
           "interval_kind": "anytime-valid confidence sequence (betting)" if anytime else "fixed n"}
    if anytime:
        row["min_detectable_ratio_note"] = "of the fixed-n rule: the confidence sequence needs more trials"
    if not math.isfinite(upper):
        row["why_no_upper_bound"] = ("X has no a-priori upper end" if above == 0 else
                                     f"{above} values exceed the stated upper end {p.upper:g}")
    corrected = {}
    if p.corrected is not None:
        corrected = {"corrected_violated": low > p.corrected, "corrected_holds": high < p.corrected}
        row.update(corrected_bound=p.corrected, **corrected)
    return PointDecision(
        key=p.key, statistic=mean, bound=p.bound, interval=(low, high), ratio=ratio,
        printed_violated=violated, printed_holds=holds,
        pvalue=min((min(1.0, len(caps) * e[1]) for e in ends), default=1.0),
        min_detectable_ratio=mdr, vacuous=vacuous,
        counterexample={"point": p.key, **(p.instance or {}), "mean": mean, "bound": p.bound,
                        "lower_confidence_bound": low}, row=row, **corrected)


def mean_bound(claim_id: str, points: Sequence[MeanPoint], alpha: float,
               details: Mapping | None = None, anytime: bool = False) -> Verdict:
    """The mean-bound rule over a grid of points, printed bound first.

    The violation side of each point is tested at ``alpha / (c G)`` (G points, c = 2 when a
    corrected bound is also tested) and the holds side at ``alpha / c`` (a grid holds only when
    every point does); :func:`verification.rules.grid.grid_verdict` makes one verdict.
    ``anytime=True`` decides with the betting confidence sequence instead of the fixed-n
    bounds, so that a claim that samples until it is decided (the runner's
    ``sequential_batch``) keeps its level.
    """
    statements = 2 if any(p.corrected is not None for p in points) else 1
    splits = statements * len(points)
    tail = alpha / splits
    decisions = [_decide(p, tail, anytime, alpha / statements) for p in points]
    unbounded = [d for d in decisions if "why_no_upper_bound" in d.row]
    reason = None
    blind = [d for d in decisions if not d.vacuous and not d.can_fail]
    if blind:
        reason = (f"the check cannot fail at {len(blind)} of {len(points)} points ({blind[0].key}, ...): no law "
                  "there passes the exact lower confidence bound above the bound (no a-priori lower end, or "
                  f"too few trials for level {1 - tail:.10g})")
    elif unbounded:
        worst = max(unbounded, key=lambda d: d.row["t_interval_not_deciding"][1] - d.bound)
        reason = (f"no a-priori upper end of the statistic at {len(unbounded)} of {len(points)} points: "
                  f"no interval has level {1 - tail:.10g} at n = {worst.row['n']}, so the bound cannot "
                  f"be shown to hold (at {worst.key} the t interval, approximate and not used, ends "
                  f"at {worst.row['t_interval_not_deciding'][1]:.4g} against the bound {worst.bound:.4g})")
    elif not all(d.printed_holds for d in decisions):
        worst = max((d for d in decisions if not d.printed_holds), key=lambda d: d.interval[1] - d.bound)
        low, high = worst.row["range"]
        reason = (f"at {worst.key} the exact interval [{worst.interval[0]:.4g}, {worst.interval[1]:.4g}] "
                  f"straddles the bound {worst.bound:.4g} (a-priori range [{low:.4g}, {high:.4g}], n = "
                  f"{worst.row['n']}; the t interval, approximate and not used, ends at "
                  f"{worst.row['t_interval_not_deciding'][1]:.4g})")
    return grid_verdict(claim_id, RULE, decisions, alpha=alpha, splits=splits,
                        n_trials=max(len(p.values) for p in points), details=details, reason=reason)
