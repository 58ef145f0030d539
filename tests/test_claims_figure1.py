"""iln.sec6.figure1: trials, decisions, planted defects and the smoke verdict."""

import json
import math

import numpy as np
import pytest

import iln.comparison
from iln.random_streams import child
from verification import catalog
from verification.claims.iln import figure1


def _seed(i):
    return child(np.random.SeedSequence(2024), i)


FIGURE_CONFIG = {"n_trials": 8, "T": 20, "n_test": 10, "budgets": {"psi_evaluations": [400.0, 2000.0]},
                 "D": [60, 80],
                 "step_grid": {"shrinking_gradient": [{"eta": 5.0}], "fixed_random": [{"gamma0": 5.0}],
                               "doubly_stochastic": [{"gamma0": 5.0}]},
                 "learners": ["shrinking_gradient", "fixed_random", "doubly_stochastic"]}


def test_figure1_trial_takes_its_grid_point_from_the_trial_index():
    config = {**FIGURE_CONFIG, "budgets": {"psi_evaluations": [400.0], "feature_draws": [200.0]}}
    records = [figure1.figure1_trial(config, _seed(i)) for i in range(4)]
    assert [(r["accounting"], r["budget"], r["D"]) for r in records] == [
        ("psi_evaluations", 400.0, 60), ("psi_evaluations", 400.0, 80),
        ("feature_draws", 200.0, 60), ("feature_draws", 200.0, 80)]
    json.dumps(records)
    for r in records:
        assert set(r["learners"]) == set(FIGURE_CONFIG["learners"])
        spent = [v[r["accounting"].replace("feature_draws", "features_sampled")] for v in r["learners"].values()]
        assert max(spent) <= 1.1 * r["budget"]  # equal budgets, up to the rounding of m, r, k
        sg = r["learners"]["shrinking_gradient"]
        # Algorithm 2 at the held-out points: m draws and 2 m evaluations each.
        assert sg["test_psi_evaluations"] == 2 * sg["test_features_sampled"] == 2 * sg["size"]["m"] * 10
    assert figure1.figure1_trial(config, _seed(2)) == records[2]


def _synthetic(config, sg, others, seeds=20, noise=0.002, seed=0):
    """Records whose losses are ``sg`` and ``others[name]`` (callables of budget, D) plus noise."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(seeds):
        for accounting, budgets in config["budgets"].items():
            for budget in budgets:
                for D in config["D"]:
                    learners = {"shrinking_gradient": sg(budget, D), **{n: f(budget, D) for n, f in others.items()}}
                    out.append({"accounting": accounting, "budget": budget, "D": D, "learners": {
                        n: {"online": v + noise * rng.standard_normal(), "online_exact": v,
                            "test": v + noise * rng.standard_normal(), "test_exact": v, "steps": {"eta": 1.0},
                            "steps_test": {"eta": 1.0}, "size": {}, "psi_evaluations": 0}
                        for n, v in learners.items()}})
    return out


def _decide(records, config=FIGURE_CONFIG):
    return figure1.figure1_decide(records, config, 1e-3)


def test_figure1_decide_holds_not_reproduced_and_inconclusive():
    lower = {"fixed_random": lambda b, D: 0.05, "doubly_stochastic": lambda b, D: 0.06}
    assert _decide(_synthetic(FIGURE_CONFIG, lambda b, D: 0.02, lower)).verdict == "holds"
    # A competitor lower at one D of every budget: contradicted, with that comparison as
    # counterexample; Section 6 states no budget, step sizes or scaling, so not_reproduced.
    one_d = {**lower, "fixed_random": lambda b, D: 0.01 if D == 80 else 0.05}
    verdict = _decide(_synthetic(FIGURE_CONFIG, lambda b, D: 0.02, one_d))
    assert verdict.verdict == "not_reproduced"
    assert verdict.details["found_here"] == "violated"
    assert (verdict.counterexample["D"], verdict.counterexample["competitor"]) == (80, "fixed_random")
    assert verdict.min_detectable_ratio < 2
    equal = {"fixed_random": lambda b, D: 0.02, "doubly_stochastic": lambda b, D: 0.02}
    assert _decide(_synthetic(FIGURE_CONFIG, lambda b, D: 0.02, equal)).verdict == "inconclusive"


def test_figure1_budget_unstated_so_one_budget_where_it_holds_suffices():
    others = {"fixed_random": lambda b, D: 0.05 if b == 400.0 else 0.01, "doubly_stochastic": lambda b, D: 0.06}
    verdict = _decide(_synthetic(FIGURE_CONFIG, lambda b, D: 0.02, others))
    settings = verdict.details["cells"][figure1.DECIDING_CELL]["settings"]
    assert {b: v["verdict"] for b, v in settings.items()} == {"400": "holds", "2000": "violated"}
    assert verdict.verdict == "holds"


def test_figure1_one_verdict_per_cell_and_the_headline_names_them():
    config = {**FIGURE_CONFIG, "budgets": {"psi_evaluations": [400.0], "feature_draws": [200.0]}}
    records = _synthetic(config, lambda b, D: 0.05, {"fixed_random": lambda b, D: 0.02,
                                                     "doubly_stochastic": lambda b, D: 0.03})
    for r in records:  # Shrinking Gradient lower on the test loss only
        r["learners"]["shrinking_gradient"]["test"] = 0.001
    verdict = _decide(records, config)
    assert verdict.verdict == "not_reproduced"  # the deciding cell's, on a setting other than the paper's
    assert {c: v["verdict"] for c, v in verdict.details["cells"].items()} == {
        "online/psi_evaluations": "violated", "online/feature_draws": "violated",
        "test/psi_evaluations": "holds", "test/feature_draws": "holds"}
    headline = verdict.details["headline"]
    assert headline.startswith("not_reproduced, on a setting that differs from the paper's in: feature budget, "
                               "step sizes, scaling, loss plotted, target, Algorithm 1's radius B: ")
    # Each competitor's comparisons, then every other cell as a sub-result.
    assert "Fixed-Random's loss below Shrinking Gradient's on 40 of 40 paired seeds, on most seeds at 2 of 2" in headline
    assert "held-out loss, budget in feature draws: holds here" in headline
    assert "average online loss, budget in feature draws: contradicted here" in headline
    assert set(verdict.details["accountings"]) == {"psi_evaluations", "feature_draws"}
    assert "test/feature_draws" in verdict.details["figures"]
    assert math.isfinite(verdict.min_detectable_ratio)


def test_figure1_one_huge_difference_does_not_decide():
    """One seed with a huge difference makes the mean positive but must not decide alone."""
    config = {**FIGURE_CONFIG, "budgets": {"psi_evaluations": [400.0]}, "D": [60]}
    records = _synthetic(config, lambda b, D: 0.02, {"fixed_random": lambda b, D: 0.02,
                                                     "doubly_stochastic": lambda b, D: 0.02}, seeds=30)
    records[0]["learners"]["shrinking_gradient"]["online"] = 5.0
    verdict = _decide(records, config)
    assert verdict.verdict == "inconclusive"


def test_figure1_figure_table_and_json():
    records = _synthetic(FIGURE_CONFIG, lambda b, D: 0.02 + D / 1e4, {"fixed_random": lambda b, D: 0.05,
                                                                      "doubly_stochastic": lambda b, D: 0.06})
    verdict = _decide(records)
    table = verdict.details["figure"]["per_budget"]["2000"]
    assert table["D"] == [60, 80]
    assert table["shrinking_gradient"] == pytest.approx([0.026, 0.028], abs=0.002)
    low, high = table["fixed_random_interval"][0]
    assert low <= table["fixed_random"][0] <= high
    json.dumps(verdict.to_json(), allow_nan=False)


def test_planted_defect_in_shrinking_gradient_is_flagged(monkeypatch):
    """The printed (ascent) step in Algorithm 1 inside the comparison: a competitor is lower."""
    original = iln.comparison.shrinking_gradient
    monkeypatch.setattr(iln.comparison, "shrinking_gradient",
                        lambda *args, **kwargs: original(*args, **kwargs, update="printed"))
    config = {**FIGURE_CONFIG, "budgets": {"psi_evaluations": [2000.0]}, "D": [60]}
    records = [figure1.figure1_trial(config, _seed(i)) for i in range(12)]  # 2^-12 < 1e-3 / 4 (two cells, two points)
    assert all(r["learners"]["shrinking_gradient"]["online"] > r["learners"]["fixed_random"]["online"]
               for r in records)
    assert _decide(records, config).verdict == "not_reproduced"


def test_figure1_diverged_runs_count_as_the_worst_loss():
    records = _synthetic(FIGURE_CONFIG, lambda b, D: 0.02, {"fixed_random": lambda b, D: 0.05,
                                                           "doubly_stochastic": lambda b, D: 0.06})
    records[0]["learners"]["fixed_random"]["online"] = math.inf
    values = figure1.point_losses(records, "psi_evaluations", records[0]["budget"], records[0]["D"], "fixed_random", "online")
    assert values.max() == figure1.DIVERGED_LOSS


def test_figure1_is_never_violated_here_and_would_be_on_the_paper_s_own_setting(monkeypatch):
    """Section 6 states no budget, step sizes or scaling: every profile's setting differs from
    the paper's, so a contradiction is not_reproduced; were nothing to differ, violated."""
    for profile in ("smoke", "quick", "full"):
        config = catalog.get(figure1.FIGURE1_ID).config(profile)
        assert {d.aspect for d in figure1.figure1_differs(config)} >= {"feature budget", "step sizes", "scaling"}
    records = _synthetic(FIGURE_CONFIG, lambda b, D: 0.05, {"fixed_random": lambda b, D: 0.02,
                                                           "doubly_stochastic": lambda b, D: 0.03})
    assert _decide(records).verdict == "not_reproduced"
    monkeypatch.setattr(figure1, "figure1_differs", lambda config: [])
    own = _decide(records)
    assert own.verdict == "violated"
    assert own.details["headline"].startswith("violated, on the paper's own stated setting: ")


def test_smoke_profile_gives_the_expected_verdicts(expected_at_smoke):
    expected_at_smoke(figure1.FIGURE1_ID)
