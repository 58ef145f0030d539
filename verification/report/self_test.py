"""The self-test's figures (``selftest.json``, issue #8) as tables for the HTML and Markdown writers.

The document is the one :mod:`verification.selftest.campaign` writes: the four parts (planted
defects, false alarms, faults, bad input), possibly partial.  Every figure is computed over
the finished units only, and the first table says how many units are pending.

Examples
--------
>>> doc = {"complete": True, "pending": [], "defects": [], "mutation_score": None, "gaps": [],
...        "false_alarms": {"seeds": [0], "n_verdicts": 2, "differing": [], "rate": 0.0,
...                         "interval": [0.0, 0.84], "level": 0.95}, "faults": None,
...        "bad_input": None, "meta": {}}
>>> [t.title for t in selftest_tables(doc)]
['self-test summary']
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from verification import runner
from verification.report.tables import Table, format_value, key_value_table
from verification.selftest.false_alarms import FalseAlarms

__all__ = ["SELFTEST_INTRO", "check_document", "generated_mutants_line", "generated_mutants_table", "selftest_tables"]

#: what the section is, before its tables (both writers).
SELFTEST_INTRO = (
    "How well the harness catches a wrong implementation and how rarely it cries wolf "
    "(python -m verification.selftest, nox -s selftest): each planted defect is a mistake a "
    "reimplementation could plausibly contain, planted at run time without editing the source; "
    "the quick profile runs against each, and a claim flags the defect when its verdict differs "
    "from its expected verdict while its verdict on the unmodified code is stable over the "
    "false-alarm seeds (a claim whose trials raise counts as 'error'). Under a defect, only the claims whose trials call a function it "
    "edits (in the control run, seed 0) run their trials again; the others' trials are the "
    "control's, the same function of the same seed and code, and every claim is decided with "
    "the defect planted. The false alarms are the verdicts that differ on the unmodified "
    "code over independent master seeds: a smoke test, since the claims' true values sit far "
    "inside their nulls, so it finds a broken rule but not one of the wrong level; each rule's "
    "level is measured at the null boundary, on laws whose true value equals the bound (the "
    "type I table at the null boundary). The fault and bad-input parts are test suites run by "
    "the self-test.")


def _share(k: int, n: int) -> str:
    return f"{k} of {n}"


def _suite_line(part: Mapping | None) -> str:
    if part is None:
        return "not run"
    counts = ", ".join(f"{n} {k}" for k, n in part["counts"].items())
    verdict = "every test passed" if part["passed"] else "FAILED"
    return f"{verdict} ({counts}; {part['elapsed_s']:.0f} s)"


def _pending(units: list[str]) -> str:
    """``defect:a, defect:b, seed:3`` as ``defects a, b; seeds 3``."""
    kinds: dict[str, list[str]] = {}
    for unit in units:
        kind, _, name = unit.partition(":")
        kinds.setdefault(kind, []).append(name)
    return "; ".join(f"{kind}s {', '.join(names)}" for kind, names in kinds.items())


def _summary(doc: Mapping) -> Table:
    fa = doc["false_alarms"]
    meta = doc.get("meta", {})
    done = len(doc["defects"])
    planned = len(doc.get("defects_planned", [])) or done
    score = doc["mutation_score"]
    rows = {
        "status": "complete" if doc["complete"] else
        f"partial: {len(doc['pending'])} units pending ({_pending(doc['pending'])}); every "
        "figure below is over the finished units only",
        "planted defects run": _share(done, planned),
        "mutation score (defects flagged by at least one claim)":
            "n/a" if score is None else f"{score:.3f} ({_share(done - len(doc['gaps']), done)})",
        "gaps (defects no claim flags)": ", ".join(doc["gaps"]) or "none",
        "false alarms (a smoke test): verdicts unlike the expected one on the unmodified code":
            f"{_share(len(fa['differing']), fa['n_verdicts'])} ({len(fa['seeds'])} master seeds x "
            f"{len(meta.get('claims', [])) or '?'} claims)",
        f"false-alarm rate, {format_value(fa.get('level'))} Clopper-Pearson interval":
            f"{format_value(fa['rate'])} {format_value(fa['interval'])}",
    }
    if "run_rate" in fa:
        rows["runs with a differing verdict, interval"] = (
            f"{_share(fa['runs_with_a_difference'], len(fa['seeds']))}, "
            f"{format_value(fa['run_interval'])}")
    rows["faults (one test per simulated fault)"] = _suite_line(doc.get("faults"))
    rows["bad input (hypothesis fuzz of every public entry point and the CLI)"] = _suite_line(
        doc.get("bad_input"))
    for key, label in (("profile", "profile"), ("seed", "mutation seed")):
        if key in meta:
            rows[label] = meta[key]
    if "fingerprint" in doc:
        rows["code fingerprint (sha256)"] = doc["fingerprint"]["sha256"][:16]
    for key in ("git_revision", "started", "machine", "command"):
        if key in meta:
            rows[key.replace("_", " ")] = meta[key]
    return key_value_table("self-test summary", rows)


def _reached(entry: Mapping) -> str:
    """How many claims ran their trials under the defect (the others' are the control's)."""
    if "trials_run_for" not in entry:
        return "n/a"
    return f"{len(entry['trials_run_for'])} of {len(entry['verdicts'])}"


def _defects(doc: Mapping) -> list[Table]:
    entries = doc["defects"]
    if not entries:
        return []
    listing = Table("planted defects", ("defect", "file", "mistake", "breaks", "flagged by",
                                        "claims whose trials reach it", "check added for it"),
                    tuple((d["name"], d["module"], d["description"], d["breaks"],
                           ", ".join(d["flagged_by"]) or "no claim (a gap)",
                           _reached(d), d.get("check_added") or "")
                          for d in entries))
    # Only the claims that flag some defect get a column: the others would be empty.
    claims = [c for c in doc.get("meta", {}).get("claims", [])
              if any(c in d["flagged_by"] for d in entries)]
    matrix = Table("defect-by-claim table (a cell is the verdict of a claim that flags the defect)",
                   ("defect", "claims flagging", *claims),
                   tuple((d["name"], str(len(d["flagged_by"])),
                          *(d["verdicts"].get(c, "") if c in d["flagged_by"] else "" for c in claims))
                         for d in entries))
    return [listing, matrix]


def _why(text: str) -> str:
    """A stored explanation as today's :func:`format_value` would write it: documents written
    before it said "n/a" for a missing number carry "NaN" (an interval's open end)."""
    return re.sub(r"\bNaN\b", "n/a", text)


def _false_alarms(doc: Mapping) -> list[Table]:
    fa = doc["false_alarms"]
    per_seed = fa.get("per_seed", {})
    if not per_seed:
        return []
    rows = []
    for seed, entry in per_seed.items():
        differing = [d for d in fa["differing"] if str(d["seed"]) == seed]
        rows.append((seed, ", ".join(f"{d['claim']}: {d['verdict']} (expected {d['expected']})"
                                     for d in differing) or "none",
                     f"{entry.get('elapsed_s', 0.0):.0f}"))
    tables = [Table("false alarms, seed by seed", ("master seed", "verdicts unlike the expected one",
                                                   "time (s)"), tuple(rows))]
    if fa.get("by_claim"):
        n = len(fa["seeds"])
        tables.append(Table(
            f"false alarms by claim (rate over the {n} master seeds, {format_value(fa['level'])} "
            "Clopper-Pearson interval)",
            ("claim", "expected", "found", "seeds", "rate", "interval"),
            tuple((claim, e["expected"], ", ".join(f"{v} {k}" for k, v in e["found"].items()),
                   ", ".join(map(str, e["seeds"])), _share(len(e["seeds"]), n),
                   format_value(e["interval"]))
                  for claim, e in fa["by_claim"].items())))
    if fa["differing"]:
        # The why is written by python -m verification.selftest from the seed's store
        # (verification.selftest.explain); a document written without the stores lacks it.
        tables.append(Table(
            "why each false alarm differs (the claim's decision in that run)",
            ("master seed", "claim", "verdict", "expected", "why"),
            tuple((str(d["seed"]), d["claim"], d["verdict"], d["expected"],
                   _why(per_seed.get(str(d["seed"]), {}).get("why", {}).get(
                       d["claim"], "not recorded (the run's store was gone when it was written)")))
                  for d in fa["differing"])))
    return tables


def error_rates(doc: Mapping) -> dict:
    """The campaign's type I and type II figures (:class:`FalseAlarms`), as the document has
    them or, for a document written before they existed, computed from its seeds' verdicts
    with the expected verdicts it recorded."""
    fa = doc["false_alarms"]
    # The type I rate needs many more seeds than the rest (a campaign of its own, at an alpha
    # where its rate is measurable); when that campaign's document was found, its rate serves.
    own = doc.get("type_one_campaign", {}).get("false_alarms", {}).get("type_one")
    # Likewise a type II campaign of some claims at their planned level replaces their rows.
    planned = doc.get("type_two_campaign", {}).get("false_alarms", {}).get("type_two", {})
    if "type_one" in fa and "type_two" in fa:
        return {"type_one": own or fa["type_one"], "type_two": {**fa["type_two"], **planned},
                "stable": fa.get("stable")}
    alarms = FalseAlarms(list(fa.get("seeds", [])), list(fa.get("claims", [])), list(fa.get("differing", [])),
                         fa.get("profile", ""), fa.get("elapsed_s", 0.0),
                         expected=doc.get("meta", {}).get("expected"),
                         alpha=fa.get("alpha", doc.get("meta", {}).get("alpha", runner.DEFAULT_ALPHA)))
    return {"type_one": own or alarms.type_one(), "type_two": {**alarms.type_two(), **planned},
            "stable": alarms.stable()}


def _at_revision(revision: str | None) -> str:
    """``"code at 114d77c"`` (``+dirty`` kept: uncommitted edits), or ``""`` when not recorded.
    The parts of a self-test (type I campaign, statement mutants, the seeds) may come from
    different code; each names its own.

    >>> _at_revision("114d77c9ad6c403f64dae96c236e80c04ff67571+dirty")
    'code at 114d77c+dirty'
    """
    if not revision:
        return ""
    sha, _, dirty = revision.partition("+")
    return f"code at {sha[:7]}" + (f"+{dirty}" if dirty else "")


def _statement_mutants(doc: Mapping) -> list[Table]:
    part = doc.get("statement_mutants")
    if not part or not part.get("by_claim"):
        return []
    rows = tuple((e["claim"], e["name"], e["kind"], e["statement"],
                  "; ".join(f"{k} {v}" for k, v in e["counterexample"].items()),
                  # A mutant whose check searches where it fails says where, and with how many runs.
                  f"{e['config_why']} ({e['config']['n_trials']} trials)" if e.get("config_why")
                  else f"the {e.get('profile', 'smoke')} profile's grid",
                  e["verdict"] if not e.get("error") else "error",
                  "detected" if e["detected"] else "GAP: not detected")
                 for entries in part["by_claim"].values() for e in entries)
    where = ", ".join(filter(None, [f"{part['profile']} profile" if part.get("profile") else "",
                                    _at_revision(part.get("git_revision"))]))
    where = f" ({where})" if where else ""
    return [Table(f"statement mutants{where}: {part['detected']} of {part['total']} provably false "
                  "statements rejected by their claim's check (a mutant not detected is a gap of the "
                  "check, kept, not dropped)",
                  ("claim", "mutant", "kind", "mutated statement", "exact counterexample", "where the check ran",
                   "verdict", "outcome"),
                  rows)]


def generated_mutants_table(entry: Mapping) -> Table:
    """One specification's generated statement mutants (:mod:`verification.selftest.generated`):
    each mutant with what it edits, whether it tightens the statement, is false and is detected,
    its witness or why it is kept out."""
    rows = []
    for m in entry["mutants"]:
        if "false" not in m:
            outcome, why = "not assessed", m.get("status", "")
        else:
            outcome = ("detected" if m["detected"] else "GAP: false, not detected") if m["false"] else "true (survives)"
            witness = m.get("witness")
            at = ", ".join(f"{k} = {v:.12g}" if isinstance(v, float) else f"{k} = {v}"
                           for k, v in witness["point"].items()) if isinstance(witness, Mapping) else ""
            why = m.get("reason") or (f"witness {at}: left side {witness['lhs']} against the mutant's "
                                      f"{format_value(witness['rhs'])}" if isinstance(witness, Mapping) else "")
        rows.append((m["formula"], m["kind"], m["edit"], "yes" if m.get("tightens") else "no", outcome, why))
    return Table(f"statement mutants generated from {entry['claim']}'s {entry['side']} side: {entry['generated']} "
                 f"generated, {entry['tightening']} tightening, {entry['false']} false, {entry['detected']} detected "
                 f"({entry['why_this_side']})",
                 ("mutated right side", "kind", "edit", "tightens", "outcome", "witness or reason"), tuple(rows))


def generated_mutants_line(part: Mapping) -> str:
    """The generated statement mutants of a report in one sentence: totals and survivors."""
    if not part.get("by_claim"):
        return "No claim with a verdict here is a specification: no statement mutant was generated."
    survivors = "; ".join(f"{s['claim']}: {s['formula']} ({s['reason']})" for s in part["survivors"])
    count = len(part["by_claim"])
    return (f"Statement mutants generated from the {count} specification{'s' if count > 1 else ''} with a verdict here: "
            f"{part['generated']} generated, {part['tightening']} tightening the statement, {part['false']} false, "
            f"{part['detected']} detected by their claim's search; survivors: {survivors or 'none'}. Each claim's "
            "page lists its own.")


def _error_kinds(doc: Mapping) -> list[Table]:
    if not doc["false_alarms"].get("seeds") or not doc["false_alarms"].get("claims"):
        return []
    rates = error_rates(doc)
    one = rates["type_one"]
    corrected = one.get("corrected_claims", [])
    where = ", ".join(filter(None, [
        f"{one['profile']} profile, family-wise alpha {one['alpha']:g}" if "profile" in one and "alpha" in one else "",
        _at_revision(doc.get("type_one_campaign", {}).get("meta", {}).get("git_revision")
                     if "type_one_campaign" in doc else doc.get("meta", {}).get("git_revision"))]))
    where = f" ({where})" if where else ""
    type_two_at = _at_revision(doc.get("meta", {}).get("git_revision"))
    campaign = doc.get("type_two_campaign", {})
    planned = campaign.get("false_alarms", {}).get("type_two", {})
    planned_at = ", ".join(filter(None, [
        f"{campaign['meta'].get('profile')} profile, alpha {campaign['meta'].get('alpha'):g}"
        if planned and campaign["meta"].get("alpha") is not None else "",
        _at_revision(campaign.get("meta", {}).get("git_revision"))]))
    rows = [("type I smoke test (claims far inside their nulls: shows nothing grossly broken, not a rule's "
             "level; the level is measured at the null boundary): a printed statement expected to hold rejected"
             + (", or a correction found violated" if corrected else "") + where,
             ", ".join([*one["claims"], *corrected]) or "none",
             f"{one['rejections']} of {one['seeds']} runs", format_value(one["interval"]))]
    for claim, entry in rates["type_two"].items():
        at = planned_at if claim in planned else type_two_at
        rows.append((f"type II: {claim} (expected {entry['expected']}" + (f", {at})" if at else ")"),
                     claim,
                     f"found on {entry['found']} of {entry['seeds']} seeds", format_value(entry["interval"])))
    return [Table("the two kinds of error, apart (each seed one run at the run's family-wise alpha; "
                  "95% Clopper-Pearson intervals)", ("error", "claims", "count", "interval"), tuple(rows))]


def _rerun_costs(doc: Mapping) -> list[Table]:
    """What a change reaching one claim's trials runs again, claim by claim: the campaign's
    ``rerun_cost`` (:mod:`verification.selftest.campaign`), over the finished units."""
    cost = doc.get("rerun_cost")
    if not cost or not cost.get("by_claim"):
        return []
    left_out = cost.get("units_without_times", 0)
    title = ("what a change to one claim runs again: the minutes of the claim's trials over the "
             "units of this document that hold them (each seed, the control, the defects its trials "
             "reach, its statement mutants); the other claims' trials are reused. On top come the "
             "decisions of every claim and the suites; the wall time depends on what runs side by "
             "side (a seed's or a defect's trials over the campaign's workers, the control's under "
             "the reach recorders and a mutant's in one process)"
             + (f"; {left_out} units stored without their times are left out" if left_out else ""))
    return [Table(title, ("claim", "trial time (min)", "units", "units where its trials raised (not timed)"),
                  tuple((claim, f"{e['trial_s'] / 60:.1f}", str(e["units"]), str(e.get("units_raised", 0)))
                        for claim, e in cost["by_claim"].items()))]


def _suite(doc: Mapping, part: str, title: str) -> list[Table]:
    entry = doc.get(part)
    if not entry:
        return []
    first = ("fault", "test") if part == "faults" else ("test",)
    rows = tuple(((t["what"], t["id"]) if part == "faults" else (t["id"],))
                 + (t["outcome"], f"{t['seconds']:.1f}", t["message"]) for t in entry["tests"])
    return [Table(title, (*first, "outcome", "time (s)", "message"), rows)]


def _null_boundary(doc: Mapping) -> list[Table]:
    """The null-boundary calibration (:mod:`verification.selftest.null_boundary`): per rule its
    largest rejection rate, then every case."""
    part = doc.get("null_boundary")
    if not part or not part.get("by_rule"):
        return []
    where = _at_revision(part.get("git_revision") or doc.get("meta", {}).get("git_revision"))
    head = (f"type I at the null boundary{f' ({where})' if where else ''}: each statistical rule at the catalog's "
            f"designs, every point at its bound exactly, per-claim level {part['level']:g}, "
            f"{part['seeds_per_case']} seeds per case (a doubled rate is found with probability "
            f"{part['doubling_power']:.3f}); {len(part['findings'])} cases above the level"
            + (f"; {len(part['pending'])} cases pending" if part.get("pending") else ""))
    rules = tuple((rule, str(len(r["cases"])), _share(r["rejections"], r["seeds"]),
                   f"{format_value(r['largest_rate']['rate'])} {format_value(r['largest_rate']['interval'])} "
                   f"({r['largest_rate']['key']})", ", ".join(r["findings"]) or "none")
                  for rule, r in part["by_rule"].items())
    cases = tuple((e["case"]["rule"], e["case"]["claim"], e["case"]["profile"], e["case"]["law"],
                   str(e["case"]["n"]), str(e["case"]["points"]), format_value(e["per_point_level"]),
                   _share(e["rejections"], e["seeds"]), format_value(e["interval"]), e["outcome"])
                  for r in part["by_rule"].values() for e in r["cases"])
    return [Table(head, ("rule", "cases", "rejections over all cases", "largest rate, interval (case)",
                         "cases above the level"), rules),
            Table(f"type I at the null boundary, case by case ({format_value(part['coverage'])} Clopper-Pearson "
                  f"intervals; {part['criterion']})",
                  ("rule", "claim", "profile", "law", "n", "points", "per-point level", "rejections", "interval",
                   "outcome"), cases)]


def check_document(doc) -> None:
    """``TypeError``/``ValueError`` naming ``doc`` unless it has the schema's top-level entries."""
    if not isinstance(doc, Mapping):
        raise TypeError(f"doc must be a mapping, got {type(doc).__name__}")
    missing = [k for k in ("complete", "pending", "defects", "mutation_score", "gaps", "false_alarms")
               if k not in doc]
    if missing:
        raise ValueError(f"doc: selftest.json lacks {', '.join(missing)} (written by an older "
                         "version? run python -m verification.selftest again)")


def selftest_tables(doc: Mapping) -> list[Table]:
    """The tables of the self-test section, in reading order.

    Parameters
    ----------
    doc : mapping
        A ``selftest.json`` document.

    Returns
    -------
    list of Table
        The summary (status, mutation score, false-alarm rate and interval, the suites), the
        planted defects, the defect-by-claim table, the false alarms per seed, what a change to
        one claim runs again, the faults and the bad-input tests; a table with no rows is left
        out.

    Raises
    ------
    TypeError
        ``doc`` is not a mapping.
    ValueError
        ``doc`` lacks an entry of the schema.
    """
    check_document(doc)
    return [_summary(doc), *_defects(doc), *_statement_mutants(doc), *_null_boundary(doc), *_error_kinds(doc),
            *_false_alarms(doc),
            *_rerun_costs(doc), *_suite(doc, "faults", "faults (part 3)"),
            *_suite(doc, "bad_input", "bad input (part 4)")]
