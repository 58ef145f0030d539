"""Write the report's files: ``index.html``, ``errata.html``, ``selftest.html``, ``claims/*.html``,
``REPORT.md``, ``claims/*.md``, ``plots/*.svg`` and ``summary.json``.

The files are pure functions of the store, the catalog and where they are written relative to
the checkout's documentation (the HTML pages link each verdict field to its explanation by a
relative path, :mod:`verification.report.explanations`); there is no time stamp of the writing,
so writing the report twice from the same store to the same place gives byte-identical files.  Stale pages and plots
of an earlier report (a claim removed, a plot no longer drawn) are deleted from ``claims/`` and
``plots/``; nothing else in the output directory is touched.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from verification.report import diff
from verification.report.context import ReportError, gather, plot_file
from verification.report.markdown import render_markdown
from verification.report.pages import render_pages

__all__ = ["OWNED_PATTERNS", "write_report"]

#: files of the output directory that belong to the report (and may be replaced or deleted).
OWNED_PATTERNS = ("claims/*.html", "claims/*.md", "plots/*.svg", "errata.html", "selftest.html")


def report_files(store: str | Path, out: str | Path, against: str | Path | None = None) -> dict[str, str]:
    """The report's files as text, by path relative to ``out`` (see :func:`write_report`)."""
    ctx = gather(store, out)
    if against is not None:
        try:
            old, new = diff.load(against), diff.load(store)
        except ValueError as error:
            raise ReportError(f"against: {error}") from None
        ctx = replace(ctx, changes=diff.changes_table(diff.compare(old, new), old, new))
    files = render_pages(ctx)
    files.update(render_markdown(ctx))
    # allow_nan=False: the summary is strict JSON (gather turned NaN and infinities into null).
    files["summary.json"] = json.dumps(ctx.summary, indent=2, allow_nan=False) + "\n"
    files[plot_file("index", ctx.forest_plot)] = ctx.forest_plot.svg
    for c in ctx.claims:
        for p in c.plots:
            files[plot_file(c.id, p)] = p.svg
    return files


def write_report(store: str | Path, out: str | Path, against: str | Path | None = None) -> list[Path]:
    """Write the report of the store's latest verdicts into ``out``.

    Parameters
    ----------
    store : path
        An existing store written by ``iln-verify run``.
    out : path
        The output directory, created if missing.
    against : path, optional
        An earlier report's store or ``summary.json``: the index gets a section of what
        changed since it (:mod:`verification.report.diff`).

    Returns
    -------
    list of Path
        The files written, sorted.

    Raises
    ------
    ReportError
        ``store`` does not exist, ``out`` is not a directory, or a stored record is unreadable.
    verification.store.StoreError
        The store is corrupted, of another version, or cannot be opened.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ReportError(f"out: {out} exists and is not a directory")
    files = report_files(store, out, against)
    for directory in ("claims", "plots"):
        (out / directory).mkdir(parents=True, exist_ok=True)
    for pattern in OWNED_PATTERNS:
        for stale in out.glob(pattern):
            if stale.relative_to(out).as_posix() not in files:
                stale.unlink()
    written = []
    for relative, content in sorted(files.items()):
        path = out / relative
        # Bytes, not text mode: no platform newline translation, so the files are identical.
        path.write_bytes(content.encode("utf-8"))
        written.append(path)
    return written
