"""RKS Lemma 4 (eq. 16, with McDiarmid's step eq. 20): averages of bounded vectors concentrate.

For K iid vectors ``x_1..x_K`` in the ball of radius M of a Hilbert space, with ``f =
||X_bar - E X_bar||``, eq. (16) says that for any ``delta > 0``, with probability at least
``1 - delta``, ``f <= M / sqrt(K) (1 + sqrt(2 log(1/delta)))``: its failure event is
``f > M / sqrt(K) + eps`` at ``eps = M sqrt(2 log(1/delta) / K)``, so that eq. (16) is, for
every ``eps > 0``, ``P[f > M / sqrt(K) + eps] <= exp(-K eps^2 / (2 M^2))`` (``delta`` in
``(0, 1)`` is ``eps`` in ``(0, inf)``; at ``delta >= 1`` the statement says nothing).  Eq. (20)
states the same bound for the event ``f - M / sqrt(K) >= eps`` (McDiarmid's tail, ``>=``).
The claim is a specification (:mod:`verification.search`) over both events (the variable
``event``), with the right side as printed in eq. (20), which is eq. (16)'s ``delta``.

Exact left sides (:func:`tail_exact`, :func:`tail_certified`) on finite laws of the ball:

* ``two-point``: ``x = M e_1`` with probability p, ``M (1 - 2q) e_1`` otherwise (any two points
  of the ball at distance ``2 q M``, ``q in [0, 1]``, in any Hilbert space, up to an isometry):
  ``f = 2 q M |n / K - p|`` with ``n ~ Binomial(K, p)``;
* ``three-point``: ``M e_1``, ``-M e_1``, ``M e_2`` with probabilities ``p q``, ``p (1 - q)``,
  ``1 - p`` (two orthogonal directions): a trinomial law of ``f``.

The shipped code is sampled as Lemma 1's proof uses the lemma: the vectors are the functions
``beta(w_k) phi(.; w_k)`` of :func:`iln.rks.function_class.kitchen_sink_witness` in
``L2(mu)``, ``mu`` uniform on the support of an :class:`~iln.rks.function_class.AtomFeatures`
whose atoms are the law's points (:func:`tail_trial`).

Expected verdict, from the mathematics before any search: holds, for both events, at every
instance of the domain.  The proof's steps are each valid: the bounded difference ``2M/K``
(eq. 17, triangle inequality), ``E f <= sqrt(E f^2) <= M / sqrt(K)`` (eq. 18-19, Jensen and
``E||x||^2 - ||E x||^2 <= M^2``), and McDiarmid's inequality ``P[f - E f >= eps] <=
exp(-2 eps^2 / (K (2M/K)^2))``, which holds with ``>=`` and so with ``>``.  No correction.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
from scipy import stats

from iln.random_streams import generator
from iln.rks import function_class as fc
from verification import search, statistics
from verification.catalog import DESIGN_ALPHA, DESIGN_POWER, Source, register
from verification.verdicts import HOLDS, Verdict

ID = "rks.lemma4.hilbert_concentration"
#: the laws of the ball searched (:func:`deviation_law`).
LAWS = ("two-point", "three-point")
#: the failure events: eq. (16)'s (the bound exceeded) and eq. (20)'s (``>=``).
EVENTS = ("eq. (16): >", "eq. (20): >=")
#: outcomes less likely than exp(-LOG_FLOOR) are left out of the fast evaluator: its tail is
#: then exact up to (K + 1)^2 exp(-1000) < 1e-420, far below any right side searched.
LOG_FLOOR = 1000.0
#: the largest K decided in rational arithmetic; beyond it, log-space float64.
RATIONAL_K = 256
#: atoms of f / M closer than this (relative) are one atom: the same deviation rounded two ways.
_MERGE = 1e-12


def _window(n: int, p: float) -> np.ndarray:
    """The counts of a Binomial(n, p) within ``sqrt(LOG_FLOOR n / 2)`` of ``n p``: outside, each
    term is below ``exp(-LOG_FLOOR)`` (Chernoff and Pinsker)."""
    width = math.sqrt(LOG_FLOOR * n / 2)
    return np.arange(max(0, math.floor(n * p - width)), min(n, math.ceil(n * p + width)) + 1)


def _outcomes(law: str, K: int, p: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """``(f^2 / M^2, log P)`` of every outcome of K draws kept by the window."""
    if law == "two-point":
        n = _window(K, p)
        return (2 * q * (n / K - p)) ** 2, stats.binom.logpmf(n, K, p)
    if law == "three-point":
        third = _window(K, 1 - p)                     # draws of M e_2
        rows = [(c, _window(K - c, q)) for c in third]  # of the rest, draws of M e_1
        c = np.concatenate([np.full(a.size, c) for c, a in rows])
        a = np.concatenate([a for _, a in rows])
        b = K - c - a
        log_p = stats.binom.logpmf(c, K, 1 - p) + stats.binom.logpmf(a, K - c, q)
        return ((a - b) / K - p * (2 * q - 1)) ** 2 + (c / K - (1 - p)) ** 2, log_p
    raise ValueError(f"law must be one of {LAWS}, got {law!r}")


@functools.lru_cache(maxsize=512)
def deviation_law(law: str, K: int, p: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """The law of ``f / M``: its atoms ascending and ``log P[f / M >= atom]`` for each."""
    square, log_p = _outcomes(law, K, p, q)
    keep = log_p > -LOG_FLOOR
    deviation, log_p = np.sqrt(square[keep]), log_p[keep]
    order = np.argsort(deviation, kind="stable")
    deviation, log_p = deviation[order], log_p[order]
    # One atom per deviation: values equal up to rounding are merged (the later one's index).
    starts = np.concatenate([[True], np.diff(deviation) > _MERGE * np.maximum(deviation[1:], 1e-300)])
    group = np.cumsum(starts) - 1
    merged = np.full(group[-1] + 1, -np.inf)
    np.logaddexp.at(merged, group, log_p)
    tail = np.logaddexp.accumulate(merged[::-1])[::-1]
    return deviation[starts], tail


def _law_of(instance) -> tuple[np.ndarray, np.ndarray]:
    return deviation_law(instance["law"], int(instance["K"]), float(instance["p"]), float(instance["q"]))


def _steps(instance) -> tuple[np.ndarray, np.ndarray]:
    """The values of eps at which the tail steps, ``M (atom - 1 / sqrt(K))`` for every atom of
    ``f / M`` (ascending), and ``log P[f / M >= atom]`` for each: the event ``f > M / sqrt(K) +
    eps`` is ``eps < M (atom - 1 / sqrt(K))``.  The search's ties are these same floats, so
    that the fast evaluator decides a tie as the float it was given."""
    atoms, tail = _law_of(instance)
    return instance["M"] * (atoms - 1.0 / math.sqrt(instance["K"])), tail


def _first_counted(instance) -> np.ndarray:
    """The index of the first step the event counts at the instance's eps (an array)."""
    steps, _ = _steps(instance)
    strict = instance["event"] == EVENTS[0]
    return np.searchsorted(steps, np.asarray(instance["eps"], dtype=float), side="right" if strict else "left")


def tail_exact(instance) -> np.ndarray:
    """``log P[event]`` at an instance (K, eps, M, law, p, q, event); ``eps`` may be an array."""
    steps, tail = _steps(instance)
    first = _first_counted(instance)
    return np.where(first < steps.size, tail[np.minimum(first, steps.size - 1)], -np.inf)


#: how far below each step a second tie is tried: beyond the rounding of a step computed in
#: float64 (``sqrt(1 + 1e-6) - 1`` is off by a part in 1e10), so that the event counts the
#: atom there for certain, as the rational arithmetic decides it.
BELOW_STEP = 1e-8


def deviation_ties(cell) -> np.ndarray:
    """The values of eps at which the tail jumps: ``M (atom - 1 / sqrt(K))`` for every atom of
    ``f / M`` above ``1 / sqrt(K)``, and each a part in 1e8 below it (where both events count
    the atom: the supremum over eps, up to that part in the right side)."""
    steps, _ = _steps(cell)
    steps = steps[steps > 0]
    return np.concatenate([steps, steps * (1 - BELOW_STEP)])


def _exceeds(square: Fraction, e: Fraction, K: int, strict: bool) -> bool:
    """Whether ``sqrt(square) > 1 / sqrt(K) + e`` (or ``>=``), exactly, for ``e >= 0``.

    ``s - e`` is compared with ``1 / sqrt(K)``: ``s >= e`` iff ``square >= e^2``, and then
    ``(s - e)^2 K >= 1`` iff ``gap = square + e^2 - 1/K >= 2 e s``, iff ``gap >= 0`` and
    ``gap^2 >= 4 e^2 square``: integers and rationals only."""
    if square < e * e or (strict and square == e * e):
        return False
    gap = square + e * e - Fraction(1, K)
    product = 4 * e * e * square
    if strict:
        return gap > 0 and gap * gap > product
    return gap >= 0 and gap * gap >= product


def tail_certified(instance) -> search.ExactValue:
    """``P[event]`` at one instance in rational arithmetic (K up to :data:`RATIONAL_K`; beyond,
    :func:`tail_exact`'s log-space float64): every float of the instance is the rational it
    stores, every outcome's ``f^2 / M^2`` is rational, the event is decided exactly
    (:func:`_exceeds`) and the multinomial terms are integers over a common denominator."""
    K = int(instance["K"])
    if K > RATIONAL_K:
        log = float(tail_exact(instance))
        return search.ExactValue(log, f"{math.exp(log):.17g}" if log > -745 else f"exp({log:.17g})",
                                 "log-space float64 (binomial terms by log-gamma; relative error below 1e-9)")
    p, q = Fraction(instance["p"]), Fraction(instance["q"])
    e, strict = Fraction(instance["eps"]) / Fraction(instance["M"]), instance["event"] == EVENTS[0]
    weights: tuple[Fraction, ...]
    outcomes: Iterator[tuple[int, tuple[int, ...], Fraction]]
    if instance["law"] == "two-point":
        weights = (p, 1 - p)
        outcomes = ((math.comb(K, n), (n, K - n), (2 * q * (Fraction(n, K) - p)) ** 2) for n in range(K + 1))
    else:
        weights = (p * q, p * (1 - q), 1 - p)
        outcomes = ((math.comb(K, c) * math.comb(K - c, a), (a, K - c - a, c),
                     (Fraction(2 * a + c - K, K) - p * (2 * q - 1)) ** 2 + (Fraction(c, K) - (1 - p)) ** 2)
                    for c in range(K + 1) for a in range(K - c + 1))
    denominator = math.lcm(*(w.denominator for w in weights))
    integers = [int(w * denominator) for w in weights]
    total = 0
    for count, powers, square in outcomes:
        if _exceeds(square, e, K, strict):
            term = count
            for weight, power in zip(integers, powers, strict=True):
                term *= weight**power
            total += term
    return rational_value(total, denominator, K, "rational arithmetic")


def rational_value(total: int, denominator: int, power: int, method: str) -> search.ExactValue:
    """``total / denominator^power`` as an exact value: the fraction itself while its
    denominator is short (40 digits), else 17 digits of it, with its logarithm."""
    exact = Fraction(total, denominator**power)
    text = (f"{exact.numerator}/{exact.denominator}" if exact.denominator.bit_length() <= 132
            else f"{float(exact):.17g} (17 digits of the exact rational)" if exact > Fraction(1, 10**300)
            else "below 1e-300 (exact rational, its log given)")
    log = math.log(total) - power * math.log(denominator) if total else -math.inf
    return search.ExactValue(log, text, method)


def tail_sampling_point(instance) -> dict:
    """The same instance with eps in the middle of the step of the tail it is on: the same
    exact tail for both events, and an event that no rounding of the distance decides."""
    steps, _ = _steps(instance)
    j = int(_first_counted(instance))
    low = max(steps[j - 1], 0.0) if j > 0 else 0.0
    high = steps[j] if j < steps.size else 2 * max(steps[-1], 0.0) + instance["M"]
    return {**instance, "eps": float((low + high) / 2)}


def law_features(law: str, M: float, p: float, q: float) -> tuple[fc.AtomFeatures, fc.AtomMember]:
    """The law's points as Lemma 1's vectors ``beta_j phi(.; w_j)`` in ``L2(mu)``, ``mu``
    uniform on the support: an :class:`~iln.rks.function_class.AtomFeatures` whose atoms have
    the law's probabilities, and the member of F_p with ``C = M`` whose weights are the ``beta_j``
    (its values are ``E x``)."""
    if law == "two-point":   # one support point: the vectors M and M (1 - 2q)
        table, beta, probabilities = [[1.0, 1.0 - 2.0 * q]], [M, M], [p, 1.0 - p]
    elif law == "three-point":   # two support points: phi_1 = (1, 1), phi_2 = (1, -1) are orthonormal
        table, beta, probabilities = [[1.0, 1.0, 1.0], [1.0, 1.0, -1.0]], [M, -M, M], [p * q, p * (1 - q), 1 - p]
    else:
        raise ValueError(f"law must be one of {LAWS}, got {law!r}")
    family = fc.AtomFeatures(np.array(table), np.array(probabilities))
    return family, fc.atom_member(family, np.array(beta), M)


def tail_trial(instance, seed) -> bool:
    """K draws of the law (:meth:`AtomFeatures.sample`), their average through
    :func:`~iln.rks.function_class.kitchen_sink_witness`, and whether its ``L2(mu)`` distance
    to ``E x`` exceeds ``M / sqrt(K) + eps`` (``>`` or ``>=``, as the event says)."""
    family, member = law_features(instance["law"], instance["M"], instance["p"], instance["q"])
    W = family.sample(int(instance["K"]), generator(seed))
    average = family.psi(family.support, W) @ fc.kitchen_sink_witness(member, W)
    distance = math.sqrt(float(np.mean((average - member.values(family.support)) ** 2)))
    bound = instance["M"] / math.sqrt(instance["K"]) + instance["eps"]
    return distance > bound if instance["event"] == EVENTS[0] else distance >= bound


HILBERT = search.Statement(
    id=ID,
    domain=search.Domain(
        K=search.Integers(1, cap=2**10),
        eps=search.Reals(0.0, math.inf, open_low=True, ends=search.RightSideEnds(), ties=deviation_ties),
        M=search.Reals(0.0, math.inf, open_low=True, cap_low=1e-6, cap_high=1e6, per_decade=0.5),
        law=search.Choice(LAWS, "finite laws of the ball: two points at distance 2qM (any two points of the "
                                "ball, up to an isometry), three points on two orthogonal directions"),
        p=search.Reals(0.0, 1.0, per_decade=2),
        q=search.Reals(0.0, 1.0, per_decade=2),
        event=search.Choice(EVENTS, "eq. (16)'s failure event f > M/sqrt(K) + eps, eq. (20)'s f - M/sqrt(K) >= eps"),
    ),
    lhs=search.LeftSide("P[||X_bar - E X_bar|| > M/sqrt(K) + eps] (eq. 16; >= for eq. 20)", exact=tail_exact,
                        sample=tail_trial, certify=tail_certified, sampling_point=tail_sampling_point),
    printed="exp(-K * eps**2 / (2 * M**2))",
    # The tail the package ships (Lemma 1's and 2's bounds solve it for delta) must be this.
    shipped={"printed": lambda i: fc.mcdiarmid_tail(i["M"], i["K"], i["eps"])},
    scope="K iid vectors of the ball of radius M: two-point laws (any two points, at distance 2qM, probability p; "
          "f = 2qM |n/K - p| with n binomial) and the three-point law M e_1, -M e_1, M e_2 on two orthogonal "
          "directions (probabilities pq, p(1 - q), 1 - p; a trinomial law). delta in (0, 1) is eps = M sqrt(2 "
          "log(1/delta) / K) in (0, inf). Laws with more points or continuous laws are not searched (no exact "
          "evaluator).",
    plan=search.Plan(budget=3000, coarse=3, sweeps=2, restarts=3, local_steps=60),
)


def hilbert_trial(config, seed) -> dict:
    """The shipped witness sampled once at each instance the search confirms (:func:`verification.search.confirm`)."""
    return search.confirm(HILBERT, config, seed)


def hilbert_decide(records, config, alpha) -> Verdict:
    """The bound decided exactly at its searched instances, then the shipped code's conformance
    to the exact law there (:func:`verification.search.decide`)."""
    return search.decide(HILBERT, records, config, alpha)


def tail_trials(probabilities, n_events, ratio):
    """Trials to detect a tail ``ratio`` times the smallest of ``probabilities`` (the printed
    bounds) with the design power, at the design level split over ``n_events`` events (the
    grid's points, times the checks or bracket ends that share the claim's level): the plan
    of the RKS claims still decided on a grid (Lemmas 1-2, Theorem 1)."""
    p0 = min(probabilities)
    return statistics.binomial_sample_size(p0, DESIGN_ALPHA / n_events, DESIGN_POWER, min(0.99, ratio * p0))


_EQ16 = (r"\|\overline{\mathbf{X}} - \mathbb{E}\overline{\mathbf{X}}\| \le \frac{M}{\sqrt{K}} "
         r"\left(1 + \sqrt{2\log\frac{1}{\delta}}\right)\ \text{with probability at least } 1 - \delta")
_EQ20 = (r"\Pr_{\mathbf{X}} \left[f(\mathbf{X}) - \frac{M}{\sqrt{K}} \ge \epsilon \right] \le "
         r"\Pr_{\mathbf{X}} \left[f(\mathbf{X}) - \mathbb{E} f(\mathbf{X}) \ge \epsilon\right] \le "
         r"\exp\left(-\frac{K\epsilon^2}{2M^2} \right)")

register(search.as_claim(
    HILBERT, title="Averages of bounded vectors concentrate in a Hilbert space (Lemma 4)",
    sources=(Source("RKS", "Appendix A, Lemma 4, eq. (16)", _EQ16),
             Source("RKS", "Appendix A, proof of Lemma 4, eq. (20) (McDiarmid's step)", _EQ20)),
    expected=HOLDS, trial=hilbert_trial, decide=hilbert_decide,
    # Draws of the shipped witness at each confirmed instance: a frequency of 1/2 is told from
    # the exact law to +-0.1 (smoke), +-0.045 (quick), +-0.02 (full).
    n_trials={"smoke": 400, "quick": 2000, "full": 10000},
))
