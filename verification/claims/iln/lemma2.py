"""ICML Lemma 2 / arXiv Lemma 2: the shrink penalty of Algorithm 1, and the states it is probed at.

``iln.lemma2.shrink_penalty``: ``P_t(f*) = P[||f_{t+1} - f*|| > ||hat f_{t+1} - f*||] <=
2 exp(-m / (3 eta t)^2)`` for ``eta < 1/8``, ``B >= 1``, where ``hat f_{t+1} = f_t - eta
bar grad_t`` is the unshrunk step and ``f_{t+1}`` what Algorithm 1 does.  The probe states
and the replay of round t are defined here (:data:`STATES`, :func:`probe_state`,
:func:`probe_trial`); ICML Lemma 6 / arXiv Lemma 5 (:mod:`.lemma6`) and the first part of
ICML Lemma 3 / arXiv Lemma 6 (:mod:`.lemma3`) are specifications searched over every state
on sign features, not replays of these.

Every check fixes a *state* of Algorithm 1 (the coefficients ``alpha^(t)`` a run reached,
the inputs ``x_1, ..., x_t`` and the label ``y_t``) and replays only round ``t`` many times,
with fresh seeds: Algorithm 1 itself (``shrinking_gradient`` warm-started from the run
truncated at round ``t - 1``) draws ``E_t`` with Algorithm 2 and takes its step.  Given
``E_t``, the norms of ``f_{t+1} - f*`` and ``hat f_{t+1} - f*`` are exact, from the oracle
Gram matrix of ``x_1, ..., x_t``.  The proofs bound these probabilities conditionally on
the past (the l1 bound of ICML Lemma 5 / arXiv Lemma 4 holds on every path), so a bound
that holds at every fixed state holds for the printed, averaged probability too; a state
reached with probability zero under the lemma's ``m`` is never used (see :data:`STATES`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import special, stats

from iln import theory
from iln.comparator import best_in_ball
from iln.data import alternating_labels, section6_data
from iln.features import FeatureFamily, RandomCoordinate, RandomSign
from iln.random_streams import child
from iln.shrinking_gradient import ShrinkingGradientResult, shrinking_gradient
from verification import rules, statistics
from verification.catalog import (
    DESIGN_ALPHA,
    DESIGN_POWER,
    Claim,
    Source,
    profiles,
    register,
)
from verification.claims.iln.instances import described
from verification.verdicts import INCONCLUSIVE, Verdict

#: the lemmas' norm bound; B = 1 is the worst case of Lemma 2, whose bound does not involve B
#: while the deviation its proof needs, 8B, shrinks with B.
B = 1.0

#: step size of the adversarial runs: as close to Lemma 2's ``eta < 1/8`` as a round number gets.
ETA = 0.12

#: the events of ICML Lemma 6 / arXiv Lemma 5 use ``|E_t| > 16B`` as printed, while Algorithm 1
#: shrinks at ``|E_t| >= theory.SHRINK_THRESHOLD * B``; kept apart so that a defect of the
#: algorithm's threshold is seen against the printed events.
EVENT_THRESHOLD = 16.0

#: comparators are pulled this far inside the ball: the lemmas quantify over ``||f*|| < B``.
_INSIDE = 1.0 - 1e-9

#: warm-up runs: rounds, samples of Algorithm 2 per round (m = 1 makes every estimate
#: +-c ||alpha||_1, so ||alpha||_1 grows geometrically until shrinking becomes possible), and
#: the seed, the one of 0-4 whose states come earliest (largest ||alpha||_1 / ((16B+1) eta t)).
_WARM_T = 150

_WARM_M = 1

_WARM_SEED = 2

#: the Section 6 run: rounds (the proof's eta = 1/(2 sqrt(T)) < 1/8 needs T >= 17) and the
#: printed Lemma 2 bound its m is chosen for.
_S6_T = 40

SECTION6_TARGET = 0.25

_REACHABLE = ("The warm-up draws m = 1 sample per round; under any m all m terms agree with "
              "positive probability, so the state is reachable under every m.")

#: which states are probed and why they are hard (shown in the report).
STATES = {
    "sign_two_point": (
        "sign features psi = 0.999 sign(w.x); Algorithm 1 (eta = 0.12, B = 1, alternating "
        "labels) on the input e1 repeated, probed at the orthogonal input e2: every term of "
        "Algorithm 2 is +-0.998 ||alpha||_1 with probability 1/2 and <f_t, Phi(x_t)> = 0, the "
        "two-point law that is Hoeffding's worst case. The round probed is the one with the "
        "smallest ||f_t|| among those where 0.998 ||alpha^(t)||_1 > 16B: shrinking is possible "
        "and f_t sits near the centre of the ball, where the unshrunk step from just above the "
        "threshold lands back inside the ball, so that shrinking hurts. " + _REACHABLE
    ),
    "coordinate_aligned": (
        "random-coordinate features on one input with entries 0.99 (kernel 0.98, the largest "
        "the family allows), Algorithm 1 as for sign_two_point on that input and probed at it, "
        "the round chosen the same way: each term is +-0.98 ||alpha||_1 with the sign of the "
        "sampled alpha_i, and f_t is aligned with Phi(x_t). " + _REACHABLE
    ),
    "section6": (
        "the ICML Section 6 data (clipped Gaussians, random coordinates, D = 2T, T = 40) run "
        "with the proof's eta = B/(2 sqrt(T)) and the m that puts the printed Lemma 2 bound at "
        "0.25 in the last round, probed in the last round: the benign case"
    ),
}


@dataclass(frozen=True)
class ProbeState:
    """Round ``t`` of Algorithm 1 about to be played, with everything the checks need.

    Attributes
    ----------
    name : str
    run : ShrinkingGradientResult
        The run truncated after round ``t - 1``: ``run.alpha`` is ``alpha^(t)``.
    x, label : ndarray (D,), float
        ``x_t`` and ``y_t``.
    K : ndarray (t, t)
        Oracle Gram matrix of ``x_1, ..., x_t``.
    comparators : dict of str to ndarray (t,)
        Coefficients of the ``f*`` tried, each of norm below ``B``.
    two_point : tuple (c, q) or None
        When every term of Algorithm 2 is ``+c ||alpha||_1`` with probability ``q`` and
        ``-c ||alpha||_1`` otherwise, the law that gives exact probabilities.
    """

    name: str
    run: ShrinkingGradientResult = field(repr=False)
    x: np.ndarray
    label: float
    K: np.ndarray = field(repr=False)
    comparators: dict
    two_point: tuple | None

    @property
    def t(self) -> int:
        return self.run.T + 1

    @property
    def family(self) -> FeatureFamily:
        return self.run.family

    @property
    def eta(self) -> float:
        return self.run.eta

    @property
    def alpha(self) -> np.ndarray:
        """``alpha^(t)`` padded with the coefficient of ``x_t`` (zero)."""
        return np.append(self.run.alpha, 0.0)

    @property
    def alpha_l1(self) -> float:
        return float(np.abs(self.run.alpha).sum())

    @property
    def inner(self) -> float:
        """``<f_t, Phi(x_t)>``."""
        return float(self.K[-1] @ self.alpha)

    @property
    def f_norm(self) -> float:
        return rkhs_norm(self.alpha, self.K)

    @property
    def k_tt(self) -> float:
        """``k(x_t, x_t) = ||Phi(x_t)||^2``."""
        return float(self.K[-1, -1])

    def summary(self) -> dict:
        return {"round": self.t, "eta": self.eta, "B": B, "alpha_l1": self.alpha_l1,
                "alpha_l1_bound": float(theory.alpha_l1_bound(B, self.eta, self.t)),
                "f_norm": self.f_norm, "inner": self.inner, "k_tt": self.k_tt,
                "warm_up_m": self.run.m, "description": STATES[self.name]}


def rkhs_norm(coef, K) -> float:
    """``||f|| = sqrt(coef' K coef)`` for ``f = sum_i coef_i Phi(x_i)`` with Gram matrix ``K``
    (clipped at 0 against rounding)."""
    return math.sqrt(max(float(coef @ K @ coef), 0.0))


def _into_ball(coef, K) -> np.ndarray:
    """``coef`` scaled into the open ball of radius B, if it is not inside already."""
    norm = rkhs_norm(coef, K)
    return coef * (_INSIDE * B / norm) if norm >= _INSIDE * B else coef


def _hurting_round(run: ShrinkingGradientResult, term: float) -> int:
    """The round with the smallest ``||f_t||`` among those where Algorithm 2 can reach the
    shrink threshold (``term ||alpha^(t)||_1 > 16B``) and ``||f_t|| < B``."""
    l1, norm = run.trace.alpha_l1[:-1], run.trace.f_norm[:-1]
    rounds = np.flatnonzero((norm < B) & (term * l1 > EVENT_THRESHOLD * B))
    if rounds.size == 0:
        raise ValueError(f"the warm-up run never reached a state where shrinking can hurt; "
                         f"largest ||alpha||_1 = {l1.max():.3g}")
    return int(rounds[np.argmin(norm[rounds])]) + 1


def _state(name, family, X, y, eta, m, t, x, term=None, fair=False) -> ProbeState:
    """The run truncated after round ``t - 1``, the comparators, and the Gram matrix.

    ``term``: every term of Algorithm 2 at ``x`` is ``+-term ||alpha||_1``, with a fair sign
    when ``fair`` (sign features, ``x`` orthogonal to the past inputs) and otherwise with the
    sign of the sampled ``alpha_i`` (``x`` equal to the past inputs): the state's two-point law.
    """
    run = shrinking_gradient(X[: t - 1], y[: t - 1], family, B=B, eta=eta, m=m, seed=_WARM_SEED)
    support = np.vstack([X[: t - 1], x])
    K = family.kernel(support)
    a = np.append(run.alpha, 0.0)
    comparators = {"comparator": _into_ball(best_in_ball(K, y[:t], B).beta, K)}
    # The unshrunk step at the threshold, pulled into the ball: the f* closest to where the
    # gradient step would have gone when Algorithm 1 shrinks instead.
    for sign, label in ((1.0, "+"), (-1.0, "-")):
        step = a.copy()
        step[-1] = -eta * (sign * EVENT_THRESHOLD * B - y[t - 1])
        comparators[f"step_at_{label}16B"] = _into_ball(step, K)
    two_point = None
    if term is not None:
        q = 0.5 if fair else float(run.alpha[run.alpha > 0].sum() / np.abs(run.alpha).sum())
        two_point = (term, q)
    return ProbeState(name, run, x, float(y[t - 1]), K, comparators, two_point)


def _adversarial_state(name, family, X, x_probe=None) -> ProbeState:
    """Algorithm 1 with m = 1 on the inputs X and alternating labels, probed at the round
    :func:`_hurting_round` picks, at ``x_probe`` (default: that round's input)."""
    y = alternating_labels(X.shape[0])
    full = shrinking_gradient(X, y, family, B=B, eta=ETA, m=_WARM_M, seed=_WARM_SEED,
                              oracle=family.kernel)
    term = float(family.kernel(X[:1])[0, 0])
    t = _hurting_round(full, term)
    x = X[t - 1] if x_probe is None else x_probe
    return _state(name, family, X, y, ETA, _WARM_M, t, x, term, fair=x_probe is not None)


@functools.cache
def probe_state(name: str) -> ProbeState:
    """The state called ``name`` (see :data:`STATES`), built deterministically."""
    if name == "sign_two_point":
        return _adversarial_state(name, RandomSign(2), np.tile([1.0, 0.0], (_WARM_T, 1)),
                                  np.array([0.0, 1.0]))
    if name == "coordinate_aligned":
        return _adversarial_state(name, RandomCoordinate(4), np.full((_WARM_T, 4), 0.99))
    if name == "section6":
        data = section6_data(_S6_T, 2 * _S6_T, seed=_WARM_SEED)
        eta = float(theory.eta_proof(B, _S6_T))
        m = _m_for_bound(SECTION6_TARGET, eta, _S6_T)
        return _state(name, RandomCoordinate(2 * _S6_T), data.X, data.y, eta, m, _S6_T, data.X[-1])
    raise ValueError(f"unknown probe state {name!r}; known: {sorted(STATES)}")


def _m_for_bound(target: float, eta: float, t: int) -> int:
    """Smallest m with the printed Lemma 2 bound ``2 exp(-m / (3 eta t)^2)`` at most ``target``."""
    return math.ceil((3.0 * eta * t) ** 2 * math.log(2.0 / target))


def point_m(state: ProbeState, point) -> int:
    return point["m"] if "m" in point else _m_for_bound(point["target"], state.eta, state.t)


def point_key(point) -> str:
    return f"{point['state']}/" + (f"m={point['m']}" if "m" in point else f"target={point['target']}")


def round_outcome(state: ProbeState, estimate: float, alpha_next, shrank: bool) -> dict:
    """What round ``t`` did with the estimate ``E_t``, against every comparator.

    ``alpha_next`` is Algorithm 1's ``alpha^(t+1)`` and ``shrank`` whether it shrank.  The unshrunk step is the lemma's
    ``hat f_{t+1} = f_t - eta (E_t - y_t) Phi(x_t)`` (ICML Lemma 2 and B.2; arXiv Lemma 2 and
    B.2).
    """
    hat = state.alpha
    hat[-1] = -state.eta * (estimate - state.label)
    out = {"E": float(estimate), "shrink": bool(shrank)}
    for name, beta in state.comparators.items():
        out[name] = bool(rkhs_norm(alpha_next - beta, state.K) > rkhs_norm(hat - beta, state.K))
    return out


def probe_trial(config, seed) -> dict:
    """Replay round t once per grid point: Algorithm 1 from the state, with a fresh seed."""
    record = {}
    for j, point in enumerate(config["grid"]):
        state = probe_state(point["state"])
        step = shrinking_gradient(state.x[None, :], [state.label], state.family, B=B,
                                  m=point_m(state, point), seed=child(seed, j),
                                  warm_start=state.run)
        record[point_key(point)] = round_outcome(state, float(step.trace.estimate[-1]), step.alpha,
                                                  bool(step.trace.shrink[-1]))
    return record


def two_point_law(name: str, m: int):
    """See :func:`_two_point_law_at`; keyed by Algorithm 1's current constants, so that a
    planted change of them is not served from the cache."""
    return _two_point_law_at(name, m, theory.SHRINK_THRESHOLD, theory.SHRINK_FACTOR)


@functools.cache
def _two_point_law_at(name: str, m: int, threshold: float, factor: float):
    """``(log pmf, outcomes)`` over ``k = 0..m`` for a state whose terms are two-point.

    Every term of Algorithm 2 is ``+-c ||alpha||_1``, so ``E_t = c ||alpha||_1 (2k - m) / m``
    with ``k ~ Bin(m, q)``.  Algorithm 1's step is written out for each ``k`` (ICML/arXiv
    Algorithm 1: shrink by ``SHRINK_FACTOR`` when ``|E_t| >= 16B``, else the descent step), so
    that probabilities far below what a Monte Carlo frequency can show are still reported.
    Returns None when the state has no two-point law.
    """
    state = probe_state(name)
    if state.two_point is None:
        return None
    c, q = state.two_point
    k = np.arange(m + 1)
    outcomes = []
    for estimate in c * state.alpha_l1 * (2 * k - m) / m:
        following, shrank = state.alpha, bool(abs(estimate) >= threshold * B)
        if shrank:
            following = following * factor
        else:
            following[-1] = -state.eta * (estimate - state.label)
        outcomes.append(round_outcome(state, float(estimate), following, shrank))
    return stats.binom.logpmf(k, m, q), outcomes


def exact_log10(name: str, m: int, predicate) -> float | None:
    """log10 of the exact probability of ``predicate(outcome)``; None without a two-point law
    or when no ``k`` satisfies it (probability 0)."""
    law = two_point_law(name, m)
    if law is None:
        return None
    logpmf, outcomes = law
    hits = np.array([bool(predicate(o)) for o in outcomes])
    if not hits.any():
        return None
    return float(special.logsumexp(logpmf[hits]) / math.log(10.0))


def penalty_possible(name: str, m: int, comparator: str) -> bool:
    """Whether the shrink penalty ``||f_{t+1} - f*|| > ||hat f_{t+1} - f*||`` can happen at all
    in round t of state ``name`` with m samples (ICML Lemma 2, eq. (14) / arXiv Lemma 2,
    eq. (13)), from the state alone, never from the replays.

    Without a shrink ``f_{t+1} = hat f_{t+1}`` and the event cannot happen.  Algorithm 1
    shrinks only when ``|E_t| >= 16B``, while ``|E_t| < ||alpha^(t)||_1`` (Algorithm 2's
    ``E = ||alpha||_1 / m sum_k sgn(alpha_i) psi(x_i; w) psi(x; w)``, ICML and arXiv eq. (11),
    with ``|psi| < 1``, ICML and arXiv Section 2): a state with ``||alpha^(t)||_1 <= 16B``
    never shrinks.  At a state with a two-point law every outcome is enumerated
    (:func:`exact_log10`).  The threshold is Algorithm 1's own (``theory.SHRINK_THRESHOLD``),
    so that a planted change of it moves the answer with the algorithm.
    """
    state = probe_state(name)
    if state.alpha_l1 <= theory.SHRINK_THRESHOLD * B:
        return False
    return state.two_point is None or exact_log10(name, m, lambda o: o[comparator]) is not None


def states_details(grid) -> dict:
    return {name: probe_state(name).summary() for name in dict.fromkeys(p["state"] for p in grid)}


def penalty_row(point, outcomes: list[dict]) -> dict:
    """The bounds at one (state, m) point next to what its replays did: the printed ``2 exp(-m /
    (3 eta t)^2)``, the proof's chain with the state's own ``||alpha^(t)||_1``, the corrected
    bound, the shrink frequency, and the exact (two-point law) log10 probabilities of a shrink
    and of each comparator's penalty."""
    state = probe_state(point["state"])
    m = point_m(state, point)
    row = {"m": m, "round": state.t, "printed_bound": float(theory.shrink_penalty_printed(m, state.eta, state.t)),
           "proof_chain_bound": float(theory.hoeffding_tail_corrected(m, 8.0 * B, state.alpha_l1)),
           "corrected_bound": float(theory.shrink_penalty_corrected(m, B, state.eta, state.t)),
           "shrink_frequency": sum(o["shrink"] for o in outcomes) / len(outcomes),
           "log10_exact_shrink_probability": exact_log10(point["state"], m, lambda o: o["shrink"])}
    for name in state.comparators:
        row[f"log10_exact_probability/{name}"] = exact_log10(point["state"], m, lambda o, n=name: o[n])
    return row


#: how the printed bound follows although its proof goes through a false step (the report's details).
PENALTY_NOTE = ("Checked conditionally on the state, which is stronger than the printed "
                "(averaged) statement. The proof's chain P_t <= P[E1 or E2] <= 2 P[D] goes "
                "through the printed Hoeffding tail, which is false (iln.lemma4.hoeffding); "
                "with the corrected tail it gives the corrected bound. The printed bound still "
                "follows: both events lie in D, so P_t <= P[D] <= 2 exp(-32 B^2 m / "
                "||alpha^(t)||_1^2), and ||alpha^(t)||_1 < (16B+1) eta (t-1) makes this at most "
                "2 exp(-m / (3 eta t)^2) when 288 B^2 t^2 >= (16B+1)^2 (t-1)^2: every t <= 577 "
                "at B = 1, every t when B >= 1.031.")


def shrink_penalty_decide(records, config, alpha) -> Verdict:
    """Probability-bound rule (:func:`verification.rules.probability_bound`) at every (state,
    m, f*): the frequency of ``||f_{t+1} - f*|| > ||hat f_{t+1} - f*||`` against the printed
    ``2 exp(-m / (3 eta t)^2)``.  The details give, per point, the exact probability under the
    state's two-point law, the bound the proof's chain gives with the state's own
    ``||alpha^(t)||_1`` (``P_t <= P[|E_t - <f_t, Phi(x_t)>| >= 8B] <= 2 exp(-32 B^2 m /
    ||alpha^(t)||_1^2)``) and the proof's corrected bound :func:`iln.theory.shrink_penalty_corrected`.
    A point whose event cannot happen (:func:`penalty_possible`) is reported and not counted.
    """
    points, rows = [], {}
    for point in config["grid"]:
        state, key = probe_state(point["state"]), point_key(point)
        rows[key] = row = penalty_row(point, [r[key] for r in records])
        points += [rules.TailPoint.from_hits(f"{key}/{name}", [r[key][name] for r in records], row["printed_bound"],
                                                 instance={"state": point["state"], "m": row["m"], "comparator": name,
                                                           "round": state.t, "alpha_l1": state.alpha_l1, "f_norm": state.f_norm},
                                                 possible=penalty_possible(point["state"], row["m"], name))
                   for name in state.comparators]
    return rules.probability_bound("iln.lemma2.shrink_penalty", points, alpha, details={
        "states": states_details(config["grid"]), "bounds": rows, "note": PENALTY_NOTE})


_P_T = r"P_t(f^*) = \mathbb{P}\left[\|f_t - f^*\| > \|\hat{f}_t - f^*\|\right],\quad \hat{f}_t = f_t - \eta\bar{\nabla}_t"

_LEMMA2 = (r"B \geq 1,\ \eta < 1/8:\quad P_t(f^*) \leq 2\exp\left(-\frac{m}{(3\eta t)^2}\right),\quad "
           + _P_T)

#: the printed bounds the m of the grid are chosen for, most stringent first (the rule reports
#: the first point when no event happens).  The Section 6 state is probed at its run's own m
#: only: another m could not have produced its past.
_TARGETS = [0.1, 0.5, 0.9]

ADVERSARIAL_STATES = ["sign_two_point", "coordinate_aligned"]

# m = 1, the smallest m the lemma allows: the printed bound is vacuous there (at least 1, a
# point that cannot fail, reported as such), but the penalty is 1/2 at the sign_two_point
# state, so a bound tightened in its dependence on t or eta fails at it (the statement
# mutant shrink_penalty_t_dropped of verification.selftest.statements).
_LEMMA2_GRID = ([{"state": s, "target": g} for s in ADVERSARIAL_STATES for g in _TARGETS]
                + [{"state": "sign_two_point", "m": 1}, {"state": "section6", "target": SECTION6_TARGET}])


def _lemma2_trials(ratio):
    """Trials to detect a penalty ``ratio`` times the smallest printed bound of the grid (0.1)
    with the design power, at the design level split over the grid's (state, m, f*) points."""
    points = len(_LEMMA2_GRID) * 3
    p0 = min(_TARGETS)
    return statistics.binomial_sample_size(p0, DESIGN_ALPHA / points, DESIGN_POWER, ratio * p0)


register(Claim(
    id="iln.lemma2.shrink_penalty", title="Shrink penalty of Algorithm 1: P_t(f*) <= 2 exp(-m / (3 eta t)^2)",
    sources=(Source("ICML", "Section 5.1, Lemma 2 (proof in Appendix B.2 with Lemma 6); P_t is eq. (14)", _LEMMA2),
             Source("arXiv", "Section 5.1, Lemma 2 (proof in Appendix B.2 with Lemma 5); P_t is eq. (13)", _LEMMA2)),
    # Fixed before running: the proof goes through the false printed Hoeffding tail, but its
    # chain with the corrected tail, the loose outer factor 2 dropped (both events lie in
    # |E_t - <f_t, Phi(x_t)>| >= 8B) and ||alpha^(t)||_1 < (16B+1) eta (t-1) implies the
    # printed bound for every t <= 577 at B = 1 (all the rounds probed here), so no state can
    # violate it.  Reachable states keep ||alpha^(t)||_1 far below (16B+1) eta t, so the
    # penalty at a non-vacuous m is expected to be astronomically small: holds, tightness ~0.
    # Expected inconclusive since issue 41's rule (fixed before the run that decides it): the grid
    # above finds no violation, but its states, m and f* are chosen by hand, not searched.
    rule="probability bound", expected=INCONCLUSIVE, trial=probe_trial, decide=shrink_penalty_decide,
    unsearched="the states of Algorithm 1 (its rounds t, their alpha^(t) and inputs), m > 0, eta in (0, 1/8), B >= 1 "
               "and f* in the ball of radius B are fixed states and a grid of three f*, not searched (no exact "
               "evaluator of P_t over a run: it averages over the whole run's randomness)",
    # 200 smoke trials: with no event the upper Clopper-Pearson end falls below 0.1 at 21
    # points even when a catalog-wide run leaves this claim 3e-5.
    configs=profiles({"grid": _LEMMA2_GRID}, smoke={"n_trials": 200}, quick={"n_trials": functools.partial(_lemma2_trials, 2.0)},
                     full={"n_trials": functools.partial(_lemma2_trials, 1.25)}),
    instances="round t of Algorithm 1 replayed from fixed states, with m chosen so that the printed "
              "bound is 0.9, 0.5 and 0.1 (m = (3 eta t)^2 log(2/bound); 0.25 for section6, its "
              "run's own m), against three f*: the "
              "comparator (best predictor of norm < B on rounds 1..t), and the unshrunk step at "
              "E_t = +16B and at E_t = -16B pulled into the ball (the f* nearest to where the "
              "gradient step would have gone when Algorithm 1 shrinks). States: " + described(STATES),
))

