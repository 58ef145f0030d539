"""The Hoeffding tail of Algorithm 2's estimate: ICML Lemma 4, eq. (19) / arXiv Lemma 3, eq. (15).

``P[|E - <f, Phi(x)>| > eps] <= exp(-m eps^2 / ||alpha||_1^2)`` as printed (false: the
erratum's two-point counterexample is computed exactly by :func:`hoeffding_counterexample`),
and its two-sided Hoeffding correction ``2 exp(-m eps^2 / (2 ||alpha||_1^2))``.

The claim is a specification (:mod:`verification.search`): the statement's variables with
the domains the lemma admits, both right sides as formulas, and the left side's evaluators.
On sign features ``psi(x; w) = s sign(w . x)`` (``|psi| = s < 1``, as the lemma assumes) every
term ``||alpha||_1 E^(k)`` of Algorithm 2 is ``+-a s^2`` (``a = ||alpha||_1``), ``+`` with some
probability ``p`` that the angles between the inputs set; so ``E - <f, Phi(x)> = 2 a s^2 (K/m - p)``
with ``K ~ Binomial(m, p)``, and the tail is a binomial tail, exact (:func:`tail_exact` in log
space, :func:`tail_certified` in rational arithmetic).  The search goes over ``m >= 1``,
``eps > 0`` (from where the bound is 1 - 1e-12 to where it is 1e-300), ``a > 0``,
``p in [0, 1]`` and ``s in (0, 1)``.

Expected verdict, from the mathematics before any search: the printed bound is false (m = 1,
p = 1/2: the single term is +-a s^2, beyond any eps < a s^2 surely, against exp(-s^4) < 1);
the corrected bound is Hoeffding's inequality for m iid terms in [-a, a] (a range of width
2a: ``2 exp(-2 m eps^2 / (2a)^2)``), which holds for every bounded law, so for every instance
of the domain: holds_after_correction.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
from scipy.special import gammaln

from iln import theory
from iln.estimator import estimate_scalar_product
from iln.features import RandomSign
from verification import search
from verification.catalog import Erratum, Quote, register, sources
from verification.verdicts import HOLDS_AFTER_CORRECTION, Verdict

#: the binomial terms below exp(-LOG_FLOOR) are left out of the fast evaluator: the tail it
#: returns is then exact up to (m + 1) exp(-1000) < 1e-428, far below any right side searched.
LOG_FLOOR = 1000.0
#: the largest m decided in rational arithmetic; beyond it, log-space float64.
RATIONAL_M = 4096


@functools.lru_cache(maxsize=256)
def _deviation_law(m: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """The law of ``|K/m - p|``, ``K ~ Binomial(m, p)``: its atoms ascending and
    ``log P[|K/m - p| >= atom]`` for each.

    Only the k within ``sqrt(LOG_FLOOR / (2m))`` of ``mp`` are kept: outside, each term is below
    ``exp(-LOG_FLOOR)`` (Chernoff and Pinsker: ``P[K = k] <= exp(-2m (k/m - p)^2)``).
    """
    if p in (0.0, 1.0):  # K = mp surely
        return np.array([0.0]), np.array([0.0])
    width = math.sqrt(LOG_FLOOR / (2 * m))
    k = np.arange(max(0, math.floor(m * (p - width))), min(m, math.ceil(m * (p + width))) + 1)
    log_pmf = gammaln(m + 1) - gammaln(k + 1) - gammaln(m - k + 1) + k * math.log(p) + (m - k) * math.log1p(-p)
    deviation = np.abs(k / m - p)
    order = np.argsort(deviation, kind="stable")
    # log P[D >= d_j] for the atoms in ascending order: a cumulative log-sum from the top.
    tail = np.logaddexp.accumulate(log_pmf[order][::-1])[::-1]
    return deviation[order], tail


def _scaled_deviation(instance) -> np.ndarray:
    """``eps / (2 a s^2)``: the event ``|E - <f, Phi(x)>| > eps`` is ``|K/m - p|`` beyond it."""
    return np.asarray(instance["eps"], dtype=float) / (2.0 * instance["a"] * instance["s"] ** 2)


def tail_exact(instance) -> np.ndarray:
    """``log P[|E - <f, Phi(x)>| > eps]`` at an instance (m, eps, a, p, s); ``eps`` may be an array."""
    atoms, tail = _deviation_law(int(instance["m"]), float(instance["p"]))
    first_beyond = np.searchsorted(atoms, _scaled_deviation(instance), side="right")
    return np.where(first_beyond < atoms.size, tail[np.minimum(first_beyond, atoms.size - 1)], -np.inf)


def deviation_ties(cell) -> np.ndarray:
    """The values of eps at which the tail jumps: every deviation ``2 a s^2 |k/m - p|`` Algorithm
    2's estimate takes (with more than negligible probability)."""
    atoms, _ = _deviation_law(int(cell["m"]), float(cell["p"]))
    return 2.0 * cell["a"] * cell["s"] ** 2 * atoms


def _digits(n: int) -> int:
    """The number of decimal digits of ``n >= 1``, without ``str`` (which refuses integers of
    more than 4300 digits: a binomial term's denominator ``D^m`` can have far more)."""
    count = max(1, int(n.bit_length() * math.log10(2)))
    while 10**count <= n:
        count += 1
    while count > 1 and 10 ** (count - 1) > n:
        count -= 1
    return count


def _decimal(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` to 17 significant digits, from the exact integers."""
    if numerator == 0:
        return "0"
    shift = _digits(denominator) - _digits(numerator) + 17
    digits = str(numerator * 10**shift // denominator) if shift >= 0 else str(numerator // (denominator * 10**-shift))
    return f"{digits[0]}.{digits[1:17]}e{len(digits) - 1 - shift}"


def tail_certified(instance) -> search.ExactValue:
    """``P[|E - <f, Phi(x)>| > eps]`` at one instance, in rational arithmetic (m up to
    :data:`RATIONAL_M`; beyond, :func:`tail_exact`'s log-space float64).

    Every float of the instance is the rational it stores, the event ``|K/m - p| > t`` is
    decided exactly, and the binomial terms ``C(m, k) P^k Q^(m-k) / D^m`` are integers."""
    m = int(instance["m"])
    if m > RATIONAL_M:
        log = float(tail_exact(instance))
        return search.ExactValue(log, f"{math.exp(log):.17g}" if log > -745 else f"exp({log:.17g})",
                                 "log-space float64 (binomial terms by log-gamma; relative error below 1e-9)")
    p = Fraction(instance["p"])
    t = Fraction(instance["eps"]) / (2 * Fraction(instance["a"]) * Fraction(instance["s"]) ** 2)
    if p in (0, 1):  # K = mp surely: no deviation at all
        return search.ExactValue(-math.inf, "0", "rational arithmetic")
    # |K/m - p| > t exactly when K >= upper or K <= lower.
    upper, lower = math.floor(m * (p + t)) + 1, math.ceil(m * (p - t)) - 1
    num, den = p.numerator, p.denominator
    total, term = 0, (den - num) ** m  # term = C(m, k) num^k (den - num)^(m - k), an integer
    for k in range(m + 1):
        if k >= upper or k <= lower:
            total += term
        term = term * (m - k) * num // ((k + 1) * (den - num))
    exact = Fraction(total, den**m)
    text = (f"{exact.numerator}/{exact.denominator}" if _digits(exact.denominator) <= 40
            else f"{_decimal(exact.numerator, exact.denominator)} (17 digits of the exact rational)")
    log = math.log(total) - m * math.log(den) if total else -math.inf
    return search.ExactValue(log, text, "rational arithmetic")


def tail_sampling_point(instance) -> dict:
    """The same instance with eps in the middle of the step of the tail it is on: the same
    exact tail, and an event that no rounding of E decides."""
    atoms, _ = _deviation_law(int(instance["m"]), float(instance["p"]))
    t = float(_scaled_deviation(instance))
    j = int(np.searchsorted(atoms, t, side="right"))
    low = atoms[j - 1] if j > 0 else 0.0
    high = atoms[j] if j < atoms.size else 2 * atoms[-1] + 1.0 / instance["m"]
    return {**instance, "eps": float((low + high) / 2 * 2.0 * instance["a"] * instance["s"] ** 2)}


def sign_feature_estimate(a: float, p: float, s: float, m: int, seed) -> tuple[float, float]:
    """Algorithm 2 (:func:`iln.estimator.estimate_scalar_product`, its defaults) on sign
    features of scale s, alpha = (a), x_1 = e_1 and x at angle pi (1 - p) from it: the
    estimate E and the exact ``<f, Phi(x)> = a s^2 (2p - 1)``.  Every term ``||alpha||_1 E^(k)``
    is ``+-a s^2``, ``+`` with probability p: the two-point law of the claims on sign features."""
    theta = math.pi * (1.0 - p)
    E = estimate_scalar_product([a], np.array([[1.0, 0.0]]), np.array([math.cos(theta), math.sin(theta)]),
                                int(m), RandomSign(2, scale=s), seed=seed)
    return float(E), a * s**2 * (2 * p - 1)


def tail_trial(instance, seed) -> bool:
    """Whether ``|E - <f, Phi(x)>| > eps`` for one estimate of :func:`sign_feature_estimate`."""
    E, inner = sign_feature_estimate(instance["a"], instance["p"], instance["s"], instance["m"], seed)
    return bool(abs(E - inner) > instance["eps"])


HOEFFDING = search.Statement(
    id="iln.lemma4.hoeffding",
    domain=search.Domain(
        m=search.Integers(1, cap=2**20),
        eps=search.Reals(0.0, math.inf, open_low=True, ends=search.RightSideEnds(), ties=deviation_ties),
        a=search.Reals(0.0, math.inf, open_low=True, cap_low=1e-6, cap_high=1e6, per_decade=0.5),
        p=search.Reals(0.0, 1.0, per_decade=2),
        s=search.Reals(0.0, 1.0, open_low=True, open_high=True, per_decade=1),
    ),
    lhs=search.LeftSide("P[|E - <f, Phi(x)>| > eps]", exact=tail_exact, sample=tail_trial, certify=tail_certified,
                        sampling_point=tail_sampling_point),
    printed="exp(-m * eps**2 / a**2)",
    corrected={"two-sided Hoeffding": "2 * exp(-m * eps**2 / (2 * a**2))"},
    # The tails iln.theory ships (users and iln.lemma2.shrink_penalty call them) must be these.
    shipped={"printed": lambda i: float(theory.hoeffding_tail_printed(i["m"], i["eps"], i["a"])),
             "two-sided Hoeffding": lambda i: float(theory.hoeffding_tail_corrected(i["m"], i["eps"], i["a"]))},
    scope="Algorithm 2 on sign features psi(x; w) = s sign(w . x), s in (0, 1) (so |psi| < 1, the lemma's "
          "assumption), any alpha != 0 (a = ||alpha||_1) and inputs: each term ||alpha||_1 E^(k) is +-a s^2, + with "
          "probability p in [0, 1] (p = 1 - theta / pi for one support point at angle theta from x), and every "
          "instance on sign features is one (a, p, s). Laws of other feature families, with more than two "
          "values, are not searched (no exact evaluator yet); alpha = 0 gives E = 0 exactly.",
)


def hoeffding_trial(config, seed) -> dict:
    """Algorithm 2 sampled once at each instance the search confirms (:func:`verification.search.confirm`)."""
    return search.confirm(HOEFFDING, config, seed)


def hoeffding_decide(records, config, alpha) -> Verdict:
    """Each bound decided exactly at its searched instances, then Algorithm 2's conformance
    to the exact law there (:func:`verification.search.decide`)."""
    return search.decide(HOEFFDING, records, config, alpha)


_TAIL_ICML = r"\mathbb{P}\left[|E - \langle f, \Phi(\mathbf{x}) \rangle| > \epsilon\right] \leq \exp\left(-\frac{m\epsilon^2}{\|\alpha\|_1^2}\right)"

_TAIL_CORRECTED = r"\mathbb{P}\left[|E - \langle f, \Phi(\mathbf{x}) \rangle| > \epsilon\right] \leq 2\exp\left(-\frac{m\epsilon^2}{2\|\alpha\|_1^2}\right)"


register(search.as_claim(
    HOEFFDING, title="Hoeffding tail of Algorithm 2's estimate",
    sources=sources(_TAIL_ICML, ICML="Appendix A, Lemma 4, eq. (19)", arXiv="Appendix A, Lemma 3, eq. (15)"),
    expected=HOLDS_AFTER_CORRECTION, trial=hoeffding_trial, decide=hoeffding_decide,
    # Samples of Algorithm 2 at each confirmed instance: a frequency of 1/2 is told from the
    # exact law to +-0.1 (smoke), +-0.045 (quick), +-0.02 (full).
    n_trials={"smoke": 400, "quick": 2000, "full": 10000},
    erratum=Erratum(
        claim_id="iln.lemma4.hoeffding",
        printed={"ICML": _TAIL_ICML + r"\quad\text{(Lemma 4, eq. 19)}",
                 "arXiv": _TAIL_ICML + r"\quad\text{(Lemma 3, eq. 15)}"},
        counterexample="Sign features on two orthogonal inputs with alpha = (1): each term of "
                       "Algorithm 2 is +-0.998 with probability 1/2 and <f, Phi(x)> = 0. With m = 2 "
                       "and eps = 0.9, |E| > eps exactly when both terms agree: probability 1/2, "
                       "while the printed bound is exp(-2 * 0.81) = 0.198. With m = 1 and "
                       "eps = 0.5 the probability is 1 against exp(-0.25) = 0.78. Both exact "
                       "(hoeffding_counterexample: a binomial law in rational arithmetic).",
        corrected=_TAIL_CORRECTED + r"\quad\text{(two-sided Hoeffding, terms in } [-\|\alpha\|_1, \|\alpha\|_1])",
        check="iln.lemma4.hoeffding searches both bounds over the declared domain (m >= 1, eps > 0 to "
              "where each bound is 1e-300, ||alpha||_1, the two-point laws of sign features) and decides "
              "each exactly at its worst instances; holds_after_correction when the printed bound is "
              "violated and the corrected one holds at the worst instance of a covered domain.",
        quotes=(
            Quote("ICML", "Appendix A, Lemma 4, eq. (19)",
                  r"\mathbb{P}[|E - \langle f, \Phi(\mathbf{x}) \rangle| > \epsilon] \leq "
                  r"\exp\left(-\frac{m\epsilon^2}{\|\alpha\|_1^2}\right) \quad (19)"),
            Quote("ICML", "Appendix A, proof of Lemma 4",
                  r"Since $E = \frac{1}{m} \sum E^{(k)}$ the result follows directly from Hoeffding's "
                  r"inequality."),
            Quote("arXiv", "Appendix A, Lemma 3, eq. (15)",
                  r"\mathbb{P}\left[|E - \langle f, \Phi(\mathbf{x})\rangle| > \epsilon\right] \le "
                  r"\exp\left(-\frac{m\epsilon^2}{\|\alpha\|_1^2}\right) \tag{15}"),
            Quote("arXiv", "Appendix A, proof of Lemma 3",
                  r"Since $E = \frac{1}{m} \sum E^{(k)}$ the result follows directly from Hoeffding's "
                  r"inequality."),
        ),
    ),
))


def sign_mean_tail(m: int, threshold: Fraction) -> Fraction:
    """``P[|S_m| > threshold * m]`` exactly, ``S_m`` a sum of m independent fair signs.

    The law of Algorithm 2's estimate when each of its m terms is ``+-a`` with probability
    1/2 and the scalar product is 0: ``|E - <f, Phi(x)>| > eps`` exactly when
    ``|S_m| > (eps / a) m``.

    Parameters
    ----------
    m : int
        Number of terms, ``m >= 1``.
    threshold : Fraction
        The deviation per term, in units of the term's size (exact, so that the event's
        boundary is decided exactly).

    Examples
    --------
    >>> sign_mean_tail(2, Fraction(9, 10))   # |S_2| = 2 when both signs agree
    Fraction(1, 2)
    """
    if m < 1:
        raise ValueError(f"m must be a positive integer, got {m!r}")
    favourable = sum(math.comb(m, k) for k in range(m + 1) if abs(2 * k - m) > threshold * m)
    return Fraction(favourable, 2**m)


def hoeffding_counterexample(m: int, eps: Fraction, term: Fraction = Fraction(998, 1000)) -> dict:
    """The erratum's instance of ICML eq. (19) / arXiv eq. (15), computed exactly.

    Sign features on two orthogonal inputs, ``alpha = (1)``: each term of Algorithm 2 is
    ``+-term`` with probability 1/2 and ``<f, Phi(x)> = 0``, so
    ``P[|E - <f, Phi(x)>| > eps] = P[|S_m| > (eps / term) m]`` (:func:`sign_mean_tail`).

    Returns
    -------
    dict
        ``probability`` (Fraction), the printed bound ``exp(-m eps^2 / ||alpha||_1^2)`` and the
        corrected ``2 exp(-m eps^2 / (2 ||alpha||_1^2))`` (floats), and ``violates_printed``.

    Examples
    --------
    >>> hoeffding_counterexample(2, Fraction(9, 10))["violates_printed"]
    True
    """
    probability = sign_mean_tail(m, eps / term)
    printed = math.exp(-m * eps**2)
    corrected = min(1.0, 2 * math.exp(-m * eps**2 / 2))
    return {"m": m, "eps": float(eps), "probability": probability, "printed_bound": printed,
            "corrected_bound": corrected, "violates_printed": probability > printed,
            "violates_corrected": probability > corrected}

