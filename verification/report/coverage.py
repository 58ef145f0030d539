"""What a verdict covered of its statement's domain, and the best instances it decided at.

Issue 41: a ``holds`` is worth the hardest instance tried, so every claim of ``summary.json``
says how much of its domain was searched (:func:`claim_coverage`), read from the verdict:

* a **specification** (decided by :mod:`verification.search`): its details hold, per right
  side (printed first, then each correction), per variable, the admissible domain, the range
  searched, the values tried, the ends reached and whether the variable is covered
  (``details["coverage"]``, :func:`verification.search.domain.coverage`), its best instances
  decided exactly (``details["sides"]``) and the instances the shipped implementation was
  sampled at (``details["points"]``);
* a claim **decided exactly** (:mod:`verification.claims.iln.exact_decision`): the same per
  statement (``"printed"``, ``"corrected"``), the admissible domain and the range in words,
  and every instance's exact left side (``details["points"]``, ``details["exact"]``);
* **any other** claim: its domain was not searched by the engine; the entry says so
  (``"searched": false``) with the grid its check ran, read from its configuration.

The same data give the claim pages' tables (:func:`domain_tables`, :func:`best_instance_tables`,
:func:`smallest_violations`): nothing here formats HTML or Markdown.

Examples
--------
>>> claim_coverage({"note": "x"}, {"grid": [1, 2, 4]}, "the configuration the verdict recorded")["searched"]
False
>>> range_text([1, 1048576]), range_text([1e-12, 0.999999999999]), range_text(["hinge", "square"])
('1 to 1048576', '1e-12 to 0.999999999999', 'hinge, square')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from verification.report.forest import ratio_text
from verification.report.search import parameter_text
from verification.report.tables import Table, format_value

__all__ = ["ENGINE", "EXACT", "NOT_SEARCHED", "best_instance_tables", "claim_coverage", "conformance_text", "domain_tables",
           "kind_of", "range_text", "side_label", "side_tables", "smallest_violations"]

#: how each kind of claim covered its domain, as ``summary.json``'s coverage entries say it.
ENGINE = ("the search engine (verification.search): every variable of the declared domain searched to each "
          "end its statement admits or to the plan's stated cap, each right side on its own")
EXACT = ("an exact decision (verification.claims.iln.exact_decision): the exact left side at every instance "
         "enumerated, per statement; the admissible domain and the range searched as the claim states them")
NOT_SEARCHED = ("its domain was not searched by the search engine: the verdict rests on the grid its check's "
                "author chose (below, from its configuration), so what lies between and beyond the grid's "
                "values was not tried")


def _sides(details: Mapping) -> Mapping[str, Mapping[str, Mapping]] | None:
    """``details["coverage"]`` when it has the shape side -> variable -> ``{..., "covered"}``."""
    table = details.get("coverage")
    if not isinstance(table, Mapping) or not table:
        return None
    for variables in table.values():
        if not isinstance(variables, Mapping) or not all(
                isinstance(v, Mapping) and "covered" in v for v in variables.values()):
            return None
    return table


def kind_of(details: Mapping) -> str:
    """``"search"`` (a specification), ``"exact"`` (an exact decision) or ``"grid"`` (any other)."""
    if _sides(details) is None:
        return "grid"
    return "search" if isinstance(details.get("sides"), Mapping) else "exact" if isinstance(
        details.get("exact"), Mapping) else "grid"


def claim_coverage(details: Mapping, config: Mapping | None, config_from: str) -> dict[str, Any]:
    """The ``coverage`` entry of a claim in ``summary.json``.

    Parameters
    ----------
    details : mapping
        The verdict's details.
    config : mapping or None
        The claim's configuration (the one the verdict recorded, else the code's for the
        verdict's profile; None when it cannot be read): the grid of a claim not on the engine.
    config_from : str
        Which configuration ``config`` is, in words.

    Returns
    -------
    dict
        ``searched`` (whether the domain was searched by the engine or decided exactly over
        a stated domain), ``method``, and either ``sides`` (side -> variable -> the verdict's
        own entry: ``admissible``, ``searched``, ``values_tried``, ``covered`` and, from the
        engine, ``ends``) with ``covered`` and ``uncovered`` (``side: variable``), or the
        ``grid`` its check ran and where it was read.
    """
    kind = kind_of(details)
    if kind == "grid":
        grid = {str(k): parameter_text(v) for k, v in (config or {}).items()}
        return {"searched": False, "method": NOT_SEARCHED, "grid": grid,
                "grid_from": config_from if config else "its configuration could not be read"}
    sides = _sides(details)
    assert sides is not None  # kind_of found them
    uncovered = [f"{side}: {name}" for side, variables in sides.items()
                 for name, entry in variables.items() if not entry["covered"]]
    out: dict[str, Any] = {"searched": True, "method": ENGINE if kind == "search" else EXACT,
                           "covered": not uncovered, "uncovered": uncovered,
                           "sides": {str(s): {str(n): dict(e) for n, e in v.items()} for s, v in sides.items()}}
    if kind == "search" and details.get("scope"):
        out["scope"] = details["scope"]
    return out


def side_label(side: str) -> str:
    """A right side as a table names it.

    >>> side_label("printed"), side_label("two-sided Hoeffding"), side_label("corrected")
    ('printed statement', 'correction: two-sided Hoeffding', 'corrected statement')
    """
    if side in ("printed", "corrected"):
        return f"{side} statement"
    return f"correction: {side}"


def range_text(searched) -> str:
    """The range searched of a variable: ``low to high``, the choices, or the claim's words."""
    if searched is None:
        return "not searched"
    if isinstance(searched, list | tuple):
        if len(searched) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool) for v in searched):
            # 12 digits: an open end approached (1 - 1e-12) is not shown as the end itself.
            return " to ".join(f"{v:.12g}" if isinstance(v, float) else str(v) for v in searched)
        return ", ".join(format_value(v) for v in searched)
    return str(searched)


def _admissible(entry: Mapping) -> str:
    admissible = entry.get("admissible")
    return str(admissible.get("text", "")) if isinstance(admissible, Mapping) else str(admissible)


def _ends(entry: Mapping) -> str:
    ends = entry.get("ends")
    if not isinstance(ends, Mapping):
        return ""
    return "; ".join(f"{k}: {v}" for k, v in ends.items())


def domain_tables(details: Mapping) -> dict[str, Table]:
    """By right side (printed first), a table: variable, admissible domain, range searched,
    values tried, ends reached (from the engine), covered or not.  Empty for a claim whose
    domain was not searched."""
    sides = _sides(details)
    if sides is None or kind_of(details) == "grid":
        return {}
    tables = {}
    for side, variables in sides.items():
        rows = tuple((str(name), _admissible(e), range_text(e.get("searched")), format_value(e.get("values_tried")),
                      _ends(e) or "as stated", "covered" if e["covered"] else "NOT covered")
                     for name, e in variables.items())
        tables[str(side)] = Table(f"domain, {side_label(str(side))}",
                                  ("variable", "admissible domain", "range searched", "values tried", "ends",
                                   "covered"), rows)
    return tables


def _point_text(point: Mapping) -> str:
    """An instance in a cell: floats to 12 digits, so that an open end approached (s = 1 - 1e-12)
    is not shown as the end itself."""
    return ", ".join(f"{k} = {v:.12g}" if isinstance(v, float) else f"{k} = {format_value(v)}"
                     for k, v in point.items())


def _log_value(value, log10: float | None) -> str:
    """A number that may have underflowed (0) or overflowed (inf, stored as null): from its log."""
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < math.inf:
        return format_value(value)
    if log10 is not None and math.isfinite(log10):
        return f"10^{log10:.4g}"
    return format_value(value)


def _ratio(ratio, log10: float | None) -> str:
    if isinstance(ratio, int | float) and math.isfinite(ratio) and ratio > 0:
        return ratio_text(ratio)
    if log10 is not None and math.isfinite(log10):
        return f"10^{log10:.4g}×"
    return ratio_text(ratio if isinstance(ratio, int | float) else None)


def _method(text) -> str:
    """How a left side was computed, as a cell: "log-gamma" named by its scipy function, which the
    prose renderer cannot take for a logarithm of the Greek letter gamma."""
    return str(text).replace("log-gamma", "scipy's gammaln")


def _exact_cell(text: str, value) -> str:
    """An exact left side as computed, or its float when the text is too long for a cell."""
    return text if len(text) <= 32 else format_value(value)


def _engine_rows(details: Mapping, side: str) -> list[tuple[str, ...]]:
    decided = details["sides"].get(side, {})
    rows: list[tuple[str, ...]] = []
    # Largest certified ratio first: the search ranks by its fast evaluator, which can put an
    # instance at a jump of the left side (a tie) before one the exact arithmetic decides higher.
    certified = sorted(decided.get("best_instances", []), key=lambda r: math.inf if r.get("log10_ratio") is None
                       else -r["log10_ratio"])
    for row in certified:
        log_rhs = row.get("log_rhs")
        rows.append((_point_text(row["point"]), _exact_cell(str(row.get("lhs")), row.get("lhs_float")),
                     _log_value(row.get("rhs"), None if log_rhs is None else log_rhs / math.log(10)),
                     _ratio(row.get("ratio"), row.get("log10_ratio")), "exact",
                     f"{_method(row.get('lhs_method'))}; {row.get('at_instance')} there"))
    names = list(details["sides"])
    bound_field = {0: "printed_bound", 1: "corrected_bound"}.get(names.index(side), f"bound: {side}") \
        if side in names else None
    for key, point in (details.get("points") or {}).items():
        if not isinstance(point, Mapping) or not any(str(r).startswith(f"{side}/") for r in point.get("roles", [])):
            continue
        if "frequency" not in point:
            continue
        bound = point.get(bound_field)
        ratio = point["frequency"] / bound if isinstance(bound, int | float) and bound > 0 else None
        interval = point.get("interval") or [None, None]
        rows.append((f"{_point_text(point['instance'])} ({key})", format_value(point["frequency"]),
                     format_value(bound), ratio_text(ratio), "sampled",
                     f"{point.get('trials')} trials of the shipped implementation, interval "
                     f"[{format_value(interval[0])}, {format_value(interval[1])}] against the exact "
                     f"{format_value(point.get('exact'))}: {'conforms' if point.get('conforms') else 'does NOT conform'}"))
    return rows


def _exact_rows(details: Mapping, side: str, method: str) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    points = [(k, r) for k, r in (details.get("points") or {}).items()
              if isinstance(r, Mapping) and r.get("statement") == side]
    for key, row in sorted(points, key=lambda kr: -(kr[1].get("ratio") or 0.0)):
        exact = row.get("exact_lhs")
        rows.append((str(key.partition("/")[2] or key), str(exact) if exact else format_value(row.get("mean")),
                     format_value(row.get("bound")), _ratio(row.get("ratio"), None), "exact",
                     f"{method}; {row.get('outcome')} the bound"))
    return rows


def best_instance_tables(details: Mapping, rule: str) -> dict[str, Table]:
    """By right side (printed first), a table: the best instances decided exactly (left
    side, right side, ratio), then the instances sampled (the shipped implementation's
    frequency against the side's bound there), each with its method."""
    kind = kind_of(details)
    if kind == "grid":
        return {}
    tables = {}
    for side in _sides(details) or {}:
        rows = _engine_rows(details, side) if kind == "search" else _exact_rows(details, side, rule)
        if rows:
            tables[side] = Table(f"best instances, {side_label(side)}",
                                 ("instance", "left side", "right side", "ratio", "exact or sampled", "method"),
                                 tuple(rows))
    return tables


def smallest_violations(details: Mapping) -> dict[str, Table]:
    """By right side with a violation, its smallest violation with the exact numbers
    (smallest integers first: the counterexample a shrinker reaches)."""
    kind = kind_of(details)
    tables = {}
    if kind == "search":
        for side, decided in details["sides"].items():
            row = decided.get("smallest_violation")
            if not isinstance(row, Mapping):
                continue
            log_rhs = row.get("log_rhs")
            # repr: the instance exactly as decided (s = 0.999999999999 is not s = 1).
            rows = {**{f"instance: {k}": repr(v) for k, v in row["point"].items()},
                    "left side (exact)": str(row.get("lhs")), "how it was computed": _method(row.get("lhs_method")),
                    "right side": _log_value(row.get("rhs"), None if log_rhs is None else log_rhs / math.log(10)),
                    "log of the right side": format_value(log_rhs),
                    "ratio": _ratio(row.get("ratio"), row.get("log10_ratio")),
                    "log10 of the ratio": format_value(row.get("log10_ratio"))}
            tables[side] = Table(f"smallest violation, {side_label(side)}", ("name", "value"), tuple(rows.items()))
    elif kind == "exact":
        for side, summary in details["exact"].items():
            key = summary.get("smallest_violation") if isinstance(summary, Mapping) else None
            row = (details.get("points") or {}).get(f"{side}/{key}") if key else None
            if not isinstance(row, Mapping):
                continue
            rows = {"instance": str(key), "left side (exact)": row.get("exact_lhs") or format_value(row.get("mean")),
                    "left side (float)": format_value(row.get("mean")), "right side": format_value(row.get("bound")),
                    "ratio": _ratio(row.get("ratio"), None),
                    **{k: format_value(v) for k, v in row.items()
                       if k not in ("statement", "mean", "bound", "ratio", "outcome", "exact_lhs")}}
            tables[side] = Table(f"smallest violation, {side_label(side)}", ("name", "value"), tuple(rows.items()))
    return tables


def conformance_text(details: Mapping) -> str | None:
    """For a claim decided exactly, the shipped implementation's conformance to the exact law
    at its instances (Monte Carlo or a transcription check, decided apart from the verdict),
    in one sentence; None for any other claim.

    >>> conformance_text({"exact": {}, "conformance": {"verdict": "holds", "rule": "r", "n_trials": 3}})
    'the shipped implementation against the exact law at these instances: holds (r; 3 trials)'
    """
    found = details.get("conformance")
    if kind_of(details) == "search" or not isinstance(details.get("exact"), Mapping) or not isinstance(found, Mapping):
        return None
    return (f"the shipped implementation against the exact law at these instances: {found.get('verdict')} "
            f"({found.get('rule')}; {found.get('n_trials')} trials)")


def side_tables(details: Mapping, rule: str) -> tuple[tuple[str, tuple[Table, ...]], ...]:
    """Per right side, printed first, then each correction: (its label, its domain table, its
    best instances, its smallest violation where it has one)."""
    parts = (domain_tables(details), best_instance_tables(details, rule), smallest_violations(details))
    return tuple((side_label(side), tuple(p[side] for p in parts if side in p)) for side in parts[0])
