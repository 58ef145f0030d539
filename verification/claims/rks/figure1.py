"""RKS Figure 1 and Section 4: Random Kitchen Sinks reaches AdaBoost's error 10 to 1000 times faster.

The claim decided is the caption's for the figure's third column, a speed-accuracy plot: "For
a given error rate, Random Kitchen Sinks is between one and three orders of magnitude faster
than Adaboost" (:data:`FIGURE_CLAIM`): at an error both reach, RKS's time to it against
AdaBoost's.  Where RKS does not reach AdaBoost's error over the K tried, the figure has no RKS
point at that error; that is a sub-result of its own (the first column's "the accuracy of
Random Kitchen Sinks catches up to that of Adaboost as K grows"), reported beside the verdict,
not deciding it.  The paper times MATLAB code on adult, activity and KDDCUP99; what differs
here (:func:`fig1_differs`) makes a contradiction ``not_reproduced``, never ``violated``
(:mod:`verification.reproduction`).

Run offline on the data sets of :func:`verification.claims.rks.instances.dataset` (bundled with
scikit-learn, or a synthetic stand-in for RKS's adult), standardized as RKS Section 4 does,
with the paper's features: decision stumps ``sign(x_d - t)``, d uniform over the coordinates,
``t ~ N(0, 1)`` (:class:`iln.features.RandomStump`, scaled by 0.999, which changes no sign and
divides no error).  The paper's adult data set (LIBSVM ``a9a``) is used when a user supplies
the file: ``iln-verify run --data PATH`` or :func:`verification.claims.rks.instances.run_on`
runs the claim's trials and decision on it.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import replace
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from iln.features import RandomStump
from iln.random_streams import child
from iln.rks.kitchen_sinks import adaboost_stumps, random_kitchen_sinks
from verification import rules
from verification.catalog import DESIGN_ALPHA, Claim, Source, profiles, register
from verification.claims.rks import instances
from verification.reproduction import Difference, figure_verdict, found_here
from verification.rules.pilot import SignTestPlan, sign_test_plan
from verification.verdicts import HOLDS, INCONCLUSIVE, Verdict

ID = "rks.fig1.vs_adaboost"


def _warm_up(Xtr, ytr, seed) -> None:
    """One tiny fit of each learner, so that no import or first-call cost enters a timing."""
    small = np.concatenate([np.flatnonzero(ytr > 0)[:5], np.flatnonzero(ytr < 0)[:5]])
    random_kitchen_sinks(Xtr[small], ytr[small], RandomStump(Xtr.shape[1]), K=2, seed=seed).decision_function(Xtr[:2])
    adaboost_stumps(Xtr[small], ytr[small], n_estimators=2, seed=seed).predict(Xtr[:2])


def trial(config, seed) -> dict:
    """One seeded split; test error and train+test wall-clock time of RKS (quadratic loss,
    unconstrained, stumps) at each K and of AdaBoost with stumps at each number of rounds,
    measured in the same process one after the other."""
    with threadpool_limits(1):
        # One BLAS thread: AdaBoost's trees use one core, and worker processes running side by
        # side would otherwise oversubscribe the cores and make RKS's timings noisy.
        return _timed_fits(config, seed)


def _timed_fits(config, seed) -> dict:
    Xtr, ytr, Xte, yte = instances.split(config["dataset"], child(seed, 0))
    _warm_up(Xtr, ytr, child(seed, 1))
    family = RandomStump(Xtr.shape[1])
    rks, ada = {}, {}
    for K in config["K_rks"]:
        start = time.perf_counter()
        fit = random_kitchen_sinks(Xtr, ytr, family, K=K, seed=child(seed, 2, K), loss="quadratic")
        pred = np.where(fit.decision_function(Xte) >= 0, 1.0, -1.0)
        rks[str(K)] = {"seconds": time.perf_counter() - start, "error": float(np.mean(pred != yte))}
    for K in config["K_adaboost"]:
        start = time.perf_counter()
        pred = adaboost_stumps(Xtr, ytr, n_estimators=K, seed=child(seed, 3, K)).predict(Xte)
        ada[str(K)] = {"seconds": time.perf_counter() - start, "error": float(np.mean(pred != yte))}
    return {"rks": rks, "adaboost": ada}


def _time_to_reach(record, target_K: int) -> float:
    """The least time in which RKS reaches an error at most AdaBoost's at ``target_K`` rounds
    (inf when no K of the grid reaches it)."""
    error = record["adaboost"][str(target_K)]["error"]
    return min((v["seconds"] for v in record["rks"].values() if v["error"] <= error), default=math.inf)


def _speedup(record, target_K: int) -> float:
    """AdaBoost's time at ``target_K`` rounds over :func:`_time_to_reach` (0 when not reached)."""
    return record["adaboost"][str(target_K)]["seconds"] / _time_to_reach(record, target_K)


def _best_error(record) -> float:
    """RKS's lowest test error over the grid of K."""
    return min(v["error"] for v in record["rks"].values())


def _reach_point(records, K: int) -> rules.PairedPoint:
    """"RKS reaches AdaBoost's error at K rounds": RKS's best error over its grid of K, paired by
    seed with AdaBoost's error at K rounds, is not higher on most seeds (a tie is a seed where
    the error is reached, and the sign test leaves it out)."""
    return rules.PairedPoint(
        key=f"reach@{K}", a=[_best_error(r) for r in records],
        b=[r["adaboost"][str(K)]["error"] for r in records], names=("rks_best_error", "adaboost_error"),
        instance={"target_adaboost_rounds": K, "part": "AdaBoost's error reached"})


def _speed_point(records, K: int, ratio: float) -> rules.PairedPoint | None:
    """"Where RKS reaches AdaBoost's error at K rounds, it is at least ``ratio`` times faster":
    ``ratio`` x RKS's time to that error, paired by seed with AdaBoost's time, is lower on
    most of the seeds where the error is reached (None when it is reached on none)."""
    reached = [r for r in records if math.isfinite(_time_to_reach(r, K))]
    if not reached:
        return None
    return rules.PairedPoint(
        key=f"speed@{K}", a=[ratio * _time_to_reach(r, K) for r in reached],
        b=[r["adaboost"][str(K)]["seconds"] for r in reached], names=(f"rks_x{ratio:g}", "adaboost"),
        instance={"target_adaboost_rounds": K, "ratio": ratio, "part": "speed-up where reached",
                  "seeds_where_reached": len(reached)})


def _speedups(records, K: int) -> dict:
    """The speed-ups at AdaBoost's K-round error over the seeds, for the report: AdaBoost's time
    over RKS's time to that error (0 where RKS does not reach it)."""
    speedups = np.array([_speedup(r, K) for r in records])
    finite = speedups[speedups > 0]
    row: dict[str, Any] = {"median_speedup": float(np.median(speedups)),
           "median_log10_speedup_where_reached": float(np.median(np.log10(finite))) if finite.size else None,
           "seeds_where_rks_reaches_the_error": int(finite.size),
           "adaboost_mean_error": float(np.mean([r["adaboost"][str(K)]["error"] for r in records]))}
    if not any(math.isfinite(_time_to_reach(r, K)) for r in records):
        row["speed_up_where_reached"] = "not measured: RKS reaches the error on no seed"
    return row


def _curves(records) -> dict:
    """Figure 1's curves: per learner and K (rounds), the mean test error and the median time
    over the seeds."""
    return {learner: {K: {"error": float(np.mean([r[learner][K]["error"] for r in records])),
                          "seconds": float(np.median([r[learner][K]["seconds"] for r in records]))}
                      for K in records[0][learner]} for learner in ("rks", "adaboost")}


def decide(records, config, alpha) -> Verdict:
    """Comparison rule (:func:`verification.rules.paired_comparison`, the exact sign test over
    seeds) of the caption's claim at each target error (AdaBoost's error after each of
    ``targets`` rounds, per seed): on the seeds where RKS reaches the error, ``ratio`` (10: one
    order of magnitude) times RKS's time to it is below AdaBoost's on most of them.  It holds
    when it holds at every target RKS reaches and is contradicted when it is contradicted at
    some target; read by :func:`verification.reproduction.figure_verdict` on this setting
    (:func:`fig1_differs`), a contradiction is ``not_reproduced``.  Whether RKS reaches the
    error (its best error over its K at most AdaBoost's on most seeds) is decided the same way
    as a sub-result; where it is reached on no seed at any target, the speed is not measured
    and the verdict is inconclusive.  Each part of each target is at ``alpha / (2
    len(targets))``, the split of the seed plan; ``details["headline"]`` says the verdict, why,
    the speed found at each target and the reach sub-result."""
    targets, ratio = config["targets"], config["ratio"]
    splits = 2 * len(targets)
    # Both parts keep the level the seed plan gave each (alpha over all 2 len(targets) parts):
    # a part left out (never reached) keeps its share unspent.
    reach = rules.paired_comparison(ID, [_reach_point(records, K) for K in targets], alpha, splits=splits)
    speed = [point for K in targets if (point := _speed_point(records, K, ratio)) is not None]
    details = {
        "targets": {str(K): _speedups(records, K) for K in targets}, "ratio": ratio, "curves": _curves(records),
        "dataset": config["dataset"], "data": instances.data_note(config["dataset"]),
        "timing": "wall clock (time.perf_counter) of fit + test prediction, each learner "
                  "after a warm-up fit, in the same trial process",
        "reach": {"verdict": reach.verdict, "pvalue": reach.pvalue, "points": reach.details["points"],
                  "statement": "RKS's best error over its K at most AdaBoost's on most seeds (a sub-result)"}}
    verdict = (rules.paired_comparison(ID, speed, alpha, splits=splits, details=details) if speed
               else _not_measured(reach, details))
    # The speed points count only the seeds where the error is reached: the claim ran them all.
    verdict = replace(verdict, n_trials=len(records))
    return figure_verdict(verdict, fig1_differs(config), claim=FIGURE_CLAIM.format(targets=_listed(targets), ratio=ratio),
                          finding=_speed_finding(verdict, targets, len(records)),
                          sub_results={f"AdaBoost's error reached by RKS's best over K up to {max(config['K_rks'])}":
                                       _reach_finding(reach, targets, details, len(records))})


#: the claim of Figure 1's third column (its caption), as decided: ``targets`` and ``ratio``
#: from the configuration.
FIGURE_CLAIM = ("for a given error rate, RKS is at least {ratio:g} times (one order of magnitude) faster than "
                "AdaBoost: at AdaBoost's test error after {targets} rounds, RKS's training+testing time to "
                "reach that error is below AdaBoost's time over {ratio:g} on most of the seeds where RKS "
                "reaches it, at every such error RKS reaches")


def _listed(values) -> str:
    values = [str(v) for v in values]
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}"


def _not_measured(reach: Verdict, details: dict) -> Verdict:
    """The verdict when RKS reaches AdaBoost's error at no target on any seed: the speed at a
    given error is not measured (the reach sub-result says why), so nothing is decided."""
    return replace(reach, verdict=INCONCLUSIVE, verdict_printed=INCONCLUSIVE, statistic=math.nan,
                   interval=(math.nan, math.nan), pvalue=1.0, counterexample=None, tightness=math.nan,
                   min_detectable_ratio=math.inf, min_detectable_ratio_best_point=math.inf, worst_ratio=math.nan,
                   worst_instance=None,
                   details={**details, "reason": "RKS reaches AdaBoost's error at no target on any seed: the speed "
                                                 "at a given error is not measured (the reach sub-result)"})


def _speed_finding(verdict: Verdict, targets, seeds: int) -> str:
    """What the speed part found at each target, with its seed counts."""
    parts = []
    points = verdict.details.get("points") or {}
    ratio = verdict.details["ratio"]
    for K in targets:
        row = points.get(f"speed@{K}")
        if row is None:
            parts.append(f"at AdaBoost's {K}-round error, reached on none of {seeds} seeds: no speed measured")
            continue
        faster = row[f"seeds_rks_x{ratio:g}_lower"]
        parts.append(f"at AdaBoost's {K}-round error, RKS {ratio:g}x faster on {faster} of the {row['seeds']} seeds "
                     f"where it reaches it ({_part_found(row)})")
    return "; ".join(parts)


def _reach_finding(reach: Verdict, targets, details: dict, seeds: int) -> str:
    """The reach sub-result at each target: on how many seeds RKS reaches the error, and the
    sign test's outcome on the seeds without a tie."""
    rows = reach.details["points"]
    return "; ".join(
        f"at {K} rounds on {details['targets'][str(K)]['seeds_where_rks_reaches_the_error']} of {seeds} seeds "
        f"({_part_found(rows[f'reach@{K}'])})" for K in targets)


def _part_found(row) -> str:
    """A part's outcome at one target, from its point row, as a sub-result says it."""
    return found_here("violated" if row["printed_violated"] else HOLDS if row["printed_holds"] else INCONCLUSIVE)


def fig1_differs(config) -> list[Difference]:
    """How the setting of ``config`` differs from RKS Section 4's: known before any run (the
    data set it is given, the code timed, the grids of K)."""
    data = instances.data_note(config["dataset"])
    out = [Difference("data", "adult, activity and KDDCUP99 (Section 4)", f"{data['label']}: {data['description']}")
           if data["proxy"] else
           Difference("train/test split", "each data set's own test set (adult: 15,000 instances; Section 4)",
                      "a seeded 75/25 split of the file given")]
    out += [
        Difference("implementation timed",
                   "\"MATLAB optimized versions of Adaboost and Random Kitchen Sinks\", wall clock (Section 4)",
                   "Python: RKS by numpy least squares, AdaBoost by scikit-learn's SAMME over depth-1 trees "
                   "(compiled), the wall clock of fit and test prediction in one process on one BLAS thread"),
        Difference("K and AdaBoost's rounds", "Figure 1's axes are not in our copy of the paper",
                   f"RKS at K = {', '.join(map(str, config['K_rks']))}; AdaBoost at "
                   f"{', '.join(map(str, config['K_adaboost']))} rounds; target errors AdaBoost's at "
                   f"{_listed(config['targets'])} rounds"),
    ]
    return out


#: the pilots of Figure 1's plans (issue 20, item 2), on master seeds no deciding run uses (the
#: self-test's 0..19, the report's 0, 2026), each seen before its plan and the expected verdict
#: were fixed.  What decides is the reach part at AdaBoost's 64-round error: per row, the seeds
#: on which RKS's best error over its K exceeds AdaBoost's (``above``) and the ties (RKS's error
#: equal to AdaBoost's: common for test errors over 142 points), which the sign test leaves out
#: and the plan counts apart (:func:`verification.rules.pilot.sign_test_plan`).
FIG1_PILOT: dict[str, dict[str, Any]] = {
    # Master seeds 4012002 (60 trials of the quick configuration as it was, AdaBoost at 2 to 64
    # rounds) and 4012005 (140 trials with AdaBoost at 64 rounds only, the quick configuration
    # planned here), over the quick grid of K (10 to 200): above on 128, below on 36, equal on 36.
    # Seen, not planned on: on the first 60 seeds, RKS's best error was above AdaBoost's at 4
    # rounds on 4 and at 16 rounds on 19 (not a majority: those targets do not make the
    # verdict), and where RKS reached an error it was 10x faster on most seeds at every target.
    "reach@64": {"master_seeds": (4012002, 4012005), "profile": "quick", "seeds": 200, "above": 128,
                 "ties": 36},
    # The same over the smoke grid (K = 10, 50, 100), from the same trials: 143 above, 30
    # below, 27 equal.
    "reach@64/smoke_grid": {"master_seeds": (4012002, 4012005), "profile": "quick", "seeds": 200,
                            "above": 143, "ties": 27},
    # Master seed 4012007: 200 trials of the full configuration (K up to 300, AdaBoost at 2 to 64
    # rounds, targets 4, 16 and 64), run 2026-11-24 at revision 0fbda4f (records in
    # reports/pilots/), before the full plan was fixed: above on 123, below on 43, equal on 34.
    # Seen, not planned on: at 4 rounds above on 18 and below on 167 (15 ties), at 16 rounds
    # above on 71 and below on 96 (33 ties); where RKS reached the error it was 10x faster on 120
    # of 182 seeds at 4 rounds, 111 of 129 at 16 and 76 of 77 at 64 (wall-clock times of a machine
    # whose cores other jobs shared).
    "reach@64/full": {"master_seeds": (4012007,), "profile": "full", "seeds": 200, "above": 123, "ties": 34},
}


@functools.cache
def fig1_plan(pilot: str, n_targets: int) -> SignTestPlan:
    """Figure 1's plan from the pilot's row ``pilot``: the sign test of the reach part at
    AdaBoost's 64-round error, at the design level split over the two parts of each of
    ``n_targets`` targets (the split of :func:`decide`), planned on the pilot's
    one-sided 95% Clopper-Pearson bounds on the share of seeds without a tie on which RKS's
    error is above AdaBoost's and on the tie rate (:func:`verification.rules.pilot.sign_test_plan`).

    The plan was made when the reach part decided the claim; since issue 42 (item 7) it is a
    sub-result, and the plan's probability is that of the reach sub-result found contradicted,
    not of the verdict.  The seeds are kept (the speed part, which decides, takes the seeds
    where RKS reaches the error: about 54 of 189 at smoke, 115 of 318 at quick, on the pilots'
    reach rates)."""
    row = FIG1_PILOT[pilot]
    return sign_test_plan([(row["above"], row["seeds"], row["ties"])], DESIGN_ALPHA / (2 * n_targets))


def _fig1_planned_seeds(pilot: str, n_targets: int) -> int:
    return fig1_plan(pilot, n_targets).seeds


def _fig1_plan_text(pilot: str, n_targets: int) -> str:
    row = FIG1_PILOT[pilot]
    seeds = " and ".join(map(str, row["master_seeds"]))
    return (f"{pilot} pilot on master seeds {seeds} ({row['seeds']} seeds, {row['profile']} "
            f"trials): " + fig1_plan(pilot, n_targets).describe())


_FIG1 = (r"\text{Figure 1: \dots It plots testing+training time required to achieve a desired error rate. For "
         r"a given error rate, Random Kitchen Sinks is between one and three orders of magnitude faster than "
         r"Adaboost.''}")
_FIG1_BASE: dict[str, Any] = {"dataset": "breast_cancer", "K_rks": [10, 20, 50, 100, 200], "K_adaboost": [2, 4, 8, 16, 32, 64],
              "targets": [4, 16, 64], "ratio": 10.0}

register(Claim(
    id=ID,
    title="Figure 1: Random Kitchen Sinks reaches AdaBoost's error 10 to 1000 times faster",
    sources=(Source("RKS", "Figure 1 caption and Section 4", _FIG1),),
    rule="comparison",
    # Issue 42 item 7 (2026-11-28): holds, set from the paper, this module and the data seen
    # before (below), before any run of the new decision.  The caption's claim is the speed at
    # a given error where RKS reaches it; whether it reaches the error is a sub-result, no
    # longer deciding.  On the pilots (FIG1_PILOT) RKS was 10x faster on every quick pilot seed
    # where it reached AdaBoost's 64-round error (and, full, on 76 of 77 at 64 rounds, 111 of
    # 129 at 16, 120 of 182 at 4), and the committed full run found the speed part holding at
    # all three targets (10x faster on 341 of 481, 302 of 326 and 201 of 201 reached seeds),
    # so the speed part is expected to hold, on a setting that differs from the paper's
    # (fig1_differs: the data, the code timed, the grids), with the reach sub-result
    # contradicted at 64 rounds (the plan's part).  Before: violated, from the reach part
    # (MATLAB vs compiled scikit-learn and a few hundred training points: expected below 10x
    # at some target error; then, once the parts were scored apart in issue 20, the 64-round
    # error not reached on most seeds, 128 of 200 pilot seeds above it, 36 below, 36 equal).
    expected=HOLDS,
    configs=profiles(
        _FIG1_BASE,
        # Smoke and quick are planned on the pilot (FIG1_PILOT, fig1_plan; the "plan" entry
        # shows the numbers): seeds for the sign test of the reach part at AdaBoost's 64-round
        # error to reject with probability at least 0.98 at the pilot's lower confidence bounds.
        # Both decide at that one target (the statement, "for a given error rate RKS is
        # faster", is the same; they test it at one error rate, full at three), so the level
        # is split over its two parts only, and AdaBoost runs at 64 rounds only, which halves
        # a trial's time.  Full decides at three targets (4, 16 and 64 rounds), its level split
        # over their six parts, planned on a pilot of the full configuration of its own
        # ("reach@64/full"); before that plan (2026-11-24) full took seeds planned on a share of
        # 0.65 seen on the first 85 seeds of the deciding runs themselves.
        smoke={"n_trials": functools.partial(_fig1_planned_seeds, "reach@64/smoke_grid", 1),
               "K_rks": [10, 50, 100], "K_adaboost": [64], "targets": [64],
               "plan": functools.partial(_fig1_plan_text, "reach@64/smoke_grid", 1)},
        quick={"n_trials": functools.partial(_fig1_planned_seeds, "reach@64", 1), "K_adaboost": [64],
               "targets": [64], "plan": functools.partial(_fig1_plan_text, "reach@64", 1)},
        full={"n_trials": functools.partial(_fig1_planned_seeds, "reach@64/full", 3),
              "K_rks": [*_FIG1_BASE["K_rks"], 300], "plan": functools.partial(_fig1_plan_text, "reach@64/full", 3)}),
    trial=trial, decide=decide, with_data=lambda config, name: {**config, "dataset": name, "data_sha256": instances.data_digests([name])},
    instances="breast_cancer (569 x 30), split 75/25 per seed and standardized as RKS Section 4 "
              "does; RKS: the quadratic loss, unconstrained, decision stumps with t ~ N(0, 1), K from "
              "10 to 200 (at most half the training points: unregularized least squares); AdaBoost: "
              "scikit-learn's SAMME over depth-1 trees, 2 to 64 rounds; target errors: AdaBoost's at 4, "
              "16 and 64 rounds. On adult: iln-verify run rks.fig1.vs_adaboost --data a9a (a9a from "
              "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html, in $ILN_DATA_DIR "
              "or by its path); on the adult-like stand-in: run_on('rks.fig1.vs_adaboost', 'adult_like', seeds=N)",
))


