"""Decision helpers shared by the RKS claims, on top of :func:`verification.rules.probability_bound`.

Two situations arise in 004 that the plain probability-bound rule does not cover:

* the event of a claim is known only between two computable events (a supremum over a class
  bracketed by a lower and an upper bound): :func:`bracketed`;
* a corrected statement changes the *event* (its threshold), not only the probability bound:
  :func:`corrected_threshold`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from verification import rules
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["bracketed", "corrected_threshold", "tail_point"]


def tail_point(key: str, values: Sequence[float], threshold: float, printed: float,
               instance: Mapping | None = None) -> rules.TailPoint:
    """The grid point "value > threshold" over the trials, with its first event for the report."""
    hits = np.asarray(values, dtype=np.float64) > threshold
    first = int(np.argmax(hits)) if hits.any() else None
    return rules.TailPoint(key=key, k=int(hits.sum()), n=int(hits.size), printed=float(printed),
                           first_event=first, instance={**(instance or {}), "threshold": float(threshold)})


def _with(base: Verdict, **changes) -> Verdict:
    return Verdict(**{**base.__dict__, **changes})


def bracketed(claim_id: str, lower: Sequence[rules.TailPoint], upper: Sequence[rules.TailPoint],
              alpha: float, details: Mapping | None = None) -> Verdict:
    """Probability bound on an event known only between two events ``A_low ⊆ A ⊆ A_up``.

    ``P[A_low] <= P[A] <= P[A_up]``: the claim holds when the rule finds that ``P[A_up]`` holds
    its bound at every point, and is violated when it finds ``P[A_low]`` over it at some point
    (each rule at ``alpha / 2``); otherwise inconclusive.  With exact events pass the same
    points twice.
    """
    up = rules.probability_bound(claim_id, upper, alpha / 2)
    low = rules.probability_bound(claim_id, lower, alpha / 2)
    if low.verdict == VIOLATED:
        base, verdict = low, VIOLATED
    else:
        base, verdict = up, HOLDS if up.verdict == HOLDS else INCONCLUSIVE
    extra = {**(details or {}), "upper_event": up.details["points"], "lower_event": low.details["points"]}
    return _with(base, verdict=verdict, alpha=alpha, pvalue=min(1.0, 2 * low.pvalue),
                 rule="probability bound (exact binomial, Clopper-Pearson) on events bracketing "
                      "the supremum", details=extra)


def corrected_threshold(claim_id: str, printed: Sequence[rules.TailPoint],
                        corrected: Sequence[rules.TailPoint], alpha: float,
                        details: Mapping | None = None) -> Verdict:
    """The printed statement's events first, then the corrected statement's (own thresholds).

    Each at ``alpha / 2``.  Violated as printed and holding as corrected gives
    ``holds_after_correction``; violated as printed and as corrected, ``violated``; a printed
    statement that holds gives ``holds``; anything else ``inconclusive``.
    """
    first = rules.probability_bound(claim_id, printed, alpha / 2)
    second = rules.probability_bound(claim_id, corrected, alpha / 2)
    if first.verdict == VIOLATED:
        verdict = {HOLDS: HOLDS_AFTER_CORRECTION, VIOLATED: VIOLATED}.get(second.verdict, INCONCLUSIVE)
    else:
        verdict = first.verdict
    extra = {**(details or {}), "printed": first.details["points"],
             "corrected": {"verdict": second.verdict, "points": second.details["points"]}}
    return _with(first, verdict=verdict, alpha=alpha, pvalue=min(1.0, 2 * first.pvalue), details=extra)
