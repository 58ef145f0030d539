"""The paired comparison rule keeps its level at the seeds and levels the catalog uses.

The sign test's count of seeds on which the statement fails is ``Binomial(n, q)`` given the
``n`` seeds without a tie, whatever the law of the pairs; so at the catalog's levels (near
1e-6, beyond simulation) the rule's chance of a false "violated" or a false "holds" is an
exact binomial sum over the counts the rule itself maps to each verdict.  At a measurable
level (0.05) pairs with skewed, heavy-tailed and tied differences are simulated, with enough
replications to detect a doubling of the false-alarm rate; each such test states its
replications, its critical count (a false failure about once in a thousand runs) and the
rate it detects.
"""

import bisect
import math

import numpy as np
import pytest
from scipy import stats

from verification import rules
from verification.catalog import DESIGN_ALPHA, DESIGN_POWER
from verification.rules import comparison
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED

#: per-point levels the catalog's comparison claims use: the design level split over 1 to
#: 144 points (iln.sec6.figure1's full profile: 4 cells x 3 budgets x 6 D x 2 competitors;
#: its smoke 4, its quick 12; rks.fig1.vs_adaboost's smoke and quick 2).
TAILS = (DESIGN_ALPHA, DESIGN_ALPHA / 2, DESIGN_ALPHA / 4, DESIGN_ALPHA / 12, DESIGN_ALPHA / 48,
         DESIGN_ALPHA / 144)
#: seeds per point in the catalog: iln.sec6.figure1 (smoke 57, quick 56, full 23) and
#: rks.fig1.vs_adaboost (smoke 189, quick 318, full 361); 18, 21 and 77 were earlier plans.
SIZES = (18, 21, 23, 56, 57, 77, 189, 318, 361)


def _first(n: int, predicate) -> int:
    """The smallest k in [0, n + 1] with predicate(k), for a predicate monotone in k."""
    return bisect.bisect_left(range(n + 1), True, key=predicate)


def _verdict(k: int, n: int, tail: float) -> str:
    """The rule's verdict when ``k`` of ``n`` seeds have a > b (and the rest a < b)."""
    point = rules.PairedPoint("x", a=[1.0] * k + [0.0] * (n - k), b=[0.5] * n)
    return rules.paired_comparison("t", [point], tail).verdict


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("tail", TAILS)
def test_false_violation_and_false_hold_are_at_most_the_tail_exactly(n, tail):
    # At q = 1/2 (the statement's edge) the chance of "violated" is the Binomial(n, 1/2)
    # weight of the counts the rule calls violated, a tail of k; for q < 1/2 it is smaller
    # (the binomial family has monotone likelihood ratio), so the edge is the worst case.
    # "holds" is the mirror image: a lower tail, at most the tail at q = 1/2 too.
    violated_from = _first(n, lambda k: _verdict(k, n, tail) == VIOLATED)
    holds_up_to = _first(n, lambda k: _verdict(k, n, tail) != HOLDS) - 1
    false_violation = stats.binom.sf(violated_from - 1, n, 0.5)
    false_hold = stats.binom.cdf(holds_up_to, n, 0.5) if holds_up_to >= 0 else 0.0
    assert false_violation <= tail
    assert false_hold <= tail
    assert all(_verdict(k, n, tail) == INCONCLUSIVE for k in range(holds_up_to + 1, violated_from))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("tail", TAILS)
def test_min_detectable_ratio_is_detected_with_the_design_power_exactly(n, tail):
    point = rules.PairedPoint("x", a=np.arange(n, dtype=float), b=np.arange(n, dtype=float) + 0.5)
    mdr = rules.paired_comparison("t", [point], tail).min_detectable_ratio
    if 2.0 ** -n > tail:
        assert math.isinf(mdr)  # not even n seeds on one side reject
        return
    q = mdr * comparison.SHARE_BOUND
    violated_from = _first(n, lambda k: _verdict(k, n, tail) == VIOLATED)
    assert stats.binom.sf(violated_from - 1, n, q) >= DESIGN_POWER - 1e-9
    # ... and it is the smallest such ratio (to the binomial quantile's rounding).
    assert stats.binom.sf(violated_from - 1, n, q - 1e-6) < DESIGN_POWER


def _false_alarm_rate(draw, n: int, replications: int, seed: int) -> tuple[int, int]:
    """Counts of "violated" and "holds" over replications of a null law of the pairs."""
    rng = np.random.default_rng(seed)
    violated = holds = 0
    for _ in range(replications):
        a, b = draw(rng, n)
        verdict = rules.paired_comparison("t", [rules.PairedPoint("x", a, b)], 0.05).verdict
        violated += verdict == VIOLATED
        holds += verdict == HOLDS
    return violated, holds


def _skewed(rng, n):
    # a - b is Exp(1) - log 2: median 0, mean 0.31 > 0 -- the case where the one-sided t test
    # calls "a higher" about 2.5 times too often; the sign test decides the median.
    b = rng.lognormal(-3.0, 1.0, n)
    return b + rng.exponential(1.0, n) - math.log(2.0), b


def _heavy_with_ties(rng, n):
    # Cauchy differences with median 0, and a third of the seeds tied (a diverged run on both
    # sides: +inf against +inf).
    b = rng.exponential(0.05, n)
    a = b + stats.cauchy.rvs(size=n, random_state=rng)
    tied = rng.random(n) < 1 / 3
    a[tied] = b[tied] = math.inf
    return a, b


@pytest.mark.slow
@pytest.mark.parametrize("draw", [_skewed, _heavy_with_ties], ids=["skewed", "cauchy-ties"])
def test_level_by_simulation_on_skewed_heavy_and_tied_pairs(draw):
    # 4000 replications at alpha 0.05 with n = 24 seeds: the sign test's exact size there is
    # P[Bin(24, 1/2) >= 17] = 0.032 (fewer seeds count when some tie, and the size shrinks).
    # The critical count 157 is exceeded with probability < 1e-3 at that rate; a doubled
    # rate (0.064, 256 expected) crosses it with probability above 0.999.
    replications, n = 4000, 24
    violated, holds = _false_alarm_rate(draw, n, replications, seed=11)
    size = stats.binom.sf(_first(n, lambda k: _verdict(k, n, 0.05) == VIOLATED) - 1, n, 0.5)
    assert size == pytest.approx(0.032, abs=1e-3)
    critical = int(stats.binom.isf(1e-3, replications, size)) + 1
    assert stats.binom.sf(critical - 1, replications, 2 * size) > 0.999  # a doubling is seen
    assert violated < critical
    assert holds < critical


def test_verdicts_ties_and_counterexample():
    rng = np.random.default_rng(3)
    b = rng.uniform(0.1, 0.2, 40)
    lower = rules.PairedPoint("D=550", a=b - 0.05, b=b, names=("sg", "fr"))
    higher = rules.PairedPoint("D=800", a=b + 0.05, b=b, names=("sg", "fr"), instance={"D": 800})
    assert rules.paired_comparison("c", [lower], 1e-4).verdict == HOLDS
    verdict = rules.paired_comparison("c", [lower, higher], 1e-4)
    assert verdict.verdict == VIOLATED
    assert verdict.counterexample["point"] == "D=800"
    assert verdict.counterexample["D"] == 800
    assert verdict.details["points"]["D=800"]["seeds_sg_higher"] == 40
    assert verdict.pvalue == pytest.approx(2 * 0.5**40)  # Bonferroni over the two points
    assert verdict.min_detectable_ratio == pytest.approx(
        rules.paired_comparison("c", [higher], 1e-4 / 2).min_detectable_ratio)
    mixed = rules.PairedPoint("mixed", a=np.r_[b[:20] - 0.05, b[20:] + 0.05], b=b)
    assert rules.paired_comparison("c", [mixed], 1e-4).verdict == INCONCLUSIVE
    # Ties do not count: 30 tied seeds and 10 with a < b.
    tied = rules.PairedPoint("tied", a=np.r_[b[:30], b[30:] - 1], b=b)
    row = rules.paired_comparison("c", [tied], 0.01).details["points"]["tied"]
    assert (row["ties"], row["trials"], row["events"]) == (30, 10, 0)
    # All ties: nothing to count, and the verdict says why.
    none = rules.paired_comparison("c", [rules.PairedPoint("eq", a=b, b=b)], 0.01)
    assert none.verdict == INCONCLUSIVE
    assert math.isinf(none.min_detectable_ratio)
    assert not none.can_fail
    assert "tie" in none.details["reason"]


def test_too_few_seeds_is_inconclusive_with_the_reason():
    verdict = rules.paired_comparison("c", [rules.PairedPoint("x", a=[0.0] * 10, b=[1.0] * 10)], 1e-5)
    assert verdict.verdict == INCONCLUSIVE
    assert not verdict.can_fail
    assert "2^-n" in verdict.details["reason"]


def test_at_some_setting_holds_at_one_and_is_violated_only_at_all():
    rng = np.random.default_rng(5)
    b = rng.uniform(0.1, 0.2, 30)
    win, lose = rules.PairedPoint("w", a=b - 0.1, b=b), rules.PairedPoint("l", a=b + 0.1, b=b)
    one = rules.at_some_setting("c", {"2e4": [win], "2e6": [lose]}, 1e-3)
    assert one.verdict == HOLDS
    assert one.details["deciding_setting"] == "2e4"
    assert one.details["settings"]["2e6"]["verdict"] == VIOLATED
    both = rules.at_some_setting("c", {"2e4": [lose], "2e6": [lose]}, 1e-3)
    assert both.verdict == VIOLATED
    # Violated at every setting (an intersection-union test): the largest setting p-value, unsplit.
    assert both.pvalue == pytest.approx(0.5**30)
    assert both.pvalue <= 1e-3
    # Detecting a violation at both settings together with power 0.9 needs each at 0.9^(1/2).
    # (each setting's violation at the whole alpha: an intersection-union test).
    single = comparison.detectable_ratio(30, 0.5, 1e-3, DESIGN_POWER ** 0.5)
    assert both.min_detectable_ratio == pytest.approx(single)
    mixed = rules.PairedPoint("m", a=np.r_[b[:15] - 0.1, b[15:] + 0.1], b=b)
    undecided = rules.at_some_setting("c", {"2e4": [mixed], "2e6": [lose]}, 1e-3)
    assert undecided.verdict == INCONCLUSIVE
    assert "2e4" in undecided.details["reason"]


@pytest.mark.parametrize(("share", "tail"), [(1.0, 1e-5), (0.9, DESIGN_ALPHA / 12), (0.75, 1e-3)])
def test_sign_test_seeds_plans_the_design_power(share, tail):
    n = rules.sign_test_seeds(share, tail)
    critical = _first(n, lambda k: stats.binom.sf(k - 1, n, 0.5) <= tail)
    assert stats.binom.sf(critical - 1, n, share) >= DESIGN_POWER
    critical = _first(n - 1, lambda k: stats.binom.sf(k - 1, n - 1, 0.5) <= tail)
    assert stats.binom.sf(critical - 1, n - 1, share) < DESIGN_POWER  # the smallest such n


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"a": [1.0, 2.0], "b": [1.0]}, "b of point"),
    ({"a": [], "b": []}, "non-empty"),
    ({"a": [math.nan], "b": [1.0]}, "NaN"),
])
def test_bad_points_name_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rules.PairedPoint("x", **kwargs)


def test_bad_rule_arguments_name_the_argument():
    point = rules.PairedPoint("x", a=[1.0], b=[2.0])
    with pytest.raises(ValueError, match="alpha"):
        rules.paired_comparison("c", [point], 1.5)
    with pytest.raises(ValueError, match="points"):
        rules.paired_comparison("c", [], 0.1)
    with pytest.raises(ValueError, match="settings"):
        rules.at_some_setting("c", {}, 0.1)
    with pytest.raises(ValueError, match="share"):
        rules.sign_test_seeds(0.5, 0.1)


def test_by_cell_takes_the_deciding_cell_and_names_every_cell():
    rng = np.random.default_rng(7)
    b = rng.uniform(0.1, 0.2, 30)
    win, lose = rules.PairedPoint("w", a=b - 0.1, b=b), rules.PairedPoint("l", a=b + 0.1, b=b)
    cells = {"online/psi": {"2e4": [lose]}, "test/psi": {"2e4": [win]}}
    verdict = rules.by_cell("c", cells, "online/psi", 1e-3)
    assert verdict.verdict == VIOLATED
    assert verdict.details["headline"] == "violated on online/psi (the deciding cell); holds on test/psi"
    assert verdict.details["cells"]["test/psi"]["verdict"] == HOLDS
    assert verdict.pvalue == pytest.approx(2 * 0.5**30)  # C x the deciding cell's p-value
    assert rules.by_cell("c", cells, "test/psi", 1e-3).verdict == HOLDS
    with pytest.raises(ValueError, match="primary"):
        rules.by_cell("c", cells, "online/draws", 1e-3)


def test_a_planned_point_left_out_keeps_its_share_of_alpha():
    point = comparison.PairedPoint("x", a=[0.2] * 12, b=[0.1] * 12)
    alone = comparison.paired_comparison("t", [point], 1e-3)
    planned = comparison.paired_comparison("t", [point], 1e-3, splits=2)
    assert planned.pvalue == pytest.approx(2 * alone.pvalue)
    with pytest.raises(ValueError, match="splits"):
        comparison.paired_comparison("t", [point, point], 1e-3, splits=1)
