"""Faults during a run (issue #8, part 3): the run completes with every trial counted once, or it
stops with a clear error and leaves the store as it was.

Already tested elsewhere and not repeated here: SIGKILL of a one-process run then resume
(``test_engine.py``), a store locked by another process (``test_engine.py`` through the CLI,
``test_store.py`` for the lock itself), a file that is not an SQLite database or of another
schema version (``test_store.py``, ``test_engine.py``), SIGKILL of a writer inside a batch
(``test_store.py``).  Here: SIGKILL of a worker process, SIGKILL of a runner that has worker
processes, a Dask worker lost part-way, a store damaged inside (its header intact), and a full
disk.
"""

import contextlib
import hashlib
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from verification import catalog, cli, incremental, runner
from verification.store import Store, StoreError

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
#: about 26 batches of the smoke profile, a few seconds in all: long enough to strike part-way.
CLAIMS = ["iln.lemma4.hoeffding", "iln.lemma5.tail", "iln.thm1.test_time"]
#: upper bound on any wait; generous for a loaded machine.
TIMEOUT_S = 120.0


def _total(claims=CLAIMS) -> int:
    return sum(catalog.get(c).config("smoke")["n_trials"] for c in claims)


def _trial_count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as con:
            return con.execute("SELECT COUNT(*) FROM trials").fetchone()[0]
    except sqlite3.Error:
        return 0


def _comparable(result):
    return [{k: v for k, v in c.items() if k != "elapsed_s"} for c in result.to_json()["claims"]]


def _records(path: Path, seed: int) -> dict:
    out = {}
    with Store(path) as db:
        for c in CLAIMS:
            # Trials are stored under their configuration and code (verification.incremental).
            h = runner.trials_key(catalog.get(c).config("smoke"))
            key = incremental.stored_trial_key(db, c, h, seed, "smoke")
            # No key yet: a killed run never reached the claim.
            out[c] = {} if key is None else {i: r.record for i, r in db.existing_trials(seed, "smoke", c, key).items()}
    return out


def _run_cli(store: Path, seed: int, jobs: int, **popen) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "verification", "run", *CLAIMS, "--profile", "smoke", "--seed", str(seed),
           "--jobs", str(jobs), "--quiet", "--store", str(store)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=env, **popen)


def _wait_for_first_batch(proc: subprocess.Popen, store: Path) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while _trial_count(store) < runner.BATCH_SIZE:
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "no batch landed in time"
        time.sleep(0.01)


def _pool_workers(pid: int) -> list[psutil.Process]:
    return [p for p in psutil.Process(pid).children() if "spawn_main" in " ".join(p.cmdline())]


def _assert_resume_completes(store: Path, seed: int, tmp_path: Path) -> None:
    """Resuming stores every trial exactly once, with the numbers of an uninterrupted run."""
    before = _records(store, seed)
    resumed = runner.run(CLAIMS, profile="smoke", seed=seed, jobs=1, store=store, quiet=True)
    assert _trial_count(store) == _total()  # the key is unique: a repeated trial would be refused
    after = _records(store, seed)
    for c in CLAIMS:  # what the interrupted run stored is kept as it was
        assert {i: after[c][i] for i in before[c]} == before[c]
    fresh = runner.run(CLAIMS, profile="smoke", seed=seed, jobs=1, store=tmp_path / "fresh.sqlite", quiet=True)
    assert _comparable(resumed) == _comparable(fresh)
    assert _records(store, seed) == _records(tmp_path / "fresh.sqlite", seed)


def test_sigkill_of_a_worker_process_stops_the_run_and_resume_completes(tmp_path):
    store = tmp_path / "s.sqlite"
    proc = _run_cli(store, seed=21, jobs=2)
    try:
        _wait_for_first_batch(proc, store)
        workers = _pool_workers(proc.pid)
        assert workers, "no pool worker found"
        workers[0].send_signal(signal.SIGKILL)
        status = proc.wait(timeout=TIMEOUT_S)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        proc.stderr.close()
    # The pool is broken: the run stops with an error that says so ...
    assert status == cli.EXIT_WORKER_DIED
    assert "terminated abruptly" in err
    assert len(err.strip().splitlines()) == 1, err
    partial = _trial_count(store)
    assert runner.BATCH_SIZE <= partial < _total()
    with sqlite3.connect(store) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    # ... and a new run resumes it.
    _assert_resume_completes(store, 21, tmp_path)


def test_sigkill_of_a_runner_with_workers_then_resume(tmp_path):
    # test_engine.py kills a one-process run; here the killed runner leaves orphaned workers,
    # which must neither keep the store locked nor write to it.
    store = tmp_path / "s.sqlite"
    proc = _run_cli(store, seed=22, jobs=2)
    try:
        _wait_for_first_batch(proc, store)
        workers = _pool_workers(proc.pid)
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=TIMEOUT_S) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        proc.stderr.close()
    try:
        partial = _trial_count(store)
        assert 0 < partial < _total()
        # No "locked" error although the orphans live on: the lock died with the runner.
        _assert_resume_completes(store, 22, tmp_path)
    finally:
        # The orphans block on their task queue forever (each holds the queue's write end, so
        # no end-of-file reaches it); they hold no lock and write nothing, but must be reaped.
        for w in workers:
            with contextlib.suppress(psutil.NoSuchProcess):
                w.kill()


def test_dask_worker_lost_part_way_the_run_completes(tmp_path):
    distributed = pytest.importorskip("distributed")
    store = tmp_path / "s.sqlite"
    killed = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        pids = list(client.run(os.getpid).values())

        def kill_one_worker():
            deadline = time.monotonic() + TIMEOUT_S
            while _trial_count(store) < runner.BATCH_SIZE and time.monotonic() < deadline:
                time.sleep(0.01)
            if _trial_count(store) < _total():
                os.kill(pids[0], signal.SIGKILL)
                killed.append(_trial_count(store))

        striker = threading.Thread(target=kill_one_worker)
        striker.start()
        result = runner.run(CLAIMS, profile="smoke", seed=23, scheduler=cluster.scheduler_address,
                            store=store, quiet=True)
        striker.join(timeout=TIMEOUT_S)
    assert killed, "the worker was not lost"
    assert killed[0] < _total(), "the worker was not lost part-way"
    assert _trial_count(store) == _total()  # every trial once: the lost tasks were run again
    fresh = runner.run(CLAIMS, profile="smoke", seed=23, jobs=1, store=tmp_path / "fresh.sqlite", quiet=True)
    assert _comparable(result) == _comparable(fresh)
    assert _records(store, 23) == _records(tmp_path / "fresh.sqlite", 23)


def _damage_last_pages(path: Path, pages: int = 2, page_size: int = 4096) -> None:
    """Scramble the last ``pages`` pages of the trials table (SQLite's dbstat names them): the
    pages a run reads before it writes. (A damaged page of the free list or of the verdicts is
    met only when the run writes, and refused then, the transaction rolled back.)"""
    with sqlite3.connect(path) as con:
        numbers = [n for (n,) in con.execute("SELECT pageno FROM dbstat WHERE name = 'trials' "
                                             "ORDER BY pageno DESC LIMIT ?", (pages,))]
    con.close()
    data = bytearray(path.read_bytes())
    for number in numbers:  # pages are numbered from 1
        for i in range((number - 1) * page_size, number * page_size):
            data[i] = (data[i] * 7 + 13) % 256
    path.write_bytes(bytes(data))


def test_store_damaged_inside_exits_2_and_is_left_as_it_was(tmp_path, capsys):
    path = tmp_path / "s.sqlite"
    runner.run([CLAIMS[0]], profile="smoke", seed=1, jobs=1, store=path, quiet=True)
    _damage_last_pages(path)  # the header and schema are intact; the trials' pages are not
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    status = cli.main(["run", CLAIMS[0], "--profile", "smoke", "--seed", "1", "--jobs", "1", "--quiet",
                       "--store", str(path)])
    err = capsys.readouterr().err
    assert status == 2
    assert "corrupted" in err
    assert len(err.strip().splitlines()) == 1
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_a_damaged_record_is_refused_before_the_run_writes_anything(tmp_path, capsys):
    """A run plans from the trials' indices, but reads every stored record's text (the digest
    its stored decisions are keyed by) before it writes: a record damaged on disk stops it
    with exit 2, and not even a run is added to the store."""
    path = tmp_path / "s.sqlite"
    runner.run([CLAIMS[0]], profile="smoke", seed=1, jobs=1, store=path, quiet=True)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE trials SET record = CAST(X'7B22FF' AS TEXT) WHERE trial_index = 7")
        conn.commit()
        runs = conn.execute("SELECT count(*) FROM runs").fetchone()
    status = cli.main(["run", CLAIMS[0], "--profile", "smoke", "--seed", "1", "--jobs", "1", "--quiet",
                       "--store", str(path)])
    err = capsys.readouterr().err
    assert status == 2
    assert "corrupted" in err
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT count(*) FROM runs").fetchone() == runs


def test_a_store_that_fails_while_saving_a_decision_stops_the_run(tmp_path, monkeypatch):
    """A store error is the store's, not the claim's: it stops the run (exit 2) instead of
    becoming the claim's error verdict."""
    path = tmp_path / "s.sqlite"

    def locked(self, decision):
        raise StoreError(f"store {path}: saving a decision failed: database is locked")

    monkeypatch.setattr(Store, "save_decision", locked)
    with pytest.raises(StoreError, match="database is locked"):
        runner.run([CLAIMS[0]], profile="smoke", seed=1, jobs=1, store=path, quiet=True)


def test_full_disk_stops_with_one_line_and_keeps_the_store(tmp_path):
    store = tmp_path / "s.sqlite"
    runner.run([CLAIMS[0]], profile="smoke", seed=24, jobs=1, store=store, quiet=True)
    size = store.stat().st_size
    before = _records(store, 24)

    def full_disk():
        # A file may not grow past a few pages beyond the store: writes then fail as on a full
        # disk (EFBIG instead of ENOSPC; SQLite reports either as a failed write).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 8192, size + 8192))

    proc = _run_cli(store, seed=24, jobs=1, preexec_fn=full_disk)
    try:
        status = proc.wait(timeout=TIMEOUT_S)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        proc.stderr.close()
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("iln-verify: error: store")
    assert "failed" in err
    with sqlite3.connect(store) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    after = _records(store, 24)
    assert after[CLAIMS[0]] == before[CLAIMS[0]]  # the trials stored before are untouched
    assert _trial_count(store) < _total()
    # Once there is room again, the run resumes.
    _assert_resume_completes(store, 24, tmp_path)


#: the interrupt tests' claims on the quick profile: about 30 batches and 20 s of trials on one
#: core, so that an interrupt lands while workers compute, and their verdicts compared after a
#: resume.
INTERRUPTED = ["iln.lemma5.tail", "rks.lemma3.estimation", "rks.thm2.uniform_deviation"]


def _interrupt(store: Path, times: int) -> tuple[int, float, str, int]:
    """``iln-verify run`` in a process group of its own, sent SIGINT ``times`` times (0.2 s apart)
    once a batch is stored: its status, the seconds from the first SIGINT to its end, stderr,
    and its process group."""
    cmd = [sys.executable, "-m", "verification", "run", *INTERRUPTED, "--profile", "quick", "--jobs", "2",
           "--quiet", "--store", str(store)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                            start_new_session=True)
    before = _trial_count(store)
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while _trial_count(store) < before + runner.BATCH_SIZE:  # this run's first batch stored
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "no batch landed in time"
            time.sleep(0.01)
        start = time.monotonic()
        for k in range(times):  # as a terminal's Ctrl-C does: to the process group, workers included
            if k:
                time.sleep(0.2)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)
        status = proc.wait(timeout=TIMEOUT_S)
        return status, time.monotonic() - start, proc.stderr.read(), proc.pid
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        proc.stderr.close()


def _assert_group_ends(pgid: int) -> None:
    """Every process of the run's group ends within seconds (multiprocessing's resource tracker
    ends once it reads its parent's end)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        left = [p for p in psutil.process_iter(["pid"]) if _group(p.info["pid"]) == pgid]
        if not left:
            return
        time.sleep(0.1)
    raise AssertionError(f"processes left in the run's group: {[p.cmdline() for p in left]}")


def _group(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, PermissionError):
        return None


def test_ctrl_c_once_then_twice_stops_keeps_the_trials_and_resumes_to_the_same_verdicts(tmp_path):
    store = tmp_path / "s.sqlite"
    total = sum(catalog.get(c).config("quick")["n_trials"] for c in INTERRUPTED)
    # Once: the workers stop within a few seconds,
    # every finished trial is stored, the status is 130 and the message says how to resume.
    status, seconds, err, pid = _interrupt(store, 1)
    assert status == cli.EXIT_INTERRUPTED, err
    assert seconds < 10, seconds
    assert "resume with: iln-verify run" in err, err
    assert len(err.strip().splitlines()) == 1, err
    first = _trial_count(store)
    assert runner.BATCH_SIZE <= first < total
    _assert_group_ends(pid)  # no worker left behind
    # Twice: the second ends the process at once; what was stored stays.
    status, seconds, err, pid = _interrupt(store, 2)
    assert status == cli.EXIT_INTERRUPTED, err
    assert seconds < 10, seconds
    assert "Traceback" not in err, err
    assert first < _trial_count(store) < total
    _assert_group_ends(pid)
    with sqlite3.connect(store) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    resumed = runner.run(INTERRUPTED, profile="quick", seed=0, jobs=2, store=store, quiet=True)
    assert _trial_count(store) == total  # each trial stored once: the key is unique
    fresh = runner.run(INTERRUPTED, profile="quick", seed=0, jobs=2, store=tmp_path / "fresh.sqlite", quiet=True)
    assert _comparable(resumed) == _comparable(fresh)
