"""Statement mutants: the papers' bounds tightened until provably false (issue #18, item 3).

A planted defect (:mod:`verification.selftest.defects`) breaks the *implementation* and asks
whether some claim notices.  A statement mutant breaks the *statement* a check decides: a
constant halved, a prefactor dropped, an exponent doubled, a delta-dependence weakened.  Each
mutant is provably false, and an exact counterexample is stored beside it (the numbers, and
the function that computes them again in rational arithmetic wherever the instance allows).
Its check, run with the mutant in place of the statement, must reject it; a mutant its check
does not reject is a *gap* of that check, reported and never dropped.

A mutant is planted as a planted defect is, by run-time source edits
(:mod:`verification.selftest.injection`) of the function through which the check obtains
its bound: a formula of :mod:`iln.theory` (the statement as the library ships it) or, where
the check writes the bound inline, the line of the claim module that does.  The runner plants
it as it plants a defect (``runner.run(defect=mutant)``), in this process only (``jobs = 1``),
and keys the trials of its check by the check's configuration, the mutant's edits and the code
the trials reach, in a store of the mutant's own kept from run to run: after an edit, a
mutant's trials run again only if its claim's trials reach the edit, and its check is decided
again only if its records or the code its decision runs changed
(:mod:`verification.stored_decisions`).

*Rejected* means: for a mutant of the printed statement, the verdict or its printed
sub-verdict ``violated``; for a mutant of the corrected statement of the errata ledger
(:attr:`StatementMutant.tightens`), the corrected sub-verdict ``violated``.  Which statement a
mutant tightens is said by the mutant, not read from its claim's expected verdict: an
expectation updated after a run (a correction found undecided, say) changes no mutant.

Examples
--------
>>> mutant = get("lemma4_corrected_prefactor_dropped")
>>> mutant.claim
'iln.lemma4.hoeffding'
>>> mutant.counterexample()["violates_mutant"]
True
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import numpy as np

from verification import catalog, runner
from verification.selftest.injection import CodeEdit, Edit, apply_all, edits_digest, edits_json
from verification.verdicts import ERROR, VIOLATED

__all__ = ["KINDS", "MUTANTS", "STATEMENTS", "StatementMutant", "for_claims", "get", "names", "rejected",
           "run_mutant", "summarise"]

#: the statements of a claim a mutant can tighten: the one the paper prints, or its correction.
STATEMENTS = ("printed", "corrected")
#: the ways a statement is tightened.
#: "domain widened": a corrected statement claimed over a reading it excludes (the printed
#: algorithm), where its bound, 0, has nothing to tighten.
KINDS = ("constant halved", "prefactor dropped", "exponent doubled", "exponent halved",
         "delta-dependence weakened", "factor dropped", "domain widened")


@dataclass(frozen=True)
class StatementMutant:
    """A provably false variant of the statement one claim's check decides.

    Attributes
    ----------
    name : str
        Identifier, e.g. ``"lemma4_corrected_prefactor_dropped"``.
    claim : str
        The claim whose check must reject it.
    kind : str
        One of :data:`KINDS`.
    statement : str
        The mutated statement, in words and formula.
    edits : tuple of Edit
        The run-time edits that make the check decide the mutant instead of the statement.
    counterexample : callable ``() -> dict``
        Computes the counterexample again; its ``"violates_mutant"`` is true, and its other
        entries equal :attr:`stored` (what a test verifies).
    stored : dict
        The counterexample's instance and numbers, as stored (exact values as strings of
        fractions where they are rational).
    why : str
        Why the counterexample refutes the mutant, in one or two sentences.
    profile : str
        The profile the mutant's check runs at (smoke or quick: minutes for all mutants).
    config : dict, optional
        Entries of the claim's configuration at :attr:`profile` that the mutant's check
        replaces: a mutant is a false statement, so its check searches where it fails (issue
        #18's protocol: the smallest T, the worst instance), at the instance its counterexample
        names or the nearest one the claim's trial builds, with the trials planned there to
        reject it with the design power.  A value may be a callable without arguments (a
        planned sample size), evaluated before the mutant is planted.  The trial code and the
        decision rule are the claim's own; only the grid is the mutant's.
    config_why : str
        Why the check rejects the mutant at :attr:`config` and not at the profile's grid.
    tightens : str
        The statement the mutant tightens (one of :data:`STATEMENTS`): ``"corrected"`` for a
        mutant of the corrected statement of the claim's erratum, whose sub-verdict decides it.
    """

    name: str
    claim: str
    kind: str
    statement: str
    edits: tuple[Edit, ...]
    counterexample: Callable[[], dict]
    stored: dict
    why: str
    profile: str = "smoke"
    config: dict | None = None
    config_why: str = ""
    tightens: str = "printed"

    def __post_init__(self):
        if self.tightens not in STATEMENTS:
            raise ValueError(f"mutant {self.name}: tightens must be one of {STATEMENTS}, got {self.tightens!r}")
        if self.kind not in KINDS:
            raise ValueError(f"mutant {self.name}: unknown kind {self.kind!r} (one of {KINDS})")
        if self.profile not in catalog.PROFILES:
            raise ValueError(f"mutant {self.name}: unknown profile {self.profile!r}")
        if self.config is not None and not self.config_why:
            raise ValueError(f"mutant {self.name}: a config of its own needs its config_why")

    @property
    def identity(self) -> str:
        """The mutant's name and the digest of its edits (:func:`~verification.selftest.
        injection.edits_digest`): the runner stores the trials of the mutant's check under it
        (with the check's configuration, :meth:`check_config`, in their configuration hash), so
        an edited mutant's trials are computed again."""
        return f"{self.name}@{edits_digest(self.edits)}"

    def apply(self) -> Callable[[], None]:
        """Put the mutant in place of the statement in this process; returns the function that
        removes it.  With :attr:`name` and :attr:`identity` this makes the mutant a change the
        runner plants (:class:`verification.runner.Planting`)."""
        return apply_all(self.edits)

    def check_config(self) -> dict:
        """The configuration the mutant's check runs at: the claim's at :attr:`profile`, with
        :attr:`config`'s entries in place (planned sizes evaluated)."""
        base = catalog.get(self.claim).config(self.profile)
        if self.config is None:
            return base
        unknown = sorted(set(self.config) - set(base))
        if unknown:
            raise ValueError(f"mutant {self.name}: config entries {unknown} are not in {self.claim}'s configuration")
        return {**base, **{k: v() if callable(v) else v for k, v in self.config.items()}}

    def to_json(self) -> dict:
        return {"name": self.name, "claim": self.claim, "kind": self.kind, "statement": self.statement,
                "counterexample": self.stored, "why": self.why, "profile": self.profile,
                "config": self.check_config() if self.config is not None else None,
                "config_why": self.config_why or None, "tightens": self.tightens,
                "edits": edits_json(self.edits)}


def rejected(tightens: str, verdict: str, verdict_printed: str | None, verdict_corrected: str | None) -> bool:
    """Whether a check's outcome rejects the mutant it decided.

    The sub-verdict of the statement the mutant tightens decides: the corrected one for a
    mutant of the correction, the printed one otherwise (a claim whose check also reports a
    corrected sub-verdict may then end inconclusive overall while its
    printed sub-verdict rejects the mutant).

    Parameters
    ----------
    tightens : str
        The statement the mutant tightens, one of :data:`STATEMENTS`.
    verdict, verdict_printed, verdict_corrected : str or None
        The verdict and its two sub-verdicts with the mutant in place.
    """
    if tightens not in STATEMENTS:
        raise ValueError(f"tightens must be one of {STATEMENTS}, got {tightens!r}")
    if tightens == "corrected":
        return verdict_corrected == VIOLATED
    return VIOLATED in (verdict, verdict_printed)


# ------------------------------------------------------------------------------------------
# Exact counterexamples
# ------------------------------------------------------------------------------------------


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)


def _sign_tail(m: int, threshold: Fraction) -> Fraction:
    """``P[|S_m| > threshold m]`` for a sum of m fair signs (the exact two-point law)."""
    from verification.claims.iln.lemma4 import sign_mean_tail

    return sign_mean_tail(m, threshold)


def _lemma4_prefactor() -> dict:
    # Two-point law of the claim's grid point (m = 1, eps = 0.5 ||alpha||_1): the single term
    # is +-0.998 ||alpha||_1, so |E| = 0.998 ||alpha||_1 > eps surely.
    m, eps = 1, Fraction(1, 2)
    probability = _sign_tail(m, eps / Fraction(998, 1000))
    bound = math.exp(-m * eps**2 / 2)
    return {"instance": "two_point: sign features on two orthogonal inputs, alpha = (1), m = 1, "
                        "eps = 0.5 ||alpha||_1", "probability": _fraction(probability),
            "mutant_bound": round(bound, 6), "violates_mutant": probability > bound}


def _test_time_quartered() -> dict:
    # The claim's instance (iln.thm1.test_time erratum): every term of Algorithm 2 is
    # +-0.9801 ||alpha||_1, the scalar product is 0.
    delta, r = Fraction(1, 5), Fraction(9, 10)
    m = math.ceil(2 * math.log(2 / delta) / r**2 / 4)
    probability = _sign_tail(m, r / Fraction(9801, 10000))
    return {"instance": "descent_adversary/balanced: test point (0.99, 0.99, -0.99, -0.99), delta = 0.2, "
                        "eps0 = 0.9 ||alpha||_1", "m_mutant": m, "probability": _fraction(probability),
            "delta": "1/5", "violates_mutant": probability > delta}


def _alpha_l1_point_mass() -> dict:
    # Point-mass features psi = 0.999 (every w), B = 1, eta = 10, labels +1 then -1: every
    # estimate of Algorithm 2 is exact while alpha has one sign (E_1 = 0, E_2 = eta c^2), and
    # no round shrinks (|E_2| = 9.98 < 16B).
    eta, c2 = Fraction(10), Fraction(999, 1000) ** 2
    first = eta * 1  # round 1: E_1 = 0, step -eta (0 - 1)
    second = eta * (c2 * first + 1)  # round 2: |-eta (E_2 - (-1))|
    l1, bound = first + second, eta * 3
    return {"instance": "psi(x; w) = 0.999 for every w, B = 1, eta = 10, y_1 = 1, y_2 = -1, t = 3",
            "alpha_l1": _fraction(l1), "mutant_bound": _fraction(bound),
            "printed_bound": _fraction((16 + 1) * eta * 3), "violates_mutant": l1 > bound}


def _grad_norm_halved() -> dict:
    # grad_t = (<f_t, Phi(x_t)> - y_t) Phi(x_t) and ||Phi(x)||^2 = E_w psi^2 = c^2.
    c2, residual = Fraction(999, 1000) ** 2, Fraction(1)
    grad_sq, loss = residual**2 * c2, residual**2 / 2
    return {"instance": "psi(x; w) = 0.999 for every w, round 1 (f_1 = 0), y_1 = 1",
            "grad_sq": _fraction(grad_sq), "mutant_bound": _fraction(loss), "violates_mutant": grad_sq > loss}


_VARIANCE_INSTANCE = ("sign features psi = 0.999 sign(w.x), t = 2, B = 1, eta = 1/16, ||alpha^(2)||_1 = 17/16, "
                      "p = 1/2, m = 1")


def _variance_prefactor() -> dict:
    # An instance of iln.lemma3.variance's specification: t = 2, B = 1, eta = 1/16, the largest
    # l1 norm Lemma 5 allows (a = 17/16), p = 1/2, s = 0.999, m = 1: V = a^2 s^6 exactly.
    a, s = Fraction(17, 16), Fraction(999, 1000)
    variance, bound = a**2 * s**6, (Fraction(1, 16) * 2) ** 2
    return {"instance": _VARIANCE_INSTANCE, "variance": round(float(variance), 9),
            "mutant_bound": _fraction(bound), "violates_mutant": variance > bound}


def _zero_comparator_quartered() -> dict:
    T = 4
    zero = Fraction(T, 2)  # labels +-1: l_t(0) = 1/2 every round
    return {"instance": "any T, labels +-1 (here T = 4)", "zero_loss": _fraction(zero),
            "mutant_bound": _fraction(Fraction(T, 4)), "violates_mutant": zero > Fraction(T, 4)}


def _runtime_t_exponent() -> dict:
    # Algorithm 1 draws m_proof(B, T) samples in each of its T rounds, each a draw of w and two
    # evaluations of psi: the run time is at least a constant times T m_proof, which grows
    # faster than T^(3/2) while the mutant allows T (up to logarithms).
    from iln import theory

    counts = {T: theory.total_feature_samples(1.0, T) for T in (64, 128, 256)}
    slope = math.log(counts[256] / counts[64]) / math.log(4)
    return {"instance": "B = 1, T = 64, 128, 256 at the proof's eta and m", "samples": counts,
            "samples_exponent_in_T": round(slope, 4), "mutant_exponent": 1,
            "violates_mutant": slope > 1.5}


def _hilbert_constant_halved() -> dict:
    # Two fair points +-e_1 (M = 1), K = 256: f = 2 |n/256 - 1/2|, and eq. (16)'s event at
    # eps = 1/4 is |n - 128| >= 41 (5.1 standard deviations), decided in rational arithmetic.
    from verification.claims.rks.lemma4 import EVENTS, tail_certified

    instance = {"K": 256, "eps": 0.25, "M": 1.0, "law": "two-point", "p": 0.5, "q": 1.0, "event": EVENTS[0]}
    value = tail_certified(instance)
    bound = math.exp(-256 * 0.25**2)
    return {"instance": "two-point +-e_1, p = 1/2, M = 1, K = 256, eps = 1/4 (eq. 16's event)",
            "probability": round(math.exp(value.log), 12), "mutant_bound": round(bound, 12),
            "violates_mutant": value.log > math.log(bound)}


def _rademacher_halved() -> dict:
    # +-1 features: R_m = C E|S_m| / m exactly (iln.rks.function_class.rademacher_sign_features).
    out: dict[str, Any] = {"instance": "signs: every feature value +-1, C = 1"}
    violates = True
    for m in (2, 8):
        r_m = Fraction(sum(abs(2 * k - m) * math.comb(m, k) for k in range(m + 1)), 2**m * m)
        bound = 1 / (2 * math.sqrt(m))
        out[f"R_{m}"], out[f"mutant_bound_{m}"] = _fraction(r_m), round(bound, 6)
        violates = violates and r_m > Fraction(bound)
    return {**out, "violates_mutant": violates}


def _estimate_tail_corrected_prefactor() -> dict:
    # Lemma 4's two-point law at ||alpha^(t)||_1 = (16B + 1) eta t, Lemma 5's bound: each term
    # is +-0.998001 ||alpha^(t)||_1 around 0 (p = 1/2), m = 1, eps half the bound.
    m, eps_over_bound = 1, Fraction(1, 2)
    probability = _sign_tail(m, eps_over_bound / Fraction(998001, 1000000))
    bound = math.exp(-m * eps_over_bound**2 / 2)
    return {"instance": "sign features psi = 0.999 sign(w.x), ||alpha^(t)||_1 at Lemma 5's bound "
                        "(16B + 1) eta t, p = 1/2, m = 1, eps = (16B + 1) eta t / 2",
            "probability": _fraction(probability), "mutant_bound": round(bound, 6),
            "violates_mutant": probability > bound}


def _sign_two_point_penalty():
    """The sign_two_point state of iln.lemma2 and iln.lemma6 at m = 1, exactly.

    ``E_t = +-0.998 ||alpha^(t)||_1 = +-16.76`` with probability 1/2 each, both beyond 16B, so
    Algorithm 1 shrinks; with ``E_t = +16.76`` the shrink lands farther from f* = the unshrunk
    step at ``E_t = +16B`` than the unshrunk step does.  Returns the state, ``P_t(f*)`` and
    ``|E_t|``.
    """
    from verification.claims.iln.lemma2 import probe_state, round_outcome

    state = probe_state("sign_two_point")
    c = state.two_point[0]
    largest = c * state.alpha_l1
    outcomes = [round_outcome(state, sign * largest, state.alpha * 0.25, True) for sign in (1, -1)]
    if not (largest >= 16 and all(o["shrink"] for o in outcomes)):
        raise AssertionError("the sign_two_point state no longer shrinks on every draw at m = 1")
    return state, Fraction(sum(o["step_at_+16B"] for o in outcomes), 2), largest


_PENALTY_INSTANCE = "sign_two_point state (round 41), m = 1, f* = the unshrunk step at E_t = +16B"


def _events_for_the_printed_step() -> dict:
    # Round 1 (f_1 = 0, E_1 = 0, no shrink) of the printed Algorithm 1: its step -eta y_1 Phi(x_1)
    # against the descent step +eta y_1 Phi(x_1), with y_1 = 1, eta = 1/10, ||Phi(x_1)|| = s = 999/1000,
    # f* = (B / 2) Phi(x_1) / s, B = 1: distances eta s + 1/2 against 1/2 - eta s, surely.
    eta, s, half = Fraction(1, 10), Fraction(999, 1000), Fraction(1, 2)
    printed, descent = eta * s + half, abs(half - eta * s)
    penalty = Fraction(int(printed > descent))
    return {"instance": "round 1 of the printed Algorithm 1, sign features s = 0.999, y_1 = 1, eta = 1/10, B = 1, "
                        "f* = Phi(x_1) / (2 s)", "penalty_probability": _fraction(penalty),
            "events_probability": "0", "violates_mutant": penalty > 0}


def _shrink_penalty_t_dropped() -> dict:
    state, penalty, _ = _sign_two_point_penalty()
    bound = 2 * math.exp(-1 / (3 * state.eta) ** 2)
    return {"instance": _PENALTY_INSTANCE, "eta": state.eta, "t": state.t,
            "penalty_probability": _fraction(penalty), "mutant_bound": round(bound, 9),
            "printed_bound": 1.0, "violates_mutant": penalty > bound}


@functools.cache
def _rks_deviation_range(claim: str) -> dict:
    # One +-1 feature, hinge loss, C = 1, theta = 1/2, m = 256, u = 0.6 (delta = exp(-184.32)):
    # the supremum's binomial tail in rational arithmetic (verification.claims.rks.lemma3).
    from verification.claims.rks import lemma3, theorem2

    slack = lemma3.estimation_slack if claim == "lemma3" else theorem2.rademacher_slack
    instance = {"m": 256, "C": 1.0, "loss": "hinge", "theta": 0.5, "K": 1, "u": 0.6}
    value = lemma3.tail_certified(instance, slack)
    log_bound = (math.log(2) if claim == "lemma3" else 0.0) - 2 * 256 * 0.6**2
    return {"instance": "one +-1 feature, hinge loss, C = 1, theta = 1/2, m = 256, u = 0.6",
            "probability": float(f"{math.exp(value.log):.9g}"), "mutant_bound": float(f"{math.exp(log_bound):.9g}"),
            "violates_mutant": value.log > log_bound}


def _point_mass_descent(B: Fraction, T: int, value: Fraction = Fraction(999, 1000)) -> tuple[Fraction, Fraction]:
    """Algorithm 1 with the descent step on point-mass features, exactly: ``(regret, excess)``.

    ``psi(x; w) = c = value / B`` for every w (0.999 / B: the erratum's instance of iln.cor1), every
    label +1, the proof's ``eta = B / (2 sqrt T)`` (rational when T is a square): alpha keeps
    one sign, so every estimate of Algorithm 2 is exact, ``E_t = p_t`` with
    ``1 - p_t = r^(t-1)``, ``r = 1 - eta c^2``, and no round shrinks.  The best predictor of
    norm below B predicts at most ``B c = 0.999`` (the infimum of the loss, ``0.001^2 / 2`` a
    round, is not attained).  ``excess`` is the excess risk of the averaged predictor ``f_S``
    (Corollary 1) on the same law.
    """
    c = value / B
    root = math.isqrt(T)
    if root * root != T:
        raise ValueError("T must be a square (a rational eta)")
    r = 1 - B / (2 * root) * c * c
    best = (1 - B * c) ** 2 / 2
    regret = (1 - r ** (2 * T)) / (2 * (1 - r * r)) - T * best
    mean_gap = (1 - r**T) / (T * (1 - r))  # 1 - p_bar, p_bar the averaged prediction
    return regret, mean_gap**2 / 2 - best


def _regret_sqrt_t_dropped() -> dict:
    B, T = Fraction(1), 256
    regret, _ = _point_mass_descent(B, T)
    bound = 4 * B / (1 - B / math.isqrt(T))
    return {"instance": "psi(x; w) = 0.999 for every w, labels +1, B = 1, T = 256, eta = 1/32, "
                        "descent step", "regret": round(float(regret), 9), "mutant_bound": round(float(bound), 9),
            "printed_bound": round(float(bound) * 16, 9), "violates_mutant": regret > bound}


# ------------------------------------------------------------------------------------------
# Trials planned for the checks that search where their mutant fails
# ------------------------------------------------------------------------------------------
#
# Each plan is the violation side's sample size (verification.rules.mean.violation_sample_size:
# Hoeffding, every law on the range, the design power) at the level the check gives the
# deciding point when the mutant runs alone (runner.DEFAULT_ALPHA, split as the claim's decide
# splits it), for the ratio of the statistic's mean to the mutant's bound: exact where the
# instance allows, else the smallest of a pilot kept apart from the deciding seeds.

#: the horizon of the regret-type searches: the exact counterexample's (regret about
#: sqrt(T) / 2 against the mutant's 4B / (1 - B / sqrt T), twice it at T = 256).
_SEARCH_T = 256
#: the point mass the iln.thm1.regret search runs: the claim's orthogonal sequence with every
#: round on its one row (repeats = T) is x = 0.99 under one random coordinate, psi = 0.99.
_ROW = Fraction(99, 100)


def _mutant_regret_bound(T: int) -> float:
    # Theorem 1's bound at B = 1 divided by sqrt(T) (_REGRET_EDIT): 4 / (1 - 1 / sqrt(T)).
    return 4.0 / (1.0 - 1.0 / math.sqrt(T))


def _regret_search_trials() -> int:
    """regret_sqrt_t_dropped at the point mass psi = 0.99, labels +1, T = 256: the run is
    exact and deterministic (every estimate of Algorithm 2 is), its regret the rational
    recurrence of :func:`_point_mass_descent`; the regret is at least minus the comparator's
    loss T (1 - 0.99)^2 / 2 (iln.thm1.regret's lower end on a fixed sequence); the claim's
    sampled part has two points at this T (its two sequences), so each gets half the level."""
    from verification.rules.mean import violation_sample_size

    regret, _ = _point_mass_descent(Fraction(1), _SEARCH_T, _ROW)
    bound = _mutant_regret_bound(_SEARCH_T)
    lower = -_SEARCH_T * float((1 - _ROW) ** 2) / 2
    return violation_sample_size(bound, lower, float(regret) / bound, runner.DEFAULT_ALPHA / 2)


def _excess_t_exponent_doubled() -> dict:
    B, T = Fraction(4), 4096
    _, excess = _point_mass_descent(B, T)
    bound = 4 * B / (T * (1 - B / math.isqrt(T)))
    return {"instance": "psi(x; w) = 0.999 / 4 for every w, labels +1, B = 4, T = 4096, "
                        "eta = 1/32, averaged predictor", "excess_risk": round(float(excess), 9),
            "mutant_bound": round(float(bound), 9), "violates_mutant": excess > bound}


def _lemma1_first_term_dropped() -> dict:
    # The descent run of _point_mass_descent (B = 1, T = 256): every estimate exact (V = 0),
    # no shrink (P_t = 0), ||nabla_t||^2 = c^2 (1 - p_t)^2, so the mutant's right-hand side is
    # eta c^2 sum_t (1 - p_t)^2 = 2 eta c^2 (regret + T 0.001^2 / 2), against the regret
    # to the f* of norm B that predicts 0.999.
    B, T = Fraction(1), 256
    regret, _ = _point_mass_descent(B, T)
    eta, c2 = B / (2 * math.isqrt(T)), Fraction(999, 1000) ** 2
    rhs = eta * c2 * 2 * (regret + T * Fraction(1, 1000) ** 2 / 2)
    return {"instance": "psi(x; w) = 0.999 for every w, labels +1, B = 1, T = 256, eta = 1/32, "
                        "f* of norm B predicting 0.999", "regret": round(float(regret), 9),
            "mutant_rhs": round(float(rhs), 9), "violates_mutant": regret > rhs}


def _best_member_worse(K: int) -> Fraction:
    """``P[min_{F_w} R > min_{F_p} R]`` on RKS's orthogonal instance, quadratic loss, C = 1.

    32 atoms of probability 1/32, phi the Hadamard columns h_j (orthonormal under the uniform
    law on the 32 points), E[y|x] = 0.8 vote(x).  With ``rho_j = <ybar, h_j>`` the risk is a
    constant plus ``||f - ybar||^2``, coordinate by coordinate: F_p's minimiser puts
    ``clip(rho_j, +-C/32)`` on atom j, the best member of F_w ``clip(rho_j, +-n_j C/K)`` on an
    atom drawn n_j times, recovering ``gain(rho_j, cap) = 2 b |rho_j| - b^2``, ``b = min(|rho_j|,
    cap)``, of ``||ybar||^2``.  The best member is worse exactly when its total gain is below
    F_p's.  The law of the counts (K labelled draws over 32 atoms) is summed atom by atom in
    integers: a dynamic programme over (draws used, gain so far) with weights ``K! / prod n_j!``.
    """
    from verification.claims.rks.instances import class_instance

    inst = class_instance("orthogonal", 1.0)
    table = np.asarray(cast(Any, inst.family).table).astype(int)  # an AtomFeatures: its feature table
    vote = np.sign(inst.support.label_mean).astype(int)
    rho = [Fraction(4, 5) * Fraction(int(vote @ table[:, j]), 32) for j in range(32)]
    C = Fraction(1)

    def gain(r: Fraction, cap: Fraction) -> Fraction:
        b = min(abs(r), cap)
        return 2 * b * abs(r) - b * b

    exact_target = sum(gain(r, C / 32) for r in rho)
    exact_gains = [[gain(r, n * C / K) for n in range(K + 1)] for r in rho]
    scale = math.lcm(exact_target.denominator, *(g.denominator for row in exact_gains for g in row))
    target = int(exact_target * scale)
    # ways[(used, total)]: sum over the counts of the atoms so far of prod 1/n_j!, times K!.
    ways = {(0, 0): math.factorial(K)}
    for row in exact_gains:
        following: dict = {}
        for (used, total), w in ways.items():
            for n in range(K - used + 1):
                key = (used + n, total + int(row[n] * scale))
                following[key] = following.get(key, 0) + w // math.factorial(n)
        ways = following
    worse = sum(w for (used, total), w in ways.items() if used == K and total < target)
    return Fraction(worse, 32**K)


def _rks_lemma2_term_dropped() -> dict:
    probability = _best_member_worse(4)
    return {"instance": "orthogonal (32 atoms, Hadamard features), quadratic loss, C = 1, K = 4, delta = 0.5",
            "probability_excess_positive": _fraction(probability), "delta": "1/2",
            "violates_mutant": probability > Fraction(1, 2)}


def _rks_thm1_bound_dropped() -> dict:
    # Algorithm 1's output lies in F_w (|alpha_k| <= C/K), so its excess risk over F_p's
    # minimum is at least the best member's, positive with this probability whatever m.
    probability = _best_member_worse(8)
    return {"instance": "orthogonal (32 atoms, Hadamard features), quadratic loss, C = 1, K = 8, any m, "
                        "delta = 0.25", "probability_excess_positive_at_least": _fraction(probability),
            "two_delta": "1/2", "violates_mutant": probability > Fraction(1, 2)}


# ------------------------------------------------------------------------------------------
# The catalog
# ------------------------------------------------------------------------------------------

_THEORY = "iln.theory"
#: the exact regret (rational, rounded to 9 digits) of _regret_sqrt_t_dropped.
_REGRET_STORED = {"instance": "psi(x; w) = 0.999 for every w, labels +1, B = 1, T = 256, eta = 1/32, "
                              "descent step", "regret": 8.142875396, "mutant_bound": 4.266666667,
                  "printed_bound": 68.266666667}
#: Theorem 1's regret bound divided by sqrt(T), read by iln.thm1.regret and by the corrected
#: (descent) check of iln.alg1.update_sign.
_REGRET_EDIT = CodeEdit(_THEORY, "regret_bound_proof",
                        "return _out(_regret_bound_proof(*_lemma2_rounds_and_step(B, T, eta)))",
                        "return _out(_regret_bound_proof(*_lemma2_rounds_and_step(B, T, eta)) / np.sqrt(T))")
_CATALOG = (
    StatementMutant(
        name="lemma4_corrected_prefactor_dropped",
        tightens="corrected",
        claim="iln.lemma4.hoeffding",
        kind="prefactor dropped",
        statement="P[|E - <f, Phi(x)>| > eps] <= exp(-m eps^2 / (2 ||alpha||_1^2)): the corrected "
                  "two-sided Hoeffding tail without its prefactor 2",
        # The statement is the specification's formula (verification.search): its decision
        # decides the mutant instead, at the instances the unmutated search found.
        edits=(CodeEdit("verification.claims.iln.lemma4", "hoeffding_decide", "search.decide(HOEFFDING,",
                        "search.decide(HOEFFDING.with_side('two-sided Hoeffding', "
                        "'exp(-m * eps**2 / (2 * a**2))'),"),),
        counterexample=_lemma4_prefactor,
        stored={"instance": "two_point: sign features on two orthogonal inputs, alpha = (1), m = 1, "
                            "eps = 0.5 ||alpha||_1", "probability": "1", "mutant_bound": 0.882497},
        why="With m = 1 the estimate is the single term +-0.998 ||alpha||_1, beyond eps = 0.5 "
            "||alpha||_1 with probability 1 > exp(-1/8) = 0.8825.",
    ),
    StatementMutant(
        name="test_time_corrected_m_quartered",
        tightens="corrected",
        claim="iln.thm1.test_time",
        kind="constant halved",
        statement="Algorithm 2 at test time with m = ||alpha||_1^2 log(2/delta) / (2 eps0^2) (the "
                  "corrected constant 2 replaced by 1/2) is within eps0 with probability 1 - delta",
        # The statement is the specification's formula (verification.search): a rule
        # m = ceil(c ||alpha||^2 log(2/delta) / eps0^2) picks m from delta_m =
        # 2 exp(-m eps0^2 / (c ||alpha||^2)) on, so c = 1/2 is the bound below.
        edits=(CodeEdit("verification.claims.iln.theorem1_test_time", "test_time_decide", "search.decide(TEST_TIME,",
                        "search.decide(TEST_TIME.with_side('two-sided Hoeffding', "
                        "'2 * exp(-4 * m * eps0**2 / (2 * alpha_l1**2))'),"),),
        counterexample=_test_time_quartered,
        stored={"instance": "descent_adversary/balanced: test point (0.99, 0.99, -0.99, -0.99), "
                            "delta = 0.2, eps0 = 0.9 ||alpha||_1", "m_mutant": 2, "probability": "1/2",
                "delta": "1/5"},
        why="The mutant's m is ceil(log(10) / 1.62) = 2; both terms +-0.9801 ||alpha||_1 agree with "
            "probability 1/2, and then |E| = 0.9801 ||alpha||_1 > eps0: 1/2 > delta = 0.2.",
    ),
    StatementMutant(
        name="alpha_l1_prefactor_dropped",
        claim="iln.lemma5.alpha_l1",
        kind="prefactor dropped",
        statement="||alpha^(t)||_1 <= eta t (Lemma 5 without its prefactor 16B + 1)",
        # The statement is the specification's formula (verification.search): its decision
        # decides the mutant instead.
        edits=(CodeEdit("verification.claims.iln.lemma5_alpha_l1", "alpha_l1_decide", "search.decide(ALPHA_L1,",
                        "search.decide(ALPHA_L1.with_side('printed', 'eta * t'),"),),
        counterexample=_alpha_l1_point_mass,
        stored={"instance": "psi(x; w) = 0.999 for every w, B = 1, eta = 10, y_1 = 1, y_2 = -1, t = 3",
                "alpha_l1": "1198001/10000", "mutant_bound": "30", "printed_bound": "510"},
        why="Round 1 steps eta = 10; round 2 sees the exact E_2 = 10 * 0.998001 = 9.98 < 16B and "
            "label -1, a step of 10 * 10.98; ||alpha^(3)||_1 = 119.8 > 3 eta = 30 (printed: 510).",
    ),
    StatementMutant(
        name="grad_norm_constant_halved",
        claim="iln.lemma3.grad_norm",
        kind="constant halved",
        statement="||grad_t||^2 <= l_t(f_t) (the constant 2 of Lemma 3 halved)",
        edits=(CodeEdit("verification.claims.iln.lemma3", "grad_norm_decide", "search.decide(GRAD_NORM,",
                        "search.decide(GRAD_NORM.with_side('printed', '1 * (r**2 / 2)'),"),),
        counterexample=_grad_norm_halved,
        stored={"instance": "psi(x; w) = 0.999 for every w, round 1 (f_1 = 0), y_1 = 1",
                "grad_sq": "998001/1000000", "mutant_bound": "1/2"},
        why="||grad_1||^2 = (0 - 1)^2 ||Phi(x)||^2 = 0.998001 > l_1(0) = 1/2.",
    ),
    StatementMutant(
        name="variance_prefactor_dropped",
        claim="iln.lemma3.variance",
        kind="prefactor dropped",
        statement="V[bar grad_t] <= (eta t)^2 / m (Lemma 3 without the prefactor (16B + 1)^2)",
        # The statement is the specification's formula (verification.search): its decision
        # decides the mutant instead, at the instances the unmutated search found.
        edits=(CodeEdit("verification.claims.iln.lemma3", "variance_decide", "search.decide(VARIANCE,",
                        "search.decide(VARIANCE.with_side('printed', '(eta * t)**2 / m'),"),),
        counterexample=_variance_prefactor,
        stored={"instance": _VARIANCE_INSTANCE, "variance": 1.122149724, "mutant_bound": "1/64"},
        why="Each term of Algorithm 2 is +-0.998 ||alpha||_1 with probability 1/2 around 0: V = (17/16)^2 "
            "0.999^6 = 1.12 > (2/16)^2 = 1/64.",
    ),
    StatementMutant(
        name="zero_comparator_quartered",
        claim="iln.eq17.zero_comparator",
        kind="constant halved",
        statement="sum_t l_t(0) <= T / 4 (eq. 17's T divided by 4; T / 2 is attained)",
        edits=(CodeEdit("verification.claims.iln.eq17", "zero_comparator_decide", "search.decide(ZERO_COMPARATOR,",
                        "search.decide(ZERO_COMPARATOR.with_side('printed', 'T / 4'),"),),
        counterexample=_zero_comparator_quartered,
        stored={"instance": "any T, labels +-1 (here T = 4)", "zero_loss": "2", "mutant_bound": "1"},
        why="With labels +-1, l_t(0) = 1/2 on every round: sum_t l_t(0) = T/2 > T/4.",
    ),
    StatementMutant(
        name="runtime_t_exponent_halved",
        claim="iln.thm1.runtime",
        kind="exponent halved",
        statement="The run time of Algorithm 1 is O~(rho B^4 T) (the exponent of T halved)",
        edits=(CodeEdit("verification.claims.iln.theorem1_runtime", "rate_point",
                        "count = [theory.total_feature_samples(B, T) for T, B in map(key, sizes)]",
                        "count = [theory.total_feature_samples(B, T) / T for T, B in map(key, sizes)]"),),
        counterexample=_runtime_t_exponent,
        stored={"instance": "B = 1, T = 64, 128, 256 at the proof's eta and m",
                "samples": {64: 16588288, 128: 72876928, 256: 317649408},
                "samples_exponent_in_T": 2.1296, "mutant_exponent": 1},
        why="Algorithm 1 draws m_proof(B, T) = O(B^4 T log T) samples in each of T rounds, and each "
            "costs at least one draw of w: the run time grows as T^2.13 over T = 64..256, not as T.",
    ),

    StatementMutant(
        name="hilbert_constant_halved",
        claim="rks.lemma4.hilbert_concentration",
        kind="constant halved",
        statement="P[||X_bar - E X_bar|| > M / sqrt(K) + eps] <= exp(-K eps^2 / M^2) (eq. 20's 2 M^2 "
                  "halved; eq. 16 with sqrt(log(1/delta)) for sqrt(2 log(1/delta)))",
        # The statement is the specification's formula (verification.search): the mutated
        # statement is searched and decided exactly on its own (no trials of the shipped code).
        edits=(CodeEdit("verification.claims.rks.lemma4", "hilbert_decide", "search.decide(HILBERT, records, config, alpha)",
                        "search.decide(HILBERT.with_side('printed', 'exp(-K * eps**2 / M**2)'), [], "
                        "{'search': search.searched(HILBERT.with_side('printed', 'exp(-K * eps**2 / M**2)'))}, alpha)"),),
        counterexample=_hilbert_constant_halved,
        stored={"instance": "two-point +-e_1, p = 1/2, M = 1, K = 256, eps = 1/4 (eq. 16's event)",
                "probability": 3.31434e-07, "mutant_bound": 1.12535e-07},
        why="The average of 256 fair signs is 5.1 standard deviations out with probability "
            "3.3e-7 (exact), above the mutant's exp(-16) = 1.1e-7: the Gaussian tail has exp(-z^2 / 2), "
            "not exp(-z^2).",
    ),
    StatementMutant(
        name="rademacher_constant_halved",
        claim="rks.rademacher.bound",
        kind="constant halved",
        statement="R_m[F_w] <= C / (2 sqrt(m)) (eq. 23 halved)",
        # The statement is the specification's formula (verification.search): the mutated
        # statement is searched and decided exactly on its own (no draws of the shipped code).
        edits=(CodeEdit("verification.claims.rks.rademacher", "complexity_decide",
                        "search.decide(RADEMACHER, records, config, alpha)",
                        "search.decide(RADEMACHER.with_side('printed', '0.5 * C / m**0.5'), [], "
                        "{'search': search.searched(RADEMACHER.with_side('printed', '0.5 * C / m**0.5'))}, alpha)"),),
        counterexample=_rademacher_halved,
        stored={"instance": "signs: every feature value +-1, C = 1", "R_2": "1/2",
                "mutant_bound_2": 0.353553, "R_8": "35/128", "mutant_bound_8": 0.176777},
        why="With +-1 features R_m = C E|S_m| / m: 1/2 > 0.354 at m = 2 and 35/128 = 0.273 > 0.177 "
            "at m = 8.",
    ),

    StatementMutant(
        name="estimate_tail_corrected_prefactor_dropped",
        tightens="corrected",
        claim="iln.lemma5.tail",
        kind="prefactor dropped",
        statement="P[|E_t - <f_t, Phi(x_t)>| > eps] <= exp(-eps^2 m / (2 ((16B + 1) eta t)^2)): "
                  "corrected eq. (20) without its prefactor 2",
        # The statement is the specification's formula (verification.search).
        edits=(CodeEdit("verification.claims.iln.lemma5", "tail_decide", "search.decide(TAIL,",
                        "search.decide(TAIL.with_side('two-sided Hoeffding', "
                        "'exp(-eps**2 * m / (2 * ((16 * B + 1) * eta * t)**2))'),"),),
        counterexample=_estimate_tail_corrected_prefactor,
        stored={"instance": "sign features psi = 0.999 sign(w.x), ||alpha^(t)||_1 at Lemma 5's bound "
                            "(16B + 1) eta t, p = 1/2, m = 1, eps = (16B + 1) eta t / 2",
                "probability": "1", "mutant_bound": 0.882497},
        why="With m = 1 the estimate is the single term +-0.998001 ||alpha^(t)||_1, beyond eps = half "
            "of Lemma 5's bound surely when ||alpha^(t)||_1 is at it: 1 > exp(-1/8) = 0.8825.",
    ),
    StatementMutant(
        name="events_for_the_printed_step",
        tightens="corrected",
        claim="iln.lemma6.events",
        kind="domain widened",
        statement="P[penalty and not (E1 or E2)] <= 0 with the corrected events (|E_t| >= 16B) claimed for "
                  "the printed Algorithm 1 (its ascent step) as well as for the descent step",
        # The claim's corrected side searched over the printed reading too (its own search:
        # the stored one covers the corrected reading only).
        edits=(CodeEdit("verification.claims.iln.lemma6", "events_decide",
                        "search.decide(EVENTS, records, config, alpha)",
                        "search.decide(over_reading(1), [], {'search': search.searched(over_reading(1))}, alpha)"),),
        counterexample=_events_for_the_printed_step,
        stored={"instance": "round 1 of the printed Algorithm 1, sign features s = 0.999, y_1 = 1, eta = 1/10, B = 1, "
                            "f* = Phi(x_1) / (2 s)", "penalty_probability": "1", "events_probability": "0"},
        why="Round 1 cannot shrink (E_1 = 0), so neither event happens, while the printed step -eta Phi(x_1) "
            "lands farther from f* = Phi(x_1) / (2 s) than the descent step eta Phi(x_1): 0.5999 > 0.4001.",
    ),
    StatementMutant(
        name="rks_lemma3_corrected_range_dropped",
        tightens="corrected",
        claim="rks.lemma3.estimation",
        kind="constant halved",
        statement="P[sup |R - R_emp| > (4LC + 2|c(0)|)/sqrt(m) + LC u] <= 2 exp(-2 m u^2): the corrected eq. (13) with LC in place of the range 2LC",
        # The statement is the specification's formula (verification.search): the mutated
        # statement is searched and decided exactly on its own (no trials of the shipped code).
        edits=(CodeEdit("verification.claims.rks.lemma3", "estimation_decide", "search.decide(ESTIMATION, records, config, alpha)",
                        "search.decide(ESTIMATION.with_side('range 2LC, two-sided', '2 * exp(-2 * m * u**2)'), [], "
                        "{'search': search.searched(ESTIMATION.with_side('range 2LC, two-sided', '2 * exp(-2 * m * u**2)'))}, alpha)"),),
        counterexample=functools.partial(_rks_deviation_range, "lemma3"),
        stored={"instance": "one +-1 feature, hinge loss, C = 1, theta = 1/2, m = 256, u = 0.6",
                "probability": 4.83006571e-71, "mutant_bound": 1.78595738e-80},
        why="The supremum over the class is |2 theta_hat - 1|, a binomial frequency: its exact tail beyond "
            "the threshold at u = 0.6 is far above the mutant's bound, which drops the range 2LC the "
            "correction restores (the printed constant back).",
    ),
    StatementMutant(
        name="rks_thm2_corrected_range_dropped",
        tightens="corrected",
        claim="rks.thm2.uniform_deviation",
        kind="constant halved",
        statement="P[sup (R - R_emp) > 4 L R_m + 2|c(0)|/sqrt(m) + LC u] <= exp(-2 m u^2): the corrected eq. (24) with LC in place of the range 2LC (the printed eq. 24)",
        # The statement is the specification's formula (verification.search): the mutated
        # statement is searched and decided exactly on its own (no trials of the shipped code).
        edits=(CodeEdit("verification.claims.rks.theorem2", "deviation_decide", "search.decide(UNIFORM_DEVIATION, records, config, alpha)",
                        "search.decide(UNIFORM_DEVIATION.with_side('range 2LC', 'exp(-2 * m * u**2)'), [], "
                        "{'search': search.searched(UNIFORM_DEVIATION.with_side('range 2LC', 'exp(-2 * m * u**2)'))}, alpha)"),),
        counterexample=functools.partial(_rks_deviation_range, "theorem2"),
        stored={"instance": "one +-1 feature, hinge loss, C = 1, theta = 1/2, m = 256, u = 0.6",
                "probability": 2.02288669e-61, "mutant_bound": 8.92978691e-81},
        why="The supremum over the class is |2 theta_hat - 1|, a binomial frequency: its exact tail beyond "
            "the threshold at u = 0.6 is far above the mutant's bound, which drops the range 2LC the "
            "correction restores (the printed constant back).",
    ),
    StatementMutant(
        name="shrink_penalty_t_dropped",
        claim="iln.lemma2.shrink_penalty",
        kind="factor dropped",
        statement="P_t(f*) <= 2 exp(-m / (3 eta)^2) (Lemma 2 with the factor t^2 of its exponent dropped)",
        edits=(CodeEdit(_THEORY, "shrink_penalty_printed", "np.exp(-m / (3.0 * eta * t) ** 2)",
                        "np.exp(-m / (3.0 * eta) ** 2)"),),
        counterexample=_shrink_penalty_t_dropped,
        stored={"instance": _PENALTY_INSTANCE, "eta": 0.12, "t": 41, "penalty_probability": "1/2",
                "mutant_bound": 0.000891235, "printed_bound": 1.0},
        why="At the sign_two_point state (eta = 0.12, t = 41) with m = 1, Algorithm 1 shrinks on "
            "every draw and the shrink hurts f* with probability 1/2 > 2 exp(-1 / 0.36^2) = 8.9e-4 "
            "(the printed bound is 1 there).",
    ),

    StatementMutant(
        name="regret_sqrt_t_dropped",
        tightens="corrected",
        claim="iln.thm1.regret",
        kind="factor dropped",
        statement="Algorithm 1 with the descent step meets E[Regret] <= 4B / (1 - B / sqrt(T)) at the "
                  "proof's eta (the proof's bound divided by sqrt(T): O(B) regret)",
        edits=(_REGRET_EDIT,),
        counterexample=_regret_sqrt_t_dropped,
        stored=_REGRET_STORED,
        why="On point-mass features with labels +1 the descent run's regret is "
            "(1 - r^(2T)) / (2 (1 - r^2)) - T (0.001)^2 / 2, about sqrt(T) / 2: 8.14 > 4.27 at T = 256.",
        config={"n_trials": _regret_search_trials, "T_grid": [_SEARCH_T], "repeats": _SEARCH_T},
        config_why="The claim's sampled part reads the shipped bound (theory.regret_bound_proof) and runs "
                   "4 seeds at T <= 32 at smoke, too few for its violation side; the search runs its "
                   "sequences at T = 256 with the orthogonal one on one row (repeats = T: "
                   "the point mass psi = 0.99, labels +1), where the exact regret 8.28 is 1.94 times the "
                   "mutant's bound, with the regret's lower end on a fixed sequence (minus the comparator's "
                   "loss, 0.0128). The exact part reads the statement's formula, not the shipped bound.",
    ),
    StatementMutant(
        name="update_sign_corrected_sqrt_t_dropped",
        tightens="corrected",
        claim="iln.alg1.update_sign",
        kind="factor dropped",
        statement="Algorithm 1 with the descent step meets E[Regret] <= 4B / (1 - B / sqrt(T)) (the "
                  "corrected statement's bound divided by sqrt(T))",
        edits=(_REGRET_EDIT,),
        counterexample=_regret_sqrt_t_dropped,
        stored=_REGRET_STORED,
        why="The same descent run as regret_sqrt_t_dropped: regret 8.14 > 4.27 at T = 256.",
    ),
    StatementMutant(
        name="online_to_batch_t_exponent_doubled",
        tightens="corrected",
        claim="iln.cor1.online_to_batch",
        kind="exponent doubled",
        statement="E[R(f_S)] - inf R <= 4B / (T (1 - B / sqrt(T))) (the excess risk O(B / T) in place "
                  "of O(B / sqrt(T)))",
        edits=(CodeEdit(_THEORY, "online_to_batch_excess_risk", "return _out(_regret_bound_proof(B, T, eta) / T)",
                        "return _out(_regret_bound_proof(B, T, eta) / T / np.sqrt(T))"),),
        counterexample=_excess_t_exponent_doubled,
        stored={"instance": "psi(x; w) = 0.999 / 4 for every w, labels +1, B = 4, T = 4096, "
                            "eta = 1/32, averaged predictor", "excess_risk": 0.007838023,
                "mutant_bound": 0.004166667},
        why="On point-mass features psi = 0.999 / B with labels +1 the averaged predictor misses 1 "
            "by (1 - r^T) / (T (1 - r)), an excess risk near 2 B^2 / T, above 4B / T once B > 2: "
            "0.00785 > 0.00417 at B = 4, T = 4096.",
    ),

    StatementMutant(
        name="lemma1_first_term_dropped",
        # iln.lemma1.decomposition is violated as printed (it needs f_1 = 0, which it does not
        # state): only the corrected statement beside it can show the tightened bound false.
        tightens="corrected",
        claim="iln.lemma1.decomposition",
        kind="factor dropped",
        statement="E[sum_t l_t(f_t) - l_t(f*)] <= eta sum_t E||nabla_t||^2 + eta sum_t V[grad_t] + "
                  "(B_T + B)^2 / eta sum_t E[P_t(f*)] (Lemma 1 without its first term B^2 / eta)",
        edits=(CodeEdit(_THEORY, "lemma1_rhs", "B**2 / eta + eta * sum_grad_sq",
                        "0.0 * B**2 / eta + eta * sum_grad_sq"),),
        counterexample=_lemma1_first_term_dropped,
        stored={"instance": "psi(x; w) = 0.999 for every w, labels +1, B = 1, T = 256, eta = 1/32, "
                            "f* of norm B predicting 0.999", "regret": 8.142875396, "mutant_rhs": 0.507920346},
        why="On point-mass features with labels +1 the descent run has no variance and no shrink, "
            "and its regret 8.14 exceeds eta sum_t ||nabla_t||^2 = 0.51 at T = 256.",
    ),

    StatementMutant(
        name="rks_lemma2_approximation_term_dropped",
        claim="rks.lemma2.risk_approximation",
        kind="factor dropped",
        statement="with probability 1 - delta some member of F_w has R[f_hat] <= R[f*] (eq. 10 with "
                  "its approximation term L C / sqrt(K) (1 + sqrt(2 log(1/delta))) dropped)",
        edits=(CodeEdit("verification.claims.rks.lemma2", "decide",
                        "else values, z(delta), delta,", "else values, 0.0 * z(delta), delta,"),),
        counterexample=_rks_lemma2_term_dropped,
        stored={"instance": "orthogonal (32 atoms, Hadamard features), quadratic loss, C = 1, K = 4, "
                            "delta = 0.5", "probability_excess_positive": "451883/524288", "delta": "1/2"},
        why="Four draws give at most one of the six atoms where |rho_j| = 0.3 with probability "
            "0.862, and then the best member of F_w recovers less of ybar than F_p's minimiser: "
            "its excess risk is positive with probability 0.862 > delta = 0.5.",
    ),

    StatementMutant(
        name="rks_thm1_error_terms_dropped",
        claim="rks.thm1.excess_risk",
        kind="factor dropped",
        statement="with probability 1 - 2 delta, R[f_hat] - min_{F_p} R <= 0 (Theorem 1's explicit "
                  "bound 2 eps_est + eps_app dropped: Algorithm 1 as good as the best of F_p)",
        edits=(CodeEdit("verification.claims.rks.theorem1", "decide",
                        "fc.excess_risk_bound(L, C, c0, m, K, delta), 2 * delta,",
                        "0.0 * fc.excess_risk_bound(L, C, c0, m, K, delta), 2 * delta,"),),
        counterexample=_rks_thm1_bound_dropped,
        stored={"instance": "orthogonal (32 atoms, Hadamard features), quadratic loss, C = 1, K = 8, "
                            "any m, delta = 0.25",
                "probability_excess_positive_at_least": "465784086923/549755813888", "two_delta": "1/2"},
        why="f_hat lies in F_w, whose best member is worse than F_p's minimiser with probability "
            "0.847 over the eight draws (exact), so the excess risk is positive with probability "
            "at least 0.847 > 2 delta = 0.5 at every m.",
        config={"instances": ["orthogonal"], "losses": ["quadratic"], "K": [8], "m": [200], "delta": [0.25]},
        config_why="The smoke grid's one point (hinge, K = 64, m = 1000: the only cheap one where the "
                   "printed bound is below the largest possible excess) has 64 draws of 32 atoms, "
                   "where F_w can beat F_p's minimiser and the excess is often negative; the "
                   "counterexample's K = 8 quadratic point is where the mutant fails.",
    ),
)

#: mutants by name.
MUTANTS: dict[str, StatementMutant] = {m.name: m for m in _CATALOG}


def names() -> list[str]:
    """Every mutant's name, in catalog order."""
    return list(MUTANTS)


def get(name: str) -> StatementMutant:
    """The mutant called ``name``; ``ValueError`` naming the known ones otherwise."""
    try:
        return MUTANTS[name]
    except KeyError:
        raise ValueError(f"unknown statement mutant {name!r}; known: {', '.join(MUTANTS)}") from None


def for_claims(claims: Sequence[str]) -> list[StatementMutant]:
    """The mutants of the given claims, in catalog order."""
    wanted = set(claims)
    return [m for m in _CATALOG if m.claim in wanted]


# ------------------------------------------------------------------------------------------
# Running a mutant
# ------------------------------------------------------------------------------------------


def run_mutant(mutant: StatementMutant, *, seed: int, store: Path,
               alpha: float = runner.DEFAULT_ALPHA) -> dict:
    """Run ``mutant``'s claim with the mutant in place; the entry of ``statement_mutants``.

    The runner plants the mutant (``runner.run(defect=mutant)``) and keys its trials as a
    planted defect's: by the check's configuration, the mutant's :attr:`~StatementMutant.
    identity` and the code its trials reach (:mod:`verification.incremental`).  A later run
    reuses them while none of these changed, and its decision while the records and the code
    the decision runs are unchanged (:mod:`verification.stored_decisions`).

    Parameters
    ----------
    mutant : StatementMutant
    seed : int
        Master seed of the run.
    store : path
        The mutant's own store, kept from run to run.
    alpha : float
        Family-wise alpha of the run.

    Returns
    -------
    dict
        :meth:`StatementMutant.to_json` with ``verdict``, ``verdict_printed``,
        ``verdict_corrected``, ``detected``, ``error``, ``elapsed_s``, ``reuse`` (the
        runner's note on the stored trials: reused, resumed, or why they ran) and ``trial_s``
        (the seconds of the trials the verdict used, the runner's ``meta["trial_s"]``; None
        when the run or the claim's trials raised).
    """
    store = Path(store)
    store.parent.mkdir(parents=True, exist_ok=True)
    expected = catalog.get(mutant.claim).expected
    start = time.perf_counter()
    outcome: dict[str, Any] = {"verdict": ERROR, "verdict_printed": None, "verdict_corrected": None, "error": None,
               "reuse": None, "trial_s": None}
    try:
        # Planned before the mutant is planted, as the runner plans the unmodified sizes.
        configs = None if mutant.config is None else {mutant.claim: mutant.check_config()}
        # jobs = 1: the mutant is planted in this process only (it holds functions, its
        # counterexample and planned sizes, that a worker process would have to unpickle).
        result = runner.run([mutant.claim], profile=mutant.profile, seed=seed, jobs=1, store=store,
                            quiet=True, alpha=alpha, configs=configs, defect=mutant)
        verdict = result.outcomes[0].verdict
        outcome.update(verdict=verdict.verdict, verdict_printed=verdict.verdict_printed,
                       verdict_corrected=verdict.verdict_corrected,
                       reuse=result.meta["reuse"].get(mutant.claim),
                       trial_s=result.meta["trial_s"].get(mutant.claim))
    except runner.RUN_ERRORS:
        raise  # the campaign's fault (its store, an edit under it), not a detection
    except Exception as error:  # a check that stops is not a check that rejects
        outcome["error"] = f"{type(error).__name__}: {error}"
    detected = rejected(mutant.tightens, outcome["verdict"], outcome["verdict_printed"],
                        outcome["verdict_corrected"])
    return {**mutant.to_json(), "expected": expected, **outcome, "detected": detected, "seed": seed,
            "elapsed_s": time.perf_counter() - start}


def summarise(entries: Sequence[dict], planned: Sequence[str] = ()) -> dict:
    """The ``statement_mutants`` part of ``selftest.json`` from the entries of :func:`run_mutant`.

    Returns
    -------
    dict
        ``total`` and ``detected`` (over the mutants run), ``by_claim`` (claim id to its
        mutants' entries), ``gaps`` (the mutants not detected), ``planned`` and ``rule``.
    """
    by_claim: dict[str, list[dict]] = {}
    for entry in entries:
        by_claim.setdefault(entry["claim"], []).append(entry)
    return {"total": len(entries), "detected": sum(bool(e["detected"]) for e in entries),
            "by_claim": by_claim, "gaps": [e["name"] for e in entries if not e["detected"]],
            "planned": list(planned),
            "rule": "a mutant is detected when its claim's check, run with the mutant in place of the "
                    "statement, returns violated (for a claim expected to hold after correction: its "
                    "corrected sub-verdict is violated); a mutant not detected is a gap of the check"}
