"""Algorithm 2's estimate: unbiased (Lemma 4, first part) with the Hoeffding tail of eq. (19).

ICML Lemma 4 / arXiv Lemma 3: for ``f = sum_i alpha_i Phi(x_i)`` the output E
of EST_SCALAR_PROD is unbiased for ``<f, Phi(x)>`` and
``P[|E - <f, Phi(x)>| > eps] <= exp(-m eps^2 / ||alpha||_1^2)``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from iln import theory
from iln.estimator import estimate_scalar_product
from iln.random_streams import child
from verification import statistics
from verification.catalog import DESIGN_ALPHA, DESIGN_POWER, Claim, Erratum, Source, register
from verification.claims.iln.instances import DESCRIPTIONS, estimator_instance
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED, Verdict

# ------------------------------------------------------------------------------------------
# iln.alg2.unbiased
# ------------------------------------------------------------------------------------------

_UNBIASED_INSTANCES = ["two_point", "cancelling", "stumps", "relu", "fourier", "section6"]


def unbiased_trial(config, seed) -> dict:
    """One estimate per (instance, implementation), each from its own child seed."""
    record = {}
    for j, (name, method) in enumerate((n, m) for n in config["instances"] for m in config["methods"]):
        inst = estimator_instance(name)
        record[f"{name}/{method}"] = estimate_scalar_product(
            inst.alpha, inst.X, inst.x, config["m"], inst.family, seed=child(seed, j), method=method
        )
    return record


def unbiased_decide(records, config, alpha) -> Verdict:
    """Mean rule: an exact-coverage interval for E's mean per instance must contain the exact value.

    E lies in ``[-||alpha||_1, ||alpha||_1]``, so the Hoeffding / empirical-Bernstein
    interval of :func:`verification.statistics.mean_interval` covers the mean with
    probability at least its level; the claim's alpha is split over the instances.
    The statistic is the largest bias relative to ``||alpha||_1``; its bound is 0, and the
    tightness is the bias as a fraction of the smallest bias the check detects with
    probability 0.9 (an equality has no "measured / bound").
    """
    keys = sorted(records[0])
    n = len(records)
    share = alpha / len(keys)
    worst, details, pvalue = None, {}, 1.0
    for key in keys:
        inst = estimator_instance(key.split("/")[0])
        a = inst.alpha_l1
        values = np.array([r[key] for r in records])
        interval = statistics.mean_interval(values, -a, a, 1 - share)
        bias = float(values.mean() - inst.exact)
        # mean_interval holds Hoeffding's interval at half the level; detecting with it detects
        # with the (narrower) intersection.
        detectable = statistics.hoeffding_detectable_shift(n, -a, a, share / 2)
        covered = interval.low <= inst.exact <= interval.high
        # Hoeffding's two-sided p-value of H0 "E is unbiased" for this instance.
        p = min(1.0, 2.0 * math.exp(-n * bias**2 / (2 * a**2)))
        pvalue = min(pvalue, p * len(keys))
        details[key] = {"mean": float(values.mean()), "exact": inst.exact, "bias": bias,
                        "alpha_l1": a, "interval": [interval.low, interval.high],
                        "detectable_bias": detectable, "covered": covered}
        score = abs(bias) / a
        if worst is None or (not covered, score) > (not worst[2], worst[1]):
            worst = (key, score, covered, interval, a, detectable)
    key, score, covered, interval, a, detectable = worst
    counterexample = None
    if not all(d["covered"] for d in details.values()):
        counterexample = {"instance": key, "description": DESCRIPTIONS[key.split("/")[0]],
                          "mean": details[key]["mean"], "exact": details[key]["exact"]}
    return Verdict(
        claim_id="iln.alg2.unbiased",
        verdict=HOLDS if counterexample is None else VIOLATED,
        rule="mean bound (exact-coverage interval, Hoeffding and empirical Bernstein)",
        statistic=score, bound=0.0,
        interval=((interval.low - estimator_instance(key.split("/")[0]).exact) / a,
                  (interval.high - estimator_instance(key.split("/")[0]).exact) / a),
        level=1 - share, alpha=alpha, power=detectable / a,
        tightness=score / (detectable / a), counterexample=counterexample,
        elapsed_s=0.0, n_trials=n, pvalue=min(1.0, pvalue), details=details,
    )


_ALG2 = r"E = \frac{\|\alpha\|_1}{m}\sum_{k=1}^m \operatorname{sgn}(\alpha_{i_k})\psi(\mathbf{x}_{i_k};\bar{\mathbf{w}}_k)\psi(\mathbf{x};\bar{\mathbf{w}}_k)"
_UNBIASED = r"\text{E is an unbiased estimator for } \langle f, \Phi(\mathbf{x})\rangle,\quad f=\sum_i \alpha_i\Phi(\mathbf{x}_i)"

def _unbiased_trials(instances, methods, bias):
    """Trials to detect a bias of ``bias * ||alpha||_1`` (E lies in [-||alpha||_1, ||alpha||_1])
    with the design power, at the design level split over the (instance, method) pairs and
    halved for mean_interval's Hoeffding part."""
    alpha = DESIGN_ALPHA / (2 * len(instances) * len(methods))
    return statistics.hoeffding_sample_size(-1.0, 1.0, bias, alpha, DESIGN_POWER)


register(Claim(
    id="iln.alg2.unbiased",
    title="Algorithm 2 (EST_SCALAR_PROD) is unbiased",
    sources=(
        Source("ICML", "Algorithm 2, eq. (11); Lemma 4, first part", _ALG2 + r",\quad " + _UNBIASED),
        Source("arXiv", "Algorithm 2, eq. (11); Lemma 3, first part", _ALG2 + r",\quad " + _UNBIASED),
    ),
    rule="mean bound",
    expected=HOLDS,
    configs={
        "smoke": {"n_trials": 300, "m": 16, "instances": ["two_point", "cancelling"], "methods": ["fast"]},
        # Detect a bias of 5% (quick) and 2% (full) of ||alpha||_1.
        "quick": {"n_trials": functools.partial(_unbiased_trials, _UNBIASED_INSTANCES, ("fast", "numpy"), 0.05), "m": 32,
                  "instances": _UNBIASED_INSTANCES, "methods": ["fast", "numpy"]},
        "full": {"n_trials": functools.partial(_unbiased_trials, _UNBIASED_INSTANCES,
                                                  ("fast", "numpy", "reference"), 0.02),
                 "m": 32, "instances": _UNBIASED_INSTANCES, "methods": ["fast", "numpy", "reference"]},
    },
    trial=unbiased_trial,
    decide=unbiased_decide,
    instances="; ".join(f"{k}: {v}" for k, v in DESCRIPTIONS.items()),
))

# ------------------------------------------------------------------------------------------
# iln.lemma4.hoeffding
# ------------------------------------------------------------------------------------------


def hoeffding_trial(config, seed) -> dict:
    """For each grid point (instance, m, eps/||alpha||_1): whether |E - <f, Phi(x)>| > eps."""
    record = {}
    for j, point in enumerate(config["grid"]):
        inst = estimator_instance(point["instance"])
        E = estimate_scalar_product(inst.alpha, inst.X, inst.x, point["m"], inst.family,
                                    seed=child(seed, j))
        record[_grid_key(point)] = bool(abs(E - inst.exact) > point["eps_rel"] * inst.alpha_l1)
    return record


def _grid_key(point) -> str:
    return f"{point['instance']}/m={point['m']}/eps={point['eps_rel']}"


def _tail_test(k, n, bound, level):
    """Probability-bound rule at one grid point: (violated, holds, interval) at ``level``."""
    low = statistics.clopper_pearson(k, n, level, alternative="greater").low
    high = statistics.clopper_pearson(k, n, level, alternative="less").high
    # A bound of 1 or more says nothing and holds trivially.
    return low > bound, high < bound or bound >= 1.0, (low, high)


def hoeffding_decide(records, config, alpha) -> Verdict:
    """Probability-bound rule at every grid point, printed bound first, then the corrected one.

    Exceedances are counted over n independent trials; a one-sided Clopper-Pearson
    interval at level ``1 - alpha / (2 G)`` (G grid points; half the claim's alpha for the
    printed bound, half for the corrected one) decides: violated when its lower end
    exceeds the bound, holds when its upper end is below it.
    """
    n = len(records)
    grid = config["grid"]
    level = 1 - alpha / (2 * len(grid))
    printed_violated, printed_holds, corrected_holds, corrected_violated = [], [], [], []
    details, worst, pvalue = {}, None, 1.0
    first_exceedance = {}
    for point in grid:
        key = _grid_key(point)
        inst = estimator_instance(point["instance"])
        eps = point["eps_rel"] * inst.alpha_l1
        hits = [r[key] for r in records]
        k = int(sum(hits))
        p_printed = float(theory.hoeffding_tail_printed(point["m"], eps, inst.alpha_l1))
        p_corrected = float(theory.hoeffding_tail_corrected(point["m"], eps, inst.alpha_l1))
        v, h, interval = _tail_test(k, n, p_printed, level)
        cv, ch, _ = _tail_test(k, n, p_corrected, level)
        printed_violated.append(v)
        printed_holds.append(h)
        corrected_violated.append(cv)
        corrected_holds.append(ch)
        pvalue = min(pvalue, statistics.binomial_tail_pvalue(k, n, p_printed) * len(grid))
        power = statistics.binomial_detectable(n, p_printed, 1 - level)
        if k:
            first_exceedance[key] = hits.index(True)
        details[key] = {"exceedances": k, "frequency": k / n, "printed_bound": p_printed,
                        "corrected_bound": p_corrected, "interval": list(interval),
                        "printed_violated": v, "printed_holds": h, "corrected_holds": ch,
                        "power": power}
        ratio = (k / n) / p_printed
        if worst is None or ratio > worst[1]:
            worst = (key, ratio, interval, p_printed, power)
    if any(printed_violated):
        if all(corrected_holds):
            verdict = HOLDS_AFTER_CORRECTION
        elif any(corrected_violated):
            verdict = VIOLATED
        else:
            verdict = INCONCLUSIVE
    elif all(printed_holds):
        verdict = HOLDS
    else:
        verdict = INCONCLUSIVE
    key, ratio, interval, bound, power = worst
    counterexample = None
    if any(printed_violated):
        bad = next(p for p, v in zip(grid, printed_violated, strict=True) if v)
        bad_key = _grid_key(bad)
        counterexample = {"instance": bad["instance"], "m": bad["m"], "eps_rel": bad["eps_rel"],
                          "description": DESCRIPTIONS[bad["instance"]],
                          "frequency": details[bad_key]["frequency"],
                          "printed_bound": details[bad_key]["printed_bound"],
                          "trial_index": first_exceedance.get(bad_key)}
    return Verdict(
        claim_id="iln.lemma4.hoeffding", verdict=verdict,
        rule="probability bound (exact binomial, Clopper-Pearson)",
        statistic=details[key]["frequency"], bound=bound, interval=interval, level=level,
        alpha=alpha, power=power, tightness=ratio, counterexample=counterexample, elapsed_s=0.0,
        n_trials=n, pvalue=min(1.0, pvalue), details=details,
    )


_TAIL_ICML = r"\mathbb{P}\left[|E - \langle f, \Phi(\mathbf{x}) \rangle| > \epsilon\right] \leq \exp\left(-\frac{m\epsilon^2}{\|\alpha\|_1^2}\right)"
_TAIL_CORRECTED = r"\mathbb{P}\left[|E - \langle f, \Phi(\mathbf{x}) \rangle| > \epsilon\right] \leq 2\exp\left(-\frac{m\epsilon^2}{2\|\alpha\|_1^2}\right)"
_GRID_TWO_POINT = [
    {"instance": "two_point", "m": 1, "eps_rel": 0.5},
    {"instance": "two_point", "m": 2, "eps_rel": 0.9},
    {"instance": "two_point", "m": 3, "eps_rel": 0.95},
    {"instance": "two_point", "m": 5, "eps_rel": 0.97},
]
_GRID_FULL = [*_GRID_TWO_POINT,
              {"instance": "two_point", "m": 8, "eps_rel": 0.98},
              {"instance": "cancelling", "m": 4, "eps_rel": 0.5},
              {"instance": "section6", "m": 100, "eps_rel": 0.17}]

def _hoeffding_trials(grid, ratio):
    """Trials to detect a tail ``ratio`` times the smallest printed bound of the grid with the
    design power, at the design level split over the grid and over the printed and corrected
    checks."""
    p0 = min(float(theory.hoeffding_tail_printed(g["m"], g["eps_rel"], 1.0)) for g in grid)
    return statistics.binomial_sample_size(p0, DESIGN_ALPHA / (2 * len(grid)), DESIGN_POWER, ratio * p0)


register(Claim(
    id="iln.lemma4.hoeffding",
    title="Hoeffding tail of Algorithm 2's estimate",
    sources=(
        Source("ICML", "Appendix A, Lemma 4, eq. (19)", _TAIL_ICML),
        Source("arXiv", "Appendix A, Lemma 3, eq. (15)", _TAIL_ICML),
    ),
    rule="probability bound",
    expected=HOLDS_AFTER_CORRECTION,
    configs={
        "smoke": {"n_trials": 400, "grid": _GRID_TWO_POINT[:2]},
        # Detect a tail twice (quick) and 1.5 times (full) the smallest printed bound.
        "quick": {"n_trials": functools.partial(_hoeffding_trials, _GRID_FULL, 2.0), "grid": _GRID_FULL},
        "full": {"n_trials": functools.partial(_hoeffding_trials, _GRID_FULL, 1.5), "grid": _GRID_FULL},
    },
    trial=hoeffding_trial,
    decide=hoeffding_decide,
    instances="a grid of (m, eps) on the two-point instance, where each term of Algorithm 2 is "
              "+-0.998 with probability 1/2 (Hoeffding's worst case), and on benign instances: "
              + "; ".join(f"{k}: {DESCRIPTIONS[k]}" for k in ("two_point", "cancelling", "section6")),
    erratum=Erratum(
        claim_id="iln.lemma4.hoeffding",
        printed={"ICML": _TAIL_ICML + r"\quad\text{(Lemma 4, eq. 19)}",
                 "arXiv": _TAIL_ICML + r"\quad\text{(Lemma 3, eq. 15)}"},
        counterexample="Sign features on two orthogonal inputs with alpha = (1): each term of "
                       "Algorithm 2 is +-0.998 with probability 1/2 and <f, Phi(x)> = 0. With m = 2 "
                       "and eps = 0.9, |E| > eps exactly when both terms agree: probability 1/2, "
                       "while the printed bound is exp(-2 * 0.81) = 0.198. With m = 1 and "
                       "eps = 0.5 the probability is 1 against exp(-0.25) = 0.78.",
        corrected=_TAIL_CORRECTED + r"\quad\text{(two-sided Hoeffding, terms in } [-\|\alpha\|_1, \|\alpha\|_1])",
        check="iln.lemma4.hoeffding checks the corrected bound on the same trials at every grid "
              "point; the verdict is holds_after_correction when it holds everywhere.",
    ),
))
