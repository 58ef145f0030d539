"""The rate rule keeps its stated level on skewed slopes: the exact sign test of the median.

Of ``n`` independent slopes from any continuous law whose median is the bound, the number above
it is ``Bin(n, 1/2)`` whatever the law's shape, and the rule decides from that count alone; so
its false-alarm rate is computed exactly below, at the catalog's repetition counts and per-side
levels, on gamma, lognormal and exponential slopes (and checked by simulation where a rate is
measurable: 1e-2 and 5e-2).  The one-sided t test of the mean slope it replaced is simulated on
the same laws: at a per-side level of 1e-3 it errs 18 to 45 times too often.  Each simulation
states its replications and its critical count (from ``scipy.stats.binom``, so that the test
itself fails falsely about once in a thousand runs).
"""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from verification.catalog import CATALOG_RUN_SHARE, DESIGN_ALPHA, DESIGN_POWER
from verification.rules import RatePoint, minimum_repetitions, rate_bound
from verification.rules import rate as rate_rule
from verification.statistics import binomial_power
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED

#: the catalog's repetition counts (the 2026-11-24 benchmark's 15, the sign test's minimum 16 and
#: 17 at its levels, the smoke plan's 24) and per-side levels (half and all of a whole-catalog
#: run's share, the design level), with measurable levels for the simulations.
SIZES = (15, 16, 17, 24)
CATALOG_TAILS = (CATALOG_RUN_SHARE / 2, CATALOG_RUN_SHARE, DESIGN_ALPHA)

#: skewed laws of the slopes, each shifted so that its median is 0: (name, scipy law).
SKEWED = [("gamma(0.5)", stats.gamma(0.5)), ("lognormal(sigma=1.5)", stats.lognorm(1.5)),
          ("exponential", stats.expon())]


def _critical(replications: int, rate: float) -> int:
    """The smallest count whose probability under ``rate`` is below 1e-3."""
    return int(stats.binom.isf(1e-3, replications, rate)) + 1


def _slopes(above: int, below: int, bound: float, law, rng) -> np.ndarray:
    """``above`` slopes above ``bound`` and ``below`` below it, drawn from ``law`` shifted to
    its median at ``bound`` and conditioned on the side (each side's values by inversion)."""
    median = law.median()
    up = law.ppf(rng.uniform(0.5, 1.0, above)) - median + bound
    down = law.ppf(rng.uniform(0.0, 0.5, below)) - median + bound
    values = np.r_[up, down]
    rng.shuffle(values)
    return values


@pytest.mark.parametrize("tail", CATALOG_TAILS)
@pytest.mark.parametrize("n", SIZES)
def test_level_is_exact_on_skewed_slopes_with_the_median_at_the_bound(n, tail):
    # For each count k of slopes above the bound the rule's decision is read off slopes drawn
    # from each skewed law (the same decision whatever the law: it sees the count only); the
    # false "violated" rate is then sum_k P[Bin(n, P[X > bound]) = k] [violated at k], exactly,
    # with P[X > bound] = 1/2 for a law whose median is the bound.  "Holds" comes from the count
    # below the bound, and a median a hair above the bound (the statement false) gives it no more
    # often than the median at the bound does: the same sum bounds the false "holds" rate.
    rng = np.random.default_rng([n, round(1 / tail)])
    bound, alpha = 2.0, 2 * tail  # a two-sided point: alpha / 2 per side
    c = rate_rule.sign_test_critical(n, tail)
    for name, law in SKEWED:
        assert law.sf(law.median()) == pytest.approx(0.5, rel=1e-12)
        violated, held = np.zeros(n + 1), np.zeros(n + 1)
        for k in range(n + 1):
            # The lower side (at 1.0) lies below every slope: it never fails, and holds when n >= c.
            point = RatePoint("T", _slopes(k, n - k, bound, law, rng), 2.0, lower=1.0, tolerance=0.0)
            verdict = rate_bound("t", [point], alpha)
            violated[k] = verdict.verdict == VIOLATED
            held[k] = verdict.verdict == HOLDS
        pmf = stats.binom.pmf(np.arange(n + 1), n, law.sf(law.median()))
        # The rule rejects exactly from the critical count on, and holds exactly when as many lie
        # below; its size is the binomial tail at the critical count.
        assert list(violated) == [k >= c for k in range(n + 1)], name
        # "Holds" needs both sides of the band to hold (an intersection): each at the whole alpha.
        c_holds = rate_rule.sign_test_critical(n, alpha)
        # (and only where the violation side can reject at all: else the point is refused).
        assert list(held) == [c <= n and n - k >= c_holds and n >= c_holds for k in range(n + 1)], name
        size = stats.binom.sf(c - 1, n, 0.5)
        assert pmf @ violated == pytest.approx(size, rel=1e-9, abs=1e-300)
        held_rate = stats.binom.sf(c_holds - 1, n, 0.5) if c <= n else 0.0
        assert pmf @ held == pytest.approx(held_rate, rel=1e-9, abs=1e-300)
        assert size <= tail
        assert pmf @ held <= alpha
    # The catalog's n below the sign test's minimum cannot reject at all (and the rule says so).
    if n < minimum_repetitions(tail):
        assert c == n + 1


@pytest.mark.parametrize(("n", "alpha"), [(17, 5e-2), (24, 5e-2), (17, 1e-2)])
@pytest.mark.parametrize(("name", "law"), SKEWED, ids=[s[0] for s in SKEWED])
def test_false_violation_by_simulation_at_a_measurable_level(name, law, n, alpha):
    # One side at alpha; slopes drawn from the law with its median at the bound.  The rate must
    # stay below the critical count of the rule's exact size, and reach near it (the test has teeth).
    replications = 1000 if alpha == 5e-2 else 3000
    size = stats.binom.sf(rate_rule.sign_test_critical(n, alpha) - 1, n, 0.5)
    assert size <= alpha
    rng = np.random.default_rng([n, round(1 / alpha), len(name)])
    bound = 2.1
    violated = 0
    for _ in range(replications):
        slopes = law.rvs(size=n, random_state=rng) - law.median() + bound
        violated += rate_bound("t", [RatePoint("T", slopes, 2.0, tolerance=0.1)], alpha).verdict == VIOLATED
    assert violated < _critical(replications, size), (violated, size * replications)
    assert violated > stats.binom.ppf(1e-3, replications, size)


@pytest.mark.parametrize(("name", "law"), SKEWED, ids=[s[0] for s in SKEWED])
def test_the_t_test_of_the_mean_it_replaced_errs_tens_of_times_too_often(name, law):
    # The rule's old test, vectorised here: one-sided t test of the mean slope at 1e-3, 17
    # repetitions, on the side of the laws' short tail (a lower bound of right-skewed slopes),
    # with the mean at the bound.  Measured: 18x (exponential), 36x (gamma 0.5), 45x (lognormal
    # 1.5; 1.0 gives about 45x too); at 1e-4 64x to 200x.  A rate of 5x the level is the floor.
    replications, n, tail = 100_000, 17, 1e-3
    x = law.rvs(size=(replications, n), random_state=np.random.default_rng(len(name))) - law.mean()
    t = x.mean(axis=1) / (x.std(axis=1, ddof=1) / math.sqrt(n))
    alarms = int(np.sum(t < -stats.t.ppf(1 - tail, n - 1)))
    assert stats.beta.ppf(1e-3, alarms, replications - alarms + 1) > 5 * tail, alarms / replications


def test_the_pvalue_and_the_interval_are_those_of_the_deciding_test():
    # Violated at level a exactly when p <= a (Holm's step-down needs it), and exactly when the
    # median's sign-test interval lies past the bound; holds exactly when it lies below.
    rng = np.random.default_rng(3)
    for _ in range(200):
        slopes = rng.normal(2.1 + rng.normal(0, 0.05), 0.05, 20)
        point = RatePoint("T", slopes, 2.0, tolerance=0.1)
        p = rate_bound("t", [point], 0.5).pvalue
        for a in (1e-4, 1e-2, 0.2):
            verdict = rate_bound("t", [point], a)
            assert (verdict.verdict == VIOLATED) == (p <= a)
            low, high = verdict.interval
            assert (verdict.verdict == VIOLATED) == (low > 2.1)
            assert (verdict.verdict == HOLDS) == (high < 2.1)
            assert low <= np.median(slopes) <= high


def test_the_interval_is_the_order_statistics_the_critical_count_names():
    slopes = np.arange(1.0, 18.0)  # 17 slopes, 1 to 17
    point = rate_bound("t", [RatePoint("T", slopes, 20.0)], 2.5e-5).details["points"]["T"]
    assert point["critical_count"] == 17  # 2^-17 <= 2.5e-5 < P[Bin(17, 1/2) >= 16] = 1.4e-4
    assert point["interval"] == [1.0, 17.0]  # x_(1), x_(17)
    assert point["median"] == 9.0
    assert point["printed_holds"]  # all 17 below 20
    point = rate_bound("t", [RatePoint("T", slopes, 20.0)], 0.1).details["points"]["T"]
    c = point["critical_count"]  # one side at 0.1: P[Bin(17, 1/2) >= c] <= 0.1 < P[... >= c - 1]
    assert stats.binom.sf(c - 1, 17, 0.5) <= 0.1 < stats.binom.sf(c - 2, 17, 0.5)
    assert point["interval"] == [float(18 - c), float(c)]


@pytest.mark.parametrize(("tail", "fewest"), [(1.25e-5, 17), (2.5e-5, 16), (DESIGN_ALPHA, 15), (5e-4, 11),
                                              (2.0 ** -17, 17)])
def test_minimum_repetitions_is_where_all_on_one_side_first_rejects(tail, fewest):
    assert minimum_repetitions(tail) == fewest
    assert stats.binom.sf(fewest - 1, fewest, 0.5) <= tail < stats.binom.sf(fewest - 2, fewest - 1, 0.5)


def test_too_few_repetitions_for_the_level_are_reported_without_a_decision():
    # 15 slopes far above the bound: at 1e-3 (5e-4 per side... one side here) they decide; at a
    # whole-catalog run's 1.25e-5 per side they cannot (2^-15 = 3.1e-5), and the verdict says so.
    slopes = np.random.default_rng(1).normal(3.0, 0.05, 15)
    assert rate_bound("t", [RatePoint("T", slopes, 2.0)], 1e-3).verdict == VIOLATED
    verdict = rate_bound("t", [RatePoint("T", slopes, 2.0), RatePoint("B", slopes + 1, 4.0)], CATALOG_RUN_SHARE)
    assert verdict.verdict == INCONCLUSIVE
    assert "15 repetitions, fewer than the 17 the sign test needs" in verdict.details["reason"]
    assert verdict.pvalue == 1.0
    assert math.isinf(verdict.min_detectable_ratio)
    assert verdict.statistic == pytest.approx(3.0, abs=0.1)  # the numbers are reported
    refused = rate_bound("t", [RatePoint("T", np.full(20, 3.0), 2.0)], 1e-3, refuse="not independent")
    assert refused.verdict == INCONCLUSIVE
    assert refused.details["reason"] == "not independent"


def test_the_mean_and_its_t_interval_are_shown_and_never_decide():
    # Right-skewed slopes whose mean lies above the bound and median below (36 near 1.9, 4 near
    # 10: a machine's hiccups): the sign test decides on the median ("holds"), the t interval of
    # the mean is beside it, marked.
    rng = np.random.default_rng(5)
    slopes = rng.permutation(np.r_[rng.normal(1.9, 0.02, 36), rng.normal(10.0, 1.0, 4)])
    assert np.median(slopes) < 2.1 < slopes.mean()
    verdict = rate_bound("t", [RatePoint("T", slopes, 2.0, tolerance=0.1)], 1e-3)
    point = verdict.details["points"]["T"]
    assert verdict.verdict == HOLDS
    assert verdict.statistic == point["median"] == pytest.approx(np.median(slopes))
    assert point["mean_not_deciding"] == pytest.approx(slopes.mean())
    low, high = point["t_interval_not_deciding"]
    assert low < point["mean_not_deciding"] < high
    assert "mean" not in point  # the report plots a row with "mean" and "interval" as a mean's
    assert "median" in verdict.details["decided_on"]


def test_min_detectable_ratio_is_1_and_the_observed_shape_figure_the_law_shifted_to_the_detectable_share():
    rng = np.random.default_rng(0)
    slopes = rng.normal(1.8, 0.05, 24)
    verdict = rate_bound("t", [RatePoint("T", slopes, 2.0, tolerance=0.1)], 1e-3)
    share = verdict.details["points"]["T"]["detectable_share"]
    # The share of slopes above the bound that the test detects with the design power, exactly.
    assert binomial_power(24, 0.5, share, 1e-3) >= DESIGN_POWER > binomial_power(24, 0.5, share * (1 - 1e-9), 1e-3)
    # The observed law shifted until that share of it lies above 2.1: its median over 2.1.
    shift = 2.1 - np.quantile(slopes, 1 - share)
    assert np.mean(slopes + shift > 2.1 - 1e-12) == pytest.approx(share, abs=1 / 24)
    assert verdict.details["points"]["T"]["min_detectable_ratio_observed_shape"]["upper"] == pytest.approx(
        (np.median(slopes) + shift) / 2.1)
    # The definition's figure: slopes concentrated just past the bound are all past it, and the
    # sign test rejects them with certainty from its minimum of repetitions on.
    assert verdict.min_detectable_ratio == 1.0
    concentrated = rate_bound("t", [RatePoint("T", np.full(24, 2.1 * (1 + 1e-9)), 2.0, tolerance=0.1)], 1e-3)
    assert concentrated.verdict == VIOLATED
    assert verdict.tightness == pytest.approx(np.median(slopes) / 2.1)


def test_runs_distribution_is_the_enumerated_one():
    # Every arrangement of 5 marks above and 6 below, counted: the exact law of the runs.
    above, below = 5, 6
    counts = np.zeros(above + below + 1)
    for places in itertools.combinations(range(above + below), above):
        marks = np.zeros(above + below, dtype=bool)
        marks[list(places)] = True
        counts[1 + np.count_nonzero(marks[1:] != marks[:-1])] += 1
    cdf = np.cumsum(counts) / counts.sum()
    for runs in range(2, above + below + 1):
        assert rate_rule._runs_cdf(runs, above, below) == pytest.approx(cdf[runs], rel=1e-12)


def test_serially_dependent_repetitions_are_not_decided_and_shuffled_ones_are():
    # Slopes that drift with the order measured (a machine slowing down): too few runs above and
    # below their median.  The same values in a random order decide.
    rng = np.random.default_rng(2)
    drifting = np.sort(rng.normal(3.0, 0.05, 20))
    verdict = rate_bound("t", [RatePoint("T", drifting, 2.0, time_ordered=True)], 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert "serial dependence" in verdict.details["reason"]
    assert rate_bound("t", [RatePoint("T", drifting, 2.0)], 1e-3).verdict == VIOLATED  # not time-ordered
    shuffled = rng.permutation(drifting)
    decided = rate_bound("t", [RatePoint("T", shuffled, 2.0, time_ordered=True)], 1e-3)
    assert decided.verdict == VIOLATED
    assert decided.details["points"]["T"]["serial_dependence_pvalue"] > rate_rule.SERIAL_LEVEL


def test_serial_test_keeps_its_level_on_independent_repetitions():
    # Exchangeable slopes: the runs test rejects at most SERIAL_LEVEL of the time (17 slopes,
    # 4,000 replications; the discrete test's size is below 0.01).
    replications = 4000
    rng = np.random.default_rng(9)
    rejections = sum(rate_rule.serial_dependence_pvalue(rng.exponential(size=17)) <= rate_rule.SERIAL_LEVEL
                     for _ in range(replications))
    assert rejections < _critical(replications, rate_rule.SERIAL_LEVEL)


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
    with pytest.raises(ValueError, match="tail"):
        minimum_repetitions(0.0)
    with pytest.raises(ValueError, match="n must"):
        rate_rule.sign_test_critical(0, 0.05)


def test_a_lower_side_alone_spends_all_of_alpha_on_it_and_ignores_fast_slopes():
    rng = np.random.default_rng(3)
    fast = rate_bound("t", [RatePoint("K", rng.normal(3.0, 0.05, 16), None, lower=1.0, tolerance=0.2)], 1e-3)
    slow = rate_bound("t", [RatePoint("K", rng.normal(0.3, 0.05, 16), None, lower=1.0, tolerance=0.2)], 1e-3)
    assert fast.verdict == HOLDS
    assert slow.verdict == VIOLATED
    assert slow.details["points"]["K"]["pvalues"].keys() == {"lower"}
    assert slow.pvalue == 2.0 ** -16  # all 16 below the bound
    assert slow.bound == pytest.approx(0.8)
    assert slow.statistic < slow.bound


def test_a_rate_point_needs_a_side():
    with pytest.raises(ValueError, match="upper and lower"):
        RatePoint("K", [1.0] * 10, None)
