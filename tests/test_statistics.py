"""The harness's statistics, themselves tested by simulation at worst-case-ish parameters.

Every simulated rate is decided by an exact binomial bound on the simulation itself, computed
with SciPy (not with the module under test): a rate that should be at most ``r`` fails the test
only when the Clopper-Pearson lower bound of the simulated rate at confidence ``1 - 1e-6``
exceeds ``r``, so each such assertion has false-alarm probability at most 1e-6. The measured
figures are recorded next to each test (coverage = 1 - miss rate).
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import special, stats

from verification.rules import mean as mean_rule
from verification.statistics import (
    Interval,
    RateFit,
    binomial_detectable,
    binomial_power,
    binomial_sample_size,
    bootstrap_interval,
    clopper_pearson,
    hoeffding_detectable_shift,
    hoeffding_sample_size,
    loglog_fit,
)

# False-alarm probability of each simulated-rate assertion below.
SIM_FALSE_ALARM = 1e-6


def _rate_lower_bound(count, reps):
    """Clopper-Pearson lower bound of a simulated rate at confidence 1 - SIM_FALSE_ALARM."""
    return 0.0 if count == 0 else stats.beta.ppf(SIM_FALSE_ALARM, count, reps - count + 1)


def _rate_upper_bound(count, reps):
    """Clopper-Pearson upper bound of a simulated rate at confidence 1 - SIM_FALSE_ALARM."""
    return 1.0 if count == reps else stats.beta.ppf(1 - SIM_FALSE_ALARM, count + 1, reps - count)


def binomial_tail_pvalue(k, n, p0):
    """The exact one-sided test's p-value ``P[Bin(n, p0) >= k]``: scipy's, as the rules use it."""
    return stats.binomtest(k, n, p0, alternative="greater").pvalue


def _assert_rate_at_most(count, reps, rate):
    assert _rate_lower_bound(count, reps) <= rate, (count, reps, rate)


def _assert_rate_at_least(count, reps, rate):
    assert _rate_upper_bound(count, reps) >= rate, (count, reps, rate)


# --------------------------------------------------------------------------------------------
# Clopper-Pearson and the exact binomial test
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize(("n", "level"), [(20, 0.9), (200, 0.95), (1000, 0.999)])
def test_clopper_pearson_exact_coverage_on_a_grid(n, level, alternative):
    # Coverage computed exactly (sum of the binomial pmf over the k whose interval contains p),
    # on a grid dense near 0 and 1 where the interval is most strained.
    table = [clopper_pearson(k, n, level, alternative) for k in range(n + 1)]
    low = np.array([ci.low for ci in table])
    high = np.array([ci.high for ci in table])
    grid = np.unique(np.concatenate([np.linspace(0, 1, 1001), np.geomspace(1e-6, 0.05, 300),
                                     1 - np.geomspace(1e-6, 0.05, 300)]))
    k = np.arange(n + 1)
    pmf = stats.binom.pmf(k[None, :], n, grid[:, None])
    covered = (low[None, :] <= grid[:, None]) & (grid[:, None] <= high[None, :])
    coverage = (pmf * covered).sum(axis=1)
    # Measured minimum over the grid (two-sided / each one-sided): n=20: 0.90099 / 0.90007;
    # n=200: 0.95038 / 0.95000; n=1000: 0.99902 / 0.99900. No Monte Carlo error here; the 1e-9
    # allows for the rounding of a sum of n + 1 pmf terms.
    assert coverage.min() >= level - 1e-9


@pytest.mark.parametrize(
    ("n", "p"),
    [(2000, 1e-3), (50, 0.02), (30, 0.5), (100, 0.999), (15, 0.3)],
)
def test_clopper_pearson_simulated_coverage(n, p):
    reps, level = 20_000, 0.95
    rng = np.random.default_rng(1)
    table = [clopper_pearson(k, n, level) for k in range(n + 1)]
    low = np.array([ci.low for ci in table])
    high = np.array([ci.high for ci in table])
    k = rng.binomial(n, p, reps)
    misses = int(np.sum((low[k] > p) | (high[k] < p)))
    # Measured coverage (1 - misses / reps): (2000, 1e-3): 0.9846; (50, 0.02): 0.9832;
    # (30, 0.5): 0.9591; (100, 0.999): 0.9957; (15, 0.3): 0.9815 -- all above 0.95, as the
    # exact computation above says. Allowance: the 1e-6 exact bound of the simulation.
    _assert_rate_at_most(misses, reps, 1 - level)


def test_clopper_pearson_rule_of_three():
    ci = clopper_pearson(0, 3000, 0.95, alternative="less")
    assert (ci.low, ci.level, ci.method) == (0.0, 0.95, "Clopper-Pearson (less)")
    # Exactly 1 - 0.05 ** (1 / 3000); "3 / n" is its first-order approximation.
    assert ci.high == pytest.approx(-math.expm1(math.log(0.05) / 3000), rel=1e-12)


@given(
    n=st.integers(1, 2000),
    k_fraction=st.floats(0, 1),
    levels=st.lists(st.floats(0.5, 0.999999), min_size=2, max_size=2, unique=True),
)
def test_clopper_pearson_contains_estimate_and_is_nested(n, k_fraction, levels):
    # (Below level 0.5 a one-sided bound may exclude k / n: the upper bound at level 0.25 of
    # 2 successes in 3 is 0.63.)
    k = round(k_fraction * n)
    small, large = sorted(levels)
    for alternative in ("two-sided", "less", "greater"):
        narrow = clopper_pearson(k, n, small, alternative)
        wide = clopper_pearson(k, n, large, alternative)
        assert 0.0 <= narrow.low <= k / n <= narrow.high <= 1.0
        assert wide.low <= narrow.low
        assert narrow.high <= wide.high
    # The two-sided interval at `level` has the ends of the one-sided ones at (1 + level) / 2.
    # (Equal up to the rounding of (1 - level) / 2 against 1 - (1 + level) / 2.)
    two = clopper_pearson(k, n, small)
    assert two.low == pytest.approx(clopper_pearson(k, n, (1 + small) / 2, "greater").low,
                                    rel=1e-12, abs=1e-300)
    assert two.high == pytest.approx(clopper_pearson(k, n, (1 + small) / 2, "less").high,
                                     rel=1e-12)


@given(n=st.integers(1, 500), k_fraction=st.floats(0, 1), p0=st.floats(0.001, 0.999),
       level=st.floats(0.5, 0.9999))
def test_one_sided_interval_and_tail_test_agree(n, k_fraction, p0, level):
    k = round(k_fraction * n)
    low = clopper_pearson(k, n, level, "greater").low
    pvalue = binomial_tail_pvalue(k, n, p0)
    # low > p0 exactly when P[Bin(n, p0) >= k] < 1 - level; away from the boundary (the
    # relative 1e-9 absorbs the beta quantile's rounding) the two decisions must agree.
    if abs(pvalue - (1 - level)) > 1e-9 * (1 - level):
        assert (low > p0) == (pvalue < 1 - level)


#: the catalog's sample sizes (trials per point of its probability bounds, seeds of its sign
#: tests and pilots) and per-side tails (its pilots' 0.05 down to the smallest per-point share of
#: a whole-catalog run, about 5e-7): where the rules compare interval ends and p-values with bounds.
CATALOG_N = (12, 17, 40, 150, 200, 400, 985, 1703, 5643, 10029, 104162, 361391)
CATALOG_TAILS = (0.05, 0.025, 1e-3, 3.3e-5, 1.25e-5, 5e-7)


def _catalog_counts(n):
    return sorted({0, 1, 2, 3, n // 100, n // 10, n // 2, n - 1, n})


def test_the_exact_tests_pvalue_is_the_incomplete_beta_on_the_catalogs_grid():
    # scipy.stats.binomtest's one-sided p-value, which the probability rule uses, against the
    # regularised incomplete beta I_p0(k, n - k + 1) to 1e-12, bounds down to 1e-300 included
    # (before the switch the module's own binom.sf tail was binomtest's bit for bit here).
    for n in CATALOG_N:
        for k in _catalog_counts(n):
            for p0 in (0.0, 1e-300, 1e-12, 1e-6, 1e-3, 0.05, 0.5, 0.99, 1.0):
                pvalue = binomial_tail_pvalue(k, n, p0)
                if k == 0 or p0 in (0.0, 1.0):
                    assert pvalue == (1.0 if k == 0 or p0 == 1.0 else 0.0), (k, n, p0)
                else:
                    assert pvalue == pytest.approx(special.betainc(k, n - k + 1, p0), rel=1e-12, abs=0.0)


def test_clopper_pearson_ends_solve_their_equations_on_the_catalogs_grid():
    # P[Bin(n, low) >= k] = tail and P[Bin(n, high) <= k] = tail, however small the end; an end
    # above 1/2, where a double resolves 1 - end only to its ulp, by the interval's symmetry
    # (k -> n - k, p -> 1 - p) instead.
    for n in CATALOG_N:
        for k in _catalog_counts(n):
            for tail in CATALOG_TAILS:
                level = 1.0 - tail
                used = 1.0 - level  # the tail the interval is computed at: 1 - level, rounded
                low = clopper_pearson(k, n, level, "greater").low
                high = clopper_pearson(k, n, level, "less").high
                if k == 0:
                    assert low == 0.0
                else:
                    assert stats.binom.sf(k - 1, n, low) == pytest.approx(used, rel=1e-9), (n, k, tail)
                if k == n:
                    assert high == 1.0
                elif high <= 0.5:
                    assert stats.binom.cdf(k, n, high) == pytest.approx(used, rel=1e-9), (n, k, tail)
                else:
                    mirror = clopper_pearson(n - k, n, level, "greater").low
                    assert high == pytest.approx(1.0 - mirror, rel=0.0, abs=1e-15), (n, k, tail)


def test_scipys_exact_interval_agrees_only_to_its_root_finders_tolerance():
    # scipy.stats.binomtest(k, n).proportion_ci(method="exact") finds the same ends by brentq at
    # its default absolute tolerance 2e-12, not as beta quantiles: within that tolerance it agrees
    # on the whole grid, but relative to a small end it does not.  At the catalog's own size and
    # level (k = 1 of 361,391 trials, tail 5e-7) its lower end is 1.51e-12 against the root
    # 1.38e-12, 9% off; an end of 1.8e-13 (k = 1 of 5,643 at 1e-9) comes back as 0.  The rules
    # compare such ends with bounds that small, so the module keeps the quantiles (issue 42).
    for n in CATALOG_N:
        for k in _catalog_counts(n):
            for tail in CATALOG_TAILS[::2]:
                for alternative in ("less", "greater"):
                    ours = clopper_pearson(k, n, 1.0 - tail, alternative)
                    theirs = stats.binomtest(k, n, alternative=alternative).proportion_ci(
                        confidence_level=1.0 - tail, method="exact")
                    assert abs(ours.low - theirs.low) <= 2e-12, (n, k, tail, alternative)
                    assert abs(ours.high - theirs.high) <= 2e-12, (n, k, tail, alternative)
    low = clopper_pearson(1, 361_391, 1.0 - 5e-7, "greater").low
    assert stats.binom.sf(0, 361_391, low) == pytest.approx(5e-7, rel=1e-9)


@pytest.mark.parametrize(("n", "p0"), [(1000, 1e-3), (200, 0.05), (40, 0.5), (60, 0.95)])
def test_binomial_test_false_alarm_at_the_boundary(n, p0):
    alpha, reps = 0.05, 20_000
    # Exactly: the size of the discrete test is at most alpha.
    size = binomial_power(n, p0, p0, alpha)
    assert size <= alpha
    k = np.random.default_rng(2).binomial(n, p0, reps)
    pvalues = np.array([binomial_tail_pvalue(int(j), n, p0) for j in range(n + 1)])
    alarms = int(np.sum(pvalues[k] <= alpha))
    # Measured (exact size / simulated rate): (1000, 1e-3): 0.0189/0.0181; (200, 0.05):
    # 0.0444/0.0448; (40, 0.5): 0.0403/0.0406; (60, 0.95): 0.0461/0.0448. Allowance: the 1e-6
    # exact bound of the simulation.
    _assert_rate_at_most(alarms, reps, alpha)


@pytest.mark.parametrize(("n", "p0", "p1", "alpha"),
                         [(500, 0.01, 0.02, 1e-3), (60, 0.5, 0.7, 0.01), (30, 0.0, 0.05, 0.05)])
def test_binomial_power_matches_simulation(n, p0, p1, alpha):
    reps = 20_000
    power = binomial_power(n, p0, p1, alpha)
    k = np.random.default_rng(3).binomial(n, p1, reps)
    pvalues = np.array([binomial_tail_pvalue(int(j), n, p0) for j in range(n + 1)])
    rejections = int(np.sum(pvalues[k] <= alpha))
    # Measured (power / simulated): 0.1333/0.1329, 0.7622/0.7657, 0.7854/0.7829; the exact
    # two-sided bound of the simulation at 1e-6 each side must contain the computed power.
    assert _rate_lower_bound(rejections, reps) <= power <= _rate_upper_bound(rejections, reps)


@pytest.mark.parametrize(("n", "p0", "alpha"),
                         [(1000, 0.01, 1e-3), (200, 0.5, 0.01), (50, 0.0, 0.05), (10, 0.5, 1e-3),
                          (3000, 1e-3, 1e-4)])
def test_binomial_detectable_is_detected_with_power_0_9(n, p0, alpha):
    p1 = binomial_detectable(n, p0, alpha)
    assert p0 < p1 < 1.0
    # Exactly: power 0.9 at p1 and less just below it (the smallest such p1).
    assert binomial_power(n, p0, p1, alpha) >= 0.9
    assert binomial_power(n, p0, p1 * (1 - 1e-9), alpha) < 0.9
    reps = 20_000
    k = np.random.default_rng(4).binomial(n, p1, reps)
    pvalues = np.array([binomial_tail_pvalue(int(j), n, p0) for j in range(n + 1)])
    rejections = int(np.sum(pvalues[k] <= alpha))
    # Measured p1 / simulated rejection rate: (1000, 0.01, 1e-3): 0.0281 / 0.8990;
    # (200, 0.5, 0.01): 0.6265 / 0.9002; (50, 0, 0.05): 0.0450 / 0.8990; (10, 0.5, 1e-3):
    # 0.9895 / 0.8983; (3000, 1e-3, 1e-4): 0.00553 / 0.8990 (Monte Carlo sd 0.002 around the
    # exact 0.9). Allowance: the 1e-6 exact bound of the simulation.
    _assert_rate_at_least(rejections, reps, 0.9)


def test_binomial_detectable_is_one_when_nothing_rejects():
    # P[Bin(5, 0.5) >= 5] = 1/32 > 1e-3: the test can never reject.
    assert binomial_detectable(5, 0.5, 1e-3) == 1.0


def _brute_force_sample_size(p0, alpha, power, p1, horizon):
    """1 + the largest n <= horizon whose power is below target (1 if none)."""
    bad = [n for n in range(1, horizon + 1) if binomial_power(n, p0, p1, alpha) < power]
    return bad[-1] + 1 if bad else 1


@pytest.mark.parametrize(("p0", "alpha", "power", "p1"),
                         [(0.05, 0.01, 0.9, 0.15), (0.01, 1e-3, 0.9, 0.03), (0.0, 0.01, 0.9, 0.1),
                          (0.3, 0.05, 0.8, 1.0), (0.5, 1e-3, 0.9, 0.6)])
def test_binomial_sample_size_is_where_power_stays_above_target(p0, alpha, power, p1):
    n = binomial_sample_size(p0, alpha, power, p1)
    # The brute force scans 3n sample sizes; the function's own certificate covers beyond.
    assert n == _brute_force_sample_size(p0, alpha, power, p1, 3 * n + 10)
    assert binomial_power(n, p0, p1, alpha) >= power
    if n > 1:
        assert binomial_power(n - 1, p0, p1, alpha) < power
    # The saw-tooth: the first n with enough power comes earlier, and is followed by dips.
    # Measured (first crossing -> returned): (0.05, 0.01, 0.9, 0.15): 108 -> 116;
    # (0.01, 1e-3, 0.9, 0.03): 822 -> 860; (0, 0.01, 0.9, 0.1): 22 -> 22; (0.3, 0.05, 0.8, 1):
    # 3 -> 3; (0.5, 1e-3, 0.9, 0.6): 479 -> 490.


def test_binomial_sample_size_refuses_a_too_small_max_n():
    with pytest.raises(ValueError, match="max_n"):
        binomial_sample_size(0.01, 1e-3, 0.9, 0.03, max_n=500)
    # Here the Chernoff certificate needs 1487 trials, more than max_n = 1000: the function then
    # checks every sample size up to max_n instead, and finds the same answer.
    assert binomial_sample_size(0.01, 1e-3, 0.9, 0.03, max_n=1000) == 860


# --------------------------------------------------------------------------------------------
# Means of bounded variables (their intervals are the mean rule's, tests/test_rules.py)
# --------------------------------------------------------------------------------------------


def _two_point(p, lower, upper):
    return lambda rng, size: np.where(rng.random(size) < p, upper, lower)


def test_hoeffding_detectable_shift_is_detected_by_the_mean_rule_with_power_0_9():
    n, alpha, reps, lower, upper, null = 100, 0.05, 4000, 0.0, 1.0, 0.3
    shift = hoeffding_detectable_shift(n, lower, upper, alpha)
    assert shift == pytest.approx(math.sqrt(math.log(40) / 200) + math.sqrt(math.log(10) / 200))
    assert mean_rule.detectable_shift(n, upper - lower, alpha) == shift
    rng = np.random.default_rng(7)
    # Two-point laws at the ends (the largest variance for each mean): at the null, and at
    # the null shifted by the detectable shift; the mean rule's lower bound at alpha decides.
    at_null = _two_point(null, lower, upper)(rng, (reps, n))
    shifted = _two_point(null + shift, lower, upper)(rng, (reps, n))
    alarms = sum(mean_rule.lower_confidence(row, lower, upper, alpha) > null for row in at_null)
    detections = sum(mean_rule.lower_confidence(row, lower, upper, alpha) > null for row in shifted)
    # Measured: false alarm 0.0025 (<= 0.05), detection 0.9823 (>= 0.9) at shift 0.2431: both
    # Hoeffding steps are conservative. Allowance: the 1e-6 exact bound of the simulation.
    _assert_rate_at_most(alarms, reps, alpha)
    _assert_rate_at_least(detections, reps, 0.9)


# --------------------------------------------------------------------------------------------
# Bootstrap over seeds
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["BCa", "percentile"])
def test_bootstrap_interval_coverage_of_a_skewed_mean(method):
    reps, n_seeds, level = 400, 30, 0.9
    mean = 0.5 / 5.5
    draws = np.random.default_rng(8).beta(0.5, 5.0, (reps, n_seeds))
    misses = sum(
        not bootstrap_interval(row, level, seed=i, n_resamples=1000, method=method).contains(mean)
        for i, row in enumerate(draws)
    )
    # Measured coverage: BCa 0.8750, percentile 0.8625 (nominal 0.9). The bootstrap has no
    # finite-sample guarantee; BCa's coverage error is O(1 / n_seeds) (Efron & Tibshirani
    # 1993, ch. 14, 22), a few points for a skewed mean at n_seeds = 30, so the allowance is
    # 0.05 on top of the 1e-6 exact bound of the simulation (400 repetitions: that bound
    # alone is about 0.06 above the measured miss rate).
    _assert_rate_at_most(misses, reps, 1 - level + 0.05)


def test_bootstrap_interval_is_reproducible_and_takes_a_seed_sequence():
    values = np.random.default_rng(9).normal(size=25)
    first = bootstrap_interval(values, 0.95, seed=11)
    assert first == bootstrap_interval(values, 0.95, seed=11)
    assert first == bootstrap_interval(values, 0.95, seed=np.random.SeedSequence(11))
    assert first != bootstrap_interval(values, 0.95, seed=12)
    assert first.low < values.mean() < first.high
    assert first.method == "bootstrap over seeds (BCa)"


def test_bootstrap_interval_degenerate_cases_emit_no_warning():
    # pyproject's filterwarnings = error turns any warning into a failure here.
    point = bootstrap_interval([2.5, 2.5, 2.5], 0.9, seed=0)
    assert (point.low, point.high) == (2.5, 2.5)
    assert "all values equal" in point.method
    # The median of mostly-equal values is constant on the jackknife samples: BCa cannot be
    # computed and the percentile interval of the same resamples is returned instead.
    fallback = bootstrap_interval([0, 0, 0, 0, 0, 1.0], 0.9, seed=0, statistic=np.median)
    assert "percentile" in fallback.method
    assert "degenerate" in fallback.method
    assert 0.0 <= fallback.low <= fallback.high <= 1.0
    # A statistic without an ``axis`` argument is called once per resample.
    spread = bootstrap_interval(np.arange(10.0), 0.9, seed=0, n_resamples=200,
                                statistic=lambda x: float(np.max(x) - np.min(x)))
    assert spread.high <= 9.0


# --------------------------------------------------------------------------------------------
# Rates
# --------------------------------------------------------------------------------------------

SIZES = np.array([10.0, 20, 50, 100, 200, 500, 1000])


def test_loglog_fit_recovers_a_known_slope():
    rng = np.random.default_rng(10)
    values = 3.0 * SIZES ** -0.5 * np.exp(rng.normal(0.0, 0.1, (20, SIZES.size)))
    fit = loglog_fit(SIZES, values, 0.99, seed=0)
    assert isinstance(fit, RateFit)
    assert (fit.n_sizes, fit.n_seeds) == (7, 20)
    assert fit.slope_interval.contains(-0.5)
    assert fit.slope_bootstrap.contains(-0.5)
    # With noise sd 0.1 on 140 points spread over log sizes of sd 1.6, the slope's standard
    # error is about 0.005 (measured widths: OLS 0.025, bootstrap 0.026), so both intervals
    # at 99% are narrower than 0.05 unless the fit is wrong.
    assert fit.slope_interval.width < 0.05
    assert fit.slope_bootstrap.width < 0.05
    assert fit.intercept == pytest.approx(math.log(3.0), abs=0.05)
    assert fit.r_squared > 0.97
    assert fit == loglog_fit(SIZES, values, 0.99, seed=0)


def test_loglog_fit_bootstrap_covers_when_seeds_vary():
    # Each seed has its own slope (a seed-level random effect): points of one seed are
    # correlated, which is the case the bootstrap over whole seeds is for.
    reps, n_seeds, level, slope = 200, 20, 0.9, -0.5
    rng = np.random.default_rng(11)
    ols_misses = boot_misses = 0
    for rep in range(reps):
        # The seed's slope varies around the geometric middle of the grid (so that it does not
        # also move the intercept, which would inflate OLS's residual variance instead).
        seed_slopes = slope + rng.normal(0.0, 0.05, (n_seeds, 1))
        noise = rng.normal(0.0, 0.05, (n_seeds, SIZES.size))
        middle = np.exp(np.log(SIZES).mean())
        values = 2.0 * middle ** slope * (SIZES / middle) ** seed_slopes * np.exp(noise)
        fit = loglog_fit(SIZES, values, level, seed=rep, n_resamples=500)
        ols_misses += not fit.slope_interval.contains(slope)
        boot_misses += not fit.slope_bootstrap.contains(slope)
    # Measured coverage: bootstrap 0.890, OLS 0.505 (its independence assumption fails here).
    # Allowance for the bootstrap: 0.05 (BCa's O(1/n_seeds) error at n_seeds = 20) on top of
    # the 1e-6 exact bound of the simulation.
    _assert_rate_at_most(boot_misses, reps, 1 - level + 0.05)
    assert ols_misses > boot_misses


def test_loglog_fit_exact_and_constant_values_emit_no_warning():
    exact = loglog_fit(SIZES, np.tile(5.0 * SIZES ** 1.5, (3, 1)), 0.9, seed=0)
    assert exact.slope == pytest.approx(1.5, rel=1e-12)
    assert exact.slope_bootstrap.width == 0.0
    constant = loglog_fit(SIZES, np.full((4, SIZES.size), 2.0), 0.9, seed=0)
    assert constant.slope == pytest.approx(0.0, abs=1e-12)
    assert constant.r_squared == 1.0


# --------------------------------------------------------------------------------------------
# Results and bad input
# --------------------------------------------------------------------------------------------


def test_results_are_frozen_and_intervals_ordered():
    ci = clopper_pearson(3, 10, 0.9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ci.low = 0.0
    with pytest.raises(ValueError, match="low"):
        Interval(1.0, 0.0, 0.9, "test")
    with pytest.raises(ValueError, match="level"):
        Interval(0.0, 1.0, 1.0, "test")


X = [0.1, 0.5, 0.9]
BAD_INPUTS = [
    (clopper_pearson, (3, 0, 0.9), {}, ValueError, "n"),
    (clopper_pearson, (-1, 10, 0.9), {}, ValueError, "k"),
    (clopper_pearson, (11, 10, 0.9), {}, ValueError, "k"),
    (clopper_pearson, (3.0, 10, 0.9), {}, TypeError, "k"),
    (clopper_pearson, (3, True, 0.9), {}, TypeError, "n"),
    (clopper_pearson, (3, 10, 1.0), {}, ValueError, "level"),
    (clopper_pearson, (3, 10, math.nan), {}, ValueError, "level"),
    (clopper_pearson, (3, 10, "0.9"), {}, TypeError, "level"),
    (clopper_pearson, (3, 10, 0.9), {"alternative": "two_sided"}, ValueError, "alternative"),
    (binomial_power, (0, 0.1, 0.2, 0.05), {}, ValueError, "n"),
    (binomial_power, (10, 0.1, -0.2, 0.05), {}, ValueError, "p1"),
    (binomial_power, (10, 0.1, 0.2, 0.0), {}, ValueError, "alpha"),
    (binomial_detectable, (10, 1.0, 0.05), {}, ValueError, "p0"),
    (binomial_detectable, (10, 0.1, 0.05), {"power": 0.01}, ValueError, "power"),
    (binomial_detectable, (10, 0.1, 0.05), {"power": 1.0}, ValueError, "power"),
    (binomial_sample_size, (0.1, 0.05, 0.9, 0.1), {}, ValueError, "p1"),
    (binomial_sample_size, (0.1, 0.05, 0.9, 0.2), {"max_n": 0}, ValueError, "max_n"),
    (binomial_sample_size, (0.1, 0.05, 0.9, 0.2), {"max_n": 1e6}, TypeError, "max_n"),
    (binomial_sample_size, (0.1, 1.05, 0.9, 0.2), {}, ValueError, "alpha"),
    (hoeffding_detectable_shift, (0, 0.0, 1.0, 0.05), {}, ValueError, "n"),
    (hoeffding_detectable_shift, (10, 0.0, 0.0, 0.05), {}, ValueError, "upper"),
    (hoeffding_detectable_shift, (10, 0.0, 1.0, 0.05), {"power": 0.0}, ValueError, "power"),
    (bootstrap_interval, ([1.0], 0.9, 0), {}, ValueError, "values"),
    (bootstrap_interval, ([1.0, math.nan], 0.9, 0), {}, ValueError, "values"),
    (bootstrap_interval, (X, 0.9, -1), {}, ValueError, "seed"),
    (bootstrap_interval, (X, 0.9, 1.5), {}, TypeError, "seed"),
    (bootstrap_interval, (X, 0.9, 0), {"statistic": "mean"}, TypeError, "statistic"),
    (bootstrap_interval, (X, 0.9, 0), {"n_resamples": 0}, ValueError, "n_resamples"),
    (bootstrap_interval, (X, 0.9, 0), {"method": "bca"}, ValueError, "method"),
    (bootstrap_interval, (X, -0.1, 0), {}, ValueError, "level"),
    (loglog_fit, ([1.0, 2.0, 0.0], np.ones((2, 3)), 0.9, 0), {}, ValueError, "sizes"),
    (loglog_fit, ([2.0, 2.0], np.ones((2, 2)), 0.9, 0), {}, ValueError, "sizes"),
    (loglog_fit, ([1.0, 2.0], np.ones((2, 3)), 0.9, 0), {}, ValueError, "values"),
    (loglog_fit, ([1.0, 2.0], np.ones((1, 2)), 0.9, 0), {}, ValueError, "values"),
    (loglog_fit, ([1.0, 2.0], -np.ones((2, 2)), 0.9, 0), {}, ValueError, "values"),
    (loglog_fit, ([1.0, 2.0], np.ones((2, 2)), 0.9, "0"), {}, TypeError, "seed"),
    (loglog_fit, ([1.0, 2.0], np.ones((2, 2)), 0.9, 0), {"n_resamples": -5}, ValueError,
     "n_resamples"),
]


@pytest.mark.parametrize(("function", "args", "kwargs", "error", "name"), BAD_INPUTS,
                         ids=[f"{f.__name__}-{i}" for i, (f, *_) in enumerate(BAD_INPUTS)])
def test_bad_input_names_the_argument(function, args, kwargs, error, name):
    with pytest.raises(error, match=rf"\b{name}\b"):
        function(*args, **kwargs)


def test_hoeffding_sample_size_inverts_the_detectable_shift():
    n = hoeffding_sample_size(-1.0, 1.0, 0.05, 1e-4, 0.9)
    assert hoeffding_detectable_shift(n, -1.0, 1.0, 1e-4, 0.9) <= 0.05
    assert hoeffding_detectable_shift(n - 1, -1.0, 1.0, 1e-4, 0.9) > 0.05
    with pytest.raises(ValueError, match="shift"):
        hoeffding_sample_size(-1.0, 1.0, 0.0, 1e-4)
