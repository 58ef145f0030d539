"""The function class F_p of Random Kitchen Sinks, with members whose values are exact.

Rahimi & Recht, *Weighted Sums of Random Kitchen Sinks*, eq. (6):
``F_p = {f(x) = int alpha(w) phi(x; w) dw : |alpha(w)| <= C p(w)}``.  Writing
``beta(w) = alpha(w) / p(w)`` (the importance ratio, ``|beta| <= C``), a member is
``f(x) = E_{w ~ p}[beta(w) phi(x; w)]`` and Algorithm 1's random class is eq. (8),
``F_w = {sum_k alpha_k phi(x; w_k) : |alpha_k| <= C / K}``.

This module builds members of F_p whose values are known exactly, so that the bounds of
RKS can be checked at their printed constants:

* :class:`AtomFeatures`: a finite parameter law ``p`` on N atoms and a feature table
  ``phi(x_i; w_j)`` on n support points.  Everything is a finite sum: a member's values,
  the risk of any function under a distribution on the support, and the minimum of the
  risk over all of F_p (a box-constrained convex problem in ``beta``).  Unlike the families
  of :mod:`iln.features` it allows ``|phi| = 1``, which RKS permits (``|phi| <= 1``) and which
  is the worst case of its bounds.
* :class:`KernelMember`: ``beta(w) = C sum_j c_j phi(x_j; w)`` with ``sum_j |c_j| <= 1`` for a
  family with an oracle kernel, whose values ``C sum_j c_j k(x_j, x)`` come from the oracle.
* :class:`LabelledSupport`: a distribution P on finitely many points with ``E[y | x_i]`` given,
  labels in {-1, +1} (RKS Section 1), and the exact risk (RKS eq. 5) of the quadratic and
  hinge losses.

It also holds RKS's bounds as small functions (eq. 9, 10, 13, 16, 20, 23, 24 and the
explicit constants of the proof of Theorem 1), each citing its equation.

Losses are margin losses ``c(y, y') = c(y y')`` (RKS Theorem 1): the quadratic loss
``(1 - z)^2`` (equal to ``(y - f)^2`` for ``y in {-1, +1}``) and the hinge loss
``max(0, 1 - z)``.  The quadratic loss is not Lipschitz on the real line; every function of
F_p and F_w is bounded by C (Hoelder, RKS proof of Lemma 3), so the margins lie in ``[-C, C]``
and there it is ``2 (1 + C)``-Lipschitz, the constant :func:`lipschitz_constant` returns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from iln import arguments
from iln.features import FeatureFamily, check_features
from iln.rks.kitchen_sinks import minimize_weighted_risk

__all__ = [
    "LOSSES",
    "AtomFeatures",
    "KernelMember",
    "LabelledSupport",
    "approximation_bound",
    "atom_member",
    "estimation_bound",
    "excess_risk_bound",
    "hilbert_concentration_bound",
    "kitchen_sink_witness",
    "lipschitz_constant",
    "loss_at_zero",
    "mcdiarmid_tail",
    "rademacher_bound",
    "rademacher_sign_features",
    "risk_approximation_bound",
    "uniform_deviation_bound",
]

#: the margin losses of RKS Section 1 that its Section 4 runs Algorithm 1 with.
LOSSES = ("quadratic", "hinge")


def _loss_iv(loss) -> str:
    return arguments.choice(loss, "loss", LOSSES)


# ------------------------------------------------------------------------------------------
# Losses
# ------------------------------------------------------------------------------------------
def lipschitz_constant(loss: str, C: float) -> float:
    """Lipschitz constant L of the margin loss on the margins ``[-C, C]`` of F_p and F_w.

    Parameters
    ----------
    loss : {"quadratic", "hinge"}
    C : float
        The class's scalar (RKS eq. 6, 8); functions of the class are bounded by C.

    Returns
    -------
    float
        ``2 (1 + C)`` for ``(1 - z)^2`` (its slope ``2 |1 - z|`` on ``|z| <= C``: the quadratic
        loss is not Lipschitz on R, RKS Theorem 1 needs it only on the range), 1 for the hinge.

    Examples
    --------
    >>> lipschitz_constant("quadratic", 1.0), lipschitz_constant("hinge", 5.0)
    (4.0, 1.0)
    """
    loss, C = _loss_iv(loss), arguments.positive_real(C, "C")
    return 2.0 * (1.0 + C) if loss == "quadratic" else 1.0


def loss_at_zero(loss: str) -> float:
    """``|c(0)|`` of RKS eq. (13) and (24): 1 for both the quadratic and the hinge loss."""
    _loss_iv(loss)
    return 1.0


def margin_loss(z, loss: str) -> np.ndarray:
    """``c(z)`` at margins ``z = y f(x)``: ``(1 - z)^2`` or ``max(0, 1 - z)`` (RKS Section 1)."""
    z = np.asarray(z, dtype=np.float64)
    return (1.0 - z) ** 2 if _loss_iv(loss) == "quadratic" else np.maximum(0.0, 1.0 - z)


# ------------------------------------------------------------------------------------------
# RKS's bounds
# ------------------------------------------------------------------------------------------
def hilbert_concentration_bound(M: float, K: int, delta: float) -> float:
    """``M / sqrt(K) (1 + sqrt(2 log(1/delta)))``: RKS Appendix A, Lemma 4, eq. (16).

    With probability at least ``1 - delta`` the average of K iid vectors in the ball of radius
    M of a Hilbert space lies this close to its mean.

    Examples
    --------
    >>> round(hilbert_concentration_bound(1.0, 4, math.exp(-0.5)), 12)
    1.0
    """
    M = arguments.positive_real(M, "M")
    K = arguments.integer(K, "K", 1)
    delta = arguments.open_unit(delta, "delta")
    return M / math.sqrt(K) * (1.0 + math.sqrt(2.0 * math.log(1.0 / delta)))


def mcdiarmid_tail(M: float, K: int, eps: float) -> float:
    """``exp(-K eps^2 / (2 M^2))``: RKS eq. (20), McDiarmid's bound on
    ``P[||X_bar - E X_bar|| - M / sqrt(K) >= eps]`` (differences ``2M/K``, eq. 17)."""
    M = arguments.positive_real(M, "M")
    K = arguments.integer(K, "K", 1)
    eps = arguments.nonnegative_real(eps, "eps")
    return math.exp(-K * eps**2 / (2.0 * M**2))


def approximation_bound(C: float, K: int, delta: float) -> float:
    """``C / sqrt(K) (1 + sqrt(2 log(1/delta)))``: RKS Lemma 1, eq. (9) (and eps_app / L)."""
    return hilbert_concentration_bound(C, K, delta)


def risk_approximation_bound(L: float, C: float, K: int, delta: float) -> float:
    """``L C / sqrt(K) (1 + sqrt(2 log(1/delta)))``: RKS Lemma 2, eq. (10), the ``eps_app`` of
    the proof of Theorem 1."""
    return arguments.positive_real(L, "L") * approximation_bound(C, K, delta)


def estimation_bound(L: float, C: float, c0: float, m: int, delta: float) -> float:
    """``(4 L C + 2 |c(0)| + L C sqrt(log(1/delta) / 2)) / sqrt(m)``: RKS Lemma 3, eq. (13),
    the ``eps_est`` of the proof of Theorem 1."""
    L, C = arguments.positive_real(L, "L"), arguments.positive_real(C, "C")
    c0 = abs(arguments.finite_real(c0, "c0"))
    m = arguments.integer(m, "m", 1)
    delta = arguments.open_unit(delta, "delta")
    return (4.0 * L * C + 2.0 * c0 + L * C * math.sqrt(0.5 * math.log(1.0 / delta))) / math.sqrt(m)


def excess_risk_bound(L: float, C: float, c0: float, m: int, K: int, delta: float) -> float:
    """``2 eps_est + eps_app``: the explicit form of RKS Theorem 1 (eq. 7) given by its proof,
    holding with probability at least ``1 - 2 delta``."""
    return 2.0 * estimation_bound(L, C, c0, m, delta) + risk_approximation_bound(L, C, K, delta)


def rademacher_bound(C: float, m: int) -> float:
    """``C / sqrt(m)``: RKS Appendix B, eq. (21)-(23), the bound on ``R_m[F_w]``."""
    return arguments.positive_real(C, "C") / math.sqrt(arguments.integer(m, "m", 1))


def uniform_deviation_bound(L: float, C: float, c0: float, m: int, delta: float,
                            rademacher: float) -> float:
    """``4 L R_m + 2 |c(0)| / sqrt(m) + L C sqrt(log(1/delta) / (2 m))``: RKS Theorem 2, eq. (24),
    the bound on ``R[f] - R_emp[f]`` over a class bounded by C."""
    L, C = arguments.positive_real(L, "L"), arguments.positive_real(C, "C")
    c0 = abs(arguments.finite_real(c0, "c0"))
    m = arguments.integer(m, "m", 1)
    delta = arguments.open_unit(delta, "delta")
    rademacher = arguments.nonnegative_real(rademacher, "rademacher")
    return (4.0 * L * rademacher + 2.0 * c0 / math.sqrt(m)
            + L * C * math.sqrt(math.log(1.0 / delta) / (2.0 * m)))


def rademacher_sign_features(C: float, m: int) -> float:
    """Exact ``R_m[F_w]`` when every feature value is +-1: ``C E|S_m| / m``.

    With ``|phi(x_i; w_k)| = 1`` the products ``sigma_i phi(x_i; w_k)`` are iid signs whatever
    the inputs, and the supremum of eq. (21) over the box is attained at
    ``alpha_k = (C/K) sgn(...)``, so ``R_m = (C/K) sum_k E|(1/m) sum_i sigma_i phi_ik| =
    C E|S_m| / m`` with ``S_m`` a sum of m signs.  It is the case where eq. (23) is tightest.

    Examples
    --------
    >>> rademacher_sign_features(1.0, 1), rademacher_sign_features(1.0, 2)
    (1.0, 0.5)
    """
    C = arguments.positive_real(C, "C")
    m = arguments.integer(m, "m", 1)
    k = np.arange(m + 1)
    return float(C * np.sum(np.abs(2 * k - m) * stats.binom.pmf(k, m, 0.5)) / m)


# ------------------------------------------------------------------------------------------
# Features on a finite parameter law
# ------------------------------------------------------------------------------------------
class AtomFeatures(FeatureFamily):
    """A parameter law on N atoms and a feature table on n support points.

    ``phi(x_i; w_j) = table[i, j]`` with ``|table| <= 1`` (RKS allows ``|phi| = 1``), and
    ``p(w_j) = probabilities[j]``.  Inputs are support indices (shape ``(n_points, 1)``),
    parameters atom indices (shape ``(K, 1)``).  The oracle kernel is
    ``k(x_i, x_l) = sum_j p_j table[i, j] table[l, j]``.

    Parameters
    ----------
    table : array of shape (n, N)
    probabilities : array of shape (N,)
        Non-negative, summing to 1.
    """

    oracle = "closed form"

    def __init__(self, table, probabilities):
        table = check_features(table, np.asarray(table).shape[-1], "table")
        if table.size == 0 or np.max(np.abs(table)) > 1.0:
            raise ValueError("table must be non-empty with |phi| <= 1 (RKS Algorithm 1)")
        p = np.asarray(probabilities, dtype=np.float64)
        if p.shape != (table.shape[1],):
            raise ValueError(f"probabilities must have shape ({table.shape[1]},), got {p.shape}")
        if not np.all(np.isfinite(p)) or np.any(p < 0) or not math.isclose(p.sum(), 1.0, abs_tol=1e-12):
            raise ValueError("probabilities must be non-negative and sum to 1 (p is a distribution)")
        super().__init__(1)
        self.table = table
        self.table.setflags(write=False)
        self.probabilities = p / p.sum()
        self.probabilities.setflags(write=False)

    @property
    def n_points(self) -> int:
        """The number n of support points (rows of the table)."""
        return self.table.shape[0]

    @property
    def n_atoms(self) -> int:
        """The number N of atoms of the parameter law (columns of the table)."""
        return self.table.shape[1]

    def sample(self, n, rng):
        """Draw ``n`` atom indices from ``probabilities``, shape ``(n, 1)``."""
        n = arguments.integer(n, "n", 0)
        return rng.choice(self.n_atoms, size=n, p=self.probabilities).astype(np.float64)[:, None]

    def check_inputs(self, X, name="X"):
        """Validate inputs: support indices in ``0..n_points-1``, shape ``(k, 1)``."""
        X = check_features(X, 1, name)
        if X.size and (np.any(np.round(X) != X) or X.min() < 0 or X.max() >= self.n_points):
            raise ValueError(f"{name} must hold support indices in 0..{self.n_points - 1}")
        return X

    def atoms(self, W) -> np.ndarray:
        """The atom indices that the parameters ``W`` (shape ``(n, 1)``) hold, checked."""
        W = np.asarray(W, dtype=np.float64).reshape(-1)
        if W.size and (np.any(np.round(W) != W) or W.min() < 0 or W.max() >= self.n_atoms):
            raise ValueError(f"W must hold atom indices in 0..{self.n_atoms - 1}")
        return W.astype(np.intp)

    def check_parameters(self, W, name="W"):
        """Validate parameters: atom indices in ``0..n_atoms-1``, shape ``(k, 1)``."""
        W = super().check_parameters(W, name)
        self.atoms(W)
        return W

    def psi_validated(self, X, W):
        """The table's entries of every (support point, atom) pair, without checks."""
        return self.table[np.ix_(X[:, 0].astype(np.intp), W.reshape(-1).astype(np.intp))]

    def _psi_rows(self, X, W):
        return self.table[X[:, 0].astype(np.intp), self.atoms(W)]

    def _kernel(self, X, Y):
        A = self.table[X[:, 0].astype(np.intp)]
        B = self.table[Y[:, 0].astype(np.intp)]
        return (A * self.probabilities) @ B.T

    @property
    def support(self) -> np.ndarray:
        """Every support index, shape ``(n, 1)``: the inputs of :meth:`psi`."""
        return np.arange(self.n_points, dtype=np.float64)[:, None]

    @property
    def support_atoms(self) -> np.ndarray:
        """Every atom index, shape ``(N, 1)``: the parameters of :meth:`psi`."""
        return np.arange(self.n_atoms, dtype=np.float64)[:, None]

    def __repr__(self):
        return f"AtomFeatures(n_points={self.n_points}, n_atoms={self.n_atoms})"


# ------------------------------------------------------------------------------------------
# Members of F_p
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class KernelMember:
    """``f(x) = E_{w ~ p}[beta(w) phi(x; w)]`` with ``beta(w) = C sum_j c_j phi(x_j; w)``.

    ``sum_j |c_j| <= 1`` and ``|phi| <= 1`` give ``|beta| <= C``, so f is in F_p (RKS eq. 6);
    its value is ``C sum_j c_j k(x_j, x)`` through the family's oracle kernel.

    Attributes
    ----------
    family : FeatureFamily
        Needs an oracle kernel (:attr:`FeatureFamily.has_kernel`).
    centers : ndarray of shape (J, D)
    coef : ndarray of shape (J,)
    C : float
    """

    family: FeatureFamily = field(repr=False)
    centers: np.ndarray
    coef: np.ndarray
    C: float

    def __post_init__(self):
        if not isinstance(self.family, FeatureFamily):
            raise TypeError(f"family must be an iln.features.FeatureFamily, got {type(self.family).__name__}")
        if not self.family.has_kernel:
            raise ValueError(f"family {self.family!r} has no oracle kernel: f* would not be exact")
        centers = self.family.check_inputs(self.centers, "centers")
        coef = np.asarray(self.coef, dtype=np.float64)
        if coef.shape != (centers.shape[0],) or not np.all(np.isfinite(coef)):
            raise ValueError(f"coef must be finite with shape ({centers.shape[0]},), got {coef.shape}")
        if np.abs(coef).sum() > 1.0 + 1e-12:
            raise ValueError(f"coef must satisfy sum |c_j| <= 1 (so |beta| <= C), got {np.abs(coef).sum()}")
        object.__setattr__(self, "centers", centers)
        object.__setattr__(self, "coef", coef)
        object.__setattr__(self, "C", arguments.positive_real(self.C, "C"))

    def importance_weights(self, W) -> np.ndarray:
        """``beta(w_k) = alpha(w_k) / p(w_k)`` at each parameter, shape ``(K,)``."""
        return self.C * (self.family.psi(self.centers, W).T @ self.coef)

    def values(self, X) -> np.ndarray:
        """``f(x)`` at each row of X, exact (oracle kernel)."""
        return self.C * (self.family.kernel(X, self.centers) @ self.coef)


@dataclass(frozen=True)
class AtomMember:
    """``f = sum_j p_j beta_j phi(.; w_j)`` for :class:`AtomFeatures`, ``|beta_j| <= C``."""

    family: AtomFeatures = field(repr=False)
    beta: np.ndarray
    C: float

    def __post_init__(self):
        beta = np.asarray(self.beta, dtype=np.float64)
        C = arguments.positive_real(self.C, "C")
        if beta.shape != (self.family.n_atoms,) or not np.all(np.isfinite(beta)):
            raise ValueError(f"beta must be finite with shape ({self.family.n_atoms},), got {beta.shape}")
        if np.max(np.abs(beta)) > C * (1 + 1e-12):
            raise ValueError(f"beta must satisfy |beta_j| <= C = {C} (RKS eq. 6)")
        object.__setattr__(self, "beta", beta)
        object.__setattr__(self, "C", C)

    def importance_weights(self, W) -> np.ndarray:
        return self.beta[self.family.atoms(W)]

    def values(self, X) -> np.ndarray:
        X = self.family.check_inputs(X)
        return self.family.table[X[:, 0].astype(np.intp)] @ (self.family.probabilities * self.beta)


def atom_member(family: AtomFeatures, beta, C: float) -> AtomMember:
    """The member ``sum_j p_j beta_j phi(.; w_j)`` of F_p (RKS eq. 6 with ``alpha_j = p_j beta_j``)."""
    if not isinstance(family, AtomFeatures):
        raise TypeError(f"family must be an AtomFeatures, got {type(family).__name__}")
    return AtomMember(family, beta, C)


def kitchen_sink_witness(member, W) -> np.ndarray:
    """The weights ``alpha_k = beta(w_k) / K`` of the proof of RKS Lemma 1.

    The function ``sum_k alpha_k phi(.; w_k)`` is the sample average of
    ``f_k = beta(w_k) phi(.; w_k)``, whose mean is f*; ``|alpha_k| <= C / K`` puts it in F_w.
    """
    if not isinstance(member, KernelMember | AtomMember):
        raise TypeError(f"member must be a KernelMember or AtomMember, got {type(member).__name__}")
    beta = np.asarray(member.importance_weights(W), dtype=np.float64)
    return beta / beta.size


# ------------------------------------------------------------------------------------------
# A distribution on finitely many points: exact risks
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LabelledSupport:
    """P on ``X x {-1, +1}``: x uniform on n support points, ``E[y | x_i] = label_mean[i]``.

    Attributes
    ----------
    X : ndarray of shape (n, D)
        The support, in the inputs of whatever family is used on it.
    label_mean : ndarray of shape (n,)
        In ``[-1, 1]``; ``P(y = 1 | x_i) = (1 + label_mean[i]) / 2``.
    """

    X: np.ndarray
    label_mean: np.ndarray

    def __post_init__(self):
        X = check_features(self.X, np.asarray(self.X).shape[-1], "X")
        ybar = np.asarray(self.label_mean, dtype=np.float64)
        if ybar.shape != (X.shape[0],) or not np.all(np.abs(ybar) <= 1.0):
            raise ValueError(f"label_mean must have shape ({X.shape[0]},) with values in [-1, 1]")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "label_mean", ybar)

    @property
    def n(self) -> int:
        """The number n of support points."""
        return self.X.shape[0]

    def risk(self, values, loss: str) -> float:
        """The true risk ``R[f] = E c(y f(x))`` (RKS eq. 5) from f's values on the support."""
        f = np.asarray(values, dtype=np.float64)
        if f.shape != (self.n,):
            raise ValueError(f"values must have shape ({self.n},), got {f.shape}")
        up = (1.0 + self.label_mean) / 2.0
        return float(np.mean(up * margin_loss(f, loss) + (1.0 - up) * margin_loss(-f, loss)))

    def draw(self, m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """m iid pairs from P: ``(support indices, X rows, labels)``."""
        m = arguments.integer(m, "m", 1)
        idx = rng.integers(0, self.n, size=m)
        up = (1.0 + self.label_mean[idx]) / 2.0
        y = np.where(rng.random(m) < up, 1.0, -1.0)
        return idx, self.X[idx], y

    def minimize_risk(self, Z, bound: float, loss: str) -> tuple[np.ndarray, float]:
        """``min R[sum_k a_k z_k]`` over ``|a_k| <= bound``, exact; Z holds the features on the
        support (shape ``(n, K)``).  Returns the weights and the risk.

        The quadratic risk is ``mean (f - ybar)^2 + mean (1 - ybar^2)``; the hinge risk weighs
        each point once per label by ``P(y | x) / n``.
        """
        Z = np.asarray(Z, dtype=np.float64)
        if Z.ndim != 2 or Z.shape[0] != self.n:
            raise ValueError(f"Z must have shape ({self.n}, K), got {Z.shape}")
        up = (1.0 + self.label_mean) / 2.0
        if _loss_iv(loss) == "quadratic":
            a = minimize_weighted_risk(Z, self.label_mean, np.full(self.n, 1.0 / self.n),
                                       loss="quadratic", bound=bound)
        else:
            rows = np.concatenate([Z, Z])
            labels = np.concatenate([np.ones(self.n), -np.ones(self.n)])
            weights = np.concatenate([up, 1.0 - up]) / self.n
            keep = weights > 0
            a = minimize_weighted_risk(rows[keep], labels[keep], weights[keep], loss="hinge", bound=bound)
        return a, self.risk(Z @ a, loss)
