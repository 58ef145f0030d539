"""Lemma 1 (ICML eq. (15); arXiv eq. (14)): regret of online gradient descent with shrink steps.

Every term of its right-hand side is measured on runs of Algorithm 1 on the fixed
sequences of :data:`verification.claims.iln.instances.SEQUENCES`; the mean rule decides
``E[regret - rhs] <= 0`` per sequence and version (the versions index P differently).

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
import math

import numpy as np

from iln import theory
from iln.comparator import best_in_ball
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification import rules
from verification.catalog import Claim, Source, profiles, register
from verification.claims.iln.instances import SEQUENCES, Sequence, described, sequence
from verification.verdicts import VIOLATED, Verdict


@functools.cache
def _fixed_sequence(name: str, T: int, data_seed: int) -> tuple[Sequence, np.ndarray]:
    """A sequence whose data do not change with the trial (Lemma 1 fixes f*), and its Gram matrix."""
    seq = sequence(name, T, np.random.SeedSequence(data_seed))
    return seq, seq.family.kernel(seq.X)


@functools.cache
def _fixed_comparator(name: str, T: int, data_seed: int, B: float):
    seq, K = _fixed_sequence(name, T, data_seed)
    return best_in_ball(K, seq.y, B)


def _step_size(spec, B: float, T: int, K: np.ndarray) -> float:
    """``"proof"``: eta_proof; ``"balanced"``: ``B / sqrt(trace K)``, which minimises
    ``B^2/eta + eta sum_t k(x_t, x_t)``, Lemma 1's first two terms while the learner's
    predictions stay 0 (the orthogonal sequence); a number: itself."""
    if spec == "proof":
        return float(theory.eta_proof(B, T))
    if spec == "balanced":
        return B / math.sqrt(float(np.trace(K)))
    return float(spec)


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


def lemma1_trial(config, seed) -> dict:
    """Per setting: the regret against f* and the measured terms of Lemma 1, from one run.

    ``||nabla_t||^2 = (<f_t, Phi(x_t)> - y_t)^2 k(x_t, x_t)`` and ``||bar nabla_t -
    nabla_t||^2 = (E_t - <f_t, Phi(x_t)>)^2 k(x_t, x_t)`` (the run's trace; the second has
    mean ``V[bar nabla_t]``), and the P events of :func:`shrink_penalty_events`, counted
    over rounds 1..T-1 (ICML's ``sum_{t<=T} P_t``) and 1..T (arXiv's ``sum P_{t+1}``).
    """
    record = {}
    T, B = config["T"], config["B"]
    for j, setting in enumerate(config["settings"]):
        name = setting["sequence"]
        seq, K = _fixed_sequence(name, T, config["data_seed"])
        best = _fixed_comparator(name, T, config["data_seed"], B)
        eta = _step_size(setting["eta"], B, T, K)
        run = shrinking_gradient(seq.X, seq.y, seq.family, B=B, eta=eta, m=setting["m"],
                                 seed=child(seed, j), oracle=seq.family.kernel, record_alpha=True)
        trace, k_tt = run.trace, np.diag(K)
        events = shrink_penalty_events(run, K, np.asarray(best.beta), eta)
        record[name] = {
            "regret": float(trace.loss_exact.sum() - best.total_loss),
            "grad_sq": float(((trace.inner_exact - trace.labels) ** 2 * k_tt).sum()),
            "grad_var": float(((trace.estimate - trace.inner_exact) ** 2 * k_tt).sum()),
            "events_icml": sum(1 for s in events if s < T - 1), "events_arxiv": len(events),
            "shrinks": int(trace.shrink.sum()), "max_f_norm": float(trace.f_norm.max()),
        }
    return record


def lemma1_lower_end(K: np.ndarray, y: np.ndarray, B: float, eta: float, B_T: float,
                     comparator_loss: float, rounds_counted: int) -> float:
    """An a-priori lower end of ``regret - rhs`` (Lemma 1's statistic) on a fixed sequence.

    Before any run, from the sequence (its Gram matrix ``K``, labels ``y``), ``B``, ``eta``
    and the l1 bound on Algorithm 1's weights alone (ICML Lemma 5; arXiv Lemma 4: alpha^(t)
    has had t - 1 updates, so ``||alpha^(t)||_1 <= a_t = (16B+1) eta (t - 1)``, and
    ``alpha^(1) = 0``):

    * the regret is at least ``-sum_t l_t(f*)`` (losses are at least 0);
    * ``|<f_t, Phi(x_t)>| <= a_t max|K|`` and ``|E_t| <= a_t`` (``|psi| < 1``), so
      ``||nabla_t||^2 <= (a_t max|K| + |y_t|)^2 k(x_t, x_t)`` and ``||bar nabla_t - nabla_t||^2
      <= (a_t (1 + max|K|))^2 k(x_t, x_t)``;
    * a round with ``a_t < 16B`` cannot shrink, and a round that does not shrink is the
      descent step, so no P event (ICML eq. (14); arXiv eq. (13)) happens there: at most the
      rounds among the first ``rounds_counted`` with ``a_t >= 16B`` count.

    Hence ``regret - rhs >= -sum_t l_t(f*) - lemma1_rhs(B, eta, B_T, max grad_sq, max grad_var,
    max events)``, through :func:`iln.theory.lemma1_rhs` (so a statement mutant of the
    right-hand side moves the end with it).  On the first rounds, where no shrink can happen
    and the weights are small, the end is close to the bound, and a false right-hand side is
    rejected from a few dozen runs; at ``T = 64`` it is vast, and the point decides nothing,
    as before.  A run outside the range (a defect) drops the end (:mod:`verification.rules.mean`).
    """
    T = len(y)
    a = np.zeros(T)
    if T > 1:
        a[1:] = np.asarray(theory.alpha_l1_bound(B, eta, np.arange(1, T)), dtype=np.float64)
    k_tt, k_max = np.diag(K), float(np.abs(K).max())
    grad_sq = float(np.sum((a * k_max + np.abs(y)) ** 2 * k_tt))
    grad_var = float(np.sum((a * (1.0 + k_max)) ** 2 * k_tt))
    events = int(np.sum(a[:rounds_counted] >= theory.SHRINK_THRESHOLD * B))
    return -comparator_loss - float(theory.lemma1_rhs(B, eta, B_T, grad_sq, grad_var, events))


def lemma1_points(setting, records, config) -> tuple[list[rules.MeanPoint], dict]:
    """The points of one setting, ICML's and arXiv's indexing of the P events, and their figures.

    Per run ``regret - rhs``, ``rhs`` :func:`iln.theory.lemma1_rhs` of the run's own terms with
    ``B_T = (16B+1) eta T`` (arXiv eq. (23)); its lower end is :func:`lemma1_lower_end`.
    """
    T, B, name = config["T"], config["B"], setting["sequence"]
    seq, K = _fixed_sequence(name, T, config["data_seed"])
    eta = _step_size(setting["eta"], B, T, K)
    B_T = float(theory.f_norm_bound(B, eta, T))
    comparator_loss = _fixed_comparator(name, T, config["data_seed"], B).total_loss
    terms = {key: np.array([r[name][key] for r in records], dtype=np.float64)
             for key in ("regret", "grad_sq", "grad_var", "events_icml", "events_arxiv")}
    points, figures = [], {}
    for version in ("ICML", "arXiv"):
        events = terms[f"events_{version.lower()}"]
        rhs = theory.lemma1_rhs(B, eta, B_T, terms["grad_sq"], terms["grad_var"], events)
        mean_rhs = float(theory.lemma1_rhs(B, eta, B_T, terms["grad_sq"].mean(),
                                           terms["grad_var"].mean(), events.mean()))
        key = f"{name}/{version}"
        # regret - rhs has no useful upper end (rhs falls with the variance term), so
        # the point can be violated, never shown to hold; its lower end is a-priori.
        rounds = T - 1 if version == "ICML" else T
        lower = lemma1_lower_end(K, seq.y, B, eta, B_T, comparator_loss, rounds)
        points.append(rules.MeanPoint(key=key, values=terms["regret"] - rhs, bound=0.0, lower=lower,
                                      scale=mean_rhs, instance={"setting": name, "version": version,
                                                                "T": T, "eta": eta, "lower_end": lower}))
        figures[key] = {"rhs": mean_rhs, "mean_regret": float(terms["regret"].mean()), "eta": eta,
                        "B_T": B_T, "mean_events": float(events.mean()),
                        "mean_shrinks": float(np.mean([r[name]["shrinks"] for r in records])),
                        "max_f_norm": max(r[name]["max_f_norm"] for r in records)}
    return points, figures


def lemma1_decide(records, config, alpha) -> Verdict:
    """Mean rule on ``regret - rhs`` per run, per setting and version: E[.] <= 0.

    ``rhs`` is :func:`iln.theory.lemma1_rhs` of the run's own terms with ``B_T = (16B+1)
    eta T`` (arXiv eq. (23)); by linearity its mean is the lemma's right-hand side, so
    ``E[regret - rhs] <= 0`` is the lemma. The tightness is ``E[regret] / rhs``.
    """
    points, figures = [], {}
    for setting in config["settings"]:
        mine, more = lemma1_points(setting, records, config)
        points += mine
        figures.update(more)
    details = {"statistic_units": "regret - right-hand side (the lemma: mean <= 0); ratio 1 + "
                                  "(regret - rhs) / rhs = regret / rhs",
               "settings": figures,
               "sequences": {s["sequence"]: SEQUENCES[s["sequence"]] for s in config["settings"]}}
    return rules.mean_bound("iln.lemma1.decomposition", points, alpha, details)


_LEMMA1_HEAD = (r"R_T(f^*) \le \frac{B^2}{\eta} + \eta\sum_{t=1}^T \mathbb{E}[\|\nabla_t\|^2] + "
                r"\eta\sum_{t=1}^T V[\bar{\nabla}_t] + \sum_{t=1}^T \frac{(B_T+B)^2}{\eta}")

_LEMMA1_P = (r",\quad P_t(f^*) = \mathbb{P}\left[\|f_t - f^*\| > \|\hat{f}_t - f^*\|\right],\ "
             r"\hat{f}_t = f_{t-1} - \eta\bar{\nabla}_{t-1}")

_LEMMA1_SETTINGS = [
    {"sequence": "orthogonal", "eta": "balanced", "m": 256},
    {"sequence": "near_duplicate_constant", "eta": 0.05, "m": 3},
    {"sequence": "near_duplicate", "eta": 0.2, "m": 1},
    {"sequence": "section6", "eta": "proof", "m": 16},
]


register(Claim(
    id="iln.lemma1.decomposition", title="Lemma 1: regret of online gradient descent with non-gradient (shrink) steps",
    sources=(Source("ICML", "Section 5.1, Lemma 1, eq. (15) (P_t: eq. (14); proof: Appendix B.1)",
                    _LEMMA1_HEAD + r"\mathbb{E}[P_t(f^*)]" + _LEMMA1_P),
             Source("arXiv", "Section 5.1, Lemma 1, eq. (14) (P_t: eq. (13); proof: Appendix B.1)",
                    _LEMMA1_HEAD + r"\mathbb{E}[P_{t+1}(f^*)]" + _LEMMA1_P)),
    # Fixed before running (the module's exact plan): the printed lemma fails for an online
    # algorithm that does not start at f_1 = 0 (the hypothesis its proof uses); with it, the
    # proof leaves a factor 2 to spare, but the exact search cannot cover the domain.
    rule="mean bound", expected=VIOLATED, trial=lemma1_trial, decide=lemma1_decide,
    # Runs are cheap (T = 64), so the sizes are large: the exact interval of the mean rule needs them.
    configs=profiles({"T": 64, "B": 1.0, "data_seed": 11, "settings": _LEMMA1_SETTINGS},
                     smoke={"n_trials": 30}, quick={"n_trials": 1500}, full={"n_trials": 5000}),
    instances="T = 64, B = 1, fixed data and f* = best_in_ball: orthogonal rows once each at the "
              "eta that balances the first two terms (the tightest case, about 1/2), m = 256; "
              "near-duplicate inputs with label +1, eta = 0.05, m = 3 (the learner must travel); "
              "near-duplicate inputs with alternating labels, eta = 0.2, m = 1 (shrinks fire and "
              "P events occur, both indexings); Section 6 data at eta_proof with m = 16 (a large "
              "variance term). " + described(SEQUENCES, ("orthogonal", "near_duplicate_constant", "near_duplicate")),
))

