"""A Dask worker plugin that plants a defect in every worker of a self-test run.

The runner's local workers die with their pool, but a Dask cluster's workers serve later runs
too: the plugin plants the defect when it is registered (on every worker, including workers
that join later) and removes it when the run unregisters it.
"""

from __future__ import annotations

from distributed import WorkerPlugin

__all__ = ["DefectPlugin"]


class DefectPlugin(WorkerPlugin):
    """Plant the named defect of :mod:`verification.selftest.defects` on each worker.

    Parameters
    ----------
    defect : str
        A defect name (:func:`verification.selftest.defects.get` checks it).
    """

    def __init__(self, defect: str):
        self.defect = defect
        self.name = f"iln-verify-defect-{defect}"
        self._undo = None

    def setup(self, worker) -> None:
        from verification.selftest import defects

        self._undo = defects.get(self.defect).apply()

    def teardown(self, worker) -> None:
        if self._undo is not None:
            self._undo()
            self._undo = None
