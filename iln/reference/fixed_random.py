"""Fixed-Random (ICML Section 6), transcribed from its description.

ICML Section 6 (the arXiv version has no experiment section): "Fixed-Random: Sample a set
of r features w_1, ..., w_r and evaluate these on all the train and test points. Namely,
all x points will be evaluated on the same features. This is the standard random features
approach proposed in Rahimi & Recht (2007; 2009)", trained, like every method of the
comparison, by "one pass over the data" with "different initial step sizes and schedules
for changing the step size".  Numbered as this module cites it:

.. code-block:: text

    1  sample w_1, ..., w_r ~ mu, once
    2  phi(x) = (psi(x; w_1), ..., psi(x; w_r)) / sqrt(r)      (ICML eq. 2-3; arXiv eq. 2)
    3  theta_1 = 0
    4  for t = 1, ..., T do
    5      predict p_t = theta_t . phi(x_t), suffer (p_t - y_t)^2 / 2   (ICML eq. 6; arXiv eq. 5)
    6      theta_{t+1} = theta_t - gamma_t (p_t - y_t) phi(x_t)
    7      if B is given and ||theta_{t+1}|| > B: theta_{t+1} = B theta_{t+1} / ||theta_{t+1}||

with ``gamma_t = eta`` or ``gamma0 / (1 + gamma1 (t - 1))``.  The features come from a
generator on ``seed`` itself, as in :func:`iln.baselines.fixed_random.fixed_random`, so the
two share every random number.  The paper fixes none of the parameters (r and the steps are
the experiment's grid), so there are no defaults to take from :mod:`iln.theory`; the
transcription covers ``method="online"``, the fast version's default.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from iln import arguments, random_streams
from iln.baselines.fixed_random import check_online_data
from iln.features import FeatureFamily

__all__ = ["FixedRandomReference", "fixed_random_reference"]


@dataclass(frozen=True)
class FixedRandomReference:
    """The run of :func:`fixed_random_reference`.

    Attributes
    ----------
    W : ndarray (r, p)
        ``w_1, ..., w_r`` (line 1).
    theta : ndarray (T + 1, r)
        Row ``t - 1`` is ``theta_t``.
    predictions : ndarray (T,)
        ``p_t`` of line 5.
    steps : ndarray (T,)
        ``gamma_t``.
    projected : ndarray of bool (T,)
        Whether line 7 projected.
    """

    W: np.ndarray
    theta: np.ndarray
    predictions: np.ndarray
    steps: np.ndarray
    projected: np.ndarray


def fixed_random_reference(X, y, family: FeatureFamily, *, r, seed, eta=None, gamma0=None,
                           gamma1=0.0, B=None) -> FixedRandomReference:
    """Fixed-Random trained by one pass of online gradient descent, line by line.

    Parameters
    ----------
    X, y, family, r, seed
        As in :func:`iln.baselines.fixed_random.fixed_random` (line 1 draws from a generator
        on ``seed``).
    eta, gamma0, gamma1
        The step: a constant ``eta``, or ``gamma0 / (1 + gamma1 (t - 1))`` (give one of
        ``eta`` and ``gamma0``).
    B : float, optional
        Projection radius ``>= 1`` of line 7; default none.

    Returns
    -------
    FixedRandomReference
    """
    X, labels, family = check_online_data(X, y, family)
    T = X.shape[0]
    r = arguments.length(r, "r", 1)
    seed = random_streams.as_seed_sequence(seed, "seed")
    if (eta is None) == (gamma0 is None):
        raise ValueError("eta or gamma0: give exactly one, a constant step or the first step of a schedule")
    gamma1 = arguments.nonnegative_real(gamma1, "gamma1")
    B = arguments.norm_radius(B)
    if eta is not None:
        eta = arguments.positive_real(eta, "eta")
        steps = np.array([eta for _ in range(T)])
    else:
        gamma0 = arguments.positive_real(gamma0, "gamma0")
        steps = np.array([gamma0 / (1.0 + gamma1 * (t - 1)) for t in range(1, T + 1)])

    W = family.sample(r, random_streams.generator(seed))                           # line 1

    def phi(x):                                                                    # line 2
        return np.array([family.psi(x, W[j : j + 1])[0, 0] for j in range(r)]) / math.sqrt(r)

    theta = np.zeros((T + 1, r))                                                   # line 3
    predictions = np.empty(T)
    projected = np.zeros(T, dtype=bool)
    for t in range(1, T + 1):                                                      # line 4
        features = phi(X[t - 1])
        predictions[t - 1] = float(np.dot(theta[t - 1], features))                  # line 5
        theta[t] = theta[t - 1] - steps[t - 1] * (predictions[t - 1] - labels[t - 1]) * features  # line 6
        norm = math.sqrt(float(np.dot(theta[t], theta[t])))
        if B is not None and norm > B:                                             # line 7
            theta[t] = B * theta[t] / norm
            projected[t - 1] = True
    return FixedRandomReference(W=W, theta=theta, predictions=predictions, steps=steps,
                                projected=projected)
