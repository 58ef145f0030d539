"""The feature budget: what a learner spends on random features, defined once.

The paper compares learners "so that the same overall number of features is
calculated" (ICML Section 6).  Here a learner's budget is the number of
evaluations of ``psi(x; w)`` it makes, training and prediction counted apart;
the number of parameters ``w`` it samples is kept beside it.  A sample of
Algorithm 2 is one ``w`` and two evaluations, ``psi(x_i; w)`` and ``psi(x; w)``;
Fixed-Random evaluates its r features once on every point it sees; Doubly
Stochastic Gradient Descent evaluates, at round t, the features of every earlier
point on ``x_t``.  Every learner of :mod:`iln` reports a :class:`Budget`, and
equal-budget comparisons match ``psi_evaluations``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ACCOUNTINGS", "DEFINITION", "Budget"]

#: the definition shown in reports next to every equal-budget comparison.
DEFINITION = (
    "budget = number of evaluations of psi(x; w) during training (the paper's 'overall number "
    "of features calculated', ICML Section 6); parameters w sampled are counted beside it"
)

#: the two ways of equalising budgets (ICML Section 6 does not say which it used), each
#: defined once here and shown beside every comparison that uses it.
ACCOUNTINGS = {
    "psi_evaluations": DEFINITION,
    "feature_draws": (
        "budget = number of parameters w ~ mu drawn during training (Shrinking Gradient: m per "
        "round after the first; Fixed-Random: its r features, drawn once; DSGD: k per round); "
        "evaluations of psi(x; w) are counted beside it"
    ),
}


@dataclass(frozen=True)
class Budget:
    """Random-feature work of a learner.

    Attributes
    ----------
    features_sampled : int
        Parameters ``w ~ mu`` drawn.
    psi_evaluations : int
        Evaluations of ``psi(x; w)`` during training.
    """

    features_sampled: int
    psi_evaluations: int

    def __add__(self, other: Budget) -> Budget:
        return Budget(self.features_sampled + other.features_sampled,
                      self.psi_evaluations + other.psi_evaluations)
