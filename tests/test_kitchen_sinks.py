"""Random Kitchen Sinks (RKS Algorithm 1) and the AdaBoost-with-stumps competitor.

Hand-checked small cases, exactness certificates (KKT conditions, LP duality), the
limit K -> infinity (kernel ridge regression), seeds, bad input, and the oracle's
isolation.
"""

import ast
import pathlib

import numpy as np
import pytest
from scipy import optimize
from tolerances import hoeffding_half_width

import iln
from iln.budget import Budget
from iln.features import CustomFamily, FeatureFamily, RandomFourier, RandomStump
from iln.random_streams import child, generator
from iln.rks.kitchen_sinks import (
    SolverConvergenceError,
    adaboost_stumps,
    random_kitchen_sinks,
)
from verification.claims.rks.instances import class_instance

# Three points, two fixed "coordinate" features psi(x; k) = x_k: Z = X, so every
# solution below can be worked out by hand.
HAND_X = np.array([[0.5, 0.0], [0.0, 0.5], [0.5, 0.5]])
HAND_FAMILY = CustomFamily(lambda n, rng: np.arange(n, dtype=float)[:, None],
                           lambda X, W: X[:, W[:, 0].astype(int)], 2, name="coordinates")


def _data(m=60, dim=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, dim))
    y = np.where(X[:, 0] * X[:, 1] + 0.2 > 0, 1.0, -1.0)
    return X, y


def _features(result, X):
    return result.family.psi(X, result.W)


# -- quadratic loss ---------------------------------------------------------------------
def test_least_squares_by_hand():
    # Z^T Z = [[1/2, 1/4], [1/4, 1/2]], Z^T y = [3/4, -1/4] for y = (1, -1, 1/2);
    # (Z^T Z)^-1 = [[8/3, -4/3], [-4/3, 8/3]], so alpha = (7/3, -5/3).
    r = random_kitchen_sinks(HAND_X, [1.0, -1.0, 0.5], HAND_FAMILY, K=2, seed=0)
    np.testing.assert_allclose(r.alpha, [7 / 3, -5 / 3], rtol=1e-13)
    # Residual y - Z alpha = (-1/6, -1/6, 1/6): mean square 1/36.
    assert r.train_risk == pytest.approx(1 / 36, rel=1e-12)
    np.testing.assert_allclose(r.predict(HAND_X), [7 / 6, -5 / 6, 1 / 3], rtol=1e-13)
    assert not r.constrained


@pytest.mark.parametrize(("C", "expected"), [
    # C/K = 2: alpha_1 binds at 2; then d/d alpha_2 = alpha_2/2 + 3/4 = 0 gives -3/2,
    # inside the box.  Clipping the unconstrained (7/3, -5/3) would give (2, -5/3) instead.
    (4.0, [2.0, -1.5]),
    # C/K = 1/2: both bind; gradient Z^T(Z alpha - y) = (-5/8, 1/8) points out of the box.
    (1.0, [0.5, -0.5]),
    # C/K = 5: the unconstrained optimum is inside the box.
    (10.0, [7 / 3, -5 / 3]),
])
def test_box_constrained_least_squares_by_hand(C, expected):
    r = random_kitchen_sinks(HAND_X, [1.0, -1.0, 0.5], HAND_FAMILY, K=2, seed=0, C=C)
    np.testing.assert_allclose(r.alpha, expected, rtol=1e-12, atol=1e-14)
    assert r.constrained


def _check_box_kkt(Z, y, alpha, bound, ridge=0.0):
    """First-order optimality of the convex box-constrained least squares (sufficient)."""
    m, K = Z.shape
    grad = 2.0 / m * Z.T @ (Z @ alpha - y) + 2.0 * ridge * K * alpha
    # Round-off of a gradient whose terms are O(1): a few hundred ulps.
    tol = 1e-10
    upper = alpha >= bound * (1 - 1e-14)
    lower = alpha <= -bound * (1 - 1e-14)
    free = ~(upper | lower)
    assert np.all(np.abs(grad[free]) <= tol), np.abs(grad[free]).max()
    assert np.all(grad[upper] <= tol)
    assert np.all(grad[lower] >= -tol)
    return upper.sum() + lower.sum()


@pytest.mark.parametrize("K", [30, 120])  # fewer and more features than points
@pytest.mark.parametrize("ridge", [0.0, 1e-3])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_box_constrained_least_squares_satisfies_kkt(seed, ridge, K):
    X, _ = _data(m=80, seed=seed)
    y = np.tanh(X[:, 0] - X[:, 2])
    C = K / 50  # box [-0.02, 0.02]
    r = random_kitchen_sinks(X, y, RandomStump(4), K=K, seed=seed, C=C, ridge=ridge)
    assert r.alpha_inf_norm <= C / K  # exact: the solution is clipped into the box
    active = _check_box_kkt(_features(r, X), y, r.alpha, C / K, ridge)
    assert active > 0  # the instance does exercise the constraint


def test_box_least_squares_settles_where_bvls_needs_more_than_k_iterations():
    """Four orthogonal atoms (Hadamard columns 1, 25, 17, 24) with C = 0.3 and m = 10: BVLS's
    active set needs 5 iterations, one more than SciPy's default of K, and used to raise."""
    inst = class_instance("orthogonal", 0.3)
    seed = child(np.random.SeedSequence(7), 59, 4)
    _, X, y = inst.support.draw(10, generator(child(seed, 0)))
    fit = random_kitchen_sinks(X, y, inst.family, K=4, seed=child(seed, 1), loss="quadratic", C=0.3)
    assert inst.family.atoms(fit.W).ravel().tolist() == [1, 25, 17, 24]
    Z = inst.family.psi(X, fit.W)
    default = optimize.lsq_linear(Z, y, bounds=(-0.075, 0.075), method="bvls", tol=1e-13)
    assert default.status == 0  # stopped at its default iteration limit: the case this covers
    reference = optimize.lsq_linear(Z, y, bounds=(-0.075, 0.075), method="bvls", tol=1e-13, max_iter=1000)
    np.testing.assert_allclose(fit.alpha, reference.x, atol=1e-12)


def test_unconstrained_quadratic_equals_numpy_lstsq():
    X, _ = _data()
    y = np.tanh(X[:, 1])
    r = random_kitchen_sinks(X, y, RandomStump(4), K=25, seed=3)
    expected = np.linalg.lstsq(_features(r, X), y, rcond=None)[0]
    np.testing.assert_allclose(r.alpha, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("K", [10, 200])  # primal (K < m) and dual (K > m) shapes
def test_ridge_matches_normal_equations(K):
    X, _ = _data(m=50)
    y = np.tanh(X[:, 1])
    ridge = 0.01
    r = random_kitchen_sinks(X, y, RandomFourier(4, gamma=0.3), K=K, seed=4, ridge=ridge)
    Z = _features(r, X)
    m = len(y)
    # minimiser of (1/m)||Z a - y||^2 + ridge K ||a||^2.
    expected = np.linalg.solve(Z.T @ Z + m * K * ridge * np.eye(K), Z.T @ y)
    np.testing.assert_allclose(r.alpha, expected, rtol=1e-8, atol=1e-12)


def test_rks_approaches_kernel_ridge_regression_as_K_grows():
    """With G = Z Z^T / K and g = Z z(x) / K, the RKS ridge prediction is
    g^T (G + m ridge I)^-1 y, and its limit is kernel ridge regression with the oracle
    kernel k = E[psi psi] (used here only, by the test)."""
    rng = np.random.default_rng(0)
    m, n_test, ridge = 10, 5, 0.1
    X, X_test = rng.uniform(-1, 1, (m, 2)), rng.uniform(-1, 1, (n_test, 2))
    y = 0.8 * np.sin(2 * X[:, 0])
    family = RandomFourier(2, gamma=0.5)
    a = m * ridge
    k_train, k_test = family.kernel(X), family.kernel(X_test, X)
    exact = k_test @ np.linalg.solve(k_train + a * np.eye(m), y)

    def error(K, seed):
        r = random_kitchen_sinks(X, y, family, K=K, seed=seed, ridge=ridge)
        return np.abs(r.decision_function(X_test) - exact).max(), r

    # (1) A rigorous a-posteriori band at K = 1e5.  prediction - exact
    # = (g - k)^T u + v^T (k_train - G) u with u = (G + a)^-1 y, v = (k_train + a)^-1 k,
    # so |.| <= eps ||u||_1 (1 + ||v||_1) when every entry of G and g is within eps of its
    # mean; each entry is a mean of K products in [-1, 1], so Hoeffding with a union
    # bound over the N entries gives eps at total false-alarm rate 1e-6.
    K = 100_000
    err, r = error(K, seed=1)
    Z = _features(r, X)
    u = np.linalg.solve(Z @ Z.T / K + a * np.eye(m), y)
    v = np.linalg.solve(k_train + a * np.eye(m), k_test.T)
    n_entries = m * (m + 1) // 2 + m * n_test
    eps = hoeffding_half_width(1.0, K, 1e-6 / n_entries)
    band = eps * np.abs(u).sum() * (1.0 + np.abs(v).sum(axis=0))
    assert err <= band.max()
    # (2) The rate: the Monte-Carlo error of each Gram entry is O(K^-1/2), so 100 times
    # more features should shrink the error about 10-fold; over 4 seeds we ask for a
    # 3-fold shrink, and for an error below 0.01 at K = 1e5 (the entries' standard
    # deviation is at most K^-1/2 = 0.003 there, amplified at most ||u||_1 ~ 3 times).
    small = np.mean([error(1_000, s)[0] for s in range(4)])
    large = np.mean([error(100_000, s)[0] for s in range(4)])
    assert large <= small / 3
    assert large <= 0.01


# -- hinge loss ------------------------------------------------------------------------
def test_hinge_lp_by_hand():
    # y = (1, -1, 1), |alpha_k| <= 1: loss_1 = max(0, 1 - alpha_1/2) is least at alpha_1 = 1
    # (loss 1/2); loss_2 + loss_3 = max(0, 1 + alpha_2/2) + max(0, 1/2 - alpha_1/2 - alpha_2/2)
    # = 3/2 on the whole box at alpha_1 = 1.  Risk (1/2 + 3/2)/3 = 2/3.
    r = random_kitchen_sinks(HAND_X, [1.0, -1.0, 1.0], HAND_FAMILY, K=2, seed=0,
                             loss="hinge", C=2.0)
    assert r.alpha[0] == pytest.approx(1.0, abs=1e-12)
    assert abs(r.alpha[1]) <= 1.0
    assert r.train_risk == pytest.approx(2 / 3, abs=1e-12)
    np.testing.assert_array_equal(r.predict(HAND_X[:1]), [1.0])


def test_hinge_lp_beats_a_brute_force_grid():
    X, y = _data(m=12, dim=3, seed=5)
    K, C = 2, 4.0
    r = random_kitchen_sinks(X, y, RandomStump(3), K=K, seed=7, loss="hinge", C=C)
    Z = _features(r, X)
    grid = np.linspace(-C / K, C / K, 801)
    A = np.stack(np.meshgrid(grid, grid, indexing="ij"), axis=0).reshape(2, -1)
    grid_risk = np.maximum(0.0, 1.0 - y[:, None] * (Z @ A)).mean(axis=0)  # one column per point
    # The LP is optimal: no grid point is better (up to round-off), and the best grid
    # point is within the risk's Lipschitz constant (max_i ||z_i||_1 <= 2) times half
    # the grid diagonal of the LP value.
    step = grid[1] - grid[0]
    assert r.train_risk <= grid_risk.min() + 1e-12
    assert grid_risk.min() - r.train_risk <= 2.0 * step * np.sqrt(2) / 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hinge_lp_optimality_certified_by_its_dual(seed):
    # Dual of min (1/m) sum xi, xi >= 1 - y_i z_i.a, xi >= 0, |a_k| <= b:
    # max sum lambda_i - b ||sum_i lambda_i y_i z_i||_1 over 0 <= lambda_i <= 1/m.
    # Any feasible lambda lower-bounds the primal optimum (weak duality), so a lambda
    # matching the RKS risk proves it optimal.  Solved here as its own LP in (lambda, t).
    X, y = _data(m=40, seed=seed)
    K, C = 15, 3.0
    r = random_kitchen_sinks(X, y, RandomStump(4), K=K, seed=seed, loss="hinge", C=C)
    assert r.alpha_inf_norm <= C / K
    Z = _features(r, X)
    m, b = len(y), C / K
    M = (y[:, None] * Z).T  # (K, m): g = M lambda
    c = np.concatenate([-np.ones(m), b * np.ones(K)])
    A_ub = np.block([[M, -np.eye(K)], [-M, -np.eye(K)]])  # |g_k| <= t_k
    dual = optimize.linprog(c, A_ub=A_ub, b_ub=np.zeros(2 * K),
                            bounds=[(0, 1 / m)] * m + [(0, None)] * K, method="highs")
    lam = dual.x[:m]
    dual_value = lam.sum() - b * np.abs(M @ lam).sum()  # recomputed from a feasible lambda
    assert r.train_risk == pytest.approx(dual_value, abs=1e-9)
    assert r.train_risk >= dual_value - 1e-12  # weak duality: a sanity check of the test


def test_linear_svm_is_optimal_by_duality_gap():
    # LinearSVC minimises P(a) = 1/2 ||a||^2 + s sum_i hinge_i; its dual
    # D(l) = sum l - 1/2 ||sum_i l_i y_i z_i||^2 over 0 <= l <= s lower-bounds P.
    X, y = _data(m=50, seed=3)
    s = 0.5
    r = random_kitchen_sinks(X, y, RandomStump(4), K=12, seed=2, loss="hinge", svm_C=s,
                             svm_tol=1e-10)
    Z = _features(r, X)
    YZ = y[:, None] * Z
    primal = 0.5 * r.alpha @ r.alpha + s * len(y) * r.train_risk

    def neg_dual(lam):
        g = YZ.T @ lam
        return 0.5 * g @ g - lam.sum(), YZ @ g - 1.0

    res = optimize.minimize(neg_dual, np.zeros(len(y)), jac=True, method="L-BFGS-B",
                            bounds=[(0, s)] * len(y), options={"ftol": 1e-15, "gtol": 1e-12})
    gap = primal - (-res.fun)
    assert gap >= -1e-9  # weak duality
    assert gap <= 1e-6 * primal  # liblinear at tol 1e-10 is optimal to ~1e-6 relative
    assert r.svm_C == s
    assert not r.constrained


def test_linear_svm_nonconvergence_is_an_error():
    X, y = _data(m=200, seed=1)
    with pytest.raises(SolverConvergenceError, match="svm_max_iter"):
        random_kitchen_sinks(X, y, RandomStump(4), K=50, seed=0, loss="hinge", svm_C=10.0,
                             svm_max_iter=2)


@pytest.mark.parametrize("loss", ["quadratic", "hinge"])
def test_constraint_holds_exactly_when_it_binds(loss):
    X, y = _data(m=100, seed=8)
    for K, C in [(5, 0.1), (40, 1.0), (200, 2.0)]:
        r = random_kitchen_sinks(X, y, RandomStump(4), K=K, seed=K, loss=loss, C=C)
        assert r.alpha_inf_norm <= C / K + 1e-12
        assert r.alpha_inf_norm == pytest.approx(C / K, rel=1e-9)  # it binds


def test_hinge_predict_is_sign_and_quadratic_predict_is_value():
    X, y = _data()
    h = random_kitchen_sinks(X, y, RandomStump(4), K=20, seed=0, loss="hinge")
    assert set(np.unique(h.predict(X))) <= {-1.0, 1.0}
    np.testing.assert_array_equal(h.predict(X), np.where(h.decision_function(X) >= 0, 1.0, -1.0))
    q = random_kitchen_sinks(X, y, RandomStump(4), K=20, seed=0)
    np.testing.assert_array_equal(q.predict(X), q.decision_function(X))


# -- budget, seeds, the oracle ----------------------------------------------------------
def test_budget_counts_K_features_on_every_training_point():
    X, y = _data(m=37)
    r = random_kitchen_sinks(X, y, RandomStump(4), K=11, seed=0)
    assert r.budget == Budget(features_sampled=11, psi_evaluations=11 * 37)
    assert r.W.shape == (11, 2)
    assert r.train_seconds >= 0


@pytest.mark.parametrize(("loss", "C"), [("quadratic", None), ("quadratic", 1.0),
                                          ("hinge", None), ("hinge", 1.0)])
def test_same_seed_same_numbers(loss, C):
    X, y = _data()
    runs = [random_kitchen_sinks(X, y, RandomStump(4), K=15, seed=s, loss=loss, C=C)
            for s in (5, 5, np.random.SeedSequence(5), 6)]
    for other in runs[1:3]:
        np.testing.assert_array_equal(runs[0].W, other.W)
        np.testing.assert_array_equal(runs[0].alpha, other.alpha)
    assert not np.array_equal(runs[0].W, runs[3].W)


@pytest.mark.parametrize(("loss", "C", "ridge"), [("quadratic", None, 0.0), ("quadratic", None, 0.01),
                                                  ("quadratic", 1.0, 0.01), ("hinge", None, 0.0),
                                                  ("hinge", 1.0, 0.0)])
def test_label_columns_are_the_fits_of_each_column_alone(loss, C, ridge):
    # L label vectors are L problems (3)-(4) on the features drawn from the seed alone: the
    # same alpha column by column (up to the round-off of one solve for all columns).
    X, y = _data()
    Y = np.column_stack([y, -y, np.where(X[:, 2] > 0, 1.0, -1.0)])
    together = random_kitchen_sinks(X, Y, RandomStump(4), K=12, seed=3, loss=loss, C=C, ridge=ridge)
    assert together.alpha.shape == (12, 3)
    assert together.decision_function(X).shape == (60, 3)
    alone = [random_kitchen_sinks(X, Y[:, j], RandomStump(4), K=12, seed=3, loss=loss, C=C, ridge=ridge)
             for j in range(3)]
    np.testing.assert_allclose(together.alpha, np.column_stack([r.alpha for r in alone]), rtol=1e-9, atol=1e-12)
    assert together.train_risk == pytest.approx(np.mean([r.train_risk for r in alone]), rel=1e-9)


@pytest.mark.parametrize("columns", [1, 3])
def test_a_grid_of_ridges_takes_the_smallest_generalised_cross_validation_error(columns):
    # GCV(r) = m ||Y - H Y||^2 / (m - tr H)^2, summed over the columns, with H the hat matrix
    # Z (Z^T Z + m K r I)^{-1} Z^T built here directly (Golub, Heath & Wahba 1979), against
    # the one-SVD computation of the fit; K = m - 5 features, so the choice matters.
    X, y = _data(m=40)
    Y = np.column_stack([y, y * np.sign(X[:, 3]), -y])[:, :columns]
    Y = Y[:, 0] if columns == 1 else Y
    grid = (1e-6, 1e-4, 1e-2, 1.0)
    fit = random_kitchen_sinks(X, Y, RandomFourier(4, 0.5), K=35, seed=2, ridge=grid)
    Z = _features(fit, X)
    m, K = Z.shape

    def gcv(r):
        H = Z @ np.linalg.solve(Z.T @ Z + m * K * r * np.eye(K), Z.T)
        return m * np.sum((Y - H @ Y) ** 2) / (m - np.trace(H)) ** 2

    best = min(grid, key=gcv)
    assert fit.ridge == best
    assert fit.ridge not in (grid[0], grid[-1])  # an interior choice: the criterion, not an end, decided
    fixed = random_kitchen_sinks(X, Y, RandomFourier(4, 0.5), K=35, seed=2, ridge=best)
    np.testing.assert_allclose(fit.alpha, fixed.alpha, rtol=1e-12, atol=1e-14)


def _blinded(cls, *args):
    class Blind(cls):
        def kernel(self, X, Y=None):
            raise AssertionError("a learner read the oracle kernel")

        def _kernel(self, X, Y):
            raise AssertionError("a learner read the oracle kernel")

    return Blind(*args)


@pytest.mark.parametrize(("cls", "args"), [(RandomStump, (4,)), (RandomFourier, (4, 0.5))])
@pytest.mark.parametrize(("loss", "C", "ridge"), [("quadratic", None, 0.0), ("quadratic", None, 0.1),
                                                  ("quadratic", 1.0, 0.0), ("hinge", None, 0.0),
                                                  ("hinge", 1.0, 0.0)])
def test_rks_never_calls_the_oracle(cls, args, loss, C, ridge):
    X, y = _data()
    r = random_kitchen_sinks(X, y, _blinded(cls, *args), K=10, seed=0, loss=loss, C=C, ridge=ridge)
    r.predict(X)
    r.decision_function(X)


def test_kitchen_sinks_module_never_names_a_kernel_method():
    source = pathlib.Path(iln.__file__).parent / "rks" / "kitchen_sinks.py"
    touched = {n.attr for n in ast.walk(ast.parse(source.read_text())) if isinstance(n, ast.Attribute)}
    assert not touched & {"kernel", "_kernel", "quadrature_kernel", "has_kernel", "oracle"}


# -- bad input --------------------------------------------------------------------------
class _Unbounded(FeatureFamily):
    def sample(self, n, rng):
        return np.zeros((n, 1))

    def _psi_rows(self, X, W):
        return np.full(X.shape[0], 2.0)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"K": 0}, ValueError, "K"),
    ({"K": 2.5}, TypeError, "K"),
    ({"K": True}, TypeError, "K"),
    ({"seed": -1}, ValueError, "seed"),
    ({"seed": None}, TypeError, "seed"),
    ({"loss": "l1"}, ValueError, "loss"),
    ({"C": 0.0}, ValueError, "C"),
    ({"C": np.inf}, ValueError, "C"),
    ({"C": "big"}, TypeError, "C"),
    ({"ridge": -0.1}, ValueError, "ridge"),
    ({"ridge": 0.1, "loss": "hinge"}, ValueError, "ridge"),
    ({"ridge": (0.1, 1.0), "loss": "hinge"}, ValueError, "ridge"),
    ({"ridge": ()}, ValueError, "ridge"),
    ({"ridge": (0.1, -1.0)}, ValueError, "ridge"),
    ({"y": np.ones((60, 0))}, ValueError, "y"),
    ({"y": np.column_stack([np.ones(60), np.full(60, 2.0)])}, ValueError, "y"),
    ({"svm_C": 0.0}, ValueError, "svm_C"),
    ({"svm_max_iter": 0}, ValueError, "svm_max_iter"),
    ({"svm_tol": -1.0}, ValueError, "svm_tol"),
    ({"y": np.ones(59)}, ValueError, "y"),
    ({"y": np.full(60, 1.5)}, ValueError, "y"),
    ({"y": np.full(60, np.nan)}, ValueError, "y"),
    ({"y": np.full(60, 0.5), "loss": "hinge"}, ValueError, "y"),
    ({"y": np.ones(60), "loss": "hinge"}, ValueError, "y"),
    ({"y": np.array(["a"] * 60)}, TypeError, "y"),
    ({"X": np.full((60, 4), np.nan)}, ValueError, "X"),
    ({"X": np.ones((60, 3))}, ValueError, "X"),
    ({"X": np.ones((0, 4)), "y": np.ones(0)}, ValueError, "X"),
    ({"family": "stumps"}, TypeError, "family"),
    ({"family": _Unbounded(4)}, ValueError, "family"),
])
def test_bad_input_names_the_argument(kwargs, error, match):
    X, y = _data()
    call = {"X": X, "y": y, "family": RandomStump(4), "K": 5, "seed": 0}
    call.update(kwargs)
    with pytest.raises(error, match=match):
        random_kitchen_sinks(call.pop("X"), call.pop("y"), call.pop("family"), **call)


# -- AdaBoost ---------------------------------------------------------------------------
def test_adaboost_reaches_zero_training_error_on_a_separable_set():
    # Label = AND of two half-planes: no single stump separates it, a few boosted ones do.
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (200, 2))
    y = np.where((X[:, 0] > 0.1) & (X[:, 1] > -0.2), 1.0, -1.0)
    r = adaboost_stumps(X, y, n_estimators=200, seed=0)
    np.testing.assert_array_equal(r.predict(X), y)
    assert r.n_stumps > 1
    assert np.all(np.sign(r.decision_function(X)) == y)
    assert r.train_seconds >= 0


def test_adaboost_same_seed_same_numbers():
    X, y = _data(m=80)
    a, b = (adaboost_stumps(X, y, n_estimators=20, seed=3) for _ in range(2))
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"n_estimators": 0}, ValueError, "n_estimators"),
    ({"n_estimators": 2.0}, TypeError, "n_estimators"),
    ({"seed": None}, TypeError, "seed"),
    ({"y": np.zeros(60)}, ValueError, "y"),
    ({"y": np.ones(60)}, ValueError, "y"),
    ({"y": np.ones(10)}, ValueError, "y"),
    ({"X": np.ones(60)}, ValueError, "X"),
    ({"X": np.full((60, 4), np.inf)}, ValueError, "X"),
])
def test_adaboost_bad_input_names_the_argument(kwargs, error, match):
    X, y = _data()
    call = {"X": X, "y": y, "n_estimators": 5, "seed": 0}
    call.update(kwargs)
    with pytest.raises(error, match=match):
        adaboost_stumps(call.pop("X"), call.pop("y"), **call)


def test_adaboost_predict_checks_its_input():
    X, y = _data()
    r = adaboost_stumps(X, y, n_estimators=5, seed=0)
    with pytest.raises(ValueError, match="X"):
        r.predict(X[:, :3])
