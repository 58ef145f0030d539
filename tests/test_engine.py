"""The verification engine end to end: catalog, runner, resume, Dask, CLI contract."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
import threadpoolctl
from threadpoolctl import threadpool_limits

from iln.random_streams import child
from verification import catalog, cli, incremental, runner, trials
from verification.store import Store
from verification.verdicts import OUTCOMES

CLAIMS = ["iln.alg2.unbiased", "iln.lemma4.hoeffding"]
JSON_FIELDS = {"id", "title", "kind", "verdict", "expected", "statistic", "bound", "interval", "level", "alpha",
               "tightness", "counterexample", "elapsed_s", "sources", "min_detectable_ratio",
               "min_detectable_ratio_best_point", "can_fail", "exact", "family"}
META_FIELDS = {"seed", "profile", "versions", "git_revision", "started", "elapsed_s"}


def _comparable(result):
    """Verdicts without their timings."""
    out = []
    for claim in result.to_json()["claims"]:
        claim = dict(claim)
        claim.pop("elapsed_s")
        out.append(claim)
    return out


def test_profiles_share_one_base_and_name_every_profile():
    configs = catalog.profiles({"T": 64, "B": 1.0}, smoke={"n_trials": 2}, quick={"n_trials": 20, "T": 128},
                               full={"n_trials": 200})
    assert configs == {"smoke": {"T": 64, "B": 1.0, "n_trials": 2}, "quick": {"T": 128, "B": 1.0, "n_trials": 20},
                       "full": {"T": 64, "B": 1.0, "n_trials": 200}}
    configs["smoke"]["T"] = 1  # each profile's dictionary is its own
    assert configs["full"]["T"] == 64
    with pytest.raises(ValueError, match="missing \\['full'\\]"):
        catalog.profiles(smoke={"n_trials": 1}, quick={"n_trials": 1})
    with pytest.raises(ValueError, match="unknown \\['huge'\\]"):
        catalog.profiles(smoke={"n_trials": 1}, quick={"n_trials": 1}, full={"n_trials": 1}, huge={"n_trials": 1})


def test_sources_print_one_statement_at_each_versions_location():
    assert catalog.sources("x", ICML="Lemma 5", arXiv="Lemma 4") == (
        catalog.Source("ICML", "Lemma 5", "x"), catalog.Source("arXiv", "Lemma 4", "x"))
    with pytest.raises(ValueError, match="locations"):
        catalog.sources("x")
    with pytest.raises(ValueError, match="paper must be one of"):
        catalog.sources("x", NeurIPS="Lemma 1")


def test_catalog_entries_are_complete():
    claims = catalog.load()
    assert set(CLAIMS) <= set(claims)
    for c in claims.values():
        assert c.expected in OUTCOMES
        assert {s.paper for s in c.sources} >= ({"ICML", "arXiv"} if c.id.startswith("iln.") else {"RKS"})
        assert all(s.statement for s in c.sources)
        for profile in catalog.PROFILES:
            assert c.config(profile)["n_trials"] >= 1
    for e in catalog.errata():
        assert e.counterexample
        assert e.corrected
        assert e.claim_id in claims


def test_smoke_run_fills_every_json_field(tmp_path, capsys):
    out = tmp_path / "run.json"
    status = cli.main(["run", *CLAIMS, "--profile", "smoke", "--seed", "3", "--jobs", "1", "--quiet",
                       "--store", str(tmp_path / "s.sqlite"), "--json", str(out)])
    assert status == 0, capsys.readouterr()
    doc = json.loads(out.read_text())
    assert set(doc["meta"]) >= META_FIELDS
    assert [c["id"] for c in doc["claims"]] == CLAIMS
    for claim in doc["claims"]:
        assert set(claim) >= JSON_FIELDS
        for key in JSON_FIELDS - {"counterexample"}:
            assert claim[key] is not None, key
        assert claim["verdict"] == claim["expected"]
    hoeffding = doc["claims"][1]
    assert hoeffding["verdict"] == "holds_after_correction"
    assert hoeffding["counterexample"]["seed"] == 3
    assert "reproduce" in hoeffding["counterexample"]


def test_local_processes_give_the_same_verdicts(tmp_path):
    one = runner.run(CLAIMS, profile="smoke", seed=5, jobs=1, store=tmp_path / "a.sqlite", quiet=True)
    two = runner.run(CLAIMS, profile="smoke", seed=5, jobs=2, store=tmp_path / "b.sqlite", quiet=True)
    assert _comparable(one) == _comparable(two)


@pytest.mark.system
def test_dask_cluster_gives_the_same_verdicts(tmp_path):
    distributed = pytest.importorskip("distributed")
    local = runner.run(CLAIMS, profile="smoke", seed=6, jobs=1, store=tmp_path / "a.sqlite", quiet=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        dask = runner.run(CLAIMS, profile="smoke", seed=6, scheduler=cluster.scheduler_address,
                          store=tmp_path / "b.sqlite", quiet=True)
    assert _comparable(local) == _comparable(dask)
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        for claim_id in CLAIMS:
            h = runner.trials_key(catalog.get(claim_id).config("smoke"))
            ra, rb = (db.existing_trials(6, "smoke", claim_id, incremental.stored_trial_key(db, claim_id, h, 6, "smoke"))
                      for db in (a, b))
            assert ra
            assert {i: r.record for i, r in ra.items()} == {i: r.record for i, r in rb.items()}


def _stored_records(path, claim_id, config, seed, profile):
    with Store(path) as db:
        key = incremental.stored_trial_key(db, claim_id, runner.trials_key(config), seed, profile)
        return {i: r.record for i, r in db.existing_trials(seed, profile, claim_id, key).items()}


#: a claim whose quick trials fit least squares large enough for OpenBLAS to split a reduction
#: over its threads: their records differ in the last bits between one and two threads.
THREADED = "iln.sec6.baselines"


def _one_thread_records():
    """The quick trials 0 and 1 of THREADED on one BLAS thread, and their configuration; the
    test is skipped where it could not fail: BLAS on one thread by default (one core, or pinned
    by the environment), or two threads giving the records of one."""
    if all(lib["num_threads"] == 1 for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"):
        pytest.skip("BLAS runs on one thread here by default: a run that did not limit it would pass too")
    claim = catalog.get(THREADED)
    config = {**claim.config("quick"), "n_trials": 2}
    by_threads = {}
    for threads in (1, 2):
        with threadpool_limits(limits=threads):
            by_threads[threads] = {i: claim.trial(config, child(trials.claim_seed(4, THREADED), i)) for i in range(2)}
    if json.dumps(by_threads[1], sort_keys=True) == json.dumps(by_threads[2], sort_keys=True):
        pytest.skip("two BLAS threads give the records of one here: the test cannot tell")
    return config, by_threads[1]


@pytest.mark.parametrize("jobs", [1, 2])
def test_trials_run_on_one_blas_thread_in_the_run_and_in_its_workers(tmp_path, jobs):
    config, expected = _one_thread_records()
    # The run's own process (jobs=1) and its workers (jobs=2) start with the machine's BLAS threads.
    runner.run([THREADED], profile="quick", seed=4, jobs=jobs, store=tmp_path / "s.sqlite", quiet=True,
               configs={THREADED: config})
    stored = _stored_records(tmp_path / "s.sqlite", THREADED, config, 4, "quick")
    assert json.dumps(stored, sort_keys=True) == json.dumps(expected, sort_keys=True)


@pytest.mark.system
def test_dask_workers_run_trials_on_one_blas_thread(tmp_path):
    distributed = pytest.importorskip("distributed")
    import dask

    config, expected = _one_thread_records()
    # Dask's nannies start workers on one BLAS thread by default; a cluster configured
    # otherwise (here: the machine's default) must not change the numbers.
    environ = {"MALLOC_TRIM_THRESHOLD_": 65536}
    with (dask.config.set({"distributed.nanny.pre-spawn-environ": environ}),
          distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                   dashboard_address=None) as cluster):
        runner.run([THREADED], profile="quick", seed=4, scheduler=cluster.scheduler_address,
                   store=tmp_path / "s.sqlite", quiet=True, configs={THREADED: config})
    stored = _stored_records(tmp_path / "s.sqlite", THREADED, config, 4, "quick")
    assert json.dumps(stored, sort_keys=True) == json.dumps(expected, sort_keys=True)


def _library_threads_after_loading_scikit_learn(_task):
    import sklearn.ensemble  # noqa: F401  (loads scikit-learn's OpenMP runtime, as a trial of RKS does)

    return {lib["filepath"]: lib["num_threads"] for lib in threadpoolctl.threadpool_info()}


def test_a_library_a_worker_loads_after_its_start_runs_on_one_thread():
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: every library starts on one thread, a worker that did not limit it would pass too")
    threads = []
    runner._execute([("probe",)], 2, None, lambda task, result: threads.append(result), None,
                    _library_threads_after_loading_scikit_learn)
    assert threads
    assert threads[0]
    assert set(threads[0].values()) == {1}, threads[0]


def _trial_count(path):
    if not os.path.exists(path):
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as con:
            return con.execute("SELECT COUNT(*) FROM trials").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.system
def test_sigkill_then_resume_loses_and_repeats_no_trial(tmp_path):
    store = tmp_path / "killed.sqlite"
    # The smoke profile's ~14 batches take about a second after the first lands: a poll
    # every 10 ms kills the run part-way.
    total = sum(catalog.get(c).config("smoke")["n_trials"] for c in CLAIMS)
    cmd = [sys.executable, "-m", "verification", "run", *CLAIMS, "--profile", "smoke", "--seed", "11",
           "--jobs", "1", "--quiet", "--store", str(store)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    try:
        while _trial_count(store) < runner.BATCH_SIZE and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        proc.stderr.close()
    partial = _trial_count(store)
    assert 0 < partial < total  # killed part-way
    resumed = runner.run(CLAIMS, profile="smoke", seed=11, jobs=1, store=store, quiet=True)
    assert _trial_count(store) == total  # no trial lost, none counted twice (the key is unique)
    fresh = runner.run(CLAIMS, profile="smoke", seed=11, jobs=1, store=tmp_path / "fresh.sqlite", quiet=True)
    assert _comparable(resumed) == _comparable(fresh)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "iln.no.such.claim"], "unknown claim id"),
        (["run", "--profile", "huge"], "invalid choice"),
        (["run", "--seed", "-4"], "non-negative"),
        (["run", "--jobs", "0"], "positive"),
        (["show", "iln.no.such.claim"], "unknown claim id"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2_with_one_line(argv, message, capsys, tmp_path):
    status = cli.main([*argv, "--store", str(tmp_path / "s.sqlite")] if argv[0] != "frobnicate" else argv)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def _bytes(path):
    return path.read_bytes()


def test_incompatible_store_exits_2_and_is_left_intact(tmp_path, capsys):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA user_version = 99")
        con.execute("CREATE TABLE t (x)")
    con.close()
    before = _bytes(path)
    status = cli.main(["run", CLAIMS[0], "--profile", "smoke", "--store", str(path), "--quiet"])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert _bytes(path) == before


def test_locked_store_exits_2_and_is_left_intact(tmp_path, capsys):
    path = tmp_path / "locked.sqlite"
    runner.run([CLAIMS[0]], profile="smoke", seed=1, jobs=1, store=path, quiet=True)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from verification.store import Store\n"
         f"s = Store({str(path)!r})\n"
         "with s.run_lock():\n    print('locked', flush=True); sys.stdin.readline()\n"
         "s.close()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with Store(path) as db:
            before = db.count_trials()
        status = cli.main(["run", CLAIMS[0], "--profile", "smoke", "--seed", "2", "--store", str(path), "--quiet"])
        err = capsys.readouterr().err
        assert status == 2
        assert "locked" in err
        assert len(err.strip().splitlines()) == 1
        with Store(path) as db:
            assert db.count_trials() == before
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


def test_list_show_and_report(tmp_path, capsys):
    assert cli.main(["list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {c["id"] for c in listed["claims"]} >= set(CLAIMS)
    assert listed["errata"]
    store = tmp_path / "s.sqlite"
    runner.run(CLAIMS, profile="smoke", seed=0, jobs=1, store=store, quiet=True)
    assert cli.main(["show", CLAIMS[1], "--store", str(store)]) == 0
    assert "holds_after_correction" in capsys.readouterr().out
    assert cli.main(["report", "--store", str(store), "--out", str(tmp_path / "r")]) == 0
    text = (tmp_path / "r" / "REPORT.md").read_text()
    assert CLAIMS[0] in text
    assert "Errata ledger" in text
    assert cli.main(["report", "--store", str(tmp_path / "missing.sqlite")]) == 2


def test_holm_decides_again_only_the_claims_whose_level_moved():
    """A claim that Holm's step-down does not reject (or ranks first) is decided at alpha / m,
    the level of the first decision: that decision is reused, and the verdicts are those of
    deciding every claim again at its level.  A decision that raises leaves m below the number
    of claims, so every member is decided again."""
    from types import SimpleNamespace

    from verification import rules

    calls: list[str] = []

    def claim(claim_id, k, n=200, printed=0.1):
        def decide(records, config, alpha):
            calls.append(claim_id)
            if k is None:
                raise RuntimeError("a decision that raises")
            point = rules.TailPoint.from_hits("p", [i < k for i in range(n)], printed=printed)
            return rules.probability_bound(claim_id, [point], alpha)
        return SimpleNamespace(id=claim_id, decide=decide)

    # p-values: "strong" ranks first, "moderate" second and is rejected, "holds" is not.
    members = [claim("strong", 80), claim("moderate", 38), claim("holds", 10)]
    alpha = 0.05
    raises = claim("raises", None)
    for claims, again in ((members, {"moderate"}), ([*members, raises], {"strong", "moderate", "holds"})):
        calls.clear()
        verdicts = runner._decide(claims, lambda c, level: c.decide([], {}, level), alpha)
        decided_twice = {c.id for c in claims if calls.count(c.id) == 2}
        assert decided_twice == again, calls
        family = rules.holm_family([verdicts[c.id].pvalue for c in members], alpha)
        assert family.reject == (True, True, False)
        for i, c in enumerate(members):  # the verdict at the claim's own level
            assert verdicts[c.id].verdict == c.decide([], {}, family.levels[i]).verdict
        assert verdicts.get("raises") is None or verdicts["raises"].verdict == "error"


def test_exact_claims_stay_out_of_the_holm_family_and_say_why():
    """An exact or deterministic decision (the invariant rule; the search engine's exact one)
    makes no false alarm: it is not counted in m, so the statistical claims share all of
    alpha; Holm's decisions are those of statsmodels' multipletests on the family it is given."""
    from types import SimpleNamespace

    from statsmodels.stats.multitest import multipletests

    from verification import rules

    def statistical(claim_id, k, n=200):
        def decide(records, config, alpha):
            point = rules.TailPoint.from_hits("p", [i < k for i in range(n)], printed=0.1)
            return rules.probability_bound(claim_id, [point], alpha)
        return SimpleNamespace(id=claim_id, decide=decide)

    def exact(claim_id, broken):
        def decide(records, config, alpha):
            return rules.invariant(claim_id, broken=broken, share=float(broken), checked=10, alpha=alpha,
                                   counterexample={"round": 1} if broken else None, n_trials=1, details={})
        return SimpleNamespace(id=claim_id, decide=decide)

    # "moderate": p = 0.0217, under Holm's 0.05 / 2 at rank 2 of 3 but over 0.05 / 3 at rank 3 of 5.
    members = [statistical("strong", 80), statistical("moderate", 53, n=400), statistical("holds", 10)]
    claims = [exact("deterministic_violated", True), *members, exact("deterministic_holds", False)]
    alpha = 0.05
    verdicts = runner._decide(claims, lambda c, level: c.decide([], {}, level), alpha)
    for claim_id in ("deterministic_violated", "deterministic_holds"):
        family = verdicts[claim_id].family
        assert verdicts[claim_id].exact
        assert family["member"] is False
        assert family["rank"] is None
        assert family["size"] == len(members)
        assert "exact or deterministic" in family["why"]
    assert verdicts["deterministic_violated"].verdict == "violated"  # no family can undo a fact
    pvalues = [verdicts[c.id].pvalue for c in members]
    reject = multipletests(pvalues, alpha=alpha, method="holm")[0]
    for c, rejected in zip(members, reject, strict=True):
        family = verdicts[c.id].family
        assert family["member"] is True
        assert family["size"] == 3
        assert family["holm_rejects"] == bool(rejected)
        assert (verdicts[c.id].verdict == "violated") == bool(rejected)
    # With the exact claims counted (m = 5), "moderate" would not be rejected: they cost power.
    assert not multipletests([*pvalues, 0.0, 1.0], alpha=alpha, method="holm")[0][1]
    assert reject[1]
