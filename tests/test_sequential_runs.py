"""A claim that samples in batches until it is decided (catalog.SEQUENTIAL; issue 16, item 7).

Its trials run batch by batch; after each batch the runner decides the checkpoint at the run's
Bonferroni level with the claim's anytime-valid rule and stops at the first decided one.  The
checkpoints are fixed, so the stopping point depends on the seed only: the same with one or
two worker processes, and after a resume.
"""

import dataclasses

import pytest

from verification import catalog, runner

CLAIM = "iln.alg2.unbiased"


@pytest.fixture
def sequential_claim(monkeypatch):
    everything = catalog.load()
    claim = everything[CLAIM]
    # Unbiasedness within half of ||alpha||_1: clear long before the budget of 3000.
    smoke = {**claim.config("smoke"), "n_trials": 3000, "margin": 0.5, catalog.SEQUENTIAL: 100}
    patched = {**everything, CLAIM: dataclasses.replace(claim, configs={**claim.configs, "smoke": smoke})}
    monkeypatch.setattr(catalog, "load", lambda: dict(patched))
    monkeypatch.setattr(catalog, "get", lambda claim_id: patched[claim_id])
    return patched[CLAIM]


def _run(store, jobs):
    (outcome,) = runner.run([CLAIM], profile="smoke", jobs=jobs, store=store, quiet=True).outcomes
    return outcome.verdict


def test_a_clear_claim_stops_early_at_a_checkpoint_and_keeps_an_anytime_valid_rule(sequential_claim, tmp_path):
    verdict = _run(tmp_path / "a.sqlite", 1)
    seq = verdict.details["sequential"]
    assert verdict.verdict == "holds"
    assert seq["stopped_at"] < seq["budget"] == 3000
    assert seq["stopped_at"] % 100 == 0
    assert verdict.n_trials == seq["stopped_at"]
    assert all(p["interval_kind"].startswith("anytime") for p in verdict.details["points"].values())


def test_the_stopping_point_is_the_same_with_two_workers_and_after_a_resume(sequential_claim, tmp_path):
    one = _run(tmp_path / "a.sqlite", 1)
    two = _run(tmp_path / "b.sqlite", 2)
    again = _run(tmp_path / "a.sqlite", 1)
    assert one.details["sequential"] == two.details["sequential"] == again.details["sequential"]
    assert (one.verdict, one.statistic) == (two.verdict, two.statistic) == (again.verdict, again.statistic)
