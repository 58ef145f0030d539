"""A verdict's numbers and details as tables of strings, shared by the HTML and Markdown writers.

:func:`detail_tables` turns ``Verdict.details`` (any JSON-ready mapping) into tables without
knowing which claim wrote it:

* the scalar entries of a mapping (numbers, strings, lists of scalars) form one key/value table;
* a mapping whose values are all mappings (``details["points"]``: key -> row) is a table with a
  row per key and a column per field, nested fields flattened as ``field.sub``;
* a list of mappings (``details["comparisons"]``) is a table with a row per item;
* any other mapping entry is walked the same way, its tables titled by the path to it.

Examples
--------
>>> format_value(0.000123456), format_value(None), format_value([1, 2.5]), format_value(True)
('0.0001235', 'n/a', '[1, 2.5]', 'yes')
>>> pvalue_text(0.0), pvalue_text(2.3e-5), format_value(float("nan"))
('< 1e-300', '2.3e-05', 'n/a')
>>> [t.title for t in detail_tables({"note": "x", "points": {"a": {"k": 1}}, "s": {"t": 2}})]
['details', 'points', 's']
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["LIST_ITEMS_SHOWN", "Table", "detail_tables", "format_interval", "format_value", "is_number",
           "key_value_table", "pvalue_text"]

#: items of a list shown in a cell; the full list is in summary.json.
LIST_ITEMS_SHOWN = 12


@dataclass(frozen=True)
class Table:
    """A titled table whose cells are already formatted."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


#: a cell :func:`format_value` wrote for a number (or ``n/a``, an infinity, a tiny p-value).
_NUMBER = re.compile(r"^-?[\d.]+(e[+-]?\d+)?$|^n/a$|^-?inf$|^< 1e-300$")


def is_number(cell: str) -> bool:
    """Whether a table cell is a number, which the pages right-align and keep as written.

    >>> is_number("1.5e-06"), is_number("< 1e-300"), is_number("m = 8")
    (True, True, False)
    """
    return bool(_NUMBER.match(cell))


def format_value(value) -> str:
    """How a JSON value is shown in a cell: floats to 4 significant digits, lists abridged;
    a missing or undefined number (None, NaN) is "n/a", never "NaN"."""
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "n/a"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return format(value, ".4g")
    if isinstance(value, list | tuple):
        shown = ", ".join(format_value(v) for v in value[:LIST_ITEMS_SHOWN])
        more = f", ... ({len(value)} items)" if len(value) > LIST_ITEMS_SHOWN else ""
        return f"[{shown}{more}]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {format_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def format_interval(low, high) -> str:
    """An interval with a missing end (None or NaN: one-sided) written as unbounded.

    >>> format_interval(0.0014817, None)
    '[0.001482, unbounded]'
    """
    def end(value) -> str:
        missing = value is None or (isinstance(value, float) and math.isnan(value))
        return "unbounded" if missing else format_value(value)

    return f"[{end(low)}, {end(high)}]"


def pvalue_text(value) -> str:
    """A p-value: one that underflowed to 0 is below the smallest double's reach, not zero."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value == 0:
        return "< 1e-300"
    return format_value(value)


def key_value_table(title: str, mapping: Mapping) -> Table:
    """One row per entry of ``mapping``."""
    return Table(title, ("name", "value"),
                 tuple((str(k), format_value(v)) for k, v in mapping.items()))


def _flat(row: Mapping, prefix: str = "") -> dict[str, object]:
    out = {}
    for key, value in row.items():
        if isinstance(value, Mapping) and value:
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _rows_table(title: str, first: str, rows: list[tuple[str, Mapping]]) -> Table:
    flat = [(name, _flat(row)) for name, row in rows]
    # Columns in order of first appearance: rows of one claim mostly share their fields.
    columns = list(dict.fromkeys(c for _, row in flat for c in row))
    return Table(title, (first, *columns),
                 tuple((name, *(format_value(row.get(c)) if c in row else "" for c in columns))
                       for name, row in flat))


def _is_row_mapping(value) -> bool:
    return isinstance(value, Mapping) and bool(value) and all(
        isinstance(v, Mapping) for v in value.values())


def _is_row_list(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def detail_tables(details: Mapping, title: str = "details") -> list[Table]:
    """Tables of a verdict's details, in the order of its keys (see the module docstring).

    Parameters
    ----------
    details : mapping
        JSON-ready.
    title : str, default="details"
        Title of the table of top-level scalar entries; nested tables are titled by path.

    Returns
    -------
    list of Table

    Raises
    ------
    TypeError
        ``details`` is not a mapping.
    """
    details = verdict_details(details)
    scalars = {k: v for k, v in details.items()
               if not (isinstance(v, Mapping) and v) and not _is_row_list(v)}
    tables = [key_value_table(title, scalars)] if scalars else []
    prefix = "" if title == "details" else f"{title}."
    for key, value in details.items():
        path = f"{prefix}{key}"
        if _is_row_mapping(value):
            tables.append(_rows_table(path, "key", [(str(k), v) for k, v in value.items()]))
        elif _is_row_list(value):
            tables.append(_rows_table(path, "#", [(str(i), v) for i, v in enumerate(value)]))
        elif isinstance(value, Mapping) and value:
            tables.extend(detail_tables(value, path))
    return tables


def verdict_details(details: object) -> Mapping:
    """A verdict's ``details``, checked once for every view of it (its tables, its plots).

    Raises
    ------
    TypeError
        ``details`` is not a mapping.
    """
    if not isinstance(details, Mapping):
        raise TypeError(f"details must be a mapping, got {type(details).__name__}")
    return details
