"""Algorithm 1's rule, round by round: a step when ``|E_t| < 16B``, else a shrink by 4.

ICML Algorithm 1 (arXiv Algorithm 1): if ``|E_t| < 16B`` then ``alpha^(t+1) = alpha^(t)``
and ``alpha_t^(t+1)`` is the step; else ``alpha^(t+1) = alpha^(t) / 4``. The step's sign is
the subject of ``iln.alg1.update_sign`` (printed: up the gradient; the analysis: down it);
here each run is held to the sign it was run with. Every later claim about Algorithm 1
(Lemmas 1, 2, 5 and 6, Theorem 1) rests on this rule, and a statistical check of those
claims cannot see a rule broken only on a set of rounds of probability zero, such as the
boundary ``|E_t| = 16B``; the ``tie`` runs put an estimate exactly on that boundary.
"""

from __future__ import annotations

import numpy as np

from iln import theory
from iln.random_streams import child
from verification.catalog import Claim, Source, register
from verification.claims.iln.algorithm1_runs import RUNS, algorithm1_run
from verification.rules import invariant
from verification.verdicts import HOLDS, Verdict

#: relative slack of the comparison: the rule's arithmetic is a product or a quotient by 4,
#: so an implementation of the rule reproduces it to the last bit or close to it.
SLACK = 1e-12


def rule_breaches(run) -> list[dict]:
    """The rounds where ``alpha^(t+1)`` is not what the rule makes of ``alpha^(t)`` and ``E_t``.

    Parameters
    ----------
    run : iln.shrinking_gradient.ShrinkingGradientResult
        A run made with ``record_alpha=True``.

    Returns
    -------
    list of dict
        One entry per breached round (1-based ``round``) with ``E_t``, the branch the rule
        takes there and the largest deviation of ``alpha^(t+1)`` from the rule's.
    """
    history, trace = run.alpha_history, run.trace
    threshold = theory.SHRINK_THRESHOLD * run.B
    sign = -1.0 if run.update == "descent" else 1.0
    breaches = []
    for t in range(run.T):
        before, after = history[t], history[t + 1]
        E, y = float(trace.estimate[t]), float(trace.labels[t])
        expected = before.copy()
        if abs(E) < threshold:
            expected[t] = sign * run.eta * (E - y)
            branch = "step"
        else:
            expected[: t] = before[: t] * theory.SHRINK_FACTOR
            branch = "shrink"
        scale = max(1.0, float(np.abs(expected).max()))
        deviation = float(np.abs(after - expected).max()) / scale
        if deviation > SLACK or bool(trace.shrink[t]) != (branch == "shrink"):
            breaches.append({"round": t + 1, "E_t": E, "threshold": threshold, "rule": branch,
                             "recorded_shrink": bool(trace.shrink[t]), "deviation": deviation})
    return breaches


def rule_trial(config, seed) -> dict:
    """One run per configured run name, every round replayed against the rule."""
    record = {}
    for j, name in enumerate(config["runs"]):
        run = algorithm1_run(name, config["T"] if name != "section6_proof" else config["T_proof"],
                             config["m"], child(seed, j), record_alpha=True)
        breaches = rule_breaches(run)
        at_boundary = int(np.sum(np.abs(run.trace.estimate) == theory.SHRINK_THRESHOLD * run.B))
        record[name] = {"rounds": run.T, "breaches": len(breaches), "first": breaches[0] if breaches else None,
                        "shrinks": int(run.trace.shrink.sum()), "at_boundary": at_boundary}
    return record


def rule_decide(records, config, alpha) -> Verdict:
    """Deterministic invariant: a single round off the rule is a violation."""
    rounds = sum(r["rounds"] for rec in records for r in rec.values())
    breached = [(i, name, r) for i, rec in enumerate(records) for name, r in rec.items() if r["breaches"]]
    share = sum(r["breaches"] for _, _, r in breached) / rounds
    counterexample = None
    if breached:
        index, name, r = breached[0]
        counterexample = {"trial_index": index, "run": name, "description": RUNS[name], **r["first"]}
    per_run = {name: {"rounds": sum(rec[name]["rounds"] for rec in records),
                      "breaches": sum(rec[name]["breaches"] for rec in records),
                      "shrinks": sum(rec[name]["shrinks"] for rec in records),
                      "estimates_on_the_boundary": sum(rec[name]["at_boundary"] for rec in records)}
               for name in config["runs"]}
    return invariant("iln.alg1.rule", broken=bool(breached), share=share, checked=rounds,
                             alpha=alpha, counterexample=counterexample, n_trials=len(records),
                             details={"rounds_checked": rounds, "runs": per_run, "slack": SLACK})


_RULE = (r"\text{if } |E_t| < 16B:\ \alpha^{(t+1)} = \alpha^{(t)},\ \alpha_t^{(t+1)} = -\eta(y_t - E_t);"
         r"\quad\text{else}\ \alpha^{(t+1)} = \tfrac{1}{4}\alpha^{(t)}")
_RULE_ARXIV = (r"\text{if } |E_t| < 16B:\ \alpha^{(t+1)} = \alpha^{(t)},\ \alpha_t^{(t+1)} = \eta(E_t - y_t);"
               r"\quad\text{else}\ \alpha^{(t+1)} = \tfrac{1}{4}\alpha^{(t)}")
_RUN_NAMES = list(RUNS)

register(Claim(
    id="iln.alg1.rule",
    title="Algorithm 1 steps when |E_t| < 16B and otherwise shrinks alpha by 4, on every round",
    sources=(Source("ICML", "Section 3, Algorithm 1 (and Appendix A, proof of Lemma 5)", _RULE),
             Source("arXiv", "Section 3, Algorithm 1 (and Appendix A, proof of Lemma 4)", _RULE_ARXIV)),
    rule="deterministic invariant",
    expected=HOLDS,
    configs={
        "smoke": {"n_trials": 2, "T": 40, "T_proof": 20, "m": 20, "runs": _RUN_NAMES},
        "quick": {"n_trials": 5, "T": 120, "T_proof": 60, "m": 50, "runs": _RUN_NAMES},
        "full": {"n_trials": 20, "T": 300, "T_proof": 150, "m": 100, "runs": _RUN_NAMES},
    },
    trial=rule_trial,
    decide=rule_decide,
    instances="every round replayed from the recorded alpha^(t), E_t and y_t, each run held to "
              "the sign it was run with (see iln.alg1.update_sign for the printed sign): "
              + "; ".join(f"{k}: {v}" for k, v in RUNS.items()),
))
