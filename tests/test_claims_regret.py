"""The regret claims: their instances, exact computations, planted defects and smoke verdicts.

iln.thm1.regret, iln.lemma1.decomposition, iln.eq17.zero_comparator and
iln.cor1.online_to_batch (verification/claims/iln/regret.py).
"""

import dataclasses
import functools
import math

import numpy as np
import pytest

from iln import estimator, theory
from iln.comparator import best_in_ball
from iln.features import RandomCoordinate
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification import catalog
from verification.claims.iln import regret

ALPHA = 1e-3 / 4  # the run's budget shared by the four claims


pytestmark = pytest.mark.usefixtures("one_numba_thread")


def _records(claim, config, n=None, master=0):
    seed = np.random.SeedSequence(master)
    return [claim.trial(config, child(seed, i)) for i in range(config["n_trials"] if n is None else n)]


# ------------------------------------------------------------------------------------------
# Instances
# ------------------------------------------------------------------------------------------


def test_orthogonal_rows_have_the_largest_diagonal_and_zero_cross_kernel():
    seq = regret.sequence("orthogonal", 40, np.random.SeedSequence(0), repeats=4)
    K = seq.family.kernel(seq.X)
    assert np.allclose(np.diag(K), 0.99**2, rtol=0, atol=1e-15)
    distinct = seq.X[:10]
    cross = seq.family.kernel(distinct) - np.diag(np.diag(seq.family.kernel(distinct)))
    assert np.max(np.abs(cross)) < 1e-15  # Hadamard rows are orthogonal up to round-off
    assert np.array_equal(seq.X[10], seq.X[0])  # each row comes back after 10 rounds
    assert set(np.abs(seq.y)) == {1.0}


def test_near_duplicate_inputs_have_large_kernel_values_and_contradictory_labels():
    seq = regret.sequence("near_duplicate", 6, np.random.SeedSequence(0))
    K = seq.family.kernel(seq.X[:2])
    assert K.min() > 0.97
    assert seq.y.tolist() == [1.0, -1.0] * 3


def test_population_best_risk_is_the_weighted_comparator():
    pop = regret.population("noisy_near_duplicate")
    B = 1.0
    w = np.sqrt(pop.p)
    best = best_in_ball(w[:, None] * pop.K * w[None, :], w * pop.y, B)
    # f = sum_j beta_j sqrt(p_j) Phi(x_j): its predictions on the support and its norm.
    coef = best.beta * w
    assert math.isclose(pop.risk(pop.K @ coef), pop.best_risk(B), rel_tol=1e-10)
    assert coef @ pop.K @ coef <= B**2 * (1 + 1e-10)
    # No predictor in the ball does better than the infimum (a grid over the line of the
    # two support points' representers, scaled into the ball).
    for a in np.linspace(-3, 3, 61):
        for b in np.linspace(-3, 3, 61):
            c = np.array([a, 0.0, b, 0.0])
            norm = math.sqrt(c @ pop.K @ c)
            c = c * min(1.0, B / norm) if norm > 0 else c
            assert pop.risk(pop.K @ c) >= pop.best_risk(B) - 1e-12


# ------------------------------------------------------------------------------------------
# Lemma 1's penalty events
# ------------------------------------------------------------------------------------------


def test_penalty_events_agree_with_explicit_feature_vectors():
    # Random coordinates have the explicit feature map Phi(x) = x / sqrt(D): the norms of
    # f_t/4 - f* and hat f - f* are Euclidean norms in R^D, computed here independently.
    seq = regret.sequence("near_duplicate", 64, np.random.SeedSequence(0))
    K = seq.family.kernel(seq.X)
    best = best_in_ball(K, seq.y, 1.0)
    D = seq.X.shape[1]
    eta = 0.2
    seen_event, seen_no_event = False, False
    for s in range(6):
        run = shrinking_gradient(seq.X, seq.y, seq.family, B=1.0, eta=eta, m=1, seed=s,
                                 oracle=seq.family.kernel, record_alpha=True)
        events = regret._shrink_penalty_events(run, K, np.asarray(best.beta), eta)
        f_star = seq.X.T @ best.beta / math.sqrt(D)
        for r in np.flatnonzero(run.trace.shrink):
            f = seq.X.T @ run.alpha_history[r] / math.sqrt(D)
            step = f - eta * (run.trace.estimate[r] - seq.y[r]) * seq.X[r] / math.sqrt(D)
            event = np.linalg.norm(f / 4 - f_star) > np.linalg.norm(step - f_star)
            assert event == (r in events)
            seen_event |= event
            seen_no_event |= not event
        assert set(events) <= set(np.flatnonzero(run.trace.shrink))
    # The instance exercises both outcomes.
    assert seen_event
    assert seen_no_event


# ------------------------------------------------------------------------------------------
# Corollary 1: the closed form of the arXiv counterexample
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("B", "T"), [(1.0, 50), (4.0, 300)])
def test_constant_input_closed_form_is_the_run_of_algorithm1(B, T):
    c = 0.999 / B
    family = RandomCoordinate(1)
    # Every estimate is exact on this input, whatever m: m = 1 gives the same run as m_proof.
    run = shrinking_gradient(np.full((T, 1), c), np.ones(T), family, B=B, m=1, seed=0)
    assert not run.trace.shrink.any()
    prediction = c * c * run.alpha_mean.sum()
    excess = 0.5 * (prediction - 1.0) ** 2 - 0.5 * (1.0 - B * c) ** 2
    assert math.isclose(excess, regret.constant_input_excess(B, T), rel_tol=1e-9)


def test_arxiv_rate_fails_where_the_icml_rate_holds():
    check = regret.arxiv_rate_check(0.3, [1, 256])
    assert check["violated"]
    at_1, at_256 = check["points"]["B=1"], check["points"]["B=256"]
    assert at_1["T_arXiv"] == at_1["T_ICML"] == theory.corollary1_T(1.0, 0.3)
    assert at_256["excess_arXiv"] > 0.3
    assert at_256["excess_ICML"] <= theory.online_to_batch_excess_risk(256.0, at_256["T_ICML"])


# ------------------------------------------------------------------------------------------
# Planted defects are flagged
# ------------------------------------------------------------------------------------------


def _one_grid(config):
    """The smoke configuration cut to the points a defect test needs (one sequence per grid)."""
    return {**config, "rate_sequences": ["orthogonal"], "worst_sequences": ["near_duplicate_constant"],
            "B_grid": [1, 1.5]}


def test_ascent_step_is_flagged_by_the_regret_bound(monkeypatch):
    # The printed (ascent) step's regret is about 20 times the bound; 16 seeds find it at the
    # rule's exact level (4 do not: at level 1 - 1e-5 a range-based bound needs about 10).
    claim = catalog.get("iln.thm1.regret")
    monkeypatch.setattr(regret, "shrinking_gradient", functools.partial(shrinking_gradient, update="printed"))
    config = {**_one_grid(claim.config("smoke")), "n_trials": 16}
    verdict = claim.decide(_records(claim, config), config, ALPHA)
    assert verdict.verdict == "violated"
    assert verdict.counterexample is not None
    assert verdict.pvalue <= ALPHA  # the p-value that Holm sees agrees with the decision


def test_lemma1_at_t64_has_only_a_vast_lower_end_and_says_so(monkeypatch):
    # Lemma 1's statistic regret - rhs has an a-priori lower end (regret.lemma1_lower_end), but
    # at T = 64 it is millions below the bound (the variance and shrink terms a run could
    # have), so a biased estimator, which makes the learner's predictions run away, is not
    # declared a violation at a stated level.  The defect is the business of iln.alg2.unbiased;
    # this claim says why it cannot decide.
    claim = catalog.get("iln.lemma1.decomposition")
    unbiased = estimator.estimate_validated
    monkeypatch.setattr(estimator, "estimate_validated", lambda *a: -unbiased(*a))
    config = {**claim.config("smoke"), "n_trials": 20,
              "settings": [{"sequence": "near_duplicate_constant", "eta": 0.05, "m": 3}]}
    verdict = claim.decide(_records(claim, config), config, ALPHA)
    assert verdict.verdict == "inconclusive"
    rows = verdict.details["points"].values()
    assert all(row["range"][0] < -1e6 and row["min_detectable_ratio"] > 1e3 for row in rows)
    assert "no a-priori upper end" in verdict.details["reason"]


@pytest.mark.parametrize("T", [1, 2, 3, 8])
def test_lemma1_lower_end_holds_on_every_run(T):
    # The premise of the lower end: no run's regret - rhs falls below it, in any setting
    # (the shrinking and the high-variance ones included) and either indexing of the events.
    claim = catalog.get("iln.lemma1.decomposition")
    config = {**claim.config("smoke"), "n_trials": 12, "T": T}
    verdict = claim.decide(_records(claim, config), config, ALPHA)
    rows = verdict.details["points"]
    assert len(rows) == 2 * len(config["settings"])
    for key, row in rows.items():
        assert row["values_outside_range"] == 0, key
        assert math.isfinite(row["range"][0]), key


def test_lemma1_lower_end_at_t2_is_the_bound_less_the_largest_terms():
    # T = 2 on the near-duplicate inputs: a_1 = 0, a_2 = 17 eta, no round can shrink.
    seq = regret.sequence("near_duplicate_constant", 2, np.random.SeedSequence(0))
    K, y, eta = seq.family.kernel(seq.X), seq.y, 0.05
    a_2, k_max = 17 * eta, np.abs(K).max()
    grad_sq = K[0, 0] + (a_2 * k_max + 1) ** 2 * K[1, 1]
    grad_var = (a_2 * (1 + k_max)) ** 2 * K[1, 1]
    expected = -0.25 - (1 / eta + eta * grad_sq + eta * grad_var)
    assert regret.lemma1_lower_end(K, y, 1.0, eta, 3.4, 0.25, 2) == pytest.approx(expected, rel=1e-12)


def test_ascent_step_is_flagged_by_the_excess_risk_bound(monkeypatch):
    claim = catalog.get("iln.cor1.online_to_batch")
    monkeypatch.setattr(regret, "shrinking_gradient", functools.partial(shrinking_gradient, update="printed"))
    config = {**claim.config("smoke"), "n_trials": 16}
    assert claim.decide(_records(claim, config), config, ALPHA).verdict == "violated"


def test_a_comparator_worse_than_zero_is_flagged(monkeypatch):
    def negated(K, y, B):
        # Report the loss of the minimiser's opposite: no longer a minimum.
        best = best_in_ball(K, y, B)
        return dataclasses.replace(best, total_loss=0.5 * float(np.sum((best.predictions + y) ** 2)))

    claim = catalog.get("iln.eq17.zero_comparator")
    monkeypatch.setattr(regret, "best_in_ball", negated)
    config = claim.config("smoke")
    verdict = claim.decide(_records(claim, config, n=1), config, ALPHA)
    assert verdict.verdict == "violated"


# ------------------------------------------------------------------------------------------
# The smoke profile reaches the expected verdicts
# ------------------------------------------------------------------------------------------


def test_smoke_profile_gives_the_expected_verdict():
    claim = catalog.get("iln.eq17.zero_comparator")
    config = claim.config("smoke")
    verdict = claim.decide(_records(claim, config), config, ALPHA)
    assert verdict.verdict == claim.expected
    assert verdict.to_json()["details"]  # JSON-ready


@pytest.mark.parametrize("claim_id", ["iln.thm1.regret", "iln.lemma1.decomposition", "iln.cor1.online_to_batch"])
def test_mean_claims_at_the_smoke_profile_are_undecided_and_say_why(claim_id):
    # A mean bound holds only where an exact interval shows it; the regret's a-priori range
    # is vast, so a few seeds leave it undecided (never "holds" on a bootstrap).
    claim = catalog.get(claim_id)
    config = claim.config("smoke")
    verdict = claim.decide(_records(claim, config), config, ALPHA)
    assert verdict.verdict == "inconclusive"
    assert verdict.details["reason"]
    assert verdict.to_json()["details"]  # JSON-ready


def test_thm1_reports_rates_time_and_the_adaptive_adversary_without_deciding_on_them():
    claim = catalog.get("iln.thm1.regret")
    config = claim.config("smoke")
    details = claim.decide(_records(claim, config), config, ALPHA).details
    assert details["rates"]["T/orthogonal"]["theorem_exponent"] == 0.5
    assert details["rates"]["B/orthogonal"]["theorem_exponent"] == 1.0
    assert details["seconds_section6_largest_T"]["median_s"] > 0
    assert "adaptive" not in "".join(details["points"])
    assert details["a_priori_range"]["high"] > 1e3 * details["a_priori_range"]["bound"]


def test_regret_point_lower_end_is_the_comparators_loss_on_a_fixed_sequence():
    point = regret.regret_point("p", [1.0], 1.0, 256, sequence_name="orthogonal", repeats=256)
    # One row x = 0.99 under one coordinate: the best of the unit ball predicts 0.99.
    assert point.lower == pytest.approx(-256 * 0.01**2 / 2, rel=1e-9)
    assert regret.regret_point("p", [1.0], 1.0, 64, sequence_name="section6").lower == -32
    assert regret.regret_point("p", [1.0], 1.0, 64).lower == -32
