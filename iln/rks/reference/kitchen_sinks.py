"""Random Kitchen Sinks (Rahimi & Recht, Algorithm 1), transcribed line by line.

RKS Algorithm 1, "The Weighted Sum of Random Kitchen Sinks fitting procedure", numbered as
this module cites it:

.. code-block:: text

    Input: {x_i, y_i}_{i=1..m}, a bounded feature function |phi(x; w)| <= 1, an integer K,
           a scalar C, and a probability distribution p(w) on the parameters of phi.
    1  Draw w_1, ..., w_K iid from p.
    2  Featurize the input: z_i <- [phi(x_i; w_1), ..., phi(x_i; w_K)]^T.
    3  With w fixed, solve the empirical risk minimization problem
           minimize_{alpha in R^K}  (1/m) sum_{i=1}^m c(alpha^T z_i, y_i)        (eq. 3)
    4      s.t. ||alpha||_inf <= C/K                                           (eq. 4)
    5  Output: f(x) = sum_{k=1}^K phi(x; w_k) alpha_k.

and below the box: "In practice, we let C be large enough that the constraint (4) remains
inactive. [...] when c is the quadratic loss, the minimization (3) is simple linear least
squares, and when c is the hinge loss, it amounts of fitting a *linear* SVM".  ``C=None``
transcribes that practice: line 4 is dropped, and (3) is minimised over all of ``R^K``.

Line 3-4 is solved here by methods other than the shipped ones
(:func:`iln.rks.kitchen_sinks.random_kitchen_sinks`), each exact:

* quadratic loss, no box: the normal equations' minimum-norm solution ``pinv(Z) y``;
* quadratic loss, box: every face of the box is tried.  A face fixes each coordinate at
  ``-C/K``, at ``+C/K`` or leaves it free; the free coordinates get the least-squares fit with
  the others fixed, and the best candidate that lies in the box is the minimum.  It is
  exact: the solutions of (3)-(4) form a polytope whose extreme points have linearly
  independent free columns (a null vector of them would move an extreme point both ways
  inside the set), so at an extreme point the free part is the *unique* least-squares fit of
  its face, which the enumeration finds.  3^K faces: ``K <= 10``;
* quadratic loss with the shipped code's ``ridge`` (not in RKS, which uses none; the shipped
  code documents it as adding ``ridge K ||alpha||^2`` to (3)): without the box, the normal
  equations ``(Z^T Z + m K ridge I) alpha = Z^T y``; with it, the faces again, each face's free
  coordinates solving their normal equations with the same ``m K ridge`` on the diagonal and the
  best candidate chosen by (3) plus the penalty (the penalty is separable, so the fixed
  coordinates add a constant to it, and strictly convex, so the minimiser is unique);
* hinge loss: the linear program ``min (1/m) sum_i xi_i``, ``xi_i >= 0``,
  ``xi_i >= 1 - y_i alpha^T z_i`` (and ``|alpha_k| <= C/K`` with the box), by HiGHS's
  interior-point method with crossover (the shipped code lets HiGHS choose, a simplex
  method).

The minimum of (3) is unique, and for the quadratic loss so are the fitted values
``alpha^T z_i`` (the risk is strictly convex in them); ``alpha`` itself is unique when ``Z``
has full column rank (:attr:`KitchenSinksReference.full_rank`).  The features come from
child 0 of ``seed``, as in the shipped code, so the two share ``w_1, ..., w_K``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from iln import arguments, random_streams
from iln.features import FeatureFamily, check_family

__all__ = ["MAX_FACES_K", "KitchenSinksReference", "empirical_risk", "random_kitchen_sinks_reference"]

#: the largest K whose 3^K faces the box-constrained least squares enumerates (59049 fits).
MAX_FACES_K = 10

_LOSSES = ("quadratic", "hinge")


@dataclass(frozen=True)
class KitchenSinksReference:
    """The run of :func:`random_kitchen_sinks_reference`.

    Attributes
    ----------
    W : ndarray (K, p)
        ``w_1, ..., w_K`` (line 1).
    Z : ndarray (m, K)
        Row i is ``z_i`` (line 2).
    alpha : ndarray (K,)
        A minimiser of (3)-(4) (lines 3-4), plus ``ridge K ||alpha||^2`` when a ridge is given.
    risk : float
        The minimum of (3), ``(1/m) sum_i c(alpha^T z_i, y_i)``.
    full_rank : bool
        Whether ``Z`` has rank ``K`` (then ``alpha`` is the unique minimiser; with a ridge it
        is unique whatever the rank).
    bound : float or None
        ``C/K`` of (4); ``None`` when the box is dropped.
    """

    W: np.ndarray
    Z: np.ndarray
    alpha: np.ndarray
    risk: float
    full_rank: bool
    bound: float | None

    def decision_function(self, X, family: FeatureFamily) -> np.ndarray:
        """Line 5: ``f(x) = sum_k phi(x; w_k) alpha_k`` at each row of ``X``."""
        return np.array([sum(float(family.psi(x, self.W[k : k + 1])[0, 0]) * self.alpha[k]
                             for k in range(self.alpha.size)) for x in np.atleast_2d(X)])


def empirical_risk(Z, y, alpha, loss: str) -> float:
    """RKS eq. (1) and (3): ``(1/m) sum_i c(alpha^T z_i, y_i)``, ``c`` quadratic or hinge."""
    if loss == "quadratic":
        return sum((float(Z[i] @ alpha) - y[i]) ** 2 for i in range(len(y))) / len(y)
    return sum(max(0.0, 1.0 - y[i] * float(Z[i] @ alpha)) for i in range(len(y))) / len(y)


def _least_squares_over_faces(Z, y, bound, ridge):
    """Lines 3-4 for the quadratic loss: the best in-box least-squares fit over every face, of
    (3) plus ``ridge K ||alpha||^2``."""
    m, K = Z.shape
    shift = m * K * ridge    # (1/m)||Z a - y||^2 + ridge K ||a||^2 = (1/m)(||Z a - y||^2 + shift ||a||^2)
    best_alpha, best_objective = None, np.inf
    for face in itertools.product((-1, 0, 1), repeat=K):   # -1/+1: at -C/K or +C/K; 0: free
        alpha = np.array([bound * s for s in face], dtype=np.float64)
        free = [k for k in range(K) if face[k] == 0]
        if free:
            rest = y - Z @ alpha
            alpha[free] = _fit(Z[:, free], rest, shift)
            # A free coordinate outside the box is not a point of (4); one that lands on
            # the boundary is also the candidate of the face that fixes it there.
            if np.any(np.abs(alpha[free]) > bound):
                continue
        objective = empirical_risk(Z, y, alpha, "quadratic") + ridge * K * float(alpha @ alpha)
        if objective < best_objective:
            best_alpha, best_objective = alpha, objective
    return best_alpha


def _fit(Z, y, shift):
    """The least-squares fit of ``y`` by the columns of ``Z``, with ``shift`` added to the
    diagonal of the normal equations (a ridge); minimum norm when ``shift = 0``."""
    if shift == 0.0:
        return np.linalg.lstsq(Z, y, rcond=None)[0]
    return np.linalg.solve(Z.T @ Z + shift * np.eye(Z.shape[1]), Z.T @ y)


def _hinge_linear_program(Z, y, bound):
    """Lines 3-4 for the hinge loss as a linear program over ``(alpha, xi)``."""
    m, K = Z.shape
    cost = [0.0] * K + [1.0 / m] * m                      # (1/m) sum_i xi_i
    rows, rhs = [], []
    for i in range(m):                                    # xi_i >= 1 - y_i alpha^T z_i
        row = [-y[i] * Z[i, k] for k in range(K)] + [0.0] * m
        row[K + i] = -1.0
        rows.append(row)
        rhs.append(-1.0)
    box = (None, None) if bound is None else (-bound, bound)
    bounds = [box] * K + [(0.0, None)] * m                # (4), and xi_i >= 0
    res = optimize.linprog(cost, A_ub=np.array(rows), b_ub=np.array(rhs), bounds=bounds,
                           method="highs-ipm",
                           options={"primal_feasibility_tolerance": 1e-10,
                                    "dual_feasibility_tolerance": 1e-10,
                                    "ipm_optimality_tolerance": 1e-12})
    if res.status != 0:
        raise RuntimeError(f"the hinge-loss linear program of eq. (3)-(4) failed: {res.message}")
    alpha = res.x[:K]
    return alpha if bound is None else np.clip(alpha, -bound, bound)


def random_kitchen_sinks_reference(X, y, family: FeatureFamily, *, K, seed, loss: str = "quadratic",
                                   C=None, ridge: float = 0.0) -> KitchenSinksReference:
    """RKS Algorithm 1, line by line.

    Parameters
    ----------
    X : array of shape (m, D)
        Training inputs in the family's domain.
    y : array of shape (m,)
        Labels in {-1, +1} (RKS Section 1); for the quadratic loss any values in [-1, 1].
    family : FeatureFamily
        ``p(w)`` and ``phi(x; w)``; only sampled and evaluated.
    K : int
        Number of random features, ``K >= 1`` (``K <= 10`` for the quadratic loss with ``C``).
    seed : int or numpy.random.SeedSequence
        Child 0 draws the features (as in the shipped code).
    loss : {"quadratic", "hinge"}, default="quadratic"
        ``c`` of eq. (1): ``(f - y)^2`` or ``max(0, 1 - y f)``.
    C : float, optional
        The scalar of (4), ``> 0``; ``None`` drops (4) ("C large enough that the constraint
        (4) remains inactive").
    ridge : float, default=0.0
        Quadratic loss only: minimise (3) plus ``ridge * K * ||alpha||^2``, the shipped code's
        documented regulariser (not in RKS); ``empirical_risk`` and :attr:`KitchenSinksReference.risk`
        stay (3) alone.

    Returns
    -------
    KitchenSinksReference

    Examples
    --------
    >>> from iln.features import RandomStump
    >>> X = np.array([[-1.0], [-0.5], [0.5], [1.0]])
    >>> ref = random_kitchen_sinks_reference(X, [-1.0, -1.0, 1.0, 1.0], RandomStump(1), K=3, seed=0,
    ...                                      C=3.0)
    >>> bool(np.max(np.abs(ref.alpha)) <= 1.0)
    True
    """
    family = check_family(family)
    X = family.check_inputs(X, "X")
    m = X.shape[0]
    if m < 1:
        raise ValueError("X must hold at least one point (m >= 1)")
    loss = arguments.choice(loss, "loss", _LOSSES)
    y = (arguments.sign_labels(y, "y", m, why=" for the hinge loss (RKS Section 1)") if loss == "hinge"
         else arguments.labels(y, "y", m))
    K = arguments.length(K, "K", 1)
    seed = random_streams.as_seed_sequence(seed, "seed")
    bound = None if C is None else arguments.positive_real(C, "C") / K
    ridge = arguments.nonnegative_real(ridge, "ridge")
    if ridge > 0 and loss != "quadratic":
        raise ValueError("ridge applies to the quadratic loss only")
    if loss == "quadratic" and bound is not None and K > MAX_FACES_K:
        raise ValueError(f"K must be at most {MAX_FACES_K} for the quadratic loss with C (the "
                         f"transcription tries all 3^K faces of the box), got {K}")

    W = family.sample(K, random_streams.generator(random_streams.child(seed, 0)))   # line 1
    Z = np.array([[float(family.psi(X[i : i + 1], W[k : k + 1])[0, 0])             # line 2
                   for k in range(K)] for i in range(m)])
    if np.any(np.abs(Z) > 1.0):
        raise ValueError("family must give |phi(x; w)| <= 1 (RKS Algorithm 1's input)")
    if loss == "quadratic" and bound is None and ridge == 0.0:                      # line 3
        alpha = np.linalg.pinv(Z) @ y          # "simple linear least squares"
    elif loss == "quadratic" and bound is None:                                      # line 3, ridge
        alpha = _fit(Z, y, m * K * ridge)
    elif loss == "quadratic":                                                        # lines 3-4
        alpha = _least_squares_over_faces(Z, y, bound, ridge)
    else:                                                                            # lines 3-4
        alpha = _hinge_linear_program(Z, y, bound)
    return KitchenSinksReference(W=W, Z=Z, alpha=alpha, risk=empirical_risk(Z, y, alpha, loss),
                                 full_rank=bool(np.linalg.matrix_rank(Z) == K), bound=bound)
