"""The decision rules keep their stated levels at the sample sizes and levels the catalog uses.

Levels near 1 - 1e-5 are beyond simulation, so the exact-coverage rules are checked by exact
computation: on two-point and three-point laws every outcome of n draws is enumerated
(binomial and trinomial weights), which gives the rule's miss probability exactly.  Two-point
laws at the ends of the range are the worst case of Hoeffding's inequality; the Bernstein part
of the rule is checked on them and on three-point laws with an atom in the middle (small
variance).  Where a level is measurable (1e-2), laws without atoms are simulated with enough
replications to detect a doubling of the miss rate; each such test states its replications,
its critical count (a false failure about once in a thousand runs) and the rate it detects.
"""

import dataclasses
import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from verification import catalog, rules, runner, statistics
from verification.catalog import DESIGN_ALPHA, DESIGN_POWER
from verification.rules import mean as mean_rule
from verification.verdicts import ERROR, HOLDS, INCONCLUSIVE, VIOLATED

#: the per-side risks the catalog's points use: the design level split over 1 to 64 tests.
TAILS = (DESIGN_ALPHA, DESIGN_ALPHA / 8, DESIGN_ALPHA / 64)
#: the trial counts of the catalog's mean claims, smallest first (update_sign's smoke, the
#: regret's quick profile, lemma 1's quick, the estimator's quick).
SIZES = (6, 12, 40, 300, 1500)


def _critical(replications: int, rate: float) -> int:
    """The smallest miss count whose probability under ``rate`` is below 1e-3."""
    return int(stats.binom.isf(1e-3, replications, rate)) + 1


# ------------------------------------------------------------------------------------------
# Probability bound: the exact binomial test, enumerated
# ------------------------------------------------------------------------------------------


def _first(n: int, predicate) -> int:
    """The smallest k in [0, n + 1] with predicate(k), for a predicate monotone in k."""
    low, high = -1, n + 1
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if predicate(mid) else (mid, high)
    return high


@pytest.mark.parametrize("n", [200, 400, 3000])
@pytest.mark.parametrize("p0", [1e-3, 0.05, 0.5])
@pytest.mark.parametrize("tail", TAILS)
def test_probability_rule_false_violation_and_false_hold_are_at_most_the_tail(n, p0, tail):
    # At p = p0 (the statement's edge) the chance of "violated" is the binomial weight of the
    # counts the rule calls violated; the same for "holds", where the statement is just
    # false for any larger p.  Both regions are tails of k (checked at their edges), so
    # their weights are binomial tails, exact.
    def verdict(k):
        return rules.probability_bound("t", [rules.TailPoint("x", k, n, p0)], tail).verdict

    c = _first(n, lambda k: verdict(k) == VIOLATED)  # violated exactly for k >= c
    h = _first(n, lambda k: verdict(k) != HOLDS)  # holds exactly for k < h
    assert c > n or verdict(c) == VIOLATED
    assert c == 0 or verdict(c - 1) != VIOLATED
    assert stats.binom.sf(c - 1, n, p0) <= tail * (1 + 1e-9)
    assert h == 0 or stats.binom.cdf(h - 1, n, p0) <= tail * (1 + 1e-9)


def test_probability_rule_detects_its_min_detectable_ratio_with_the_design_power():
    n, p0, alpha = 3000, 0.01, 1e-4
    verdict = rules.probability_bound("t", [rules.TailPoint("x", 30, n, p0)], alpha)
    p1 = verdict.min_detectable_ratio * p0
    assert statistics.binomial_power(n, p0, p1, alpha) >= DESIGN_POWER
    # ... and nothing much smaller: one ulp-scale step below is under the power.
    assert statistics.binomial_power(n, p0, p1 * 0.999, alpha) < DESIGN_POWER


def test_a_point_that_no_outcome_can_reject_is_not_evidence():
    # 10 trials cannot show P > 0.5 at level 1 - 1e-5: even 10 events of 10 leave it open.
    verdict = rules.probability_bound("t", [rules.TailPoint("x", 0, 10, 0.5)], 1e-5)
    assert verdict.verdict == INCONCLUSIVE
    assert verdict.can_fail is False
    assert math.isinf(verdict.min_detectable_ratio)
    assert "cannot detect a violation" in verdict.details["reason"]


def test_an_impossible_event_is_not_evidence_and_an_impossible_value_is_refused():
    """tail_point's ``largest``: a threshold at or above the largest value the statistic can
    take makes the point unable to fail (never counted towards holds); a value above it is a
    wrong statistic and raises rather than being decided."""
    values = [0.2] * 40
    impossible = rules.tail_point("a", values, 1.0, 0.01, largest=1.0)
    possible = rules.tail_point("b", values, 0.9, 0.01, largest=1.0)
    assert not impossible.possible
    assert possible.possible
    alone = rules.probability_bound("t", [impossible], 1e-3)
    assert alone.verdict == INCONCLUSIVE
    assert alone.can_fail is False
    assert alone.details["points"]["a"]["event_possible"] is False
    both = rules.probability_bound("t", [impossible, possible], 1e-3)
    assert both.can_fail
    assert both.details["points"]["a"]["can_fail"] is False
    # Without ``largest`` the same point would have counted as a point that can fail.
    assert rules.probability_bound("t", [rules.tail_point("a", values, 1.0, 0.01)], 1e-3).can_fail
    with pytest.raises(ValueError, match="exceeds the largest value"):
        rules.tail_point("c", [0.2, 1.5], 0.9, 0.01, largest=1.0)


def test_from_hits_takes_an_impossible_event_and_refuses_a_hit_there():
    """from_hits's ``possible``: False makes the point unable to fail (reported, not counted);
    an event at such a point means the argument that it is impossible is wrong, and raises."""
    point = rules.TailPoint.from_hits("a", [False] * 40, 0.01, possible=False)
    assert not point.possible
    verdict = rules.probability_bound("t", [point, rules.TailPoint.from_hits("b", [False] * 40, 0.01)], 1e-3)
    assert verdict.details["points"]["a"]["event_possible"] is False
    assert verdict.details["points"]["a"]["can_fail"] is False
    assert verdict.details["points"]["b"]["can_fail"]
    assert rules.TailPoint.from_hits("c", [False, True], 0.01).possible
    with pytest.raises(ValueError, match="declared impossible"):
        rules.TailPoint.from_hits("c", [False, True], 0.01, possible=False)


def test_probability_rule_pvalue_agrees_with_its_decision():
    points = [rules.TailPoint("a", 20, 400, 0.01), rules.TailPoint("b", 3, 400, 0.01)]
    verdict = rules.probability_bound("t", points, 1e-3)
    assert verdict.verdict == VIOLATED
    assert verdict.pvalue <= 1e-3
    # The smallest alpha at which it is violated is its p-value (up to the test's discreteness).
    assert rules.probability_bound("t", points, verdict.pvalue * 0.99).verdict != VIOLATED
    assert rules.probability_bound("t", points, min(1.0, verdict.pvalue * 1.01)).verdict == VIOLATED


# ------------------------------------------------------------------------------------------
# Mean bound: exact miss probabilities on atomic laws
# ------------------------------------------------------------------------------------------


def _two_point_miss(n, q, lo, hi, tail, side, caps=None):
    """P[the rule's bound on ``side`` misses the mean] for X = hi w.p. q, else lo, exactly."""
    mu = lo + q * (hi - lo)
    total = 0.0
    for k in range(n + 1):
        x = np.r_[np.full(k, hi), np.full(n - k, lo)]
        if side == "lower":
            bound = max(mean_rule.lower_confidence(x, lo, c, tail / len(caps)) for c in caps)
            miss = bound > mu
        else:
            miss = mean_rule.upper_confidence(x, lo, hi, tail) < mu
        if miss:
            total += stats.binom.pmf(k, n, q)
    return total


def test_mean_rule_bounds_are_hoeffding_and_maurer_pontil_each_at_half_the_tail():
    # Few values against the range: Hoeffding's bound at tail / 2 is the narrower one.
    values, tail = np.array([0.0, 1.0, 1.0, 0.0, 1.0]), 0.05
    hoeffding = 2.0 * math.sqrt(math.log(2 / tail) / (2 * 5))
    assert mean_rule.lower_confidence(values, 0.0, 2.0, tail) == pytest.approx(0.6 - hoeffding, rel=1e-15)
    assert mean_rule.upper_confidence(values, 0.0, 2.0, tail) == pytest.approx(0.6 + hoeffding, rel=1e-15)
    # Small variance against the range: Maurer & Pontil's Theorem 4 at tail / 2, far narrower.
    values = np.random.default_rng(6).uniform(2.0, 3.0, 1000)
    log_term = math.log(4 / tail)
    bernstein = math.sqrt(2 * values.var(ddof=1) * log_term / 1000) + 7 * 10.0 * log_term / (3 * 999)
    assert values.mean() - mean_rule.lower_confidence(values, 0.0, 10.0, tail) == pytest.approx(bernstein, rel=1e-12)
    assert bernstein < 0.5 * 10.0 * math.sqrt(math.log(2 / tail) / 2000)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("tail", TAILS)
@pytest.mark.parametrize("q", [1e-3, 0.05, 0.5, 0.95])
def test_mean_rule_sides_miss_at_most_their_tail_on_two_point_laws(n, tail, q):
    assert _two_point_miss(n, q, -1.0, 1.0, tail, "lower", caps=[1.0]) <= tail
    assert _two_point_miss(n, q, -1.0, 1.0, tail, "upper") <= tail


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("q", [1e-4, 0.01, 0.3])
def test_truncation_keeps_the_lower_bound_valid_when_mass_lies_above_every_cap(n, q):
    # A regret-like variable: usually at the bottom of its range, rarely enormous.  Every cap
    # of the rule sits below the large value, so the truncated mean understates the mean,
    # and the lower bound stays below it with probability at least 1 - tail.
    tail, lo, bound = DESIGN_ALPHA, -16.0, 27.5
    point = rules.MeanPoint("x", (), bound, lower=lo)
    caps = mean_rule._caps(point, lo, math.inf)
    assert _two_point_miss(n, q, lo, 1e6, tail, "lower", caps=caps) <= tail


@pytest.mark.parametrize("n", [6, 12, 40])
def test_mean_rule_misses_at_most_its_tail_on_three_point_laws_exactly(n):
    # Atoms at -1, 0 and 1: a small variance, where the empirical Bernstein bound is the
    # narrower one; every composition of n draws is enumerated with its trinomial weight.
    tail = DESIGN_ALPHA
    for probs in ([0.01, 0.98, 0.01], [0.1, 0.8, 0.1], [0.0, 0.9, 0.1], [0.3, 0.4, 0.3]):
        mu = probs[2] - probs[0]
        miss_low = miss_high = 0.0
        for a in range(n + 1):
            for c in range(n + 1 - a):
                weight = stats.multinomial.pmf([a, n - a - c, c], n, probs)
                if weight == 0:
                    continue
                x = np.r_[np.full(a, -1.0), np.zeros(n - a - c), np.full(c, 1.0)]
                miss_low += weight * (mean_rule.lower_confidence(x, -1.0, 1.0, tail) > mu)
                miss_high += weight * (mean_rule.upper_confidence(x, -1.0, 1.0, tail) < mu)
        assert miss_low <= tail
        assert miss_high <= tail


@pytest.mark.slow
@pytest.mark.parametrize("law", ["beta", "lognormal_clipped", "uniform"])
def test_mean_rule_coverage_by_simulation_at_a_measurable_level(law):
    # 40,000 replications at tail 0.01: 400 misses expected at the nominal rate (the rule is
    # conservative: far fewer); a failure needs more than the critical count, which a rate
    # of 0.01 exceeds with probability 1e-3, and a doubled rate (0.02) with probability ~1.
    replications, tail, n = 40_000, 0.01, 30
    rng = np.random.default_rng(17)
    if law == "beta":
        draws, mu = rng.beta(0.3, 3.0, size=(replications, n)), 0.3 / 3.3
    elif law == "lognormal_clipped":
        raw = np.minimum(rng.lognormal(0.0, 1.5, size=(replications * 4, n)), 10.0)
        draws = raw[:replications]
        mu = float(np.minimum(rng.lognormal(0.0, 1.5, size=4_000_000), 10.0).mean())
    else:
        draws, mu = rng.uniform(0.0, 10.0, size=(replications, n)), 5.0
    hi = 1.0 if law == "beta" else 10.0
    misses = sum(mean_rule.lower_confidence(row, 0.0, hi, tail) > mu or
                 mean_rule.upper_confidence(row, 0.0, hi, tail) < mu for row in draws)
    assert misses < _critical(replications, 2 * tail)
    assert _critical(replications, 2 * tail) < stats.binom.ppf(1e-3, replications, 4 * tail)


def test_a_bootstrap_at_the_catalogs_level_misses_far_more_than_it_claims():
    # The finding behind the mean rule: with n = 6 seeds, a two-point law puts all six at one
    # atom with probability 2 * 2^-6, and then a bootstrap interval is that atom alone and
    # misses the mean, whatever level it claims; the exact rule's misses stay below its tail.
    n, tail = 6, DESIGN_ALPHA
    all_low = np.zeros(n)
    interval = statistics.bootstrap_interval(all_low, 1 - 2 * tail, seed=0)
    assert interval.high < 0.5  # misses the mean 0.5 of the fair two-point law on {0, 1}
    assert 0.5 ** n > 100 * tail
    assert _two_point_miss(n, 0.5, 0.0, 1.0, tail, "upper") <= tail


def test_mean_rule_pvalue_agrees_with_its_decision_and_holds_needs_an_upper_end():
    rng = np.random.default_rng(0)
    values = rng.uniform(0.0, 1.0, 400) + 0.2  # mean 0.7 > 0.5
    points = [rules.MeanPoint("x", values, 0.5, lower=0.0, upper=1.2)]
    verdict = rules.mean_bound("t", points, 1e-3)
    assert verdict.verdict == VIOLATED
    assert verdict.pvalue <= 1e-3
    assert rules.mean_bound("t", points, verdict.pvalue * 0.9).verdict != VIOLATED
    below = [rules.MeanPoint("x", values - 0.4, 0.5, lower=-0.4, upper=0.8)]
    assert rules.mean_bound("t", below, 1e-3).verdict == HOLDS
    # The same values without an upper end: not even a tight sample can show the bound.
    open_ended = rules.mean_bound("t", [rules.MeanPoint("x", values - 0.4, 0.5, lower=-0.4)], 1e-3)
    assert open_ended.verdict == INCONCLUSIVE
    assert "no a-priori upper end" in open_ended.details["reason"]


def test_mean_rule_detects_its_min_detectable_ratio_with_the_design_power():
    # The definition's figure: the easiest law the range allows, a constant, is rejected once
    # its mean passes min_detectable_ratio * bound, and not below it.
    n, lo, hi, bound, tail = 300, 0.0, 2.0, 1.0, 1e-4
    verdict = rules.mean_bound("t", [rules.MeanPoint("x", np.full(n, 0.5), bound, lower=lo, upper=hi)], tail)
    easiest = verdict.min_detectable_ratio * bound
    for factor, expected in ((1 + 1e-9, VIOLATED), (1 - 1e-9, INCONCLUSIVE)):
        constant = [rules.MeanPoint("x", np.full(n, easiest * factor), bound, lower=lo, upper=hi)]
        assert rules.mean_bound("t", constant, tail).verdict == expected
    # Beside it, the figure for every law within the range: a two-point law on [lower, cap]
    # with the mean there (the law hardest for Hoeffding) is declared violated, computed
    # exactly, with at least the design power.
    row = verdict.details["points"]["x"]
    assert row["every_law_condition"] == f"for every law of X within [0, {hi:g}]"
    mu = row["min_detectable_ratio_every_law"] * bound
    caps = mean_rule._caps(rules.MeanPoint("x", (), bound, lower=lo, upper=hi), lo, hi)
    cap = min(c for c in caps if c >= mu)
    p_hi = (mu - lo) / (cap - lo)
    detected = sum(stats.binom.pmf(k, n, p_hi) for k in range(n + 1)
                   if max(mean_rule.lower_confidence(np.r_[np.full(k, cap), np.full(n - k, lo)], lo, c,
                                                     tail / len(caps)) for c in caps) > bound)
    assert detected >= DESIGN_POWER


def test_violation_sample_size_is_the_smallest_that_reaches_the_ratio():
    tail, lower, bound, ratio = DESIGN_ALPHA / 8, -32.0, 36.6, 16.0
    n = mean_rule.violation_sample_size(bound, lower, ratio, tail)
    point = rules.MeanPoint("x", (), bound, lower=lower)
    caps = [c for c in mean_rule._caps(point, lower, math.inf) if c >= ratio * bound]

    def shift(m):
        return min(mean_rule.detectable_shift(m, c - lower, tail / 7) for c in caps)

    assert shift(n) <= (ratio - 1) * bound < shift(n - 1)
    with pytest.raises(ValueError, match="ratio"):
        mean_rule.violation_sample_size(bound, lower, 1e6, tail)


# ------------------------------------------------------------------------------------------
# Equivalence
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [300, 1000])
def test_equivalence_false_hold_at_the_margin_is_at_most_the_tail(n):
    # A bias exactly at the margin (the edge of "holds"): the chance that the rule says holds,
    # enumerated over a two-point law on [-1, 1] with that mean.
    margin, alpha = 0.1, 1e-3
    q = (1 + margin) / 2  # mean = margin
    total = 0.0
    for k in range(n + 1):
        x = np.r_[np.full(k, 1.0), np.full(n - k, -1.0)]
        v = rules.equivalence("t", [rules.EqualityPoint("x", x, 0.0, -1.0, 1.0, margin)], alpha)
        if v.verdict == HOLDS:
            total += stats.binom.pmf(k, n, q)
    assert total <= alpha / 2


def test_equivalence_never_holds_by_failing_to_reject():
    values = np.random.default_rng(1).choice([-1.0, 1.0], 50)
    v = rules.equivalence("t", [rules.EqualityPoint("x", values, 0.0, -1.0, 1.0, 0.05)], 1e-3)
    assert v.verdict == INCONCLUSIVE  # no bias found, but nothing shown either
    assert v.min_detectable_ratio > 1


# ------------------------------------------------------------------------------------------
# Holm's step-down over a run
# ------------------------------------------------------------------------------------------


def test_holm_family_agrees_with_statsmodels_on_families_with_ties_and_boundary_values(monkeypatch):
    # 2,000 families of 1 to 40 p-values: half drawn from Holm's own thresholds alpha / j (hit
    # exactly, so that "<=" is tested), a hair either side of them, 0 and 1, where ties are the
    # rule; half uniform on (0, 2 alpha), without ties.
    # statsmodels' multipletests calls gc.collect() on every call (about 70 ms here); the
    # comparison switches that off, which changes no number.
    from statsmodels.stats.multitest import multipletests

    monkeypatch.setattr("gc.collect", lambda *args: 0)
    rng, alpha = np.random.default_rng(42), 1e-3
    thresholds = alpha / np.arange(1, 41)
    values = np.r_[thresholds, np.nextafter(thresholds, 0), np.nextafter(thresholds, 1), 0.0, 1.0]
    tied = 0
    for _ in range(2000):
        m = int(rng.integers(1, 41))
        p = rng.choice(values, size=m) if rng.random() < 0.5 else rng.uniform(0, 2 * alpha, m)
        tied += len(set(p)) < len(p)
        assert list(rules.holm_family(p, alpha).reject) == list(multipletests(p, alpha=alpha, method="holm")[0])
    assert 500 < tied < 1000


def _holm_by_the_book(pvalues, alpha):
    """Holm (1979) step by step: reject the smallest while it is <= alpha / (hypotheses left)."""
    left = sorted(range(len(pvalues)), key=lambda i: (pvalues[i], i))
    reject = [False] * len(pvalues)
    going = True
    for rank, i in enumerate(left):
        going = going and pvalues[i] <= alpha / (len(pvalues) - rank)
        reject[i] = going
    return tuple(reject)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12), st.floats(0.001, 0.5))
def test_holm_family_agrees_with_the_definition(pvalues, alpha):
    with mock.patch("gc.collect"):  # multipletests' gc.collect() on every call: no number changes
        family = rules.holm_family(pvalues, alpha)
    assert family.reject == _holm_by_the_book(pvalues, alpha)
    # A rejected claim is decided at its rank's threshold, the others at alpha / m.
    m = len(pvalues)
    for i, p in enumerate(pvalues):
        assert family.ranks[i] == 1 + sum(q < p for q in pvalues)
        assert family.levels[i] == (alpha / (m - family.ranks[i] + 1) if family.reject[i] else alpha / m)


def test_holm_family_stops_at_the_first_non_rejection_and_ties_do_not_help():
    family = rules.holm_family([1e-4, 0.5, 1e-4, 0.02], 0.05)
    assert family.reject == (True, False, True, True)
    # p = 0.02 at rank 3 of 4 is tested at 0.05 / 2; a smaller p after a failure is not rejected.
    assert rules.holm_family([0.03, 0.03, 0.001], 0.05).reject == (False, False, True)
    assert rules.holm_family([1.0] * 5, 0.05).levels == (0.01,) * 5


@pytest.mark.slow
def test_holm_family_wise_error_by_simulation(monkeypatch):
    # 30 claims, 20 true (uniform p-values, positively correlated through a shared term) and
    # 10 false; 20,000 runs at alpha = 0.05: a family-wise rate of 0.05 stays below the
    # critical count with probability 1 - 1e-3, a doubled rate (0.1) exceeds it.
    runs, alpha = 20_000, 0.05
    rng = np.random.default_rng(3)
    errors = 0
    monkeypatch.setattr("gc.collect", lambda *args: 0)  # multipletests' gc.collect(): 70 ms a call
    for _ in range(runs):
        shared = rng.normal()
        z_true = 0.7 * shared + math.sqrt(1 - 0.49) * rng.normal(size=20)
        p = np.r_[stats.norm.sf(z_true), rng.uniform(0, 1e-6, size=10)]
        errors += any(rules.holm_family(p, alpha).reject[:20])
    assert errors < _critical(runs, alpha)
    assert _critical(runs, alpha) < stats.binom.ppf(1e-3, runs, 2 * alpha)


# ------------------------------------------------------------------------------------------
# The runner: one family, and a claim that raises stops nothing else
# ------------------------------------------------------------------------------------------


def _raising(config, seed):
    raise RuntimeError("planted failure in a trial")


def test_a_claim_whose_trial_raises_gets_an_error_verdict_and_the_others_finish(monkeypatch, tmp_path):
    everything = catalog.load()
    broken = dataclasses.replace(everything["iln.lemma5.alpha_l1"], trial=_raising)
    patched = {**everything, broken.id: broken}
    monkeypatch.setattr(catalog, "load", lambda: dict(patched))
    monkeypatch.setattr(catalog, "get", lambda claim_id: patched[claim_id])
    result = runner.run(["iln.lemma5.alpha_l1", "iln.lemma3.grad_norm"], profile="smoke", jobs=1,
                        store=tmp_path / "s.sqlite", quiet=True)
    verdicts = {o.claim.id: o.verdict for o in result.outcomes}
    assert verdicts["iln.lemma5.alpha_l1"].verdict == ERROR
    details = verdicts["iln.lemma5.alpha_l1"].details
    assert "planted failure" in details["exception"]
    assert details["stage"] == "trial"
    assert details["reproduce"] == "iln-verify run iln.lemma5.alpha_l1 --profile smoke --seed 0"
    assert verdicts["iln.lemma3.grad_norm"].verdict == HOLDS
    # Neither the erring claim nor the exact (deterministic) one is a member of the family.
    assert verdicts["iln.lemma3.grad_norm"].family["size"] == 0
    assert verdicts["iln.lemma3.grad_norm"].family["member"] is False
    assert not result.all_match


def test_every_verdict_of_a_run_records_its_family(tmp_path):
    result = runner.run(["iln.lemma5.alpha_l1", "iln.lemma3.grad_norm"], profile="smoke", jobs=1,
                        store=tmp_path / "s.sqlite", quiet=True, alpha=1e-3)
    for outcome in result.outcomes:
        # Both are deterministic invariants: exact, outside the family, with the reason.
        assert outcome.verdict.exact
        assert outcome.verdict.family["size"] == 0
        assert outcome.verdict.family["alpha"] == 1e-3
        assert outcome.to_json()["family"]["member"] is False
        assert outcome.to_json()["family"]["why"].startswith("exact or deterministic decision")


def test_verdicts_say_whether_they_can_fail_and_the_printed_and_corrected_sub_verdicts():
    points = [rules.TailPoint("small", 0, 100, 0.5), rules.TailPoint("big", 40, 1000, 0.01, corrected=0.1)]
    verdict = rules.probability_bound("t", points, 1e-3)
    assert verdict.verdict == "holds_after_correction"
    assert (verdict.verdict_printed, verdict.verdict_corrected) == (VIOLATED, HOLDS)
    assert verdict.can_fail is True
    # The worst ratio is reached where the check can fail: 0.04 / 0.01.
    assert verdict.worst_ratio == pytest.approx(4.0)
    assert verdict.worst_instance["point"] == "big"
    round_trip = type(verdict).from_json(verdict.to_json())
    assert round_trip.worst_instance == verdict.worst_instance
    assert round_trip.verdict_corrected == HOLDS
    invariant = rules.invariant("t", broken=False, share=0.0, checked=5, alpha=1e-3, counterexample=None,
                                n_trials=1, details={}, statistic=0.5, bound=1.0)
    assert (invariant.can_fail, invariant.worst_ratio, invariant.verdict_corrected) == (True, 0.5, None)


# ------------------------------------------------------------------------------------------
# One meaning for min_detectable_ratio and can_fail (issue 42): the grid's weakest point.
# ------------------------------------------------------------------------------------------


def _weakest_point_blind_verdicts():
    """A verdict from each rule on a grid with one point that can detect and one that cannot
    (where the statement could be false)."""
    values = np.full(400, 0.05)
    rate_slopes = np.random.default_rng(3).normal(1.0, 0.01, 24)
    b = np.linspace(0.1, 0.2, 30)
    return {
        # 10 trials cannot show P > 0.5 at level 1 - 1e-5, while 400 can.
        "probability": rules.probability_bound("t", [rules.tail_point("strong", values, 0.5, 0.1),
                                                     rules.TailPoint("blind", 0, 10, 0.5)], 1e-5),
        # a variable with no a-priori lower end cannot be shown above its bound.
        "mean": rules.mean_bound("t", [rules.MeanPoint("strong", values, 0.5, lower=0.0, upper=1.0),
                                       rules.MeanPoint("blind", values, 0.5, upper=1.0)], 1e-3),
        "equivalence": rules.equivalence("t", [rules.EqualityPoint("strong", values, 0.05, 0.0, 1.0, 0.1),
                                               rules.EqualityPoint("blind", np.r_[values, 2.0], 0.05, 0.0, 1.0, 0.1)],
                                         1e-3),
        # a point of ties only detects nothing.
        "comparison": rules.paired_comparison("t", [rules.PairedPoint("strong", a=b - 0.05, b=b),
                                                    rules.PairedPoint("blind", a=b[:4], b=b[:4])], 1e-3),
        "at_some_setting": rules.at_some_setting("t", {"s": [rules.PairedPoint("strong", a=b - 0.05, b=b)],
                                                       "t": [rules.PairedPoint("blind", a=b[:4], b=b[:4])]}, 1e-3),
        # 5 repetitions are below the sign test's minimum.
        "rate": rules.rate_bound("t", [rules.RatePoint("strong", rate_slopes, 2.0),
                                       rules.RatePoint("blind", rate_slopes[:5], 2.0)], 1e-3),
        "invariant": rules.invariant("t", broken=False, share=0.0, checked=0, alpha=1e-3, counterexample=None,
                                     n_trials=0, details={}),
    }


@pytest.mark.parametrize("rule", list(_weakest_point_blind_verdicts()))
def test_a_grid_whose_weakest_point_cannot_fail_cannot_fail_and_does_not_hold(rule):
    verdict = _weakest_point_blind_verdicts()[rule]
    assert math.isinf(verdict.min_detectable_ratio), rule
    assert verdict.can_fail is False
    assert verdict.verdict != HOLDS
    if rule != "invariant":  # the strong point's figure is kept beside it
        assert math.isfinite(verdict.min_detectable_ratio_best_point), rule
    # The same through JSON: "inf", and can_fail derived again (never stored state).
    data = verdict.to_json()
    assert data["min_detectable_ratio"] == "inf"
    assert data["can_fail"] is False
    assert type(verdict).from_json(data).can_fail is False


def test_no_verdict_reports_can_fail_with_an_infinite_ratio():
    for rule, verdict in _weakest_point_blind_verdicts().items():
        assert not (verdict.can_fail and math.isinf(verdict.min_detectable_ratio)), rule
    with pytest.raises(TypeError):
        # can_fail is derived from the ratio: a verdict cannot be built with it set.
        type(verdict)(**{**dataclasses.asdict(verdict), "can_fail": True})


def test_the_ratio_is_the_weakest_points_and_a_point_that_cannot_be_false_is_left_out():
    # Two detectable points (400 and 100 trials) and a bound of 1 that no law can exceed.
    points = [rules.tail_point("many", np.full(400, 0.05), 0.5, 0.1), rules.tail_point("few", np.full(100, 0.05), 0.5, 0.1),
              rules.tail_point("vacuous", np.full(60, 0.05), 0.5, 1.0)]
    verdict = rules.probability_bound("t", points, 1e-3)
    rows = verdict.details["points"]
    assert verdict.min_detectable_ratio == rows["few"]["min_detectable_ratio"] > rows["many"]["min_detectable_ratio"]
    assert verdict.min_detectable_ratio_best_point == rows["many"]["min_detectable_ratio"]
    assert verdict.details["points_that_cannot_be_false"] == ["vacuous"]
    assert verdict.can_fail
    assert verdict.verdict == HOLDS


def test_a_grids_holds_side_is_tested_at_the_whole_alpha_and_only_the_violation_side_is_split():
    # G points: each point's violation at alpha / G, its holding at alpha (an intersection).
    alpha, n, bound = 1e-3, 200, 0.1
    k_holds = next(k for k in range(n, -1, -1)
                   if statistics.clopper_pearson(k, n, 1 - alpha, alternative="less").high < bound)
    # At k_holds the upper end at 1 - alpha is below the bound, at 1 - alpha / G it is not.
    grid = [rules.TailPoint(f"p{i}", k_holds, n, bound) for i in range(8)]
    assert statistics.clopper_pearson(k_holds, n, 1 - alpha / 8, alternative="less").high >= bound
    verdict = rules.probability_bound("t", grid, alpha)
    assert verdict.verdict == HOLDS
    row = verdict.details["points"]["p0"]
    assert row["levels"] == {"violated": 1 - alpha / 8, "holds": 1 - alpha}
    assert verdict.level == 1 - alpha / 8  # the verdict's level is the violation side's
    # The mean rule likewise.
    values = np.full(n, 0.3)
    mean = rules.mean_bound("t", [rules.MeanPoint(f"p{i}", values, 0.5, lower=0.0, upper=1.0) for i in range(4)], alpha)
    assert mean.details["points"]["p0"]["levels"] == {"violated": 1 - alpha / 4, "holds": 1 - alpha}
    assert mean.details["points"]["p0"]["interval"][1] == pytest.approx(
        mean_rule.upper_confidence(values, 0.0, 1.0, alpha))
