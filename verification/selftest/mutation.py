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
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from verification import catalog, runner
from verification.selftest.defects import Defect

__all__ = ["ERROR", "DefectOutcome", "MutationCampaign", "mutation_campaign", "table_markdown"]

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
    """

    name: str
    verdicts: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    elapsed_s: float = 0.0

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

    @property
    def mutation_score(self) -> float:
        """Share of the defects that some claim flags (``nan`` without defects)."""
        if not self.outcomes:
            return float("nan")
        return sum(bool(o.differing()) for o in self.outcomes) / len(self.outcomes)

    @property
    def gaps(self) -> list[str]:
        """The defects no claim flags."""
        return [o.name for o in self.outcomes if not o.differing()]

    def defects_json(self) -> list[dict]:
        """The ``"defects"`` entries of ``selftest.json``."""
        control_differs = set(self.control.differing())
        out = []
        for defect, outcome in zip(self.defects, self.outcomes, strict=True):
            flagged = outcome.differing()
            out.append({
                **defect.to_json(),
                "flagged_by": flagged,
                "flagged_by_beyond_control": [
                    c for c in flagged
                    if c not in control_differs or outcome.verdicts[c] != self.control.verdicts[c]],
                "verdicts": outcome.verdicts,
                "errors": outcome.errors,
                "elapsed_s": outcome.elapsed_s,
            })
        return out


def _run_defect(name: str | None, claims: Sequence[str], *, profile: str, seed: int, jobs: int,
                scheduler: str | None, store: Path, quiet: bool) -> DefectOutcome:
    """One defect (None: the control) over ``claims``; a raising run is retried claim by claim
    so that the claim that raised is the one recorded."""
    start = time.perf_counter()
    kwargs = {"profile": profile, "seed": seed, "jobs": jobs, "scheduler": scheduler,
              "store": store, "quiet": quiet, "defect": name}
    try:
        result = runner.run(list(claims), **kwargs)
        verdicts = {o.claim.id: o.verdict.verdict for o in result.outcomes}
        errors: dict[str, str] = {}
    except Exception:
        verdicts, errors = {}, {}
        for claim_id in claims:
            try:
                # Alone, the claim gets the whole false-alarm budget: its verdict is recorded
                # only to say which claim raised and which did not.
                result = runner.run([claim_id], **kwargs)
                verdicts[claim_id] = result.outcomes[0].verdict.verdict
            except Exception as error:
                verdicts[claim_id] = ERROR
                errors[claim_id] = f"{type(error).__name__}: {' '.join(str(error).split())}"[:500]
    return DefectOutcome(name or "control", verdicts, errors, time.perf_counter() - start)


def mutation_campaign(defects: Sequence[Defect], *, workdir: str | Path, profile: str = "quick",
                      seed: int = 0, claims: Sequence[str] | None = None, jobs: int = 1,
                      scheduler: str | None = None, quiet: bool = True) -> MutationCampaign:
    """Run ``claims`` once without a defect and once with each of ``defects``.

    Parameters
    ----------
    defects : sequence of Defect
        The defects to plant, one run each.
    workdir : path
        An existing directory for the stores (``seed-<seed>.sqlite``, ``<defect>.sqlite``); a
        campaign started again with the same directory resumes where it stopped.
    profile : {"smoke", "quick", "full"}, default="quick"
    seed : int, default=0
        Master seed of every run.
    claims : sequence of str, optional
        Claim ids; default the whole catalog.
    jobs : int, default=1
        Local worker processes per run.
    scheduler : str, optional
        A Dask scheduler address instead of local workers.
    quiet : bool, default=True
        No progress bars.

    Returns
    -------
    MutationCampaign
    """
    workdir = Path(workdir)
    if not workdir.is_dir():
        raise ValueError(f"workdir must be an existing directory, got {str(workdir)!r}")
    if profile not in catalog.PROFILES:
        raise ValueError(f"profile must be one of {catalog.PROFILES}, got {profile!r}")
    everything = catalog.load()
    claims = list(everything) if not claims else list(dict.fromkeys(claims))
    unknown = [c for c in claims if c not in everything]
    if unknown:
        raise ValueError(f"claims: unknown claim id {unknown[0]!r} (iln-verify list shows the catalog)")
    for d in defects:
        if not isinstance(d, Defect):
            raise TypeError(f"defects must hold Defect objects, got {type(d).__name__}")
    start = time.perf_counter()
    common = {"profile": profile, "seed": seed, "jobs": jobs, "scheduler": scheduler, "quiet": quiet}
    # The control is the false-alarm campaign's run of the same seed: one store serves both.
    control = _run_defect(None, claims, store=workdir / f"seed-{seed}.sqlite", **common)
    outcomes = [_run_defect(d.name, claims, store=workdir / f"{d.name}.sqlite", **common)
                for d in defects]
    return MutationCampaign(list(defects), outcomes, control, claims, profile, seed,
                            time.perf_counter() - start)


def table_markdown(campaign: MutationCampaign) -> str:
    """The defect-by-claim table: a cell names the verdict of a claim that flags the defect."""
    claims = campaign.claims
    lines = ["| defect | flagged by | " + " | ".join(f"`{c}`" for c in claims) + " |",
             "|---|--:|" + "---|" * len(claims)]
    for outcome in campaign.outcomes:
        flagged = set(outcome.differing())
        cells = [outcome.verdicts[c] if c in flagged else "" for c in claims]
        lines.append(f"| `{outcome.name}` | {len(flagged)} | " + " | ".join(cells) + " |")
    score = campaign.mutation_score
    gaps = ", ".join(f"`{g}`" for g in campaign.gaps) or "none"
    lines += ["", f"Mutation score: {score:.3f} ({len(campaign.outcomes) - len(campaign.gaps)} of "
              f"{len(campaign.outcomes)} defects flagged; profile {campaign.profile}, seed "
              f"{campaign.seed}). Gaps (flagged by no claim): {gaps}."]
    return "\n".join(lines) + "\n"
