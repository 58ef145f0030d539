"""The probability-bound rule: ``P[A] <= p0`` at a grid of points, exact binomial intervals.

At each point ``k`` events in ``n`` independent trials; one-sided Clopper-Pearson intervals
decide it: violated when the lower end, at level ``1 - alpha / splits`` (the claim's alpha
split over the points and statements), exceeds the bound; holds when the upper end, at level
``1 - alpha / c`` (split over the c statements only: a grid holds when every point does, see
:mod:`verification.rules.grid`), is below it.  The intervals invert the exact binomial test, so the
level holds at every ``n``; the p-value is that test's, ``P[Bin(n, p0) >= k]``
(``scipy.stats.binomtest``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats

from verification import statistics
from verification.catalog import DESIGN_POWER
from verification.rules.grid import PointDecision, grid_verdict
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["TailPoint", "bracketed", "detectable_ratio", "probability_bound", "tail_decision", "tail_point"]

RULE = "probability bound (exact binomial, Clopper-Pearson)"


@dataclass(frozen=True)
class TailPoint:
    """One grid point of a probability bound: ``k`` events in ``n`` independent trials.

    ``printed`` is the bound as printed; ``corrected`` the errata ledger's bound, or None
    when the claim has no correction.  ``first_event`` is the index of the first trial
    in which the event happened (for the counterexample).  ``possible`` is False when the
    event cannot happen at all (its threshold is at least the largest value the statistic can
    take, whatever the trials): no outcome can then reject the bound, and the point is
    reported and not counted as evidence.
    """

    key: str
    k: int
    n: int
    printed: float
    corrected: float | None = None
    first_event: int | None = None
    instance: Mapping | None = None
    possible: bool = True

    @classmethod
    def from_hits(cls, key: str, hits: Sequence[bool], printed: float, corrected: float | None = None,
                  instance: Mapping | None = None, possible: bool = True) -> TailPoint:
        """The point of a sequence of trials, ``hits[i]`` whether the event happened in trial i.

        ``possible`` False says the event cannot happen on any outcome (derived from the
        instance alone, never from the trials); an event at such a point is refused with a
        ValueError, since the statistic or the argument that it is impossible is then wrong.
        """
        if not possible and any(hits):
            raise ValueError(f"point {key}: the event happened in trial {list(hits).index(True)}, "
                             f"but it was declared impossible (possible=False)")
        return cls(key=key, k=int(sum(hits)), n=len(hits), printed=printed, corrected=corrected,
                   first_event=hits.index(True) if any(hits) else None, instance=instance,
                   possible=bool(possible))


def _sides(k: int, n: int, bound: float, level: float, holds_level: float) -> tuple[bool, bool, tuple[float, float]]:
    """(violated, holds, interval) of ``P <= bound``: the lower end one-sided at ``level``,
    the upper end at ``holds_level``."""
    low = statistics.clopper_pearson(k, n, level, alternative="greater").low
    high = statistics.clopper_pearson(k, n, holds_level, alternative="less").high
    # A bound of 1 or more says nothing and holds trivially.
    return low > bound, high < bound or bound >= 1.0, (low, high)


# Cached: a pure function of its numbers, asked again for every point of a grid with the same
# trials, bound and level (and for every seed of the self-test's null-boundary calibration).
@functools.lru_cache(maxsize=4096)
def detectable_ratio(n: int, bound: float, tail: float, power: float = DESIGN_POWER) -> float:
    """The smallest ``p / bound`` that the exact test of ``P <= bound`` at level ``tail``
    detects with probability ``power`` (default the design power) from ``n`` trials; inf
    when no outcome rejects that often."""
    if bound >= 1.0 or statistics.binomial_power(n, bound, 1.0, tail) < power:
        return math.inf
    p1 = statistics.binomial_detectable(n, bound, tail, power)
    return p1 / bound if bound > 0 else math.inf if p1 > 0 else 1.0


def probability_bound(claim_id: str, points: Sequence[TailPoint], alpha: float,
                      details: Mapping | None = None) -> Verdict:
    """The probability-bound rule over a grid of points, printed bound first.

    Each point's violation is tested at level ``1 - alpha / (c G)`` (G points, c = 2 when a
    corrected bound is also tested, else 1) and its holding at ``1 - alpha / c``; see
    :func:`verification.rules.grid.grid_verdict` for how the points make one verdict.  A
    point whose bound is 1 or more, or whose event is impossible (:func:`tail_point`'s
    ``largest``), cannot be false (``vacuous``): it is reported and not counted; a point at
    which not even ``k = n`` would reject cannot detect a violation, and the claim cannot
    then hold.
    """
    statements = 2 if any(p.corrected is not None for p in points) else 1
    splits = statements * len(points)
    decisions = [tail_decision(p, alpha / splits, alpha / statements) for p in points]
    return grid_verdict(claim_id, RULE, decisions, alpha=alpha, splits=splits,
                        n_trials=max(p.n for p in points), details=details)


def tail_decision(p: TailPoint, tail: float, holds_tail: float | None = None) -> PointDecision:
    """The exact binomial decision of one point: the violation side one-sided at ``tail``, the
    holds side at ``holds_tail`` (default ``tail``).

    Violated when the lower Clopper-Pearson end exceeds ``p.printed``, holds when the upper
    end is below it; the p-value is the exact test's, ``P[Bin(n, printed) >= k]``.  Shared by
    :func:`probability_bound` and the sign test of :mod:`verification.rules.comparison`.
    """
    level = 1 - tail
    holds_level = 1 - (tail if holds_tail is None else holds_tail)
    violated, holds, interval = _sides(p.k, p.n, p.printed, level, holds_level)
    frequency = p.k / p.n
    ratio = frequency / p.printed if p.printed > 0 else math.inf if p.k else 0.0
    # An impossible event is never observed, and a bound of 1 or more cannot be exceeded: the
    # statement cannot be false there, whatever the law.
    vacuous = not p.possible or p.printed >= 1.0
    mdr = math.inf if vacuous else detectable_ratio(p.n, p.printed, tail)
    row = {"events": p.k, "trials": p.n, "frequency": frequency, "printed_bound": p.printed,
           "interval": list(interval), "printed_violated": violated, "printed_holds": holds,
           "levels": {"violated": level, "holds": holds_level},
           "ratio": ratio, "min_detectable_ratio": mdr, "can_fail": math.isfinite(mdr),
           "cannot_be_false": vacuous, "event_possible": p.possible}
    corrected = {}
    if p.corrected is not None:
        c_violated, c_holds, _ = _sides(p.k, p.n, p.corrected, level, holds_level)
        row.update(corrected_bound=p.corrected, corrected_violated=c_violated, corrected_holds=c_holds)
        corrected = {"corrected_violated": c_violated, "corrected_holds": c_holds}
    return PointDecision(
        key=p.key, statistic=frequency, bound=p.printed, interval=interval, ratio=ratio,
        printed_violated=violated, printed_holds=holds,
        pvalue=float(stats.binomtest(p.k, p.n, min(p.printed, 1.0), alternative="greater").pvalue),
        min_detectable_ratio=mdr, vacuous=vacuous,
        counterexample={"point": p.key, **(p.instance or {}), "frequency": frequency,
                        "printed_bound": p.printed, "trial_index": p.first_event},
        row=row, **corrected)


def tail_point(key: str, values: Sequence[float], threshold: float, printed: float,
               instance: Mapping | None = None, largest: float | None = None) -> TailPoint:
    """The grid point "value > threshold" over the trials, with its first event for the report.

    Parameters
    ----------
    key : str
    values : sequence of float
        The statistic in each trial.
    threshold : float
        The event is ``value > threshold``.
    printed : float
        The printed bound on the event's probability.
    instance : mapping, optional
        What the report shows about the point.
    largest : float, optional
        The largest value the statistic can take on any outcome (derived from the instance
        alone, never from the trials).  When ``threshold >= largest`` the event is impossible:
        the point cannot fail and is not counted as evidence that the statement holds.
    """
    # A new name: ``values`` is typed as the caller's sequence.
    array = np.asarray(values, dtype=np.float64)
    hits = array > threshold
    first = int(np.argmax(hits)) if hits.any() else None
    info = {**(instance or {}), "threshold": float(threshold)}
    possible = True
    if largest is not None:
        info["largest_value"] = float(largest)
        possible = bool(threshold < largest)
        # A value above it means the statistic or the bound on it is computed wrongly: either
        # way the point's "cannot fail" would be false, so it must not pass silently.
        if array.size and array.max() > largest + 1e-9 * max(1.0, abs(largest)):
            raise ValueError(f"point {key}: a trial's value {array.max()!r} exceeds the largest value "
                             f"{largest!r} the statistic can take")
    return TailPoint(key=key, k=int(hits.sum()), n=int(hits.size), printed=float(printed),
                     first_event=first, instance=info, possible=possible)


def bracketed(claim_id: str, lower: Sequence[TailPoint], upper: Sequence[TailPoint],
              alpha: float, details: Mapping | None = None) -> Verdict:
    """Probability bound on an event known only between two events ``A_low ⊆ A ⊆ A_up``.

    ``P[A_low] <= P[A] <= P[A_up]`` (a supremum over a class bracketed by computable lower
    and upper bounds): the claim holds when the rule finds that ``P[A_up]`` holds its bound
    at every point, and is violated when it finds ``P[A_low]`` over it at some point (each
    at ``alpha / 2``); otherwise inconclusive.  With exact events pass the same points twice.
    """
    up = probability_bound(claim_id, upper, alpha / 2)
    low = probability_bound(claim_id, lower, alpha / 2)
    if low.verdict == VIOLATED:
        base, verdict = low, VIOLATED
    else:
        base, verdict = up, HOLDS if up.verdict == HOLDS else INCONCLUSIVE
    extra = {**base.details, **(details or {}), "upper_event": up.details["points"],
             "lower_event": low.details["points"]}
    return replace(base, verdict=verdict, alpha=alpha, pvalue=min(1.0, 2 * low.pvalue),
                   min_detectable_ratio=low.min_detectable_ratio,
                   min_detectable_ratio_best_point=low.min_detectable_ratio_best_point,
                   rule=RULE + " on events bracketing the supremum", details=extra)
