r"""``REPORT.md``: the report's content for a code-hosting site.

The same :class:`~verification.report.context.ReportContext` as the HTML pages, in one file:
the summary, the tightness chart, the errata ledger, the explorations, the reproducibility
block, then a section per claim.  Math stays LaTeX (``$...$`` inline, a ``math`` code block for
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

from verification import catalog
from verification.report.context import NOT_RUN, ClaimView, ReportContext, plot_file
from verification.report.plots import Plot
from verification.report.self_test import SELFTEST_INTRO, selftest_tables
from verification.report.statements import Segment, segments
from verification.report.tables import Table, format_value

__all__ = ["anchor", "render_markdown", "selftest_section", "text"]

_SPECIAL = re.compile(r"([\\`*_\[\]<>|$#])")


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation other than ``-``/``_`` dropped."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def text(value: str) -> str:
    """Plain text with Markdown's special characters escaped (one line)."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(value).split()))


def _statement(segs: Sequence[Segment]) -> str:
    """A statement as Markdown: display math in a ``math`` block, inline math in ``$...$``."""
    out = []
    for s in segs:
        if s.kind == "text":
            out.append(text(s.content))
        elif s.display:
            out.append(f"\n\n```math\n{s.content}\n```\n\n")
        else:
            out.append(f"${s.content}$")
    return "".join(out).strip()


def _cell(value: str) -> str:
    return text(value) if value else " "


def _table(t: Table) -> list[str]:
    cell = _cell
    lines = ["| " + " | ".join(cell(c) for c in t.columns) + " |",
             "| " + " | ".join("---" for _ in t.columns) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in t.rows]
    return [*lines, ""]


def _plot(owner: str, p: Plot) -> list[str]:
    lines = [f"![{text(p.title)}]({plot_file(owner, p)})", "", f"*{text(p.title)}.* {text(p.caption)}", ""]
    if p.paper_showed:
        lines += [f"What the paper's figure showed: {_statement(segments(p.paper_showed))}", ""]
    return lines


def _summary(claims: Sequence[ClaimView]) -> list[str]:
    lines = ["| claim | sources | verdict | expected | statistic vs bound | interval | tightness | time (s) |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for c in claims:
        v = c.verdict
        expected = text(c.claim.expected) + (" **(differs)**" if c.matches is False else "")
        numbers = ([format_value(list(v.interval)), format_value(v.tightness), f"{v.elapsed_s:.1f}"]
                   if v else [" ", " ", " "])
        lines.append(f"| [`{c.id}`](#{anchor(c.id)}) {text(c.claim.title)} | {text(c.where)} | "
                     f"**{text(c.status)}** | {expected} | {text(c.key_number)} | "
                     + " | ".join(text(n) for n in numbers) + " |")
    return [*lines, ""]


def _claim(c: ClaimView) -> list[str]:
    lines = [f"### {c.id}", "", f"**{text(c.claim.title)}.** Verdict: **{text(c.status)}**; expected: "
             f"{text(c.claim.expected)}" + (" (differs from the expected verdict)." if c.matches is False
                                            else "."), ""]
    for s in c.sources:
        lines += [f"**{s.source.paper}** ({text(s.paper_title)}), {text(s.source.location)}:", "",
                  _statement(s.statement), ""]
    rule = text(c.claim.rule)
    if c.verdict is not None and c.verdict.rule != c.claim.rule:
        rule += f" (as applied: {text(c.verdict.rule)})"
    lines += [f"*Decision rule:* {rule}." + (
        f" Level {text(c.level)}, false-alarm share {format_value(c.verdict.alpha)} of the run's "
        f"budget (Holm), power {format_value(c.verdict.power)} (the smallest violation this check "
        f"detects with probability 0.9, in the statistic's units)." if c.verdict else ""), "",
        f"*Instances tried:* {text(c.claim.instances or 'not described')}", ""]
    for e in c.errata:
        lines += [f"*Erratum {e.number}* ({text(e.kind)}): {text(e.erratum.counterexample)}", "",
                  "Corrected statement:", "", _statement(e.corrected), "",
                  f"Check of the correction: {text(e.erratum.check)}", ""]
    if c.verdict is None:
        return [*lines, f"**{NOT_RUN}**: the store holds no verdict. Run it with "
                        f"`iln-verify run {c.id}`.", ""]
    lines += ["#### Numbers", "", *_table(c.numbers)]
    if c.counterexample:
        lines += ["#### Counterexample", "", *_table(c.counterexample)]
    lines += ["Reproduce:", "", "```", c.reproduce, "```", ""]
    for p in c.plots:
        lines += _plot(c.id, p)
    for t in c.tables:
        lines += [f"#### {text(t.title)}", "", *_table(t)]
    return lines



def render_markdown(ctx: ReportContext) -> str:
    """The text of ``REPORT.md``.

    Parameters
    ----------
    ctx : ReportContext

    Returns
    -------
    str
    """
    papers = "; ".join(f"*{text(title)}* ({key})" for key, title in catalog.PAPERS.items())
    counts = ", ".join(f"{text(status)} {n}" for status, n in ctx.counts.items())
    lines = ["# iln-verify report", "",
             f"Empirical checks of the claims of {papers}. The HTML version (index.html) has the "
             "same content with the math rendered as MathML.", "", f"Verdicts: {counts}.", ""]
    if ctx.mismatches:
        lines += ["Verdicts that differ from the expected ones: "
                  + ", ".join(f"[`{c.id}`](#{anchor(c.id)})" for c in ctx.mismatches) + ".", ""]
    lines += ["## Claims of the papers", "", *_summary(ctx.statements), "## Tightness", ""]
    lines += _plot("index", ctx.tightness) if ctx.tightness else ["No claim has a finite tightness yet.", ""]
    lines += ["## Errata ledger", "", "Printed statements that fail, with the counterexample, the "
              "corrected statement, and the check that the corrected statement holds.", ""]
    for e in ctx.errata:
        lines += [f"### Erratum of [`{e.erratum.claim_id}`](#{anchor(e.erratum.claim_id)})", ""]
        for paper, segs in e.printed:
            lines += [f"Printed ({paper}):", "", _statement(segs), ""]
        lines += [f"{text(e.kind.capitalize())}: {text(e.erratum.counterexample)}", "",
                  "Corrected statement:", "",
                  _statement(e.corrected), "", f"Check: {text(e.erratum.check)}", ""]
    lines += ["## Explorations", "", "Findings beyond the papers' numbered statements, checked with "
              "the same statistics. No erratum comes from them; a violation is a finding.", ""]
    lines += _summary(ctx.explorations) if ctx.explorations else ["No exploration in the catalog yet.", ""]
    lines += ["## Reproducibility", ""]
    lines += _table(ctx.reproducibility) if ctx.reproducibility else ["The store records no run.", ""]
    if ctx.selftest is not None:
        lines += ["## Self-test", "", SELFTEST_INTRO, "", *selftest_section(ctx.selftest)]
    lines += ["## Claims, one by one", ""]
    for c in ctx.claims:
        lines += _claim(c)
    return "\n".join(lines).rstrip("\n") + "\n"


def selftest_section(doc: dict) -> list[str]:
    """The self-test's tables (:func:`selftest_tables`) as Markdown lines."""
    lines: list[str] = []
    for t in selftest_tables(doc):
        lines += [f"#### {text(t.title)}", "", *_table(t)]
    return lines
