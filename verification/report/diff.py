"""What changed between two reports: verdicts, sub-verdicts, worst ratios and errata.

``iln-verify diff OLD NEW`` reads two stores (``.sqlite``, the latest verdict of each claim)
or two ``summary.json`` files and says which claims' verdicts, printed and corrected
sub-verdicts and worst ratios changed, which claims appeared or went, and which errata
entries were added, dropped or corrected.  A reader sees what a change of the code, of a
rule or of the paper's reading did to the report, without opening both.

A report written before a field existed lacks it: its worst ratio is read from the older
``tightness`` (measured / bound), and the comparison says so.  A verdict that becomes (or
stops being) ``not_reproduced`` carries a note naming what differs from the paper's setting:
the same contradiction that read ``violated`` before is not a violation of the paper.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verification.store import Store
from verification.verdicts import NOT_REPRODUCED

__all__ = ["Change", "Snapshot", "changes_table", "compare", "load", "render_text"]

#: the fields compared, claim by claim.
FIELDS = ("verdict", "verdict_printed", "verdict_corrected", "worst_ratio")
#: worst ratios closer than this (relative) are the same number written twice.
RELATIVE = 1e-9


@dataclass(frozen=True)
class Snapshot:
    """The verdicts of one report, by claim id, and its errata ledger when it records one."""

    source: str
    verdicts: Mapping[str, Mapping[str, Any]]
    errata: tuple[Mapping[str, Any], ...] | None


@dataclass(frozen=True)
class Change:
    """One difference: ``claim`` (or ``"errata"``), the ``field`` that differs, both values."""

    claim: str
    field: str
    old: Any
    new: Any
    note: str = ""


def load(path: str | Path) -> Snapshot:
    """A store (the latest verdict of each claim) or a ``summary.json``, by its content.

    Raises ``ValueError`` naming the path when it is neither.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path} is not a file (a store or a summary.json is expected)")
    with path.open("rb") as handle:
        head = handle.read(16)
    if head.startswith(b"SQLite format 3"):
        with Store(path, read_only=True) as db:
            latest: dict[str, Mapping[str, Any]] = {}
            for row in sorted(db.verdicts(), key=lambda r: r.saved_at):
                latest[row.claim_id] = row.verdict
        return Snapshot(str(path), latest, None)
    try:
        doc = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is neither a store nor a summary.json: {error}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise ValueError(f"{path} is JSON without a list of claims: not a summary.json")
    errata = doc.get("errata")
    return Snapshot(str(path), {c["id"]: c for c in doc["claims"]},
                    tuple(errata) if isinstance(errata, list) else None)


def _ratio(verdict: Mapping[str, Any]) -> tuple[float | None, str]:
    for key, note in (("worst_ratio", ""), ("tightness", "tightness (the older report's measured / bound)")):
        value = verdict.get(key)
        if value in ("inf", "-inf"):
            return float(value), note
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return float(value), note
    return None, ""


def _differ(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return (a is None) != (b is None)
    if math.isinf(a) or math.isinf(b):
        return a != b
    return abs(a - b) > RELATIVE * max(abs(a), abs(b), 1e-300)


def _differs(verdict: Mapping[str, Any]) -> str:
    details = verdict.get("details")
    rows = details.get("differs") if isinstance(details, Mapping) else None
    if not isinstance(rows, list):
        return ""
    return ", ".join(str(r.get("aspect")) for r in rows if isinstance(r, Mapping) and r.get("aspect"))


def _setting_note(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """A verdict that becomes or stops being ``not_reproduced`` says why: a figure's claim
    contradicted on a setting other than the paper's is no violation of the paper, and the
    setting's differences are named (a reader comparing ``violated`` with ``not_reproduced``
    sees that the finding is the same and its meaning is not)."""
    for verdict, side in ((new, "now"), (old, "before")):
        if verdict.get("verdict") == NOT_REPRODUCED:
            differs = _differs(verdict)
            return (f"{side} not_reproduced: a figure contradicted on a setting other than the paper's"
                    + (f" (differs: {differs})" if differs else "") + ", not a violation")
    return ""


def _erratum_key(entry: Mapping[str, Any]) -> tuple[str, str]:
    return str(entry.get("claim_id")), str(entry.get("kind"))


def compare(old: Snapshot, new: Snapshot) -> list[Change]:
    """Every difference between ``old`` and ``new``, claims in id order."""
    changes = []
    for claim in sorted(set(old.verdicts) | set(new.verdicts)):
        a, b = old.verdicts.get(claim), new.verdicts.get(claim)
        if a is None or b is None:
            changes.append(Change(claim, "present", a is not None, b is not None,
                                  "new claim" if a is None else "claim no longer reported"))
            continue
        for field in FIELDS[:-1]:
            if a.get(field) != b.get(field) and not (field != "verdict" and a.get(field) is None):
                note = _setting_note(a, b) if field == "verdict" else ""
                changes.append(Change(claim, field, a.get(field), b.get(field), note))
        (ra, na), (rb, nb) = _ratio(a), _ratio(b)
        if _differ(ra, rb):
            changes.append(Change(claim, "worst_ratio", ra, rb, na or nb))
    if old.errata is not None and new.errata is not None:
        before = {_erratum_key(e): e for e in old.errata}
        after = {_erratum_key(e): e for e in new.errata}
        for key in sorted(set(before) | set(after)):
            a, b = before.get(key), after.get(key)
            if a is None or b is None:
                changes.append(Change("errata", f"{key[0]} ({key[1]})", a is not None, b is not None,
                                      "added" if a is None else "dropped"))
            elif a.get("corrected") != b.get("corrected"):
                changes.append(Change("errata", f"{key[0]} ({key[1]})", a.get("corrected"), b.get("corrected"),
                                      "corrected statement changed"))
    return changes


def _show(value: Any) -> str:
    if isinstance(value, float):
        return format(value, ".4g")
    return "-" if value is None else str(value)


def render_text(changes: list[Change], old: Snapshot, new: Snapshot) -> str:
    """The changes as plain text, one line each, under a heading naming both reports."""
    lines = [f"from {old.source} ({len(old.verdicts)} claims) to {new.source} ({len(new.verdicts)} claims):"]
    if not changes:
        lines.append("  no verdict, sub-verdict, worst ratio or erratum changed")
    if old.errata is None or new.errata is None:
        lines.append("  (errata not compared: a store, or an older summary.json, does not record the ledger)")
    for c in changes:
        note = f"  [{c.note}]" if c.note else ""
        lines.append(f"  {c.claim:34s} {c.field:18s} {_show(c.old)} -> {_show(c.new)}{note}")
    return "\n".join(lines)


def changes_table(changes: list[Change], old: Snapshot, new: Snapshot):
    """The changes as a report table (:class:`verification.report.tables.Table`)."""
    from verification.report.tables import Table

    rows = tuple((c.claim, c.field, _show(c.old), _show(c.new), c.note) for c in changes)
    title = (f"what changed from {old.source} ({len(old.verdicts)} claims) to this report "
             f"({len(new.verdicts)} claims)" + ("" if changes else ": nothing"))
    return Table(title, ("claim", "what", "before", "now", "note"), rows)
