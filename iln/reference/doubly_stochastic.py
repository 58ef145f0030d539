"""Doubly Stochastic Gradient Descent (ICML Section 6; Dai et al. 2014), transcribed.

ICML Section 6 (the arXiv version has no experiment section): "Doubly Stochastic Gradient
Descent (Dai et al., 2014): Here each training point x samples k features w_1, ..., w_k.
These features will from that point on be used for evaluating dot products with x", trained
by one pass with the step schedules of the comparison.  With Dai et al.'s Algorithm 1 for the
squared loss (ICML eq. 6; arXiv eq. 5) and regularisation ``nu``, numbered as this module
cites it:

.. code-block:: text

    1  for t = 1, ..., T do
    2      sample w_t1, ..., w_tk ~ mu                       (point t's own features)
    3      f_t(x_t) = (1/k) sum_{i<t} sum_{j<=k} a_ij psi(x_t; w_ij)
    4      a_ij = (1 - gamma_t nu) a_ij  for every i < t
    5      a_tj = -gamma_t (f_t(x_t) - y_t) psi(x_t; w_tj)  for j = 1, ..., k

with ``gamma_t = gamma0 / (1 + gamma1 (t - 1))``.  Round t draws from a generator on child
``t`` of the seed, as :func:`iln.baselines.doubly_stochastic.doubly_stochastic` does, so the
two share every random number.  The paper fixes none of k, gamma0, gamma1 (the experiment's
grid), so there are no defaults to take from :mod:`iln.theory`; ``gamma1`` and ``nu``
default to 0 as in the fast version.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from iln import random_streams
from iln.baselines.doubly_stochastic import check_dsgd_arguments
from iln.features import FeatureFamily

__all__ = ["DoublyStochasticReference", "doubly_stochastic_reference"]


@dataclass(frozen=True)
class DoublyStochasticReference:
    """The run of :func:`doubly_stochastic_reference`.

    Attributes
    ----------
    W : ndarray (T, k, p)
        ``W[i - 1, j - 1] = w_ij`` (line 2).
    coef : ndarray (T, k)
        Final ``a_ij``.
    predictions : ndarray (T,)
        ``f_t(x_t)`` of line 3.
    steps : ndarray (T,)
        ``gamma_t``.
    """

    W: np.ndarray
    coef: np.ndarray
    predictions: np.ndarray
    steps: np.ndarray


def doubly_stochastic_reference(X, y, family: FeatureFamily, *, k, seed, gamma0, gamma1=0.0,
                                nu=0.0) -> DoublyStochasticReference:
    """DSGD for the squared loss, one statement per line of the description.

    Parameters
    ----------
    X, y, family, k, seed, gamma0, gamma1, nu
        As in :func:`iln.baselines.doubly_stochastic.doubly_stochastic` (round t draws from
        child ``t`` of ``seed``).

    Returns
    -------
    DoublyStochasticReference
    """
    X, labels, family, k, seed, gamma0, gamma1, nu = check_dsgd_arguments(X, y, family, k, seed,
                                                                          gamma0, gamma1, nu)
    T = X.shape[0]

    W, a = [], np.zeros((T, k))
    predictions, steps = np.empty(T), np.empty(T)
    for t in range(1, T + 1):                                                          # line 1
        gamma_t = gamma0 / (1.0 + gamma1 * (t - 1))
        steps[t - 1] = gamma_t
        W.append(family.sample(k, random_streams.generator(random_streams.child(seed, t))))  # line 2
        x_t = X[t - 1 : t]
        f_t = sum(a[i - 1, j - 1] * family.psi(x_t, W[i - 1][j - 1 : j])[0, 0]        # line 3
                  for i in range(1, t) for j in range(1, k + 1)) / k
        predictions[t - 1] = f_t
        for i in range(1, t):                                                          # line 4
            a[i - 1] = (1.0 - gamma_t * nu) * a[i - 1]
        for j in range(1, k + 1):                                                      # line 5
            a[t - 1, j - 1] = -gamma_t * (f_t - labels[t - 1]) * family.psi(x_t, W[t - 1][j - 1 : j])[0, 0]
    return DoublyStochasticReference(W=np.stack(W), coef=a, predictions=predictions, steps=steps)
