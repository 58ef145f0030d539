r"""The first screen of the report: every claim's statistic against its bound, on one axis.

A verdict compares a statistic with a bound, but the direction of the comparison is not a
field of every stored verdict: most statements are upper bounds, a few are lower bounds (a
share of seeds that must reach a level) or bands (an exponent that must lie in a range).
:func:`comparison` reads it from what the data say, in this order:

1. the verdict's own ``worst_ratio`` (statistic / bound, oriented so that above 1 the printed
   statement is exceeded), where the verdict or its details carry one;
2. a ``band`` ``[low, high]`` in the details: the statement is "within the band";
3. otherwise the verdict and the side of the bound the statistic lies on: a printed statement
   found exceeded (``violated``, ``holds_after_correction``, or a figure's ``not_reproduced``)
   with the statistic above its bound,
   or one that holds with the statistic at or below it, is an upper bound (``<=``); the other
   two cases are lower bounds (``>=``), whose ratio is bound / statistic.

A ratio needs a positive bound and a statistic of the same sign: a bound of 0 or a negative
one, or a band, leaves the ratio undefined, and the row says so with the raw numbers instead of
inventing one.

:func:`forest_rows` turns the claims into rows grouped by verdict (fails, fixed by a correction,
holds, not reproduced, inconclusive, raised, not run; one verdict each), each with a
one-sentence finding (an inconclusive row's begins with the reason its verdict stores; a
figure not reproduced says in its headline what differs from the paper's setting), and :func:`forest_svg` draws
them as one self-contained SVG (``<svg id="forest">``) sized to be read at 1400 px without
scaling: text at 12 px, log10 of the ratio on the axis, the printed statement as a dot with
its interval, the corrected statement as a diamond.

Examples
--------
>>> c = comparison({"verdict": "holds", "statistic": 0.2, "bound": 0.5, "interval": [0.1, 0.4]})
>>> c.sense, round(c.ratio, 3), [round(x, 3) for x in c.ratio_interval]
('<=', 0.4, [0.2, 0.8])
>>> comparison({"verdict": "violated", "statistic": 0.377, "bound": 0.5,
...             "interval": [0.27, 0.49]}).sense
'>='
>>> comparison({"verdict": "holds", "statistic": 0.0, "bound": 0.0, "interval": [0, 0]}).undefined
'bound 0: no ratio'
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from verification.report.tables import format_interval, format_value

__all__ = ["GROUPS", "GROUP_VERDICT", "Comparison", "ForestRow", "comparison", "field", "forest_rows",
           "forest_svg", "group_heading", "printed_and_corrected", "ratio_text", "verdict_counts",
           "worst_ratio_text"]

#: the forest's groups, in reading order: (verdict group, heading).  A figure contradicted on
#: a setting other than the paper's has a group of its own, apart from the papers' failures.
GROUPS = (("fails", "Fails as printed"), ("fixed", "Fails as printed, fixed by a correction"),
          ("holds", "Holds"),
          ("not reproduced", "Contradicted on a setting other than the paper's (not a violation)"),
          ("inconclusive", "Inconclusive"), ("error", "The check raised"), ("not run", "Not run"))
#: the verdict of each group's rows: a group is one verdict, so the plot's groups, the header's
#: counts and the table's rows count the same claims (:func:`verdict_counts`).
GROUP_VERDICT = {"fails": "violated", "fixed": "holds_after_correction", "holds": "holds",
                 "not reproduced": "not_reproduced", "inconclusive": "inconclusive", "error": "error",
                 "not run": "not run"}
_GROUP_OF = {v: g for g, v in GROUP_VERDICT.items()}
_COLOURS = {"fails": "#c62828", "fixed": "#e65100", "holds": "#2e7d32", "not reproduced": "#5d4037",
            "inconclusive": "#616161", "error": "#6a1b9a", "not run": "#9e9e9e"}
#: the verdicts whose statistic was found past its bound (a printed statement, or a figure's
#: claim on a setting other than the paper's).
_EXCEEDED = ("violated", "holds_after_correction", "not_reproduced")
#: comparison signs shown with a statistic and its bound.
SENSE_WORDS = {"<=": "at most", "<": "below", ">=": "at least", "=": "equal to", "band": "within"}


def field(verdict, name: str):
    """A verdict's field ``name``: an attribute of the verdict (a :class:`Verdict` or its JSON),
    else an entry of its details; None when neither has it.

    Fields that issues beyond this module add to verdicts (``worst_ratio``,
    ``min_detectable_ratio``, ``verdict_printed``, ...) are read through this one function, so
    the report shows them as soon as a verdict carries them, at either place.
    """
    if isinstance(verdict, Mapping):
        value = verdict.get(name)
        details = verdict.get("details")
    else:
        value = getattr(verdict, name, None)
        details = getattr(verdict, "details", None)
    if value is None and isinstance(details, Mapping):
        value = details.get(name)
    return value


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class Comparison:
    """How a verdict's statistic compares with its bound.

    ``sense`` is ``<=``, ``>=`` or ``band``; ``ratio`` is statistic / bound oriented so that
    above 1 the printed statement is exceeded (None when ``undefined`` says why there is none);
    ``ratio_interval`` the same for the ends of the statistic's interval (an end may be 0 or
    infinite); ``band`` the band's ends when ``sense`` is ``band``; ``interval`` the
    statistic's own interval (None for a missing end).
    """

    sense: str
    statistic: float | None
    bound: float | None
    ratio: float | None
    ratio_interval: tuple[float, float] | None
    undefined: str | None
    band: tuple[float, float] | None = None
    interval: tuple[float | None, float | None] = (None, None)

    @property
    def text(self) -> str:
        """The statistic with the direction of its comparison, e.g. ``0.0079 (must be <= 0.00046)``."""
        stat = format_value(self.statistic)
        if self.sense == "band" and self.band:
            return f"{stat} (must lie in [{format_value(self.band[0])}, {format_value(self.band[1])}])"
        if self.sense == "=":
            return f"{stat} (must equal {format_value(self.bound)} within a margin)"
        sign = {"<=": "≤", ">=": "≥", "<": "<"}[self.sense]
        return f"{stat} (must be {sign} {format_value(self.bound)})"


def _sense(verdict, statistic: float, bound: float, interval: tuple) -> str:
    printed = field(verdict, "verdict_printed") or field(verdict, "verdict")
    low, high = interval
    if printed == "holds" and low is not None and high is not None and low < bound < high:
        # A statement that holds although its interval straddles the bound is an
        # equivalence (unbiasedness within a margin): neither side is the violation.
        return "="
    if statistic == bound and printed in _EXCEEDED:
        # Exceeded while equal to its bound: the printed inequality is strict.
        return "<"
    if statistic == bound or printed == "holds_after_correction":
        # The numbers of a corrected claim may be the printed statement's (above the bound)
        # or the corrected one's (below it): an upper bound either way.
        return "<="
    exceeded = printed in ("violated", "not_reproduced")
    return "<=" if (statistic > bound) == exceeded else ">="


def comparison(verdict) -> Comparison:
    """The direction of a verdict's comparison and its oriented ratio (module docstring).

    Parameters
    ----------
    verdict : Verdict or mapping
        A verdict or its JSON.

    Returns
    -------
    Comparison
    """
    statistic, bound = field(verdict, "statistic"), field(verdict, "bound")
    statistic = float(statistic) if _number(statistic) else None
    bound = float(bound) if _number(bound) else None
    interval = field(verdict, "interval") or (None, None)
    low, high = (float(v) if _number(v) else None for v in [*list(interval), None, None][:2])
    band = field(verdict, "band")
    if isinstance(band, list | tuple) and len(band) == 2 and all(_number(b) for b in band):
        return Comparison("band", statistic, bound, None, None,
                          "a band, not a bound: no ratio", (float(band[0]), float(band[1])), (low, high))
    if statistic is None or bound is None:
        return Comparison("<=", statistic, bound, None, None, "statistic or bound missing")
    sense = _sense(verdict, statistic, bound, (low, high))
    worst = field(verdict, "worst_ratio")
    if bound == 0:
        undefined = "bound 0: no ratio"
    elif sense == "=":
        undefined = "an equality within a margin: no ratio"
    elif bound < 0 or (statistic < 0 and sense in ("<=", "<")) or (statistic <= 0 and sense == ">="):
        undefined = "bound and statistic of opposite signs: no ratio"
    else:
        undefined = None
    if _number(worst) and undefined:
        # The claim's own oriented ratio, where the statistic and bound give none (a bound of
        # 0, say): its interval cannot be oriented from them, so none is drawn.
        return Comparison(sense, statistic, bound, float(worst), None, None, None, (low, high))
    if undefined:
        return Comparison(sense, statistic, bound, None, None, undefined, None, (low, high))
    low = statistic if low is None else low
    high = math.inf if high is None else high

    def oriented(value: float) -> float:
        if sense in ("<=", "<"):
            return value / bound
        return math.inf if value <= 0 else bound / value

    ratio = float(worst) if _number(worst) else oriented(statistic)
    ends = sorted((oriented(max(low, 0.0)), oriented(max(high, 0.0))))
    return Comparison(sense, statistic, bound, ratio, (ends[0], ends[1]), None, None, (low, high))


def printed_and_corrected(row: ForestRow) -> tuple[str, str]:
    """The verdicts of the printed and the corrected statement: the verdict's own
    ``verdict_printed``/``verdict_corrected`` where it has them, else read from its outcome
    (``holds_after_correction`` is a violated printed statement whose correction holds;
    "none" when the claim has no correction)."""
    printed = row.verdict_printed or {"holds_after_correction": "violated"}.get(row.verdict, row.verdict)
    corrected = row.verdict_corrected or ("holds" if row.verdict == "holds_after_correction" else "none")
    return printed, corrected


def worst_ratio_text(row: ForestRow) -> str:
    """A row's ratio for a table: ``n/a`` without one; for none observed (a ratio of 0), the
    upper end of its interval, which is what the data allow; the corrected statement's after
    an arrow where there is one (``17.1× → 1/5``)."""
    c = row.comparison
    if c is None or c.ratio is None:
        text = "n/a"
    else:
        high = c.ratio_interval[1] if c.ratio_interval else None
        text = (f"0 (≤ {ratio_text(high)})" if c.ratio == 0 and high is not None and 0 < high < math.inf
                else ratio_text(c.ratio))
    return text if row.corrected is None else f"{text} → {ratio_text(row.corrected)}"


def ratio_text(ratio: float | None) -> str:
    """A ratio as a reader takes it in: ``17×`` above 1, ``1/5`` below, ``0`` for none.

    >>> ratio_text(17.06), ratio_text(0.2), ratio_text(0.0), ratio_text(None), ratio_text(1.0)
    ('17.1×', '1/5', '0', 'n/a', '1×')
    """
    if ratio is None or math.isnan(ratio):
        return "n/a"
    if ratio == 0:
        return "0"
    if math.isinf(ratio):
        return "∞"
    if ratio >= 1:
        return f"{ratio:.3g}×"
    return f"1/{1 / ratio:.3g}"


# -- corrected statements -------------------------------------------------------------------

def _walk(node, path: str = "", depth: int = 0):
    if not isinstance(node, Mapping) or depth > 3:
        return
    yield path, node
    for key, value in node.items():
        if isinstance(value, Mapping):
            yield from _walk(value, f"{path}.{key}" if path else str(key), depth + 1)


def _corrected_ratio(verdict) -> float | None:
    """The largest statistic / corrected bound over the corrected statement's points.

    Read, in order, from a ``worst_ratio_corrected`` field, from the exact worst ratio of the
    first correction of a claim decided exactly (the search engine's ``sides``, an exact
    decision's ``exact["corrected"]``), from tail points that carry a
    ``corrected_bound``, from the points of a ``corrected...`` entry of the details (points
    checked against the corrected statement), and from a mean point named by
    ``corrected_worst_point``.  None when the details hold none of these.
    """
    for name in ("worst_ratio_corrected", "corrected_worst_ratio"):
        if _number(field(verdict, name)):
            return float(field(verdict, name))
    details = field(verdict, "details")
    if not isinstance(details, Mapping):
        return None
    # A claim decided exactly at its worst instances: the first correction's exact worst ratio
    # (the search engine's sides, printed first; an exact decision's "corrected" summary).
    sides, exact = details.get("sides"), details.get("exact")
    if isinstance(sides, Mapping) and len(sides) > 1:
        worst = list(sides.values())[1].get("worst") if isinstance(list(sides.values())[1], Mapping) else None
        if isinstance(worst, Mapping) and _number(worst.get("ratio")):
            return float(worst["ratio"])
    if isinstance(exact, Mapping) and isinstance(exact.get("corrected"), Mapping) and _number(
            exact["corrected"].get("largest_ratio")):
        return float(exact["corrected"]["largest_ratio"])
    ratios = []
    for path, node in _walk(details):
        for row in node.values():
            if not isinstance(row, Mapping) or not _number(row.get("frequency")):
                continue
            if _number(row.get("corrected_bound")) and row["corrected_bound"] > 0:
                ratios.append(row["frequency"] / row["corrected_bound"])
            elif "corrected" in path and _number(row.get("printed_bound")) and row["printed_bound"] > 0:
                ratios.append(row["frequency"] / row["printed_bound"])
    point = details.get("corrected_worst_point")
    points = details.get("points")
    if not ratios and isinstance(point, str) and isinstance(points, Mapping):
        row = points.get(point)
        if isinstance(row, Mapping) and _number(row.get("mean")) and _number(row.get("bound")) \
                and row["bound"] > 0:
            ratios.append(row["mean"] / row["bound"])
    return max(ratios) if ratios else None


# -- rows -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ForestRow:
    """One claim in the forest plot and the summary table."""

    claim_id: str
    page: str
    group: str
    verdict: str
    verdict_printed: str | None
    verdict_corrected: str | None
    comparison: Comparison | None
    corrected: float | None
    detectable: float | None
    finding: str
    #: why the verdict is inconclusive (or why the check raised), as its details say; None for
    #: a decided verdict.
    reason: str | None = None
    #: the ratio is exact (computed at the worst instance, no sampling error: the verdict's
    #: ``exact``), not sampled; the plot draws it as a square.
    exact: bool = False


def _where(verdict) -> str:
    """Where the statistic was measured: the verdict's worst instance, else the point of its
    details whose frequency or mean is the statistic, else nothing."""
    for name in ("worst_instance", "worst_point"):
        value = field(verdict, name)
        if isinstance(value, str) and value:
            return f" at {value}"
    statistic = field(verdict, "statistic")
    for _, node in _walk(field(verdict, "details")):
        for key, row in node.items():
            if isinstance(row, Mapping) and _number(statistic) and statistic != 0 and any(
                    row.get(k) == statistic for k in ("frequency", "mean")):
                return f" at {key}"
    return ""


def proxy_data(verdict) -> Mapping | None:
    """The data note of a verdict decided on a stand-in for the paper's data (its ``data``
    detail with ``proxy`` true and a ``label``), else None.

    >>> proxy_data({"details": {"data": {"label": "adult-like synthetic data", "proxy": True}}})["label"]
    'adult-like synthetic data'
    >>> proxy_data({"details": {"data": {"label": "the LIBSVM file a9a", "proxy": False}}}) is None
    True
    """
    data = field(verdict, "data")
    return data if isinstance(data, Mapping) and data.get("proxy") and data.get("label") else None


def _reason(group: str, verdict) -> str | None:
    """Why an inconclusive verdict is not decided (its ``reason``, which the rules and the
    runner's Holm step-down write), why a figure is not reproduced (what differs from the
    paper's setting), or what the check raised; None for a decided verdict."""
    if group == "error":
        stage, error = field(verdict, "stage"), field(verdict, "exception")
        return f"the claim's {stage or 'check'} raised {error or 'an exception'}"
    if group not in ("inconclusive", "not reproduced"):
        return None
    reason = field(verdict, "reason")
    return reason.strip().rstrip(".") if isinstance(reason, str) and reason.strip() else None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _finding(group: str, c: Comparison, corrected: float | None, verdict) -> str:
    """One plain sentence saying what was found, with its numbers (the group's heading says
    the verdict): a claim's own ``headline`` where it has one (a figure claim naming its cells
    or parts), else the measured comparison; followed by the data it was decided on when
    that is a stand-in for the paper's (issue 20 item 4: "on adult-like synthetic data").
    An inconclusive verdict's finding begins with its reason: a row drawn right of 1 in the
    inconclusive group says there why it is not a violation; so does a figure not reproduced
    (what differs from the paper's setting), unless its headline says it already."""
    reason = _reason(group, verdict)
    if group == "error":
        return _sentence(reason)
    headline = field(verdict, "headline")
    has_headline = isinstance(headline, str) and bool(headline)
    sentence = _sentence(headline) if has_headline else _measured(group, c, corrected, verdict)
    data = proxy_data(verdict)
    if data is not None:
        sentence = f"{sentence[:-1]}, on {data['label']}."
    if group == "inconclusive" or (group == "not reproduced" and not has_headline):
        sentence = f"{_sentence(reason or 'no reason stored with the verdict')} {sentence}"
    return sentence


def _measured(group: str, c: Comparison, corrected: float | None, verdict) -> str:
    """The finding sentence from the verdict's statistic, bound and ratio."""
    where = _where(verdict)
    if c.ratio is None:
        if group == "fixed" and corrected is not None:
            return (f"Corrected statement{where}: {c.text}, {ratio_text(corrected)} of its bound "
                    "(the printed statement's numbers are on its page).")
        tail = "; the corrected statement holds" if group == "fixed" else ""
        units = field(verdict, "statistic_units") or field(verdict, "units")
        units = f", in units of {units}" if isinstance(units, str) and len(units) < 60 else ""
        low, high = c.interval
        span = "" if (low is None and high is None) or low == high else f", interval {format_interval(low, high)}"
        return f"{c.text}{span}{where}{units}{tail}."
    r = ratio_text(c.ratio)
    low, high = c.ratio_interval or (None, None)
    span = "" if c.ratio_interval is None or ratio_text(low) == ratio_text(high) else \
        f", interval {ratio_text(low)} to {ratio_text(high)}"
    sign = {"<=": "≤", "<": "<", ">=": "≥"}.get(c.sense, c.sense)
    against = f"{format_value(c.statistic)} against {sign} {format_value(c.bound)}"
    if group in ("fails", "fixed", "not reproduced"):
        # A lower bound's ratio is bound / statistic: the statistic falls short by that factor.
        past = "its bound" if c.sense != ">=" else "short of its lower bound"
        line = f"{r} {past}{where} ({against}{span})"
        if group == "fixed":
            line += (f"; corrected statement: worst point at {ratio_text(corrected)} of its bound"
                     if corrected is not None else "; the corrected statement holds")
        return line + "."
    if group == "holds":
        if c.ratio == 0 and high is not None and math.isfinite(high) and high > 0:
            return (f"None observed{where} ({against}); at most {ratio_text(high)} of the bound "
                    "at the interval's upper end.")
        if high == c.ratio:
            return f"{r} of the bound on every instance checked ({against})."
        return f"{r} of the bound{where} ({against}{span})."
    # Inconclusive: its reason comes first (_finding); here, where the statistic lies.
    return f"{r} {'its' if c.ratio > 1 else 'of the'} bound{where} ({against}{span})."


def forest_rows(claims: Sequence[tuple[str, str, object | None]]) -> list[ForestRow]:
    """The forest's rows, grouped as :data:`GROUPS` and by ratio within a group.

    Parameters
    ----------
    claims : sequence of (claim id, page, verdict or None)
        The verdict as a :class:`~verification.verdicts.Verdict` or its JSON; None for a
        claim not run.

    Returns
    -------
    list of ForestRow
    """
    rows = []
    for claim_id, page, verdict in claims:
        if verdict is None:
            rows.append(ForestRow(claim_id, page, "not run", "not run", None, None, None, None, None,
                                  "No verdict in the store."))
            continue
        outcome = field(verdict, "verdict")
        group = _GROUP_OF.get(outcome, "inconclusive")
        c = comparison(verdict)
        corrected = _corrected_ratio(verdict) if group == "fixed" else None
        if group == "fixed" and c.ratio is not None and c.ratio < 1 and corrected is None:
            # Below its bound, the stored statistic of a corrected claim is the corrected
            # statement's: drawn as the corrected marker, the printed one has no number here.
            corrected = c.ratio
            c = Comparison(c.sense, c.statistic, c.bound, None, None,
                           "printed ratio not stored", c.band, c.interval)
        detectable = field(verdict, "min_detectable_ratio")
        rows.append(ForestRow(
            claim_id, page, group, outcome, field(verdict, "verdict_printed"),
            field(verdict, "verdict_corrected"), c, corrected,
            float(detectable) if _number(detectable) else None,
            _finding(group, c, corrected, verdict), _reason(group, verdict), field(verdict, "exact") is True))
    order = {g: i for i, (g, _) in enumerate(GROUPS)}

    def key(row: ForestRow):
        ratio = row.comparison.ratio if row.comparison and row.comparison.ratio is not None else None
        return order[row.group], ratio is None, -(ratio or 0.0), row.claim_id

    return sorted(rows, key=key)


def verdict_counts(rows: Sequence[ForestRow]) -> dict[str, int]:
    """How many rows each verdict has, in the forest's order of groups (verdicts without a
    row left out): the one count the header, the plot's group headings and the table share.

    >>> verdict_counts(forest_rows([("a", "", {"verdict": "holds", "statistic": 1, "bound": 2}),
    ...                             ("b", "", {"verdict": "violated", "statistic": 3, "bound": 2})]))
    {'violated': 1, 'holds': 1}
    """
    found: dict[str, int] = {}
    for r in rows:
        found[GROUP_VERDICT[r.group]] = found.get(GROUP_VERDICT[r.group], 0) + 1
    return {GROUP_VERDICT[g]: found[GROUP_VERDICT[g]] for g, _ in GROUPS if GROUP_VERDICT[g] in found}


def group_heading(group: str) -> str:
    """A group's heading with the verdict its rows have, as the header and the table name it.

    >>> group_heading("fails"), group_heading("holds")
    ('violated: fails as printed', 'holds')
    """
    heading, verdict = dict(GROUPS)[group], GROUP_VERDICT[group]
    return verdict if heading.lower() == verdict else f"{verdict}: {heading[:1].lower()}{heading[1:]}"


# -- SVG ------------------------------------------------------------------------------------

WIDTH = 1300
_ID_X, _PLOT_X0, _PLOT_X1, _TEXT_X = 4, 250, 586, 622
_FONT = 12
_LINE = 16
#: the axis's band above the first group, a group's heading, and the legend below the rows.
_TOP, _GROUP_HEAD, _LEGEND = 44, 20, 70
#: average advance of a character of the page's sans-serif at 12 px (DejaVu Sans is wide).
_CHAR_W = 0.55 * _FONT
#: the axis never spans more than this many decades either side of 1; beyond, an arrow.
MAX_DECADES = 4
#: the plot's height the rows share (issue 21: the whole forest in the first screen of
#: 1400 x 1000 below the page's heading), and the least height of a row (one line of text).
FIRST_SCREEN_HEIGHT = 860
_MIN_ROW = _FONT + 2


def _one_line(text: str, width: float) -> str:
    """``text`` cut at a word to fit ``width`` px, with an ellipsis when cut: a row of the
    forest is one line, and its whole finding is the row's tooltip and on the claim's page."""
    per_line = max(20, int(width / _CHAR_W))
    if len(text) <= per_line:
        return text
    cut = text[:per_line - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "\u2026"


def _row_height(n_rows: int, n_groups: int) -> int:
    """Each row's height: as much as :data:`FIRST_SCREEN_HEIGHT` leaves for it, between one
    line of text and a line with air (a larger catalog gets denser rows, never overlapping)."""
    spare = FIRST_SCREEN_HEIGHT - _TOP - n_groups * _GROUP_HEAD - _LEGEND
    # Whole pixels: the coordinates stay exact (halves at most), the same on every machine.
    return max(_MIN_ROW, min(_LINE + 3, int(spare // max(n_rows, 1))))


def _log(value: float | None) -> float | None:
    if value is None or math.isnan(value):
        return None
    if value <= 0:
        return -math.inf
    return math.log10(value)


def _axis_range(rows: Sequence[ForestRow]) -> tuple[int, int]:
    values = []
    for r in rows:
        c = r.comparison
        if c is None or c.ratio is None:
            continue
        values += [_log(c.ratio), *(_log(e) for e in c.ratio_interval or ()), _log(r.corrected),
                   _log(r.detectable)]
    finite = [v for v in values if v is not None and math.isfinite(v)]
    low = math.floor(min([0.0, *finite]))
    high = math.ceil(max([0.0, *finite]))
    return max(low, -MAX_DECADES), min(max(high, 1), MAX_DECADES)


def _tick_label(k: int) -> str:
    return {0: "1", 1: "10", 2: "100", -1: "0.1", -2: "0.01"}.get(k, f"1e{k}")


def forest_svg(rows: Sequence[ForestRow]) -> str:
    """The forest plot of ``rows`` as SVG text (``<svg id="forest" ...>``), deterministic.

    Parameters
    ----------
    rows : sequence of ForestRow
        As :func:`forest_rows` returns them.

    Returns
    -------
    str
    """
    lo, hi = _axis_range(rows)

    def x(log_value: float) -> float:
        clipped = min(max(log_value, lo), hi)
        return _PLOT_X0 + (clipped - lo) / (hi - lo) * (_PLOT_X1 - _PLOT_X0)

    esc = html.escape
    body: list[str] = []
    y = _TOP
    groups = [(g, title) for g, title in GROUPS if any(r.group == g for r in rows)]
    height = _row_height(len(rows), len(groups))
    for group, _ in groups:
        members = [r for r in rows if r.group == group]
        colour = _COLOURS[group]
        # The verdict and count as data too: a test reads them against the header and table.
        body.append(f'<text class="group" data-verdict="{esc(GROUP_VERDICT[group])}" '
                    f'data-count="{len(members)}" x="{_ID_X}" y="{y + 15}" font-weight="700" '
                    f'fill="{colour}">{esc(group_heading(group))} ({len(members)})</text>')
        y += _GROUP_HEAD
        for r in members:
            mid = y + height / 2
            body.append(f'<g class="row" data-verdict="{esc(GROUP_VERDICT[r.group])}">')
            body.append(f'<a href="{esc(r.page)}"><text x="{_ID_X}" y="{mid + 4}" fill="#0d47a1">'
                        f'{esc(r.claim_id)}</text></a>')
            body.append(f'<text x="{_TEXT_X}" y="{mid + 4}"><title>{esc(r.finding)}</title>'
                        f'{esc(_one_line(r.finding, WIDTH - _TEXT_X - 4))}</text>')
            c = r.comparison
            if c is None or c.ratio is None:
                reason = "not run" if c is None else c.undefined
                body.append(f'<text x="{(_PLOT_X0 + _PLOT_X1) / 2}" y="{mid + 4}" text-anchor="middle" '
                            f'font-style="italic" fill="#616161">{esc(reason)}</text>')
            else:
                a, b = (_log(e) for e in c.ratio_interval or (None, None))
                if b is not None and a is not None:
                    body.append(f'<line x1="{x(a):.1f}" x2="{x(b):.1f}" y1="{mid}" y2="{mid}" '
                                f'stroke="{colour}" stroke-width="2.5"/>')
                    for end, beyond, sign in ((a, a < lo, -1), (b, b > hi, 1)):
                        if beyond:  # the interval runs off the axis: an arrow head, not a clip
                            tip = x(end)
                            body.append(f'<path d="M{tip:.1f},{mid} l{-6 * sign},-4 v8 z" fill="{colour}"/>')
                point = _log(c.ratio)
                if r.detectable is not None:
                    body.append(f'<line x1="{x(_log(r.detectable)):.1f}" x2="{x(_log(r.detectable)):.1f}" '
                                f'y1="{mid - 6}" y2="{mid + 6}" stroke="#6a1b9a" stroke-width="1.5"/>')
                hollow = point == -math.inf
                fill = "white" if hollow else colour
                if r.exact:  # a square: the ratio computed exactly at the worst instance
                    body.append(f'<rect class="exact" x="{x(point) - 4.5:.1f}" y="{mid - 4.5}" width="9" height="9" '
                                f'fill="{fill}" stroke="{colour}" stroke-width="1.5"/>')
                else:
                    body.append(f'<circle class="sampled" cx="{x(point):.1f}" cy="{mid}" r="4.5" '
                                f'fill="{fill}" stroke="{colour}" stroke-width="1.5"/>')
                if r.corrected is not None:
                    cx = x(_log(r.corrected))
                    body.append(f'<path d="M{cx:.1f},{mid - 6} l6,6 l-6,6 l-6,-6 z" fill="white" '
                                f'stroke="#e65100" stroke-width="2"/>')
            body.append("</g>")
            y += height
    axis_y = 30
    ticks = []
    for k in range(lo, hi + 1):
        tx = x(k)
        ticks.append(f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{axis_y}" y2="{y}" '
                     f'stroke="{"#212121" if k == 0 else "#e0e0e0"}" stroke-width="{1.2 if k == 0 else 1}"/>')
        ticks.append(f'<text x="{tx:.1f}" y="{axis_y - 4}" text-anchor="middle">{_tick_label(k)}</text>')
    shade = (f'<rect x="{x(0):.1f}" y="{axis_y}" width="{_PLOT_X1 - x(0):.1f}" height="{y - axis_y}" '
             f'fill="#fdecea"/>')
    legend_y = y + 22  # two lines of legend below the rows, within _LEGEND
    legend = [
        f'<text x="{_PLOT_X0}" y="{legend_y}">statistic / bound, log scale (right of 1: the printed '
        f'statement is exceeded)</text>',
        f'<circle cx="{_PLOT_X0 + 6}" cy="{legend_y + 14}" r="4.5" fill="#424242"/>',
        f'<text x="{_PLOT_X0 + 16}" y="{legend_y + 18}">printed statement, sampled, with its interval '
        f'(hollow: none observed)</text>',
        f'<rect x="{_PLOT_X0 + 1.5}" y="{legend_y + 27.5}" width="9" height="9" fill="#424242"/>',
        f'<text x="{_PLOT_X0 + 16}" y="{legend_y + 36}">the same, exact (computed at the worst instance)</text>',
        f'<path d="M{_TEXT_X + 150},{legend_y + 8} l6,6 l-6,6 l-6,-6 z" fill="white" stroke="#e65100" '
        f'stroke-width="2"/>',
        f'<text x="{_TEXT_X + 162}" y="{legend_y + 18}">corrected statement, worst point</text>',
    ]
    if any(r.detectable is not None for r in rows):
        legend += [f'<line x1="{_TEXT_X + 390}" x2="{_TEXT_X + 390}" y1="{legend_y + 8}" '
                   f'y2="{legend_y + 20}" stroke="#6a1b9a" stroke-width="1.5"/>',
                   f'<text x="{_TEXT_X + 398}" y="{legend_y + 18}">smallest ratio detected w.p. 0.9</text>']
    height = y + _LEGEND
    header = [f'<text x="{_ID_X}" y="{axis_y - 4}" font-weight="700">claim</text>',
              f'<text x="{_TEXT_X}" y="{axis_y - 4}" font-weight="700">finding</text>']
    return (f'<svg id="forest" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
            f'viewBox="0 0 {WIDTH} {height:.0f}" font-family="system-ui, \'DejaVu Sans\', sans-serif" '
            f'font-size="{_FONT}" role="img" aria-label="statistic over bound per claim">'
            f'<title>Each claim: statistic / bound of its printed statement, log scale</title>'
            + shade + "".join(ticks) + "".join(header) + "".join(body) + "".join(legend) + "</svg>\n")
