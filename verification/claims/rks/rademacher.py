"""The Rademacher complexity of F_w (RKS Appendix B, eq. 21-23): ``R_m[F_w] <= C / sqrt(m)``.

``R_m[F_w] = E_{sigma, X} sup_{||alpha||_inf <= C/K} (1/m) sum_i sigma_i sum_k alpha_k phi(x_i;
w_k)``, for every draw of ``w_1..w_K`` and every law P of the inputs.  The supremum over the box
is ``(C/K) sum_k |(1/m) sum_i sigma_i phi(x_i; w_k)|`` (Hoelder, eq. 22, attained at a vertex),
so ``R_m`` is an average over the K features of the same quantity: its largest value over the
features is reached when every feature is the largest one's copy, and the search covers
``K >= 1`` with identical features.

The claim is a specification (:mod:`verification.search`) with an expectation left side.
Exact (:func:`complexity_exact`, :func:`complexity_certified`) on inputs whose feature takes
two magnitudes: P puts probability ``pi`` on a point where ``|phi| = a`` and ``1 - pi`` on one
where ``|phi| = b`` (``a, b in [0, 1]``; the signs of phi do not matter, sigma is symmetric).
With j draws of the first point, ``(1/m) sum_i sigma_i phi(x_i) = (a S_j + b T_{m-j}) / m``
with ``S, T`` independent sums of fair signs: ``R_m = C E_j E|a S_j + b T_{m-j}| / m``,
``j ~ Binomial(m, pi)``, an exact finite sum (``a = b = 1``: ``C E|S_m| / m``, the +-1 features
where eq. 23 is tightest; ``b = 0``: features that vanish on part of the sample).

The shipped code is sampled by :func:`complexity_trial`: the features of the drawn sample
through :meth:`~iln.rks.function_class.AtomFeatures.psi`, and the supremum over the box of
one draw of sigma.

Expected verdict, from the mathematics before any search: holds at every instance.  Each step
of eq. (21)-(23) is valid once the index typo of eq. (22)-(23) is read as i (the errata
ledger's quoted entry): Hoelder, Jensen (concavity of the square root), ``E sigma_i sigma_l =
0`` for ``i != l``, and ``|phi| <= 1``.  No correction.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
from scipy import stats

from iln.random_streams import generator
from iln.rks import function_class as fc
from verification import search
from verification.catalog import Source, register
from verification.verdicts import HOLDS, Verdict

ID = "rks.rademacher.bound"
#: the largest m decided in rational arithmetic; beyond it, float64 (relative error < 1e-12).
RATIONAL_M = 40


@functools.lru_cache(maxsize=256)
def _given_draws(m: int, a: float, b: float) -> np.ndarray:
    """``E|a S_j + b T_{m-j}| / m`` for every j = 0..m (S, T sums of fair signs)."""
    out = np.empty(m + 1)
    for j in range(m + 1):
        s = 2.0 * np.arange(j + 1) - j
        t = 2.0 * np.arange(m - j + 1) - (m - j)
        weights = np.outer(stats.binom.pmf(np.arange(j + 1), j, 0.5), stats.binom.pmf(np.arange(m - j + 1), m - j, 0.5))
        out[j] = float(np.sum(weights * np.abs(a * s[:, None] + b * t[None, :]))) / m
    return out


def complexity_exact(instance) -> np.ndarray:
    """``log R_m[F_w]`` at an instance (m, K, C, a, b, pi): a finite sum over the draws."""
    m = int(instance["m"])
    j = stats.binom.pmf(np.arange(m + 1), m, float(instance["pi"]))
    value = instance["C"] * float(j @ _given_draws(m, float(instance["a"]), float(instance["b"])))
    return np.asarray(math.log(value) if value > 0 else -math.inf)


def complexity_certified(instance) -> search.ExactValue:
    """``R_m[F_w]`` at one instance in rational arithmetic (m up to :data:`RATIONAL_M`; beyond,
    :func:`complexity_exact`): every float of the instance is the rational it stores."""
    m = int(instance["m"])
    if m > RATIONAL_M:
        log = float(complexity_exact(instance))
        return search.ExactValue(log, f"{math.exp(log):.17g}", "float64 sum of binomial terms (relative error < 1e-12)")
    a, b, pi, C = (Fraction(instance[k]) for k in ("a", "b", "pi", "C"))
    total = Fraction(0)
    for j in range(m + 1):
        inner = sum(math.comb(j, k) * math.comb(m - j, n) * abs(a * (2 * k - j) + b * (2 * n - m + j))
                    for k in range(j + 1) for n in range(m - j + 1))
        total += math.comb(m, j) * pi**j * (1 - pi) ** (m - j) * Fraction(inner, 2**m)
    value = C * total / m
    text = f"{value.numerator}/{value.denominator}" if value.denominator.bit_length() <= 132 else f"{float(value):.17g}"
    return search.ExactValue(math.log(value) if value else -math.inf, text, "rational arithmetic")


def complexity_trial(instance, seed) -> float:
    """One draw of ``sup_{alpha in S} (1/m) sum_i sigma_i f(x_i)`` (eq. 21): m inputs drawn
    from P, their K identical features through :meth:`AtomFeatures.psi`, one draw of sigma."""
    rng = generator(seed)
    m, K, C = int(instance["m"]), int(instance["K"]), instance["C"]
    family = fc.AtomFeatures(np.array([[instance["a"]], [instance["b"]]]), np.array([1.0]))
    inputs = np.where(rng.random(m) < instance["pi"], 0.0, 1.0)[:, None]
    table = family.psi(inputs, family.sample(K, rng))                       # (m, K)
    sigma = np.where(rng.random(m) < 0.5, -1.0, 1.0)
    return float(C / K * np.abs(sigma @ table / m).sum())


RADEMACHER = search.Statement(
    id=ID,
    domain=search.Domain(
        m=search.Integers(1, cap=2**8),
        K=search.Integers(1, cap=2**10),
        C=search.Reals(0.0, math.inf, open_low=True, cap_low=1e-6, cap_high=1e6, per_decade=0.5),
        a=search.Reals(0.0, 1.0, per_decade=2),
        b=search.Reals(0.0, 1.0, per_decade=2),
        pi=search.Reals(0.0, 1.0, per_decade=2),
    ),
    lhs=search.LeftSide("R_m[F_w] = E sup_{alpha in S} (1/m) sum_i sigma_i f(x_i)", exact=complexity_exact,
                        sample=complexity_trial, certify=complexity_certified, kind=search.EXPECTATION,
                        sample_range=lambda instance: (0.0, instance["C"])),
    printed="C / m**0.5",
    shipped={"printed": lambda i: fc.rademacher_bound(i["C"], i["m"])},
    scope="Inputs drawn from a law P on two points, probability pi on one where |phi| = a and 1 - pi on one "
          "where |phi| = b (a, b in [0, 1]), K identical features (the average over features is at most its "
          "largest term): R_m = C E|a S_j + b T_(m-j)| / m, j binomial. Laws of the inputs on more points, "
          "whose features take three or more magnitudes, are not searched (no exact evaluator yet).",
    plan=search.Plan(budget=2000, coarse=3, sweeps=2, restarts=2, local_steps=60),
)


def complexity_trial_all(config, seed) -> dict:
    """The shipped features sampled once at each instance the search confirms (:func:`verification.search.confirm`)."""
    return search.confirm(RADEMACHER, config, seed)


def complexity_decide(records, config, alpha) -> Verdict:
    """The bound decided exactly at its searched instances, then the conformance of the sampled
    suprema's mean to the exact R_m there (:func:`verification.search.decide`)."""
    return search.decide(RADEMACHER, records, config, alpha)


_EQ21_23 = (r"\mathcal{R}_{m}[\hat{\mathcal{F}}_{w}] = \mathbb{E}_{\sigma, X} \sup_{\alpha \in \mathcal{S}} "
            r"\left| \sum_{k=1}^{K} \alpha_{k} \frac{1}{m} \sum_{i=1}^{m} \sigma_{i} \phi(x_{i}; \omega_{k}) "
            r"\right| \le \dots \le \frac{C}{K} \sum_{k=1}^{K} \sqrt{\frac{1}{m}} \le C/\sqrt{m}")

register(search.as_claim(
    RADEMACHER, title="The Rademacher complexity of F_w is at most C / sqrt(m)",
    sources=(Source("RKS", "Appendix B, eq. (21)-(23); proof sketch of Lemma 3", _EQ21_23),),
    expected=HOLDS, trial=complexity_trial_all, decide=complexity_decide,
    # Draws at each confirmed instance: the mean of draws in [0, C] is told from the exact R_m
    # to about +-0.25 C (smoke), +-0.1 C (quick), +-0.05 C (full) at the run's level.
    n_trials={"smoke": 400, "quick": 2000, "full": 10000},
))
