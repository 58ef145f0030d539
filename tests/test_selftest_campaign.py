"""The self-test campaign (issue #8): units reused only for the same code, a time budget, the
document written after every unit, and the fault and bad-input suites recorded test by test."""

import json
import shutil
import textwrap
from pathlib import Path

import numpy as np
import pytest

from verification import catalog, fingerprint, incremental, runner
from verification.selftest import campaign, defects, reach, statements, suites
from verification.selftest import fingerprint as fp
from verification.selftest.mutation import ERROR, DefectOutcome
from verification.store import StoreError

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
CLAIM = "iln.lemma4.hoeffding"
DEFECT = "theory_hoeffding_range"


def _plan(tmp_path, **kw):
    base = {"defects": [defects.get(DEFECT)], "seeds": [0, 1], "mutation_seed": 0, "profile": "smoke",
            "claims": [CLAIM], "parts": ("defects", "false_alarms"), "workdir": tmp_path / "w"}
    return campaign.Plan(**{**base, **kw})


@pytest.fixture
def fake_runs(monkeypatch):
    """Replace the runs by a record of the units asked for: the verdicts are the expected ones,
    except under the defect."""
    calls = []

    def run_defect(name, claims, *, seed, store, **kw):
        calls.append((name, seed))
        # Seed 2's trials raise (a run that uses three seeds is the only one to see it).
        verdict = "violated" if name else ERROR if seed == 2 else "holds_after_correction"
        # Trial seconds that tell the units apart: 2 under the defect, 1 + seed / 10 without.
        seconds = 2.0 if name else 1.0 + seed / 10
        return DefectOutcome(name or "control", dict.fromkeys(claims, verdict), {}, 0.5,
                             trial_s=dict.fromkeys(claims, seconds))

    monkeypatch.setattr(campaign, "run_defect", run_defect)

    def recorded_reach(defects, claims, *, profile, seed, store, scratch):
        return reach.Reach({c: [] for c in claims}, {}, {c: [] for c in claims}), list(claims)

    monkeypatch.setattr(campaign.reach, "recorded_reach", recorded_reach)
    monkeypatch.setattr(campaign, "_control_trials", lambda plan, common: (None, None))
    return calls


def test_units_in_order_control_first_and_the_mutation_seed_run_once(tmp_path):
    plan = _plan(tmp_path, parts=campaign.PARTS, seeds=[0, 1, 2])
    units = plan.unit_ids()
    assert units[:6] == ["suite:faults", "suite:bad_input", "seed:0", f"defect:{DEFECT}", "seed:1", "seed:2"]
    # The null-boundary cases last: they run the rules, whatever claims the plan selects.
    assert units[6:] == [f"null:{key}" for key in plan.null_cases()]
    assert len(units) > 6
    assert _plan(tmp_path, parts=("false_alarms",)).unit_ids() == ["seed:0", "seed:1"]


def test_rerun_reuses_every_unit_of_the_same_code(tmp_path, fake_runs):
    out = tmp_path / "selftest.json"
    first = campaign.run_campaign(_plan(tmp_path), out)
    assert fake_runs == [(None, 0), (DEFECT, 0), (None, 1)]
    assert first["complete"]
    assert first["gaps"] == []
    assert first["mutation_score"] == 1.0
    doc = json.loads(out.read_text())
    doc["defects"][0]["trials_copied_from_control"] = [CLAIM]  # as a pruned run records it
    out.write_text(json.dumps(doc))
    again = campaign.run_campaign(_plan(tmp_path), out)
    assert len(fake_runs) == 3  # nothing ran again
    assert again["defects"][0]["trials_copied_from_control"] == [CLAIM]  # kept on reuse
    first["defects"][0].update(trials_copied_from_control=[CLAIM], trials_run_for=[])
    assert again["defects"] == first["defects"]
    assert again["false_alarms"] == first["false_alarms"]


def test_rerun_cost_sums_each_claims_trial_time_over_the_units_and_survives_a_resume(tmp_path, fake_runs):
    out = tmp_path / "selftest.json"
    first = campaign.run_campaign(_plan(tmp_path, seeds=[0, 1, 2]), out)
    # The control (seed 0) 1.0, the defect 2.0, seed 1 1.1; seed 2's trials raised: no time.
    assert first["rerun_cost"]["by_claim"] == {
        CLAIM: {"trial_s": pytest.approx(4.1), "units": 3, "units_raised": 1}}
    assert first["rerun_cost"]["units_without_times"] == 0
    again = campaign.run_campaign(_plan(tmp_path, seeds=[0, 1, 2]), out)
    assert len(fake_runs) == 4  # nothing ran again: the times are the stored units'
    assert again["rerun_cost"] == first["rerun_cost"]
    # A plan of seed 1 alone: the control stored by the plan before is not one of its units.
    alone = campaign.run_campaign(_plan(tmp_path, seeds=[1], parts=("false_alarms",)), out)
    assert alone["rerun_cost"]["by_claim"] == {CLAIM: {"trial_s": pytest.approx(1.1), "units": 1, "units_raised": 0}}
    # A document written before the times were recorded: its units are counted as without.
    campaign.run_campaign(_plan(tmp_path, seeds=[0, 1, 2]), out)
    doc = json.loads(out.read_text())
    del doc["defects"][0]["trial_s"], doc["false_alarms"]["per_seed"]["1"]["trial_s"]
    out.write_text(json.dumps(doc))
    older = campaign.run_campaign(_plan(tmp_path, seeds=[0, 1, 2]), out)
    assert older["rerun_cost"]["by_claim"] == {CLAIM: {"trial_s": pytest.approx(1.0), "units": 1, "units_raised": 1}}
    assert older["rerun_cost"]["units_without_times"] == 2


@pytest.mark.parametrize("change", ["code", "profile", "claims", "mutation_seed"])
def test_units_of_other_code_or_settings_run_again(tmp_path, fake_runs, monkeypatch, change):
    out = tmp_path / "selftest.json"
    campaign.run_campaign(_plan(tmp_path), out)
    kw = {}
    if change == "code":
        real = fp.code_fingerprint
        monkeypatch.setattr(campaign, "code_fingerprint",
                            lambda **k: {**real(**k), "sha256": "0" * 64})
    elif change == "profile":
        kw["profile"] = "quick"
    elif change == "claims":
        kw["claims"] = [CLAIM, "iln.lemma5.tail"]
    else:
        kw["mutation_seed"] = 1
    fake_runs.clear()
    campaign.run_campaign(_plan(tmp_path, **kw), out)
    if change == "mutation_seed":  # the seeds' runs still hold; the defect's does not
        assert fake_runs == [(DEFECT, 1)]
    else:
        assert sorted(fake_runs, key=str) == sorted([(None, 0), (DEFECT, 0), (None, 1)], key=str)


def test_time_budget_leaves_units_pending_and_a_rerun_finishes_them(tmp_path, fake_runs):
    out = tmp_path / "selftest.json"
    partial = campaign.run_campaign(_plan(tmp_path), out, budget_s=0.0)
    assert fake_runs == []
    assert partial["complete"] is False
    assert partial["pending"] == ["seed:0", f"defect:{DEFECT}", "seed:1"]
    assert partial["mutation_score"] is None
    assert partial["false_alarms"]["n_verdicts"] == 0
    done = campaign.run_campaign(_plan(tmp_path), out)
    assert done["complete"]
    assert done["pending"] == []


def test_a_campaign_killed_in_a_unit_keeps_the_units_before_it(tmp_path, fake_runs, monkeypatch):
    out = tmp_path / "selftest.json"
    real = campaign.run_defect

    def dies_on_the_defect(name, *a, **k):
        if name == DEFECT:
            raise KeyboardInterrupt
        return real(name, *a, **k)

    monkeypatch.setattr(campaign, "run_defect", dies_on_the_defect)
    with pytest.raises(KeyboardInterrupt):
        campaign.run_campaign(_plan(tmp_path), out)
    doc = json.loads(out.read_text())
    assert doc["pending"] == [f"defect:{DEFECT}", "seed:1"]
    assert list(doc["false_alarms"]["per_seed"]) == ["0"]
    assert doc["meta"]["control"]["verdicts"] == {CLAIM: "holds_after_correction"}
    assert not out.with_name(out.name + ".tmp").exists()


def test_a_differing_verdict_on_the_unmodified_code_is_counted_with_its_seed(tmp_path, fake_runs,
                                                                            monkeypatch):
    def run_defect(name, claims, *, seed, **kw):
        verdict = "violated" if (name or seed == 1) else "holds_after_correction"
        return DefectOutcome(name or "control", dict.fromkeys(claims, verdict), {}, 0.0)

    monkeypatch.setattr(campaign, "run_defect", run_defect)
    doc = campaign.run_campaign(_plan(tmp_path), tmp_path / "s.json")
    fa = doc["false_alarms"]
    assert fa["differing"] == [{"seed": 1, "claim": CLAIM, "verdict": "violated",
                                "expected": "holds_after_correction"}]
    assert fa["rate"] == 0.5
    # Expected on 1 of 2 clean seeds is not stable (19 of 20 is): its verdict under the defect
    # differs, but that says nothing about the defect, so it does not flag it.
    assert doc["defects"][0]["flagged_by"] == []
    assert doc["defects"][0]["differs_but_unstable"] == [CLAIM]
    assert fa["stable"] == []


def test_reach_prunes_only_trials_that_cannot_change(tmp_path):
    """The pruned defect runs give the verdicts and records of the full ones (smoke profile)."""
    claims = ["iln.alg2.unbiased", CLAIM]
    planted = [defects.get("alg2_drop_sign"), defects.get(DEFECT), defects.get("dsgd_constant_step")]
    found = reach.reach_run(planted, claims, profile="smoke", seed=0, store=tmp_path / "control.sqlite")
    # alg2.unbiased's grid holds; its domain is not searched, so its verdict is inconclusive.
    assert found.verdicts == {"iln.alg2.unbiased": "inconclusive", CLAIM: "holds_after_correction"}
    assert "iln.estimator._fast" in found.hits["iln.alg2.unbiased"]
    # The Hoeffding defect sits in the decision only, DSGD in no code these claims run.
    assert found.claims_reached(defects.get(DEFECT)) == []
    assert found.claims_reached(defects.get("dsgd_constant_step")) == []
    assert "iln.alg2.unbiased" in found.claims_reached(defects.get("alg2_drop_sign"))
    # Run again on its store, no trial runs under the recorders: no claim's reach is known.
    again = reach.reach_run(planted, claims, profile="smoke", seed=0, store=tmp_path / "control.sqlite")
    assert again.hits == {}
    assert again.unreached(defects.get("dsgd_constant_step"), claims) == []
    common = {"profile": "smoke", "seed": 0, "jobs": 1, "scheduler": None, "quiet": True}
    for d in planted:
        full = campaign.run_defect(d.name, claims, store=tmp_path / f"full-{d.name}.sqlite", **common)
        pruned = campaign.run_defect(d.name, claims, store=tmp_path / f"pruned-{d.name}.sqlite",
                                     reach=found, control=tmp_path / "control.sqlite", **common)
        assert pruned.verdicts == full.verdicts, d.name
        assert sorted(pruned.copied) == sorted(set(claims) - set(found.claims_reached(d)))
        from verification.store import Store

        for c in claims:
            h = runner.trials_key(catalog.get(c).config("smoke"), d.identity)
            records = []
            for path in (tmp_path / f"full-{d.name}.sqlite", tmp_path / f"pruned-{d.name}.sqlite"):
                with Store(path) as db:
                    key = incremental.stored_trial_key(db, c, h, 0, "smoke")
                    records.append({i: r.record for i, r in db.existing_trials(0, "smoke", c, key).items()})
            assert records[0] == records[1], (d.name, c)
    # A defect whose functions had no recorder is run in full: nothing is copied for it.
    other = defects.get("alg1_no_shrink")
    assert not found.covers(other)
    with pytest.raises(ValueError, match="no recorder"):
        found.claims_reached(other)
    unpruned = campaign.run_defect(other.name, claims, store=tmp_path / "other.sqlite", reach=found,
                                   control=tmp_path / "control.sqlite", **common)
    assert unpruned.copied == []
    # The recorders are gone: the library is as it was.
    assert set() == reach._HITS


def test_recorders_leave_no_trace(one_numba_thread):
    d = defects.get("alg1_no_shrink")
    before = d.probe()
    with reach.recorders_planted([d, defects.get("numba_fourier_variance")]):
        assert np.array_equal(d.probe(), before)  # a recorder notes, it changes nothing
        assert "iln.shrinking_gradient.shrinking_gradient" in reach._HITS
    reach._HITS.clear()
    d.probe()
    assert set() == reach._HITS


def test_fingerprint_follows_the_library_not_the_report(tmp_path):
    root = tmp_path / "copy"
    for name, path in fp.source_files():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(path.read_bytes())
    (root / "verification" / "report").mkdir(parents=True)
    before = fp.code_fingerprint(root)
    assert before["sha256"] == fp.code_fingerprint()["sha256"]
    (root / "verification" / "report" / "pages.py").write_text("# the report changes no verdict\n")
    assert fp.code_fingerprint(root)["sha256"] == before["sha256"]
    with open(root / "iln" / "theory.py", "a") as f:
        f.write("\n# a change of the library\n")
    assert fp.code_fingerprint(root)["sha256"] != before["sha256"]
    # Whether a stored decision is read back: a list of files left it out until 2026-11-28.
    before = fp.code_fingerprint(root)
    with open(root / "verification" / "stored_decisions.py", "a") as f:
        f.write("\n# a change of the engine\n")
    assert fp.code_fingerprint(root)["sha256"] != before["sha256"]


def test_the_suites_are_keyed_by_all_the_code_their_tests_run(tmp_path):
    checkout = tmp_path / "checkout"
    for package in fingerprint.PACKAGES:
        shutil.copytree(ROOT / package, checkout / package)
    shutil.copytree(ROOT / "tests", checkout / "tests")
    before = fp.code_fingerprint(suites=checkout)
    assert {"hypothesis", "pytest", "distributed"} <= set(before["versions"])
    # The CLI's exit codes, the list of the suites' tests and a test helper: no verdict of a
    # seed reads them, the suites' outcomes do.
    for path in ("verification/cli.py", "verification/selftest/suites.py", "tests/conftest.py"):
        with open(checkout / path, "a") as f:
            f.write("\nEDITED = True\n")
        after = fp.code_fingerprint(suites=checkout)
        assert after["sha256"] != before["sha256"], path
        before = after
    assert "hypothesis" in fp.code_fingerprint()["versions"]  # the fuzz search of an exploration


def test_every_fault_test_exists():
    for node in suites.FAULTS:
        path, name = node.split("::")
        assert f"def {name}(" in (ROOT / path).read_text(), node


def test_suite_records_each_test_with_its_outcome(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_demo.py").write_text(textwrap.dedent("""
        import pytest

        def test_good():
            pass

        @pytest.mark.parametrize("x", [1, 2])
        def test_param(x):
            assert x == 1, "two is not one"

        @pytest.mark.xfail(strict=True, reason="known")
        def test_known():
            assert False
    """))
    outcome = suites.run_suite("faults", tmp_path, tests=["tests/test_demo.py"])
    by_id = {t["id"]: t for t in outcome.tests}
    assert by_id["tests/test_demo.py::test_good"]["outcome"] == "passed"
    assert by_id["tests/test_demo.py::test_param[1]"]["outcome"] == "passed"
    assert by_id["tests/test_demo.py::test_param[2]"]["outcome"] == "failed"
    assert "two is not one" in by_id["tests/test_demo.py::test_param[2]"]["message"]
    assert by_id["tests/test_demo.py::test_known"]["outcome"] == "xfailed"
    assert outcome.counts == {"passed": 2, "failed": 1, "xfailed": 1}
    assert outcome.passed is False
    assert outcome.to_json()["returncode"] == 1


def test_suite_that_cannot_start_is_an_error_not_a_pass(tmp_path):
    (tmp_path / "tests").mkdir()
    outcome = suites.run_suite("bad_input", tmp_path, tests=["tests/test_missing.py"])
    assert outcome.passed is False
    assert [t["outcome"] for t in outcome.tests] == ["error"]


def test_suite_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="part must be one of"):
        suites.run_suite("nope", tmp_path)
    with pytest.raises(ValueError, match=r"checkout: .* has no tests/"):
        suites.run_suite("faults", tmp_path)


@pytest.mark.parametrize("error", [fingerprint.StaleCodeError("verification/rules/equivalence.py changed on disk"),
                                   StoreError("store s.sqlite: database is locked")], ids=["stale", "store"])
def test_a_run_s_own_error_stops_the_campaign_instead_of_flagging_a_defect(tmp_path, monkeypatch, error):
    """Code edited under a campaign, or a store that fails, is the campaign's fault: recorded as
    every claim's error verdict it would flag every defect (an error differs from the expected
    verdict) and count every statement mutant as missed, and be reused as a finished unit."""
    def fails(*args, **kwargs):
        raise error

    monkeypatch.setattr(runner, "run", fails)
    with pytest.raises(type(error)):
        campaign.run_defect(DEFECT, [CLAIM], profile="smoke", seed=0, jobs=1, scheduler=None,
                            store=tmp_path / "d.sqlite", quiet=True)
    with pytest.raises(type(error)):
        statements.run_mutant(statements.get("lemma4_corrected_prefactor_dropped"), seed=0,
                              store=tmp_path / "m.sqlite")
