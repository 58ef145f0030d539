"""Everything a report shows, gathered once from the catalog and the store.

The HTML pages (:mod:`verification.report.pages`) and ``REPORT.md``
(:mod:`verification.report.markdown`) are two renderings of one :class:`ReportContext`: the
claims with their latest verdicts, the errata ledger, the explorations, the reproducibility of
the latest run, the plots and the tables.  Nothing here formats HTML or Markdown; what both
show the same way (numbers, tables, plots, commands) is decided here.

For each claim of the catalog the verdict shown is the one the store saved last
(:meth:`verification.store.Store.latest_verdict`), with the seed and profile of its run; a
claim without one is listed as "not run".
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from verification import catalog
from verification.catalog import Claim, Erratum, Source
from verification.report.plots import Plot, claim_plots, tightness_plot
from verification.report.self_test import check_document
from verification.report.statements import Segment, segments
from verification.report.tables import Table, detail_tables, format_value, key_value_table
from verification.runner import ClaimOutcome
from verification.store import RunRow, Store
from verification.verdicts import Verdict

__all__ = ["NOT_RUN", "SELFTEST_FILE", "ClaimView", "ErratumView", "ReportContext", "ReportError",
           "gather", "is_exploration", "plot_file"]

#: the status of a claim the store has no verdict for.
NOT_RUN = "not run"
#: the self-test figures (issue #8), looked for beside the store, then in the output directory.
SELFTEST_FILE = "selftest.json"
EXPLORATION_MARK = ".explore."


class ReportError(ValueError):
    """The report cannot be written from these inputs (a one-line message naming the input)."""


def is_exploration(claim_id: str) -> bool:
    """Explorations are findings beyond the papers' statements, reported in their own section.

    >>> is_exploration("iln.explore.m_ablation"), is_exploration("iln.lemma4.hoeffding")
    (True, False)
    """
    return EXPLORATION_MARK in claim_id


@dataclass(frozen=True)
class SourceView:
    """A claim's source in one paper version, its statement split into text and math."""

    source: Source
    paper_title: str
    statement: tuple[Segment, ...]


@dataclass(frozen=True)
class ErratumView:
    """An erratum with its printed statements (per version, or the quoted places) and its
    correction split for math; ``number`` counts the errata of its claim from 1."""

    erratum: Erratum
    number: int
    printed: tuple[tuple[str, tuple[Segment, ...]], ...]
    corrected: tuple[Segment, ...]

    @property
    def kind(self) -> str:
        """What the erratum rests on: a counterexample or a quoted disagreement."""
        return getattr(self.erratum, "kind", "counterexample")


@dataclass(frozen=True)
class ClaimView:
    """One claim of the catalog with its latest verdict (None when not run)."""

    claim: Claim
    sources: tuple[SourceView, ...]
    verdict: Verdict | None
    seed: int | None
    profile: str | None
    saved_at: str | None
    plots: tuple[Plot, ...]
    tables: tuple[Table, ...]
    errata: tuple[ErratumView, ...] = ()

    @property
    def id(self) -> str:
        return self.claim.id

    @property
    def status(self) -> str:
        """The verdict, or :data:`NOT_RUN`."""
        return NOT_RUN if self.verdict is None else self.verdict.verdict

    @property
    def matches(self) -> bool | None:
        return None if self.verdict is None else self.verdict.verdict == self.claim.expected

    @property
    def page(self) -> str:
        """The claim's HTML page, relative to the report's directory."""
        return f"claims/{self.id}.html"

    @property
    def reproduce(self) -> str | None:
        """The command that reruns exactly this verdict's trials."""
        if self.verdict is None:
            return None
        return f"iln-verify run {self.id} --profile {self.profile} --seed {self.seed}"

    @property
    def where(self) -> str:
        return "; ".join(f"{s.paper} {s.location}" for s in self.claim.sources)

    @property
    def key_number(self) -> str:
        """The statistic against its bound, as the summary shows it."""
        if self.verdict is None:
            return NOT_RUN
        return f"{format_value(self.verdict.statistic)} vs {format_value(self.verdict.bound)}"

    @property
    def numbers(self) -> Table | None:
        """The verdict's numbers, each named as in :class:`verification.verdicts.Verdict`."""
        v = self.verdict
        if v is None:
            return None
        return key_value_table("numbers", {
            "statistic": v.statistic, "bound": v.bound, "interval": list(v.interval),
            "level": self.level, "alpha (share of the false-alarm budget)": v.alpha,
            "power (smallest violation detected w.p. 0.9)": v.power, "tightness": v.tightness,
            "n_trials": v.n_trials, "pvalue": v.pvalue, "time (s)": v.elapsed_s,
            "seed": self.seed, "profile": self.profile, "saved": self.saved_at})

    @property
    def level(self) -> str:
        """The interval's coverage; written ``1 - x`` since levels are often 0.9999..."""
        if self.verdict is None:
            return NOT_RUN
        level = self.verdict.level
        return f"1 - {format_value(1 - level)}" if 0.999 < level < 1 else format_value(level)

    @property
    def counterexample(self) -> Table | None:
        if self.verdict is None or not self.verdict.counterexample:
            return None
        return key_value_table("counterexample", self.verdict.counterexample)


@dataclass(frozen=True)
class ReportContext:
    """What the report shows; see the module docstring."""

    claims: tuple[ClaimView, ...]
    errata: tuple[ErratumView, ...]
    run: RunRow | None
    reproducibility: Table | None
    tightness: Plot | None
    selftest: dict | None
    summary: dict

    @property
    def statements(self) -> tuple[ClaimView, ...]:
        """The claims of the papers' statements."""
        return tuple(c for c in self.claims if not is_exploration(c.id))

    @property
    def explorations(self) -> tuple[ClaimView, ...]:
        return tuple(c for c in self.claims if is_exploration(c.id))

    @property
    def counts(self) -> dict[str, int]:
        """How many claims have each status, in a fixed order."""
        out = {}
        for c in self.claims:
            out[c.status] = out.get(c.status, 0) + 1
        return dict(sorted(out.items()))

    @property
    def mismatches(self) -> tuple[ClaimView, ...]:
        return tuple(c for c in self.claims if c.matches is False)


def plot_file(owner: str, plot: Plot) -> str:
    """Where a plot's SVG file goes, relative to the report's directory (beside REPORT.md).

    >>> plot_file("index", Plot("tightness", "tightness", "", "", "<svg/>"))
    'plots/index--tightness.svg'
    """
    return f"plots/{owner}--{plot.name}.svg"


def _figure_sentence(claim: Claim) -> str | None:
    """What a paper's figure showed, from the claim's source that prints the figure."""
    for source in claim.sources:
        if "figure" in source.location.lower() and "(not in this version)" not in source.statement:
            return source.statement
    return None


def _claim_view(claim: Claim, row, errata: tuple[ErratumView, ...]) -> ClaimView:
    sources = tuple(SourceView(s, catalog.PAPERS[s.paper], segments(s.statement)) for s in claim.sources)
    if row is None:
        return ClaimView(claim, sources, None, None, None, None, (), (), errata)
    try:
        verdict = Verdict.from_json(row.verdict)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"store: the verdict of {claim.id} is not in this version's format "
                          f"({exc})") from None
    details = verdict.details if isinstance(verdict.details, Mapping) else {}
    sentence = _figure_sentence(claim)
    plots = tuple(p if p.kind != "figure" or p.paper_showed else
                  Plot(**{**p.__dict__, "paper_showed": sentence})
                  for p in claim_plots(claim.id, details))
    return ClaimView(claim, sources, verdict, row.seed, row.profile, row.saved_at, plots,
                     tuple(detail_tables(details)), errata)


def _producing_run(view: ClaimView, runs: list[RunRow]) -> RunRow | None:
    """The run that saved ``view``'s verdict: the latest of its seed and profile that ran the
    claim and started before the verdict was saved."""
    for run in reversed(runs):
        claims = run.meta.get("claims")
        if (run.seed == view.seed and run.profile == view.profile and run.started <= view.saved_at
                and (not isinstance(claims, list) or view.id in claims)):
            return run
    return None


def _runs_behind(views: tuple[ClaimView, ...], runs: list[RunRow]) -> str | None:
    """One line per run whose verdicts the report shows, when there are several: a store
    can hold verdicts of runs at different revisions (a claim added later, say)."""
    counts: dict[int, int] = {}
    chosen = {}
    for view in views:
        if view.verdict is None:
            continue
        run = _producing_run(view, runs)
        if run is not None:
            counts[run.run_id] = counts.get(run.run_id, 0) + 1
            chosen[run.run_id] = run
    if len(chosen) < 2:
        return None
    return "; ".join(f"run {i} at revision {str(chosen[i].meta.get('git_revision'))[:12]} ({chosen[i].profile} "
                     f"profile, seed {chosen[i].seed}, started {chosen[i].started}): {n} of the verdicts"
                     for i, n in sorted(counts.items()))


def _reproducibility(run: RunRow | None, views: tuple[ClaimView, ...],
                     runs: list[RunRow] = ()) -> Table | None:
    if run is None:
        return None
    m = run.meta
    versions = m.get("versions") if isinstance(m.get("versions"), Mapping) else {}
    elapsed = m.get("elapsed_s")
    behind = _runs_behind(views, list(runs))
    return key_value_table("reproducibility", {
        **({"verdicts shown, by the run that saved them": behind} if behind else {}),
        "command (as recorded)": m.get("command"),
        "to reproduce": f"iln-verify run --profile {run.profile} --seed {run.seed}",
        "seed": run.seed, "profile": run.profile,
        "claims": len(m["claims"]) if isinstance(m.get("claims"), list) else None,
        "family-wise false-alarm budget": m.get("alpha"),
        **{f"version of {k}": v for k, v in versions.items()},
        "git revision": m.get("git_revision"), "machine": m.get("machine"),
        "jobs": m.get("jobs"), "scheduler": m.get("scheduler") or "local processes",
        "started": run.started, "finished": run.finished or "not finished (interrupted?)",
        # A rerun reuses stored trials, so its own duration can be a small part of the work
        # behind the verdicts: both are shown.
        "duration of this run (s)": round(elapsed, 1) if isinstance(elapsed, float) else elapsed,
        "time of the trials behind the verdicts (s, summed over claims)":
            round(sum(v.verdict.elapsed_s for v in views if v.verdict is not None), 1)})


def _selftest(store: Path, out: Path) -> dict | None:
    for path in (store.parent / SELFTEST_FILE, out / SELFTEST_FILE):
        if path.is_file():
            try:
                doc = json.loads(path.read_text())
            except (OSError, ValueError) as exc:
                raise ReportError(f"{path} is not a readable JSON file ({exc})") from None
            try:
                check_document(doc)
            except (TypeError, ValueError) as exc:
                raise ReportError(f"{path}: {exc}") from None
            return doc
    return None


def _strict(value):
    """Strict JSON has no NaN or infinity: such numbers become null (as in Verdict.to_json)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): _strict(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_strict(v) for v in value]
    return value


def _summary(views: tuple[ClaimView, ...], run: RunRow | None, selftest: dict | None) -> dict:
    doc = {"meta": run.meta if run is not None else {},
           "claims": [ClaimOutcome(c.claim, c.verdict).to_json() for c in views if c.verdict],
           "not_run": [c.id for c in views if c.verdict is None]}
    if selftest is not None:
        doc["selftest"] = selftest
    return _strict(doc)


def gather(store: str | Path, out: str | Path) -> ReportContext:
    """Read the catalog and the store once.

    Parameters
    ----------
    store : path
        An existing SQLite store written by ``iln-verify run``.
    out : path
        The report's directory (looked in for ``selftest.json``).

    Returns
    -------
    ReportContext

    Raises
    ------
    ReportError
        ``store`` does not exist, or a stored verdict or ``selftest.json`` cannot be read.
    verification.store.StoreError
        The store is corrupted, of another version, or cannot be opened.
    """
    if not isinstance(store, str | Path) or not isinstance(out, str | Path):
        raise TypeError("store and out must be paths")
    store, out = Path(store), Path(out)
    if not store.is_file():
        raise ReportError(f"store: {store} does not exist (run iln-verify run first)")
    known = catalog.load()
    with Store(store) as db:
        rows = {claim_id: db.latest_verdict(claim_id) for claim_id in known}
        run = db.latest_run()
        runs = db.runs()
    errata, numbers = [], {}
    for e in catalog.errata():
        numbers[e.claim_id] = numbers.get(e.claim_id, 0) + 1
        errata.append(ErratumView(e, numbers[e.claim_id],
                                  tuple((p, segments(t)) for p, t in e.printed.items()),
                                  segments(e.corrected)))
    errata = tuple(errata)
    views = tuple(_claim_view(claim, rows[claim_id], tuple(e for e in errata if e.erratum.claim_id == claim_id))
                  for claim_id, claim in known.items())
    tightness = tightness_plot([(c.id, c.verdict.tightness, c.verdict.verdict)
                                for c in views if c.verdict is not None])
    selftest = _selftest(store, out)
    return ReportContext(views, errata, run, _reproducibility(run, views, runs), tightness, selftest,
                         _summary(views, run, selftest))
