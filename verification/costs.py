"""What a run costs: the seconds of each claim's trials and each profile's wall time, measured.

``costs.json`` beside this module holds them, written by ``python -m verification.costs SOURCE
PROFILE`` from the verdicts and runs of a store (a run of the whole catalog on a profile, on a
machine named in the file) or from a self-test document's false-alarm seeds.  The runner weighs its progress bar with the seconds per trial (so its
estimate of the time left follows the costly claims, not the count of trials) and says
beforehand about how long the trials will take; ``iln-verify run --help`` and the
documentation state each profile's typical wall time from it.  Nothing here is typed by hand.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import functools
import json
import statistics
import sys
from pathlib import Path
from typing import Any

__all__ = ["COSTS", "measure", "measure_selftest", "per_trial_s", "profile_times", "typical_wall"]

#: the measured costs shipped with the package.
COSTS = Path(__file__).with_name("costs.json")


@functools.cache
def _load(path: Path = COSTS) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {"profiles": {}}


def per_trial_s(profile: str) -> dict[str, float]:
    """Measured seconds per trial of each claim on ``profile`` (one process), by claim id."""
    return dict(_load()["profiles"].get(profile, {}).get("per_trial_s", {}))


def typical_wall(profile: str) -> dict[str, Any] | None:
    """The measured wall time of the whole catalog on ``profile``: ``wall_s``, ``jobs``,
    ``machine``, ``date``, ``revision``; ``None`` if not measured."""
    entry = _load()["profiles"].get(profile, {}).get("wall")
    return dict(entry) if entry else None


def profile_times() -> str:
    """One phrase per measured profile: ``"smoke about 3 min, ..."`` with the machine."""
    parts, machines = [], set()
    for profile in ("smoke", "quick", "full"):
        wall = typical_wall(profile)
        if wall is not None:
            parts.append(f"{profile} about {_minutes(wall['wall_s'])}")
            machines.add(f"{wall['jobs']} workers on {wall['machine']}, {wall['date']}")
    if not parts:
        return "no measured times"
    return ", ".join(parts) + f" (measured: {'; '.join(sorted(machines))})"


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _entry(per_trial: dict[str, float], wall: dict[str, Any] | None, source: Path) -> dict[str, Any]:
    """A profile's entry of costs.json, from either source: seconds per trial by claim, their
    median, the wall time (or None), the source's file name and today's date."""
    return {"per_trial_s": {c: round(v, 6) for c, v in per_trial.items()}, "wall": wall,
            "median_per_trial_s": round(statistics.median(per_trial.values()), 6) if per_trial else None,
            "measured_from": Path(source).name, "written": _dt.date.today().isoformat()}


def measure(store: Path, profile: str) -> dict[str, Any]:
    """The costs of ``profile`` in ``store``: seconds per trial by claim (its latest verdict's
    seconds over its trials) and the wall time of the latest finished run of every claim of
    the catalog that computed its trials (reused none).

    Raises
    ------
    ValueError
        If the store has no verdict of ``profile``.
    """
    from verification import catalog
    from verification.store import Store

    with Store(store, read_only=True) as db:
        rows = [r for r in db.verdicts(profile=profile)]
        runs = db.runs()
    if not rows:
        raise ValueError(f"{store} has no verdict of the {profile} profile")
    latest: dict[str, dict] = {}
    for row in rows:  # oldest first: the latest verdict of each claim stays
        latest[row.claim_id] = row.verdict
    per_trial = {c: v["elapsed_s"] / v["n_trials"] for c, v in sorted(latest.items()) if v.get("n_trials")}
    everything = set(catalog.load())
    wall = None
    for run in runs:
        meta = run.meta
        reused = [n for n in meta.get("reuse", {}).values() if n.startswith("reused")]
        if (run.profile == profile and run.finished and everything <= set(meta.get("claims", []))
                and not reused and meta.get("elapsed_s")):
            wall = {"wall_s": round(meta["elapsed_s"], 1), "jobs": meta.get("jobs"),
                    # the run's trial seconds: what the wall time is scaled by for a smaller run
                    "trial_s": round(sum(latest[c]["elapsed_s"] for c in everything if c in latest), 1),
                    "machine": meta.get("machine", "unknown"), "date": str(run.started)[:10],
                    "revision": meta.get("git_revision", "unknown")}
    return _entry(per_trial, wall, store)


def measure_selftest(document: Path, profile: str) -> dict[str, Any]:
    """The costs of ``profile`` in a self-test document (``reports/selftest.json``): its
    false-alarm seeds are whole runs of the catalog; those that computed every trial (none
    reused, none under the reach recorders) give the median seconds per trial of each claim
    and the median wall time.

    Raises
    ------
    ValueError
        If the document has no such seed of ``profile``.
    """
    from verification import catalog

    doc = json.loads(Path(document).read_text())
    meta, alarms = doc["meta"], doc["false_alarms"]
    seeds = [s for s in alarms["per_seed"].values()
             if all(n.startswith("reran: no stored trials") for n in s.get("reuse", {}).values()) and s.get("trial_s")]
    if meta.get("profile") != profile or not seeds:
        raise ValueError(f"{document} has no seed of the {profile} profile that computed every trial")
    claims = sorted(set.intersection(*(set(s["trial_s"]) for s in seeds)) & set(catalog.load()))
    per_trial = {c: statistics.median(s["trial_s"][c] for s in seeds) / catalog.get(c).config(profile)["n_trials"]
                 for c in claims}
    wall = {"wall_s": round(statistics.median(s["elapsed_s"] for s in seeds), 1), "jobs": meta.get("jobs"),
            "trial_s": round(statistics.median(sum(s["trial_s"].values()) for s in seeds), 1),
            "machine": meta.get("machine", f"the self-test campaign's machine, {len(seeds)} seeds' median"),
            "date": str(meta.get("started", ""))[:10], "revision": meta.get("git_revision", "unknown")}
    return _entry(per_trial, wall, document)


def main(argv: list[str] | None = None) -> int:
    """``python -m verification.costs SOURCE PROFILE``: write that profile's costs into
    costs.json, from a store or a self-test document (``.json``)."""
    parser = argparse.ArgumentParser(prog="python -m verification.costs", description=main.__doc__)
    parser.add_argument("store", type=Path)
    parser.add_argument("profile", choices=("smoke", "quick", "full"))
    parser.add_argument("--out", type=Path, default=COSTS)
    args = parser.parse_args(argv)
    try:
        entry = (measure_selftest if args.store.suffix == ".json" else measure)(args.store, args.profile)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    doc = _load(args.out) if args.out.exists() else {"profiles": {}}
    doc = {**doc, "profiles": {**doc["profiles"], args.profile: entry}}
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    _load.cache_clear()
    print(f"wrote the {args.profile} profile's costs ({len(entry['per_trial_s'])} claims, wall "
          f"{entry['wall']}) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
