"""SHRINKING_GRADIENT (ICML Algorithm 1; arXiv Algorithm 1), transcribed line by line.

The pseudo-code, numbered as this module cites it (the papers print it unnumbered; the two
versions differ only in the sign of line 7):

.. code-block:: text

    Data: T, B > 1, eta, m
    1  Initialize alpha^(1) = 0 in R^T
    2  for t = 1, ..., T do
    3      Observe x_t, y_t
    4      Set E_t = EST_SCALAR_PROD(alpha^(t), x_{1:t-1}, x_t, m)
    5      if |E_t| < 16 B then
    6          alpha^(t+1) = alpha^(t)
    7          alpha_t^(t+1) = -eta (y_t - E_t)      [ICML]     eta (E_t - y_t)   [arXiv]
    8      else
    9          alpha^(t+1) = alpha^(t) / 4

Line 7 as printed (both versions give the same number) is a step *up* the gradient
``(E_t - y_t) Phi(x_t)`` of the squared loss (ICML eq. 6, 9, 12; arXiv eq. 5, 9, 12), while
the analysis steps down it (ICML Section 5, ``f_{t+1} = f_t - eta bar grad_t`` before
eq. 10, and Lemma 1; arXiv the same): ``update="descent"`` transcribes that step,
``alpha_t^(t+1) = -eta (E_t - y_t)``, and ``update="printed"`` line 7 as printed.

Parameters come from :mod:`iln.theory`, the values :func:`iln.shrinking_gradient.shrinking_gradient`
documents as its defaults: ``eta = B / (2 sqrt T)`` (:func:`iln.theory.eta_proof`, proof of
Theorem 1, ICML Section 5.1, arXiv Appendix C.2; Theorem 1 prints ``B / sqrt T``),
``m = ((16B+1) B)^2 T log gamma`` (:func:`iln.theory.m_proof`, same places; Theorem 1
prints ``O(B^4 T log(BT))``), the threshold ``16 B`` and the factor ``1/4`` of lines 5 and 9
(:data:`iln.theory.SHRINK_THRESHOLD`, :data:`iln.theory.SHRINK_FACTOR`).

Round t calls Algorithm 2 with child ``t`` of the run's seed, as the fast implementation
does: with the same implementation of Algorithm 2 (``estimator=`` the fast one's ``method``)
the two share every random number and agree to the last bit; with another (the default is
Algorithm 2's own transcription) they share none and must agree in distribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from iln import arguments, estimator, random_streams, theory
from iln.baselines.fixed_random import check_online_data
from iln.features import FeatureFamily, check_family

__all__ = [
    "ReferenceRun",
    "averaged_predictor_reference",
    "predict_reference",
    "shrinking_gradient_reference",
]

#: the two readings of line 7 (see the module docstring).
UPDATES = ("descent", "printed")


@dataclass(frozen=True)
class ReferenceRun:
    """What Algorithm 1 outputs ("Result: weights alpha^(1), ..., alpha^(T+1)"), and what it saw.

    Attributes
    ----------
    alpha : ndarray (T + 1, T)
        Row ``t - 1`` is ``alpha^(t)``, for t = 1, ..., T + 1.
    X : ndarray (T, D)
        ``x_1, ..., x_T``.
    labels : ndarray (T,)
        ``y_1, ..., y_T``.
    estimates : ndarray (T,)
        ``E_t`` of line 4.
    samples : ndarray of int (T,)
        Samples behind ``E_t``: ``m``, or 0 when ``alpha^(t) = 0`` (Algorithm 2's first
        branch, "if alpha = 0 then set E = 0", ICML; the arXiv version omits it).
    shrink : ndarray of bool (T,)
        Whether round t took line 9.
    B, eta, threshold, shrink_factor : float
    m : int
    update : str
    """

    alpha: np.ndarray
    X: np.ndarray
    labels: np.ndarray
    estimates: np.ndarray
    samples: np.ndarray
    shrink: np.ndarray
    B: float
    eta: float
    threshold: float
    shrink_factor: float
    m: int
    update: str

    @property
    def T(self) -> int:
        """Number of rounds."""
        return self.X.shape[0]


def shrinking_gradient_reference(X, y, family: FeatureFamily, *, B, seed, eta=None, m=None,
                                 update: str = "descent",
                                 estimator_method: str = "reference") -> ReferenceRun:
    """Algorithm 1 of both versions, one statement per line of the pseudo-code.

    Parameters
    ----------
    X : array (T, D)
        ``x_1, ..., x_T`` in the family's domain (line 3).
    y : array (T,)
        ``y_1, ..., y_T`` in [-1, 1] (line 3; ICML/arXiv Section 2).
    family : FeatureFamily
        The pair ``(mu, psi)`` Algorithm 2 samples from.
    B : float
        ``B >= 1`` (Theorem 1, both versions; the pseudo-code's "Data" prints ``B > 1``).
    seed : int or numpy.random.SeedSequence
        Round t's call of Algorithm 2 uses child ``t``.
    eta : float, optional
        Default :func:`iln.theory.eta_proof` ``(B, T)``.
    m : int, optional
        Default :func:`iln.theory.m_proof` ``(B, T, eta)``.
    update : {"descent", "printed"}, default="descent"
        Line 7 as the analysis uses it, or as printed.
    estimator_method : {"reference", "numpy", "fast"}, default="reference"
        Which implementation of Algorithm 2 line 4 calls (all have the same law,
        :mod:`iln.estimator`); "fast" shares the fast Algorithm 1's random numbers.

    Returns
    -------
    ReferenceRun

    Raises
    ------
    TypeError, ValueError
        On invalid input; the message names the argument.
    """
    X, labels, family = check_online_data(X, y, family)
    T = X.shape[0]
    B = arguments.norm_radius(arguments.finite_real(B, "B"))
    seed = random_streams.as_seed_sequence(seed, "seed")
    eta = theory.eta_proof(B, T) if eta is None else arguments.positive_real(eta, "eta")
    m = theory.m_proof(B, T, eta) if m is None else arguments.integer(m, "m", 1)
    update = arguments.choice(update, "update", UPDATES)
    estimator_method = arguments.choice(estimator_method, "estimator_method", estimator.METHODS)
    threshold = theory.SHRINK_THRESHOLD * B
    shrink_factor = theory.SHRINK_FACTOR

    alpha = np.zeros((T + 1, T))                            # line 1: alpha^(1) = 0
    estimates = np.empty(T)
    samples = np.zeros(T, dtype=np.int64)
    shrink = np.zeros(T, dtype=bool)
    for t in range(1, T + 1):                               # line 2
        x_t, y_t = X[t - 1], labels[t - 1]                  # line 3
        a_t = alpha[t - 1]                                  # alpha^(t)
        E_t = estimator.estimate_scalar_product(            # line 4
            a_t[: t - 1], X[: t - 1], x_t, m, family,
            seed=random_streams.child(seed, t), method=estimator_method)
        estimates[t - 1] = E_t
        samples[t - 1] = m if np.any(a_t[: t - 1]) else 0
        if abs(E_t) < threshold:                            # line 5
            alpha[t] = a_t                                  # line 6
            if update == "printed":
                alpha[t, t - 1] = -eta * (y_t - E_t)        # line 7, ICML (= arXiv's eta (E_t - y_t))
            else:
                alpha[t, t - 1] = -eta * (E_t - y_t)        # line 7 with the analysis's sign
        else:                                               # line 8
            shrink[t - 1] = True
            alpha[t] = shrink_factor * a_t                  # line 9
    return ReferenceRun(alpha=alpha, X=X, labels=labels, estimates=estimates, samples=samples,
                        shrink=shrink, B=B, eta=eta, threshold=threshold,
                        shrink_factor=shrink_factor, m=m, update=update)


def averaged_predictor_reference(run: ReferenceRun) -> np.ndarray:
    """The coefficients of ``f_S = (1/T) sum_{t=1}^T f_t`` (Corollary 1, both versions).

    ICML Corollary 1 prints ``f_S = (1/T) sum f_t`` and the arXiv one
    ``(1/T) sum_{i=1}^infty f_t``: both average the hypotheses ``f_1, ..., f_T`` the
    algorithm played (online-to-batch conversion), ``f_t = sum_i alpha_i^(t) Phi(x_i)``,
    hence the average of the rows ``alpha^(1), ..., alpha^(T)`` (not ``alpha^(T+1)``).

    Parameters
    ----------
    run : ReferenceRun

    Returns
    -------
    ndarray (T,)
    """
    if not isinstance(run, ReferenceRun):
        raise TypeError(f"run must be a ReferenceRun, got {type(run).__name__}")
    total = np.zeros(run.T)
    for t in range(1, run.T + 1):
        total = total + run.alpha[t - 1]
    return total / run.T


def predict_reference(alpha, X, X_new, family: FeatureFamily, *, seed, epsilon, delta,
                      estimator_method: str = "reference") -> np.ndarray:
    """Theorem 1, part 3 (both versions): estimate ``<f, Phi(x)>`` at each new point.

    "Running Algorithm 2 with parameters alpha^(t), {x_i}, x and m": ``m`` is the
    two-sided Hoeffding count :func:`iln.theory.test_time_m_corrected` for accuracy
    ``epsilon`` with probability ``1 - delta`` (the printed ``m = O(B^4 T log(1/delta) /
    epsilon^2)`` fixes only its order), the default of
    :meth:`iln.shrinking_gradient.ShrinkingGradientResult.predict`.  Point j uses child
    ``j`` of ``seed``, as the fast version does.

    Parameters
    ----------
    alpha : array (n,)
        Coefficients of ``f`` (``alpha^(T+1)``, or those of ``f_S`` for Corollary 1).
    X : array (n, D)
        Its support points.
    X_new : array (k, D)
        Test points.
    family : FeatureFamily
    seed : int or numpy.random.SeedSequence
    epsilon : float
        Accuracy, ``> 0``.
    delta : float
        Failure probability, in (0, 1).
    estimator_method : {"reference", "numpy", "fast"}, default="reference"

    Returns
    -------
    ndarray (k,)
    """
    family = check_family(family)
    alpha = arguments.real_array(alpha, "alpha")
    X_new = family.check_inputs(X_new, "X_new")
    seed = random_streams.as_seed_sequence(seed, "seed")
    l1 = float(np.abs(alpha).sum())
    # Algorithm 2 returns 0 for alpha = 0 whatever m is; the fast version asks for the m of
    # ||alpha||_1 = 1 there, which draws nothing either.
    m = theory.test_time_m_corrected(epsilon, delta, l1 if l1 > 0 else 1.0)
    return np.array([
        estimator.estimate_scalar_product(alpha, X, X_new[j], m, family,
                                          seed=random_streams.child(seed, j), method=estimator_method)
        for j in range(X_new.shape[0])
    ])
