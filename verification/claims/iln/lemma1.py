"""Lemma 1 (ICML eq. (15); arXiv eq. (14)): regret of online gradient descent with shrink steps.

Every term of its right-hand side is measured on runs of Algorithm 1 on the fixed
sequences of :data:`verification.claims.iln.instances.SEQUENCES`; the mean rule decides
``E[regret - rhs] <= 0`` per sequence and version (the versions index P differently).
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
from verification.verdicts import INCONCLUSIVE, Verdict


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
    # The proof bounds twice the regret by this right-hand side, so the lemma holds with a
    # factor 2 to spare; ICML's sum of P_1..P_T is also valid, since the last round's
    # -||hat f_{T+1} - f*||^2 can be dropped without P_{T+1}. Fixed before running, as holds;
    # inconclusive since the full run of 89c418c and all 20 self-test seeds of 4ba29f8: the
    # statistic (regret minus the right-hand side) has no a-priori upper end, so no interval
    # reaches the run's level at n = 5000 (the t interval, not used, ends at -9.0 against 0).
    rule="mean bound", expected=INCONCLUSIVE, trial=lemma1_trial, decide=lemma1_decide,
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

