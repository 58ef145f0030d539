"""Runs of Algorithm 1 on which the claims about its iterates are checked, and why they are hard.

A run is built from its name, the profile's size and a seed, so that a trial is a
pure function of (configuration, seed) in any process.  The oracle kernel is
used by the adversaries and the trace (checker side), never by the learner.
"""

from __future__ import annotations

import numpy as np

from iln.data import adversarial_label, alternating_labels, section6_data, two_point_inputs
from iln.features import RandomCoordinate, RandomReLU
from iln.random_streams import child
from iln.shrinking_gradient import ShrinkingGradientResult, shrinking_gradient

__all__ = ["RUNS", "algorithm1_run"]

#: what each run is and why it pushes against the claims (shown in the report).
RUNS = {
    "ascent_adversary": "the printed (ascent) step, eta = 1, B = 1, one input with the largest "
                        "kernel value the coordinate family allows (entries 0.99) and the label "
                        "farthest from the current prediction: |E_t - y_t| is driven towards 16B + 1 "
                        "and the shrink branch fires",
    "descent_adversary": "the descent step, eta = 1, B = 1, the same input and adaptive adversary",
    "two_point_relu": "ReLU features on two unit vectors 1e-3 apart with alternating labels: "
                      "contradictory labels on almost the same input, eta = 0.5",
    "section6_proof": "the ICML Section 6 data with the proof's eta and m (Theorem 1's setting)",
}


def _adversary(K):
    """Labels farthest from the learner's exact current prediction (an adaptive adversary)."""

    def label(t, x_t, alpha, X_past):
        return adversarial_label(float(K[t - 1, : t - 1] @ alpha))

    return label


def algorithm1_run(name: str, T: int, m: int, seed: np.random.SeedSequence) -> ShrinkingGradientResult:
    """The run called ``name`` (see :data:`RUNS`) with T rounds and m samples per round.

    ``section6_proof`` ignores ``m``: its point is the proof's own m (and eta).
    """
    if name in ("ascent_adversary", "descent_adversary"):
        family = RandomCoordinate(4)
        X = np.full((T, 4), 0.99)
        K = family.kernel(X)
        update = "printed" if name == "ascent_adversary" else "descent"
        return shrinking_gradient(X, _adversary(K), family, B=1.0, eta=1.0, m=m, seed=seed,
                                  update=update, oracle=family.kernel)
    if name == "two_point_relu":
        family = RandomReLU(3)
        X = two_point_inputs(T, 3, seed=child(seed, 0))
        return shrinking_gradient(X, alternating_labels(T), family, B=1.0, eta=0.5, m=m,
                                  seed=child(seed, 1), oracle=family.kernel)
    if name == "section6_proof":
        data = section6_data(T, 2 * T, seed=child(seed, 0))
        family = RandomCoordinate(2 * T)
        return shrinking_gradient(data.X, data.y, family, B=1.0, seed=child(seed, 1),
                                  oracle=family.kernel)
    raise ValueError(f"unknown Algorithm 1 run {name!r}; known: {sorted(RUNS)}")
