"""Doubly Stochastic Gradient Descent (Dai et al. 2014), the second Section 6 baseline.

Dai, Xie, He, Liang, Raj, Balcan, Song, *Scalable Kernel Methods via Doubly Stochastic
Gradients* (NIPS 2014), Algorithms 1 (train) and 2 (predict), as the ICML Section 6
experiment uses it: "each training point x samples k features w_1, ..., w_k. These
features will from that point on be used for evaluating dot products with x"
(the arXiv version has no experiment section).

With ``w_{ij}`` the j-th feature of point i, the predictor before round t is

.. math::

    f_t(x) = \\sum_{i<t} \\sum_{j=1}^k a_{ij}\\, \\psi(x; w_{ij}) / k,

and round t (with ``gamma_t = gamma0 / (1 + gamma1 (t - 1))``) does

* predict ``f_t(x_t)``, which evaluates the ``(t - 1) k`` earlier features on ``x_t``;
* draw ``w_{t1}, ..., w_{tk} ~ mu`` and set
  ``a_{tj} = -gamma_t (f_t(x_t) - y_t) psi(x_t; w_{tj})``: a step along the unbiased
  functional gradient ``(f_t(x_t) - y_t) psi(x_t; w) psi(.; w)`` of the squared loss
  ``(f(x_t) - y_t)^2 / 2`` (ICML eq. 6; arXiv eq. 5), averaged over the k draws;
* with regularisation ``nu >= 0`` (the objective ``nu/2 ||f||^2 + E loss`` of Dai
  et al.), multiply every earlier coefficient by ``1 - gamma_t nu``.

In expectation over the features, ``f_t(x) = sum_i c_i k(x_i, x)`` with
``c_i = -gamma_i (f_i(x_i) - y_i)``: kernel online gradient descent
(:func:`iln.baselines.kernel_ogd.kernel_ogd` without projection) with the kernel
replaced by its k-sample estimate ``(1/k) sum_j psi(x_i; w_ij) psi(x; w_ij)``.

Budget (:mod:`iln.budget`): ``k T`` parameters; round t evaluates ``(t - 1) k`` earlier
features and its own k, ``t k`` evaluations, ``k T (T + 1) / 2`` in all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from iln import arguments, random_streams
from iln.baselines.fixed_random import (
    check_online_data,
    feature_matrix,
    step_sizes,
)
from iln.budget import Budget
from iln.features import FeatureFamily
from iln.online_protocol import OnlineLosses

__all__ = ["DoublyStochasticResult", "check_dsgd_arguments", "doubly_stochastic", "dsgd_budget"]


def dsgd_budget(T: int, k: int) -> Budget:
    """The training budget of :func:`doubly_stochastic`: ``k T`` parameters, ``k T (T+1)/2`` evaluations.

    Examples
    --------
    >>> dsgd_budget(200, 100)
    Budget(features_sampled=20000, psi_evaluations=2010000)
    """
    T = arguments.integer(T, "T", 1)
    k = arguments.integer(k, "k", 1)
    return Budget(features_sampled=k * T, psi_evaluations=k * T * (T + 1) // 2)


@dataclass(frozen=True)
class DoublyStochasticResult(OnlineLosses):
    """The outcome of :func:`doubly_stochastic`.

    Attributes
    ----------
    coef : ndarray (T, k)
        Final coefficients ``a_{ij}``.
    W : ndarray (T, k, p)
        ``W[i, j]`` is the parameter ``w_{ij}`` drawn by point i.
    predictions : ndarray (T,)
        Online predictions ``f_t(x_t)``, made before round t's update.
    losses : ndarray (T,)
        ``(predictions - y)^2 / 2`` (ICML eq. 6; arXiv eq. 5).
    labels : ndarray (T,)
        ``y_t``.
    steps : ndarray (T,)
        ``gamma_t``.
    psi_evaluations : ndarray of int (T,)
        Evaluations of ``psi`` at round t (``t k``).
    budget : Budget
        ``k T`` parameters, ``k T (T + 1) / 2`` evaluations.
    family : FeatureFamily
    k : int
    gamma0, gamma1, nu : float
    seed : numpy.random.SeedSequence
    """

    coef: np.ndarray
    W: np.ndarray
    predictions: np.ndarray
    losses: np.ndarray
    labels: np.ndarray
    steps: np.ndarray
    psi_evaluations: np.ndarray
    budget: Budget
    family: FeatureFamily = field(repr=False)
    k: int
    gamma0: float
    gamma1: float
    nu: float
    seed: np.random.SeedSequence


    def predict(self, X_new) -> np.ndarray:
        """``f_{T+1}(x) = sum_{ij} a_{ij} psi(x; w_{ij}) / k`` (Dai et al. 2014, Algorithm 2).

        Evaluates all ``k T`` features on each new point: test-time work, not part of
        :attr:`budget`.
        """
        X_new = self.family.check_inputs(X_new, "X_new")
        flat = self.W.reshape(-1, self.W.shape[-1])
        return feature_matrix(self.family, X_new, flat) @ self.coef.ravel() / self.k


def check_dsgd_arguments(X, y, family, k, seed, gamma0, gamma1, nu) -> tuple:
    """Validate the arguments of :func:`doubly_stochastic` (and of its transcription,
    :func:`iln.reference.doubly_stochastic.doubly_stochastic_reference`).

    Returns
    -------
    tuple
        ``(X, y, family, k, seed, gamma0, gamma1, nu)`` cleaned, ``seed`` a SeedSequence.

    Raises
    ------
    TypeError, ValueError
        On invalid input; the message names the argument.
    """
    X, y, family = check_online_data(X, y, family)
    k = arguments.length(k, "k", 1)
    seed = random_streams.as_seed_sequence(seed, "seed")
    gamma0 = arguments.positive_real(gamma0, "gamma0")
    gamma1 = arguments.nonnegative_real(gamma1, "gamma1")
    nu = arguments.nonnegative_real(nu, "nu")
    if gamma0 * nu >= 1.0:
        raise ValueError(f"nu must satisfy gamma0 * nu < 1 so that the decay 1 - gamma_t nu stays "
                         f"positive; got gamma0 * nu = {gamma0 * nu!r}")
    return X, y, family, k, seed, gamma0, gamma1, nu


def _draw(family: FeatureFamily, k: int, seed: np.random.SeedSequence, t: int) -> np.ndarray:
    """Round t's k features, from child t of ``seed``, checked once (a user's family may draw
    parameters outside its own layout)."""
    return family.check_parameters(family.sample(k, random_streams.generator(random_streams.child(seed, t))))


def doubly_stochastic(X, y, family, *, k, seed, gamma0, gamma1=0.0, nu=0.0) -> DoublyStochasticResult:
    """Doubly Stochastic Gradient Descent for the squared loss (Dai et al. 2014, Algorithm 1).

    One pass over the data; point t draws k features of its own, kept from then on
    (ICML Section 6).  See the module docstring for the update.

    Parameters
    ----------
    X, y, family
        As in :func:`~iln.baselines.fixed_random.check_online_data`.
    k : int
        Features drawn per point, ``k >= 1``.
    seed : int or numpy.random.SeedSequence
        Round t (1-based) draws its features from child ``t`` of this seed, so a point's
        features do not depend on T.
    gamma0 : float
        First step, ``> 0``; round t uses ``gamma0 / (1 + gamma1 (t - 1))``.
    gamma1 : float, default=0.0
        Decay of the step, ``>= 0`` (0: constant step).
    nu : float, default=0.0
        Regularisation ``nu/2 ||f||^2``, ``>= 0`` with ``gamma0 nu < 1`` (each earlier
        coefficient is multiplied by ``1 - gamma_t nu``, which must stay positive).

    Returns
    -------
    DoublyStochasticResult

    Raises
    ------
    TypeError, ValueError
        As :func:`check_dsgd_arguments` says.

    Examples
    --------
    >>> from iln.data import section6_data
    >>> from iln.features import RandomCoordinate
    >>> data = section6_data(20, 30, seed=0)
    >>> res = doubly_stochastic(data.X, data.y, RandomCoordinate(30), k=5, seed=1, gamma0=5.0)
    >>> res.budget == dsgd_budget(20, 5)
    True
    """
    X, y, family, k, seed, gamma0, gamma1, nu = check_dsgd_arguments(X, y, family, k, seed,
                                                                     gamma0, gamma1, nu)
    T = X.shape[0]
    steps = step_sizes(T, gamma0, gamma1)

    first = _draw(family, k, seed, 1)
    W = np.empty((T * k, *first.shape[1:]))
    W[:k] = first
    coef = np.zeros(T * k)
    predictions = np.empty(T)
    evaluations = np.empty(T, dtype=np.int64)
    for t in range(T):  # round t + 1
        x = X[t : t + 1]
        past = t * k
        if t > 0:
            W[past : past + k] = _draw(family, k, seed, t + 1)
        # One evaluation of psi on x_t per feature: the (t - 1) k old ones and the k new ones.
        # X was checked once and each draw when it was made, so no row is checked again here.
        values = family.psi_validated(x, W[: past + k])[0]
        # einsum, not BLAS: a threaded BLAS dot of 10^4 entries per round was measured
        # 2-3 times slower on a 2-core machine shared with other work.
        predictions[t] = float(np.einsum("i,i->", values[:past], coef[:past])) / k if past else 0.0
        evaluations[t] = past + k
        if nu > 0.0:
            coef[:past] *= 1.0 - steps[t] * nu
        coef[past : past + k] = -steps[t] * (predictions[t] - y[t]) * values[past:]
    return DoublyStochasticResult(
        coef=coef.reshape(T, k), W=W.reshape((T, k, *W.shape[1:])), predictions=predictions,
        losses=0.5 * (predictions - y) ** 2, labels=y, steps=steps, psi_evaluations=evaluations,
        budget=Budget(features_sampled=k * T, psi_evaluations=int(evaluations.sum())),
        family=family, k=k, gamma0=gamma0, gamma1=gamma1, nu=nu, seed=seed,
    )
