"""The Rademacher complexity of F_w (RKS Appendix B, eq. 21-23): ``R_m[F_w] <= C / sqrt(m)``.

For every draw of the parameters ``w_1..w_K``: Hoelder, Jensen and the orthogonality of
independent signs, the proof sketch of Lemma 3.
"""

from __future__ import annotations

import functools

import numpy as np

from iln.features import RandomFourier
from iln.random_streams import child, generator
from iln.rks import function_class as fc
from verification import rules, statistics
from verification.catalog import DESIGN_ALPHA, DESIGN_POWER, Claim, Source, profiles, register
from verification.claims.rks.instances import class_instance, described, grid, standardized
from verification.verdicts import HOLDS, Verdict

ID = "rks.rademacher.bound"
RADEMACHER_CLASSES = {
    "signs": "the orthogonal instance's +-1 features (|phi| = 1 attained everywhere): R_m[F_w] = "
             "C E|S_m| / m exactly (iln.rks.function_class.rademacher_sign_features), the case where "
             "eq. (23) is tightest",
    "fourier": "random Fourier features cos(w.x + b) (gamma = 0.05) on the standardized "
               "breast_cancer inputs: |phi| < 1, data-dependent",
}
#: the parameters w of the class are drawn once, from this seed: the bound is for every w.
_CLASS_SEED = 2008


@functools.cache
def _rademacher_class(name: str, K: int):
    """The table ``phi(x; w_k)`` over the class's points for a fixed draw of K parameters."""
    rng = generator(np.random.SeedSequence([_CLASS_SEED, K]))
    if name == "signs":
        inst = class_instance("orthogonal")
        W = inst.family.sample(K, rng)
        return inst.family.psi(inst.support.X, W)
    if name == "fourier":
        X, _ = standardized("breast_cancer")
        family = RandomFourier(X.shape[1], gamma=0.05)
        return family.psi(X, family.sample(K, rng))
    raise ValueError(f"unknown class {name!r}; known: {sorted(RADEMACHER_CLASSES)}")


def trial(config, seed) -> dict:
    """Per (class, K, m): ``sup_{alpha in S} (1/m) sum_i sigma_i f(x_i) = (C/K) sum_k
    |(1/m) sum_i sigma_i phi(x_i; w_k)|`` for one draw of x_1..x_m and sigma (eq. 21-22)."""
    record, C = {}, config["C"]
    for j, (name, K, m) in enumerate(grid(config, "classes", "K", "m")):
        table = _rademacher_class(name, K)
        rng = generator(child(seed, j))
        rows = table[rng.integers(0, table.shape[0], size=m)]
        sigma = np.where(rng.random(m) < 0.5, -1.0, 1.0)
        record[f"{name}/K={K}/m={m}"] = float(C / K * np.abs(sigma @ rows / m).sum())
    return record


def decide(records, config, alpha) -> Verdict:
    """Mean rule: per (class, K, m) the exact-coverage interval of the mean of a variable in
    ``[0, C]`` (:func:`verification.rules.mean_bound`) at ``1 - alpha / G``; violated
    when a lower end exceeds ``C / sqrt(m)``, holds when every upper end is below it."""
    C, points, exact_values = config["C"], [], {}
    for name, K, m in grid(config, "classes", "K", "m"):
        key = f"{name}/K={K}/m={m}"
        points.append(rules.MeanPoint(key=key, values=[r[key] for r in records], bound=fc.rademacher_bound(C, m),
                                      lower=0.0, upper=C, instance={"point": key}))
        if name == "signs":
            exact_values[key] = fc.rademacher_sign_features(C, m)
    exact = {f"m={m}": fc.rademacher_sign_features(C, m) / fc.rademacher_bound(C, m)
             for m in (2, 4, 16, 64, 256, 1024, 4096)}
    return rules.mean_bound(ID, points, alpha,
                            {"exact_signs": exact_values, "exact_signs_ratio_to_bound": exact})


def _rademacher_trials(m_max, C, n_keys, shift_fraction):
    """Trials to detect a mean above the bound by ``shift_fraction`` of the gap between the
    exact +-1 value and C / sqrt(m) at the largest m, with the design power (Hoeffding on
    [0, C], design level split over the points and halved for the mean rule's Hoeffding part)."""
    gap = fc.rademacher_bound(C, m_max) - fc.rademacher_sign_features(C, m_max)
    return statistics.hoeffding_sample_size(0.0, C, shift_fraction * gap, DESIGN_ALPHA / (2 * n_keys),
                                            DESIGN_POWER)


_EQ21_23 = (r"\mathcal{R}_{m}[\hat{\mathcal{F}}_{w}] = \mathbb{E}_{\sigma, X} \sup_{\alpha \in \mathcal{S}} "
            r"\left| \sum_{k=1}^{K} \alpha_{k} \frac{1}{m} \sum_{i=1}^{m} \sigma_{i} \phi(x_{i}; \omega_{k}) "
            r"\right| \le \dots \le \frac{C}{K} \sum_{k=1}^{K} \sqrt{\frac{1}{m}} \le C/\sqrt{m}")
_RM = [2, 8, 32]

register(Claim(
    id=ID, title="The Rademacher complexity of F_w is at most C / sqrt(m)",
    sources=(Source("RKS", "Appendix B, eq. (21)-(23); proof sketch of Lemma 3", _EQ21_23),), rule="mean bound",
    # Hoelder, Jensen and the orthogonality of independent signs are each valid: holds.
    expected=HOLDS,
    # Shifts of the whole gap (quick) and two thirds of it (full) at m = 32.
    configs=profiles({"C": 1.0, "classes": list(RADEMACHER_CLASSES), "K": [1, 16], "m": _RM},
                     smoke={"n_trials": 1500, "m": [2, 8]},
                     quick={"n_trials": functools.partial(_rademacher_trials, 32, 1.0, 12, 1.0)},
                     full={"n_trials": functools.partial(_rademacher_trials, 32, 1.0, 18, 2 / 3), "K": [1, 16, 128]}),
    trial=trial, decide=decide,
    instances="C = 1, the parameters drawn once per (class, K) from a fixed seed (the bound is "
              "for every w); x_i drawn uniformly from the class's points; " + described(RADEMACHER_CLASSES, RADEMACHER_CLASSES),
))
