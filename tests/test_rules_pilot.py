"""Seed plans from a pilot (verification/rules/pilot.py): planned on the lower confidence bound,
never the point estimate, and the probability they state is the deciding rule's own.

The probabilities are checked by running the rules that decide (the sign test through
``rules.at_some_setting``, the sign test of the median slope through ``rules.rate_bound``) on simulated pilots'
worst cases, the true effect at the plan's lower bound, at a level where the chance of the
expected verdict is far from 0 and 1, so that a wrong power formula shows.
"""

import math

import numpy as np
import pytest
from scipy import stats

from verification import catalog, rules, statistics, trials
from verification.catalog import DESIGN_POWER
from verification.rules import pilot
from verification.rules.comparison import sign_test_seeds
from verification.verdicts import VIOLATED


def test_sign_test_plan_is_planned_on_the_lower_bound_not_the_point_estimate():
    tail = 1e-5
    plan = pilot.sign_test_plan([(18, 20)], tail)
    low = statistics.clopper_pearson(18, 20, 0.95, alternative="greater").low
    assert plan.share_lcb == (low,)
    assert low < 0.9  # the point estimate
    assert plan.seeds == sign_test_seeds(low, tail, pilot.TARGET)
    # A plan from the point estimate would need far fewer seeds: this fails if it were one.
    assert plan.seeds > 1.5 * sign_test_seeds(0.9, tail, pilot.TARGET)
    # 16 of 16: the point estimate (every seed) would plan the 17 seeds of 2^-17 < 1e-5.
    assert pilot.sign_test_plan([(16, 16)], tail).seeds > 3 * sign_test_seeds(1.0, tail)


def test_sign_test_plan_splits_the_target_over_the_tests_that_must_all_reject():
    plan = pilot.sign_test_plan([(16, 16), (30, 32), (16, 16)], 1e-6, target=0.95)
    assert plan.power == pytest.approx(0.95 ** (1 / 3))
    assert plan.probability >= 0.95
    # The weakest pilot (30 of 32, lower bound 0.82 against 0.83) sets the seeds.
    assert plan.seeds == sign_test_seeds(min(plan.share_lcb), 1e-6, plan.power)
    # One test alone: the design power is a floor.
    assert pilot.sign_test_plan([(16, 16)], 1e-6, target=0.5).power == DESIGN_POWER


def _sign_test_frequency(plan, replications, rng):
    """How often the claim's rule is violated at every test when each seed's pair has the side
    won with the plan's bounds (ties at the plan's upper bound on their rate)."""

    def point(wins, losses, ties):
        a = [1.0] * wins + [0.0] * losses + [0.5] * ties
        return [rules.PairedPoint("x", a=a, b=[0.5] * len(a))]

    def violated(counts):
        # The rule's decision (checked against the rule below): the Clopper-Pearson lower end
        # over the seeds without a tie above 1/2.
        wins, losses, _ = counts
        return wins + losses > 0 and statistics.clopper_pearson(
            wins, wins + losses, 1 - plan.tail, alternative="greater").low > 0.5

    laws = [(share * (1 - tie), (1 - share) * (1 - tie), tie) for share, tie in zip(plan.share_lcb, plan.tie_ucb,
                                                                                   strict=True)]
    draws = [rng.multinomial(plan.seeds, law, size=replications) for law in laws]
    found = sum(all(violated(tuple(int(c) for c in d[r])) for d in draws) for r in range(replications))
    # at_some_setting, the claim's rule over settings, tests each at its alpha / settings and is
    # violated when every one is: the same decision.
    for r in range(3):
        for d in draws:
            counts = tuple(int(c) for c in d[r])
            assert (rules.paired_comparison("demo", point(*counts), plan.tail).verdict == VIOLATED) == violated(counts)
        settings = {str(s): point(*map(int, d[r])) for s, d in enumerate(draws)}
        assert (rules.at_some_setting("demo", settings, len(draws) * plan.tail).verdict == VIOLATED) == all(
            violated(tuple(int(c) for c in d[r])) for d in draws)
    return found / replications


@pytest.mark.parametrize("entries", [[(9, 10), (9, 10)], [(14, 20, 4)]], ids=["ties against", "ties apart"])
def test_sign_test_plan_probability_bounds_the_rules_chance_of_violated(entries):
    # At a level where the chance, about the design power, is measurable.
    plan = pilot.sign_test_plan(entries, 0.01, target=0.5)
    replications = 2000
    frequency = _sign_test_frequency(plan, replications, np.random.default_rng(20261124 + 7))
    # The stated probability is a lower bound: the rule is violated at least that often, less
    # 4.5 standard deviations (a false failure about once in 10^5 runs) ...
    sd = math.sqrt(plan.probability * (1 - plan.probability) / replications)
    assert frequency > plan.probability - 4.5 * sd, (frequency, plan)
    # ... and not by much more than the exact chance of rejecting with ties at their bound
    # (the bound gives up little).
    assert plan.probability > 0.8 * frequency, (frequency, plan)


def test_sign_test_plan_with_ties_apart_is_planned_on_the_bounds():
    tail = 1e-5
    plan = pilot.sign_test_plan([(128, 200, 36)], tail)
    share = statistics.clopper_pearson(128, 164, 0.975, alternative="greater").low
    tie = statistics.clopper_pearson(36, 200, 0.975, alternative="less").high
    assert plan.share_lcb == (share,)
    assert plan.tie_ucb == (tie,)
    assert share < 128 / 164
    assert tie > 36 / 200
    # From about the point estimates (the bounds at confidence 1/2: 128 of 164, ties 18%) it
    # would need far fewer seeds.
    at_estimate = pilot.sign_test_plan([(128, 200, 36)], tail, confidence=0.5).seeds
    assert plan.seeds > 1.5 * at_estimate
    # Ties counted against the side instead: a share of 0.64, and many more seeds.
    assert pilot.sign_test_plan([(128, 200)], tail).seeds > 3 * plan.seeds


def test_sign_test_plan_refuses_a_pilot_without_an_effect():
    with pytest.raises(ValueError, match="not above 1/2"):
        pilot.sign_test_plan([(12, 20)], 1e-5)
    with pytest.raises(TypeError, match="sequence of"):
        pilot.sign_test_plan((16, 16), 1e-5)


def test_rate_plan_is_planned_on_the_lower_bound_not_the_point_estimate():
    mean, sd, n, bound, tail = 0.6, 0.2, 12, 0.8, 1e-3
    plan = pilot.rate_plan([(mean, sd, n, bound)], tail)
    (margin,) = plan.margin_lcb
    assert margin < 1.0  # the pilot's standardized margin is (0.8 - 0.6) / 0.2 = 1
    # The bound: the pilot's t statistic is at the 95% point of the noncentral t at it.
    assert stats.nct.cdf(math.sqrt(n) * 1.0, n - 1, math.sqrt(n) * margin) == pytest.approx(0.95)
    assert plan.share_lcb == (stats.norm.cdf(margin),)
    assert plan.share_any_law == (margin**2 / (1 + margin**2),)
    # From the plan on, the sign test rejects with the planned power at that share (past the
    # saw-tooth of its discrete power), and not just before it.
    share = plan.share_lcb[0]
    assert all(statistics.binomial_power(m, 0.5, share, tail) >= plan.power
               for m in range(plan.repetitions, plan.repetitions + 60))
    assert statistics.binomial_power(plan.repetitions - 1, 0.5, share, tail) < plan.power
    # Planned on the point estimate (a share of Phi(1) = 0.84), it would need far fewer.
    at_estimate = pilot.rate_plan([(mean, sd, n, bound)], tail, confidence=0.5).repetitions
    assert plan.repetitions > 1.5 * at_estimate
    assert f"-> {plan.repetitions} repetitions" in plan.describe()


def test_rate_plan_probability_is_the_rate_rules_chance_of_violated():
    # At a level where the chance of violated, about the design power, is measurable: normal
    # exponents at the plan's lower bound on the margin below the rule's bound 0.8.
    plan = pilot.rate_plan([(0.7, 0.2, 12, 0.8)], 0.05, target=0.5, confidence=0.5)
    assert plan.power == DESIGN_POWER
    rng = np.random.default_rng(20261124 + 8)
    replications = 600
    found = 0
    for _ in range(replications):
        exponents = rng.normal(0.8 - plan.margin_lcb[0] * 0.2, 0.2, plan.repetitions)
        point = rules.RatePoint("K", slopes=exponents, upper=None, lower=1.0, tolerance=0.2)
        found += rules.rate_bound("demo", [point], plan.tail).verdict == VIOLATED
    sd = math.sqrt(plan.probability * (1 - plan.probability) / replications)
    assert abs(found / replications - plan.probability) < 4.5 * sd, (found, plan)
    # For a law far from normal with that margin, only Cantelli's share is sure.
    assert plan.probability_any_law < plan.probability


def test_rate_plan_needs_both_tests_for_a_two_sided_expected_verdict():
    one = pilot.rate_plan([(2.06, 0.016, 15, 2.23)], 1.25e-5)
    two = pilot.rate_plan([(2.06, 0.016, 15, 2.23), (3.92, 0.02, 15, 4.14)], 1.25e-5)
    assert two.power == pytest.approx(pilot.TARGET ** 0.5)  # each of two tests, so that both reject
    assert two.repetitions >= one.repetitions >= rules.minimum_repetitions(1.25e-5) == 17


def test_rate_plan_refuses_a_pilot_without_an_effect():
    with pytest.raises(ValueError, match="not above 0"):
        pilot.rate_plan([(0.79, 0.2, 12, 0.8)], 1e-3)
    with pytest.raises(ValueError, match="sd"):
        pilot.rate_plan([(0.5, 0.0, 12, 0.8)], 1e-3)
    with pytest.raises(ValueError, match="side"):
        pilot.rate_plan([(0.5, 0.1, 12, 0.8)], 1e-3, side="below or above")


def test_pilot_records_are_the_trials_a_run_of_the_pilot_seed_gives():
    claim_id = "iln.lemma5.alpha_l1"
    records = pilot.pilot_records(claim_id, "smoke", 4012099, 2)
    config = catalog.get(claim_id).config("smoke")
    from_runner = [record for _, record, _ in trials.run_batch(claim_id, config, 4012099, [0, 1])]
    assert records == from_runner
    with pytest.raises(ValueError, match="trials"):
        pilot.pilot_records(claim_id, "smoke", 4012099, 1)
