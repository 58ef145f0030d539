"""The store: an embedded SQLite database of the trials, verdicts and runs of verification runs.

A trial is identified by ``(seed, profile, claim_id, config_hash, trial_index)``, the primary
key of the ``trials`` table; adding a trial the store already holds is a no-op, so a resumed run
never counts a trial twice.  A batch of trials is written in one transaction: a run killed
(Ctrl-C, ``kill -9``, a lost machine) loses at most the batch it was writing, never half of it,
and never corrupts the file.

Durability.  The database runs in WAL mode with ``synchronous=NORMAL``.  A commit appends its
pages and a commit mark to the write-ahead log before it returns; after that, killing the
process (even with SIGKILL) cannot undo it, because the data sit in the operating system's page
cache and reach the disk without the process.  What ``NORMAL`` gives up against ``FULL`` is the
fsync of each commit: a power cut or kernel crash may roll back the last few commits, still
leaving a consistent file.  Trials are pure functions of their seed, so such a loss only costs
their recomputation on resume; an fsync per batch would cost every run.

Encoding.  Records, verdicts and run metadata are stored as JSON text written by
:func:`json.dumps` with ``allow_nan=True``: ``NaN``, ``Infinity`` and ``-Infinity`` are written
as those bare tokens (an extension of JSON that :func:`json.loads` reads back), so floats
round-trip exactly, infinities and NaN included.  Strict JSON parsers, SQLite's ``json1``
among them, reject those tokens.  The round trip is exact for JSON's own types (dicts with str
keys, lists, str, int, float, bool, None); tuples come back as lists, non-str keys as str.

Code states.  A claim's trials are stored under a *trial key*, its configuration hash and the
id of the code they ran (:mod:`verification.incremental`).  The ``code_states`` table says,
for each ``(seed, profile, claim, configuration)``, which code states label which trial key:
the digest of every unit of code the trials reach (:mod:`verification.fingerprint`) and the
package versions.  The ``reach`` table gathers, batch by batch and in the batch's transaction,
the functions the trials of a key were traced running (:mod:`verification.reach`; the trace of
a batch's first trial stands for the batch), and how many stored trials lie in traced batches.

Decisions.  The ``decisions`` table keeps each verdict a claim's decision returned, under its
configuration hash, the digest of the records it decided (:meth:`Store.records_digest`), its
level, and the code the decision ran (:mod:`verification.stored_decisions`), so that a run whose
trials are all stored decides again only the claims whose records, level or decision code
changed.

Schema version.  :data:`SCHEMA_VERSION` is written into the file (``PRAGMA user_version`` and the
``meta`` table).  A store of an older version is migrated when opened: the tables it lacks are
added in one transaction and nothing stored is changed.  The trials of a version 1 store
(before code states), stored under configuration hashes that name no code, are kept but not
reused, since the code that computed them is unknown; a version 2 store (before decisions)
decides its claims again once.  A file of any other version is refused with :class:`IncompatibleStoreError`
after a read-only look and left as it was.

Run lock.  One run at a time writes a store: :meth:`Store.run_lock` takes an exclusive
``flock`` on the side file ``<path>.lock``.  The kernel drops it when the holder dies, however
it dies, so a killed run never leaves a stale lock.  Readers need no lock.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "s.sqlite") as store:
...     store.add_trials(0, "smoke", "iln.lemma4.hoeffding", "abc", [(0, {"x": float("inf")}, 0.1)])
...     store.add_trials(0, "smoke", "iln.lemma4.hoeffding", "abc", [(0, {"x": 0.0}, 0.1)])
...     store.existing_trials(0, "smoke", "iln.lemma4.hoeffding", "abc")[0].record
1
0
{'x': inf}
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import math
import numbers
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "SCHEMA_VERSION",
    "CodeState",
    "CorruptStoreError",
    "IncompatibleStoreError",
    "RecordsDigest",
    "RunRow",
    "Store",
    "StoreError",
    "StoreLockedError",
    "StoredDecision",
    "TrialRow",
    "VerdictRow",
]

#: version of the file layout; versions 1 and 2 are migrated when opened, any other is refused.
SCHEMA_VERSION = 3
#: how long a statement waits for another connection's write lock before failing.
BUSY_TIMEOUT_S = 30.0

_SQLITE_MAGIC = b"SQLite format 3\x00"
_SQLITE_HEADER_SIZE = 100
# SQLite's INTEGER is a signed 64-bit integer.
_MAX_INTEGER = 2**63 - 1

_SCHEMA = (
    """CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE trials (
        seed INTEGER NOT NULL,
        profile TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        config_hash TEXT NOT NULL,
        trial_index INTEGER NOT NULL CHECK (trial_index >= 0),
        record TEXT NOT NULL,
        elapsed_s REAL NOT NULL,
        PRIMARY KEY (seed, profile, claim_id, config_hash, trial_index)
    )""",
    # save_seq orders saves exactly; wall-clock saved_at can tie or step back.
    """CREATE TABLE verdicts (
        seed INTEGER NOT NULL,
        profile TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        verdict TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        save_seq INTEGER NOT NULL,
        PRIMARY KEY (seed, profile, claim_id)
    )""",
    "CREATE INDEX verdicts_by_claim ON verdicts (claim_id, save_seq)",
    """CREATE TABLE runs (
        run_id INTEGER PRIMARY KEY AUTOINCREMENT,
        seed INTEGER NOT NULL,
        profile TEXT NOT NULL,
        started TEXT NOT NULL,
        finished TEXT,
        meta TEXT NOT NULL
    )""",
)
#: the tables version 2 added: the code behind each stored trial key.
_CODE_SCHEMA = (
    """CREATE TABLE code_states (
        seed INTEGER NOT NULL,
        profile TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        config_hash TEXT NOT NULL,
        code_id TEXT NOT NULL,
        trial_key TEXT NOT NULL,
        units TEXT NOT NULL,
        versions TEXT NOT NULL,
        traced INTEGER NOT NULL,
        save_seq INTEGER NOT NULL,
        PRIMARY KEY (seed, profile, claim_id, config_hash, code_id)
    )""",
    """CREATE TABLE reach (
        seed INTEGER NOT NULL,
        profile TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        trial_key TEXT NOT NULL,
        functions TEXT NOT NULL,
        traced INTEGER NOT NULL,
        PRIMARY KEY (seed, profile, claim_id, trial_key)
    )""",
)
#: the table version 3 added: the verdicts decisions returned, by what they depend on.
_DECISION_SCHEMA = (
    """CREATE TABLE decisions (
        claim_id TEXT NOT NULL,
        config_hash TEXT NOT NULL,
        records TEXT NOT NULL,
        level TEXT NOT NULL,
        code_id TEXT NOT NULL,
        units TEXT NOT NULL,
        versions TEXT NOT NULL,
        verdict TEXT NOT NULL,
        save_seq INTEGER NOT NULL,
        PRIMARY KEY (claim_id, config_hash, records, level, code_id)
    )""",
)
#: the versions a store is migrated from, to :data:`SCHEMA_VERSION`, and the tables each lacks.
_ADDED_SINCE = {1: (*_CODE_SCHEMA, *_DECISION_SCHEMA), 2: _DECISION_SCHEMA}
MIGRATED_VERSIONS = tuple(_ADDED_SINCE)


class StoreError(Exception):
    """A store cannot be opened, read or written; the CLI exits with status 2 on any of them."""


class CorruptStoreError(StoreError):
    """The file is not an SQLite database, or SQLite finds it damaged."""


class IncompatibleStoreError(StoreError):
    """The file holds a schema version other than :data:`SCHEMA_VERSION`, or is not a store."""


class StoreLockedError(StoreError):
    """Another process holds the store's run lock."""


@dataclass(frozen=True)
class TrialRow:
    """One stored trial of a claim.

    Attributes
    ----------
    trial_index : int
        Index of the trial within its claim's run, ``>= 0``.
    record : dict
        What the trial returned.
    elapsed_s : float
        Wall-clock seconds the trial took.
    """

    trial_index: int
    record: dict[str, Any]
    elapsed_s: float


@dataclass(frozen=True)
class CodeState:
    """The code that a claim's stored trials ran, and the trial key they are stored under.

    Attributes
    ----------
    seed, profile, claim_id : int, str, str
        The run and claim of the trials.
    config_hash : str
        Digest of the claim's configuration.
    code_id : str
        Digest of ``units`` and ``versions`` (:func:`verification.fingerprint.code_id`).
    trial_key : str
        What the trials are stored under (the ``config_hash`` argument of
        :meth:`Store.existing_trials`).
    units : dict of str to str
        Each unit of code the trials reach (``"path:name"``) and its digest.
    versions : dict of str to str
        The interpreter's and packages' versions.
    traced : bool
        True when ``units`` is the traced reach of every trial; False for the conservative
        set used before any trial was traced.
    """

    seed: int
    profile: str
    claim_id: str
    config_hash: str
    code_id: str
    trial_key: str
    units: dict[str, str]
    versions: dict[str, str]
    traced: bool


@dataclass(frozen=True)
class RecordsDigest:
    """What identifies the first ``count`` stored trials of a key, read without decoding them.

    Attributes
    ----------
    count : int
        How many of the trials ``0 .. n - 1`` asked for are stored.
    digest : str
        SHA-256 of their indices and stored records, in index order.
    elapsed_s : float
        Their summed seconds.
    """

    count: int
    digest: str
    elapsed_s: float


@dataclass(frozen=True)
class StoredDecision:
    """A verdict a claim's decision returned, and what it was computed from.

    Attributes
    ----------
    claim_id : str
    config_hash : str
        The configuration's hash (with a planted change's identity, as the trials').
    records : str
        :attr:`RecordsDigest.digest` of the records decided.
    level : str
        The level decided at, as ``repr(float)`` (exact).
    code_id : str
        Digest of ``units`` and ``versions``.
    units : dict of str to str
        Each unit of code the decision reached and its digest.
    versions : dict of str to str
    verdict : dict
        The decision's verdict, every field (non-finite numbers kept).
    """

    claim_id: str
    config_hash: str
    records: str
    level: str
    code_id: str
    units: dict[str, str]
    versions: dict[str, str]
    verdict: dict[str, Any]


@dataclass(frozen=True)
class VerdictRow:
    """The verdict on one claim in one ``(seed, profile)`` run.

    Attributes
    ----------
    seed : int
        Master seed of the run.
    profile : str
        Profile of the run.
    claim_id : str
        The claim.
    verdict : dict
        The verdict as saved.
    saved_at : str
        When it was saved, ISO 8601 in UTC with microseconds.
    """

    seed: int
    profile: str
    claim_id: str
    verdict: dict[str, Any]
    saved_at: str


@dataclass(frozen=True)
class RunRow:
    """One invocation of ``run``.

    Attributes
    ----------
    run_id : int
        Increasing with the start; never reused.
    seed : int
        Master seed of the run.
    profile : str
        Profile of the run.
    started : str
        ISO 8601 time in UTC when the run started.
    finished : str or None
        ISO 8601 time in UTC when it finished; None while running, or if it was interrupted.
    meta : dict
        The start metadata updated with the finish metadata.
    """

    run_id: int
    seed: int
    profile: str
    started: str
    finished: str | None
    meta: dict[str, Any]


class Store:
    """An SQLite store of trials, verdicts and runs, opened or created at ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        The database file.  Its directory must exist; the file is created if missing.
    created_by : str, default=""
        Version string of the package creating the store, kept in the ``meta`` table when the
        file is created (ignored when it exists).
    read_only : bool, default=False
        Open an existing store for reading only: nothing is written, an older schema is read
        as it is (not migrated), and a missing file is an error.

    Raises
    ------
    StoreError
        The directory does not exist, ``path`` is a directory, or SQLite cannot open it.
    CorruptStoreError
        The file is not an SQLite database.  It is left byte-for-byte unchanged.
    IncompatibleStoreError
        The file holds another schema version, or is an SQLite database of something else.
        It is left byte-for-byte unchanged.

    Notes
    -----
    Use one ``Store`` per process and do not carry it across ``fork``.  Close it (or use it as
    a context manager) when done.
    """

    def __init__(self, path: str | os.PathLike[str], *, created_by: str = "", read_only: bool = False) -> None:
        if not isinstance(path, str | os.PathLike):
            raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
        if not isinstance(created_by, str):
            raise TypeError(f"created_by must be a str, got {type(created_by).__name__}")
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None
        _check_before_writing(self.path)
        # A reader (the report, show, diff) never changes the file: no migration, no schema.
        self._conn = self._open_read_only() if read_only else self._open(created_by)

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection; closing twice is harmless."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()

    # -- opening -------------------------------------------------------------------------

    def _open(self, created_by: str) -> sqlite3.Connection:
        try:
            # isolation_level=None: transactions are begun and ended here, explicitly.
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"store {self.path} cannot be opened: {_one_line(exc)}") from exc
        try:
            with self._translate("opening"):
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise StoreError(f"store {self.path} cannot use WAL journal mode (got {mode})")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("BEGIN IMMEDIATE")
                try:
                    # Checked again under the write lock: another process may have created the
                    # store since the read-only look.
                    version = conn.execute("PRAGMA user_version").fetchone()[0]
                    if version == 0:
                        _create_schema(conn, created_by)
                    elif version in MIGRATED_VERSIONS:
                        _migrate(conn, version)
                    elif version != SCHEMA_VERSION:
                        raise _incompatible(self.path, version)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_read_only(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise StoreError(f"store {self.path} does not exist")
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S,
                                   isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"store {self.path} cannot be opened: {_one_line(exc)}") from exc
        with self._translate("opening"):
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version not in (SCHEMA_VERSION, *MIGRATED_VERSIONS):
            conn.close()
            raise _incompatible(self.path, version)
        return conn

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"store {self.path} is closed")
        return self._conn

    @contextlib.contextmanager
    def _translate(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into store errors that name the path."""
        try:
            yield
        except sqlite3.Error as exc:
            if _is_corruption(exc):
                raise CorruptStoreError(
                    f"store {self.path} is corrupted ({action}: {_one_line(exc)})"
                ) from exc
            raise StoreError(f"store {self.path}: {action} failed: {_one_line(exc)}") from exc

    @contextlib.contextmanager
    def _transaction(self, action: str) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything in the block is committed, or nothing is."""
        conn = self._connection()
        with self._translate(action):
            # IMMEDIATE takes the write lock now, so the busy timeout applies here rather than
            # failing later when a read transaction cannot be upgraded.
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    # The original error is the one worth reporting.
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _query(self, action: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        conn = self._connection()
        with self._translate(action):
            return conn.execute(sql, params).fetchall()

    # -- metadata ------------------------------------------------------------------------

    @property
    def created_by(self) -> str:
        """Version string of the package that created the file (``""`` if none was given)."""
        rows = self._query("reading meta", "SELECT value FROM meta WHERE key = 'created_by'")
        return rows[0][0] if rows else ""

    # -- trials --------------------------------------------------------------------------

    def existing_trials(
        self, seed: int, profile: str, claim_id: str, config_hash: str
    ) -> dict[int, TrialRow]:
        """The stored trials of one claim configuration in one run.

        Parameters
        ----------
        seed : int
            Master seed of the run, in ``[0, 2**63 - 1]``.
        profile : str
            Profile of the run.
        claim_id : str
            The claim.
        config_hash : str
            Digest of the claim's configuration.

        Returns
        -------
        dict of int to TrialRow
            The trials by index, in increasing index.
        """
        key = _trial_key(seed, profile, claim_id, config_hash)
        rows = self._query(
            "reading trials",
            "SELECT trial_index, record, elapsed_s FROM trials"
            " WHERE seed = ? AND profile = ? AND claim_id = ? AND config_hash = ?"
            " ORDER BY trial_index",
            key,
        )
        return {i: TrialRow(i, _decode(record), elapsed) for i, record, elapsed in rows}

    def trial_indices(self, seed: int, profile: str, claim_id: str, config_hash: str) -> set[int]:
        """The indices of the stored trials of one claim configuration in one run (nothing
        decoded: what a run plans from)."""
        rows = self._query(
            "reading trial indices",
            "SELECT trial_index FROM trials WHERE seed = ? AND profile = ? AND claim_id = ? AND config_hash = ?",
            _trial_key(seed, profile, claim_id, config_hash),
        )
        return {i for (i,) in rows}

    def records_digest(self, seed: int, profile: str, claim_id: str, config_hash: str, n: int) -> RecordsDigest:
        """The digest of the stored trials ``0 .. n - 1`` of one claim configuration, their
        count and their seconds, from the stored text (no record is decoded).

        Two reads give the same digest exactly when they hold the same indices with the same
        stored records: a trial computed again (a timing, say) changes it.
        """
        rows = self._query(
            "reading trials",
            "SELECT trial_index, record, elapsed_s FROM trials"
            " WHERE seed = ? AND profile = ? AND claim_id = ? AND config_hash = ? AND trial_index < ?"
            " ORDER BY trial_index",
            (*_trial_key(seed, profile, claim_id, config_hash), _integer(n, "n")),
        )
        digest = hashlib.sha256()
        for i, record, _ in rows:
            digest.update(f"{i}\0{record}\0".encode())
        return RecordsDigest(len(rows), digest.hexdigest(), math.fsum(e for _, _, e in rows))

    def add_trials(
        self,
        seed: int,
        profile: str,
        claim_id: str,
        config_hash: str,
        trials: Iterable[tuple[int, dict[str, Any], float]],
        reached: Iterable[str] | None = None,
    ) -> int:
        """Add a batch of trials in one transaction, skipping those already stored.

        Parameters
        ----------
        seed, profile, claim_id, config_hash
            As in :meth:`existing_trials`.
        trials : iterable of (int, dict, float)
            ``(trial_index, record, elapsed_s)``: index ``>= 0``, a JSON-serialisable record,
            finite seconds ``>= 0``.  The whole batch is checked and encoded before anything
            is written; then either all of it is committed or none of it.
        reached : iterable of str, optional
            The functions the batch's trials were traced running
            (:meth:`verification.reach.Recorder.functions`; those of the batch's first
            trial stand for the batch's).  Added, in the same transaction, to the key's reach,
            whose count of traced trials grows by the new trials.  None: the batch was not
            traced.

        Returns
        -------
        int
            How many trials were new.  A trial whose key is already stored keeps its stored
            record.
        """
        key = _trial_key(seed, profile, claim_id, config_hash)
        rows: list[tuple[Any, ...]] = []
        for position, trial in enumerate(trials):
            name = f"trials[{position}]"
            try:
                trial_index, record, elapsed_s = trial
            except (TypeError, ValueError):
                raise TypeError(
                    f"{name} must be a (trial_index, record, elapsed_s) tuple, got {trial!r:.80}"
                ) from None
            trial_index = _integer(trial_index, f"{name}.trial_index")
            if not isinstance(record, dict):
                raise TypeError(f"{name}.record must be a dict, got {type(record).__name__}")
            if isinstance(elapsed_s, bool) or not isinstance(elapsed_s, numbers.Real):
                raise TypeError(
                    f"{name}.elapsed_s must be a real number, got {type(elapsed_s).__name__}"
                )
            elapsed_s = float(elapsed_s)
            if not (math.isfinite(elapsed_s) and elapsed_s >= 0):
                raise ValueError(f"{name}.elapsed_s must be finite and >= 0, got {elapsed_s!r}")
            rows.append((*key, trial_index, _encode(record, f"{name}.record"), elapsed_s))
        functions = None if reached is None else sorted({_text(f, "reached[]") for f in reached})
        if not rows:
            return 0
        with self._transaction("adding trials") as conn:
            cursor = conn.executemany(
                "INSERT OR IGNORE INTO trials"
                " (seed, profile, claim_id, config_hash, trial_index, record, elapsed_s)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            # executemany sums the changes of each row; an ignored duplicate changes nothing.
            added = cursor.rowcount
            if functions is not None:
                _add_reach(conn, key, functions, added)
            return added

    def reach(self, seed: int, profile: str, claim_id: str, trial_key: str) -> tuple[list[str], int]:
        """The functions the trials of a key were traced running, and how many trials were
        traced (``([], 0)`` when none was)."""
        key = _trial_key(seed, profile, claim_id, trial_key)
        rows = self._query(
            "reading the reach",
            "SELECT functions, traced FROM reach"
            " WHERE seed = ? AND profile = ? AND claim_id = ? AND trial_key = ?",
            key,
        )
        return (_decode(rows[0][0]), rows[0][1]) if rows else ([], 0)

    # -- code states ---------------------------------------------------------------------

    def save_code_state(self, state: CodeState) -> None:
        """Save a code state, replacing one of the same code id; it becomes the latest."""
        if not isinstance(state, CodeState):
            raise TypeError(f"state must be a CodeState, got {type(state).__name__}")
        key = _trial_key(state.seed, state.profile, state.claim_id, state.config_hash)
        values = (*key, _text(state.code_id, "state.code_id"), _text(state.trial_key, "state.trial_key"),
                  _encode(state.units, "state.units"), _encode(state.versions, "state.versions"),
                  int(bool(state.traced)))
        with self._transaction("saving a code state") as conn:
            conn.execute(
                "INSERT OR REPLACE INTO code_states"
                " (seed, profile, claim_id, config_hash, code_id, trial_key, units, versions, traced,"
                " save_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
                " (SELECT coalesce(max(save_seq), 0) + 1 FROM code_states))",
                values,
            )

    def code_states(self, claim_id: str, *, seed: int | None = None, profile: str | None = None,
                    config_hash: str | None = None) -> list[CodeState]:
        """The saved code states of a claim, optionally of one seed, profile and configuration;
        the latest saved first."""
        where, params = _filters(claim_id=claim_id, seed=seed, profile=profile, config_hash=config_hash)
        rows = self._query(
            "reading code states",
            "SELECT seed, profile, claim_id, config_hash, code_id, trial_key, units, versions, traced"
            f" FROM code_states{where} ORDER BY save_seq DESC",
            params,
        )
        return [CodeState(seed, profile, claim, config, code, key, _decode(units), _decode(versions), bool(traced))
                for seed, profile, claim, config, code, key, units, versions, traced in rows]

    # -- decisions -----------------------------------------------------------------------

    def save_decision(self, decision: StoredDecision) -> None:
        """Save a decision's verdict, replacing one of the same key and code; it becomes the latest."""
        if not isinstance(decision, StoredDecision):
            raise TypeError(f"decision must be a StoredDecision, got {type(decision).__name__}")
        values = (_text(decision.claim_id, "decision.claim_id"), _text(decision.config_hash, "decision.config_hash"),
                  _text(decision.records, "decision.records"), _text(decision.level, "decision.level"),
                  _text(decision.code_id, "decision.code_id"), _encode(decision.units, "decision.units"),
                  _encode(decision.versions, "decision.versions"), _encode(decision.verdict, "decision.verdict"))
        with self._transaction("saving a decision") as conn:
            conn.execute(
                "INSERT OR REPLACE INTO decisions"
                " (claim_id, config_hash, records, level, code_id, units, versions, verdict, save_seq)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(save_seq), 0) + 1 FROM decisions))",
                values,
            )

    def decisions(self, claim_id: str, config_hash: str, records: str, level: str) -> list[StoredDecision]:
        """The saved decisions of a claim on these records at this level, the latest first
        (one per code state that decided them)."""
        rows = self._query(
            "reading decisions",
            "SELECT code_id, units, versions, verdict FROM decisions"
            " WHERE claim_id = ? AND config_hash = ? AND records = ? AND level = ? ORDER BY save_seq DESC",
            (_text(claim_id, "claim_id"), _text(config_hash, "config_hash"), _text(records, "records"),
             _text(level, "level")),
        )
        return [StoredDecision(claim_id, config_hash, records, level, code, _decode(units), _decode(versions),
                               _decode(verdict)) for code, units, versions, verdict in rows]

    def count_trials(
        self, seed: int | None = None, profile: str | None = None, claim_id: str | None = None
    ) -> int:
        """How many trials are stored, optionally only those of a seed, profile and/or claim."""
        where, params = _filters(seed=seed, profile=profile, claim_id=claim_id)
        rows = self._query("counting trials", f"SELECT count(*) FROM trials{where}", params)
        return rows[0][0]

    # -- verdicts ------------------------------------------------------------------------

    def save_verdict(self, seed: int, profile: str, claim_id: str, verdict: dict[str, Any]) -> None:
        """Save the verdict on a claim in a run, replacing an earlier one of the same run.

        Parameters
        ----------
        seed, profile, claim_id
            As in :meth:`existing_trials`.
        verdict : dict
            JSON-serialisable; NaN and infinities round-trip.
        """
        seed = _integer(seed, "seed")
        profile = _text(profile, "profile")
        claim_id = _text(claim_id, "claim_id")
        if not isinstance(verdict, dict):
            raise TypeError(f"verdict must be a dict, got {type(verdict).__name__}")
        text = _encode(verdict, "verdict")
        with self._transaction("saving a verdict") as conn:
            conn.execute(
                "INSERT OR REPLACE INTO verdicts"
                " (seed, profile, claim_id, verdict, saved_at, save_seq)"
                " VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(save_seq), 0) + 1 FROM verdicts))",
                (seed, profile, claim_id, text, _now()),
            )

    def verdicts(self, seed: int | None = None, profile: str | None = None) -> list[VerdictRow]:
        """The saved verdicts, optionally of one seed and/or profile.

        Returns
        -------
        list of VerdictRow
            Sorted by seed, profile, then claim id.
        """
        where, params = _filters(seed=seed, profile=profile)
        rows = self._query(
            "reading verdicts",
            f"SELECT seed, profile, claim_id, verdict, saved_at FROM verdicts{where}"
            " ORDER BY seed, profile, claim_id",
            params,
        )
        return [_verdict_row(row) for row in rows]

    def latest_verdict(self, claim_id: str) -> VerdictRow | None:
        """The verdict on ``claim_id`` saved last, whatever its run; None if there is none."""
        claim_id = _text(claim_id, "claim_id")
        rows = self._query(
            "reading verdicts",
            "SELECT seed, profile, claim_id, verdict, saved_at FROM verdicts"
            " WHERE claim_id = ? ORDER BY save_seq DESC LIMIT 1",
            (claim_id,),
        )
        return _verdict_row(rows[0]) if rows else None

    # -- runs ----------------------------------------------------------------------------

    def start_run(self, meta: dict[str, Any]) -> int:
        """Record the start of a run.

        Parameters
        ----------
        meta : dict
            JSON-serialisable; must hold ``"seed"`` (int in ``[0, 2**63 - 1]``) and
            ``"profile"`` (str).

        Returns
        -------
        int
            The run's id, for :meth:`finish_run`.
        """
        if not isinstance(meta, dict):
            raise TypeError(f"meta must be a dict, got {type(meta).__name__}")
        for field in ("seed", "profile"):
            if field not in meta:
                raise ValueError(f"meta must hold {field!r}; it has {sorted(map(str, meta))}")
        seed = _integer(meta["seed"], "meta['seed']")
        profile = _text(meta["profile"], "meta['profile']")
        text = _encode(meta, "meta")
        with self._transaction("starting a run") as conn:
            cursor = conn.execute(
                "INSERT INTO runs (seed, profile, started, meta) VALUES (?, ?, ?, ?)",
                (seed, profile, _now(), text),
            )
            if cursor.lastrowid is None:  # sqlite3 sets it on every INSERT
                raise StoreError("starting a run: SQLite returned no id for the new run")
            return cursor.lastrowid

    def finish_run(self, run_id: int, meta: dict[str, Any]) -> None:
        """Record the end of a run; the keys of ``meta`` update its start metadata.

        Raises
        ------
        ValueError
            ``run_id`` is not a run of this store, or that run has already finished.
        """
        run_id = _integer(run_id, "run_id")
        if not isinstance(meta, dict):
            raise TypeError(f"meta must be a dict, got {type(meta).__name__}")
        _encode(meta, "meta")  # fail on bad input before taking the write lock
        with self._transaction("finishing a run") as conn:
            row = conn.execute(
                "SELECT meta, finished FROM runs WHERE run_id = ?", (run_id,)
            ).fetchone()
            if row is None:
                raise ValueError(f"run_id {run_id} is not a run of store {self.path}")
            if row[1] is not None:
                raise ValueError(f"run_id {run_id} of store {self.path} finished at {row[1]}")
            merged = {**_decode(row[0]), **meta}
            conn.execute(
                "UPDATE runs SET finished = ?, meta = ? WHERE run_id = ?",
                (_now(), _encode(merged, "meta"), run_id),
            )

    def runs(self) -> list[RunRow]:
        """Every recorded run, in the order they started."""
        rows = self._query(
            "reading runs",
            "SELECT run_id, seed, profile, started, finished, meta FROM runs ORDER BY run_id",
        )
        return [_run_row(row) for row in rows]

    def latest_run(self) -> RunRow | None:
        """The run started last; None if there is none."""
        rows = self._query(
            "reading runs",
            "SELECT run_id, seed, profile, started, finished, meta FROM runs"
            " ORDER BY run_id DESC LIMIT 1",
        )
        return _run_row(rows[0]) if rows else None

    def save_without_trials(self, path: str | os.PathLike[str]) -> Path:
        """Write a copy of the store without its trials: the verdicts and runs a report reads.

        A full-profile store holds every trial's record and grows to hundreds of megabytes;
        the copy is small enough to commit beside the report, which ``iln-verify report
        --store`` renders again from it (after a new self-test, say).

        Parameters
        ----------
        path : path
            A new file (``StoreError`` if it exists: nothing already stored is replaced).

        Returns
        -------
        Path
        """
        target = Path(path)
        if target.exists():
            raise StoreError(f"path: {target} exists; the copy is written to a new file only")
        with self._translate("copying the verdicts"):
            copy = sqlite3.connect(target)
            try:
                self._connection().backup(copy)
                # Code states, reach and decisions describe trials: without them they would
                # only mislead.
                for table in ("trials", "code_states", "reach", "decisions"):
                    copy.execute(f"DELETE FROM {table}")
                copy.commit()
                copy.execute("PRAGMA journal_mode=DELETE")
                copy.execute("VACUUM")
            finally:
                copy.close()
        return target

    # -- run lock ------------------------------------------------------------------------

    @contextlib.contextmanager
    def run_lock(self) -> Iterator[None]:
        """Hold the store's run lock for the ``with`` block; fail at once if it is taken.

        The lock is an exclusive ``flock`` on ``<path>.lock``, which records the holder's pid.
        The kernel releases it when the holder exits or is killed (SIGKILL included).

        Raises
        ------
        StoreLockedError
            Another process holds the lock (so does a second ``run_lock`` in this process).
        StoreError
            The lock file cannot be opened or locked.
        """
        self._connection()
        lock_path = Path(f"{self.path}.lock")
        try:
            # CLOEXEC: a program exec'd by the run must not keep the lock after the run dies.
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StoreError(
                f"store {self.path}: cannot open the lock file {lock_path}: {exc.strerror}"
            ) from exc
        owner = os.getpid()
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreLockedError(
                    f"store {self.path} is locked by another run (pid {_read_pid(fd)})"
                ) from None
            except OSError as exc:
                raise StoreError(
                    f"store {self.path}: cannot lock {lock_path}: {exc.strerror}"
                ) from exc
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{owner}\n".encode(), 0)
            _HELD_LOCK_FDS.add(fd)
            try:
                yield
            finally:
                # In a forked child the descriptor was closed at fork (and its number may
                # since name another file): only the process that took the lock touches it.
                if os.getpid() == owner:
                    _HELD_LOCK_FDS.discard(fd)
                    # Cleared before unlocking, so the file never names a run that has ended.
                    with contextlib.suppress(OSError):
                        os.ftruncate(fd, 0)
        finally:
            if os.getpid() == owner:
                os.close(fd)  # releases the lock


# -- run lock across fork -----------------------------------------------------------------

_HELD_LOCK_FDS: set[int] = set()


def _drop_inherited_locks() -> None:
    # A flock belongs to the open file, which a forked child shares: a child outliving a
    # killed run would keep its store locked.  Closing the child's copy leaves the parent's.
    for fd in _HELD_LOCK_FDS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCK_FDS.clear()


os.register_at_fork(after_in_child=_drop_inherited_locks)


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    # The holder writes its pid just after locking; a reader in between sees nothing.
    return text if text.isdigit() else "unknown"


# -- opening ------------------------------------------------------------------------------


def _check_before_writing(path: Path) -> None:
    """Refuse, without writing anything, a path that cannot hold a store of this version."""
    if not path.parent.is_dir():
        raise StoreError(f"store {path}: directory {path.parent} does not exist")
    if path.is_dir():
        raise StoreError(f"store {path} is a directory, not a store file")
    try:
        with path.open("rb") as fh:
            header = fh.read(_SQLITE_HEADER_SIZE)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"store {path} cannot be read: {exc.strerror}") from exc
    if not header:
        return  # an empty file is an empty SQLite database
    # Judged from the bytes first, so SQLite never opens a file that is not its own.
    if len(header) < _SQLITE_HEADER_SIZE or not header.startswith(_SQLITE_MAGIC):
        raise CorruptStoreError(
            f"store {path} is not an SQLite database (corrupted?); left unchanged"
        )
    version, n_objects = _peek_read_only(path)
    if version in (SCHEMA_VERSION, *MIGRATED_VERSIONS) or (version == 0 and n_objects == 0):
        return
    raise _incompatible(path, version)


def _peek_read_only(path: Path) -> tuple[int, int]:
    """The file's ``user_version`` and number of schema objects, read through a read-only URI."""
    # The header's user_version alone could be stale: a commit may still sit in the WAL.
    uri = f"{path.resolve().as_uri()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise StoreError(f"store {path} cannot be opened: {_one_line(exc)}") from exc
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        n_objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.Error as exc:
        if _is_corruption(exc):
            raise CorruptStoreError(
                f"store {path} is not a readable SQLite database ({_one_line(exc)}); left unchanged"
            ) from exc
        raise StoreError(f"store {path} cannot be read: {_one_line(exc)}") from exc
    finally:
        conn.close()
    return version, n_objects


def _create_schema(conn: sqlite3.Connection, created_by: str) -> None:
    # One statement at a time: executescript() would commit the enclosing transaction.
    for statement in (*_SCHEMA, *_CODE_SCHEMA, *_DECISION_SCHEMA):
        conn.execute(statement)
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [("schema_version", str(SCHEMA_VERSION)), ("created_by", created_by)],
    )
    conn.execute(f"PRAGMA user_version = {int(SCHEMA_VERSION)}")


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring a store of an older version to :data:`SCHEMA_VERSION` inside the open transaction.

    The tables the version lacks (:data:`_ADDED_SINCE`) are added; no stored row changes.
    """
    for statement in _ADDED_SINCE[version]:
        conn.execute(statement)
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                 (str(SCHEMA_VERSION),))
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                 (f"migrated_from_{version}", _now()))
    conn.execute(f"PRAGMA user_version = {int(SCHEMA_VERSION)}")


def _add_reach(conn: sqlite3.Connection, key: tuple[int, str, str, str], functions: list[str],
               traced: int) -> None:
    row = conn.execute(
        "SELECT functions, traced FROM reach WHERE seed = ? AND profile = ? AND claim_id = ?"
        " AND trial_key = ?", key).fetchone()
    known, count = (_decode(row[0]), row[1]) if row else ([], 0)
    conn.execute(
        "INSERT OR REPLACE INTO reach (seed, profile, claim_id, trial_key, functions, traced)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (*key, _encode(sorted(set(known) | set(functions)), "reached"), count + traced),
    )


def _incompatible(path: Path, version: int) -> IncompatibleStoreError:
    if version == 0:
        return IncompatibleStoreError(
            f"store {path} is an SQLite database of something else (schema version 0, this "
            f"version of iln-verify uses {SCHEMA_VERSION}); left unchanged"
        )
    return IncompatibleStoreError(
        f"store {path} has schema version {version}, this version of iln-verify uses "
        f"{SCHEMA_VERSION}; left unchanged (use another store path)"
    )


def _is_corruption(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    # Every text the store writes is UTF-8: a stored text that is not was damaged on disk.
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "Could not decode to UTF-8" in str(exc)


def _one_line(exc: BaseException, limit: int = 300) -> str:
    # SQLite quotes a damaged text whole: the first characters say enough.
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "..."


# -- values -------------------------------------------------------------------------------


def _integer(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    value = int(value)
    if not 0 <= value <= _MAX_INTEGER:
        raise ValueError(f"{name} must lie in [0, 2**63 - 1], got {value}")
    return value


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{name} must not be empty")
    return value


def _trial_key(
    seed: Any, profile: Any, claim_id: Any, config_hash: Any
) -> tuple[int, str, str, str]:
    return (
        _integer(seed, "seed"),
        _text(profile, "profile"),
        _text(claim_id, "claim_id"),
        _text(config_hash, "config_hash"),
    )


def _filters(**given: Any) -> tuple[str, tuple[Any, ...]]:
    """A WHERE clause matching the columns whose value is not None."""
    clauses, params = [], []
    for column, value in given.items():
        if value is None:
            continue
        params.append(_integer(value, column) if column == "seed" else _text(value, column))
        clauses.append(f"{column} = ?")
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)


def _encode(value: Any, name: str) -> str:
    try:
        return json.dumps(value, allow_nan=True, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be JSON-serialisable: {_one_line(exc)}") from None


def _decode(text: str) -> Any:
    # json.loads reads back the NaN and Infinity tokens that allow_nan wrote.
    return json.loads(text)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _verdict_row(row: tuple[Any, ...]) -> VerdictRow:
    seed, profile, claim_id, verdict, saved_at = row
    return VerdictRow(seed, profile, claim_id, _decode(verdict), saved_at)


def _run_row(row: tuple[Any, ...]) -> RunRow:
    run_id, seed, profile, started, finished, meta = row
    return RunRow(run_id, seed, profile, started, finished, _decode(meta))
