"""AdaBoost with decision stumps, the competitor of RKS Figure 1, transcribed line by line.

RKS Section 4 compares Algorithm 1 with "Adaboosted decision stumps" and cites for AdaBoost
Schapire's overview [7] and Friedman, Hastie & Tibshirani [8].  The algorithm is Freund &
Schapire's (discrete) AdaBoost as [7] prints it, numbered as this module cites it:

.. code-block:: text

    Given (x_1, y_1), ..., (x_m, y_m), y_i in {-1, +1}.
    1  Initialize D_1(i) = 1/m.
    2  For t = 1, ..., T:
    3      Train the weak learner using distribution D_t; get h_t: X -> {-1, +1}.
    4      eps_t = Pr_{i ~ D_t}[h_t(x_i) != y_i]
    5      alpha_t = (1/2) ln((1 - eps_t) / eps_t)
    6      D_{t+1}(i) = D_t(i) exp(-alpha_t y_i h_t(x_i)) / Z_t   (Z_t normalises)
    7  Output H(x) = sign(sum_t alpha_t h_t(x)).

The weak learner of [7] returns a hypothesis whose "goodness [...] is measured by its error"
``eps_t``; over decision stumps (RKS Section 4: ``phi(x; w) = sign(x_{w_d} - w_t)``) it is
:func:`best_stump`, the stump of least weighted error (ties to the first in the order
coordinate, threshold, sign; a stump's thresholds are the midpoints between consecutive
distinct values of its coordinate and one below them all, which gives the constant
hypotheses).  [7] requires ``eps_t < 1/2``; the loop stops before a round whose hypothesis
has ``eps_t >= 1/2`` (it would get a weight <= 0) and, at ``eps_t = 0``, keeps ``h_t`` as
the whole output (``alpha_t`` is infinite: ``H = h_t``).

The loop takes its weak learner as an argument, so that the conformance claims can drive
it with the shipped ensemble's own stumps (:func:`iln.rks.kitchen_sinks.adaboost_stumps`
fits scikit-learn's depth-1 trees) and check the loop apart from the choice of stumps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from iln import arguments

__all__ = ["AdaBoostReference", "Stump", "adaboost_reference", "best_stump", "weighted_error"]


@dataclass(frozen=True)
class Stump:
    """``h(x) = sign`` where ``x_coordinate > threshold`` and ``-sign`` elsewhere."""

    coordinate: int
    threshold: float
    sign: float

    def __call__(self, X) -> np.ndarray:
        """The stump's vote, ``+-sign``, on each row of ``X``."""
        return np.where(np.atleast_2d(X)[:, self.coordinate] > self.threshold, self.sign, -self.sign)


def weighted_error(h_values, y, D) -> float:
    """Line 4: ``eps = sum_i D(i) [h(x_i) != y_i]``."""
    return float(np.dot(D, np.asarray(h_values) != np.asarray(y)))


def best_stump(X, y, D) -> Stump:
    """The weak learner of line 3: the decision stump of least weighted error under ``D``.

    Parameters
    ----------
    X : ndarray (m, d)
    y : ndarray (m,)
        Labels in {-1, +1}.
    D : ndarray (m,)
        The distribution ``D_t``.

    Returns
    -------
    Stump
    """
    best, best_error = None, math.inf
    for d in range(X.shape[1]):
        values = np.unique(X[:, d])
        thresholds = np.concatenate([[values[0] - 1.0], (values[:-1] + values[1:]) / 2])
        # Row j: the stump of sign +1 at thresholds[j] on every point; its weighted error is
        # line 4's sum, and the stump of sign -1 errs exactly where this one does not.
        predictions = np.where(X[None, :, d] > thresholds[:, None], 1.0, -1.0)
        errors = (predictions != y[None, :]) @ D
        for j in range(thresholds.size):
            for sign, error in ((1.0, errors[j]), (-1.0, D.sum() - errors[j])):
                if error < best_error:
                    best, best_error = Stump(d, float(thresholds[j]), sign), float(error)
    if best is None:
        raise ValueError(f"X must have at least one column to cut, got shape {X.shape}")
    return best


@dataclass(frozen=True)
class AdaBoostReference:
    """The run of :func:`adaboost_reference`.

    Attributes
    ----------
    hypotheses : list of callable
        ``h_1, ..., h_R`` (line 3), ``R <= T`` rounds played.
    errors : ndarray (R,)
        ``eps_t`` (line 4).
    alphas : ndarray (R,)
        ``alpha_t`` (line 5); ``inf`` for a round with ``eps_t = 0``.
    distributions : ndarray (R, m)
        Row ``t - 1`` is ``D_t`` (lines 1 and 6).
    """

    hypotheses: list
    errors: np.ndarray
    alphas: np.ndarray
    distributions: np.ndarray

    def margin(self, X) -> np.ndarray:
        """``sum_t alpha_t h_t(x) / sum_t alpha_t``, the normalised vote of line 7 (``h_R(x)``
        when the last round was perfect)."""
        if np.isinf(self.alphas[-1]):
            return np.asarray(self.hypotheses[-1](X), dtype=np.float64)
        votes = sum(a * np.asarray(h(X), dtype=np.float64) for a, h in zip(self.alphas, self.hypotheses, strict=True))
        return votes / float(np.sum(self.alphas))

    def predict(self, X) -> np.ndarray:
        """Line 7: ``H(x) = sign(sum_t alpha_t h_t(x))`` (a tie, sum 0, is read as -1)."""
        return np.where(self.margin(X) > 0.0, 1.0, -1.0)


def adaboost_reference(X, y, *, T, weak_learner: Callable = best_stump) -> AdaBoostReference:
    """Discrete AdaBoost of Freund & Schapire as Schapire's overview [7] prints it.

    Parameters
    ----------
    X : array of shape (m, d)
        Training inputs (finite).
    y : array of shape (m,)
        Labels in {-1, +1}.
    T : int
        Rounds, ``T >= 1``.
    weak_learner : callable ``(X, y, D) -> h``, default :func:`best_stump`
        Line 3; ``h`` maps an (n, d) array to labels in {-1, +1}.

    Returns
    -------
    AdaBoostReference

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> run = adaboost_reference(X, np.array([-1.0, -1.0, 1.0, 1.0]), T=3)
    >>> run.errors.tolist(), run.predict(X).tolist()
    ([0.0], [-1.0, -1.0, 1.0, 1.0])
    """
    X = arguments.real_array(X, "X")
    if X.ndim != 2 or X.shape[0] < 1:
        raise ValueError(f"X must be a 2-D array with at least one row, got shape {X.shape}")
    m = X.shape[0]
    y = arguments.sign_labels(y, "y", m)
    T = arguments.integer(T, "T", 1)
    if not callable(weak_learner):
        raise TypeError(f"weak_learner must be callable (X, y, D) -> h, got {type(weak_learner).__name__}")

    D = np.array([1.0 / m for _ in range(m)])                                  # line 1
    hypotheses, errors, alphas, distributions = [], [], [], []
    for _t in range(1, T + 1):                                                 # line 2
        h = weak_learner(X, y, D)                                              # line 3
        h_values = np.asarray(h(X), dtype=np.float64)
        eps = weighted_error(h_values, y, D)                                   # line 4
        if eps >= 0.5:  # [7] assumes eps_t < 1/2: such an h_t would get alpha_t <= 0
            break
        hypotheses.append(h)
        errors.append(eps)
        distributions.append(D)
        if eps == 0.0:  # alpha_t = infinity: H = h_t, and D_{t+1} is undefined
            alphas.append(math.inf)
            break
        alpha = 0.5 * math.log((1.0 - eps) / eps)                             # line 5
        alphas.append(alpha)
        unnormalised = np.array([D[i] * math.exp(-alpha * y[i] * h_values[i]) for i in range(m)])
        D = unnormalised / unnormalised.sum()                                   # line 6
    if not hypotheses:
        raise ValueError("the weak learner's first hypothesis has error >= 1/2 under D_1: "
                         "AdaBoost cannot start")
    return AdaBoostReference(hypotheses=hypotheses, errors=np.array(errors), alphas=np.array(alphas),
                             distributions=np.array(distributions))
