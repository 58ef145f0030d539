"""The comparator's loss in the proof of Theorem 1: ICML eq. (17) / arXiv eq. (25).

``min_{||f*|| < B} sum_t l_t(f*) <= sum_t l_t(0) <= T``, with ``l_t(f) = (<f, Phi(x_t)> - y_t)^2 / 2``
(ICML eq. (6); arXiv eq. (5)) and labels in ``[-1, 1]``.

The claim is a specification (:mod:`verification.search`): its left side is the comparator's
loss ``min_{||f|| < B} sum_t l_t(f)`` (the chain's conclusion, the term the proof bounds; the open
ball has the closed ball's infimum), exact in closed form on three input structures of sign
features ``psi(x; w) = s sign(w . x)`` (``RandomSign(T, scale=s)``, ``k(x, x) = s^2``):

* ``orthogonal`` (``x_t = e_t``, ``K = s^2 I``): the predictions ``p`` range over the ball
  ``||p|| <= s B``, so the minimum is ``(||y|| - s B)_+^2 / 2``;
* ``repeated`` (every ``x_t = e_1``, ``K = s^2 1 1^T``): every prediction is one ``p`` with
  ``|p| <= s B``: ``sum_t (y_t - ybar)^2 / 2 + T (|ybar| - s B)_+^2 / 2``;
* ``zero`` (every ``x_t = 0``, ``K = 0``, ``sign(0) = 0``): no predictor moves, the minimum is
  ``sum_t l_t(0)``, the first inequality's equality.

Labels: ``y_t = +level`` or ``-level`` by bit ``(t - 1) mod 8`` of ``pattern``.  The variables:
``T >= 1``, ``B >= 1`` (Theorem 1; the comparator's ball), ``s in (0, 1)`` (``|psi| < 1``),
the input structure, ``pattern`` (256 sign patterns of period 8) and ``level in [0, 1]``.  The
trial is the shipped comparator (:func:`iln.comparator.best_in_ball` on the family's kernel),
deterministic: its conformance is the solver's agreement with the closed form.

Expected verdict, from the mathematics before any search: **holds**, with a ratio of at most
1/2: ``f = 0`` lies in every ball, so the minimum is at most ``sum_t l_t(0) = sum_t y_t^2 / 2
<= T / 2`` (``|y_t| <= 1``), attained in the limit ``s -> 0`` (and on zero inputs) with every
``|y_t| = 1``.  The printed ``T`` is valid and loose by a factor 2.

Not reached: Gram matrices other than these three structures (the minimum then solves a
secular equation, with no closed form here); on every structure the first inequality holds
because 0 is feasible, and the second because ``|y_t| <= 1``, whatever the Gram matrix.
"""

from __future__ import annotations

import math

import numpy as np

from iln import theory
from iln.comparator import best_in_ball
from iln.features import RandomSign
from verification import search
from verification.catalog import register, sources
from verification.verdicts import HOLDS, Verdict

#: the label patterns' period: bit ``(t - 1) mod PERIOD`` of ``pattern`` makes ``y_t = +level``.
PERIOD = 8
#: the input structures whose comparator loss has a closed form (module docstring).
INPUTS = ("orthogonal", "repeated", "zero")


def labels(pattern: int, level: float, T: int) -> np.ndarray:
    """``y_1, ..., y_T``: ``+level`` where bit ``(t - 1) mod PERIOD`` of ``pattern`` is set, else ``-level``."""
    bits = (int(pattern) >> (np.arange(T) % PERIOD)) & 1
    return np.where(bits == 1, level, -level).astype(float)


def comparator_exact(instance) -> np.ndarray:
    """``log min_{||f|| < B} sum_t l_t(f)`` at an instance, in closed form (module docstring)."""
    T, B, s = int(instance["T"]), float(instance["B"]), float(instance["s"])
    y = labels(instance["pattern"], float(instance["level"]), T)
    if instance["inputs"] == "orthogonal":
        loss = max(0.0, math.sqrt(math.fsum(y**2)) - s * B) ** 2 / 2
    elif instance["inputs"] == "repeated":
        mean = math.fsum(y) / T
        loss = math.fsum((y - mean) ** 2) / 2 + T * max(0.0, abs(mean) - s * B) ** 2 / 2
    else:
        loss = math.fsum(y**2) / 2
    return np.asarray(math.log(loss) if loss > 0 else -math.inf)


def _inputs(structure: str, T: int) -> np.ndarray:
    if structure == "orthogonal":
        return np.eye(T)
    if structure == "repeated":
        return np.tile(np.eye(T)[:1], (T, 1))
    return np.zeros((T, T))


def shipped_comparator_loss(instance, seed) -> float:
    """The shipped comparator's loss on the instance's Gram matrix (deterministic: the seed is unused)."""
    T = int(instance["T"])
    family = RandomSign(T, scale=float(instance["s"]))
    X = _inputs(instance["inputs"], T)
    return float(best_in_ball(family.kernel(X), labels(instance["pattern"], float(instance["level"]), T),
                              float(instance["B"])).total_loss)


def comparator_range(instance) -> tuple[float, float]:
    """A draw's a-priori range: a predictor of norm at most B predicts ``|p| <= B ||Phi(x)|| <= B s``
    (Cauchy-Schwarz, ``k(x, x) <= s^2``), so each loss is at most ``(B s + level)^2 / 2``."""
    return 0.0, float(instance["T"]) * (float(instance["B"]) * float(instance["s"]) + float(instance["level"])) ** 2 / 2


ZERO_COMPARATOR = search.Statement(
    id="iln.eq17.zero_comparator",
    domain=search.Domain(
        T=search.Integers(1, cap=2**10),
        B=search.Reals(1.0, math.inf, cap_high=1e6, per_decade=1),
        s=search.Reals(0.0, 1.0, open_low=True, open_high=True, per_decade=1),
        inputs=search.Choice(INPUTS, "sign features on orthogonal, repeated or zero inputs (closed-form minimum)"),
        pattern=search.Integers(0, high=2**PERIOD - 1),
        level=search.Reals(0.0, 1.0, per_decade=1),
    ),
    lhs=search.LeftSide("min_{||f*|| < B} sum_t l_t(f*)", exact=comparator_exact, sample=shipped_comparator_loss,
                        kind=search.EXPECTATION, sample_range=comparator_range),
    printed="T",
    # The bound the shipped Theorem 1 bound (iln.theory.regret_bound_proof) uses.
    shipped={"printed": lambda i: float(theory.zero_comparator_loss_bound(i["T"]))},
    scope="sign features psi(x; w) = s sign(w . x), s in (0, 1), on orthogonal inputs, on one input repeated "
          "and on zero inputs (the Gram matrices s^2 I, s^2 1 1^T and 0, where the comparator's minimum has a "
          "closed form); labels +-level in a sign pattern of period 8. Other Gram matrices are not searched.",
    plan=search.Plan(budget=3000, coarse=3),
)


def zero_comparator_trial(config, seed) -> dict:
    """The shipped comparator at each instance the search confirms."""
    return search.confirm(ZERO_COMPARATOR, config, seed)


def zero_comparator_decide(records, config, alpha) -> Verdict:
    """Decided exactly at the searched instances, then the comparator's conformance there."""
    return search.decide(ZERO_COMPARATOR, records, config, alpha)


_EQ17 = (r"\min_{\|f^*\| < B}\sum_{t=1}^T \ell_t(f^*) \le \sum_{t=1}^T \ell_t(0) \le T")


register(search.as_claim(
    ZERO_COMPARATOR, title="The comparator's loss is at most the zero predictor's, at most T",
    sources=sources(_EQ17, ICML="Section 5.1, proof of Theorem 1, eq. (17)",
                    arXiv="Appendix C.2, proof of Theorem 1, eq. (25)"),
    expected=HOLDS, trial=zero_comparator_trial, decide=zero_comparator_decide,
    # Deterministic trials: a few repetitions show a solver that disagrees with the closed form.
    n_trials={"smoke": 2, "quick": 5, "full": 20},
))
