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

The calls of a claim's trials are a function of the trials, so the reach is kept beside the
control's store, each claim's under the key of the trials it was recorded with
(:func:`recorded_reach`): while the store holds the claim's trials under that key for the
code as it is now (:mod:`verification.incremental`), its reach holds too, and after an edit
only the claims whose trials reach it run again under the recorders.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import inspect
import json
import os
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from verification import catalog, incremental, runner
from verification.selftest.defects import Defect
from verification.selftest.injection import (
    CodeEdit,
    CompiledModuleEdit,
    clear_claim_caches,
    python_function,
    swap_code,
)
from verification.store import Store
from verification.verdicts import ERROR

__all__ = ["Reach", "hit", "reach_run", "recorded_reach", "recorders_planted", "stored_reach", "targets"]

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
        # The runner's trace finds the kernels a function names by their ``py_func``
        # (verification.reach): the recorder must not hide the kernel from it.
        call.py_func = getattr(kernel, "py_func", None)
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
    """Which recorded functions each claim's trials call.

    Attributes
    ----------
    hits : dict of str to list of str
        Claim id to the edited functions its trials called; only the claims whose every trial
        ran under the recorders are keys.
    verdicts : dict of str to str
        The verdicts of the run that recorded them (the unmodified code, the mutation seed),
        where known.
    recorded : dict of str to list of str
        Claim id to the functions that had a recorder while its trials ran: a defect editing
        any other function is not covered for that claim (:meth:`unreached`).
    """

    hits: dict[str, list[str]]
    verdicts: dict[str, str]
    recorded: dict[str, list[str]]

    def covers(self, defect: Defect, claim: str | None = None) -> bool:
        """Whether the reach of ``claim`` (default: of every claim) is known, with a recorder
        in every function the defect edits."""
        claims = list(self.hits) if claim is None else [claim]
        return all(c in self.hits and targets(defect) <= set(self.recorded.get(c, ())) for c in claims)

    def claims_reached(self, defect: Defect) -> list[str]:
        """The claims whose trials call a function the defect edits (``ValueError`` if the
        reach does not cover the defect)."""
        if not self.covers(defect):
            missing = set().union(*(targets(defect) - set(r) for r in self.recorded.values()))
            raise ValueError(f"defect: the reach run had no recorder in {sorted(missing)}")
        edited = targets(defect)
        return [c for c, h in self.hits.items() if edited & set(h)]

    def unreached(self, defect: Defect, claims: Sequence[str]) -> list[str]:
        """The claims of ``claims`` known to call no function the defect edits: their trials
        with the defect planted are those of the unmodified code."""
        edited = targets(defect)
        return [c for c in claims if self.covers(defect, c) and not edited & set(self.hits[c])]


def _clean_key(db: Store, claim: str, profile: str, seed: int) -> str | None:
    """The key of the claim's trials of the unmodified code in ``db``, computed by the code as
    it is now (None: none stored)."""
    return incremental.stored_trial_key(db, claim, runner.trials_key(catalog.get(claim).config(profile)), seed,
                                        profile)


def _fresh(claims: Sequence[str], *, profile: str, seed: int, store: Path) -> list[str]:
    """The claims of which ``store`` holds no trial for the code as it is now: a run computes
    every one of their trials."""
    if not Path(store).exists():
        return list(claims)
    with Store(store) as db:
        return [c for c in claims if _clean_key(db, c, profile, seed) is None]


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
        The run's store.  A claim whose trials it holds for the code as it is now is not run
        again, so its calls go unnoticed: it has no entry in the reach's ``hits``, nor has a
        claim whose trials raised.

    Returns
    -------
    Reach
    """
    store = Path(store)
    fresh = set(_fresh(claims, profile=profile, seed=seed, store=store))
    known = catalog.load()
    hits: dict[str, set[str]] = {c: set() for c in claims}
    current: list[str | None] = [None]
    originals = {c: known[c].trial for c in claims}

    def attributed(claim_id, trial):
        # Wrapped: the runner keys the trials by the module of the trial it wraps.
        @functools.wraps(trial)
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
    verdicts = {o.claim.id: o.verdict.verdict for o in result.outcomes}
    complete = [c for c in claims if c in fresh and verdicts[c] != ERROR]
    recorded = sorted(set().union(*(targets(d) for d in defects)))
    return Reach({c: sorted(hits[c]) for c in complete}, verdicts, dict.fromkeys(complete, recorded))


def _log_path(store: Path) -> Path:
    return Path(store).with_name(Path(store).stem + "-reach.json")


def _logged(store: Path) -> dict:
    """The reach log beside ``store``: by ``"seed/profile"``, claim id to ``{"trial_key",
    "hits", "recorded"}`` (an unreadable log is treated as empty)."""
    try:
        log = json.loads(_log_path(store).read_text())
    except (OSError, ValueError):
        log = {}
    return log if isinstance(log, dict) else {}


def stored_reach(claims: Sequence[str], *, profile: str, seed: int, store: Path) -> Reach:
    """The reach logged beside ``store`` of the claims whose trials it holds for the code as
    it is now are those the reach was recorded with (the same trial key): the same trials, so
    the same calls.  The other claims have no entry."""
    section = _logged(store).get(f"{seed}/{profile}", {})
    hits, recorded = {}, {}
    if Path(store).exists():
        with Store(store) as db:
            for c in claims:
                key = _clean_key(db, c, profile, seed)
                entry = section.get(c)
                if key is not None and isinstance(entry, dict) and entry.get("trial_key") == key:
                    hits[c], recorded[c] = entry["hits"], entry["recorded"]
    return Reach(hits, {}, recorded)


def recorded_reach(defects: Sequence[Defect], claims: Sequence[str], *, profile: str, seed: int,
                   store: Path, scratch: Path) -> tuple[Reach, list[str]]:
    """The reach of every claim, recorded again only for the claims whose trials the log
    beside ``store`` has no reach of (:func:`stored_reach`): after an edit, the claims whose
    trials reach it.

    Parameters
    ----------
    defects, claims, profile, seed
        As in :func:`reach_run`.
    store : path
        The control's store, kept from run to run: the claims without a logged reach run
        into it, under the recorders (:func:`reach_run`).
    scratch : path
        A store for the claims whose trials ``store`` holds without a logged reach (a run
        stopped before its log was written): their trials run again there, under the
        recorders.  It is deleted before and after.

    Returns
    -------
    Reach
        With ``verdicts`` empty: the claims recorded are decided as a family of their own,
        not the campaign's.
    list of str
        The claims whose trials ran under the recorders.
    """
    store = Path(store)
    known = stored_reach(claims, profile=profile, seed=seed, store=store)
    stale = [c for c in claims if c not in known.hits]
    hits, recorded = dict(known.hits), dict(known.recorded)
    if stale:
        fresh = _fresh(stale, profile=profile, seed=seed, store=store)
        found = [reach_run(defects, fresh, profile=profile, seed=seed, store=store)] if fresh else []
        again = [c for c in stale if c not in fresh]
        if again:
            _remove(scratch)
            try:
                found.append(reach_run(defects, again, profile=profile, seed=seed, store=scratch))
            finally:
                _remove(scratch)
        log = _logged(store)
        section = log.setdefault(f"{seed}/{profile}", {})
        with Store(store) as db:
            for run in found:
                for c in run.hits:
                    key = _clean_key(db, c, profile, seed)
                    if key is None:
                        continue  # a scratch run's claim whose store lost its trials meanwhile
                    hits[c], recorded[c] = run.hits[c], run.recorded[c]
                    section[c] = {"trial_key": key, "hits": run.hits[c], "recorded": run.recorded[c]}
        # Written whole, then renamed: a run killed while writing leaves the last log.
        path = _log_path(store)
        path.with_name(path.name + ".tmp").write_text(json.dumps(log, indent=1, sort_keys=True))
        os.replace(path.with_name(path.name + ".tmp"), path)
    return Reach(hits, {}, recorded), stale


def _remove(store: Path) -> None:
    for leftover in Path(store).parent.glob(Path(store).name + "*"):
        leftover.unlink()
