"""Regret of Algorithm 1: ICML and arXiv Theorem 1, part 1, with the proof's explicit bound.

``iln.thm1.regret``: Theorem 1 runs Algorithm 1 *as printed* with ``B >= 1``, ``eta = B/sqrt(T)``
and ``m = O(B^4 T log(BT))`` and states ``E[sum_t l_t(f_t) - min_{||f*|| <= B} sum_t l_t(f*)] =
O(B sqrt T)`` for every (oblivious) sequence of squared losses; its proof (ICML Section 5.1,
eqs. (16)-(18); arXiv Appendix C.2, eqs. (23)-(27)) sets ``eta = B/(2 sqrt T)``, ``m =
m_proof(B, T)`` and ends with the explicit ``(1 - 2 eta) E[R_T] <= B^2/eta + 4 eta T`` where
Lemma 2's ``eta < 1/8`` holds (``theory.regret_bound_proof``).  That explicit bound is the
right side decided; the rate ``O(B sqrt T)`` is reported as evidence.

Expected verdicts, fixed from the mathematics before the specification's first search (issue
41; CLAIMS.md item 1):

* **Printed** (``verdict_printed``: Algorithm 1 as printed, its step ``alpha_t = eta (E_t -
  y_t)``, at the theorem's ``eta = B/sqrt T`` and the proof's ``B/(2 sqrt T)``): **violated**,
  exactly, for the reason ``iln.alg1.update_sign`` records (the printed step climbs the squared
  loss; no new blame): on point-mass features ``psi(x; w) = c`` with a constant label every
  estimate of Algorithm 2 is exact whatever m, the run is deterministic, and the printed step
  pushes the prediction away from ``y`` by ``1 + eta c^2`` a round until the shrink, so the
  regret grows like T against a bound of order ``sqrt T``.  Expected smallest violation: at the
  smallest T where the proof's bound exists (``eta < 1/8``: T = 17 at B = 1 with the proof's
  eta), ``c`` near 1, ``|y| = 1``; ``R_T / (B sqrt T)`` of the printed run grows like sqrt T.
* **Corrected** (``verdict_corrected``: the descent step ``alpha_t = -eta (E_t - y_t)`` that the
  proof analyses, the same right side): on point masses, exactly, **holds** at every instance
  (regret at most about a quarter of the bound: ``T B c y - T^1.5 B c^2 y^2 / 4`` peaks near
  ``B sqrt T`` against ``4 B sqrt T``); beyond point masses (feature laws with more than one
  value, non-constant label sequences, where Algorithm 2's estimate is random and ``m``
  matters) the regret's mean is sampled only, and a regret has no useful a-priori upper end,
  so the mean rule can show a violation but never that the bound holds: expected not
  violated there, hence ``verdict_corrected`` **inconclusive**, naming the instances not
  decided exactly.  Its companions, exact and assumption-free, expected to hold: the median
  regret below the bound, and ``P[R_T > b]`` below Markov's ``(bound + L) / (b + L)`` (``L``
  the comparator's loss, so ``R_T + L >= 0``), which the statement implies; the per-seed
  slopes of ``R_T / (B sqrt T)`` against ``log T`` not significantly above 0 (evidence).
* **The claim** (decided on its printed statement, as ``iln.alg1.update_sign``): **violated**.
"""

from __future__ import annotations

import functools
import time

import numpy as np

from iln import theory
from iln.comparator import best_in_ball
from iln.comparator import regret as comparator_regret
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification import rules, statistics
from verification.catalog import Claim, Source, profiles, register
from verification.claims.iln.instances import SEQUENCES, adaptive_adversary, described, sequence
from verification.verdicts import VIOLATED, Verdict


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


def _regret_points(config) -> list[dict]:
    """The (sequence, B, T) points of the check: the T grid, the worst cases, the B grid."""
    points = [(name, 1.0, T) for name in config["rate_sequences"] for T in config["T_grid"]]
    points += [(name, 1.0, T) for name in config["worst_sequences"] for T in config["worst_T"]]
    points += [(config["B_sequence"], float(B), config["B_rounds"]) for B in config["B_grid"]]
    return [{"key": f"{n}/B={B:g}/T={T}", "sequence": n, "B": B, "T": T}
            for n, B, T in dict.fromkeys(points)]


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
    run = shrinking_gradient(seq.X, adaptive_adversary(K), seq.family, B=1.0,
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


def regret_rates(records, config) -> dict:
    """The log-log slopes of the per-seed regret in T (B = 1, per rate sequence; the theorem's
    exponent 1/2) and in B (at ``B_rounds``; exponent 1), by :func:`_rate`."""
    rates = {}
    for j, name in enumerate(config["rate_sequences"]):
        values = [[r[f"{name}/B=1/T={T}"]["regret"] for T in config["T_grid"]] for r in records]
        rates[f"T/{name}"] = _rate(config["T_grid"], values, 0.5, seed=100 + j)
    B_keys = [f"{config['B_sequence']}/B={float(B):g}/T={config['B_rounds']}" for B in config["B_grid"]]
    rates[f"B/{config['B_sequence']}"] = _rate(config["B_grid"], [[r[k]["regret"] for k in B_keys] for r in records],
                                               1.0, seed=200)
    return rates


def section6_seconds(records, config) -> dict:
    """How long the proof's m takes at the largest T on the Section 6 data: the samples it
    draws and the runs' wall time (not a function of the seed; reported only)."""
    T_max = max(config["T_grid"])
    seconds = [r[f"section6/B=1/T={T_max}"]["seconds"] for r in records] if "section6" in config["rate_sequences"] else []
    return {"T": T_max, "m": theory.m_proof(1.0, T_max), "samples": theory.total_feature_samples(1.0, T_max),
            "median_s": float(np.median(seconds)) if seconds else None, "max_s": max(seconds) if seconds else None}


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
    T_max = max(config["T_grid"])
    details = {
        "rates": regret_rates(records, config),
        "rate_note": "slopes over a finite grid are evidence, not proof; they do not decide",
        "seconds_section6_largest_T": section6_seconds(records, config),
        "a_priori_range": _a_priori_range(1.0, T_max),
        "shrinks": {p["key"]: sum(r[p["key"]]["shrinks"] for r in records) for p in points},
        "adaptive_adversary": {"T": config["adaptive_T"], "mean_regret": float(np.mean([r["adaptive"]["regret"] for r in records])),
                               "bound": float(theory.regret_bound_proof(1.0, config["adaptive_T"])),
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


def _grids(n_trials, T_grid, worst_T, B_grid, adaptive_T) -> dict:
    """A profile's grids; its B grid runs at the smallest T where the proof's eta meets Lemma
    2's eta < 1/8 for the largest B."""
    return {"n_trials": n_trials, "T_grid": T_grid, "worst_T": worst_T, "B_grid": B_grid,
            "B_rounds": theory.min_T_for_proof(max(B_grid)), "adaptive_T": adaptive_T}


register(Claim(
    id="iln.thm1.regret", title="Expected regret of Algorithm 1 is O(B sqrt(T)), with the proof's explicit bound",
    sources=(Source("ICML", "Section 3, Theorem 1, part 1; proof in Section 5.1, eqs. (16)-(18)", _THM1 + _PROOF_END),
             Source("arXiv", "Section 3, Theorem 1, part 1; proof in Appendix C.2, eqs. (23)-(27)",
                    _THM1_ARXIV + _PROOF_END)),
    # The proof's chain (Lemma 1, Lemma 3 / arXiv 6, eq. 17 / 25) is sound, and the errors of
    # the printed Hoeffding tail and Lemma 2 are absorbed by m_proof's margin (theory.
    # regret_bound_proof's docstring); the minimax construction reaches about a quarter of the
    # bound (regret ~ B sqrt(kT) against ~ 4 B sqrt(T)). Fixed before running, as holds;
    # inconclusive since the full run of 89c418c and all 20 self-test seeds of 4ba29f8: a
    # regret has no useful a-priori upper end, so each point's exact interval at n = 6 runs
    # from below 0 to far above the bound ([-1276, 3.9e7] against 130.6 at the worst point,
    # whose mean is 0.29 of it), and no outcome could pass above the bound at the planned
    # trials: the check can neither hold nor fail there.
    rule="mean bound", expected=VIOLATED, trial=regret_trial, decide=regret_decide,
    # Sample sizes are set by the run-time budget (m_proof makes a run at T = 1000 cost
    # 5.6e9 samples, and one at B = 4, T = 257 8.7e10): a bootstrap over seeds has no
    # distribution-free sample-size plan; the power is reported from the sample sd.
    configs=profiles({"rate_sequences": ["section6", "orthogonal"], "B_sequence": "orthogonal", "repeats": 4,
                      "worst_sequences": ["near_duplicate", "near_duplicate_constant"]},
                     smoke=_grids(4, [32, 64], [64], [1, 1.5], 32), quick=_grids(40, [32, 64, 128, 256], [256], [1, 1.5, 2], 64),
                     full=_grids(6, [64, 128, 256, 512, 1000], [1000], [1, 2, 4], 64)),
    instances="oblivious sequences at the proof's eta = B/(2 sqrt T) and m = m_proof(B, T): "
              + described(SEQUENCES, ("section6", "orthogonal", "near_duplicate"))
              + ". The T grid (B = 1) runs on section6 and orthogonal, the B grid at T = "
                "min_T_for_proof(max B) (Lemma 2's eta < 1/8) on orthogonal; an adaptive adversary "
                "on the near-duplicate inputs is reported, not decided.",
))

