"""Where the documentation explains each verdict field the report shows, as a relative link.

The HTML report links each field it shows (``verdict``, ``verdict_printed`` and
``verdict_corrected``, ``min_detectable_ratio``, ``can_fail``, ``family``, ``coverage``,
``not_reproduced``, ...) to the section of ``docs/explanation/`` that defines it.

The link goes to the documentation's **source** Markdown in the checkout, by a path relative to
the report's directory (``../docs/explanation/verdicts.md#the-fields`` from ``reports/``), not
to the built Sphinx site: ``docs/_build/`` is not committed (``.gitignore``) and exists only
after ``nox -s docs``, so links into it would be broken in the committed report and in every
fresh clone, while the source pages are in every checkout, open offline in any browser as text,
and render with their heading anchors on a code-hosting site.  The anchors are the headings'
slugs (myst's ``myst_heading_anchors`` and GitHub's alike).  A report written where no checkout's
``docs/`` is found (the package installed from a wheel) shows the fields without links.

Examples
--------
>>> explanation("can_fail", "../docs/explanation")
'../docs/explanation/verdicts.md#the-fields'
>>> explanation("coverage", "../docs/explanation", up="../")
'../../docs/explanation/search.md#coverage-of-the-declared-domain'
>>> explanation("can_fail", None) is None
True
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DOCS", "EXPLAINED", "docs_base", "explanation", "heading_anchor"]

#: the documentation's explanation pages in a checkout (beside the ``verification`` package).
DOCS = Path(__file__).resolve().parents[2] / "docs" / "explanation"

#: field -> (page of ``docs/explanation``, heading whose slug is the anchor).
EXPLAINED = {
    "verdict": ("verdicts.md", "The outcomes"),
    "not_reproduced": ("verdicts.md", "The outcomes"),
    "verdict_printed": ("verdicts.md", "The fields"),
    "verdict_corrected": ("verdicts.md", "The fields"),
    "worst_ratio": ("verdicts.md", "Reading a ratio"),
    "min_detectable_ratio": ("verdicts.md", "The fields"),
    "can_fail": ("verdicts.md", "The fields"),
    "family": ("verdicts.md", "The fields"),
    "pvalue": ("verdicts.md", "The fields"),
    "coverage": ("search.md", "Coverage of the declared domain"),
    "statement_mutants": ("search.md", "Coverage of the declared domain"),
}


def heading_anchor(heading: str) -> str:
    """A Markdown heading's anchor as myst and GitHub make it: lower case, punctuation other than
    ``-`` and ``_`` dropped, spaces as ``-``.

    >>> heading_anchor("The direction being built: claims as specifications")
    'the-direction-being-built-claims-as-specifications'
    """
    kept = "".join(ch for ch in heading.strip().lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def docs_base(out: str | Path) -> str | None:
    """The explanation pages' directory relative to the report's directory ``out`` (POSIX
    separators), or None when this checkout has no ``docs/explanation``."""
    if not DOCS.is_dir():
        return None
    return Path(os.path.relpath(DOCS, Path(out).resolve())).as_posix()


def explanation(field: str, base: str | None, up: str = "") -> str | None:
    """The link to where ``field`` is explained, from a page ``up`` below the report's
    directory (``"../"`` for a claim's page); None without a documentation directory.

    Raises
    ------
    KeyError
        ``field`` has no explanation listed in :data:`EXPLAINED`.
    """
    page, heading = EXPLAINED[field]
    if base is None:
        return None
    return f"{up}{base}/{page}#{heading_anchor(heading)}"
