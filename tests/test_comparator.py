"""Tests for iln.comparator: the exact best predictor in the B-ball (ICML eq. (7), arXiv eq. (6))."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import minimize

from iln.comparator import ComparatorResult, best_in_ball, predict_exact, regret


def _gram(rng: np.random.Generator, T: int, rank: int, scale: float = 1.0) -> np.ndarray:
    A = scale * rng.standard_normal((T, rank))
    return A @ A.T


def _labels(rng: np.random.Generator, T: int) -> np.ndarray:
    return rng.uniform(-1.0, 1.0, size=T)


def _objective(K: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    return 0.5 * float(np.sum((K @ beta - y) ** 2))


def _brute_force(K: np.ndarray, y: np.ndarray, B: float, rng: np.random.Generator) -> float:
    """Best SLSQP value over a few starts, in the factor space K = A A^T, ||g|| <= B.

    Working with predictions A g and the ball ||g|| <= B is an independent formulation:
    it never uses eigenvalues of K or the secular equation.
    """
    lam, U = np.linalg.eigh(K)
    A = U * np.sqrt(np.clip(lam, 0.0, None))
    best = 0.5 * float(y @ y)
    for _ in range(5):
        g0 = rng.standard_normal(A.shape[1])
        g0 *= 0.5 * B / np.linalg.norm(g0)
        res = minimize(
            lambda g: 0.5 * np.sum((A @ g - y) ** 2),
            g0,
            jac=lambda g: A.T @ (A @ g - y),
            method="SLSQP",
            constraints=[{"type": "ineq", "fun": lambda g: B**2 - g @ g, "jac": lambda g: -2 * g}],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        if res.success and res.x @ res.x <= B**2 * (1 + 1e-9):
            best = min(best, float(res.fun))
    return best


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("B", [1.0, 2.0, 50.0])
def test_matches_brute_force_slsqp(seed: int, B: float) -> None:
    rng = np.random.default_rng(seed)
    T = 5
    K = _gram(rng, T, rank=T, scale=0.7)
    y = _labels(rng, T)
    res = best_in_ball(K, y, B)
    brute = _brute_force(K, y, B, rng)
    # The exact solution can only beat a numerical optimiser (up to round-off, 1e-12).
    assert res.total_loss <= brute + 1e-12
    # SLSQP with ftol=1e-14 on a 5-D convex problem converges to ~1e-9; 1e-7 leaves margin.
    assert brute <= res.total_loss + 1e-7


def test_matches_dense_grid_in_two_dimensions() -> None:
    rng = np.random.default_rng(11)
    K = _gram(rng, 2, rank=2, scale=0.5)
    y = np.array([1.0, -0.8])
    B = 1.0
    res = best_in_ball(K, y, B)
    assert res.constraint_active
    # Grid over the disc in the factor space (predictions A g, ||g|| <= B).
    lam, U = np.linalg.eigh(K)
    A = U * np.sqrt(lam)
    r = np.linspace(0.0, B, 401)
    phi = np.linspace(0.0, 2 * np.pi, 2001)
    G = np.stack([np.outer(r, np.cos(phi)).ravel(), np.outer(r, np.sin(phi)).ravel()])
    grid_losses = 0.5 * np.sum((A @ G - y[:, None]) ** 2, axis=0)
    # The exact minimum is below every grid point (up to round-off).
    assert res.total_loss <= grid_losses.min() + 1e-12
    # Grid spacing 2.5e-3 in r and 3e-3 in angle, gradient norm O(1): the nearest grid
    # point is within ~1e-5 in loss (first order, the minimiser is on the boundary).
    assert grid_losses.min() - res.total_loss < 1e-4


@pytest.mark.parametrize("seed", range(4))
def test_inactive_constraint_equals_least_squares(seed: int) -> None:
    rng = np.random.default_rng(seed)
    T = 6
    K = _gram(rng, T, rank=T, scale=2.0)
    y = _labels(rng, T)
    beta_ls = np.linalg.pinv(K) @ y
    norm_ls = np.sqrt(beta_ls @ K @ beta_ls)
    res = best_in_ball(K, y, B=max(1.0, 2 * norm_ls))
    assert not res.constraint_active
    assert res.nu == 0.0
    # Full-rank well-conditioned K: interpolation; pinv and eigh agree to ~cond * eps,
    # cond of these 6x6 Wishart matrices is below 1e4, so 1e-9 relative is safe.
    np.testing.assert_allclose(res.beta, beta_ls, rtol=1e-9, atol=1e-9)
    assert res.total_loss < 1e-20
    np.testing.assert_allclose(res.norm, norm_ls, rtol=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_active_constraint_norm_equals_B(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    T = 8
    K = _gram(rng, T, rank=T, scale=0.3)
    y = _labels(rng, T)
    B = 1.0
    res = best_in_ball(K, y, B)
    assert res.constraint_active
    assert res.nu > 0.0
    # The reported norm is put on the sphere explicitly: round-off only (1e-9 is generous).
    assert abs(res.norm - B) <= 1e-9
    # Recomputed from beta^T K beta, well-conditioned K: a few ulps times cond.
    assert abs(np.sqrt(res.beta @ K @ res.beta) - B) <= 1e-9


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("B", [1.0, 3.0, 1e6])
def test_kkt_conditions(seed: int, B: float) -> None:
    rng = np.random.default_rng(200 + seed)
    T = 7
    K = _gram(rng, T, rank=4 + seed % 4, scale=0.5)
    y = _labels(rng, T)
    res = best_in_ball(K, y, B)
    beta, nu = res.beta, res.nu
    assert nu >= 0.0
    # Primal feasibility, round-off only.
    assert res.norm <= B * (1 + 1e-12)
    # Complementary slackness: nu (||f|| - B) = 0, ||f|| on the sphere to 1e-12 relative.
    assert nu * abs(res.norm - B) <= 1e-10 * max(1.0, nu * B)
    # Stationarity: K (K beta - y) + nu K beta = 0. Entries are O(||K||^2 ||beta||), so
    # a residual of 1e-9 times that scale is round-off (eps * cond-type growth).
    grad = K @ (K @ beta - y) + nu * (K @ beta)
    scale = np.linalg.norm(K, 2) * (np.linalg.norm(K, 2) * np.linalg.norm(beta) + 1.0)
    assert np.linalg.norm(grad) <= 1e-9 * scale
    assert res.constraint_active == (nu > 0.0)


def test_rank_deficient_kernel() -> None:
    rng = np.random.default_rng(7)
    T, r = 10, 3
    A = rng.standard_normal((T, r))
    K = A @ A.T
    y = _labels(rng, T)
    # Unconstrained: least squares in the range of K, i.e. on the column space of A.
    res = best_in_ball(K, y, B=1e8)
    assert not res.constraint_active
    g, *_ = np.linalg.lstsq(A, y, rcond=None)
    ls_loss = 0.5 * float(np.sum((A @ g - y) ** 2))
    # The residual cannot vanish (T > r): compare to the lstsq optimum; both are exact up
    # to round-off on O(1) numbers, hence 1e-10.
    assert ls_loss > 1e-3
    assert abs(res.total_loss - ls_loss) <= 1e-10
    # Minimum-norm coefficients: beta lies in range(K) = range(A).
    P = A @ np.linalg.pinv(A)
    np.testing.assert_allclose(P @ res.beta, res.beta, atol=1e-10)
    # ||f|| = ||g|| for the least-squares g (same predictions, f in the span).
    np.testing.assert_allclose(res.norm, np.linalg.norm(g), rtol=1e-9)
    # Constrained (a smaller kernel needs a larger f, so the ball binds): matches the
    # factor-space brute force.
    K_small = 0.01 * K
    res_b = best_in_ball(K_small, y, B=1.0)
    assert res_b.constraint_active
    # Same tolerances as test_matches_brute_force_slsqp.
    brute = _brute_force(K_small, y, 1.0, rng)
    assert res_b.total_loss <= brute + 1e-12
    assert brute <= res_b.total_loss + 1e-7


def test_zero_kernel_gives_zero_predictor() -> None:
    y = np.array([0.5, -1.0, 0.25])
    res = best_in_ball(np.zeros((3, 3)), y, B=2.0)
    assert res.norm == 0.0
    assert not res.constraint_active
    np.testing.assert_array_equal(res.beta, 0.0)
    assert res.total_loss == pytest.approx(0.5 * float(y @ y), rel=1e-15)


def test_huge_B_is_inactive_and_interpolates() -> None:
    rng = np.random.default_rng(3)
    K = _gram(rng, 5, rank=5)
    y = _labels(rng, 5)
    res = best_in_ball(K, y, B=1e12)
    assert not res.constraint_active
    assert res.nu == 0.0
    # Full-rank K with cond < 1e4: the fit is exact to ~cond * eps on labels of size 1.
    np.testing.assert_allclose(res.predictions, y, atol=1e-10)


def test_tiny_negative_eigenvalues_are_clipped() -> None:
    rng = np.random.default_rng(5)
    A = rng.standard_normal((6, 2))
    K = A @ A.T
    lam, U = np.linalg.eigh(K)
    lam[0] = -1e-13 * lam[-1]  # round-off-sized negative eigenvalue
    K_noisy = (U * lam) @ U.T
    K_noisy = 0.5 * (K_noisy + K_noisy.T)
    y = _labels(rng, 6)
    a, b = best_in_ball(K, y, 1.0), best_in_ball(K_noisy, y, 1.0)
    # A 1e-13 relative perturbation of K moves the optimum by about that much.
    assert abs(a.total_loss - b.total_loss) <= 1e-10


def test_predictions_and_losses_are_consistent() -> None:
    rng = np.random.default_rng(9)
    K = _gram(rng, 6, rank=6)
    y = _labels(rng, 6)
    res = best_in_ball(K, y, 1.0)
    # Spectral predictions vs the plain product: well-conditioned, round-off only.
    np.testing.assert_allclose(res.predictions, K @ res.beta, atol=1e-12)
    np.testing.assert_allclose(res.losses, 0.5 * (K @ res.beta - y) ** 2, atol=1e-12)
    assert res.total_loss == pytest.approx(res.losses.sum(), rel=1e-14)
    np.testing.assert_allclose(predict_exact(res.beta, K), res.predictions, atol=1e-12)


def test_result_is_frozen_and_read_only() -> None:
    res = best_in_ball(np.eye(2), [1.0, 0.0], 1.0)
    assert isinstance(res, ComparatorResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.nu = 1.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        res.beta[0] = 2.0


def test_known_closed_form() -> None:
    # K = I: predictions equal beta; the solution is y scaled onto the sphere.
    y = np.array([1.0, -1.0])
    res = best_in_ball(np.eye(2), y, 1.0)
    np.testing.assert_allclose(res.beta, y / np.sqrt(2), rtol=1e-14)
    # z(nu) = y / (1 + nu) has norm 1 at nu = sqrt(2) - 1; brentq to 4 eps relative.
    assert res.nu == pytest.approx(np.sqrt(2) - 1, rel=1e-14)


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    T=st.integers(1, 6),
    rank=st.integers(1, 6),
    B=st.floats(1.0, 10.0),
)
def test_comparator_beats_random_feasible_predictors(data, T: int, rank: int, B: float) -> None:
    A = data.draw(arrays(np.float64, (T, rank), elements=st.floats(-3, 3)), label="A")
    y = data.draw(arrays(np.float64, (T,), elements=st.floats(-1, 1)), label="y")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    K = A @ A.T
    res = best_in_ball(K, y, B)
    # Objective values are O(T) = O(10); exact optimum vs a feasible point differs only
    # by round-off when the feasible point happens to be optimal: 1e-9 absolute.
    tol = 1e-9
    assert res.total_loss <= 0.5 * float(y @ y) + tol  # f = 0 is feasible
    rng = np.random.default_rng(seed)
    for _ in range(10):
        beta = rng.standard_normal(T)
        norm = np.sqrt(max(beta @ K @ beta, 0.0))
        if norm > B:
            beta *= B / norm
        assert res.total_loss <= _objective(K, y, beta) + tol
    assert res.norm <= B * (1 + 1e-12)


def test_regret() -> None:
    res = best_in_ball(np.eye(3), [1.0, -1.0, 0.5], 1.0)
    learner = np.array([0.5, 0.5, 0.125])
    assert regret(learner, res) == pytest.approx(1.125 - res.total_loss, rel=1e-15)
    assert isinstance(regret(learner, res), float)


def test_regret_rejects_bad_input() -> None:
    res = best_in_ball(np.eye(3), [1.0, -1.0, 0.5], 1.0)
    with pytest.raises(ValueError, match="learner_losses"):
        regret([0.1, 0.2], res)
    with pytest.raises(ValueError, match="learner_losses"):
        regret([0.1, np.nan, 0.2], res)
    with pytest.raises(ValueError, match="learner_losses"):
        regret([0.1, -0.1, 0.2], res)
    with pytest.raises(TypeError, match="comparator"):
        regret([0.1, 0.1, 0.2], 3.0)
    with pytest.raises(TypeError, match="learner_losses"):
        regret(["a", "b", "c"], res)


def test_predict_exact() -> None:
    rng = np.random.default_rng(1)
    K_cross = rng.standard_normal((4, 3))
    coef = rng.standard_normal(3)
    np.testing.assert_array_equal(predict_exact(coef, K_cross), K_cross @ coef)
    with pytest.raises(ValueError, match="K_new_support"):
        predict_exact(coef, K_cross.T)
    with pytest.raises(ValueError, match="K_new_support"):
        predict_exact(coef, K_cross[0])
    with pytest.raises(ValueError, match="coefficients"):
        predict_exact(np.ones((3, 1)), K_cross)
    with pytest.raises(ValueError, match="coefficients"):
        predict_exact([np.inf, 0.0, 0.0], K_cross)
    with pytest.raises(ValueError, match="K_new_support"):
        predict_exact(coef, np.full((4, 3), np.nan))


@pytest.mark.parametrize(
    ("K", "y", "B", "exc", "name"),
    [
        (np.eye(2), [0.0, 0.0], 0.5, ValueError, "B"),
        (np.eye(2), [0.0, 0.0], np.inf, ValueError, "B"),
        (np.eye(2), [0.0, 0.0], np.nan, ValueError, "B"),
        (np.eye(2), [0.0, 0.0], "2", TypeError, "B"),
        (np.eye(2), [0.0, 0.0], True, TypeError, "B"),
        (np.eye(2), [1.5, 0.0], 1.0, ValueError, "y"),
        (np.eye(2), [np.nan, 0.0], 1.0, ValueError, "y"),
        (np.eye(2), [[0.0, 0.0]], 1.0, ValueError, "y"),
        (np.eye(2), [], 1.0, ValueError, "y"),
        (np.eye(3), [0.0, 0.0], 1.0, ValueError, "K"),
        (np.ones(2), [0.0, 0.0], 1.0, ValueError, "K"),
        (np.array([[1.0, np.inf], [np.inf, 1.0]]), [0.0, 0.0], 1.0, ValueError, "K"),
        (np.array([[1.0, 0.5], [0.0, 1.0]]), [0.0, 0.0], 1.0, ValueError, "K"),
        (np.array([[1.0, 2.0], [2.0, 1.0]]), [0.0, 0.0], 1.0, ValueError, "K"),
        (-np.eye(2), [0.0, 0.0], 1.0, ValueError, "K"),
        (np.array([["a", "b"], ["c", "d"]]), [0.0, 0.0], 1.0, TypeError, "K"),
    ],
)
def test_best_in_ball_rejects_bad_input(K, y, B, exc, name: str) -> None:
    with pytest.raises(exc, match=rf"\b{name}\b"):
        best_in_ball(K, y, B)


def test_ill_conditioned_kernel_monotone_in_B() -> None:
    from scipy.linalg import hilbert

    K = hilbert(12)  # condition number ~1e16: most directions are numerically null
    y = np.linspace(-1.0, 1.0, 12)
    results = [best_in_ball(K, y, B) for B in (1.0, 3.0, 10.0, 30.0, 1e3, 1e9)]
    losses = [r.total_loss for r in results]
    # A larger ball can only help; 1e-12 allows round-off in sums of O(1) terms.
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(losses))
    for r in results:
        if r.constraint_active:
            # Norm from the spectrum stays exact even when K @ beta would lose digits.
            assert abs(r.norm - r.B) <= 1e-9 * r.B
        assert r.norm <= r.B * (1 + 1e-12)


@pytest.mark.parametrize(
    ("K", "y"),
    [
        # Regressions found by hypothesis: squares of these eigenvalues underflow, and with
        # every lam << nu the secular bracket is attained exactly.
        (np.array([[1.10509294e-153**2]]), np.array([0.0625])),
        (np.full((4, 4), 5.28843409e-98**2), np.full(4, 5.28843409e-98)),
        (1e-300 * np.eye(3), np.array([1.0, -1.0, 0.5])),
        (1e150 * np.eye(3), np.array([1.0, -1.0, 0.5])),
    ],
)
def test_extreme_kernel_scales(K: np.ndarray, y: np.ndarray) -> None:
    res = best_in_ball(K, y, 1.0)
    assert np.isfinite(res.total_loss)
    assert res.total_loss <= 0.5 * float(y @ y)
    # Norms are computed with scaling, so feasibility holds to round-off (1e-12).
    assert res.norm <= 1.0 + 1e-12
    if res.constraint_active:
        assert abs(res.norm - 1.0) <= 1e-9  # on the sphere, round-off only
