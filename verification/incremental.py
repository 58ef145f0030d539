"""Incremental runs: which stored trials a run reuses, and why the others run again.

A claim's trials are stored under a *trial key*: its configuration hash and the id of a code
state (:mod:`verification.fingerprint`).  A run reuses the trials of a key when one of the
code states saved for that key (same seed, profile, claim and configuration) has, in the code
as it is now, the same digest for each of its units and the same package versions.  Otherwise
the claim's trials run again, under a new key, and the run says what changed.

The first run of a claim saves a *conservative* code state: every unit of ``iln/``, of the
claim's module and of the engine modules they import (:func:`fingerprint.conservative_units`).
Its trials are traced (:mod:`verification.reach`, a batch's first trial standing for the batch);
once every trial of the key lies in a traced batch the run saves a second, *traced* code state for the same key, whose units are only those the
trials reached.  From then on an edit elsewhere leaves the claim's trials in use.  The reach is
kept per seed: another seed's trials may take branches this seed's never took.

Trials are a pure function of the configuration, the seed and the code they run, so a reused
trial is the trial that would be computed again (a test reruns everything and compares).

A planted change of the self-test (a defect, a statement mutant) is keyed the same way: its
identity, the change's name and the digest of its edits, is in the configuration hash
(:func:`verification.runner.trials_key`), and its trials are traced with the change planted,
the edited code named as the function it replaces.  :func:`copy_trials` stores the trials of
the unmodified code as a change's, under the code state they were computed by, for a claim
whose trials never reach the change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from verification import fingerprint, reach
from verification.catalog import Claim
from verification.fingerprint import CodeIndex
from verification.store import CodeState, Store

__all__ = ["TRACED", "Keying", "changed_since", "copy_trials", "current_state", "plan", "record_reach", "save_new_states",
           "stored_trial_key"]


#: :attr:`Keying.why` of a key matched by a traced code state (its reach is saved already).
TRACED = "traced reach"


@dataclass(frozen=True)
class Keying:
    """Where a run stores a claim's trials, and whether stored ones are reused.

    Attributes
    ----------
    trial_key : str
        The key the trials are stored and read under.
    matched : bool
        A saved code state of the key matches the code now: its stored trials are reused.
    why : str
        For a match, the code state's kind; otherwise why the trials run again.
    new_state : CodeState or None
        Without a match, the conservative code state that labels the new trials; the run saves
        it (:func:`save_new_states`) once it has read the store, so a damaged store is refused
        before anything is written.
    """

    trial_key: str
    matched: bool
    why: str
    new_state: CodeState | None = None


def _trial_key(config_hash: str, code_id: str) -> str:
    return f"{config_hash}@{code_id}"


def _matching(states: Sequence[CodeState], index: CodeIndex, versions: dict) -> CodeState | None:
    # A conservative state is a guess made before the trials ran; once their trace is saved
    # (a traced state of the same trial key), the trace says what they ran, and the guess no
    # longer stands for them: a guess that missed a unit (a trial swapped for a wrapper of
    # another module, as the self-test's reach recorders did) would match after an edit of it.
    # A key may hold several traced states: a sequential claim's run that stops later (at
    # another level: the run's Bonferroni share) adds trials to the key, and their reach in a
    # wider state.  The key's trials are reused only if every one of its traced states holds:
    # the narrower one would match after an edit that only the later trials reach.
    traced: dict[str, list[CodeState]] = {}
    for state in states:
        if state.traced:
            traced.setdefault(state.trial_key, []).append(state)

    def holds(state: CodeState) -> bool:
        return state.versions == versions and fingerprint.state_now(state.units, index) == state.units

    for state in states:
        if state.traced:
            if all(holds(s) for s in traced[state.trial_key]):
                return state
        elif state.trial_key not in traced and holds(state):
            return state
    return None


def current_state(db: Store, claim_id: str, config_hash: str, seed: int, profile: str) -> CodeState | None:
    """The saved code state of the claim's trials (this configuration, seed and profile) that
    matches the code as it is now, or None (nothing stored, or only trials of other code)."""
    states = db.code_states(claim_id, seed=seed, profile=profile, config_hash=config_hash)
    return _matching(states, fingerprint.current_index(), fingerprint.versions())


def stored_trial_key(db: Store, claim_id: str, config_hash: str, seed: int, profile: str) -> str | None:
    """The key under which ``db`` holds trials of the claim computed by the code as it is now,
    or None (nothing stored, or only trials of other code)."""
    state = current_state(db, claim_id, config_hash, seed, profile)
    return None if state is None else state.trial_key


def copy_trials(source: Store, target: Store, claim_id: str, config_hash: str, as_hash: str, seed: int,
                profile: str) -> int:
    """Store ``source``'s trials of a claim, computed by the code as it is now, in ``target``
    as trials of the configuration hash ``as_hash``, keyed by the same code state.

    The self-test stores the trials of a claim that never reaches a planted defect's code as
    the trials of the defect's run (:mod:`verification.selftest.mutation`): they are the
    trials the defect's run would compute.  Under the code state they were computed by, a
    later run reuses them for as long as the code they reach is unchanged.  The state is
    saved before the trials, as a run saves its own: a copy stopped part-way leaves a state
    whose missing trials the next run computes.

    Parameters
    ----------
    source, target : Store
    claim_id : str
    config_hash : str
        The trials' configuration hash in ``source``.
    as_hash : str
        Their configuration hash in ``target``.
    seed : int
    profile : str

    Returns
    -------
    int
        How many trials were copied: the first ones, indices 0, 1, ... without a gap (a
        sequential claim's run may stop before its budget; the target's run computes the
        rest).

    Raises
    ------
    ValueError
        ``source`` holds no trial 0 of the claim for the code as it is now.
    """
    state = current_state(source, claim_id, config_hash, seed, profile)
    rows = {} if state is None else source.existing_trials(seed, profile, claim_id, state.trial_key)
    first = 0
    while first in rows:
        first += 1
    if state is None or first == 0:
        raise ValueError(f"source: {source.path} holds no trials of {claim_id} for the code as it is now")
    key = _trial_key(as_hash, state.code_id)
    target.save_code_state(CodeState(seed, profile, claim_id, as_hash, state.code_id, key, state.units,
                                     state.versions, traced=state.traced))
    target.add_trials(seed, profile, claim_id, key, [(i, rows[i].record, rows[i].elapsed_s) for i in range(first)])
    return first


def _summary(changes: Sequence[str], shown: int = 3) -> str:
    more = len(changes) - shown
    return "; ".join(changes[:shown]) + (f"; and {more} more" if more > 0 else "")


def _why_changed(db: Store, claim: Claim, config_hash: str, seed: int, profile: str,
                 states: Sequence[CodeState], index: CodeIndex, versions: dict) -> str:
    if states:
        # The latest state is the most precise one known: its changes are the reason.
        latest = states[0]
        return _summary(fingerprint.changes(latest.units, fingerprint.state_now(latest.units, index), latest.versions,
                                            versions)) or "code changed"
    others = db.code_states(claim.id, seed=seed, profile=profile)
    if others:
        return "its configuration changed"
    return "no stored trials for this seed and profile"


def plan(db: Store, claims: Sequence[Claim], config_hashes: dict[str, str], seed: int, profile: str,
         index: CodeIndex | None = None) -> dict[str, Keying]:
    """The trial key of each claim of a run, with a conservative code state for the claims
    whose stored trials cannot be reused (not saved: see :func:`save_new_states`).

    Parameters
    ----------
    db : Store
    claims : sequence of Claim
    config_hashes : dict of str to str
        Each claim's configuration hash (:func:`verification.runner.trials_key`).
    seed : int
    profile : str
    index : CodeIndex, optional
        The code now; default the code on disk.

    Returns
    -------
    dict of str to Keying
        By claim id.
    """
    index = fingerprint.current_index() if index is None else index
    versions = fingerprint.versions()
    out = {}
    for claim in claims:
        h = config_hashes[claim.id]
        states = db.code_states(claim.id, seed=seed, profile=profile, config_hash=h)
        state = _matching(states, index, versions)
        if state is not None:
            out[claim.id] = Keying(state.trial_key, True, TRACED if state.traced else "conservative")
            continue
        why = _why_changed(db, claim, h, seed, profile, states, index, versions)
        try:
            units = index.state(fingerprint.conservative_units(claim, index))
        except ValueError:
            # A claim defined outside iln/ and verification/ (a test's, a paper of one's own):
            # all of the code index, and its trial's module by the digest of its source.
            units = {**index.state(index.digests),
                     **fingerprint.state_now(fingerprint.users_module_units(claim.trial.__module__), index)}
            why = f"{why}; its trial's module {claim.trial.__module__} is keyed by its source's digest"
        cid = fingerprint.code_id(units, versions)
        key = _trial_key(h, cid)
        out[claim.id] = Keying(key, False, why,
                               CodeState(seed, profile, claim.id, h, cid, key, units, versions, traced=False))
    return out


def save_new_states(db: Store, keys: Iterable[Keying]) -> None:
    """Save the conservative code states of :func:`plan`, so that a run killed part-way
    resumes under the same keys."""
    for keying in keys:
        if keying.new_state is not None:
            db.save_code_state(keying.new_state)


def record_reach(db: Store, claim: Claim, config_hash: str, keying: Keying, seed: int, profile: str,
                 n_trials: int, index: CodeIndex | None = None) -> bool:
    """Save the traced code state of a key once every one of its ``n_trials`` trials has been
    traced; returns whether one was saved (or already was).  A reach without the claim's trial
    function (a trace that saw none of its code) is not saved."""
    functions, traced = db.reach(seed, profile, claim.id, keying.trial_key)
    if traced < n_trials or not functions:
        return False
    index = fingerprint.current_index() if index is None else index
    versions = fingerprint.versions()
    # A trial module outside the packages (a user's, traced as such) is keyed by its whole
    # source, as the conservative state keys it.
    reached = reach.units_reached(functions, index)
    own = reach.unit_of_function(claim.trial, index)
    if own is not None and own not in reached:
        # The trace missed the trial itself: it cannot say what the trials ran, and the key
        # stays with its conservative state.
        return False
    units = fingerprint.state_now(reached | fingerprint.trial_entry_units(index)
                                  | fingerprint.users_module_units(claim.trial.__module__), index)
    cid = fingerprint.code_id(units, versions)
    known = db.code_states(claim.id, seed=seed, profile=profile, config_hash=config_hash)
    if not any(s.code_id == cid and s.traced for s in known):
        db.save_code_state(CodeState(seed, profile, claim.id, config_hash, cid, keying.trial_key,
                                     units, versions, traced=True))
    return True


def changed_since(db: Store, claims: Sequence[Claim], config_hashes: dict[str, str], seed: int,
                  profile: str, revision: str | None = None) -> dict[str, str]:
    """The claims whose code differs from that of their stored trials, or, with ``revision``,
    from the code at that git revision; each with what changed.

    With a revision, a claim's units are those of its latest traced code state in the store
    (any seed), else the conservative set; a unit that either version lacks counts as changed.

    Raises
    ------
    fingerprint.GitRevisionError
        ``revision`` cannot be read (outside a git checkout, an unknown revision).
    """
    index = fingerprint.current_index()
    versions = fingerprint.versions()
    out = {}
    if revision is None:
        for claim in claims:
            h = config_hashes[claim.id]
            states = db.code_states(claim.id, seed=seed, profile=profile, config_hash=h)
            if _matching(states, index, versions) is None:
                out[claim.id] = _why_changed(db, claim, h, seed, profile, states, index, versions)
        return out
    old = fingerprint.revision_index(revision)
    for claim in claims:
        traced = [s for s in db.code_states(claim.id, config_hash=config_hashes[claim.id]) if s.traced]
        units = set(traced[0].units) if traced else fingerprint.conservative_units(claim, index)
        found = fingerprint.changes(old.state(units), index.state(units))
        if found:
            out[claim.id] = _summary(found)
    return out
