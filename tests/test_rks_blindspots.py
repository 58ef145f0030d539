"""Planted one-line mistakes in RKS's code that no RKS claim flagged at smoke (report h17), and
the check that flags each now.

Each case names its detector and is planted here (:func:`~verification.selftest.injection.apply_all`
through ``edits_applied``) to show that the detector fails on it:

* a claim: its smoke verdict, with the edit planted through the trials and the decision (the
  ``smoke_verdict`` fixture), is violated.  The ridge paths of Algorithm 1, which no claim ran,
  are now runs of ``rks.conformance.kitchen_sinks``;
* a test function: it passes on the shipped code and raises ``AssertionError`` with the edit
  planted.  The bound functions of :mod:`iln.rks.function_class` are pinned to RKS's printed
  equations by unit tests (tests/test_rks_bound_formulas.py): the claims compare observations
  with bounds that are loose, and a wrong constant leaves them loose.  Samplers, the exact risk
  and members of F_p, and the weighted hinge minimum are checked against independent references
  (tests/test_rks_exact_instances.py): a claim decides on a law by its trials, a mistake in the
  law of a sampler moves its observations well inside the claims' bounds.

A case that no check flags would stay here as a strict xfail with its reason; none does.
"""

from functools import partial

import pytest
import test_rks_bound_formulas as formulas
import test_rks_exact_instances as exact

from verification.selftest.injection import CodeEdit, edits_applied

KS, FC, FE = "iln.rks.kitchen_sinks", "iln.rks.function_class", "iln.features"
CONFORMANCE = "rks.conformance.kitchen_sinks"

#: name -> (edit, detector: a claim id, or a test function that takes no argument)
BLIND_SPOTS = {
    "ridge_without_m": (CodeEdit(KS, "_least_squares", "s**2 + m * K * ridge", "s**2 + K * ridge"), CONFORMANCE),
    "box_ridge_without_K": (CodeEdit(KS, "_box_least_squares", "math.sqrt(m * K * ridge)",
                                     "math.sqrt(m * ridge)"), CONFORMANCE),
    "hinge_lp_ignores_weights": (CodeEdit(KS, "_weighted_hinge_lp", "c = np.concatenate([np.zeros(K), weights])",
                                          "c = np.concatenate([np.zeros(K), np.full(m, 1.0 / m)])"),
                                 partial(exact.test_weighted_hinge_minimum_is_the_enumerated_one, 0)),
    "stump_threshold_uniform": (CodeEdit(FE, "RandomStump.sample", "t = rng.standard_normal(n)",
                                         "t = rng.uniform(-1.0, 1.0, n)"),
                                exact.test_stump_parameters_follow_the_papers_law),
    "stump_never_last_coordinate": (CodeEdit(FE, "RandomStump.sample", "d = rng.integers(0, self.dim, size=n)",
                                             "d = rng.integers(0, self.dim - 1, size=n)"),
                                    exact.test_stump_parameters_follow_the_papers_law),
    "lipschitz_4C": (CodeEdit(FC, "lipschitz_constant", "2.0 * (1.0 + C)", "4.0 * C"),
                     partial(formulas.test_lipschitz_constants_are_the_largest_slopes_on_the_margins, 3.0)),
    "lipschitz_quadratic_2": (CodeEdit(FC, "lipschitz_constant", "2.0 * (1.0 + C)", "2.0"),
                              partial(formulas.test_lipschitz_constants_are_the_largest_slopes_on_the_margins, 0.5)),
    "loss_at_zero_0": (CodeEdit(FC, "loss_at_zero", "return 1.0", "return 0.0"),
                       formulas.test_loss_at_zero_is_c_of_zero),
    "hilbert_no_2": (CodeEdit(FC, "hilbert_concentration_bound", "math.sqrt(2.0 * math.log(1.0 / delta))",
                              "math.sqrt(math.log(1.0 / delta))"), formulas.test_hilbert_concentration_by_hand),
    "hilbert_log_2_over_delta": (CodeEdit(FC, "hilbert_concentration_bound", "math.log(1.0 / delta)",
                                          "math.log(2.0 / delta)"), formulas.test_hilbert_concentration_by_hand),
    "estimation_2LC": (CodeEdit(FC, "estimation_bound", "4.0 * L * C", "2.0 * L * C"),
                       formulas.test_estimation_excess_and_uniform_deviation_by_hand),
    "excess_eps_est_once": (CodeEdit(FC, "excess_risk_bound", "2.0 * estimation_bound", "estimation_bound"),
                            formulas.test_estimation_excess_and_uniform_deviation_by_hand),
    "rademacher_C_squared": (CodeEdit(FC, "rademacher_bound", 'positive_real(C, "C") / math',
                                      'positive_real(C, "C") ** 2 / math'),
                             partial(formulas.test_rademacher_bound_is_eq23, 0.5, 4)),
    "sign_features_over_sqrt_m": (CodeEdit(FC, "rademacher_sign_features", "stats.binom.pmf(k, m, 0.5)) / m)",
                                           "stats.binom.pmf(k, m, 0.5)) / math.sqrt(m))"),
                                  partial(formulas.test_rademacher_of_sign_features_is_the_enumerated_eq21, 3.0, 4)),
    "uniform_deviation_2LR": (CodeEdit(FC, "uniform_deviation_bound", "4.0 * L * rademacher",
                                       "2.0 * L * rademacher"),
                              formulas.test_estimation_excess_and_uniform_deviation_by_hand),
    "atom_values_uniform_p": (CodeEdit(FC, "AtomMember.values", "(self.family.probabilities * self.beta)",
                                       "(self.beta / self.family.n_atoms)"),
                              exact.test_atom_member_values_are_the_p_weighted_sum),
    "atom_sample_ignores_p": (CodeEdit(FC, "AtomFeatures.sample", "size=n, p=self.probabilities)", "size=n)"),
                              exact.test_atom_sample_follows_p),
    "risk_labels_swapped": (CodeEdit(FC, "LabelledSupport.risk",
                                     "up * margin_loss(f, loss) + (1.0 - up) * margin_loss(-f, loss)",
                                     "up * margin_loss(-f, loss) + (1.0 - up) * margin_loss(f, loss)"),
                            exact.test_risk_is_the_expected_loss_over_both_labels),
    "draw_labels_flipped": (CodeEdit(FC, "LabelledSupport.draw", "np.where(rng.random(m) < up, 1.0, -1.0)",
                                     "np.where(rng.random(m) < up, -1.0, 1.0)"),
                            exact.test_draw_follows_the_distribution),
    "draw_never_last_point": (CodeEdit(FC, "LabelledSupport.draw", "rng.integers(0, self.n, size=m)",
                                       "rng.integers(0, self.n - 1, size=m)"),
                              exact.test_draw_follows_the_distribution),
    "hinge_margin_loss_without_margin": (CodeEdit(FC, "margin_loss", "np.maximum(0.0, 1.0 - z)",
                                                  "np.maximum(0.0, -z)"),
                                         formulas.test_margin_losses_are_the_printed_ones),
}
CLAIM_CASES = sorted(name for name, (_, detector) in BLIND_SPOTS.items() if isinstance(detector, str))
TEST_CASES = sorted(set(BLIND_SPOTS) - set(CLAIM_CASES))


@pytest.mark.system
@pytest.mark.parametrize("name", CLAIM_CASES)
def test_planted_mistake_is_flagged_by_its_claim(name, smoke_verdict):
    edit, claim_id = BLIND_SPOTS[name]
    verdict = smoke_verdict(claim_id, edits=(edit,))
    assert verdict.verdict == "violated", (name, verdict.details)


@pytest.mark.parametrize("name", TEST_CASES)
def test_planted_mistake_is_flagged_by_its_test(name):
    edit, detector = BLIND_SPOTS[name]
    detector()  # it passes on the shipped code...
    with edits_applied((edit,)), pytest.raises(AssertionError):
        detector()  # ...and fails with the mistake planted
