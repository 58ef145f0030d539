r"""Exact-kernel online gradient descent with projection: the kernel-trick learner.

Online gradient descent (Zinkevich 2003) in the RKHS of ``k``, as in ICML Section 5
(eq. 9 and the update ``f_{t+1} = f_t - eta grad_t`` before it; arXiv Section 5), with
the exact gradient

.. math::

    \nabla_t = (\langle f_t, \Phi(x_t) \rangle - y_t)\, \Phi(x_t)

and the Euclidean projection onto the ball ``||f|| <= B`` of the comparison class
``H^B_mu`` (ICML/arXiv Section 2): ``f_{t+1} = Proj_B(f_t - eta nabla_t)``.  This is
the kernelised OGD of Kivinen, Smola & Williamson, *Online Learning with Kernels*
(IEEE TSP 2004), with a projection in place of their decay.  ``f_t`` is represented by
coefficients over the points, ``f_t = sum_{i<t} alpha_i Phi(x_i)``, so that
``<f_t, Phi(x_t)> = sum_i alpha_i k(x_i, x_t)`` and
``||f + a Phi(x_t)||^2 = ||f||^2 + 2 a <f, Phi(x_t)> + a^2 k(x_t, x_t)``.

This is the one learner that reads the oracle :meth:`~iln.features.FeatureFamily.kernel`
(docs, Design, principle 1): it is the "kernel trick" the paper avoids, the reference
point of the comparison.  It samples no feature; it reports its kernel evaluations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from iln import arguments, random_streams
from iln.baselines.fixed_random import check_features, check_online_data, check_schedules
from iln.budget import Budget
from iln.features import FeatureFamily
from iln.online_protocol import OnlineLosses

__all__ = ["KernelOGDResult", "kernel_ogd", "kernel_ogd_grid"]


@dataclass(frozen=True)
class KernelOGDResult(OnlineLosses):
    """The outcome of :func:`kernel_ogd`.

    Attributes
    ----------
    alpha : ndarray (T,)
        ``f_{T+1} = sum_i alpha_i Phi(x_i)``.
    X : ndarray (T, D)
        The inputs.
    predictions : ndarray (T,)
        ``<f_t, Phi(x_t)>``, made before round t's update.
    losses : ndarray (T,)
        ``(predictions - y)^2 / 2`` (ICML eq. 6; arXiv eq. 5).
    labels : ndarray (T,)
    f_norm : ndarray (T + 1,)
        ``||f_t||`` for t = 1, ..., T + 1.
    projected : ndarray of bool (T,)
        Whether round t's step left the ball and was projected back.
    kernel_evaluations : int
        Entries ``k(x_i, x_t)`` computed during training: ``t`` at round t (the ``t - 1``
        for the prediction and ``k(x_t, x_t)`` for the norm), ``T (T + 1) / 2`` in all.
    budget : Budget
        No feature sampled, no ``psi`` evaluated: ``Budget(0, 0)``.
    family : FeatureFamily
    B : float or None
        Projection radius; None for plain (unprojected) kernel OGD.
    eta : float
    seed : numpy.random.SeedSequence or None
        Recorded for a uniform interface; the learner is deterministic.
    """

    alpha: np.ndarray
    X: np.ndarray
    predictions: np.ndarray
    losses: np.ndarray
    labels: np.ndarray
    f_norm: np.ndarray
    projected: np.ndarray
    kernel_evaluations: int
    budget: Budget
    family: FeatureFamily = field(repr=False)
    B: float | None
    eta: float
    seed: np.random.SeedSequence | None


    def predict(self, X_new) -> np.ndarray:
        """``<f_{T+1}, Phi(x)> = sum_i alpha_i k(x_i, x)`` with the oracle kernel."""
        return self.predict_from_features(self.features(X_new))

    def features(self, X_new) -> np.ndarray:
        """``k(x, x_i)`` for each new point and each support point, shape ``(n, T)``: what
        :meth:`predict` reads from the oracle, the same for every run of one
        :func:`kernel_ogd_grid` call."""
        X_new = self.family.check_inputs(X_new, "X_new")
        return self.family.kernel(X_new, self.X)

    def predict_from_features(self, features) -> np.ndarray:
        """:meth:`predict` from the :meth:`features` of the new points (computed once for the
        runs of a step search, which share their support points)."""
        return check_features(features, self.alpha.size) @ self.alpha


def kernel_ogd(X, y, family, *, B, eta, seed=None) -> KernelOGDResult:
    """Projected online gradient descent in the RKHS with the exact kernel.

    ``f_1 = 0``; at round t predict ``<f_t, Phi(x_t)>``, then
    ``f_{t+1} = Proj_B(f_t - eta (<f_t, Phi(x_t)> - y_t) Phi(x_t))`` (ICML eq. 9 and
    Section 5; Zinkevich 2003), where ``Proj_B`` rescales ``f`` onto the sphere
    ``||f|| = B`` when it lies outside the ball.

    Parameters
    ----------
    X, y
        As in :func:`~iln.baselines.fixed_random.check_online_data`.
    family : FeatureFamily
        Must have an oracle kernel (:attr:`~iln.features.FeatureFamily.has_kernel`).
    B : float or None
        Radius of the ball, ``B >= 1``; None runs kernel OGD without projection.
    eta : float
        Constant step size, ``> 0``.
    seed : int or numpy.random.SeedSequence, optional
        Accepted so that every learner shares one call signature; the learner is
        deterministic and draws nothing.

    Returns
    -------
    KernelOGDResult

    Raises
    ------
    TypeError, ValueError
        On invalid input; the message names the argument.
    iln.features.NoOracleError
        If the family has no oracle kernel.

    See Also
    --------
    kernel_ogd_grid : the same runs at several steps, reading the Gram rows once.

    Examples
    --------
    >>> from iln.features import RandomCoordinate
    >>> res = kernel_ogd([[0.5, 0.5], [0.5, -0.5]], [1.0, 0.5], RandomCoordinate(2), B=1.0, eta=1.0)
    >>> res.predictions.tolist(), res.alpha.tolist()
    ([0.0, 0.0], [1.0, 0.5])
    """
    return kernel_ogd_grid(X, y, family, B=B, schedules=[{"eta": eta}], seed=seed)[0]


def kernel_ogd_grid(X, y, family, *, B, schedules, seed=None) -> tuple[KernelOGDResult, ...]:
    """:func:`kernel_ogd` at each step of ``schedules``, on one computation of the Gram rows.

    The kernel entries a round reads, ``k(x_t, x_1), ..., k(x_t, x_t)``, do not depend on the
    step, so the runs of a step-size search share them: computed once, each step then costs
    only its ``T`` scalar products.  Each result equals, bit for bit, the one
    ``kernel_ogd(X, y, family, B=B, seed=seed, **schedule)`` returns, including its
    :attr:`~KernelOGDResult.kernel_evaluations`: what the learner reads run alone.

    Parameters
    ----------
    X, y, family, B, seed
        As in :func:`kernel_ogd`.
    schedules : sequence of mapping
        Each ``{"eta": step}``; at least one.

    Returns
    -------
    tuple of KernelOGDResult
        One per schedule, in order.

    Raises
    ------
    TypeError, ValueError
        As :func:`kernel_ogd` says, for any schedule; a ``TypeError`` for a schedule that is
        not a mapping with the one key ``eta``, a ``ValueError`` for no schedule.
    iln.features.NoOracleError
        If the family has no oracle kernel.

    Examples
    --------
    >>> from iln.features import RandomCoordinate
    >>> X, y = [[0.5, 0.5], [0.5, -0.5]], [1.0, 0.5]
    >>> runs = kernel_ogd_grid(X, y, RandomCoordinate(2), B=1.0, schedules=[{"eta": 1.0}, {"eta": 2.0}])
    >>> [run.f_norm.tolist() for run in runs]  # the larger step reaches the ball's surface
    [[0.0, 0.5, 0.5590169943749475], [0.0, 1.0, 1.0]]
    """
    schedules = check_schedules(schedules, "schedules", frozenset({"eta"}), frozenset({"eta"}))
    X, y, family = check_online_data(X, y, family)
    X = X.copy()  # the predictor's support points: not an alias of the caller's array
    B = arguments.norm_radius(B)
    etas = [arguments.positive_real(s["eta"], "eta") for s in schedules]
    seed = None if seed is None else random_streams.as_seed_sequence(seed, "seed")
    return _descend(X, y, family, B, etas, seed)


def _descend(X: np.ndarray, y: np.ndarray, family: FeatureFamily, B, etas: list[float],
             seed) -> tuple[KernelOGDResult, ...]:
    """The rounds of projected kernel OGD at each step of ``etas``, round by round.

    Row t of the Gram matrix up to the diagonal, ``k(x_t, x_1), ..., k(x_t, x_t)``, does not
    depend on the step: each round reads it once, then every step takes its update on it,
    each in the order a run alone takes it, so its numbers are that run's bit for bit.
    """
    T = X.shape[0]
    alphas = np.zeros((len(etas), T))
    all_predictions = np.empty((len(etas), T))
    norms_sq = [0.0] * len(etas)
    f_norms = np.zeros((len(etas), T + 1))
    projections = np.zeros((len(etas), T), dtype=bool)
    evaluations = 0
    for t in range(T):
        # X was checked once (check_online_data), so the rows are not checked again each round.
        row = family.kernel_validated(X[t : t + 1], X[: t + 1])[0]
        evaluations += t + 1
        for s, eta in enumerate(etas):
            alpha, predictions, norm_sq = alphas[s], all_predictions[s], norms_sq[s]
            predictions[t] = float(row[:t] @ alpha[:t])
            a = -eta * (predictions[t] - y[t])
            alpha[t] = a
            norm_sq = max(norm_sq + 2.0 * a * predictions[t] + a * a * row[t], 0.0)
            if B is not None and norm_sq > B * B:
                alpha[: t + 1] *= B / math.sqrt(norm_sq)
                norm_sq = B * B
                projections[s, t] = True
            norms_sq[s] = norm_sq
            f_norms[s, t + 1] = math.sqrt(norm_sq)
    # Each result owns its arrays, as a run alone does: a caller may write into one.
    return tuple(KernelOGDResult(
        alpha=alphas[s].copy(), X=X if s == 0 else X.copy(), predictions=all_predictions[s].copy(),
        losses=0.5 * (all_predictions[s] - y) ** 2, labels=y if s == 0 else y.copy(),
        f_norm=f_norms[s].copy(), projected=projections[s].copy(), kernel_evaluations=evaluations,
        budget=Budget(features_sampled=0, psi_evaluations=0), family=family, B=B, eta=eta, seed=seed,
    ) for s, eta in enumerate(etas))
