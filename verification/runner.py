"""The runner: trials of the selected claims, in worker processes or on Dask, into the store.

A run is ``(seed, profile, claims)``.  Trial ``i`` of claim ``c`` gets the seed
``child(child(SeedSequence(seed), claim_key(c)), i)`` (:mod:`verification.trials`): a pure
function of the master seed, the claim id and the index, so the numbers are the same whatever
runs them (one process, ``--jobs N`` local processes or a Dask cluster).
Finished batches go to the SQLite store at once; a run started again with the
same seed and profile runs only the trials the store lacks (resume).  A claim's
trials are stored under its configuration and the code they reach, so a run
after an edit reruns only the claims whose trials reach it
(:mod:`verification.incremental`).  Verdicts
are decided when every trial is in, with the run's family-wise false-alarm
budget split over the claims by Holm's step-down procedure; a decision saved
for the same records, level and decision code is reused
(:mod:`verification.stored_decisions`).
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import datetime as _dt
import functools
import multiprocessing
import os
import platform
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from verification import (
    catalog,
    costs,
    fingerprint,
    incremental,
    interruption,
    rules,
    stored_decisions,
    trials,
)
from verification.catalog import Claim
from verification.fingerprint import StaleCodeError
from verification.provenance import git_revision
from verification.store import Store, StoreError
from verification.verdicts import CONTRADICTED, ERROR, INCONCLUSIVE, Verdict

__all__ = ["DEFAULT_ALPHA", "DEFAULT_STORE", "RUN_ERRORS", "ClaimOutcome", "Planting", "RunResult",
           "SchedulerError", "machine", "run", "trials_key"]

#: the run's family-wise false-alarm budget (docs, The decision rules: 1e-3).
DEFAULT_ALPHA = 1e-3
DEFAULT_STORE = Path(".iln-verify") / "store.sqlite"
#: trials per task: large enough to amortise a task's overhead, small enough to resume finely.
BATCH_SIZE = 50
#: errors that are the run's, not a claim's: a store that cannot be read or written, code
#: edited under the run.  They stop the run (the CLI's exit 2); a caller that runs many (the
#: self-test) stops too, instead of recording them as the claims' errors.
RUN_ERRORS: tuple[type[Exception], ...] = (StoreError, StaleCodeError)
#: a claim that samples in batches until it is decided (see catalog.SEQUENTIAL).
SEQUENTIAL = catalog.SEQUENTIAL


@dataclass
class _Sequential:
    """A sequential claim's progress in one run: the records in hand, the checkpoint decided
    last, and where it stopped.  The checkpoints are fixed (multiples of the batch, and the
    budget) and decided in order, so the stopping point is a function of the seed alone,
    whatever the jobs, the order batches finish in, or an interruption."""

    batch: int
    budget: int
    #: the claim's verdict on the first records (errors made verdicts), at the run's level.
    decide: Callable[[list[dict]], Verdict]
    records: dict = field(default_factory=dict)
    scheduled: set = field(default_factory=set)
    evaluated: int = 0
    stopped: int | None = None

    def advance(self) -> list[int]:
        """Decide every checkpoint the records now cover; the trials to run next."""
        prefix = 0
        while prefix in self.records:
            prefix += 1
        while self.stopped is None and min(self.evaluated + self.batch, self.budget) <= prefix:
            self.evaluated = min(self.evaluated + self.batch, self.budget)
            verdict = self.decide([self.records[i] for i in range(self.evaluated)])
            if verdict.verdict != INCONCLUSIVE or self.evaluated == self.budget:
                self.stopped = self.evaluated
        if self.stopped is not None:
            return []
        upto = min(self.evaluated + self.batch, self.budget)
        todo = [i for i in range(upto) if i not in self.records and i not in self.scheduled]
        self.scheduled.update(todo)
        return todo


@dataclass(frozen=True)
class ClaimOutcome:
    """A claim's verdict next to its expected verdict."""

    #: the entry of a saved verdict's ``details`` that holds the configuration its trials ran
    #: with.
    CONFIGURATION = "configuration"

    claim: Claim
    verdict: Verdict

    @property
    def matches(self) -> bool:
        """Whether the verdict is the one the claim expects (pre-registered in the catalog)."""
        return self.verdict.verdict == self.claim.expected

    def to_json(self) -> dict:
        """The claim's entry of ``summary.json``: its verdict's fields, title, sources and rule."""
        v = self.verdict.to_json()
        keys = ("statistic", "bound", "interval", "level", "alpha", "tightness",
                "counterexample", "elapsed_s", "min_detectable_ratio", "min_detectable_ratio_best_point",
                "family", "can_fail", "exact", "worst_ratio",
                "worst_instance", "verdict_printed", "verdict_corrected")
        return {"id": self.claim.id, "title": self.claim.title, "kind": self.claim.kind, "verdict": v["verdict"],
                "expected": self.claim.expected, **{k: v[k] for k in keys},
                "sources": self.claim.sources_json(), "rule": v["rule"], "n_trials": v["n_trials"],
                "pvalue": v["pvalue"], "details": v["details"]}


@dataclass(frozen=True)
class RunResult:
    """The outcome of :func:`run`: one :class:`ClaimOutcome` per claim, and the run's metadata."""

    outcomes: list[ClaimOutcome]
    meta: dict = field(default_factory=dict)

    @property
    def all_match(self) -> bool:
        """Whether every claim's verdict is the one it expects."""
        return all(o.matches for o in self.outcomes)

    def to_json(self) -> dict:
        """The run as ``summary.json`` holds it: the metadata and one entry per claim."""
        return {"meta": self.meta, "claims": [o.to_json() for o in self.outcomes]}


def trials_key(config: dict, defect: str | None = None) -> str:
    """The configuration hash a claim's trials are stored under; a self-test run's trials
    (``defect``) get their own, so they never mix with those of the unmodified code."""
    return catalog.config_hash(config if defect is None else {**config, "defect": defect})


def error_verdict(claim_id: str, stage: str, error: str, *, seed: int, profile: str,
                  trial_index: int | None = None) -> Verdict:
    """The verdict of a claim whose configuration, trial or decision raised.

    It carries the exception, the stage, the seed and the command that reproduces it; the
    run goes on with the other claims and exits with status 1.
    """
    nan = float("nan")
    return Verdict(
        claim_id=claim_id, verdict=ERROR, rule=f"none: the claim's {stage} raised", statistic=nan,
        bound=nan, interval=(nan, nan), level=nan, alpha=nan, tightness=nan,
        counterexample=None, elapsed_s=0.0, n_trials=0, pvalue=nan,
        details={"stage": stage, "exception": error, "seed": seed, "profile": profile,
                 **({"trial_index": trial_index} if trial_index is not None else {}),
                 "reproduce": f"iln-verify run {claim_id} --profile {profile} --seed {seed}"})


def _keyed_trials(db: Store, claims: list[Claim], hashes: dict[str, str], seed: int,
                  profile: str, index: fingerprint.CodeIndex) -> dict[str, incremental.Keying]:
    """Each claim's trial key (:mod:`verification.incremental`).  A planted change's trials
    are keyed the same way: its identity is in their configuration hash (:func:`trials_key`),
    and their traced code state holds the code the change edits, recorded under the names of
    the functions it replaces (:mod:`verification.selftest.injection`)."""
    return incremental.plan(db, claims, hashes, seed, profile, index)


def _reuse_notes(keys: dict[str, incremental.Keying], have: dict[str, int], n: dict[str, int]) -> dict[str, str]:
    """One phrase per claim: which stored trials the run reuses, or why it runs them again."""
    out = {}
    for claim_id, k in keys.items():
        if not k.matched:
            out[claim_id] = f"reran: {k.why}"
        elif have[claim_id] == n[claim_id]:
            out[claim_id] = f"reused {n[claim_id]} trials: code unchanged ({k.why})"
        else:
            out[claim_id] = f"resumed: {have[claim_id]} of {n[claim_id]} trials stored"
    return out


class Planting(Protocol):
    """A change of the code planted for one run: the self-test's defects are the ones there are.

    The runner knows nothing of the self-test: it plants what it is given, in its own process
    and in every worker.  Workers get the object by pickling, so it must pickle (a frozen
    dataclass of module-level functions does); :class:`verification.selftest.defects.Defect`
    is one.

    Attributes
    ----------
    name : str
        Names the change: the run's trials are stored under a configuration hash of their own
        (:func:`trials_key`), so they never mix with those of the unmodified code.
    """

    @property
    def name(self) -> str:
        """The change's name (read-only: a frozen dataclass's field satisfies it)."""

    def apply(self) -> Callable[[], None]:
        """Plant the change in the calling process; returns the function that removes it."""


def _check_planting(defect: object) -> None:
    if not (isinstance(getattr(defect, "name", None), str) and callable(getattr(defect, "apply", None))):
        raise TypeError("defect must be a Planting, an object with a str name and an apply() (for "
                        f"example verification.selftest.defects.get(name)), got {defect!r}")


def _worker_init(defect: Planting | None = None) -> None:
    # Each worker process is one unit of parallelism: numba threads inside it would
    # oversubscribe the cores (the numbers do not depend on the thread count); BLAS and
    # OpenMP threads would too, and their numbers do.
    import numba

    numba.set_num_threads(1)
    trials.set_library_threads()
    interruption.install_in_worker()
    if defect is not None:
        # A self-test run (verification.selftest): the worker dies with the pool, so the
        # defect is never removed.
        defect.apply()


@contextlib.contextmanager
def _planted(defect: Planting | None):
    """``defect`` planted in this process (trials of ``jobs=1`` and every decision), or nothing."""
    undo = defect.apply() if defect is not None else None
    try:
        yield
    finally:
        if undo is not None:
            undo()


def _command() -> str:
    """The command line as a user would type it (``iln-verify ...``), whatever the entry point."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    if program.name == "iln-verify" or program.parts[-2:] == ("verification", "__main__.py"):
        return " ".join(["iln-verify", *sys.argv[1:]])
    return " ".join(sys.argv)


def machine() -> str:
    """The machine a run ran on, as its meta records it: architecture, cores, system."""
    return f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def versions() -> dict[str, str]:
    """Versions of the interpreter, of this project and of the packages the results depend on
    (:data:`verification.fingerprint.VERSIONED`)."""
    return {**fingerprint.installed_versions(["iln-verify"]), **fingerprint.versions()}


class _Progress:
    """The run's progress bar, weighted by the measured seconds of each claim's trials
    (:mod:`verification.costs`): a costly claim's trial moves it further, so the time it
    estimates is that of the work left, not of the count of trials left."""

    def __init__(self, tasks: list[tuple], profile: str, jobs: int, quiet: bool) -> None:
        from tqdm import tqdm

        self.seconds = costs.per_trial_s(profile)
        # A claim never measured (a plug-in paper's) weighs as the median measured one.
        self.default = statistics.median(self.seconds.values()) if self.seconds else 1.0
        work = self._work(tasks)
        self.trials = [0, sum(len(t[3]) for t in tasks)]
        # Off a terminal (CI logs), a line every 30 s keeps the log readable.
        interactive = sys.stderr.isatty()
        self.bar = tqdm(total=work, disable=quiet or not tasks, desc="iln-verify", file=sys.stderr,
                        mininterval=0.5 if interactive else 30.0,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]")
        self.bar.set_description_str(self._description(), refresh=False)
        wall = costs.typical_wall(profile)
        if not quiet and tasks and wall is not None and wall.get("trial_s"):
            left = wall["wall_s"] * work / wall["trial_s"] * (wall["jobs"] or jobs) / max(1, jobs)
            print(f"iln-verify: {self.trials[1]} trials to run, about {left / 60:.0f} min on {jobs} "
                  f"workers (scaled from the {profile} profile's measured {wall['wall_s'] / 60:.0f} min "
                  f"on {wall['machine']})", file=sys.stderr)

    def _work(self, tasks: list[tuple]) -> float:
        return sum(self.seconds.get(t[0], self.default) * len(t[3]) for t in tasks)

    def _description(self) -> str:
        return f"iln-verify, {self.trials[0]}/{self.trials[1]} trials"

    def add(self, tasks: list[tuple]) -> None:
        """Tasks added on the way (a sequential claim's next batch)."""
        self.bar.total += self._work(tasks)
        self.trials[1] += sum(len(t[3]) for t in tasks)

    def update(self, claim_id: str, n: int) -> None:
        """``n`` trials of ``claim_id`` finished."""
        self.trials[0] += n
        self.bar.set_description_str(self._description(), refresh=False)
        self.bar.update(self.seconds.get(claim_id, self.default) * n)

    def close(self) -> None:
        self.bar.close()


def _on_the_run_s_code(code: str, function: Callable, *task: Any) -> Any:
    """``function(*task)`` in a process that runs the code ``code`` names
    (:func:`verification.fingerprint.run_code_id`): its imported modules as they are on its
    disk, and its disk's code the run's.

    Raises
    ------
    verification.fingerprint.StaleCodeError
        In a worker that imported code edited since (a Dask worker outlives its runs), or whose
        disk holds other code than the run's (another checkout, an edit since the run
        started): its trials would be stored under code they did not run.
    """
    here = fingerprint.run_code_id(fingerprint.check_not_stale())
    if here != code:
        raise StaleCodeError(f"a worker ({platform.node()}, {fingerprint.ROOT}) runs other code than its run "
                             f"(code {here}, the run's {code}): its disk was edited since the run started, or "
                             f"it is another checkout or has other package versions")
    return function(*task)


class SchedulerError(Exception):
    """The Dask scheduler of ``--scheduler`` cannot be used (unreachable, or not an address)."""


#: how long a run waits for a Dask scheduler to answer before it gives up.
SCHEDULER_TIMEOUT_S = 5
#: how often the run's process looks for an interrupt while it waits for its workers.
POLL_S = 0.25
#: how long the workers get, after an interrupt, to return the trials they finished.
WIND_DOWN_S = 5.0


@contextlib.contextmanager
def _dask_client(scheduler: str):
    """A client of the scheduler, or :class:`SchedulerError` within a few seconds."""
    from dask.distributed import Client

    try:
        client = Client(scheduler, timeout=f"{SCHEDULER_TIMEOUT_S}s")
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise SchedulerError(f"cannot reach the Dask scheduler {scheduler!r} within {SCHEDULER_TIMEOUT_S} s "
                             f"({type(error).__name__}: {error})") from None
    with client:
        yield client


def _finished(future, task, on_done: Callable) -> list:
    """``on_done(task, result)`` for a finished future; a batch an interrupt stopped hands over
    the trials it finished, and asks for nothing more."""
    try:
        result = future.result()
    except interruption.BatchInterrupted as stopped:
        on_done(task, (stopped.rows, stopped.reached))
        raise interruption.Interrupted("interrupted") from None
    return on_done(task, result) or []


def _wind_down(futures: dict, on_done: Callable) -> None:
    """After an interrupt: no batch starts, the running ones return what they finished (within
    :data:`WIND_DOWN_S`), which is stored; then the workers stop."""
    for future in futures:
        future.cancel()
    interruption.stop_workers(signal.SIGINT)  # a signal sent to this process alone reaches them too
    running = {f: t for f, t in futures.items() if not f.cancelled()}
    deadline = time.monotonic() + WIND_DOWN_S
    while running and time.monotonic() < deadline:
        done, _ = concurrent.futures.wait(running, timeout=POLL_S, return_when=concurrent.futures.FIRST_COMPLETED)
        for future in done:
            task = running.pop(future)
            with contextlib.suppress(interruption.Interrupted, concurrent.futures.CancelledError,
                                     BrokenProcessPool):
                _finished(future, task, on_done)
    interruption.stop_workers(signal.SIGKILL)


def _execute(tasks, jobs: int, scheduler: str | None, on_done: Callable, defect: Planting | None = None,
             function: Callable = trials.run_batch, code: str | None = None, client=None) -> None:
    """Run ``tasks`` (tuples of ``function``'s arguments) and call ``on_done(task, result)`` as each ends.

    ``on_done`` may return further tasks (a sequential claim's next batch), which run too.
    ``defect`` (a self-test run) is planted in every worker before its first trial.  ``code``
    (:func:`verification.fingerprint.run_code_id`): each task first checks that its process
    runs that code (:func:`_on_the_run_s_code`).  ``client``: the Dask client of ``scheduler``.

    Raises
    ------
    verification.interruption.Interrupted
        On Ctrl-C, after the trials finished so far are handed to ``on_done``
        (:mod:`verification.interruption`).
    """
    if code is not None:
        function = functools.partial(_on_the_run_s_code, code, function)
    if scheduler:
        _execute_on_dask(client, tasks, on_done, defect, function)
        return
    if jobs == 1:
        queue = collections.deque(tasks)
        with interruption.graceful():
            while queue:
                task = queue.popleft()
                # Limited again batch by batch: a library an earlier batch loaded is limited too.
                with trials.one_library_thread():
                    try:
                        result = function(*task)
                    except interruption.BatchInterrupted as stopped:
                        on_done(task, (stopped.rows, stopped.reached))
                        raise interruption.Interrupted("interrupted") from None
                queue.extend(on_done(task, result) or ())
                if interruption.requested():
                    raise interruption.Interrupted("interrupted")
        return
    context = multiprocessing.get_context("spawn")
    with (interruption.graceful(),
          concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_init,
                                                 initargs=(defect,)) as pool):
        futures = {pool.submit(function, *task): task for task in tasks}
        try:
            while futures:
                done, _ = concurrent.futures.wait(futures, timeout=POLL_S,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    for task in _finished(future, futures.pop(future), on_done):
                        futures[pool.submit(function, *task)] = task
                if interruption.requested():
                    raise interruption.Interrupted("interrupted")
        except interruption.Interrupted:
            _wind_down(futures, on_done)
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _execute_on_dask(client, tasks, on_done: Callable, defect: Planting | None, function: Callable) -> None:
    """:func:`_execute` on a Dask cluster: an interrupt cancels what is not finished."""
    from dask.distributed import as_completed

    plugin = None
    if defect is not None:
        from verification.dask_plugin import PlantingPlugin

        plugin = PlantingPlugin(defect)
        client.register_plugin(plugin, name=plugin.name)
    futures = {}
    try:
        with interruption.graceful(raise_at_once=True):
            futures = {client.submit(trials.on_library_threads, function, *task, pure=False): task
                       for task in tasks}
            pending = as_completed(list(futures))
            for future in pending:
                for task in on_done(futures.pop(future), future.result()) or ():
                    added = client.submit(trials.on_library_threads, function, *task, pure=False)
                    futures[added] = task
                    pending.add(added)
    except KeyboardInterrupt:
        client.cancel(list(futures))
        raise interruption.Interrupted("interrupted") from None
    finally:
        if plugin is not None:
            # Dask workers outlive the run: the defect must leave with it.
            client.unregister_worker_plugin(plugin.name)


def _decide_one(decide: Callable[..., Verdict], claim: Claim, level: float, seed: int, profile: str,
                *args: Any) -> Verdict:
    """``decide(claim, level, *args)``, or the error verdict of a decision that raised.

    A store that cannot be read or written (the stored decisions, the records) stops the run
    with its error, as it does anywhere else: it is not the claim's fault.
    """
    try:
        return decide(claim, level, *args)
    except RUN_ERRORS:
        raise
    except Exception as error:  # one failing claim never takes the others down
        return error_verdict(claim.id, "decision", trials.error_text(error), seed=seed, profile=profile)


def _gated(decide: Callable[[Claim, float], Verdict], claim: Claim, level: float) -> Verdict:
    """``decide(claim, level)``, a holds of a claim whose domain no search covers made
    inconclusive (:func:`verification.catalog.domain_not_searched`)."""
    return catalog.domain_not_searched(claim, decide(claim, level))


def _decide(claims: list[Claim], decide: Callable[[Claim, float], Verdict], alpha: float, seed: int = 0,
            profile: str = "quick") -> dict[str, Verdict]:
    """Decide every claim in one family: Holm's step-down on the p-values of the deciding tests.

    ``decide(claim, level)`` is the claim's verdict at ``level`` (on the run's records; a
    decision saved for the same records, level and code is reused,
    :mod:`verification.stored_decisions`).  The p-values come from a first decision (a rule's
    p-value does not depend on the alpha it is given); each claim is then decided at the level
    :func:`verification.rules.holm_family` assigns it.  A printed violation that Holm's
    step-down does not reject (a rule whose p-value disagrees with its decision) is made
    inconclusive, with the reason.  Claims whose decision raises get an ``error`` verdict and
    are not part of the family; nor are claims whose first decision is ``exact`` (the
    deterministic invariant, the search engine's exact decisions): their violated verdict
    carries no false-alarm risk, so they take no share of alpha, keep their first decision,
    and record why they are outside (:func:`verification.rules.outside_family`).
    """
    # The run's verdict of a claim whose domain no search covers cannot be holds (its grid's
    # outcome is kept in its details); a sequential claim's checkpoints read its grid's.
    decide = functools.partial(_gated, decide)
    first_level = alpha / len(claims)
    first = {c.id: _decide_one(decide, c, first_level, seed, profile) for c in claims}
    out = {c.id: first[c.id] for c in claims if first[c.id].verdict == ERROR}
    # An exact or deterministic decision makes no false alarm: it takes no share of alpha.
    exact = [c for c in claims if first[c.id].verdict != ERROR and first[c.id].exact]
    members = [c for c in claims if first[c.id].verdict != ERROR and not first[c.id].exact]
    for c in exact:
        out[c.id] = replace(first[c.id], family=rules.outside_family(alpha, len(members)))
    if not members:
        return out
    pvalues = [first[c.id].pvalue if 0.0 <= first[c.id].pvalue <= 1.0 else 1.0 for c in members]
    family = rules.holm_family(pvalues, alpha)
    for i, c in enumerate(members):
        # Holm's level of a claim it does not reject (and of the first rank) is alpha / m, the
        # first decision's level when no claim is exact and no decision raised: a decision is a
        # function of its records, configuration and level, so that one serves then (half the
        # deciding time).
        v = (first[c.id] if family.levels[i] == first_level
             else _decide_one(decide, c, family.levels[i], seed, profile))
        if v.verdict in CONTRADICTED and not family.reject[i]:
            v = replace(v, verdict=INCONCLUSIVE, details={
                **v.details, "reason": f"the printed violation is not rejected by Holm's step-down "
                                       f"(p = {pvalues[i]:.3g} at rank {family.ranks[i]} of {family.size})"})
        out[c.id] = v if v.verdict == ERROR else replace(v, family=family.describe(i))
    return out


def run(claim_ids: Sequence[str] | None = None, *, profile: str = "quick", seed: int = 0,
        jobs: int | None = None, scheduler: str | None = None, store: str | os.PathLike = DEFAULT_STORE,
        alpha: float = DEFAULT_ALPHA, quiet: bool = False, defect: Planting | None = None,
        data: str | None = None, configs: dict[str, dict] | None = None) -> RunResult:
    """Run the trials of the claims that the store lacks, then decide their verdicts.

    Parameters
    ----------
    claim_ids : sequence of str, optional
        Claims to run; default every claim of the catalog.
    profile : {"smoke", "quick", "full"}
    seed : int
        Master seed of the run.
    jobs : int, optional
        Local worker processes; default all cores.  Ignored with ``scheduler``.
    scheduler : str, optional
        Address of a Dask distributed scheduler to run the trials on.
    store : path
        The SQLite store.
    alpha : float
        Family-wise false-alarm budget of the run, split over the claims (Holm).
    quiet : bool
        No progress bar.
    defect : Planting, optional
        Self-test only (:mod:`verification.selftest`, which passes
        ``verification.selftest.defects.get(name)`` or a statement mutant): plant this change
        in this process and in every worker for the duration of the run.  Its trials are
        stored under their own configuration hash, of the change's ``identity`` when it has one
        (its name and the digest of its edits), else of its ``name``, so they never mix with
        those of the unmodified code or of another definition of the change; within it they
        are keyed by the code they reach, traced as an ordinary run's.
    data : str, optional
        Run the claims on this data set (``"libsvm:PATH"`` for a user's file) through each
        claim's :attr:`~verification.catalog.Claim.with_data`; every claim named must take one.
    configs : dict of claim id to dict, optional
        Self-test only (a statement mutant's check, :mod:`verification.selftest.statements`,
        run at the instance where the mutant fails): the configuration of these claims in place
        of the profile's, whole (``"n_trials"`` included).  The trials are stored under its
        own configuration hash, like any configuration's.
    """
    everything = catalog.load()
    claim_ids = list(everything) if not claim_ids else list(dict.fromkeys(claim_ids))
    unknown = [c for c in claim_ids if c not in everything]
    if unknown:
        raise ValueError(f"unknown claim id {unknown[0]!r} (iln-verify list shows the catalog)")
    if profile not in catalog.PROFILES:
        raise ValueError(f"profile must be one of {catalog.PROFILES}, got {profile!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive int, got {jobs!r}")
    if not (0 < alpha < 1):
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    if defect is not None:
        _check_planting(defect)  # before any work
    configs_given = dict(configs or {})
    stray = sorted(set(configs_given) - set(claim_ids))
    if stray:
        raise ValueError(f"configs: claims {stray} are not among the claims run")
    if any(not isinstance(configs_given[c].get("n_trials"), int) or isinstance(configs_given[c]["n_trials"], bool)
           or configs_given[c]["n_trials"] < 1 for c in configs_given):
        raise ValueError("configs: every configuration needs a positive int n_trials")
    claims = [everything[c] for c in claim_ids]
    if data is not None and any(c.with_data is None for c in claims):
        raise ValueError(f"data: claims {[c.id for c in claims if c.with_data is None]} run on no data set")
    # Evaluated before a defect is planted: the planned sample sizes are the unmodified ones.
    configs, failed = {}, {}
    for c in claims:
        try:
            configs[c.id] = dict(configs_given[c.id]) if c.id in configs_given else c.config(profile, data)
        except Exception as error:  # a sample-size plan that raises: this claim's error only
            failed[c.id] = error_verdict(c.id, "configuration", trials.error_text(error), seed=seed, profile=profile)
    defect_name = None if defect is None else defect.name
    # A planting that carries the digest of its definition (a self-test defect or mutant does)
    # keys its trials by it: an edited defect's trials are then computed again.
    defect_key = None if defect is None else getattr(defect, "identity", defect_name)
    hashes = {cid: trials_key(config, defect_key) for cid, config in configs.items()}

    # The code of this run, read once; refused before the store is opened if this process runs
    # older code than the disk holds.
    index = fingerprint.check_not_stale()
    started = _dt.datetime.now(_dt.UTC)
    clock = time.perf_counter()
    Path(store).parent.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as resources:
        # The scheduler first: an unreachable one stops the run before the store is touched.
        client = resources.enter_context(_dask_client(scheduler)) if scheduler else None
        db = resources.enter_context(Store(store, created_by=versions()["iln-verify"]))
        for context in (db.run_lock(), _planted(defect), trials.one_library_thread()):
            resources.enter_context(context)
        meta: dict[str, Any] = {"seed": seed, "profile": profile, "versions": versions(), "git_revision": git_revision(),
                "started": started.isoformat(timespec="seconds"), "jobs": jobs, "scheduler": scheduler,
                "alpha": alpha, "claims": claim_ids, **({"defect": defect_name} if defect_name else {}),
                **({"data": data} if data else {}), **({"configs": configs_given} if configs_given else {}),
                "machine": machine(), "command": _command()}
        # Read what the store holds before writing to it: a store damaged inside then stops
        # the run with a StoreError and is left as it was.
        keys = _keyed_trials(db, [c for c in claims if c.id not in failed], hashes, seed, profile, index)
        decisions = stored_decisions.Decisions(db, seed, profile, index)
        # Every run traces its trials, a planted change's too: its trials are keyed by the code
        # they reach under the change.
        token = f"{os.getpid()}-{time.time_ns()}"

        def tasks_of(claim_id: str, indices: list[int]) -> list[tuple]:
            return [(claim_id, configs[claim_id], seed, indices[k:k + BATCH_SIZE], token)
                    for k in range(0, len(indices), BATCH_SIZE)]

        def decide(c: Claim, level: float, records: list[dict] | None = None, n: int | None = None) -> Verdict:
            return decisions.decide(c, configs[c.id], hashes[c.id], keys[c.id].trial_key,
                                    used[c.id] if n is None else n, level, records)

        def checkpoint(c: Claim, records: list[dict]) -> Verdict:
            """A sequential claim's verdict on its first records, at the run's Bonferroni level."""
            return _decide_one(decide, c, alpha / len(claims), seed, profile, records, len(records))

        tasks, stored, sequential = [], {}, {}
        for c in claims:
            if c.id in failed:
                continue
            if configs[c.id].get(SEQUENTIAL):
                have = db.existing_trials(seed, profile, c.id, keys[c.id].trial_key)
                stored[c.id] = len(have)
                state = _Sequential(int(configs[c.id][SEQUENTIAL]), configs[c.id]["n_trials"],
                                    functools.partial(checkpoint, c), {i: r.record for i, r in have.items()})
                sequential[c.id] = state
                tasks += tasks_of(c.id, state.advance())
                continue
            # The indices, and the records' digest when all are stored: every stored record is
            # read (not decoded) before the run writes anything, so a store damaged inside is
            # refused as it was; a claim whose decision is stored is never decoded.
            indices = db.trial_indices(seed, profile, c.id, keys[c.id].trial_key)
            stored[c.id] = len(indices)
            tasks += tasks_of(c.id, [i for i in range(configs[c.id]["n_trials"]) if i not in indices])
            if stored[c.id] >= configs[c.id]["n_trials"]:
                decisions.records_digest(c.id, keys[c.id].trial_key, configs[c.id]["n_trials"])
        meta["reuse"] = _reuse_notes(keys, stored, {c: configs[c]["n_trials"] for c in keys})
        incremental.save_new_states(db, keys.values())
        run_id = db.start_run(meta)
        by_id = {c.id: c for c in claims}
        done = dict(stored)
        bar = _Progress(tasks, profile, jobs if not scheduler else max(jobs, 1), quiet)
        try:
            def store_batch(task, result):
                rows, reached = result
                good = [r for r in rows if trials.TRIAL_ERROR not in r[1]]
                if good:
                    db.add_trials(seed, profile, task[0], keys[task[0]].trial_key, good, reached)
                    done[task[0]] += len(good)
                    # The traced code state is saved as soon as a claim's trials are all stored,
                    # not at the end of the run: a run stopped part-way (a session's end, a kill)
                    # then leaves its finished claims keyed by the code their trials reach, so an
                    # edit elsewhere does not send them to be run again.
                    if (task[0] not in sequential
                            and done[task[0]] >= configs[task[0]]["n_trials"]):
                        incremental.record_reach(db, by_id[task[0]], hashes[task[0]], keys[task[0]], seed,
                                                 profile, configs[task[0]]["n_trials"], index)
                for _, record, _ in rows:
                    if trials.TRIAL_ERROR in record and task[0] not in failed:
                        info = record[trials.TRIAL_ERROR]
                        failed[task[0]] = error_verdict(task[0], "trial", info["exception"], seed=seed,
                                                        profile=profile, trial_index=info["trial_index"])
                bar.update(task[0], len(rows))
                state = sequential.get(task[0])
                if state is None or task[0] in failed:
                    return []
                state.records.update((i, record) for i, record, _ in good)
                more = tasks_of(task[0], state.advance())
                bar.add(more)
                return more

            _execute(tasks, jobs, scheduler, store_batch, defect, trials.run_batch_traced,
                     fingerprint.run_code_id(index), client)
        finally:
            bar.close()
        # A sequential claim uses the trials up to where it stopped.
        used = {c.id: (sequential[c.id].stopped or sequential[c.id].budget) if c.id in sequential
                else configs[c.id]["n_trials"] for c in claims if c.id not in failed}
        for c in claims:
            # A key matched by its saved traced reach, to which this run added no trial, needs no
            # second look at it.
            if c.id not in failed and not (keys[c.id].matched and keys[c.id].why == incremental.TRACED
                                           and done[c.id] == stored[c.id]):
                incremental.record_reach(db, c, hashes[c.id], keys[c.id], seed, profile, used[c.id], index)

        elapsed = {}
        decided = [c for c in claims if c.id not in failed]
        for c in decided:
            got = decisions.records_digest(c.id, keys[c.id].trial_key, used[c.id])
            if got.count != used[c.id]:
                raise RuntimeError(f"claim {c.id}: the store holds {got.count} of {used[c.id]} trials after the run")
            elapsed[c.id] = got.elapsed_s
        # Each decided claim's trial seconds alone (the verdicts' elapsed_s add a share of the
        # decisions): what a change reaching only its trials runs again.
        meta["trial_s"] = dict(elapsed)
        decide_start = time.perf_counter()
        with trials.one_library_thread():  # again: the libraries the trials loaded too
            verdicts = {**_decide(decided, decide, alpha, seed, profile), **failed}
        meta["decisions"] = {c.id: decisions.note(c.id) for c in decided}
        for claim_id, state in sequential.items():
            if claim_id not in failed:
                verdicts[claim_id] = replace(verdicts[claim_id], details={
                    **verdicts[claim_id].details, "sequential": {
                        "batch": state.batch, "budget": state.budget, "stopped_at": used[claim_id],
                        "rule": "checkpoints at multiples of the batch, decided at the run's Bonferroni "
                                "level; the claim's rule is anytime-valid, so stopping keeps its level"}})
        decide_share = (time.perf_counter() - decide_start) / max(1, len(claims))
        outcomes = []
        for c in claims:
            v = verdicts[c.id]
            if v.counterexample is not None:
                v = Verdict(**{**v.__dict__, "counterexample": {
                    **v.counterexample, "seed": seed, "profile": profile, "claim_seed_key": catalog.claim_key(c.id),
                    "reproduce": f"iln-verify run {c.id} --profile {profile} --seed {seed}"}})
            v = v.with_elapsed(elapsed.get(c.id, 0.0) + decide_share)
            if c.id in configs:
                # The configuration the trials ran with, kept with the verdict: the report shows
                # it, not the one the code has when the report is written (they differ once a
                # plan changes after the run).
                v = replace(v, details={**v.details, ClaimOutcome.CONFIGURATION: configs[c.id]})
            db.save_verdict(seed, profile, c.id, v.to_json())
            outcomes.append(ClaimOutcome(c, v))
        meta["elapsed_s"] = time.perf_counter() - clock
        db.finish_run(run_id, meta)
    return RunResult(outcomes, meta)
