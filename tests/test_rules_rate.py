"""The rate rule keeps its stated level, and its power figure is the t test's.

The rule's t interval rests on slopes that are near normal (each is a least-squares fit of
the logarithms of many timing ratios), so its level is simulated on normal slopes at the
boundary of the statement, at levels where a rate is measurable (1e-2 and 5e-2) and at the
repetition counts a runtime benchmark affords.  Each simulation states its replications, its
critical count (from ``scipy.stats.binom``, so that the test itself fails falsely about once
in a thousand runs) and the miss rate it detects with probability 0.9, which is at most
twice the level.
"""

import math

import numpy as np
import pytest
from scipy import stats

from verification.catalog import DESIGN_POWER
from verification.rules import MIN_REPETITIONS, RatePoint, rate_bound
from verification.rules.rate import detectable_effect
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED

#: repetitions of the runtime benchmark: the rule's minimum, the committed benchmark's, more.
SIZES = (MIN_REPETITIONS, 15, 40)


def _critical(replications: int, rate: float) -> int:
    """The smallest count whose probability under ``rate`` is below 1e-3."""
    return int(stats.binom.isf(1e-3, replications, rate)) + 1


def _detectable(replications: int, critical: int) -> float:
    """The rate at which a count of at least ``critical`` comes with probability 0.9."""
    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (low, mid) if stats.binom.sf(critical - 1, replications, mid) >= 0.9 else (mid, high)
    return high


def _replications(alpha: float) -> int:
    # Enough that a doubling of the rate is detected: 1000 at 5e-2, 5000 at 1e-2.
    return int(50 / alpha)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("alpha", [1e-2, 5e-2])
def test_false_violation_and_false_hold_at_the_boundary_are_at_most_alpha(n, alpha):
    # At mean slope = exponent + tolerance the statement holds (just), so "violated" is a
    # false alarm; a hair above it the statement is false, so "holds" is a miss.  Both
    # happen with probability alpha for the exact t test; the count must not exceed the
    # binomial critical count at alpha.
    replications = _replications(alpha)
    critical = _critical(replications, alpha)
    assert _detectable(replications, critical) <= 2 * alpha  # a doubling is seen
    rng = np.random.default_rng([n, int(1 / alpha)])
    upper, tolerance, sd = 2.0, 0.1, 0.05
    violated = held = 0
    for _ in range(replications):
        slopes = rng.normal(upper + tolerance, sd, n)
        verdict = rate_bound("t", [RatePoint("T", slopes, upper, tolerance=tolerance)], alpha).verdict
        violated += verdict == VIOLATED
        held += verdict == HOLDS
    assert violated < critical, (violated, critical, replications)
    assert held < critical, (held, critical, replications)
    # ... and the test has teeth: both counts are near alpha * replications, not near 0.
    assert violated > stats.binom.ppf(1e-3, replications, alpha)
    assert held > stats.binom.ppf(1e-3, replications, alpha)


def test_a_band_keeps_its_level_on_its_lower_side():
    # A band spends alpha over its two sides: at the lower edge, "violated" comes from the
    # lower side at alpha / 2 (the upper side is far away).
    alpha, n = 5e-2, 15
    replications = _replications(alpha / 2)  # 2000
    critical = _critical(replications, alpha / 2)
    assert _detectable(replications, critical) <= alpha  # a doubling of alpha / 2 is seen
    rng = np.random.default_rng(7)
    violated = 0
    for _ in range(replications):
        slopes = rng.normal(1.9, 0.05, n)
        point = RatePoint("B", slopes, 4.0, lower=2.0, tolerance=0.1)
        violated += rate_bound("t", [point], alpha).verdict == VIOLATED
    assert violated < critical


def test_the_pvalue_is_that_of_the_deciding_test():
    # Violated at level a exactly when p <= a (Holm's step-down needs it).
    rng = np.random.default_rng(3)
    for _ in range(200):
        slopes = rng.normal(2.1 + rng.normal(0, 0.05), 0.05, 12)
        point = RatePoint("T", slopes, 2.0, tolerance=0.1)
        p = rate_bound("t", [point], 0.5).pvalue
        for a in (1e-4, 1e-2, 0.2):
            assert (rate_bound("t", [point], a).verdict == VIOLATED) == (p <= a)


@pytest.mark.parametrize(("n", "tail"), [(10, 5e-2), (15, 1e-3), (40, 1e-5)])
def test_detectable_effect_gives_the_design_power(n, tail):
    # The noncentral t power at the detectable shift is the design power ...
    d = detectable_effect(n, tail)
    critical = stats.t.ppf(1 - tail, n - 1)
    assert stats.nct.sf(critical, n - 1, d * math.sqrt(n)) == pytest.approx(DESIGN_POWER, abs=1e-6)
    # ... and a simulation of the t test agrees: 2000 replications, power 0.9 +- 3.3 sd.
    rng = np.random.default_rng(n)
    x = rng.normal(d, 1.0, (2000, n))
    t = x.mean(axis=1) / (x.std(axis=1, ddof=1) / math.sqrt(n))
    rate = float(np.mean(t > critical))
    assert abs(rate - DESIGN_POWER) < 3.3 * math.sqrt(DESIGN_POWER * (1 - DESIGN_POWER) / 2000)


def test_verdicts_and_min_detectable_ratio():
    rng = np.random.default_rng(0)
    far_above = rate_bound("t", [RatePoint("T", rng.normal(2.6, 0.05, 15), 2.0, tolerance=0.1)], 1e-3)
    below = rate_bound("t", [RatePoint("T", rng.normal(1.8, 0.05, 15), 2.0, tolerance=0.1)], 1e-3)
    assert far_above.verdict == VIOLATED
    assert far_above.counterexample["point"] == "T"
    assert below.verdict == HOLDS
    assert below.statistic == pytest.approx(1.8, abs=0.05)
    # min_detectable_ratio = (bound + d * sd) / bound, with the sample's sd plugged in.
    slopes = np.asarray(below.details["points"]["T"]["slopes"])
    expected = 1 + detectable_effect(15, 1e-3) * slopes.std(ddof=1) / 2.1
    assert below.min_detectable_ratio == pytest.approx(expected)
    assert below.tightness == pytest.approx(slopes.mean() / 2.1)


def test_fewer_than_the_minimum_repetitions_report_without_deciding():
    slopes = np.random.default_rng(1).normal(3.0, 0.05, MIN_REPETITIONS - 1)
    verdict = rate_bound("t", [RatePoint("T", slopes, 2.0)], 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert f"fewer than the {MIN_REPETITIONS}" in verdict.details["reason"]
    assert verdict.pvalue == 1.0
    assert math.isinf(verdict.min_detectable_ratio)
    assert verdict.statistic == pytest.approx(3.0, abs=0.1)  # the numbers are reported
    refused = rate_bound("t", [RatePoint("T", np.full(20, 3.0), 2.0)], 1e-3, refuse="not independent")
    assert refused.verdict == INCONCLUSIVE
    assert refused.details["reason"] == "not independent"


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"upper": -1.0}, "upper"), ({"upper": 2.0, "tolerance": -0.1}, "tolerance"),
    ({"upper": 2.0, "lower": 3.0}, "lower"), ({"upper": 2.0, "slopes": [1.0, math.nan]}, "slopes"),
])
def test_bad_points_are_refused_with_the_argument_named(kwargs, name):
    with pytest.raises(ValueError, match=name):
        RatePoint("T", **{"slopes": [2.0] * 10, **kwargs})


def test_bad_calls_are_refused():
    with pytest.raises(ValueError, match="points"):
        rate_bound("t", [], 1e-3)
    with pytest.raises(ValueError, match="alpha"):
        rate_bound("t", [RatePoint("T", [2.0] * 10, 2.0)], 0.0)
    with pytest.raises(ValueError, match="n must"):
        detectable_effect(1, 0.05)


def test_a_lower_side_alone_spends_all_of_alpha_on_it_and_ignores_fast_slopes():
    rng = np.random.default_rng(3)
    fast = rate_bound("t", [RatePoint("K", rng.normal(3.0, 0.05, 15), None, lower=1.0, tolerance=0.2)], 1e-3)
    slow = rate_bound("t", [RatePoint("K", rng.normal(0.3, 0.05, 15), None, lower=1.0, tolerance=0.2)], 1e-3)
    assert fast.verdict == "holds"
    assert slow.verdict == "violated"
    # One side: the whole alpha, so the interval's end is the one-sided t quantile at alpha.
    assert slow.details["points"]["K"]["pvalues"].keys() == {"lower"}
    assert slow.bound == pytest.approx(0.8)
    assert slow.statistic < slow.bound


def test_a_rate_point_needs_a_side():
    with pytest.raises(ValueError, match="upper and lower"):
        RatePoint("K", [1.0] * 10, None)
