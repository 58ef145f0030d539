"""The pieces of RKS's exact instances against independent references (report h17).

The RKS claims compare observed risks with loose bounds, so a planted mistake in the pieces
they are built from (the risk of a distribution on finitely many points, its sampler, the
parameter samplers, a member's values, the weighted hinge minimum) can leave every claim
holding.  Each piece is checked here against a reference that does not call it:

* exact quantities (RKS eq. 5's risk, a member of F_p, eq. 6) by enumeration;
* the weighted hinge minimum (eq. 3 with a weight per example, the minimum of the true risk
  over F_w) by enumerating the vertices of its piecewise-linear objective on two features;
* samplers by goodness-of-fit tests at a fixed seed, each at false-alarm level
  :data:`LEVEL` (the chance that a correct sampler fails at a seed drawn at random): a
  chi-square test of the cell counts of a discrete law, Kolmogorov-Smirnov for a continuous
  one.  At the sizes below each planted mistake of report h17 moves its statistic's p-value
  below 1e-100 (tests/test_rks_blindspots.py plants them).
"""

import itertools

import numpy as np
import pytest
from scipy import stats

from iln.features import RandomStump
from iln.rks import function_class as fc
from iln.rks.kitchen_sinks import minimize_weighted_risk

#: false-alarm level of each goodness-of-fit test.
LEVEL = 1e-6
#: draws per goodness-of-fit test.
N_DRAWS = 20_000

#: the margin losses of RKS Section 1, ``c(z)`` at ``z = y f(x)``, restated.
LOSSES = {"quadratic": lambda z: (1.0 - z) ** 2, "hinge": lambda z: max(0.0, 1.0 - z)}


def assert_counts_follow(counts, probabilities):
    """Chi-square goodness of fit of ``counts`` to ``probabilities`` at :data:`LEVEL`."""
    counts = np.asarray(counts, dtype=np.float64)
    expected = counts.sum() * np.asarray(probabilities, dtype=np.float64)
    p_value = stats.chisquare(counts, expected).pvalue
    assert p_value > LEVEL, (p_value, counts.tolist(), expected.tolist())


# ------------------------------------------------------------------------------------------
# A distribution on finitely many points: R[f] (RKS eq. 5) and its sampler
# ------------------------------------------------------------------------------------------
#: asymmetric conditional means (no label certain, so every cell of the sampler has mass).
LABEL_MEAN = np.array([-0.8, -0.3, 0.0, 0.5, 0.9])
SUPPORT = fc.LabelledSupport(np.arange(5.0)[:, None] / 4.0, LABEL_MEAN)


def test_risk_is_the_expected_loss_over_both_labels():
    # R[f] = E c(y f(x)) = (1/n) sum_i sum_{y = +-1} P(y | x_i) c(y f(x_i)), with
    # P(y = 1 | x_i) = (1 + ybar_i) / 2, enumerated.
    f = np.array([0.7, -1.2, 0.3, 2.0, -0.4])
    for name, c in LOSSES.items():
        expected = sum(((1 + ybar) / 2 if y > 0 else (1 - ybar) / 2) * c(y * fi)
                       for ybar, fi in zip(LABEL_MEAN, f, strict=True) for y in (1.0, -1.0)) / f.size
        assert SUPPORT.risk(f, name) == pytest.approx(expected, rel=1e-13), name


def test_draw_follows_the_distribution():
    idx, X, y = SUPPORT.draw(N_DRAWS, np.random.default_rng(2026))
    np.testing.assert_array_equal(X, SUPPORT.X[idx])
    assert set(np.unique(y)) <= {-1.0, 1.0}
    # Cells (i, y): probability (1/n) P(y | x_i); x uniform on the support.
    up = (1 + LABEL_MEAN) / 2
    cells = [np.sum((idx == i) & (y == s)) for i in range(SUPPORT.n) for s in (1.0, -1.0)]
    law = [(u if s > 0 else 1 - u) / SUPPORT.n for u in up for s in (1.0, -1.0)]
    assert_counts_follow(cells, law)


# ------------------------------------------------------------------------------------------
# Features on a finite parameter law: the sampler p and a member of F_p (eq. 6)
# ------------------------------------------------------------------------------------------
PROBABILITIES = np.array([0.5, 0.25, 0.125, 0.0625, 0.0625])
TABLE = np.array([[1.0, -1.0, 0.5, 0.0, 1.0],
                  [-0.5, 1.0, 1.0, -1.0, 0.25],
                  [0.0, 0.75, -1.0, 1.0, -1.0]])
ATOMS = fc.AtomFeatures(TABLE, PROBABILITIES)


def test_atom_sample_follows_p():
    W = ATOMS.sample(N_DRAWS, np.random.default_rng(2027))
    assert W.shape == (N_DRAWS, 1)
    assert_counts_follow([np.sum(W[:, 0] == j) for j in range(ATOMS.n_atoms)], PROBABILITIES)


def test_atom_member_values_are_the_p_weighted_sum():
    # f(x_i) = int alpha(w) phi(x_i; w) dw = sum_j alpha_j phi(x_i; w_j) with alpha_j = p_j beta_j
    # (eq. 6, importance ratio beta = alpha / p).
    beta = np.array([1.5, -2.0, 0.5, 2.0, -1.0])
    member = fc.atom_member(ATOMS, beta, 2.0)
    expected = [sum(PROBABILITIES[j] * beta[j] * TABLE[i, j] for j in range(ATOMS.n_atoms))
                for i in range(ATOMS.n_points)]
    np.testing.assert_allclose(member.values(ATOMS.support), expected, rtol=1e-13, atol=1e-15)


# ------------------------------------------------------------------------------------------
# RKS Section 4's stumps: d uniform over the coordinates, t ~ N(0, 1)
# ------------------------------------------------------------------------------------------
def test_stump_parameters_follow_the_papers_law():
    # "drew the threshold parameter w_t from a normal distribution and the coordinate w_d from a
    # uniform distribution over the coordinates" (RKS Section 4).
    dim = 5
    W = RandomStump(dim).sample(N_DRAWS, np.random.default_rng(2028))
    assert W.shape == (N_DRAWS, 2)
    assert np.all(np.isin(W[:, 0], np.arange(dim)))
    assert_counts_follow([np.sum(W[:, 0] == d) for d in range(dim)], np.full(dim, 1.0 / dim))
    p_value = stats.kstest(W[:, 1], "norm").pvalue
    assert p_value > LEVEL, p_value


# ------------------------------------------------------------------------------------------
# The weighted hinge minimum (eq. 3-4 with a weight per example)
# ------------------------------------------------------------------------------------------
def weighted_hinge_minimum_on_two_features(Z, y, weights, bound):
    """``min sum_i weights_i max(0, 1 - y_i a . z_i)`` over ``|a_k| <= bound`` for K = 2, by
    enumeration: the objective is convex and piecewise linear, linear between the lines
    ``y_i a . z_i = 1`` and the box's edges, so its minimum over the box is attained where two
    of these lines meet; every such point in the box is tried."""
    lines = [(y[i] * Z[i], 1.0) for i in range(len(y))]
    lines += [(np.array(e), s * bound) for e in ((1.0, 0.0), (0.0, 1.0)) for s in (-1.0, 1.0)]
    best = np.inf
    for (g, c), (h, d) in itertools.combinations(lines, 2):
        A = np.array([g, h])
        if abs(np.linalg.det(A)) < 1e-12:
            continue
        a = np.linalg.solve(A, [c, d])
        if np.all(np.abs(a) <= bound * (1 + 1e-12)):
            value = sum(w * max(0.0, 1.0 - yi * float(zi @ a)) for w, yi, zi in zip(weights, y, Z, strict=True))
            best = min(best, value)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_weighted_hinge_minimum_is_the_enumerated_one(seed):
    rng = np.random.default_rng(seed)
    m, bound = 9, 1.5
    Z = rng.uniform(-1.0, 1.0, (m, 2))
    y = np.where(rng.random(m) < 0.5, -1.0, 1.0)
    # Far from uniform, so that the uniformly weighted minimiser is not the weighted one.
    weights = rng.dirichlet(np.full(m, 0.3))
    a = minimize_weighted_risk(Z, y, weights, loss="hinge", bound=bound)
    assert np.max(np.abs(a)) <= bound
    value = float(np.sum(weights * np.maximum(0.0, 1.0 - y * (Z @ a))))
    assert value == pytest.approx(weighted_hinge_minimum_on_two_features(Z, y, weights, bound), abs=1e-9)
