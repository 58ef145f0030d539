"""Stored decisions: a claim is decided again only when what its verdict depends on changed.

A claim's decision (:attr:`verification.catalog.Claim.decide`) is a pure function of its
records, its configuration, the level it is given and the code it runs.  A run whose trials
are all stored used to decide every claim again all the same, and after an edit the
self-test's hundreds of units did: deciding was most of what a change to one claim cost
(issue 19).  So each verdict a decision returns is saved in the store (its ``decisions``
table) under

- the claim and its configuration hash, a planted change's identity included
  (:func:`verification.runner.trials_key`);
- the digest of the records decided (:meth:`verification.store.Store.records_digest`, read
  from the stored text without decoding a record);
- the level, exactly (``repr`` of the float);
- a code state: every unit of ``iln/`` and ``verification/`` the decision was traced running
  (:mod:`verification.reach`), the module code of every module those import (a constant
  imported by name is read without any function of its module running), each module of the
  user's that ran (a paper of one's own: its whole source), with their digests, and the
  package versions.

A later decision with the same claim, configuration, records and level reuses the saved
verdict when one of its code states matches the code as it is now (same digest for each
unit, same versions); otherwise it is computed, traced, and saved beside the others.  The
records, not the trial key, are in the key: trials run again after an edit to their code that
leaves their numbers unchanged give the same records, and their decision is reused.

Tracing.  A computed decision is traced in a context of its own, so the caches of the claim
modules and of the rules (:func:`verification.reach.clear_claim_caches`) are cleared first and
the decision is seen computing what it would otherwise read from them.  Tracing slows a
decision down (a quick profile's decisions took 6.5 s of CPU traced against 3 s, measured on
2 shared cores, 2026-11-25); it is paid once per decision.  A decision whose code names a
clock (:data:`verification.reach.CLOCKS`: ``time.time``, ``perf_counter``, ``datetime.now``,
...), or whose verdict is not JSON, is not saved; nor is one that raises (the runner gives its
error verdict, and the next run decides again).  A clock read without being named (a C
function handed over as a value) is not seen: no decision of the catalog reads one.

The index of the code is read from disk, but a decision runs the code this process imported:
a run refuses to start when an imported module changed on disk since
(:func:`verification.fingerprint.check_not_stale`), so no decision is saved under code it did
not run.

A reused verdict equals the computed one field for field once written (:meth:`Verdict.to_json`):
its numbers round-trip exactly, non-finite ones included; a tuple in ``details`` comes back a
list.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from verification import fingerprint, reach
from verification.catalog import Claim
from verification.fingerprint import CodeIndex
from verification.store import RecordsDigest, Store, StoredDecision
from verification.verdicts import Verdict

__all__ = ["Decisions"]

#: every decision computed in this process traces in a context of its own (see the module).
_CALLS = itertools.count()


def _as_json(verdict: Verdict) -> dict[str, Any]:
    return dataclasses.asdict(verdict)


def _from_json(data: Mapping[str, Any]) -> Verdict:
    # Verdict.from_json reads the fields of decisions saved before a field was renamed.
    return Verdict.from_json(dict(data))


class Decisions:
    """The decisions of one run of one seed and profile: reused from the store when saved for
    the code as it is now, else computed (traced) and saved.

    Parameters
    ----------
    db : Store
        The run's store (its trials and its decisions).
    seed : int
    profile : str
    index : CodeIndex, optional
        The code now; default the code on disk.

    Attributes
    ----------
    reused, computed : collections.Counter
        Per claim id, how many decisions were read from the store and how many were computed.
    """

    def __init__(self, db: Store, seed: int, profile: str, index: CodeIndex | None = None) -> None:
        self._db, self._seed, self._profile = db, seed, profile
        self._index = fingerprint.current_index() if index is None else index
        self._versions = fingerprint.versions()
        self._digests: dict[tuple[str, str, int], RecordsDigest] = {}
        self._records: dict[tuple[str, str], dict] = {}
        self.reused: Counter[str] = Counter()
        self.computed: Counter[str] = Counter()

    def records_digest(self, claim_id: str, trial_key: str, n: int) -> RecordsDigest:
        """The digest, count and seconds of the first ``n`` stored trials of the key (read once
        per run)."""
        key = (claim_id, trial_key, n)
        if key not in self._digests:
            self._digests[key] = self._db.records_digest(self._seed, self._profile, claim_id, trial_key, n)
        return self._digests[key]

    def _stored(self, claim: Claim, config_hash: str, records: str, level: str) -> Verdict | None:
        for saved in self._db.decisions(claim.id, config_hash, records, level):
            if saved.versions == self._versions and fingerprint.state_now(saved.units, self._index) == saved.units:
                return _from_json(saved.verdict)
        return None

    def _records_of(self, claim_id: str, trial_key: str, n: int) -> list[dict]:
        rows = self._records.get((claim_id, trial_key))
        if rows is None or not set(range(n)) <= set(rows):
            rows = self._records[(claim_id, trial_key)] = self._db.existing_trials(
                self._seed, self._profile, claim_id, trial_key)
        if not set(range(n)) <= set(rows):
            raise RuntimeError(f"claim {claim_id}: the store holds {len(rows)} of {n} trials")
        return [rows[i].record for i in range(n)]

    def decide(self, claim: Claim, config: dict, config_hash: str, trial_key: str, n: int, level: float,
               records: Sequence[dict] | None = None) -> Verdict:
        """The claim's verdict on its first ``n`` stored trials of ``trial_key`` at ``level``.

        Parameters
        ----------
        claim : Claim
        config : dict
            The configuration the trials ran with.
        config_hash : str
            Its hash (:func:`verification.runner.trials_key`).
        trial_key : str
            Where the trials are stored.
        n : int
            How many trials the verdict uses (a sequential claim's stopping point).
        level : float
        records : sequence of dict, optional
            The first ``n`` records, when the caller holds them decoded; else they are read
            from the store if the decision has to be computed.

        Raises
        ------
        Exception
            Whatever the decision raises (nothing is saved then).
        """
        digest = self.records_digest(claim.id, trial_key, n)
        level_text = repr(float(level))
        verdict = self._stored(claim, config_hash, digest.digest, level_text)
        if verdict is not None:
            self.reused[claim.id] += 1
            return verdict
        decided = list(records) if records is not None else self._records_of(claim.id, trial_key, n)
        with reach.traced(("decision", next(_CALLS))) as recorder:
            verdict = claim.decide(decided, config, level)
        self.computed[claim.id] += 1
        reached = reach.units_reached(recorder.functions(), self._index)
        decide_unit = reach.unit_of_function(claim.decide, self._index)
        # A decision that reads a clock is not saved, nor one whose trace missed the decision
        # function itself (it cannot say what the decision ran).
        if not recorder.reads_clock() and (decide_unit is None or decide_unit in reached):
            # A user's module that ran (a paper of one's own) is keyed by its whole source; the
            # decision's own module always, wherever it is installed.
            own = fingerprint.users_module_units(getattr(claim.decide, "__module__", None) or "?")
            units = fingerprint.state_now(reached | own, self._index)
            # A verdict that is not JSON (a numpy integer in its details) is decided each time.
            with contextlib.suppress(TypeError):
                self._db.save_decision(StoredDecision(
                    claim.id, config_hash, digest.digest, level_text, fingerprint.code_id(units, self._versions),
                    units, self._versions, _as_json(verdict)))
        return verdict

    def note(self, claim_id: str) -> str:
        """How the run decided the claim, for the run's ``reuse`` notes."""
        reused, computed = self.reused[claim_id], self.computed[claim_id]
        if computed and not reused:
            return "decided"
        if reused and not computed:
            return "decision reused"
        return f"{reused} decisions reused, {computed} computed" if reused or computed else "not decided"
