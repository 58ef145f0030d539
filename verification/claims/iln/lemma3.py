"""ICML Lemma 3 / arXiv Lemma 6: the variance of the gradient estimate, and the gradient's norm.

* First part, ``iln.lemma3.variance``: ``V[bar grad_t] <= ((16B+1) eta t)^2 / m``, a
  specification (:mod:`verification.search`), below.
* Second part, ``iln.lemma3.grad_norm``: ``||grad_t||^2 <= 2 l_t(f_t)``, a deterministic
  invariant checked on every round of every run of
  :data:`verification.claims.iln.instances.ALGORITHM1_RUNS`.

The first part as a specification
---------------------------------
What V means: both versions define ``V[bar grad_t] = E[||bar grad_t - grad_t||^2]`` (ICML
after eq. (10); arXiv, proof of Lemma 6), the expected squared RKHS norm of the estimate's
error, with ``grad_t = (<f_t, Phi(x_t)> - y_t) Phi(x_t)`` (eq. (9)) and ``bar grad_t = (E_t -
y_t) Phi(x_t)`` (Lemma 2's form; eq. (12)'s ``x_t`` is a misprint, see the errata).  So
``bar grad_t - grad_t = (E_t - <f_t, Phi(x_t)>) Phi(x_t)``: the label cancels, and the left
side is ``E[(E_t - <f_t, Phi(x_t)>)^2] k(x_t, x_t)``, an expectation whose mean
``<f_t, Phi(x_t)>`` is known exactly.  A trial draws ``X = (E_t - <f_t, Phi(x_t)>)^2
k(x_t, x_t)`` from Algorithm 2 (the shipped estimator, its defaults).

The setting is Lemma 2's (``B >= 1``, ``eta < 1/8``, Algorithm 1 run on labels in [-1, 1]),
so the state ``alpha^(t)`` is one Algorithm 1 reaches.  Lemma 5 (arXiv Lemma 4) bounds
every reachable state: its induction starts from ``alpha^(1) = 0`` and adds less than
``(16B+1) eta`` a round (an update needs ``|E_t| < 16B``, and ``|y_t| <= 1``), so
``||alpha^(t)||_1 <= (16B+1) eta (t - 1)`` (the printed ``(16B+1) eta t`` is this plus a
round).  The search takes every ``||alpha^(t)||_1`` in ``[0, (16B+1) eta (t - 1)]``: the
variable ``load`` is the fraction of that bound, in [0, 1].  This is a superset of the
reachable states (not every such l1 norm is reached with every probe input), so a
``holds`` over it holds for Algorithm 1; nothing beyond Lemma 5's bound is searched, because
no state of the lemma's setting lies there.

Instances with an exact law: sign features ``psi(x; w) = s sign(w . x)``, ``s in (0, 1)``
(``|psi| < 1``, the paper's assumption), where every term ``||alpha||_1 E^(k)`` of
Algorithm 2 is ``+-a s^2`` (``a = ||alpha^(t)||_1``), ``+`` with a probability ``p`` the
angles between the inputs set; ``k(x_t, x_t) = s^2``.  Then ``E_t = a s^2 (2K/m - 1)``
with ``K ~ Binomial(m, p)``, and

    V[bar grad_t] = 4 a^2 s^6 p (1 - p) / m     (exact; rational arithmetic in ``certify``).

Two-point laws are the extremal ones for a variance: any law of terms with ``|X| < a`` has
``V[X] < a^2``, which this family approaches (p = 1/2, s -> 1); laws with more values are
not searched (no exact evaluator), and they could not exceed ``a^2 / m`` either.

Expected verdict, from the mathematics before any search: the ratio of the two sides is
``4 load^2 ((t - 1) / t)^2 s^6 p (1 - p)``, free of m, B and eta, below 1 everywhere
(``s < 1``, ``t - 1 < t``), with supremum 1 approached as ``load = 1``, ``p = 1/2``,
``s -> 1`` and ``t -> inf``.  At the search's ends (``t = 2^20``, ``s = 1 - 1e-12``) the worst
ratio is ``(1 - 2^-20)^2`` up to ``1e-11``: about ``1 - 1.9e-6``, a clear margin over the
engine's tie tolerance of 1e-9.  The printed statement holds: ``holds``.  (Had the domain
taken Lemma 5's printed ``(16B+1) eta t`` for the l1 norm, the ratio would come within
``6e-12`` of 1 at ``s -> 1`` and the search would call the worst instance a tie:
inconclusive. The reachable states never get there.)
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from iln import theory
from iln.random_streams import child
from verification import search
from verification.catalog import Claim, profiles, register, sources
from verification.claims.iln.instances import ALGORITHM1_RUNS, algorithm1_run, described
from verification.claims.iln.lemma4 import sign_feature_estimate
from verification.claims.iln.lemma5 import SLACK, alpha_l1_decide
from verification.verdicts import HOLDS, Verdict


def alpha_l1(instance) -> float:
    """``||alpha^(t)||_1 = load (16B+1) eta (t - 1)``: the fraction ``load`` of the largest l1
    norm Algorithm 1 reaches by round t (Lemma 5's induction from ``alpha^(1) = 0``)."""
    return instance["load"] * (16.0 * instance["B"] + 1.0) * instance["eta"] * (instance["t"] - 1)


def variance_exact(instance) -> np.ndarray:
    """``log V[bar grad_t] = log(4 a^2 s^6 p (1 - p) / m)`` on sign features (``-inf`` where it is 0)."""
    a, p, s, m = alpha_l1(instance), instance["p"], instance["s"], instance["m"]
    with np.errstate(divide="ignore"):
        return np.asarray(math.log(4.0) + 2.0 * np.log(a) + 6.0 * math.log(s) + np.log(p) + np.log1p(-p)
                          - math.log(m), dtype=float)


def variance_certified(instance) -> search.ExactValue:
    """``V[bar grad_t] = 4 a^2 s^6 p (1 - p) / m`` in rational arithmetic: every float of the
    instance is the rational it stores."""
    B, eta, load, p, s = (Fraction(instance[k]) for k in ("B", "eta", "load", "p", "s"))
    a = load * (16 * B + 1) * eta * (int(instance["t"]) - 1)
    value = 4 * a**2 * s**6 * p * (1 - p) / int(instance["m"])
    if value == 0:
        return search.ExactValue(-math.inf, "0", "rational arithmetic")
    log = math.log(value.numerator) - math.log(value.denominator)
    text = (f"{value.numerator}/{value.denominator}" if len(str(value.denominator)) <= 40
            else f"{float(value):.17g} (the exact rational, rounded to 17 digits)")
    return search.ExactValue(log, text, "rational arithmetic")


def squared_error_draw(instance, seed) -> float:
    """One draw of ``||bar grad_t - grad_t||^2 = (E_t - <f_t, Phi(x_t)>)^2 k(x_t, x_t)``: Algorithm 2
    at the instance's state on sign features (:func:`~verification.claims.iln.lemma4.sign_feature_estimate`),
    ``k(x_t, x_t) = s^2``."""
    E, inner = sign_feature_estimate(alpha_l1(instance), instance["p"], instance["s"], instance["m"], seed)
    return (E - inner) ** 2 * instance["s"] ** 2


def variance_range(instance) -> tuple[float, float]:
    """A draw's a-priori range: ``|E_t|`` and ``|<f_t, Phi(x_t)>|`` are at most ``a s^2`` on sign
    features (Algorithm 2's terms are ``+-a s^2``), so ``0 <= X <= (2 a s^2)^2 s^2``."""
    return 0.0, 4.0 * alpha_l1(instance) ** 2 * instance["s"] ** 6


VARIANCE = search.Statement(
    id="iln.lemma3.variance",
    domain=search.Domain(
        m=search.Integers(1, cap=2**16),
        t=search.Integers(1, cap=2**20),
        B=search.Reals(1.0, math.inf, cap_high=1e6, per_decade=1),
        eta=search.Reals(0.0, 0.125, open_low=True, open_high=True, per_decade=1),
        load=search.Reals(0.0, 1.0, per_decade=1),
        p=search.Reals(0.0, 1.0, per_decade=1),
        s=search.Reals(0.0, 1.0, open_low=True, open_high=True, per_decade=1),
    ),
    lhs=search.LeftSide("V[bar grad_t] = E[(E_t - <f_t, Phi(x_t)>)^2] k(x_t, x_t)", exact=variance_exact,
                        sample=squared_error_draw, certify=variance_certified, kind=search.EXPECTATION,
                        sample_range=variance_range),
    printed="((16 * B + 1) * eta * t)**2 / m",
    # The bound iln.theory ships (users and the regret bound read it) must be this one.
    shipped={"printed": lambda i: float(theory.variance_bound(i["m"], i["B"], i["eta"], i["t"]))},
    plan=search.Plan(budget=12000, coarse=3),
    scope="Round t of Algorithm 1 in Lemma 2's setting (B >= 1, eta < 1/8, labels in [-1, 1]) on sign features "
          "psi(x; w) = s sign(w . x), s in (0, 1): every state whose ||alpha^(t)||_1 = load (16B+1) eta (t - 1) "
          "is at most what Lemma 5's induction allows (load in [0, 1]; a superset of the reachable states), "
          "and every probe input (p in [0, 1], the probability that a term of Algorithm 2 is positive). The "
          "label cancels from bar grad_t - grad_t. The ratio of the sides does not depend on m: m is capped "
          "at 2^16, where a trial of Algorithm 2 still takes milliseconds. Feature laws with more than two "
          "values are not searched (no exact evaluator); two-point laws are the extremal ones for a variance.",
)


def variance_decide(records, config, alpha) -> Verdict:
    """The bound decided exactly at its searched instances, then Algorithm 2's conformance to
    the exact variance there (:func:`verification.search.decide`)."""
    return search.decide(VARIANCE, records, config, alpha)


def variance_trial(config, seed) -> dict:
    """Algorithm 2 sampled once at each instance the search confirms (:func:`verification.search.confirm`)."""
    return search.confirm(VARIANCE, config, seed)


_LEMMA3 = r"V\left[\bar{\nabla}_t\right] = \mathbb{E}\left[\|\bar{\nabla}_t - \nabla_t\|^2\right] \leq \frac{((16B+1)\eta t)^2}{m}"


register(search.as_claim(
    VARIANCE, title="Variance of the gradient estimate: V[bar grad_t] <= ((16B+1) eta t)^2 / m",
    sources=sources(_LEMMA3, ICML="Section 5.1, Lemma 3, first part (proof in Appendix B.3)",
                    arXiv="Appendix C.1, Lemma 6, first part"),
    # Fixed before any search ran (module docstring): the ratio is 4 load^2 ((t-1)/t)^2 s^6 p (1-p) < 1.
    expected=HOLDS, trial=variance_trial, decide=variance_decide,
    # Draws of Algorithm 2 at each confirmed instance (m <= 2^16: milliseconds each).
    n_trials={"smoke": 400, "quick": 2000, "full": 10000},
))


def grad_norm_trial(config, seed) -> dict:
    """Per run: the largest ||grad_t||^2 / (2 l_t(f_t)) over its rounds, from the oracle.

    ``grad_t = (<f_t, Phi(x_t)> - y_t) Phi(x_t)`` (ICML eq. 9), so
    ``||grad_t||^2 = 2 l_t(f_t) k(x_t, x_t)`` exactly; the lemma needs ``k(x_t, x_t) <= 1``.
    """
    record = {}
    for j, name in enumerate(config["runs"]):
        run = algorithm1_run(name, config["T"] if name != "section6_proof" else config["T_proof"],
                             config["m"], child(seed, j))
        k_tt = np.diag(run.family.kernel(run.X))
        residual = run.trace.inner_exact - run.trace.labels
        grad_sq = residual**2 * k_tt
        loss2 = 2 * run.trace.loss_exact
        ratio = np.divide(grad_sq, loss2, out=np.zeros_like(grad_sq), where=loss2 > 0)
        worst = int(np.argmax(ratio))
        record[name] = {"ratio": float(ratio[worst]), "round": worst + 1,
                        "violations": int(np.sum(grad_sq > loss2 * (1 + SLACK))), "shrinks": 0}
    return record


def grad_norm_decide(records, config, alpha) -> Verdict:
    """Deterministic invariant, as for the l1 bound."""
    return replace(alpha_l1_decide(records, config, alpha), claim_id="iln.lemma3.grad_norm")


_GRAD = r"\mathbb{E}\left[\|\nabla_t\|^2\right] \leq 2\,\mathbb{E}\left[\ell_t(f_t)\right]"


register(Claim(
    id="iln.lemma3.grad_norm", title="Gradient norm bounded by twice the loss",
    sources=sources(_GRAD, ICML="Section 5.1, Lemma 3, second part (proof in B.3)",
                    arXiv="Appendix C.1, Lemma 6, second part"),
    rule="deterministic invariant", expected=HOLDS, trial=grad_norm_trial, decide=grad_norm_decide,
    configs=profiles({"runs": list(ALGORITHM1_RUNS)}, smoke={"n_trials": 2, "T": 40, "T_proof": 20, "m": 20},
                     quick={"n_trials": 10, "T": 200, "T_proof": 60, "m": 50},
                     full={"n_trials": 50, "T": 400, "T_proof": 150, "m": 100}),
    instances="checked pointwise on every round (which implies the expectation): " + described(ALGORITHM1_RUNS),
))

