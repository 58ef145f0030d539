r"""Fixed-Random: one set of random features shared by every point (Rahimi & Recht).

The first baseline of the ICML Section 6 experiment ("Fixed-Random: sample a set
of r features w_1, ..., w_r and evaluate these on all the train and test points";
the arXiv version has no experiment section).  It is the random-features method of
Rahimi & Recht, *Random Features for Large-Scale Kernel Machines* (NIPS 2007), and
*Weighted Sums of Random Kitchen Sinks* (NIPS 2008, published 2009; Algorithm 1):
the map

.. math::

    \phi(x) = \frac{1}{\sqrt r}\,(\psi(x; w_1), \dots, \psi(x; w_r)),
    \qquad w_j \sim \mu \text{ iid},

has ``phi(x) . phi(x') = (1/r) sum_j psi(x; w_j) psi(x'; w_j) -> k(x, x')`` as r grows
(ICML eq. 2-3), and the learner fits a linear predictor ``theta . phi(x)``.  With
``theta`` of Euclidean norm ``||theta||``, the predictor is ``<g, Phi(x)>`` for the
function ``g(w_j) = sqrt(r) theta_j`` of the empirical measure of the ``w_j``, whose
``L_2`` norm is ``||theta||``: the projection ``||theta|| <= B`` is the empirical
counterpart of the class ``H^B_mu`` (ICML/arXiv Section 2).

Two fits are provided:

``method="online"``
    one pass of online gradient descent on the squared loss
    ``l_t(theta) = (theta . phi(x_t) - y_t)^2 / 2`` (ICML eq. 6; arXiv eq. 5) in
    theta-space, with a constant step or the schedule ``gamma0 / (1 + gamma1 (t - 1))``
    and an optional projection onto the ball ``||theta|| <= B`` (Zinkevich 2003);
``method="least_squares"``
    batch ridge regression on the r features (Rahimi & Recht 2009, Algorithm 1, with
    the squared loss); its online predictions are those of the ridge fit to the
    points seen so far (follow the regularised leader), so that its online loss is
    defined by the same protocol.

Budget (:mod:`iln.budget`): r parameters sampled; the r features are evaluated once on
each of the T training points, ``r * T`` evaluations of ``psi``.

This module also holds the pieces the other baselines share: the validation of
``(X, y, family)``, the step-size schedule, the check of a step-size grid
(:func:`check_schedules`), of the features of new points (:func:`check_features`) and
:func:`feature_matrix`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import linalg

from iln import arguments, random_streams
from iln.budget import Budget
from iln.features import FeatureFamily, check_family
from iln.online_protocol import OnlineLosses

__all__ = [
    "DEFAULT_RIDGE",
    "FIXED_RANDOM_METHODS",
    "FixedRandomResult",
    "check_features",
    "check_online_data",
    "check_schedules",
    "feature_matrix",
    "fixed_random",
    "fixed_random_grid",
    "step_sizes",
]

#: fits of :func:`fixed_random`.
FIXED_RANDOM_METHODS = ("online", "least_squares")

#: Ridge of ``method="least_squares"``: the fit minimises
#: ``(1/2) sum_t (theta . phi(x_t) - y_t)^2 + (ridge/2) ||theta||^2``.  1e-8 is far below
#: every eigenvalue that matters for labels in [-1, 1] (the fit is the least-squares one
#: to about 1e-8 wherever the features determine it) and keeps the T x T system
#: ``Phi Phi^T + ridge I`` positive definite when ``r < T`` or features coincide, with a
#: condition number of at most ``||Phi||^2 / 1e-8``, well inside float64.
DEFAULT_RIDGE = 1e-8


# ---------------------------------------------------------------------------------------
# Shared by the baselines
# ---------------------------------------------------------------------------------------
def check_online_data(X, y, family) -> tuple[np.ndarray, np.ndarray, FeatureFamily]:
    """Validate a labelled sequence for an online learner; returns ``(X, y, family)`` cleaned.

    Parameters
    ----------
    X : array (T, D)
        Inputs in the family's domain, ``T >= 1``.
    y : array (T,)
        Labels, finite, in [-1, 1] (the label set of ICML/arXiv Section 2).
    family : FeatureFamily
        The pair ``(mu, psi)``; a learner only samples from ``mu`` and evaluates ``psi``.

    Raises
    ------
    TypeError
        If ``family`` is not a :class:`~iln.features.FeatureFamily` or ``X``/``y`` are not
        real arrays.
    ValueError
        If shapes do not match, ``T = 0``, values are not finite, inputs leave the family's
        domain or labels leave [-1, 1].
    """
    family = check_family(family)
    X = family.check_inputs(X, "X")
    T = X.shape[0]
    if T < 1:
        raise ValueError("X must hold at least one point (T >= 1)")
    # A copy: results keep the labels.
    return X, arguments.labels(y, "y", T), family


def step_sizes(T: int, gamma0: float, gamma1: float = 0.0) -> np.ndarray:
    """The schedule ``gamma_t = gamma0 / (1 + gamma1 (t - 1))`` for rounds t = 1, ..., T.

    The form of the step sizes of Dai et al. (2014, Section 4 and their experiments,
    ``gamma_t = theta / (t + t0)`` up to the constant): ``gamma0`` is the first step and
    ``gamma1 = 0`` a constant step.  Counting from ``t - 1`` makes ``gamma0`` the largest
    step, which is what the DSGD condition ``gamma_t nu < 1`` is checked on.

    Parameters
    ----------
    T : int
        Number of rounds, ``1 <= T <=`` :data:`iln.arguments.MAX_LENGTH`.
    gamma0 : float
        First step, ``> 0``.
    gamma1 : float, default=0.0
        Decay rate, ``>= 0``.

    Returns
    -------
    ndarray (T,)

    Examples
    --------
    >>> step_sizes(3, 1.0, 1.0)
    array([1.        , 0.5       , 0.33333333])
    """
    T = arguments.length(T, "T", 1)
    gamma0 = arguments.positive_real(gamma0, "gamma0")
    gamma1 = arguments.nonnegative_real(gamma1, "gamma1")
    return gamma0 / (1.0 + gamma1 * np.arange(T, dtype=np.float64))


def check_schedules(value, name: str, keys: frozenset[str], required: frozenset[str]) -> tuple[dict, ...]:
    """A non-empty sequence of step schedules, each a mapping of step parameters: the grid of
    a step-size search run on one set of draws (the ``*_grid`` baselines).

    Parameters
    ----------
    value : sequence of mapping
        The argument.
    name : str
        The argument's name, used in error messages.
    keys : frozenset of str
        The step parameters a schedule may give.
    required : frozenset of str
        Those it must give.

    Returns
    -------
    tuple of dict
        The schedules as dicts, in order; their values are checked by the learner, as a run
        alone checks them.
    """
    for parameter, given in (("keys", keys), ("required", required)):
        if not isinstance(given, frozenset) or not all(isinstance(k, str) for k in given):
            raise TypeError(f"{parameter} must be a frozenset of str (step parameters of {name}), "
                            f"got {given!r}")
    if not required <= keys:
        raise ValueError(f"required must be among keys (step parameters of {name}), got "
                         f"{sorted(required - keys)} outside {sorted(keys)}")
    if isinstance(value, (Mapping, str)) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a sequence of mappings of step parameters, got {value!r}")
    if not value:
        raise ValueError(f"{name} must hold at least one set of step parameters")
    out = []
    for i, schedule in enumerate(value):
        if not isinstance(schedule, Mapping) or set(schedule) - keys or required - set(schedule):
            raise TypeError(f"{name}[{i}] must be a mapping giving {sorted(required)}, and "
                            f"otherwise only keys among {sorted(keys)}; got {schedule!r}")
        out.append(dict(schedule))
    return tuple(out)


def check_features(features, columns: int) -> np.ndarray:
    """The features of new points given to a baseline's ``predict_from_features``: a finite
    float matrix with one column per feature (or support point) of the trained learner.

    Raises
    ------
    TypeError, ValueError
        Naming ``features``.
    """
    # Not copied: the same matrix serves every run of a step search, and a copy could change
    # its memory order, hence the last bits of the products.
    features = arguments.real_array(features, "features", copy=False)
    if features.ndim != 2 or features.shape[1] != columns:
        raise ValueError(f"features must have {columns} columns, one per feature of the trained "
                         f"learner (its features(X_new)), got shape {features.shape}")
    return features


def feature_matrix(family: FeatureFamily, X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """All pairs ``out[j, l] = psi(X[j]; W[l])``: the family's own ``psi``, whose memory is
    bounded whatever ``len(X) * len(W)`` is (:meth:`iln.features.FeatureFamily.psi`).

    Parameters
    ----------
    family : FeatureFamily
        The pair ``(mu, psi)``.
    X : array (n, D)
        Inputs in the family's domain.
    W : array (r, p)
        Parameters in the family's layout, e.g. from :meth:`~iln.features.FeatureFamily.sample`.

    Returns
    -------
    ndarray (n, r)
    """
    return check_family(family).psi(X, W)


# ---------------------------------------------------------------------------------------
# Fixed-Random
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FixedRandomResult(OnlineLosses):
    """The outcome of :func:`fixed_random`.

    Attributes
    ----------
    theta : ndarray (r,)
        Final weights: the predictor is ``x -> theta . psi(x; W) / sqrt(r)``.
    W : ndarray (r, p)
        The r features ``w_1, ..., w_r``, drawn once.
    predictions : ndarray (T,)
        Online predictions ``theta_t . phi(x_t)``, made before round t's update.
    losses : ndarray (T,)
        ``(predictions - y)^2 / 2`` (ICML eq. 6; arXiv eq. 5).
    labels : ndarray (T,)
        ``y_t``.
    steps : ndarray (T,)
        Step size of each round (``method="online"``); NaN for ``"least_squares"``.
    theta_norm : ndarray (T + 1,)
        ``||theta_t||`` for t = 1, ..., T + 1 (``method="online"``; for
        ``"least_squares"`` the norm of the ridge fit to the first t - 1 points).
    projected : ndarray of bool (T,)
        Whether round t's step left the ball and was projected back.
    budget : Budget
        r parameters, ``r * T`` evaluations of ``psi`` (:mod:`iln.budget`).
    family : FeatureFamily
    r : int
    method : str
    eta, gamma0 : float or None
        The constant step, or the first step of the schedule (one of them is set for
        ``method="online"``).
    gamma1 : float
    B : float or None
        Projection radius; None for no projection.
    ridge : float or None
        Ridge of ``method="least_squares"``.
    seed : numpy.random.SeedSequence
    """

    theta: np.ndarray
    W: np.ndarray
    predictions: np.ndarray
    losses: np.ndarray
    labels: np.ndarray
    steps: np.ndarray
    theta_norm: np.ndarray
    projected: np.ndarray
    budget: Budget
    family: FeatureFamily = field(repr=False)
    r: int
    method: str
    eta: float | None
    gamma0: float | None
    gamma1: float
    B: float | None
    ridge: float | None
    seed: np.random.SeedSequence


    def features(self, X_new) -> np.ndarray:
        """``phi(x) = psi(x; W) / sqrt(r)`` for each row, shape ``(n, r)``: the same for every
        run of one :func:`fixed_random_grid` call."""
        X_new = self.family.check_inputs(X_new, "X_new")
        return feature_matrix(self.family, X_new, self.W) / math.sqrt(self.r)

    def predict(self, X_new) -> np.ndarray:
        """Final predictor ``theta . phi(x)`` at new points, shape ``(n,)``.

        Evaluates the same r features on the test points, as Section 6 prescribes
        ("evaluate these on all the train and test points"); these ``r * n``
        evaluations are test-time work, not part of :attr:`budget`.
        """
        return self.predict_from_features(self.features(X_new))

    def predict_from_features(self, features) -> np.ndarray:
        """:meth:`predict` from the :meth:`features` of the new points (computed once for the
        runs of a step search, which share their features)."""
        return check_features(features, self.r) @ self.theta


def _online(Phi, y, steps, B):
    T, r = Phi.shape
    theta = np.zeros(r)
    predictions = np.empty(T)
    norms = np.zeros(T + 1)
    projected = np.zeros(T, dtype=bool)
    # Dot products by einsum rather than BLAS: one short dot per round, where a threaded
    # BLAS pays a synchronisation (measured 2-3 times slower on a shared 2-core machine).
    for t in range(T):
        phi = Phi[t]
        predictions[t] = np.einsum("i,i->", theta, phi)
        theta -= steps[t] * (predictions[t] - y[t]) * phi
        norm = math.sqrt(np.einsum("i,i->", theta, theta))
        if B is not None and norm > B:
            theta *= B / norm
            norm = B
            projected[t] = True
        norms[t + 1] = norm
    return theta, predictions, norms, projected


def _least_squares(Phi, y, ridge):
    """Ridge fit on all points, and the online predictions of the fits to the past points.

    Dual form: with ``G = Phi Phi^T + ridge I = L L^T`` (Cholesky), the fit to points
    ``1..t-1`` is ``theta_t = Phi_{<t}^T G_{<t}^{-1} y_{<t}`` (G's leading block has the
    leading block of L as its factor).  With ``z = L^{-1} y`` and ``M = L^{-1} Phi``,
    whose leading entries depend only on the leading points, ``theta_t = M_{<t}^T z_{<t}``
    and its prediction at ``x_t`` is ``G_{t,<t} G_{<t}^{-1} y_{<t} = L_{t,<t} . z_{<t}``.
    One factorisation gives every round.
    """
    T = Phi.shape[0]
    G = Phi @ Phi.T
    G[np.diag_indices(T)] += ridge
    L = linalg.cholesky(G, lower=True)
    z = linalg.solve_triangular(L, y, lower=True)
    predictions = np.tril(L, -1) @ z
    M = linalg.solve_triangular(L, Phi, lower=True)
    partial = np.cumsum(M * z[:, None], axis=0)  # row t - 1 is theta_{t+1}
    norms = np.concatenate([[0.0], np.linalg.norm(partial, axis=1)])
    return partial[-1].copy(), predictions, norms


def fixed_random(X, y, family, *, r, seed, eta=None, gamma0=None, gamma1=0.0, B=None,
                 method: str = "online", ridge=None) -> FixedRandomResult:
    """Fixed-Random features (Rahimi & Recht 2007; 2009), the ICML Section 6 baseline.

    Draws r parameters ``w_1, ..., w_r ~ mu`` once and learns a linear predictor on
    ``phi(x) = psi(x; W) / sqrt(r)``, whose scalar products approach the kernel
    ``k(x, x') = E_w[psi(x; w) psi(x'; w)]`` (ICML eq. 2-3; arXiv eq. 2).

    Parameters
    ----------
    X, y, family
        As in :func:`~iln.baselines.fixed_random.check_online_data`.
    r : int
        Number of features, ``r >= 1``.
    seed : int or numpy.random.SeedSequence
        The r features are drawn from a generator on this seed.
    eta : float, optional
        Constant step size, ``> 0`` (``method="online"``; give ``eta`` or ``gamma0``).
    gamma0 : float, optional
        First step of the schedule ``gamma0 / (1 + gamma1 (t - 1))``, ``> 0``.
    gamma1 : float, default=0.0
        Decay of the schedule, ``>= 0`` (only with ``gamma0``).
    B : float, optional
        Project ``theta`` onto ``||theta|| <= B`` after each step, ``B >= 1``; default no
        projection (``method="online"`` only).
    method : {"online", "least_squares"}, default="online"
        One pass of online gradient descent, or batch ridge least squares.
    ridge : float, optional
        Ridge of ``method="least_squares"``, ``> 0``; default :data:`DEFAULT_RIDGE`.

    Returns
    -------
    FixedRandomResult

    Raises
    ------
    TypeError, ValueError
        On invalid input, the message naming the argument; a ``ValueError`` also for a step
        argument that ``method`` does not use, or for both or neither of ``eta`` and ``gamma0``.

    See Also
    --------
    fixed_random_grid : the online runs at several steps, on one set of features.

    Examples
    --------
    >>> from iln.data import section6_data
    >>> from iln.features import RandomCoordinate
    >>> data = section6_data(20, 30, seed=0)
    >>> res = fixed_random(data.X, data.y, RandomCoordinate(30), r=50, seed=1, eta=5.0)
    >>> res.budget
    Budget(features_sampled=50, psi_evaluations=1000)
    >>> res.predict(data.X[:2]).shape
    (2,)
    """
    X, y, family = check_online_data(X, y, family)
    r = arguments.length(r, "r", 1)
    seed = random_streams.as_seed_sequence(seed, "seed")
    schedule = _check_schedule(X.shape[0], method, eta, gamma0, gamma1, B, ridge)
    return _fit(_features(X, family, r, seed), y, family, r, seed, *schedule)


def fixed_random_grid(X, y, family, *, r, seed, schedules, B=None) -> tuple[FixedRandomResult, ...]:
    """:func:`fixed_random` (``method="online"``) at each step of ``schedules``, on one set of
    features.

    The r features are a function of the seed alone and their matrix on the points does not
    depend on the step, so the runs of a step-size search share them: drawn and evaluated
    once, each step then costs only its ``T`` updates.  Each result equals, bit for bit, the
    one ``fixed_random(X, y, family, r=r, seed=seed, B=B, **schedule)`` returns, including
    its :attr:`~FixedRandomResult.budget`: what the learner would spend run alone.

    Parameters
    ----------
    X, y, family, r, seed, B
        As in :func:`fixed_random`.
    schedules : sequence of mapping
        Each the step parameters of one run: ``eta``, or ``gamma0`` and optionally
        ``gamma1``; at least one.

    Returns
    -------
    tuple of FixedRandomResult
        One per schedule, in order.

    Raises
    ------
    TypeError, ValueError
        As :func:`fixed_random` says, for any schedule; a ``TypeError`` for a schedule that
        is not a mapping of step parameters, a ``ValueError`` for no schedule.

    Examples
    --------
    >>> from iln.data import section6_data
    >>> from iln.features import RandomCoordinate
    >>> data = section6_data(20, 30, seed=0)
    >>> family = RandomCoordinate(30)
    >>> runs = fixed_random_grid(data.X, data.y, family, r=50, seed=1,
    ...                          schedules=[{"eta": 5.0}, {"gamma0": 5.0, "gamma1": 0.1}])
    >>> alone = fixed_random(data.X, data.y, family, r=50, seed=1, gamma0=5.0, gamma1=0.1)
    >>> bool((runs[1].predictions == alone.predictions).all())
    True
    """
    schedules = check_schedules(schedules, "schedules", frozenset({"eta", "gamma0", "gamma1"}),
                                    frozenset())
    X, y, family = check_online_data(X, y, family)
    r = arguments.length(r, "r", 1)
    seed = random_streams.as_seed_sequence(seed, "seed")
    checked = [_check_schedule(X.shape[0], "online", s.get("eta"), s.get("gamma0"), s.get("gamma1", 0.0),
                               B, None) for s in schedules]
    W, Phi = _features(X, family, r, seed)
    # Each result owns its features and labels, as a run alone does: a caller may write into one.
    return tuple(_fit((W, Phi) if s == 0 else (W.copy(), Phi), y if s == 0 else y.copy(), family, r, seed,
                      *schedule) for s, schedule in enumerate(checked))


def _check_schedule(T: int, method, eta, gamma0, gamma1, B, ridge) -> tuple:
    """The step arguments of :func:`fixed_random` checked, and the steps of its T rounds:
    ``(method, steps, eta, gamma0, gamma1, B, ridge)``."""
    method = arguments.choice(method, "method", FIXED_RANDOM_METHODS)
    gamma1 = arguments.nonnegative_real(gamma1, "gamma1")
    B = arguments.norm_radius(B)
    if method == "online":
        if ridge is not None:
            raise ValueError("ridge applies to method='least_squares' only")
        if (eta is None) == (gamma0 is None):
            raise ValueError("eta or gamma0: give exactly one, a constant step or the first step "
                             "of a schedule, for method='online'")
        if eta is not None:
            eta = arguments.positive_real(eta, "eta")
            if gamma1 != 0.0:
                raise ValueError("gamma1 applies to the schedule of gamma0, not to a constant eta")
            steps = np.full(T, eta)
        else:
            gamma0 = arguments.positive_real(gamma0, "gamma0")
            steps = step_sizes(T, gamma0, gamma1)
    else:
        for name, value in (("eta", eta), ("gamma0", gamma0), ("B", B)):
            if value is not None:
                raise ValueError(f"{name} applies to method='online' only")
        if gamma1 != 0.0:
            raise ValueError("gamma1 applies to method='online' only")
        ridge = DEFAULT_RIDGE if ridge is None else arguments.positive_real(ridge, "ridge")
        steps = np.full(T, np.nan)
    return method, steps, eta, gamma0, gamma1, B, ridge


def _features(X: np.ndarray, family: FeatureFamily, r: int, seed: np.random.SeedSequence) -> tuple:
    """The r features drawn once from ``seed``, and ``phi(x_t) = psi(x_t; W) / sqrt(r)`` for
    every point: ``(W, Phi)``, what every step of a search shares."""
    W = family.sample(r, random_streams.generator(seed))
    Phi = feature_matrix(family, X, W) / math.sqrt(r)
    return W, Phi


def _fit(features: tuple, y: np.ndarray, family: FeatureFamily, r: int, seed, method, steps, eta,
         gamma0, gamma1, B, ridge) -> FixedRandomResult:
    """The learner on the feature matrix of ``features``, by ``method`` at ``steps``."""
    W, Phi = features
    T = Phi.shape[0]
    if method == "online":
        theta, predictions, norms, projected = _online(Phi, y, steps, B)
    else:
        theta, predictions, norms = _least_squares(Phi, y, ridge)
        projected = np.zeros(T, dtype=bool)
    return FixedRandomResult(
        theta=theta, W=W, predictions=predictions, losses=0.5 * (predictions - y) ** 2,
        labels=y, steps=steps, theta_norm=norms, projected=projected,
        budget=Budget(features_sampled=r, psi_evaluations=r * T), family=family, r=r,
        method=method, eta=eta, gamma0=gamma0, gamma1=gamma1, B=B, ridge=ridge, seed=seed,
    )

