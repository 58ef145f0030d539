"""scikit-learn estimators for the learners of :mod:`iln`.

``ShrinkingGradientRegressor`` (Algorithm 1 of the ILN paper), and the
baselines it is compared with, behind the usual ``fit`` / ``partial_fit`` /
``predict`` / ``get_params`` / ``set_params`` interface, so that they drop into
pipelines next to ``RBFSampler`` + ``SGDRegressor``.

The paper's learners work in a fixed domain: labels in ``[-1, 1]`` (ICML and
arXiv Section 2) and inputs where ``|psi(x; w)| < 1``.  The estimators map the
data there and back: targets are divided by the largest ``|y|`` of the first
call of ``fit``/``partial_fit`` (later targets beyond it are clipped), and
inputs, for the families that need it, by the largest entry (random
coordinates) or the largest row norm (neurons on the sphere) of that call
(later inputs beyond it are clipped back into the domain).
"""

from __future__ import annotations

import inspect
import numbers
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from iln import estimator as _estimator
from iln import features, random_streams
from iln.baselines.doubly_stochastic import doubly_stochastic
from iln.baselines.fixed_random import fixed_random
from iln.baselines.kitchen_sinks import random_kitchen_sinks
from iln.shrinking_gradient import UPDATES, shrinking_gradient

__all__ = [
    "FAMILIES",
    "DoublyStochasticRegressor",
    "FixedRandomRegressor",
    "RandomKitchenSinksClassifier",
    "RandomKitchenSinksRegressor",
    "ShrinkingGradientRegressor",
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
# Inputs strictly inside the domain: a margin far above round-off, far below the data's scale.
_MARGIN = 1e-6


class _Domain:
    """The map of raw inputs and targets into the paper's domain, fitted on the first call."""

    def __init__(self, family: features.FeatureFamily, X: np.ndarray, y: np.ndarray):
        if isinstance(family, features.RandomCoordinate):
            self.kind, extent = "box", np.max(np.abs(X), initial=0.0)
        elif isinstance(family, features.SphereNeuron):
            self.kind, extent = "ball", np.max(np.linalg.norm(X, axis=1), initial=0.0)
        else:
            self.kind, extent = "free", 1.0
        self.x_scale = float(extent) * (1 + _MARGIN) if extent > 0 else 1.0
        top = float(np.max(np.abs(y), initial=0.0))
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
        return np.clip(y / self.y_scale, -1.0, 1.0)


def _make_family(family, family_params, n_features: int) -> features.FeatureFamily:
    if isinstance(family, features.FeatureFamily):
        if family.dim != n_features:
            raise ValueError(f"family has input dimension {family.dim}, X has {n_features} features")
        return family
    cls = FAMILIES[family]
    try:
        return cls(n_features, **(family_params or {}))
    except (TypeError, ValueError) as error:
        # The constructor's message names its own parameter (or, for an unknown key, only
        # Python's "unexpected keyword"); the user wrote family_params, so name that.
        accepted = [p for p in inspect.signature(cls).parameters if p != "dim"]
        raise type(error)(
            f"family_params must hold parameters of {cls.__name__} ({', '.join(accepted) or 'none'}) "
            f"with accepted values, got {family_params!r}: {error}"
        ) from error


def _seed_of(random_state) -> np.random.SeedSequence:
    """``random_state`` as a seed: an int or SeedSequence as given, None for fresh entropy
    (scikit-learn's convention; pass an int to reproduce a fit)."""
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, np.random.RandomState):
        return np.random.SeedSequence(int(random_state.randint(0, 2**31 - 1)))
    return random_streams.as_seed_sequence(random_state, "random_state")


class _FeatureEstimator(BaseEstimator):
    """Shared by the estimators: validation, the domain map and the family."""

    _parameter_constraints: ClassVar[dict] = {
        "family": [StrOptions(set(FAMILIES)), features.FeatureFamily],
        "family_params": [dict, None],
        "random_state": ["random_state"],
    }

    def _prepare(self, X, y, first: bool, classes: bool = False):
        X, y = validate_data(self, X, y, reset=first, y_numeric=not classes, dtype=np.float64)
        if first:
            self.family_ = _make_family(self.family, self.family_params, X.shape[1])
            # Class labels are not scaled: the domain sees unit targets.
            self.domain_ = _Domain(self.family_, X, np.ones(1) if classes else y)
        return self.domain_.inputs(X), (y if classes else self.domain_.targets(y))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = self.random_state is None
        return tags


class ShrinkingGradientRegressor(RegressorMixin, _FeatureEstimator):
    """SHRINKING_GRADIENT (ICML Algorithm 1; arXiv Algorithm 1) as a scikit-learn regressor.

    Parameters
    ----------
    family : {"coordinate", "fourier", "sign", "relu", "sigmoid", "stump"} or FeatureFamily, default="fourier"
        The random features ``(mu, psi)``; see :mod:`iln.features`.
    family_params : dict, default=None
        Keyword arguments of the family's constructor (e.g. ``{"gamma": 0.5}``).
    B : float, default=1.0
        Norm bound of the comparison class, ``B >= 1`` (Theorem 1).
    eta : float, default=None
        Step size; default ``B / (2 sqrt T)`` with T the number of samples of the first
        call (the proof of Theorem 1).
    m : int, default=None
        Samples of Algorithm 2 per round, at most :data:`iln.estimator.MAX_M`; default the
        proof's ``m`` for that T (refused when it exceeds that limit, from ``B = 2**13`` on).
    n_predict_samples : int, default=None
        Samples of Algorithm 2 per predicted point; default ``m``.
    update : {"descent", "printed"}, default="descent"
        The step's sign (see :mod:`iln.shrinking_gradient`).
    random_state : int, SeedSequence or None, default=None
        Seed of every draw; None draws fresh entropy.

    Attributes
    ----------
    run_ : ShrinkingGradientResult
        The run of Algorithm 1 on everything seen so far.
    family_ : FeatureFamily
    n_features_in_ : int

    Notes
    -----
    Predictions estimate ``<f_{T+1}, Phi(x)>`` with Algorithm 2 (Theorem 1, part 3),
    every point with the same seed, so that a point's prediction does not depend on
    the other points of the call.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_FeatureEstimator._parameter_constraints,
        "B": [Interval(numbers.Real, 1, None, closed="left")],
        "eta": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "m": [Interval(numbers.Integral, 1, _estimator.MAX_M, closed="both"), None],
        "n_predict_samples": [Interval(numbers.Integral, 1, _estimator.MAX_M, closed="both"), None],
        "update": [StrOptions(set(UPDATES))],
    }

    def __init__(self, *, family="fourier", family_params=None, B=1.0, eta=None, m=None,
                 n_predict_samples=None, update="descent", random_state=None):
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
        self._validate_params()
        for name in ("run_", "seed_"):
            self.__dict__.pop(name, None)
        return self._learn(X, y, first=True)

    def partial_fit(self, X, y):
        """Continue the run with the rounds ``(X, y)`` (one round per row)."""
        first = not hasattr(self, "run_")
        if first:
            self._validate_params()
        return self._learn(X, y, first=first)

    def _learn(self, X, y, first):
        X, y = self._prepare(X, y, first)
        if first:
            self.seed_ = _seed_of(self.random_state)
        self.run_ = shrinking_gradient(
            X, y, self.family_, B=float(self.B), seed=self.seed_, eta=self.eta, m=self.m,
            update=self.update, warm_start=None if first else self.run_,
        )
        return self

    def predict(self, X):
        """Algorithm 2's estimate of ``<f_{T+1}, Phi(x)>`` at each point, in the targets' units."""
        check_is_fitted(self, "run_")
        X = self.domain_.inputs(validate_data(self, X, reset=False, dtype=np.float64))
        m = self.n_predict_samples or self.run_.m
        seed = random_streams.child(self.seed_, 0)
        run = self.run_
        return self.domain_.y_scale * np.array([
            _estimator.estimate_validated(run.alpha, run.X, x, m, run.family, seed, run.method)
            for x in X
        ])


class _KitchenSinks(_FeatureEstimator):
    """Random Kitchen Sinks (004 Algorithm 1) behind the estimator interface."""

    _parameter_constraints: ClassVar[dict] = {
        **_FeatureEstimator._parameter_constraints,
        "K": [Interval(numbers.Integral, 1, None, closed="left")],
        "C": [Interval(numbers.Real, 0, None, closed="neither"), None],
    }
    _loss = "quadratic"

    def _fit(self, X, y, **solver):
        self.result_ = random_kitchen_sinks(X, y, self.family_, K=self.K, seed=_seed_of(self.random_state),
                                            loss=self._loss, C=self.C, **solver)
        return self

    def _decision(self, X):
        check_is_fitted(self, "result_")
        X = self.domain_.inputs(validate_data(self, X, reset=False, dtype=np.float64))
        return self.result_.decision_function(X)


class RandomKitchenSinksRegressor(RegressorMixin, _KitchenSinks):
    """Random Kitchen Sinks with the quadratic loss (004 Algorithm 1, eq. 1-4) as a regressor.

    Parameters
    ----------
    family : str or FeatureFamily, default="fourier"
        The random features; see :data:`FAMILIES`.
    family_params : dict, default=None
        Keyword arguments of the family's constructor.
    K : int, default=100
        Number of random features.
    C : float, default=None
        The constraint ``||alpha||_inf <= C / K`` of eq. (4), solved exactly; None leaves it
        out, as 004 does in its experiments.
    ridge : float, default=0.0
        Ridge penalty of the unconstrained least squares (see
        :func:`iln.baselines.kitchen_sinks.random_kitchen_sinks`).
    random_state : int, SeedSequence or None, default=None
    """

    _parameter_constraints: ClassVar[dict] = {
        **_KitchenSinks._parameter_constraints,
        "ridge": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(self, *, family="fourier", family_params=None, K=100, C=None, ridge=0.0,
                 random_state=None):
        self.family = family
        self.family_params = family_params
        self.K = K
        self.C = C
        self.ridge = ridge
        self.random_state = random_state

    def fit(self, X, y):
        """Draw K features and fit the weights by least squares on ``(X, y)``."""
        self._validate_params()
        X, y = self._prepare(X, y, first=True)
        return self._fit(X, y, ridge=self.ridge)

    def predict(self, X):
        """``sum_k alpha_k phi(x; w_k)``, in the targets' units."""
        decision = self._decision(X)
        return self.domain_.y_scale * decision


class RandomKitchenSinksClassifier(ClassifierMixin, _KitchenSinks):
    """Random Kitchen Sinks with the hinge loss (004 Algorithm 1) as a binary classifier.

    Parameters
    ----------
    family, family_params, K, C, random_state
        As in :class:`RandomKitchenSinksRegressor`.
    svm_C : float, default=1.0
        Without ``C``, the weights are a linear SVM's with this regularisation constant
        (the practical version of 004's hinge fit).
    """

    _parameter_constraints: ClassVar[dict] = {
        **_KitchenSinks._parameter_constraints,
        "svm_C": [Interval(numbers.Real, 0, None, closed="neither")],
    }
    _loss = "hinge"

    def __init__(self, *, family="fourier", family_params=None, K=100, C=None, svm_C=1.0,
                 random_state=None):
        self.family = family
        self.family_params = family_params
        self.K = K
        self.C = C
        self.svm_C = svm_C
        self.random_state = random_state

    def fit(self, X, y):
        """Draw K features and fit the weights with the hinge loss; two classes only."""
        self._validate_params()
        X, y = self._prepare(X, y, first=True, classes=True)
        check_classification_targets(y)
        kind = type_of_target(y, input_name="y", raise_unknown=True)
        if kind != "binary":
            raise ValueError(f"Only binary classification is supported (004 is binary). "
                             f"The type of the target is {kind}.")
        self.classes_ = np.unique(y)
        if len(self.classes_) < 2:
            raise ValueError("y must hold two classes to fit a classifier; got 1 class")
        return self._fit(X, np.where(y == self.classes_[1], 1.0, -1.0), svm_C=self.svm_C)

    def decision_function(self, X):
        """``sum_k alpha_k phi(x; w_k)``: positive for ``classes_[1]``."""
        return self._decision(X)

    def predict(self, X):
        """The class on the side of the decision function's sign."""
        decision = self.decision_function(X)
        return self.classes_[(decision > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class _ReplayedOnline(RegressorMixin, _FeatureEstimator):
    """An online baseline whose ``partial_fit`` replays every row seen so far, in order.

    The baselines draw their features from the seed by position (Fixed-Random once, DSGD
    per round), so the replay is exactly the continued run: ``partial_fit`` on two halves
    equals ``fit`` on the whole, at the cost of a pass over the rows seen.
    """

    def fit(self, X, y):
        """One online pass over ``(X, y)``, in order."""
        self._validate_params()
        for name in ("seen_X_", "seen_y_", "result_"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X, y)

    def partial_fit(self, X, y):
        """Continue the online pass with the rows ``(X, y)``."""
        first = not hasattr(self, "result_")
        if first:
            self._validate_params()
            self.seed_ = _seed_of(self.random_state)
        X, y = self._prepare(X, y, first)
        self.seen_X_ = X if first else np.vstack([self.seen_X_, X])
        self.seen_y_ = y if first else np.concatenate([self.seen_y_, y])
        self.result_ = self._run(self.seen_X_, self.seen_y_)
        return self

    def predict(self, X):
        """The learner's predictor after the last round, in the targets' units."""
        check_is_fitted(self, "result_")
        X = self.domain_.inputs(validate_data(self, X, reset=False, dtype=np.float64))
        return self.domain_.y_scale * self.result_.predict(X)


class FixedRandomRegressor(_ReplayedOnline):
    """Fixed-Random features (Rahimi & Recht 2007; the ICML Section 6 baseline) as a regressor.

    Parameters
    ----------
    family, family_params, random_state
        As in :class:`ShrinkingGradientRegressor`.
    r : int, default=300
        Number of features, drawn once and shared by every point.
    eta : float, default=0.5
        Constant step of the online pass (ignored by ``method="least_squares"``).
    B : float, default=None
        Radius of the projection of the weights; None projects nothing.
    method : {"online", "least_squares"}, default="online"
        One online pass of gradient descent, or batch ridge least squares.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_FeatureEstimator._parameter_constraints,
        "r": [Interval(numbers.Integral, 1, None, closed="left")],
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "B": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "method": [StrOptions({"online", "least_squares"})],
    }

    def __init__(self, *, family="fourier", family_params=None, r=300, eta=0.5, B=None,
                 method="online", random_state=None):
        self.family = family
        self.family_params = family_params
        self.r = r
        self.eta = eta
        self.B = B
        self.method = method
        self.random_state = random_state

    def _run(self, X, y):
        step = {"eta": self.eta} if self.method == "online" else {}
        return fixed_random(X, y, self.family_, r=self.r, seed=self.seed_, B=self.B, method=self.method, **step)


class DoublyStochasticRegressor(_ReplayedOnline):
    """Doubly Stochastic Gradient Descent (Dai et al. 2014; the ICML Section 6 baseline).

    Parameters
    ----------
    family, family_params, random_state
        As in :class:`ShrinkingGradientRegressor`.
    k : int, default=10
        Features drawn by each training point and kept for it.
    gamma0, gamma1 : float, default=0.5, 0.0
        Step ``gamma0 / (1 + gamma1 t)``, as in Dai et al.
    nu : float, default=0.0
        Regularisation: every earlier coefficient is multiplied by ``1 - gamma_t nu``.
    """

    _parameter_constraints: ClassVar[dict] = {
        **_FeatureEstimator._parameter_constraints,
        "k": [Interval(numbers.Integral, 1, None, closed="left")],
        "gamma0": [Interval(numbers.Real, 0, None, closed="neither")],
        "gamma1": [Interval(numbers.Real, 0, None, closed="left")],
        "nu": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(self, *, family="fourier", family_params=None, k=10, gamma0=0.5, gamma1=0.0, nu=0.0,
                 random_state=None):
        self.family = family
        self.family_params = family_params
        self.k = k
        self.gamma0 = gamma0
        self.gamma1 = gamma1
        self.nu = nu
        self.random_state = random_state

    def _run(self, X, y):
        return doubly_stochastic(X, y, self.family_, k=self.k, seed=self.seed_, gamma0=self.gamma0,
                                 gamma1=self.gamma1, nu=self.nu)
