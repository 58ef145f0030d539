"""The HTML report: ``index.html`` and one page per claim, self-contained and offline.

Templates are jinja2 files in ``templates/`` rendered with autoescaping, so every text from
the catalog and the store is escaped; only two kinds of markup go in unescaped, both checked
or produced here: MathML from :func:`verification.report.mathml.to_mathml` (checked to be
MathML only) and the plots' SVG, which matplotlib writes from numbers.  The CSS is inline;
there are no scripts, fonts or other resources to fetch.
"""

from __future__ import annotations

import re

import jinja2
from markupsafe import Markup

from verification import catalog
from verification.report.context import ReportContext, is_exploration
from verification.report.mathml import to_mathml
from verification.report.self_test import SELFTEST_INTRO, selftest_tables
from verification.report.statements import Segment, segments
from verification.report.tables import format_value

__all__ = ["render_pages", "slug"]

_NUMBER = re.compile(r"^-?[\d.]+(e[+-]?\d+)?$|^n/a$|^NaN$|^-?inf$")


def slug(text: str) -> str:
    """An HTML id from any text.

    >>> slug("iln.lemma4.hoeffding")
    'iln-lemma4-hoeffding'
    """
    return re.sub(r"[^A-Za-z0-9_]+", "-", str(text)).strip("-").lower()


def _mathml(segment: Segment) -> Markup:
    # to_mathml returns either checked MathML or escaped source: safe to insert as it is.
    return Markup(to_mathml(segment.content, display=segment.display).markup)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("verification.report", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(mathml=_mathml, segments=segments, fmt=format_value, slug=slug,
                       is_number=lambda cell: bool(_NUMBER.match(cell)))
    return env


def render_pages(ctx: ReportContext) -> dict[str, str]:
    """Render the HTML pages.

    Parameters
    ----------
    ctx : ReportContext

    Returns
    -------
    dict of str to str
        Page text by path relative to the report's directory: ``index.html`` and
        ``claims/<claim id>.html``.
    """
    env = _environment()
    selftest = selftest_tables(ctx.selftest) if ctx.selftest is not None else []
    pages = {"index.html": env.get_template("index.html").render(
        ctx=ctx, papers=catalog.PAPERS, selftest_tables=selftest,
        selftest_intro=SELFTEST_INTRO)}
    template = env.get_template("claim.html")
    for c in ctx.claims:
        pages[c.page] = template.render(c=c, explore=is_exploration(c.id))
    return pages
