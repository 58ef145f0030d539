"""The HTML report: ``index.html`` and one page per claim, self-contained and offline.

Templates are jinja2 files in ``templates/`` rendered with autoescaping, so every text from
the catalog and the store is escaped; only two kinds of markup go in unescaped, both checked
or produced here: MathML from :func:`verification.report.mathml.to_mathml` (checked to be
MathML only), which prose's math becomes too (:mod:`verification.report.prose`; the rest of the
prose escaped, code in ``<code>``), and the plots' SVG, which matplotlib writes from numbers.  The CSS is inline;
there are no scripts, fonts or other resources to fetch.
"""

from __future__ import annotations

import re

import jinja2
from markupsafe import Markup, escape

from verification.report.context import NUMBER_FIELDS, ReportContext, is_exploration
from verification.report.errata import mark, quotation_segments
from verification.report.explanations import explanation
from verification.report.forest import GROUP_VERDICT, printed_and_corrected, worst_ratio_text
from verification.report.mathml import to_mathml
from verification.report.prose import prose_segments
from verification.report.self_test import (
    SELFTEST_INTRO,
    generated_mutants_line,
    generated_mutants_table,
    selftest_tables,
)
from verification.report.statements import Segment, quoted_segments, segments
from verification.report.tables import format_value, is_number

__all__ = ["render_pages", "slug"]



def slug(text: str) -> str:
    """An HTML id from any text.

    >>> slug("iln.lemma4.hoeffding")
    'iln-lemma4-hoeffding'
    """
    return re.sub(r"[^A-Za-z0-9_]+", "-", str(text)).strip("-").lower()


def _mathml(segment: Segment) -> Markup:
    # to_mathml returns either checked MathML or escaped source: safe to insert as it is.
    return Markup(to_mathml(segment.content, display=segment.display).markup)


def _prose(text) -> Markup:
    """Prose with its ASCII math as MathML (:mod:`verification.report.prose`), the rest escaped."""
    parts = []
    for s in prose_segments(str(text)):
        if s.kind == "math":
            # prose_segments keeps only math that renders: checked MathML, safe as it is.
            parts.append(to_mathml(s.content, display=False).markup)
        elif s.kind == "code":
            parts.append(f"<code>{escape(s.content)}</code>")
        else:
            parts.append(str(escape(s.content)))
    return Markup("".join(parts))


def _marked_mathml(segment: Segment, changed: frozenset[int]) -> Markup:
    # mark() adds only a class attribute to to_mathml's checked markup: safe as it is.
    return Markup(mark(segment, changed))


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("verification.report", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(mathml=_mathml, prose=_prose, marked_mathml=_marked_mathml, quotation=quotation_segments, segments=segments, quoted=quoted_segments, fmt=format_value, slug=slug,
                       is_number=is_number, worst_ratio=worst_ratio_text,
                       verdicts=printed_and_corrected, group_verdict=GROUP_VERDICT.__getitem__)
    return env


def _explained(docs: str | None):
    """The template function ``explained(field, up)``: a small link to where the documentation
    explains ``field`` (:mod:`verification.report.explanations`), empty without the docs."""
    def explained(field: str, up: str = "") -> Markup:
        href = explanation(field, docs, up)
        if href is None:
            return Markup("")
        return Markup(f' <a class="explained" href="{escape(href)}" title="what {escape(field)} means">(?)</a>')
    return explained


def _links(table, docs: str | None, up: str) -> dict[str, str]:
    """The rows of ``table`` that show a verdict field, with the link to its explanation."""
    if table is None or docs is None:
        return {}
    return {row[0]: str(explanation(NUMBER_FIELDS[row[0]], docs, up))
            for row in table.rows if row[0] in NUMBER_FIELDS}


def render_pages(ctx: ReportContext) -> dict[str, str]:
    """Render the HTML pages.

    Parameters
    ----------
    ctx : ReportContext

    Returns
    -------
    dict of str to str
        Page text by path relative to the report's directory: ``index.html``,
        ``errata.html``, ``selftest.html`` (when the self-test's figures were found) and
        ``claims/<claim id>.html``.
    """
    env = _environment()
    env.globals["explained"] = _explained(ctx.docs)
    generated = ctx.generated_mutants or {}
    pages = {"index.html": env.get_template("index.html").render(
                 ctx=ctx, mutants_line=generated_mutants_line(generated) if generated.get("by_claim") else None),
             "errata.html": env.get_template("errata.html").render(ctx=ctx)}
    if ctx.selftest is not None:
        # A page of its own: its tables (a row per test and per seed) would bury the index.
        # The statement mutants generated from the specifications beside the hand-written ones.
        generated_tables = [generated_mutants_table(e) for e in generated.get("by_claim", {}).values()]
        pages["selftest.html"] = env.get_template("selftest.html").render(
            ctx=ctx, selftest_tables=[*selftest_tables(ctx.selftest), *generated_tables],
            selftest_intro=SELFTEST_INTRO)
    template = env.get_template("claim.html")
    for c in ctx.claims:
        entry = (ctx.generated_mutants or {}).get("by_claim", {}).get(c.id)
        pages[c.page] = template.render(c=c, row=c.row, explore=is_exploration(c.claim), up="../",
                                        links=_links(c.numbers, ctx.docs, "../"),
                                        mutants=generated_mutants_table(entry) if entry else None)
    return pages
