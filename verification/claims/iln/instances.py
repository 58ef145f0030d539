"""Instances of Algorithm 2 on which the estimator claims are checked, and why they are hard.

Each instance is built deterministically from its name, so that a trial is a
pure function of (configuration, seed) in any process.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from iln.data import section6_data
from iln.features import (
    FeatureFamily,
    RandomCoordinate,
    RandomFourier,
    RandomReLU,
    RandomSign,
    RandomStump,
)

__all__ = ["DESCRIPTIONS", "EstimatorInstance", "estimator_instance"]


@dataclass(frozen=True)
class EstimatorInstance:
    """``f = sum_i alpha_i Phi(x_i)`` evaluated at ``x``, with its exact value from the oracle."""

    name: str
    family: FeatureFamily
    alpha: np.ndarray
    X: np.ndarray
    x: np.ndarray
    exact: float

    @property
    def alpha_l1(self) -> float:
        return float(np.abs(self.alpha).sum())


#: what each instance is and why it pushes against the claims (shown in the report).
DESCRIPTIONS = {
    "two_point": "sign features on two orthogonal inputs, alpha = (1): every term of Algorithm 2 "
                 "is +-0.998 with probability 1/2 and the exact value is 0, the two-point law that "
                 "makes Hoeffding's inequality tight and the printed tail bound fail",
    "cancelling": "random-coordinate features on near-duplicate inputs with entries up to 0.99 and "
                  "alternating alpha (1.5, -1, 0.75, -0.25): large kernel values cancelling in the sum",
    "stumps": "random decision stumps on inputs of size up to 2 with mixed-sign alpha",
    "relu": "ReLU neurons with w uniform on the sphere, inputs on and inside the unit sphere",
    "fourier": "random Fourier features (gamma = 1.3) on spread-out inputs",
    "fourier_scale": "random Fourier features (gamma = 1) at one support point whose distance to x "
                     "has gamma ||x - x_1||^2 = ln 4, where the kernel exp(-gamma d^2) / 2 = 1/8 is "
                     "most sensitive to the scale of w: a sampler whose variance is off by a factor "
                     "2 shifts E's mean by 1/8 of ||alpha||_1",
    "end_coordinates": "random coordinates (D = 4) on 0.99 times the first and last unit vectors "
                       "with alpha = (1, -1) and x = 0.99 (e_1 + e_4): the exact value is 0, and a "
                       "coordinate draw that misses either end coordinate shifts E's mean by about "
                       "1/6 of ||alpha||_1",
    "section6": "the ICML Section 6 data (clipped Gaussians, random coordinates) with the "
                "coefficients of a sparse target: the benign case of the paper's experiment",
}


@functools.cache
def estimator_instance(name: str) -> EstimatorInstance:
    """The instance called ``name`` (see :data:`DESCRIPTIONS`)."""
    family: FeatureFamily
    if name == "two_point":
        family = RandomSign(2)
        alpha, X, x = np.array([1.0]), np.array([[1.0, 0.0]]), np.array([0.0, 1.0])
    elif name == "cancelling":
        family = RandomCoordinate(6)
        base = np.array([0.99, 0.95, 0.9, 0.97, 0.93, 0.99])
        X = np.vstack([base, base * 0.98, base * 0.96, -base * 0.5])
        alpha, x = np.array([1.5, -1.0, 0.75, -0.25]), base * 0.99
    elif name == "stumps":
        family = RandomStump(3)
        X = np.array([[2.0, -1.0, 0.5], [1.9, -1.1, 0.4], [-2.0, 1.0, 0.0]])
        alpha, x = np.array([2.0, -1.5, 0.5]), np.array([1.95, -1.0, 0.45])
    elif name == "relu":
        family = RandomReLU(5)
        rng = np.random.default_rng(5)
        X = rng.standard_normal((4, 5))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        alpha, x = np.array([1.0, -2.0, 0.5, 1.5]), X[0] * 0.9
    elif name == "fourier":
        family = RandomFourier(4, gamma=1.3)
        rng = np.random.default_rng(4)
        X = rng.standard_normal((4, 4))
        alpha, x = np.array([1.0, -1.0, 2.0, -0.5]), X[1] * 0.8
    elif name == "fourier_scale":
        family = RandomFourier(2, gamma=1.0)
        alpha, X, x = np.array([1.0]), np.zeros((1, 2)), np.array([np.sqrt(np.log(4.0)), 0.0])
    elif name == "end_coordinates":
        family = RandomCoordinate(4)
        # 0.99, not 1: random-coordinate features assume |x_d| < 1 so that |psi| < 1.
        X = np.array([[0.99, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.99]])
        alpha, x = np.array([1.0, -1.0]), np.array([0.99, 0.0, 0.0, 0.99])
    elif name == "section6":
        data = section6_data(20, 100, seed=6, n_support=4)
        family = RandomCoordinate(100)
        X = data.X[data.support]
        alpha, x = np.asarray(data.target_coef, dtype=float) / 100.0, data.X[0]
    else:
        raise ValueError(f"unknown estimator instance {name!r}; known: {sorted(DESCRIPTIONS)}")
    exact = float(alpha @ family.kernel(X, x[None, :])[:, 0])
    return EstimatorInstance(name, family, alpha, X, x, exact)
