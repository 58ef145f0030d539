"""The figure claims' seed plans (issue 20, item 2): each profile's seeds come from its pilot's
lower confidence bound, never the point estimate, on pilot seeds no deciding run uses, with a
probability of at least rules.pilot.TARGET (0.98) per master seed of the rule's outcome the plan
was made for: the contradiction behind iln.sec6.figure1's and rks.fig2.alpha_inf_decay's expected
not_reproduced, and rks.fig1.vs_adaboost's reach sub-result (since issue 42 item 7 the speed part
decides that claim, on the same seeds)."""

import pytest

from verification import catalog, rules, runner, statistics
from verification.catalog import CATALOG_RUN_SHARE, DESIGN_ALPHA
from verification.claims.iln import figure1 as iln_figure1
from verification.claims.rks import figure1, figure2
from verification.rules import pilot
from verification.rules.comparison import sign_test_seeds

#: master seeds that decide: the self-test's 0..19 and the report's 0 and 2026, and the earlier
#: pilot of iln.sec6.figure1's HISTORY, whose seeds were seen before.
DECIDING_OR_SEEN = {*range(20), 2026, 20261124}


@pytest.mark.parametrize(("profile", "row", "D", "cells"), [("smoke", "smoke", [550], 2), ("quick", "quick", [550], 2),
                                                          ("full", "quick", [550, 600, 650, 700, 750, 800], 4)])
def test_figure1_plan_is_the_lower_bound_plan_of_its_own_pilot(profile, row, D, cells):
    plan = iln_figure1.figure1_plan(profile)
    config = catalog.get(iln_figure1.FIGURE1_ID).config(profile)
    run = iln_figure1.FIGURE1_PILOT[row]
    assert not DECIDING_OR_SEEN & set(run["master_seeds"])
    budgets = config["budgets"]["psi_evaluations"]
    wins = [run["fixed_random_lower"][b] for b in budgets]
    assert plan.share_lcb == tuple(statistics.clopper_pearson(k, run["seeds"], 0.95, alternative="greater").low
                                   for k in wins)
    # The level of a point as figure1_decide splits it: the cells (2 losses x the accountings)
    # x budgets x 2 competitors at every D.
    assert plan.tail == pytest.approx(DESIGN_ALPHA / (cells * len(budgets) * 2 * len(D)))
    assert config["D"] == D
    points = len(D) * sum(len(grid) for grid in config["budgets"].values())
    assert config["n_trials"] == plan.seeds * points
    assert plan.probability >= pilot.TARGET - 1e-12
    # Every pilot seed had Fixed-Random lower: planned on that point estimate, the sign test
    # would take the fewest seeds that reject at all.  This fails if the plan were.
    assert plan.seeds > 2 * sign_test_seeds(1.0, plan.tail)
    assert f"{plan.seeds} seeds per point" in config["plan"]


@pytest.mark.parametrize(("profile", "row", "targets"), [("smoke", "reach@64/smoke_grid", [64]),
                                                       ("quick", "reach@64", [64]),
                                                       ("full", "reach@64/full", [4, 16, 64])])
def test_fig1_plan_is_the_lower_bound_plan_of_its_own_pilot(profile, row, targets):
    config = catalog.get(figure1.ID).config(profile)
    plan = figure1.fig1_plan(row, len(config["targets"]))
    run = figure1.FIG1_PILOT[row]
    assert not DECIDING_OR_SEEN & set(run["master_seeds"])
    # A pilot of the profile's own trials (the smoke grid is a subset of the quick trials' K).
    assert run["profile"] == ("quick" if profile == "smoke" else profile)
    above, ties, seeds = run["above"], run["ties"], run["seeds"]
    assert plan.share_lcb == (statistics.clopper_pearson(above, seeds - ties, 0.975, alternative="greater").low,)
    assert config["targets"] == targets
    assert plan.tail == pytest.approx(DESIGN_ALPHA / (2 * len(targets)))  # two parts at each target
    assert config["n_trials"] == plan.seeds
    assert plan.probability >= pilot.TARGET - 1e-12
    # About the point estimates (bounds at confidence 1/2) would plan far fewer seeds.
    estimate = pilot.sign_test_plan([(above, seeds, ties)], plan.tail, confidence=0.5)
    assert plan.seeds > 1.3 * estimate.seeds
    assert f"{plan.seeds} seeds per point" in config["plan"]


def test_the_full_pilots_are_kept_apart_from_the_quick_ones():
    assert set(figure1.FIG1_PILOT["reach@64/full"]["master_seeds"]).isdisjoint(
        figure1.FIG1_PILOT["reach@64"]["master_seeds"])
    assert figure2.FIG2_PILOT["adult_like/full"]["master_seed"] != figure2.FIG2_PILOT["adult_like"]["master_seed"]


@pytest.mark.parametrize(("profile", "row"), [("smoke", "breast_cancer/smoke_grid"), ("quick", "adult_like"),
                                              ("full", "adult_like/full")])
def test_fig2_plan_is_the_lower_bound_plan_of_its_own_pilot(profile, row):
    config = catalog.get(figure2.ID).config(profile)
    plan = figure2.fig2_plan(row)
    run = figure2.FIG2_PILOT[row]
    assert run["master_seed"] not in DECIDING_OR_SEEN
    assert run["profile"] == ("quick" if profile == "smoke" else profile)
    assert f"{plan.repetitions} repetitions" in config["plan"]
    assert plan.bounds == (config["exponent"] - config["tolerance"],)
    assert plan.pilot == ((run["mean"], run["sd"], run["seeds"]),)
    # One side of one deciding point at a claim's share of a whole-catalog run: the sign test
    # decides there from the planned seeds (at DESIGN_ALPHA it would from 15, one too few).
    assert plan.tail == CATALOG_RUN_SHARE
    assert config["n_trials"] == plan.repetitions >= rules.minimum_repetitions(runner.DEFAULT_ALPHA / len(catalog.load()))
    assert plan.margin_lcb[0] < (plan.bounds[0] - run["mean"]) / run["sd"]
    assert plan.probability >= pilot.TARGET - 1e-12
    assert config["datasets"][0] == row.split("/")[0]


def test_fig2_smoke_plan_would_be_smaller_on_the_point_estimate():
    plan = figure2.fig2_plan("breast_cancer/smoke_grid")
    run = figure2.FIG2_PILOT["breast_cancer/smoke_grid"]
    at_estimate = pilot.rate_plan([(run["mean"], run["sd"], run["seeds"], 0.8)], plan.tail, confidence=0.5)
    assert plan.repetitions > at_estimate.repetitions
