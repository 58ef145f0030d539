"""Ctrl-C during a run: the first stops it cleanly, the second at once.

The first interrupt (SIGINT, which a terminal sends to the whole process group) asks the run
to stop: no new batch of trials starts, each worker ends the batch it is in after its current
trial and returns the trials it finished (:class:`BatchInterrupted`), the runner stores them
and raises :class:`Interrupted`; ``iln-verify`` exits 130 and says how to resume.  A second
interrupt while the run winds down ends the process at once, its workers with it: every trial
stored so far stays (each batch is stored in one transaction).

The same handler serves the run's process and its worker processes.  It raises
:class:`KeyboardInterrupt` only inside :func:`trials_running` (a trial's Python code), never in
the middle of the engine's own work (a store's write, a pool's bookkeeping), which reads
:func:`requested` between batches instead.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator

__all__ = ["BatchInterrupted", "Interrupted", "graceful", "install_in_worker", "requested",
           "stop_workers", "trials_running"]


class Interrupted(KeyboardInterrupt):
    """The run stopped on an interrupt after storing every finished trial."""


class BatchInterrupted(KeyboardInterrupt):
    """A batch of trials stopped by an interrupt, with the trials it finished before it.

    Parameters
    ----------
    rows : list
        The finished trials, as :func:`verification.trials.run_batch` returns them.
    reached : list of str
        The functions the batch's traced trial ran (:func:`verification.trials.run_batch_traced`),
        or ``[]``.
    """

    def __init__(self, rows: list, reached: list | None = None) -> None:
        # Both in args: a worker's exception reaches the run's process pickled.
        super().__init__(rows, list(reached or []))

    @property
    def rows(self) -> list:
        """The trials the batch finished."""
        return self.args[0]

    @property
    def reached(self) -> list:
        """The functions its traced trial ran."""
        return self.args[1]


_state = {"requested": False, "depth": 0}
#: what a second interrupt does in the run's process (:func:`graceful`); nothing in a worker.
_on_second: list[Callable[[], None]] = []


def requested() -> bool:
    """Whether this process was interrupted since its run started."""
    return bool(_state["requested"])


@contextlib.contextmanager
def trials_running() -> Iterator[None]:
    """Trials' code runs inside: an interrupt raises :class:`KeyboardInterrupt` there."""
    _state["depth"] += 1
    try:
        yield
    finally:
        _state["depth"] -= 1


def _on_sigint(signum: int, frame: object) -> None:
    if _state["requested"]:
        for act in _on_second:
            act()
        return  # a worker: the run's process decides
    _state["requested"] = True
    if _state["depth"]:
        raise KeyboardInterrupt


def install_in_worker() -> None:
    """The handler in a worker process (its pool's initializer calls this)."""
    _state["requested"] = False
    signal.signal(signal.SIGINT, _on_sigint)


def stop_workers(sig: int = signal.SIGKILL) -> None:
    """Send ``sig`` to this process's worker processes (the live multiprocessing children)."""
    for child in multiprocessing.active_children():
        with contextlib.suppress(ProcessLookupError, TypeError):
            os.kill(child.pid, sig)  # type: ignore[arg-type]


def _exit_now() -> None:
    stop_workers(signal.SIGKILL)
    sys.stderr.write("iln-verify: interrupted again: stopped at once; the trials stored so far are kept\n")
    sys.stderr.flush()
    os._exit(130)


@contextlib.contextmanager
def graceful(*, raise_at_once: bool = False) -> Iterator[None]:
    """The run's trial phase: the first interrupt is a request, the second exits at once.

    Parameters
    ----------
    raise_at_once : bool
        Raise :class:`KeyboardInterrupt` on the first interrupt wherever the process is (a Dask
        run, whose loop waits on the cluster and cannot poll :func:`requested`).

    Outside the main thread (a run started from another thread) nothing is installed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _state["requested"] = False
    previous = signal.getsignal(signal.SIGINT)
    if _exit_now not in _on_second:
        _on_second.append(_exit_now)
    depth = _state["depth"]
    if raise_at_once:
        _state["depth"] += 1
    signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        _state["depth"] = depth
        # Once interrupted, the process is on its way out: a second interrupt while it unwinds
        # (stores close, the command prints how to resume) still exits at once.
        if not _state["requested"]:
            signal.signal(signal.SIGINT, previous)
            _on_second.remove(_exit_now)
