"""RKS Figure 2 and Section 4: ``||alpha||_inf`` of the unconstrained least squares weights decays like 1/K.

The claim decided is the one the caption and the text make together (:data:`FIGURE_CLAIM`):
Figure 2's "``||alpha||_inf`` decays with K, which justifies dropping the constraint (4)", which
Section 4 states as "decays linearly with K, so that there exists a C that does not grow with K
for which the constraint is never tight" (constraint (4) is ``||alpha||_inf <= C/K``).  The
caption's weaker reading, a decay at all, is a sub-result.  The paper's adult, its grid of K and
the optimum its MATLAB code returned are not reproduced here (:func:`fig2_differs`), so a
contradiction found is ``not_reproduced``, never ``violated`` (:mod:`verification.reproduction`).

Run offline on the data sets of :func:`verification.claims.rks.instances.dataset`: a synthetic
stand-in for RKS's adult (:func:`iln.rks.synthetic_benchmarks.adult_like`) and data sets bundled
with scikit-learn, standardized as RKS Section 4 does, with the paper's features: decision
stumps ``sign(x_d - t)``, d uniform over the coordinates, ``t ~ N(0, 1)``
(:class:`iln.features.RandomStump`, scaled by 0.999, which changes no sign and divides no
error).  The paper's adult data set (LIBSVM ``a9a``) is used when a user supplies the file:
``iln-verify run --data PATH`` or :func:`verification.claims.rks.instances.run_on` runs the
claim's trials and decision on it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from iln.features import RandomStump
from iln.random_streams import child
from iln.rks.kitchen_sinks import random_kitchen_sinks
from verification import rules, statistics
from verification.catalog import CATALOG_RUN_SHARE, SEED_STREAM, Claim, Source, profiles, register
from verification.claims.rks import instances
from verification.reproduction import Difference, figure_verdict, found_here
from verification.rules.pilot import RatePlan, rate_plan
from verification.verdicts import NOT_REPRODUCED, Verdict

ID = "rks.fig2.alpha_inf_decay"


def k_grid(config, name: str) -> list[int]:
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


def trial(config, seed) -> dict:
    """Per (data set, K): ``||alpha||_inf`` of the unconstrained least squares fit (eq. 3 without
    eq. 4, as RKS Section 4 runs it) on a seeded 75% training part."""
    with threadpool_limits(1):
        # One BLAS thread: the least squares fits at K ~ 1000 are BLAS-bound, and BLAS threads in
        # worker processes side by side spin against each other (a quick run on two busy cores
        # spent most of its CPU time so); one thread also keeps the round-off the same on any number of cores.
        return _alpha_inf_norms(config, seed)


def _alpha_inf_norms(config, seed) -> dict:
    record = {}
    for d, name in enumerate(config["datasets"]):
        Xtr, ytr, _, _ = instances.split(name, child(seed, d, 0))
        _check_third(name, Xtr.shape[0], k_grid(config, name))
        family = RandomStump(Xtr.shape[1])
        for K in k_grid(config, name):
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
    return rules.RatePoint(key=name, slopes=(-_slopes(records, name, k_grid(config, name))).tolist(), upper=None,
                           lower=config["exponent"], tolerance=config["tolerance"], instance={"dataset": name})


def _loglog_fits(records, config) -> dict:
    """Per data set, the statsmodels log-log fit of ``||alpha||_inf`` on K (95%, seeds resampled
    whole) and the median ``||alpha||_inf`` at each K: Figure 2's curves, for the report."""
    fits = {}
    for name in config["datasets"]:
        values = np.array([[r[f"{name}/K={K}"] for K in k_grid(config, name)] for r in records])
        fit = statistics.loglog_fit(k_grid(config, name), values, 0.95, seed=0)
        fits[name] = {"slope": fit.slope, "ols_95": [fit.slope_interval.low, fit.slope_interval.high],
                      "bootstrap_95": [fit.slope_bootstrap.low, fit.slope_bootstrap.high],
                      "r_squared": fit.r_squared,
                      "median_alpha_inf": np.median(values, axis=0).tolist()}
    return fits


def decide(records, config, alpha) -> Verdict:
    """Rate rule (:func:`verification.rules.rate_bound`): the median over seeds of the decay
    exponent of ``||alpha||_inf`` in K (minus the per-seed log-log slope) must be at least
    ``exponent - tolerance`` (1 - 0.2: "decays linearly", read as "at least like 1/K" up to the
    tolerance fixed before running), by the sign test, on the first data set, at ``alpha`` (one
    side).  Read by :func:`verification.reproduction.figure_verdict` on this setting
    (:func:`fig2_differs`), a violation found is ``not_reproduced``.  Sub-results, none deciding:
    the caption's weaker reading (a decay at all: the rule's interval of the exponent against 0)
    and the other data sets, decided the same way; the statsmodels fit (95%, seeds resampled
    whole) is a detail.  A rate over a finite grid of K is evidence, not proof."""
    fits, others = _loglog_fits(records, config), {}
    for name in config["datasets"][1:]:
        other = rules.rate_bound(ID, [_decay_point(records, name, config)], alpha)
        others[name] = {**other.details["points"][name], "verdict": other.verdict, "median": other.statistic,
                        "interval": list(other.interval)}
    first = config["datasets"][0]
    lower = config["exponent"] - config["tolerance"]
    verdict = rules.rate_bound(ID, [_decay_point(records, first, config)], alpha, details={
        "data": instances.data_note(first),
        "statement": f"decay exponent >= {lower:g} "
                     f"(printed 1, tolerance {config['tolerance']:g}; a faster decay does not count against it)",
        "statistic": "decay exponent = -(log-log slope of ||alpha||_inf on K)",
        "other_datasets_not_deciding": others, "loglog_fits": fits,
        "K": {name: k_grid(config, name) for name in config["datasets"]},
        "median_alpha_inf_by_K": dict(zip(map(str, k_grid(config, first)), fits[first]["median_alpha_inf"],
                                          strict=True))})
    grid = k_grid(config, first)
    finding = (f"median decay exponent of ||alpha||_inf in K {verdict.statistic:.3g} (interval "
               f"{_interval(verdict.interval)}) against at least {lower:g}, over K = {grid[0]} to {grid[-1]} "
               f"on {first}, {len(records)} seeds")
    subs = {"decays at all (the caption's \"decays with K\", shown, not deciding)": _decays(verdict.interval),
            **{f"on {name} (not deciding)": f"{found_here(row['verdict'])}, median exponent {row['median']:.3g}"
               for name, row in others.items()}}
    return figure_verdict(verdict, fig2_differs(config), claim=FIGURE_CLAIM.format(lower=lower, dataset=first),
                          finding=finding, sub_results=subs)


#: the claim of Figure 2 and Section 4, as decided (``lower``: the exponent less the tolerance).
FIGURE_CLAIM = ("||alpha||_inf of the unconstrained optimum of (3) decays linearly with K, so that a C that does "
                "not grow with K keeps the constraint ||alpha||_inf <= C/K inactive: its median decay exponent in K "
                "is at least {lower:g} over the grid of K, on {dataset}")


def _interval(interval) -> str:
    return f"[{interval[0]:.3g}, {interval[1]:.3g}]"


def _decays(interval) -> str:
    """Whether the rule's interval of the decay exponent lies above 0, below it or across it."""
    low, high = interval
    where = "above 0: it decays" if low > 0 else "below 0: it grows" if high < 0 else "across 0: undecided"
    return f"the exponent's interval {_interval(interval)} lies {where}"


def fig2_differs(config) -> list[Difference]:
    """How the setting of ``config`` differs from RKS Section 4's: known before any run (the
    data set it is given, its grid of K, the least-squares solution taken)."""
    first = config["datasets"][0]
    data = instances.data_note(first)
    out = [Difference("data", "adult (Section 4: about 32,000 training instances, 123 binary dimensions)",
                      f"{data['label']}: {data['description']}")
           if data["proxy"] else
           Difference("training set", "adult's training set (about 32,000 instances; Section 4)",
                      "75% of the file given (a seeded split)")]
    out += [
        Difference("K", "\"various settings of K\" (Figure 2); the axis is not in our copy of the paper",
                   f"K = {', '.join(map(str, k_grid(config, first)))}, at most a third of the training points"),
        Difference("least-squares optimum",
                   "\"the unconstrained optimum of (3)\" (Section 4), computed in MATLAB; which optimum, where "
                   "it is not unique, is not stated",
                   "numpy's minimum-norm solution (numpy.linalg.lstsq); the optimum is not unique once two "
                   "stumps coincide on the training points (a threshold beyond a coordinate's range, or two on "
                   "a coordinate with few values), and another optimum can have another ||alpha||_inf"),
    ]
    return out


#: the pilots of Figure 2's plans (issue 20, item 2), on master seeds no deciding run uses (the
#: self-test's 0..19, the report's 0, 2026): trials of a profile's configuration (the runner's
#: seeds, child(child(SeedSequence(master seed), claim key), i)), each seen before its plan and
#: the expected verdict were fixed.  Per row (a data set and grid of K), the mean and standard
#: deviation over the pilot's seeds of the decay exponent (minus the log-log slope of
#: ||alpha||_inf on K).
FIG2_PILOT: dict[str, dict[str, Any]] = {
    # Master seed 4012003, 12 trials of the quick configuration: the quick deciding data set at
    # its quick grid of K (16 to 1024).  Seen, not planned on (not deciding): breast_cancer at
    # the quick grid 0.098 (sd 0.140), digits -0.019 (sd 0.187).
    "adult_like": {"master_seed": 4012003, "profile": "quick", "seeds": 12, "mean": 0.023617, "sd": 0.066518},
    # The smoke deciding data set at the smoke grid (K = 8 to 64, a subset of quick's grid
    # taken from the same trials; smoke draws its own streams, of the same law).
    "breast_cancer/smoke_grid": {"master_seed": 4012003, "profile": "quick", "seeds": 12, "mean": 0.19309,
                                 "sd": 0.16177},
    # Master seed 4012008, 12 trials of the full configuration (adult_like's K up to 2048), run
    # 2026-11-24 at revision 0fbda4f (records in reports/pilots/), before the full plan was
    # fixed.  Seen, not planned on: breast_cancer 0.058, digits 0.076 (grid up to 256).
    "adult_like/full": {"master_seed": 4012008, "profile": "full", "seeds": 12, "mean": 0.19810,
                        "sd": 0.074423},
}


@functools.cache
def fig2_plan(pilot: str) -> RatePlan:
    """Figure 2's plan from the pilot's row ``pilot``: the rate rule's sign test of the deciding
    data set's median decay exponent against ``exponent - tolerance`` (0.8), at a claim's share of
    a whole-catalog run (one side of one deciding point, :func:`decide`;
    :data:`verification.catalog.CATALOG_RUN_SHARE`, where the sign test needs 16 seeds, not the 15
    of DESIGN_ALPHA), planned on the pilot's one-sided 95% lower confidence bound on the
    standardized margin below 0.8 (:func:`verification.rules.pilot.rate_plan`)."""
    row = FIG2_PILOT[pilot]
    return rate_plan([(row["mean"], row["sd"], row["seeds"], _FIG2_SIDE["exponent"] - _FIG2_SIDE["tolerance"])],
                     CATALOG_RUN_SHARE)


def _fig2_planned_seeds(pilot: str) -> int:
    return fig2_plan(pilot).repetitions


def _fig2_plan_text(pilot: str) -> str:
    row = FIG2_PILOT[pilot]
    return (f"{pilot} pilot on master seed {row['master_seed']} ({row['seeds']} seeds, "
            f"{row['profile']} trials): " + fig2_plan(pilot).describe())


_FIG2 = (r"\text{Figure 2: the } L_\infty \text{ norm of } \alpha \text{ returned by RKS \dots} \|\alpha\|_\infty "
         r"\text{ decays with K};\ \text{Section 4: ``the } L_\infty \text{ norm of the unconstrained optimum "
         r"of (3) for the adult dataset does decays linearly with K''}")
# Figure 2's K, by data set, each at most a third of the data set's training points (adult_like
# 9,000, digits 1,348, breast_cancer 427; _check_third enforces it).  RKS's text copy holds the
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
    grid = [K for K in k_grid(config, config["datasets"][0]) if m >= 3 * K]
    if len(grid) < 3:
        raise ValueError(f"data: {name!r} has {m} training points, too few for three K of Figure 2's "
                         f"grid {k_grid(config, config['datasets'][0])} with K <= m/3")
    return {**config, "datasets": [name], "K": {name: grid}, "data_sha256": instances.data_digests([name])}


register(Claim(
    id=ID,
    title="Figure 2: ||alpha||_inf of the unconstrained least squares weights decays (at least) like 1/K",
    sources=(Source("RKS", "Figure 2 and Section 4", _FIG2),),
    rule="rate",
    # Issue 42 item 7 (2026-11-28): not_reproduced, set from the paper and this module before
    # any run of the new decision.  The data decided on are stand-ins for adult (breast_cancer
    # at smoke, adult_like at quick and full), the figure's grid of K is not in our copy, and
    # which least-squares optimum the paper took is not stated (fig2_differs: known from the
    # configuration), so a contradiction is not_reproduced; the rule's outcome here is
    # expected to be the violation it was (the reasoning below, the pilots of FIG2_PILOT and
    # every committed run: mean exponents 0.02 to 0.2 against at least 0.8).  The reasoning
    # of the expectation as first set, "violated", now the outcome found here, follows.
    # Expected before running (see the package docstring): nearby stumps on a continuous
    # coordinate are nearly collinear, so the unconstrained weights do not fall like 1/K.
    # Kept after the pilot of FIG2_PILOT (issue 20, item 2), fixed before any deciding run of
    # this plan: on adult_like the mean decay exponent was 0.024 (sd 0.067, 12 seeds), its
    # one-sided 95% lower bound on the margin below 0.8 about 7.5 standard deviations; at the
    # quick plan's 16 seeds the sign test finds the median below 0.8 with probability above
    # 0.9999 were the exponents normal (0.75 for any law with that margin), so the quick profile
    # is expected violated on (nearly) every master seed.
    expected=NOT_REPRODUCED,
    configs=profiles(
        # seed_stream 1: the plan changed (10 -> 16 seeds, issue 42's sign test) after the full
        # run that decided the claim on stream 0's seeds 0..9; a new run takes seeds it never used.
        {"datasets": ["adult_like", "breast_cancer", "digits"], **_FIG2_SIDE, SEED_STREAM: 1},
        # Smoke and quick: planned on the pilot (FIG2_PILOT, fig2_plan): the fewest seeds from
        # which on the sign test finds the median below 0.8 with probability at least 0.98 at the
        # pilot's lower confidence bound on the margin (issue 42: the t test of the mean that
        # planned 15 and 10 seeds before does not keep its level); the "plan" entry shows the
        # numbers.  Smoke: 24 seeds on breast_cancer; quick: 16 seeds (the sign test's minimum at
        # the level: adult_like's exponents lie about 12 standard deviations below 0.8).
        smoke={"n_trials": functools.partial(_fig2_planned_seeds, "breast_cancer/smoke_grid"),
               "datasets": ["breast_cancer"], "K": [8, 16, 32, 64],
               "plan": functools.partial(_fig2_plan_text, "breast_cancer/smoke_grid")},
        quick={"n_trials": functools.partial(_fig2_planned_seeds, "adult_like"), "K": _FIG2_K,
               "plan": functools.partial(_fig2_plan_text, "adult_like")},
        # Full: planned the same way on a pilot of the full configuration of its own
        # ("adult_like/full"): 16 seeds (10 with the t test, before issue 42; before 2026-11-24
        # the seeds that detect an exponent 1 standard deviation below its bound).
        full={"n_trials": functools.partial(_fig2_planned_seeds, "adult_like/full"), "K": _FIG2_K_FULL,
              "plan": functools.partial(_fig2_plan_text, "adult_like/full")}),
    trial=trial, decide=decide, with_data=_fig2_on,
    instances="adult_like (the verdict; synthetic, 12,000 rows of a9a's 123 one-hot binary columns, "
              "24% positive: a stand-in for RKS's adult, not adult), breast_cancer (569 x 30, "
              "continuous coordinates; a detail) and digits even-vs-odd (1797 x 64, pixel values "
              "0-16; a detail), each split 75/25 per seed and standardized; K by data set, at most a "
              "third of its training points: 16 to 1024 on adult_like (2048 in full), 8 to 128 on the "
              "others (256 on digits in full); RKS prints no K axis in the text we have, so adult_like's "
              "grid is ours; 'decays linearly' read as a decay exponent of at least 1 - 0.2 (the 0.2 fixed "
              "before running; a faster decay does not count against it). "
              "On adult: iln-verify run rks.fig2.alpha_inf_decay --data a9a (a9a from "
              "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html, in $ILN_DATA_DIR "
              "or by its path)",
))

