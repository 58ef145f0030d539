"""The paired comparison rule: "method A's loss is lower than method B's", over paired seeds.

A figure claim (ICML Section 6 / Figure 1: Shrinking Gradient "achieves a lower loss while
working with the same feature budget"; RKS Figure 1: Random Kitchen Sinks reaches AdaBoost's
error "between one and three orders of magnitude faster") compares two methods run on the
same seeds.  The rule reads such a statement as: *on a seed drawn at random, A's value is
below B's more often than not*, i.e. ``q = P[a > b | a != b] <= 1/2`` (the median of the
paired difference is not above 0), and decides it with the **exact sign test**: among the
``n`` seeds without a tie, ``k`` have ``a > b``; ``k`` is ``Binomial(n, q)`` given ``n``
whatever the law of the pairs, so one-sided Clopper-Pearson intervals of ``q`` have their
level at every ``n`` (:func:`verification.rules.probability.tail_decision`):

* **violated** when the lower end exceeds 1/2 (B is lower on most seeds);
* **holds** when the upper end is below 1/2 (A is lower on most seeds);
* otherwise inconclusive.

Why not a t or bootstrap interval of the mean difference: losses of online learners have no
a-priori range (an estimate of Algorithm 2 can be large, a run can diverge), their paired
differences are skewed, and the one-sided t test's false-alarm rate on skewed differences is
2-3 times its nominal level at 10-50 seeds (measured for differences distributed as
``Exp(1) - 1`` on the side of their short tail: 0.13, 0.12 and 0.085 at 0.05 with 10, 20 and 50
seeds; Wilcoxon's signed-rank test, which tests the median, 0.21 at 20); a percentile bootstrap
interval never leaves ``[min, max]`` of the differences and so misses at least ``2^-n`` per side.  The sign test needs no range and no shape; its price is
power, planned for with :func:`sign_test_seeds`.  The mean difference is reported beside
the verdict, and never decides.

The statistic is the share ``k / n`` of seeds on which the statement fails, its bound 1/2;
``ratio = (k / n) / (1/2)`` is above 1 exactly when B wins on most seeds, and
``min_detectable_ratio`` is the smallest ``q / (1/2)`` that the test detects with the design
power at the ``n`` used (at most 2: a ratio of 2 is "B lower on every seed").

A statement that holds at *some* setting of an unstated parameter (the paper's feature
budget, say) is decided by :func:`at_some_setting`; a statement read several ways (which
loss, which budget accounting) gets one verdict per reading from :func:`by_cell`, with the
reading that decides the claim fixed before the data.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from verification.catalog import DESIGN_POWER
from verification.rules.grid import PointDecision, grid_verdict
from verification.rules.probability import TailPoint, detectable_ratio, tail_decision
from verification.statistics import binomial_sample_size
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["PairedPoint", "at_some_setting", "by_cell", "paired_comparison", "sign_test_seeds"]

RULE = "paired comparison (exact sign test over seeds, Clopper-Pearson)"
#: the statement's bound on ``P[a > b | a != b]``: A lower than B on most seeds.
SHARE_BOUND = 0.5


@dataclass(frozen=True)
class PairedPoint:
    """One point of a paired comparison: per-seed values of two methods, same seeds in order.

    Attributes
    ----------
    key : str
        The point's name.
    a, b : sequence of float
        ``a[i]`` and ``b[i]`` from seed ``i``: the statement is that ``a`` is lower than
        ``b``.  ``+inf`` is allowed (a diverged run's loss, a target never reached); NaN
        is not, for it is neither lower nor higher.
    names : tuple of str, default ("a", "b")
        The two methods' names, for the report.
    instance : mapping, optional
        What reproduces the point (for a counterexample).
    """

    key: str
    a: Sequence[float]
    b: Sequence[float]
    names: tuple[str, str] = ("a", "b")
    instance: Mapping | None = None

    def __post_init__(self):
        a = np.asarray(self.a, dtype=np.float64)
        b = np.asarray(self.b, dtype=np.float64)
        if a.ndim != 1 or a.size == 0:
            raise ValueError(f"a of point {self.key!r} must be a non-empty 1-d sequence, got shape {a.shape}")
        if b.shape != a.shape:
            raise ValueError(f"b of point {self.key!r} must have the shape of a, {a.shape}, got {b.shape}")
        for name, values in (("a", a), ("b", b)):
            if np.isnan(values).any():
                raise ValueError(f"{name} of point {self.key!r} has NaN values: a NaN is neither "
                                 "lower nor higher; map a diverged run to +inf first")


def _counts(p: PairedPoint) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(p.a, dtype=np.float64)
    b = np.asarray(p.b, dtype=np.float64)
    return a > b, a < b


def _differences(p: PairedPoint) -> np.ndarray:
    """``a - b`` per seed, 0 for a tie (two diverged runs, ``inf - inf``, are a tie)."""
    a = np.asarray(p.a, dtype=np.float64)
    b = np.asarray(p.b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.where(a == b, 0.0, a - b)


def _decide(p: PairedPoint, tail: float, holds_tail: float) -> PointDecision:
    higher, lower = _counts(p)
    n = int(higher.sum() + lower.sum())
    difference = _differences(p)
    a_name, b_name = p.names
    seeds = len(p.a)
    summary = {"seeds": seeds, "ties": seeds - n, f"seeds_{a_name}_higher": int(higher.sum()),
               f"seeds_{a_name}_lower": int(lower.sum()),
               f"mean_{a_name}": float(np.mean(p.a)), f"mean_{b_name}": float(np.mean(p.b)),
               "median_difference": float(np.median(difference)),
               # shown beside the verdict, never deciding (see the module docstring)
               "mean_difference_not_deciding": float(difference.mean()) if np.isfinite(difference).all() else None,
               "statement": f"{a_name} lower than {b_name} on most seeds: "
                            f"P[{a_name} > {b_name} | no tie] <= 1/2"}
    if n == 0:
        # Every seed a tie: the sign test has nothing to count.
        row = {**summary, "interval": [math.nan, math.nan], "printed_violated": False, "printed_holds": False,
               "min_detectable_ratio": math.inf, "can_fail": False,
               "why_no_decision": "every seed is a tie"}
        return PointDecision(key=p.key, statistic=math.nan, bound=SHARE_BOUND, interval=(math.nan, math.nan),
                             ratio=math.nan, printed_violated=False, printed_holds=False, pvalue=1.0,
                             min_detectable_ratio=math.inf, row=row)
    first = int(np.argmax(higher)) if higher.any() else None
    decision = tail_decision(TailPoint(key=p.key, k=int(higher.sum()), n=n, printed=SHARE_BOUND,
                                       first_event=first, instance=p.instance), tail, holds_tail)
    counterexample = {**(decision.counterexample or {}), **summary, "first_seed_where_statement_fails": first}
    return replace(decision, counterexample=counterexample, row={**decision.row, **summary})


def paired_comparison(claim_id: str, points: Sequence[PairedPoint], alpha: float,
                      details: Mapping | None = None, splits: int | None = None,
                      holds_alpha: float | None = None) -> Verdict:
    """The paired comparison rule over a grid of points, each point's violation at ``alpha /
    G`` (G points) and its holding at ``holds_alpha`` (default ``alpha``: the grid holds only
    when every point does, so that side needs no split).

    Holds when A is lower on most seeds at every point, violated when B is lower on most
    seeds at some point (:func:`verification.rules.grid.grid_verdict`); the p-value is the
    sign test's, Bonferroni over the points, so the claim is violated at level ``alpha``
    exactly when the p-value is at most ``alpha``.

    Parameters
    ----------
    claim_id : str
    points : sequence of PairedPoint
        At least one.
    alpha : float
        The claim's share of the run's false-alarm budget, in (0, 1).
    details : mapping, optional
        Claim-specific figures, kept beside the points' rows.
    holds_alpha : float, optional
        The level of each point's holds side (default ``alpha``); :func:`at_some_setting`
        gives a smaller one, since there one holding setting suffices.
    splits : int, optional
        The number of points the plan split ``alpha`` over (on the violation side), at least ``len(points)``
        (default ``len(points)``): a planned point that could not be formed (no seed to
        compare) keeps its share unspent, and the p-value is Bonferroni over ``splits``.

    Returns
    -------
    Verdict

    Examples
    --------
    >>> point = PairedPoint("x", a=[0.1] * 20, b=[0.2] * 20, names=("ours", "theirs"))
    >>> paired_comparison("demo", [point], 1e-3).verdict
    'holds'
    """
    points = _points_iv(points)
    alpha = _alpha_iv(alpha)
    if splits is None:
        splits = len(points)
    elif isinstance(splits, bool) or not isinstance(splits, int) or splits < len(points):
        raise ValueError(f"splits must be an int >= the {len(points)} points, got {splits!r}")
    holds_alpha = alpha if holds_alpha is None else _alpha_iv(holds_alpha)
    decisions = [_decide(p, alpha / splits, holds_alpha) for p in points]
    reason = None
    if not any(d.can_fail for d in decisions):
        fewest = min(decisions, key=lambda d: d.row.get("trials", 0))
        reason = (f"too few seeds without a tie for the sign test at level {1 - alpha / splits:.6g}: "
                  f"at {fewest.key} even {fewest.row.get('trials', 0)} seeds all on one side would not "
                  f"reject (it needs 2^-n <= {alpha / splits:.3g})")
    return grid_verdict(claim_id, RULE, decisions, alpha=alpha, splits=splits,
                        n_trials=max(len(p.a) for p in points), details=details, reason=reason)


def at_some_setting(claim_id: str, settings: Mapping[str, Sequence[PairedPoint]], alpha: float,
                    details: Mapping | None = None) -> Verdict:
    """A comparison stated for one unstated setting (a budget the paper does not give):
    holds if it holds at some setting tried, violated only if it is violated at every one.

    Each setting is decided by :func:`paired_comparison`, its holds side at ``alpha / S`` (S
    settings: "holds" is a union, some setting holding by chance is a false "holds") and its
    violation side at the whole ``alpha`` ("violated at every setting" is an intersection:
    a false alarm needs the setting where the statement holds to be rejected, an
    intersection-union test), so that each error happens with probability at most
    ``alpha``.  The p-value of the violation is the largest setting p-value (violated at
    ``alpha`` exactly when every setting's p-value is at most ``alpha``).  The
    ``min_detectable_ratio`` is the largest over the settings of each one's, at the power
    ``0.9^(1/S)`` that makes all S detections happen together with the design power (the
    settings' seeds are independent).

    Parameters
    ----------
    claim_id : str
    settings : mapping of str to sequence of PairedPoint
        At least one setting, each with at least one point.
    alpha : float
        In (0, 1).
    details : mapping, optional

    Returns
    -------
    Verdict
        The verdict of the setting that decides (a holding one; else the violated setting
        with the largest p-value; else the undecided one with the largest p-value), with
        every setting's verdict under ``details["settings"]``.
    """
    if not isinstance(settings, Mapping) or not settings:
        raise ValueError(f"settings must be a non-empty mapping of names to points, got {settings!r}")
    alpha = _alpha_iv(alpha)
    share = alpha / len(settings)
    verdicts = {name: paired_comparison(claim_id, points, alpha, holds_alpha=share) for name, points in settings.items()}
    outcomes = [v.verdict for v in verdicts.values()]
    if HOLDS in outcomes:
        outcome = HOLDS
        chosen = next(name for name, v in verdicts.items() if v.verdict == HOLDS)
    else:
        outcome = VIOLATED if all(o == VIOLATED for o in outcomes) else INCONCLUSIVE
        chosen = max(verdicts, key=lambda name: verdicts[name].pvalue)
    power = DESIGN_POWER ** (1.0 / len(settings))
    figures = [_setting_detectable(_points_iv(points), alpha, power) for points in settings.values()]
    mdr, best = max(f[0] for f in figures), min(f[1] for f in figures)
    blind = [name for name, f in zip(settings, figures, strict=True) if math.isinf(f[0])]
    if outcome == HOLDS and blind:
        # "Violated at every setting" cannot happen where a setting detects nothing: a check
        # that cannot fail does not hold (verification.verdicts.Verdict.can_fail).
        outcome = INCONCLUSIVE
    info = {**verdicts[chosen].details, **(details or {}), "deciding_setting": chosen,
            "settings": {name: _summary(v) for name, v in verdicts.items()},
            "setting_rule": "holds at some setting (each setting's holds side at alpha / "
                            f"{len(settings)}), violated at every one (each setting's violation at alpha)"}
    info.pop("reason", None)
    if outcome == INCONCLUSIVE and blind:
        info["reason"] = (f"the check cannot fail: a violation at every setting cannot be shown, since "
                          f"{', '.join(blind)} cannot detect one (a point of ties only, or too few seeds)")
    elif outcome == INCONCLUSIVE:
        undecided = [name for name, v in verdicts.items() if v.verdict != VIOLATED]
        info["reason"] = (f"no setting holds and {len(undecided)} of {len(settings)} are not violated "
                          f"({', '.join(undecided)}): " + "; ".join(
                              f"{name}: {verdicts[name].details.get('reason', verdicts[name].verdict)}"
                              for name in undecided))
    return replace(verdicts[chosen], verdict=outcome, alpha=alpha, details=info,
                   pvalue=max(v.pvalue for v in verdicts.values()),
                   min_detectable_ratio=mdr, min_detectable_ratio_best_point=best, verdict_printed=outcome)


def by_cell(claim_id: str, cells: Mapping[str, Mapping[str, Sequence[PairedPoint]]], primary: str,
            alpha: float, details: Mapping | None = None) -> Verdict:
    """One verdict per reading ("cell") of a comparison, and the claim's verdict from one of them.

    Each cell (a loss, a budget accounting, ...) is decided by :func:`at_some_setting` over
    its settings at ``alpha / C`` (C cells), so that every cell's verdict keeps its level
    whatever the others say; the claim's verdict is the ``primary`` cell's, fixed before the
    data, and its p-value ``C`` times that cell's (violated at ``alpha`` exactly when the
    cell is).  ``details["cells"]`` holds every cell's verdict and ``details["headline"]``
    names them, the deciding cell first, e.g. ``"violated on online/psi_evaluations (the
    deciding cell); holds on test/psi_evaluations"``.

    Parameters
    ----------
    claim_id : str
    cells : mapping of str to mapping of str to sequence of PairedPoint
        Per cell, its settings (see :func:`at_some_setting`).
    primary : str
        The cell that decides the claim; a key of ``cells``.
    alpha : float
        In (0, 1).
    details : mapping, optional
    """
    if not isinstance(cells, Mapping) or not cells:
        raise ValueError(f"cells must be a non-empty mapping of names to settings, got {cells!r}")
    if primary not in cells:
        raise ValueError(f"primary must be one of the cells {list(cells)}, got {primary!r}")
    alpha = _alpha_iv(alpha)
    verdicts = {name: at_some_setting(claim_id, settings, alpha / len(cells)) for name, settings in cells.items()}
    chosen = verdicts[primary]
    others = [f"{v.verdict} on {name}" for name, v in verdicts.items() if name != primary]
    headline = "; ".join([f"{chosen.verdict} on {primary} (the deciding cell)", *others])
    info = {**chosen.details, **(details or {}), "headline": headline, "deciding_cell": primary,
            "cells": {name: {**_summary(v), "deciding_setting": v.details["deciding_setting"],
                             "settings": v.details["settings"]} for name, v in verdicts.items()},
            "cell_rule": f"each cell at alpha / {len(cells)}; the claim takes the deciding cell's verdict"}
    return replace(chosen, alpha=alpha, details=info, pvalue=min(1.0, len(cells) * chosen.pvalue))


def _setting_detectable(points: Sequence[PairedPoint], alpha: float, power: float) -> tuple[float, float]:
    """The (weakest, best) of the setting's points' smallest ratios detected with ``power`` at
    ``alpha / G`` (a point of ties only detects nothing)."""
    tail = alpha / len(points)
    sizes = [int(higher.sum() + lower.sum()) for higher, lower in map(_counts, points)]
    figures = [detectable_ratio(n, SHARE_BOUND, tail, power) if n > 0 else math.inf for n in sizes]
    return max(figures), min(figures)


def _summary(v: Verdict) -> dict:
    return {"verdict": v.verdict, "pvalue": v.pvalue, "min_detectable_ratio": v.min_detectable_ratio,
            "worst_point": v.details.get("worst_point"), "points": v.details.get("points"),
            **({"reason": v.details["reason"]} if "reason" in v.details else {})}


def sign_test_seeds(share: float, tail: float, power: float = DESIGN_POWER) -> int:
    """Seeds the sign test needs at one point to find ``P[a > b] = share > 1/2`` (or, by
    symmetry, ``1 - share`` for "holds") with ``power`` at level ``tail``, ties aside.

    Plan ``share`` from a pilot's lower confidence bound on it, never its point estimate
    (docs, The decision rules); the pilot's seeds are not reused.

    Examples
    --------
    >>> sign_test_seeds(1.0, 1e-5)  # 2^-17 < 1e-5: 17 seeds all on one side reject
    17
    """
    if not (SHARE_BOUND < share <= 1.0):
        raise ValueError(f"share must lie in (1/2, 1], got {share!r}")
    if share == 1.0:
        # Every seed on one side: the smallest n with 2^-n <= tail.
        return max(1, math.ceil(math.log2(1.0 / _alpha_iv(tail)) - 1e-12))
    return binomial_sample_size(SHARE_BOUND, _alpha_iv(tail), power, share)


def _points_iv(points) -> list[PairedPoint]:
    if isinstance(points, PairedPoint) or not isinstance(points, Sequence) or not points:
        raise ValueError(f"points must be a non-empty sequence of PairedPoint, got {points!r}")
    if not all(isinstance(p, PairedPoint) for p in points):
        raise TypeError("points must hold PairedPoint objects only")
    return list(points)


def _alpha_iv(alpha) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number in (0, 1), got {alpha!r}")
    return float(alpha)
