"""The self-test campaign, unit by unit, resumable across sessions and machines.

The parts of the self-test (issues #8 and #18) are split into *units*: a test suite (the
faults, the bad-input fuzz), one master seed of the unmodified code (the false alarms; the
mutation seed's run is also the mutation campaign's control), one planted defect, one
statement mutant (:mod:`verification.selftest.statements`, run at the mutant's own profile), one
case of the null-boundary calibration (:mod:`verification.selftest.null_boundary`: a rule at a
claim's design on one law, every seed of the plan).  A unit's result goes
into ``selftest.json`` as soon as it is known (written whole, then renamed, so a killed
campaign leaves the last complete document).  Started again with the same ``out``, the
campaign reuses every stored unit whose code fingerprint
(:mod:`verification.selftest.fingerprint`), profile, claims and seed are those of the new
invocation, and computes the others again.

A unit computed again reuses the stored trials of every claim whose code is unchanged: every
run of a unit, a seed's, the control's, a planted defect's or a statement mutant's, keeps its
trials in a store shared by every version of the code (:attr:`Plan.trial_stores`), keyed by
claim, configuration (with the defect's or mutant's identity, its name and the digest of its
edits) and the code the trials reach (:mod:`verification.incremental`).  After an edit, the
trials of the claims whose trials reach it run again (the control's under the reach recorders,
:func:`verification.selftest.reach.recorded_reach`; a defect's with the defect planted, or
copied from the control for a claim that never calls the defect's code).  Every unit is run
again, since a verdict depends on the other claims' p-values (Holm's procedure), but within it
a claim is decided again only when its records, its level or the code its decision was traced
running changed (:mod:`verification.stored_decisions`); the others' decisions are read from
the unit's store.  The verdicts are those of a campaign run from scratch on the same code.
Within a unit the runner's store resumes trial by trial.

A time budget stops the campaign between units: the document then says ``"complete": false``
and lists the pending units, and every figure in it is computed over the finished units only
(the report says so).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from verification import catalog, provenance, runner
from verification.fingerprint import StaleCodeError
from verification.selftest import null_boundary, reach, statements, suites
from verification.selftest.defects import Defect
from verification.selftest.false_alarms import FalseAlarms, differing_verdicts
from verification.selftest.fingerprint import code_fingerprint
from verification.selftest.mutation import ERROR, DefectOutcome, MutationCampaign, run_defect

__all__ = ["PARTS", "Plan", "defect_store", "load_previous", "mutant_store", "run_campaign", "store_of", "write"]

#: the parts of the self-test, in the order their units run.
PARTS = ("faults", "bad_input", "defects", "false_alarms", "statement_mutants", "null_boundary")


@dataclass(frozen=True)
class Plan:
    """What a campaign runs.

    Attributes
    ----------
    defects : list of Defect
    seeds : list of int
        Master seeds of the false-alarm part.
    mutation_seed : int
        Master seed of every defect's run and of the control.
    profile : str
    claims : list of str
    parts : tuple of str
        A subset of :data:`PARTS`.
    jobs : int
    scheduler : str or None
    workdir : Path
        Scratch stores (the control's claims whose reach is recorded again).
    trial_stores : Path or None
        Where every run keeps its store, shared by every version of the code: the seeds'
        (``seed-<seed>.sqlite``, the control's being the mutation seed's), the defects'
        (``defects/<name>.sqlite``) and the statement mutants' (``mutants/<name>.sqlite``),
        with the control's reach beside its store.  The runner keys a claim's trials by the
        code they reach (:mod:`verification.incremental`), so a unit computed again after an
        edit runs only the trials of the claims the edit reaches.  None: ``workdir``.
    checkout : Path or None
        The repository root whose ``tests/`` the suites run (needed for the suites only).
    alpha : float
        The family-wise alpha of every run (a seed's stored trials do not depend on it).
    mutants : tuple of str
        Names of the statement mutants to run (those of the selected claims run).
    null_seeds : int
        Seeds ``0 .. null_seeds - 1`` of every case of the null-boundary part (all profiles,
        every rule, whatever ``profile`` and ``claims`` say: the part runs the rules, not the claims).
    """

    defects: list[Defect]
    seeds: list[int]
    mutation_seed: int
    profile: str
    claims: list[str]
    parts: tuple[str, ...] = PARTS
    jobs: int = 1
    scheduler: str | None = None
    workdir: Path = Path(".iln-verify") / "selftest"
    checkout: Path | None = None
    trial_stores: Path | None = None
    alpha: float = runner.DEFAULT_ALPHA
    mutants: tuple[str, ...] = ()
    null_seeds: int = null_boundary.SEEDS

    @property
    def runs_defects(self) -> bool:
        return "defects" in self.parts and bool(self.defects)

    def unit_ids(self) -> list[str]:
        """Every unit, in the order they run: suites, the control, defects, other seeds."""
        units = [f"suite:{p}" for p in ("faults", "bad_input") if p in self.parts]
        seeds = self.seeds if "false_alarms" in self.parts else []
        if self.runs_defects:
            units.append(f"seed:{self.mutation_seed}")
            units += [f"defect:{d.name}" for d in self.defects]
        if "statement_mutants" in self.parts:
            units += [f"mutant:{name}" for name in self.mutant_names()]
        units += [f"seed:{s}" for s in seeds if not (self.runs_defects and s == self.mutation_seed)]
        units += [f"null:{key}" for key in self.null_cases()]
        return units

    def null_cases(self) -> dict[str, null_boundary.Case]:
        """The null-boundary cases this plan runs, by key (none unless the part is selected)."""
        if "null_boundary" not in self.parts:
            return {}
        return {case.key: case for case in null_boundary.cases()}

    def mutant_names(self) -> list[str]:
        """The statement mutants this plan runs: those of :attr:`mutants` whose claim is selected."""
        chosen = set(self.mutants)
        return [m.name for m in statements.for_claims(self.claims) if m.name in chosen]


@dataclass
class _State:
    """The finished units of a campaign."""

    seeds: dict[int, dict] = field(default_factory=dict)  # seed -> {"verdicts", "elapsed_s"}
    defects: dict[str, DefectOutcome] = field(default_factory=dict)
    suites: dict[str, dict] = field(default_factory=dict)  # part -> SuiteOutcome.to_json()
    mutants: dict[str, dict] = field(default_factory=dict)  # name -> statements.run_mutant entry
    null: dict[str, dict] = field(default_factory=dict)  # case key -> null_boundary.run_case entry


def load_previous(out: Path) -> dict | None:
    """The document an earlier campaign wrote to ``out``, or None if there is none or it is
    unreadable (an unreadable document is not reused, and is overwritten)."""
    try:
        doc = json.loads(Path(out).read_text())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _reusable(previous: dict | None, plan: Plan, fingerprint: dict, suite_fp: dict | None) -> _State:
    state = _State()
    if not previous:
        return state
    meta = previous.get("meta", {})
    same_run = (previous.get("fingerprint", {}).get("sha256") == fingerprint["sha256"]
                and meta.get("profile") == plan.profile and meta.get("claims") == plan.claims
                and meta.get("alpha", runner.DEFAULT_ALPHA) == plan.alpha)
    if same_run:
        for seed, entry in previous.get("false_alarms", {}).get("per_seed", {}).items():
            state.seeds[int(seed)] = entry
        if meta.get("seed") == plan.mutation_seed:
            for d in previous.get("defects", []):
                state.defects[d["name"]] = DefectOutcome(d["name"], d["verdicts"], d.get("errors", {}),
                                                         d.get("elapsed_s", 0.0),
                                                         d.get("trials_copied_from_control", []),
                                                         d.get("reuse", {}), d.get("trial_s"))
    # A mutant's run does not depend on the campaign's profile (it has its own) nor on the
    # other claims selected: the code, the seed and alpha decide it.
    if (previous.get("fingerprint", {}).get("sha256") == fingerprint["sha256"]
            and meta.get("seed") == plan.mutation_seed
            and meta.get("alpha", runner.DEFAULT_ALPHA) == plan.alpha):
        for entries in (previous.get("statement_mutants") or {}).get("by_claim", {}).values():
            state.mutants.update((e["name"], e) for e in entries)
    # A null-boundary case depends on the code (its rules, the claims' configurations) and its
    # seeds only: a case stored for the same code and seeds is reused as it is.
    null = previous.get("null_boundary") or {}
    if previous.get("fingerprint", {}).get("sha256") == fingerprint["sha256"] \
            and null.get("seeds_per_case") == plan.null_seeds:
        for rule in null.get("by_rule", {}).values():
            state.null.update((e["key"], e) for e in rule["cases"])
    for part in ("faults", "bad_input"):
        entry = previous.get(part)
        if (suite_fp is not None and isinstance(entry, dict)
                and entry.get("fingerprint") == suite_fp["sha256"]):
            state.suites[part] = entry
    return state


def write(out: Path, doc: dict) -> None:
    """Write the document whole, then rename it over ``out``: a killed writer leaves the last one."""
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2, allow_nan=False))
    os.replace(tmp, out)


def _document(plan: Plan, state: _State, fingerprint: dict, pending: list[str], meta: dict) -> dict:
    known = catalog.load()
    # Only a plan that runs defects reports them (a defect stored by an earlier plan is not
    # one of this plan's units).
    done = [d for d in plan.defects if d.name in state.defects] if plan.runs_defects else []
    control = state.seeds.get(plan.mutation_seed)
    planned = plan.seeds if "false_alarms" in plan.parts else []
    finished = [s for s in planned if s in state.seeds]
    per_seed = {s: state.seeds[s]["verdicts"] for s in finished}
    mutants = [state.mutants[n] for n in plan.mutant_names() if n in state.mutants]
    # The control is a seed of the false alarms, or a unit of its own when only defects run.
    seed_units = sorted({*finished, *([plan.mutation_seed] if control and plan.runs_defects else [])})
    alarms = FalseAlarms(finished, plan.claims, differing_verdicts(per_seed), plan.profile,
                         sum(state.seeds[s]["elapsed_s"] for s in finished), alpha=plan.alpha)
    campaign = MutationCampaign(done, [state.defects[d.name] for d in done],
                                DefectOutcome("control", control["verdicts"] if control else {}),
                                plan.claims, plan.profile, plan.mutation_seed, 0.0,
                                stable=frozenset(alarms.stable()) if finished else None)
    doc = {
        "complete": not pending,
        "pending": pending,
        "fingerprint": fingerprint,
        "defects": campaign.defects_json(),
        "defects_planned": [d.name for d in plan.defects] if "defects" in plan.parts else [],
        "mutation_score": campaign.mutation_score if done else None,
        "gaps": campaign.gaps,
        "false_alarms": {**alarms.to_json(), "seeds_planned": planned,
                         "per_seed": {str(s): state.seeds[s] for s in finished}},
        "faults": state.suites.get("faults"),
        "bad_input": state.suites.get("bad_input"),
        "statement_mutants": statements.summarise(
            mutants, plan.mutant_names() if "statement_mutants" in plan.parts else []),
        "null_boundary": _null_part(plan, state),
        "rerun_cost": _rerun_cost([state.seeds[s] for s in seed_units],
                                  [state.defects[d.name] for d in done], mutants),
        "meta": {**meta, "profile": plan.profile, "seed": plan.mutation_seed, "claims": plan.claims,
                 "alpha": plan.alpha,
                 "jobs": plan.jobs, "scheduler": plan.scheduler,
                 "control": {"seed": plan.mutation_seed,
                             "verdicts": control["verdicts"] if control else None,
                             "differing": campaign.control.differing() if control else None},
                 "expected": {c: known[c].expected for c in plan.claims},
                 "flag_rule": "a claim flags a defect when its verdict differs from its expected "
                              "verdict (a claim whose trials raise counts as 'error') and its clean "
                              "verdict is stable: the expected one on at least 19 of 20 false-alarm "
                              "seeds (all claims count while no seed has run)",
                 "reuse_rule": "a unit stored by an earlier invocation is reused when the "
                               "fingerprint of the code behind its verdicts, the profile, the "
                               "claims, alpha and the seed are the same; a unit computed again "
                               "(a seed, the control, a defect, a statement mutant) reuses the "
                               "stored trials of every claim whose reached code (and defect or "
                               "mutant) is unchanged, and the control's recorded reach of those "
                               "claims, and decides again only the claims whose records, level or "
                               "decision code changed"},
    }
    return doc


def _null_part(plan: Plan, state: _State) -> dict | None:
    """The null-boundary part's summary over its finished cases (None: the part is not run)."""
    planned = list(plan.null_cases())
    if not planned:
        return None
    return null_boundary.summarise([state.null[k] for k in planned if k in state.null], planned,
                                   plan.null_seeds)


def _rerun_cost(seeds: Sequence[dict], defects: Sequence[DefectOutcome], mutants: Sequence[dict]) -> dict:
    """Per claim, the trial seconds that a change reaching only that claim's trials runs again.

    Such a change (an edit of the claim's own check, say) reruns the claim's trials in every
    unit of this document that holds them as its own: each master seed, the control, each
    planted defect whose run computed them (not those that copied the control's), each of the
    claim's statement mutants.  Every other claim's trials are reused
    (:mod:`verification.incremental`), and so are the decisions whose records, level and code
    are unchanged (:mod:`verification.stored_decisions`).  Summed from the finished units'
    ``trial_s``.  Not in the sums: the decisions computed again (the changed claim's, and any
    whose Holm level moved); the suites, which any change runs again;
    the units where the claim's trials raised (counted apart: a rerun runs them again, for a
    time not recorded); another document's units (the type I campaign writes its own).  The
    wall time depends on what runs side by side: a seed's and a defect's trials over the
    campaign's workers, the control's under the reach recorders and a mutant's in one process.

    Returns
    -------
    dict
        ``by_claim`` (claim id to ``trial_s``, ``units`` and ``units_raised``, costliest
        first), ``units_without_times`` (finished units stored without their times: the sums
        leave them out) and ``what``.
    """
    units: list[tuple[dict | None, list[str]]] = [
        (entry.get("trial_s"), [c for c, v in entry["verdicts"].items() if v == ERROR]) for entry in seeds]
    units += [(outcome.trial_s, [c for c, v in outcome.verdicts.items() if v == ERROR]) for outcome in defects]
    # A mutant whose run raised recorded None under its key: no time, but not an older unit.
    units += [(None if "trial_s" not in entry else {} if entry["trial_s"] is None
               else {entry["claim"]: entry["trial_s"]},
               [entry["claim"]] if entry["verdict"] == ERROR else []) for entry in mutants]
    by_claim: defaultdict[str, dict] = defaultdict(lambda: {"trial_s": 0.0, "units": 0, "units_raised": 0})
    for times, raised in units:
        for claim, seconds in (times or {}).items():
            if claim not in raised:
                by_claim[claim]["trial_s"] += seconds
                by_claim[claim]["units"] += 1
        for claim in raised:
            by_claim[claim]["units_raised"] += 1
    return {"by_claim": dict(sorted(by_claim.items(), key=lambda item: (-item[1]["trial_s"], item[0]))),
            "units_without_times": sum(times is None for times, _ in units),
            "what": "the seconds of a claim's trials summed over the units of this document that "
                    "hold them as their own: what a change that only this claim's trials reach runs "
                    "again, besides the decisions computed again and the suites"}


def _stores(plan: Plan) -> Path:
    return plan.trial_stores or plan.workdir


def store_of(plan: Plan, seed: int) -> Path:
    """The store of the campaign's runs of master ``seed`` (the control's, for the mutation seed
    when defects run): one per seed, whatever the code (:attr:`Plan.trial_stores`)."""
    return _stores(plan) / f"seed-{seed}.sqlite"


def defect_store(plan: Plan, name: str) -> Path:
    """The store of the runs with the defect ``name`` planted, whatever the code."""
    return _stores(plan) / "defects" / f"{name}.sqlite"


def mutant_store(plan: Plan, name: str) -> Path:
    """The store of the runs of the statement mutant ``name``, whatever the code."""
    return _stores(plan) / "mutants" / f"{name}.sqlite"


def _control(plan: Plan, common: dict) -> dict:
    """The control run (the mutation seed's unit): the unmodified code, with the reach of every
    defect recorded for the claims whose recorded reach is not stored for the code as it is
    now (:func:`reach.recorded_reach`), then every claim decided."""
    store = store_of(plan, plan.mutation_seed)
    start = time.perf_counter()
    try:
        found, recorded_now = reach.recorded_reach(
            plan.defects, plan.claims, profile=plan.profile, seed=plan.mutation_seed, store=store,
            scratch=plan.workdir / f"control-{plan.mutation_seed}-scratch.sqlite")
    except StaleCodeError:
        raise  # code edited under the campaign: every unit after it would be wrong
    except Exception:
        # The reach run stopped (a store that cannot be written, say): the control is decided
        # without it, and no defect's trials are copied for the claims whose reach is unknown.
        found, recorded_now = None, None
    clean = run_defect(None, plan.claims, seed=plan.mutation_seed, store=store, **common)
    # The claims recorded now ran before the decisions' run, which finds their trials stored.
    reuse = {c: "reran under the reach recorders: no reach stored for its trials of this code"
             if c in (recorded_now or ()) else note for c, note in clean.reuse.items()}
    entry = {"verdicts": clean.verdicts, "errors": clean.errors, "elapsed_s": time.perf_counter() - start,
             "reuse": reuse, "trial_s": clean.trial_s}
    if found is not None:
        entry.update(reach=found.hits, reach_recorded_for=recorded_now)
    return entry


def _control_trials(plan: Plan, common: dict) -> tuple[reach.Reach, Path]:
    """The control's store with all its trials (run again, with every job, when a resumed
    campaign kept the control's unit in its document but not the store), and the reach
    stored beside it."""
    store = store_of(plan, plan.mutation_seed)
    runner.run(plan.claims, seed=plan.mutation_seed, store=store, **common)
    return reach.stored_reach(plan.claims, profile=plan.profile, seed=plan.mutation_seed, store=store), store


def run_campaign(plan: Plan, out: str | os.PathLike, *, budget_s: float | None = None,
                 say: Callable[[str], None] = lambda message: None,
                 command: Sequence[str] = ()) -> dict:
    """Run the units of ``plan`` that ``out`` lacks, writing ``out`` after each one.

    Parameters
    ----------
    plan : Plan
    out : path
        The JSON document (read first, to resume; rewritten after every unit).
    budget_s : float, optional
        Start no unit after this many seconds; the document then lists the pending units.
    say : callable, optional
        Receives a progress line per unit.
    command : sequence of str
        The command line, recorded in the document.

    Returns
    -------
    dict
        The document written last.
    """
    out = Path(out)
    plan.workdir.mkdir(parents=True, exist_ok=True)
    (plan.trial_stores or plan.workdir).mkdir(parents=True, exist_ok=True)
    fingerprint = code_fingerprint()
    suite_fp = code_fingerprint(suites=plan.checkout) if plan.checkout is not None else None
    state = _reusable(load_previous(out), plan, fingerprint, suite_fp)
    units = plan.unit_ids()
    started = _dt.datetime.now(_dt.UTC)
    clock = time.perf_counter()
    meta = {"started": started.isoformat(timespec="seconds"), "machine": runner.machine(), "versions": runner.versions(),
            "git_revision": provenance.git_revision(), "command": " ".join(command)}

    def finished(unit: str) -> bool:
        kind, _, name = unit.partition(":")
        return {"suite": name in state.suites, "seed": name.isdigit() and int(name) in state.seeds,
                "defect": name in state.defects, "mutant": name in state.mutants,
                "null": name in state.null}[kind]

    def save() -> dict:
        pending = [u for u in units if not finished(u)]
        doc = _document(plan, state, fingerprint, pending,
                        {**meta, "elapsed_s": time.perf_counter() - clock})
        write(out, doc)
        return doc

    doc = save()
    reused = sum(finished(u) for u in units)
    if reused:
        say(f"reusing {reused} of {len(units)} units stored in {out}")
    common = {"profile": plan.profile, "jobs": plan.jobs, "scheduler": plan.scheduler, "quiet": True,
              "alpha": plan.alpha}
    null_cases = plan.null_cases()
    # One pool for every null-boundary case: the seeds of a case are split over it, and the
    # numbers are those of one process (each seed's generator is its own).
    pool = (ProcessPoolExecutor(plan.jobs) if plan.jobs > 1 and any(
        not finished(f"null:{key}") for key in null_cases) else None)
    control = None
    for unit in units:
        if finished(unit):
            continue
        if budget_s is not None and time.perf_counter() - clock > budget_s:
            say(f"time budget spent: {len(doc['pending'])} units pending")
            break
        kind, _, name = unit.partition(":")
        start = time.perf_counter()
        if kind == "suite":
            outcome = suites.run_suite(name, plan.checkout)
            state.suites[name] = {**outcome.to_json(), "fingerprint": suite_fp["sha256"]}
        elif kind == "seed" and int(name) == plan.mutation_seed and plan.runs_defects:
            state.seeds[int(name)] = _control(plan, common)
        elif kind == "null":
            state.null[name] = null_boundary.run_case(null_cases[name], range(plan.null_seeds), pool=pool)
        elif kind == "mutant":
            state.mutants[name] = statements.run_mutant(
                statements.get(name), seed=plan.mutation_seed, alpha=plan.alpha,
                store=mutant_store(plan, name))
        elif kind == "seed":
            clean = run_defect(None, plan.claims, seed=int(name), store=store_of(plan, int(name)), **common)
            state.seeds[int(name)] = {"verdicts": clean.verdicts, "errors": clean.errors,
                                      "elapsed_s": clean.elapsed_s, "reuse": clean.reuse,
                                      "trial_s": clean.trial_s}
        else:
            if control is None:  # once per invocation: the control's trials and reach
                control = _control_trials(plan, common)
            found, control_store = control
            state.defects[name] = run_defect(name, plan.claims, seed=plan.mutation_seed,
                                             store=defect_store(plan, name), reach=found,
                                             control=control_store, **common)
        say(f"{unit}: done in {time.perf_counter() - start:.0f} s")
        doc = save()
    if pool is not None:
        pool.shutdown()
    return doc
