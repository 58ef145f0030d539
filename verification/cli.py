"""The command line, ``iln-verify`` (also ``python -m verification``).

Exit status, for scripts and CI:

- 0: every selected claim was decided (or reported), whatever the verdicts;
- 1: only with ``--fail-on-violation`` (a printed statement found false: ``violated`` or
  ``holds_after_correction``) or ``--fail-on-unexpected`` (a verdict unlike the claim's
  pre-registered expectation): the run says which;
- 2: bad input, an unusable store or an unreachable scheduler (a one-line message);
- 3: a claim raised (its verdict is ``error``) or a worker process died part-way (the
  finished trials are in the store and a new run resumes them);
- 130: interrupted (Ctrl-C); the finished trials are kept and the message says how to resume.
"""

from __future__ import annotations

import argparse
import collections
import json
import shlex
import signal
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from verification import catalog, costs, fingerprint, incremental, runner, search
from verification.store import Store, StoreError
from verification.verdicts import ERROR, HOLDS_AFTER_CORRECTION, VIOLATED, Verdict

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: a worker process that died is the run's error: the same status as a claim that raised.
EXIT_WORKER_DIED = EXIT_ERROR


class UsageError(Exception):
    """A bad command line or input: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise UsageError(message)


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def _seed(text: str) -> int:
    value = _non_negative_int(text)
    # SeedSequence takes any size, but the store keeps seeds as SQLite integers.
    if value > 2**63 - 1:
        raise argparse.ArgumentTypeError(f"expected a seed below 2**63, got {value}")
    return value


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


#: the verdicts that say a printed statement is false (``--fail-on-violation``); not
#: ``not_reproduced``, a figure contradicted on a setting other than the paper's.
PRINTED_FAILS = (VIOLATED, HOLDS_AFTER_CORRECTION)


#: where ``iln-verify report`` writes unless told: beside the default store, not reports/.
DEFAULT_REPORT = runner.DEFAULT_STORE.parent / "report"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="iln-verify", description="Check the claims of the papers published in the "
                                                   f"entry-point group {catalog.ENTRY_POINTS}.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("list", help="list the papers, the claims and the errata ledger")
    p.add_argument("--json", action="store_true", help="print the catalog as JSON")
    p = sub.add_parser("run", help="run claims and decide their verdicts")
    p.add_argument("claims", nargs="*", metavar="CLAIM", help="claim ids (default: all)")
    p.add_argument("--profile", choices=catalog.PROFILES, default="quick",
                   help="how many trials: the whole catalog takes " + costs.profile_times()
                        + "; the committed report is the full profile's (default quick)")
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument("--jobs", type=_positive_int, default=None, help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the trials on this Dask scheduler")
    p.add_argument("--store", type=Path, default=runner.DEFAULT_STORE)
    p.add_argument("--json", type=Path, metavar="PATH", help="write the run's results as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--verbose", action="store_true",
                   help="say, claim by claim, why its stored trials were reused or run again")
    p.add_argument("--fail-on-violation", action="store_true",
                   help="exit 1 when a printed statement is found false (violated or "
                        "holds_after_correction); by default a finding exits 0")
    p.add_argument("--fail-on-unexpected", action="store_true",
                   help="exit 1 when a verdict differs from its claim's pre-registered expectation")
    p.add_argument("--data", type=Path, metavar="PATH",
                   help="a LIBSVM file (RKS's adult is a9a): run the claims that take a data set "
                        "(by default all of them) on it instead of their own data")
    p.add_argument("--changed", nargs="?", const="", default=None, metavar="REV",
                   help="run only the claims whose code differs from that of their stored trials "
                        "(or, with REV, from the code at git revision REV)")
    p = sub.add_parser("show", help="show a claim and its latest verdict")
    p.add_argument("claim", metavar="CLAIM")
    p.add_argument("--store", type=Path, default=runner.DEFAULT_STORE)
    p = sub.add_parser("report", help="write the report of the latest verdicts")
    p.add_argument("--store", type=Path, default=runner.DEFAULT_STORE, help="the store to report on")
    # A folder of the user's own beside the store: in a clone, writing to reports/ would
    # overwrite the committed full-profile report (only nox -s report regenerates that).
    p.add_argument("--out", type=Path, default=DEFAULT_REPORT,
                   help="directory of index.html, claims/, REPORT.md, plots/ and summary.json "
                        f"(default {DEFAULT_REPORT}; the committed copy in reports/ is written by "
                        "nox -s report)")
    p.add_argument("--against", type=Path, metavar="OLD",
                   help="an earlier report's store or summary.json: the index says what changed since it")
    p.add_argument("--save-verdicts", type=Path, metavar="PATH",
                   help="also write the store without its trials to this new file (small enough "
                        "to commit; the report can be written again from it)")
    p.add_argument("--readme", type=Path, metavar="PATH",
                   help="also write the verdict tables between the markers of this README from "
                        "the report's summary.json (nox -s report passes README.md)")
    p = sub.add_parser("diff", help="what changed between two reports (stores or summary.json files)")
    p.add_argument("old", type=Path, metavar="OLD")
    p.add_argument("new", type=Path, metavar="NEW")
    p.add_argument("--json", action="store_true", help="print the changes as JSON")
    return parser


def _diff(args) -> int:
    from verification.report import diff

    try:
        old, new = diff.load(args.old), diff.load(args.new)
    except ValueError as error:
        raise UsageError(str(error)) from None
    changes = diff.compare(old, new)
    if args.json:
        print(json.dumps([c.__dict__ for c in changes], indent=2, default=str))
    else:
        print(diff.render_text(changes, old, new))
    return EXIT_OK


def _fmt(value, spec=".3g") -> str:
    return "n/a" if value is None else format(value, spec)


def _list(args) -> int:
    claims = catalog.load()
    papers, left_out = catalog.papers(), catalog.broken_papers()
    if args.json:
        doc = {"papers": {name: {"versions": dict(p.versions), "claims": p.claims} for name, p in papers.items()},
               "left_out": left_out,
               "claims": [{"id": c.id, "title": c.title, "kind": c.kind, "expected": c.expected, "rule": c.rule,
                           "sources": c.sources_json(),
                           # a specification's variables, admissible domains and plans; None
                           # for a claim not yet moved onto the search (issue 41)
                           "domain": search.declared_domain(c.id)} for c in claims.values()],
               "errata": [{"claim": e.claim_id, "printed": dict(e.printed), "counterexample": e.counterexample,
                           "corrected": e.corrected, "check": e.check, "kind": e.kind,
                           "quotes": [{"paper": q.paper, "location": q.location, "text": q.text}
                                      for q in e.quotes]} for e in catalog.errata()]}
        print(json.dumps(doc, indent=2))
        return EXIT_OK
    print(f"Papers (entry-point group {catalog.ENTRY_POINTS}):")
    for name, paper in papers.items():
        print(f"  {name}: " + "; ".join(f"{key}: {ref}" for key, ref in paper.versions.items()))
    for name, why in left_out.items():
        print(f"  {name}: LEFT OUT: {why}")
    print()
    for c in claims.values():
        where = "; ".join(f"{s.paper} {s.location}" for s in c.sources)
        print(f"{c.id:32s} {c.kind:12s} {c.expected:24s} {c.title} [{where}]")
    print("\nErrata ledger:")
    for e in catalog.errata():
        print(f"  {e.claim_id} ({e.kind}): {e.counterexample}")
        # The quoted places are the evidence of a quoted disagreement: shown with it.
        for q in e.quotes:
            print(f"    quoted, {q.paper} {q.location}: {q.text}")
    return EXIT_OK


def _run(args) -> int:
    known = catalog.load()
    for claim_id in args.claims:
        if claim_id not in known:
            raise UsageError(f"unknown claim id {claim_id!r} (iln-verify list shows the catalog)")
    if args.json is not None and not args.json.parent.exists():
        raise UsageError(f"--json: directory {args.json.parent} does not exist")
    claims = args.claims
    data = None
    if args.data is not None:
        data, claims = _data_claims(args.data, claims, known, args.profile)
    if args.changed is not None:
        claims = _changed_claims(args, known, claims, data)
        if not claims:
            print(f"no claim changed {_since(args)}: nothing to run")
            return EXIT_OK
    try:
        result = runner.run(claims, profile=args.profile, seed=args.seed, jobs=args.jobs,
                            scheduler=args.scheduler, store=args.store, quiet=args.quiet, data=data)
    except runner.SchedulerError as error:
        raise UsageError(f"--scheduler: {error}") from None
    _print_reuse(result.meta.get("reuse", {}), result.meta.get("decisions", {}), args.verbose)
    if data is not None:
        print(f"on the data set {data}: the expected verdicts are those of the claims' own data")
    for o in result.outcomes:
        v = o.verdict
        # "expected" is the project's pre-registered expectation, not a pass mark: shown, not flagged.
        note = "" if o.matches else f"  (pre-registered: {o.claim.expected})"
        print(f"{o.claim.id:32s} {v.verdict:24s} statistic {_fmt(v.statistic)} vs bound "
              f"{_fmt(v.bound)} (tightness {_fmt(v.tightness)}, {v.n_trials} trials, {v.elapsed_s:.1f} s){note}")
    if args.json is not None:
        args.json.write_text(json.dumps(result.to_json(), indent=2, allow_nan=False))
    return _run_status(args, result)


def _run_status(args, result: runner.RunResult) -> int:
    """The summary line and the exit status of a finished run (the module docstring's table)."""
    counts = collections.Counter(o.verdict.verdict for o in result.outcomes)
    print(f"decided {len(result.outcomes)} claims (seed {args.seed}, profile {args.profile}, "
          f"{result.meta['elapsed_s']:.1f} s): " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
    errors = [o.claim.id for o in result.outcomes if o.verdict.verdict == ERROR]
    if errors:
        print(f"claims that raised (verdict error; iln-verify show CLAIM has the exception): {', '.join(errors)}")
        return EXIT_ERROR
    failing = []
    if args.fail_on_violation:
        failing += [f"{o.claim.id} ({o.verdict.verdict})" for o in result.outcomes
                    if o.verdict.verdict in PRINTED_FAILS]
    if args.fail_on_unexpected:
        failing += [f"{o.claim.id} ({o.verdict.verdict}, pre-registered {o.claim.expected})"
                    for o in result.outcomes if not o.matches]
    if failing:
        print("failing the run as asked: " + ", ".join(dict.fromkeys(failing)))
        return EXIT_FINDINGS
    return EXIT_OK


def _since(args) -> str:
    return f"since git revision {args.changed}" if args.changed else "since the stored trials"


def _data_claims(path: Path, claims: list[str], known: dict, profile: str) -> tuple[str, list[str]]:
    """``--data``: the data set's name for the claims (``"libsvm:PATH"``, the file read once
    here so that a missing or malformed file stops the run before any work) and the claims
    to run: those named, each of which must take a data set, or all that do."""
    from iln.rks.datasets import LIBSVM_PREFIX, load_libsvm

    try:
        load_libsvm(path)
    except (OSError, ValueError) as error:
        raise UsageError(f"--data: {error}") from None
    takers = [c.id for c in known.values() if c.with_data is not None]
    refused = [c for c in claims if c not in takers]
    if refused:
        raise UsageError(f"--data: {', '.join(refused)} run on no data set; the claims that do: "
                         f"{', '.join(takers)}")
    # Absolute, so that the workers (and a later run) read the same file whatever their folder.
    found = path.expanduser()
    name = LIBSVM_PREFIX + str(found.resolve() if found.is_file() else path)
    claims = list(claims) or takers
    for claim_id in claims:
        try:  # a file too small for a claim's grid, say: a usage error now, not a run of errors
            known[claim_id].config(profile, name)
        except ValueError as error:
            raise UsageError(f"--data: {claim_id}: {error}") from None
    return name, claims


def _changed_claims(args, known: dict, claims: list[str], data: str | None) -> list[str]:
    """The claims of ``--changed``, each printed with what changed."""
    selected = [known[c] for c in (claims or known)]
    hashes = {c.id: runner.trials_key(c.config(args.profile, data)) for c in selected}
    if not args.store.exists() and not args.changed:
        return [c.id for c in selected]  # nothing stored: every claim runs
    try:
        with Store(args.store) as db:
            changed = incremental.changed_since(db, selected, hashes, args.seed, args.profile,
                                                args.changed or None)
    except fingerprint.GitRevisionError as error:
        raise UsageError(str(error)) from None
    for claim_id, why in changed.items():
        print(f"changed {claim_id}: {why}")
    if changed:
        print(f"{len(changed)} of {len(selected)} claims changed {_since(args)}")
    return list(changed)


def _print_reuse(notes: dict[str, str], decisions: dict[str, str], verbose: bool = False) -> None:
    """One line: how many claims' stored trials the run reused, resumed or ran; one line on the
    stored decisions.  ``verbose``: the reason, claim by claim, below it."""
    kinds = collections.Counter(note.partition(":")[0].split(" ")[0] for note in notes.values())
    words = {"reused": "reused the stored trials of {} (code unchanged)", "resumed": "resumed {}",
             "reran": "ran the trials of {}"}
    parts = [words.get(kind, kind + " {}").format(_claims(n)) for kind, n in sorted(kinds.items())]
    if parts:
        print("; ".join(parts) + ("" if verbose else " (--verbose says why, claim by claim)"))
    if verbose:
        for claim_id, note in notes.items():
            verb, _, why = note.partition(": ")  # "reran", "reused 300 trials", "resumed"
            word, _, amount = verb.partition(" ")
            print(f"{word} {claim_id}: " + (f"{amount}, " if amount else "") + why)
    decided = [c for c, note in decisions.items() if note != "decision reused"]
    if len(decided) < len(decisions):
        print(f"reused the stored decisions of {_claims(len(decisions) - len(decided))} (same records, level "
              f"and decision code); decided {len(decided)}" + (f": {', '.join(decided)}" if decided and verbose else ""))


def _claims(n: int) -> str:
    return f"{n} claim" + ("" if n == 1 else "s")


def _open_existing(path: Path) -> Store:
    if not path.exists():
        raise UsageError(f"--store: {path} does not exist (run iln-verify run first)")
    return Store(path, read_only=True)


def _show(args) -> int:
    claim = catalog.get(args.claim) if args.claim in catalog.load() else None
    if claim is None:
        raise UsageError(f"unknown claim id {args.claim!r} (iln-verify list shows the catalog)")
    print(f"{claim.id}: {claim.title}")
    for s in claim.sources:
        print(f"  {s.paper} {s.location}: {s.statement}")
    print(f"  rule: {claim.rule}; expected: {claim.expected}")
    with _open_existing(args.store) as db:
        row = db.latest_verdict(claim.id)
    if row is None:
        print("  no verdict in the store yet")
        return EXIT_OK
    # Read as a Verdict: a verdict stored with the legacy "power" field shows the figures
    # defined since (its weakest point, its best point, can_fail derived from them).
    v = Verdict.from_json(row.verdict).to_json()
    print(f"  verdict: {v['verdict']} (seed {row.seed}, profile {row.profile}, saved {row.saved_at})")
    for key in ("statistic", "bound", "interval", "level", "alpha", "pvalue", "min_detectable_ratio",
                "min_detectable_ratio_best_point", "can_fail", "family", "tightness", "n_trials", "elapsed_s",
                "counterexample"):
        if key in v:
            print(f"  {key}: {v[key]}")
    if v.get("details", {}).get("reason"):
        print(f"  reason: {v['details']['reason']}")
    return EXIT_OK


def _report(args) -> int:
    # Imported here: matplotlib and jinja2 slow down every other subcommand.
    from verification.report import ReportError, write_report

    if args.save_verdicts is not None and args.save_verdicts.exists():
        raise UsageError(f"--save-verdicts: {args.save_verdicts} exists (the copy goes to a new file)")
    try:
        written = write_report(args.store, args.out, args.against)
    except ReportError as error:
        raise UsageError(str(error)) from None
    print(f"wrote {len(written)} files to {args.out}/ (index.html, claims/, REPORT.md, plots/, "
          f"summary.json); open {args.out / 'index.html'}")
    if args.readme is not None:
        from verification.report.readme import write_readme_tables

        try:
            changed = write_readme_tables(args.readme, args.out / "summary.json")
        except (OSError, ValueError) as error:
            raise UsageError(f"--readme: {error}") from None
        print(f"{'wrote' if changed else 'kept'} the verdict tables of {args.readme} "
              f"(from {args.out / 'summary.json'})")
    if args.save_verdicts is not None:
        with Store(args.store) as db:
            db.save_without_trials(args.save_verdicts)
        print(f"wrote the verdicts and runs of {args.store}, without its trials, to {args.save_verdicts}")
    return EXIT_OK


def main(argv=None) -> int:
    """Entry point; returns the exit status."""
    try:
        args = _parser().parse_args(argv)
        return {"list": _list, "run": _run, "show": _show, "report": _report,
                "diff": _diff}[args.command](args)
    except (UsageError, StoreError, catalog.NoPaperError, fingerprint.StaleCodeError) as error:
        print(f"iln-verify: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenProcessPool as error:
        print(f"iln-verify: error: {error}; finished trials are in the store and a new run resumes them",
              file=sys.stderr)
        return EXIT_WORKER_DIED
    except KeyboardInterrupt:
        # Ignored from here: the interpreter's exit puts back the default action of a handled
        # signal, which a second Ctrl-C would meet as a death by SIGINT instead of status 130.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        words = list(sys.argv[1:] if argv is None else argv)
        again = (f"; resume with: {shlex.join(['iln-verify', *words])}"
                 if words[:1] == ["run"] else "")
        print(f"iln-verify: interrupted; the finished trials are in the store{again}", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":  # python -m verification.cli, as python -m verification
    sys.exit(main())
