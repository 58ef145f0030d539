r"""The README's headline and the documentation's verdict tables, written from ``summary.json``.

The README shows the headline of the committed report.  Written by hand, such figures drift
from the report they describe; written here, from ``summary.json``, they cannot: the block
between :data:`START` and :data:`END` in the README is :func:`headline` of the committed
``reports/summary.json``, a test holds it so, and ``iln-verify report --readme README.md``
(which ``nox -s report`` runs) writes it again with the report.  The headline is the count of
each verdict and a row per claim whose printed statement fails, with the worst ratio reached and
the counterexample the check recorded.

:func:`verdict_tables` (the documentation's page of verdicts, written when it is built) has one
table per paper for its statements and one for the conformance claims of the code, a row
per claim: its verdict, the verdicts of the printed and of the corrected statement, the
statistic with the direction of its comparison, the worst ratio reached (statistic / bound,
oriented so that above 1 the printed statement is exceeded; the corrected statement's after an
arrow), the smallest ratio its rule detects with probability 0.9, whether some instance tried
could reach the bound, and the time of its trials.

Examples
--------
>>> block = readme_block({"claims": [], "not_run": ["x.a"]})
>>> block.splitlines()[0] == START, block.splitlines()[-1] == END
(True, True)
>>> with_verdict_tables(f"intro\n{START}\nold\n{END}\nrest\n", {"claims": [], "not_run": []}).count("old")
0
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from verification.report.forest import (
    field,
    forest_rows,
    printed_and_corrected,
    ratio_text,
    worst_ratio_text,
)
from verification.report.markdown import text
from verification.report.tables import format_value
from verification.verdicts import (
    ERROR,
    HOLDS,
    HOLDS_AFTER_CORRECTION,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    OUTCOMES,
    VIOLATED,
)

__all__ = ["END", "START", "headline", "readme_block", "verdict_tables", "with_verdict_tables",
           "write_readme_tables"]

#: the comments that delimit the generated block in the README.
START = "<!-- verdicts:start (written by iln-verify report --readme from summary.json; do not edit) -->"
END = "<!-- verdicts:end -->"
_COLUMNS = ("claim", "statement", "expected", "verdict", "printed", "corrected",
            "statistic (and what it must be)", "worst ratio (printed → corrected)",
            "smallest ratio detected (prob. 0.9)", "can fail", "time (s)")


def _detectable(verdict: Mapping) -> str:
    """The weakest point's figure, and the best point's beside it when they differ (a
    summary written before the best point was recorded shows its one figure)."""
    value = field(verdict, "min_detectable_ratio")
    if value in ("inf", math.inf):
        text = "∞ (no violation detectable)"
    else:
        text = ratio_text(float(value)) if isinstance(value, int | float) else "not recorded"
    best = field(verdict, "min_detectable_ratio_best_point")
    if isinstance(best, int | float) and best != value:
        text += f" (best point {ratio_text(float(best))})"
    return text


def _can_fail(verdict: Mapping) -> str:
    value = field(verdict, "can_fail")
    return "not recorded" if value is None else "yes" if value else "no"


def _row(claim: Mapping) -> str:
    (row,) = forest_rows([(claim["id"], "", claim)])
    printed, corrected = printed_and_corrected(row)
    cells = (f"`{claim['id']}`", text(claim.get("title", "")), text(claim.get("expected", "")),
             f"**{text(claim['verdict'])}**", text(printed),
             text(corrected if corrected != "none" else "no correction"),
             # a row of a verdict always has its comparison (only a claim not run lacks one)
             text(row.comparison.text if row.comparison else "n/a"), text(worst_ratio_text(row)),
             text(_detectable(claim)),
             _can_fail(claim), f"{claim['elapsed_s']:.0f}" if isinstance(claim.get("elapsed_s"), int | float) else "")
    return "| " + " | ".join(cells) + " |"


def _table(claims: list[Mapping]) -> list[str]:
    return ["| " + " | ".join(_COLUMNS) + " |",
            "|" + "|".join("---:" if c in ("time (s)",) else "---" for c in _COLUMNS) + "|",
            *(_row(c) for c in claims), ""]


def _provenance(claims: list[Mapping]) -> str:
    """Which runs the verdicts come from: a summary can hold verdicts of several."""
    runs: dict[tuple, int] = {}
    for c in claims:
        key = (str(c.get("revision") or "not recorded")[:7], c.get("profile"), c.get("seed"),
               str(c.get("saved_at") or "")[:10])
        runs[key] = runs.get(key, 0) + 1
    parts = [f"{n} at revision {r}, {p} profile, seed {s}, saved {d}" for (r, p, s, d), n in sorted(runs.items())]
    return "Verdicts of `reports/summary.json`: " + ("; ".join(parts) if parts else "none") + "."


def _claims(summary: Mapping) -> list[Mapping]:
    claims = summary.get("claims") if isinstance(summary, Mapping) else None
    if not isinstance(claims, list):
        raise ValueError("summary: expected a summary.json document with a list of claims")
    return claims


def _not_run(summary: Mapping) -> list[str]:
    if not summary.get("not_run"):
        return []
    return ["Not run in this report: " + ", ".join(f"`{c}`" for c in summary["not_run"]) + ".", ""]


#: what the columns of ratios mean, under every table that shows them.
_RATIOS_NOTE = ("Worst ratio: statistic / bound, oriented so that above 1 the printed statement is "
                "exceeded (for a lower bound, bound / statistic), then the corrected statement's "
                "after the arrow; n/a where the bound is 0, negative or a band.")


def verdict_tables(summary: Mapping) -> str:
    """Every verdict of a ``summary.json`` document, a table per paper (the documentation's page).

    Parameters
    ----------
    summary : mapping
        A report's ``summary.json`` (its ``claims`` and ``not_run``).

    Returns
    -------
    str
        Markdown: a provenance line, a table per paper (the statements) and one of the
        conformance claims, the claims not run, and what the ratios mean.

    Raises
    ------
    ValueError
        ``summary`` has no list of claims.
    """
    claims = _claims(summary)
    lines = [_provenance(claims), ""]
    groups: dict[str, list[Mapping]] = {}
    for c in claims:
        group = "conformance" if c.get("kind") == "conformance" else c["id"].split(".", 1)[0]
        groups.setdefault(group, []).append(c)
    for group, members in sorted(groups.items(), key=lambda item: (item[0] == "conformance", item[0])):
        if group == "conformance":
            heading = "Conformance of the code to its transcriptions (not verdicts on the papers):"
        else:
            versions = sorted({s["paper"] for c in members for s in c.get("sources", [])})
            heading = f"Claims of the `{group}` paper ({', '.join(versions)}):"
        lines += [heading, "", *_table(members)]
    lines += [*_not_run(summary),
              _RATIOS_NOTE + " Smallest ratio detected: the ratio the rule detects with probability "
              "0.9 at its sample size and level. Can fail: whether some instance tried could reach "
              "the bound."]
    return "\n".join(lines)


#: fields of a recorded counterexample that say how to reproduce it, not where it is.
_REPRODUCTION = frozenset({"seed", "profile", "claim_seed_key", "reproduce", "trial_index", "description"})


def _instance(counterexample) -> str:
    """A recorded counterexample in one line: its point's name where it has one, else its
    first few scalar fields (``round=1, E_1=0, ...``)."""
    if not isinstance(counterexample, Mapping) or not counterexample:
        return "not recorded"
    point = counterexample.get("point")
    if isinstance(point, str):
        return point
    # A searched instance (verification.search) names its variables' values in its point.
    fields = _fields(point if isinstance(point, Mapping) else counterexample)
    return ", ".join(fields[:5 if isinstance(point, Mapping) else 4]) or "not recorded"


def _fields(values: Mapping) -> list[str]:
    return [f"{k}={format_value(v) if isinstance(v, float) else v}" for k, v in values.items()
            if k not in _REPRODUCTION and isinstance(v, str | int | float | bool) and len(str(v)) < 40]


def headline(summary: Mapping) -> str:
    """The report's headline: how many claims got each verdict, and the printed statements that fail.

    Parameters
    ----------
    summary : mapping
        A report's ``summary.json`` (its ``claims`` and ``not_run``).

    Returns
    -------
    str
        Markdown: a provenance line, the count of each verdict, and a table with a row per
        claim whose printed statement is violated: its verdict, the corrected statement's, the
        statistic against its bound, the worst ratio and the recorded counterexample.

    Raises
    ------
    ValueError
        ``summary`` has no list of claims.

    Examples
    --------
    >>> print(headline({"claims": [], "not_run": []}).splitlines()[2])
    No verdicts.
    """
    claims = _claims(summary)
    # Counted as the report counts them: the papers' claims apart from the conformance checks.
    papers = [c for c in claims if c.get("kind") != "conformance"]
    checks = [c for c in claims if c.get("kind") == "conformance"]
    lines = [_provenance(claims), ""]
    if not claims:
        lines += ["No verdicts.", ""]
    for group, what in ((papers, "claims of the papers"), (checks, "conformance checks of the code")):
        if group:
            counts = Counter(c["verdict"] for c in group)
            lines += [f"The {len(group)} {what}: " + ", ".join(
                f"**{n}** {_COUNTED[v]}" for v, n in sorted(counts.items(), key=_in_outcome_order)) + ".", ""]
    failing = []
    for c in claims:
        (row,) = forest_rows([(c["id"], "", c)])
        printed, corrected = printed_and_corrected(row)
        if printed == "violated":
            failing.append((c, row, corrected))
    if failing:
        lines += [f"The {len(failing)} claims whose printed statement fails (each reproduces with "
                  "`iln-verify run CLAIM --profile full --seed 0`):", "",
                  "| claim | statement | verdict | corrected statement | statistic (and what it must be) "
                  "| worst ratio | counterexample |",
                  "|---|---|---|---|---|---|---|"]
        for c, row, corrected in failing:
            lines.append("| " + " | ".join((
                f"`{c['id']}`", text(c.get("title", "")), f"**{text(c['verdict'])}**",
                text(corrected if corrected != "none" else "no correction"),
                text(row.comparison.text if row.comparison else "n/a"),
                text(worst_ratio_text(row)), text(_instance(c.get("counterexample"))))) + " |")
        lines += ["", _RATIOS_NOTE]
    lines += ["", *_not_run(summary)]
    return "\n".join(lines).rstrip("\n")


#: a verdict as counted in the headline, in the order of verification.verdicts.OUTCOMES.
_COUNTED = {HOLDS: "hold", HOLDS_AFTER_CORRECTION: "hold after a correction", VIOLATED: "violated",
            INCONCLUSIVE: "inconclusive", NOT_REPRODUCED: "not reproduced", ERROR: "raised an error"}


def _in_outcome_order(item: tuple[str, int]) -> int:
    return OUTCOMES.index(item[0]) if item[0] in OUTCOMES else len(OUTCOMES)


def readme_block(summary: Mapping) -> str:
    """The README's generated block: :func:`headline` and the measured time of each profile
    (:func:`verification.costs.profile_times`) between :data:`START` and :data:`END`."""
    from verification import costs

    times = (f"How long `iln-verify run` takes on the whole catalog, by profile: {costs.profile_times()} "
             "(from `verification/costs.json`, written by `python -m verification.costs`).")
    return "\n".join([START, "", headline(summary), "", times, "", END])


def with_verdict_tables(readme: str, summary: Mapping) -> str:
    """``readme`` with its block between :data:`START` and :data:`END` written again.

    Raises
    ------
    ValueError
        The README lacks the markers, or has either more than once, or in the wrong order.
    """
    if readme.count(START) != 1 or readme.count(END) != 1 or readme.index(START) > readme.index(END):
        raise ValueError(f"readme: expected one {START!r} followed by one {END!r}")
    before, rest = readme.split(START, 1)
    return before + readme_block(summary) + rest.split(END, 1)[1]


def write_readme_tables(readme: str | Path, summary: str | Path) -> bool:
    """Write the README's block from ``summary`` (a path of a ``summary.json``); returns
    whether the README changed.

    Raises
    ------
    ValueError
        The README lacks the markers (see :func:`with_verdict_tables`).
    """
    readme, summary = Path(readme), Path(summary)
    old = readme.read_text()
    new = with_verdict_tables(old, json.loads(summary.read_text()))
    if new != old:
        readme.write_bytes(new.encode("utf-8"))
    return new != old
