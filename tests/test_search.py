"""The search engine (verification.search) on synthetic specifications with planted maxima.

A hand grid finds only what its author suspected; these tests plant a violation where a grid
would not look (only at m = 7, only at odd m beyond the first sixteen, only within 1e-6 of a
tie the statement names) and check that the search finds it, from the declared domain alone.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from verification.search import (
    Choice,
    Domain,
    Formula,
    Integers,
    LeftSide,
    Plan,
    Reals,
    RightSideEnds,
    Statement,
    generate,
    search_side,
)
from verification.search.decide import side_verdict
from verification.search.mutants import assess
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED


def _never(instance, seed):
    return False


def _tail_domain(cap=2**10, ties=None, per_decade=4.0):
    return Domain(m=Integers(1, cap=cap),
                  eps=Reals(0, math.inf, open_low=True, ends=RightSideEnds(), ties=ties, per_decade=per_decade))


def _statement(exact, rhs="exp(-m * eps**2)", domain=None, plan=None, corrected=None):
    return Statement("synthetic.bound", domain or _tail_domain(), LeftSide("P[A]", exact=exact, sample=_never),
                     printed=rhs, corrected=corrected or {}, plan=plan or Plan())


def _below_by(log_factor):
    """A left side ``log_factor`` below exp(-m eps^2) in log space, everywhere."""
    def exact(env):
        return -env["m"] * np.asarray(env["eps"]) ** 2 + log_factor
    return exact


# -- formulas -------------------------------------------------------------------------------

def test_a_formula_is_evaluated_in_log_space_without_underflow():
    f = Formula("2 * exp(-m * eps**2 / (2 * a**2))")
    assert f.names == {"m", "eps", "a"}
    assert float(f.value({"m": 1e6, "eps": 1.0, "a": 1.0})) == 0.0  # underflows as a value
    assert float(f.log_value({"m": 1e6, "eps": 1.0, "a": 1.0})) == pytest.approx(math.log(2) - 5e5, rel=1e-15)


@pytest.mark.parametrize("text", ["__import__('os')", "m.real", "[m]", "m if m else 1", "True * m", "f(m)"])
def test_a_formula_refuses_anything_but_arithmetic(text):
    with pytest.raises(ValueError, match="formula"):
        Formula(text)


def test_a_statement_refuses_a_side_over_an_undeclared_variable():
    with pytest.raises(ValueError, match=r"reads \['delta'\]"):
        _statement(_below_by(-1.0), rhs="exp(-m * eps**2) * delta")


# -- domains --------------------------------------------------------------------------------

def test_integers_enumerate_the_first_sixteen_then_a_ladder_with_both_parities_to_the_cap():
    values = Integers(1, cap=2**10).values()
    assert values[:16] == list(range(1, 17))
    assert {32, 33, 64, 65, 512, 513, 1023, 1024} <= set(values)
    assert max(values) == 1024
    assert Integers(0, high=5).values() == [0, 1, 2, 3, 4, 5]


def test_an_unbounded_integer_needs_the_plan_s_cap():
    with pytest.raises(ValueError, match="cap"):
        Integers(1)


def test_reals_approach_each_open_end_and_include_each_closed_one():
    closed = Reals(0.0, 1.0, per_decade=1).values()
    assert closed[0] == 0.0
    assert closed[-1] == 1.0
    open_ = Reals(0.0, 1.0, open_low=True, open_high=True, per_decade=1).values()
    assert open_[0] == pytest.approx(1e-12)
    assert 1 - open_[-1] == pytest.approx(1e-12, rel=0.001)
    assert Reals(0, math.inf, open_low=True, cap_low=1e-6, cap_high=1e6, per_decade=1).values().tolist() == \
        pytest.approx([10.0**k for k in range(-6, 7)])
    with pytest.raises(ValueError, match="cap"):
        Reals(0, math.inf, open_low=True)


def test_an_open_finite_end_of_a_log_grid_is_approached_not_tried():
    reals = Reals(0, 1, open_low=True, open_high=True, cap_low=1e-6)
    low, high = reals.searched_ends()
    assert (low, high) == (1e-6, pytest.approx(1 - 1e-12, abs=1e-15))
    assert reals.values().max() < 1
    assert reals.ends_reached(list(reals.values()))["high"].startswith("approached")


def test_coverage_reports_the_admissible_domain_the_range_searched_and_the_values_tried():
    found = search_side(_statement(_below_by(-1.0)), "printed")
    m, eps = found.coverage["m"], found.coverage["eps"]
    assert m["admissible"]["text"] == "integers in [1, inf)"
    # Every value of the grid, and the local search's moves (one step, one rung) beside them.
    assert m['searched'] == [1, 1024]
    assert m['values_tried'] >= len(Integers(1, cap=2 ** 10).values())
    assert m["ends"] == {"low": "reached", "high": "the plan's cap 1024 (the admissible end is inf)"}
    # eps from where exp(-m eps^2) = 1 - 1e-12 (at m = 1024) to where it is 1e-300 (at m = 1).
    assert eps["searched"][0] == pytest.approx(math.sqrt(1e-12 / 1024), rel=1e-6)
    assert eps["searched"][1] == pytest.approx(math.sqrt(300 * math.log(10)), rel=1e-9)
    assert m['covered']
    assert eps['covered']
    assert found.covered == []


def test_every_choice_is_tried():
    domain = Domain(law=Choice(["a", "b", "c"]), eps=Reals(0, math.inf, open_low=True, ends=RightSideEnds()))

    def exact(env):
        return -np.asarray(env["eps"]) ** 2 + (0.1 if env["law"] == "c" else -1.0)

    found = search_side(_statement(exact, rhs="exp(-eps**2)", domain=domain), "printed")
    assert found.coverage["law"]["searched"] == ["a", "b", "c"]
    assert found.best[0].point["law"] == "c"


def test_a_pinned_choice_holds_each_side_to_its_reading():
    """The printed side searches only the printed reading, the correction only its own: a left side
    that exceeds the bound only under reading "b" violates the side pinned there, not the other."""
    domain = Domain(reading=Choice(["a", "b"]), eps=Reals(0, math.inf, open_low=True, ends=RightSideEnds()))

    def exact(env):
        return -np.asarray(env["eps"]) ** 2 + (0.1 if env["reading"] == "b" else -1.0)

    spec = Statement("synthetic.bound", domain, LeftSide("P[A]", exact=exact, sample=_never), printed="exp(-eps**2)",
                     corrected={"fixed": "exp(-eps**2)"}, pinned={"printed": {"reading": "b"}, "fixed": {"reading": "a"}})
    printed, fixed = search_side(spec, "printed"), search_side(spec, "fixed")
    assert printed.coverage["reading"]["searched"] == ["b"]
    assert printed.smallest_violation is not None
    assert fixed.coverage["reading"]["searched"] == ["a"]
    assert fixed.smallest_violation is None
    assert fixed.coverage["reading"]["covered"]
    assert spec.declared()["pinned"] == {"printed": {"reading": "b"}, "fixed": {"reading": "a"}}
    with pytest.raises(ValueError, match="pinned"):
        Statement("synthetic.bound", domain, spec.lhs, printed="exp(-eps**2)", pinned={"printed": {"reading": "c"}})
    with pytest.raises(ValueError, match="pinned"):
        Statement("synthetic.bound", domain, spec.lhs, printed="exp(-eps**2)", pinned={"other": {"reading": "a"}})


# -- planted maxima -------------------------------------------------------------------------

def test_the_search_finds_a_bound_that_fails_only_at_m_7():
    def exact(env):
        return -env["m"] * np.asarray(env["eps"]) ** 2 + (0.5 if env["m"] == 7 else -1.0)

    found = search_side(_statement(exact), "printed")
    assert found.best[0].point['m'] == 7
    assert found.best[0].log_ratio == pytest.approx(0.5, abs=1e-09)
    assert found.smallest_violation.point["m"] == 7


@pytest.mark.parametrize("first_failing", [20, 29, 300])
def test_the_smallest_violation_is_shrunk_below_the_ladder_s_rung(first_failing):
    # m = 20, 29 and 300 are not on the grid (1..16, then 32, 33, 64, ...): the grid finds a
    # larger m, the local search climbs to larger ones still (the ratio grows with m); the
    # shrink stage lowers it to the first that fails.
    def exact(env):
        m = env["m"]
        return -m * np.asarray(env["eps"]) ** 2 + (0.5 + 1e-3 * m if m >= first_failing else -1.0)

    found = search_side(_statement(exact), "printed")
    assert found.smallest_violation.point["m"] == first_failing
    assert found.stages["shrink"] > 0
    assert not found.exhausted


def test_the_search_finds_a_bound_that_fails_only_at_odd_m_beyond_the_first_sixteen():
    def exact(env):
        odd_and_large = env["m"] % 2 == 1 and env["m"] > 16
        return -env["m"] * np.asarray(env["eps"]) ** 2 + (0.1 if odd_and_large else -1.0)

    found = search_side(_statement(exact), "printed")
    # The ladder tries 32 and 33, 64 and 65, ...: the first odd rung, 33, violates; the shrink
    # stage lowers it to the smallest that does, 17.
    assert found.smallest_violation.point["m"] == 17


def _threshold(cell):
    return np.array([0.37 / math.sqrt(cell["m"])])


def _fails_just_below_the_threshold(env):
    """A left side above exp(-m eps^2) only for eps within 1e-7 (relative) below a threshold:
    the jump of a step function, where a probability bound's supremum is."""
    eps = np.asarray(env["eps"])
    t = _threshold(env)[0]
    inside = (eps < t) & (eps > t * (1 - 1e-7))
    return np.where(inside, -env["m"] * eps**2 + 0.2, -env["m"] * eps**2 - 1.0)


def test_the_search_finds_a_violation_within_1e_7_of_a_tie_the_statement_names():
    found = search_side(_statement(_fails_just_below_the_threshold, domain=_tail_domain(ties=_threshold)), "printed")
    assert found.best[0].log_ratio == pytest.approx(0.2)
    assert found.smallest_violation.point["m"] == 1
    assert found.smallest_violation.point["eps"] == pytest.approx(0.37 * (1 - 1e-12))


def test_without_the_ties_the_same_grid_misses_it():
    """The reason ties are part of the domain: the log grid alone never lands in the window."""
    found = search_side(_statement(_fails_just_below_the_threshold), "printed")
    assert found.smallest_violation is None
    assert found.best[0].log_ratio < 0


def test_local_refinement_finds_a_maximum_between_grid_points():
    domain = Domain(m=Integers(1, high=4), x=Reals(0.0, 1.0, per_decade=1),
                    eps=Reals(0, math.inf, open_low=True, ends=RightSideEnds()))

    def exact(env):  # the ratio peaks at x = 0.3, between the grid's 0.05, 0.5
        return -env["m"] * np.asarray(env["eps"]) ** 2 - 50 * (env["x"] - 0.3) ** 2

    found = search_side(_statement(exact, domain=domain), "printed")
    assert found.best[0].point["x"] == pytest.approx(0.3, abs=1e-3)
    assert found.stages["refine"] > 0


def test_the_search_is_deterministic():
    spec = _statement(_fails_just_below_the_threshold, domain=_tail_domain(ties=_threshold))
    first, second = search_side(spec, "printed"), search_side(spec, "printed")
    assert json.dumps(first.to_json(), sort_keys=True) == json.dumps(second.to_json(), sort_keys=True)


# -- exact decisions -------------------------------------------------------------------------

def test_a_side_is_violated_exactly_or_holds_only_when_covered():
    spec = _statement(_below_by(-0.5), corrected={"weaker": "2 * exp(-m * eps**2)"}, rhs="exp(-m * eps**2) / 2")
    printed = side_verdict(spec, "printed", search_side(spec, "printed").to_json())
    assert printed['verdict'] == VIOLATED
    assert printed['worst']['ratio'] == pytest.approx(2 * math.exp(-0.5))
    corrected = side_verdict(spec, "weaker", search_side(spec, "weaker").to_json())
    assert corrected["verdict"] == HOLDS


def test_a_side_searched_short_of_an_end_is_inconclusive_and_says_which():
    spec = _statement(_below_by(-0.5), plan=Plan(budget=3))
    verdict = side_verdict(spec, "printed", search_side(spec, "printed").to_json())
    assert verdict['verdict'] == INCONCLUSIVE
    assert "'m'" in verdict['reason']
    assert 'not reached' in verdict['reason']


# -- generated mutants -------------------------------------------------------------------------

def test_mutants_are_generated_from_the_formula():
    mutants = generate("2 * exp(-m * eps**2 / (2 * a**2)) * log(1 / delta)")
    kinds = [m.kind for m in mutants]
    # constants 2, 2, 1 (halved and doubled: 6), the prefactors 2 of "2 * exp" and of "2 * a**2"
    # dropped (2), the exponents of eps and a and the argument of exp (doubled, halved: 6),
    # the log weakened (1).
    assert len(mutants) == 15
    assert kinds.count("constant halved") == kinds.count("constant doubled") == 3
    assert kinds.count('prefactor dropped') == 2
    assert kinds.count('log weakened') == 1
    assert kinds.count("exponent doubled") == kinds.count("exponent halved") == 3
    formulas = {m.formula for m in mutants}
    assert "exp(-m * eps ** 2 / (2 * a ** 2)) * log(1 / delta)" in formulas
    assert "2 * exp(-m * eps ** 4 / (2 * a ** 2)) * log(1 / delta)" in formulas
    assert "2 * exp(-m * eps ** 2 / (2 * a ** 2)) * (log(1 / delta) / 4)" in formulas


def test_every_false_tightening_mutant_is_detected_and_loosening_ones_are_dropped():
    spec = _statement(_below_by(-math.log(2)), rhs="exp(-m * eps**2)")  # holds with a factor 2 to spare
    table = assess(spec, "printed")
    by_formula = {row["formula"]: row for row in table["mutants"]}
    # exp(-m eps^2) / ... tighter by more than 2 somewhere: false and detected.
    assert by_formula['exp(-m * eps ** 4)']['false']
    assert by_formula['exp(-m * eps ** 4)']['detected']
    assert not by_formula["exp(-m * eps ** 2 / 2)"]["tightens"]
    assert table['false'] == table['detected'] >= 2
    assert table['survivors'] == []


# -- expectations ------------------------------------------------------------------------------

def _mean_statement(shrink):
    """E[X] <= c for X uniform on [0, c] (exact mean c / 2); the sampler draws ``shrink`` X."""
    def sample(instance, seed):
        return shrink * instance["c"] * np.random.default_rng(seed).random()
    lhs = LeftSide("E[X]", exact=lambda env: np.log(np.asarray(env["c"]) / 2), sample=sample,
                   kind="expectation", sample_range=lambda instance: (0.0, instance["c"]))
    return Statement("synthetic.mean", Domain(c=Reals(0, 1, open_low=True)), lhs, printed="c")


def test_an_expectation_needs_the_a_priori_range_of_its_draws():
    with pytest.raises(ValueError, match="sample_range"):
        LeftSide("E[X]", exact=lambda env: 0.0, sample=_never, kind="expectation")
    with pytest.raises(ValueError, match="kind"):
        LeftSide("E[X]", exact=lambda env: 0.0, sample=_never, kind="mean")


@pytest.mark.parametrize(("shrink", "conforms"), [(1.0, True), (0.8, False)])
def test_an_expectation_s_draws_are_tested_against_the_exact_mean(shrink, conforms):
    from verification.search.decide import conformance
    spec = _mean_statement(shrink)
    point = {"key": "printed/worst", "roles": ["printed/worst"], "sample_at": {"c": 0.5}, "p": 0.25}
    seeds = np.random.SeedSequence(20261128).spawn(4000)
    records = [{"printed/worst": spec.lhs.sample(point["sample_at"], s)} for s in seeds]
    row = conformance(spec, records, [point], alpha=0.05)["printed/worst"]
    # 4000 draws in [0, 0.5]: the interval's half-width is about 0.02, so a mean of 0.2
    # (shrink 0.8) is told from 0.25 and the honest sampler's mean is inside it.
    assert row["conforms"] is conforms
    assert row["interval"][0] < row["frequency"] < row["interval"][1]


def test_a_draw_outside_its_stated_range_is_an_error_naming_it():
    from verification.search.decide import conformance
    spec = _mean_statement(3.0)
    point = {"key": "k", "roles": [], "sample_at": {"c": 0.5}, "p": 0.25}
    with pytest.raises(ValueError, match="outside the a-priori range"):
        conformance(spec, [{"k": 1.2}], [point], alpha=0.05)
