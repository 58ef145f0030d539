"""Tests of iln.theory: the papers' formulas, printed and corrected, at hand-computed points."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from iln import theory as th

# The smallest B at which the corrected shrink exponent 32 B^2/(16B+1)^2 reaches 1/9,
# the root of 32 B^2 - 32 B - 1 = 0.
B_STAR = 0.5 + 3.0 * math.sqrt(2.0) / 8.0


def two_point_mean_tail(m: int, epsilon: float, value: float) -> float:
    """Exact P(|mean of m iid +-value signs| > epsilon); the mean of the signs is 0.

    This is Algorithm 2 with alpha = (a,), psi(x_1; w) = c s_1(w), psi(x; w) = c s_2(w),
    independent fair signs s_1, s_2 and value = a c^2 < a, so it satisfies |psi| < 1.
    """
    k = np.arange(m + 1)
    mean = value * (2 * k - m) / m
    return float(binom.pmf(k, m, 0.5)[np.abs(mean) > epsilon].sum())


# --------------------------------------------------------------------------------------------
# Constants and step sizes
# --------------------------------------------------------------------------------------------


def test_algorithm1_constants():
    assert th.SHRINK_THRESHOLD == 16
    assert th.SHRINK_FACTOR == 0.25
    assert th.LEMMA2_MAX_ETA == 1 / 8


def test_step_sizes_at_hand_computed_points():
    assert th.eta_theorem(1, 100) == pytest.approx(0.1, rel=1e-15)
    assert th.eta_proof(1, 100) == pytest.approx(0.05, rel=1e-15)
    assert th.eta_proof(3, 36) == pytest.approx(0.25, rel=1e-15)


def test_proof_step_size_is_half_the_theorem_step_size():
    B = np.array([1.0, 2.0, 5.5])
    T = np.array([1, 100, 10_000])
    np.testing.assert_allclose(th.eta_proof(B, T), th.eta_theorem(B, T) / 2, rtol=1e-15)


def test_scalar_input_gives_float_and_array_input_gives_array():
    assert type(th.eta_proof(1, 100)) is float
    out = th.eta_proof([1, 2], 100)
    assert isinstance(out, np.ndarray)
    np.testing.assert_allclose(out, [0.05, 0.1], rtol=1e-15)


# --------------------------------------------------------------------------------------------
# gamma, m and the run time
# --------------------------------------------------------------------------------------------


def test_gamma_and_m_proof_at_B1_T1000_by_hand():
    # eta = 1/(2 sqrt(1000)); (16B+1) eta T = 17 * 1000 * eta ~= 268.79
    eta = 1 / (2 * math.sqrt(1000))
    gamma = (17 * eta * 1000 + 1) ** 2 / eta**2  # ~= 2.9115e8, far above e
    assert th.gamma_proof(1, 1000) == pytest.approx(gamma, rel=1e-12)
    # m = ((16B+1) B)^2 T log(gamma) = 289 * 1000 * 19.49 ~= 5.63e6
    expected = math.ceil(289 * 1000 * math.log(gamma))
    m = th.m_proof(1, 1000)
    assert isinstance(m, int)
    assert abs(m - expected) <= 1  # ceil of a value computed two ways, equal up to rounding
    assert 5.6e6 < m < 5.7e6


def test_gamma_max_with_e_never_binds_for_valid_input():
    assert th.gamma_proof(1, 1) >= 17**2


def test_m_proof_satisfies_what_the_proof_uses():
    for B in (1.0, 1.5, 4.0):
        for T in (17, 100, 10_000):
            eta = th.eta_proof(B, T)
            m = th.m_proof(B, T)
            log_gamma = math.log(th.gamma_proof(B, T))
            # variance step (ICML eq. 16 / arXiv eq. 26)
            assert m >= ((16 * B + 1) * eta * T) ** 2
            # shrink step (ICML eq. 18 / arXiv eq. 27), for the worst round t = T
            assert m >= (3 * eta * T) ** 2 * log_gamma
            # the corrected shrink exponent is at least 128 B^2 log(gamma) (regret docstring)
            exponent = 32 * B**2 * m / ((16 * B + 1) * eta * T) ** 2
            assert exponent >= 128 * B**2 * log_gamma * (1 - 1e-12)


def test_m_proof_increases_with_B_and_T():
    assert th.m_proof(1, 100) < th.m_proof(1, 1000) < th.m_proof(1, 10_000)
    assert th.m_proof(1, 1000) < th.m_proof(2, 1000) < th.m_proof(4, 1000)


def test_m_proof_is_order_B4_T_log_BT():
    # Theorem 1 prints m = O(B^4 T log(BT)); the ratio stays bounded over a wide grid.
    ratios = [
        th.m_proof(B, T) / (B**4 * T * math.log(B * T + 1))
        for B in (1, 2, 8, 32)
        for T in (17, 1000, 10**6)
    ]
    assert max(ratios) < 289 * 2 * 4  # (16B+1)^2 <= 289 B^2 and log(gamma) <= 4 log(BT + 1)


def test_m_proof_with_theorem_step_size():
    # A smaller gamma (larger eta) means fewer samples.
    assert th.m_proof(1, 1000, th.eta_theorem(1, 1000)) <= th.m_proof(1, 1000)


def test_total_feature_samples_is_T_times_m():
    assert th.total_feature_samples(2, 500) == 500 * th.m_proof(2, 500)
    assert th.total_feature_samples(1, 100, 0.01) == 100 * th.m_proof(1, 100, 0.01)


# --------------------------------------------------------------------------------------------
# ||alpha||_1 and B_T
# --------------------------------------------------------------------------------------------


def test_alpha_l1_bound_and_f_norm_bound_by_hand():
    assert th.alpha_l1_bound(1, 0.1, 10) == pytest.approx(17.0, rel=1e-15)
    assert th.alpha_l1_bound(2, 0.05, 4) == pytest.approx(33 * 0.2, rel=1e-15)
    assert th.f_norm_bound(2, 0.05, 4) == th.alpha_l1_bound(2, 0.05, 4)


# --------------------------------------------------------------------------------------------
# Hoeffding tails (ICML Lemma 4 / arXiv Lemma 3)
# --------------------------------------------------------------------------------------------


def test_hoeffding_tails_by_hand():
    # m eps^2 / a^2 = 10 * 0.25 / 1 = 2.5
    assert th.hoeffding_tail_printed(10, 0.5, 1.0) == pytest.approx(math.exp(-2.5), rel=1e-14)
    assert th.hoeffding_tail_corrected(10, 0.5, 1.0) == pytest.approx(
        2 * math.exp(-1.25), rel=1e-14
    )
    assert th.hoeffding_tail_corrected(1, 0.1, 1.0) == 1.0  # capped


def test_zero_alpha_gives_exact_estimate():
    assert th.hoeffding_tail_printed(5, 0.1, 0.0) == 0.0
    assert th.hoeffding_tail_corrected(5, 0.1, 0.0) == 0.0
    np.testing.assert_array_equal(th.hoeffding_tail_corrected(5, 0.1, [0.0, 1e9]), [0.0, 1.0])


def test_printed_hoeffding_is_violated_for_one_sample():
    # m = 1, E = +-0.9025 (c = 0.95), epsilon = 0.5: the deviation exceeds epsilon surely.
    exact = two_point_mean_tail(1, 0.5, 0.95**2)
    assert exact == 1.0
    assert th.hoeffding_tail_printed(1, 0.5, 1.0) < exact
    assert th.hoeffding_tail_corrected(1, 0.5, 1.0) >= exact


def test_printed_hoeffding_is_violated_for_many_samples():
    # m = 100, value 0.99, epsilon = 0.5: exact tail 2 P[Bin(100, 1/2) >= 76] ~= 1.8e-7 against
    # a printed exp(-25) ~= 1.4e-11; the printed rate exponent is too large for every m.
    exact = two_point_mean_tail(100, 0.5, 0.99)
    assert exact == pytest.approx(2 * binom.sf(75, 100, 0.5), rel=1e-9)
    assert th.hoeffding_tail_printed(100, 0.5, 1.0) < exact / 1000
    assert th.hoeffding_tail_corrected(100, 0.5, 1.0) >= exact


def test_printed_hoeffding_is_violated_for_every_m():
    # Terms +-0.99 a, epsilon = 0.98 a: all signs equal has probability 2^(1-m) and already
    # exceeds epsilon, against a printed exp(-0.9604 m).
    for m in range(1, 301):
        exact = two_point_mean_tail(m, 0.98, 0.99)
        assert exact >= 2.0 ** (1 - m) * (1 - 1e-12)
        assert th.hoeffding_tail_printed(m, 0.98, 1.0) < exact


@pytest.mark.parametrize("m", [1, 2, 3, 5, 10, 50, 200])
def test_corrected_hoeffding_holds_for_the_two_point_worst_case(m):
    for epsilon in np.linspace(0.01, 0.99, 50):
        exact = two_point_mean_tail(m, float(epsilon), 0.999)
        # a sum of pmf values can exceed 1 by a rounding error
        assert th.hoeffding_tail_corrected(m, float(epsilon), 1.0) >= exact - 1e-12


@settings(max_examples=200, deadline=None)
@given(
    m=st.integers(min_value=1, max_value=10**7),
    extra=st.integers(min_value=0, max_value=10**7),
    epsilon=st.floats(min_value=1e-4, max_value=1e3),
    alpha_l1=st.floats(min_value=0.0, max_value=1e4),
)
def test_corrected_tail_is_a_probability_non_increasing_in_m(m, extra, epsilon, alpha_l1):
    corrected = th.hoeffding_tail_corrected(m, epsilon, alpha_l1)
    assert 0.0 <= corrected <= 1.0
    assert th.hoeffding_tail_corrected(m + extra, epsilon, alpha_l1) <= corrected
    # 2 exp(-x/2) >= exp(-x) for x >= 0, and the cap 1 is >= exp(-x): corrected >= printed.
    assert corrected >= th.hoeffding_tail_printed(m, epsilon, alpha_l1)


def test_estimate_tails_substitute_the_alpha_bound():
    a = th.alpha_l1_bound(1.5, 0.01, 40)
    assert th.estimate_tail_printed(500, 2.0, 1.5, 0.01, 40) == th.hoeffding_tail_printed(
        500, 2.0, a
    )
    assert th.estimate_tail_corrected(500, 2.0, 1.5, 0.01, 40) == th.hoeffding_tail_corrected(
        500, 2.0, a
    )


def test_estimate_tails_grow_with_the_round():
    tails = th.estimate_tail_corrected(10_000, 1.0, 1, 0.01, np.arange(1, 200))
    assert np.all(np.diff(tails) >= 0)


# --------------------------------------------------------------------------------------------
# Variance (ICML Lemma 3 / arXiv Lemma 6)
# --------------------------------------------------------------------------------------------


def test_variance_bounds_by_hand():
    assert th.variance_bound(100, 1, 0.1, 10) == pytest.approx(17.0**2 / 100, rel=1e-14)
    assert th.variance_bound_alpha(4, 3.0) == pytest.approx(9 / 4, rel=1e-15)
    assert th.variance_bound(7, 2, 0.03, 5) == pytest.approx(
        th.variance_bound_alpha(7, th.alpha_l1_bound(2, 0.03, 5)), rel=1e-15
    )


def test_variance_bound_alpha_holds_for_the_two_point_estimator():
    # E = mean of m iid +-c a: variance c^2 a^2 / m exactly, below a^2 / m. Read literally,
    # the printed proof's V[||alpha||_1^2 psi psi] gives a^4 / m, which fails here (a < 1).
    a, c, m = 0.5, 0.999, 8
    exact_variance = (c * a) ** 2 / m
    assert exact_variance <= th.variance_bound_alpha(m, a)
    assert a**4 / m < exact_variance


# --------------------------------------------------------------------------------------------
# Shrink penalty (Lemma 2)
# --------------------------------------------------------------------------------------------


def test_shrink_penalties_by_hand():
    # eta t = 0.1 * 10 = 1: printed 2 exp(-m/9)
    assert th.shrink_penalty_printed(90, 0.1, 10) == pytest.approx(2 * math.exp(-10), rel=1e-14)
    # corrected 4 exp(-32 m / 17^2) at B = 1
    assert th.shrink_penalty_corrected(289, 1, 0.1, 10) == pytest.approx(
        4 * math.exp(-32), rel=1e-14
    )
    assert th.shrink_penalty_printed(1, 0.1, 10) == 1.0  # capped
    assert th.shrink_penalty_corrected(1, 1, 0.1, 10) == 1.0


def test_corrected_shrink_penalty_is_twice_the_corrected_deviation_tail():
    for m in (10, 1000, 100_000):
        tail = th.estimate_tail_corrected(m, 8.0 * 2, 2, 0.05, 30)
        assert th.shrink_penalty_corrected(m, 2, 0.05, 30) == pytest.approx(
            min(1.0, 2 * tail), rel=1e-14
        )


def test_printed_shrink_simplification_fails_at_B1_with_the_corrected_tail():
    # The corrected exponent ratio at B = 1 is 32/289, just below 1/9.
    assert 32 / 289 < 1 / 9
    assert pytest.approx(1 / 9, rel=1e-12) == 32 * B_STAR**2 / (16 * B_STAR + 1) ** 2
    # So for large m the corrected bound exceeds the printed one at B = 1 ...
    m, eta, t = 2000, 0.01, 100  # eta t = 1
    assert th.shrink_penalty_corrected(m, 1, eta, t) > th.shrink_penalty_printed(m, eta, t)
    # ... but not above B_STAR, once m absorbs the prefactor 4 against 2.
    assert th.shrink_penalty_corrected(m, 2, eta, t) < th.shrink_penalty_printed(m, eta, t)


def test_printed_shrink_step_from_the_printed_tail_holds_for_B_above_one_eighth():
    # The printed proof's last step: 64 B^2 / (16B+1)^2 > 1/9 for all B >= 1.
    B = np.linspace(1, 100, 1000)
    assert np.all(64 * B**2 / (16 * B + 1) ** 2 > 1 / 9)


def test_lemma2_condition_and_min_T():
    assert th.min_T_for_proof(1) == 17  # eta_proof(1, 16) = 1/8 exactly, not < 1/8
    assert th.min_T_for_proof(2) == 65
    assert th.min_T_for_proof(1.5) == 37  # 16 * 2.25 = 36
    for B in (1, 1.5, 2, 3.7):
        T = th.min_T_for_proof(B)
        assert th.lemma2_condition(B, T)
        assert not th.lemma2_condition(B, T - 1)
    assert th.lemma2_condition(1, 1, eta=0.1) is True
    assert th.lemma2_condition(1, 1000, eta=0.2) is False
    np.testing.assert_array_equal(th.lemma2_condition(1, [16, 17]), [False, True])


# --------------------------------------------------------------------------------------------
# Regret
# --------------------------------------------------------------------------------------------


def test_lemma1_rhs_by_hand():
    # B^2/eta + eta*10 + eta*4 + (B_T + B)^2/eta * 0.5 with B = 2, eta = 0.5, B_T = 3
    assert th.lemma1_rhs(2, 0.5, 3, 10, 4, 0.5) == pytest.approx(8 + 5 + 2 + 25, rel=1e-15)
    assert th.lemma1_rhs(1, 0.1, 0, 0, 0, 0) == pytest.approx(10.0, rel=1e-15)


@pytest.mark.parametrize(("B", "T"), [(1, 17), (1, 100), (1, 10**6), (2.5, 101), (7, 10**5)])
def test_regret_bound_proof_closed_form_at_eta_proof(B, T):
    expected = 4 * B * math.sqrt(T) / (1 - B / math.sqrt(T))
    assert th.regret_bound_proof(B, T) == pytest.approx(expected, rel=1e-12)


def test_regret_bound_proof_term_by_term():
    B, T, eta = 1.0, 400, 0.02
    expected = (B**2 / eta + 2 * eta * T + eta * T + eta * T) / (1 - 2 * eta)
    assert th.regret_bound_proof(B, T, eta) == pytest.approx(expected, rel=1e-15)


def test_regret_bound_proof_is_the_fixed_point_of_lemma1_with_the_proofs_estimates():
    # Plug the proof's estimates into Lemma 1: sum E||nabla||^2 <= 2 (R + T) (Lemma 3 and
    # eq. 17), sum V <= T (eq. 16), and a shrink sum making the last term exactly eta T.
    B, T, eta, B_T = 1.5, 900, 0.03, 2.0
    regret = th.regret_bound_proof(B, T, eta)
    shrink_sum = eta**2 * T / (B_T + B) ** 2
    rhs = th.lemma1_rhs(B, eta, B_T, 2 * (regret + T), T, shrink_sum)
    assert rhs == pytest.approx(regret, rel=1e-12)


def test_regret_bound_proof_grows_like_B_sqrt_T():
    T = np.array([100, 10_000, 1_000_000])
    ratio = th.regret_bound_proof(1, T) / th.regret_rate_theorem(1, T)
    assert np.all(np.diff(ratio) < 0)  # 4 / (1 - 1/sqrt(T)) decreases to 4
    assert ratio[-1] == pytest.approx(4, rel=1e-2)


def test_regret_rate_theorem_by_hand():
    assert th.regret_rate_theorem(3, 100) == pytest.approx(30.0, rel=1e-15)


def test_zero_comparator_loss_bounds():
    assert th.zero_comparator_loss_bound(50) == 50.0
    assert th.zero_comparator_loss_exact_bound(50) == 25.0
    # l_t(0) = y^2 / 2 over labels in [-1, 1]; the exact bound is attained at |y| = 1.
    y = np.linspace(-1, 1, 201)
    assert np.max(y**2 / 2) * 50 == th.zero_comparator_loss_exact_bound(50)


# --------------------------------------------------------------------------------------------
# Test-time sample counts (Theorem 1, part 3)
# --------------------------------------------------------------------------------------------


def test_test_time_m_by_hand():
    # a = 2, epsilon0 = 0.1, delta = 0.05
    assert th.test_time_m(0.1, 0.05, 2.0) == math.ceil(4 * math.log(20) / 0.01)  # 1199
    assert th.test_time_m_corrected(0.1, 0.05, 2.0) == math.ceil(8 * math.log(40) / 0.01)  # 2952
    assert th.test_time_m(0.1, 0.05, 0.0) == 1  # alpha = 0: exact, still one sample


@pytest.mark.parametrize(("epsilon0", "delta", "a"), [(0.1, 0.05, 2.0), (0.01, 0.001, 17.0)])
def test_test_time_m_is_the_smallest_count_meeting_its_tail(epsilon0, delta, a):
    m = th.test_time_m(epsilon0, delta, a)
    assert th.hoeffding_tail_printed(m, epsilon0, a) <= delta * (1 + 1e-12)
    assert th.hoeffding_tail_printed(m - 1, epsilon0, a) > delta
    m = th.test_time_m_corrected(epsilon0, delta, a)
    assert th.hoeffding_tail_corrected(m, epsilon0, a) <= delta * (1 + 1e-12)
    assert th.hoeffding_tail_corrected(m - 1, epsilon0, a) > delta


def test_test_time_m_theorem_uses_the_theorem_step_size():
    B, T = 2.0, 400
    a = (16 * B + 1) * B * math.sqrt(T)  # end of arXiv C.2
    assert a == pytest.approx(th.alpha_l1_bound(B, th.eta_theorem(B, T), T), rel=1e-14)
    assert a == pytest.approx(2 * th.alpha_l1_bound(B, th.eta_proof(B, T), T), rel=1e-14)
    assert th.test_time_m_theorem(0.1, 0.01, B, T) == th.test_time_m(0.1, 0.01, a)
    assert th.test_time_m_theorem_corrected(0.1, 0.01, B, T) == th.test_time_m_corrected(
        0.1, 0.01, a
    )


# --------------------------------------------------------------------------------------------
# Statistical setting (Corollary 1)
# --------------------------------------------------------------------------------------------


def test_online_to_batch_excess_risk_closed_form():
    for B, T in ((1, 100), (2, 1000)):
        expected = 4 * B / (math.sqrt(T) - B)
        assert th.online_to_batch_excess_risk(B, T) == pytest.approx(expected, rel=1e-12)


def test_corollary1_T_is_the_smallest_sufficient_T():
    # B (1 + 4/0.3) = 14.33..., squared 205.4: T = 206.
    assert th.corollary1_T(1, 0.3) == 206
    for B, eps in ((1, 0.3), (1, 0.1), (2, 0.05), (3.3, 0.7), (1, 1.0)):
        T = th.corollary1_T(B, eps)
        assert th.online_to_batch_excess_risk(B, T) <= eps
        if th.min_T_for_proof(B) < T:
            assert th.online_to_batch_excess_risk(B, T - 1) > eps


def test_corollary1_T_floors_at_lemma2_and_scales_as_B2_over_eps2():
    assert th.corollary1_T(1, 10.0) == th.min_T_for_proof(1)
    # ICML's O(B^2/eps^2), not arXiv's O(B/eps^2): T ~ 16 B^2 / eps^2 for small eps.
    eps = 1e-3
    for B in (1, 4):
        assert th.corollary1_T(B, eps) == pytest.approx(16 * B**2 / eps**2, rel=2 * eps)


# --------------------------------------------------------------------------------------------
# Bad input: one case per validated argument
# --------------------------------------------------------------------------------------------

BAD_INPUT = [
    (th.eta_proof, (0.5, 100), "B"),
    (th.eta_theorem, (1, 0), "T"),
    (th.eta_theorem, (1, 2.5), "T"),
    (th.gamma_proof, (1, 100, 0.0), "eta"),
    (th.m_proof, (1, 100, -0.1), "eta"),
    (th.m_proof, (float("nan"), 100), "B"),
    (th.total_feature_samples, (1, -3), "T"),
    (th.alpha_l1_bound, (1, 0.1, 0), "t"),
    (th.f_norm_bound, (1, float("inf"), 10), "eta"),
    (th.hoeffding_tail_printed, (0, 0.1, 1.0), "m"),
    (th.hoeffding_tail_corrected, (10, 0.0, 1.0), "epsilon"),
    (th.hoeffding_tail_corrected, (10, 0.1, -1.0), "alpha_l1"),
    (th.estimate_tail_printed, (10, 0.1, 1, 0.1, 1.5), "t"),
    (th.estimate_tail_corrected, (10, 0.1, 0.99, 0.1, 1), "B"),
    (th.variance_bound, (3.5, 1, 0.1, 1), "m"),
    (th.variance_bound_alpha, (3, float("-inf")), "alpha_l1"),
    (th.shrink_penalty_printed, (10, 0.125, 1), "eta"),
    (th.shrink_penalty_corrected, (10, 1, 0.2, 1), "eta"),
    (th.lemma2_condition, (1, 100, -1.0), "eta"),
    (th.min_T_for_proof, (0.0,), "B"),
    (th.lemma1_rhs, (1, 0.1, -1, 0, 0, 0), "B_T"),
    (th.lemma1_rhs, (1, 0.1, 0, -1, 0, 0), "sum_grad_sq"),
    (th.lemma1_rhs, (1, 0.1, 0, 0, -1, 0), "sum_grad_var"),
    (th.lemma1_rhs, (1, 0.1, 0, 0, 0, -1), "sum_shrink_prob"),
    (th.regret_bound_proof, (1, 16), "eta"),  # eta_proof(1, 16) = 1/8 exactly
    (th.regret_bound_proof, (1, 1000, 0.5), "eta"),
    (th.regret_rate_theorem, (1, 0), "T"),
    (th.zero_comparator_loss_bound, (0,), "T"),
    (th.zero_comparator_loss_exact_bound, (-1,), "T"),
    (th.test_time_m, (0.0, 0.1, 1.0), "epsilon0"),
    (th.test_time_m, (0.1, 1.0, 1.0), "delta"),
    (th.test_time_m_corrected, (0.1, 0.0, 1.0), "delta"),
    (th.test_time_m_corrected, (0.1, 0.1, -2.0), "alpha_l1"),
    (th.test_time_m_theorem, (0.1, 0.1, 0.5, 10), "B"),
    (th.test_time_m_theorem_corrected, (0.1, 0.1, 1, 0), "T"),
    (th.online_to_batch_excess_risk, (1, 10), "eta"),
    (th.corollary1_T, (1, -0.1), "epsilon"),
]


@pytest.mark.parametrize(
    ("function", "args", "name"),
    BAD_INPUT,
    ids=[f"{f.__name__}-{name}-{i}" for i, (f, _, name) in enumerate(BAD_INPUT)],
)
def test_bad_input_raises_value_error_naming_the_argument(function, args, name):
    with pytest.raises(ValueError, match=rf"^{name} must be "):
        function(*args)


def test_error_message_states_the_accepted_range():
    with pytest.raises(ValueError, match=r"^B must be >= 1 \(Theorem 1\), got 0\.5$"):
        th.eta_theorem(0.5, 100)
    with pytest.raises(ValueError, match=r"eta_proof\(B, T\)"):
        th.regret_bound_proof(1, 16)  # says the default eta came from B and T
    with pytest.raises(ValueError, match=r"in an array of shape \(3,\)"):
        th.eta_proof([1, 2, 0.5], 100)


@pytest.mark.parametrize(
    ("function", "args", "name"),
    [
        (th.eta_proof, ("1", 100), "B"),
        (th.eta_proof, (1, True), "T"),
        (th.hoeffding_tail_corrected, (10, None, 1.0), "epsilon"),
        (th.m_proof, ([1, 2], 100), "B"),  # counts take scalars only
        (th.test_time_m, (0.1, np.array([0.1, 0.2]), 1.0), "delta"),
    ],
)
def test_non_numbers_raise_type_error_naming_the_argument(function, args, name):
    with pytest.raises(TypeError, match=rf"^{name} must be "):
        function(*args)


def test_test_time_helpers_are_not_collected_as_tests():
    assert th.test_time_m.__test__ is False
