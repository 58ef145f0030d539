"""Which claims flag each planted defect: the mutation campaign.

For each defect of :mod:`verification.selftest.defects` the runner runs the selected claims
with the defect planted in this process and in every worker (``runner.run(defect=...)``),
into a store of the defect's own.  A claim *flags* the defect when its verdict differs from
its expected verdict; a trial that raises under the defect also flags it (the check stopped
instead of passing).  A defect that no claim flags is a *gap* of the catalog: it is reported,
never dropped.  The mutation score is the share of defects flagged.

A control run with the same seed and profile and no defect comes first: a claim that already
differs there flags nothing by itself, and each defect also lists the claims whose verdict
differs from both the expected one and the control's.

With the reach of the control run (:mod:`verification.selftest.reach`), a defect's run runs
only the trials of the claims that reach the code it edits; the others' trials are the
control's, copied into the defect's store, and every claim is decided with the defect planted.

A defect's store is kept from run to run: the runner keys each claim's trials under the
defect by the defect's identity (its name and the digest of its edits) and by the code the
trials reach, traced with the defect planted (:mod:`verification.incremental`).  After an
edit, only the claims whose trials reach it run again (or are copied again from the
control), and a claim is decided again only when its records or its decision's code changed
(:mod:`verification.stored_decisions`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from verification import catalog, incremental, runner
from verification.selftest import defects as defects_catalog
from verification.selftest.defects import Defect
from verification.selftest.reach import Reach

__all__ = ["ERROR", "DefectOutcome", "MutationCampaign", "check_campaign", "copy_control_trials",
           "mutation_campaign", "run_defect"]

#: the verdict recorded for a claim whose trials or decision raised.
ERROR = "error"


@dataclass(frozen=True)
class DefectOutcome:
    """The claims' verdicts with one defect planted (or none, for the control).

    Attributes
    ----------
    name : str
        The defect, or ``"control"``.
    verdicts : dict of str to str
        Claim id to verdict (:data:`ERROR` when its trials raised).
    errors : dict of str to str
        Claim id to the one-line error of a claim that raised.
    elapsed_s : float
        Wall-clock seconds of the defect's runs.
    copied : list of str
        Claims whose trials are the control's (they never reach the defect), copied by this
        run or an earlier one.
    reuse : dict of str to str
        Claim id to the runner's note on its stored trials (reused, resumed, or why they ran
        again: :mod:`verification.incremental`), or to ``"copied from the control: ..."`` for
        the trials this run copied.
    trial_s : dict of str to float
        Claim id to the seconds of the trials its verdict used, in this run's store (the
        runner's ``meta["trial_s"]``; computed by this run or an earlier one), for the claims
        whose trials this run's store holds as its own: a change that only a claim's trials
        reach runs them again.  Not for the claims whose trials are the control's, nor for
        those whose trials raised (:data:`ERROR`); None when not recorded (a unit stored by a
        version that did not record it).
    """

    name: str
    verdicts: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    elapsed_s: float = 0.0
    copied: list[str] = field(default_factory=list)
    reuse: dict[str, str] = field(default_factory=dict)
    trial_s: dict[str, float] | None = None

    def differing(self) -> list[str]:
        """Claims whose verdict differs from the expected one."""
        claims = catalog.load()
        return [c for c, v in self.verdicts.items() if v != claims[c].expected]


@dataclass(frozen=True)
class MutationCampaign:
    """The outcome of :func:`mutation_campaign`.

    Attributes
    ----------
    defects : list of Defect
    outcomes : list of DefectOutcome
        One per defect, in the same order.
    control : DefectOutcome
        The run without a defect.
    claims : list of str
        The claims run.
    profile : str
    seed : int
    elapsed_s : float
    """

    defects: list[Defect]
    outcomes: list[DefectOutcome]
    control: DefectOutcome
    claims: list[str]
    profile: str
    seed: int
    elapsed_s: float

    #: the claims whose clean verdict is stable over the false-alarm seeds (None: all): only
    #: they can flag a defect, since an unstable claim's verdict changes without one.
    stable: frozenset[str] | None = None

    def flagging(self, outcome: DefectOutcome) -> list[str]:
        """The stable claims whose verdict differs from the expected one under ``outcome``'s defect."""
        return [c for c in outcome.differing() if self.stable is None or c in self.stable]

    @property
    def mutation_score(self) -> float:
        """Share of the defects that some stable claim flags (``nan`` without defects)."""
        if not self.outcomes:
            return float("nan")
        return sum(bool(self.flagging(o)) for o in self.outcomes) / len(self.outcomes)

    @property
    def gaps(self) -> list[str]:
        """The defects no stable claim flags."""
        return [o.name for o in self.outcomes if not self.flagging(o)]

    def defects_json(self) -> list[dict]:
        """The ``"defects"`` entries of ``selftest.json``."""
        control_differs = set(self.control.differing())
        out = []
        for defect, outcome in zip(self.defects, self.outcomes, strict=True):
            flagged = self.flagging(outcome)
            out.append({
                **defect.to_json(),
                "flagged_by": flagged,
                "differs_but_unstable": [c for c in outcome.differing() if c not in flagged],
                "flagged_by_beyond_control": [
                    c for c in flagged
                    if c not in control_differs or outcome.verdicts[c] != self.control.verdicts[c]],
                "verdicts": outcome.verdicts,
                "errors": outcome.errors,
                "elapsed_s": outcome.elapsed_s,
                "trials_run_for": [c for c in self.claims if c not in outcome.copied],
                "trials_copied_from_control": outcome.copied,
                "reuse": outcome.reuse,
                "trial_s": outcome.trial_s,
            })
        return out


def copy_control_trials(claims: Sequence[str], defect: Defect, *, profile: str, seed: int,
                        control: Path, store: Path) -> list[str]:
    """Store the control run's trials of ``claims`` as the trials of ``defect``'s run, unless
    the defect's store holds the claim's trials for the code as it is now already.

    A copied claim's trials are keyed by the code state the control's trials were computed
    by (:func:`verification.incremental.copy_trials`), so a later run of the defect reuses
    them while that code is unchanged.

    Parameters
    ----------
    claims : sequence of str
        Claims whose trials never reach the defect (:meth:`Reach.unreached`).
    defect : Defect
    profile : str
    seed : int
    control : path
        The store holding the control run's trials (unmodified code, the same seed).
    store : path
        The defect's store.

    Returns
    -------
    list of str
        The claims whose trials were copied now.
    """
    from verification.store import Store

    copied = []
    with Store(control) as source, Store(store) as target:
        for c in claims:
            config = catalog.get(c).config(profile)
            as_hash = runner.trials_key(config, defect.identity)
            if incremental.current_state(target, c, as_hash, seed, profile) is not None:
                continue  # stored already (copied or run under the defect) for this code
            try:
                incremental.copy_trials(source, target, c, runner.trials_key(config), as_hash, seed, profile)
            except ValueError:
                raise ValueError(f"control: {control} lacks trials of {c} (run the control first)") from None
            copied.append(c)
    return copied


def run_defect(name: str | None, claims: Sequence[str], *, profile: str, seed: int, jobs: int,
               scheduler: str | None, store: Path, quiet: bool, reach: Reach | None = None,
               control: Path | None = None, alpha: float = runner.DEFAULT_ALPHA) -> DefectOutcome:
    """One defect (None: the control) over ``claims``; a raising run is retried claim by claim
    so that the claim that raised is the one recorded.

    The runner keys the defect's trials by the defect's identity and by the code they reach
    (``runner.run(defect=...)``), so a store kept from an earlier run is reused for every
    claim whose reached code and whose defect are unchanged.  With ``reach`` and ``control``
    (the control's store), the trials of the claims that do not reach the defect
    (:meth:`Reach.unreached`) are copied from the control instead of run.  ``alpha`` is the
    runs' family-wise alpha.
    """
    copied: list[str] = []
    copied_now: list[str] = []
    start = time.perf_counter()
    defect = defects_catalog.get(name) if name is not None else None
    if defect is not None and reach is not None and control is not None:
        copied = reach.unreached(defect, claims)
        Path(store).parent.mkdir(parents=True, exist_ok=True)
        copied_now = copy_control_trials(copied, defect, profile=profile, seed=seed, control=control,
                                         store=store)
    kwargs = {"profile": profile, "seed": seed, "jobs": jobs, "scheduler": scheduler,
              "store": store, "quiet": quiet, "defect": defect, "alpha": alpha}
    reuse: dict[str, str] = {}
    trial_s: dict[str, float] = {}
    try:
        result = runner.run(list(claims), **kwargs)
        verdicts = {o.claim.id: o.verdict.verdict for o in result.outcomes}
        reuse.update(result.meta["reuse"])
        trial_s.update(result.meta["trial_s"])
        errors: dict[str, str] = {}
    except runner.RUN_ERRORS:
        raise  # the campaign's fault (its store, an edit under it), not the defect's
    except Exception:
        verdicts, errors = {}, {}
        for claim_id in claims:
            try:
                # Alone, the claim gets the whole false-alarm budget: its verdict is recorded
                # only to say which claim raised and which did not.
                result = runner.run([claim_id], **kwargs)
                verdicts[claim_id] = result.outcomes[0].verdict.verdict
                reuse.update(result.meta["reuse"])
                trial_s.update(result.meta["trial_s"])
            except runner.RUN_ERRORS:
                raise
            except Exception as error:
                verdicts[claim_id] = ERROR
                errors[claim_id] = f"{type(error).__name__}: {' '.join(str(error).split())}"[:500]
    # The runner found the copies stored: say where they came from.
    reuse.update({c: "copied from the control: the claim's trials call none of the defect's code"
                  for c in copied_now})
    # The copies' time is the control's: a change reaching them runs them there.
    trial_s = {c: t for c, t in trial_s.items() if c not in copied}
    return DefectOutcome(name or "control", verdicts, errors, time.perf_counter() - start, copied, reuse,
                         trial_s)


def check_campaign(workdir: str | Path, claims: Sequence[str] | None) -> tuple[Path, list[str]]:
    """A campaign's store directory, which must exist, and its claims: ``claims`` in order
    without repeats, the whole catalog when none are given; an unknown claim id is refused."""
    workdir = Path(workdir)
    if not workdir.is_dir():
        raise ValueError(f"workdir must be an existing directory, got {str(workdir)!r}")
    everything = catalog.load()
    claims = list(everything) if not claims else list(dict.fromkeys(claims))
    unknown = [c for c in claims if c not in everything]
    if unknown:
        raise ValueError(f"claims: unknown claim id {unknown[0]!r} (iln-verify list shows the catalog)")
    return workdir, claims


def mutation_campaign(defects: Sequence[Defect], *, workdir: str | Path, profile: str = "quick",
                      seed: int = 0, claims: Sequence[str] | None = None, jobs: int = 1,
                      scheduler: str | None = None, quiet: bool = True) -> MutationCampaign:
    """Run ``claims`` once without a defect and once with each of ``defects``.

    Parameters
    ----------
    defects : sequence of Defect
        The defects to plant, one run each.
    seed : int, default=0
        Master seed of every run.
    workdir, profile, claims, jobs, scheduler, quiet
        As in :func:`verification.selftest.false_alarms.false_alarm_campaign`; the stores are
        ``seed-<seed>.sqlite`` (the control) and ``<defect>.sqlite``.

    Returns
    -------
    MutationCampaign
    """
    workdir, claims = check_campaign(workdir, claims)
    if profile not in catalog.PROFILES:
        raise ValueError(f"profile must be one of {catalog.PROFILES}, got {profile!r}")
    for d in defects:
        if not isinstance(d, Defect):
            raise TypeError(f"defects must hold Defect objects, got {type(d).__name__}")
    start = time.perf_counter()
    common = {"profile": profile, "seed": seed, "jobs": jobs, "scheduler": scheduler, "quiet": quiet}
    # The control is the false-alarm campaign's run of the same seed: one store serves both.
    control = run_defect(None, claims, store=workdir / f"seed-{seed}.sqlite", **common)
    outcomes = [run_defect(d.name, claims, store=workdir / f"{d.name}.sqlite", **common)
                for d in defects]
    return MutationCampaign(list(defects), outcomes, control, claims, profile, seed,
                            time.perf_counter() - start)
