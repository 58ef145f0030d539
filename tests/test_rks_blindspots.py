"""Planted one-line mistakes in RKS's code that no RKS claim flags at smoke (report h17).

Each case is expected to fail today (``xfail(strict=True)``): it documents a blind spot.  When a
claim is strengthened so that it flags the mistake, the case passes and strict xfail turns that
into a failure, the signal to move it to ``PLANTED_EDITS`` in test_claims_conformance.py.

The edits stay planted through ``decide`` as well as the trials: several of them are in the
bound functions of :mod:`iln.rks.function_class`, which the claims call only when deciding
(the ``smoke_verdict`` fixture undoes its edits before deciding, so it cannot see those).
"""

import numpy as np
import pytest

from verification import catalog
from verification.selftest.injection import CodeEdit, apply_all

KS, FC, FE = "iln.rks.kitchen_sinks", "iln.rks.function_class", "iln.features"
CK, TH1, L1, L2, L3, L4, T2, RA = ("rks.conformance.kitchen_sinks", "rks.thm1.excess_risk",
                                   "rks.lemma1.approximation", "rks.lemma2.risk_approximation",
                                   "rks.lemma3.estimation", "rks.lemma4.hilbert_concentration",
                                   "rks.thm2.uniform_deviation", "rks.rademacher.bound")

#: name -> (edit, the claim that should flag it)
BLIND_SPOTS = {
    "ridge_without_m": (CodeEdit(KS, "_least_squares", "s**2 + m * K * ridge", "s**2 + K * ridge"), CK),
    "box_ridge_without_K": (CodeEdit(KS, "_box_least_squares", "math.sqrt(m * K * ridge)",
                                     "math.sqrt(m * ridge)"), CK),
    "hinge_lp_ignores_weights": (CodeEdit(KS, "_weighted_hinge_lp", "c = np.concatenate([np.zeros(K), weights])",
                                          "c = np.concatenate([np.zeros(K), np.full(m, 1.0 / m)])"), L2),
    "stump_threshold_uniform": (CodeEdit(FE, "RandomStump.sample", "t = rng.standard_normal(n)",
                                         "t = rng.uniform(-1.0, 1.0, n)"), CK),
    "stump_never_last_coordinate": (CodeEdit(FE, "RandomStump.sample", "d = rng.integers(0, self.dim, size=n)",
                                             "d = rng.integers(0, self.dim - 1, size=n)"), CK),
    "lipschitz_4C": (CodeEdit(FC, "lipschitz_constant", "2.0 * (1.0 + C)", "4.0 * C"), L2),
    "lipschitz_quadratic_2": (CodeEdit(FC, "lipschitz_constant", "2.0 * (1.0 + C)", "2.0"), L2),
    "loss_at_zero_0": (CodeEdit(FC, "loss_at_zero", "return 1.0", "return 0.0"), L3),
    "hilbert_no_2": (CodeEdit(FC, "hilbert_concentration_bound", "math.sqrt(2.0 * math.log(1.0 / delta))",
                              "math.sqrt(math.log(1.0 / delta))"), L4),
    "hilbert_log_2_over_delta": (CodeEdit(FC, "hilbert_concentration_bound", "math.log(1.0 / delta)",
                                          "math.log(2.0 / delta)"), L4),
    "estimation_2LC": (CodeEdit(FC, "estimation_bound", "4.0 * L * C", "2.0 * L * C"), L3),
    "excess_eps_est_once": (CodeEdit(FC, "excess_risk_bound", "2.0 * estimation_bound", "estimation_bound"), TH1),
    "rademacher_C_squared": (CodeEdit(FC, "rademacher_bound", 'positive_real(C, "C") / math',
                                      'positive_real(C, "C") ** 2 / math'), RA),
    "sign_features_over_sqrt_m": (CodeEdit(FC, "rademacher_sign_features", "stats.binom.pmf(k, m, 0.5)) / m)",
                                           "stats.binom.pmf(k, m, 0.5)) / math.sqrt(m))"), T2),
    "uniform_deviation_2LR": (CodeEdit(FC, "uniform_deviation_bound", "4.0 * L * rademacher",
                                       "2.0 * L * rademacher"), T2),
    "atom_values_uniform_p": (CodeEdit(FC, "AtomMember.values", "(self.family.probabilities * self.beta)",
                                       "(self.beta / self.family.n_atoms)"), L1),
    "atom_sample_ignores_p": (CodeEdit(FC, "AtomFeatures.sample", "size=n, p=self.probabilities)", "size=n)"), L1),
    "risk_labels_swapped": (CodeEdit(FC, "LabelledSupport.risk",
                                     "up * margin_loss(f, loss) + (1.0 - up) * margin_loss(-f, loss)",
                                     "up * margin_loss(-f, loss) + (1.0 - up) * margin_loss(f, loss)"), L2),
    "draw_labels_flipped": (CodeEdit(FC, "LabelledSupport.draw", "np.where(rng.random(m) < up, 1.0, -1.0)",
                                     "np.where(rng.random(m) < up, -1.0, 1.0)"), TH1),
    "draw_never_last_point": (CodeEdit(FC, "LabelledSupport.draw", "rng.integers(0, self.n, size=m)",
                                       "rng.integers(0, self.n - 1, size=m)"), L3),
    "hinge_margin_loss_without_margin": (CodeEdit(FC, "margin_loss", "np.maximum(0.0, 1.0 - z)",
                                                  "np.maximum(0.0, -z)"), L2),
}


def verdict_with_edit_through_decide(claim_id, edit):
    claim = catalog.load()[claim_id]
    config = claim.config("smoke")
    undo = apply_all((edit,))
    try:
        records = [claim.trial(config, np.random.SeedSequence([0, s])) for s in range(config["n_trials"])]
        return claim.decide(records, config, 1e-3 / 30)
    finally:
        undo()


@pytest.mark.system
@pytest.mark.xfail(strict=True, reason="blind spot of the RKS claims at smoke (report h17)")
@pytest.mark.parametrize("name", sorted(BLIND_SPOTS))
def test_planted_mistake_is_flagged(name):
    edit, claim_id = BLIND_SPOTS[name]
    assert verdict_with_edit_through_decide(claim_id, edit).verdict == "violated", name
