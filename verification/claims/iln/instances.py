"""The instances the ILN paper's claims are checked on, and why each is hard.

* :data:`ESTIMATOR_INSTANCES`: functions ``f = sum_i alpha_i Phi(x_i)`` and points ``x`` on
  which Algorithm 2's estimate is checked (Algorithm 2, ICML Lemma 4 / arXiv Lemma 3).
* :data:`ALGORITHM1_RUNS`: runs of Algorithm 1 on which the claims about its iterates are
  checked (Algorithm 1, ICML Lemmas 3 and 5 / arXiv Lemmas 6 and 4, Theorem 1 part 3).
* :data:`SEQUENCES`: oblivious sequences for the regret claims (Theorem 1, Lemma 1, ICML
  eq. (17) / arXiv eq. (25)), and :data:`POPULATIONS`: finite populations for Corollary 1.

Each is built deterministically from its name (and a seed where it draws data), so that a
trial is a pure function of (configuration, seed) in any process.  The oracle kernel is
used by the adversaries and the traces (checker side), never by the learner.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import hadamard

from iln import estimator
from iln.comparator import best_in_ball
from iln.data import (
    adversarial_label,
    alternating_labels,
    constant_labels,
    section6_data,
    two_point_inputs,
)
from iln.features import (
    FeatureFamily,
    RandomCoordinate,
    RandomFourier,
    RandomReLU,
    RandomSign,
    RandomStump,
)
from iln.random_streams import as_seed_sequence, child
from iln.shrinking_gradient import ShrinkingGradientResult, shrinking_gradient

__all__ = ["ALGORITHM1_RUNS", "ESTIMATOR_INSTANCES", "NEAR_DUPLICATES", "POPULATIONS", "SEQUENCES",
           "EstimatorInstance", "Population", "Sequence", "adaptive_adversary", "algorithm1_run",
           "described", "estimator_instance", "hadamard_rows", "population", "sequence"]


def described(descriptions: dict, names=None) -> str:
    """``"name: description; ..."`` for the report's instances, in the table's order or ``names``'."""
    return "; ".join(f"{k}: {descriptions[k]}" for k in (descriptions if names is None else names))


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

    @functools.cached_property
    def _checked(self) -> tuple:
        return estimator.check_inputs(self.alpha, self.X, self.x, self.family)

    def estimate(self, m: int, seed, method: str = "fast") -> float:
        """Algorithm 2's estimate E of ``<f, Phi(x)>`` (ICML and arXiv Algorithm 2, eq. 11):
        :func:`iln.estimator.estimate_scalar_product` with this instance's inputs checked once,
        not at every call (a Monte Carlo check calls it on the same inputs a million times)."""
        alpha, X, x, family = self._checked
        return estimator.estimate_validated(alpha, X, x, estimator.check_m(m), family,
                                            as_seed_sequence(seed), method)


#: what each instance is and why it pushes against the claims (shown in the report).
ESTIMATOR_INSTANCES = {
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
    "zero_coefficient": "sign features on two orthogonal inputs with alpha = (0, 1), as Algorithm 1 "
                        "leaves a 0 on every shrink round, and x the second input: the exact value "
                        "is about 1, and an estimator that reads the support's inputs at the wrong "
                        "index (the first instead of the second) has mean 0",
}


@functools.cache
def estimator_instance(name: str) -> EstimatorInstance:
    """The instance called ``name`` (see :data:`ESTIMATOR_INSTANCES`)."""
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
    elif name == "zero_coefficient":
        family = RandomSign(2)
        alpha, X, x = np.array([0.0, 1.0]), np.eye(2), np.array([0.0, 1.0])
    elif name == "section6":
        data = section6_data(20, 100, seed=6, n_support=4)
        family = RandomCoordinate(100)
        X = data.X[data.support]
        alpha, x = np.asarray(data.target_coef, dtype=float) / 100.0, data.X[0]
    else:
        raise ValueError(f"unknown estimator instance {name!r}; known: {sorted(ESTIMATOR_INSTANCES)}")
    exact = float(alpha @ family.kernel(X, x[None, :])[:, 0])
    return EstimatorInstance(name, family, alpha, X, x, exact)


#: what each run is and why it pushes against the claims (shown in the report).
ALGORITHM1_RUNS = {
    "ascent_adversary": "the printed (ascent) step, eta = 1, B = 1, one input with the largest "
                        "kernel value the coordinate family allows (entries 0.99) and the label "
                        "farthest from the current prediction: |E_t - y_t| is driven towards 16B + 1 "
                        "and the shrink branch fires",
    "descent_adversary": "the descent step, eta = 1, B = 1, the same input and adaptive adversary",
    "two_point_relu": "ReLU features on two unit vectors 1e-3 apart with alternating labels: "
                      "contradictory labels on almost the same input, eta = 0.5",
    "section6_proof": "the ICML Section 6 data with the proof's eta and m (Theorem 1's setting)",
    "tie": "sign features of scale 1/2 on one repeated input, labels +1, B = 1, eta = 64, m = 64 "
           "(powers of two, so the arithmetic is exact): E_2 = 64 / 4 = 16 = 16B exactly, the "
           "boundary of the test |E_t| < 16B, where Algorithm 1 must shrink",
    "tie_B2": "the same with B = 2: E_2 = 16 = 8B, where Algorithm 1 must step, not shrink (a "
              "threshold of 16 instead of 16B shrinks)",
}


def adaptive_adversary(K):
    """Labels farthest from the learner's exact current prediction (an adaptive adversary)."""

    def label(t, x_t, alpha, X_past):
        return adversarial_label(float(K[t - 1, : t - 1] @ alpha))

    return label


def algorithm1_run(name: str, T: int, m: int, seed: np.random.SeedSequence,
                   record_alpha: bool = False) -> ShrinkingGradientResult:
    """The run called ``name`` (see :data:`ALGORITHM1_RUNS`) with T rounds and m samples per round.

    ``section6_proof`` ignores ``m``: its point is the proof's own m (and eta); ``tie`` and
    ``tie_B2`` use m = 64, a power of two that keeps their estimates exact.
    ``record_alpha`` keeps every ``alpha^(t)`` (see :func:`iln.shrinking_gradient.shrinking_gradient`).
    """
    family: FeatureFamily
    if name in ("ascent_adversary", "descent_adversary"):
        family = RandomCoordinate(4)
        X = np.full((T, 4), 0.99)
        K = family.kernel(X)
        update = "printed" if name == "ascent_adversary" else "descent"
        return shrinking_gradient(X, adaptive_adversary(K), family, B=1.0, eta=1.0, m=m, seed=seed,
                                  update=update, oracle=family.kernel, record_alpha=record_alpha)
    if name == "two_point_relu":
        family = RandomReLU(3)
        X = two_point_inputs(T, 3, seed=child(seed, 0))
        return shrinking_gradient(X, alternating_labels(T), family, B=1.0, eta=0.5, m=m,
                                  seed=child(seed, 1), oracle=family.kernel, record_alpha=record_alpha)
    if name == "section6_proof":
        data = section6_data(T, 2 * T, seed=child(seed, 0))
        family = RandomCoordinate(2 * T)
        return shrinking_gradient(data.X, data.y, family, B=1.0, seed=child(seed, 1),
                                  oracle=family.kernel, record_alpha=record_alpha)
    if name in ("tie", "tie_B2"):
        # psi = +-1/2, so every term of Algorithm 2 on the repeated input is +-1/4 and, with
        # alpha_1 = eta = 64 after round 1, E_2 = 64 * 1/4 = 16 with no rounding.
        family = RandomSign(2, scale=0.5)
        X = np.tile([0.6, 0.8], (T, 1))
        return shrinking_gradient(X, np.ones(T), family, B=1.0 if name == "tie" else 2.0, eta=64.0,
                                  m=64, seed=seed, oracle=family.kernel, record_alpha=record_alpha)
    raise ValueError(f"unknown Algorithm 1 run {name!r}; known: {sorted(ALGORITHM1_RUNS)}")


#: entries of the Hadamard and near-duplicate inputs: the largest kernel values random
#: coordinates allow (``k(x, x) = 0.99^2``) while keeping ``|psi| < 1``.
_ENTRY = 0.99

#: two inputs 0.01 apart in one of four coordinates: ``k = 0.980, 0.978, 0.975``.
NEAR_DUPLICATES = np.array([[_ENTRY] * 4, [_ENTRY] * 3 + [0.98]])


@dataclass(frozen=True)
class Sequence:
    """A sequence ``(x_t, y_t)`` fixed before the run, and the features it is learned with."""

    X: np.ndarray
    y: np.ndarray
    family: FeatureFamily


#: what each sequence is and why it pushes against the regret bounds (shown in the report).
SEQUENCES = {
    "section6": "the ICML Section 6 data (clipped Gaussians, D = 2T random coordinates, labels "
                "a . x of a sparse target), drawn anew for every seed: the paper's benign case",
    "orthogonal": "rows of a Hadamard matrix scaled to 0.99 under random coordinates: k(x, x) = "
                  "0.98, the largest value the family allows, and k(x, x') = 0 between rows, each "
                  "row visited a few times (cyclically) with a label +-1 of its own. The learner "
                  "learns nothing about a row before it comes, while the comparator spreads its "
                  "norm over all rows: the minimax lower-bound construction of online learning "
                  "(regret about B sqrt(kT)), a quarter of the proof's bound",
    "near_duplicate": "two inputs 0.01 apart (entries 0.99; k = 0.98) with contradictory labels "
                      "+1, -1 in turn: the largest gradient every round, in alternating directions",
    "near_duplicate_constant": "the same two inputs, every label +1: the learner must travel to "
                               "a predictor of norm about B, the case where the B^2/eta term binds",
}


def hadamard_rows(n: int) -> tuple[np.ndarray, RandomCoordinate]:
    """n pairwise orthogonal inputs for random coordinates: rows of a Sylvester Hadamard matrix."""
    D = 1 << max(0, (n - 1).bit_length())
    return _ENTRY * hadamard(D).astype(np.float64)[:n], RandomCoordinate(D)


def sequence(name: str, T: int, seed: np.random.SeedSequence, repeats: int = 1) -> Sequence:
    """The sequence called ``name`` (see :data:`SEQUENCES`) with T rounds.

    ``seed`` draws the Section 6 data (the other sequences are deterministic); ``repeats``
    is how many times each orthogonal row is visited.
    """
    if name == "section6":
        data = section6_data(T, 2 * T, seed=seed)
        return Sequence(data.X, data.y, RandomCoordinate(2 * T))
    if name == "orthogonal":
        n = math.ceil(T / repeats)
        rows, family = hadamard_rows(n)
        which = np.arange(T) % n
        return Sequence(rows[which], np.where(which % 2 == 0, 1.0, -1.0), family)
    if name in ("near_duplicate", "near_duplicate_constant"):
        labels = alternating_labels(T) if name == "near_duplicate" else constant_labels(T)
        return Sequence(NEAR_DUPLICATES[np.arange(T) % 2], labels, RandomCoordinate(NEAR_DUPLICATES.shape[1]))
    raise ValueError(f"unknown sequence {name!r}; known: {sorted(SEQUENCES)}")


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: cached per name
class Population:
    """A distribution of ``(x, y)`` on finitely many pairs, so that its risk is exact.

    ``L(f) = sum_j p_j (<f, Phi(x_j)> - y_j)^2 / 2`` (ICML eq. (8); arXiv Section 2). Written
    as ``sum_j (<f, sqrt(p_j) Phi(x_j)> - sqrt(p_j) y_j)^2 / 2`` it is the cumulative loss of
    the weighted points ``sqrt(p_j) Phi(x_j)``, whose Gram matrix is ``P K P`` with
    ``P = diag(sqrt(p))``, at labels ``sqrt(p_j) y_j`` in ``[-1, 1]``: so
    ``inf_{||f|| <= B} L(f)`` is ``best_in_ball(P K P, sqrt(p) y, B).total_loss``, exactly.
    """

    X: np.ndarray
    y: np.ndarray
    p: np.ndarray
    family: FeatureFamily

    @functools.cached_property
    def K(self) -> np.ndarray:
        """The oracle Gram matrix of the support (checker side)."""
        return self.family.kernel(self.X)

    def risk(self, predictions: np.ndarray) -> float:
        """``L(f)`` from the exact predictions ``<f, Phi(x_j)>`` on the support."""
        return 0.5 * float(self.p @ (predictions - self.y) ** 2)

    @functools.cache  # noqa: B019 - a population lives as long as the module's cache of them
    def best_risk(self, B: float) -> float:
        """``inf_{||f|| <= B} L(f)`` (the open ball of Section 2 has the same infimum)."""
        w = np.sqrt(self.p)
        return best_in_ball(w[:, None] * self.K * w[None, :], w * self.y, B).total_loss


#: what each population is and why it pushes against Corollary 1 (shown in the report).
POPULATIONS = {
    "orthogonal": "128 Hadamard rows (k(x, x) = 0.98, orthogonal to each other) with labels "
                  "+-1, uniform: what a sample teaches about one point says nothing about the "
                  "others, the batch form of the minimax construction",
    "section6": "256 points of the ICML Section 6 data (D = 512), uniform: the paper's setting "
                "with the population known exactly",
    "noisy_near_duplicate": "the two near-duplicate inputs with noisy labels: y = +1 w.p. 0.45 "
                            "and -1 w.p. 0.05 at the first, +1 w.p. 0.35 and -1 w.p. 0.15 at the "
                            "second: conditional means 0.8 and 0.4 on almost the same input, which "
                            "no predictor of norm 1 separates, and label noise on top",
}


@functools.cache
def population(name: str) -> Population:
    """The population called ``name`` (see :data:`POPULATIONS`)."""
    if name == "orthogonal":
        rows, family = hadamard_rows(128)
        return Population(rows, np.where(np.arange(128) % 2 == 0, 1.0, -1.0), np.full(128, 1 / 128), family)
    if name == "section6":
        data = section6_data(256, 512, seed=6)
        return Population(data.X, data.y, np.full(256, 1 / 256), RandomCoordinate(512))
    if name == "noisy_near_duplicate":
        X = NEAR_DUPLICATES[[0, 0, 1, 1]]
        return Population(X, np.array([1.0, -1.0, 1.0, -1.0]), np.array([0.45, 0.05, 0.35, 0.15]),
                          RandomCoordinate(NEAR_DUPLICATES.shape[1]))
    raise ValueError(f"unknown population {name!r}; known: {sorted(POPULATIONS)}")

