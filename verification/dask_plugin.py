"""A Dask worker plugin that plants a run's change of the code in every worker.

The runner's local workers die with their pool, but a Dask cluster's workers serve later runs
too: the plugin plants the change when it is registered (on every worker, including workers
that join later) and removes it when the run unregisters it.  The change is any object the
runner accepts as its ``defect`` (:class:`verification.runner.Planting`): the self-test's
defects are the ones there are (:mod:`verification.selftest.defects`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from distributed import WorkerPlugin

if TYPE_CHECKING:
    from verification.runner import Planting

__all__ = ["PlantingPlugin"]


class PlantingPlugin(WorkerPlugin):
    """Plant ``planting`` on each worker, and remove it on teardown.

    Parameters
    ----------
    planting : Planting
        A picklable object with a ``name`` and an ``apply()`` that plants the change in the
        calling process and returns the function that removes it.
    """

    def __init__(self, planting: Planting) -> None:
        self.planting = planting
        self.name = f"iln-verify-defect-{planting.name}"
        self._undo: Callable[[], None] | None = None

    def setup(self, worker: Any) -> None:
        """Plant the change in ``worker``'s process (Dask calls this as the worker registers it)."""
        self._undo = self.planting.apply()

    def teardown(self, worker: Any) -> None:
        """Remove the change again (the run unregisters the plugin, or the worker closes)."""
        if self._undo is not None:
            self._undo()
            self._undo = None
