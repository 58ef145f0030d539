"""Random Kitchen Sinks as shipped against its transcription of RKS Algorithm 1 (conformance).

:func:`iln.rks.kitchen_sinks.random_kitchen_sinks` and
:func:`iln.rks.reference.kitchen_sinks.random_kitchen_sinks_reference` draw ``w_1, ..., w_K`` from
the same child of the seed, so everything Algorithm 1 determines must agree to rounding: the
features (line 1), the minimum of the empirical risk (3) under the box (4), and, for the
quadratic loss, the fitted values ``alpha^T z_i`` (unique: the risk is strictly convex in
them); the weights ``alpha`` and the output ``f`` at test points where the minimiser is unique
(``Z`` of rank ``K``) or, without the box, the minimum-norm one (the shipped code documents
it, the transcription's ``pinv(Z) y`` is it); with the box, the shipped ``alpha`` must lie in
it exactly.  The hinge loss's minimisers are not unique (a linear program's optimal face), so
for it only the minimum of (3) and the box are compared.  The features are the paper's:
decision stumps ``sign(x_d - t)``, ``d`` uniform, ``t ~ N(0, 1)`` (RKS Section 4;
:class:`iln.features.RandomStump`, scaled by 0.999).

Two claims, because the shipped code's two loss paths relate to RKS differently:

``rks.conformance.kitchen_sinks`` (expected holds).  Algorithm 1 as RKS runs it (quadratic
loss, ``C`` large enough that (4) is inactive: the shipped defaults ``C=None``, ``ridge=0``),
with a box that binds (quadratic and hinge), where (4) must be solved as printed, and the
quadratic loss with the shipped ``ridge`` (without and with the box), against the transcription's
normal equations and faces with the documented penalty ``ridge K ||alpha||^2``.

``rks.conformance.kitchen_sinks_hinge_default`` (expected violated).  With the hinge loss and
no ``C`` the shipped code fits the L2-regularised linear SVM
``1/2 ||alpha||^2 + svm_C sum_i hinge_i`` (``svm_C = 1`` by default), following RKS's gloss
"when c is the hinge loss, it amounts of fitting a *linear* SVM".  RKS's problem with (4)
inactive is (3) alone, which has no regulariser: the SVM's solution minimises (3) plus
``||alpha||^2 / (2 m svm_C)`` and so has a larger hinge risk (3) than (3)'s minimum whenever
the regulariser binds, which on data the features nearly separate is every time (a pilot at
seed 9001, quick profile, found a gap in all 5 runs, the largest 0.045).  The claim compares like with like, the shipped
default's risk (3) against the transcription's minimum of (3) without (4), and reports the gap.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from iln.features import RandomStump
from iln.rks.kitchen_sinks import random_kitchen_sinks
from iln.rks.reference.kitchen_sinks import random_kitchen_sinks_reference
from verification.claims.rks.conformance import register_rks_conformance, rks_conformance_trial
from verification.verdicts import HOLDS, VIOLATED

CLAIM_ID = "rks.conformance.kitchen_sinks"
HINGE_DEFAULT_ID = "rks.conformance.kitchen_sinks_hinge_default"

#: RKS Section 4's practice at the shipped defaults, then the box (4) binding: at C/K = 0.25
#: (quadratic) and 0.5 (hinge) some weights sit on the box in every pilot run.  Then the shipped
#: ``ridge`` (not in RKS: ``ridge K ||alpha||^2`` added to (3), which the scikit-learn estimator
#: uses), without and with the box: appended after the others so that their rows and features
#: stay those of earlier runs; at 1e-3 the penalty ``m K ridge`` (1.6 at smoke) is comparable to
#: the squared singular values of Z it shrinks, so a ridge scaled by anything but ``m K`` moves the
#: fit far beyond the comparison's slack (report h17: no claim ran these paths).
RUNS: dict[str, dict[str, Any]] = {
    "defaults": {"K": 20},
    "box": {"K": 6, "C": 1.5},
    "hinge_box": {"K": 12, "C": 6.0, "loss": "hinge"},
    "ridge": {"K": 20, "ridge": 1e-3},
    "box_ridge": {"K": 6, "C": 1.5, "ridge": 1e-3},
}
#: the hinge loss at the shipped defaults (C=None: the linear SVM with svm_C = 1).
HINGE_DEFAULT_RUNS: dict[str, dict[str, Any]] = {"hinge_defaults": {"K": 20, "loss": "hinge"}}



def _quantities(X, y, X_test, settings, seed) -> tuple[int, dict, dict]:
    family = RandomStump(X.shape[1])
    fast = random_kitchen_sinks(X, y, family, seed=seed, **settings)
    ref = random_kitchen_sinks_reference(X, y, family, seed=seed, **settings)
    pairs = {"features": (fast.W, ref.W), "risk": (fast.train_risk, ref.risk)}
    notes = {"full_rank": ref.full_rank, "risk_gap": float(fast.train_risk - ref.risk)}
    if ref.bound is not None:
        # The excess over the box: the shipped code clips into it, so anything above 0 (beyond
        # the comparison's 1e-9) is a mistake, such as a box of C instead of C/K.
        pairs["box"] = (max(0.0, fast.alpha_inf_norm - ref.bound), 0.0)
        notes["at_bound"] = int(np.sum(np.abs(ref.alpha) >= ref.bound * (1 - 1e-12)))
    if fast.loss == "quadratic":
        pairs["fitted"] = (fast.decision_function(X), ref.Z @ ref.alpha)
        # A ridge makes the minimiser unique whatever the rank (strictly convex in alpha).
        if ref.bound is None or ref.full_rank or settings.get("ridge", 0.0) > 0:
            pairs["alpha"] = (fast.alpha, ref.alpha)
            pairs["f_test"] = (fast.decision_function(X_test), ref.decision_function(X_test, family))
    return X.shape[0], pairs, notes


def kitchen_sinks_trial(config, seed) -> dict:
    """Each run of :data:`RUNS` on fresh rows, shipped against transcribed."""
    return rks_conformance_trial(config, seed, RUNS, _quantities)


def hinge_default_trial(config, seed) -> dict:
    """The hinge loss at the shipped defaults against the minimum of (3) without (4)."""
    return rks_conformance_trial(config, seed, HINGE_DEFAULT_RUNS, _quantities)


_ALG1 = (r"w_1,\dots,w_K \overset{iid}{\sim} p;\ z_i = [\phi(x_i; w_1),\dots,\phi(x_i; w_K)]^\top;\ "
         r"\min_{\alpha\in\mathbb{R}^K} \tfrac1m\sum_{i=1}^m c(\alpha^\top z_i, y_i)\ "
         r"\text{s.t. } \|\alpha\|_\infty \le C/K")
register_rks_conformance(
    CLAIM_ID,
    title="Conformance: Random Kitchen Sinks equals its transcription of Algorithm 1 (shared "
          "features, the minimum of (3) under (4), fitted values, weights where unique)",
    statement=_ALG1,
    location="Algorithm 1, eq. (3)-(4); Section 4 (quadratic loss, C large enough that (4) is inactive)",
    runs=RUNS, expected=HOLDS,
    trial=kitchen_sinks_trial,
    instances_note="the paper's decision stumps; the shipped defaults (quadratic loss, no box, "
                   "no ridge), boxes C/K = 0.25 (quadratic) and 0.5 (hinge) that bind, and the "
                   "shipped ridge 1e-3 without and with the quadratic box",
)

register_rks_conformance(
    HINGE_DEFAULT_ID,
    title="Conformance: the hinge loss at the shipped defaults (a linear SVM) does not minimise "
          "Algorithm 1's empirical risk (3)",
    statement=_ALG1 + r"\ \text{(C large: (4) inactive); ``it amounts of fitting a linear SVM''}",
    location="Algorithm 1, eq. (3)-(4), and the sentence below it (the hinge loss, C large)",
    runs=HINGE_DEFAULT_RUNS, expected=VIOLATED,
    trial=hinge_default_trial,
    instances_note="the paper's decision stumps, hinge loss, every other argument at its default "
                   "(C=None: scikit-learn's LinearSVC with svm_C = 1); the transcription minimises "
                   "(3) with (4) dropped",
)
