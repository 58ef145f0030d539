"""iln.alg1.rule: Algorithm 1's step/shrink rule replayed on every round, ties included."""

from dataclasses import replace

import numpy as np

from verification import catalog
from verification.claims.iln.algorithm1_runs import algorithm1_run
from verification.claims.iln.update_rule import rule_breaches, rule_decide, rule_trial


def _tie_run(name="tie"):
    return algorithm1_run(name, 12, 50, np.random.SeedSequence(0), record_alpha=True)


def test_the_tie_run_puts_an_estimate_exactly_on_the_threshold_and_follows_the_rule():
    run = _tie_run()
    assert run.trace.estimate[1] == 16.0 * run.B  # round 2: E_2 = 16B exactly
    assert run.trace.shrink[1]  # |E_t| < 16B is false at a tie: Algorithm 1 shrinks
    assert rule_breaches(run) == []


def test_a_step_taken_at_the_tie_is_a_breach():
    run = _tie_run()
    history = run.alpha_history.copy()
    # What "step if |E_t| <= 16B" would have stored after round 2.
    history[2] = history[1]
    history[2][1] = -run.eta * (run.trace.estimate[1] - 1.0)
    breaches = rule_breaches(replace(run, alpha_history=history))
    assert breaches
    assert breaches[0]["round"] == 2
    assert breaches[0]["rule"] == "shrink"


def test_a_shrink_that_forgets_to_divide_is_a_breach():
    run = _tie_run("tie_B2")
    t = int(np.argmax(run.trace.shrink))
    history = run.alpha_history.copy()
    history[t + 1] = history[t]
    assert next(b["round"] for b in rule_breaches(replace(run, alpha_history=history))) == t + 1


def test_the_claim_holds_on_the_implementation_and_names_the_round_when_violated():
    claim = catalog.load()["iln.alg1.rule"]
    config = claim.configs["smoke"]
    records = [rule_trial(config, np.random.SeedSequence(s)) for s in range(2)]
    assert rule_decide(records, config, 1e-3).verdict == "holds"
    records[1]["tie"] = {**records[1]["tie"], "breaches": 1,
                         "first": {"round": 2, "E_t": 16.0, "threshold": 16.0, "rule": "shrink",
                                   "recorded_shrink": False, "deviation": 1.0}}
    verdict = rule_decide(records, config, 1e-3)
    assert verdict.verdict == "violated"
    assert verdict.counterexample["run"] == "tie"
    assert verdict.counterexample["round"] == 2
