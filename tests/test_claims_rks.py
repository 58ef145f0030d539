"""The Random Kitchen Sinks claims (verification/claims/rks): exact instances, smoke verdicts,
planted defects that each check must catch, and determinism under a fixed seed."""

import json
import math

import numpy as np
import pytest

from iln.random_streams import child
from iln.rks import function_class as fc
from iln.rks.kitchen_sinks import minimize_weighted_risk
from verification import catalog
from verification.claims.rks import (
    figure1,
    figure2,
    lemma2,
    theorem1,
)
from verification.claims.rks.instances import (
    class_instance,
    largest_member_risk,
    risk_minimizer,
    run_on,
)

RKS_IDS = ["rks.thm1.excess_risk", "rks.lemma1.approximation", "rks.lemma2.risk_approximation",
           "rks.lemma3.estimation", "rks.lemma4.hilbert_concentration", "rks.rademacher.bound",
           "rks.thm2.uniform_deviation", "rks.fig2.alpha_inf_decay", "rks.fig1.vs_adaboost"]
ALPHA = 1e-3 / len(RKS_IDS)  # a run's budget shared by the nine claims
#: claims that are specifications (verification.search): tested in their own files.
SPECIFICATIONS = {"rks.lemma4.hilbert_concentration", "rks.rademacher.bound", "rks.lemma3.estimation",
                  "rks.thm2.uniform_deviation", "rks.lemma1.approximation"}
#: rks.fig1.vs_adaboost decides on wall-clock times: speed is measured only in benchmarks and
#: runs, never in unit tests, so its verdict is tested on synthetic records below, not on smoke.
UNTIMED_IDS = [c for c in RKS_IDS if c != "rks.fig1.vs_adaboost" and c not in SPECIFICATIONS]


def _records(claim_id, config, n=None, master=0):
    claim = catalog.get(claim_id)
    seed = np.random.SeedSequence(master)
    return [claim.trial(config, child(seed, i)) for i in range(config["n_trials"] if n is None else n)]


@pytest.fixture(scope="module")
def smoke():
    """Each claim's smoke configuration and records (computed once per module)."""
    out = {}
    for claim_id in UNTIMED_IDS:
        config = catalog.get(claim_id).config("smoke")
        out[claim_id] = (config, _records(claim_id, config))
    return out


# ------------------------------------------------------------------------------------------
# The library pieces: exact members, risks and minima
# ------------------------------------------------------------------------------------------


def test_catalog_has_the_nine_claims_with_rks_sources():
    claims = catalog.load()
    for claim_id in RKS_IDS:
        assert claim_id in claims
        assert {s.paper for s in claims[claim_id].sources} == {"RKS"}
    assert {e.claim_id for e in catalog.errata()} >= {"rks.lemma1.approximation", "rks.thm1.excess_risk",
                                                     "rks.lemma3.estimation", "rks.rademacher.bound"}


@pytest.mark.parametrize("name", ["orthogonal", "stumps", "fourier"])
def test_witness_is_an_unbiased_member_of_the_random_class(name):
    """E f_k = f* (proof of Lemma 1) and |alpha_k| <= C/K (eq. 8), by Monte Carlo."""
    inst = class_instance(name, 1.0)
    rng = np.random.default_rng(7)
    K, reps = 50, 400
    mean = np.zeros(inst.support.n)
    for _ in range(reps):
        W = inst.family.sample(K, rng)
        alpha = fc.kitchen_sink_witness(inst.member, W)
        assert np.max(np.abs(alpha)) <= inst.C / K * (1 + 1e-12)
        mean += inst.features(W) @ alpha / reps
    # Each value is a mean of K * reps = 20000 terms in [-1, 1]: a 1e-6 Hoeffding band is 0.04.
    np.testing.assert_allclose(mean, inst.target, atol=0.04)


def test_orthogonal_features_are_orthogonal_and_attain_the_bound():
    inst = class_instance("orthogonal")
    table = inst.features(inst.family.support_atoms)
    assert np.all(np.abs(table) == 1.0)
    np.testing.assert_allclose(table.T @ table / table.shape[0], np.eye(32), atol=1e-12)
    assert np.all(np.abs(inst.member.beta) == inst.C)


def test_risk_minimizer_over_Fp_is_optimal_and_feasible():
    for loss in ("quadratic", "hinge"):
        member, risk = risk_minimizer("stumps", loss)
        inst = class_instance("stumps")
        assert np.max(np.abs(member.beta)) <= 1.0 + 1e-12
        assert math.isclose(inst.support.risk(member.values(inst.support.X), loss), risk, abs_tol=1e-9)
        rng = np.random.default_rng(1)
        for _ in range(200):  # no member of the box does better
            beta = rng.uniform(-1, 1, inst.family.n_atoms)
            other = fc.atom_member(inst.family, beta, 1.0).values(inst.support.X)
            assert inst.support.risk(other, loss) >= risk - 1e-9


def test_support_risk_matches_sampling():
    inst = class_instance("fourier")
    f = inst.target
    idx, _, y = inst.support.draw(200_000, np.random.default_rng(3))
    for loss in ("quadratic", "hinge"):
        empirical = float(np.mean(fc.margin_loss(y * f[idx], loss)))
        # Losses lie in [0, 1.31^2]: a 1e-6 Hoeffding band at n = 2e5 is 0.011.
        assert abs(empirical - inst.support.risk(f, loss)) < 0.011


def test_minimize_weighted_risk_agrees_with_a_grid_search():
    Z = np.array([[1.0, 0.5], [-0.5, 1.0], [0.3, -1.0]])
    y = np.array([1.0, -1.0, 1.0])
    w = np.array([0.5, 0.3, 0.2])
    grid = np.linspace(-0.4, 0.4, 161)
    for loss in ("quadratic", "hinge"):
        a = minimize_weighted_risk(Z, y, w, loss=loss, bound=0.4)
        value = w @ fc.margin_loss(y * (Z @ a), loss)
        brute = min(w @ fc.margin_loss(y * (Z @ np.array([u, v])), loss) for u in grid for v in grid)
        assert value <= brute + 1e-9
        assert np.max(np.abs(a)) <= 0.4


def test_rademacher_of_sign_features_matches_monte_carlo_and_the_bound():
    rng = np.random.default_rng(0)
    for m in (1, 3, 10, 50):
        exact = fc.rademacher_sign_features(1.0, m)
        assert exact <= fc.rademacher_bound(1.0, m) + 1e-15
        draws = np.abs(np.where(rng.random((100_000, m)) < 0.5, -1, 1).sum(1)).mean() / m
        assert abs(draws - exact) < 0.01  # values in [0, 1]: a 1e-6 Hoeffding band is 0.008


def test_bounds_quote_the_printed_formulas():
    d = 0.1
    z = 1 + math.sqrt(2 * math.log(1 / d))
    assert math.isclose(fc.hilbert_concentration_bound(2.0, 9, d), 2.0 / 3 * z)
    assert math.isclose(fc.risk_approximation_bound(4.0, 1.0, 16, d), z)
    est = (4 * 4 + 2 + 4 * math.sqrt(0.5 * math.log(10))) / 10
    assert math.isclose(fc.estimation_bound(4.0, 1.0, 1.0, 100, d), est)
    assert math.isclose(fc.excess_risk_bound(4.0, 1.0, 1.0, 100, 16, d), 2 * est + z)
    eps = 0.3
    assert math.isclose(fc.mcdiarmid_tail(1.0, 8, eps), math.exp(-8 * eps**2 / 2))
    assert math.isclose(fc.uniform_deviation_bound(1.0, 1.0, 1.0, 25, d, 0.1),
                        0.4 + 0.4 + math.sqrt(math.log(10) / 50))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: fc.lipschitz_constant("exponential", 1.0), "loss"),
    (lambda: fc.approximation_bound(1.0, 0, 0.1), "K"),
    (lambda: fc.estimation_bound(1.0, 1.0, 1.0, 10, 1.5), "delta"),
    (lambda: fc.rademacher_bound(-1.0, 10), "C"),
    (lambda: fc.AtomFeatures(np.full((2, 2), 1.5), [0.5, 0.5]), "table"),
    (lambda: fc.AtomFeatures(np.ones((2, 2)), [0.7, 0.7]), "probabilities"),
    (lambda: fc.atom_member(class_instance("stumps").family, np.full(25, 2.0), 1.0), "beta"),
    (lambda: fc.LabelledSupport(np.zeros((3, 1)), [0.0, 2.0, 0.0]), "label_mean"),
    (lambda: minimize_weighted_risk(np.ones((2, 1)), [1.0, 0.5], [1.0, 1.0], loss="hinge", bound=1.0), "y"),
    (lambda: minimize_weighted_risk(np.ones((2, 1)), [1.0, 1.0], [-1.0, 1.0], loss="quadratic", bound=1.0),
     "weights"),
    (lambda: run_on("rks.lemma1.approximation", "breast_cancer", seeds=3), "claim_id"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


# ------------------------------------------------------------------------------------------
# Smoke verdicts and determinism
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("claim_id", UNTIMED_IDS)
def test_smoke_profile_gives_the_expected_verdict(smoke, claim_id):
    claim = catalog.get(claim_id)
    config, records = smoke[claim_id]
    # The run's verdict: a grid's holds is inconclusive where the domain was not searched.
    verdict = catalog.domain_not_searched(claim, claim.decide(records, config, ALPHA))
    assert verdict.verdict == claim.expected, verdict.details
    json.dumps(verdict.to_json(), allow_nan=False)


@pytest.mark.parametrize("claim_id", UNTIMED_IDS)
def test_trials_are_json_ready_and_a_function_of_the_seed(claim_id):
    config = catalog.get(claim_id).config("smoke")
    one = _records(claim_id, config, n=2, master=5)
    assert one == _records(claim_id, config, n=2, master=5)
    assert one[0] != one[1]
    json.dumps(one, allow_nan=False)


def test_figure1_errors_are_a_function_of_the_seed():
    """Times differ between runs; the errors and the split do not."""
    config = {**catalog.get("rks.fig1.vs_adaboost").config("smoke"), "K_adaboost": [4]}
    one, two = (_records("rks.fig1.vs_adaboost", config, n=1, master=9)[0] for _ in range(2))
    for learner in ("rks", "adaboost"):
        assert {k: v["error"] for k, v in one[learner].items()} == {k: v["error"] for k, v in two[learner].items()}


# ------------------------------------------------------------------------------------------
# Every check can fail: planted wrong bounds and corrupted records
# ------------------------------------------------------------------------------------------




def test_lemma2_catches_corrupted_excess_risks(smoke):
    config, records = smoke["rks.lemma2.risk_approximation"]

    def largest(key):
        name, loss, K, which = key.split("/")
        return lemma2.largest_excess(name, loss, int(K[2:]), which, config["C"])

    # Raised as far as each value can go: the points that can fail are violated.
    corrupted = [{k: min(v + 3.0, largest(k)) for k, v in r.items()} for r in records]
    assert lemma2.decide(corrupted, config, ALPHA).verdict == "violated"
    # Beyond what any member can reach: a wrong statistic, refused rather than decided.
    with pytest.raises(ValueError, match="exceeds the largest value"):
        lemma2.decide([{k: v + 3.0 for k, v in r.items()} for r in records], config, ALPHA)


def test_theorem1_catches_corrupted_excess_risks(smoke):
    config, records = smoke["rks.thm1.excess_risk"]

    def largest(key):
        name, loss = key.split("/")[:2]
        return largest_member_risk(name, loss, config["C"]) - risk_minimizer(name, loss, config["C"])[1]

    # The largest excess any member can have is over the smoke point's bound: violated.
    corrupted = [{k: largest(k) for k in r} for r in records]
    assert theorem1.decide(corrupted, config, ALPHA).verdict == "violated"
    with pytest.raises(ValueError, match="exceeds the largest value"):
        theorem1.decide([{k: v + 10.0 for k, v in r.items()} for r in records], config, ALPHA)


def test_theorem1_points_above_the_largest_excess_are_not_counted():
    """The bound 2 eps_est + eps_app is below the largest excess a member of F_w can have
    (largest_member_risk - min over F_p) only on the noiseless instance: on the noisy ones it
    exceeds it at every K <= 64 and m <= 2000, which is why the claim does not try them; and
    at the grid's smallest K and m it exceeds it on the noiseless one too (not counted)."""
    grid_K, grid_m = [4, 16, 64], [100, 400, 1000, 2000]
    for name in ("orthogonal", "stumps"):
        for loss in ("quadratic", "hinge"):
            ceiling = largest_member_risk(name, loss) - risk_minimizer(name, loss)[1]
            smallest = min(fc.excess_risk_bound(fc.lipschitz_constant(loss, 1.0), 1.0, 1.0, m, K, 0.1)
                           for K in grid_K for m in grid_m)
            assert smallest > ceiling, (name, loss)
    config = catalog.get("rks.thm1.excess_risk").config("quick")
    assert config["instances"] == ["threshold"]
    records = [{f"{n}/{loss}/K={K}/m={m}": 0.0 for n in config["instances"] for loss in config["losses"]
                for K in config["K"] for m in config["m"]}] * 10
    points = theorem1.decide(records, config, ALPHA).details["points"]
    assert any(row["event_possible"] for row in points.values())
    assert not any(row["event_possible"] for key, row in points.items() if "/K=4/m=100/" in key)
    for row in points.values():
        if not row["event_possible"]:
            assert row["can_fail"] is False


def _alpha_records(slope, seeds=16):  # the sign test needs 14 at the test's level
    rng = np.random.default_rng(0)
    Ks = [8, 16, 32, 64]
    return [{f"breast_cancer/K={K}": 3.0 * K**slope * math.exp(rng.normal(0, 0.05)) for K in Ks}
            for _ in range(seeds)], {"datasets": ["breast_cancer"], "K": Ks, "exponent": 1.0, "tolerance": 0.2}


def test_figure2_rule_on_synthetic_slopes():
    # One-sided (issue 20): a decay faster than 1/K (slope -1.6) does not count against
    # "decays linearly"; a slower one does, found on breast_cancer, a stand-in for adult
    # (issue 42 item 7): not_reproduced, never violated.
    for slope, expected in ((-1.0, "holds"), (-0.3, "not_reproduced"), (-1.6, "holds")):
        records, config = _alpha_records(slope)
        assert figure2.decide(records, config, ALPHA).verdict == expected
    verdict = figure2.decide(*_alpha_records(-0.3), ALPHA)
    assert verdict.details["found_here"] == "violated"
    assert [d["aspect"] for d in verdict.details["differs"]] == ["data", "K", "least-squares optimum"]
    headline = verdict.details["headline"]
    assert headline.startswith("not_reproduced, on a setting that differs from the paper's in: data, K, "
                               "least-squares optimum: median decay exponent of ||alpha||_inf in K 0.")
    assert "against at least 0.8, over K = 8 to 64 on breast_cancer, 16 seeds" in headline
    # The caption's weaker reading, a decay at all, is a sub-result.
    assert "decays at all (the caption's \"decays with K\", shown, not deciding): the exponent's interval" in headline
    assert "lies above 0: it decays" in headline


def test_figure2_on_the_paper_s_own_setting_would_be_violated(monkeypatch):
    # No profile reproduces adult with the paper's grid of K and optimum; were nothing to
    # differ, the same contradiction would be violated.
    for profile in ("smoke", "quick", "full"):
        assert figure2.fig2_differs(catalog.get(figure2.ID).config(profile))[0].aspect == "data"
    monkeypatch.setattr(figure2, "fig2_differs", lambda config: [])
    assert figure2.decide(*_alpha_records(-0.3), ALPHA).verdict == "violated"


def _timing_records(speedup, seeds=20):
    """AdaBoost ``speedup`` times slower than RKS at equal errors."""
    out = []
    for _ in range(seeds):
        rks = {"10": {"seconds": 0.001, "error": 0.05}}
        ada = {"4": {"seconds": 0.001 * speedup, "error": 0.06}}
        out.append({"rks": rks, "adaboost": ada})
    return out, {"dataset": "breast_cancer", "targets": [4], "ratio": 10.0, "K_rks": [10], "K_adaboost": [4]}


def test_figure1_rule_on_synthetic_times():
    # The caption's claim is the speed at a given error, where RKS reaches it (issue 42 item
    # 7); found slower on breast_cancer, a stand-in, it is not_reproduced, never violated.
    for speedup, expected in ((100.0, "holds"), (3.0, "not_reproduced")):
        records, config = _timing_records(speedup)
        assert figure1.decide(records, config, ALPHA).verdict == expected
    records, config = _timing_records(100.0)
    for r in records:  # RKS never reaches AdaBoost's error: no speed is measured
        r["rks"]["10"]["error"] = 0.2
    never = figure1.decide(records, config, ALPHA)
    assert never.verdict == "inconclusive"
    assert "no target on any seed" in never.details["reason"]
    # "Never reached" is a sub-result of its own, contradicted, beside the verdict.
    assert "points" not in never.details  # no speed point
    assert set(never.details["reach"]["points"]) == {"reach@4"}
    assert never.details["reach"]["verdict"] == "violated"
    assert "AdaBoost's error reached by RKS's best over K up to 10: at 4 rounds on 0 of 20 seeds (contradicted here)" \
        in never.details["headline"]
    slow = figure1.decide(*_timing_records(3.0), ALPHA)
    assert slow.details["headline"].startswith(
        "not_reproduced, on a setting that differs from the paper's in: data, implementation timed, K and "
        "AdaBoost's rounds: at AdaBoost's 4-round error, RKS 10x faster on 0 of the 20 seeds where it reaches "
        "it (contradicted here)")
    assert "at 4 rounds on 20 of 20 seeds (holds here)" in slow.details["headline"]
    assert slow.details["data"]["label"] == "scikit-learn's breast_cancer"
    assert slow.details["data"]["proxy"]
    # Reached and 10x faster, but never on most seeds the error: the speed decides, the reach does not.
    records, config = _timing_records(100.0, seeds=100)
    for r in records[:80]:
        r["rks"]["10"]["error"] = 0.2
    fast = figure1.decide(records, config, ALPHA)
    assert (fast.verdict, fast.details["reach"]["verdict"]) == ("holds", "violated")
    assert fast.n_trials == 100  # the claim's seeds, not only those where the error is reached


def test_figure1_on_the_paper_s_own_setting_would_be_violated(monkeypatch):
    for profile in ("smoke", "quick", "full"):
        aspects = {d.aspect for d in figure1.fig1_differs(catalog.get(figure1.ID).config(profile))}
        assert aspects == {"data", "implementation timed", "K and AdaBoost's rounds"}
    monkeypatch.setattr(figure1, "fig1_differs", lambda config: [])
    assert figure1.decide(*_timing_records(3.0), ALPHA).verdict == "violated"
