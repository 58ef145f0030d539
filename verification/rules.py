"""Decision rules shared by the claims (DESIGN.md, Statistics), from counts to a verdict.

A rule takes the summaries the claim's trials produced and returns a
:class:`~verification.verdicts.Verdict` with its statistic, interval, level,
power and tightness filled in the same way for every claim that uses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from verification import statistics
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["TailPoint", "probability_bound"]


@dataclass(frozen=True)
class TailPoint:
    """One grid point of a probability bound: ``k`` events in ``n`` independent trials.

    ``printed`` is the bound as printed; ``corrected`` the errata ledger's bound, or None
    when the claim has no correction.  ``first_event`` is the index of the first trial
    in which the event happened (for the counterexample).
    """

    key: str
    k: int
    n: int
    printed: float
    corrected: float | None = None
    first_event: int | None = None
    instance: Mapping | None = None


def _test(k, n, bound, level):
    """(violated, holds, interval) of ``P <= bound`` at one-sided ``level`` on each side."""
    low = statistics.clopper_pearson(k, n, level, alternative="greater").low
    high = statistics.clopper_pearson(k, n, level, alternative="less").high
    # A bound of 1 or more says nothing and holds trivially.
    return low > bound, high < bound or bound >= 1.0, (low, high)


def probability_bound(claim_id: str, points: Sequence[TailPoint], alpha: float,
                      details: Mapping | None = None) -> Verdict:
    """The probability-bound rule over a grid of points, printed bound first.

    One-sided Clopper-Pearson intervals at level ``1 - alpha / (c G)`` (G points, c = 2
    when a corrected bound is also tested, else 1) decide each point: violated when the
    lower end exceeds the bound, holds when the upper end is below it.  The claim is
    violated as printed if some point is; then ``holds_after_correction`` when the
    corrected bound holds at every point, ``violated`` when it fails somewhere, else
    ``inconclusive``.  Without a printed violation it holds if every point holds, else
    it is inconclusive.  The statistic is the frequency at the point nearest its bound
    (largest frequency / bound), the power the smallest probability the test detects
    there with probability 0.9, and the p-value Bonferroni's over the points.
    """
    corrected = any(p.corrected is not None for p in points)
    level = 1 - alpha / ((2 if corrected else 1) * len(points))
    rows, worst, pvalue = {}, None, 1.0
    for p in points:
        violated, holds, interval = _test(p.k, p.n, p.printed, level)
        row = {"events": p.k, "trials": p.n, "frequency": p.k / p.n, "printed_bound": p.printed,
               "interval": list(interval), "printed_violated": violated, "printed_holds": holds,
               "power": statistics.binomial_detectable(p.n, min(p.printed, 1.0), 1 - level)
               if p.printed < 1 else 1.0}
        if p.corrected is not None:
            c_violated, c_holds, _ = _test(p.k, p.n, p.corrected, level)
            row.update(corrected_bound=p.corrected, corrected_violated=c_violated, corrected_holds=c_holds)
        rows[p.key] = row
        pvalue = min(pvalue, statistics.binomial_tail_pvalue(p.k, p.n, min(p.printed, 1.0)) * len(points))
        ratio = (p.k / p.n) / p.printed if p.printed > 0 else float("inf") if p.k else 0.0
        if worst is None or ratio > worst[1]:
            worst = (p, ratio)
    printed_violated = [rows[p.key]["printed_violated"] for p in points]
    if any(printed_violated):
        if corrected and all(rows[p.key].get("corrected_holds", False) for p in points):
            verdict = HOLDS_AFTER_CORRECTION
        elif corrected and any(rows[p.key].get("corrected_violated", False) for p in points):
            verdict = VIOLATED
        elif corrected:
            verdict = INCONCLUSIVE
        else:
            verdict = VIOLATED
    elif all(rows[p.key]["printed_holds"] for p in points):
        verdict = HOLDS
    else:
        verdict = INCONCLUSIVE
    counterexample = None
    if any(printed_violated):
        bad = next(p for p, v in zip(points, printed_violated, strict=True) if v)
        counterexample = {"point": bad.key, **(bad.instance or {}), "frequency": bad.k / bad.n,
                          "printed_bound": bad.printed, "trial_index": bad.first_event}
    p, ratio = worst
    row = rows[p.key]
    return Verdict(
        claim_id=claim_id, verdict=verdict, rule="probability bound (exact binomial, Clopper-Pearson)",
        statistic=row["frequency"], bound=p.printed, interval=tuple(row["interval"]), level=level,
        alpha=alpha, power=row["power"], tightness=ratio, counterexample=counterexample,
        elapsed_s=0.0, n_trials=p.n, pvalue=min(1.0, pvalue), details={**(details or {}), "points": rows},
    )
