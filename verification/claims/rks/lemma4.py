"""RKS Lemma 4 (eq. 16): averages of bounded vectors concentrate in a Hilbert space.

For K iid vectors in the ball of radius M, ``P[||X_bar - E X_bar|| > M/sqrt(K) (1 + sqrt(2
log(1/delta)))] <= delta`` (eq. 16; eq. 20 is the same event written as McDiarmid's tail).
The lemma behind Lemma 1's proof; :func:`tail_trials` plans the trials of every tail bound
of the package.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from iln.random_streams import child, generator
from iln.rks import function_class as fc
from verification import rules, statistics
from verification.catalog import DESIGN_ALPHA, DESIGN_POWER, Claim, Source, profiles, register
from verification.claims.rks.instances import described, grid
from verification.verdicts import HOLDS, Verdict

ID = "rks.lemma4.hilbert_concentration"
#: vector laws in the unit ball (M = 1), each pushing against eq. (16) in its own way.
VECTOR_LAWS = {
    "two_point": "x = +-M with probability 1/2 on a line: |x - E x| = M always, the bounded "
                 "differences of eq. (17) are attained and the average is a scaled Rademacher sum",
    "spikes": "x uniform on the 64 orthonormal vectors M e_1, ..., M e_64 (nearly orthogonal "
              "summands): E||X_bar - E X_bar||^2 = (M^2 - M^2/64)/K, close to eq. (19)'s M^2/K",
    "skewed": "x = +M with probability 0.95, -M with probability 0.05: a rare large deviation, "
              "where McDiarmid's sub-Gaussian tail is furthest from the variance",
}


#: the largest ``||X_bar - E X_bar|| / M`` of each law over every outcome (all K draws at the
#: point farthest from the mean): eq. (16)'s event is impossible where its threshold is above.
LARGEST_DEVIATION = {"two_point": 1.0, "skewed": 1.9, "spikes": math.sqrt(1 - 1 / 64)}


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


def trial(config, seed) -> dict:
    """Per (law, K): ``sqrt(K) ||X_bar - E X_bar|| / M``, each from its own child seed."""
    return {f"{law}/K={K}": math.sqrt(K) * _deviation(law, K, generator(child(seed, j)))
            for j, (law, K) in enumerate(grid(config, "laws", "K"))}


def decide(records, config, alpha) -> Verdict:
    """Probability-bound rule at every (law, K, delta): the event is eq. (16)'s, the bound delta.

    The normalised deviation exceeds ``1 + sqrt(2 log(1/delta))`` exactly when the distance
    exceeds :func:`iln.rks.function_class.hilbert_concentration_bound`.  Details carry eq. (19)'s
    mean, ``E f <= M / sqrt(K)``, per (law, K).  At K = 1 every law's largest deviation is below
    the threshold at every delta of the grid: those points cannot fail and are not counted.
    """
    points, means = [], {}
    for law, K, delta in grid(config, "laws", "K", "delta"):
        values = [r[f"{law}/K={K}"] for r in records]
        means[f"{law}/K={K}"] = float(np.mean(values))
        threshold = fc.hilbert_concentration_bound(1.0, K, delta) * math.sqrt(K)
        points.append(rules.tail_point(f"{law}/K={K}/delta={delta}", values, threshold, delta,
                                       {"law": law, "K": K, "delta": delta, "description": VECTOR_LAWS[law]},
                                       largest=math.sqrt(K) * LARGEST_DEVIATION[law]))
    return rules.probability_bound(ID, points, alpha, details={"mean_sqrtK_deviation_eq19_bound_1": means})


def tail_trials(probabilities, n_events, ratio):
    """Trials to detect a tail ``ratio`` times the smallest of ``probabilities`` (the printed
    bounds) with the design power, at the design level split over ``n_events`` events (the
    grid's points, times the checks or bracket ends that share the claim's level)."""
    p0 = min(probabilities)
    return statistics.binomial_sample_size(p0, DESIGN_ALPHA / n_events, DESIGN_POWER, min(0.99, ratio * p0))


_EQ16 = (r"\|\overline{\mathbf{X}} - \mathbb{E}\overline{\mathbf{X}}\| \le \frac{M}{\sqrt{K}} "
         r"\left(1 + \sqrt{2\log\frac{1}{\delta}}\right)\ \text{with probability at least } 1 - \delta")
_EQ20 = (r"\Pr_{\mathbf{X}} \left[f(\mathbf{X}) - \frac{M}{\sqrt{K}} \ge \epsilon \right] \le "
         r"\Pr_{\mathbf{X}} \left[f(\mathbf{X}) - \mathbb{E} f(\mathbf{X}) \ge \epsilon\right] \le "
         r"\exp\left(-\frac{K\epsilon^2}{2M^2} \right)")
_K, _DELTA = [1, 4, 16, 64], [0.5, 0.1, 0.02]
_POINTS = len(VECTOR_LAWS) * len(_K) * len(_DELTA)

register(Claim(
    id=ID, title="Averages of bounded vectors concentrate in a Hilbert space (Lemma 4)",
    sources=(Source("RKS", "Appendix A, Lemma 4, eq. (16)", _EQ16),
             Source("RKS", "Appendix A, proof of Lemma 4, eq. (20) (McDiarmid's step)", _EQ20)),
    rule="probability bound",
    # McDiarmid with differences 2M/K (eq. 17) and Jensen (eq. 19) are both valid: holds.
    expected=HOLDS,
    # Detect a tail 2 (quick) and 1.5 (full) times the smallest delta.
    configs=profiles({"laws": list(VECTOR_LAWS), "K": _K, "delta": _DELTA},
                     smoke={"n_trials": 300, "K": [1, 16], "delta": [0.5, 0.1]},
                     quick={"n_trials": functools.partial(tail_trials, _DELTA, _POINTS, 2.0)},
                     full={"n_trials": functools.partial(tail_trials, _DELTA, _POINTS, 1.5), "K": [*_K, 256]}),
    trial=trial, decide=decide, instances="M = 1; " + described(VECTOR_LAWS, VECTOR_LAWS),
))
