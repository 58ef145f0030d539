r"""``REPORT.md`` and ``claims/<id>.md``: the report's content for a code-hosting site.

The same :class:`~verification.report.context.ReportContext` as the HTML pages: ``REPORT.md``
holds the forest plot, the table of claims, the errata ledger, the reproducibility block and
the self-test's summary (kept small enough for a code-hosting site to show at once); each claim
has a page of its own beside it with its statements, numbers, plots and detail tables.  Math stays LaTeX (``$...$`` inline, a ``math`` code block for
a display statement), which GitHub renders; plots are the SVG files under ``plots/`` beside it.
Links to claims use GitHub's heading anchors (:func:`anchor`).

Examples
--------
>>> anchor("iln.cor1.online_to_batch")
'ilncor1online_to_batch'
>>> text(r"P_t(f*) | x")
'P\\_t(f\\*) \\| x'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from verification.report.context import NOT_RUN, ClaimView, ReportContext, plot_file
from verification.report.errata import quotation_segments
from verification.report.forest import ForestRow, printed_and_corrected, worst_ratio_text
from verification.report.plots import Plot
from verification.report.prose import prose_segments
from verification.report.self_test import (
    SELFTEST_INTRO,
    generated_mutants_line,
    generated_mutants_table,
    selftest_tables,
)
from verification.report.statements import Segment, quoted_segments, segments
from verification.report.tables import Table, format_value, is_number

__all__ = ["anchor", "claim_page", "prose", "render_markdown", "selftest_section", "text"]

_SPECIAL = re.compile(r"([\\`*_\[\]<>|$#])")


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation other than ``-``/``_`` dropped."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def text(value: str) -> str:
    """Plain text with Markdown's special characters escaped (one line)."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(value).split()))


def _text_run(content: str) -> str:
    """A text segment between math: escaped, keeping a space at either end, which separates
    it from the ``$...$`` beside it (:func:`text` alone would drop it)."""
    lead = " " if content[:1].isspace() else ""
    trail = " " if content[-1:].isspace() and content.strip() else ""
    return lead + text(content) + trail


def _statement(segs: Sequence[Segment], *, cell: bool = False) -> str:
    """A statement as Markdown: display math in a ``math`` block, inline math in ``$...$``,
    code (the ``code`` runs of :func:`prose`) in backticks.  In a table ``cell`` every formula
    is inline and has no bare ``|``, which would end the cell."""
    out = []
    for s in segs:
        if s.kind == "text":
            out.append(_text_run(s.content))
        elif s.kind == "code":
            out.append(f"`{s.content}`")
        elif cell:
            math = s.content.replace(r"\|", r"\Vert ").replace("|", r"\vert ")
            out.append(f"${math.strip()}$")
        elif s.display:
            out.append(f"\n\n```math\n{s.content}\n```\n\n")
        else:
            out.append(f"${s.content}$")
    return "".join(out).strip() or (" " if cell else "")


def prose(value) -> str:
    r"""Prose with its ASCII math as ``$...$`` (:mod:`verification.report.prose`, as the HTML
    pages render it as MathML), on one line; the rest escaped.

    >>> prose("the bound ||alpha||_1 <= B sqrt(T) holds")
    'the bound $\\|\\alpha \\|_{1}\\le B\\sqrt{T}$ holds'
    """
    return _statement(prose_segments(" ".join(str(value).split())))


def _cell(value: str) -> str:
    # The first column names the row; numbers and JSON stay as written (as in the HTML table).
    return text(value) if value else " "


def _prose_cell(value: str) -> str:
    if not value or is_number(value) or value[:1] in "[{":
        return _cell(value)
    return _cell_statement(prose_segments(" ".join(value.split())))


def _table(t: Table) -> list[str]:
    lines = ["| " + " | ".join(_cell(c) for c in t.columns) + " |",
             "| " + " | ".join("---" for _ in t.columns) + " |"]
    lines += ["| " + " | ".join(_cell(v) if i == 0 else _prose_cell(v) for i, v in enumerate(row)) + " |"
              for row in t.rows]
    return [*lines, ""]


def _plot(owner: str, p: Plot, up: str = "") -> list[str]:
    lines = [f"![{text(p.title)}]({up}{plot_file(owner, p)})", "", f"*{prose(p.title)}.* {prose(p.caption)}", ""]
    if p.paper_showed:
        lines += [f"What the paper's figure showed: {_statement(quoted_segments(p.paper_showed))}", ""]
    return lines


def _claims_table(ctx: ReportContext, rows: Sequence[ForestRow]) -> list[str]:
    """A compact table of ``rows`` (the papers' claims or the conformance checks) in the
    forest's order, a row per claim linking its page, an inconclusive row with its reason."""
    lines = ["| claim | verdict | expected (pre-registered) | worst ratio (printed → corrected) | statistic (and what it must be) | statement |",
             "| --- | --- | --- | ---: | --- | --- |"]
    for r in rows:
        c = ctx.by_id[r.claim_id]
        printed, corrected = printed_and_corrected(r)
        verdicts = f"**{text(c.status)}**" + (
            f" (printed {text(printed)}" + (f", corrected {text(corrected)}" if corrected != "none" else "") + ")"
            if corrected != "none" or printed != c.status else "")
        ratio = worst_ratio_text(r)
        expected = text(c.claim.expected) + (" *(differs)*" if c.matches is False else "")
        statistic = text(c.key_number) + (f"; *why {text(c.status)}:* {_prose_cell(r.reason)}" if r.reason else "")
        lines.append(f"| [`{c.id}`](claims/{c.id}.md) | {verdicts} | {expected} | {text(ratio)} | "
                     f"{statistic} | {_prose_cell(c.claim.title)} |")
    return [*lines, ""]


def _counts(values: dict[str, int]) -> str:
    return ", ".join(f"{text(verdict)} {n}" for verdict, n in values.items())


def _header(ctx: ReportContext) -> list[str]:
    """The first lines: what the report is (its run), then the papers' claims and the
    conformance checks counted apart, as the plot and the two tables count them."""
    papers = "; ".join(f"*{text(title)}* ({key})" for key, title in ctx.papers.items()) or "no paper"
    lines = [f"# iln-verify report: {text(ctx.provenance)}", ""]
    if ctx.profile_note:
        lines += [f"*{text(ctx.profile_note)}*", ""]
    lines += [f"Empirical checks of the claims of {papers}. The HTML version (index.html) has the "
              "same content with the math rendered as MathML.", ""]
    if ctx.paper_rows:
        explorations = (f" ({ctx.explorations_checked} of them explorations)" if ctx.explorations_checked else "")
        lines += [f"**The papers' claims**, {len(ctx.paper_rows)} checked{explorations}: "
                  f"{_counts(ctx.paper_counts)}.", ""]
    if ctx.conformance_rows:
        lines += [f"**Conformance of the code** to its transcriptions, {len(ctx.conformance_rows)} checked "
                  f"(their own table; not in the plot): {_counts(ctx.conformance_counts)}.", ""]
    expectation = ("Differs from the pre-registered expectation: "
                   + ", ".join(f"[`{c.id}`](claims/{c.id}.md)" for c in ctx.mismatches) + "."
                   if ctx.mismatches else "Every verdict is the pre-registered expectation." if ctx.checked else "")
    lines += [f"{expectation} Each claim records the verdict the project expected before running "
              "it; a verdict that differs is a finding, not a failed run.".strip(), ""]
    if ctx.not_run_note:
        lines += [f"<sub>{text(ctx.not_run_note)}</sub>", ""]
    return lines


def _cell_statement(segs: Sequence[Segment]) -> str:
    """A statement inside a table cell (:func:`_statement` with ``cell``)."""
    return _statement(segs, cell=True)


def _errata_section(ctx: ReportContext) -> list[str]:
    """The errata ledger: its summary table, then each claim's entries (printed beside
    corrected, the quotations, the check and the numpy snippet with what it prints)."""
    lines = ["## Errata ledger", "", "Printed statements that fail: a *counterexample* with a numpy "
             "script that reproduces it without this package (the test suite runs each and checks "
             "what it prints), or a *quoted disagreement* between places of the papers (each "
             "quotation found word for word in the paper's text by the test suite).", "",
             "| claim | kind | printed → corrected | size of the violation |", "| --- | --- | --- | --- |"]
    for e in ctx.errata:
        number = f" ({e.number})" if e.number > 1 else ""
        lines.append(f"| [`{e.erratum.claim_id}`](claims/{e.erratum.claim_id}.md){number} | {text(e.kind)} | "
                     f"{_cell_statement(segments('$' + e.note.change + '$'))} | "
                     f"{_cell_statement(quoted_segments(e.note.size))} |")
    lines.append("")
    claim_id = None
    for e in ctx.errata:
        if e.erratum.claim_id != claim_id:
            claim_id = e.erratum.claim_id
            lines += [f"### [`{claim_id}`](claims/{claim_id}.md)", ""]
        several = sum(1 for other in ctx.errata if other.erratum.claim_id == claim_id) > 1
        lines += [f"**{f'Erratum {e.number}: ' if several else ''}{text(e.kind)}.** "
                  f"{_statement(quoted_segments(e.note.size))}.", ""]
        for side in e.sides:
            lines += [f"{side.label}:", "", _statement(side.segments), ""]
        lines += [f"{text(e.kind.capitalize())}: {prose(e.erratum.counterexample)}", ""]
        if e.erratum.quotes:
            lines += ["Quoted:", ""]
            # A list item holds no math block: every quotation's math goes inline.
            lines += [f"- {text(q.paper)}, {text(q.location)}: "
                      f"{_statement([Segment(g.kind, g.content) for g in quotation_segments(q.text)])}"
                      for q in e.erratum.quotes]
            lines.append("")
        lines += [f"Check of the correction: {prose(e.erratum.check)}", ""]
        if e.snippet is not None:
            lines += [f"Reproduce it with numpy (`{e.snippet.name}`):", "", "```python",
                      e.snippet.code.rstrip("\n"), "```", "", "It prints:", "", "```text",
                      e.snippet.output.rstrip("\n"), "```", ""]
    return lines


def _search_section(c: ClaimView) -> list[str]:
    """The claim's search (:mod:`verification.report.search`): what was tried, how, how long,
    the points not counted and the worst instance."""
    s = c.search
    if s is None:
        return []
    lines = ["## Search", "", f"*What was tried:* the instances above, over the space of the claim's "
             f"configuration for the {text(s.profile)} profile:", "", *_table(s.space),
             f"*How:* {text(s.method)}", "", f"*How long:* {text(s.duration)}.", ""]
    if s.points:
        lines += [f"### {text(s.points.title)}", "", *_table(s.points)]
    lines += [f"*Points counted:* {text(s.counted_text)}", "",
              f"*Worst instance:* statistic / bound {text(s.worst_ratio)}.", ""]
    return lines + (_table(s.worst) if s.worst else [])


def _domain_section(c: ClaimView) -> list[str]:
    """What the claim covered of its statement's domain, and per right side (printed first)
    its domain table, best instances and smallest violation (:mod:`verification.report.coverage`)."""
    cover = c.coverage
    if cover is None:
        return []
    lines = ["## Domain and best instances", ""]
    if not cover["searched"]:
        return [*lines, f"*Not searched by the engine:* {prose(cover['method'])}. The grid "
                f"({text(cover['grid_from'])}) is under Search.", ""]
    covered = ("every variable covered" if cover["covered"]
               else "not covered: " + "; ".join(cover["uncovered"]))
    lines += [f"*How the domain was covered:* {prose(cover['method'])}; {text(covered)}."
              + (f" *Scope:* {prose(cover['scope'])}" if cover.get("scope") else "")
              + (f" *Conformance:* {prose(c.conformance)}." if c.conformance else ""), ""]
    for label, tables in c.side_tables:
        lines += [f"### {text(label[:1].upper() + label[1:])}", ""]
        for t in tables:
            lines += [f"#### {text(t.title)}", "", *_table(t)]
    return lines


def claim_page(c: ClaimView, mutants: Table | None = None) -> str:
    """A claim's Markdown page (``claims/<id>.md``), its plots linked from ``../plots/``."""
    lines = [f"# {c.id}", "", "[Report](../REPORT.md)", "",
             f"**{prose(c.claim.title)}.** Verdict: **{text(c.status)}**; expected: "
             f"{text(c.claim.expected)} (pre-registered)" + (
                 "; the verdict differs from it: a finding, not a failed run." if c.matches is False
                 else "."), ""]
    if c.verdict is not None:
        run = (f"run {c.run.run_id} (started {c.run.started})" if c.run is not None
               else "a run the store does not record")
        lines += [f"> {prose(c.row.finding)}", "",
                  f"From {text(run)}: revision {text(c.revision or 'not recorded')}, {text(c.profile)} "
                  f"profile, seed {c.seed}, saved {text(c.saved_at)}.", ""]
        if c.proxy_data is not None:
            lines += [f"**Decided on {text(c.proxy_data['label'])}**, not on the paper's data: "
                      f"{prose(c.proxy_data.get('description', ''))}.", ""]
        if c.differs:
            lines += [f"**Not the paper's setting:** decided on a setting that differs from the paper's in "
                      f"{text(', '.join(c.differs))} (each under *differs* below, with what the paper states); "
                      "a contradiction found here is *not\\_reproduced*, not a violation.", ""]
    for s in c.sources:
        lines += [f"**{s.source.paper}** ({text(s.paper_title)}), {text(s.source.location)}:", "",
                  _statement(s.statement), ""]
    rule = text(c.claim.rule)
    if c.verdict is not None and c.verdict.rule != c.claim.rule:
        rule += f" (as applied: {text(c.verdict.rule)})"
    lines += [f"*Decision rule:* {rule}." + (
        f" Level {text(c.level)}, false-alarm share {format_value(c.verdict.alpha)} of the run's "
        "budget (Holm)." if c.verdict else ""), "",
        f"*Instances tried:* {prose(c.claim.instances or 'not described')}", ""]
    lines += _search_section(c)
    lines += _domain_section(c)
    if mutants is not None:
        lines += [f"#### {text(mutants.title)}", "", *_table(mutants)]
    for e in c.errata:
        lines += [f"*Erratum {e.number}* ({text(e.kind)}): {prose(e.erratum.counterexample)}", "",
                  "Corrected statement:", "", _statement(e.corrected), "",
                  f"Check of the correction: {prose(e.erratum.check)}", ""]
    if c.verdict is None:
        lines += [f"**{NOT_RUN}**: the store holds no verdict. Run it with `iln-verify run {c.id}`."]
        return "\n".join(lines).rstrip("\n") + "\n"
    lines += ["## Numbers", "", *_table(c.numbers)]
    if c.counterexample:
        lines += ["## Counterexample", "", *_table(c.counterexample)]
    lines += ["Reproduce:", "", "```", c.reproduce, "```", ""]
    if c.stability:
        lines += [f"Stability: {c.stability}.", ""]
    for p in c.plots:
        lines += _plot(c.id, p, "../")
    for t in c.tables:
        lines += [f"### {prose(t.title)}", "", *_table(t)]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_markdown(ctx: ReportContext) -> dict[str, str]:
    """``REPORT.md`` and a page per claim: a summary a code-hosting site shows at once, the
    detail (tables of every instance) a link away.

    Parameters
    ----------
    ctx : ReportContext

    Returns
    -------
    dict of str to str
        Text by path relative to the report's directory: ``REPORT.md`` and
        ``claims/<claim id>.md``.
    """
    lines = _header(ctx)
    lines += _plot("index", ctx.forest_plot)
    lines += ["## Claims of the papers", "", *_claims_table(ctx, ctx.paper_rows),
              "Worst ratio: statistic / bound of the printed statement, oriented so that above 1 "
              "it is exceeded, then the corrected statement's at its worst point; n/a where the "
              "bound is 0, negative or a band.", ""]
    if ctx.conformance_rows:
        lines += ["## Conformance of the code", "", "The implementation against its line-by-line "
                  "transcription of a paper, or a shipped default against what the paper's algorithm "
                  "asks: findings about this code, not about the papers.", "",
                  *_claims_table(ctx, ctx.conformance_rows)]
    if ctx.not_run:
        lines += [f"Not run in this store ({len(ctx.not_run)} claims; each page says how to run it): "
                  + ", ".join(f"[`{c.id}`](claims/{c.id}.md)" for c in ctx.not_run) + ".", ""]
    if ctx.changes is not None:
        lines += ["## What changed", "", f"{text(ctx.changes.title)}:", "", *_table(ctx.changes)]
    lines += _errata_section(ctx)
    generated = ctx.generated_mutants or {}
    lines += ["## Reproducibility", ""]
    lines += _table(ctx.reproducibility) if ctx.reproducibility else ["The store records no run.", ""]
    if ctx.selftest is not None:
        lines += ["## Self-test", "", SELFTEST_INTRO, "", *_table(selftest_tables(ctx.selftest)[0]),
                  "Every table of the self-test: `selftest.md` beside `selftest.json` "
                  "(python -m verification.selftest writes it) and the HTML report's selftest.html.", ""]
    if generated.get("by_claim"):
        lines += ["## Generated statement mutants", "", prose(generated_mutants_line(generated)), ""]
    files = {"REPORT.md": "\n".join(lines).rstrip("\n") + "\n"}
    for c in ctx.claims:
        entry = generated.get("by_claim", {}).get(c.id)
        files[f"claims/{c.id}.md"] = claim_page(c, generated_mutants_table(entry) if entry else None)
    return files


def selftest_section(doc: dict) -> list[str]:
    """The self-test's tables (:func:`selftest_tables`) as Markdown lines."""
    lines: list[str] = []
    for t in selftest_tables(doc):
        lines += [f"#### {text(t.title)}", "", *_table(t)]
    return lines
