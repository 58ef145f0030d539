"""iln.thm1.test_time (ICML / arXiv Theorem 1, part 3; arXiv Appendix C.2) as a specification:
its evaluators, the shipped rules, its search, its verdict, its mutants."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from iln import theory
from verification import runner, search
from verification.claims.iln.lemma4 import sign_mean_tail
from verification.claims.iln.theorem1_test_time import (
    ARXIV,
    CORRECTED,
    RULES,
    TEST_TIME,
    printed_test_time_counterexample,
    rule_delta,
    test_time_certified,
    test_time_exact,
    test_time_sample,
)
from verification.search.formula import Formula
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED

#: the erratum's test point: every term is +-0.9801 ||alpha||_1 with probability 1/2 (s = 0.99).
BALANCED = {"alpha_l1": 1.0, "B": 1.0, "T": 4, "p": 0.5, "s": 0.99}


@pytest.mark.parametrize(("delta", "ratio"), [(Fraction(1, 5), Fraction(9, 10)), (Fraction(1, 100), Fraction(3, 10))])
def test_the_erratum_s_counterexamples_are_instances_of_the_specification(delta, ratio):
    """The printed rule picks the erratum's m at its delta, and the spec's exact left side is
    the erratum's probability, above delta_m and delta."""
    out = printed_test_time_counterexample(delta, ratio)
    instance = {**BALANCED, "m": out["m"], "eps0": float(ratio)}
    assert theory.test_time_m(float(ratio), float(delta), 1.0) == out["m"]
    delta_m = float(Formula(TEST_TIME.printed).value(instance))
    assert delta_m <= float(delta) < float(Formula(TEST_TIME.printed).value({**instance, "m": out["m"] - 1}))
    certified = test_time_certified(instance)
    assert certified.method == "rational arithmetic"
    assert certified.log == pytest.approx(math.log(out["probability"]), rel=1e-12)
    assert float(np.exp(test_time_exact(instance))) == pytest.approx(float(out["probability"]), rel=1e-12)
    assert out["probability"] > delta


def test_the_exact_left_side_is_the_sign_mean_tail_and_zero_beyond_lemma_5():
    instance = {**BALANCED, "m": 7, "eps0": 0.3}
    truth = sign_mean_tail(7, Fraction(0.3) / Fraction(0.99) ** 2)
    assert float(np.exp(test_time_exact(instance))) == pytest.approx(float(truth), rel=1e-12)
    # (16B + 1) B sqrt(T) = 34 at B = 1, T = 4: an alpha_l1 above it is no alpha^(t) of such a run.
    beyond = {**instance, "alpha_l1": 34.5, "eps0": 10.0}
    assert float(test_time_exact(beyond)) == -math.inf
    assert test_time_certified(beyond).text == "0"
    assert float(test_time_exact({**beyond, "alpha_l1": 34.0})) > -math.inf


@pytest.mark.parametrize("side", list(RULES))
@pytest.mark.parametrize(("m", "eps0", "alpha_l1", "B", "T"), [(1, 0.5, 1.0, 1.0, 1), (2, 0.9, 1.0, 1.0, 4),
                                                               (52, 0.3, 1.0, 2.0, 9), (3000, 0.02, 0.7, 1.0, 16)])
def test_each_shipped_rule_switches_to_m_at_the_statement_s_delta_m(side, m, eps0, alpha_l1, B, T):
    instance = {"m": m, "eps0": eps0, "alpha_l1": alpha_l1, "B": B, "T": T}
    delta_m = float(Formula(TEST_TIME.sides()[side]).value(instance))
    if delta_m >= 1:  # no delta in (0, 1) makes the rule pick m
        assert rule_delta(side, instance) == 1.0
        return
    assert rule_delta(side, instance) == pytest.approx(delta_m, rel=1e-9)
    assert RULES[side](eps0, delta_m * (1 + 1e-9), instance) <= m < RULES[side](eps0, delta_m * (1 - 1e-9), instance)


def test_algorithm_2_follows_the_exact_law(follows_exact_law):
    instance = {"m": 3, "eps0": 0.5, "alpha_l1": 2.0, "B": 1.0, "T": 1, "p": 0.25, "s": 0.8}
    follows_exact_law(test_time_sample, test_time_exact, instance, seed=13)


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("iln.thm1.test_time")
    assert list(declared["variables"]) == ["m", "eps0", "alpha_l1", "B", "T", "p", "s"]
    assert declared["variables"]["alpha_l1"]["admissible"]["text"] == "(0, inf)"
    assert declared["sides"] == {"printed": "exp(-m * eps0**2 / alpha_l1**2)",
                                 CORRECTED: "2 * exp(-m * eps0**2 / (2 * alpha_l1**2))",
                                 ARXIV: "exp(-eps0**2 * m / ((16 * B + 1) * B * sqrt(T))**2)"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("test_time") / "s.sqlite"
    return runner.run(["iln.thm1.test_time"], profile="smoke", seed=0, jobs=1, store=store,
                      quiet=True).outcomes[0].verdict


def test_the_printed_m_is_violated_exactly_and_the_corrected_m_holds_over_the_covered_domain(smoke):
    assert smoke.verdict == HOLDS_AFTER_CORRECTION
    assert smoke.verdict_printed == VIOLATED
    assert smoke.verdict_corrected == HOLDS
    # One sample, beyond eps0 surely, against delta_1 = exp(-eps0^2 / ||alpha||_1^2) -> 1/e.
    smallest = smoke.counterexample
    assert smallest["point"]["m"] == 1
    assert smallest["lhs"] == "1/1"
    assert smallest["ratio"] == pytest.approx(math.e, rel=1e-9)
    sides = smoke.details["sides"]
    assert sides[CORRECTED]["worst"]["ratio"] < 1
    assert sides[ARXIV]["verdict"] == VIOLATED
    assert sides[ARXIV]["smallest_violation"]["point"]["m"] == 1
    for side in smoke.details["coverage"].values():
        assert all(v["covered"] for v in side.values()), side
    assert all(row["conforms"] for row in smoke.details["points"].values())
    shipped = smoke.details["shipped_right_sides"]
    assert {r["side"] for r in shipped} == set(RULES)
    assert all(r["agrees"] for r in shipped)


def test_the_coverage_reaches_delta_s_ends_on_the_line(smoke):
    coverage = smoke.details["coverage"][CORRECTED]
    assert coverage["m"]["searched"] == [1, 2**20]
    assert coverage["alpha_l1"]["searched"] == [1e-6, 1e6]
    assert coverage["T"]["searched"] == [1, 2**20]
    best = smoke.details["best_instances"]["printed"][0]
    assert best["rhs"] < 1e-299  # delta_m down to 1e-300


def test_a_shipped_rule_other_than_the_statement_s_makes_the_verdict_inconclusive(monkeypatch):
    """predict's m (iln.theory.test_time_m_corrected) with the printed constant is caught."""
    config = {"search": search.searched(TEST_TIME)}
    records = [search.confirm(TEST_TIME, config, np.random.SeedSequence([5, i])) for i in range(200)]
    assert search.decide(TEST_TIME, records, config, 1e-3).verdict == HOLDS_AFTER_CORRECTION
    monkeypatch.setattr(theory, "test_time_m_corrected", theory.test_time_m)
    verdict = search.decide(TEST_TIME, records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert f"the shipped {CORRECTED} right side" in verdict.details["reason"]


def test_every_false_generated_mutant_of_the_correction_is_detected():
    table = search.assess(TEST_TIME, CORRECTED)
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert table["survivors"] == []


def test_the_search_is_deterministic():
    assert search.searched(TEST_TIME)["sides"] == {s: r.to_json() for s, r in search.search(TEST_TIME).items()}
