"""Concentration in a Hilbert space (004 Lemma 4) and the Rademacher complexity of F_w (eq. 21-23).

``rks.lemma4.hilbert_concentration``: for K iid vectors in the ball of radius M,
``P[||X_bar - E X_bar|| > M/sqrt(K) (1 + sqrt(2 log(1/delta)))] <= delta`` (eq. 16; eq. 20 is
the same event written as McDiarmid's tail).  ``rks.rademacher.bound``:
``R_m[F_w] <= C / sqrt(m)`` for every draw of the parameters.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from iln import function_class as fc
from iln.features import RandomFourier
from iln.random_streams import child, generator
from verification import rules, statistics
from verification.catalog import DESIGN_ALPHA, DESIGN_POWER, Claim, Source, register
from verification.claims.rks.instances import class_instance, standardized
from verification.verdicts import HOLDS, Verdict

# ------------------------------------------------------------------------------------------
# rks.lemma4.hilbert_concentration
# ------------------------------------------------------------------------------------------
LEMMA4_ID = "rks.lemma4.hilbert_concentration"
#: vector laws in the unit ball (M = 1), each pushing against eq. (16) in its own way.
VECTOR_LAWS = {
    "two_point": "x = +-M with probability 1/2 on a line: |x - E x| = M always, the bounded "
                 "differences of eq. (17) are attained and the average is a scaled Rademacher sum",
    "spikes": "x uniform on the 64 orthonormal vectors M e_1, ..., M e_64 (nearly orthogonal "
              "summands): E||X_bar - E X_bar||^2 = (M^2 - M^2/64)/K, close to eq. (19)'s M^2/K",
    "skewed": "x = +M with probability 0.95, -M with probability 0.05: a rare large deviation, "
              "where McDiarmid's sub-Gaussian tail is furthest from the variance",
}


def _deviation(law: str, K: int, rng) -> float:
    """``||X_bar - E X_bar|| / M`` for K draws of the law (M = 1)."""
    if law == "two_point":
        return abs(np.where(rng.random(K) < 0.5, 1.0, -1.0).mean())
    if law == "skewed":
        return abs(np.where(rng.random(K) < 0.95, 1.0, -1.0).mean() - 0.9)
    if law == "spikes":
        counts = np.bincount(rng.integers(0, 64, size=K), minlength=64)
        return float(np.linalg.norm(counts / K - 1 / 64))
    raise ValueError(f"unknown vector law {law!r}; known: {sorted(VECTOR_LAWS)}")


def lemma4_trial(config, seed) -> dict:
    """Per (law, K): ``sqrt(K) ||X_bar - E X_bar|| / M``, each from its own child seed."""
    record = {}
    for j, (law, K) in enumerate((law, K) for law in config["laws"] for K in config["K"]):
        record[f"{law}/K={K}"] = math.sqrt(K) * _deviation(law, K, generator(child(seed, j)))
    return record


def lemma4_decide(records, config, alpha) -> Verdict:
    """Probability-bound rule at every (law, K, delta): the event is eq. (16)'s, the bound delta.

    The normalised deviation exceeds ``1 + sqrt(2 log(1/delta))`` exactly when the distance
    exceeds :func:`iln.function_class.hilbert_concentration_bound`.  Details carry eq. (19)'s
    mean, ``E f <= M / sqrt(K)``, per (law, K).
    """
    points, means = [], {}
    for law in config["laws"]:
        for K in config["K"]:
            values = [r[f"{law}/K={K}"] for r in records]
            means[f"{law}/K={K}"] = float(np.mean(values))
            for delta in config["delta"]:
                threshold = fc.hilbert_concentration_bound(1.0, K, delta) * math.sqrt(K)
                points.append(rules.tail_point(f"{law}/K={K}/delta={delta}", values, threshold, delta,
                                         {"law": law, "K": K, "delta": delta,
                                          "description": VECTOR_LAWS[law]}))
    return rules.probability_bound(LEMMA4_ID, points, alpha,
                                   details={"mean_sqrtK_deviation_eq19_bound_1": means})


def _tail_trials(deltas, n_points, ratio):
    """Trials to detect a tail ``ratio`` times the smallest delta with the design power, at the
    design level split over the grid points."""
    p0 = min(deltas)
    return statistics.binomial_sample_size(p0, DESIGN_ALPHA / n_points, DESIGN_POWER, min(0.99, ratio * p0))


_EQ16 = (r"\|\overline{\mathbf{X}} - \mathbb{E}\overline{\mathbf{X}}\| \le \frac{M}{\sqrt{K}} "
         r"\left(1 + \sqrt{2\log\frac{1}{\delta}}\right)\ \text{with probability at least } 1 - \delta")
_EQ20 = (r"\Pr_{\mathbf{X}} \left[f(\mathbf{X}) - \frac{M}{\sqrt{K}} \ge \epsilon \right] \le "
         r"\Pr_{\mathbf{X}} \left[f(\mathbf{X}) - \mathbb{E} f(\mathbf{X}) \ge \epsilon\right] \le "
         r"\exp\left(-\frac{K\epsilon^2}{2M^2} \right)")
_L4_K, _L4_DELTA = [1, 4, 16, 64], [0.5, 0.1, 0.02]
_L4_POINTS = len(VECTOR_LAWS) * len(_L4_K) * len(_L4_DELTA)

register(Claim(
    id=LEMMA4_ID,
    title="Averages of bounded vectors concentrate in a Hilbert space (Lemma 4)",
    sources=(Source("RKS", "Appendix A, Lemma 4, eq. (16)", _EQ16),
             Source("RKS", "Appendix A, proof of Lemma 4, eq. (20) (McDiarmid's step)", _EQ20)),
    rule="probability bound",
    # McDiarmid with differences 2M/K (eq. 17) and Jensen (eq. 19) are both valid: holds.
    expected=HOLDS,
    configs={
        "smoke": {"n_trials": 300, "laws": list(VECTOR_LAWS), "K": [1, 16], "delta": [0.5, 0.1]},
        # Detect a tail 2 (quick) and 1.5 (full) times the smallest delta.
        "quick": {"n_trials": functools.partial(_tail_trials, _L4_DELTA, _L4_POINTS, 2.0),
                  "laws": list(VECTOR_LAWS), "K": _L4_K, "delta": _L4_DELTA},
        "full": {"n_trials": functools.partial(_tail_trials, _L4_DELTA, _L4_POINTS, 1.5),
                 "laws": list(VECTOR_LAWS), "K": [*_L4_K, 256], "delta": _L4_DELTA},
    },
    trial=lemma4_trial,
    decide=lemma4_decide,
    instances="M = 1; " + "; ".join(f"{k}: {v}" for k, v in VECTOR_LAWS.items()),
))

# ------------------------------------------------------------------------------------------
# rks.rademacher.bound
# ------------------------------------------------------------------------------------------
RADEMACHER_ID = "rks.rademacher.bound"
RADEMACHER_CLASSES = {
    "signs": "the orthogonal instance's +-1 features (|phi| = 1 attained everywhere): R_m[F_w] = "
             "C E|S_m| / m exactly (iln.function_class.rademacher_sign_features), the case where "
             "eq. (23) is tightest",
    "fourier": "random Fourier features cos(w.x + b) (gamma = 0.05) on the standardized "
               "breast_cancer inputs: |phi| < 1, data-dependent",
}
#: the parameters w of the class are drawn once, from this seed: the bound is for every w.
_CLASS_SEED = 2008


@functools.cache
def _rademacher_class(name: str, K: int):
    """``(sampler of x rows, feature map)`` for a fixed draw of K parameters."""
    rng = generator(np.random.SeedSequence([_CLASS_SEED, K]))
    if name == "signs":
        inst = class_instance("orthogonal")
        W = inst.family.sample(K, rng)
        table = inst.family.psi(inst.family.support, W)
        return table
    if name == "fourier":
        X, _ = standardized("breast_cancer")
        family = RandomFourier(X.shape[1], gamma=0.05)
        return family.psi(X, family.sample(K, rng))
    raise ValueError(f"unknown class {name!r}; known: {sorted(RADEMACHER_CLASSES)}")


def rademacher_trial(config, seed) -> dict:
    """Per (class, K, m): ``sup_{alpha in S} (1/m) sum_i sigma_i f(x_i) = (C/K) sum_k
    |(1/m) sum_i sigma_i phi(x_i; w_k)|`` for one draw of x_1..x_m and sigma (eq. 21-22)."""
    record, C = {}, config["C"]
    grid = [(c, K, m) for c in config["classes"] for K in config["K"] for m in config["m"]]
    for j, (name, K, m) in enumerate(grid):
        table = _rademacher_class(name, K)
        rng = generator(child(seed, j))
        rows = table[rng.integers(0, table.shape[0], size=m)]
        sigma = np.where(rng.random(m) < 0.5, -1.0, 1.0)
        record[f"{name}/K={K}/m={m}"] = float(C / K * np.abs(sigma @ rows / m).sum())
    return record


def rademacher_decide(records, config, alpha) -> Verdict:
    """Mean rule: per (class, K, m) the exact-coverage interval of the mean of a variable in
    ``[0, C]`` (:func:`verification.statistics.mean_interval`) at ``1 - alpha / G``; violated
    when a lower end exceeds ``C / sqrt(m)``, holds when every upper end is below it."""
    C = config["C"]
    keys = [f"{c}/K={K}/m={m}" for c in config["classes"] for K in config["K"] for m in config["m"]]
    points, exact_values = [], {}
    for key in keys:
        m = int(key.rsplit("m=", 1)[1])
        points.append(rules.MeanPoint(key=key, values=[r[key] for r in records], bound=fc.rademacher_bound(C, m),
                                      lower=0.0, upper=C, instance={"point": key}))
        if key.startswith("signs/"):
            exact_values[key] = fc.rademacher_sign_features(C, m)
    exact = {f"m={m}": fc.rademacher_sign_features(C, m) / fc.rademacher_bound(C, m)
             for m in (2, 4, 16, 64, 256, 1024, 4096)}
    return rules.mean_bound(RADEMACHER_ID, points, alpha,
                            {"exact_signs": exact_values, "exact_signs_ratio_to_bound": exact})


def _rademacher_trials(m_max, C, n_keys, shift_fraction):
    """Trials to detect a mean above the bound by ``shift_fraction`` of the gap between the
    exact +-1 value and C / sqrt(m) at the largest m, with the design power (Hoeffding on
    [0, C], design level split over the points and halved for mean_interval)."""
    gap = fc.rademacher_bound(C, m_max) - fc.rademacher_sign_features(C, m_max)
    return statistics.hoeffding_sample_size(0.0, C, shift_fraction * gap, DESIGN_ALPHA / (2 * n_keys),
                                            DESIGN_POWER)


_EQ21_23 = (r"\mathcal{R}_{m}[\hat{\mathcal{F}}_{w}] = \mathbb{E}_{\sigma, X} \sup_{\alpha \in \mathcal{S}} "
            r"\left| \sum_{k=1}^{K} \alpha_{k} \frac{1}{m} \sum_{i=1}^{m} \sigma_{i} \phi(x_{i}; \omega_{k}) "
            r"\right| \le \dots \le \frac{C}{K} \sum_{k=1}^{K} \sqrt{\frac{1}{m}} \le C/\sqrt{m}")
_RM = [2, 8, 32]

register(Claim(
    id=RADEMACHER_ID,
    title="The Rademacher complexity of F_w is at most C / sqrt(m)",
    sources=(Source("RKS", "Appendix B, eq. (21)-(23); proof sketch of Lemma 3", _EQ21_23),),
    rule="mean bound",
    # Hoelder, Jensen and the orthogonality of independent signs are each valid: holds.
    expected=HOLDS,
    configs={
        "smoke": {"n_trials": 1500, "C": 1.0, "classes": list(RADEMACHER_CLASSES), "K": [1, 16], "m": [2, 8]},
        # Shifts of the whole gap (quick) and two thirds of it (full) at m = 32.
        "quick": {"n_trials": functools.partial(_rademacher_trials, 32, 1.0, 12, 1.0), "C": 1.0,
                  "classes": list(RADEMACHER_CLASSES), "K": [1, 16], "m": _RM},
        "full": {"n_trials": functools.partial(_rademacher_trials, 32, 1.0, 18, 2 / 3), "C": 1.0,
                 "classes": list(RADEMACHER_CLASSES), "K": [1, 16, 128], "m": _RM},
    },
    trial=rademacher_trial,
    decide=rademacher_decide,
    instances="C = 1, the parameters drawn once per (class, K) from a fixed seed (the bound is "
              "for every w); x_i drawn uniformly from the class's points; "
              + "; ".join(f"{k}: {v}" for k, v in RADEMACHER_CLASSES.items()),
))
