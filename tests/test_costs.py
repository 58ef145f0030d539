"""The measured costs (verification.costs): read from a store or from the self-test document."""

from __future__ import annotations

from pathlib import Path

import pytest

from verification import costs, runner

ROOT = Path(__file__).resolve().parents[1]


def test_a_store_gives_seconds_per_trial_of_the_claims_it_ran_and_no_wall_time_for_part_of_the_catalog(tmp_path):
    store = tmp_path / "s.sqlite"
    runner.run(["iln.alg1.update_sign"], profile="smoke", seed=0, jobs=1, store=store, quiet=True)
    entry = costs.measure(store, "smoke")
    assert list(entry["per_trial_s"]) == ["iln.alg1.update_sign"]
    assert entry["per_trial_s"]["iln.alg1.update_sign"] >= 0
    assert entry["wall"] is None  # one claim is not the whole catalog's wall time
    assert entry["measured_from"] == "s.sqlite"
    with pytest.raises(ValueError, match="no verdict of the full profile"):
        costs.measure(store, "full")


def test_the_self_test_document_gives_the_median_over_its_whole_catalog_seeds():
    document = ROOT / "reports" / "selftest.json"
    entry = costs.measure_selftest(document, "quick")
    assert entry["per_trial_s"]
    assert all(v > 0 for v in entry["per_trial_s"].values())
    assert entry["wall"]["wall_s"] > 0
    values = entry["per_trial_s"].values()
    assert min(values) <= entry["median_per_trial_s"] <= max(values)
    with pytest.raises(ValueError, match="no seed of the full profile"):
        costs.measure_selftest(document, "full")
