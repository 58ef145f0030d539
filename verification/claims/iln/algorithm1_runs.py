"""Runs of Algorithm 1 on which the claims about its iterates are checked, and why they are hard.

A run is built from its name, the profile's size and a seed, so that a trial is a
pure function of (configuration, seed) in any process.  The oracle kernel is
used by the adversaries and the trace (checker side), never by the learner.
"""

from __future__ import annotations

import numpy as np

from iln.data import adversarial_label, alternating_labels, section6_data, two_point_inputs
from iln.features import FeatureFamily, RandomCoordinate, RandomReLU, RandomSign
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
    "tie": "sign features of scale 1/2 on one repeated input, labels +1, B = 1, eta = 64, m = 64 "
           "(powers of two, so the arithmetic is exact): E_2 = 64 / 4 = 16 = 16B exactly, the "
           "boundary of the test |E_t| < 16B, where Algorithm 1 must shrink",
    "tie_B2": "the same with B = 2: E_2 = 16 = 8B, where Algorithm 1 must step, not shrink (a "
              "threshold of 16 instead of 16B shrinks)",
}


def _adversary(K):
    """Labels farthest from the learner's exact current prediction (an adaptive adversary)."""

    def label(t, x_t, alpha, X_past):
        return adversarial_label(float(K[t - 1, : t - 1] @ alpha))

    return label


def algorithm1_run(name: str, T: int, m: int, seed: np.random.SeedSequence,
                   record_alpha: bool = False) -> ShrinkingGradientResult:
    """The run called ``name`` (see :data:`RUNS`) with T rounds and m samples per round.

    ``section6_proof`` ignores ``m``: its point is the proof's own m (and eta); ``tie`` and
    ``tie_B2`` use m = 64, a power of two that keeps their estimates exact.
    ``record_alpha`` keeps every ``alpha^(t)`` (see :func:`iln.shrinking_gradient.shrinking_gradient`).
    """
    family: FeatureFamily
    if name in ("ascent_adversary", "descent_adversary"):
        family = RandomCoordinate(4)
        X = np.full((T, 4), 0.99)
        K = family.kernel(X)
        update = "printed" if name == "ascent_adversary" else "descent"
        return shrinking_gradient(X, _adversary(K), family, B=1.0, eta=1.0, m=m, seed=seed,
                                  update=update, oracle=family.kernel, record_alpha=record_alpha)
    if name == "two_point_relu":
        family = RandomReLU(3)
        X = two_point_inputs(T, 3, seed=child(seed, 0))
        return shrinking_gradient(X, alternating_labels(T), family, B=1.0, eta=0.5, m=m,
                                  seed=child(seed, 1), oracle=family.kernel, record_alpha=record_alpha)
    if name == "section6_proof":
        data = section6_data(T, 2 * T, seed=child(seed, 0))
        family = RandomCoordinate(2 * T)
        return shrinking_gradient(data.X, data.y, family, B=1.0, seed=child(seed, 1),
                                  oracle=family.kernel, record_alpha=record_alpha)
    if name in ("tie", "tie_B2"):
        # psi = +-1/2, so every term of Algorithm 2 on the repeated input is +-1/4 and, with
        # alpha_1 = eta = 64 after round 1, E_2 = 64 * 1/4 = 16 with no rounding.
        family = RandomSign(2, scale=0.5)
        X = np.tile([0.6, 0.8], (T, 1))
        return shrinking_gradient(X, np.ones(T), family, B=1.0 if name == "tie" else 2.0, eta=64.0,
                                  m=64, seed=seed, oracle=family.kernel, record_alpha=record_alpha)
    raise ValueError(f"unknown Algorithm 1 run {name!r}; known: {sorted(RUNS)}")
