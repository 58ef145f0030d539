"""Incremental runs: an edit reruns exactly the claims whose trials reach it (issue 19).

The runs happen in a copy of the packages, in child processes, so that the code on disk, which
the fingerprint reads, is the code that runs; the edits are real edits of its files.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from package_copy import CLAIMS, EDIT, EDITED_UNIT, ROOT, copy_packages, edit

from verification import catalog, cli, fingerprint, incremental, reach, runner, trials
from verification.store import CodeState, Store

pytestmark = pytest.mark.system

#: a function none of the three claims reaches (the demo's argument parser).
UNREACHED = ("iln/demo.py", "def _positive_int(text: str) -> int:\n",
             "def _positive_int(text: str) -> int:\n    text = str(text)\n")

#: a new constant in the runner's module code; the trials' thread policy written differently (it
#: runs around the traced trial, not in it).
RUNNER_EDIT = ("verification/runner.py", "BATCH_SIZE = 50\n", "BATCH_SIZE = 50\nEDITED = True\n")
#: a rule's line written differently, in a function only iln.alg2.unbiased's decision runs (no
#: trial, no other claim's decision): its trials are reused, and it alone is decided again.
DECISION_EDIT = ("verification/rules/equivalence.py", "    mean = float(values.mean())\n",
                 "    mean = float(np.mean(values))\n")
TRIALS_EDIT = ("verification/trials.py", "    return threadpool_limits(limits=LIBRARY_THREADS)\n",
               "    threads = LIBRARY_THREADS\n    return threadpool_limits(limits=threads)\n")


def _run(root: Path, *args: str, store: str = "s.sqlite", jobs: int = 1,
         cwd: Path | None = None) -> tuple[int, str, dict | None]:
    """``iln-verify run`` in the copy: exit status, stdout, and the JSON document if written.
    The copy is imported from ``PYTHONPATH``: the working directory (``root`` by default),
    which ``python -m`` puts first on the path, resolved, is the copy's only by default."""
    out = root / "run.json"
    out.unlink(missing_ok=True)
    # The copy first; the rest of PYTHONPATH stays (the papers' plug-ins may be found there).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
           "GIT_CEILING_DIRECTORIES": str(root.parent)}
    done = subprocess.run([sys.executable, "-m", "verification", "run", *args, "--profile", "smoke", "--verbose",
                           "--jobs", str(jobs), "--quiet", "--store", str(root / store), "--json", str(out)],
                          cwd=root if cwd is None else cwd, env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode in (0, 1, 2), done.stderr
    return done.returncode, done.stdout + done.stderr, json.loads(out.read_text()) if out.exists() else None


def _reran(doc: dict) -> set[str]:
    return {c for c, note in doc["meta"]["reuse"].items() if note.startswith("reran")}


def _decided(doc: dict) -> set[str]:
    """The claims the run decided, rather than reading their stored decisions."""
    return {c for c, note in doc["meta"]["decisions"].items() if note != "decision reused"}


def _decision_units(path: Path, claim_id: str) -> set[str]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT units FROM decisions WHERE claim_id = ?", (claim_id,)).fetchall()
    return set().union(*(json.loads(units) for (units,) in rows))


def _verdicts(doc: dict) -> list[dict]:
    return [{k: v for k, v in c.items() if k != "elapsed_s"} for c in doc["claims"]]


def _records(path: Path, config_hashes: dict[str, str]) -> dict[str, dict]:
    with Store(path) as db:
        out = {}
        for claim_id, h in config_hashes.items():
            key = next(s.trial_key for s in db.code_states(claim_id, seed=0, profile="smoke", config_hash=h))
            out[claim_id] = {i: r.record for i, r in db.existing_trials(0, "smoke", claim_id, key).items()}
        return out


def _traced_units(path: Path, claim_id: str) -> set[str]:
    with Store(path) as db:
        return set(next(s for s in db.code_states(claim_id, seed=0, profile="smoke") if s.traced).units)


def test_an_edit_reruns_exactly_the_claims_that_reach_it(tmp_path):
    root = copy_packages(tmp_path)
    status, out, first = _run(root, *CLAIMS, jobs=2)  # traced in worker processes
    assert status == 0, out
    assert _reran(first) == set(CLAIMS)
    assert _decided(first) == set(CLAIMS)

    # An edit of iln/ that no trial reaches: the conservative fingerprint (all of iln/) would
    # rerun every claim; the traced reach reruns none.
    edit(root, *UNREACHED)
    status, out, unreached = _run(root, *CLAIMS)
    assert _reran(unreached) == set(), out
    assert _decided(unreached) == set()  # nothing a decision reaches changed either
    assert "reused the stored trials of 3 claims" in out
    # The engine around the trials (workers, store, decisions) is not trial code: an edit of
    # the runner's module code reruns none either.
    edit(root, *RUNNER_EDIT)
    status, out, runner_edited = _run(root, *CLAIMS)
    assert _reran(runner_edited) == set(), out

    # One function edited: exactly the claims whose recorded reach holds it rerun, and say why.
    reaching = {c for c in CLAIMS if EDITED_UNIT in _traced_units(root / "s.sqlite", c)}
    assert reaching == {"iln.alg2.unbiased", "iln.lemma4.hoeffding"}
    deciding = {c for c in CLAIMS if EDITED_UNIT in _decision_units(root / "s.sqlite", c)}
    edit(root, *EDIT)
    status, out, edited = _run(root, *CLAIMS)
    assert status == 0, out
    assert _reran(edited) == reaching
    for claim_id in reaching:
        assert f"reran {claim_id}: {EDITED_UNIT} changed" in out
    # The trials ran again and gave the same records: only a decision that runs the edited
    # function is computed again.
    assert _decided(edited) == deciding

    # A function only one claim's decision runs: no trial runs, that claim alone is decided.
    assert {c for c in CLAIMS if "verification/rules/equivalence.py:_decide" in _decision_units(
        root / "s.sqlite", c)} == {"iln.alg2.unbiased"}
    edit(root, *DECISION_EDIT)
    status, out, decision_edited = _run(root, *CLAIMS)
    assert status == 0, out
    assert _reran(decision_edited) == set()
    assert _decided(decision_edited) == {"iln.alg2.unbiased"}
    assert _verdicts(decision_edited) == _verdicts(first)

    # Everything computed again from scratch on the edited code: the same verdicts and records.
    status, out, fresh = _run(root, *CLAIMS, store="fresh.sqlite")
    assert _reran(fresh) == set(CLAIMS)
    assert _decided(fresh) == set(CLAIMS)
    assert _verdicts(fresh) == _verdicts(edited) == _verdicts(first)
    hashes = {c: runner.trials_key(catalog.get(c).config("smoke")) for c in CLAIMS}
    assert _records(root / "fresh.sqlite", hashes) == _records(root / "s.sqlite", hashes)

    # The code every trial runs (its seed, its call, the libraries' threads): every claim reruns.
    edit(root, *TRIALS_EDIT)
    status, out, entry_edited = _run(root, *CLAIMS)
    assert _reran(entry_edited) == set(CLAIMS), out
    assert "reran iln.alg2.unbiased: verification/trials.py:one_library_thread changed" in out


#: a method added to the class of the sign features, whose instances iln.alg2.unbiased's trials
#: use: it overrides the inherited kernel, which its trials ran, and changes what it returns.
#: No unit those trials reached is edited.
OVERRIDE = ("iln/features.py", "    kind = KIND_SIGN\n",
            "    kind = KIND_SIGN\n\n    def kernel(self, X, Y=None):\n        return FeatureFamily.kernel(self, X, Y) + 2.0\n")


def test_an_added_definition_reruns_the_claims_that_reach_its_module(tmp_path):
    claim = "iln.alg2.unbiased"
    root = copy_packages(tmp_path)
    status, out, first = _run(root, claim)
    assert status == 0, out
    assert "iln/features.py:FeatureFamily.kernel" in _traced_units(root / "s.sqlite", claim)
    edit(root, *OVERRIDE)
    status, out, edited = _run(root, claim)
    assert _reran(edited) == {claim}, out
    assert f"reran {claim}: iln/features.py:<module> changed" in out
    status, out, fresh = _run(root, claim, store="fresh.sqlite")
    # The reused store and a fresh one agree on the edited code, which moved the verdict.
    assert _verdicts(edited) == _verdicts(fresh) != _verdicts(first)


def test_a_key_s_trials_are_reused_only_while_each_of_its_traced_states_holds(tmp_path, monkeypatch):
    # A sequential claim's second run stopped later, under the same key: its trials reached a
    # unit the first run's did not, and the key got a second, wider traced state.
    old = fingerprint.CodeIndex({"p.py:<module>": "0", "p.py:a": "1", "p.py:b": "2"})
    versions = fingerprint.versions()
    narrow, wide = ({u: old.digests[u] for u in units} for units in (["p.py:a"], ["p.py:a", "p.py:b"]))
    with Store(tmp_path / "s.sqlite") as db:
        for units in (narrow, wide):
            db.save_code_state(CodeState(0, "smoke", "c", "h", fingerprint.code_id(units, versions), "h@k",
                                         units, versions, traced=True))
        monkeypatch.setattr(fingerprint, "current_index", lambda *a, **k: old)
        assert incremental.stored_trial_key(db, "c", "h", 0, "smoke") == "h@k"
        # b edited: only the later trials ran it, and they are stored under the key too.
        monkeypatch.setattr(fingerprint, "current_index",
                            lambda *a, **k: fingerprint.CodeIndex({**old.digests, "p.py:b": "3"}))
        assert incremental.stored_trial_key(db, "c", "h", 0, "smoke") is None


def test_a_checkout_reached_through_a_symbolic_link_is_traced(tmp_path):
    # macOS's /tmp and /var/folders are links: the code objects carry the linked path, the
    # fingerprint's root the resolved one.  Before 2026-11-28 the trace saw none of our
    # functions there, and an edit of the claim's trial reused its trials.
    claim = "iln.eq17.zero_comparator"
    root = copy_packages(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(root, target_is_directory=True)
    # Run from elsewhere: the working directory, first on the path, would be the resolved copy.
    status, out, first = _run(link, claim, cwd=tmp_path)
    assert status == 0, out
    assert "verification/claims/iln/eq17.py:zero_comparator_trial" in _traced_units(link / "s.sqlite", claim)
    edit(link, "verification/claims/iln/eq17.py", "loss = math.fsum(y**2) / 2", "loss = math.fsum(y**2) * 2")
    status, out, edited = _run(link, claim, cwd=tmp_path)
    assert _reran(edited) == {claim}, out
    assert _verdicts(edited) != _verdicts(first)


def test_a_trace_that_misses_the_claim_s_own_code_is_not_saved(tmp_path, monkeypatch):
    # A trace blind to the packages (as one through a symbolic link was): it records no
    # traced state and no decision, and the trials stay keyed by their conservative state.
    claim = "iln.eq17.zero_comparator"
    monkeypatch.setattr(reach, "_ROOTS", ("/nowhere/",))
    store = tmp_path / "s.sqlite"
    runner.run([claim], profile="smoke", jobs=1, store=store, quiet=True)
    with Store(store) as db:
        assert not any(s.traced for s in db.code_states(claim))
    again = runner.run([claim], profile="smoke", jobs=1, store=store, quiet=True)
    assert again.meta["reuse"][claim].endswith("(conservative)")
    assert again.meta["decisions"][claim] == "decided"


def test_a_kernel_held_in_a_table_is_reached(tmp_path):
    # Algorithm 2's kernels picked from a table, written differently: the trace must still key
    # the compiled sampler, which runs no Python frame.
    claim = "iln.alg2.unbiased"
    root = copy_packages(tmp_path)
    edit(root, "iln/estimator.py", "def _fast(alpha, X, x, m, family, seed, mode=numba_sampling.MODE_PRODUCTS):\n",
         "_KERNELS = {True: numba_sampling.sum_products, False: numba_sampling.sum_products_serial}\n\n\n"
         "def _fast(alpha, X, x, m, family, seed, mode=numba_sampling.MODE_PRODUCTS):\n")
    edit(root, "iln/estimator.py",
         "    kernel = numba_sampling.sum_products if m >= numba_sampling.PARALLEL_MIN else "
         "numba_sampling.sum_products_serial\n",
         "    kernel = _KERNELS[bool(m >= numba_sampling.PARALLEL_MIN)]\n")
    status, out, _ = _run(root, claim)
    assert status == 0, out
    reached = _traced_units(root / "s.sqlite", claim)
    assert {"iln/numba_sampling.py:sum_products_serial", "iln/numba_sampling.py:_coordinate"} <= reached


def test_no_kernel_calls_a_kernel_of_another_file():
    # numba's on-disk cache (cache=True) is invalidated by an edit of the kernel's own file
    # only: a kernel calling a jitted function of another file would keep running the old
    # machine code of it after an edit, and store its numbers under the new code's key.
    import importlib
    import pkgutil
    import types

    import iln

    found = []
    for info in pkgutil.walk_packages(iln.__path__, "iln."):
        if info.name.endswith(".__main__"):
            continue  # a command line, not a module
        module = importlib.import_module(info.name)
        for kernel in vars(module).values():
            py_func = getattr(kernel, "py_func", None)
            if not isinstance(py_func, types.FunctionType) or py_func.__module__ != info.name:
                continue
            code, names = py_func.__code__, set()
            todo = [code]
            while todo:
                c = todo.pop()
                names |= set(c.co_names)
                todo += [k for k in c.co_consts if isinstance(k, types.CodeType)]
            for name in names:
                other = getattr(py_func.__globals__.get(name), "py_func", None)
                if isinstance(other, types.FunctionType) and other.__code__.co_filename != code.co_filename:
                    found.append(f"{info.name}.{py_func.__name__} calls {other.__module__}.{other.__name__}")
    assert found == []


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True, timeout=60)


@pytest.mark.skipif(shutil.which("git") is None, reason="--changed REV reads a git checkout")
def test_changed_runs_only_the_claims_whose_code_changed(tmp_path):
    root = copy_packages(tmp_path)
    status, out, _ = _run(root, *CLAIMS, "--changed")  # nothing stored yet: everything runs
    assert status == 0, out
    status, out, doc = _run(root, *CLAIMS, "--changed")
    assert status == 0
    assert "no claim changed since the stored trials: nothing to run" in out
    assert doc is None

    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    edit(root, *EDIT)
    status, out, doc = _run(root, *CLAIMS, "--changed")
    assert status == 0, out
    assert [c["id"] for c in doc["claims"]] == ["iln.alg2.unbiased", "iln.lemma4.hoeffding"]
    assert f"changed iln.lemma4.hoeffding: {EDITED_UNIT} changed" in out

    # Against the commit before the edit: the same two claims, although the store now holds
    # their trials for the edited code (they are reused, not computed again).
    status, out, doc = _run(root, *CLAIMS, "--changed", "HEAD")
    assert status == 0, out
    assert [c["id"] for c in doc["claims"]] == ["iln.alg2.unbiased", "iln.lemma4.hoeffding"]
    assert _reran(doc) == set()
    _git(root, "commit", "-qam", "edit")
    status, out, _ = _run(root, *CLAIMS, "--changed", "HEAD")
    assert "no claim changed since git revision HEAD" in out



def test_changed_with_a_bad_revision_or_outside_a_checkout_fails_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no enclosing checkout is found
    status = cli.main(["run", CLAIMS[0], "--profile", "smoke", "--store", str(tmp_path / "s.sqlite"),
                       "--changed", "no-such-revision"])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert "--changed" in err
    outside = tmp_path / "outside"
    outside.mkdir()
    with pytest.raises(fingerprint.GitRevisionError, match="not a git repository") as info:
        fingerprint.revision_index("HEAD", root=outside)
    assert "\n" not in str(info.value)


def test_a_version_1_store_is_migrated_and_its_trials_kept_but_not_reused(tmp_path):
    store = tmp_path / "old.sqlite"
    claim = catalog.get("iln.alg2.unbiased")
    config = claim.config("smoke")
    h = runner.trials_key(config)
    with Store(store) as db:
        # A version-1 run stored its trials under the configuration hash alone.
        db.add_trials(0, "smoke", claim.id, h, [(i, {"old": i}, 0.0) for i in range(config["n_trials"])])
    with sqlite3.connect(store) as conn:
        conn.execute("DROP TABLE code_states")
        conn.execute("DROP TABLE reach")
        conn.execute("DROP TABLE decisions")
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    result = runner.run([claim.id], profile="smoke", seed=0, jobs=1, store=store, quiet=True)
    assert result.meta["reuse"][claim.id] == "reran: no stored trials for this seed and profile"
    with Store(store) as db:
        assert db.count_trials() == 2 * config["n_trials"]  # the old trials are still there
        assert db.existing_trials(0, "smoke", claim.id, h)[3].record == {"old": 3}


def test_fingerprints_are_the_same_in_every_process(tmp_path):
    # Their cost (about 1.3 s for the whole catalog on 2 cores) is measured in
    # tests/benchmarks/test_speed_targets.py, not asserted here.
    index = fingerprint.current_index(ROOT)
    claims = catalog.load()
    states = {c.id: fingerprint.code_id(index.state(fingerprint.conservative_units(c, index)),
                                        fingerprint.versions()) for c in claims.values()}
    code = ("import json; from verification import catalog, fingerprint as f; i = f.current_index();"
            "print(json.dumps({c.id: f.code_id(i.state(f.conservative_units(c, i)), f.versions())"
            " for c in catalog.load().values()}))")
    # Another process, with another string-hash seed than this one's (random by default).
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "1", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
                          timeout=120, check=True)
    assert json.loads(done.stdout) == states


def test_units_ignore_comments_and_docstrings_but_not_code():
    base = "X = 1\nclass C:\n    y = 2\n    def m(self):\n        return X\ndef f():\n    '''Doc.'''\n    return 1\n"
    units = fingerprint.source_units(base)
    assert sorted(units) == ["<module>", "C", "C.m", "f"]
    assert fingerprint.source_units(base.replace("'''Doc.'''", "'''Other.'''  # note")) == units
    changed = fingerprint.source_units(base.replace("return 1", "return 2"))
    assert {u for u in units if units[u] != changed[u]} == {"f"}
    # A class attribute is read without any method of its class running: the module's
    # skeleton holds it too.
    changed = fingerprint.source_units(base.replace("y = 2", "y = 3"))
    assert {u for u in units if units[u] != changed[u]} == {"C", "<module>"}
    # A definition added changes no unit that could have run, but what runs: the skeleton and
    # the class say so.
    changed = fingerprint.source_units(base.replace("    def m(self):", "    def n(self):\n        return 0\n"
                                                                        "    def m(self):"))
    assert {u for u in units if units[u] != changed[u]} == {"C", "<module>"}
    assert "C.n" in changed
    changed = fingerprint.source_units(base + "def X():\n    return 2\n")
    assert {u for u in units if units[u] != changed[u]} == {"<module>"}
    index = fingerprint.CodeIndex({f"p.py:{u}": d for u, d in units.items()})
    assert index.unit_of("p.py", "f.<locals>.<listcomp>") == "p.py:f"
    assert index.unit_of("p.py", "C.m") == "p.py:C.m"
    assert index.unit_of("p.py", "g") == "p.py:<module>"
    assert index.closure(["p.py:C.m"]) == {"p.py:C.m", "p.py:C", "p.py:<module>"}


def test_the_trace_sees_numba_kernels_and_dataclass_methods():
    from iln import estimator

    alpha, X, x = [1.0], [[0.5, 0.5]], [0.5, 0.5]
    from iln.features import RandomCoordinate

    with reach.traced(("test", time.time_ns())) as recorder:
        estimator.estimate_scalar_product(alpha, X, x, 10, RandomCoordinate(2), seed=0, method="fast")
    units = reach.units_reached(recorder.functions(), fingerprint.current_index())
    assert "iln/estimator.py:estimate_scalar_product" in units
    assert "iln/numba_sampling.py:sum_products_serial" in units  # compiled: named, not traced
    assert "iln/features.py:RandomCoordinate" in units  # a method's class
    assert not any(u.startswith("verification/reach.py") for u in units)


def test_stored_trial_key_names_the_current_code(tmp_path):
    claim_id = "iln.alg2.unbiased"
    store = tmp_path / "s.sqlite"
    runner.run([claim_id], profile="smoke", seed=2, jobs=1, store=store, quiet=True)
    h = runner.trials_key(catalog.get(claim_id).config("smoke"))
    with Store(store) as db:
        key = incremental.stored_trial_key(db, claim_id, h, 2, "smoke")
        assert key is not None
        assert key.startswith(h + "@")
        assert len(db.existing_trials(2, "smoke", claim_id, key)) == catalog.get(claim_id).config("smoke")["n_trials"]
        assert incremental.stored_trial_key(db, claim_id, h, 3, "smoke") is None
        assert [s.traced for s in db.code_states(claim_id)] == [True, False]


@pytest.mark.parametrize("revision", ["", "-x"])
def test_a_revision_that_is_no_name_is_refused(revision):
    with pytest.raises(fingerprint.GitRevisionError, match="--changed"):
        fingerprint.revision_index(revision)


def test_a_traced_trial_that_reads_the_clock_is_flagged():
    for claim_id, clock in (("rks.fig1.vs_adaboost", True), ("iln.alg2.unbiased", False)):
        config = catalog.get(claim_id).config("smoke")
        with reach.traced((claim_id, time.time_ns())) as recorder:
            trials.run_batch(claim_id, config, 0, [0])
        assert recorder.reads_clock(besides=["verification/trials.py"]) is clock
        assert recorder.reads_clock() is True  # run_batch times every trial


def test_a_claim_s_traced_state_is_saved_when_its_trials_are_stored_not_at_the_run_s_end(tmp_path, monkeypatch):
    # A run stopped part-way (a session's end) must leave its finished claims keyed by the code
    # their trials reach: the traced state of the first claim is saved before the second
    # claim's last batch is stored (with jobs=1 the first claim's batches all come first).
    events = []
    add_trials, record = Store.add_trials, incremental.record_reach

    def logged_add(self, seed, profile, claim_id, *args, **kwargs):
        events.append(("stored", claim_id))
        return add_trials(self, seed, profile, claim_id, *args, **kwargs)

    def logged_record(db, claim, *args, **kwargs):
        events.append(("traced", claim.id))
        return record(db, claim, *args, **kwargs)

    monkeypatch.setattr(Store, "add_trials", logged_add)
    monkeypatch.setattr(incremental, "record_reach", logged_record)
    first, second = "rks.lemma4.hilbert_concentration", "iln.lemma3.grad_norm"
    runner.run([first, second], profile="smoke", seed=0, jobs=1, store=tmp_path / "s.sqlite", quiet=True)
    assert ("traced", first) in events
    assert events.index(("traced", first)) < max(i for i, e in enumerate(events) if e == ("stored", second))
    with Store(tmp_path / "s.sqlite") as db:
        assert any(s.traced for s in db.code_states(first, seed=0, profile="smoke"))
