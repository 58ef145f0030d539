"""Random Kitchen Sinks and the AdaBoost competitor of its Figure 1.

Rahimi & Recht, *Weighted Sums of Random Kitchen Sinks*, Algorithm 1:

1. draw ``w_1, ..., w_K`` iid from ``p`` (here a :class:`~iln.features.FeatureFamily`'s
   sampler; the learner never reads the family's oracle kernel, docs, Design, principle 1);
2. featurize ``z_i = [phi(x_i; w_1), ..., phi(x_i; w_K)]``;
3. with ``w`` fixed, minimise the empirical risk (RKS eq. 1, 3)
   ``(1/m) sum_i c(alpha . z_i, y_i)`` over ``alpha in R^K``, optionally subject to
   ``||alpha||_inf <= C / K`` (RKS eq. 4).

Scaling conventions (RKS Algorithm 1 and eq. 8).  The model is
``f(x) = sum_k alpha_k phi(x; w_k)`` with *no* ``1/K`` factor on the features: the
``1/K`` sits in the constraint, ``|alpha_k| <= C/K``.  In the proof of RKS Lemma 1 the
coefficients are ``alpha_k = beta_k / K`` with ``beta_k = alpha(w_k) / p(w_k)``, so
``K ||alpha||_inf`` is the importance ratio ``C`` of RKS eq. (6) and
``K ||alpha||_2^2 = (1/K) sum_k beta_k^2`` is the Monte-Carlo estimate of the squared
norm ``int alpha(w)^2 / p(w) dw``; this is why the optional ridge penalty below is
``ridge * K * ||alpha||^2`` (its limit in K is kernel ridge regression with a fixed
regulariser).  The project's families keep ``|psi| < 1`` (RKS asks ``|phi| <= 1``):
:class:`~iln.features.RandomStump` is ``0.999 * sign(x_d - t)`` rather than RKS's
``sign(x_d - t)`` (Section 4), so its ``alpha`` is the paper's divided by 0.999;
:class:`~iln.features.RandomFourier` is ``cos(w.x + b)`` without the ``sqrt(2)`` of
Rahimi & Recht 2007, so its kernel is half the Gaussian kernel.

Solvers.

* ``loss="quadratic"``, ``C=None`` (the default, as RKS Section 4 does in practice: "we
  let C be large enough that the constraint (4) remains inactive"): least squares,
  ``numpy.linalg.lstsq`` (minimum-norm solution when ``Z`` is rank deficient), or with
  ``ridge > 0`` the ridge solution via the SVD of ``Z``.  Given a grid of ridges, the same
  SVD gives each one's generalised cross-validation error ``GCV = m ||y - H y||^2 /
  (m - tr H)^2`` (Golub, Heath & Wahba 1979; ``H`` maps y to the fitted values), an
  estimate of the leave-one-out error, and the fit takes the ridge that minimises it.
* ``loss="quadratic"``, ``C`` given: box-constrained least squares, solved exactly by
  the bounded-variable least-squares active-set method (``scipy.optimize.lsq_linear``,
  ``method="bvls"``), then clipped into the box so that ``||alpha||_inf <= C/K`` holds
  exactly rather than up to the solver's tolerance.
* ``loss="hinge"``, ``C`` given: the linear program
  ``min (1/m) sum_i xi_i`` s.t. ``xi_i >= 1 - y_i alpha . z_i``, ``xi >= 0``,
  ``|alpha_k| <= C/K`` (``scipy.optimize.linprog``, HiGHS), alpha clipped as above.
* ``loss="hinge"``, ``C=None``: RKS says the hinge case "amounts [to] fitting a *linear*
  SVM".  Without the box the hinge risk is still bounded below (by 0) but on data that
  the features separate its minimisers form an unbounded set (any multiple of a
  separating ``alpha`` attains risk 0) and a vertex an LP solver returns is arbitrary.
  The practical version is therefore the L2-regularised linear SVM
  ``min_alpha 1/2 ||alpha||^2 + svm_C sum_i max(0, 1 - y_i alpha . z_i)``
  (``sklearn.svm.LinearSVC``, hinge loss, no intercept since RKS's model has none), i.e.
  eq. (3) plus ``lambda ||alpha||^2`` with ``lambda = 1 / (2 m svm_C)``.

Several label vectors (``y`` of shape ``(m, L)``, e.g. one-vs-rest classes) are L problems
(3)-(4) on the same draws ``w_1, ..., w_K``: each column's ``alpha`` is the one a fit of that
column alone with the same seed returns, and the quadratic loss solves them all with one SVD
(and, with a grid, one ridge: the smallest GCV error summed over the columns).

The budget (:mod:`iln.budget`) of a fit is ``K`` parameters sampled and ``K * m``
evaluations of ``psi`` (every feature on every training point).
"""

from __future__ import annotations

import inspect
import math
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize, sparse

from iln import arguments, random_streams
from iln.budget import Budget
from iln.features import FeatureFamily, check_family

__all__ = [
    "LOSSES",
    "RIDGE_GRID",
    "AdaBoostResult",
    "KitchenSinksResult",
    "SolverConvergenceError",
    "adaboost_stumps",
    "minimize_weighted_risk",
    "random_kitchen_sinks",
]

#: losses of RKS Section 1 that Algorithm 1 is run with in RKS Section 4.
LOSSES = ("quadratic", "hinge")
#: a grid of ridges, 1e-8 to 100 in steps of sqrt(10), for a choice by generalised
#: cross-validation (``ridge=RIDGE_GRID``).
RIDGE_GRID = tuple(10.0 ** np.arange(-8.0, 2.5, 0.5))

# The bounded-variable least-squares solver stops when the first-order optimality
# measure falls below this; far below any statistical effect, far above round-off.
_BVLS_TOL = 1e-13
# HiGHS's default feasibility tolerances are 1e-7; tighter ones make the LP's vertex
# satisfy its KKT conditions to near round-off (the tests check them).
_HIGHS_TOL = 1e-10
# The largest box |alpha_k| <= bound a hinge-loss LP hands to HiGHS.  HiGHS treats bounds
# from 1e20 on as infinite and on these LPs already fails (status 15, "model status unknown")
# for bounds between about 1e17 and 1e20; 1e15 keeps a margin and is far beyond any useful
# box, since features and labels are at most 1 in absolute value.
_LP_MAX_BOUND = 1e15


def _check_lp_box(box: float, name: str) -> None:
    """Refuse, naming ``name``, a box the LP solver cannot take (see ``_LP_MAX_BOUND``)."""
    if box > _LP_MAX_BOUND:
        raise ValueError(f"{name} must be at most 1e15 for the hinge loss (the box |alpha_k| <= "
                         f"{name} goes to the LP solver HiGHS, which fails on bounds near its "
                         f"infinity, 1e20), got {box:.3g}")


class SolverConvergenceError(RuntimeError):
    """A numerical solver stopped before reaching its tolerance."""


@dataclass(frozen=True)
class KitchenSinksResult:
    """The function ``f(x) = sum_k alpha_k phi(x; w_k)`` that RKS Algorithm 1 returns.

    Attributes
    ----------
    W : ndarray of shape (K, p)
        The sampled feature parameters ``w_1, ..., w_K`` (the family's layout).
    alpha : ndarray of shape (K,) or (K, L)
        The fitted weights, a column per label vector when ``y`` had L columns.
    loss : {"quadratic", "hinge"}
        The loss ``c`` of RKS eq. (1) and (3).
    constrained : bool
        Whether ``||alpha||_inf <= C/K`` (RKS eq. 4) was imposed.
    budget : Budget
        ``K`` parameters sampled and ``K * m`` evaluations of ``psi`` in training.
    train_seconds : float
        Wall-clock time of sampling, featurizing and solving (RKS Figure 1, column 2).
    train_risk : float
        Empirical risk (RKS eq. 1/3) of ``alpha`` on the training data, without any
        regulariser: mean squared error or mean hinge loss (over the columns too).
    family : FeatureFamily
        The family the features came from.
    K : int
        Number of random features.
    C : float or None
        The constraint's scalar, ``None`` when unconstrained.
    ridge : float
        The ridge coefficient of the quadratic loss (0 when unused; the grid's choice when
        a grid was given).
    svm_C : float or None
        The linear SVM's ``C`` when the unconstrained hinge path was used.
    seed : numpy.random.SeedSequence
        The seed of the run.
    """

    W: np.ndarray
    alpha: np.ndarray
    loss: str
    constrained: bool
    budget: Budget
    train_seconds: float
    train_risk: float
    family: FeatureFamily = field(repr=False)
    K: int
    C: float | None
    ridge: float
    svm_C: float | None
    seed: np.random.SeedSequence

    @property
    def alpha_inf_norm(self) -> float:
        """``||alpha||_inf``, the quantity of RKS Figure 2."""
        return float(np.max(np.abs(self.alpha)))

    def decision_function(self, X) -> np.ndarray:
        """``f(x) = sum_k alpha_k phi(x; w_k)`` at each row of ``X`` (RKS Algorithm 1, output).

        Parameters
        ----------
        X : array of shape (n, D)
            Points in the family's domain.

        Returns
        -------
        ndarray of shape (n,), or (n, L) for L label vectors
        """
        X = self.family.check_inputs(X, "X")
        return self.family.psi(X, self.W) @ self.alpha

    def predict(self, X) -> np.ndarray:
        """``sign(f(x))`` in {-1, +1} for the hinge loss (0 maps to +1), ``f(x)`` for the quadratic.

        Same parameter and shape of the result as :meth:`decision_function`.
        """
        f = self.decision_function(X)
        if self.loss == "hinge":
            return np.where(f >= 0.0, 1.0, -1.0)
        return f


def _check_labels(y, m: int, loss: str) -> np.ndarray:
    # RKS Section 1 takes y in {-1, +1}; the quadratic loss also fits labels in [-1, 1].
    if np.ndim(y) == 2:
        columns = np.asarray(y)
        if columns.shape[1] < 1:
            raise ValueError(f"y must have at least one column (one label vector), got shape {columns.shape}")
        return np.column_stack([_check_labels(columns[:, j], m, loss) for j in range(columns.shape[1])])
    if loss == "hinge":
        return arguments.sign_labels(y, "y", m, why=" for the hinge loss (RKS Section 1)")
    return arguments.labels(y, "y", m)


def _check_ridge(ridge):
    """A ridge ``>= 0``, or a non-empty grid of them (a tuple) to choose from."""
    if isinstance(ridge, tuple | list | np.ndarray):
        grid = tuple(arguments.nonnegative_real(r, "ridge") for r in np.asarray(ridge, dtype=object).ravel())
        if not grid:
            raise ValueError("ridge must be a number >= 0 or a non-empty grid of them, got an empty grid")
        return grid
    return arguments.nonnegative_real(ridge, "ridge")


def _validate(X, y, family, K, seed, loss, C, ridge, svm_C, svm_max_iter, svm_tol):
    family = check_family(family)
    X = family.check_inputs(X, "X")
    if X.shape[0] < 1:
        raise ValueError("X must hold at least one point (m >= 1)")
    loss = arguments.choice(loss, "loss", LOSSES)
    y = _check_labels(y, X.shape[0], loss)
    K = arguments.length(K, "K", 1)
    seed = random_streams.as_seed_sequence(seed)
    C = None if C is None else arguments.positive_real(C, "C")
    if C is not None and loss == "hinge":
        _check_lp_box(C / K, "C/K")
    ridge = _check_ridge(ridge)
    if (isinstance(ridge, tuple) or ridge > 0) and loss != "quadratic":
        raise ValueError("ridge applies to the quadratic loss only; the hinge loss uses svm_C or C")
    svm_C = arguments.positive_real(svm_C, "svm_C")
    svm_max_iter = arguments.integer(svm_max_iter, "svm_max_iter", 1)
    svm_tol = arguments.positive_real(svm_tol, "svm_tol")
    if loss == "hinge" and C is None and any(np.unique(col).size < 2 for col in y.reshape(y.shape[0], -1).T):
        raise ValueError("y must contain both labels -1 and +1 (in every column) to fit the linear SVM (C=None)")
    return X, y, K, seed, C, ridge, svm_C, svm_max_iter, svm_tol


def _featurize(family: FeatureFamily, X: np.ndarray, W: np.ndarray) -> np.ndarray:
    Z = np.asarray(family.psi(X, W), dtype=np.float64)
    # RKS Algorithm 1 requires a bounded feature, |phi| <= 1; the bounds of its
    # Theorem 1 mean nothing for a family that breaks it, so refuse rather than fit.
    if not np.all(np.isfinite(Z)) or (Z.size and np.max(np.abs(Z)) > 1.0):
        raise ValueError(f"family {family!r} returned a feature value outside [-1, 1] "
                         "(RKS Algorithm 1 requires |phi(x; w)| <= 1)")
    return Z


def _least_squares(Z, y, ridge, K):
    """argmin (1/m)||Z a - y||^2 + ridge K ||a||^2 (minimum norm when ridge = 0), a column of
    ``a`` per column of ``y``; with a grid of ridges, the one :func:`_gcv_ridge` picks.

    Returns ``(a, ridge)``.
    """
    if not isinstance(ridge, tuple) and ridge == 0.0:
        return np.linalg.lstsq(Z, y, rcond=None)[0], ridge
    # The SVD form never squares Z's condition number, and costs m K min(m, K)
    # whichever of m and K is larger.
    m = Z.shape[0]
    U, s, Vt = np.linalg.svd(Z, full_matrices=False)
    coords = U.T @ y
    if isinstance(ridge, tuple):
        ridge = _gcv_ridge(s, coords, float(np.sum(y * y)), m, K, ridge)
    shrink = s / (s**2 + m * K * ridge)
    return Vt.T @ (shrink.reshape(shrink.shape + (1,) * (y.ndim - 1)) * coords), ridge


def _gcv_ridge(s, coords, y_squared, m, K, grid) -> float:
    """The ridge of ``grid`` with the smallest generalised cross-validation error.

    For ``(1/m)||Z a - y||^2 + ridge K ||a||^2`` the fitted values are ``H y`` with
    ``H = U diag(s^2 / (s^2 + m K ridge)) U^T`` (SVD ``Z = U S V^T``), and
    ``GCV = m ||y - H y||^2 / (m - tr H)^2`` (Golub, Heath & Wahba 1979), an estimate of the
    leave-one-out error from one SVD, summed over the columns of y (one ridge for all).  It
    regularises heavily exactly when ``K`` approaches ``m`` and least squares would
    interpolate the noise.  ``coords = U^T y`` and ``y_squared = ||y||^2``.  The smallest
    ridge wins a tie.
    """
    outside = max(y_squared - float(np.sum(coords * coords)), 0.0)  # the part of y no alpha fits
    best, best_score = grid[0], math.inf
    for ridge in grid:
        shrink = s**2 / (s**2 + m * K * ridge)
        rest = (1.0 - shrink).reshape(shrink.shape + (1,) * (coords.ndim - 1)) * coords
        dof = m - float(shrink.sum())
        score = m * (outside + float(np.sum(rest * rest))) / dof**2 if dof > 0 else math.inf
        if score < best_score or (score == best_score and ridge < best):
            best, best_score = ridge, score
    return float(best)


def _bvls_max_iter(K: int) -> int:
    """Iterations allowed to BVLS.  SciPy's default is the number of variables, K, but an
    active set can need more (orthogonal atoms, C = 0.3, K = 4, m = 10: five), and stopping
    early raises :class:`SolverConvergenceError`; more iterations change nothing once it
    has converged."""
    return max(100, 50 * K)


def _box_least_squares(Z, y, ridge, K, bound):
    """argmin (1/m)||Z a - y||^2 + ridge K ||a||^2 subject to |a_k| <= bound."""
    m = Z.shape[0]
    A, b = Z, y
    if ridge > 0:
        # (1/m)||Z a - y||^2 + ridge K ||a||^2 = (1/m) ||[Z; sqrt(m K ridge) I] a - [y; 0]||^2.
        A = np.vstack([Z, math.sqrt(m * K * ridge) * np.eye(K)])
        b = np.concatenate([y, np.zeros(K)])
    res = optimize.lsq_linear(A, b, bounds=(-bound, bound), method="bvls", tol=_BVLS_TOL,
                              max_iter=_bvls_max_iter(K))
    if res.status < 1:
        raise SolverConvergenceError(f"bounded least squares did not converge: {res.message}")
    return np.clip(res.x, -bound, bound)


def _hinge_lp(Z, y, bound):
    """argmin (1/m) sum_i max(0, 1 - y_i a . z_i) subject to |a_k| <= bound, as an LP: the
    weighted LP with every weight ``1/m``."""
    m = Z.shape[0]
    return _weighted_hinge_lp(Z, y, np.full(m, 1.0 / m), bound)


def _weighted_hinge_lp(Z, y, weights, bound):
    """argmin sum_i weights_i max(0, 1 - y_i a . z_i) subject to |a_k| <= bound, as an LP."""
    m, K = Z.shape
    # Variables [a (K), xi (m)]; xi_i >= 1 - y_i a . z_i  <=>  -y_i z_i . a - xi_i <= -1.
    A_ub = sparse.hstack([sparse.csr_matrix(-(y[:, None] * Z)), -sparse.identity(m, format="csr")],
                         format="csr")
    c = np.concatenate([np.zeros(K), weights])
    bounds = [(-bound, bound)] * K + [(0.0, None)] * m
    res = optimize.linprog(c, A_ub=A_ub, b_ub=-np.ones(m), bounds=bounds, method="highs",
                           options={"primal_feasibility_tolerance": _HIGHS_TOL,
                                    "dual_feasibility_tolerance": _HIGHS_TOL})
    if res.status != 0:
        raise SolverConvergenceError(f"the hinge-loss linear program failed: {res.message}")
    return np.clip(res.x[:K], -bound, bound)


def minimize_weighted_risk(Z, y, weights, *, loss: str, bound: float) -> np.ndarray:
    """Solve RKS eq. (3)-(4) for given features, with a weight per example.

    ``argmin_alpha sum_i weights_i c(alpha . z_i, y_i)`` subject to ``|alpha_k| <= bound``:
    with uniform weights ``1/m`` and ``bound = C/K`` it is Algorithm 1's problem on the
    features ``Z``; with the probabilities of a finite distribution as weights it is the
    minimum of the *true* risk (RKS eq. 5) over the class (used by :mod:`iln.rks.function_class`
    to compute the risk minimisers over ``F_w`` and ``F_p`` exactly).

    Parameters
    ----------
    Z : array of shape (m, K)
        Feature values.
    y : array of shape (m,)
        Targets: any finite reals for the quadratic loss (``(f - y)^2``), labels in
        {-1, +1} for the hinge loss.
    weights : array of shape (m,)
        Non-negative, finite, not all zero.
    loss : {"quadratic", "hinge"}
    bound : float
        The box ``|alpha_k| <= bound``, ``> 0``; at most ``1e15`` for the hinge loss (the
        LP solver fails on boxes near its infinity, 1e20).

    Returns
    -------
    ndarray of shape (K,)

    Examples
    --------
    >>> Z = np.array([[1.0], [1.0]])
    >>> minimize_weighted_risk(Z, np.array([1.0, 0.0]), np.array([0.75, 0.25]),
    ...                        loss="quadratic", bound=2.0).round(12).tolist()
    [0.75]
    """
    Z = arguments.real_matrix(Z, "Z")
    m, K = Z.shape
    y = np.asarray(y, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if y.shape != (m,) or not np.all(np.isfinite(y)):
        raise ValueError(f"y must be finite with shape ({m},), got {y.shape}")
    if w.shape != (m,) or not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w > 0):
        raise ValueError(f"weights must be finite, non-negative, not all 0, with shape ({m},)")
    loss = arguments.choice(loss, "loss", LOSSES)
    bound = arguments.positive_real(bound, "bound")
    if loss == "quadratic":
        root = np.sqrt(w)
        # With more features than examples (K > m) the problem is rank deficient and the
        # active-set method may need more than its default K iterations to settle.
        res = optimize.lsq_linear(root[:, None] * Z, root * y, bounds=(-bound, bound), method="bvls",
                                  tol=_BVLS_TOL, max_iter=_bvls_max_iter(K))
        if res.status < 1:
            raise SolverConvergenceError(f"bounded least squares did not converge: {res.message}")
        return np.clip(res.x, -bound, bound)
    if not np.all(np.abs(y) == 1.0):
        raise ValueError("y must hold labels in {-1, +1} for the hinge loss")
    _check_lp_box(bound, "bound")
    return _weighted_hinge_lp(Z, y, w, bound)


def _liblinear_seed(seed: np.random.SeedSequence) -> int:
    return int(random_streams.child(seed, 1).generate_state(1, np.uint32)[0])


def _linear_svm(Z, y, svm_C, seed, max_iter, tol):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC

    svm = LinearSVC(penalty="l2", loss="hinge", dual=True, C=svm_C, fit_intercept=False,
                    tol=tol, max_iter=max_iter, random_state=_liblinear_seed(seed))
    # A silently unconverged SVM would put an unknown optimisation error into every
    # comparison built on it; make it an error that says what to change.
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        try:
            svm.fit(Z, y)
        except ConvergenceWarning as exc:
            raise SolverConvergenceError(
                f"the linear SVM (liblinear) did not converge in svm_max_iter={max_iter} "
                f"iterations at svm_tol={tol}; raise svm_max_iter or svm_tol, or lower svm_C"
            ) from exc
    # classes_ is sorted, so coef_ scores the class +1.
    return np.asarray(svm.coef_[0], dtype=np.float64).copy()


def _per_column(solve, Z, y, *args):
    """``solve(Z, y, *args)`` for a label vector, or for each column of a matrix of them."""
    if y.ndim == 1:
        return solve(Z, y, *args)
    return np.column_stack([solve(Z, y[:, j], *args) for j in range(y.shape[1])])


def _risk(Z, y, alpha, loss) -> float:
    f = Z @ alpha
    if loss == "quadratic":
        return float(np.mean((f - y) ** 2))
    return float(np.mean(np.maximum(0.0, 1.0 - y * f)))


def random_kitchen_sinks(X, y, family, *, K, seed, loss: str = "quadratic", C=None,
                         ridge: float | tuple[float, ...] = 0.0, svm_C: float = 1.0,
                         svm_max_iter: int = 1_000_000,
                         svm_tol: float = 1e-4) -> KitchenSinksResult:
    """Fit a weighted sum of random kitchen sinks (RKS Algorithm 1).

    Parameters
    ----------
    X : array of shape (m, D)
        Training inputs in the family's domain (RKS Section 4 zero-means and scales
        each coordinate to unit variance first: see :func:`iln.rks.datasets.standardize`).
    y : array of shape (m,) or (m, L)
        Labels: in {-1, +1} for the hinge loss, in [-1, 1] for the quadratic loss; L columns
        are L problems on the same features (module docstring).
    family : FeatureFamily
        The distribution ``p(w)`` and feature ``phi(x; w)``; only sampled and evaluated.
    K : int
        Number of random features, ``K >= 1``.
    seed : int or numpy.random.SeedSequence
        Child 0 draws the features; child 1 seeds liblinear's coordinate order.
    loss : {"quadratic", "hinge"}, default="quadratic"
        The loss ``c`` of RKS eq. (1): ``(f - y)^2`` or ``max(0, 1 - y f)``.
    C : float, optional
        When given, impose ``||alpha||_inf <= C/K`` (RKS eq. 4) and solve exactly
        (bounded-variable least squares, or a linear program for the hinge loss, which
        takes ``C/K <= 1e15``: the solver fails on boxes near its infinity, 1e20).
        Default ``None``: unconstrained, as RKS Section 4 runs it in practice.
    ridge : float or tuple of float, default=0.0
        Quadratic loss only: add ``ridge * K * ||alpha||^2`` to (1/m) times the squared
        error (module docstring: the ``K`` makes the limit in ``K`` kernel ridge
        regression with regulariser ``ridge``).  Not in RKS, which uses none.  A tuple
        (e.g. :data:`RIDGE_GRID`): the value with the smallest generalised cross-validation
        error of the fit without the box (module docstring), recorded as the result's
        ``ridge``.
    svm_C : float, default=1.0
        Hinge loss with ``C=None`` only: the linear SVM's ``C`` in
        ``1/2 ||alpha||^2 + svm_C sum_i hinge_i``.  Ignored otherwise.
    svm_max_iter : int, default=1000000
        Iteration cap of liblinear; a fit that reaches it raises
        :class:`SolverConvergenceError`.
    svm_tol : float, default=1e-4
        liblinear's stopping tolerance.

    Returns
    -------
    KitchenSinksResult

    Raises
    ------
    SolverConvergenceError
        When a solver stops before its tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> from iln.features import RandomStump
    >>> X = np.array([[-1.0], [-0.5], [0.5], [1.0]])
    >>> y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> fit = random_kitchen_sinks(X, y, RandomStump(1), K=50, seed=0, loss="hinge", C=50.0)
    >>> fit.predict(X).tolist()
    [-1.0, -1.0, 1.0, 1.0]
    >>> bool(fit.alpha_inf_norm <= 50.0 / 50)
    True
    """
    X, y, K, seed, C, ridge, svm_C, svm_max_iter, svm_tol = _validate(
        X, y, family, K, seed, loss, C, ridge, svm_C, svm_max_iter, svm_tol)
    start = time.perf_counter()
    W = np.asarray(family.sample(K, random_streams.generator(random_streams.child(seed, 0))),
                   dtype=np.float64)
    Z = _featurize(family, X, W)
    # The ridge used: the grid's choice for the fit without the box (_least_squares), else as given.
    chosen = 0.0 if isinstance(ridge, tuple) else ridge
    if loss == "quadratic" and C is None:
        alpha, chosen = _least_squares(Z, y, ridge, K)
    elif loss == "quadratic":
        chosen = _least_squares(Z, y, ridge, K)[1] if isinstance(ridge, tuple) else chosen
        alpha = _per_column(_box_least_squares, Z, y, chosen, K, C / K)
    elif C is None:
        alpha = _per_column(_linear_svm, Z, y, svm_C, seed, svm_max_iter, svm_tol)
    else:
        alpha = _per_column(_hinge_lp, Z, y, C / K)
    seconds = time.perf_counter() - start
    return KitchenSinksResult(
        W=W, alpha=alpha, loss=loss, constrained=C is not None,
        budget=Budget(features_sampled=K, psi_evaluations=K * X.shape[0]),
        train_seconds=seconds, train_risk=_risk(Z, y, alpha, loss), family=family, K=K, C=C,
        ridge=chosen, svm_C=svm_C if (loss == "hinge" and C is None) else None, seed=seed,
    )


# ---------------------------------------------------------------------------------------
# AdaBoost with decision stumps: RKS's competitor (Section 4, Figure 1).
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AdaBoostResult:
    """A fitted AdaBoost ensemble of decision stumps (RKS Section 4, Figure 1).

    Attributes
    ----------
    model : sklearn.ensemble.AdaBoostClassifier
        The fitted ensemble.
    n_estimators : int
        Rounds asked for; :attr:`n_stumps` is the number fitted (AdaBoost stops early
        when a stump fits the weighted sample perfectly).
    train_seconds : float
        Wall-clock training time.
    seed : numpy.random.SeedSequence
    """

    model: Any = field(repr=False)  # scikit-learn's AdaBoost, fitted (scikit-learn has no types)
    n_estimators: int
    train_seconds: float
    seed: np.random.SeedSequence

    @property
    def n_stumps(self) -> int:
        """Stumps in the fitted ensemble."""
        return len(self.model.estimators_)

    def _inputs(self, X) -> np.ndarray:
        return arguments.real_matrix(X, "X", self.model.n_features_in_)

    def decision_function(self, X) -> np.ndarray:
        """The ensemble's weighted vote; positive means class +1.

        Same parameter and shape of the result as :meth:`KitchenSinksResult.decision_function`.
        """
        return np.asarray(self.model.decision_function(self._inputs(X)), dtype=np.float64)

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1}; same parameter and shape of the result as :meth:`decision_function`."""
        return np.asarray(self.model.predict(self._inputs(X)), dtype=np.float64)


def _adaboost_algorithm_kwargs(cls) -> dict:
    # scikit-learn 1.4-1.5 take algorithm="SAMME" (SAMME.R is deprecated there); 1.6-1.7
    # deprecate the parameter itself (default "deprecated", SAMME is used); 1.8+ removed it.
    param = inspect.signature(cls).parameters.get("algorithm")
    if param is None or param.default == "deprecated":
        return {}
    return {"algorithm": "SAMME"}


def adaboost_stumps(X, y, *, n_estimators, seed) -> AdaBoostResult:
    """AdaBoost (discrete, SAMME) over depth-1 decision trees, RKS's competitor in Figure 1.

    Parameters
    ----------
    X : array of shape (m, D)
        Training inputs (finite).
    y : array of shape (m,)
        Labels in {-1, +1}, both present.
    n_estimators : int
        Boosting rounds (the ``K`` of RKS Figure 1 for AdaBoost), ``>= 1``.
    seed : int or numpy.random.SeedSequence
        Seeds the stumps' tie-breaking between equally good splits.

    Returns
    -------
    AdaBoostResult
    """
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    X = arguments.real_matrix(X, "X")
    if X.shape[0] < 2:
        raise ValueError("X must hold at least two points")
    y_arr = arguments.sign_labels(y, "y", X.shape[0], both=True)
    n_estimators = arguments.integer(n_estimators, "n_estimators", 1)
    seed = random_streams.as_seed_sequence(seed)
    model = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1),
                               n_estimators=n_estimators,
                               random_state=int(seed.generate_state(1, np.uint32)[0]),
                               **_adaboost_algorithm_kwargs(AdaBoostClassifier))
    start = time.perf_counter()
    model.fit(X, y_arr)
    seconds = time.perf_counter() - start
    return AdaBoostResult(model=model, n_estimators=n_estimators, train_seconds=seconds, seed=seed)
