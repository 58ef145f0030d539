"""The deterministic-invariant rule: a statement checked on every round of every run.

One breach beyond floating-point slack is a violation, seen with certainty: the rule makes
no false alarm and misses no breach of the rounds it checks, so its p-value is 0 or 1 and
its ``min_detectable_ratio`` is 1 (any excess over the bound is detected) once a round is
checked, infinite when none is.  Such a verdict is ``exact``: it is left out of the run's
Holm family (:mod:`verification.rules.family`).
"""

from __future__ import annotations

import math
from typing import Any

from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["RULE", "invariant"]

RULE = "deterministic invariant (every round of every run)"


def invariant(claim_id: str, *, broken: bool, share: float, checked: int, alpha: float,
              counterexample: dict | None, n_trials: int, details: dict[str, Any],
              statistic: float | None = None, bound: float = 0.0, rule: str = RULE) -> Verdict:
    """The verdict of a deterministic invariant checked on every round of every run.

    Parameters
    ----------
    claim_id : str
    broken : bool
        Whether some round (or final state) breaks the invariant.
    share : float
        Breached rounds / ``checked``.
    checked : int
        Rounds (or cases) checked in all.
    alpha : float
        The claim's share of the run's false-alarm budget (recorded; a deterministic rule
        makes no false alarm).
    counterexample : dict or None
        The first breach.
    n_trials : int
    details : dict
    statistic, bound : float, optional
        The largest value of the invariant's left-hand side over the rounds and the bound it
        must stay under; by default the breached share against 0.
    rule : str, optional
        The rule as the report names it (what was checked on every round).

    Returns
    -------
    Verdict
        ``tightness`` is statistic / bound where the bound is positive, else the share.
    """
    value = share if statistic is None else float(statistic)
    # No round checked: nothing could have failed, so nothing holds either.
    outcome = VIOLATED if broken else HOLDS if checked > 0 else INCONCLUSIVE
    if checked <= 0 and not broken:
        details = {**details, "reason": "no round was checked: the invariant cannot fail on nothing"}
    ratio = value / bound if bound > 0 else share
    return Verdict(
        claim_id=claim_id, verdict=outcome, rule=rule,
        statistic=value, bound=bound, interval=(value, value), level=1.0, alpha=alpha,
        tightness=ratio, counterexample=counterexample, elapsed_s=0.0,
        n_trials=n_trials, pvalue=0.0 if broken else 1.0,
        details={**details, "rounds_checked": checked, "breached_share": share},
        min_detectable_ratio=1.0 if checked > 0 else math.inf,
        min_detectable_ratio_best_point=1.0 if checked > 0 else math.inf, exact=True,
        worst_ratio=value / bound if bound > 0 else (math.inf if broken else 0.0),
        worst_instance=counterexample, verdict_printed=outcome,
    )
