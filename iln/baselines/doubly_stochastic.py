r"""Doubly Stochastic Gradient Descent (Dai et al. 2014), the second Section 6 baseline.

Dai, Xie, He, Liang, Raj, Balcan, Song, *Scalable Kernel Methods via Doubly Stochastic
Gradients* (NIPS 2014), Algorithms 1 (train) and 2 (predict), as the ICML Section 6
experiment uses it: "each training point x samples k features w_1, ..., w_k. These
features will from that point on be used for evaluating dot products with x"
(the arXiv version has no experiment section).

With ``w_{ij}`` the j-th feature of point i, the predictor before round t is

.. math::

    f_t(x) = \sum_{i<t} \sum_{j=1}^k a_{ij}\, \psi(x; w_{ij}) / k,

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
    check_features,
    check_online_data,
    check_schedules,
    feature_matrix,
    step_sizes,
)
from iln.budget import Budget
from iln.features import FeatureFamily
from iln.online_protocol import OnlineLosses

__all__ = ["DoublyStochasticResult", "check_dsgd_arguments", "doubly_stochastic", "doubly_stochastic_grid",
           "dsgd_budget"]


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
        return self.predict_from_features(self.features(X_new))

    def features(self, X_new) -> np.ndarray:
        """``psi(x; w_{ij})`` for each new point and each of the ``k T`` features, shape
        ``(n, k T)`` (point i's features in columns ``i k, ..., (i + 1) k - 1``): what
        :meth:`predict` evaluates, the same for every run of one
        :func:`doubly_stochastic_grid` call."""
        X_new = self.family.check_inputs(X_new, "X_new")
        return feature_matrix(self.family, X_new, self.W.reshape(-1, self.W.shape[-1]))

    def predict_from_features(self, features) -> np.ndarray:
        """:meth:`predict` from the :meth:`features` of the new points (computed once for the
        runs of a step search, which share their features)."""
        return check_features(features, self.coef.size) @ self.coef.ravel() / self.k


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


def _descend(X: np.ndarray, y: np.ndarray, family: FeatureFamily, k: int, seed: np.random.SeedSequence,
             schedules: list[tuple[float, float, float]]) -> tuple[DoublyStochasticResult, ...]:
    """One pass of DSGD at each schedule ``(gamma0, gamma1, nu)``, round by round.

    The features a round draws and its evaluations of ``psi`` do not depend on the steps (the
    coefficients multiply them, they do not choose them): each round draws and evaluates once,
    then every schedule takes its step on those values, each in the order a run alone takes
    it, so its numbers are that run's bit for bit.
    """
    T = X.shape[0]
    steps = [step_sizes(T, gamma0, gamma1) for gamma0, gamma1, _ in schedules]
    first = _draw(family, k, seed, 1)
    W = np.empty((T * k, *first.shape[1:]))
    W[:k] = first
    coefs = np.zeros((len(schedules), T * k))
    predictions = np.empty((len(schedules), T))
    for t in range(T):  # round t + 1
        past = t * k
        if t > 0:
            W[past : past + k] = _draw(family, k, seed, t + 1)
        # One evaluation of psi on x_t per feature: the (t - 1) k old ones and the k new ones.
        # X was checked once and each draw when it was made, so no row is checked again here.
        values = family.psi_validated(X[t : t + 1], W[: past + k])[0]
        for s, (_, _, nu) in enumerate(schedules):
            coef = coefs[s]
            # einsum, not BLAS: a threaded BLAS dot of 10^4 entries per round was measured
            # 2-3 times slower on a 2-core machine shared with other work.
            predictions[s, t] = float(np.einsum("i,i->", values[:past], coef[:past])) / k if past else 0.0
            if nu > 0.0:
                coef[:past] *= 1.0 - steps[s][t] * nu
            coef[past : past + k] = -steps[s][t] * (predictions[s, t] - y[t]) * values[past:]
    evaluations = k * np.arange(1, T + 1, dtype=np.int64)  # round t: t k
    W = W.reshape((T, k, *W.shape[1:]))
    # Each result owns its arrays, as a run alone does: a caller may write into one.
    return tuple(DoublyStochasticResult(
        coef=coefs[s].reshape(T, k).copy(), W=W if s == 0 else W.copy(), predictions=predictions[s].copy(),
        losses=0.5 * (predictions[s] - y) ** 2, labels=y if s == 0 else y.copy(), steps=steps[s],
        psi_evaluations=evaluations if s == 0 else evaluations.copy(),
        budget=Budget(features_sampled=k * T, psi_evaluations=int(evaluations.sum())),
        family=family, k=k, gamma0=gamma0, gamma1=gamma1, nu=nu, seed=seed,
    ) for s, (gamma0, gamma1, nu) in enumerate(schedules))


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

    See Also
    --------
    doubly_stochastic_grid : the same runs at several step schedules, drawing once.

    Examples
    --------
    >>> from iln.data import section6_data
    >>> from iln.features import RandomCoordinate
    >>> data = section6_data(20, 30, seed=0)
    >>> res = doubly_stochastic(data.X, data.y, RandomCoordinate(30), k=5, seed=1, gamma0=5.0)
    >>> res.budget == dsgd_budget(20, 5)
    True
    """
    return doubly_stochastic_grid(X, y, family, k=k, seed=seed,
                                  schedules=[{"gamma0": gamma0, "gamma1": gamma1, "nu": nu}])[0]


def doubly_stochastic_grid(X, y, family, *, k, seed, schedules) -> tuple[DoublyStochasticResult, ...]:
    """:func:`doubly_stochastic` at each step schedule of ``schedules``, on one set of draws.

    A run's features are a function of its seed alone (round t draws from child t), and the
    evaluations of ``psi`` a round makes do not depend on the coefficients, so the runs of a
    step-size search share them: drawn and evaluated once, each schedule then costs only its
    ``T`` scalar products.  Each result equals, bit for bit, the one
    ``doubly_stochastic(X, y, family, k=k, seed=seed, **schedule)`` returns, including its
    :attr:`~DoublyStochasticResult.budget`: what the learner would spend run alone.

    Parameters
    ----------
    X, y, family, k, seed
        As in :func:`doubly_stochastic`.
    schedules : sequence of mapping
        Each a set of step parameters of :func:`doubly_stochastic`: ``gamma0`` and
        optionally ``gamma1`` and ``nu``; at least one.

    Returns
    -------
    tuple of DoublyStochasticResult
        One per schedule, in order.

    Raises
    ------
    TypeError, ValueError
        As :func:`check_dsgd_arguments` says, for any schedule; a ``TypeError`` for a
        schedule that is not a mapping or has other keys, a ``ValueError`` for no schedule.

    Examples
    --------
    >>> from iln.data import section6_data
    >>> from iln.features import RandomCoordinate
    >>> data = section6_data(20, 30, seed=0)
    >>> family = RandomCoordinate(30)
    >>> runs = doubly_stochastic_grid(data.X, data.y, family, k=5, seed=1,
    ...                               schedules=[{"gamma0": 5.0}, {"gamma0": 2.0, "gamma1": 0.1}])
    >>> alone = doubly_stochastic(data.X, data.y, family, k=5, seed=1, gamma0=2.0, gamma1=0.1)
    >>> bool((runs[1].predictions == alone.predictions).all())
    True
    """
    schedules = check_schedules(schedules, "schedules", _SCHEDULE_KEYS, frozenset({"gamma0"}))
    checked = [check_dsgd_arguments(X, y, family, k, seed, s["gamma0"], s.get("gamma1", 0.0),
                                    s.get("nu", 0.0)) for s in schedules]
    X, y, family, k, seed = checked[0][:5]
    return _descend(X, y, family, k, seed, [c[5:] for c in checked])


#: the step parameters of :func:`doubly_stochastic`, the keys of a schedule of
#: :func:`doubly_stochastic_grid`.
_SCHEDULE_KEYS = frozenset({"gamma0", "gamma1", "nu"})
