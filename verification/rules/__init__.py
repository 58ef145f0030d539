"""The decision rules of the harness: typed trial rows in, one :class:`~verification.verdicts.Verdict` out.

Every claim hands its trials' summaries to one of these rules, and every verdict is built
in :func:`verification.rules.grid.grid_verdict` or :func:`verification.rules.invariant.invariant`,
so that a verdict's numbers mean the same thing whatever the claim:

* :mod:`~verification.rules.probability`: ``P[A] <= p0`` at a grid of points, exact binomial
  (Clopper-Pearson) intervals;
* :mod:`~verification.rules.mean`: ``E[X] <= b`` at a grid of points, with intervals whose
  level holds at the n used: Hoeffding and empirical Bernstein from an a-priori range, a
  truncated range for the lower end of a variable bounded only below, and no verdict at all
  where no range exists (a bootstrap or t interval at a level its n cannot support is shown,
  never used to decide);
* :mod:`~verification.rules.equivalence`: an equality (unbiasedness): holds only when the
  interval lies inside a stated margin;
* :mod:`~verification.rules.comparison`: "A's loss is lower than B's" over paired seeds, the
  exact sign test (no range or shape assumed), and a statement made for some unstated setting;
* :mod:`~verification.rules.rate`: a fitted log-log exponent against a printed one, the exact
  sign test of the median slope over independent repetitions;
* :mod:`~verification.rules.invariant`: a deterministic invariant on every round of every run;
* :mod:`~verification.rules.family`: Holm's step-down over the claims of one run;
* :mod:`~verification.rules.pilot`: seed plans from a pilot, on its lower confidence bound
  on the effect (imported from there: the rules above decide, a plan only sizes a profile).

Power means one thing for every rule: ``min_detectable_ratio``, the smallest statistic /
bound (oriented so that above 1 the printed statement is exceeded) at which some law the
statement's assumptions allow, at the point, is rejected with probability at least
:data:`verification.catalog.DESIGN_POWER` at the point's sample size and level; a verdict
reports its grid's weakest point (the largest figure) and, beside it, its best point, and
``can_fail`` is "it is finite" (:class:`~verification.verdicts.Verdict`, derived there only).
Each rule's p-value is that of the test that decides its ``violated``: a claim is violated at
level ``a`` exactly when its p-value is at most ``a``, which is what Holm's procedure needs.
"""

from verification.rules.comparison import (
           PairedPoint,
           at_some_setting,
           by_cell,
           paired_comparison,
           sign_test_seeds,
)
from verification.rules.equivalence import EqualityPoint, equivalence
from verification.rules.family import Family, holm_family, outside_family
from verification.rules.grid import PointDecision, grid_verdict, with_correction
from verification.rules.invariant import invariant
from verification.rules.mean import MeanPoint, mean_bound
from verification.rules.probability import TailPoint, bracketed, probability_bound, tail_point
from verification.rules.rate import RatePoint, minimum_repetitions, rate_bound

__all__ = ["EqualityPoint", "Family", "MeanPoint", "PairedPoint", "PointDecision", "RatePoint",
           "TailPoint", "at_some_setting", "bracketed", "by_cell", "equivalence", "grid_verdict", "holm_family", "invariant",
           "mean_bound", "minimum_repetitions", "outside_family", "paired_comparison", "probability_bound", "rate_bound", "sign_test_seeds", "tail_point",
           "with_correction"]
