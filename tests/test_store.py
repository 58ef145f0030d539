"""The SQLite store: round trips, resume semantics, atomic batches, kill -9, the run lock, bad files."""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import random
import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verification import store as store_module
from verification.store import (
    SCHEMA_VERSION,
    CodeState,
    CorruptStoreError,
    IncompatibleStoreError,
    RunRow,
    Store,
    StoreError,
    StoreLockedError,
    TrialRow,
)

ROOT = Path(__file__).resolve().parents[1]
KEY = (7, "smoke", "iln.lemma4.hoeffding", "cfg0")
#: upper bound on any wait for a child process; generous for a loaded CI machine.
TIMEOUT_S = 30.0


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _side_files(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p != path)


@contextlib.contextmanager
def _child(code: str, *args: str):
    """A ``python -c code args`` child with piped stdio, killed and reaped however the test ends."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # unbuffered, so select() on the pipe sees every byte written
        cwd=ROOT,
        env=env,
    )
    with proc:
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=TIMEOUT_S)


def _read_line(proc: subprocess.Popen, deadline: float) -> str:
    """The child's next stdout line, failing past ``deadline`` (a ``time.monotonic`` value)."""
    line = b""
    while not line.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"child said nothing in time; stdout so far {line!r}"
        ready, _, _ = select.select([proc.stdout], [], [], remaining)
        if ready:
            byte = os.read(proc.stdout.fileno(), 1)
            if not byte:
                proc.wait(timeout=TIMEOUT_S)
                pytest.fail(f"child exited ({proc.returncode}): {proc.stderr.read().decode()}")
            line += byte
    return line.decode().strip()


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=TIMEOUT_S) == -signal.SIGKILL


# -- round trips ---------------------------------------------------------------------------


def test_trials_round_trip_across_reopening(tmp_path):
    path = tmp_path / "s.sqlite"
    trials = [
        (i, {"i": i, "values": [0.5, -1.25], "ok": True, "note": None}, 0.01 * i) for i in range(5)
    ]
    with Store(path, created_by="0.1.0") as store:
        assert store.add_trials(*KEY, trials) == 5
    with Store(path) as store:
        assert store.created_by == "0.1.0"  # kept from creation, not overwritten on reopening
        got = store.existing_trials(*KEY)
        assert store.existing_trials(7, "smoke", "iln.lemma4.hoeffding", "cfg1") == {}
    assert list(got) == [0, 1, 2, 3, 4]
    assert got == {i: TrialRow(i, record, elapsed) for i, record, elapsed in trials}


def test_nan_and_infinities_round_trip(tmp_path):
    record = {
        "nan": math.nan,
        "inf": math.inf,
        "-inf": -math.inf,
        "nested": [math.nan, {"x": -0.0}],
    }
    with Store(tmp_path / "s.sqlite") as store:
        store.add_trials(*KEY, [(0, record, 0.0)])
        store.save_verdict(7, "smoke", "c", {"statistic": math.nan, "bound": math.inf})
        got = store.existing_trials(*KEY)[0].record
        verdict = store.latest_verdict("c").verdict
    assert math.isnan(got["nan"])
    assert got["inf"] == math.inf
    assert got["-inf"] == -math.inf
    assert math.isnan(got["nested"][0])
    assert math.copysign(1.0, got["nested"][1]["x"]) == -1.0  # the sign of zero survives too
    assert math.isnan(verdict["statistic"])
    assert verdict["bound"] == math.inf


def test_adding_a_trial_twice_counts_it_once(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        assert store.add_trials(*KEY, [(0, {"v": 1}, 0.1), (1, {"v": 2}, 0.1)]) == 2
        # A resumed run adds 1 again with another record: the stored one stays.
        assert store.add_trials(*KEY, [(1, {"v": 99}, 0.5), (2, {"v": 3}, 0.1)]) == 1
        assert store.add_trials(*KEY, [(3, {"v": 4}, 0.1), (3, {"v": 5}, 0.1)]) == 1
        assert store.add_trials(*KEY, []) == 0
        assert store.count_trials() == 4
        assert store.existing_trials(*KEY)[1].record == {"v": 2}
        assert store.existing_trials(*KEY)[3].record == {"v": 4}


def test_count_trials_filters(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        store.add_trials(1, "smoke", "a", "h", [(i, {}, 0.0) for i in range(3)])
        store.add_trials(1, "smoke", "b", "h", [(i, {}, 0.0) for i in range(4)])
        store.add_trials(1, "quick", "a", "h", [(i, {}, 0.0) for i in range(5)])
        store.add_trials(2, "smoke", "a", "h2", [(i, {}, 0.0) for i in range(6)])
        assert store.count_trials() == 18
        assert store.count_trials(seed=1) == 12
        assert store.count_trials(profile="smoke") == 13
        assert store.count_trials(claim_id="a") == 14
        assert store.count_trials(seed=1, profile="smoke", claim_id="a") == 3
        assert store.count_trials(seed=3) == 0


def test_verdicts_replace_within_a_run_and_latest_is_across_runs(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        assert store.latest_verdict("a") is None
        store.save_verdict(1, "smoke", "b", {"verdict": "holds"})
        store.save_verdict(1, "smoke", "a", {"verdict": "inconclusive"})
        store.save_verdict(1, "smoke", "a", {"verdict": "holds"})  # replaces the one before
        store.save_verdict(2, "quick", "a", {"verdict": "violated"})
        store.save_verdict(1, "smoke", "a", {"verdict": "holds", "again": True})
        rows = store.verdicts()
        assert [(r.seed, r.profile, r.claim_id) for r in rows] == [
            (1, "smoke", "a"),
            (1, "smoke", "b"),
            (2, "quick", "a"),
        ]
        assert rows[0].verdict == {"verdict": "holds", "again": True}
        assert [r.claim_id for r in store.verdicts(seed=1, profile="smoke")] == ["a", "b"]
        assert store.verdicts(profile="full") == []
        # Saved last, even within the same microsecond as the one before.
        assert store.latest_verdict("a").verdict == {"verdict": "holds", "again": True}
        assert store.latest_verdict("b").seed == 1
        assert rows[0].saved_at.endswith("+00:00")


def test_runs_start_finish_and_latest(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        assert store.runs() == []
        assert store.latest_run() is None
        first = store.start_run({"seed": 3, "profile": "smoke", "jobs": 2})
        store.finish_run(first, {"seed": 3, "elapsed_s": 1.5})
        second = store.start_run({"seed": 4, "profile": "quick"})
        assert second > first
        runs = store.runs()
        latest = store.latest_run()
    assert [r.run_id for r in runs] == [first, second]
    done = runs[0]
    assert isinstance(done, RunRow)
    assert (done.seed, done.profile) == (3, "smoke")
    assert done.meta == {"seed": 3, "profile": "smoke", "jobs": 2, "elapsed_s": 1.5}
    assert done.started <= done.finished
    assert latest == runs[1]
    assert latest.finished is None  # an interrupted run shows as never finished


def test_finish_run_rejects_unknown_and_finished_runs(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        run_id = store.start_run({"seed": 0, "profile": "smoke"})
        with pytest.raises(ValueError, match="run_id 99 is not a run"):
            store.finish_run(99, {})
        store.finish_run(run_id, {})
        with pytest.raises(ValueError, match=f"run_id {run_id} .* finished"):
            store.finish_run(run_id, {})
        with pytest.raises(ValueError, match="meta must hold 'profile'"):
            store.start_run({"seed": 0})


def test_file_records_schema_version_and_wal_mode(tmp_path):
    path = tmp_path / "s.sqlite"
    Store(path, created_by="iln-verify 0.1.0").close()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta == {"schema_version": str(SCHEMA_VERSION), "created_by": "iln-verify 0.1.0"}


def _rows(path: Path, tables=("trials", "verdicts", "runs")) -> dict[str, list]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}


#: the tables each older schema version lacks.
_LACKS = {1: ("code_states", "reach", "decisions"), 2: ("decisions",)}


def _as_version(path: Path, version: int) -> None:
    """Turn a store into one written by an older schema version (1: no code states; 2: no
    decisions)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        for table in _LACKS[version]:
            conn.execute(f"DROP TABLE {table}")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))
        conn.execute(f"PRAGMA user_version = {version}")
        conn.commit()


@pytest.mark.parametrize("version", sorted(_LACKS))
def test_an_older_store_is_migrated_and_keeps_every_row(tmp_path, version):
    path = tmp_path / "s.sqlite"
    with Store(path, created_by="0.1.0") as store:
        store.add_trials(*KEY, [(i, {"v": i}, 0.1) for i in range(3)])
        store.save_verdict(7, "smoke", KEY[2], {"verdict": "holds"})
        store.finish_run(store.start_run({"seed": 7, "profile": "smoke"}), {})
    _as_version(path, version)
    before = _rows(path)
    with Store(path) as store:
        assert store.decisions(KEY[2], "h", "r", "0.1") == []
        if version == 1:
            assert store.code_states(KEY[2]) == []
        assert store.existing_trials(*KEY)[2].record == {"v": 2}
        assert store.created_by == "0.1.0"
    assert _rows(path) == before
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["schema_version"] == str(SCHEMA_VERSION)
    assert f"migrated_from_{version}" in meta


def test_a_reader_leaves_a_version_1_store_byte_for_byte_as_it_was(tmp_path):
    # The committed reports/verdicts.sqlite is read by iln-verify report: reading must not
    # migrate it (nor write anything else to it).
    path = tmp_path / "s.sqlite"
    with Store(path, created_by="0.1.0") as store:
        store.save_verdict(7, "smoke", KEY[2], {"verdict": "holds"})
    _as_version(path, 1)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")  # a committed copy has no WAL beside it
    before = path.read_bytes()
    with Store(path, read_only=True) as store:
        assert store.latest_verdict(KEY[2]).verdict == {"verdict": "holds"}
        with pytest.raises(StoreError):
            store.save_verdict(7, "smoke", KEY[2], {"verdict": "violated"})
    assert path.read_bytes() == before
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "missing.sqlite", read_only=True)


def test_code_states_and_reach_round_trip(tmp_path):
    path = tmp_path / "s.sqlite"
    seed, profile, claim, _ = KEY
    with Store(path) as store:
        for code_id, traced in (("c1", False), ("c2", True)):
            store.save_code_state(CodeState(seed, profile, claim, "cfg", code_id, "cfg@c1",
                                            {"iln/a.py:f": "d1"}, {"numpy": "2"}, traced))
        store.save_code_state(CodeState(seed, "quick", claim, "cfg", "c3", "cfg@c3", {}, {}, False))
        states = store.code_states(claim, seed=seed, profile=profile, config_hash="cfg")
        assert [(s.code_id, s.traced) for s in states] == [("c2", True), ("c1", False)]  # latest first
        assert states[0].units == {"iln/a.py:f": "d1"}
        assert len(store.code_states(claim)) == 3
        assert store.reach(*KEY) == ([], 0)
        assert store.add_trials(*KEY, [(0, {}, 0.0), (1, {}, 0.0)], reached=["iln/a.py:f"]) == 2
        # A trial stored already is not counted again; the functions are a union.
        assert store.add_trials(*KEY, [(1, {}, 0.0), (2, {}, 0.0)], reached=["iln/b.py:g"]) == 1
        assert store.add_trials(*KEY, [(3, {}, 0.0)]) == 1  # untraced
        assert store.reach(*KEY) == (["iln/a.py:f", "iln/b.py:g"], 3)
        with pytest.raises(TypeError, match="state must be a CodeState"):
            store.save_code_state({"code_id": "c"})
        copy = store.save_without_trials(tmp_path / "copy.sqlite")
    with Store(copy) as small:
        assert small.code_states(claim) == []
        assert small.reach(*KEY) == ([], 0)


def test_an_empty_file_becomes_a_store(tmp_path):
    path = tmp_path / "s.sqlite"
    path.touch()
    with Store(path) as store:
        assert store.count_trials() == 0


# -- atomic batches ------------------------------------------------------------------------


def test_bad_trial_in_a_batch_leaves_nothing(tmp_path):
    def batch():
        yield (0, {"v": 0}, 0.1)
        yield (1, {"v": 1}, 0.1)
        raise RuntimeError("worker lost")

    with Store(tmp_path / "s.sqlite") as store:
        with pytest.raises(RuntimeError, match="worker lost"):
            store.add_trials(*KEY, batch())
        with pytest.raises(TypeError, match=r"trials\[1\]\.record must be JSON-serialisable"):
            store.add_trials(*KEY, [(0, {"v": 0}, 0.1), (1, {"v": object()}, 0.1)])
        assert store.count_trials() == 0


def test_failure_inside_the_write_rolls_the_whole_batch_back(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        store.add_trials(*KEY, [(0, {}, 0.0)])
        # A trigger makes SQLite itself fail on the fourth row, after three rows are written.
        store._conn.execute(
            "CREATE TEMP TRIGGER fail_at_4 BEFORE INSERT ON main.trials WHEN NEW.trial_index = 4"
            " BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"
        )
        with pytest.raises(StoreError, match="adding trials failed: disk trouble"):
            store.add_trials(*KEY, [(i, {}, 0.0) for i in range(1, 7)])
        assert store.count_trials() == 1
        store._conn.execute("DROP TRIGGER fail_at_4")
        assert store.add_trials(*KEY, [(i, {}, 0.0) for i in range(1, 7)]) == 6  # usable again


_WRITER = """
import sys
from verification.store import Store

path, size, stall_at = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
store = Store(path)
conn = store._conn
# A tiny page cache spills a batch's pages into the WAL before its commit, so the kill
# leaves uncommitted frames in the file for recovery to discard.
conn.execute("PRAGMA cache_size = 4")
pad = "x" * 200
for batch in range(10_000):
    if batch == stall_at:
        before = conn.total_changes
        def stall():
            if conn.total_changes - before >= size // 2:
                print("stalled", conn.total_changes - before, conn.in_transaction, flush=True)
                sys.stdin.readline()  # until killed
            return 0
        conn.set_progress_handler(stall, 200)
    trials = [(i, {"batch": batch, "i": i, "pad": pad}, 0.001) for i in range(size)]
    store.add_trials(1, "smoke", "claim", f"batch-{batch:05d}", trials)
    print("committed", batch, flush=True)
"""


def _check_killed_store(path: Path, size: int, acknowledged: int) -> int:
    """Assert the killed writer left an intact store holding whole batches; return how many."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with Store(path) as store:
        counts = dict(
            store._conn.execute("SELECT config_hash, count(*) FROM trials GROUP BY config_hash")
        )
        n = len(counts)
        # Every acknowledged commit survived the kill, and nothing beyond the batch in flight.
        assert acknowledged <= n <= acknowledged + 1
        assert counts == {f"batch-{b:05d}": size for b in range(n)}  # whole batches only
        assert store.add_trials(1, "smoke", "claim", "after", [(0, {}, 0.0)]) == 1
    return n


@pytest.mark.system
def test_sigkill_in_the_middle_of_a_batch_loses_only_that_batch(tmp_path):
    path, size, stall_at = tmp_path / "s.sqlite", 400, 3
    deadline = time.monotonic() + TIMEOUT_S
    with _child(_WRITER, str(path), str(size), str(stall_at)) as proc:
        for batch in range(stall_at):
            assert _read_line(proc, deadline) == f"committed {batch}"
        rows_written, in_transaction = _read_line(proc, deadline).split()[1:]
        assert int(rows_written) >= size // 2
        assert in_transaction == "True"  # killed between BEGIN and COMMIT
        _kill(proc)
    assert _check_killed_store(path, size, acknowledged=stall_at) == stall_at


@pytest.mark.system
def test_sigkill_at_an_arbitrary_moment_leaves_whole_batches(tmp_path):
    path, size = tmp_path / "s.sqlite", 400
    deadline = time.monotonic() + TIMEOUT_S
    with _child(_WRITER, str(path), str(size), "-1") as proc:
        for batch in range(5):
            assert _read_line(proc, deadline) == f"committed {batch}"
        _kill(proc)  # the writer runs on meanwhile, most of the time inside a batch
    assert _check_killed_store(path, size, acknowledged=5) >= 5


# -- run lock ------------------------------------------------------------------------------


_LOCK_HOLDER = """
import os, sys
from verification.store import Store

with Store(sys.argv[1]) as store, store.run_lock():
    if sys.argv[2] == "fork":
        # A forked child outlives this process, which the test kills.
        ready_r, ready_w = os.pipe()
        child = os.fork()
        if child == 0:
            os.write(ready_w, b"x")  # the fork handlers have run by now
            sys.stdin.readline()
            os._exit(0)
        os.read(ready_r, 1)
        print("forked", child, flush=True)
    print("locked", flush=True)
    sys.stdin.readline()
"""


def test_run_lock_excludes_a_second_run_until_the_holder_dies(tmp_path):
    path = tmp_path / "s.sqlite"
    Store(path).close()
    with _child(_LOCK_HOLDER, str(path), "plain") as proc, Store(path) as store:
        assert _read_line(proc, time.monotonic() + TIMEOUT_S) == "locked"
        expected = f"store {path} is locked by another run (pid {proc.pid})"
        with pytest.raises(StoreLockedError, match=re.escape(expected)) as info, store.run_lock():
            pass
        assert "\n" not in str(info.value)
        _kill(proc)
        with store.run_lock():
            assert Path(f"{path}.lock").read_text() == f"{os.getpid()}\n"
        assert Path(f"{path}.lock").read_text() == ""  # a released lock names nobody


def test_run_lock_is_not_kept_by_a_forked_child_of_a_killed_run(tmp_path):
    path = tmp_path / "s.sqlite"
    Store(path).close()
    grandchild = None
    try:
        with _child(_LOCK_HOLDER, str(path), "fork") as proc:
            deadline = time.monotonic() + TIMEOUT_S
            grandchild = int(_read_line(proc, deadline).split()[1])
            assert _read_line(proc, deadline) == "locked"
            _kill(proc)
            os.kill(grandchild, 0)  # still alive, and it inherited the lock's descriptor
            with Store(path) as store, store.run_lock():
                pass
    finally:
        if grandchild is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(grandchild, signal.SIGKILL)


def test_run_lock_is_exclusive_within_a_process_and_reusable(tmp_path):
    path = tmp_path / "s.sqlite"
    with Store(path) as first, Store(path) as second:
        with (
            first.run_lock(),
            pytest.raises(StoreLockedError, match=f"pid {os.getpid()}"),
            second.run_lock(),
        ):
            pass
        with second.run_lock():
            pass
        with pytest.raises(KeyError), first.run_lock():
            raise KeyError("the run failed")
        with first.run_lock():  # released by the failure
            pass


# -- bad files and bad input ---------------------------------------------------------------


def _foreign_database(path: Path, user_version: int) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute(f"PRAGMA user_version = {user_version}")
        conn.execute("CREATE TABLE other (a)")
        conn.execute("INSERT INTO other VALUES (1)")
        conn.commit()


@pytest.mark.parametrize("user_version", [99, 0])
def test_other_schema_version_is_refused_and_left_untouched(tmp_path, user_version):
    path = tmp_path / "s.sqlite"
    _foreign_database(path, user_version)
    digest = _digest(path)
    with pytest.raises(IncompatibleStoreError) as info:
        Store(path)
    message = str(info.value)
    assert "\n" not in message
    assert str(path) in message
    assert f"schema version {user_version}" in message
    assert f"uses {SCHEMA_VERSION}" in message
    assert _digest(path) == digest
    assert _side_files(path) == []


def test_store_of_a_newer_version_is_refused_and_left_untouched(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        store.add_trials(*KEY, [(0, {"v": 1}, 0.1)])
    digest = _digest(path)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(IncompatibleStoreError, match=f"schema version {SCHEMA_VERSION},"):
        Store(path)
    assert _digest(path) == digest


@pytest.mark.parametrize(
    "content",
    [
        random.Random(0).randbytes(8192),
        b"SQLite format 3\x00" + random.Random(1).randbytes(8192),  # the header lies
        b"hello",
    ],
    ids=["random", "sqlite-magic-then-random", "short-text"],
)
def test_corrupted_file_is_refused_and_left_untouched(tmp_path, content):
    path = tmp_path / "s.sqlite"
    path.write_bytes(content)
    with pytest.raises(CorruptStoreError) as info:
        Store(path)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)
    assert path.read_bytes() == content
    assert _side_files(path) == []


def test_missing_directory_or_directory_path_is_a_store_error(tmp_path):
    missing = tmp_path / "no" / "such" / "s.sqlite"
    with pytest.raises(StoreError, match=re.escape(str(missing))):
        Store(missing)
    assert not (tmp_path / "no").exists()
    with pytest.raises(StoreError, match="is a directory"):
        Store(tmp_path)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((-1, "smoke", "c", "h"), ValueError, r"seed must lie in \[0, 2\*\*63 - 1\]"),
        ((2**63, "smoke", "c", "h"), ValueError, "seed must lie in"),
        ((True, "smoke", "c", "h"), TypeError, "seed must be an int"),
        ((0, "", "c", "h"), ValueError, "profile must not be empty"),
        ((0, "smoke", 3, "h"), TypeError, "claim_id must be a str"),
    ],
)
def test_bad_keys_name_the_argument(tmp_path, args, error, match):
    with Store(tmp_path / "s.sqlite") as store, pytest.raises(error, match=match):
        store.existing_trials(*args)


@pytest.mark.parametrize(
    ("trial", "error", "match"),
    [
        ((-1, {}, 0.0), ValueError, r"trials\[0\]\.trial_index must lie in"),
        ((0, [], 0.0), TypeError, r"trials\[0\]\.record must be a dict"),
        ((0, {}, math.nan), ValueError, r"trials\[0\]\.elapsed_s must be finite"),
        ((0, {}), TypeError, r"trials\[0\] must be a \(trial_index, record, elapsed_s\) tuple"),
    ],
)
def test_bad_trials_name_the_argument(tmp_path, trial, error, match):
    with Store(tmp_path / "s.sqlite") as store:
        with pytest.raises(error, match=match):
            store.add_trials(*KEY, [trial])
        assert store.count_trials() == 0


def test_closed_store_refuses_work(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    store.close()
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.count_trials()
