"""Stored decisions: a claim is decided again only when its records, level or decision code
changed (verification.stored_decisions; issue 19).  The edit of a function that only one
claim's decision runs, in a copy of the packages, is in tests/test_incremental.py."""

from __future__ import annotations

import dataclasses
import datetime
import importlib
import math
import os
import subprocess
import sys
import sysconfig
import time
from importlib import metadata
from types import SimpleNamespace

import pytest
from package_copy import copy_packages

from verification import catalog, fingerprint, reach, runner, stored_decisions
from verification.rules import rate
from verification.store import Store
from verification.verdicts import Verdict

SEED, PROFILE, KEY, HASH = 0, "smoke", "trials@code", "config"


def _verdict(claim_id: str, records: list[dict], level: float) -> Verdict:
    hits = sum(r["hit"] for r in records)
    # Non-finite numbers and a tuple at depth: the round trip through the store keeps them.
    return Verdict(claim_id, "holds", "rule", hits / len(records), 0.5, (0.0, math.inf), level, level,
                   0.1, None, 0.0, len(records), 0.5, details={"ratio": math.inf, "cells": (1, 2),
                                                                 "missing": math.nan},
                   min_detectable_ratio=math.inf)


def _claim(calls: list[str], claim_id: str = "fake.claim", fails: bool = False) -> SimpleNamespace:
    def decide(records, config, alpha):
        calls.append(claim_id)
        if fails:
            raise RuntimeError("a decision that raises")
        return _verdict(claim_id, records, alpha)
    return SimpleNamespace(id=claim_id, decide=decide)


def _store(tmp_path, records=(True, False, False)) -> Store:
    db = Store(tmp_path / "s.sqlite")
    db.add_trials(SEED, PROFILE, "fake.claim", KEY, [(i, {"hit": h}, 0.25) for i, h in enumerate(records)])
    return db


def _decide(db: Store, claim, level: float = 1e-3, n: int = 3) -> tuple[Verdict, stored_decisions.Decisions]:
    decisions = stored_decisions.Decisions(db, SEED, PROFILE)
    return decisions.decide(claim, {"n_trials": n}, HASH, KEY, n, level), decisions


def test_a_decision_is_reused_for_the_same_records_level_and_code(tmp_path):
    calls: list[str] = []
    claim = _claim(calls)
    with _store(tmp_path) as db:
        first, run1 = _decide(db, claim)
        again, run2 = _decide(db, claim)  # a later run: a new Decisions, the same store
        assert calls == ["fake.claim"]
        assert (run1.note("fake.claim"), run2.note("fake.claim")) == ("decided", "decision reused")
        assert again.to_json() == first.to_json()
        assert again.details["ratio"] == math.inf
        assert math.isnan(again.details["missing"])
        assert again.min_detectable_ratio == math.inf
        assert again.interval == (0.0, math.inf)
        digest = run2.records_digest("fake.claim", KEY, 3)
        assert (digest.count, digest.elapsed_s) == (3, 0.75)


def test_records_level_configuration_or_versions_changed_decide_again(tmp_path, monkeypatch):
    calls: list[str] = []
    claim = _claim(calls)
    with _store(tmp_path) as db:
        _decide(db, claim)
        _decide(db, claim, level=2e-3)  # another level
        assert len(calls) == 2
        decisions = stored_decisions.Decisions(db, SEED, PROFILE)
        decisions.decide(claim, {"n_trials": 3}, "another configuration", KEY, 3, 1e-3)
        assert len(calls) == 3
        _decide(db, claim, n=2)  # fewer records (a sequential claim's checkpoint)
        assert len(calls) == 4
    # The same indices under the same key with another record: a trial computed again.
    (tmp_path / "s.sqlite").unlink()
    with _store(tmp_path, records=(True, True, False)) as db:
        verdict, _ = _decide(db, claim)
        assert len(calls) == 5
        assert verdict.statistic == pytest.approx(2 / 3)
        monkeypatch.setattr(fingerprint, "versions", lambda: {"python": "0"})
        _decide(db, claim)
        assert len(calls) == 6


def _stamped_by_time(records, config, alpha):
    return dataclasses.replace(_verdict("fake.claim", records, alpha), statistic=time.time())


def _stamped_by_perf_counter(records, config, alpha):
    return dataclasses.replace(_verdict("fake.claim", records, alpha), statistic=time.perf_counter())


def _stamped_by_datetime(records, config, alpha):
    return dataclasses.replace(_verdict("fake.claim", records, alpha),
                               statistic=datetime.datetime.now().timestamp())


@pytest.mark.parametrize("decide", [_stamped_by_time, _stamped_by_perf_counter, _stamped_by_datetime])
def test_a_decision_of_a_user_s_module_that_reads_a_clock_is_not_saved(tmp_path, decide):
    """This test module is a user's (outside the packages and the installation), as a paper of
    one's own is: its clock is seen, whichever it names."""
    with _store(tmp_path) as db:
        first, _ = _decide(db, SimpleNamespace(id="fake.claim", decide=decide))
        time.sleep(0.01)
        again, decisions = _decide(db, SimpleNamespace(id="fake.claim", decide=decide))
    assert decisions.note("fake.claim") == "decided"
    assert again.statistic > first.statistic


def test_a_constant_imported_by_name_is_in_the_reach():
    """probability.py reads catalog.DESIGN_POWER, imported by name: no function of catalog.py
    runs, but its module code is keyed."""
    index = fingerprint.current_index()
    units = reach.units_reached(["verification/rules/probability.py:detectable_ratio"], index)
    assert "verification/catalog.py:<module>" in units


def test_an_import_inside_a_function_that_did_not_run_reaches_nothing():
    """rules/pilot.py imports the trials' engine inside pilot_records only: the figure claims'
    trials, which run other functions of it, are not keyed by it, nor by the runner's module
    code (an edit of the engine reran the costliest claims)."""
    index = fingerprint.current_index()
    units = reach.units_reached(["verification/claims/iln/figure1.py:figure1_trial",
                                 "verification/rules/pilot.py:sign_test_plan"], index)
    assert "verification/rules/pilot.py:<module>" in units
    assert not {"verification/runner.py:<module>", "verification/store.py:<module>"} & units
    assert "verification/trials.py:<module>" not in units
    # A function of the same module that imports inside it and ran: what it imports is reached.
    assert "verification/trials.py:<module>" in reach.units_reached(["verification/rules/pilot.py:pilot_records"],
                                                                    index)


def test_a_decision_that_raises_or_reads_a_clock_is_not_saved(tmp_path, monkeypatch):
    calls: list[str] = []
    with _store(tmp_path) as db:
        for _ in range(2):
            with pytest.raises(RuntimeError, match="a decision that raises"):
                _decide(db, _claim(calls, fails=True))
        assert len(calls) == 2
        monkeypatch.setattr(reach.Recorder, "reads_clock", lambda self, besides=(): True)
        claim = _claim(calls)
        _decide(db, claim)
        _decide(db, claim)
        assert len(calls) == 4
        assert db.decisions("fake.claim", HASH, db.records_digest(SEED, PROFILE, "fake.claim", KEY, 3).digest,
                            repr(1e-3)) == []


FOREIGN = '''"""A claim of a paper of one's own: its trial and decision outside iln/ and verification/."""
import importlib

import numpy as np

from verification import rules


def trial(config, seed):
    return {"hit": bool(np.random.default_rng(seed).random() < 0.05)}


def decide(records, config, alpha):
    point = rules.TailPoint.from_hits("p", [r["hit"] for r in records], printed=importlib.import_module("own_helper").printed())
    return rules.probability_bound("iln.lemma4.hoeffding", [point], alpha)
'''
#: a second module of the paper, which only the decision calls (imported as it runs: no static
#: import of the paper's module names it, so only the traced decision finds it).
HELPER = '''def printed():
    return 0.1
'''


def test_an_edit_of_a_paper_of_one_s_own_reruns_its_trials_and_decides_again(tmp_path, monkeypatch):
    """A module outside the packages is keyed by its whole source, for its trials and its
    decisions alike: an edit there must not reuse what the old code computed."""
    (tmp_path / "own_paper.py").write_text(FOREIGN)
    (tmp_path / "own_helper.py").write_text(HELPER)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("own_paper")
    claim_id = "iln.lemma4.hoeffding"

    def patch() -> None:
        patched = dataclasses.replace(catalog.get(claim_id), trial=module.trial, decide=module.decide,
                                      configs={p: {"n_trials": 60} for p in catalog.PROFILES})
        monkeypatch.setattr(catalog, "load", lambda: {claim_id: patched})

    def run() -> runner.RunResult:
        return runner.run([claim_id], profile="smoke", jobs=1, store=tmp_path / "s.sqlite", quiet=True)

    patch()
    first = run()
    assert first.meta["decisions"] == {claim_id: "decided"}
    assert first.outcomes[0].verdict.bound == pytest.approx(0.1)
    again = run()
    assert again.meta["reuse"][claim_id].startswith("reused 60 trials")
    assert again.meta["decisions"] == {claim_id: "decision reused"}

    # The helper, which no trial runs: the trials are reused, the decision is not.
    (tmp_path / "own_helper.py").write_text(HELPER.replace("0.1", "0.2"))
    importlib.reload(sys.modules["own_helper"])
    helper_edited = run()
    assert helper_edited.meta["reuse"][claim_id].startswith("reused 60 trials")
    assert helper_edited.meta["decisions"] == {claim_id: "decided"}
    assert helper_edited.outcomes[0].verdict.bound == pytest.approx(0.2)

    (tmp_path / "own_paper.py").write_text(FOREIGN.replace('importlib.import_module("own_helper").printed()', "0.25"))
    module = importlib.reload(module)
    patch()
    edited = run()
    assert edited.meta["reuse"][claim_id].startswith("reran: own_paper:<module> changed")
    assert edited.meta["decisions"] == {claim_id: "decided"}
    assert edited.outcomes[0].verdict.bound == pytest.approx(0.25)
    sys.modules.pop("own_paper", None)
    sys.modules.pop("own_helper", None)


def test_a_decision_reading_a_rule_s_cache_is_keyed_by_the_code_that_computed_it(tmp_path):
    """The rules cache a sign test's critical count: a decision traced after another claim filled
    the cache would run none of its code, and an edit of it would reuse a stale verdict."""
    rate.sign_test_critical(10, 0.01)  # warm, as an earlier claim's decision leaves it

    def decide(records, config, alpha):
        rate.sign_test_critical(10, 0.01)
        return _verdict("fake.claim", records, alpha)

    with _store(tmp_path) as db:
        _decide(db, SimpleNamespace(id="fake.claim", decide=decide))
        digest = db.records_digest(SEED, PROFILE, "fake.claim", KEY, 3).digest
        (saved,) = db.decisions("fake.claim", HASH, digest, repr(1e-3))
    assert "verification/rules/rate.py:sign_test_critical" in saved.units


LONG_LIVED = """
import sys
from pathlib import Path
from verification import fingerprint, runner

root, store, first_run = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
if first_run:
    runner.run(["iln.alg2.unbiased"], profile="smoke", jobs=1, store=store, quiet=True)
rule = root / "verification/rules/equivalence.py"
text = rule.read_text()
rule.write_text(text.replace("    mean = float(values.mean())\\n", "    mean = float(np.mean(values))\\n"))
try:
    runner.run(["iln.alg2.unbiased"], profile="smoke", jobs=1, store=store, quiet=True)
except fingerprint.StaleCodeError as error:
    print("refused:", error)
"""


@pytest.mark.system
@pytest.mark.parametrize("first_run", [True, False], ids=["after-a-run", "before-any-run"])
def test_a_process_whose_imported_code_changed_on_disk_refuses_to_run(tmp_path, first_run):
    """Decisions (and trials with one job) run the code this process imported; keyed by the
    disk after an edit, they would be saved under code they did not run (a self-test campaign
    runs for hours in one process; a notebook imports, then its user edits). A module is
    digested when it is imported, so an edit before the process's first run counts too."""
    root = copy_packages(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", LONG_LIVED, str(root), str(tmp_path / "s.sqlite"),
                           str(int(first_run))], cwd=root, env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "refused: verification/rules/equivalence.py changed on disk since this process imported it" \
        in done.stdout, done.stdout
    if first_run:
        with Store(tmp_path / "s.sqlite") as db:
            assert len(db.runs()) == 1  # the second run wrote nothing
    else:
        assert not (tmp_path / "s.sqlite").exists()


def _probe(task):
    return task


def test_a_worker_that_runs_other_code_than_its_run_is_refused():
    """A worker checks, before each batch, that it runs its run's code (a Dask worker outlives
    its runs, a spawned one reads the disk after the run started): one that does not raises in
    the run instead of storing its trials under the run's key."""
    code = fingerprint.run_code_id(fingerprint.current_index())
    results = []
    runner._execute([("a",), ("b",)], 2, None, lambda task, result: results.append(result), None, _probe, code)
    assert sorted(results) == ["a", "b"]
    with pytest.raises(fingerprint.StaleCodeError, match="runs other code than its run"):
        runner._execute([("a",)], 2, None, lambda task, result: None, None, _probe, "0" * 16)
    with pytest.raises(fingerprint.StaleCodeError, match="runs other code than its run"):
        runner._execute([("a",)], 1, None, lambda task, result: None, None, _probe, "0" * 16)


def test_a_module_without_source_matches_nothing():
    """A ``python -c`` script's or a notebook's code cannot be digested: what it computed is
    never reused (a fixed "no source" would match itself after any edit)."""
    first = fingerprint.foreign_module("no_such_module_of_a_user")
    again = fingerprint.foreign_module("no_such_module_of_a_user")
    assert first.keys() == again.keys()
    assert first != again


def test_an_installed_paper_is_a_user_s_code():
    """A paper installed with pip lives among the installed packages, but is the user's code:
    traced and keyed by its source; an installed library is not."""
    installed = sysconfig.get_paths()["purelib"]
    assert not fingerprint.is_users_module("numpy.linalg", f"{installed}/numpy/linalg/__init__.py")
    assert fingerprint.is_users_module("own_paper", "/home/someone/own_paper.py")
    assert not fingerprint.is_users_module("verification.rules", f"{installed}/verification/rules.py")
    fingerprint.paper_packages.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(metadata, "entry_points", lambda group: [
                metadata.EntryPoint("tiny", "tinypaper.claims:PAPER", group),
                metadata.EntryPoint("iln", "verification.claims.iln:PAPER", group)])
            assert fingerprint.paper_packages() == frozenset({"tinypaper"})
            assert fingerprint.is_users_module("tinypaper.claims", f"{installed}/tinypaper/claims.py")
    finally:
        fingerprint.paper_packages.cache_clear()


CONSTANTS = "PRINTED = 0.1\n"
USES_CONSTANT = "from own_constants_mod import PRINTED\n\ndef printed():\n    return PRINTED\n"


def test_a_user_s_constant_imported_by_name_keys_its_importer(tmp_path, monkeypatch):
    """A user's module reads a constant of another by name: no code of the constant's module
    runs while a decision is traced, so the importer's reach holds the constant's module."""
    (tmp_path / "own_constants_mod.py").write_text(CONSTANTS)
    (tmp_path / "own_importer_mod.py").write_text(USES_CONSTANT)
    monkeypatch.syspath_prepend(str(tmp_path))
    index = fingerprint.current_index()
    units = reach.units_reached(["own_importer_mod:<module>"], index)
    assert {"own_importer_mod:<module>", "own_constants_mod:<module>"} <= units
    before = fingerprint.state_now(units, index)
    (tmp_path / "own_constants_mod.py").write_text(CONSTANTS.replace("0.1", "0.2"))
    assert fingerprint.state_now(units, index) != before


def test_a_verdict_stored_with_the_legacy_power_field_reads_with_the_weakest_point():
    """Verdicts stored before issue 42 carry ``power`` and the best point's figure as
    ``min_detectable_ratio``: read back, the weakest point comes from the rows that could fail
    (a null there was an infinite figure), and can_fail is derived from it."""
    row = {"min_detectable_ratio": 9.42, "can_fail": True}
    legacy = {"claim_id": "c", "verdict": "inconclusive", "rule": "mean bound", "statistic": 1.0, "bound": 2.0,
              "interval": [0.0, None], "level": 0.99, "alpha": 1e-3, "power": 9.42, "tightness": 0.5,
              "counterexample": None, "elapsed_s": 1.0, "n_trials": 10, "pvalue": 1.0, "can_fail": True,
              "min_detectable_ratio": 9.42,
              "details": {"points": {"a": row, "b": {**row, "min_detectable_ratio": 19490.0},
                                     "c": {"min_detectable_ratio": None, "can_fail": False}}}}
    verdict = Verdict.from_json(legacy)
    assert (verdict.min_detectable_ratio, verdict.min_detectable_ratio_best_point) == (19490.0, 9.42)
    assert verdict.can_fail is True
    blind = {**legacy, "details": {"points": {"a": {"min_detectable_ratio": None, "can_fail": True}}},
             "min_detectable_ratio": "inf"}
    assert Verdict.from_json(blind).can_fail is False  # the stored "can_fail: true" was wrong
    assert "power" not in Verdict.from_json(legacy).to_json()
