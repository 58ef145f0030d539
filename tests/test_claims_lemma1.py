"""iln.lemma1.decomposition: the exact law of Algorithms 1 and 2 on finite feature laws (against
brute-force enumeration and a large seeded Monte Carlo of the shipped code), Lemma 1's exact
terms, the smoke verdict and a planted mistake."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from iln.comparator import best_in_ball
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification.claims.iln import finite_laws, lemma1
from verification.claims.iln.instances import sequence
from verification.selftest.injection import CodeEdit
from verification.verdicts import INCONCLUSIVE, VIOLATED

ALPHA = 1e-3 / 4  # the run's budget shared by the four claims


pytestmark = pytest.mark.usefixtures("one_numba_thread")


def test_penalty_events_agree_with_explicit_feature_vectors():
    # Random coordinates have the explicit feature map Phi(x) = x / sqrt(D): the norms of
    # f_t/4 - f* and hat f - f* are Euclidean norms in R^D, computed here independently.
    seq = sequence("near_duplicate", 64, np.random.SeedSequence(0))
    K = seq.family.kernel(seq.X)
    best = best_in_ball(K, seq.y, 1.0)
    D = seq.X.shape[1]
    eta = 0.2
    seen_event, seen_no_event = False, False
    for s in range(6):
        run = shrinking_gradient(seq.X, seq.y, seq.family, B=1.0, eta=eta, m=1, seed=s,
                                 oracle=seq.family.kernel, record_alpha=True)
        events = lemma1.shrink_penalty_events(run, K, np.asarray(best.beta), eta)
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


@pytest.mark.parametrize("name", list(lemma1.LAWS))
@pytest.mark.parametrize("m", [1, 2, 3])
def test_the_estimate_s_law_is_the_brute_force_enumeration_of_its_draws(name, m):
    # Every sequence of m draws (index i with probability |alpha_i| / ||alpha||_1, atom w_j of mu),
    # each term sgn(alpha_i) psi(x_i; w_j) psi(x; w_j), E = ||alpha||_1 / m times their sum.
    law = lemma1.finite_law_instances()[name][0]
    alpha = [(0, Fraction(3, 4)), (law.inputs - 1, Fraction(-1, 2)), (0, Fraction(1, 8))]
    state = finite_laws.empty_state(law)
    for k, a in alpha:
        slot = 2 * k + (a < 0)
        state = (*state[:slot], state[slot] + abs(a), *state[slot + 1:])
    l1 = sum(abs(a) for _, a in alpha)
    draws = [(Fraction(abs(a)) / l1 * w, (1 if a > 0 else -1) * row[k] * row[law.inputs - 1])
             for k, a in alpha for w, row in zip(law.weights, law.psi, strict=True)]
    brute: dict = {}
    for combo in itertools.product(draws, repeat=m):
        value = l1 / m * sum(term for _, term in combo)
        brute[value] = brute.get(value, Fraction(0)) + math.prod((p for p, _ in combo), start=Fraction(1))
    assert finite_laws.estimate_law(law, state, law.inputs - 1, m) == brute
    # Unbiased (ICML Lemma 4, arXiv Lemma 3): its mean is <f, Phi(x)> exactly.
    mean = sum(v * p for v, p in brute.items())
    assert mean == finite_laws.inner(law, finite_laws.coefficients(state), law.inputs - 1)


def test_the_markov_chain_and_the_branches_give_the_same_terms():
    law = lemma1.finite_law_instances()["orthogonal_signs"][0]
    inputs, labels = (0, 1, 0, 1), (Fraction(1), Fraction(-1), Fraction(-1), Fraction(1))
    B, eta = Fraction(1), Fraction(4)
    beta = lemma1.comparator(law, inputs, labels, B)
    for step in ("descent", "printed"):
        chain = finite_laws.state_laws(law, inputs, labels, B=B, eta=eta, m=2, step=step)
        terms = lemma1.lemma1_terms(law, inputs, labels, chain, beta, eta, step)
        branches = finite_laws.run_law(law, inputs, labels, B=B, eta=eta, m=2, step=step)
        assert sum(b.probability for b in branches) == 1
        values = [(b.probability, lemma1.branch_values(law, inputs, labels, b, beta, eta, step)) for b in branches]
        for field in ("regret", "grad_sq", "grad_var"):
            assert getattr(terms, field) == sum(p * getattr(v, field) for p, v in values)
        assert terms.penalties == tuple(sum(p * v.penalties[s] for p, v in values) for s in range(4))
        assert terms.max_norm_sq == max(v.max_norm_sq for _, v in values)


def test_the_exact_law_is_the_law_of_a_large_seeded_monte_carlo_of_the_shipped_code():
    # Sign features on two orthogonal inputs, T = 3, m = 1, eta = 4 (shrinks happen at round 3):
    # 8,000 shipped runs against the exact means; 5 standard errors (the exact law's own spread).
    config = {"conformance": {"law": "orthogonal_signs", "T": 3, "m": 1, "eta": "4", "B": 1,
                              "labels": [1, -1, 1], "steps": ["descent"]}}
    _, law, inputs, labels, B, eta = lemma1.conformance_instance(config)
    beta = lemma1.comparator(law, inputs, labels, B)
    branches = finite_laws.run_law(law, inputs, labels, B=B, eta=eta, m=1, step="descent")
    values = [(b.probability, lemma1.branch_values(law, inputs, labels, b, beta, eta, "descent")) for b in branches]
    shrink = sum((b.probability for b in branches if b.rounds[2].shrink), Fraction(0))
    assert 0 < shrink < 1
    runs = [lemma1.lemma1_trial(config, child(np.random.SeedSequence(7), i))["descent"] for i in range(8_000)]
    for name, value in lemma1.MEASURED.items():
        mean = float(sum((p * value(v) for p, v in values), Fraction(0)))
        spread = math.sqrt(float(sum((p * (value(v) - Fraction(mean)) ** 2 for p, v in values), Fraction(0))))
        sampled = np.mean([r[name] for r in runs])
        assert abs(sampled - mean) <= 5 * spread / math.sqrt(len(runs)) + 1e-9, name


def test_the_hand_computation_of_the_plan_at_t1():
    # f_1 with <f_1, Phi(x)> = -15 on psi = 0.999, label 1, B = 1, eta = 1/16, f* predicting 0.999:
    # regret 16^2 / 2 - 0.001^2 / 2 = 127.9999995 against 1/eta + eta c^2 16^2 = 16 + 15.968016.
    c2 = Fraction(999, 1000) ** 2
    start = (Fraction(0), 15 / c2)
    ((_, terms), _) = lemma1.instance_terms("point_mass", (0,), (Fraction(1),), Fraction(1), Fraction(1, 16), 1,
                                           "descent", start)
    sides = lemma1.lemma1_sides(terms, Fraction(1), Fraction(1, 16))
    assert terms.regret == Fraction(255999999, 2000000)
    assert terms.penalties == (0,)
    assert terms.grad_var == 0
    assert sides["arXiv"][1] == pytest.approx(16 + 15.968016, rel=1e-12)
    assert sides["ICML"][1] == sides["arXiv"][1]
    # Read with hat f_1 = 0, ICML's P_1 = 1 charges (B_T + B)^2 / eta and the statement holds.
    assert terms.start_far == 1
    assert sides["ICML, hat f_1 = 0"][1] > terms.regret


@pytest.fixture(scope="module")
def smoke(smoke_decision):
    return smoke_decision("iln.lemma1.decomposition")


def test_smoke_profile_finds_the_printed_lemma_false_for_a_start_away_from_0(smoke):
    claim, _, _, verdict = smoke
    assert verdict.verdict == claim.expected == VIOLATED
    assert verdict.verdict_printed == VIOLATED
    first = verdict.counterexample
    assert (first["T"], first["start"], first["reading"]) == (1, "<f_1,Phi(x)>=-15", "arXiv")
    assert first["exact_lhs"] == "255999999/2000000"
    # Every violation starts away from 0; none under ICML's other reading of P_1.
    assert all(row["start"] != "f_1=0" for row in verdict.details["points"].values() if row["outcome"] == "above")
    assert verdict.details["ICML read with hat f_1 = 0 (printed instances)"]["above"] == 0


def test_smoke_profile_finds_the_factor_2_of_the_proof_and_leaves_the_correction_undecided(smoke):
    # With f_1 = 0 the proof bounds twice the regret by the right-hand side: ratio <= 1/2.
    _, _, _, verdict = smoke
    assert verdict.verdict_corrected == INCONCLUSIVE
    assert verdict.details["exact"]["corrected"]["above"] == 0
    assert 0 < verdict.details["exact"]["corrected"]["largest_ratio"] <= 0.5
    assert "feature law" in verdict.details["reason_corrected"]
    assert verdict.details["conformance"]["verdict"] != VIOLATED


def test_a_false_correction_is_found_exactly(smoke_verdict):
    # Planted: Lemma 1 without its first term B^2 / eta (the statement mutant lemma1_first_term_dropped).
    edit = CodeEdit("iln.theory", "lemma1_rhs", "B**2 / eta + eta * sum_grad_sq", "0.0 * B**2 / eta + eta * sum_grad_sq")
    verdict = smoke_verdict("iln.lemma1.decomposition", edits=(edit,), n_trials=20)
    assert verdict.verdict_corrected == VIOLATED
