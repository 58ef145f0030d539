"""The conformance claims: the shipped code against iln.reference, and the defects they catch."""

import numpy as np
import pytest

from iln.random_streams import child
from iln.rks.reference.adaboost import best_stump, weighted_error
from verification import catalog
from verification.rules.conformance import compare
from verification.selftest import defects
from verification.selftest.injection import CodeEdit

CONFORMANCE = ["iln.conformance.alg1", "iln.conformance.alg1_law", "iln.conformance.averaged_predictor",
               "iln.conformance.fixed_random", "iln.conformance.dsgd", "iln.conformance.kernel_ogd",
               "rks.conformance.kitchen_sinks", "rks.conformance.adaboost"]
#: conformance claims whose comparison fails on the shipped code: findings, expected violated.
FINDINGS = ["rks.conformance.kitchen_sinks_hinge_default", "rks.conformance.adaboost_weak_learner"]

#: each planted defect of Algorithm 1 or a baseline, and the conformance claim that flags it.
CAUGHT_BY = {
    "alg1_ascent_step": "iln.conformance.alg1",
    "alg1_no_shrink": "iln.conformance.alg1",
    "alg1_shrink_boundary": "iln.conformance.alg1",
    "alg1_threshold_without_B": "iln.conformance.alg1",
    "alg1_predict_printed_m": "iln.conformance.averaged_predictor",
    "dsgd_constant_step": "iln.conformance.dsgd",
    "fixed_random_resampled": "iln.conformance.fixed_random",
}


def test_the_conformance_claims_are_marked_apart_from_the_statements():
    claims = catalog.load()
    assert {c for c in claims if claims[c].kind == "conformance"} == set(CONFORMANCE + FINDINGS)
    assert claims["iln.alg1.rule"].kind == "statement"
    assert {c for c in claims if claims[c].kind == "exploration"} == {c for c in claims if ".explore." in c}
    with pytest.raises(ValueError, match="kind"):
        catalog.Claim(id="x", title="x", sources=(), rule="r", expected="holds",
                      configs={p: {"n_trials": 1} for p in catalog.PROFILES},
                      trial=None, decide=None, kind="proof")


@pytest.mark.parametrize("claim_id", CONFORMANCE)
def test_each_conformance_claim_holds_on_the_shipped_code_at_smoke(claim_id, smoke_verdict):
    verdict = smoke_verdict(claim_id)
    assert verdict.verdict == "holds", verdict.details
    assert verdict.can_fail


@pytest.mark.parametrize("claim_id", FINDINGS)
def test_each_finding_is_violated_on_the_shipped_code_at_smoke(claim_id, smoke_verdict):
    assert catalog.load()[claim_id].expected == "violated"
    verdict = smoke_verdict(claim_id)
    assert verdict.verdict == "violated", verdict.details
    assert verdict.counterexample["quantities_off"] in (["risk"], ["stump_errors"])


def test_the_box_runs_of_kitchen_sinks_reach_the_box_and_the_defaults_use_none():
    claim = catalog.load()["rks.conformance.kitchen_sinks"]
    record = claim.trial(claim.config("smoke"), np.random.SeedSequence([0, 0]))
    assert record["box"]["at_bound"] > 0
    assert record["hinge_box"]["at_bound"] > 0
    assert record["box_ridge"]["at_bound"] > 0
    # With a ridge the weights are unique, so they are compared with the box too.
    assert {"alpha", "f_test", "fitted"} <= set(record["box_ridge"]["deviations"])
    assert "box" not in record["defaults"]["deviations"]
    # The minimum-norm weights and the test-point outputs are compared at the defaults.
    assert {"alpha", "f_test", "fitted"} <= set(record["defaults"]["deviations"])


def test_the_hinge_default_gap_is_the_svm_regulariser_not_the_features():
    claim = catalog.load()["rks.conformance.kitchen_sinks_hinge_default"]
    run = claim.trial(claim.config("smoke"), np.random.SeedSequence([0, 0]))["hinge_defaults"]
    assert run["deviations"]["features"] == 0.0
    assert run["risk_gap"] > 1e-3


def _weighted_gini(h, y, D):
    """Weighted Gini impurity of the two sides of a stump, what scikit-learn's trees minimise."""
    total = 0.0
    for side in (h > 0, h <= 0):
        weight = D[side].sum()
        if weight > 0:
            p = D[side & (y > 0)].sum() / weight
            total += weight * 2 * p * (1 - p)
    return total


def test_the_weak_learner_gap_is_the_gini_criterion():
    # Wherever a shipped stump errs more than the least-error stump, it has the smaller Gini
    # impurity: the two criteria disagree, the loop does not.
    from verification.claims.rks.conformance import CONFIGS, sample_rows
    from verification.claims.rks.conformance_adaboost import replay

    seed = np.random.SeedSequence([0, 0])
    X, y, _ = sample_rows(CONFIGS["smoke"], child(seed, 1, 0))
    fast, ref = replay(X, y, {"n_estimators": 30}, child(seed, 1, 1))
    worse = 0
    for t, D in enumerate(ref.distributions):
        shipped, least = fast.model.estimators_[t].predict(X), best_stump(X, y, D)(X)
        if weighted_error(shipped, y, D) > weighted_error(least, y, D) + 1e-12:
            worse += 1
            assert _weighted_gini(shipped, y, D) <= _weighted_gini(least, y, D) + 1e-12
    assert worse > 0


#: mistakes a reimplementation of a learner could contain, each with the claim that flags it and
#: the quantity it puts off (not in the self-test's catalog, whose campaign they would change;
#: planted here directly).
PLANTED_EDITS = {
    "box_without_1_over_K": (CodeEdit("iln.rks.kitchen_sinks", "random_kitchen_sinks",
                                      "_box_least_squares, Z, y, chosen, K, C / K)",
                                      "_box_least_squares, Z, y, chosen, K, C)"),
                             "rks.conformance.kitchen_sinks", "box"),
    "hinge_box_without_1_over_K": (CodeEdit("iln.rks.kitchen_sinks", "random_kitchen_sinks",
                                            "_hinge_lp, Z, y, C / K)", "_hinge_lp, Z, y, C)"),
                                   "rks.conformance.kitchen_sinks", "box"),
    "ridge_always_on": (CodeEdit("iln.rks.kitchen_sinks", "random_kitchen_sinks",
                                 "alpha, chosen = _least_squares(Z, y, ridge, K)",
                                 "alpha, chosen = _least_squares(Z, y, ridge + 1e-3, K)"),
                        "rks.conformance.kitchen_sinks", "risk"),
    "adaboost_shrinkage": (CodeEdit("iln.rks.kitchen_sinks", "adaboost_stumps",
                                    "n_estimators=n_estimators,\n",
                                    "n_estimators=n_estimators, learning_rate=0.5,\n"),
                           "rks.conformance.adaboost", "alphas"),
    "adaboost_one_round_short": (CodeEdit("iln.rks.kitchen_sinks", "adaboost_stumps",
                                          "n_estimators=n_estimators,\n",
                                          "n_estimators=max(1, n_estimators - 1),\n"),
                                 "rks.conformance.adaboost", "rounds"),
    "kernel_ogd_ascent_step": (CodeEdit("iln.baselines.kernel_ogd", "_descend",
                                        "a = -eta * (predictions[t] - y[t])", "a = eta * (predictions[t] - y[t])"),
                               "iln.conformance.kernel_ogd", "predictions"),
    "kernel_ogd_norm_without_the_new_term": (CodeEdit("iln.baselines.kernel_ogd", "_descend",
                                                      "+ a * a * row[t], 0.0)", ", 0.0)"),
                                             "iln.conformance.kernel_ogd", "projected"),
    "kernel_ogd_projects_the_last_coefficient_only": (CodeEdit("iln.baselines.kernel_ogd", "_descend",
                                                               "alpha[: t + 1] *= B", "alpha[t] *= B"),
                                                      "iln.conformance.kernel_ogd", "alpha"),
    "kernel_ogd_radius_not_squared": (CodeEdit("iln.baselines.kernel_ogd", "_descend",
                                               "norm_sq > B * B", "norm_sq > B"),
                                      "iln.conformance.kernel_ogd", "projected"),
    "fixed_random_projects_onto_the_unit_sphere": (CodeEdit("iln.baselines.fixed_random", "_online",
                                                            "theta *= B / norm", "theta *= 1.0 / norm"),
                                                   "iln.conformance.fixed_random", "theta"),
    # theta and every prediction stay right; only the result's record of ||theta_t|| is off.
    "fixed_random_norm_recorded_before_the_projection": (
        CodeEdit("iln.baselines.fixed_random", "_online", "            norm = B\n", "            pass\n"),
        "iln.conformance.fixed_random", "theta_norm"),
    # Algorithm 1's trace, which the lemma claims read, kept by updates beside alpha: each
    # mistake leaves every alpha^(t) right.
    "alg1_l1_norm_without_the_new_coefficient": (
        CodeEdit("iln.shrinking_gradient", "shrinking_gradient", "alpha_l1[t + 1] = np.abs(alpha[: t + 1]).sum()",
                 "alpha_l1[t + 1] = np.abs(alpha[:t]).sum()"),
        "iln.conformance.alg1", "alpha_l1"),
    "alg1_norm_cross_term_without_2": (
        CodeEdit("iln.shrinking_gradient", "shrinking_gradient", "f_norm_sq[t] + 2.0 * step[t] * inner[t]",
                 "f_norm_sq[t] + step[t] * inner[t]"),
        "iln.conformance.alg1", "f_norm_sq"),
    "alg1_norm_shrunk_by_a_quarter_not_a_sixteenth": (
        CodeEdit("iln.shrinking_gradient", "shrinking_gradient", "f_norm_sq[t] * shrink_factor**2",
                 "f_norm_sq[t] * shrink_factor"),
        "iln.conformance.alg1", "f_norm_sq"),
    "alg1_loss_without_one_half": (
        CodeEdit("iln.shrinking_gradient", "shrinking_gradient", "loss_exact=0.5 * (inner - played) ** 2,",
                 "loss_exact=(inner - played) ** 2,"),
        "iln.conformance.alg1", "loss_exact"),
}


@pytest.mark.parametrize("name", sorted(PLANTED_EDITS))
def test_each_planted_mistake_of_a_learner_is_flagged(name, smoke_verdict):
    edit, claim_id, quantity = PLANTED_EDITS[name]
    verdict = smoke_verdict(claim_id, edits=(edit,))
    assert verdict.verdict == "violated", (name, verdict.details)
    assert quantity in verdict.counterexample["quantities_off"]


def test_the_runs_of_alg1_reach_the_shrink_branch_its_band_and_the_tie():
    claim = catalog.load()["iln.conformance.alg1"]
    record = claim.trial(claim.config("smoke"), np.random.SeedSequence([0, 0]))
    assert record["defaults_B1"]["shrinks"] == 0  # why the explicit runs exist
    assert record["large_step"]["shrinks"] > 0
    assert record["large_step"]["estimates_in_16_to_16B"] > 0
    assert record["tie"]["shrinks"] == 1


@pytest.mark.parametrize(("defect", "claim_id"), sorted(CAUGHT_BY.items()))
def test_each_planted_defect_of_algorithm1_or_a_baseline_is_flagged(defect, claim_id, smoke_verdict):
    verdict = smoke_verdict(claim_id, edits=defects.get(defect).edits)
    assert verdict.verdict == "violated", (defect, verdict.details)
    assert verdict.counterexample["quantities_off"]


def test_the_law_claim_sees_estimates_made_from_a_quarter_of_the_samples(smoke_verdict):
    # The shipped code drawing m // 4 samples while reporting m: the spread share drops from
    # about 0.68 to about 0.38, past what 400 trials resolve.
    edit = CodeEdit("iln.shrinking_gradient", "shrinking_gradient",
                    "E = estimator.estimate_validated(past, X[:t], X[t], m, family,",
                    "E = estimator.estimate_validated(past, X[:t], X[t], m // 4, family,")
    verdict = smoke_verdict("iln.conformance.alg1_law", edits=(edit,), n_trials=400)
    assert verdict.verdict == "violated", verdict.details
    assert verdict.counterexample["point"] == "spread"


def test_compare_counts_a_nan_or_a_shape_change_as_off():
    record = compare(3, {"a": (np.array([1.0, np.nan]), np.array([1.0, 2.0])),
                         "b": (np.zeros(2), np.zeros(3)), "c": (1.0, 1.0 + 1e-12)})
    assert record["off"] == ["a", "b"]


def test_list_shows_the_kind(capsys):
    from verification import cli

    assert cli.main(["list"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("iln.conformance.dsgd "))
    assert "conformance" in line.split()[1]
