r"""The comparator of the regret: the best predictor in the ball of radius ``B``.

The regret of Livni, Carmon & Globerson (ICML 2017, eq. (7); arXiv "Beyond the Kernel
Trick", eq. (6)) compares the learner's cumulative loss with

.. math::

    \min_{f^* \in \mathcal{H}^B_\mu} \sum_{t=1}^T \ell_t(f^*), \qquad
    \ell_t(f) = \tfrac12 (\langle f, \Phi(x_t) \rangle - y_t)^2

(the loss is ICML eq. (6), arXiv eq. (5); the class
:math:`\mathcal{H}^B_\mu = \{x \mapsto \langle f, \Phi(x)\rangle : \|f\| < B\}` is
defined in Section 2 of both versions). This module computes that minimum exactly from the
Gram matrix :math:`K_{st} = \langle \Phi(x_s), \Phi(x_t) \rangle = k(x_s, x_t)`.

The kernel is an *oracle* (docs, Design, principle 1): only checkers may call this module,
never a learner.

Notes
-----
The paper's class uses the open ball ``||f|| < B``; its infimum equals the minimum over
the closed ball ``||f|| <= B`` because the objective is continuous, and the closed ball
is where the minimum is attained. That minimum is what :func:`best_in_ball` returns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from iln import arguments

__all__ = ["ComparatorResult", "best_in_ball", "predict_exact", "regret"]

# A Gram matrix built in floating point is symmetric to a few ulps of its largest entry;
# a relative asymmetry above 1e-8 means the caller passed something that is not a Gram
# matrix (or transposed the wrong operand), not round-off.
_SYMMETRY_RTOL = 1e-8

# eigh's backward error is about T * eps * ||K|| (1e-13 relative for T ~ 1e3) and closed-form
# kernels add a few ulps per entry; a negative eigenvalue beyond 1e-8 of the largest one is
# a genuinely indefinite matrix (wrong kernel formula), which must not be silently clipped.
_PSD_RTOL = 1e-8


@dataclass(frozen=True)
class ComparatorResult:
    r"""The best predictor in the closed ball of radius ``B`` and its losses.

    The predictor is :math:`f = \sum_i \beta_i \Phi(x_i)` (representer theorem), with
    predictions :math:`\langle f, \Phi(x_t) \rangle = (K\beta)_t`.

    Attributes
    ----------
    beta : ndarray of shape (T,)
        Representer coefficients of the minimiser (the minimum-norm ones: ``beta`` lies in
        the numerical range of ``K``). Read-only.
    norm : float
        :math:`\|f\| = \sqrt{\beta^\top K \beta}`, computed from the spectrum, so that it
        does not lose digits to cancellation when ``K`` is ill-conditioned.
    predictions : ndarray of shape (T,)
        :math:`(K\beta)_t = \langle f, \Phi(x_t) \rangle`. Read-only.
    losses : ndarray of shape (T,)
        Per-round losses :math:`\tfrac12 ((K\beta)_t - y_t)^2` (ICML eq. (6), arXiv
        eq. (5)). Read-only.
    total_loss : float
        :math:`\sum_t` ``losses[t]``: the minimum subtracted in the regret (ICML eq. (7),
        arXiv eq. (6)).
    nu : float
        Lagrange multiplier of the constraint written as
        :math:`\tfrac{\nu}{2}(\|f\|^2 - B^2) \le 0`; ``0.0`` when the constraint is
        inactive. Stationarity reads :math:`K((K + \nu I)\beta - y) = 0`.
    constraint_active : bool
        Whether the unconstrained minimum-norm least-squares fit has norm above ``B``, so
        that the minimiser sits on the sphere ``||f|| = B``.
    B : float
        The radius of the ball.
    """

    beta: np.ndarray
    norm: float
    predictions: np.ndarray
    losses: np.ndarray
    total_loss: float
    nu: float
    constraint_active: bool
    B: float


def _norm(v: np.ndarray) -> float:
    """Euclidean norm that neither underflows nor overflows for tiny or huge entries."""
    # Gram matrices of very small inputs have eigenvalues near 1e-300, whose squares
    # vanish in np.linalg.norm and would make the secular equation lose its root.
    top = float(np.max(np.abs(v))) if v.size else 0.0
    if top == 0.0 or not math.isfinite(top):
        return top
    return top * float(np.linalg.norm(v / top))


def _check_kernel_and_labels(K, y) -> tuple[np.ndarray, np.ndarray]:
    K = arguments.real_array(K, "K", copy=False)
    y = arguments.real_array(y, "y", copy=False)
    if y.ndim != 1 or y.shape[0] < 1:
        raise ValueError(f"y must be a 1-D array with T >= 1 entries, got shape {y.shape}")
    T = y.shape[0]
    if K.shape != (T, T):
        raise ValueError(f"K must have shape (T, T) = ({T}, {T}) to match y, got shape {K.shape}")
    if np.any(np.abs(y) > 1.0):
        raise ValueError("y must lie in [-1, 1] (the label set of Section 2)")
    scale = float(np.max(np.abs(K)))
    asymmetry = float(np.max(np.abs(K - K.T)))
    if asymmetry > _SYMMETRY_RTOL * scale:
        raise ValueError(
            f"K must be symmetric (a Gram matrix); max |K - K^T| = {asymmetry:.3g} exceeds "
            f"{_SYMMETRY_RTOL:g} * max |K| = {_SYMMETRY_RTOL * scale:.3g}"
        )
    return 0.5 * (K + K.T), y


def best_in_ball(K, y, B) -> ComparatorResult:
    r"""Minimise the cumulative squared loss over the ball ``||f|| <= B``, exactly.

    Solves

    .. math::

        \min_{\|f\| \le B} \sum_{t=1}^T \tfrac12 (\langle f, \Phi(x_t) \rangle - y_t)^2,

    the comparator term of the regret (ICML eq. (7), arXiv eq. (6)) with the loss of
    ICML eq. (6) / arXiv eq. (5), over the class :math:`\mathcal{H}^B_\mu` of Section 2.

    Parameters
    ----------
    K : array_like of shape (T, T)
        Gram matrix :math:`K_{st} = \langle \Phi(x_s), \Phi(x_t) \rangle`; symmetric
        positive semi-definite up to round-off. Eigenvalues that are negative by round-off
        are clipped to zero.
    y : array_like of shape (T,)
        Labels in ``[-1, 1]``.
    B : float
        Radius of the ball, ``B >= 1`` (finite).

    Returns
    -------
    ComparatorResult
        The minimiser's coefficients, norm, losses, multiplier and whether the constraint
        binds.

    Raises
    ------
    TypeError
        If ``K`` or ``y`` is not numeric, or ``B`` is not a real number.
    ValueError
        If shapes mismatch, data are not finite, labels leave ``[-1, 1]``, ``B < 1``, or
        ``K`` is clearly non-symmetric or indefinite.

    Notes
    -----
    The loss depends on ``f`` only through its projection on
    :math:`\mathrm{span}\{\Phi(x_t)\}`, and projecting cannot increase the norm, so a
    minimiser is :math:`f = \sum_i \beta_i \Phi(x_i)` (representer theorem). With
    :math:`K = U \mathrm{diag}(\lambda) U^\top`, :math:`c = U^\top y` and
    :math:`z = \mathrm{diag}(\sqrt{\lambda}) U^\top \beta` (so that
    :math:`\|f\| = \|z\|`), the problem is the trust-region subproblem

    .. math::

        \min_{\|z\| \le B} \tfrac12 \sum_j (\sqrt{\lambda_j} z_j - c_j)^2,

    whose exact solution is :math:`z_j(\nu) = \sqrt{\lambda_j} c_j / (\lambda_j + \nu)`
    with :math:`\nu = 0` if the minimum-norm unconstrained solution is feasible, and
    otherwise the unique root of the decreasing secular equation
    :math:`\|z(\nu)\| = B`, found with :func:`scipy.optimize.brentq` to relative
    precision ``4 * eps``. Components with :math:`\lambda_j \le T\,\epsilon\,\lambda_{\max}`
    are numerically zero: no predictor can move the predictions along them, so they get
    zero weight (the same cut-off as :func:`numpy.linalg.matrix_rank`).

    Examples
    --------
    >>> import numpy as np
    >>> res = best_in_ball(np.eye(2), np.array([1.0, -1.0]), B=1.0)
    >>> bool(res.constraint_active), round(res.norm, 12), round(res.nu, 12)
    (True, 1.0, 0.414213562373)
    """
    K, y = _check_kernel_and_labels(K, y)
    B = arguments.norm_radius(arguments.finite_real(B, "B"))
    T = y.shape[0]

    lam, U = np.linalg.eigh(K)
    lam_scale = float(np.max(np.abs(lam)))
    if lam[0] < -_PSD_RTOL * lam_scale:
        raise ValueError(
            f"K must be positive semi-definite; its smallest eigenvalue {lam[0]:.3g} is "
            f"below -{_PSD_RTOL:g} * max |eigenvalue| = {-_PSD_RTOL * lam_scale:.3g}"
        )
    lam = np.clip(lam, 0.0, None)
    # Eigenvalues below eigh's own error (T * eps * lam_max, numpy.linalg.matrix_rank's
    # cut-off) carry no information about the kernel: fitting them would fit round-off.
    cutoff = T * np.finfo(np.float64).eps * float(lam[-1])
    kept = lam > cutoff
    lam_k = lam[kept]
    U_k = U[:, kept]
    c_k = U_k.T @ y

    def z_norm(nu: float) -> float:
        return _norm(np.sqrt(lam_k) * c_k / (lam_k + nu))

    nu = 0.0
    active = False
    if lam_k.size and z_norm(0.0) > B:
        active = True
        # ||z(nu)|| <= ||sqrt(lam) c|| / nu, so at this nu ||z|| <= B / 2: strictly inside
        # the ball even when every lam_j << nu and the bound is attained up to round-off.
        nu_hi = 2.0 * _norm(np.sqrt(lam_k) * c_k) / B
        nu = brentq(
            lambda v: z_norm(v) - B,
            0.0,
            nu_hi,
            xtol=np.finfo(np.float64).tiny,
            rtol=4 * np.finfo(np.float64).eps,
            maxiter=500,
        )

    g = c_k / (lam_k + nu)  # beta = U_k g, the minimum-norm coefficients
    z = np.sqrt(lam_k) * g
    norm = _norm(z)
    if active and norm > 0.0:
        # brentq stops within a few ulps of the root; landing exactly on the sphere keeps
        # the result feasible and makes ||f|| = B hold to round-off, at a relative cost
        # in optimality of order eps.
        g = g * (B / norm)
        z = np.sqrt(lam_k) * g
        norm = _norm(z)

    beta = U_k @ g
    # Predictions from the spectrum, not K @ beta: for ill-conditioned K the product
    # multiplies large coefficients by small eigenvalues and loses digits.
    predictions = U_k @ (lam_k * g) if lam_k.size else np.zeros(T)
    losses = 0.5 * (predictions - y) ** 2
    for array in (beta, predictions, losses):
        array.setflags(write=False)
    return ComparatorResult(
        beta=beta,
        norm=norm,
        predictions=predictions,
        losses=losses,
        total_loss=math.fsum(losses),
        nu=float(nu),
        constraint_active=active,
        B=B,
    )


def regret(learner_losses, comparator: ComparatorResult) -> float:
    r"""Regret of a learner against the best predictor in the ball (ICML eq. (7), arXiv eq. (6)).

    Parameters
    ----------
    learner_losses : array_like of shape (T,)
        The learner's per-round losses :math:`\ell_t(f_t)` (ICML eq. (6), arXiv eq. (5)):
        finite and non-negative.
    comparator : ComparatorResult
        Result of :func:`best_in_ball` on the same rounds.

    Returns
    -------
    float
        :math:`\sum_t \ell_t(f_t) - \min_{\|f\| \le B} \sum_t \ell_t(f)`. It may be
        negative: the learner is not restricted to the ball.

    Raises
    ------
    TypeError
        If ``comparator`` is not a :class:`ComparatorResult` or ``learner_losses`` is not
        numeric.
    ValueError
        If ``learner_losses`` is not 1-D of length T, not finite, or negative.

    Examples
    --------
    >>> res = best_in_ball([[1.0]], [0.5], B=1.0)
    >>> regret([0.125], res)
    0.125
    """
    if not isinstance(comparator, ComparatorResult):
        raise TypeError(f"comparator must be a ComparatorResult, got {type(comparator).__name__}")
    losses = arguments.real_array(learner_losses, "learner_losses", copy=False)
    T = comparator.losses.shape[0]
    if losses.shape != (T,):
        raise ValueError(
            f"learner_losses must have shape (T,) = ({T},) like the comparator, got {losses.shape}"
        )
    if np.any(losses < 0.0):
        raise ValueError("learner_losses must be >= 0 (squared losses)")
    # fsum: the regret is a small difference of two sums of T terms each.
    return math.fsum(losses) - comparator.total_loss


def predict_exact(coefficients, K_new_support) -> np.ndarray:
    r"""Exact predictions :math:`\langle f, \Phi(x) \rangle` of a kernel expansion.

    For :math:`f = \sum_i \alpha_i \Phi(x_i)` (the comparator's ``beta`` or a learner's
    ``alpha`` from Algorithm 1), :math:`\langle f, \Phi(x) \rangle =
    \sum_i \alpha_i k(x_i, x)` by the scalar product of ICML eq. (5) (Section 2 of both
    versions). Uses the kernel oracle: checkers only.

    Parameters
    ----------
    coefficients : array_like of shape (n_support,)
        Expansion coefficients (``beta`` or ``alpha``).
    K_new_support : array_like of shape (n_new, n_support)
        Cross kernel matrix, ``K_new_support[j, i] = k(x_new_j, x_support_i)``.

    Returns
    -------
    ndarray of shape (n_new,)
        ``K_new_support @ coefficients``.

    Raises
    ------
    TypeError
        If an argument is not numeric.
    ValueError
        If shapes mismatch or values are not finite.

    Examples
    --------
    >>> predict_exact([1.0, -2.0], [[1.0, 0.5], [0.0, 1.0]])
    array([ 0., -2.])
    """
    coefficients = arguments.real_array(coefficients, "coefficients", copy=False)
    K_new_support = arguments.real_array(K_new_support, "K_new_support", copy=False)
    if coefficients.ndim != 1:
        raise ValueError(
            f"coefficients must be 1-D of shape (n_support,), got shape {coefficients.shape}"
        )
    if K_new_support.ndim != 2 or K_new_support.shape[1] != coefficients.shape[0]:
        raise ValueError(
            "K_new_support must have shape (n_new, n_support) with n_support = "
            f"{coefficients.shape[0]} (the length of coefficients), got {K_new_support.shape}"
        )
    return K_new_support @ coefficients
