"""Decisions on a searched specification: exact first, then the implementation's conformance.

For each right side, the best instances the search found (and its smallest violation) are
decided exactly (:func:`certify`: the statement's ``certify`` evaluator, rational arithmetic
where it has one, and the right side in log space): the side is ``violated`` with the exact
numbers when some instance exceeds its bound; ``holds`` only when every variable was searched
to each end its statement admits (or to the cap the plan states for an unbounded one) and
the worst instance holds; otherwise ``inconclusive``, naming what was not covered.

The trials sample the shipped implementation at the instances :func:`confirm_points` names;
:func:`conformance` checks, with exact two-sided Clopper-Pearson intervals, that the
frequency of the event there agrees with the exact probability, and :func:`shipped_agreement`
that the shipped code's own right sides (:mod:`iln.theory`) equal the statement's formulas.
A disagreement makes the verdict inconclusive (the exact verdict is about the mathematics;
the implementation does not follow it), with the numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats

from verification import statistics
from verification.rules import mean
from verification.search.formula import Formula
from verification.search.search import LOG_TOLERANCE
from verification.search.specification import EXPECTATION, PRINTED, ExactValue, Statement
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["RULE", "RULE_EXPECTATION", "certify", "confirm_points", "conformance", "decide", "shipped_agreement", "side_verdict"]

RULE = ("exact search over the declared domain (verification.search), with the implementation's "
        "conformance to the exact law (exact binomial, Clopper-Pearson)")
RULE_EXPECTATION = ("exact search over the declared domain (verification.search), with the implementation's "
                    "conformance to the exact mean (an interval exact for every law on the draws' a-priori range: "
                    "Hoeffding and empirical Bernstein)")


def rule(spec: Statement) -> str:
    """The rule a specification's verdict names: its conformance test follows its left side's kind."""
    return RULE_EXPECTATION if spec.lhs.kind == EXPECTATION else RULE


def _exp(log: float) -> float:
    return math.exp(log) if log < 709 else math.inf


def certify(spec: Statement, side: str, point: Mapping[str, Any]) -> dict[str, Any]:
    """The exact numbers at one instance: left side, right side, ratio, and the verdict there.

    ``at_instance`` is ``"violated"`` when the log ratio exceeds ``1e-9``, ``"holds"`` when it
    is below ``-1e-9``, else ``"at the bound"`` (a tie within the arithmetic's precision).
    """
    if spec.lhs.certify is not None:
        value = spec.lhs.certify(point)
    else:
        log = float(np.asarray(spec.lhs.exact(point), dtype=float))
        value = ExactValue(log, repr(_exp(log)), "the search's exact evaluator (log-space float64)")
    log_rhs = float(Formula(spec.sides()[side]).log_value(point))
    log_ratio = -math.inf if value.log == -math.inf else value.log - log_rhs
    at = "violated" if log_ratio > LOG_TOLERANCE else "holds" if log_ratio < -LOG_TOLERANCE else "at the bound"
    return {"point": dict(point), "lhs": value.text, "lhs_float": _exp(value.log), "lhs_method": value.method,
            "log_lhs": value.log if math.isfinite(value.log) else None, "rhs": _exp(log_rhs), "log_rhs": log_rhs,
            "ratio": _exp(log_ratio), "log10_ratio": log_ratio / math.log(10) if math.isfinite(log_ratio) else None,
            "at_instance": at, "evaluator": "exact"}


def _log_ratio(row: Mapping[str, Any]) -> float:
    return -math.inf if row["log10_ratio"] is None else row["log10_ratio"]


def side_verdict(spec: Statement, side: str, found: Mapping[str, Any]) -> dict[str, Any]:
    """One right side's verdict from its search (:meth:`SideSearch.to_json`), decided exactly."""
    probes = [*found["best"], *([found["smallest_violation"]] if found["smallest_violation"] else [])]
    rows = [certify(spec, side, p["point"]) for p in probes]
    worst = max(rows, key=_log_ratio)
    violations = [r for r in rows if r["at_instance"] == "violated"]
    uncovered = {k: v["ends"] for k, v in found["coverage"].items() if not v["covered"]}
    reason = None
    if violations:
        verdict = VIOLATED
    elif uncovered:
        verdict, reason = INCONCLUSIVE, f"not searched to each end its statement admits: {uncovered}"
    elif found["budget_exhausted"]:
        verdict, reason = INCONCLUSIVE, f"the plan's budget of {spec.plan.budget} cells ran out"
    elif worst["at_instance"] == "at the bound":
        verdict, reason = INCONCLUSIVE, f"the worst instance is at the bound within rounding: {worst['point']}"
    else:
        verdict = HOLDS
    smallest = certify(spec, side, found["smallest_violation"]["point"]) if found["smallest_violation"] else None
    return {"side": side, "formula": found["formula"], "verdict": verdict, "reason": reason, "worst": worst,
            "smallest_violation": smallest if smallest and smallest["at_instance"] == "violated" else None,
            "best_instances": rows[:len(found["best"])], "coverage": found["coverage"],
            "search": {k: found[k] for k in ("cells", "probes", "stages", "budget_exhausted")}}


#: an event less likely than this is not sampled: a run of 10^4 trials would see it with
#: probability below 1e-5, so its trials would test nothing and cost the most (the worst
#: instance of a tail bound is where both sides are smallest).
UNOBSERVABLE = 1e-9


def confirm_points(spec: Statement, sides: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The instances the trials sample: per side its worst instance, its smallest violation
    and its worst instance whose exact left side is between 0.05 and 0.95 (where a frequency
    tests the law both ways), each moved to its sampling point; duplicates once.  An instance
    whose event has an exact probability below :data:`UNOBSERVABLE` is left out (an
    expectation's draws are informative at any mean: none is left out)."""
    floor = math.log(UNOBSERVABLE) if spec.lhs.kind != EXPECTATION else -math.inf
    out: dict[str, dict[str, Any]] = {}
    for side, found in sides.items():
        for role, probe in (("worst", found["best"][0] if found["best"] else None),
                            ("smallest violation", found["smallest_violation"]),
                            ("sampleable", found["sampleable"])):
            if probe is None or probe["log_lhs"] is None or probe["log_lhs"] < floor:
                continue
            at = spec.lhs.sampling_point(probe["point"]) if spec.lhs.sampling_point else dict(probe["point"])
            log_at = float(np.asarray(spec.lhs.exact(at), dtype=float))
            log_probe = float(np.asarray(spec.lhs.exact(probe["point"]), dtype=float))
            if not (log_at == log_probe or abs(log_at - log_probe) <= 1e-12 * max(1.0, abs(log_probe))):
                raise ValueError(f"{spec.id}: the sampling point {at} of {probe['point']} has another exact left "
                                 f"side ({log_at!r} against {log_probe!r})")
            key = repr(sorted(at.items()))
            out.setdefault(key, {"key": f"{side}/{role}", "roles": [], "instance": probe["point"],
                                 "sample_at": at, "log_p": log_at if math.isfinite(log_at) else None,
                                 "p": _exp(log_at)})["roles"].append(f"{side}/{role}")
    return list(out.values())


def _bounds_at(spec: Statement, instance: Mapping[str, Any]) -> dict[str, float]:
    """The right sides at an instance: ``printed_bound``, ``corrected_bound`` (the first
    correction) and ``bound: <name>`` for any further one."""
    names = ["printed_bound", "corrected_bound"]
    return {(names[i] if i < 2 else f"bound: {side}"): float(Formula(text).value(instance))
            for i, (side, text) in enumerate(spec.sides().items())}


def conformance(spec: Statement, records: Sequence[Mapping[str, Any]], points: Sequence[Mapping[str, Any]],
                alpha: float) -> dict[str, dict[str, Any]]:
    """At each point, whether the implementation agrees with the exact left side.

    For a probability: two-sided exact (Clopper-Pearson) intervals of the event's frequency
    at level ``1 - alpha / len(points)``; the p-value is the exact two-sided binomial test's,
    twice the smaller tail.  For an expectation: the mean of the draws with the two-sided
    interval of :func:`verification.rules.mean.lower_confidence` and ``upper_confidence``
    (exact for every law on the a-priori range ``spec.lhs.sample_range``) at the same level.
    The implementation conforms at a point when the interval holds the exact value.  Each row,
    by the point's key, also holds every right side at the sampled instance
    (``printed_bound``, ``corrected_bound``: the report draws the estimate against them).
    """
    level = 1.0 - alpha / max(1, len(points))
    rows = {}
    for point in points:
        draws = [r[point["key"]] for r in records]
        row: dict[str, Any] = {"roles": point["roles"], "instance": point["sample_at"], "trials": len(draws),
                               "exact": point["p"], **_bounds_at(spec, point["sample_at"])}
        if draws:
            estimate = (_mean_conformance if spec.lhs.kind == EXPECTATION else _frequency_conformance)(
                spec, point, draws, level)
            printed = row["printed_bound"]
            row.update(estimate, level=level, ratio=estimate["frequency"] / printed if printed > 0
                       else math.inf if estimate["frequency"] else 0.0)
        rows[point["key"]] = row
    return rows


def _frequency_conformance(spec: Statement, point: Mapping[str, Any], draws: Sequence[Any],
                           level: float) -> dict[str, Any]:
    """The event's frequency against the exact probability (exact binomial test and interval)."""
    k, n, p0 = sum(map(bool, draws)), len(draws), point["p"]
    interval = statistics.clopper_pearson(k, n, level, alternative="two-sided")
    upper = float(stats.binomtest(k, n, p0, alternative="greater").pvalue)
    lower = float(stats.binomtest(k, n, p0, alternative="less").pvalue)
    return {"events": k, "frequency": k / n, "interval": [interval.low, interval.high],
            "pvalue": min(1.0, 2 * min(upper, lower)), "conforms": bool(interval.low <= p0 <= interval.high)}


def _mean_conformance(spec: Statement, point: Mapping[str, Any], draws: Sequence[Any],
                      level: float) -> dict[str, Any]:
    """The draws' mean against the exact expectation, with an interval exact on the a-priori range."""
    assert spec.lhs.sample_range is not None  # required of an expectation by LeftSide
    low, high = spec.lhs.sample_range(point["sample_at"])
    values = np.asarray(draws, dtype=float)
    outside = values[(values < low) | (values > high)]
    if outside.size:
        raise ValueError(f"{spec.id}: draws {outside[:3].tolist()} at {point['sample_at']} lie outside the "
                         f"a-priori range [{low}, {high}] its sample_range states")
    tail = (1.0 - level) / 2
    interval = [mean.lower_confidence(values, low, high, tail), mean.upper_confidence(values, low, high, tail)]
    return {"frequency": float(values.mean()), "interval": interval, "range": [low, high],
            "conforms": bool(interval[0] <= point["p"] <= interval[1])}


def shipped_agreement(spec: Statement, sides: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """At each side's certified instances, the shipped code's right side (``spec.shipped``)
    against the formula's: they agree within a part in 1e9 where the formula is in
    ``[1e-290, 1)`` (a probability bound at or above 1 says nothing; below 1e-290 a float
    cannot hold it)."""
    rows = []
    for side, decided in sides.items():
        if side not in spec.shipped:
            continue
        for row in [*decided["best_instances"], *filter(None, [decided["smallest_violation"]])]:
            formula = math.exp(row["log_rhs"]) if row["log_rhs"] < 709 else math.inf
            if not 1e-290 <= formula < 1.0:
                continue
            value = float(spec.shipped[side](row["point"]))
            rows.append({"side": side, "point": row["point"], "formula": formula, "shipped": value,
                         "agrees": abs(value - formula) <= 1e-9 * formula})
    return rows


def _combine(printed: Mapping[str, Any], corrected: Mapping[str, Any] | None) -> tuple[str, str | None]:
    """The claim's outcome from its printed side's verdict and its correction's."""
    if printed["verdict"] == VIOLATED:
        if corrected is None:
            return VIOLATED, None
        if corrected["verdict"] == HOLDS:
            return HOLDS_AFTER_CORRECTION, None
        if corrected["verdict"] == VIOLATED:
            return VIOLATED, "the corrected statement is violated too"
        # The verdict is about the statement as printed, which is refuted exactly; the
        # correction's own verdict (verdict_corrected) says it is undecided, and why.
        return VIOLATED, f"the printed statement is violated; the corrected one is undecided: {corrected['reason']}"
    return printed["verdict"], printed["reason"]


def decide(spec: Statement, records: Sequence[Mapping[str, bool]], config: Mapping[str, Any],
           alpha: float) -> Verdict:
    """The claim's verdict: each side decided exactly at its searched instances, then the
    implementation's conformance at the sampled ones (see the module's docstring)."""
    found = config["search"]["sides"]
    sides = {side: side_verdict(spec, side, found[side]) for side in spec.sides()}
    printed = sides[PRINTED]
    corrected = next((sides[s] for s in spec.corrected), None)
    outcome, why = _combine(printed, corrected)
    rows = conformance(spec, records, config["search"]["confirm"], alpha)
    shipped = shipped_agreement(spec, sides)
    off = {key: r for key, r in rows.items() if r.get("conforms") is False}
    if off:
        outcome = INCONCLUSIVE
        why = "the shipped implementation does not follow the exact law: " + "; ".join(
            f"{key}: {r['frequency']:.6g} over {r['trials']} trials (interval {r['interval'][0]:.6g} to "
            f"{r['interval'][1]:.6g}) against the exact {r['exact']:.6g}" for key, r in off.items())
    differ = [r for r in shipped if not r["agrees"]]
    if differ:
        outcome = INCONCLUSIVE
        why = "; ".join([*([why] if why else []), *(
            f"the shipped {r['side']} right side is {r['shipped']:.6g}, the statement's {r['formula']:.6g}, at "
            f"{r['point']}" for r in differ[:3])])
    worst = printed["worst"]
    # "points": the sampled instances, by key (the report draws them as tail points).
    details = {"sides": sides, "points": rows, "shipped_right_sides": shipped,
               "coverage": {s: v["coverage"] for s, v in sides.items()},
               "best_instances": {s: v["best_instances"] for s, v in sides.items()},
               "scope": spec.scope, "plan": config["search"]["plan"]}
    if why:
        details["reason"] = why
    return Verdict(
        claim_id=spec.id, verdict=outcome, rule=rule(spec), statistic=worst["lhs_float"], bound=worst["rhs"],
        interval=(worst["lhs_float"], worst["lhs_float"]), level=1.0 - alpha, alpha=alpha,
        tightness=worst["ratio"], counterexample=printed["smallest_violation"], elapsed_s=0.0,
        n_trials=len(records), pvalue=0.0 if printed["verdict"] == VIOLATED else 1.0, details=details,
        # Exact: any ratio above 1 (beyond 1e-9) at an instance the search reached is found,
        # and a violated verdict is a computed fact (p-value 0), no false alarm: out of Holm's family.
        min_detectable_ratio=1.0, min_detectable_ratio_best_point=1.0, exact=True, worst_ratio=worst["ratio"],
        worst_instance={"point": "printed: worst instance", **worst["point"]},
        verdict_printed=printed["verdict"], verdict_corrected=None if corrected is None else corrected["verdict"])
