"""Baselines of the ICML Section 6 comparison (the arXiv version has no experiment section).

* :func:`~iln.baselines.fixed_random.fixed_random`: Fixed-Random features (Rahimi &
  Recht 2007; 2009), r features shared by every point;
  :func:`~iln.baselines.fixed_random.fixed_random_grid` runs it at several steps on one set
  of features.
* :func:`~iln.baselines.doubly_stochastic.doubly_stochastic`: Doubly Stochastic
  Gradient Descent (Dai et al. 2014), k features per point;
  :func:`~iln.baselines.doubly_stochastic.doubly_stochastic_grid` runs it at several step
  schedules on one set of draws.
* :func:`~iln.baselines.kernel_ogd.kernel_ogd`: online gradient descent with the exact
  kernel (the kernel trick), the one learner that reads the oracle;
  :func:`~iln.baselines.kernel_ogd.kernel_ogd_grid` runs it at several steps on one
  computation of the Gram rows.

Each takes ``(X, y, family, *, ..., seed)`` and returns a frozen result with the online
predictions and losses of the protocol of ICML/arXiv Section 2 (made before each
update), the final model, its :class:`~iln.budget.Budget` and ``predict``.  Random Kitchen
Sinks and its AdaBoost competitor belong to the second paper: :mod:`iln.rks`.
"""

from iln.baselines.doubly_stochastic import (
    DoublyStochasticResult,
    doubly_stochastic,
    doubly_stochastic_grid,
    dsgd_budget,
)
from iln.baselines.fixed_random import (
    FixedRandomResult,
    feature_matrix,
    fixed_random,
    fixed_random_grid,
    step_sizes,
)
from iln.baselines.kernel_ogd import KernelOGDResult, kernel_ogd, kernel_ogd_grid

__all__ = [
    "DoublyStochasticResult",
    "FixedRandomResult",
    "KernelOGDResult",
    "doubly_stochastic",
    "doubly_stochastic_grid",
    "dsgd_budget",
    "feature_matrix",
    "fixed_random",
    "fixed_random_grid",
    "kernel_ogd",
    "kernel_ogd_grid",
    "step_sizes",
]
