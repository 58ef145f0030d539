"""Online gradient descent with the exact kernel (ICML/arXiv Section 5), transcribed.

ICML Section 5 (arXiv Section 5): "A classic approach to the problem is to exploit the OGD
algorithm. Its simplest version would be to update f_{t+1} <- f_t - eta grad_t [...]
grad_t = (<f_t, Phi(x_t)> - y_t) Phi(x_t)" (eq. 9, both versions), with Zinkevich's
projection onto the ball ``||f|| <= B`` of the comparison class ``H^B_mu`` (Section 2).
With ``f_t = sum_i alpha_i Phi(x_i)``, ``<Phi(x_i), Phi(x_j)> = k(x_i, x_j)`` (ICML eq. 2;
arXiv eq. 2), numbered as this module cites it:

.. code-block:: text

    1  f_1 = 0
    2  for t = 1, ..., T do
    3      predict p_t = <f_t, Phi(x_t)> = sum_{i<t} alpha_i k(x_i, x_t)
    4      f_{t+1} = f_t - eta (p_t - y_t) Phi(x_t)                          (eq. 9)
    5      if B is given and ||f_{t+1}|| > B: f_{t+1} = B f_{t+1} / ||f_{t+1}||
           (||f||^2 = alpha^T K alpha, the Gram matrix's quadratic form)

The learner is deterministic; it reads the oracle kernel, the one learner that may
(docs, Design, principle 1).  The paper fixes neither eta nor B for it, so there are no defaults
to take from :mod:`iln.theory`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from iln import arguments
from iln.baselines.fixed_random import check_online_data
from iln.features import FeatureFamily

__all__ = ["KernelOGDReference", "kernel_ogd_reference"]


@dataclass(frozen=True)
class KernelOGDReference:
    """The run of :func:`kernel_ogd_reference`.

    Attributes
    ----------
    alpha : ndarray (T + 1, T)
        Row ``t - 1`` holds the coefficients of ``f_t``.
    predictions : ndarray (T,)
        ``p_t`` of line 3.
    projected : ndarray of bool (T,)
        Whether line 5 projected.
    """

    alpha: np.ndarray
    predictions: np.ndarray
    projected: np.ndarray


def kernel_ogd_reference(X, y, family: FeatureFamily, *, B, eta) -> KernelOGDReference:
    """Projected kernel OGD, one statement per line.

    Parameters
    ----------
    X, y, family, B, eta
        As in :func:`iln.baselines.kernel_ogd.kernel_ogd` (``family`` with an oracle kernel;
        ``B = None``: no projection).

    Returns
    -------
    KernelOGDReference
    """
    X, labels, family = check_online_data(X, y, family)
    T = X.shape[0]
    B = arguments.norm_radius(B)
    eta = arguments.positive_real(eta, "eta")
    K = family.kernel(X, X)

    alpha = np.zeros((T + 1, T))                                                  # line 1
    predictions = np.empty(T)
    projected = np.zeros(T, dtype=bool)
    for t in range(1, T + 1):                                                     # line 2
        predictions[t - 1] = sum(alpha[t - 1, i - 1] * K[i - 1, t - 1] for i in range(1, t))  # line 3
        alpha[t] = alpha[t - 1]                                                   # line 4
        alpha[t, t - 1] = alpha[t - 1, t - 1] - eta * (predictions[t - 1] - labels[t - 1])
        norm = math.sqrt(max(float(alpha[t] @ K @ alpha[t]), 0.0))
        if B is not None and norm > B:                                            # line 5
            alpha[t] = B * alpha[t] / norm
            projected[t - 1] = True
    return KernelOGDReference(alpha=alpha, predictions=predictions, projected=projected)
