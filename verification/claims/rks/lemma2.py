"""RKS Lemma 2 (eq. 10): some member of F_w has risk within L C / sqrt(K) of any f* in F_p.

With probability at least ``1 - delta`` over ``w_1..w_K ~ p``, ``R[f_hat] <= R[f*] + L C /
sqrt(K) (1 + sqrt(2 log(1/delta)))`` for some ``f_hat`` in F_w: Lemma 1 under ``mu = P_x`` and
the Lipschitz step (11)-(12).

An existence statement.  The trials measure the proof's witness
(:func:`iln.rks.function_class.kitchen_sink_witness`) and, where the witness alone does not settle
every event of the grid, the exact risk minimiser over F_w; the statement's event is the
minimiser's.
"""

from __future__ import annotations

import functools
import math

from iln.random_streams import child, generator
from iln.rks import function_class as fc
from verification import rules
from verification.catalog import Claim, Source, profiles, register
from verification.claims.rks.instances import (
    DESCRIPTIONS,
    atom_columns,
    class_instance,
    described,
    grid,
    largest_risk,
    risk_minimizer,
)
from verification.claims.rks.lemma4 import tail_trials
from verification.verdicts import INCONCLUSIVE, Verdict

ID = "rks.lemma2.risk_approximation"


def z(delta: float) -> float:
    """``1 + sqrt(2 log(1/delta))``: eq. (10) in units of ``L C / sqrt(K)``."""
    return fc.approximation_bound(1.0, 1, delta)


def _member(name, loss, C):
    """f* of Lemma 2: F_p's risk minimiser for the finite instances, the kernel member otherwise."""
    inst = class_instance(name, C)
    if name == "fourier":
        return inst.member
    return risk_minimizer(name, loss, C)[0]


def trial(config, seed) -> dict:
    """Per (instance, loss, K): ``(R[f_hat] - R[f*]) sqrt(K) / (L C)`` for the witness and for the
    exact risk minimiser over F_w (computed only when the witness exceeds the smallest
    threshold of the grid, the witness settles every event of the grid)."""
    record, C = {}, config["C"]
    smallest = z(max(config["delta"]))
    for j, (name, loss, K) in enumerate(grid(config, "instances", "losses", "K")):
        inst, member = class_instance(name, C), _member(name, loss, C)
        W = inst.family.sample(K, generator(child(seed, j)))
        Z = inst.features(W)
        base = inst.support.risk(member.values(inst.support.X), loss)
        scale = math.sqrt(K) / (fc.lipschitz_constant(loss, C) * C)
        witness = scale * (inst.support.risk(Z @ fc.kitchen_sink_witness(member, W), loss) - base)
        best = witness
        if witness > smallest:
            best = min(witness, scale * (inst.support.minimize_risk(Z, C / K, loss)[1] - base))
        record[f"{name}/{loss}/K={K}/witness"] = witness
        record[f"{name}/{loss}/K={K}/best"] = best
    return record


def largest_excess(name: str, loss: str, K: int, which: str, C: float) -> float:
    """The largest ``(R[f] - R[f*]) sqrt(K) / (L C)`` the trial can record for ``which`` member.

    The witness, an average of ``beta(w_k) phi(.; w_k)``, lies in the convex hull of
    ``{beta_j phi_j}`` on a finite instance, where the convex risk is largest at a vertex
    (:func:`~verification.claims.rks.instances.atom_columns`); on the continuous one it is
    bounded by C, so its risk is at most
    :func:`~verification.claims.rks.instances.largest_risk`.  The best member of F_w is no
    worse than the witness's ceiling nor than ``f = 0`` (in F_w), whose risk is ``c(0)``.
    """
    support, member = class_instance(name, C).support, _member(name, loss, C)
    if isinstance(member, fc.AtomMember):
        vertices = atom_columns(name, C) * member.beta
        ceiling = max(support.risk(v, loss) for v in vertices.T)
    else:
        ceiling = largest_risk(name, loss, C)
    if which == "best":
        ceiling = min(ceiling, fc.loss_at_zero(loss))
    return (ceiling - support.risk(member.values(support.X), loss)) * math.sqrt(K) / (fc.lipschitz_constant(loss, C) * C)


def decide(records, config, alpha) -> Verdict:
    """Probability-bound rule at every (instance, loss, K, delta), for the best member of F_w
    (the lemma) and the witness (its proof); the event is ``excess > eps_app``.

    A point whose threshold is at least :func:`largest_excess` cannot fail (at small K).  The
    trial records the witness for the best member where that settles every event, so the best
    member's values are cut at its largest excess (the best member is at most that); the
    witness's are exact and never cut.
    """
    points = []
    for name, loss, K, which, delta in grid(config, "instances", "losses", "K", ("best", "witness"), "delta"):
        largest = largest_excess(name, loss, K, which, config["C"])
        values = [r[f"{name}/{loss}/K={K}/{which}"] for r in records]
        points.append(rules.tail_point(
            f"{name}/{loss}/K={K}/{which}/delta={delta}",
            [min(v, largest) for v in values] if which == "best" else values, z(delta), delta,
            {"instance": name, "loss": loss, "K": K, "member": which, "delta": delta,
             "L": fc.lipschitz_constant(loss, config["C"]), "description": DESCRIPTIONS[name]}, largest=largest))
    return rules.bracketed(ID, points, points, alpha, details={"units": "excess risk * sqrt(K) / (L C)"})


_EQ10 = (r"\mathbf{R}[\hat{f}] \le \mathbf{R}[f^*] + \frac{LC}{\sqrt{K}} \left(1 + "
         r"\sqrt{2\log\frac{1}{\delta}} \right)")
# On the noisy instances no member of F_w can be worse than f = 0, whose excess over f* is
# below the lemma's distance at every K here: the best member's points cannot fail there, and
# the threshold instance (noiseless labels) is where they can (hinge from K = 16 on).
_INSTANCES, _LOSSES = ["orthogonal", "stumps", "threshold", "fourier"], ["quadratic", "hinge"]
_K, _DELTA = [4, 16, 64], [0.5, 0.1]
_POINTS = len(_INSTANCES) * len(_LOSSES) * len(_K) * len(_DELTA) * 2

register(Claim(
    id=ID, title="Lemma 2: some member of F_w has risk within L C / sqrt(K) of any f* in F_p",
    sources=(Source("RKS", "Section 2, Lemma 2, eq. (10)", _EQ10),), rule="probability bound",
    # Lemma 1 under mu = P_x (a probability) and the Lipschitz step (11)-(12): holds; expected
    # inconclusive since issue 41's rule (fixed before the run that decides it): the grid's
    # instances are chosen by hand.
    expected=INCONCLUSIVE,
    unsearched="K >= 1, delta in (0, 1), C, the loss (L-Lipschitz), the input and label law and f* in F_p are a "
               "grid of three instances, two losses, two to three K and one to two delta, not searched",
    # The bracket's two ends share the claim's level: twice the grid's points.
    configs=profiles({"C": 1.0, "instances": _INSTANCES, "losses": _LOSSES, "K": _K, "delta": _DELTA},
                     smoke={"n_trials": 150, "instances": ["orthogonal", "threshold", "fourier"], "K": [4, 32],
                            "delta": [0.5]},
                     quick={"n_trials": functools.partial(tail_trials, _DELTA, 2 * _POINTS, 2.5)},
                     full={"n_trials": functools.partial(tail_trials, _DELTA, 2 * _POINTS, 1.5), "K": [*_K, 256]}),
    trial=trial, decide=decide,
    instances="C = 1; the quadratic loss (1 - y f)^2 with L = 2 (1 + C) = 4, its Lipschitz constant "
              "on the margins [-C, C] that every function of F_p and F_w takes (it is not Lipschitz "
              "on R), and the hinge loss with L = 1; f* = the exact risk minimiser over F_p on the "
              "finite instances, the kernel member on the Fourier one; " + described(_INSTANCES),
))
