"""004's experiments: Figure 1 (Random Kitchen Sinks against AdaBoost) and Figure 2 (||alpha||_inf).

Both run offline on the data sets of :func:`verification.claims.rks.instances.dataset`: a
synthetic stand-in for 004's adult (:func:`iln.synthetic_benchmarks.adult_like`) and data sets
bundled with scikit-learn, standardized as 004 Section 4 does, with the paper's features:
decision stumps ``sign(x_d - t)``, d uniform over the coordinates, ``t ~ N(0, 1)``
(:class:`iln.features.RandomStump`, scaled by 0.999, which changes no sign and divides no
error).  The paper's adult data set (LIBSVM ``a9a``) is used when a user supplies the file:
``iln-verify run --data PATH`` or :func:`run_on` runs either claim's trials and decision on it.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Mapping
from dataclasses import replace

import numpy as np
from threadpoolctl import threadpool_limits

from iln.baselines.kitchen_sinks import adaboost_stumps, random_kitchen_sinks
from iln.datasets import standardize, train_test_split_seeded
from iln.features import RandomStump
from iln.random_streams import child
from verification import catalog, rules, statistics
from verification.catalog import DESIGN_ALPHA, Claim, Source, register
from verification.claims.rks import instances
from verification.rules.pilot import SignTestPlan, TTestPlan, sign_test_plan, t_test_plan
from verification.rules.rate import detectable_effect
from verification.verdicts import VIOLATED, Verdict

FIG1_ID = "rks.fig1.vs_adaboost"
FIG2_ID = "rks.fig2.alpha_inf_decay"


def _split(name: str, seed) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A seeded 75/25 split, standardized with the training statistics (004 Section 4)."""
    train, test = train_test_split_seeded(instances.dataset(name), 0.25, seed)
    Xtr, Xte, _, _ = standardize(train.X, test.X)
    return Xtr, np.asarray(train.y), Xte, np.asarray(test.y)


# ------------------------------------------------------------------------------------------
# rks.fig2.alpha_inf_decay
# ------------------------------------------------------------------------------------------
def _grid(config, name: str) -> list[int]:
    """Figure 2's K for data set ``name``: ``config["K"]`` is one grid for every data set, or a
    mapping from data set to its grid."""
    grid = config["K"]
    return list(grid[name]) if isinstance(grid, Mapping) else list(grid)


def _check_third(name: str, m: int, Ks: list[int]) -> None:
    """Figure 2 keeps K <= m/3: near K = m, unregularized least squares interpolates the
    training labels and its weights blow up for a reason that is not the paper's."""
    if 3 * max(Ks) > m:
        raise ValueError(f"config K: data set {name!r} has {m} training points, so K must be at most "
                         f"m/3 = {m // 3}, got K up to {max(Ks)}")


def alpha_inf_trial(config, seed) -> dict:
    """Per (data set, K): ``||alpha||_inf`` of the unconstrained least squares fit (eq. 3 without
    eq. 4, as 004 Section 4 runs it) on a seeded 75% training part."""
    with threadpool_limits(1):
        # One BLAS thread: the least squares fits at K ~ 1000 are BLAS-bound, and BLAS threads in
        # worker processes side by side spin against each other (a quick run on two busy cores
        # spent most of its CPU time so); one thread also keeps the round-off the same on any number of cores.
        return _alpha_inf_norms(config, seed)


def _alpha_inf_norms(config, seed) -> dict:
    record = {}
    for d, name in enumerate(config["datasets"]):
        Xtr, ytr, _, _ = _split(name, child(seed, d, 0))
        _check_third(name, Xtr.shape[0], _grid(config, name))
        family = RandomStump(Xtr.shape[1])
        for K in _grid(config, name):
            fit = random_kitchen_sinks(Xtr, ytr, family, K=K, seed=child(seed, d, 1, K), loss="quadratic")
            record[f"{name}/K={K}"] = fit.alpha_inf_norm
    return record


def _slopes(records, name, Ks) -> np.ndarray:
    """Per-seed OLS slopes of ``log ||alpha||_inf`` on ``log K`` (their mean is the pooled slope)."""
    x = np.log(np.asarray(Ks, dtype=float))
    x = x - x.mean()
    y = np.log(np.array([[r[f"{name}/K={K}"] for K in Ks] for r in records]))
    return y @ x / (x @ x)


def _decay_point(records, name, config) -> rules.RatePoint:
    """The rate rule's point of one data set: per-seed decay exponents ``-slope`` (so that the
    printed exponent, 1, is positive as the rule's ratio needs), at least ``exponent -
    tolerance``.  The statement has a lower side only: a decay faster than 1/K is not
    evidence against "decays linearly" (issue 20), so no upper side spends alpha."""
    return rules.RatePoint(key=name, slopes=-_slopes(records, name, _grid(config, name)), upper=None,
                           lower=config["exponent"], tolerance=config["tolerance"], instance={"dataset": name})


def alpha_inf_decide(records, config, alpha) -> Verdict:
    """Rate rule (:func:`verification.rules.rate_bound`): the mean over seeds of the decay
    exponent of ``||alpha||_inf`` in K (minus the per-seed log-log slope) must be at least
    ``exponent - tolerance`` (1 - 0.2: "decays linearly", read as "at least like 1/K" up to the
    tolerance fixed before running): holds when the one-sided t interval lies above it,
    violated when the t test puts the mean below it, at ``alpha`` (one side).
    The verdict is on the first data set; the others (decided the same way) and the
    statsmodels fit (95%, seeds resampled whole) are details.  A rate over a finite grid of K
    is evidence, not proof."""
    fits, others = {}, {}
    for name in config["datasets"]:
        values = np.array([[r[f"{name}/K={K}"] for K in _grid(config, name)] for r in records])
        fit = statistics.loglog_fit(_grid(config, name), values, 0.95, seed=0)
        fits[name] = {"slope": fit.slope, "ols_95": [fit.slope_interval.low, fit.slope_interval.high],
                      "bootstrap_95": [fit.slope_bootstrap.low, fit.slope_bootstrap.high],
                      "r_squared": fit.r_squared,
                      "median_alpha_inf": np.median(values, axis=0).tolist()}
    for name in config["datasets"][1:]:
        other = rules.rate_bound(FIG2_ID, [_decay_point(records, name, config)], alpha)
        others[name] = {"verdict": other.verdict, **other.details["points"][name]}
    first = config["datasets"][0]
    verdict = rules.rate_bound(FIG2_ID, [_decay_point(records, first, config)], alpha, details={
        "data": instances.data_note(first),
        "statement": f"decay exponent >= {config['exponent'] - config['tolerance']:g} "
                     f"(printed 1, tolerance {config['tolerance']:g}; a faster decay does not count against it)",
        "statistic": "decay exponent = -(log-log slope of ||alpha||_inf on K)",
        "other_datasets_not_deciding": others, "loglog_fits": fits,
        "K": {name: _grid(config, name) for name in config["datasets"]},
        "median_alpha_inf_by_K": dict(zip(map(str, _grid(config, first)), fits[first]["median_alpha_inf"],
                                          strict=True))})
    point = verdict.details["points"][first]
    headline = "; ".join([
        f"{verdict.verdict} on {first} (deciding): mean decay exponent {point['mean']:.3g} against >= "
        f"{point['lower_bound']:.3g}",
        *(f"{row['verdict']} on {name} ({row['mean']:.3g})" for name, row in others.items())])
    return replace(verdict, details={**verdict.details, "headline": headline})


def _fig2_seeds(effect):
    """Seeds for the rate rule's one-sided t test to detect a mean exponent ``effect``
    standard deviations below its bound with the design power at the design level (halved,
    as when this plan was fixed for a band's two sides; the plan, and so the seeds, are kept):
    the smallest n with ``detectable_effect(n) <= effect``."""
    n = rules.MIN_REPETITIONS
    while detectable_effect(n, DESIGN_ALPHA / 2) > effect:
        n += 1
    return n


#: the pilot of Figure 2's plan (issue 20, item 2), on master seed 4012003, which no deciding run
#: uses (the self-test's 0..19, the report's 0, 2026): 12 trials of the quick configuration
#: (the runner's seeds, child(child(SeedSequence(4012003), claim key), i)), seen before the
#: plan and the expected verdict were fixed.  Per data set, the mean and standard deviation
#: over the 12 seeds of the decay exponent (minus the log-log slope of ||alpha||_inf on K).
FIG2_PILOT = {
    "master_seed": 4012003, "profile": "quick", "seeds": 12,
    # The quick deciding data set, its quick grid of K (16 to 1024).
    "adult_like": {"mean": 0.023617, "sd": 0.066518},
    # The smoke deciding data set at the smoke grid (K = 8 to 64, a subset of quick's grid
    # taken from the same trials; smoke draws its own streams, of the same law).
    "breast_cancer/smoke_grid": {"mean": 0.19309, "sd": 0.16177},
    # Seen, not planned on (not deciding): breast_cancer at the quick grid 0.098 (sd 0.140),
    # digits -0.019 (sd 0.187).
}


@functools.cache
def fig2_plan(pilot: str) -> TTestPlan:
    """Figure 2's plan from the pilot's row ``pilot``: the rate rule's one-sided t test of the
    deciding data set's mean decay exponent against ``exponent - tolerance`` (0.8), at the design
    level (one side of one deciding point, :func:`alpha_inf_decide`), planned on the pilot's
    one-sided 95% lower confidence bound on the standardized shift below 0.8
    (:func:`verification.rules.pilot.t_test_plan`)."""
    row = FIG2_PILOT[pilot]
    return t_test_plan(row["mean"], row["sd"], FIG2_PILOT["seeds"],
                       _FIG2_SIDE["exponent"] - _FIG2_SIDE["tolerance"], DESIGN_ALPHA)


def _fig2_planned_seeds(pilot: str) -> int:
    return fig2_plan(pilot).repetitions


def _fig2_plan_text(pilot: str) -> str:
    return (f"{pilot} pilot on master seed {FIG2_PILOT['master_seed']} ({FIG2_PILOT['seeds']} seeds, "
            f"{FIG2_PILOT['profile']} trials): " + fig2_plan(pilot).describe())


_FIG2 = (r"\text{Figure 2: the } L_\infty \text{ norm of } \alpha \text{ returned by RKS \dots} \|\alpha\|_\infty "
         r"\text{ decays with K};\ \text{Section 4: ``the } L_\infty \text{ norm of the unconstrained optimum "
         r"of (3) for the adult dataset does decays linearly with K''}")
# Figure 2's K, by data set, each at most a third of the data set's training points (adult_like
# 9,000, digits 1,348, breast_cancer 427; _check_third enforces it).  004's text copy holds the
# figure's caption, not its axis: adult_like's grid, powers of two up to 1,024 (quick) and 2,048
# (full), is our reading of "various settings of K" on a set of adult's kind and width, within
# K <= m/3 and a quick profile's time.
_FIG2_K = {"adult_like": [16, 32, 64, 128, 256, 512, 1024], "breast_cancer": [8, 16, 32, 64, 128],
           "digits": [8, 16, 32, 64, 128]}
# "Decays linearly": the decay exponent of ||alpha||_inf in K is at least 1 - 0.2.  The
# tolerance 0.2 is the band's half-width fixed before the first run; the band's upper end is
# dropped (issue 20: a decay faster than 1/K is not evidence against the figure).
_FIG2_SIDE = {"exponent": 1.0, "tolerance": 0.2}
_FIG2_K_FULL = {**_FIG2_K, "adult_like": [*_FIG2_K["adult_like"], 2048],
                "digits": [*_FIG2_K["digits"], 256]}


def _fig2_on(config, name: str) -> dict:
    """Figure 2's configuration on data set ``name`` alone (a user's ``"libsvm:PATH"``, say):
    the deciding data set's grid, cut at a third of ``name``'s training points."""
    m = instances.training_rows(name)
    grid = [K for K in _grid(config, config["datasets"][0]) if m >= 3 * K]
    if len(grid) < 3:
        raise ValueError(f"data: {name!r} has {m} training points, too few for three K of Figure 2's "
                         f"grid {_grid(config, config['datasets'][0])} with K <= m/3")
    return {**config, "datasets": [name], "K": {name: grid}}


register(Claim(
    id=FIG2_ID,
    title="Figure 2: ||alpha||_inf of the unconstrained least squares weights decays (at least) like 1/K",
    sources=(Source("RKS", "Figure 2 and Section 4", _FIG2),),
    rule="rate",
    # Expected before running (see the package docstring): nearby stumps on a continuous
    # coordinate are nearly collinear, so the unconstrained weights do not fall like 1/K.
    # Kept after the pilot of FIG2_PILOT (issue 20, item 2), fixed before any deciding run of
    # this plan: on adult_like the mean decay exponent was 0.024 (sd 0.067, 12 seeds), its
    # one-sided 95% lower bound on the shift below 0.8 about 7.5 standard deviations; at the
    # quick plan's 10 seeds the t test at the design level finds that shift with probability
    # above 0.9999, so the quick profile is expected violated on (nearly) every master seed.
    expected=VIOLATED,
    configs={
        # Smoke and quick: planned on the pilot (FIG2_PILOT, fig2_plan): the fewest seeds at
        # which the t test finds the pilot's lower confidence bound on the shift below 0.8
        # with probability at least 0.98 (and at least rules.MIN_REPETITIONS); the "plan"
        # entry shows the numbers.  Smoke: 15 seeds on breast_cancer; quick: 10 seeds (the
        # rule's minimum: adult_like's exponents lie about 12 standard deviations below 0.8).
        "smoke": {"n_trials": functools.partial(_fig2_planned_seeds, "breast_cancer/smoke_grid"),
                  "datasets": ["breast_cancer"], "K": [8, 16, 32, 64], **_FIG2_SIDE,
                  "plan": functools.partial(_fig2_plan_text, "breast_cancer/smoke_grid")},
        "quick": {"n_trials": functools.partial(_fig2_planned_seeds, "adult_like"),
                  "datasets": ["adult_like", "breast_cancer", "digits"], "K": _FIG2_K, **_FIG2_SIDE,
                  "plan": functools.partial(_fig2_plan_text, "adult_like")},
        # Full: detect a decay exponent 1 standard deviation below its bound (not yet planned
        # from a pilot: its trials are those of the committed report).
        "full": {"n_trials": functools.partial(_fig2_seeds, 1.0), "datasets": ["adult_like", "breast_cancer", "digits"],
                 "K": _FIG2_K_FULL, **_FIG2_SIDE},
    },
    trial=alpha_inf_trial,
    decide=alpha_inf_decide,
    with_data=_fig2_on,
    instances="adult_like (the verdict; synthetic, 12,000 rows of a9a's 123 one-hot binary columns, "
              "24% positive: a stand-in for 004's adult, not adult), breast_cancer (569 x 30, "
              "continuous coordinates; a detail) and digits even-vs-odd (1797 x 64, pixel values "
              "0-16; a detail), each split 75/25 per seed and standardized; K by data set, at most a "
              "third of its training points: 16 to 1024 on adult_like (2048 in full), 8 to 128 on the "
              "others (256 on digits in full); 004 prints no K axis in the text we have, so adult_like's "
              "grid is ours; 'decays linearly' read as a decay exponent of at least 1 - 0.2 (the 0.2 fixed "
              "before running; a faster decay does not count against it). "
              "On adult: iln-verify run rks.fig2.alpha_inf_decay --data a9a (a9a from "
              "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html, in $ILN_DATA_DIR "
              "or by its path)",
))

# ------------------------------------------------------------------------------------------
# rks.fig1.vs_adaboost
# ------------------------------------------------------------------------------------------


def _warm_up(Xtr, ytr, seed) -> None:
    """One tiny fit of each learner, so that no import or first-call cost enters a timing."""
    small = np.concatenate([np.flatnonzero(ytr > 0)[:5], np.flatnonzero(ytr < 0)[:5]])
    random_kitchen_sinks(Xtr[small], ytr[small], RandomStump(Xtr.shape[1]), K=2, seed=seed).decision_function(Xtr[:2])
    adaboost_stumps(Xtr[small], ytr[small], n_estimators=2, seed=seed).predict(Xtr[:2])


def vs_adaboost_trial(config, seed) -> dict:
    """One seeded split; test error and train+test wall-clock time of RKS (quadratic loss,
    unconstrained, stumps) at each K and of AdaBoost with stumps at each number of rounds,
    measured in the same process one after the other."""
    with threadpool_limits(1):
        # One BLAS thread: AdaBoost's trees use one core, and worker processes running side by
        # side would otherwise oversubscribe the cores and make RKS's timings noisy.
        return _timed_fits(config, seed)


def _timed_fits(config, seed) -> dict:
    Xtr, ytr, Xte, yte = _split(config["dataset"], child(seed, 0))
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


def vs_adaboost_decide(records, config, alpha) -> Verdict:
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
    rows = {}
    points = []
    for K in targets:
        speedups = np.array([_speedup(r, K) for r in records])
        finite = speedups[speedups > 0]
        rows[str(K)] = {"median_speedup": float(np.median(speedups)),
                        "median_log10_speedup_where_reached": float(np.median(np.log10(finite))) if finite.size else None,
                        "seeds_where_rks_reaches_the_error": int(finite.size),
                        "adaboost_mean_error": float(np.mean([r["adaboost"][str(K)]["error"] for r in records]))}
        points.append(_reach_point(records, K))
        speed = _speed_point(records, K, ratio)
        if speed is None:
            rows[str(K)]["speed_up_where_reached"] = "not measured: RKS reaches the error on no seed"
        else:
            points.append(speed)
    curves = {learner: {K: {"error": float(np.mean([r[learner][K]["error"] for r in records])),
                            "seconds": float(np.median([r[learner][K]["seconds"] for r in records]))}
                        for K in records[0][learner]} for learner in ("rks", "adaboost")}
    # Split over all 2 len(targets) planned parts: a part left out (never reached) keeps its
    # share unspent, and the p-value Holm compares with the claim's alpha is over them all.
    verdict = rules.paired_comparison(FIG1_ID, points, alpha, splits=2 * len(targets), details={
        "targets": rows, "ratio": ratio, "curves": curves, "dataset": config["dataset"],
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


def _fig1_seeds(n_targets, failure_share):
    """Seeds for the sign test to detect a share ``failure_share`` of seeds below the 10x
    ratio (against 1/2) with the design power, at the design level split over the targets
    and, as when this plan was fixed before the deciding data, over two sides (the rule now
    tests each side at the full split; the plan, and so the seeds, are kept)."""
    return rules.sign_test_seeds(failure_share, DESIGN_ALPHA / (2 * n_targets))


#: the pilot of Figure 1's plan (issue 20, item 2), on master seeds 4012002 (60 trials of the quick
#: configuration as it was, AdaBoost at 2 to 64 rounds) and 4012005 (140 trials with AdaBoost at
#: 64 rounds only, the quick configuration planned here), which no deciding run uses (the
#: self-test's 0..19, the report's 0, 2026); seen before the plan and the expected verdict were
#: fixed.  What decides the quick profile is the reach part at AdaBoost's 64-round error:
#: the seeds on which RKS's best error over its K exceeds AdaBoost's, and the ties (RKS's error
#: equal to AdaBoost's: common for test errors over 142 points), which the sign test leaves
#: out and the plan counts apart (:func:`verification.rules.pilot.sign_test_plan`).
FIG1_PILOT = {
    "master_seeds": (4012002, 4012005), "profile": "quick", "seeds": 200,
    # (seeds with RKS's best error over the quick grid of K (10 to 200) above AdaBoost's
    # 64-round error, ties): above on 128, below on 36, equal on 36.
    "reach@64": (128, 36),
    # The same over the smoke grid (K = 10, 50, 100), from the same trials: 143 above, 30
    # below, 27 equal.
    "reach@64/smoke_grid": (143, 27),
    # Seen, not planned on: on the first 60 seeds, RKS's best error was above AdaBoost's at 4
    # rounds on 4 and at 16 rounds on 19 (not a majority: those targets do not make the
    # verdict), and where RKS reached an error it was 10x faster on most seeds at every target.
}


@functools.cache
def fig1_plan(pilot: str, n_targets: int) -> SignTestPlan:
    """Figure 1's plan from the pilot's count ``pilot``: the sign test of the reach part at
    AdaBoost's 64-round error, at the design level split over the two parts of each of
    ``n_targets`` targets (the split of :func:`vs_adaboost_decide`), planned on the pilot's
    one-sided 95% Clopper-Pearson bounds on the share of seeds without a tie on which RKS's
    error is above AdaBoost's and on the tie rate (:func:`verification.rules.pilot.sign_test_plan`)."""
    above, ties = FIG1_PILOT[pilot]
    return sign_test_plan([(above, FIG1_PILOT["seeds"], ties)], DESIGN_ALPHA / (2 * n_targets))


def _fig1_planned_seeds(pilot: str, n_targets: int) -> int:
    return fig1_plan(pilot, n_targets).seeds


def _fig1_plan_text(pilot: str, n_targets: int) -> str:
    seeds = " and ".join(map(str, FIG1_PILOT["master_seeds"]))
    return (f"{pilot} pilot on master seeds {seeds} ({FIG1_PILOT['seeds']} seeds, {FIG1_PILOT['profile']} "
            f"trials): " + fig1_plan(pilot, n_targets).describe())


_FIG1 = (r"\text{Figure 1: \dots It plots testing+training time required to achieve a desired error rate. For "
         r"a given error rate, Random Kitchen Sinks is between one and three orders of magnitude faster than "
         r"Adaboost.''}")
_FIG1_BASE = {"dataset": "breast_cancer", "K_rks": [10, 20, 50, 100, 200], "K_adaboost": [2, 4, 8, 16, 32, 64],
              "targets": [4, 16, 64], "ratio": 10.0}

register(Claim(
    id=FIG1_ID,
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
    configs={
        # Smoke and quick are planned on the pilot (FIG1_PILOT, fig1_plan; the "plan" entry
        # shows the numbers): seeds for the sign test of the reach part at AdaBoost's 64-round
        # error to reject with probability at least 0.98 at the pilot's lower confidence bounds.
        # Both decide at that one target (the statement, "for a given error rate RKS is
        # faster", is the same; they test it at one error rate, full at three), so the level
        # is split over its two parts only, and AdaBoost runs at 64 rounds only, which halves
        # a trial's time.  (Before this plan, quick and full took seeds planned on a share of
        # 0.65 seen on the first 85 seeds of the deciding runs themselves, not a pilot of
        # their own; full keeps that plan, since its trials are those of the committed report.)
        "smoke": {**_FIG1_BASE, "n_trials": functools.partial(_fig1_planned_seeds, "reach@64/smoke_grid", 1),
                  "K_rks": [10, 50, 100], "K_adaboost": [64], "targets": [64],
                  "plan": functools.partial(_fig1_plan_text, "reach@64/smoke_grid", 1)},
        "quick": {**_FIG1_BASE, "n_trials": functools.partial(_fig1_planned_seeds, "reach@64", 1),
                  "K_adaboost": [64], "targets": [64], "plan": functools.partial(_fig1_plan_text, "reach@64", 1)},
        "full": {**_FIG1_BASE, "n_trials": functools.partial(_fig1_seeds, 3, 0.65),
                 "K_rks": [*_FIG1_BASE["K_rks"], 300]},
    },
    trial=vs_adaboost_trial,
    decide=vs_adaboost_decide,
    with_data=lambda config, name: {**config, "dataset": name},
    instances="breast_cancer (569 x 30), split 75/25 per seed and standardized as 004 Section 4 "
              "does; RKS: the quadratic loss, unconstrained, decision stumps with t ~ N(0, 1), K from "
              "10 to 200 (at most half the training points: unregularized least squares); AdaBoost: "
              "scikit-learn's SAMME over depth-1 trees, 2 to 64 rounds; target errors: AdaBoost's at 4, "
              "16 and 64 rounds. On adult: iln-verify run rks.fig1.vs_adaboost --data a9a (a9a from "
              "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html, in $ILN_DATA_DIR "
              "or by its path); on the adult-like stand-in: run_on('rks.fig1.vs_adaboost', 'adult_like', seeds=N)",
))


def run_on(claim_id: str, dataset: str, *, seeds: int, profile: str = "quick", seed: int = 0) -> Verdict:
    """Run a figure claim's trials and decision on another data set (e.g. ``"libsvm:a9a"``).

    Parameters
    ----------
    claim_id : {"rks.fig1.vs_adaboost", "rks.fig2.alpha_inf_decay"}
    dataset : str
        A data set name of :func:`verification.claims.rks.instances.dataset`: bundled,
        synthetic (``"adult_like"``) or ``"libsvm:PATH"`` (relative paths also under
        ``$ILN_DATA_DIR``).
    seeds : int
        Trials (seeds), ``>= 2``.
    profile : str, default="quick"
        The profile whose grid is used.
    seed : int, default=0
        Master seed; trial i uses its child i.
    """
    if claim_id not in (FIG1_ID, FIG2_ID):
        raise ValueError(f"claim_id must be {FIG1_ID!r} or {FIG2_ID!r}, got {claim_id!r}")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 2:
        raise ValueError(f"seeds must be an int >= 2, got {seeds!r}")
    claim = catalog.get(claim_id)
    config = {**claim.config(profile, data=dataset), "n_trials": seeds}
    master = np.random.SeedSequence(seed)
    records = [claim.trial(config, child(master, i)) for i in range(seeds)]
    return claim.decide(records, config, 1e-3)
