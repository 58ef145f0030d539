"""``python -m verification.selftest``: the parts of the self-test, as JSON.

Runs, unit by unit (:mod:`verification.selftest.campaign`), the fault tests and the bad-input
fuzz of the checkout, the quick profile with each planted defect (after a control run without
one), the quick profile over several master seeds of the unmodified code, and each statement
mutant's claim with the mutant in place (:mod:`verification.selftest.statements`), and each
statistical rule at the catalog's designs on laws at the null boundary
(:mod:`verification.selftest.null_boundary`).  Writes
``selftest.json`` (``--out``) after every unit, with the schema ::

    {"complete": bool, "pending": [unit ids], "fingerprint": {...},
     "defects": [{"name", "description", "breaks", "flagged_by": [claim ids],
                  "verdicts": {claim: verdict}, ...}],
     "mutation_score": float, "gaps": [defect names],
     "false_alarms": {"seeds": [...], "differing": [...], "rate": x, "interval": [lo, hi], ...},
     "faults": {"passed", "counts", "tests": [...]}, "bad_input": {...},
     "statement_mutants": {"total", "detected", "gaps": [names], "planned": [names],
                           "by_claim": {claim: [{"name", "kind", "statement", "counterexample",
                                                 "verdict", "detected", ...}]}},
     "null_boundary": {"seeds_per_case", "criterion", "findings": [case keys], "pending",
                       "by_rule": {rule: {"cases": [{"key", "case", "rejections", "seeds",
                                                     "rate", "interval", "outcome", ...}],
                                          "largest_rate", "findings", "undecided"}}},
     "meta": {...}}

and the defect-by-claim table beside it (``selftest.md``).  Started again with the same
``--out``, it reuses the units stored there for the same code and runs the rest; a unit run
again after an edit reuses the stored trials of every claim the edit does not reach (the
stores live in ``--workdir``'s ``by-code/``, keyed by the code each claim's trials reach).  Exit status
0 when the campaign is complete, every defect is flagged, no verdict differs on the unmodified
code, both suites pass and no null-boundary case is above its level; 1 when one of these findings is not so; 3 when the time budget
stopped it with units pending; 2 for a usage error (one line on stderr).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from verification import catalog, runner, verdicts
from verification.fingerprint import StaleCodeError
from verification.report.markdown import selftest_section
from verification.selftest import campaign, explain, null_boundary, statements
from verification.selftest import defects as defect_catalog
from verification.store import StoreError

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INCOMPLETE = 0, 1, 2, 3
DEFAULT_WORKDIR = Path(".iln-verify") / "selftest"
#: the subdirectory of ``--workdir`` holding the runs' stores (seeds, control, defects,
#: mutants), for every version of the code.
TRIAL_STORES = "by-code"


class UsageError(Exception):
    """A bad command line: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise UsageError(message)


def _count(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"expected an integer >= {least}, got {value}")
    return value


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {value}")
    return value


def _names(text: str) -> list[str]:
    return [n for n in (part.strip() for part in text.split(",")) if n]


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verification.selftest",
                description="Verify the verifier: faults, bad input, planted defects and false "
                            "alarms (issue #8).")
    p.add_argument("--parts", default=",".join(campaign.PARTS), metavar="PARTS",
                   help=f"comma-separated parts to run (default: all of {', '.join(campaign.PARTS)})")
    p.add_argument("--defects", default="all", metavar="NAMES",
                   help="comma-separated defect names, 'all' (default) or 'none'")
    p.add_argument("--mutants", default="all", metavar="NAMES",
                   help="comma-separated statement mutant names, 'all' (default) or 'none'")
    p.add_argument("--seeds", type=lambda t: _count(t, 0), default=20, metavar="N",
                   help="master seeds 0..N-1 of the false-alarm campaign (0: skip it)")
    p.add_argument("--null-seeds", type=lambda t: _count(t, 1), default=null_boundary.SEEDS, metavar="N",
                   help=f"seeds 0..N-1 of every case of the null-boundary part (default {null_boundary.SEEDS}: "
                        "a doubled false-alarm rate is found with probability 0.92)")
    p.add_argument("--seed", type=lambda t: _count(t, 0), default=0,
                   help="master seed of the mutation campaign")
    p.add_argument("--profile", choices=catalog.PROFILES, default="quick")
    p.add_argument("--claims", default="", metavar="IDS",
                   help="comma-separated claim ids (default: the whole catalog)")
    p.add_argument("--expected", default="", metavar="VERDICTS",
                   help="keep only the claims whose expected verdict is one of these "
                        "(comma-separated; for example holds,holds_after_correction for the "
                        "type I campaign)")
    p.add_argument("--alpha", type=_alpha, default=runner.DEFAULT_ALPHA,
                   help=f"family-wise alpha of every run (default {runner.DEFAULT_ALPHA:g}); "
                        "the type I campaign uses 0.05 so that its rate is measurable")
    p.add_argument("--jobs", type=lambda t: _count(t, 1), default=None,
                   help="local worker processes per run (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the trials on this Dask scheduler")
    p.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR,
                   help="directory of the campaigns' stores, kept for every version of the code "
                        f"in {TRIAL_STORES}/: a rerun after an edit reruns only the trials of the "
                        "claims the edit reaches")
    p.add_argument("--out", type=Path, default=Path("selftest.json"),
                   help="the JSON document; the table goes beside it as .md")
    p.add_argument("--checkout", type=Path, default=Path(),
                   help="repository root whose tests/ the fault and bad-input parts run "
                        "(default: the current directory)")
    p.add_argument("--budget-minutes", type=lambda t: _count(t, 0), default=None, metavar="MIN",
                   help="start no unit after this many minutes (exit 3 with units pending; "
                        "a rerun with the same --out resumes)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def _selected(text: str, option: str, known: dict) -> list:
    """The entries of ``known`` (by name) that ``text`` names: names, 'all' or 'none'."""
    if text == "all":
        return list(known.values())
    if text == "none":
        return []
    chosen = _names(text)
    what = option.removeprefix("--").rstrip("s")
    if not chosen:
        raise UsageError(f"{option}: expected {what} names, 'all' or 'none'")
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise UsageError(f"{option}: unknown {what} {unknown[0]!r} (known: {', '.join(known)})")
    return [known[n] for n in dict.fromkeys(chosen)]


def _selected_defects(text: str) -> list:
    return _selected(text, "--defects", defect_catalog.DEFECTS)


def _say(quiet: bool, message: str) -> None:
    if not quiet:
        print(message, file=sys.stderr, flush=True)


def _report_line(doc: dict) -> str:
    score = doc["mutation_score"]
    n_done = len(doc["defects"])
    fa = doc["false_alarms"]
    suites_text = "; ".join(
        f"{part.replace('_', ' ')}: " + ("not run" if doc[part] is None else
                                         ", ".join(f"{n} {k}" for k, n in doc[part]["counts"].items()))
        for part in ("faults", "bad_input"))
    sm = doc.get("statement_mutants") or {}
    mutants_text = (f"statement mutants: {sm['detected']} of {sm['total']} rejected"
                    + (f" (gaps: {', '.join(sm['gaps'])})" if sm.get("gaps") else "") + "; "
                    if sm.get("total") else "")
    null = doc.get("null_boundary")
    if null:
        mutants_text += (f"null boundary: {len(null['findings'])} rule cases above the level of "
                         f"{len(null['planned']) - len(null['pending'])} run; ")
    return (f"mutation score {'n/a' if score is None else f'{score:.3f}'} ({n_done - len(doc['gaps'])} "
            f"of {n_done} defects flagged); gaps: {', '.join(doc['gaps']) or 'none'}; differing "
            f"verdicts on the unmodified code: {len(fa['differing'])} of {fa['n_verdicts']} "
            f"({len(fa['seeds'])} seeds); {mutants_text}{suites_text}; "
            + ("complete" if doc["complete"] else f"{len(doc['pending'])} units pending"))


def _run(args) -> int:
    planted = _selected_defects(args.defects)
    mutants = [m.name for m in _selected(args.mutants, "--mutants", statements.MUTANTS)]
    known = catalog.load()
    claims = _names(args.claims) or list(known)
    unknown = [c for c in claims if c not in known]
    if unknown:
        raise UsageError(f"--claims: unknown claim id {unknown[0]!r} (iln-verify list shows the catalog)")
    wanted = _names(args.expected)
    if wanted:
        bad = [v for v in wanted if v not in verdicts.OUTCOMES]
        if bad:
            raise UsageError(f"--expected: unknown verdict {bad[0]!r} (one of {', '.join(verdicts.OUTCOMES)})")
        claims = [c for c in claims if known[c].expected in wanted]
        if not claims:
            raise UsageError(f"--expected: no selected claim is expected {args.expected!r}")
    parts = _names(args.parts)
    bad = [p for p in parts if p not in campaign.PARTS]
    if bad or not parts:
        raise UsageError(f"--parts: expected some of {', '.join(campaign.PARTS)}, got {args.parts!r}")
    if not args.out.parent.is_dir():
        raise UsageError(f"--out: directory {args.out.parent} does not exist")
    checkout = args.checkout.resolve()
    if {"faults", "bad_input"} & set(parts) and not (checkout / "tests").is_dir():
        raise UsageError(f"--checkout: {checkout} has no tests/ directory (the fault and bad-input "
                         "parts run the checkout's tests; leave them out with --parts)")
    plan = campaign.Plan(defects=planted, seeds=list(range(args.seeds)), mutation_seed=args.seed,
                         profile=args.profile, claims=claims, parts=tuple(parts),
                         jobs=args.jobs or os.cpu_count() or 1, scheduler=args.scheduler,
                         workdir=args.workdir, checkout=checkout,
                         trial_stores=args.workdir / TRIAL_STORES, alpha=args.alpha,
                         mutants=tuple(mutants), null_seeds=args.null_seeds)
    _say(args.quiet, f"self-test: {len(plan.unit_ids())} units ({', '.join(parts)}), "
                     f"{len(claims)} claims, profile {args.profile}")
    budget = None if args.budget_minutes is None else 60.0 * args.budget_minutes
    doc = campaign.run_campaign(plan, args.out, budget_s=budget,
                                say=lambda line: _say(args.quiet, line),
                                command=["python -m verification.selftest", *sys.argv[1:]])
    if explain.annotate(doc, doc["meta"]["expected"], lambda seed: campaign.store_of(plan, seed), plan.profile):
        _say(args.quiet, "some differing verdicts have no why: their stores are gone from --workdir")
    campaign.write(args.out, doc)
    table = args.out.with_suffix(".md")
    table.write_text("\n".join(["# Self-test", "", *selftest_section(doc)]))
    print(_report_line(doc) + f"; wrote {args.out} and {table}")
    if not doc["complete"]:
        return EXIT_INCOMPLETE
    suites_fail = any(doc[p] is not None and not doc[p]["passed"] for p in ("faults", "bad_input"))
    mutant_gaps = (doc.get("statement_mutants") or {}).get("gaps")
    null_findings = (doc.get("null_boundary") or {}).get("findings")
    return (EXIT_FINDINGS if doc["gaps"] or mutant_gaps or doc["false_alarms"]["differing"] or suites_fail
            or null_findings else EXIT_OK)


def main(argv=None) -> int:
    """Entry point; returns the exit status."""
    try:
        return _run(_parser().parse_args(argv))
    except (UsageError, StoreError, StaleCodeError) as error:
        print(f"selftest: error: {error}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
