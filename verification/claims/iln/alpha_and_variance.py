"""Algorithm 1's coefficients and gradients: ICML Lemma 5 (arXiv Lemma 4) and Lemma 3 (arXiv 6).

``||alpha^(t)||_1 <= (16B + 1) eta t`` for every round, whatever the labels in
[-1, 1], and ``||grad_t||^2 <= 2 l_t(f_t)``: deterministic invariants, checked on
every round of every run.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from iln import theory
from iln.random_streams import child
from verification import rules
from verification.catalog import Claim, Source, register
from verification.claims.iln.algorithm1_runs import RUNS, algorithm1_run
from verification.verdicts import HOLDS, Verdict

#: relative floating-point slack of the invariant: the sums of a few thousand terms.
SLACK = 1e-12


def alpha_l1_ratio(run) -> np.ndarray:
    """``||alpha^(t)||_1 / ((16B+1) eta t)`` for t = 1, ..., T + 1 of a run of Algorithm 1.

    ICML Lemma 5; arXiv Lemma 4. A ratio above ``1 + SLACK`` at any t is a violation.
    """
    t = np.arange(1, run.T + 2)
    return run.trace.alpha_l1 / theory.alpha_l1_bound(run.B, run.eta, t)


def alpha_l1_trial(config, seed) -> dict:
    """One run per configured run name: the largest ratio ||alpha^(t)||_1 / ((16B+1) eta t)."""
    record = {}
    for j, name in enumerate(config["runs"]):
        run = algorithm1_run(name, config["T"] if name != "section6_proof" else config["T_proof"],
                             config["m"], child(seed, j))
        ratio = alpha_l1_ratio(run)
        worst = int(np.argmax(ratio))
        record[name] = {"ratio": float(ratio[worst]), "round": worst + 1,
                        "violations": int(np.sum(ratio > 1 + SLACK)), "shrinks": int(run.trace.shrink.sum())}
    return record


def alpha_l1_decide(records, config, alpha) -> Verdict:
    """Deterministic invariant: one round beyond the slack anywhere is a violation."""
    worst = None
    shrinks = 0
    for index, record in enumerate(records):
        for name, r in record.items():
            shrinks += r["shrinks"]
            if worst is None or r["ratio"] > worst[2]["ratio"]:
                worst = (index, name, r)
    if worst is None:
        raise ValueError("records must hold at least one run")
    index, name, r = worst
    runs = [r2 for rec in records for r2 in rec.values()]
    broken = sum(bool(r2["violations"]) for r2 in runs)
    counterexample = None
    if broken:
        counterexample = {"trial_index": index, "run": name, "description": RUNS[name], "round": r["round"],
                          "ratio": r["ratio"]}
    return rules.invariant(
        "iln.lemma5.alpha_l1", broken=bool(broken), share=broken / len(runs), checked=len(runs),
        alpha=alpha, counterexample=counterexample, n_trials=len(records), statistic=r["ratio"], bound=1.0,
        details={"worst_run": name, "worst_round": r["round"], "shrink_rounds": shrinks, "slack": SLACK,
                 "runs": {n: RUNS[n] for n in config["runs"]}})


_L1 = r"\|\alpha^{(t)}\|_1 \leq (16B + 1)\eta t"
_RUN_NAMES = list(RUNS)

register(Claim(
    id="iln.lemma5.alpha_l1",
    title="l1 bound on Algorithm 1's coefficients",
    sources=(Source("ICML", "Appendix A, Lemma 5", _L1), Source("arXiv", "Appendix A, Lemma 4", _L1)),
    rule="deterministic invariant",
    expected=HOLDS,
    configs={
        "smoke": {"n_trials": 2, "T": 40, "T_proof": 20, "m": 20, "runs": _RUN_NAMES},
        "quick": {"n_trials": 20, "T": 200, "T_proof": 60, "m": 50, "runs": _RUN_NAMES},
        "full": {"n_trials": 100, "T": 400, "T_proof": 150, "m": 100, "runs": _RUN_NAMES},
    },
    trial=alpha_l1_trial,
    decide=alpha_l1_decide,
    instances="; ".join(f"{k}: {v}" for k, v in RUNS.items()),
))


# ------------------------------------------------------------------------------------------
# iln.lemma3.grad_norm: ||grad_t||^2 <= 2 l_t(f_t)
# ------------------------------------------------------------------------------------------


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
    id="iln.lemma3.grad_norm",
    title="Gradient norm bounded by twice the loss",
    sources=(Source("ICML", "Section 5.1, Lemma 3, second part (proof in B.3)", _GRAD),
             Source("arXiv", "Appendix C.1, Lemma 6, second part", _GRAD)),
    rule="deterministic invariant",
    expected=HOLDS,
    configs={
        "smoke": {"n_trials": 2, "T": 40, "T_proof": 20, "m": 20, "runs": _RUN_NAMES},
        "quick": {"n_trials": 10, "T": 200, "T_proof": 60, "m": 50, "runs": _RUN_NAMES},
        "full": {"n_trials": 50, "T": 400, "T_proof": 150, "m": 100, "runs": _RUN_NAMES},
    },
    trial=grad_norm_trial,
    decide=grad_norm_decide,
    instances="checked pointwise on every round (which implies the expectation): "
              + "; ".join(f"{k}: {v}" for k, v in RUNS.items()),
))
