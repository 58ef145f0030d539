"""RKS Figure 1 and Section 4: Random Kitchen Sinks reaches AdaBoost's error 10 to 1000 times faster.

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
from verification.rules.pilot import SignTestPlan, sign_test_plan
from verification.verdicts import VIOLATED, Verdict

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
    seeds), two parts per target error (AdaBoost's error at each of ``targets`` rounds, per
    seed), scored apart (issue 20): **reach**, RKS's best error over its K is at most
    AdaBoost's on most seeds; **speed-up where reached**, on the seeds where RKS reaches the
    error it is ``ratio`` (10: one order of magnitude) times faster than AdaBoost on most of
    them.  "For a given error rate, Random Kitchen Sinks is ... faster" needs both: the claim
    holds when both parts hold at every target and is violated when either part is violated
    at some target, each part of each target at ``alpha / (2 len(targets))`` (the split of the
    seed plan).  ``details["headline"]`` names the two parts' verdicts and counts."""
    targets, ratio = config["targets"], config["ratio"]
    points = [point for K in targets for point in (_reach_point(records, K), _speed_point(records, K, ratio))
              if point is not None]
    # Split over all 2 len(targets) planned parts: a part left out (never reached) keeps its
    # share unspent, and the p-value Holm compares with the claim's alpha is over them all.
    verdict = rules.paired_comparison(ID, points, alpha, splits=2 * len(targets), details={
        "targets": {str(K): _speedups(records, K) for K in targets}, "ratio": ratio, "curves": _curves(records),
        "dataset": config["dataset"],
        "data": instances.data_note(config["dataset"]),
        "timing": "wall clock (time.perf_counter) of fit + test prediction, each learner "
                  "after a warm-up fit, in the same trial process"})
    return _with_headline(verdict, targets, len(records))


def _with_headline(verdict: Verdict, targets, seeds: int) -> Verdict:
    """The verdict with ``details["headline"]``: each part's verdict at each target, with its
    seed counts, so that "never reached" and "slower where reached" read apart."""
    parts = []
    for K in targets:
        reach = verdict.details["points"][f"reach@{K}"]
        reached = verdict.details["targets"][str(K)]["seeds_where_rks_reaches_the_error"]
        line = f"at AdaBoost's {K}-round error: reached on {reached} of {seeds} seeds ({_part_verdict(reach)})"
        speed = verdict.details["points"].get(f"speed@{K}")
        if speed is not None:
            faster = speed[f"seeds_rks_x{verdict.details['ratio']:g}_lower"]
            line += (f", {verdict.details['ratio']:g}x faster on {faster} of the {speed['seeds']} seeds "
                     f"where reached ({_part_verdict(speed)})")
        parts.append(line)
    return replace(verdict, details={**verdict.details, "headline": "; ".join(parts)})


def _part_verdict(row) -> str:
    """A part's verdict from its point row: violated, holds or undecided."""
    return "violated" if row["printed_violated"] else "holds" if row["printed_holds"] else "undecided"


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
    error is above AdaBoost's and on the tie rate (:func:`verification.rules.pilot.sign_test_plan`)."""
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
    # Expected before running (see the package docstring): MATLAB vs compiled scikit-learn and
    # a few hundred training points: below 10x at some target error on most seeds.  Since the
    # parts were scored apart (issue 20), the violation found is of the reach part: AdaBoost's
    # 64-round error is not reached on most seeds.  Kept after the pilot of FIG1_PILOT, and
    # fixed before any deciding run of this plan: RKS's best error was above AdaBoost's
    # 64-round error on 128 of 200 pilot seeds, below on 36 and equal on 36 (78% of the seeds
    # without a tie); where RKS reached the error it was 10x faster on every pilot seed, so the
    # violation expected is of the reach part (the plan's numbers: fig1_plan).
    expected=VIOLATED,
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


