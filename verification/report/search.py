"""The search behind a verdict: what was tried, how, how long, and the worst instance found.

Every claim goes through one falsification protocol (docs, The search and the falsification protocol): it searches
the space its statement quantifies over for the instances that push statistic / bound of the
printed statement highest, and a rule decides at those points.  A verdict records the result
(``details["points"]``, ``can_fail``, ``worst_ratio``, ``worst_instance``, ``n_trials``,
``elapsed_s``), and the claim's configuration for the run's profile records the grid.  This
module reads both, for any claim, and says:

* **the space**: the configuration's parameters (the grids of sample sizes, confidence levels,
  instances) and the points the rule decided at, each with its sample size, statistic, bound,
  ratio, whether it could fail and the smallest ratio it detects;
* **how**: read from the rule that decided (an exact evaluation of every round, Monte Carlo
  frequencies or means with exact-coverage intervals, a comparison over paired seeds, a
  log-log fit) and from what the points carry (exact values computed in closed form);
* **how long**: the trials and their time;
* **what was not counted**: the points whose threshold no outcome of their statistic can reach;
* **the worst instance** and its ratio, oriented so that above 1 the printed statement is
  exceeded.

Nothing here formats HTML or Markdown: the writers render the :class:`Search` the same way.

Examples
--------
>>> method_text("probability bound (exact binomial, Clopper-Pearson)", {}).split(":")[0]
'Monte Carlo'
>>> parameter_text([0.5, 0.1, 0.02]), parameter_text({"psi": [2e4, 2e5]})
('0.5, 0.1, 0.02', 'psi: 2e+04, 2e+05')
>>> parameter_text([{"m": 1, "eps": 0.5}, {"m": 2, "eps": 0.9}])
'{m: 1, eps: 0.5}, {m: 2, eps: 0.9}'
>>> parameter_text(list(range(100)))[-14:]
'… (100 in all)'
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from verification.report.forest import ratio_text
from verification.report.tables import Table, format_value, key_value_table

__all__ = ["POINT_COLUMNS", "Search", "method_text", "parameter_text", "search_of"]

#: the columns of the table of points, each with the fields of a point's row that fill it, in
#: order of preference: the rules name a point's sample size, statistic and bound differently
#: (a frequency over trials, a mean over n, a share of seeds).
POINT_COLUMNS = (
    ("sample size", ("seeds", "trials", "n")),
    ("statistic", ("frequency", "mean")),
    ("bound", ("printed_bound", "bound", "exact")),
    ("statistic / bound", ("ratio",)),
    ("can fail", ("can_fail",)),
    ("smallest ratio detected (prob. 0.9)", ("min_detectable_ratio",)),
)
#: a parameter's value longer than this is cut after an item, with the number of items said.
LONGEST_VALUE = 160

#: a field of a point's row holding a value computed exactly (``exact``, ``log10_exact_probability``).
_EXACT_FIELD = re.compile(r"(^|_)exact(_|$)")

#: how each rule evaluates its statement, keyed by a phrase of the rule's name.
_METHODS = (
    ("deterministic", "Exact evaluation: the statement is evaluated on every round (or case) of "
                      "every run, with no sampling error; one breach beyond floating-point slack "
                      "is a violation."),
    ("probability bound", "Monte Carlo: at each point, the frequency of the event over its trials, "
                          "with an exact binomial (Clopper-Pearson) interval at the point's level."),
    ("mean bound", "Monte Carlo: at each point, the mean of the statistic over its trials, with an "
                   "exact-coverage interval from its a-priori range (Hoeffding and empirical "
                   "Bernstein)."),
    ("equivalence", "Monte Carlo: at each point, the mean of the estimates against the exact value "
                    "(computed with the oracle kernel), with an exact-coverage interval that must "
                    "lie inside the stated margin (two one-sided tests)."),
    ("comparison", "Comparison over seeds: at each point both methods run on the same seeds, and "
                   "a one-sided test over the paired seeds decides which is lower."),
    ("rate", "Fit: log-log slopes over the grid (one per seed or repetition), compared with the "
             "printed exponent."),
)


@dataclass(frozen=True)
class Search:
    """A verdict's search, ready to render (module docstring).

    Attributes
    ----------
    method : str
        How the statement was evaluated, in sentences.
    space : Table
        The parameters of the claim's configuration for the run's profile.
    points : Table or None
        One row per point decided (None when the rule decided on rounds, not points).
    not_counted : tuple of str
        The points that could not fail and so are not evidence.
    duration : str
        The trials and their time.
    worst : Table or None
        The worst instance's fields; None when the verdict records none.
    worst_ratio : str
        The worst ratio reached, with its direction.
    can_fail : bool or None
        Whether the check could detect a violation at every point where the printed
        statement can be false (the verdict's ``min_detectable_ratio`` is finite; None: not
        recorded).
    profile : str
        The profile whose configuration ``space`` shows.
    rounds : bool
        The rule evaluated every round exactly (a deterministic invariant), not points.
    """

    method: str
    space: Table
    points: Table | None
    not_counted: tuple[str, ...]
    duration: str
    worst: Table | None
    worst_ratio: str
    can_fail: bool | None
    profile: str
    rounds: bool = False
    impossible: tuple[str, ...] = ()

    @property
    def counted_text(self) -> str:
        """Which points count as evidence: those that could fail."""
        if self.can_fail is False:
            return ("At the grid's weakest point no law the assumptions allow is detected with probability "
                    "0.9 (the smallest detectable ratio is infinite): the check cannot fail there, so the "
                    "verdict cannot be holds whatever the points show.")
        if self.points is None and self.rounds:
            return "Every round checked counts: a breach on any one of them is a violation."
        if self.points is None:
            return ("This verdict records no decision per point, so which instances could fail is "
                    "not recorded; its details below give what it measured.")
        if not self.not_counted:
            return "Every point tried could fail (some outcome of its statistic reaches its bound): all count."
        underpowered = [k for k in self.not_counted if k not in self.impossible]
        parts = []
        if underpowered:
            parts.append(", ".join(underpowered) + " (the printed statement cannot be false there: its bound "
                         "is at or past the largest value the statistic can take)")
        if self.impossible:
            parts.append(", ".join(self.impossible) + " (the event is impossible: its threshold is at least "
                         "the largest value the statistic can take, whatever the trials)")
        return f"{len(self.not_counted)} point(s) could not fail and are not counted: {'; '.join(parts)}."


def parameter_text(value) -> str:
    """A configuration value in a cell: a list as its items, a mapping as ``key: items``,
    cut at :data:`LONGEST_VALUE` characters with the full length said."""
    if isinstance(value, str) and os.path.isabs(value):
        # A path of the machine that ran the claim: not part of the search, and it would make
        # the report differ between checkouts.
        return "(a path on the machine that ran it)"
    if isinstance(value, Mapping):
        items, separator = [f"{k}: {parameter_text(v)}" for k, v in value.items()], "; "
    elif isinstance(value, list | tuple):
        # Items that are themselves grids keep their brackets, so that items stay apart.
        items = ["{" + parameter_text(v).replace(";", ",") + "}" if isinstance(v, Mapping)
                 else f"[{parameter_text(v)}]" if isinstance(v, list | tuple) else format_value(v)
                 for v in value]
        separator = ", "
    else:
        return format_value(value)
    shown: list[str] = []
    for item in items:
        if shown and len(separator.join([*shown, item])) > LONGEST_VALUE:
            return f"{separator.join(shown)} … ({len(items)} in all)"
        shown.append(item)
    return separator.join(shown)


def method_text(rule: str, details: Mapping) -> str:
    """How a verdict's rule evaluated the statement, with what its points add (exact values,
    bracketing events, a correction decided apart)."""
    name = rule.lower()
    sentences = [next((text for phrase, text in _METHODS if phrase in name),
                      f"Decided by the rule: {rule}.")]
    if "upper_event" in details and "lower_event" in details:
        sentences.append("The supremum the statement is about is bracketed by two events, one "
                         "implied by it and one implying it, each with its own frequency.")
    rows = _rows(details)
    exact = sorted({k for row in rows.values() for k, v in row.items()
                    if _EXACT_FIELD.search(k) and v is not None and not isinstance(v, bool)})
    if exact and "equivalence" not in name:
        sentences.append(f"Where the law is finite the points also carry the exact value, computed "
                         f"in closed form ({', '.join(exact)}).")
    if isinstance(details.get("corrected"), Mapping):
        sentences.append("The printed statement and the corrected one are decided by checks of "
                         "their own, each at half the claim's false-alarm level.")
    searched = sorted(k for k in details if k.startswith("search"))
    if searched:
        sentences.append(f"The instances decided at were chosen by a search, whose figures are in the "
                         f"details ({', '.join(searched)}).")
    if isinstance(details.get("cells"), Mapping):
        sentences.append(f"{len(details['cells'])} readings of the statement (cells: "
                         f"{', '.join(details['cells'])}) are decided apart; the deciding cell, "
                         f"fixed before the data, gives the verdict.")
    return " ".join(sentences)


def _rows(details: Mapping) -> dict[str, Mapping]:
    points = details.get("points")
    if not isinstance(points, Mapping):
        return {}
    return {str(k): v for k, v in points.items() if isinstance(v, Mapping)}


def _first(row: Mapping, names: tuple[str, ...]):
    return next((row[n] for n in names if n in row), None)


def _points_table(rows: Mapping[str, Mapping]) -> Table | None:
    if not rows:
        return None
    columns = tuple(c for c, names in POINT_COLUMNS if any(_first(r, names) is not None for r in rows.values()))
    cells = tuple((key, *(format_value(_first(row, names)) if _first(row, names) is not None else ""
                          for c, names in POINT_COLUMNS if c in columns))
                  for key, row in rows.items())
    return Table("points tried", ("point", *columns), cells)


def _duration(n_trials: int, elapsed_s: float) -> str:
    if not math.isfinite(elapsed_s):
        return f"{n_trials} trials; their time is not recorded"
    each = f", {format_value(1000 * elapsed_s / n_trials)} ms per trial" if n_trials > 0 else ""
    return f"{n_trials} trials in {elapsed_s:.1f} s of trial time{each}"


def _worst_ratio(verdict) -> str:
    ratio = verdict.worst_ratio
    if ratio is None or math.isnan(ratio):
        return "not recorded by this verdict"
    side = ("above 1, so the printed statement is exceeded there" if ratio > 1 else
            "at most 1, so the printed statement is not exceeded there")
    return f"{ratio_text(ratio)} ({format_value(ratio)}): {side}"


def _worst(verdict, details: Mapping) -> Table | None:
    instance = verdict.worst_instance
    if isinstance(instance, Mapping) and instance:
        return key_value_table("worst instance", instance)
    # A verdict whose rule records no instance (no breach of an invariant) still names where
    # it came closest: the details' worst_* fields.
    closest = {k: v for k, v in details.items() if k.startswith("worst_") and not isinstance(v, Mapping)}
    return key_value_table("worst instance", closest) if closest else None


#: said of a configuration the verdict did not record (read from the code when the report is written).
NOT_RECORDED = ("not recorded with this verdict (saved before verdicts kept their configuration): the "
                "rows above are the code's configuration when this report was written, which can differ "
                "from the one the trials ran with if a plan changed since; the trials, {n}, are the run's")


def search_of(verdict, config: Mapping | None, profile: str, recorded: bool = True) -> Search:
    """The search behind ``verdict``.

    Parameters
    ----------
    verdict : Verdict
    config : mapping or None
        The claim's configuration for ``profile`` (None when it cannot be read).
    profile : str
        The profile of the run that saved the verdict.
    recorded : bool, default=True
        Whether ``config`` is the one the verdict recorded (its trials ran with it), or the
        code's configuration when the report is written, which the table then says.

    Returns
    -------
    Search
    """
    details = verdict.details if isinstance(verdict.details, Mapping) else {}
    rows = _rows(details)
    space = {k: parameter_text(v) for k, v in (config or {}).items() if k != "n_trials"}
    if not rows and isinstance(details.get("runs"), Mapping) and "runs" not in space:
        space["runs (each checked on every round)"] = ", ".join(map(str, details["runs"]))
    if "rounds_checked" in details:
        space["rounds checked"] = format_value(details["rounds_checked"])
    if config and not recorded:
        space["configuration of the run"] = NOT_RECORDED.format(n=verdict.n_trials)
    # A point at which the printed statement cannot be false is not counted; a verdict stored
    # before that was recorded per point marked the points it did not count "can_fail" false.
    not_counted = tuple(k for k, r in rows.items() if r.get("cannot_be_false") is True
                        or ("cannot_be_false" not in r and r.get("can_fail") is False))
    impossible = tuple(k for k in not_counted if rows[k].get("event_possible") is False)
    can_fail = verdict.can_fail if verdict.can_fail is not None else details.get("can_fail")
    return Search(method=method_text(verdict.rule, details),
                  space=key_value_table("space searched", space or {"configuration": "not available"}),
                  points=_points_table(rows), not_counted=not_counted,
                  duration=_duration(verdict.n_trials, verdict.elapsed_s), worst=_worst(verdict, details),
                  worst_ratio=_worst_ratio(verdict), can_fail=can_fail, profile=profile,
                  rounds="deterministic" in verdict.rule.lower(), impossible=impossible)
