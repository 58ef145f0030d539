"""The regret claims' instances: oblivious sequences and finite populations (instances.py)."""

import math

import numpy as np
import pytest

from iln.comparator import best_in_ball
from verification.claims.iln import instances

pytestmark = pytest.mark.usefixtures("one_numba_thread")


def test_orthogonal_rows_have_the_largest_diagonal_and_zero_cross_kernel():
    seq = instances.sequence("orthogonal", 40, np.random.SeedSequence(0), repeats=4)
    K = seq.family.kernel(seq.X)
    assert np.allclose(np.diag(K), 0.99**2, rtol=0, atol=1e-15)
    distinct = seq.X[:10]
    cross = seq.family.kernel(distinct) - np.diag(np.diag(seq.family.kernel(distinct)))
    assert np.max(np.abs(cross)) < 1e-15  # Hadamard rows are orthogonal up to round-off
    assert np.array_equal(seq.X[10], seq.X[0])  # each row comes back after 10 rounds
    assert set(np.abs(seq.y)) == {1.0}



def test_near_duplicate_inputs_have_large_kernel_values_and_contradictory_labels():
    seq = instances.sequence("near_duplicate", 6, np.random.SeedSequence(0))
    K = seq.family.kernel(seq.X[:2])
    assert K.min() > 0.97
    assert seq.y.tolist() == [1.0, -1.0] * 3



def test_population_best_risk_is_the_weighted_comparator():
    pop = instances.population("noisy_near_duplicate")
    B = 1.0
    w = np.sqrt(pop.p)
    best = best_in_ball(w[:, None] * pop.K * w[None, :], w * pop.y, B)
    # f = sum_j beta_j sqrt(p_j) Phi(x_j): its predictions on the support and its norm.
    coef = best.beta * w
    assert math.isclose(pop.risk(pop.K @ coef), pop.best_risk(B), rel_tol=1e-10)
    assert coef @ pop.K @ coef <= B**2 * (1 + 1e-10)
    # No predictor in the ball does better than the infimum (a grid over the line of the
    # two support points' representers, scaled into the ball).
    for a in np.linspace(-3, 3, 61):
        for b in np.linspace(-3, 3, 61):
            c = np.array([a, 0.0, b, 0.0])
            norm = math.sqrt(c @ pop.K @ c)
            c = c * min(1.0, B / norm) if norm > 0 else c
            assert pop.risk(pop.K @ c) >= pop.best_risk(B) - 1e-12

