"""RKS's bound functions (iln.rks.function_class) pinned to the equations the paper prints.

The RKS claims compare observed quantities with these bounds, and the bounds are loose: a
wrong constant (4LC read as 2LC, log(1/delta) as log(2/delta), ...) leaves every claim holding
(report h17).  So each function is pinned here to its equation, with the equation quoted and
the expected number worked out by hand (``delta = exp(-x^2 / 2)`` makes
``sqrt(2 log(1/delta)) = x``, so the square roots come out whole) or transcribed independently
of the function under test, at C != 1 and L != 1 (at C = 1, say, ``4C`` and ``2 (1 + C)``
agree).  Equation numbers are those of the NIPS text in /work/shared/papers (RKS has one
version).
"""

import itertools
import math

import numpy as np
import pytest

from iln.rks import function_class as fc

#: ``delta`` with ``sqrt(2 log(1/delta)) = 4`` and ``sqrt(log(1/delta) / 2) = 2``.
DELTA_4 = math.exp(-8.0)
#: parameters of the transcribed grids: C and L off 1, several sizes and confidence levels.
CS, LS, SIZES, DELTAS = (0.5, 3.0), (0.7, 2.0), (1, 4, 37, 1000), (1e-6, 0.05, 0.3)


# ------------------------------------------------------------------------------------------
# The losses of RKS Section 1 and their constants L and |c(0)|
# ------------------------------------------------------------------------------------------
def quadratic(z):
    """``c(z) = (1 - z)^2``, the quadratic loss at the margin ``z = y f(x)`` (RKS Section 1)."""
    return (1.0 - z) ** 2


def hinge(z):
    """``c(z) = max(0, 1 - z)``, the hinge loss at the margin ``z = y f(x)`` (RKS Section 1)."""
    return np.maximum(0.0, 1.0 - z)


def largest_slope(loss, C, n=200_001):
    """The largest difference quotient of ``loss`` on a grid of ``[-C, C]``: its Lipschitz
    constant there, up to the grid's spacing (the margins of F_p and F_w lie in [-C, C])."""
    z = np.linspace(-C, C, n)
    return float(np.max(np.abs(np.diff(loss(z)) / np.diff(z))))


def test_margin_losses_are_the_printed_ones():
    z = np.array([-2.0, -0.5, 0.0, 0.5, 1.0, 3.0])
    # max(0, 1 - z): 3, 1.5, 1, 0.5, 0, 0 by hand.
    np.testing.assert_allclose(fc.margin_loss(z, "hinge"), [3.0, 1.5, 1.0, 0.5, 0.0, 0.0], rtol=0, atol=0)
    # (1 - z)^2: 9, 2.25, 1, 0.25, 0, 4 by hand.
    np.testing.assert_allclose(fc.margin_loss(z, "quadratic"), [9.0, 2.25, 1.0, 0.25, 0.0, 4.0], rtol=0, atol=0)


@pytest.mark.parametrize("C", CS)
def test_lipschitz_constants_are_the_largest_slopes_on_the_margins(C):
    # The quadratic loss's slope 2|1 - z| is largest at z = -C: 2 (1 + C), which is 3 at
    # C = 0.5 and 8 at C = 3 (4C would give 2 and 12, a constant 2 gives 2 and 2).
    by_hand = {0.5: 3.0, 3.0: 8.0}[C]
    assert fc.lipschitz_constant("quadratic", C) == by_hand
    assert largest_slope(quadratic, C) == pytest.approx(by_hand, rel=1e-4)
    assert fc.lipschitz_constant("hinge", C) == 1.0
    assert largest_slope(hinge, C) == pytest.approx(1.0, rel=1e-9)


def test_loss_at_zero_is_c_of_zero():
    # |c(0)| of eq. (13) and (24): (1 - 0)^2 = 1 and max(0, 1 - 0) = 1.
    assert fc.loss_at_zero("quadratic") == quadratic(0.0) == 1.0
    assert fc.loss_at_zero("hinge") == hinge(0.0) == 1.0


# ------------------------------------------------------------------------------------------
# Lemma 4 (eq. 16), McDiarmid's tail (eq. 20), Lemma 1 (eq. 9), Lemma 2 (eq. 10)
# ------------------------------------------------------------------------------------------
def eq16(M, K, delta):
    """RKS eq. (16): ``||X_bar - E X_bar|| <= M / sqrt(K) (1 + sqrt(2 log(1/delta)))``."""
    return M / K**0.5 * (1 + (2 * math.log(1 / delta)) ** 0.5)


def test_hilbert_concentration_by_hand():
    # eq. (16) at M = 3, K = 9, delta = e^-8: 3/3 (1 + sqrt(16)) = 5; at M = 0.5, K = 4: 0.25 * 5.
    assert fc.hilbert_concentration_bound(3.0, 9, DELTA_4) == pytest.approx(5.0, rel=1e-14)
    assert fc.hilbert_concentration_bound(0.5, 4, DELTA_4) == pytest.approx(1.25, rel=1e-14)
    # delta = e^-2: 1 + sqrt(4) = 3.
    assert fc.hilbert_concentration_bound(3.0, 1, math.exp(-2.0)) == pytest.approx(9.0, rel=1e-14)


@pytest.mark.parametrize(("M", "K", "delta"), list(itertools.product(CS, SIZES, DELTAS)))
def test_lemma4_lemma1_and_lemma2_bounds_are_eq16_9_and_10(M, K, delta):
    assert fc.hilbert_concentration_bound(M, K, delta) == pytest.approx(eq16(M, K, delta), rel=1e-13)
    # eq. (9): C / sqrt(K) (1 + sqrt(2 log(1/delta))), Lemma 4 with M = C (proof of Lemma 1).
    assert fc.approximation_bound(M, K, delta) == pytest.approx(eq16(M, K, delta), rel=1e-13)
    for L in LS:
        # eq. (10): L C / sqrt(K) (1 + sqrt(2 log(1/delta))).
        assert fc.risk_approximation_bound(L, M, K, delta) == pytest.approx(L * eq16(M, K, delta), rel=1e-13)


@pytest.mark.parametrize(("M", "K", "eps"), list(itertools.product(CS, SIZES, (0.0, 0.1, 0.8))))
def test_mcdiarmid_tail_is_eq20(M, K, eps):
    # eq. (20): P[f(X) - M / sqrt(K) >= eps] <= exp(-K eps^2 / (2 M^2)).
    assert fc.mcdiarmid_tail(M, K, eps) == pytest.approx(math.exp(-K * eps * eps / (2 * M * M)), rel=1e-13)


def test_the_tail_at_the_lemma4_deviation_is_delta():
    # "set delta to the right hand side [of (20)], solve for eps": eps = M sqrt(2 log(1/delta) / K),
    # and M / sqrt(K) + eps is eq. (16).
    M, K, delta = 3.0, 7, 0.05
    eps = eq16(M, K, delta) - M / math.sqrt(K)
    assert fc.mcdiarmid_tail(M, K, eps) == pytest.approx(delta, rel=1e-12)


# ------------------------------------------------------------------------------------------
# Lemma 3 (eq. 13), the proof of Theorem 1 (2 eps_est + eps_app), Theorem 2 (eq. 24)
# ------------------------------------------------------------------------------------------
def eq13(L, C, c0, m, delta):
    """RKS eq. (13): ``1/sqrt(m) (4 L C + 2 |c(0)| + L C sqrt(1/2 log(1/delta)))``."""
    return (4 * L * C + 2 * abs(c0) + L * C * (math.log(1 / delta) / 2) ** 0.5) / m**0.5


def eq24(L, C, c0, m, delta, R):
    """RKS eq. (24) less R_emp[f]: ``4 L R_m + 2 |c(0)| / sqrt(m) + L C sqrt(1/(2m) log(1/delta))``."""
    return 4 * L * R + 2 * abs(c0) / m**0.5 + L * C * (math.log(1 / delta) / (2 * m)) ** 0.5


def test_estimation_excess_and_uniform_deviation_by_hand():
    # eq. (13) at L = 2, C = 3, |c(0)| = 1, m = 4, delta = e^-8: (24 + 2 + 6 sqrt(4)) / 2 = 19
    # (2LC for 4LC would give 13).
    assert fc.estimation_bound(2.0, 3.0, 1.0, 4, DELTA_4) == pytest.approx(19.0, rel=1e-14)
    # Proof of Theorem 1: 2 eps_est + eps_app, eps_app = LC/sqrt(K) (1 + sqrt(2 log(1/delta)))
    # = 6/3 * 5 = 10 at K = 9: 38 + 10 = 48 (eps_est once would give 29).
    assert fc.excess_risk_bound(2.0, 3.0, 1.0, 4, 9, DELTA_4) == pytest.approx(48.0, rel=1e-14)
    # eq. (24) at R_m = 0.25: 4 * 2 * 0.25 + 2/2 + 6 sqrt(8/8) = 2 + 1 + 6 = 9 (2LR: 8).
    assert fc.uniform_deviation_bound(2.0, 3.0, 1.0, 4, DELTA_4, 0.25) == pytest.approx(9.0, rel=1e-14)
    # |c(0)| enters as an absolute value.
    assert fc.estimation_bound(2.0, 3.0, -1.0, 4, DELTA_4) == pytest.approx(19.0, rel=1e-14)


@pytest.mark.parametrize(("C", "m", "delta"), list(itertools.product(CS, SIZES, DELTAS)))
def test_lemma3_theorem1_and_theorem2_bounds_are_eq13_and_24(C, m, delta):
    for L, c0, K in itertools.product(LS, (0.5, 1.0), (1, 25)):
        est = eq13(L, C, c0, m, delta)
        assert fc.estimation_bound(L, C, c0, m, delta) == pytest.approx(est, rel=1e-13)
        app = L * eq16(C, K, delta)
        assert fc.excess_risk_bound(L, C, c0, m, K, delta) == pytest.approx(2 * est + app, rel=1e-13)
        for R in (0.0, 0.3, C / m**0.5):
            assert fc.uniform_deviation_bound(L, C, c0, m, delta, R) == pytest.approx(
                eq24(L, C, c0, m, delta, R), rel=1e-13, abs=1e-15)


def test_lemma3_is_theorem2_at_the_rademacher_bound():
    # Lemma 3's proof sketch: eq. (24) with R_m <= C / sqrt(m) (eq. 23) is eq. (13).
    for L, C, m, delta in itertools.product(LS, CS, SIZES, DELTAS):
        assert eq24(L, C, 1.0, m, delta, C / m**0.5) == pytest.approx(eq13(L, C, 1.0, m, delta), rel=1e-13)


# ------------------------------------------------------------------------------------------
# The Rademacher complexity of F_w (Appendix B, eq. 21-23)
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("C", "m"), list(itertools.product(CS, SIZES)))
def test_rademacher_bound_is_eq23(C, m):
    # eq. (23): R_m[F_w] <= C / sqrt(m); 3/2 at C = 3, m = 4 by hand.
    assert fc.rademacher_bound(C, m) == pytest.approx(C / m**0.5, rel=1e-14)
    assert fc.rademacher_bound(3.0, 4) == 1.5


def brute_force_rademacher(C, signs):
    """eq. (21) by enumeration: the mean over all 2^m sign vectors sigma of
    ``sup_{||alpha||_inf <= C/K} |(1/m) sum_i sigma_i sum_k alpha_k phi(x_i; w_k)|``, the
    supremum of a linear function over the box taken over its 2^K vertices.

    ``signs`` is the (m, K) table of feature values, each +-1."""
    m, K = signs.shape
    sigma = np.array(list(itertools.product((-1.0, 1.0), repeat=m)))         # (2^m, m)
    vertices = C / K * np.array(list(itertools.product((-1.0, 1.0), repeat=K)))  # (2^K, K)
    values = np.abs(sigma @ signs @ vertices.T) / m                           # (2^m, 2^K)
    return float(values.max(axis=1).mean())


@pytest.mark.parametrize("m", range(1, 13))
@pytest.mark.parametrize("C", CS)
def test_rademacher_of_sign_features_is_the_enumerated_eq21(C, m):
    rng = np.random.default_rng(m)
    # Any +-1 table gives the same value (sigma_i phi_ik are iid signs): two features, drawn.
    signs = np.where(rng.random((m, 2)) < 0.5, -1.0, 1.0)
    exact = fc.rademacher_sign_features(C, m)
    assert exact == pytest.approx(brute_force_rademacher(C, signs), rel=1e-12)
    assert exact <= C / m**0.5 * (1 + 1e-12)  # eq. (23)
