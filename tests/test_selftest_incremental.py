"""The self-test after an edit reruns only what the edit reaches (issue 19, item 1).

A planted defect's and a statement mutant's trials are keyed by the change's identity (its name
and the digest of its edits) and by the code the trials reach, traced with the change planted;
the control's reach is kept per claim beside its store.  The campaign runs happen in a copy of
the packages, in child processes, so that the code on disk, which the fingerprints read, is the
code that runs (as in tests/test_incremental.py, whose copy and edit this file reuses).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from package_copy import CLAIMS, EDIT, copy_packages, edit

from verification import fingerprint, reach, runner
from verification.selftest import defects
from verification.selftest import reach as selftest_reach
from verification.selftest.injection import CodeEdit

pytestmark = pytest.mark.system

#: the claims whose trials call the edited function (package_copy.EDITED_UNIT).
REACHING = {"iln.alg2.unbiased", "iln.lemma4.hoeffding"}
#: a defect in Algorithm 2's fast path, and one in a baseline no claim here runs.
DEFECTS = ["alg2_drop_sign", "dsgd_constant_step"]
#: a mutant of a claim the edit reaches, and one of the claim it does not.
MUTANTS = {"lemma4_corrected_prefactor_dropped": True, "rks_lemma2_approximation_term_dropped": False}


#: a claim whose trial's own module is edited (a local renamed: no verdict may move).
OWN_CLAIM = "rks.lemma2.risk_approximation"
OWN_EDIT = ("verification/claims/rks/lemma2.py",
            "        best = witness\n        if witness > smallest:\n            best = min(witness, ",
            "        least = witness\n        if witness > smallest:\n            least = min(witness, ")
OWN_EDIT_USE = ("verification/claims/rks/lemma2.py", '/best"] = best\n', '/best"] = least\n')


def _campaign(root: Path, work: Path, out: Path) -> dict:
    """``python -m verification.selftest`` in the copy, on the smoke profile; its document."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
           "GIT_CEILING_DIRECTORIES": str(root.parent)}
    done = subprocess.run(
        [sys.executable, "-m", "verification.selftest", "--claims", ",".join(CLAIMS), "--defects",
         ",".join(DEFECTS), "--mutants", ",".join(MUTANTS), "--seeds", "2", "--profile", "smoke",
         "--jobs", "1", "--parts", "defects,false_alarms,statement_mutants", "--quiet",
         "--workdir", str(work), "--out", str(out)],
        cwd=root, env=env, capture_output=True, text=True, timeout=900, check=False)
    # 1: a finding (the baseline's defect is a gap of these three claims), not a failure.
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(out.read_text())


def _ran(notes: dict[str, str]) -> set[str]:
    """The claims whose trials were computed (or copied) again rather than read back."""
    return {c for c, note in notes.items() if not note.startswith("reused")}


def _verdicts(doc: dict) -> dict:
    return {"defects": {d["name"]: (d["verdicts"], d["flagged_by"]) for d in doc["defects"]},
            "seeds": {s: e["verdicts"] for s, e in doc["false_alarms"]["per_seed"].items()},
            "mutants": {e["name"]: (e["verdict"], e["verdict_printed"], e["verdict_corrected"], e["detected"])
                        for entries in doc["statement_mutants"]["by_claim"].values() for e in entries},
            "gaps": doc["gaps"], "mutation_score": doc["mutation_score"]}


@pytest.mark.slow
def test_an_edit_reruns_in_every_part_only_the_claims_that_reach_it(tmp_path):
    root = copy_packages(tmp_path)
    work, out = tmp_path / "work", tmp_path / "selftest.json"
    first = _campaign(root, work, out)
    assert first["complete"], first["pending"]
    assert set(first["false_alarms"]["per_seed"]["0"]["reach_recorded_for"]) == set(CLAIMS)
    # Each unit's trial time, claim by claim, for the claims whose trials it computed: none
    # under the baseline's defect, whose trials are all the control's.
    for s in ("0", "1"):
        assert set(first["false_alarms"]["per_seed"][s]["trial_s"]) == set(CLAIMS)
    for entry in first["defects"]:
        assert set(entry["trial_s"]) == set(entry["trials_run_for"]), entry["name"]
    assert [d["trial_s"] for d in first["defects"] if d["name"] == "dsgd_constant_step"] == [{}]
    cost = first["rerun_cost"]
    assert cost["units_without_times"] == 0
    # Hoeffding's claim: two seeds, the Algorithm 2 defect and its mutant; the RKS claim: two
    # seeds and its mutant.
    assert {c: (e["units"], e["units_raised"]) for c, e in cost["by_claim"].items()} == {
        "iln.alg2.unbiased": (3, 0), "iln.lemma4.hoeffding": (4, 0), "rks.lemma2.risk_approximation": (3, 0)}
    assert all(e["trial_s"] > 0 for e in cost["by_claim"].values())

    # An edit of a claim's own module (its trial, a local renamed), which the reach recorders'
    # run once keyed by the recorders' module: the control reran none of it and every defect
    # copied its stale trials (2026-11-28). Now the control, each seed and each defect run or
    # copy that claim's trials again, and nothing else.
    edit(root, *OWN_EDIT)
    edit(root, *OWN_EDIT_USE)
    own = _campaign(root, work, out)
    control, seed = own["false_alarms"]["per_seed"]["0"], own["false_alarms"]["per_seed"]["1"]
    assert _ran(control["reuse"]) == {OWN_CLAIM}
    assert set(control["reach_recorded_for"]) == {OWN_CLAIM}
    assert _ran(seed["reuse"]) == {OWN_CLAIM}
    for entry in own["defects"]:
        assert _ran(entry["reuse"]) == {OWN_CLAIM}, entry["name"]
    cost = own["rerun_cost"]

    edit(root, *EDIT)  # Algorithm 2's check_m, written differently: no verdict may move
    again = _campaign(root, work, out)
    assert again["fingerprint"]["sha256"] != first["fingerprint"]["sha256"]  # no unit reused whole
    control, seed = again["false_alarms"]["per_seed"]["0"], again["false_alarms"]["per_seed"]["1"]
    assert set(control["reach_recorded_for"]) == REACHING
    assert _ran(control["reuse"]) == REACHING
    assert _ran(seed["reuse"]) == REACHING
    for entry in again["defects"]:
        assert _ran(entry["reuse"]) == REACHING, entry["name"]
        for claim in set(entry["trials_copied_from_control"]) & REACHING:
            assert entry["reuse"][claim].startswith("copied from the control"), (entry["name"], claim)
    # The baseline's defect is reached by no claim here: every trial under it is the control's.
    (dsgd,) = [d for d in again["defects"] if d["name"] == "dsgd_constant_step"]
    assert sorted(dsgd["trials_copied_from_control"]) == sorted(CLAIMS)
    (drop_sign,) = [d for d in again["defects"] if d["name"] == "alg2_drop_sign"]
    assert drop_sign["reuse"]["iln.alg2.unbiased"].startswith("reran: iln/estimator.py:check_m changed")
    for entries in again["statement_mutants"]["by_claim"].values():
        for e in entries:
            assert e["reuse"].startswith("reran") is MUTANTS[e["name"]], e
    # The cost counts the trials each verdict used, reused ones too: the claim the edit does
    # not reach keeps its figure to the last bit, the others' are their new trials' times.
    before, after = cost["by_claim"], again["rerun_cost"]["by_claim"]
    assert after["rks.lemma2.risk_approximation"] == before["rks.lemma2.risk_approximation"]
    assert {c: e["units"] for c, e in after.items()} == {c: e["units"] for c, e in before.items()}
    assert all(after[c]["trial_s"] != before[c]["trial_s"] for c in REACHING)

    # From scratch on the edited code: the same verdicts in every part.
    fresh = _campaign(root, tmp_path / "fresh-work", tmp_path / "fresh.json")
    assert set(fresh["false_alarms"]["per_seed"]["0"]["reach_recorded_for"]) == set(CLAIMS)
    assert _verdicts(fresh) == _verdicts(again) == _verdicts(first)
    assert fresh["false_alarms"]["per_seed"]["0"]["reach"] == control["reach"]


def test_an_edited_defect_runs_its_trials_again(tmp_path):
    claim, store = "iln.alg2.unbiased", tmp_path / "defect.sqlite"
    planted = defects.get("alg2_drop_sign")
    (edit,) = planted.edits
    # The same mistake spelled otherwise: only the definition's digest tells them apart.
    edited = dataclasses.replace(planted, edits=(CodeEdit(edit.module, edit.qualname, edit.old,
                                                          edit.new.replace("np.abs(", "abs(")),))
    assert edited.name == planted.name
    assert edited.identity != planted.identity

    def note(defect) -> tuple[str, str]:
        result = runner.run([claim], profile="smoke", seed=0, jobs=1, store=store, quiet=True, defect=defect)
        return result.meta["reuse"][claim], result.outcomes[0].verdict.verdict

    assert note(planted) == ("reran: no stored trials for this seed and profile", "violated")
    assert note(planted)[0].startswith("reused")
    assert note(edited) == ("reran: its configuration changed", "violated")
    assert note(planted)[0].startswith("reused")  # the first definition's trials are kept


@pytest.mark.parametrize(("name", "unit"), [
    ("alg1_predict_printed_m", "iln/shrinking_gradient.py:ShrinkingGradientResult.predict"),  # a method
    ("numba_fourier_variance", "iln/numba_sampling.py:sum_products_serial"),  # a compiled kernel
])
def test_a_trace_under_a_defect_records_the_planted_code_as_the_unit_it_replaces(name, unit, one_numba_thread):
    index = fingerprint.current_index()
    defect = defects.get(name)

    def traced_units() -> set[str]:
        with reach.traced(("test", name, time.time_ns())) as recorder:
            defect.probe()
        return reach.units_reached(recorder.functions(), index)

    defect.probe()  # imports and compiles first: a module's first import runs code once only
    clean = traced_units()
    assert unit in clean
    with defect.applied():
        # The edited code runs in place of the unit, which the trace names: an edit of the
        # unit's source then changes the code state of the trials under the defect.
        assert unit in traced_units()
    # The control's recorders, in the same functions, hide nothing from the trace either.
    with selftest_reach.recorders_planted([defect]):
        assert traced_units() == clean


def test_trials_stored_without_their_reach_run_again_under_the_recorders(tmp_path):
    # A seed's run (or a control stopped before its log was written) leaves trials whose calls
    # nobody noted: the control runs them again, in a scratch store, rather than guess.
    claim, store, scratch = "iln.alg2.unbiased", tmp_path / "seed-0.sqlite", tmp_path / "scratch.sqlite"
    planted = [defects.get("alg2_drop_sign"), defects.get("dsgd_constant_step")]
    runner.run([claim], profile="smoke", seed=0, jobs=1, store=store, quiet=True)
    assert selftest_reach.stored_reach([claim], profile="smoke", seed=0, store=store).hits == {}
    found, recorded_now = selftest_reach.recorded_reach(planted, [claim], profile="smoke", seed=0, store=store,
                                                        scratch=scratch)
    assert recorded_now == [claim]
    assert "iln.estimator._fast" in found.hits[claim]
    assert found.unreached(planted[1], [claim]) == [claim]
    assert not list(tmp_path.glob("scratch*"))
    # Kept beside the store: the next control records nothing again.
    again, recorded_now = selftest_reach.recorded_reach(planted, [claim], profile="smoke", seed=0, store=store,
                                                        scratch=scratch)
    assert recorded_now == []
    assert again.hits == found.hits
