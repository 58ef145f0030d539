"""iln.thm1.test_time: trials, decisions, planted defects and the smoke verdict."""

import json

import numpy as np
import pytest

from iln import theory
from iln.random_streams import child
from verification.claims.iln import theorem1_test_time
from verification.claims.iln.instances import algorithm1_run

TEST_TIME_CONFIG = {"n_trials": 300, "T": 12, "T_proof": 12, "m": 20,
                    "instances": ["descent_adversary/balanced"], "predictors": ["final"],
                    "grid": [{"delta": 0.2, "r": 0.9}]}


def _seed(i):
    return child(np.random.SeedSequence(2024), i)


def test_balanced_point_gives_the_two_point_law_whatever_alpha():
    """The erratum's counterexample: every term of Algorithm 2 is +-0.9801 ||alpha||_1."""
    run = algorithm1_run("descent_adversary", 12, 20, _seed(0))
    a = float(np.abs(run.alpha).sum())
    exact = float(run.alpha @ run.family.kernel(run.X, theorem1_test_time.BALANCED_POINT[None, :])[:, 0])
    assert exact == pytest.approx(0.0, abs=1e-12)
    E = np.array([run.predict(theorem1_test_time.BALANCED_POINT[None, :], m=1, seed=_seed(k))[0] for k in range(200)])
    np.testing.assert_allclose(np.abs(E), 0.99**2 * a, rtol=1e-12)  # one term: exactly the two points
    assert 0.3 < np.mean(E > 0) < 0.7  # both signs occur (a 1 - 1e-8 band for Bin(200, 1/2))
    # With delta = 0.2, eps0 = 0.9 a the printed m is 2: |E| > eps0 iff both terms agree (P = 1/2).
    assert theory.test_time_m(0.9 * a, 0.2, a) == 2


def test_test_time_trial_is_json_ready_and_reproducible():
    config = {**TEST_TIME_CONFIG, "instances": ["descent_adversary/train", "two_point_relu/train"],
              "predictors": ["final", "averaged"]}
    one = theorem1_test_time.test_time_trial(config, _seed(1))
    assert one == theorem1_test_time.test_time_trial(config, _seed(1))
    json.dumps(one, allow_nan=False)
    for inst in config["instances"]:
        for predictor in config["predictors"]:
            events = one[f"{inst}/{predictor}/delta=0.2/r=0.9"]
            assert isinstance(events["printed"], bool)
            assert isinstance(events["corrected"], bool)
            assert 0 < one[f"{inst}/{predictor}/l1_ratio"] <= 1  # Lemma 5
            # The bound-form m is sampled only where Hoeffding does not already cover it.
            assert (events["theorem"] is None) == (events["theorem_over_corrected"] >= 1)


def test_test_time_smallest_config_is_violated_as_printed_and_holds_corrected():
    records = [theorem1_test_time.test_time_trial(TEST_TIME_CONFIG, _seed(i)) for i in range(TEST_TIME_CONFIG["n_trials"])]
    verdict = theorem1_test_time.test_time_decide(records, TEST_TIME_CONFIG, 1e-3)
    assert verdict.verdict == "holds_after_correction"
    assert verdict.counterexample["m"] == 2
    assert verdict.details["corrected_m"]["verdict"] == "holds"


def test_planted_defect_in_the_corrected_m_is_flagged(monkeypatch):
    """predict's m with the printed constant (the defect the erratum corrects) must fail."""
    monkeypatch.setattr(theory, "test_time_m_corrected", theory.test_time_m)
    records = [theorem1_test_time.test_time_trial(TEST_TIME_CONFIG, _seed(i)) for i in range(TEST_TIME_CONFIG["n_trials"])]
    verdict = theorem1_test_time.test_time_decide(records, TEST_TIME_CONFIG, 1e-3)
    assert verdict.details["corrected_m"]["verdict"] == "violated"
    assert verdict.verdict == "violated"


def test_test_time_decide_on_synthetic_counts():
    key = "descent_adversary/balanced/final/delta=0.2/r=0.9"

    def records(printed, corrected, n=400):
        return [{key: {"printed": i < printed, "corrected": i < corrected, "theorem": None,
                       "theorem_over_corrected": 3.0},
                 "descent_adversary/balanced/final/l1_ratio": 0.1} for i in range(n)]

    decide = theorem1_test_time.test_time_decide
    assert decide(records(40, 4), TEST_TIME_CONFIG, 1e-3).verdict == "holds"
    assert decide(records(200, 4), TEST_TIME_CONFIG, 1e-3).verdict == "holds_after_correction"
    assert decide(records(200, 160), TEST_TIME_CONFIG, 1e-3).verdict == "violated"
    assert decide(records(200, 70), TEST_TIME_CONFIG, 1e-3).verdict == "inconclusive"  # 0.175: straddles
    assert decide(records(40, 4), TEST_TIME_CONFIG, 1e-3).details["theorem_m"]["verdict"] == "holds"


def test_smoke_profile_gives_the_expected_verdicts(expected_at_smoke):
    expected_at_smoke(theorem1_test_time.TEST_TIME_ID)
