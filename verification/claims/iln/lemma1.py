"""Lemma 1 (ICML eq. (15); arXiv eq. (14)): regret of online gradient descent with shrink steps.

Every term of both sides is computed exactly, as a mean over the whole law of Algorithm 1's
run, where the feature law has finite support (:mod:`verification.claims.iln.finite_laws`:
every draw of Algorithm 2 enumerated, in rational arithmetic): :func:`lemma1_terms` gives the
regret against f*, ``sum_t E||nabla_t||^2``, ``sum_t V[bar nabla_t]`` and each ``P_t``, and
:func:`lemma1_sides` the right-hand side of each reading of the penalty sum (the versions
index P differently, and ICML's ``P_1`` is undefined).  The statement as printed is decided
on every online algorithm the search builds (Algorithm 1 with either step, started at 0 or
away from it), the corrected one (with ``f_1 = 0``) on those that start at 0.

Exact plan (issue 41; fixed before the exact check first ran, from the algebra below):

* The statement quantifies over "f_1, ..., f_T produced by an online algorithm" with
  ``||f_t|| <= B_T``, every ``||f*|| <= B``, every eta > 0 and every sequence of losses; its
  proof (Appendix B.1, both versions) telescopes ``||f_t - f*||^2`` from ``||f_1 - f*||^2``
  and bounds that by ``||f*||^2 <= B^2``, which needs ``f_1 = 0``: a hypothesis the lemma
  does not state.  Algorithm 1 started from a state ``alpha^(1) != 0`` is an online
  algorithm of the lemma's kind.  Hand computation, T = 1: point mass ``psi = c = 0.999``,
  label 1, B = 1, ``<f_1, Phi(x)> = -15`` (no shrink, ``f_2`` is the descent step, so
  ``P_2 = 0``; the estimate is exact, so ``V = 0``), ``f*`` of norm 1 predicting 0.999,
  eta = 1/16: regret ``16^2 / 2 - 0.001^2 / 2 = 128.0`` against ``B^2 / eta + eta c^2 16^2 =
  16 + 15.97``.  arXiv eq. (14) (sum of ``P_{t+1}``) is violated; ICML eq. (15) sums
  ``P_1 .. P_T``, and its ``P_1`` refers to ``hat f_1 = f_0 - eta bar grad_0``, which the lemma
  does not define: read as ``hat f_1 = f_1`` (no step precedes round 1) it is violated the
  same way, read as ``hat f_1 = 0`` its term ``(B_T + B)^2 / eta`` charges the start and it
  holds; both readings are computed.  Expected: printed violated.
* Corrected statement: the lemma with ``f_1 = 0`` (Algorithm 1's ``alpha^(1) = 0``), for
  either step of Algorithm 1 (the lemma is for any online algorithm).  The proof then shows
  twice the regret below the right-hand side, so the ratio regret / rhs is at most 1/2 on
  every instance: expected to hold wherever it is evaluated.
* Instances where Algorithm 2's law is finite, enumerated in rational arithmetic (every
  branch of every draw): point mass (c = 0.999, one input); sign features on two orthogonal
  inputs (each ``psi`` is +-0.999 with probability 1/2, independently); random coordinates
  on the two near-duplicate inputs (D = 4).  Labels: every sequence in {-1, 1}^T; T = 1..3
  (smoke), 1..4 (quick, full; T <= 3 with m <= 2 for the coordinates); m in {1, 2} (smoke),
  {1, 2, 3}; eta in {1/64, 1/4, 4} (smoke), {1/64, 1/16, 1/4, 1, 4}; B in {1} (smoke),
  {1, 4}; step in {descent, printed}; f* in {the best of the ball, 0}; ``B_T`` the smallest
  the hypothesis admits (the largest ``||f_t||``, t <= T, over every branch).  Printed side
  only: the point mass started at ``<f_1, Phi(x)>`` in {-15, -4} (smoke), {-15, -4, -1, 1/2},
  T = 1..3, m in {1, 2}, labels 1.  Right side: ``theory.lemma1_rhs`` in double precision,
  compared with the exact regret unless within 1e-9 relative (a tie).
* Coverage: T beyond 4 with random estimates, m beyond 3, feature laws of infinite support
  and inputs beyond these are not searched: ``verdict_corrected`` inconclusive (naming them),
  the claim ``violated``.
* Monte Carlo at a fixed random instance of the exact law (sign features on the orthogonal
  inputs, T = 4, m = 1, eta = 4, B = 1, labels (1, 1, -1, -1), descent step, f* the best of
  the ball; shrinks and penalty events happen there): the shipped run's regret, gradient
  and variance terms and arXiv's penalty count against their exact means (the equivalence
  rule, margin a tenth of each one's exact range; smoke 200 runs, quick 2000, full 5000),
  reported beside.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from iln import theory
from iln.comparator import best_in_ball
from iln.features import RandomCoordinate, RandomSign
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification import rules
from verification.catalog import Claim, Source, profiles, register
from verification.claims.iln import finite_laws
from verification.claims.iln.exact_decision import RULE as EXACT_RULE
from verification.claims.iln.exact_decision import Coverage, ExactPoint, exact_verdict
from verification.claims.iln.instances import NEAR_DUPLICATES
from verification.rules import conformance
from verification.verdicts import VIOLATED, Verdict

#: psi's size on the instances: the largest the families allow below 1, as elsewhere.
_SIZE = Fraction(999, 1000)


def finite_law_instances() -> dict[str, tuple[finite_laws.FiniteLaw, int]]:
    """The finite laws searched, each with how many inputs its sequences alternate over."""
    rows = [[Fraction(v).limit_denominator(1000) for v in row] for row in NEAR_DUPLICATES]
    return {"point_mass": (finite_laws.point_mass(_SIZE), 1),
            "orthogonal_signs": (finite_laws.orthogonal_signs(_SIZE, 2), 2),
            "near_duplicates": (finite_laws.coordinates(rows), 2)}


LAWS = {"point_mass": "psi(x; w) = 0.999 for every w, one input (random coordinates in dimension 1)",
        "orthogonal_signs": "sign features 0.999 sign(w . x) on two orthogonal inputs, visited in turn: "
                            "independent fair signs, k = 0.998 on the diagonal and 0 off it",
        "near_duplicates": "random coordinates (D = 4) on the two near-duplicate inputs (entries 0.99, "
                           "one 0.98), visited in turn"}


def shrink_penalty_events(run, K, beta, eta) -> list[int]:
    """0-based rounds s with ``||f_{s+2} - f*|| > ||hat f_{s+2} - f*||``.

    With Lemma 1's ``hat f_t = f_{t-1} - eta bar grad_{t-1}`` (ICML eq. (14); arXiv eq.
    (13)), round s + 1 (1-based) decides P_{s+2}: ``f_{s+2}`` is what the algorithm did
    (a shrink ``f_{s+1} / 4``, or its step), ``hat f_{s+2}`` the descent step
    ``f_{s+1} - eta (E - y) Phi(x_{s+1})``; norms from the oracle Gram matrix. Every round
    is compared, not only the shrinks, so that an algorithm whose steps are not descent
    steps is charged its penalty too.
    """
    history, trace = run.alpha_history, run.trace
    rounds = np.arange(run.T)
    following = history[1:] - beta
    stepped = history[:-1] - beta
    stepped[rounds, rounds] -= eta * (trace.estimate - trace.labels)
    far = np.einsum("ij,jk,ik->i", following, K, following)
    near = np.einsum("ij,jk,ik->i", stepped, K, stepped)
    # A descent round gives the same vector twice; the margin keeps round-off from counting.
    return [int(s) for s in np.flatnonzero(far > near + 1e-12 * (1.0 + near))]


@dataclass(frozen=True)
class _Against:
    """What one round needs of ``alpha^(t)``, computed once per state: ``<f_t, Phi(x_t)>``, the
    round's ``l_t(f_t) - l_t(f*)`` and ``||nabla_t||^2``, ``k(x_t, x_t)``, ``D = ||f_t - f*||^2``,
    ``g = <f_t - f*, Phi(x_t)>`` and ``||f_t / 4 - f*||^2`` (a shrink), ``||f_t||^2``."""

    value: Fraction
    loss: Fraction
    grad_sq: Fraction
    k: Fraction
    D: Fraction
    g: Fraction
    shrunk: Fraction
    norm_sq: Fraction


def _against(law: finite_laws.FiniteLaw, state: finite_laws.State, x: int, y: Fraction,
             beta: Sequence[Fraction]) -> _Against:
    a = finite_laws.coefficients(state)
    d = [u - b for u, b in zip(a, beta, strict=True)]
    value, k = finite_laws.inner(law, a, x), law.gram[x][x]
    quarter = [u * finite_laws.SHRINK - b for u, b in zip(a, beta, strict=True)]
    return _Against(value, (value - y) ** 2 / 2 - (finite_laws.inner(law, beta, x) - y) ** 2 / 2,
                    (value - y) ** 2 * k, k, finite_laws.norm_sq(law, d), finite_laws.inner(law, d, x),
                    finite_laws.norm_sq(law, quarter), finite_laws.norm_sq(law, a))


def _outcome(at: _Against, estimate: Fraction, shrink: bool, y: Fraction, eta: Fraction,
             step: str) -> tuple[Fraction, bool]:
    """``||bar nabla_t - nabla_t||^2 = (E_t - <f_t, Phi(x_t)>)^2 k(x_t, x_t)`` (its mean is
    ``V[bar nabla_t]``) and the event of ``P_{t+1}``: ``||f_{t+1} - f*|| > ||hat f_{t+1} - f*||``,
    ``hat f_{t+1} = f_t - eta bar nabla_t`` (ICML eq. (14), arXiv eq. (13)), ``f_{t+1}`` the
    shrink ``f_t / 4`` or the step ``f_t + c Phi(x_t)``: ``||f_t - f* + c Phi(x_t)||^2 = D + 2 c g
    + c^2 k``."""
    descent = -eta * (estimate - y)
    near = at.D + 2 * descent * at.g + descent * descent * at.k
    if shrink:
        far = at.shrunk
    else:
        c = finite_laws.step_coefficient(step, eta, estimate, y)
        far = at.D + 2 * c * at.g + c * c * at.k
    return (estimate - at.value) ** 2 * at.k, far > near


@dataclass(frozen=True)
class Terms:
    """Lemma 1's quantities, as means over the run's law (or on one branch).

    ``penalties[s]`` is ``P_{s+2}``, s = 0..T-1; ``start_far`` is ``P_1`` read with ``hat f_1 =
    0`` (``||f_1 - f*|| > ||f*||``); ``max_norm_sq`` the largest ``||f_t||^2``, t <= T.
    """

    regret: Fraction
    grad_sq: Fraction
    grad_var: Fraction
    penalties: tuple[Fraction, ...]
    start_far: Fraction
    max_norm_sq: Fraction


def _start_far(law, start: finite_laws.State, beta) -> Fraction:
    a = finite_laws.coefficients(start)
    far = finite_laws.norm_sq(law, [u - b for u, b in zip(a, beta, strict=True)])
    return Fraction(far > finite_laws.norm_sq(law, beta))


def lemma1_terms(law: finite_laws.FiniteLaw, inputs: Sequence[int], labels: Sequence[Fraction], chain: list,
                 beta: Sequence[Fraction], eta: Fraction, step: str) -> Terms:
    """The means of Lemma 1's quantities over the run's law (:func:`~verification.claims.iln.
    finite_laws.state_laws`): every state of every round, every outcome of its estimate."""
    regret = grad_sq = grad_var = largest = Fraction(0)
    penalties = []
    for table, x, y in zip(chain, inputs, labels, strict=True):
        event = Fraction(0)
        for state, (p, moves) in table.items():
            at = _against(law, state, x, y, beta)
            regret, grad_sq, largest = regret + p * at.loss, grad_sq + p * at.grad_sq, max(largest, at.norm_sq)
            for move in moves:
                var, far = _outcome(at, move.estimate, move.shrink, y, eta, step)
                grad_var += p * move.probability * var
                if far:
                    event += p * move.probability
        penalties.append(event)
    (start,) = chain[0]
    return Terms(regret, grad_sq, grad_var, tuple(penalties), _start_far(law, start, beta), largest)


def branch_values(law: finite_laws.FiniteLaw, inputs: Sequence[int], labels: Sequence[Fraction],
                  branch: finite_laws.Branch, beta: Sequence[Fraction], eta: Fraction, step: str) -> Terms:
    """Lemma 1's quantities on one branch of :func:`~verification.claims.iln.finite_laws.run_law`
    (what one run of the shipped code measures)."""
    ats = [_against(law, r.state, x, y, beta) for r, x, y in zip(branch.rounds, inputs, labels, strict=True)]
    outcomes = [_outcome(at, r.estimate, r.shrink, y, eta, step) for at, r, y in zip(ats, branch.rounds, labels,
                                                                                      strict=True)]
    return Terms(sum((at.loss for at in ats), Fraction(0)), sum((at.grad_sq for at in ats), Fraction(0)),
                 sum((var for var, _ in outcomes), Fraction(0)), tuple(Fraction(far) for _, far in outcomes),
                 _start_far(law, branch.rounds[0].state, beta), max(at.norm_sq for at in ats))


#: the readings of the penalty sum: arXiv eq. (14), sum_t P_{t+1}; ICML eq. (15), sum_t P_t,
#: whose P_1 (hat f_1 = f_0 - eta bar grad_0) the lemma leaves undefined: read with hat f_1 = f_1
#: (P_1 = 0) and with hat f_1 = 0 (a round 0 at the origin).
READINGS = {"arXiv": "sum_t P_{t+1}, t = 1..T (eq. 14)",
            "ICML": "sum_t P_t, t = 1..T (eq. 15), P_1 = 0 (hat f_1 = f_1)",
            "ICML, hat f_1 = 0": "sum_t P_t, t = 1..T (eq. 15), P_1 with hat f_1 = 0"}


def lemma1_sides(terms: Terms, B: Fraction, eta: Fraction) -> dict[str, tuple[Fraction, float]]:
    """Per reading of :data:`READINGS`: the exact regret and ``theory.lemma1_rhs`` of the exact
    terms, with ``B_T`` the smallest the lemma's hypothesis admits (the largest ``||f_t||``,
    t <= T, over every state the run reaches)."""
    later = sum(terms.penalties[:-1], Fraction(0))  # P_2 .. P_T
    sums = {"arXiv": sum(terms.penalties, Fraction(0)), "ICML": later, "ICML, hat f_1 = 0": later + terms.start_far}
    B_T = math.sqrt(float(terms.max_norm_sq))
    return {reading: (terms.regret, float(theory.lemma1_rhs(float(B), float(eta), B_T, float(terms.grad_sq),
                                                             float(terms.grad_var), float(total))))
            for reading, total in sums.items()}


@functools.cache
def comparator(law: finite_laws.FiniteLaw, inputs: tuple[int, ...], labels: tuple[Fraction, ...],
               B: Fraction) -> tuple[Fraction, ...]:
    """The best ``f*`` of the B-ball for the sequence (``best_in_ball``), as rational
    coefficients on the law's inputs, pulled inside the ball if rounding left it outside
    (cached: every trial of the conformance asks for it)."""
    K = np.array([[float(law.gram[a][b]) for b in inputs] for a in inputs])
    beta_rounds = best_in_ball(K, np.array([float(y) for y in labels]), float(B)).beta
    beta = [Fraction(0)] * law.inputs
    for x, b in zip(inputs, beta_rounds, strict=True):
        beta[x] += Fraction(float(b)).limit_denominator(10**9)
    norm_sq = finite_laws.norm_sq(law, beta)
    if norm_sq > B * B:
        shrink = Fraction(math.sqrt(float(B * B / norm_sq)) * (1 - 1e-12))
        beta = [b * shrink for b in beta]
    return tuple(beta)


def _sequences(law_name: str, T: int) -> tuple[list[int], list[list[Fraction]]]:
    """The inputs (one, or two in turn) and every label sequence in {-1, 1}^T."""
    n = finite_law_instances()[law_name][1]
    return [t % n for t in range(T)], [list(map(Fraction, ys)) for ys in itertools.product((1, -1), repeat=T)]


@functools.cache
def instance_terms(law_name: str, inputs: tuple[int, ...], labels: tuple[Fraction, ...], B: Fraction, eta: Fraction,
                   m: int, step: str, start: finite_laws.State | None) -> tuple[tuple[str, Terms], ...]:
    """Lemma 1's exact terms at one instance, for f* the best of the ball and 0 (cached: the
    claim's search and its statement mutants ask for the same runs; only ``lemma1_rhs``
    differs)."""
    law = finite_law_instances()[law_name][0]
    chain = finite_laws.state_laws(law, inputs, labels, B=B, eta=eta, m=m, step=step, start=start)
    comparators = {"best": comparator(law, inputs, labels, B), "zero": (Fraction(0),) * law.inputs}
    return tuple((f_star, lemma1_terms(law, inputs, labels, chain, beta, eta, step))
                 for f_star, beta in comparators.items())


def _instance_points(law_name: str, inputs, labels, B, eta, m, step, start, start_name) -> list[tuple[str, ExactPoint]]:
    """Every reading's point at one instance, for f* the best of the ball and 0."""
    labels_text = "".join("+" if y > 0 else "-" for y in labels)
    out = []
    for f_star, terms in instance_terms(law_name, tuple(inputs), tuple(labels), B, eta, m, step, start):
        for reading, (regret, rhs) in lemma1_sides(terms, B, eta).items():
            key = f"{reading}/{law_name}/T={len(inputs)}/y={labels_text}/m={m}/eta={eta}/B={B}/{step}/{start_name}/f*={f_star}"
            out.append((reading, ExactPoint(key, regret, rhs, {
                "reading": reading, "law": law_name, "T": len(inputs), "labels": labels_text, "m": m,
                "eta": float(eta), "B": float(B), "step": step, "start": start_name, "comparator": f_star})))
    return out


def corrected_points(config) -> list[tuple[str, ExactPoint]]:
    """Lemma 1 with ``f_1 = 0`` (Algorithm 1 as it starts), every instance of the search,
    smallest T first."""
    out = []
    for T in range(1, config["T_max"] + 1):
        for law_name in config["laws"]:
            limits = config["limits"].get(law_name, {})
            if limits.get("T", T) < T:
                continue
            inputs, label_sets = _sequences(law_name, T)
            for labels, m, eta, B, step in itertools.product(label_sets, config["m"], map(Fraction, config["etas"]),
                                                             map(Fraction, config["B"]), ("descent", "printed")):
                if m <= limits.get("m", m):
                    out += _instance_points(law_name, inputs, labels, B, eta, m, step, None, "f_1=0")
    return out


def printed_points(config) -> list[tuple[str, ExactPoint]]:
    """Lemma 1 as printed: the corrected statement's instances (Algorithm 1 starts at 0, an
    online algorithm of the lemma's kind), and Algorithm 1 started from ``<f_1, Phi(x)> = p``
    on the point mass, labels 1 (an online algorithm the lemma admits and Algorithm 1 is not)."""
    law = finite_law_instances()["point_mass"][0]
    out = []
    for T in range(1, config["start_T_max"] + 1):
        for p, m, eta, step in itertools.product(map(Fraction, config["starts"]), config["start_m"],
                                                 map(Fraction, config["etas"]), ("descent", "printed")):
            mass = abs(p) / law.gram[0][0]
            start = (mass, Fraction(0)) if p > 0 else (Fraction(0), mass)
            out += _instance_points("point_mass", [0] * T, [Fraction(1)] * T, Fraction(1), eta, m, step, start,
                                    f"<f_1,Phi(x)>={p}")
    return out


def lemma1_coverage(config) -> dict[str, dict[str, Coverage]]:
    """What the search covers of each statement's domain (issue 41: named where it stops)."""
    shared = {
        "T": Coverage("every T >= 1", f"1..{config['T_max']} (random estimates: every branch enumerated)",
                      config["T_max"], False),
        "m": Coverage("every m >= 1", ", ".join(map(str, config["m"])), len(config["m"]), False),
        "eta": Coverage("(0, inf)", ", ".join(config["etas"]), len(config["etas"]), False),
        "B": Coverage("[1, inf)", ", ".join(map(str, config["B"])), len(config["B"]), False),
        "feature law and inputs": Coverage("every mu, psi with |psi| < 1 and inputs x_1..x_T",
                                           "; ".join(LAWS[name] for name in config["laws"]), len(config["laws"]),
                                           False),
        "loss sequence": Coverage("every sequence of convex losses (here: squared losses, labels in [-1, 1])",
                                  "squared losses, every label sequence in {-1, 1}^T", 1, False),
        "f*": Coverage("every ||f*|| <= B", "the best of the ball, 0", 2, False),
        "B_T": Coverage("every bound on max_t ||f_t||", "the smallest (the largest ||f_t|| over every branch)",
                        1, True),
        "algorithm": Coverage("every online algorithm", "Algorithm 1, descent and printed step", 2, False),
    }
    return {"printed": {**shared, "f_1": Coverage("any (the lemma does not say)",
                                                  "0, and <f_1, Phi(x)> in " + ", ".join(config["starts"]),
                                                  1 + len(config["starts"]), False)},
            "corrected": {**shared, "f_1": Coverage("0 (the hypothesis the proof uses)", "0", 1, True)}}


def conformance_instance(config):
    """The Monte Carlo instance of the configuration: its point, law, inputs, labels, B, eta."""
    point = config["conformance"]
    law = finite_law_instances()[point["law"]][0]
    T, B, eta = point["T"], Fraction(point["B"]), Fraction(point["eta"])
    inputs, labels = tuple(_sequences(point["law"], T)[0]), tuple(Fraction(y) for y in point["labels"])
    return point, law, inputs, labels, B, eta


def _family(name: str):
    """The shipped family with the law :func:`_laws` gives ``name``, and its inputs' rows."""
    if name == "orthogonal_signs":
        return RandomSign(2, scale=float(_SIZE)), np.eye(2)
    if name == "near_duplicates":
        return RandomCoordinate(NEAR_DUPLICATES.shape[1]), NEAR_DUPLICATES
    return RandomCoordinate(1), np.array([[float(_SIZE)]])


def lemma1_trial(config, seed) -> dict:
    """Monte Carlo at the conformance instance: the shipped Algorithm 1 with each step, its
    regret against the same f*, its gradient and variance terms and arXiv's penalty count."""
    point, law, inputs, labels, B, eta = conformance_instance(config)
    family, rows = _family(point["law"])
    X, y = rows[list(inputs)], np.array([float(v) for v in labels])
    K, beta = family.kernel(X), np.zeros(len(inputs))
    for k, b in enumerate(comparator(law, inputs, labels, B)):
        beta[inputs.index(k)] = float(b)
    k_tt, record = np.diag(K), {}
    for j, step in enumerate(point["steps"]):
        run = shrinking_gradient(X, y, family, B=float(B), eta=float(eta), m=point["m"], seed=child(seed, j),
                                 update=step, oracle=family.kernel, record_alpha=True)
        record[step] = {"regret": float(run.trace.loss_exact.sum() - 0.5 * np.sum((K @ beta - y) ** 2)),
                        "grad_sq": float(((run.trace.inner_exact - y) ** 2 * k_tt).sum()),
                        "grad_var": float(((run.trace.estimate - run.trace.inner_exact) ** 2 * k_tt).sum()),
                        "events_arxiv": len(shrink_penalty_events(run, K, beta, float(eta)))}
    return record


#: Lemma 1's quantities on a branch, as one run of the shipped code measures them.
MEASURED = {"regret": lambda t: t.regret, "grad_sq": lambda t: t.grad_sq, "grad_var": lambda t: t.grad_var,
             "events_arxiv": lambda t: sum(t.penalties)}


def lemma1_conformance(records, config, alpha) -> Verdict:
    """The shipped runs against the exact law: each quantity's mean against its exact mean, the
    equivalence rule with the exact support as the a-priori range (widened by the conformance
    slack, for the shipped code's rounding) and a margin of ``config["conformance_margin"]`` of
    that range."""
    point, law, inputs, labels, B, eta = conformance_instance(config)
    beta, points = comparator(law, inputs, labels, B), []
    for step in point["steps"]:
        branches = finite_laws.run_law(law, inputs, labels, B=B, eta=eta, m=point["m"], step=step)
        values = [(b.probability, branch_values(law, inputs, labels, b, beta, eta, step)) for b in branches]
        for name, value in MEASURED.items():
            low, high = float(min(value(t) for _, t in values)), float(max(value(t) for _, t in values))
            mean = float(sum((p * value(t) for p, t in values), Fraction(0)))
            points.append(rules.EqualityPoint(
                key=f"{step}/{name}", values=[r[step][name] for r in records], exact=mean,
                lower=low - conformance.SLACK * max(1.0, abs(low)), upper=high + conformance.SLACK * max(1.0, abs(high)),
                margin=max(config["conformance_margin"] * (high - low), conformance.SLACK),
                instance={"branches": len(branches)}))
    return rules.equivalence("iln.lemma1.decomposition", points, alpha)


def lemma1_decide(records, config, alpha) -> Verdict:
    """Exact: Lemma 1 as printed (every reading of its penalty sum, any start) and with the
    hypothesis ``f_1 = 0``, over the search; the conformance beside."""
    corrected = corrected_points(config)
    printed = printed_points(config) + corrected
    # With f_1 = 0 both readings of ICML's P_1 give P_1 = 0: one of them suffices.
    corrected = [(r, p) for r, p in corrected if r != "ICML, hat f_1 = 0"]
    deciding = [p for reading, p in printed if reading != "ICML, hat f_1 = 0"]
    other = [p for reading, p in printed if reading == "ICML, hat f_1 = 0"]
    icml_zero = {"instances": len(other), "above": sum(p.outcome == "above" for p in other),
                 "largest_ratio": max(p.ratio for p in other)}
    return exact_verdict("iln.lemma1.decomposition", deciding, [p for _, p in corrected],
                         coverage=lemma1_coverage(config), alpha=alpha, n_trials=len(records),
                         conformance=lemma1_conformance(records, config, alpha),
                         details={"readings": READINGS, "laws": {n: LAWS[n] for n in config["laws"]},
                                  "ICML read with hat f_1 = 0 (printed instances)": icml_zero})


_LEMMA1_HEAD = (r"R_T(f^*) \le \frac{B^2}{\eta} + \eta\sum_{t=1}^T \mathbb{E}[\|\nabla_t\|^2] + "
                r"\eta\sum_{t=1}^T V[\bar{\nabla}_t] + \sum_{t=1}^T \frac{(B_T+B)^2}{\eta}")

_LEMMA1_P = (r",\quad P_t(f^*) = \mathbb{P}\left[\|f_t - f^*\| > \|\hat{f}_t - f^*\|\right],\ "
             r"\hat{f}_t = f_{t-1} - \eta\bar{\nabla}_{t-1}")

_ETAS = ["1/64", "1/16", "1/4", "1", "4"]

register(Claim(
    id="iln.lemma1.decomposition", title="Lemma 1: regret of online gradient descent with non-gradient (shrink) steps",
    sources=(Source("ICML", "Section 5.1, Lemma 1, eq. (15) (P_t: eq. (14); proof: Appendix B.1)",
                    _LEMMA1_HEAD + r"\mathbb{E}[P_t(f^*)]" + _LEMMA1_P),
             Source("arXiv", "Section 5.1, Lemma 1, eq. (14) (P_t: eq. (13); proof: Appendix B.1)",
                    _LEMMA1_HEAD + r"\mathbb{E}[P_{t+1}(f^*)]" + _LEMMA1_P)),
    # Fixed before running (the module's exact plan): the printed lemma fails for an online
    # algorithm that does not start at f_1 = 0 (the hypothesis its proof uses); with it, the
    # proof leaves a factor 2 to spare, but the exact search cannot cover the domain.
    rule=EXACT_RULE, expected=VIOLATED, trial=lemma1_trial, decide=lemma1_decide,
    # The exact search of the module's plan; the trials are the conformance runs (the equivalence
    # rule: about 2000 runs put each mean within a tenth of its exact range at the claim's level).
    configs=profiles({"laws": list(LAWS), "limits": {"near_duplicates": {"T": 3, "m": 2}}, "start_T_max": 3,
                      "start_m": [1, 2], "conformance_margin": 0.1,
                      # The plan's instance; the printed step is added there because the descent
                      # step has no penalty event at it (found when first run).
                      "conformance": {"law": "orthogonal_signs", "T": 4, "m": 1, "eta": "4", "B": 1,
                                      "labels": [1, 1, -1, -1], "steps": ["descent", "printed"]}},
                     smoke={"n_trials": 200, "T_max": 3, "m": [1, 2], "etas": ["1/64", "1/4", "4"], "B": [1],
                            "starts": ["-15", "-4"]},
                     quick={"n_trials": 2000, "T_max": 4, "m": [1, 2, 3], "etas": _ETAS, "B": [1, 4],
                            "starts": ["-15", "-4", "-1", "1/2"]},
                     full={"n_trials": 5000, "T_max": 4, "m": [1, 2, 3], "etas": _ETAS, "B": [1, 4],
                           "starts": ["-15", "-4", "-1", "1/2"]}),
    instances="feature laws of finite support, where every draw of Algorithm 2 has finitely many outcomes "
              "and every branch of Algorithm 1's run is enumerated in rational arithmetic: "
              + "; ".join(LAWS.values()) + ". Every label sequence in {-1, 1}^T, both steps of Algorithm 1, "
              "f* the best of the ball and 0, B_T the smallest the hypothesis admits; Algorithm 1 also "
              "started from <f_1, Phi(x)> != 0 on the point mass (an online algorithm the lemma admits). "
              "The shipped Algorithm 1 at one random instance (sign features, T = 4, m = 1, eta = 4) must "
              "follow the exact law (the equivalence rule on its regret, gradient, variance and penalty "
              "terms)",
))
