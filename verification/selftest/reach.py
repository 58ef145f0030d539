"""Which claims' trials reach the code a defect edits: the mutation campaign's coverage.

A planted defect changes nothing until the code it edits runs.  The trials of a claim are a
deterministic function of the claim's configuration and seed, so if, with the mutation seed,
no trial of a claim ever calls a function that a defect edits, then with the defect planted
the same trials call the same functions and return the same records: the defect cannot
change them.  Mutation-testing tools use the same argument to run only the tests that cover a
mutant (PIT's coverage analysis, mutmut's ``--use-coverage``).

:func:`reach_run` runs the selected claims once in this process, on the unmodified code, with a
*recorder* in every function a defect edits (a call that notes the function, then its own
body) and each claim's trial function wrapped so that the notes are attributed to the claim.
The claim modules' caches are cleared whenever the claim changes, so that a value one claim
computed and another reuses is computed, and noted, by each.  Only the trials are pruned: the
decisions of every claim are always made again with the defect planted, since a decision
depends on the other claims' p-values through Holm's procedure.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from verification import catalog, runner
from verification.selftest.defects import Defect
from verification.selftest.injection import (
    CodeEdit,
    CompiledModuleEdit,
    clear_claim_caches,
    python_function,
    swap_code,
)

__all__ = ["Reach", "hit", "reach_run", "recorders_planted", "targets"]

#: the functions noted since the last reset, by their ``where``.
_HITS: set[str] = set()


def hit(where: str) -> None:
    """Note that the function ``where`` ran (called by the recorders)."""
    _HITS.add(where)


def targets(defect: Defect) -> set[str]:
    """The functions a defect edits, as recorded by :func:`hit`."""
    out = set()
    for edit in defect.edits:
        if isinstance(edit, CodeEdit):
            out.add(edit.where)
        else:
            out.update(f"{edit.module}.{name}" for name in edit.entry_points)
    return out


def _recorded_source(func, where: str) -> str:
    """The definition of ``func`` with ``hit(where)`` as the first statement of its body."""
    source = textwrap.dedent(inspect.getsource(func))
    node = ast.parse(source).body[0]
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.body[0].lineno == node.lineno:
        raise ValueError(f"recorder of {where}: expected a function whose body starts on its own line")
    first = node.body[0]
    # Decorators and a multi-line signature come before the body: insert at its first line.
    lines = source.splitlines(keepends=True)
    indent = " " * first.col_offset
    call = f"{indent}__import__('verification.selftest.reach', fromlist=['hit']).hit({where!r})\n"
    return "".join([*lines[:first.lineno - 1], call, *lines[first.lineno - 1:]])


def _plant_recorder(edit) -> Callable[[], None]:
    if isinstance(edit, CodeEdit):
        func = python_function(edit.module, edit.qualname)
        return swap_code(func, _recorded_source(func, edit.where), edit.where)
    assert isinstance(edit, CompiledModuleEdit)
    module = importlib.import_module(edit.module)
    saved = {name: getattr(module, name) for name in edit.entry_points}

    def recorded(name, kernel):
        def call(*args, **kwargs):
            hit(f"{edit.module}.{name}")
            return kernel(*args, **kwargs)
        return call

    for name, kernel in saved.items():
        setattr(module, name, recorded(name, kernel))

    def undo() -> None:
        for name, kernel in saved.items():
            setattr(module, name, kernel)

    return undo


@contextlib.contextmanager
def recorders_planted(defects: Sequence[Defect]) -> Iterator[None]:
    """A recorder in every function the defects edit, for the duration of the block."""
    undos = []
    seen = set()
    try:
        for d in defects:
            for edit in d.edits:
                key = (type(edit).__name__, edit.where)
                if key not in seen:
                    seen.add(key)
                    undos.append(_plant_recorder(edit))
        yield
    finally:
        while undos:
            undos.pop()()


@dataclass(frozen=True)
class Reach:
    """The outcome of :func:`reach_run`.

    Attributes
    ----------
    hits : dict of str to list of str
        Claim id to the edited functions its trials called.
    verdicts : dict of str to str
        The run's verdicts (the unmodified code, the mutation seed).
    recorded : list of str
        The functions that had a recorder: a defect editing any other function is not
        covered by this reach (:meth:`covers`).
    """

    hits: dict[str, list[str]]
    verdicts: dict[str, str]
    recorded: list[str]

    def covers(self, defect: Defect) -> bool:
        """Whether every function the defect edits had a recorder."""
        return targets(defect) <= set(self.recorded)

    def claims_reached(self, defect: Defect) -> list[str]:
        """The claims whose trials call a function the defect edits (``ValueError`` if the
        reach does not cover the defect)."""
        if not self.covers(defect):
            raise ValueError(f"defect: the reach run had no recorder in "
                             f"{sorted(targets(defect) - set(self.recorded))}")
        edited = targets(defect)
        return [c for c, h in self.hits.items() if edited & set(h)]


def reach_run(defects: Sequence[Defect], claims: Sequence[str], *, profile: str, seed: int,
              store: Path) -> Reach:
    """Run ``claims`` in this process (one job) and note which edited functions each one's trials call.

    Parameters
    ----------
    defects : sequence of Defect
        Whose edited functions get recorders.
    claims : sequence of str
    profile : str
    seed : int
        The mutation seed.
    store : path
        A store for this run only: it must not hold trials already, since a stored trial is
        not run again and its calls would go unnoticed (``ValueError`` otherwise).

    Returns
    -------
    Reach
    """
    store = Path(store)
    if store.exists():
        raise ValueError(f"store: {store} exists; the reach run needs a new store (its trials "
                         "must all run here)")
    known = catalog.load()
    hits: dict[str, set[str]] = {c: set() for c in claims}
    current: list[str | None] = [None]
    originals = {c: known[c].trial for c in claims}

    def attributed(claim_id, trial):
        def run_trial(config, seed):
            if current[0] != claim_id:
                clear_claim_caches()  # see the module docstring
                current[0] = claim_id
            _HITS.clear()
            try:
                return trial(config, seed)
            finally:
                hits[claim_id].update(_HITS)
                _HITS.clear()
        return run_trial

    try:
        for c in claims:
            # Claims are frozen dataclasses shared with the runner: the trial is swapped in place.
            object.__setattr__(known[c], "trial", attributed(c, originals[c]))
        with recorders_planted(defects):
            clear_claim_caches()
            result = runner.run(list(claims), profile=profile, seed=seed, jobs=1, store=store, quiet=True)
    finally:
        for c in claims:
            object.__setattr__(known[c], "trial", originals[c])
        clear_claim_caches()
        _HITS.clear()  # the decisions' calls: not a trial's
    return Reach({c: sorted(h) for c, h in hits.items()},
                 {o.claim.id: o.verdict.verdict for o in result.outcomes},
                 sorted(set().union(*(targets(d) for d in defects))))
