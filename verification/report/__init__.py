"""The verification report: HTML pages, REPORT.md, SVG plots and summary.json from a store.

``iln-verify report [--store PATH] [--out DIR]`` calls :func:`write_report`.  The modules:
:mod:`~verification.report.context` gathers the data once; :mod:`~verification.report.pages`
(HTML) and :mod:`~verification.report.markdown` render it; :mod:`~verification.report.plots`
draws the SVG plots by the shape of each verdict's details; :mod:`~verification.report.tables`
formats numbers and details; :mod:`~verification.report.statements` and
:mod:`~verification.report.mathml` turn the printed statements into MathML;
:mod:`~verification.report.search` says what each claim's check tried;
:mod:`~verification.report.readme` writes the README's headline of the verdicts from ``summary.json``.
"""

from verification.report.context import ReportError, gather
from verification.report.writer import write_report

__all__ = ["ReportError", "gather", "write_report"]
