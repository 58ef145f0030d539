"""A claim that samples in batches until it is decided (catalog.SEQUENTIAL; issue 16, item 7).

Its trials run batch by batch; after each batch the runner decides the checkpoint at the run's
Bonferroni level with the claim's anytime-valid rule and stops at the first decided one.  The
checkpoints are fixed, so the stopping point depends on the seed only: the same with one or
two worker processes, and after a resume.  A claim whose rule is not anytime-valid may not
stop early at all (issue 42, item 5): the catalog refuses its configuration.
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
    # Its grid decides "holds" early; the claim's domain is not searched, so the run's verdict
    # is inconclusive (catalog.domain_not_searched), the grid's outcome kept beside it.
    assert verdict.details["grid_verdict"] == "holds"
    assert verdict.verdict == "inconclusive"
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


def _claim(**kwargs):
    """A claim of the catalog's shape whose rule is fixed-n unless ``anytime`` says otherwise."""
    return catalog.Claim(
        id="iln.demo.sequential", title="demo", sources=catalog.sources("x", ICML="nowhere"), rule="probability bound",
        expected="holds", trial=lambda config, seed: {}, decide=lambda records, config, alpha: None,
        **{"configs": catalog.profiles({"n_trials": 100}, smoke={}, quick={}, full={}), **kwargs})


def test_sequential_batch_is_refused_unless_the_rule_is_anytime_valid():
    # Stopping a fixed-n rule at its first decided checkpoint inflates its level (issue 42):
    # the catalog refuses the configuration, naming the claim, the profile and the key.
    stopping = catalog.profiles({"n_trials": 100}, smoke={}, quick={catalog.SEQUENTIAL: 10}, full={})
    with pytest.raises(ValueError, match=r"claim iln\.demo\.sequential: profile 'quick' sets 'sequential_batch'"):
        _claim(configs=stopping)
    assert _claim(configs=stopping, anytime=True).config("quick")[catalog.SEQUENTIAL] == 10
    # The catalog's claim that uses it in tests declares its rule anytime-valid; without the
    # declaration the same configuration is refused.
    claim = catalog.get(CLAIM)
    assert claim.anytime
    smoke = {**claim.config("smoke"), catalog.SEQUENTIAL: 100}
    with pytest.raises(ValueError, match="sequential_batch"):
        dataclasses.replace(claim, configs={**claim.configs, "smoke": smoke}, anytime=False)


def test_sequential_batch_added_on_a_data_set_is_refused_too():
    claim = _claim(with_data=lambda config, data: {**config, catalog.SEQUENTIAL: 10})
    with pytest.raises(ValueError, match="its configuration on 'libsvm:x' sets 'sequential_batch'"):
        claim.config("smoke", "libsvm:x")

