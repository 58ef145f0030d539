"""``python -m verification.selftest``: the mutation and false-alarm campaigns, as JSON.

Writes ``selftest.json`` (``--out``) with the schema ::

    {"defects": [{"name", "description", "breaks", "flagged_by": [claim ids],
                  "verdicts": {claim: verdict}, ...}],
     "mutation_score": float, "gaps": [defect names],
     "false_alarms": {"seeds": [...], "differing": [...], "rate": x, "interval": [lo, hi], ...},
     "meta": {...}}

and the defect-by-claim table beside it (``selftest.md``).  Exit status 0 when every defect
is flagged and no verdict differs on the unmodified code, 1 otherwise, 2 for a usage error
(one line on stderr).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys
import time
from pathlib import Path

from verification import catalog, runner
from verification.selftest import defects as defect_catalog
from verification.selftest.false_alarms import false_alarm_campaign
from verification.selftest.mutation import mutation_campaign, table_markdown
from verification.store import StoreError

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
DEFAULT_WORKDIR = Path(".iln-verify") / "selftest"


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


def _names(text: str) -> list[str]:
    return [n for n in (part.strip() for part in text.split(",")) if n]


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verification.selftest",
                description="Verify the verifier: planted defects and false alarms (issue #8).")
    p.add_argument("--defects", default="all", metavar="NAMES",
                   help="comma-separated defect names, 'all' (default) or 'none'")
    p.add_argument("--seeds", type=lambda t: _count(t, 0), default=20, metavar="N",
                   help="master seeds 0..N-1 of the false-alarm campaign (0: skip it)")
    p.add_argument("--seed", type=lambda t: _count(t, 0), default=0,
                   help="master seed of the mutation campaign")
    p.add_argument("--profile", choices=catalog.PROFILES, default="quick")
    p.add_argument("--claims", default="", metavar="IDS",
                   help="comma-separated claim ids (default: the whole catalog)")
    p.add_argument("--jobs", type=lambda t: _count(t, 1), default=None,
                   help="local worker processes per run (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the trials on this Dask scheduler")
    p.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR,
                   help="directory of the campaigns' stores (a rerun resumes from them)")
    p.add_argument("--out", type=Path, default=Path("selftest.json"),
                   help="the JSON document; the table goes beside it as .md")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def _selected_defects(text: str) -> list:
    if text == "all":
        return list(defect_catalog.DEFECTS.values())
    if text == "none":
        return []
    chosen = _names(text)
    if not chosen:
        raise UsageError("--defects: expected defect names, 'all' or 'none'")
    unknown = [n for n in chosen if n not in defect_catalog.DEFECTS]
    if unknown:
        raise UsageError(f"--defects: unknown defect {unknown[0]!r} (known: "
                         f"{', '.join(defect_catalog.names())})")
    return [defect_catalog.DEFECTS[n] for n in dict.fromkeys(chosen)]


def _say(quiet: bool, message: str) -> None:
    if not quiet:
        print(message, file=sys.stderr, flush=True)


def _run(args) -> int:
    planted = _selected_defects(args.defects)
    known = catalog.load()
    claims = _names(args.claims) or list(known)
    unknown = [c for c in claims if c not in known]
    if unknown:
        raise UsageError(f"--claims: unknown claim id {unknown[0]!r} (iln-verify list shows the catalog)")
    if not args.out.parent.is_dir():
        raise UsageError(f"--out: directory {args.out.parent} does not exist")
    jobs = args.jobs or os.cpu_count() or 1
    args.workdir.mkdir(parents=True, exist_ok=True)
    started = _dt.datetime.now(_dt.UTC)
    clock = time.perf_counter()
    common = {"profile": args.profile, "claims": claims, "jobs": jobs,
              "scheduler": args.scheduler, "quiet": True}
    _say(args.quiet, f"mutation campaign: {len(planted)} defects x {len(claims)} claims, "
                     f"profile {args.profile}, seed {args.seed}")
    campaign = mutation_campaign(planted, workdir=args.workdir, seed=args.seed, **common)
    seeds = list(range(args.seeds))
    _say(args.quiet, f"false-alarm campaign: {len(seeds)} seeds x {len(claims)} claims")
    alarms = false_alarm_campaign(seeds, workdir=args.workdir, **common)
    document = {
        "defects": campaign.defects_json(),
        "mutation_score": campaign.mutation_score if planted else None,
        "gaps": campaign.gaps,
        "false_alarms": alarms.to_json(),
        "meta": {"profile": args.profile, "seed": args.seed, "claims": claims, "jobs": jobs,
                 "scheduler": args.scheduler, "started": started.isoformat(timespec="seconds"),
                 "elapsed_s": time.perf_counter() - clock,
                 "mutation_elapsed_s": campaign.elapsed_s,
                 "control": {"verdicts": campaign.control.verdicts,
                             "differing": campaign.control.differing(),
                             "errors": campaign.control.errors},
                 "expected": {c: known[c].expected for c in claims},
                 "flag_rule": "a claim flags a defect when its verdict differs from its expected "
                              "verdict (a claim whose trials raise counts as 'error')",
                 "versions": runner.versions(), "git_revision": runner.git_revision(),
                 "command": " ".join(sys.argv)},
    }
    args.out.write_text(json.dumps(document, indent=2, allow_nan=False))
    table = args.out.with_suffix(".md")
    table.write_text(table_markdown(campaign))
    score = "n/a" if not planted else f"{campaign.mutation_score:.3f}"
    fa = document["false_alarms"]
    print(f"mutation score {score} ({len(planted) - len(campaign.gaps)} of {len(planted)} defects "
          f"flagged); gaps: {', '.join(campaign.gaps) or 'none'}; differing verdicts on the "
          f"unmodified code: {len(fa['differing'])} of {fa['n_verdicts']}; wrote {args.out} and {table}")
    return EXIT_FINDINGS if campaign.gaps or fa["differing"] else EXIT_OK


def main(argv=None) -> int:
    """Entry point; returns the exit status."""
    try:
        return _run(_parser().parse_args(argv))
    except (UsageError, StoreError) as error:
        print(f"selftest: error: {error}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
