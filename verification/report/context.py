"""Everything a report shows, gathered once from the catalog and the store.

The HTML pages (:mod:`verification.report.pages`) and ``REPORT.md``
(:mod:`verification.report.markdown`) are two renderings of one :class:`ReportContext`: the
claims with their latest verdicts, the errata ledger, the explorations, the reproducibility of
the latest run, the plots and the tables.  Nothing here formats HTML or Markdown; what both
show the same way (numbers, tables, plots, commands) is decided here.

For each claim of the catalog the verdict shown is the one the store saved last
(:meth:`verification.store.Store.latest_verdict`), with the seed and profile of its run; a
claim without one is "not run": it keeps its page, but the header, the plot and the tables
count only the claims with a verdict, and the claims not run are named in one line apart (a
plug-in paper installed beside a store of the shipped papers' verdicts is not a paper checked).

The header names the run behind the verdicts (:func:`provenance`: profile, seed, revision and
date, or that several runs are mixed) and counts two sets apart, the papers' claims
(statements and explorations) and the conformance checks of the code (``kind="conformance"``),
each by the verdicts of the forest's groups (:func:`verification.report.forest.verdict_counts`):
the header, the plot and the tables count the same rows.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from verification import catalog
from verification.catalog import Claim, Erratum, Source
from verification.report.coverage import claim_coverage, conformance_text, side_tables
from verification.report.errata import Note, Snippet, compare, note_for, snippet
from verification.report.explanations import docs_base
from verification.report.forest import (
    Comparison,
    ForestRow,
    comparison,
    field,
    forest_rows,
    forest_svg,
    printed_and_corrected,
    proxy_data,
    ratio_text,
    verdict_counts,
)
from verification.report.plots import Plot, claim_plots
from verification.report.search import Search, search_of
from verification.report.self_test import check_document, error_rates
from verification.report.statements import Segment, segments
from verification.report.tables import (
    Table,
    detail_tables,
    format_interval,
    format_value,
    key_value_table,
    pvalue_text,
)
from verification.runner import ClaimOutcome
from verification.selftest.generated import generated_mutants
from verification.store import RunRow, Store
from verification.verdicts import Verdict

__all__ = ["NOT_RUN", "PROFILE_NOTES", "SCHEMA_VERSION", "SELFTEST_FILE", "ClaimView", "ErratumView", "FormulaView",
           "ReportContext", "ReportError", "gather", "is_conformance", "is_exploration", "plot_file", "provenance"]

#: the status of a claim the store has no verdict for.
NOT_RUN = "not run"
#: the self-test figures (issue #8), looked for beside the store, then in the output directory.
SELFTEST_FILE = "selftest.json"
#: the type I campaign's document (python -m verification.selftest --parts false_alarms
#: --expected holds,holds_after_correction --seeds 200 --alpha 0.05), beside SELFTEST_FILE.
TYPE_ONE_FILE = "selftest-type-one.json"
#: the null-boundary calibration's document (python -m verification.selftest --parts
#: null_boundary, nox -s null_boundary), beside SELFTEST_FILE: its part replaces selftest.json's.
NULL_BOUNDARY_FILE = "selftest-null-boundary.json"
#: the statement mutants' document (python -m verification.selftest --parts statement_mutants),
#: beside SELFTEST_FILE: a campaign of minutes, run again whenever a check changes.
MUTANTS_FILE = "selftest-statement-mutants.json"
#: a type II campaign of some claims at their own planned level (python -m verification.selftest
#: --parts false_alarms --claims ... --seeds 20 --alpha A), beside SELFTEST_FILE: its figures and
#: seeds replace those of selftest.json for the claims it ran (issue 20's figure claims, whose
#: plans changed after selftest.json was computed).
TYPE_TWO_FILE = "selftest-type-two-figures.json"
#: what a report of a profile other than ``full`` is worth, said under its title.
PROFILE_NOTES = {
    "smoke": "The smoke profile's samples are the smallest, sized to test the harness in seconds: "
             "its verdicts are not evidence about the papers.",
    "quick": "The quick profile's samples are CI's, smaller than the full profile's: a verdict "
             "here can differ from the full report's.",
}
#: the rows of a claim's numbers (:attr:`ClaimView.numbers`) that show a verdict field, by field:
#: the HTML page links each to where the documentation explains it (:mod:`verification.report.explanations`).
NUMBER_FIELDS = {"verdict of the printed statement": "verdict_printed",
                 "verdict of the corrected statement": "verdict_corrected",
                 "worst ratio reached (statistic / bound)": "worst_ratio",
                 "can fail (the smallest detectable ratio is finite)": "can_fail",
                 "smallest ratio detected with probability 0.9, at the weakest point": "min_detectable_ratio",
                 "family (Holm)": "family",
                 "p-value of the printed statement (H0: it holds)": "pvalue"}
#: version of summary.json's layout: 2 added ``schema_version`` and, per claim, ``run_id`` and
#: ``revision`` (the run that saved its verdict).
SCHEMA_VERSION = 2


class ReportError(ValueError):
    """The report cannot be written from these inputs (a one-line message naming the input)."""


def is_conformance(claim: Claim) -> bool:
    """Conformance claims (``kind="conformance"``) check the code against its transcription of
    a paper: they are not statements of the papers, and the report counts them apart.

    >>> is_conformance(catalog.get("iln.conformance.alg1")), is_conformance(catalog.get("iln.lemma4.hoeffding"))
    (True, False)
    """
    return claim.kind == "conformance"


def is_exploration(claim: Claim) -> bool:
    """Explorations (``kind="exploration"``) are findings beyond the papers' statements,
    reported in their own section.

    >>> is_exploration(catalog.get("iln.explore.m_ablation")), is_exploration(catalog.get("iln.lemma4.hoeffding"))
    (True, False)
    """
    return claim.kind == "exploration"


@dataclass(frozen=True)
class SourceView:
    """A claim's source in one paper version, its statement split into text and math."""

    source: Source
    paper_title: str
    statement: tuple[Segment, ...]


@dataclass(frozen=True)
class FormulaView:
    """One side of an erratum's comparison: a statement split for math, with the MathML
    leaves of each segment that differ from the other side (:func:`verification.report.errata.compare`)."""

    label: str
    segments: tuple[Segment, ...]
    changed: tuple[frozenset[int], ...]


@dataclass(frozen=True)
class ErratumView:
    """An erratum with its printed statements (per version, or the quoted places) and its
    correction split for math; ``number`` counts the errata of its claim from 1.

    ``sides`` puts the printed statement (one side per wording: versions that print the same
    share one) beside the corrected one, each with the symbols that differ; ``changes`` lists
    those of the first printed wording as (printed, corrected) text; ``note`` and ``snippet``
    are the report's size of the violation and its numpy reproduction (None without one).
    """

    erratum: Erratum
    number: int
    printed: tuple[tuple[str, tuple[Segment, ...]], ...]
    corrected: tuple[Segment, ...]
    sides: tuple[FormulaView, ...] = ()
    changes: tuple[tuple[str, str], ...] = ()
    note: Note | None = None
    snippet: Snippet | None = None

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
    run: RunRow | None = None
    #: the claim's verdicts across the self-test's master seeds, e.g. "violated on 19 of 20".
    stability: str | None = None

    @property
    def id(self) -> str:
        return self.claim.id

    @property
    def proxy_data(self) -> Mapping | None:
        """The stand-in data the verdict was decided on (issue 20 item 4), else None."""
        return None if self.verdict is None else proxy_data(self.verdict)

    @property
    def differs(self) -> tuple[str, ...]:
        """What differs between the setting a figure claim was decided on and the paper's (the
        aspects of its verdict's ``differs``, :mod:`verification.reproduction`); empty for
        another claim, or a figure decided on the paper's own stated setting."""
        rows = field(self.verdict, "differs") if self.verdict is not None else None
        if not isinstance(rows, list | tuple):
            return ()
        return tuple(str(r["aspect"]) for r in rows if isinstance(r, Mapping) and r.get("aspect"))

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
    def comparison(self) -> Comparison | None:
        """The statistic against its bound with the direction of the comparison."""
        return None if self.verdict is None else comparison(self.verdict)

    @property
    def row(self) -> ForestRow:
        """The claim's row of the forest plot (its ratios and finding)."""
        return forest_rows([(self.id, self.page, self.verdict)])[0]

    @property
    def key_number(self) -> str:
        """The statistic against its bound, with the direction of the comparison."""
        if self.verdict is None:
            return NOT_RUN
        return self.comparison.text

    @property
    def revision(self) -> str | None:
        """The git revision of the run that saved the verdict, where the store recorded it."""
        value = self.run.meta.get("git_revision") if self.run is not None else None
        return value if isinstance(value, str) else None

    @property
    def interval_text(self) -> str:
        """The statistic's interval, with what a zero-width or half-open one means."""
        v = self.verdict
        low, high = (None if not isinstance(e, int | float) or math.isnan(e) else e for e in v.interval)
        if low is None and high is None:
            return "none stored"
        if low is not None and low == high and v.level == 1:
            return f"[{format_value(low)}, {format_value(high)}] (exact: every round checked, no sampling error)"
        return f"{format_interval(low, high)} at level {self.level}"

    @property
    def numbers(self) -> Table | None:
        """The verdict's numbers, each named for what it is, with the direction of its
        comparison; fields other issues add to verdicts appear when a verdict carries them."""
        v = self.verdict
        if v is None:
            return None
        c = self.comparison
        ratio = (f"{ratio_text(c.ratio)} (above 1: the printed statement is exceeded)"
                 if c.ratio is not None else f"n/a ({c.undefined})")
        printed, corrected = printed_and_corrected(self.row)
        detectable = field(v, "min_detectable_ratio")
        rows = {
            "statistic (and what it must be)": c.text,
            "interval of the statistic": self.interval_text,
            "statistic / bound, oriented": ratio,
            "verdict of the printed statement": printed,
            "verdict of the corrected statement": corrected,
        }
        if self.row.corrected is not None:
            rows["corrected statement: statistic / its bound at its worst point"] = ratio_text(self.row.corrected)
        # The worst instance itself is in the search section (ClaimView.search), in full.
        for name, label in (("worst_ratio", "worst ratio reached (statistic / bound)"),
                            ("can_fail", "can fail (the smallest detectable ratio is finite)")):
            if field(v, name) is not None:
                rows[label] = field(v, name)
        rows["smallest ratio detected with probability 0.9, at the weakest point"] = (
            detectable if detectable is not None and not _nan(detectable) else "not recorded by this verdict")
        best = field(v, "min_detectable_ratio_best_point")
        if best is not None and not _nan(best):
            rows["the same at the best point"] = best
        family = field(v, "family")
        if isinstance(family, Mapping):
            rows["family (Holm)"] = family_text(family)
        rows.update({
            "p-value of the printed statement (H0: it holds)": pvalue_text(v.pvalue),
            "alpha (its share of the run's false-alarm budget, Holm)": v.alpha,
            "trials": v.n_trials, "time of its trials (s)": round(v.elapsed_s, 1),
            "seed": self.seed, "profile": self.profile, "saved": self.saved_at,
            "run": self.run.run_id if self.run is not None else "not recorded",
            "git revision of the run": self.revision or "not recorded"})
        return key_value_table("numbers", rows)

    @functools.cached_property
    def configuration(self) -> tuple[Mapping | None, bool]:
        """The configuration of the verdict's trials and whether the verdict recorded it (else
        the code's configuration for its profile now, or None when that cannot be computed)."""
        recorded = self.verdict.details.get(ClaimOutcome.CONFIGURATION) if self.verdict is not None and isinstance(
            self.verdict.details, Mapping) else None
        if isinstance(recorded, Mapping):
            return recorded, True
        try:
            config = self.claim.config(self.profile) if self.profile in catalog.PROFILES else None
        except Exception:  # a planned size that cannot be computed here: the search still shows
            config = None
        return config, False

    @functools.cached_property
    def search(self) -> Search | None:
        """What the check tried, how, how long, and its worst instance (None when not run)."""
        if self.verdict is None:
            return None
        config, recorded = self.configuration
        # A verdict saved before verdicts kept their configuration: the code's configuration now
        # may not be the one its trials ran with (a plan changed since), and the page says so.
        return search_of(self.verdict, config, self.profile, recorded=recorded)

    @property
    def _details(self) -> Mapping:
        return self.verdict.details if self.verdict is not None and isinstance(self.verdict.details, Mapping) else {}

    @functools.cached_property
    def coverage(self) -> dict | None:
        """``summary.json``'s coverage entry (:func:`verification.report.coverage.claim_coverage`)."""
        if self.verdict is None:
            return None
        config, recorded = self.configuration
        grid = ({k: v for k, v in config.items() if k != ClaimOutcome.CONFIGURATION} if config else None)
        where = ("the configuration the verdict recorded" if recorded else
                 f"the claim's configuration for the {self.profile} profile when the report was written "
                 "(the verdict did not record its own)")
        return claim_coverage(self._details, grid, where)

    @property
    def side_tables(self) -> tuple[tuple[str, tuple[Table, ...]], ...]:
        """Per right side (printed first, then each correction): what the search or the exact
        decision covered of each variable, the best instances (exact, then sampled) and the
        smallest violation (:func:`verification.report.coverage.side_tables`)."""
        return () if self.verdict is None else side_tables(self._details, self.verdict.rule)

    @property
    def conformance(self) -> str | None:
        """For a claim decided exactly, the implementation's conformance at its instances."""
        return conformance_text(self._details)

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
    forest: tuple[ForestRow, ...]
    forest_plot: Plot
    selftest: dict | None
    summary: dict
    runs_behind: str | None = None
    #: what changed since an earlier report (``iln-verify report --against OLD``), as a table.
    changes: Table | None = None
    #: the run behind the verdicts, for the first line (:func:`provenance`).
    provenance: str = "no verdict in the store"
    #: what a report of a non-full profile is worth (:data:`PROFILE_NOTES`), else None.
    profile_note: str | None = None
    #: the documentation's explanation pages relative to the report's directory, None without
    #: them (:func:`verification.report.explanations.docs_base`).
    docs: str | None = None
    #: the statement mutants generated from the specifications of the claims with a verdict
    #: (:func:`verification.selftest.generated.generated_mutants`).
    generated_mutants: Mapping | None = None

    @functools.cached_property
    def by_id(self) -> dict[str, ClaimView]:
        return {c.id: c for c in self.claims}

    @property
    def checked(self) -> tuple[ClaimView, ...]:
        """The claims with a verdict: the only ones the header, the plot and the tables count."""
        return tuple(c for c in self.claims if c.verdict is not None)

    @property
    def not_run(self) -> tuple[ClaimView, ...]:
        return tuple(c for c in self.claims if c.verdict is None)

    @property
    def paper_rows(self) -> tuple[ForestRow, ...]:
        """The forest's rows of the papers' claims (statements and explorations), in its order."""
        return tuple(r for r in self.forest if not is_conformance(self.by_id[r.claim_id].claim))

    @property
    def conformance_rows(self) -> tuple[ForestRow, ...]:
        """The rows of the conformance checks of the code, in the forest's order."""
        return tuple(r for r in self.forest if is_conformance(self.by_id[r.claim_id].claim))

    @property
    def paper_counts(self) -> dict[str, int]:
        """Verdict -> number of the papers' claims: the plot's groups, and the first table's rows."""
        return verdict_counts(self.paper_rows)

    @property
    def conformance_counts(self) -> dict[str, int]:
        """Verdict -> number of conformance checks: the second table's rows."""
        return verdict_counts(self.conformance_rows)

    @property
    def explorations_checked(self) -> int:
        return sum(1 for r in self.paper_rows if is_exploration(self.by_id[r.claim_id].claim))

    @property
    def papers(self) -> dict[str, str]:
        """The versions (key -> reference) of the papers with a verdict in the report."""
        run = {catalog.paper_of(c.id) for c in self.checked}
        return {k: v for name, paper in catalog.papers().items() if name in run for k, v in paper.versions.items()}

    @property
    def not_run_note(self) -> str | None:
        """One neutral sentence on the catalog's claims without a verdict here, else None:
        the papers none of whose claims ran, then how many claims of the others did not."""
        if not self.not_run:
            return None
        by_paper: dict[str, list[str]] = {}
        for c in self.claims:
            by_paper.setdefault(catalog.paper_of(c.id), []).append(c.id)
        missing = {c.id for c in self.not_run}
        whole = [p for p, ids in by_paper.items() if set(ids) <= missing]
        parts = [f"the {'papers' if len(whole) > 1 else 'paper'} "
                 + ", ".join(f"{p} ({', '.join(catalog.papers()[p].versions)}; {len(by_paper[p])} claims)"
                             for p in whole)] if whole else []
        for p, ids in by_paper.items():
            rest = sum(1 for i in ids if i in missing)
            if p not in whole and rest:
                parts.append(f"{rest} more claim{'s' if rest > 1 else ''} of {p}")
        listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
        return f"Not run in this store, so not counted: {listed}."

    @property
    def mismatches(self) -> tuple[ClaimView, ...]:
        """The claims whose verdict is not their pre-registered expectation."""
        return tuple(c for c in self.claims if c.matches is False)


def _nan(value) -> bool:
    return isinstance(value, float) and math.isnan(value)


def family_text(family: Mapping) -> str:
    """A verdict's multiple-testing family in words: its size, the claim's rank and level, or
    why the claim is outside it."""
    size, alpha = family.get("size"), family.get("alpha")
    if family.get("member") is False:
        return f"not a member of the run's family ({size} claims at alpha {format_value(alpha)}): {family.get('why')}"
    return (f"rank {family.get('rank')} of {size} claims at family-wise alpha {format_value(alpha)}; decided at "
            f"level {format_value(family.get('level'))}" + ("" if family.get("holm_rejects") is None else
                                                          f"; Holm rejects: {family.get('holm_rejects')}"))


def plot_file(owner: str, plot: Plot) -> str:
    """Where a plot's SVG file goes, relative to the report's directory (beside REPORT.md).

    >>> plot_file("index", Plot("forest", "forest", "", "", "<svg/>"))
    'plots/index--forest.svg'
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
    # The configuration the verdict ran with is shown under "space searched", not as a detail.
    shown = {k: v for k, v in details.items() if k != ClaimOutcome.CONFIGURATION}
    return ClaimView(claim, sources, verdict, row.seed, row.profile, row.saved_at, plots,
                     tuple(detail_tables(shown)), errata)


def _producing_run(view: ClaimView, runs: list[RunRow]) -> RunRow | None:
    """The run that saved ``view``'s verdict: the latest of its seed and profile that ran the
    claim and started before the verdict was saved."""
    for run in reversed(runs):
        claims = run.meta.get("claims")
        if (run.seed == view.seed and run.profile == view.profile and run.started <= view.saved_at
                and (not isinstance(claims, list) or view.id in claims)):
            return run
    return None


def _runs_behind(views: tuple[ClaimView, ...]) -> str | None:
    """One line per run whose verdicts the report shows, when there are several: a store
    can hold verdicts of runs at different revisions (a claim added later, say)."""
    counts: dict[int, int] = {}
    chosen = {}
    for view in views:
        run = view.run
        if run is not None:
            counts[run.run_id] = counts.get(run.run_id, 0) + 1
            chosen[run.run_id] = run
    if len(chosen) < 2:
        return None
    return "; ".join(f"run {i} at revision {str(chosen[i].meta.get('git_revision'))[:12]} ({chosen[i].profile} "
                     f"profile, seed {chosen[i].seed}, started {chosen[i].started}): {n} of the verdicts"
                     for i, n in sorted(counts.items()))


def _short_revision(revision: str | None) -> str:
    """A git revision as the first line names it: 7 hex digits, ``+dirty`` kept.

    >>> _short_revision("89c418cb04c33a79bb98c1e199fa1dad1b076117+dirty"), _short_revision(None)
    ('89c418c+dirty', 'not recorded')
    """
    if not revision:
        return "not recorded"
    sha, plus, rest = revision.partition("+")
    return sha[:7] + plus + rest


def _several(values: list, word: str, plural: str) -> str:
    """Distinct values in order with their name: ``full profile``, ``full and smoke profiles``,
    ``seeds 0 and 3`` (a profile's name comes before the word, a seed's or revision's after).

    >>> _several(["full", "smoke", "full"], "profile", "profiles"), _several([0, 0], "seed", "seeds")
    ('full and smoke profiles', 'seed 0')
    """
    distinct = list(dict.fromkeys(str(v) for v in values))
    listed = distinct[0] if len(distinct) == 1 else ", ".join(distinct[:-1]) + f" and {distinct[-1]}"
    name = word if len(distinct) == 1 else plural
    return f"{listed} {name}" if word == "profile" else f"{name} {listed}"


def provenance(views: tuple[ClaimView, ...]) -> str:
    """What the report's first line says it is: the profile, seed, revision and date of the run
    behind its verdicts, or, when they come from several runs, that it mixes them and their
    profiles, seeds, revisions and dates.

    A verdict's run is the one that saved it (:func:`_producing_run`); a verdict whose run the
    store does not record gives its own profile, seed and date, and no revision.
    """
    runs: dict[object, tuple[str, int, str, str]] = {}
    for v in views:
        if v.verdict is None:
            continue
        date = str(v.run.started if v.run is not None else v.saved_at or "")[:10] or "date not recorded"
        key = v.run.run_id if v.run is not None else ("unrecorded", v.profile, v.seed, v.saved_at)
        runs[key] = (str(v.profile), v.seed, _short_revision(v.revision), date)
    if not runs:
        return "no verdict in the store"
    found = sorted(set(runs.values()), key=lambda r: (r[3], r[0], str(r[1]), r[2]))
    if len(runs) == 1 or len(found) == 1:
        profile, seed, revision, date = found[0]
        return f"{profile} profile, seed {seed}, revision {revision}, {date}"
    dates = sorted({r[3] for r in found})
    return (f"verdicts of {len(runs)} runs mixed: {_several([r[0] for r in found], 'profile', 'profiles')}, "
            f"{_several([r[1] for r in found], 'seed', 'seeds')}, "
            f"{_several([r[2] for r in found], 'revision', 'revisions')}, "
            + (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"))


def _profile_note(views: tuple[ClaimView, ...]) -> str | None:
    """:data:`PROFILE_NOTES` of the profiles behind the verdicts other than ``full``."""
    notes = [PROFILE_NOTES[p] for p in dict.fromkeys(v.profile for v in views if v.verdict is not None)
             if p in PROFILE_NOTES]
    return " ".join(notes) or None


def _reproducibility(run: RunRow | None, views: tuple[ClaimView, ...]) -> Table | None:
    if run is None:
        return None
    m = run.meta
    versions = m.get("versions") if isinstance(m.get("versions"), Mapping) else {}
    elapsed = m.get("elapsed_s")
    behind = _runs_behind(views)
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


def _read_selftest(store: Path, out: Path, name: str) -> dict | None:
    for path in (store.parent / name, out / name):
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


def _selftest(store: Path, out: Path) -> dict | None:
    """``selftest.json``, with the type I campaign's document under ``"type_one_campaign"`` and
    the statement mutants' part in place of its own when those documents are found beside it."""
    doc = _read_selftest(store, out, SELFTEST_FILE)
    if doc is None:
        return None
    mutants = _read_selftest(store, out, MUTANTS_FILE)
    if mutants is not None and mutants.get("statement_mutants"):
        doc = {**doc, "statement_mutants": {**mutants["statement_mutants"],
                                            "git_revision": mutants["meta"].get("git_revision"),
                                            "profile": mutants["meta"].get("profile"),
                                            "complete": mutants.get("complete")}}
    null = _read_selftest(store, out, NULL_BOUNDARY_FILE)
    if null is not None and null.get("null_boundary"):
        doc = {**doc, "null_boundary": {**null["null_boundary"], "git_revision": null["meta"].get("git_revision")}}
    type_one = _read_selftest(store, out, TYPE_ONE_FILE)
    if type_one is not None:
        doc = {**doc, "type_one_campaign": {"false_alarms": {"type_one": error_rates(type_one)["type_one"]},
                                            "meta": _campaign_meta(type_one),
                                            "complete": type_one.get("complete")}}
    type_two = _read_selftest(store, out, TYPE_TWO_FILE)
    if type_two is not None:
        fa = type_two["false_alarms"]
        doc = {**doc, "type_two_campaign": {"false_alarms": {"type_two": error_rates(type_two)["type_two"],
                                                             "per_seed": fa.get("per_seed", {}),
                                                             "profile": fa.get("profile", "")},
                                            "meta": _campaign_meta(type_two),
                                            "complete": type_two.get("complete")}}
    return doc


def _campaign_meta(doc: Mapping) -> dict:
    """What a part's own campaign is shown with: its code, start, command, profile and alpha."""
    return {k: doc["meta"].get(k) for k in ("git_revision", "started", "command", "profile", "alpha")}


def _stability(claim_id: str, selftest: Mapping | None) -> str | None:
    """The claim's verdicts over the self-test's master seeds, most frequent first, or None; a
    claim of the type II campaign (:data:`TYPE_TWO_FILE`) takes that campaign's seeds."""
    campaign = (selftest or {}).get("type_two_campaign")
    if campaign is not None and claim_id in campaign["false_alarms"]["type_two"]:
        selftest = campaign
    per_seed = (selftest or {}).get("false_alarms", {}).get("per_seed", {})
    found = [entry.get("verdicts", {}).get(claim_id) for entry in per_seed.values()]
    found = [v for v in found if v is not None]
    if not found:
        return None
    counts: dict[str, int] = {}
    for v in found:
        counts[v] = counts.get(v, 0) + 1
    profile = selftest.get("false_alarms", {}).get("profile", "")
    revision = str(selftest.get("meta", {}).get("git_revision", ""))[:7]
    parts = [f"{v} on {k} of {len(found)}" for v, k in sorted(counts.items(), key=lambda item: -item[1])]
    return (f"{'; '.join(parts)} master seeds of the self-test ({profile} profile"
            f"{', revision ' + revision if revision else ''})")


def _strict(value):
    """Strict JSON has no NaN or infinity: such numbers become null (as in Verdict.to_json)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): _strict(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_strict(v) for v in value]
    return value


def _summary(views: tuple[ClaimView, ...], run: RunRow | None, selftest: dict | None, generated: dict) -> dict:
    claims = []
    for c in views:
        if c.verdict is None:
            continue
        # Where each verdict came from: a store can hold verdicts of several runs.
        claims.append({**ClaimOutcome(c.claim, c.verdict).to_json(),
                       "run_id": c.run.run_id if c.run is not None else None,
                       "revision": c.revision, "seed": c.seed, "profile": c.profile,
                       "saved_at": c.saved_at,
                       # What of its statement's domain the verdict covered (issue 41).
                       "coverage": c.coverage})
    doc = {"schema_version": SCHEMA_VERSION, "meta": run.meta if run is not None else {},
           "claims": claims, "not_run": [c.id for c in views if c.verdict is None],
           # The ledger as this code has it, so that iln-verify diff can compare two reports'.
           "errata": [{"claim_id": e.claim_id, "kind": e.kind, "corrected": e.corrected}
                      for e in catalog.errata()]}
    if selftest is not None:
        rates = error_rates(selftest)
        doc["selftest"] = {**selftest, "type_one": rates["type_one"], "type_two": rates["type_two"],
                           "stable_claims": rates["stable"]}
    # The statement mutants generated from the specifications (issue 41 item 5), beside the
    # hand-written ones of selftest.json (kept under their own keys until they go).
    part = doc.setdefault("selftest", {})
    part["statement_mutants"] = {**(part.get("statement_mutants") or {}), "generated": generated}
    return _strict(doc)


def _erratum_view(e: Erratum, number: int) -> ErratumView:
    """The erratum with its sides compared: each distinct printed wording against the
    correction, the correction marked against the first wording."""
    printed = tuple((p, segments(t)) for p, t in e.printed.items())
    corrected = segments(e.corrected)
    wordings: dict[str, list[str]] = {}
    for paper, text in e.printed.items():
        wordings.setdefault(text, []).append(paper)
    sides, first = [], None
    for text, papers in wordings.items():
        segs = segments(text)
        cmp = compare(segs, corrected)
        first = first or cmp
        sides.append(FormulaView(f"Printed ({' and '.join(papers)})", segs, cmp.printed))
    sides.append(FormulaView("Corrected", corrected, first.corrected if first else ()))
    note = note_for(e)
    return ErratumView(e, number, printed, corrected, tuple(sides), first.changes if first else (), note,
                       snippet(note.snippet) if note.snippet else None)


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
    with Store(store, read_only=True) as db:
        rows = {claim_id: db.latest_verdict(claim_id) for claim_id in known}
        run = db.latest_run()
        runs = db.runs()
    errata, numbers = [], {}
    for e in catalog.errata():
        numbers[e.claim_id] = numbers.get(e.claim_id, 0) + 1
        errata.append(_erratum_view(e, numbers[e.claim_id]))
    errata = tuple(errata)
    views = tuple(_claim_view(claim, rows[claim_id], tuple(e for e in errata if e.erratum.claim_id == claim_id))
                  for claim_id, claim in known.items())
    views = tuple(replace(v, run=_producing_run(v, runs)) if v.verdict is not None else v for v in views)
    # Only claims with a verdict have a row: the header, the plot and the tables count these.
    rows_ = tuple(forest_rows([(c.id, c.page, c.verdict) for c in views if c.verdict is not None]))
    forest = Plot("forest", "forest", "Every claim's statistic against its bound",
                  "One row per claim of the papers, grouped by verdict: statistic / bound of the "
                  "printed statement on a log scale, oriented so that right of 1 the printed "
                  "statement is exceeded (for a lower bound the ratio is bound / statistic), at its "
                  "worst instance: a square where that ratio is exact (computed there, no sampling "
                  "error), a circle with its interval where it is sampled; a diamond marks the "
                  "corrected statement where there is one. A row "
                  "whose bound is 0, negative or a band has no ratio and says so; an inconclusive "
                  "row says first why it is not decided (a printed statement exceeded while its "
                  "correction is undecided is drawn right of 1). The conformance checks of the "
                  "code (the implementation against its transcription) are not statements of the "
                  "papers: they are counted apart and listed in their own table.",
                  # The papers' statements and the explorations that run them on searched
                  # instances: the first screen answers what the papers get wrong.
                  forest_svg(tuple(r for r in rows_ if not is_conformance(known[r.claim_id]))))
    selftest = _selftest(store, out)
    views = tuple(replace(v, stability=_stability(v.id, selftest)) for v in views)
    generated = generated_mutants(v.id for v in views if v.verdict is not None)
    return ReportContext(views, errata, run, _reproducibility(run, views), rows_, forest, selftest,
                         _summary(views, run, selftest, generated), _runs_behind(views),
                         provenance=provenance(views), profile_note=_profile_note(views), docs=docs_base(out),
                         generated_mutants=generated)
