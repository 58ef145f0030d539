"""Regret of Algorithm 1: Theorem 1 part 1, Lemma 1, ICML eq. (17) / arXiv eq. (25), Corollary 1.

* ``iln.thm1.regret``: the expected regret against the best predictor of norm at most B is
  at most the explicit bound the proof of Theorem 1 ends with (ICML Section 5.1, eqs.
  (16)-(18); arXiv Appendix C.2, eqs. (24)-(27)), ``theory.regret_bound_proof``, when the
  algorithm runs with the proof's ``eta`` and ``m``; and how the regret grows with T and B.
* ``iln.lemma1.decomposition``: Lemma 1 (ICML eq. (15); arXiv eq. (14)) with every term of
  its right-hand side measured on runs.
* ``iln.eq17.zero_comparator``: ``min_{||f*|| < B} sum_t l_t(f*) <= sum_t l_t(0) <= T``.
* ``iln.cor1.online_to_batch``: Corollary 1, the excess risk of the averaged predictor on
  iid samples; the versions print different sample sizes (ICML ``O(B^2/eps^2)``, arXiv
  ``O(B/eps^2)``), and the arXiv one is recorded as an erratum with a counterexample.

How the mean bounds are decided.  The regret of one run is bounded below, ``R_T >= -T/2``
(the comparator's loss is at most the zero predictor's, eq. (17) / (25)), but above only by
numbers that make every exact-coverage interval vacuous: ``|<f_t, Phi(x_t)>| <= ||f_t|| <=
B_T = (16B+1) eta T`` (arXiv eq. (23)) gives ``R_T <= T (B_T + 1)^2 / 2``, which is ``3.6e7``
at ``T = 1000, B = 1`` against a bound of 131.  The mean rule of
:mod:`verification.rules.mean` therefore finds a violation at its stated level (the lower
end of a variable bounded below is exact) but cannot show that the bound holds: a bootstrap
or t interval at the level the run's family needs does not have that level at the few
seeds these runs allow.  Such points are reported with the reason, and their verdict is
inconclusive unless a violation is found.

Every sequence here is fixed before the learner draws anything (oblivious), as Theorem 1
requires; the adaptive adversary that sees ``f_t`` is outside its statement and is run
for the record only (``details``), never to decide. The rates of the regret in T and in B
(log-log fits resampling whole seeds) are reported next to the theorem's exponents 1/2
and 1 without deciding: a rate over a finite grid is evidence, not proof; the explicit
bound of the proof is what decides.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass

import numpy as np
from scipy.linalg import hadamard

from iln import theory
from iln.comparator import best_in_ball, predict_exact
from iln.comparator import regret as comparator_regret
from iln.data import adversarial_label, alternating_labels, constant_labels, section6_data
from iln.features import FeatureFamily, RandomCoordinate
from iln.random_streams import child, generator
from iln.shrinking_gradient import shrinking_gradient
from verification import rules, statistics
from verification.catalog import Claim, Erratum, Quote, Source, register
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, Verdict

__all__ = ["NEAR_DUPLICATES", "POPULATIONS", "SEQUENCES", "Population", "Sequence", "hadamard_rows",
           "population", "regret_point", "sequence"]

#: entries of the Hadamard and near-duplicate inputs: the largest kernel values random
#: coordinates allow (``k(x, x) = 0.99^2``) while keeping ``|psi| < 1``.
_ENTRY = 0.99
#: two inputs 0.01 apart in one of four coordinates: ``k = 0.980, 0.978, 0.975``.
NEAR_DUPLICATES = np.array([[_ENTRY] * 4, [_ENTRY] * 3 + [0.98]])
#: relative floating-point slack of the deterministic check of eq. (17) (sums of a few hundred terms).
SLACK = 1e-9


# ------------------------------------------------------------------------------------------
# Oblivious sequences and finite populations
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sequence:
    """A sequence ``(x_t, y_t)`` fixed before the run, and the features it is learned with."""

    X: np.ndarray
    y: np.ndarray
    family: FeatureFamily


#: what each sequence is and why it pushes against the regret bounds (shown in the report).
SEQUENCES = {
    "section6": "the ICML Section 6 data (clipped Gaussians, D = 2T random coordinates, labels "
                "a . x of a sparse target), drawn anew for every seed: the paper's benign case",
    "orthogonal": "rows of a Hadamard matrix scaled to 0.99 under random coordinates: k(x, x) = "
                  "0.98, the largest value the family allows, and k(x, x') = 0 between rows, each "
                  "row visited a few times (cyclically) with a label +-1 of its own. The learner "
                  "learns nothing about a row before it comes, while the comparator spreads its "
                  "norm over all rows: the minimax lower-bound construction of online learning "
                  "(regret about B sqrt(kT)), a quarter of the proof's bound",
    "near_duplicate": "two inputs 0.01 apart (entries 0.99; k = 0.98) with contradictory labels "
                      "+1, -1 in turn: the largest gradient every round, in alternating directions",
    "near_duplicate_constant": "the same two inputs, every label +1: the learner must travel to "
                               "a predictor of norm about B, the case where the B^2/eta term binds",
}


def hadamard_rows(n: int) -> tuple[np.ndarray, RandomCoordinate]:
    """n pairwise orthogonal inputs for random coordinates: rows of a Sylvester Hadamard matrix."""
    D = 1 << max(0, (n - 1).bit_length())
    return _ENTRY * hadamard(D).astype(np.float64)[:n], RandomCoordinate(D)


def sequence(name: str, T: int, seed: np.random.SeedSequence, repeats: int = 1) -> Sequence:
    """The sequence called ``name`` (see :data:`SEQUENCES`) with T rounds.

    ``seed`` draws the Section 6 data (the other sequences are deterministic); ``repeats``
    is how many times each orthogonal row is visited.
    """
    if name == "section6":
        data = section6_data(T, 2 * T, seed=seed)
        return Sequence(data.X, data.y, RandomCoordinate(2 * T))
    if name == "orthogonal":
        n = math.ceil(T / repeats)
        rows, family = hadamard_rows(n)
        which = np.arange(T) % n
        return Sequence(rows[which], np.where(which % 2 == 0, 1.0, -1.0), family)
    if name in ("near_duplicate", "near_duplicate_constant"):
        labels = alternating_labels(T) if name == "near_duplicate" else constant_labels(T)
        return Sequence(NEAR_DUPLICATES[np.arange(T) % 2], labels, RandomCoordinate(NEAR_DUPLICATES.shape[1]))
    raise ValueError(f"unknown sequence {name!r}; known: {sorted(SEQUENCES)}")


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: cached per name
class Population:
    """A distribution of ``(x, y)`` on finitely many pairs, so that its risk is exact.

    ``L(f) = sum_j p_j (<f, Phi(x_j)> - y_j)^2 / 2`` (ICML eq. (8); arXiv Section 2). Written
    as ``sum_j (<f, sqrt(p_j) Phi(x_j)> - sqrt(p_j) y_j)^2 / 2`` it is the cumulative loss of
    the weighted points ``sqrt(p_j) Phi(x_j)``, whose Gram matrix is ``P K P`` with
    ``P = diag(sqrt(p))``, at labels ``sqrt(p_j) y_j`` in ``[-1, 1]``: so
    ``inf_{||f|| <= B} L(f)`` is ``best_in_ball(P K P, sqrt(p) y, B).total_loss``, exactly.
    """

    X: np.ndarray
    y: np.ndarray
    p: np.ndarray
    family: FeatureFamily

    @functools.cached_property
    def K(self) -> np.ndarray:
        """The oracle Gram matrix of the support (checker side)."""
        return self.family.kernel(self.X)

    def risk(self, predictions: np.ndarray) -> float:
        """``L(f)`` from the exact predictions ``<f, Phi(x_j)>`` on the support."""
        return 0.5 * float(self.p @ (predictions - self.y) ** 2)

    @functools.cache  # noqa: B019 - a population lives as long as the module's cache of them
    def best_risk(self, B: float) -> float:
        """``inf_{||f|| <= B} L(f)`` (the open ball of Section 2 has the same infimum)."""
        w = np.sqrt(self.p)
        return best_in_ball(w[:, None] * self.K * w[None, :], w * self.y, B).total_loss


#: what each population is and why it pushes against Corollary 1 (shown in the report).
POPULATIONS = {
    "orthogonal": "128 Hadamard rows (k(x, x) = 0.98, orthogonal to each other) with labels "
                  "+-1, uniform: what a sample teaches about one point says nothing about the "
                  "others, the batch form of the minimax construction",
    "section6": "256 points of the ICML Section 6 data (D = 512), uniform: the paper's setting "
                "with the population known exactly",
    "noisy_near_duplicate": "the two near-duplicate inputs with noisy labels: y = +1 w.p. 0.45 "
                            "and -1 w.p. 0.05 at the first, +1 w.p. 0.35 and -1 w.p. 0.15 at the "
                            "second: conditional means 0.8 and 0.4 on almost the same input, which "
                            "no predictor of norm 1 separates, and label noise on top",
}


@functools.cache
def population(name: str) -> Population:
    """The population called ``name`` (see :data:`POPULATIONS`)."""
    if name == "orthogonal":
        rows, family = hadamard_rows(128)
        return Population(rows, np.where(np.arange(128) % 2 == 0, 1.0, -1.0), np.full(128, 1 / 128), family)
    if name == "section6":
        data = section6_data(256, 512, seed=6)
        return Population(data.X, data.y, np.full(256, 1 / 256), RandomCoordinate(512))
    if name == "noisy_near_duplicate":
        X = NEAR_DUPLICATES[[0, 0, 1, 1]]
        return Population(X, np.array([1.0, -1.0, 1.0, -1.0]), np.array([0.45, 0.05, 0.35, 0.15]),
                          RandomCoordinate(NEAR_DUPLICATES.shape[1]))
    raise ValueError(f"unknown population {name!r}; known: {sorted(POPULATIONS)}")


def regret_point(key: str, values, B: float, T: int, bound: float | None = None,
                 sequence_name: str | None = None, repeats: int = 1) -> rules.MeanPoint:
    """A mean-rule point for the regret of runs at ``(B, T)`` with the proof's ``eta``, against
    ``regret_bound_proof(B, T)``: in ``[-T/2, T (B_T + 1)^2 / 2]`` (:func:`_a_priori_range`).

    With ``sequence_name`` (and its ``repeats``), the lower end is the sharper one of that
    sequence when it is fixed before the run (every sequence but ``section6``, which each seed
    draws anew): the losses ``l_t(f_t)`` are at least 0, so the regret is at least minus the
    comparator's cumulative loss ``min_{||f|| <= B} sum_t l_t(f)``, a number of the sequence
    alone (eq. (17) / (25) bounds it by ``T/2``).  Without it the violation side of a point
    whose regret is of order ``sqrt(T)`` needs ``O(T)`` seeds to see a bound exceeded by a
    constant factor; with it, a number of seeds independent of ``T``.
    """
    bound = float(theory.regret_bound_proof(B, T)) if bound is None else bound
    span = _a_priori_range(B, T)
    comparator = None if sequence_name is None else _oblivious_comparator_loss(sequence_name, T, B, repeats)
    lower = span["low"] if comparator is None else -comparator
    return rules.MeanPoint(key=key, values=[float(v) for v in values], bound=bound, lower=lower,
                           upper=span["high"], instance={"B": B, "T": T, "regret_lower_end": lower})


@functools.cache
def _oblivious_comparator_loss(name: str, T: int, B: float, repeats: int) -> float | None:
    """``min_{||f|| <= B} sum_t l_t(f)`` on the sequence ``name`` when it does not depend on
    the seed (None for ``section6``): what :func:`regret_point`'s lower end subtracts."""
    if name == "section6":
        return None
    seq = sequence(name, T, np.random.SeedSequence(0), repeats)
    return float(best_in_ball(seq.family.kernel(seq.X), seq.y, B).total_loss)


def _a_priori_range(B: float, T: int) -> dict:
    """One run's regret range from arXiv eq. (23): ``[-T/2, T (B_T + 1)^2 / 2]``."""
    B_T = float(theory.f_norm_bound(B, theory.eta_proof(B, T), T))
    return {"B": B, "T": T, "B_T": B_T, "low": -T / 2, "high": T * (B_T + 1) ** 2 / 2,
            "bound": float(theory.regret_bound_proof(B, T))}


# ------------------------------------------------------------------------------------------
# iln.thm1.regret
# ------------------------------------------------------------------------------------------


def _regret_points(config) -> list[dict]:
    """The (sequence, B, T) points of the check: the T grid, the worst cases, the B grid."""
    points = [(name, 1.0, T) for name in config["rate_sequences"] for T in config["T_grid"]]
    points += [(name, 1.0, T) for name in config["worst_sequences"] for T in config["worst_T"]]
    points += [(config["B_sequence"], float(B), config["B_rounds"]) for B in config["B_grid"]]
    return [{"key": f"{n}/B={B:g}/T={T}", "sequence": n, "B": B, "T": T}
            for n, B, T in dict.fromkeys(points)]


def _adaptive_adversary(K):
    """Labels farthest from the learner's exact prediction ``<f_t, Phi(x_t)>`` (sees f_t)."""

    def label(t, x_t, alpha, X_past):
        return adversarial_label(float(K[t - 1, : t - 1] @ alpha))

    return label


def regret_trial(config, seed) -> dict:
    """One run per point at the proof's ``eta`` and ``m``; its regret against ``best_in_ball``.

    Also one run against the adaptive adversary (reported only), and each run's wall time,
    the one entry of the record that is not a function of the seed: the report states how
    long the proof's ``m`` takes at the largest T (``iln.thm1.runtime`` measures speed).
    """
    record = {}
    for j, point in enumerate(_regret_points(config)):
        seq = sequence(point["sequence"], point["T"], child(seed, j, 0), config["repeats"])
        start = time.perf_counter()
        run = shrinking_gradient(seq.X, seq.y, seq.family, B=point["B"], seed=child(seed, j, 1),
                                 oracle=seq.family.kernel)
        seconds = time.perf_counter() - start
        best = best_in_ball(seq.family.kernel(seq.X), seq.y, point["B"])
        record[point["key"]] = {"regret": comparator_regret(run.trace.loss_exact, best),
                                "shrinks": int(run.trace.shrink.sum()), "seconds": seconds}
    T = config["adaptive_T"]
    seq = sequence("near_duplicate", T, child(seed, j + 1, 0))
    K = seq.family.kernel(seq.X)
    run = shrinking_gradient(seq.X, _adaptive_adversary(K), seq.family, B=1.0,
                             seed=child(seed, j + 1, 1), oracle=seq.family.kernel)
    best = best_in_ball(K, run.trace.labels, 1.0)
    record["adaptive"] = {"regret": comparator_regret(run.trace.loss_exact, best), "T": T,
                          "shrinks": int(run.trace.shrink.sum())}
    return record


def _rate(sizes, values, exponent: float, seed: int) -> dict:
    """The log-log slope of per-seed values over a grid (statistics.loglog_fit), for the report."""
    values = np.asarray(values, dtype=np.float64)
    if len(set(sizes)) < 2:  # a statement mutant's check runs at one size (its counterexample's)
        return {"fitted": False, "reason": "fewer than two sizes", "theorem_exponent": exponent}
    if np.any(values <= 0):
        return {"fitted": False, "reason": "a seed's regret is not positive at some size",
                "theorem_exponent": exponent}
    fit = statistics.loglog_fit(np.asarray(sizes, dtype=np.float64), values, 0.95, seed)
    return {"fitted": True, "sizes": [float(s) for s in sizes], "slope": fit.slope,
            "bootstrap_95": [fit.slope_bootstrap.low, fit.slope_bootstrap.high],
            "ols_95": [fit.slope_interval.low, fit.slope_interval.high], "r_squared": fit.r_squared,
            "mean_regret": values.mean(axis=0).tolist(), "theorem_exponent": exponent,
            "n_seeds": fit.n_seeds}


def regret_decide(records, config, alpha) -> Verdict:
    """Mean rule at every point against ``regret_bound_proof(B, T)``; rates for the report.

    The claim's alpha is split over the points. The rates (slopes of log mean regret in
    log T and in log B, 95% intervals resampling whole seeds) are reported against the
    theorem's exponents 1/2 and 1 and do not decide: a rate over a finite grid is evidence,
    not proof.
    """
    points = _regret_points(config)
    mean_points = [regret_point(p["key"], [r[p["key"]]["regret"] for r in records], p["B"], p["T"],
                                sequence_name=p["sequence"], repeats=config["repeats"])
                   for p in points]
    rates = {}
    for j, name in enumerate(config["rate_sequences"]):
        values = [[r[f"{name}/B=1/T={T}"]["regret"] for T in config["T_grid"]] for r in records]
        rates[f"T/{name}"] = _rate(config["T_grid"], values, 0.5, seed=100 + j)
    B_keys = [f"{config['B_sequence']}/B={float(B):g}/T={config['B_rounds']}" for B in config["B_grid"]]
    rates[f"B/{config['B_sequence']}"] = _rate(config["B_grid"], [[r[k]["regret"] for k in B_keys] for r in records],
                                               1.0, seed=200)
    T_max = max(config["T_grid"])
    seconds = [r[f"section6/B=1/T={T_max}"]["seconds"] for r in records] if "section6" in config["rate_sequences"] else []
    adaptive = [r["adaptive"]["regret"] for r in records]
    T_adaptive = config["adaptive_T"]
    details = {
        "rates": rates,
        "rate_note": "slopes over a finite grid are evidence, not proof; they do not decide",
        "seconds_section6_largest_T": {"T": T_max, "m": theory.m_proof(1.0, T_max),
                                       "samples": theory.total_feature_samples(1.0, T_max),
                                       "median_s": float(np.median(seconds)) if seconds else None,
                                       "max_s": max(seconds) if seconds else None},
        "a_priori_range": _a_priori_range(1.0, T_max),
        "shrinks": {p["key"]: sum(r[p["key"]]["shrinks"] for r in records) for p in points},
        "adaptive_adversary": {"T": T_adaptive, "mean_regret": float(np.mean(adaptive)),
                               "bound": float(theory.regret_bound_proof(1.0, T_adaptive)),
                               "note": "labels chosen after seeing f_t: outside Theorem 1 "
                                       "(oblivious sequences); reported, not decided"},
        "sequences": {n: SEQUENCES[n] for n in {p["sequence"] for p in points}},
    }
    return rules.mean_bound("iln.thm1.regret", mean_points, alpha, details)


_THM1 = (r"\mathbb{E}\left[\sum_{t=1}^T \ell_t(f_t) - \min_{f^*\in\mathcal{H}^B_\mu}\sum_{t=1}^T "
         r"\ell_t(f^*)\right] = O(B\sqrt{T})")
_THM1_ARXIV = (r"\mathbb{E}\left[\sum_{t=1}^{T} \ell_t(f_t) - \min_{f^* \in \mathcal{H}_{\mathcal{B}}^B} "
               r"\ell_t(f^*)\right] = O(B\sqrt{T})")
_PROOF_END = (r",\quad (1 - 2\eta)\,\mathbb{E}[R_T(f^*)] \le \frac{B^2}{\eta} + 2\eta T + \eta T + \eta T,"
              r"\ \eta = \frac{B}{2\sqrt{T}},\ m = ((16B+1)B)^2 T\log\gamma")


def _regret_config(n_trials, T_grid, worst_T, B_grid, adaptive_T):
    return {"n_trials": n_trials, "T_grid": T_grid, "rate_sequences": ["section6", "orthogonal"],
            "worst_sequences": ["near_duplicate", "near_duplicate_constant"], "worst_T": worst_T, "B_sequence": "orthogonal",
            "B_grid": B_grid, "B_rounds": theory.min_T_for_proof(max(B_grid)), "repeats": 4,
            "adaptive_T": adaptive_T}


register(Claim(
    id="iln.thm1.regret",
    title="Expected regret of Algorithm 1 is O(B sqrt(T)), with the proof's explicit bound",
    sources=(
        Source("ICML", "Section 3, Theorem 1, part 1; proof in Section 5.1, eqs. (16)-(18)",
               _THM1 + _PROOF_END),
        Source("arXiv", "Section 3, Theorem 1, part 1; proof in Appendix C.2, eqs. (23)-(27)",
               _THM1_ARXIV + _PROOF_END),
    ),
    rule="mean bound",
    # The proof's chain (Lemma 1, Lemma 3 / arXiv 6, eq. 17 / 25) is sound, and the errors of
    # the printed Hoeffding tail and Lemma 2 are absorbed by m_proof's margin (theory.
    # regret_bound_proof's docstring); the minimax construction reaches about a quarter of the
    # bound (regret ~ B sqrt(kT) against ~ 4 B sqrt(T)). Fixed before running.
    expected=HOLDS,
    configs={
        # Sample sizes are set by the run-time budget (m_proof makes a run at T = 1000 cost
        # 5.6e9 samples, and one at B = 4, T = 257 8.7e10): a bootstrap over seeds has no
        # distribution-free sample-size plan; the power is reported from the sample sd.
        "smoke": _regret_config(4, [32, 64], [64], [1, 1.5], 32),
        "quick": _regret_config(40, [32, 64, 128, 256], [256], [1, 1.5, 2], 64),
        "full": _regret_config(6, [64, 128, 256, 512, 1000], [1000], [1, 2, 4], 64),
    },
    trial=regret_trial,
    decide=regret_decide,
    instances="oblivious sequences at the proof's eta = B/(2 sqrt T) and m = m_proof(B, T): "
              + "; ".join(f"{k}: {SEQUENCES[k]}" for k in ("section6", "orthogonal", "near_duplicate"))
              + ". The T grid (B = 1) runs on section6 and orthogonal, the B grid at T = "
                "min_T_for_proof(max B) (Lemma 2's eta < 1/8) on orthogonal; an adaptive adversary "
                "on the near-duplicate inputs is reported, not decided.",
))


# ------------------------------------------------------------------------------------------
# iln.lemma1.decomposition
# ------------------------------------------------------------------------------------------


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


def _shrink_penalty_events(run, K, beta, eta) -> list[int]:
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
    mean ``V[bar nabla_t]``), and the P events of :func:`_shrink_penalty_events`, counted
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
        events = _shrink_penalty_events(run, K, np.asarray(best.beta), eta)
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


def lemma1_decide(records, config, alpha) -> Verdict:
    """Mean rule on ``regret - rhs`` per run, per setting and version: E[.] <= 0.

    ``rhs`` is :func:`iln.theory.lemma1_rhs` of the run's own terms with ``B_T = (16B+1)
    eta T`` (arXiv eq. (23)); by linearity its mean is the lemma's right-hand side, so
    ``E[regret - rhs] <= 0`` is the lemma. The tightness is ``E[regret] / rhs``.
    """
    T, B = config["T"], config["B"]
    settings = config["settings"]
    points, figures = [], {}
    for setting in settings:
        name = setting["sequence"]
        seq, K = _fixed_sequence(name, T, config["data_seed"])
        eta = _step_size(setting["eta"], B, T, K)
        B_T = float(theory.f_norm_bound(B, eta, T))
        comparator_loss = _fixed_comparator(name, T, config["data_seed"], B).total_loss
        terms = {key: np.array([r[name][key] for r in records], dtype=np.float64)
                 for key in ("regret", "grad_sq", "grad_var", "events_icml", "events_arxiv")}
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
    details = {"statistic_units": "regret - right-hand side (the lemma: mean <= 0); ratio 1 + "
                                  "(regret - rhs) / rhs = regret / rhs",
               "settings": figures,
               "sequences": {s["sequence"]: SEQUENCES[s["sequence"]] for s in settings}}
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
    id="iln.lemma1.decomposition",
    title="Lemma 1: regret of online gradient descent with non-gradient (shrink) steps",
    sources=(
        Source("ICML", "Section 5.1, Lemma 1, eq. (15) (P_t: eq. (14); proof: Appendix B.1)",
               _LEMMA1_HEAD + r"\mathbb{E}[P_t(f^*)]" + _LEMMA1_P),
        Source("arXiv", "Section 5.1, Lemma 1, eq. (14) (P_t: eq. (13); proof: Appendix B.1)",
               _LEMMA1_HEAD + r"\mathbb{E}[P_{t+1}(f^*)]" + _LEMMA1_P),
    ),
    rule="mean bound",
    # The proof bounds twice the regret by this right-hand side, so the lemma holds with a
    # factor 2 to spare; ICML's sum of P_1..P_T is also valid, since the last round's
    # -||hat f_{T+1} - f*||^2 can be dropped without P_{T+1}. Fixed before running.
    expected=HOLDS,
    configs={
        # Runs are cheap (T = 64), so the sizes are large; bootstrap, power from the sample sd.
        "smoke": {"n_trials": 30, "T": 64, "B": 1.0, "data_seed": 11, "settings": _LEMMA1_SETTINGS},
        "quick": {"n_trials": 1500, "T": 64, "B": 1.0, "data_seed": 11, "settings": _LEMMA1_SETTINGS},
        "full": {"n_trials": 5000, "T": 64, "B": 1.0, "data_seed": 11, "settings": _LEMMA1_SETTINGS},
    },
    trial=lemma1_trial,
    decide=lemma1_decide,
    instances="T = 64, B = 1, fixed data and f* = best_in_ball: orthogonal rows once each at the "
              "eta that balances the first two terms (the tightest case, about 1/2), m = 256; "
              "near-duplicate inputs with label +1, eta = 0.05, m = 3 (the learner must travel); "
              "near-duplicate inputs with alternating labels, eta = 0.2, m = 1 (shrinks fire and "
              "P events occur, both indexings); Section 6 data at eta_proof with m = 16 (a large "
              "variance term). " + "; ".join(f"{k}: {SEQUENCES[k]}" for k in
                                            ("orthogonal", "near_duplicate_constant", "near_duplicate")),
))


# ------------------------------------------------------------------------------------------
# iln.eq17.zero_comparator
# ------------------------------------------------------------------------------------------

_EQ17_LABELS = ("alternating", "constant", "random_signs", "uniform", "section6")
_EQ17_INPUTS = ("orthogonal", "near_duplicate", "section6", "zero")


def _eq17_inputs(name: str, T: int) -> tuple[np.ndarray, FeatureFamily]:
    if name == "zero":
        # No predictor can move its predictions: the first inequality is an equality.
        return np.zeros((T, 4)), RandomCoordinate(4)
    seq = sequence(name, T, np.random.SeedSequence(17))
    return seq.X, seq.family


def _eq17_labels(name: str, T: int, seed) -> np.ndarray:
    rng = generator(seed)
    if name == "alternating":
        return alternating_labels(T)
    if name == "constant":
        return constant_labels(T)
    if name == "random_signs":
        return rng.choice([-1.0, 1.0], size=T)
    if name == "uniform":
        return rng.uniform(-1.0, 1.0, size=T)
    return np.asarray(section6_data(T, 2 * T, seed=seed).y)


def zero_comparator_trial(config, seed) -> dict:
    """Per (inputs, labels, T, B): the comparator's loss and the zero predictor's loss."""
    record = {}
    cases = [(i, lab, T, B) for i in config["inputs"] for lab in config["labels"]
             for T in config["T"] for B in config["B"]]
    for j, (inputs, labels, T, B) in enumerate(cases):
        X, family = _eq17_inputs(inputs, T)
        y = _eq17_labels(labels, T, child(seed, j))
        best = best_in_ball(family.kernel(X), y, B)
        record[f"{inputs}/{labels}/T={T}/B={B:g}"] = {
            "comparator": best.total_loss, "zero": math.fsum(0.5 * y**2), "T": T}
    return record


def zero_comparator_decide(records, config, alpha) -> Verdict:
    """Deterministic invariant: ``min <= sum l_t(0) (1 + SLACK)`` and ``sum l_t(0) <= T`` on
    every case; the tightness is against the printed ``T`` (at most 1/2 since |y_t| <= 1)."""
    first_worst, second_worst, violations, exact_ratio = None, None, [], 0.0
    for index, record in enumerate(records):
        for key, r in record.items():
            first = r["comparator"] / r["zero"] if r["zero"] > 0 else 0.0
            second = r["zero"] / float(theory.zero_comparator_loss_bound(r["T"]))
            exact_ratio = max(exact_ratio, r["zero"] / float(theory.zero_comparator_loss_exact_bound(r["T"])))
            if r["comparator"] > r["zero"] * (1 + SLACK) + SLACK or second > 1 + SLACK:
                violations.append({"trial_index": index, "case": key, **r})
            if first_worst is None or first > first_worst[0]:
                first_worst = (first, index, key)
            if second_worst is None or second > second_worst[0]:
                second_worst = (second, index, key)
    ratio = second_worst[0]
    cases = sum(len(record) for record in records)
    return rules.invariant(
        "iln.eq17.zero_comparator", broken=bool(violations), share=len(violations) / cases, checked=cases,
        alpha=alpha, counterexample=violations[0] if violations else None, n_trials=len(records),
        statistic=ratio, bound=1.0, rule="deterministic invariant (every label sequence of every trial)",
        details={"max_sum_loss_at_zero_over_T": ratio, "worst_case_second_inequality": second_worst[2],
                 "max_comparator_over_zero_loss": first_worst[0],
                 "worst_case_first_inequality": first_worst[2],
                 "max_sum_loss_at_zero_over_exact_bound_T_over_2": exact_ratio, "slack": SLACK,
                 "note": "sum_t l_t(0) = sum_t y_t^2 / 2 <= T/2 (theory.zero_comparator_loss_exact_"
                         "bound), attained when every |y_t| = 1: the printed T is valid and loose "
                         "by a factor 2; the comparator equals the zero predictor's loss on the "
                         "zero inputs"},
    )


_EQ17 = (r"\min_{\|f^*\| < B}\sum_{t=1}^T \ell_t(f^*) \le \sum_{t=1}^T \ell_t(0) \le T")

register(Claim(
    id="iln.eq17.zero_comparator",
    title="The comparator's loss is at most the zero predictor's, at most T",
    sources=(Source("ICML", "Section 5.1, proof of Theorem 1, eq. (17)", _EQ17),
             Source("arXiv", "Appendix C.2, proof of Theorem 1, eq. (25)", _EQ17)),
    rule="deterministic invariant",
    # f = 0 lies in every ball and l_t(0) = y_t^2/2 <= 1/2: true, with T/2 in place of T.
    expected=HOLDS,
    configs={
        "smoke": {"n_trials": 2, "T": [64], "B": [1.0, 4.0], "inputs": list(_EQ17_INPUTS),
                  "labels": list(_EQ17_LABELS)},
        "quick": {"n_trials": 10, "T": [64, 256], "B": [1.0, 4.0], "inputs": list(_EQ17_INPUTS),
                  "labels": list(_EQ17_LABELS)},
        "full": {"n_trials": 20, "T": [64, 256], "B": [1.0, 4.0], "inputs": list(_EQ17_INPUTS),
                 "labels": list(_EQ17_LABELS)},
    },
    trial=zero_comparator_trial,
    decide=zero_comparator_decide,
    instances="label sequences alternating +-1, constant +1, random signs and the section 6 labels "
              "(all with max |y_t| = 1, where sum_t l_t(0) = T/2 is attained), and uniform on "
              "[-1, 1]; on orthogonal rows, near-duplicate inputs, Section 6 inputs and all-zero "
              "inputs (where no predictor beats 0); B = 1 and 4",
))


# ------------------------------------------------------------------------------------------
# iln.cor1.online_to_batch
# ------------------------------------------------------------------------------------------


def _batch_points(config) -> list[dict]:
    return [{"key": f"{name}/B={B:g}/eps={eps:g}", "population": name, "B": float(B), "eps": eps,
             "T": theory.corollary1_T(B, eps)}
            for name in config["populations"] for B, eps in config["B_eps"]]


def online_to_batch_trial(config, seed) -> dict:
    """Per point: an iid sample of size T = corollary1_T(B, eps), a run at the proof's eta and
    m, and the exact excess risk ``L(f_S) - inf_{||f|| <= B} L(f)`` of the averaged predictor."""
    record = {}
    for j, point in enumerate(_batch_points(config)):
        pop = population(point["population"])
        sample = generator(child(seed, j, 0)).choice(pop.p.size, size=point["T"], p=pop.p)
        run = shrinking_gradient(pop.X[sample], pop.y[sample], pop.family, B=point["B"],
                                 seed=child(seed, j, 1))
        risk = pop.risk(predict_exact(run.alpha_mean, pop.K[:, sample]))
        record[point["key"]] = {"excess": risk - pop.best_risk(point["B"]), "risk": risk}
    return record


def constant_input_excess(B: float, T: int) -> float:
    """Excess risk of ``f_S`` on the point mass of the arXiv counterexample, in closed form.

    ``x`` with ``psi(x; w) = c = 0.999 / B`` for every ``w`` (random coordinates in
    dimension 1), ``y = 1``: ``k(x, x) = c^2`` and ``inf_{||f|| <= B} L = (1 - Bc)^2 / 2``.
    Every estimate of Algorithm 2 is exact here (all ``alpha_i > 0`` and ``psi`` constant),
    so with ``eta = eta_proof(B, T)`` the run is ``p_{t+1} = p_t + eta c^2 (1 - p_t)``,
    ``p_1 = 0``, and ``f_S`` predicts ``mean_t p_t = 1 - (1 - r^T) / (T (1 - r))`` with
    ``r = 1 - eta c^2``. (The tests check this against :func:`shrinking_gradient`.)
    """
    c = 0.999 / B
    rate = float(theory.eta_proof(B, T)) * c * c
    # 1 - r^T through expm1/log1p: r is within 1e-6 of 1 at large B.
    gap = -math.expm1(T * math.log1p(-rate)) / (T * rate)
    return 0.5 * gap**2 - 0.5 * (1.0 - B * c) ** 2


def arxiv_rate_check(eps: float, B_grid) -> dict:
    """The arXiv ``T = O(B / eps^2)`` with its constant fixed where the versions agree (B = 1).

    ``T_arXiv(B) = ceil(B * corollary1_T(1, eps))`` against ``T_ICML(B) = corollary1_T(B,
    eps)``, on the point mass of :func:`constant_input_excess`.
    """
    T1 = theory.corollary1_T(1.0, eps)
    rows = {}
    for B in B_grid:
        T_arxiv, T_icml = math.ceil(B * T1), theory.corollary1_T(B, eps)
        rows[f"B={B:g}"] = {"B": float(B), "T_arXiv": T_arxiv, "excess_arXiv": constant_input_excess(B, T_arxiv),
                            "T_ICML": T_icml, "excess_ICML": constant_input_excess(B, T_icml)}
    # The excess risk at T_arXiv grows with B (u = sqrt(T) / (2B) falls), so the first
    # integer B that fails is the smallest counterexample of this family.
    smallest = next((B for B in range(1, math.ceil(max(B_grid)) + 1)
                     if constant_input_excess(B, math.ceil(B * T1)) > eps), None)
    return {"eps": eps, "T_at_B_1": T1, "points": rows, "smallest_B": smallest,
            "smallest_T": None if smallest is None else math.ceil(smallest * T1),
            "violated": any(r["excess_arXiv"] > eps for r in rows.values())}


def online_to_batch_decide(records, config, alpha) -> Verdict:
    """Mean rule at every point against ``online_to_batch_excess_risk(B, T)`` (the ICML rate
    with the proof's constants: the corrected statement), and the deterministic check that
    the arXiv rate fails. holds_after_correction when the arXiv rate fails and the mean rule
    holds everywhere."""
    points = []
    for point in _batch_points(config):
        # 0 <= excess risk <= (B_T + 1)^2 / 2: f_S's norm is at most B_T like every f_t's.
        B_T = float(theory.f_norm_bound(point["B"], theory.eta_proof(point["B"], point["T"]), point["T"]))
        points.append(rules.MeanPoint(
            key=point["key"], values=[r[point["key"]]["excess"] for r in records],
            bound=float(theory.online_to_batch_excess_risk(point["B"], point["T"])), lower=0.0,
            upper=(B_T + 1) ** 2 / 2, instance={"B": point["B"], "T": point["T"], "eps": point["eps"]}))
    arxiv = arxiv_rate_check(config["arxiv_eps"], config["arxiv_B"])
    details = {"arxiv_rate": arxiv, "populations": {n: POPULATIONS[n] for n in config["populations"]}}
    # The corrected statement's mean rule and the printed (arXiv) rate's exact check, each at
    # alpha / 2 (rules.with_correction); the exact check makes no error of its own.
    corrected = rules.mean_bound("iln.cor1.online_to_batch", points, alpha / 2, details)
    bad = max(arxiv["points"].values(), key=lambda r: r["excess_arXiv"])
    counterexample = {"version": "arXiv", "instance": "point mass, psi = 0.999/B, y = 1",
                      "eps": arxiv["eps"], "smallest_B": arxiv["smallest_B"],
                      "smallest_T": arxiv["smallest_T"], **bad} if arxiv["violated"] else None
    printed = rules.invariant("iln.cor1.online_to_batch", broken=arxiv["violated"],
                              share=sum(r["excess_arXiv"] > arxiv["eps"] for r in arxiv["points"].values())
                              / len(arxiv["points"]),
                              checked=len(arxiv["points"]), alpha=alpha / 2, counterexample=counterexample,
                              n_trials=len(records), details=details, statistic=bad["excess_arXiv"],
                              bound=arxiv["eps"],
                              rule="exact arXiv rate (every B of the grid) against eps, then the mean rule")
    return rules.with_correction(printed, corrected, alpha)


_COR1_RISK = r"\mathbb{E}_{S\sim\mathbb{P}}[L(f_S)] < \inf_{f^*\in\mathcal{H}^B_\mu} L(f^*) + \epsilon,\quad f_S = \frac{1}{T}\sum_t f_t"
_COR1_ICML = r"T = O\left(\frac{B^2}{\epsilon^2}\right):\ " + _COR1_RISK
_COR1_ARXIV = r"T = O\left(\frac{B}{\epsilon^2}\right):\ " + _COR1_RISK
_COR1_CORRECTED = (r"\mathbb{E}[L(f_S)] - \inf_{\|f\|\le B} L(f) \le \frac{4B}{\sqrt{T} - B}"
                   r"\ \ (\eta = \tfrac{B}{2\sqrt{T}},\ m = m_{\mathrm{proof}}),\ \text{so } "
                   r"T = \left\lceil B^2 (1 + 4/\epsilon)^2\right\rceil = O(B^2/\epsilon^2)\text{ suffices}")
_ARXIV_B = [1, 4, 16, 64, 256]

register(Claim(
    id="iln.cor1.online_to_batch",
    title="Corollary 1: excess risk of the averaged predictor on iid samples",
    sources=(Source("ICML", "Section 3, Corollary 1", _COR1_ICML),
             Source("arXiv", "Section 3, Corollary 1", _COR1_ARXIV)),
    rule="mean bound",
    # The online-to-batch conversion of the explicit regret bound gives 4B/(sqrt T - B), so
    # T must grow as B^2/eps^2 (ICML); arXiv's B/eps^2 contradicts its own Theorem 1 and
    # Related Work, and fails on a point mass (closed form). Fixed before running.
    expected=HOLDS_AFTER_CORRECTION,
    configs={
        "smoke": {"n_trials": 10, "populations": list(POPULATIONS), "B_eps": [[1, 1.0], [1, 0.8]],
                  "arxiv_eps": 0.3, "arxiv_B": _ARXIV_B},
        "quick": {"n_trials": 60, "populations": list(POPULATIONS), "B_eps": [[1, 0.5], [1, 0.3]],
                  "arxiv_eps": 0.3, "arxiv_B": _ARXIV_B},
        "full": {"n_trials": 40, "populations": list(POPULATIONS),
                 "B_eps": [[1, 0.5], [1, 0.3], [1, 0.2], [1.5, 0.5]], "arxiv_eps": 0.3, "arxiv_B": _ARXIV_B},
    },
    trial=online_to_batch_trial,
    decide=online_to_batch_decide,
    instances="iid samples of size T = corollary1_T(B, eps) from finite-support distributions "
              "(L and its infimum exact): " + "; ".join(f"{k}: {v}" for k, v in POPULATIONS.items())
              + ". The arXiv rate is checked in closed form on a point mass with psi = 0.999/B, y = 1.",
    erratum=Erratum(
        claim_id="iln.cor1.online_to_batch",
        printed={
            "ICML": _COR1_ICML + r"\quad\text{(Corollary 1; Related Work: } O(\frac{B^2}{\epsilon^2})"
                    r"\text{ examples)}",
            "arXiv": _COR1_ARXIV + r"\quad\text{(Corollary 1; Related Work: } O(\frac{B}{\epsilon^2})"
                     r"\text{ examples, and one paragraph later } O(\frac{B^2}{\epsilon^2})\text{ samples)}",
        },
        counterexample="The arXiv version contradicts itself: its Related Work says both O(B/eps^2) "
                       "examples and O(B^2/eps^2) samples, and its Theorem 1 (regret O(B sqrt T)) "
                       "gives excess risk O(B/sqrt T), hence T = O(B^2/eps^2). On the point mass "
                       "psi(x; w) = c = 0.999/B for every w, y = 1 (inf L = 5e-7), every estimate of "
                       "Algorithm 2 is exact and the run is p_{t+1} = p_t + eta c^2 (1 - p_t): with "
                       "eta = B/(2 sqrt T), f_S has excess risk ((1 - e^-u)/u)^2/2 roughly, "
                       "u = sqrt(T)/(2B). For T = C B/eps^2, u -> 0 as B grows, so the excess risk "
                       "tends to 1/2 > eps for every constant C. With the constant at which the "
                       "versions agree at B = 1 (T = 206 for eps = 0.3, so T = ceil(206 B)), the "
                       "smallest integer B that fails is 180 (T = 37080, excess risk 0.3002 > 0.3); "
                       "B = 256 and T = 52736 give 0.325, while the ICML T = 13464008 gives 0.0098.",
        corrected=_COR1_CORRECTED,
        check="iln.cor1.online_to_batch checks the corrected excess risk bound at T = "
              "corollary1_T(B, eps) on finite-support distributions (mean rule over seeds) and "
              "recomputes the point-mass counterexample in closed form; the verdict is "
              "holds_after_correction when the bound holds at every point and the arXiv rate fails.",
        quotes=(
            Quote("ICML", "Section 3, Corollary 1",
                  r"Run Algorithm 1 as in Theorem 1, with $T = O(\frac{B^2}{\epsilon^2})$."),
            Quote("ICML", "Section 4, Related Work",
                  r"Our algorithm needs $O(\frac{B^2}{\epsilon^2})$ examples which is considerably better."),
            Quote("arXiv", "Section 3, Corollary 1",
                  r"Run Algorithm 1 as in Theorem 1, with $T = O(\frac{B}{\epsilon^2})$."),
            Quote("arXiv", "Section 4, Related Work", r"Our algorithm needs $O(\frac{B}{\epsilon^2})$ examples."),
            Quote("arXiv", "Section 4, Related Work, one paragraph later",
                  r"using $O(\frac{B^2}{\epsilon^2})$ samples, will, in expectation, output a predictor "
                  r"that is $\epsilon$ close to the best in $\mathcal{H}^B_\mu$"),
        ),
    ),
))
