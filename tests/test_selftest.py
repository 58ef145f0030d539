"""The self-test (issue #8): planted defects are real, the mutation runner sees them, the JSON."""

import json

import numpy as np
import pytest

from iln import theory
from verification import catalog, fingerprint, runner, trials
from verification.selftest import __main__ as selftest_cli
from verification.selftest import campaign, defects, injection
from verification.selftest.mutation import mutation_campaign
from verification.store import Store

#: cheap under the smoke profile: the defect sits in the claim's decision (theory.py) ...
DECISION_DEFECT, DECISION_CLAIM = "theory_hoeffding_range", "iln.lemma4.hoeffding"
#: ... or in its trials (Algorithm 2), which run in the worker processes.
TRIAL_DEFECT, TRIAL_CLAIM = "alg2_drop_sign", "iln.alg2.unbiased"


def test_catalog_has_at_least_15_defects_with_every_field():
    assert len(defects.DEFECTS) >= 15
    modules = set()
    for d in defects.DEFECTS.values():
        assert d.description
        assert d.breaks
        assert d.edits
        assert ("ICML" in d.breaks or "Section" in d.breaks or "Dai" in d.breaks), d.name
        modules.add(d.module.split("/")[1])
    # Algorithms 1 and 2, their compiled kernels, the families, the formulas and the baselines.
    assert modules >= {"shrinking_gradient.py", "estimator.py", "numba_sampling.py", "features.py",
                       "theory.py", "baselines"}


@pytest.mark.parametrize("name", defects.names())
def test_each_defect_changes_its_probe_and_is_removed_afterwards(name, one_numba_thread):
    defect = defects.get(name)
    before = defect.probe()
    with defect.applied():
        during = defect.probe()
    after = defect.probe()
    assert not np.array_equal(before, during), "the defect does not change the library"
    np.testing.assert_array_equal(after, before)  # restored exactly


def test_an_edit_whose_snippet_is_gone_refuses_and_leaves_nothing_planted():
    good = injection.CodeEdit("iln.theory", "variance_bound_alpha", "alpha_l1**2 / m", "alpha_l1 / m")
    missing = injection.CodeEdit("iln.theory", "_tail_corrected", "no such snippet", "x")
    before = theory.variance_bound_alpha(10, 2.0)
    with pytest.raises(ValueError, match="occurs 0 times"):
        injection.apply_all((good, missing))
    assert theory.variance_bound_alpha(10, 2.0) == before  # the first edit was undone


def test_unknown_defect_names_the_argument(tmp_path):
    with pytest.raises(ValueError, match="unknown defect 'nope'"):
        defects.get("nope")
    # The runner plants what it is given and knows no defect by name (it never imports the self-test).
    with pytest.raises(TypeError, match=r"defect must be a Planting.*got 'nope'"):
        runner.run([DECISION_CLAIM], profile="smoke", jobs=1, store=tmp_path / "s.sqlite", quiet=True,
                   defect="nope")
    assert not (tmp_path / "s.sqlite").exists()  # refused before any work


def test_mutation_runner_flags_a_defect_planted_in_worker_processes(tmp_path):
    campaign = mutation_campaign([defects.get(TRIAL_DEFECT)], workdir=tmp_path, profile="smoke",
                                 claims=[TRIAL_CLAIM], jobs=2)
    # Its grid's holds is inconclusive (its domain is not searched: catalog.domain_not_searched),
    # the claim's expectation; the defect makes it violated.
    assert campaign.control.verdicts == {TRIAL_CLAIM: "inconclusive"}
    assert campaign.outcomes[0].verdicts == {TRIAL_CLAIM: "violated"}
    assert campaign.mutation_score == 1.0
    assert campaign.gaps == []
    # The defect's trials live under their own configuration hash, beside the clean ones.
    config = catalog.get(TRIAL_CLAIM).config("smoke")
    clean = runner.run([TRIAL_CLAIM], profile="smoke", seed=0, jobs=1, quiet=True,
                       store=tmp_path / f"{TRIAL_DEFECT}.sqlite")
    assert clean.outcomes[0].verdict.details["grid_verdict"] == "holds"  # the parent was restored
    from verification.store import Store

    with Store(tmp_path / f"{TRIAL_DEFECT}.sqlite") as db:
        assert db.count_trials() == 2 * config["n_trials"]


@pytest.mark.system
def test_defect_on_a_dask_cluster_is_planted_then_removed(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        planted = runner.run([TRIAL_CLAIM], profile="smoke", seed=2, scheduler=cluster.scheduler_address,
                             store=tmp_path / "a.sqlite", quiet=True, defect=defects.get(TRIAL_DEFECT))
        # The same worker serves the next run: the defect must have left with the first.
        clean = runner.run([TRIAL_CLAIM], profile="smoke", seed=2, scheduler=cluster.scheduler_address,
                           store=tmp_path / "b.sqlite", quiet=True)
    assert planted.outcomes[0].verdict.verdict == "violated"
    assert planted.meta["defect"] == TRIAL_DEFECT
    assert clean.outcomes[0].verdict.details["grid_verdict"] == "holds"


def test_selftest_json_schema(tmp_path, capsys):
    out = tmp_path / "selftest.json"
    status = selftest_cli.main(["--defects", DECISION_DEFECT, "--claims", DECISION_CLAIM,
                                "--profile", "smoke", "--seeds", "2", "--jobs", "1", "--quiet",
                                "--parts", "defects,false_alarms",
                                "--workdir", str(tmp_path / "work"), "--out", str(out)])
    assert status == 0, capsys.readouterr()
    doc = json.loads(out.read_text())
    assert set(doc) >= {"complete", "pending", "fingerprint", "defects", "mutation_score",
                        "false_alarms", "faults", "bad_input", "meta"}
    assert doc["complete"] is True
    assert doc["pending"] == []
    assert doc["faults"] is None  # not asked for
    (entry,) = doc["defects"]
    assert set(entry) >= {"name", "description", "breaks", "flagged_by", "verdicts"}
    assert entry["name"] == DECISION_DEFECT
    assert entry["flagged_by"] == [DECISION_CLAIM]
    # The claim's search checks the shipped tail against the statement's formula: a shipped
    # tail of another range makes its verdict inconclusive, which differs from the expected one.
    assert entry["verdicts"] == {DECISION_CLAIM: "inconclusive"}
    assert doc["mutation_score"] == 1.0
    fa = doc["false_alarms"]
    assert fa["seeds"] == [0, 1]
    assert fa["differing"] == []
    assert fa["rate"] == 0.0
    low, high = fa["interval"]
    assert low == 0.0
    assert high == pytest.approx(1 - 0.025 ** (1 / 2))  # Clopper-Pearson upper end at k = 0, n = 2
    assert doc["meta"]["control"]["verdicts"] == {DECISION_CLAIM: "holds_after_correction"}
    assert doc["meta"]["profile"] == "smoke"
    table = out.with_suffix(".md").read_text()
    assert "| mutation score (defects flagged by at least one claim) | 1.000 (1 of 1) |" in table
    assert "| theory\\_hoeffding\\_range | 1 | inconclusive |" in table  # the defect-by-claim row


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--defects", "nope"], "unknown defect 'nope'"),
        (["--claims", "iln.no.such"], "unknown claim id"),
        (["--profile", "huge"], "invalid choice"),
        (["--seeds", "-1"], ">= 0"),
        (["--jobs", "0"], ">= 1"),
        (["--out", "/no/such/dir/x.json"], "does not exist"),
        (["--parts", "defects,nope"], "--parts"),
        (["--budget-minutes", "-2"], ">= 0"),
        (["--checkout", "/no/such/checkout"], "has no tests/"),
    ],
)
def test_selftest_usage_errors_exit_2_with_one_line(argv, message, capsys, tmp_path):
    status = selftest_cli.main([*argv, "--workdir", str(tmp_path / "w")])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_unit_computed_again_for_changed_code_runs_only_the_trials_of_changed_code(
        tmp_path, monkeypatch, capsys):
    out, work = tmp_path / "selftest.json", tmp_path / "work"
    argv = ["--claims", DECISION_CLAIM, "--profile", "smoke", "--seeds", "1", "--jobs", "1",
            "--quiet", "--parts", "false_alarms", "--workdir", str(work), "--out", str(out)]
    assert selftest_cli.main(argv) == 0, capsys.readouterr()
    (store,) = work.rglob("seed-0.sqlite")
    assert store.parent.name == selftest_cli.TRIAL_STORES  # shared by every version of the code
    with Store(store) as db:
        n_trials = db.count_trials()
    assert n_trials > 0

    changed = {"sha256": "c" * 64, "files": 1, "versions": {}}
    monkeypatch.setattr(campaign, "code_fingerprint", lambda *a, **kw: changed)
    ran = []
    real_run = trials.run_batch
    monkeypatch.setattr(trials, "run_batch", lambda *a, **kw: ran.append(a[3]) or real_run(*a, **kw))
    # Other code, but not the code the claim's trials reach: the unit is decided again from
    # the stored trials.
    assert selftest_cli.main(argv) == 0
    assert json.loads(out.read_text())["fingerprint"] == changed
    assert ran == []

    # A function the trials reach is edited: every trial runs again, none is read from the old
    # code's, which stay in the store.
    monkeypatch.setattr(campaign, "code_fingerprint", lambda *a, **kw: {**changed, "sha256": "d" * 64})
    real_index = fingerprint.current_index
    edited = "iln/estimator.py:estimate_validated"
    monkeypatch.setattr(fingerprint, "current_index",
                        lambda *a, **kw: fingerprint.CodeIndex({**real_index(*a, **kw).digests, edited: "edited"}))
    assert selftest_cli.main(argv) == 0
    assert sum(len(batch) for batch in ran) == n_trials
    with Store(store) as db:
        assert db.count_trials() == 2 * n_trials


def test_only_a_stable_claim_flags_a_defect():
    # iln.thm1.regret differs from its expectation (violated) under the defect, but it also
    # differs on clean seeds (unstable): its changed verdict says nothing about the defect, so
    # the defect is a gap.
    from verification.selftest.mutation import DefectOutcome, MutationCampaign

    defect = defects.get("alg1_ascent_step")
    outcome = DefectOutcome(defect.name, {"iln.thm1.regret": "holds", "iln.lemma5.alpha_l1": "holds"})
    control = DefectOutcome("control", {"iln.thm1.regret": "inconclusive", "iln.lemma5.alpha_l1": "holds"})
    claims = ["iln.thm1.regret", "iln.lemma5.alpha_l1"]
    unstable = MutationCampaign([defect], [outcome], control, claims, "quick", 0, 0.0,
                                stable=frozenset({"iln.lemma5.alpha_l1"}))
    assert unstable.gaps == [defect.name]
    assert unstable.defects_json()[0]["differs_but_unstable"] == ["iln.thm1.regret"]
    stable = MutationCampaign([defect], [outcome], control, claims, "quick", 0, 0.0,
                              stable=frozenset(claims))
    assert stable.mutation_score == 1.0
    assert stable.defects_json()[0]["flagged_by"] == ["iln.thm1.regret"]
