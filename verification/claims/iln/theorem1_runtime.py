"""Run time of Algorithm 1: O~(rho B^4 T^2) (ICML Theorem 1, part 2; arXiv Theorem 1.2).

Speed is measured by pytest-benchmark, never by a timed test: ``nox -s bench`` runs
``tests/benchmarks/test_algorithm1_scaling.py``, which times the whole grid of T and B (at
the proof's eta and m) once per repetition, repetition after repetition, and writes
``reports/benchmarks/algorithm1.json``.  This claim reads that file (its digest is part of
the claim's configuration, so a new measurement is a new trial rather than a stale one reused
from the store), fits per repetition one log-log slope of the time in T (at B = 1) and one in
B (at T = 128), and decides with the rate rule (:func:`verification.rules.rate_bound`): each
median slope against the exponent of the operation count the proof's parameters imply,
``T * m_proof(B, T)`` (the theorem's ``B^4 T^2`` with its logarithmic factor and constants made
explicit), plus :data:`TOLERANCE`, by the exact sign test.  The repetitions are interleaved, so
a drift of the machine's speed hits every grid point of a repetition alike, and they are the
independent units of the sign test; the grid points of each repetition run in a seeded random
order, and the rule tests the repetitions for serial dependence in the order measured.  A file
with fewer repetitions than the sign test needs at the claim's level
(:func:`verification.rules.minimum_repetitions`: 17 in a whole-catalog run, :func:`runtime_plan`
plans them), or one without ``rep`` (the old format, whose rounds ran back to back and are not
independent repetitions), is reported without a decision.  A rate over a finite grid is
evidence, not proof.

The file is found through the configuration only, never through the working directory: an
absolute ``benchmark_json``, or one relative to the configuration's ``repository_root``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
from collections import defaultdict
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np

from iln import theory
from verification import rules
from verification.catalog import CATALOG_RUN_SHARE, Claim, profiles, register, sources
from verification.rules.pilot import RatePlan, rate_plan
from verification.verdicts import HOLDS, Verdict

#: the benchmark file, relative to the repository root.
BENCHMARK_JSON = "reports/benchmarks/algorithm1.json"

#: the environment variable that names the repository root, for an installed package whose
#: source is elsewhere (read once, when the configuration is built, and recorded in it).
ROOT_VARIABLE = "ILN_VERIFY_ROOT"

#: the source tree this module runs from (a checkout, or an editable install).
_SOURCE_TREE = Path(__file__).resolve().parents[3]

#: exponents closer than this to the operation count's are not told apart: the grids span a
#: factor 4 in T and 2.5 in B, over which the O~'s logarithms shift a slope by about 0.1.
TOLERANCE = 0.1

#: the lines of the grid: the T line at this B, the B line at this T.
LINE_T_AT_B, LINE_B_AT_T = 1.0, 128

HOW_TO_MEASURE = "run `nox -s bench` in the repository (or its pytest command, noxfile.py's bench session)"


def _installed_from() -> str | None:
    """The local directory the installed distribution was built from (PEP 610's
    ``direct_url.json``: pip records it for ``pip install .``, as ``nox`` runs), or None."""
    try:
        text = importlib.metadata.distribution("iln-verify").read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        return None
    url = urlparse(json.loads(text).get("url", "")) if text else None
    return unquote(url.path) if url is not None and url.scheme == "file" else None


def repository_root() -> str | None:
    """The repository root whose ``reports/`` holds the benchmark file, or None.

    In order: the directory named by :data:`ROOT_VARIABLE`; the source tree this module runs
    from, when it is a checkout of the project (it holds ``pyproject.toml``); the directory a
    non-editable install was built from.  Never the working directory: a trial must be a
    function of its configuration, wherever the command runs.
    """
    named = os.environ.get(ROOT_VARIABLE)
    if named:
        return str(Path(named).resolve())
    if (_SOURCE_TREE / "pyproject.toml").is_file():
        return str(_SOURCE_TREE)
    return _installed_from()


def benchmark_path(config) -> Path | None:
    """The benchmark file of a configuration: ``benchmark_json`` if absolute, else under
    ``repository_root`` (None when the configuration names no root)."""
    if "benchmark_json" not in config:
        raise ValueError("config lacks benchmark_json (the benchmark file)")
    path = Path(config["benchmark_json"])
    if path.is_absolute():
        return path
    root = config.get("repository_root")
    return None if root is None else Path(root) / path


def benchmark_digest(config) -> str:
    """SHA-256 of the benchmark file, or ``"missing"``: the configuration's key to its content."""
    path = benchmark_path(config)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None and path.is_file() else "missing"


def _default_digest() -> str:
    return benchmark_digest({"benchmark_json": BENCHMARK_JSON, "repository_root": repository_root()})


def runtime_trial(config, seed) -> dict:
    """The benchmark's measurements per grid point (no randomness: the seed is unused)."""
    path = benchmark_path(config)
    if path is None or not path.is_file():
        where = str(path) if path is not None else (
            f"{config['benchmark_json']} (no repository root: set {ROOT_VARIABLE} or give an absolute path)")
        return {"missing": where}
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if config.get("benchmark_sha256", digest) != digest:
        # A trial must be a function of its configuration: a file rewritten after the
        # catalog was loaded would be stored under the old file's key.
        raise ValueError(f"benchmark_json {path} changed after the catalog was loaded; rerun")
    doc = json.loads(raw)
    points, timers = [], set()
    for bench in doc["benchmarks"]:
        info = bench["extra_info"]
        if info.get("variant") == "algorithm1":
            points.append({"T": info["T"], "B": info["B"], "rep": info.get("rep"),
                           "samples": info["samples"], "times": [float(t) for t in bench["stats"]["data"]],
                           "load_average_1min": info.get("load_average_1min")})
            timers.add(bench.get("options", {}).get("timer", "unknown"))
    return {"sha256": digest, "path": str(path), "points": points, "timer": sorted(timers),
            "machine": doc.get("machine_info", {}).get("cpu", {}).get("brand_raw", "unknown"),
            "datetime": doc.get("datetime", "")}


def _repetitions(points) -> tuple[dict, bool]:
    """Time per (repetition, T, B): the benchmark's ``rep``, or, in the old format (no
    ``rep``), the rounds of each grid point, which are reported but are not independent."""
    interleaved = all(p["rep"] is not None for p in points)
    times: defaultdict[int, dict] = defaultdict(dict)
    for p in points:
        if interleaved:
            # The benchmark times one round per repetition and point; more rounds (run back
            # to back) would make one measurement, their median.
            times[p["rep"]][(p["T"], p["B"])] = float(np.median(p["times"]))
        else:
            for r, t in enumerate(p["times"]):
                times[r][(p["T"], p["B"])] = t
    return times, interleaved


def _line(points, axis):
    """The grid of one line: sizes along ``axis`` with the other parameter at its line's value."""
    if axis == "T":
        return sorted({p["T"] for p in points if p["B"] == LINE_T_AT_B}), lambda s: (s, LINE_T_AT_B)
    return sorted({p["B"] for p in points if p["T"] == LINE_B_AT_T}), lambda s: (LINE_B_AT_T, s)


def _slopes(times, sizes, key):
    """One least-squares log-log slope per repetition that measured every size of the line."""
    out = []
    for rep in sorted(times):
        row = times[rep]
        if all(key(s) in row for s in sizes):
            out.append(float(np.polyfit(np.log(sizes), np.log([row[key(s)] for s in sizes]), 1)[0]))
    return out


def rate_point(record, times, axis: str) -> tuple[rules.RatePoint, dict]:
    """The line of ``axis`` (T at B = 1, or B at T = 128): the repetitions' slopes of log time,
    against the slope of the operation count ``T * m_proof(B, T)`` over the same grid; and the
    figures of the line (its median times) for the report."""
    sizes, key = _line(record["points"], axis)
    if len(sizes) < 2:
        raise ValueError(f"benchmark_json {record['path']}: the {axis} line has {len(sizes)} sizes, need 2")
    count = [theory.total_feature_samples(B, T) for T, B in map(key, sizes)]
    count_slope = float(np.polyfit(np.log(sizes), np.log(count), 1)[0])
    slopes = _slopes(times, sizes, key)
    medians = [float(np.median([row[key(s)] for row in times.values() if key(s) in row])) for s in sizes]
    instance = {"axis": axis, "grid": list(sizes), "benchmark_sha256": record["sha256"]}
    return (rules.RatePoint(axis, slopes, count_slope, tolerance=TOLERANCE, instance=instance, time_ordered=True),
            {"slopes": slopes, "operation_count_slope": count_slope, "theorem_exponent": 2 if axis == "T" else 4,
             "grid": list(sizes), "median_time_s": medians})


def runtime_decide(records, config, alpha) -> Verdict:
    """The rate rule on the exponents in T and in B, each against the operation count's.

    Each median slope (over the repetitions) is tested one-sided, by the exact sign test,
    against the exponent of ``T * m_proof(B, T)`` over the same grid plus :data:`TOLERANCE`
    (violated: time grows faster than the samples drawn), at ``1 - alpha / 2`` for each of T and
    B.  Without the file, with the old format, with too few repetitions for the sign test at
    that level, or with repetitions that show serial dependence, the numbers are reported
    without a decision (inconclusive, with the reason).
    """
    record = records[0]
    claim = "iln.thm1.runtime"
    if "missing" in record:
        return rules.rate_bound(claim, [rules.RatePoint("T", (), 2.0), rules.RatePoint("B", (), 4.0)], alpha,
                                reason=f"no benchmark file at {record['missing']}: {HOW_TO_MEASURE}")
    times, interleaved = _repetitions(record["points"])
    details = {"benchmark_sha256": record["sha256"], "benchmark_json": record["path"],
               "machine": record["machine"], "measured": record["datetime"], "timer": record["timer"],
               "theorem_exponents": {"T": 2, "B": 4}, "interleaved_repetitions": interleaved,
               "tolerance": TOLERANCE}
    loads = [p["load_average_1min"] for p in record["points"] if p["load_average_1min"] is not None]
    if loads:
        details["load_average_1min"] = {"min": min(loads), "median": float(np.median(loads)), "max": max(loads)}
    points = []
    for axis in ("T", "B"):
        point, details[f"exponent_{axis}"] = rate_point(record, times, axis)
        points.append(point)
    refuse = None if interleaved else (
        "the benchmark file has no `rep` in extra_info (the old format): its rounds ran back to back "
        "at each grid point and are not independent repetitions, so the slopes fitted per round are "
        f"reported, not decided; {HOW_TO_MEASURE} to measure interleaved repetitions")
    return rules.rate_bound(claim, points, alpha, details=details, refuse=refuse)


#: the pilot of the repetitions' plan (issue 42): the benchmark file measured 2026-11-24 (AMD EPYC,
#: SHA-256 1248bfa0...c5cc7b97, 15 interleaved repetitions), seen before the rate rule became the
#: sign test.  Per axis, the mean and standard deviation of its 15 slopes, their number and the
#: bound (the operation count's exponent plus TOLERANCE) they were measured against.
RUNTIME_PILOT: dict[str, tuple[float, float, int, float]] = {  # (mean, sd, repetitions, bound)
    "T": (2.0628245, 0.016108835, 15, 2.2295992),
    "B": (3.9219968, 0.020148096, 15, 4.1385775),
}


@functools.cache
def runtime_plan() -> RatePlan:
    """The benchmark's repetitions (``tests/benchmarks/test_algorithm1_scaling.py``'s
    ``REPETITIONS``): both axes' sign tests must find the median slope below its bound for
    "holds", each at half a claim's share of a whole-catalog run
    (:data:`verification.catalog.CATALOG_RUN_SHARE`), planned on :data:`RUNTIME_PILOT`'s
    one-sided 95% lower confidence bounds on the margins (:func:`verification.rules.pilot.rate_plan`)."""
    return rate_plan(list(RUNTIME_PILOT.values()), CATALOG_RUN_SHARE / 2)


def _plan_text() -> str:
    return (f"benchmark pilot of 2026-11-24 (15 repetitions): {runtime_plan().describe()}; "
            f"{HOW_TO_MEASURE} measures that many")


_RUNTIME = r"\text{The run-time of the algorithm is } \tilde{O}(\rho B^4 T^2)"


register(Claim(
    id="iln.thm1.runtime", title="Run time of Algorithm 1 grows as B^4 T^2 (up to logarithms)",
    sources=sources(_RUNTIME, ICML="Section 3, Theorem 1, part 2", arXiv="Section 3, Theorem 1, part 2"),
    # Each sample of Algorithm 2 costs a bounded amount of work (one draw, two psi), so the
    # time should grow no faster than the number of samples, T * m_proof(B, T).
    rule="rate", expected=HOLDS, trial=runtime_trial, decide=runtime_decide,
    configs=profiles({"n_trials": 1, "benchmark_json": BENCHMARK_JSON, "repository_root": repository_root,
                      "benchmark_sha256": _default_digest, "plan": _plan_text}, smoke={}, quick={}, full={}),
    instances="pytest-benchmark run times of Algorithm 1 at the proof's eta and m on the Section 6 "
              "data (random coordinates, D = 2T), one numba thread, CPU time: T = 64, 128, 256 at B = 1 and "
              "B = 1, 1.5, 2, 2.5 at T = 128, the whole grid once per repetition in a seeded random order, "
              "as many interleaved repetitions as runtime_plan asks for (17)",
))

