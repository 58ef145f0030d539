"""RKS Theorem 1 (eq. 7) with the explicit constants of its proof: the excess risk of Algorithm 1.

With probability at least ``1 - 2 delta`` over the m examples and the K parameters, the output
``f_hat`` of Algorithm 1 (with the constraint ``||alpha||_inf <= C/K`` of eq. 4) satisfies
``R[f_hat] - min_{F_p} R <= 2 eps_est + eps_app`` (eps_est of eq. 13, eps_app of eq. 10).

On the finite instances both sides are exact: ``R[f_hat]`` is a finite sum and ``min_{F_p} R``
is a box-constrained convex problem (:func:`verification.claims.rks.instances.risk_minimizer`).
"""

from __future__ import annotations

import functools

from iln.random_streams import child, generator
from iln.rks import function_class as fc
from iln.rks.kitchen_sinks import random_kitchen_sinks
from verification import rules
from verification.catalog import Claim, Source, profiles, register
from verification.claims.rks.instances import (
    DESCRIPTIONS,
    class_instance,
    described,
    grid,
    largest_member_risk,
    risk_minimizer,
)
from verification.claims.rks.lemma4 import tail_trials
from verification.verdicts import INCONCLUSIVE, Verdict

ID = "rks.thm1.excess_risk"


def trial(config, seed) -> dict:
    """Per (instance, loss, K, m): Algorithm 1's exact excess risk over F_p's minimum."""
    record, C = {}, config["C"]
    for j, (name, loss, K, m) in enumerate(grid(config, "instances", "losses", "K", "m")):
        inst = class_instance(name, C)
        _, X, y = inst.support.draw(m, generator(child(seed, j, 0)))
        fit = random_kitchen_sinks(X, y, inst.family, K=K, seed=child(seed, j, 1), loss=loss, C=C)
        risk = inst.support.risk(inst.features(fit.W) @ fit.alpha, loss)
        record[f"{name}/{loss}/K={K}/m={m}"] = risk - risk_minimizer(name, loss, C)[1]
    return record


def decide(records, config, alpha) -> Verdict:
    """Probability-bound rule at every (instance, loss, K, m, delta): the event is
    ``excess > 2 eps_est + eps_app``, its printed probability ``2 delta``.

    No member of F_w has a risk above
    :func:`~verification.claims.rks.instances.largest_member_risk`, so an excess above it minus
    ``min_{F_p} R`` is impossible: a point whose bound is at least that cannot fail and is not
    counted (at small m or K the bound exceeds it).
    """
    points, C = [], config["C"]
    for name, loss, K, m, delta in grid(config, "instances", "losses", "K", "m", "delta"):
        L, c0 = fc.lipschitz_constant(loss, C), fc.loss_at_zero(loss)
        points.append(rules.tail_point(
            f"{name}/{loss}/K={K}/m={m}/delta={delta}", [r[f"{name}/{loss}/K={K}/m={m}"] for r in records],
            fc.excess_risk_bound(L, C, c0, m, K, delta), 2 * delta,
            {"instance": name, "loss": loss, "L": L, "K": K, "m": m, "delta": delta,
             "description": DESCRIPTIONS[name]},
            largest=largest_member_risk(name, loss, C) - risk_minimizer(name, loss, C)[1]))
    return rules.probability_bound(ID, points, alpha)


_EQ7 = (r"\mathbf{R}[\hat{f}] - \min_{f \in \mathcal{F}_p} \mathbf{R}[f] \le O\left(\left(\frac{1}{\sqrt{m}} "
        r"+ \frac{1}{\sqrt{K}}\right) LC\sqrt{\log \frac{1}{\delta}}\right)\ \text{with probability at "
        r"least } 1-2\delta")
_PROOF = (r"2\epsilon_{est}+\epsilon_{app},\quad \epsilon_{est} = \frac{1}{\sqrt{m}} \left(4LC + 2|c(0)| + "
          r"LC\sqrt{\frac{1}{2}\log\frac{1}{\delta}}\right),\quad \epsilon_{app} = \frac{LC}{\sqrt{K}} "
          r"\left(1 + \sqrt{2 \log \frac{1}{\delta}} \right)")
# The bound is below the largest excess a member of F_w can have only where that excess is
# large: on the noisy instances (orthogonal and stumps: hinge 0.39 and 0.46, quadratic 1.76
# and 1.88) nowhere up to K = 64 and m = 2000, so their points could not fail and are not
# tried; on the threshold instance (noiseless labels: hinge 1.70, quadratic 3.82) from K = 16
# and m = 400 on (hinge) and K = 64 (quadratic).  The smaller K and m show where the theorem
# says nothing.
_INSTANCES, _LOSSES = ["threshold"], ["quadratic", "hinge"]
_K, _M, _DELTA = [4, 16, 64], [100, 400, 2000], [0.25, 0.1]
_M_FULL = sorted([*_M, 1000])
_TWO_DELTA = [2 * delta for delta in _DELTA]
_POINTS = len(_INSTANCES) * len(_LOSSES) * len(_K) * len(_M) * len(_DELTA)

register(Claim(
    id=ID, title="Theorem 1: excess risk of Algorithm 1 over the best of F_p, explicit constants",
    sources=(Source("RKS", "Section 1, Theorem 1, eq. (7)", _EQ7),
             Source("RKS", "Section 2, proof of Theorem 1 (the explicit constants)", _PROOF)),
    rule="probability bound",
    # The union of Lemma 2 (over w) and Lemma 3 used twice (over the data): holds; expected
    # inconclusive since issue 41's rule (fixed before the run that decides it): the grid's
    # instances are chosen by hand (and Lemma 3, which the proof uses, is false as printed:
    # its McDiarmid term has range LC where the loss ranges over 2LC).
    expected=INCONCLUSIVE,
    unsearched="K >= 1, m >= 1, delta in (0, 1), C, the loss and the data law are a grid (one noiseless instance, "
               "two losses, a few K and m), not searched",
    # Detect a tail probability 2 (quick) and 1.5 (full) times the smallest 2 delta.  A trial
    # costs about 1 s, most of it the bounded least squares fits at K = 64 (rank-deficient
    # features: 64 draws from 25 atoms repeat).  Smoke keeps one point that can fail, a cheap
    # hinge one.
    configs=profiles({"C": 1.0, "instances": _INSTANCES, "losses": _LOSSES, "K": _K, "m": _M, "delta": _DELTA},
                     smoke={"n_trials": 40, "losses": ["hinge"], "K": [16], "m": [400], "delta": [0.25]},
                     quick={"n_trials": functools.partial(tail_trials, _TWO_DELTA, _POINTS, 2.0)},
                     full={"n_trials": functools.partial(tail_trials, _TWO_DELTA, _POINTS // len(_M) * len(_M_FULL),
                                                         1.5), "m": _M_FULL}),
    trial=trial, decide=decide,
    instances="Algorithm 1 with the constraint (4) imposed and solved exactly (bounded least squares, "
              "or the hinge linear program), C = 1; the quadratic loss with L = 2 (1 + C) = 4 (its "
              "Lipschitz constant on the margins [-C, C] that F_p and F_w take; it is not Lipschitz on "
              "R) and the hinge loss with L = 1, |c(0)| = 1; min over F_p computed exactly; only the "
              "noiseless instance, since on the noisy ones (orthogonal, stumps) the bound exceeds the "
              "largest excess any member of F_w can have at every K <= 64 and m <= 2000 (hinge 0.39 "
              "and 0.46, quadratic 1.76 and 1.88): no point there could fail; "
              + described(_INSTANCES),
))
