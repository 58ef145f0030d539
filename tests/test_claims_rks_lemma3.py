"""rks.lemma3.estimation and rks.thm2.uniform_deviation as specifications: the supremum's exact
law, the shipped sampler, the searches' verdicts, and the generated mutants of the corrections."""

from __future__ import annotations

import math

import numpy as np
import pytest

from iln.rks import function_class as fc
from verification import runner, search
from verification.claims.rks import lemma3, theorem2
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, VIOLATED

SLACKS = {"rks.lemma3.estimation": lemma3.estimation_slack, "rks.thm2.uniform_deviation": theorem2.rademacher_slack}
STATEMENTS = {"rks.lemma3.estimation": lemma3.ESTIMATION, "rks.thm2.uniform_deviation": theorem2.UNIFORM_DEVIATION}


def _brute_force(instance, slack):
    """The tail by the count k of labels +1 (the supremum depends on no more), the supremum of
    R - R_emp over the class taken on a fine grid of a in [-C, C] with the shipped risks."""
    m, theta, C, loss = instance["m"], instance["theta"], instance["C"], instance["loss"]
    support = fc.LabelledSupport(np.zeros((1, 1)), np.array([2 * theta - 1]))
    threshold = slack(instance) + fc.lipschitz_constant(loss, C) * C * instance["u"]
    grid = np.linspace(-C, C, 201)  # holds +-C and +-1 (the pieces' ends) for the C below
    total = 0.0
    for k in range(m + 1):
        y = np.array([1.0] * k + [-1.0] * (m - k))
        sup = max(support.risk(np.array([a]), loss) - float(np.mean(fc.margin_loss(y * a, loss))) for a in grid)
        if sup > threshold:
            total += math.comb(m, k) * theta**k * (1 - theta) ** (m - k)
    return total


@pytest.mark.parametrize("claim_id", list(SLACKS))
@pytest.mark.parametrize("instance", [
    {"m": 16, "u": 0.01, "C": 1.0, "loss": "hinge", "theta": 0.1, "K": 2},
    {"m": 40, "u": 0.02, "C": 0.5, "loss": "quadratic", "theta": 0.2, "K": 1},
    {"m": 60, "u": 0.001, "C": 2.0, "loss": "hinge", "theta": 0.15, "K": 1},
    {"m": 200, "u": 0.01, "C": 1.0, "loss": "hinge", "theta": 0.5, "K": 1}])
def test_the_exact_tail_is_the_enumerated_supremum(claim_id, instance):
    slack = SLACKS[claim_id]
    truth = _brute_force(instance, slack)
    assert truth > 0
    assert float(np.exp(lemma3.tail_exact(instance, slack))) == pytest.approx(truth, rel=1e-9)
    certified = lemma3.tail_certified(instance, slack)
    assert certified.method.startswith("rational arithmetic")
    assert math.exp(certified.log) == pytest.approx(truth, rel=1e-9)


def test_kappa_is_the_largest_difference_of_the_loss():
    for loss in fc.LOSSES:
        for C in (0.3, 1.0, 2.5):
            a = np.linspace(-C, C, 10001)
            largest = np.max(np.abs(fc.margin_loss(a, loss) - fc.margin_loss(-a, loss)))
            assert lemma3.kappa(loss, C) == pytest.approx(largest, rel=1e-12)


@pytest.mark.parametrize("loss", fc.LOSSES)
def test_the_shipped_supremum_follows_the_exact_law(loss):
    """Every event of these statements is at least five standard deviations out (the slack
    (4LC + 2|c(0)|) / sqrt(m)), too rare to sample: the shipped supremum's law is tested itself."""
    instance = {"m": 30, "C": 0.7, "loss": loss, "theta": 0.3, "K": 2, "u": 0.1}
    draws = [lemma3.largest_deviation(instance, np.random.SeedSequence([5, i])) for i in range(4000)]
    k = np.arange(31)
    law = np.array([math.comb(30, j) * 0.3**j * 0.7 ** (30 - j) for j in k])
    exact = lemma3.kappa(loss, 0.7) * float(law @ np.abs(k / 30 - 0.3))
    # Draws in [0, kappa]: 5 standard errors of the mean at most 5 kappa / (2 sqrt(4000)).
    assert abs(np.mean(draws) - exact) < 5 * lemma3.kappa(loss, 0.7) / (2 * math.sqrt(4000))
    assert set(np.round(draws, 9)) <= set(np.round(lemma3.kappa(loss, 0.7) * np.abs(k / 30 - 0.3), 9))


@pytest.mark.parametrize("claim_id", list(SLACKS))
def test_the_shipped_bounds_are_the_events_thresholds(claim_id):
    # The trials compare the sampled supremum with iln.rks.function_class's eq. (13) / (24) at
    # delta = exp(-2 m u^2): the threshold of the exact evaluator's event.
    for m, C, loss, u in ((30, 0.7, "hinge", 0.1), (1000, 3.0, "quadratic", 0.02), (7, 1.0, "hinge", 2.0)):
        L, delta = fc.lipschitz_constant(loss, C), math.exp(-2 * m * u * u)
        instance = {"m": m, "C": C, "loss": loss}
        shipped = (fc.estimation_bound(L, C, 1.0, m, delta) if claim_id == "rks.lemma3.estimation" else
                   fc.uniform_deviation_bound(L, C, 1.0, m, delta, fc.rademacher_sign_features(C, m)))
        assert shipped == pytest.approx(SLACKS[claim_id](instance) + L * C * u, rel=1e-12)


def test_the_declared_domains_are_listed():
    declared = search.declared_domain("rks.lemma3.estimation")
    assert list(declared["variables"]) == ["m", "u", "C", "loss", "theta", "K"]
    assert declared["sides"] == {"printed": "exp(-2 * m * u**2)", "range 2LC, two-sided": "2 * exp(-2 * m * (u / 2)**2)"}
    declared = search.declared_domain("rks.thm2.uniform_deviation")
    assert list(declared["variables"]) == ["m", "u", "C", "loss", "theta"]
    assert declared["sides"] == {"printed": "exp(-2 * m * u**2)", "range 2LC": "exp(-2 * m * (u / 2)**2)"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("rks_lemma3") / "s.sqlite"
    run = runner.run(list(SLACKS), profile="smoke", seed=0, jobs=1, store=store, quiet=True)
    return {o.verdict.claim_id: o.verdict for o in run.outcomes}


@pytest.mark.parametrize("claim_id", list(SLACKS))
def test_the_printed_bound_is_violated_exactly_and_the_range_2lc_holds(smoke, claim_id):
    verdict = smoke[claim_id]
    assert verdict.verdict == HOLDS_AFTER_CORRECTION, verdict.details
    assert (verdict.verdict_printed, verdict.verdict_corrected) == (VIOLATED, HOLDS)
    smallest = verdict.counterexample
    assert smallest["point"]["loss"] == "hinge"
    assert smallest["lhs_method"].startswith("rational arithmetic")
    # The shrink stage lowers m to the smallest that still violates (m = 212 for Lemma 3,
    # 52 for Theorem 2, from the ladder's 256 and 64): just above the bound there.
    assert smallest["ratio"] > 1
    assert smallest["point"]["m"] < 256
    for side in verdict.details["coverage"].values():
        assert all(v["covered"] for v in side.values()), side
    assert all(row["conforms"] for row in verdict.details["points"].values())


@pytest.mark.parametrize("claim_id", list(SLACKS))
def test_every_false_generated_mutant_of_the_correction_is_detected(claim_id):
    spec = STATEMENTS[claim_id]
    table = search.assess(spec, next(iter(spec.corrected)))
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    # What survives is true: the corrections' McDiarmid bound is loose in u^4 and (Lemma 3) in
    # its union bound's 2 on this symmetric class.
    assert all(s["reason"].startswith("true over the denser search") for s in table["survivors"])
