"""A claim's trials as every run computes them: their seeds, their call, their threads.

Trial ``i`` of claim ``c`` under master seed ``s`` is ``c.trial(config, child(child(
SeedSequence(s), claim_key(c)), i))``, run with the numerical libraries on
:data:`LIBRARY_THREADS` thread, wherever it runs: in the caller's process, a local worker or
a Dask worker (docs, Design, principle 7).

This module is the engine code every trial runs, so the code fingerprint of every claim
holds its module code (:mod:`verification.fingerprint`, :mod:`verification.incremental`):
an edit here keys every stored trial anew.  The rest of the engine (workers, the store,
decisions; :mod:`verification.runner`) runs around the trials, so an edit there reruns none.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence

import numpy as np
from threadpoolctl import threadpool_limits

from iln.random_streams import child
from verification import catalog, interruption, reach

__all__ = ["LIBRARY_THREADS", "TRIAL_ERROR", "claim_seed", "error_text", "on_library_threads",
           "one_library_thread", "run_batch", "run_batch_traced", "set_library_threads"]

#: the threads of BLAS and OpenMP under which every trial and decision runs.  A BLAS call
#: splits a long reduction over its threads, and the parts' sums round in another order, so a
#: trial's last bits would depend on the machine's cores: the least-squares weights of
#: ``iln.sec6.baselines``' quick trials differ by about 3e-15 between one and two OpenBLAS
#: threads.  On one thread they are the same on every machine; the parallelism is the
#: workers'.  A module constant, so that a change of it keys every stored trial anew.
LIBRARY_THREADS = 1

#: what libraries loaded after :func:`set_library_threads` read for their thread count.
_ENVIRON = {name: str(LIBRARY_THREADS) for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}

#: the key of a trial record that holds the trial's exception instead of its result: such a
#: record is never stored, and its claim's verdict is ``error``.
TRIAL_ERROR = "__trial_error__"

#: this module, as :mod:`verification.reach` names files: its clock times every trial.
_FILE = "verification/trials.py"


def one_library_thread() -> threadpool_limits:
    """BLAS and OpenMP of the libraries loaded so far on :data:`LIBRARY_THREADS` thread: a
    context manager that restores them (or, called alone, for the rest of the process).

    Trials and decisions run under it.
    """
    return threadpool_limits(limits=LIBRARY_THREADS)


def set_library_threads() -> None:
    """:func:`one_library_thread` for the rest of a worker's process, including the libraries a
    trial loads later (scikit-learn's OpenMP runtime, on its first import), which read the
    environment."""
    os.environ.update(_ENVIRON)
    one_library_thread()


def on_library_threads(function: Callable, *args):
    """``function(*args)`` on a Dask worker, after :func:`set_library_threads`.

    The limit is not restored afterwards: tasks of one worker run on several threads at once,
    and one task's restoring would lift it under another.
    """
    set_library_threads()
    return function(*args)


def claim_seed(seed: int, claim_id: str, stream: int = 0) -> np.random.SeedSequence:
    """The seed of claim ``claim_id``'s trials under master seed ``seed``: trial i draws from its
    child i, whatever the number of workers or machines (docs, Design, principle 7).

    ``stream`` (a configuration's :data:`verification.catalog.SEED_STREAM`): above 0, a stream
    of seeds no other stream shares, for a claim whose plan changed after a deciding run; 0
    gives the seeds claims always had.
    """
    if isinstance(stream, bool) or not isinstance(stream, int) or stream < 0:
        raise ValueError(f"{catalog.SEED_STREAM} must be a non-negative int, got {stream!r}")
    key = catalog.claim_key(claim_id)
    # (key, stream) and (key,) are spawn keys of different lengths: their children never meet.
    return child(np.random.SeedSequence(seed), key, stream) if stream else child(np.random.SeedSequence(seed), key)


def error_text(error: BaseException) -> str:
    """An exception as a verdict of ``error`` shows it: ``"ValueError: ..."``."""
    return f"{type(error).__name__}: {error}"


def run_batch(claim_id: str, config: dict, seed: int, indices: Sequence[int]) -> list[tuple[int, dict, float]]:
    """Run the trials ``indices`` of a claim; a module-level function so that workers can import it.

    A trial that raises ends its claim's batch with a record ``{TRIAL_ERROR: ...}`` (the
    exception and the trial's index) instead of stopping the run: the other claims go on.

    Raises
    ------
    verification.interruption.BatchInterrupted
        On an interrupt (Ctrl-C), with the trials finished before it: the run stores them.
    """
    claim = catalog.get(claim_id)
    trials_seed = claim_seed(seed, claim_id, config.get(catalog.SEED_STREAM, 0))
    out: list[tuple[int, dict, float]] = []
    for i in indices:
        if interruption.requested():
            raise interruption.BatchInterrupted(out)
        start = time.perf_counter()
        try:
            with interruption.trials_running():
                record = claim.trial(config, child(trials_seed, i))
        except KeyboardInterrupt:
            raise interruption.BatchInterrupted(out) from None
        except Exception as error:  # one failing claim never takes the others down
            out.append((int(i), {TRIAL_ERROR: {"trial_index": int(i), "exception": error_text(error)}},
                        time.perf_counter() - start))
            break
        out.append((int(i), record, time.perf_counter() - start))
    return out


def run_batch_traced(claim_id: str, config: dict, seed: int, indices: Sequence[int],
                     run_token: str) -> tuple[list[tuple[int, dict, float]], list[str]]:
    """:func:`run_batch`, with the batch's first trial traced: also the functions it ran
    (:mod:`verification.reach`), which stand for the batch's.

    Tracing slows Python code down by up to three times, so only one trial per batch is traced;
    a traced trial whose code reads a clock (its record holds timings) is computed again
    untraced.  ``run_token`` names the run: a process starting another run's or another claim's
    trials clears the claim modules' caches first, so that the traced trial computes them.
    """
    catalog.get(claim_id)  # the catalog's imports run before tracing: no trial's code
    first, rest = list(indices[:1]), list(indices[1:])
    with reach.traced((claim_id, run_token)) as recorder:
        rows = run_batch(claim_id, config, seed, first)
    # run_batch's own clock (a trial's elapsed_s) is not the trial's record.
    if recorder.reads_clock(besides=[_FILE]):
        rows = run_batch(claim_id, config, seed, first)
    if any(TRIAL_ERROR in record for _, record, _ in rows):
        return rows, recorder.functions()  # a trial that raised ends its batch (run_batch)
    try:
        return rows + run_batch(claim_id, config, seed, rest), recorder.functions()
    except interruption.BatchInterrupted as stopped:
        # The traced trial finished: the batch's finished trials are stored under its reach.
        raise interruption.BatchInterrupted(rows + stopped.rows, recorder.functions()) from None
