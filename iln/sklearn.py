"""scikit-learn estimators for the learners of :mod:`iln`.

``ShrinkingGradientRegressor`` (Algorithm 1 of the ILN paper), and the
baselines it is compared with, behind the usual ``fit`` / ``partial_fit`` /
``predict`` / ``get_params`` / ``set_params`` interface, so that they drop into
pipelines next to ``RBFSampler`` + ``SGDRegressor``.

The paper's learners work in a fixed domain: labels in ``[-1, 1]`` (ICML and
arXiv Section 2) and inputs where ``|psi(x; w)| < 1``.  The estimators map the
data there and back, fitted on the first call of ``fit``/``partial_fit``:

* targets: ``(y - y_offset_) / y_scale_`` with ``y_offset_`` the mean of y and
  ``y_scale_`` the largest ``|y - y_offset_|``, so that the training targets fill
  ``[-1, 1]`` and a learner without intercept starts from the mean; predictions are
  mapped back (``y_offset_ + y_scale_ * f(x)``); later targets beyond the range
  are clipped.  Class labels are not scaled (the classifier uses +-1).
* inputs, for the families that need it: divided by the largest entry (random
  coordinates) or the largest row norm (neurons on the sphere) of that call;
  later inputs beyond it are clipped back into the domain.
* the Fourier family's ``gamma``, unless ``family_params`` gives a number, follows a rule
  of :data:`GAMMA_RULES` computed on the training inputs, so that ``||x - x'||^2 gamma`` is
  of order one on standardised and raw data alike: for the online learners
  ``1 / (n_features * X.var())`` (scikit-learn's ``gamma="scale"`` rule of ``SVC``,
  :func:`scale_gamma`); for Random Kitchen Sinks, which draws its K features once before
  any label, the median heuristic ``1 / (2 median ||x - x'||^2)`` (:func:`median_gamma`).
  ``family_params={"gamma": "median"}`` (or ``"scale"``) picks a rule by name.

Step sizes are ``"auto"`` by default: the online learners make their pass with each
step ``c / (k_bar sqrt T)``, ``c`` in :data:`AUTO_STEP_FACTORS`, and keep the pass with
the smallest online (progressive-validation) loss over its later half of rounds.
``1 / (k_bar sqrt T)``
(:func:`auto_step`) is Theorem 1's ``B / sqrt(T)`` (ICML and arXiv) with ``B = 1`` for
features normalised to ``E||Phi(x)||^2 = 1``.  A fit whose estimated run time exceeds
:data:`SLOW_FIT_SECONDS` warns (:class:`SlowFitWarning`) with the reason and the
parameter to change.
"""

from __future__ import annotations

import inspect
import math
import warnings
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from iln import arguments, features, random_streams, theory
from iln import estimator as _estimator
from iln.baselines.doubly_stochastic import doubly_stochastic
from iln.baselines.fixed_random import fixed_random
from iln.rks.kitchen_sinks import LOSSES, RIDGE_GRID, random_kitchen_sinks
from iln.shrinking_gradient import UPDATES, shrinking_gradient

__all__ = [
    "AUTO_STEP_FACTORS",
    "FAMILIES",
    "GAMMA_RULES",
    "MEDIAN_ROWS",
    "RIDGE_GRID",
    "SLOW_FIT_SECONDS",
    "DoublyStochasticRegressor",
    "FixedRandomRegressor",
    "InvalidParameterError",
    "RandomKitchenSinksClassifier",
    "RandomKitchenSinksRegressor",
    "ShrinkingGradientRegressor",
    "SlowFitWarning",
    "auto_step",
    "median_gamma",
    "scale_gamma",
]

#: feature families by name; ``family_params`` are passed to the constructor.
FAMILIES = {
    "coordinate": features.RandomCoordinate,
    "fourier": features.RandomFourier,
    "sign": features.RandomSign,
    "relu": features.RandomReLU,
    "sigmoid": features.RandomSigmoid,
    "stump": features.RandomStump,
}
#: multiples of :func:`auto_step` an ``"auto"`` step tries.  Each is one pass; the pass
#: whose later half of rounds had the smallest mean online loss, each round's loss of the
#: prediction made before its label was seen, is kept.  That loss is an unbiased estimate
#: of the risk of those rounds' predictors on data from the same distribution
#: (progressive validation; Blum, Kalai & Langford 1999), so no row is set aside; the
#: later half because its predictors are the closest to the final one, which the
#: estimator predicts with (the whole pass favours large steps, which learn fast early
#: and leave a noisy final predictor).  A factor of 2 between candidates.
AUTO_STEP_FACTORS = (0.5, 1.0, 2.0, 4.0)
#: a fit estimated to take longer than this many seconds warns (:class:`SlowFitWarning`).
SLOW_FIT_SECONDS = 5.0
#: rows :func:`median_gamma` reads at most (124,750 pairs): the median of 500 random rows of
#: standardised digits or breast_cancer was within 5% of all rows' (sd 1-2%), well inside
#: the factor 2 between width rules that changes accuracy, at a small part of a fit's time.
MEDIAN_ROWS = 500
# Seconds per sampled feature and input coordinate: Algorithm 2 with Fourier features
# measured 25-28 ns per coordinate (d = 10 and 64) on the project's 2-core machine; an
# estimate for the warning, not a promise.
_SECONDS_PER_COORDINATE = 30e-9
# Inputs strictly inside the domain: a margin far above round-off, far below the data's scale.
_MARGIN = 1e-6
# Points and features of the Monte Carlo estimate of E||Phi(x)||^2 behind the "auto" step:
# 256 x 256 evaluations give it to a few per cent, a negligible cost beside any fit.
_STEP_PROBES = 256
# Prediction of ShrinkingGradientRegressor: accuracy (in the scaled targets' units, whose
# range is [-1, 1]) and failure probability of Theorem 1 part 3, and the cap on its m.
_PREDICT_EPSILON, _PREDICT_DELTA, _PREDICT_MAX_M = 0.05, 0.05, 2**20
# Largest B: from about 2**13 on the proof's m overflows the int64 sample counts of
# Algorithm 2, so Theorem 1 cannot be run at that norm bound at all.
_MAX_B = 2.0**13


class InvalidParameterError(ValueError, TypeError):
    """An estimator's parameter of the wrong type or value, raised at fit; both a ValueError
    and a TypeError, as scikit-learn's own estimators raise."""


class SlowFitWarning(UserWarning):
    """A fit is estimated to take more than :data:`SLOW_FIT_SECONDS`; the message says why."""


def _warn_if_slow(what: str, coordinates: float, advice: str) -> None:
    """Warn when ``coordinates`` sampled coordinates take more than ``SLOW_FIT_SECONDS``."""
    seconds = coordinates * _SECONDS_PER_COORDINATE
    if seconds > SLOW_FIT_SECONDS:
        warnings.warn(f"{what}: about {seconds:.0f} s at {_SECONDS_PER_COORDINATE * 1e9:.0f} ns per "
                      f"sampled coordinate; {advice}", SlowFitWarning, stacklevel=3)


def auto_step(family: features.FeatureFamily, X: np.ndarray, T: int, seed) -> float:
    """The unit of the ``"auto"`` steps, ``1 / (k_bar sqrt(T))``, ``k_bar`` estimated by sampling.

    ``k_bar`` is the mean over the points of ``k(x, x) = E_w[psi(x; w)^2] = ||Phi(x)||^2``
    (ICML eq. 2-3; arXiv eq. 2), estimated from ``psi`` on 256 sampled features and at
    most 256 of the points: the learner only samples, as docs, Design, principle 1 asks.
    A gradient step of size ``eta`` on the squared loss moves the prediction at its own
    point by ``eta k(x, x)`` times the residual; this step moves it by ``1/sqrt(T)`` of the
    residual.  It is Theorem 1's ``eta = B / sqrt(T)`` with ``B = 1`` for the features
    divided by ``sqrt(k_bar)``, which leaves Algorithm 1's predictions unchanged.

    Parameters
    ----------
    family : FeatureFamily
    X : ndarray (n, D)
        Points in the family's domain.
    T : int
        Number of rounds.
    seed : int or numpy.random.SeedSequence

    Returns
    -------
    float
        The step; ``1 / sqrt(T)`` when every sampled ``psi`` is 0.

    Examples
    --------
    >>> import numpy as np
    >>> from iln.features import RandomFourier
    >>> X = np.random.default_rng(0).standard_normal((50, 3))
    >>> round(auto_step(RandomFourier(3), X, T=100, seed=0), 2)  # k(x, x) = 1/2 for Fourier
    0.2
    """
    rng = random_streams.generator(seed)
    rows = X[rng.choice(X.shape[0], size=min(X.shape[0], _STEP_PROBES), replace=False)]
    k_bar = float(np.mean(family.psi(rows, family.sample(_STEP_PROBES, rng)) ** 2))
    return 1.0 / ((k_bar if k_bar > 0 else 1.0) * math.sqrt(T))


def _best_pass(runs: dict, online_losses) -> tuple[float, dict]:
    """The step whose pass has the smallest mean online loss over its later half of rounds
    (the smaller step on a tie), and every step's loss."""
    losses = {}
    for step, run in runs.items():
        per_round = online_losses(run)
        losses[step] = float(per_round[per_round.shape[0] // 2:].mean())
    return min(losses, key=losses.__getitem__), losses


class _Domain:
    """The map of raw inputs and targets into the paper's domain, fitted on the first call."""

    def __init__(self, family: features.FeatureFamily, X: np.ndarray, y: np.ndarray | None):
        if isinstance(family, features.RandomCoordinate):
            self.kind, extent = "box", np.max(np.abs(X), initial=0.0)
        elif isinstance(family, features.SphereNeuron):
            self.kind, extent = "ball", np.max(np.linalg.norm(X, axis=1), initial=0.0)
        else:
            self.kind, extent = "free", 1.0
        self.x_scale = float(extent) * (1 + _MARGIN) if extent > 0 else 1.0
        self.y_offset = 0.0 if y is None else float(np.mean(y))
        top = 0.0 if y is None else float(np.max(np.abs(y - self.y_offset), initial=0.0))
        # Constant targets: any scale maps them to 0; 1 keeps the map the identity shift.
        self.y_scale = top if top > 0 else 1.0

    def inputs(self, X: np.ndarray) -> np.ndarray:
        Z = X / self.x_scale
        if self.kind == "box":
            return np.clip(Z, -1 + _MARGIN, 1 - _MARGIN)
        if self.kind == "ball":
            norms = np.linalg.norm(Z, axis=1, keepdims=True)
            return np.where(norms > 1, Z / np.maximum(norms, 1e-300), Z)
        return Z

    def targets(self, y: np.ndarray) -> np.ndarray:
        return np.clip((y - self.y_offset) / self.y_scale, -1.0, 1.0)

    def back(self, f: np.ndarray) -> np.ndarray:
        return self.y_offset + self.y_scale * f


def scale_gamma(X: np.ndarray) -> float:
    """scikit-learn's ``gamma="scale"`` (``SVC``): ``1 / (n_features * X.var())``; 1 for constant
    (or empty) X, and where the variance overflows.  Parameter and result as in :func:`median_gamma`.
    """
    X = arguments.real_matrix(X, "X")
    with np.errstate(over="ignore"):
        spread = float(X.var()) * X.shape[1] if X.size else 0.0
    return _inverse_or_one(spread)


def _inverse_or_one(value: float) -> float:
    """``1 / value``, or 1 where that is not a positive finite number (constant or overflowing data)."""
    inverse = 1.0 / value if value > 0 else math.inf
    return inverse if inverse < math.inf and value < math.inf else 1.0


def median_gamma(X: np.ndarray) -> float:
    """The median heuristic: ``gamma = 1 / (2 median ||x - x'||^2)`` over pairs of rows.

    The Gaussian kernel ``exp(-||x - x'||^2 / (2 sigma^2))`` with ``sigma`` the median distance
    between two points (Schoelkopf & Smola 2002; Gretton et al. 2012), whose width follows
    the data's own spread whatever its dimension; Fourier features with this ``gamma``
    sample that kernel (:class:`iln.features.RandomFourier`: ``E psi psi =
    exp(-gamma ||x - x'||^2) / 2``).  Beyond :data:`MEDIAN_ROWS` rows, the median is taken
    over that many rows spread evenly through X (every k-th row: deterministic, and through
    every part of a sorted data set).  Where the median is 0 (most rows alike) or
    overflows, it is :func:`scale_gamma`.

    Parameters
    ----------
    X : ndarray (n, D)

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])  # squared distances 1, 4, 5
    >>> median_gamma(X)
    0.125
    """
    from scipy.spatial.distance import pdist

    X = arguments.real_matrix(X, "X")
    rows = X[np.linspace(0, X.shape[0] - 1, MEDIAN_ROWS).astype(np.intp)] if X.shape[0] > MEDIAN_ROWS else X
    with np.errstate(over="ignore"):
        squared = pdist(rows, "sqeuclidean") if rows.shape[0] > 1 else np.zeros(0)
    middle = 2.0 * float(np.median(squared)) if squared.size else 0.0
    return _inverse_or_one(middle) if 0 < middle < math.inf else scale_gamma(X)


#: rules for the Fourier family's ``gamma`` by name (``family_params={"gamma": name}``).
GAMMA_RULES = {"scale": scale_gamma, "median": median_gamma}


def _make_family(family, family_params, X: np.ndarray, gamma_rule: str) -> features.FeatureFamily:
    n_features = X.shape[1]
    if isinstance(family, features.FeatureFamily):
        if family.dim != n_features:
            raise ValueError(f"family has input dimension {family.dim}, X has {n_features} features")
        return family
    cls = FAMILIES[family]
    params = dict(family_params or {})
    if cls is features.RandomFourier:
        rule = params.get("gamma", gamma_rule)
        if isinstance(rule, str) and rule in GAMMA_RULES:
            params["gamma"] = GAMMA_RULES[rule](X)
    try:
        return cls(n_features, **params)
    except (TypeError, ValueError) as error:
        # The constructor's message names its own parameter (or, for an unknown key, only
        # Python's "unexpected keyword"); the user wrote family_params, so name that.
        accepted = [p for p in inspect.signature(cls).parameters if p != "dim"]
        raise type(error)(
            f"family_params must hold parameters of {cls.__name__} ({', '.join(accepted) or 'none'}) "
            f"with accepted values, got {family_params!r}: {error}"
        ) from error


def _seed_of(random_state) -> np.random.SeedSequence:
    """``random_state`` as a seed: an int ``s`` as ``SeedSequence(s)`` and a SeedSequence as
    given (so ``0`` and ``SeedSequence(0)`` fit alike), a RandomState by one draw from it,
    None by fresh entropy (scikit-learn's convention; pass an int to reproduce a fit)."""
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, np.random.RandomState):
        return np.random.SeedSequence(int(random_state.randint(0, 2**31 - 1)))
    return random_streams.as_seed_sequence(random_state, "random_state")


# Children of an estimator's seed_: the learner's own draws, the auto step's probes and
# (Shrinking Gradient) the prediction's draws never share a stream.
_LEARNER, _STEP_PROBE, _PREDICTION = 0, 1, 2


# -- the parameters' checks ----------------------------------------------------------------
# scikit-learn's estimators check their parameters at fit, not in __init__ (set_params and
# clone must accept anything).  Each estimator lists, per parameter, a check of
# :mod:`iln.arguments` (or one built on it below) and the words it accepts instead
# (``"auto"``, ...); None is accepted where the words include None.


def _family(value, name: str):
    """A :class:`~iln.features.FeatureFamily`, or the name of one in :data:`FAMILIES`."""
    if isinstance(value, features.FeatureFamily):
        return value
    return arguments.choice(value, name, tuple(FAMILIES))


def _family_params(value, name: str):
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict of the family's parameters, got {type(value).__name__}")
    return value


def _random_state(value, name: str):
    """scikit-learn's seeds, an int in [0, 2**32 - 1] or a ``numpy.random.RandomState``, and the
    project's, a ``numpy.random.SeedSequence`` (:func:`_seed_of` maps each to a seed)."""
    if isinstance(value, np.random.RandomState | np.random.SeedSequence):
        return value
    value = arguments.integer(value, name, 0)
    if value > 2**32 - 1:
        raise ValueError(f"{name} must be an int in [0, 2**32 - 1], got {value}")
    return value


def _count(value, name: str):
    return arguments.integer(value, name, 1)


def _samples(value, name: str):
    """Samples of Algorithm 2: an int in [1, :data:`iln.estimator.MAX_M`]."""
    value = arguments.integer(value, name, 1)
    if value > _estimator.MAX_M:
        raise ValueError(f"{name} must be an int in [1, {_estimator.MAX_M}], got {value}")
    return value


def _radius(value, name: str):
    """Theorem 1's ``B >= 1``, below :data:`_MAX_B` (beyond it the proof's m overflows)."""
    value = arguments.norm_radius(value, name)
    if value >= _MAX_B:
        raise ValueError(f"{name} must be a real number in [1, {_MAX_B:g}), got {value!r}")
    return value


def _update(value, name: str):
    return arguments.choice(value, name, UPDATES)


def _loss(value, name: str):
    return arguments.choice(value, name, LOSSES)


def _fixed_random_method(value, name: str):
    return arguments.choice(value, name, ("online", "least_squares"))


def _check_parameter(estimator, name: str, check, words: tuple = ()) -> None:
    """Check ``estimator``'s parameter ``name``: one of ``words`` as it stands, else by ``check``;
    the error names the parameter and the estimator, as scikit-learn's own do."""
    value = getattr(estimator, name)
    if any(value is w if w is None else (isinstance(value, str) and value == w) for w in words):
        return
    try:
        check(value, name)
    except (TypeError, ValueError) as error:
        also = f" (or one of {words})" if words else ""
        raise InvalidParameterError(f"The {name!r} parameter of {type(estimator).__name__} is "
                                    f"invalid{also}: {error}") from None


class _FeatureEstimator(BaseEstimator):
    """Shared by the estimators: validation, the domain map and the family."""

    #: the Fourier family's ``gamma`` when ``family_params`` gives none (:data:`GAMMA_RULES`).
    _gamma_rule: ClassVar[str] = "scale"
    #: parameter name -> (check, words accepted instead): see :func:`_check_parameter`.
    _parameters: ClassVar[dict] = {
        "family": (_family, ()),
        "family_params": (_family_params, (None,)),
        "random_state": (_random_state, (None,)),
    }

    def _validate_parameters(self) -> None:
        """Check every parameter of :attr:`_parameters` (at fit, as scikit-learn does)."""
        for name, (check, words) in self._parameters.items():
            _check_parameter(self, name, check, words)

    def _prepare(self, X, y, first: bool, classes: bool = False):
        X, y = validate_data(self, X, y, reset=first, y_numeric=not classes, dtype=np.float64)
        if first:
            self.family_ = _make_family(self.family, self.family_params, X, self._gamma_rule)
            self.domain_ = _Domain(self.family_, X, None if classes else y)
            if not classes:
                self.y_offset_, self.y_scale_ = self.domain_.y_offset, self.domain_.y_scale
        return self.domain_.inputs(X), (y if classes else self.domain_.targets(y))

    def _inputs(self, X):
        return self.domain_.inputs(validate_data(self, X, reset=False, dtype=np.float64))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = self.random_state is None
        return tags


class ShrinkingGradientRegressor(RegressorMixin, _FeatureEstimator):
    """SHRINKING_GRADIENT (ICML Algorithm 1; arXiv Algorithm 1) as a scikit-learn regressor.

    One online pass over the training rows, in order; targets are scaled into the paper's
    label range ``[-1, 1]`` and predictions back (module docstring).

    Parameters
    ----------
    family : {"coordinate", "fourier", "sign", "relu", "sigmoid", "stump"} or FeatureFamily, default="fourier"
        The random features ``(mu, psi)``; see :mod:`iln.features`.  The Fourier family's
        ``gamma`` defaults to ``1 / (n_features * X.var())``.
    family_params : dict, default=None
        Keyword arguments of the family's constructor (e.g. ``{"gamma": 0.5}``; the Fourier
        family's ``gamma`` may also name a rule of :data:`GAMMA_RULES`).
    B : float, default=1.0
        Norm bound of the comparison class, ``1 <= B < 2**13`` (Theorem 1; from about
        ``2**13`` on the proof's m overflows Algorithm 2's sample counts).  It sets the shrink
        threshold ``|E_t| >= 16 B`` of Algorithm 1 (with targets in ``[-1, 1]``, an estimate
        that far out is noise) and the ``"proof"`` values of ``eta`` and ``m``.
    eta : "auto", "proof" or float, default="auto"
        Step size.  ``"auto"``: one pass at each step ``c / (k_bar sqrt T)``, c in
        :data:`AUTO_STEP_FACTORS` (:func:`auto_step`: Theorem 1's ``B / sqrt T`` for
        features normalised to ``E||Phi(x)||^2 = 1``), keeping the pass whose
        predictions ``E_t`` had the smallest mean loss ``(E_t - y_t)^2 / 2`` over the later
        half of the rounds (progressive validation; four passes' cost).  ``"proof"``: ``B / (2 sqrt T)`` (the proof of
        Theorem 1), 4 times below ``auto_step`` for Fourier features at B = 1, which
        leaves one pass far from the data.  T is the number of rows of the first call.
    m : "auto", "proof" or int, default="auto"
        Samples of Algorithm 2 per round, at most :data:`iln.estimator.MAX_M`.  ``"auto"``:
        ``4 T`` (T of the first call), the proof's growth in T without its ``B^4`` and log
        factors; with the auto step, ``||alpha||_1`` grows like ``sqrt(T)``, so the
        estimate's standard deviation ``||alpha||_1 / sqrt(m)`` stays of the order of the
        scaled targets.  ``"proof"``: ``((16B+1) B)^2 T log(gamma)`` (proof of Theorem 1),
        under which Theorem 1's regret bound holds; at ``B = 1`` it is
        ``72 log(gamma)`` times "auto" (1,250 times, 1.65 million samples a round, about
        100 s a pass on diabetes' 331 rows, 2 cores).
    n_predict_samples : "auto" or int, default="auto"
        Draws of Algorithm 2 per prediction, shared by the predicted rows.  ``"auto"``:
        the count of Theorem 1 part 3 (two-sided Hoeffding,
        :func:`iln.theory.test_time_m_corrected`) for accuracy 0.05 in the scaled targets
        with probability 0.95, at most ``2**20``.
    update : {"descent", "printed"}, default="descent"
        The step's sign (see :mod:`iln.shrinking_gradient`).
    random_state : int, SeedSequence, RandomState or None, default=None
        Seed of every draw; None draws fresh entropy.

    Attributes
    ----------
    run_ : ShrinkingGradientResult
        The run of Algorithm 1 on everything seen so far (in the scaled units); its
        ``eta`` and ``m`` are the ones used.
    m_proof_ : int
        The proof's m for this T and B at the proof's step (Theorem 1's setting), for
        comparison with ``run_.m``.
    auto_losses_ : dict
        With ``eta="auto"``, each step tried and its pass's mean online loss over the later
        half of the rounds (the scaled units); empty otherwise.
    y_offset_, y_scale_ : float
        The target map ``y -> (y - y_offset_) / y_scale_`` into ``[-1, 1]``.
    family_ : FeatureFamily
    seed_ : numpy.random.SeedSequence
    n_features_in_ : int

    Notes
    -----
    Predictions estimate ``<f_{T+1}, Phi(x)>`` with Algorithm 2 (Theorem 1, part 3), every
    row with the same draws (:func:`iln.estimator.estimate_at_points`), so that a row's
    prediction does not depend on the other rows of the call.  Theorem 1 prices a test
    point at ``O(rho m)`` with ``m = O(B^4 T / epsilon_0^2 log 1/delta)`` (both versions):
    each row costs its m evaluations of ``psi``, ``m = 2 ||alpha||_1^2 log(2/delta) /
    epsilon_0^2`` here (:func:`iln.theory.test_time_m_corrected`), a price the test-time
    rule sets, not the implementation; the m draws themselves are made once for a block
    of rows.  A fit whose estimated time exceeds :data:`SLOW_FIT_SECONDS` warns.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> model = make_pipeline(StandardScaler(), ShrinkingGradientRegressor(random_state=0))
    >>> model = model.fit(X_train, y_train)
    >>> run = model[-1].run_
    >>> run.m, run.m == 4 * len(X_train)
    (1324, True)
    >>> model.score(X_test, y_test) > 0.3  # R^2: 0.36 here, scikit-learn's Ridge 0.36
    True
    """

    _parameters: ClassVar[dict] = {
        **_FeatureEstimator._parameters,
        "B": (_radius, ()),
        "eta": (arguments.positive_real, ("auto", "proof")),
        "m": (_samples, ("auto", "proof")),
        "n_predict_samples": (_samples, ("auto",)),
        "update": (_update, ()),
    }

    def __init__(self, *, family="fourier", family_params=None, B=1.0, eta="auto", m="auto",
                 n_predict_samples="auto", update="descent", random_state=None):
        self.family = family
        self.family_params = family_params
        self.B = B
        self.eta = eta
        self.m = m
        self.n_predict_samples = n_predict_samples
        self.update = update
        self.random_state = random_state

    def fit(self, X, y):
        """Run Algorithm 1 for one pass over ``(X, y)``, in order."""
        self._validate_parameters()
        for name in ("run_", "seed_"):
            self.__dict__.pop(name, None)
        return self._learn(X, y, first=True)

    def partial_fit(self, X, y):
        """Continue the run with the rounds ``(X, y)`` (one round per row)."""
        first = not hasattr(self, "run_")
        if first:
            self._validate_parameters()
        return self._learn(X, y, first=first)

    def _steps(self, X):
        """The candidate steps for a first call on ``X`` (scaled)."""
        T, B = X.shape[0], float(self.B)
        if self.eta == "auto":
            unit = auto_step(self.family_, X, T, random_streams.child(self.seed_, _STEP_PROBE))
            return [c * unit for c in AUTO_STEP_FACTORS]
        return [theory.eta_proof(B, T) if self.eta == "proof" else float(self.eta)]

    def _learn(self, X, y, first):
        X, y = self._prepare(X, y, first)
        if first:
            self.seed_ = _seed_of(self.random_state)
        learner = random_streams.child(self.seed_, _LEARNER)
        if not first:  # a continued run keeps its eta and m (shrinking_gradient's warm_start)
            self.run_ = shrinking_gradient(X, y, self.family_, B=float(self.B), seed=learner,
                                           update=self.update, warm_start=self.run_)
            return self
        T, B = X.shape[0], float(self.B)
        steps = self._steps(X)
        self.m_proof_ = theory.m_proof(B, T)
        m = {"auto": 4 * T, "proof": None}.get(self.m, self.m)
        width = self.family_.param_width or self.family_.dim
        # m=None: shrinking_gradient takes the proof's m for each step.
        samples = T * sum(theory.m_proof(B, T, eta) if m is None else m for eta in steps)
        _warn_if_slow(f"ShrinkingGradientRegressor draws {samples:.3g} samples ({len(steps)} "
                      f"pass(es) of {T} rounds, m = {samples / T / len(steps):.3g} on average) of "
                      f"{width} coordinates", samples * width,
                      "m='auto' (4 T samples a round) or a smaller int m makes it faster"
                      if self.m != "auto" else "a smaller int m, or a float eta (one pass), makes it faster")
        runs = {eta: shrinking_gradient(X, y, self.family_, B=B, seed=learner, eta=eta, m=m,
                                        update=self.update) for eta in steps}
        best, self.auto_losses_ = _best_pass(runs, lambda run: run.trace.loss_estimated)
        self.run_ = runs[best]
        return self

    def predict(self, X):
        """Algorithm 2's estimate of ``<f_{T+1}, Phi(x)>`` at each row, in the targets' units.

        Row ``j`` is Algorithm 2 (ICML and arXiv) at ``x_j`` with ``alpha^(T+1)``, the
        training rows and ``n_predict_samples`` draws (Theorem 1, part 3), on the seed
        ``seed_``'s prediction child, which every row and every call shares.
        """
        check_is_fitted(self, "run_")
        X = self._inputs(X)
        run = self.run_
        m = self.n_predict_samples
        if m == "auto":
            m = min(_PREDICT_MAX_M, theory.test_time_m_corrected(
                _PREDICT_EPSILON, _PREDICT_DELTA, float(np.abs(run.alpha).sum())))
        f = _estimator.estimate_at_points(run.alpha, run.X, X, int(m), run.family,
                                          seed=random_streams.child(self.seed_, _PREDICTION))
        return self.domain_.back(f)


class _KitchenSinks(_FeatureEstimator):
    """Random Kitchen Sinks (RKS Algorithm 1) behind the estimator interface.

    Algorithm 1 draws its K features once, before it sees the labels, so their width must
    come from the data: the Fourier family's ``gamma`` is the median heuristic
    (:func:`median_gamma`) unless ``family_params`` gives it.
    """

    _gamma_rule: ClassVar[str] = "median"
    _parameters: ClassVar[dict] = {
        **_FeatureEstimator._parameters,
        "K": (_count, ()),
        "C": (arguments.positive_real, (None,)),
        "ridge": (arguments.nonnegative_real, ("auto",)),
    }

    def _fit_weights(self, X, Y, loss: str, **solver) -> None:
        """RKS Algorithm 1 on ``(X, Y)``, a problem per column of Y on the same K features;
        ``ridge="auto"`` chooses the ridge from :data:`RIDGE_GRID` by generalised
        cross-validation (:func:`iln.rks.kitchen_sinks.random_kitchen_sinks`)."""
        ridge = (RIDGE_GRID if self.ridge == "auto" else float(self.ridge)) if loss == "quadratic" else 0.0
        self.result_ = random_kitchen_sinks(X, Y, self.family_, K=self.K, seed=_seed_of(self.random_state),
                                            loss=loss, C=self.C, ridge=ridge, **solver)
        self.ridge_ = self.result_.ridge


class RandomKitchenSinksRegressor(RegressorMixin, _KitchenSinks):
    """Random Kitchen Sinks with the quadratic loss (RKS Algorithm 1, eq. 1-4) as a regressor.

    Parameters
    ----------
    family : {"coordinate", "fourier", "sign", "relu", "sigmoid", "stump"} or FeatureFamily, default="fourier"
        The random features ``(p, phi)`` of RKS Algorithm 1; see :data:`FAMILIES`.
    family_params : dict, default=None
        Keyword arguments of the family's constructor.  The Fourier family's ``gamma`` is
        a number or the name of a rule of :data:`GAMMA_RULES`; by default ``"median"``, the
        median heuristic (:func:`median_gamma`), computed in ``fit``.
    K : int, default=300
        Number of random features.
    C : float, default=None
        The constraint ``||alpha||_inf <= C / K`` of RKS eq. (4), solved exactly; None leaves
        it out, as RKS does in its experiments ("we let C be large enough that the
        constraint (4) remains inactive", Section 2).
    ridge : "auto" or float, default="auto"
        Ridge penalty ``ridge K ||alpha||^2`` added to the mean squared error (see
        :func:`iln.rks.kitchen_sinks.random_kitchen_sinks`; RKS uses none, 0 gives its
        least squares).  ``"auto"``: the value of :data:`RIDGE_GRID` with the smallest
        generalised cross-validation error on the training rows, which regularises
        heavily when K approaches the number of rows.
    random_state : int, SeedSequence, RandomState or None, default=None
        Seed of the features; None draws fresh entropy.

    Attributes
    ----------
    result_ : KitchenSinksResult
        The fit in the scaled units.
    ridge_ : float
        The ridge used.
    family_ : FeatureFamily
    n_features_in_ : int
    y_offset_, y_scale_ : float
        The target map ``y -> (y - y_offset_) / y_scale_`` into ``[-1, 1]``.

    Examples
    --------
    Diabetes: the ridge chosen by generalised cross-validation, against least squares on
    the same 300 features, which interpolates the 331 training rows' noise (Ridge on the
    raw inputs: R^2 0.55):

    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X = StandardScaler().fit(X[:331]).transform(X)
    >>> train, test = slice(0, 331), slice(331, None)
    >>> auto = RandomKitchenSinksRegressor(random_state=0).fit(X[train], y[train])
    >>> plain = RandomKitchenSinksRegressor(ridge=0.0, random_state=0).fit(X[train], y[train])
    >>> print(f"{auto.ridge_:.0e}", round(auto.score(X[test], y[test]), 2), round(plain.score(X[test], y[test]), 2))
    3e-03 0.53 -28.58
    """

    def __init__(self, *, family="fourier", family_params=None, K=300, C=None, ridge="auto",
                 random_state=None):
        self.family = family
        self.family_params = family_params
        self.K = K
        self.C = C
        self.ridge = ridge
        self.random_state = random_state

    def fit(self, X, y):
        """Draw K features and fit the weights by (ridge) least squares on ``(X, y)``."""
        self._validate_parameters()
        X, y = self._prepare(X, y, first=True)
        self._fit_weights(X, y, "quadratic")
        return self

    def predict(self, X):
        """``sum_k alpha_k phi(x; w_k)``, in the targets' units."""
        check_is_fitted(self, "result_")
        return self.domain_.back(self.result_.decision_function(self._inputs(X)))


class RandomKitchenSinksClassifier(ClassifierMixin, _KitchenSinks):
    """Random Kitchen Sinks (RKS Algorithm 1) as a classifier, by default with the quadratic loss.

    Labels are +-1 (RKS Section 1): two classes as in RKS, ``+1`` for ``classes_[1]``; more
    classes one-vs-rest, one problem (3)-(4) per class on the same K features.  RKS Section
    4 ran its classification experiments with the quadratic loss (regularised least squares
    classification: "we used the quadratic loss, but find no substantial differences in
    quality under the hinge loss (though there is degradation in speed by a factor of
    2-10)"), which is the default here; ``loss="hinge"`` fits a linear SVM, or with ``C`` the
    exact hinge-loss program.  RKS Section 4 zero-means each coordinate and scales it to unit
    variance first, so the estimator goes after a ``StandardScaler`` (as in the example).

    Parameters
    ----------
    family, family_params, K, C
        As in :class:`RandomKitchenSinksRegressor`.
    loss : {"quadratic", "hinge"}, default="quadratic"
        The loss ``c`` of RKS eq. (1) on labels +-1.
    ridge : "auto" or float, default="auto"
        Quadratic loss: as in :class:`RandomKitchenSinksRegressor`, one ridge for all classes
        (the smallest generalised cross-validation error summed over them).  Ignored by the
        hinge loss.
    svm_C : float, default=1.0
        Hinge loss without ``C``: the linear SVM's regularisation constant (the practical
        version of RKS's hinge fit).  Ignored by the quadratic loss.
    random_state : int, SeedSequence, RandomState or None, default=None
        Seed of the features (and of liblinear's order); None draws fresh entropy.

    Attributes
    ----------
    result_ : KitchenSinksResult
        The fit: ``alpha`` of shape (K,) for two classes, (K, n_classes) beyond.
    ridge_ : float
        The ridge used (0 with the hinge loss).
    classes_ : ndarray
    family_ : FeatureFamily
    n_features_in_ : int

    Examples
    --------
    The ten digits of scikit-learn's digits data, standardised, one-vs-rest:

    >>> from sklearn.datasets import load_digits
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_digits(return_X_y=True)
    >>> clf = make_pipeline(StandardScaler(), RandomKitchenSinksClassifier(random_state=0))
    >>> clf = clf.fit(X[:1200], y[:1200])
    >>> clf[-1].result_.alpha.shape, clf[-1].classes_.tolist() == list(range(10))
    ((300, 10), True)
    >>> round(clf.score(X[1200:], y[1200:]), 2)  # chance 0.1; Nystroem + RidgeClassifierCV: 0.91
    0.92
    """

    _parameters: ClassVar[dict] = {
        **_KitchenSinks._parameters,
        "loss": (_loss, ()),
        "svm_C": (arguments.positive_real, ()),
    }

    def __init__(self, *, family="fourier", family_params=None, K=300, C=None, loss="quadratic",
                 ridge="auto", svm_C=1.0, random_state=None):
        self.family = family
        self.family_params = family_params
        self.K = K
        self.C = C
        self.loss = loss
        self.ridge = ridge
        self.svm_C = svm_C
        self.random_state = random_state

    def fit(self, X, y):
        """Draw K features and fit the weights on labels +-1, one-vs-rest beyond two classes."""
        self._validate_parameters()
        X, y = self._prepare(X, y, first=True, classes=True)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) < 2:
            raise ValueError("y must hold at least two classes to fit a classifier; got 1 class")
        positives = self.classes_[1:] if len(self.classes_) == 2 else self.classes_
        signs = np.where(y[:, None] == positives[None, :], 1.0, -1.0)
        solver = {"svm_C": self.svm_C} if self.loss == "hinge" else {}
        self._fit_weights(X, signs[:, 0] if len(self.classes_) == 2 else signs, self.loss, **solver)
        return self

    def decision_function(self, X):
        """``sum_k alpha_k phi(x; w_k)``: shape (n,) for two classes, (n, n_classes) beyond."""
        check_is_fitted(self, "result_")
        return self.result_.decision_function(self._inputs(X))

    def predict(self, X):
        """The class on the side of the decision function's sign, or with the largest one."""
        decision = self.decision_function(X)
        if decision.ndim == 1:
            return self.classes_[(decision > 0).astype(int)]
        return self.classes_[np.argmax(decision, axis=1)]


class _ReplayedOnline(RegressorMixin, _FeatureEstimator):
    """An online baseline whose ``partial_fit`` replays every row seen so far, in order.

    The baselines draw their features from the seed by position (Fixed-Random once, DSGD
    per round), so the replay is exactly the continued run: ``partial_fit`` on two halves
    equals ``fit`` on the whole, at the cost of a pass over the rows seen.  The step,
    when ``"auto"``, is chosen on the first call among :data:`AUTO_STEP_FACTORS` times
    :func:`auto_step` by the smallest mean online loss, and kept.
    """

    def fit(self, X, y):
        """One online pass over ``(X, y)``, in order."""
        self._validate_parameters()
        for name in ("seen_X_", "seen_y_", "result_"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X, y)

    def partial_fit(self, X, y):
        """Continue the online pass with the rows ``(X, y)``."""
        first = not hasattr(self, "result_")
        if first:
            self._validate_parameters()
            self.seed_ = _seed_of(self.random_state)
        X, y = self._prepare(X, y, first)
        self.seen_X_ = X if first else np.vstack([self.seen_X_, X])
        self.seen_y_ = y if first else np.concatenate([self.seen_y_, y])
        learner = random_streams.child(self.seed_, _LEARNER)
        auto = first and self._step_parameter() == "auto"
        self._warn_cost(self.seen_X_.shape[0], len(AUTO_STEP_FACTORS) if auto else 1)
        if auto:
            unit = auto_step(self.family_, X, X.shape[0], random_streams.child(self.seed_, _STEP_PROBE))
            passes = {c * unit: self._run(X, y, learner, c * unit) for c in AUTO_STEP_FACTORS}
            self.step_, self.auto_losses_ = _best_pass(passes, lambda run: run.losses)
            self.result_ = passes[self.step_]
            return self
        if first:
            self.step_, self.auto_losses_ = self._step_parameter(), {}
        self.result_ = self._run(self.seen_X_, self.seen_y_, learner, self.step_)
        return self

    def _warn_cost(self, T, passes):
        """Warn before a slow fit of ``passes`` passes over T rows (none by default)."""

    def predict(self, X):
        """The learner's predictor after the last round, in the targets' units."""
        check_is_fitted(self, "result_")
        return self.domain_.back(self.result_.predict(self._inputs(X)))


class FixedRandomRegressor(_ReplayedOnline):
    """Fixed-Random features (Rahimi & Recht 2007; the ICML Section 6 baseline) as a regressor.

    Parameters
    ----------
    family, family_params, random_state
        As in :class:`ShrinkingGradientRegressor`.
    r : int, default=300
        Number of features, drawn once and shared by every point.
    eta : "auto" or float, default="auto"
        Constant step of the online pass (ignored by ``method="least_squares"``); "auto":
        the step of :data:`AUTO_STEP_FACTORS` times :func:`auto_step` (``1 / (k_bar sqrt T)``,
        T of the first call) whose pass has the smallest mean online loss over its later half.
    B : float, default=None
        Radius of the projection of the weights; None projects nothing.
    method : {"online", "least_squares"}, default="online"
        One online pass of gradient descent, or batch ridge least squares.

    Attributes
    ----------
    result_ : FixedRandomResult
        The run in the scaled units.
    step_ : float
        The step used.
    auto_losses_ : dict
        With an "auto" step, each step tried and its pass's mean online loss over the later
        half of the rounds (the scaled units); empty otherwise.
    y_offset_, y_scale_ : float
        The target map ``y -> (y - y_offset_) / y_scale_`` into ``[-1, 1]``.
    family_ : FeatureFamily
    n_features_in_ : int

    Examples
    --------
    One online pass over the first 331 rows of diabetes, whose targets (25 to 346) are
    mapped into ``[-1, 1]`` and back:

    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_diabetes(return_X_y=True)
    >>> scaler = StandardScaler().fit(X[:331])
    >>> model = FixedRandomRegressor(random_state=0).fit(scaler.transform(X[:331]), y[:331])
    >>> round(model.y_offset_), round(model.y_scale_), model.step_ in model.auto_losses_
    (151, 195, True)
    >>> model.score(scaler.transform(X[331:]), y[331:]) > 0.4  # R^2 0.48; Ridge: 0.55
    True
    """

    _parameters: ClassVar[dict] = {
        **_FeatureEstimator._parameters,
        "r": (_count, ()),
        "eta": (arguments.positive_real, ("auto",)),
        "B": (arguments.positive_real, (None,)),
        "method": (_fixed_random_method, ()),
    }

    def __init__(self, *, family="fourier", family_params=None, r=300, eta="auto", B=None,
                 method="online", random_state=None):
        self.family = family
        self.family_params = family_params
        self.r = r
        self.eta = eta
        self.B = B
        self.method = method
        self.random_state = random_state

    def _step_parameter(self):
        return self.eta if self.method == "online" else None

    def _run(self, X, y, seed, step):
        step = {"eta": step} if self.method == "online" else {}
        return fixed_random(X, y, self.family_, r=self.r, seed=seed, B=self.B, method=self.method, **step)


class DoublyStochasticRegressor(_ReplayedOnline):
    """Doubly Stochastic Gradient Descent (Dai et al. 2014; the ICML Section 6 baseline).

    Parameters
    ----------
    family, family_params, random_state
        As in :class:`ShrinkingGradientRegressor`.
    k : int, default=10
        Features drawn by each training point and kept for it.  The fit evaluates
        ``k T (T + 1) / 2`` features, quadratic in T; it warns when that is slow.
    gamma0 : "auto" or float, default="auto"
        First step of ``gamma0 / (1 + gamma1 t)``, as in Dai et al.; "auto": the step of
        :data:`AUTO_STEP_FACTORS` times :func:`auto_step` (``1 / (k_bar sqrt T)``, T of the
        first call) whose pass has the smallest mean online loss over its later half.
    gamma1 : float, default=0.0
        Decay of the step.
    nu : float, default=0.0
        Regularisation: every earlier coefficient is multiplied by ``1 - gamma_t nu``.

    Attributes
    ----------
    result_ : DoublyStochasticResult
        The run in the scaled units.
    step_, auto_losses_, y_offset_, y_scale_, family_, n_features_in_
        As in :class:`FixedRandomRegressor`, for ``gamma0`` (``step_`` is the first step).

    Examples
    --------
    Three-fold cross-validation on diabetes (scikit-learn's Ridge: mean R^2 0.49):

    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), DoublyStochasticRegressor(random_state=0))
    >>> cross_val_score(model, X, y, cv=3).round(2).tolist()
    [0.33, 0.42, 0.4]
    """

    _parameters: ClassVar[dict] = {
        **_FeatureEstimator._parameters,
        "k": (_count, ()),
        "gamma0": (arguments.positive_real, ("auto",)),
        "gamma1": (arguments.nonnegative_real, ()),
        "nu": (arguments.nonnegative_real, ()),
    }

    def __init__(self, *, family="fourier", family_params=None, k=10, gamma0="auto", gamma1=0.0, nu=0.0,
                 random_state=None):
        self.family = family
        self.family_params = family_params
        self.k = k
        self.gamma0 = gamma0
        self.gamma1 = gamma1
        self.nu = nu
        self.random_state = random_state

    def _step_parameter(self):
        return self.gamma0

    def _warn_cost(self, T, passes):
        # k is refused here, as doubly_stochastic would, before a cost no fit can reach is quoted.
        k = arguments.length(self.k, "k", 1)
        width = self.family_.param_width or self.family_.dim
        evaluations = passes * k * T * (T + 1) / 2
        _warn_if_slow(f"DoublyStochasticRegressor evaluates {evaluations:.3g} features ({passes} "
                      f"pass(es) of k T (T + 1) / 2 with k = {k}, T = {T})", evaluations * width,
                      "a smaller k, or a float gamma0 (one pass), makes it faster")

    def _run(self, X, y, seed, step):
        return doubly_stochastic(X, y, self.family_, k=self.k, seed=seed, gamma0=step,
                                 gamma1=self.gamma1, nu=self.nu)
