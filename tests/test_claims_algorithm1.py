"""Algorithm 1: iln.alg1.rule, its step/shrink rule replayed on every round, ties included; and
iln.alg1.update_sign, the printed step against Theorem 1's bound, the descent step as the
correction, both decided exactly on point masses (finite_laws.point_mass_run checked against
the enumerated run and the shipped code)."""

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from iln.features import RandomCoordinate
from iln.shrinking_gradient import shrinking_gradient
from verification import catalog
from verification.claims.iln import finite_laws
from verification.claims.iln.algorithm1 import (
    exact_losses,
    point_mass_regret,
    rule_breaches,
    rule_decide,
    rule_trial,
)
from verification.claims.iln.instances import algorithm1_run
from verification.selftest.injection import CodeEdit
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED


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



ALPHA = 1e-3
pytestmark = pytest.mark.usefixtures("one_numba_thread")


@pytest.mark.parametrize("step", ["printed", "descent"])
@pytest.mark.parametrize(("c", "y", "eta", "T"), [(Fraction(999, 1000), Fraction(1), Fraction(1, 4), 40),
                                                  (Fraction(1, 2), Fraction(-1, 2), Fraction(1, 8), 30),
                                                  (Fraction(9, 10), Fraction(1), Fraction(1), 25)])
def test_the_closed_form_is_the_enumerated_run(step, c, y, eta, T):
    # point_mass_run (geometric pieces between shrinks) against run_law, which draws Algorithm 2
    # round by round: one branch (every estimate exact), the same losses, predictions, shrinks.
    law = finite_laws.point_mass(c)
    (branch,) = finite_laws.run_law(law, [0] * T, [y] * T, B=Fraction(1), eta=eta, m=3, step=step)
    run = finite_laws.point_mass_run(c, y, Fraction(1), eta, T, step)
    assert run.loss == sum(exact_losses(law, branch, [y] * T))
    assert run.mean_prediction == sum(r.estimate for r in branch.rounds) / T
    assert run.shrinks == sum(r.shrink for r in branch.rounds)
    assert branch.probability == 1


def test_the_closed_form_shrinks_where_the_printed_step_reaches_16B():
    # eta c^2 = 0.4995: the printed step multiplies p - 1 by 1.4995 a round and crosses -16 at
    # round 8 (p_8 = -16.44 after -10.30), where the estimate is quartered.
    run = finite_laws.point_mass_run(Fraction(999, 1000), Fraction(1), Fraction(1), Fraction(1, 2), 8, "printed")
    assert run.shrinks == 1
    assert finite_laws.point_mass_run(Fraction(999, 1000), Fraction(1), Fraction(1), Fraction(1, 2), 7,
                                      "printed").shrinks == 0


def test_a_descent_step_that_overshoots_is_not_enumerated():
    with pytest.raises(finite_laws.NotEnumerable, match="overshoots"):
        finite_laws.point_mass_run(Fraction(999, 1000), Fraction(1), Fraction(1), Fraction(3), 4, "descent")


@pytest.mark.parametrize("step", ["printed", "descent"])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_exact_regret_is_the_shipped_run(step, seed):
    # The shipped Algorithm 1 (every method of Algorithm 2, any m and seed) on point-mass
    # features: its regret is the exact one (float64 against rational arithmetic).
    B, T, c = 2, 36, Fraction(999, 2000)
    family = RandomCoordinate(1)
    exact, shrinks = point_mass_regret(Fraction(B), c, Fraction(1), T, Fraction(B, 12), step)
    for method, m in (("fast", 5), ("numpy", 2), ("reference", 1)):
        run = shrinking_gradient(np.full((T, 1), float(c)), np.ones(T), family, B=B, seed=seed, m=m, update=step,
                                 method=method, oracle=family.kernel)
        comparator = T * (1 - B * float(c)) ** 2 / 2
        assert run.trace.loss_exact.sum() - comparator == pytest.approx(float(exact), rel=1e-11)
        assert run.trace.shrink.sum() == shrinks


@pytest.fixture(scope="module")
def smoke(smoke_decision):
    return smoke_decision("iln.alg1.update_sign")


def test_smoke_profile_decides_the_printed_step_exactly(smoke):
    # The smallest instance with an explicit bound (eta = 1/10 < 1/8 at T = 25, B = 1) already
    # fails: the printed step's regret is 275.17, eleven times (B^2/eta + 4 eta T)/(1 - 2 eta) = 25.
    claim, _, _, verdict = smoke
    assert verdict.verdict == claim.expected == VIOLATED
    assert verdict.verdict_printed == VIOLATED
    assert verdict.counterexample["T"] == 25
    assert verdict.counterexample["B"] == 1.0
    assert verdict.counterexample["mean"] == pytest.approx(275.1688869789835, rel=1e-12)
    assert verdict.bound == pytest.approx(25.0)
    assert verdict.pvalue == 0.0
    assert verdict.interval[0] == verdict.interval[1]
    # The regret grows like T, so regret / (B sqrt T) grows without bound (Theorem 1's O(B sqrt T)).
    growth = verdict.details["printed_regret_over_B_sqrt_T"]
    assert growth["T=64"] > 10 * growth["T=16"]


def test_smoke_profile_leaves_the_correction_undecided_and_says_what_is_not_covered(smoke):
    _, _, _, verdict = smoke
    assert verdict.verdict_corrected == INCONCLUSIVE
    assert verdict.details["exact"]["corrected"]["above"] == 0
    assert verdict.details["exact"]["corrected"]["largest_ratio"] < 1
    assert "label sequence" in verdict.details["reason_corrected"]
    assert not verdict.details["coverage"]["corrected"]["label sequence"]["covered"]


def test_smoke_conformance_shows_the_shipped_runs_follow_the_exact_law(smoke):
    _, _, records, verdict = smoke
    assert verdict.details["conformance"]["verdict"] == HOLDS
    assert len(records[0]["printed"]["loss"]) == 25


def test_a_false_correction_is_found_exactly(smoke_verdict):
    # Planted: the corrected statement's bound divided by sqrt(T) (the statement mutant
    # update_sign_corrected_sqrt_t_dropped): the descent step's exact regret exceeds it.
    edit = CodeEdit("iln.theory", "regret_bound_proof",
                    "return _out(_regret_bound_proof(*_lemma2_rounds_and_step(B, T, eta)))",
                    "return _out(_regret_bound_proof(*_lemma2_rounds_and_step(B, T, eta)) / np.sqrt(T))")
    verdict = smoke_verdict("iln.alg1.update_sign", edits=(edit,))
    assert verdict.verdict_corrected == VIOLATED
    assert verdict.verdict == VIOLATED


#: Algorithm 2 summing m - 1 draws divided by m, in the compiled and in the vectorised code: the
#: rule still holds on every round, but E_2 = 15.75 misses the tie, which the claim checks.
ALGORITHM2_ONE_DRAW_SHORT = {
    "run": CodeEdit("iln.estimator", "_fast", ".multinomial(m, np.abs(a) / norm1)",
                    ".multinomial(m - 1, np.abs(a) / norm1)"),
    "numpy": CodeEdit("iln.estimator", "_numpy", "n = min(chunk, m - lo)", "n = min(chunk, m - lo - 1) or 1"),
}


@pytest.mark.parametrize("source", sorted(ALGORITHM2_ONE_DRAW_SHORT))
def test_the_rule_claim_flags_an_algorithm2_that_moves_the_tie_off_the_boundary(source, smoke_verdict):
    verdict = smoke_verdict("iln.alg1.rule", edits=(ALGORITHM2_ONE_DRAW_SHORT[source],))
    assert verdict.verdict == VIOLATED, verdict.details
    assert verdict.counterexample["run"] in ("tie", "tie_B2")
    assert verdict.counterexample["round"] == 2
    assert verdict.counterexample["rule"].endswith(f"Algorithm 2 of the {source}")
