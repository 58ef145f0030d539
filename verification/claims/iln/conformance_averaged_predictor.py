"""The averaged predictor of Corollary 1, and test-time estimates, against their transcription.

Corollary 1 (both versions) outputs ``f_S = (1/T) sum_t f_t`` (ICML prints ``(1/T) sum f_t``,
arXiv ``(1/T) sum_{i=1}^infty f_t``: the hypotheses ``f_1, ..., f_T`` played), and
Theorem 1, part 3 (both versions) estimates ``<f, Phi(x)>`` at a test point by running
Algorithm 2 with ``m`` set by the accuracy ``epsilon`` and confidence ``1 - delta``.  The
shipped :class:`iln.shrinking_gradient.ShrinkingGradientResult` holds ``alpha_mean`` and
``predict(X_new, seed=, epsilon=, delta=, averaged=)``, whose default ``m`` is the two-sided
Hoeffding count :func:`iln.theory.test_time_m_corrected`.  This conformance claim runs
Algorithm 1 at its public defaults and its transcription on shared random numbers, and
holds the shipped ``alpha_mean`` to :func:`iln.reference.shrinking_gradient.averaged_predictor_reference`
and the shipped test-time estimates of ``f_S`` and ``f_{T+1}`` to
:func:`iln.reference.shrinking_gradient.predict_reference` (same seeds, hence the same
estimates exactly when the same ``m`` is drawn): a deterministic invariant.
"""

from __future__ import annotations

from iln.data import section6_data
from iln.features import RandomCoordinate
from iln.random_streams import child
from iln.reference.shrinking_gradient import (
    averaged_predictor_reference,
    predict_reference,
    shrinking_gradient_reference,
)
from iln.shrinking_gradient import shrinking_gradient
from verification.catalog import Claim, Source, profiles, register
from verification.claims.iln.instances import described
from verification.rules.conformance import compare, conformance_decide
from verification.verdicts import HOLDS, Verdict

CLAIM_ID = "iln.conformance.averaged_predictor"

#: the runs: Section 6 data at two radii, every argument of the learner at its default.
AVERAGED_PREDICTOR_RUNS = {
    "B1": "Section 6 data, random coordinates, B = 1, Algorithm 1 at its defaults; test-time "
          "estimates of f_S and f_{T+1} at (epsilon, delta) of the configuration",
    "B2": "as B1 with B = 2",
}


def averaged_trial(config, seed) -> dict:
    """Per run: ``alpha_mean`` and the test-time estimates, shipped against transcribed."""
    record = {}
    for j, name in enumerate(config["runs"]):
        B = float(name[1:])
        data = section6_data(config["T"], config["D"], seed=child(seed, j, 0), n_test=config["n_test"])
        family = RandomCoordinate(config["D"])
        fast = shrinking_gradient(data.X, data.y, family, B=B, seed=child(seed, j, 1))
        ref = shrinking_gradient_reference(data.X, data.y, family, B=B, seed=child(seed, j, 1),
                                           estimator_method=fast.method)
        f_S = averaged_predictor_reference(ref)
        quantities = {"alpha_mean": (fast.alpha_mean, f_S), "alpha": (fast.alpha, ref.alpha[-1])}
        for averaged, alpha in ((True, f_S), (False, ref.alpha[-1])):
            key = "estimates_f_S" if averaged else "estimates_f_T+1"
            quantities[key] = (
                fast.predict(data.X_test, seed=child(seed, j, 2), epsilon=config["epsilon"],
                             delta=config["delta"], averaged=averaged),
                predict_reference(alpha, ref.X, data.X_test, family, seed=child(seed, j, 2),
                                  epsilon=config["epsilon"], delta=config["delta"],
                                  estimator_method=fast.method))
        record[name] = compare(ref.T, quantities)
    return record


def averaged_decide(records, config, alpha) -> Verdict:
    """Deterministic invariant: one coefficient or estimate off its transcription is a violation."""
    return conformance_decide(CLAIM_ID, records, {k: AVERAGED_PREDICTOR_RUNS[k] for k in config["runs"]}, alpha)


_RUN_NAMES = list(AVERAGED_PREDICTOR_RUNS)
_ICML = (r"f_S = \frac{1}{T}\sum_{t=1}^T f_t,\ f_t = \sum_i \alpha_i^{(t)}\Phi(x_i);\ "
         r"\langle f, \Phi(x)\rangle \approx \mathrm{EST\_SCALAR\_PROD}(\alpha, \{x_i\}, x, m)")
register(Claim(
    id=CLAIM_ID, title="Conformance: the averaged predictor f_S of Corollary 1 and the test-time estimates of "
                       "Theorem 1.3 equal their transcription",
    sources=(Source("ICML", "Corollary 1 (f_S); Theorem 1, part 3 (test-time estimate)", _ICML),
             Source("arXiv", "Corollary 1 (f_S, printed (1/T) sum_{i=1}^infty f_t); Theorem 1, part 3", _ICML)),
    rule="deterministic invariant", expected=HOLDS, trial=averaged_trial, decide=averaged_decide,
    configs=profiles({"epsilon": 0.05, "delta": 0.1, "runs": _RUN_NAMES}, smoke={"n_trials": 2, "T": 6, "D": 20, "n_test": 3},
                     quick={"n_trials": 5, "T": 10, "D": 50, "n_test": 5},
                     full={"n_trials": 20, "T": 16, "D": 100, "n_test": 10, "epsilon": 0.02, "delta": 0.05}),
    instances=described(AVERAGED_PREDICTOR_RUNS),
    kind="conformance",
))
