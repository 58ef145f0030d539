"""iln.sec6.baselines: Fixed-Random and DSGD replayed round by round from the ICML Section 6
description (added for the self-test's gap dsgd_constant_step, issue #8)."""

import numpy as np
import pytest

from iln.baselines import doubly_stochastic
from iln.data import section6_data
from iln.features import RandomCoordinate
from verification import catalog
from verification.claims.iln import section6_baselines as sb
from verification.selftest import defects
from verification.selftest.injection import CodeEdit

CONFIG = catalog.get(sb.CLAIM_ID).configs["smoke"]


def _records(n=2):
    return [sb.baselines_trial(CONFIG, np.random.SeedSequence(s)) for s in range(n)]


def test_the_claim_holds_on_the_implementation_to_the_last_bits():
    records = _records()
    verdict = sb.baselines_decide(records, CONFIG, 1e-3)
    assert verdict.verdict == "holds"
    assert verdict.details["rounds_checked"] == 2 * len(sb.BASELINE_RUNS) * CONFIG["T"]
    assert max(r["largest_deviation"] for r in verdict.details["runs"].values()) < 1e-12


@pytest.mark.parametrize(("defect", "broken"), [
    ("dsgd_constant_step", {"dsgd_schedule", "dsgd_regularised"}),
    ("fixed_random_resampled", {"fixed_random_schedule", "fixed_random_projected", "fixed_random_least_squares"}),
])
def test_each_baseline_defect_of_the_self_test_is_a_violation_naming_its_run(defect, broken):
    with defects.get(defect).applied():
        records = _records()
    off = {name for name, r in records[0].items() if r["breaches"]}
    assert off == broken
    verdict = sb.baselines_decide(records, CONFIG, 1e-3)
    assert verdict.verdict == "violated"
    assert verdict.counterexample["run"] in broken
    assert verdict.counterexample["first_round"] >= 2  # round 1 predicts 0 whatever the rule


def test_a_least_squares_fit_that_sees_the_label_it_predicts_is_a_violation(smoke_verdict):
    # The diagonal of the Cholesky factor kept: round t's prediction is the fit to points 1..t.
    edit = CodeEdit("iln.baselines.fixed_random", "_least_squares", "predictions = np.tril(L, -1) @ z",
                    "predictions = np.tril(L) @ z")
    verdict = smoke_verdict(sb.CLAIM_ID, edits=(edit,))
    assert verdict.verdict == "violated"
    assert verdict.counterexample["run"] == "fixed_random_least_squares"


def test_the_replay_sees_the_regularisation_and_the_schedule():
    data = section6_data(30, 40, seed=0)
    family = RandomCoordinate(40)
    settings = {"k": 3, "gamma0": 5.0, "gamma1": 0.5, "nu": 0.1}
    run = doubly_stochastic(data.X, data.y, family, seed=1, **settings)
    same, _ = sb.replay_dsgd(data.X, data.y, family, run.W, settings)
    np.testing.assert_allclose(same, run.predictions, rtol=1e-12, atol=1e-15)
    for wrong in ({**settings, "nu": 0.0}, {**settings, "gamma1": 0.0}):
        predictions, _ = sb.replay_dsgd(data.X, data.y, family, run.W, wrong)
        assert np.max(np.abs(predictions - run.predictions)) > 1e-6
    assert sb.schedule(3, {"gamma0": 2.0, "gamma1": 1.0}).tolist() == [2.0, 1.0, 2.0 / 3.0]
    assert sb.schedule(2, {"eta": 4.0}).tolist() == [4.0, 4.0]


def test_a_nan_prediction_is_a_round_off_the_description(monkeypatch):
    real = sb.replay_fixed_random

    def nan_in_round_4(*args):
        predictions, theta = real(*args)
        predictions = predictions.copy()
        predictions[3] = np.nan
        return predictions, theta

    monkeypatch.setattr(sb, "replay_fixed_random", nan_in_round_4)
    record = sb.baselines_trial(CONFIG, np.random.SeedSequence(0))
    assert record["fixed_random_schedule"]["breaches"] == 1
    assert record["fixed_random_schedule"]["first_round"] == 4
    assert record["fixed_random_schedule"]["largest_deviation"] == np.inf
