"""iln.lemma5.tail (ICML Lemma 5, eq. (20) / arXiv Lemma 4, eq. (16)) as a specification: its
evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from iln import theory
from verification import runner, search
from verification.claims.iln.lemma5 import (
    TAIL,
    estimate_tail_certified,
    estimate_tail_exact,
    estimate_tail_trial,
    round_two_counterexample,
)
from verification.search.formula import Formula
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED

CORRECTED = "two-sided Hoeffding"


def _binomial_sum(m, eps, a, p, s):
    """P[|E - <f, Phi(x)>| > eps] as a sum over K ~ Binomial(m, p) in rational arithmetic:
    ``E - <f, Phi(x)> = 2 a s^2 (K/m - p)``."""
    p, term = Fraction(p), Fraction(a) * Fraction(s) ** 2
    return sum((math.comb(m, k) * p**k * (1 - p) ** (m - k) for k in range(m + 1)
                if abs(2 * term * (Fraction(k, m) - p)) > Fraction(eps)), Fraction(0))


@pytest.mark.parametrize(("m", "eps", "B", "eta", "t", "r", "p", "s"), [
    (1, 0.5, 1.0, 1.0, 2, 1 / 34, 0.5, 0.999), (3, 0.2, 1.0, 0.1, 3, 0.5, 0.3, 0.7),
    (7, 0.05, 2.0, 0.01, 5, 1.0, 0.9, 0.6), (8, 40.0, 1.0, 1.0, 8, 0.25, 0.125, 0.9)])
def test_the_exact_tail_is_the_binomial_law_at_the_l1_norm(m, eps, B, eta, t, r, p, s):
    instance = {"m": m, "eps": eps, "B": B, "eta": eta, "t": t, "r": r, "p": p, "s": s}
    a = r * (16 * B + 1) * eta * t
    truth = _binomial_sum(m, eps, a, p, s)
    assert truth > 0
    certified = estimate_tail_certified(instance)
    assert certified.method == "rational arithmetic"
    assert certified.log == pytest.approx(math.log(truth), rel=1e-12, abs=1e-15)
    assert float(np.exp(estimate_tail_exact(instance))) == pytest.approx(float(truth), rel=1e-12)


def test_the_round_two_counterexample_is_an_instance_of_the_specification():
    """Algorithm 1's own alpha^(2) = (-eta) (t = 2, B = 1): r = eta / (34 eta)."""
    out = round_two_counterexample(Fraction(1, 2))
    assert out["probability"] == 1
    assert out["violates_printed"]
    assert out["bound"] == pytest.approx(math.exp(-0.25 / 34**2), rel=1e-15)
    instance = {"m": 1, "eps": 0.5, "B": 1.0, "eta": 1.0, "t": 2, "r": 1 / 34, "p": 0.5, "s": 0.999}
    assert estimate_tail_certified(instance).text == "1/1"
    printed = float(Formula(TAIL.printed).value(instance))
    assert printed == pytest.approx(out["bound"], rel=1e-12)
    assert printed < 1
    # The corrected bound is trivial there (2 exp(-x/2) > 1): no counterexample to it.
    assert float(Formula(TAIL.corrected[CORRECTED]).value(instance)) > 1


def test_algorithm_2_at_the_l1_norm_follows_the_exact_law(follows_exact_law):
    # a = 0.5 * 17 * 0.1 * 2 = 1.7, eps = a / 4: |K/3 - 1/4| > 0.195 for K = 0, 2, 3.
    instance = {"m": 3, "eps": 0.425, "B": 1.0, "eta": 0.1, "t": 2, "r": 0.5, "p": 0.25, "s": 0.8}
    follows_exact_law(estimate_tail_trial, estimate_tail_exact, instance, seed=11)


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("iln.lemma5.tail")
    assert list(declared["variables"]) == ["m", "eps", "B", "eta", "t", "r", "p", "s"]
    assert declared["variables"]["r"]["admissible"]["text"] == "(0, 1]"
    assert declared["variables"]["B"]["admissible"]["text"] == "[1, inf)"
    assert declared["variables"]["t"]["admissible"]["text"] == "integers in [1, inf)"
    assert declared["sides"] == {"printed": "exp(-eps**2 * m / ((16 * B + 1) * eta * t)**2)",
                                 CORRECTED: "2 * exp(-eps**2 * m / (2 * ((16 * B + 1) * eta * t)**2))"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("lemma5") / "s.sqlite"
    return runner.run(["iln.lemma5.tail"], profile="smoke", seed=0, jobs=1, store=store, quiet=True).outcomes[0].verdict


def test_printed_eq_20_is_violated_exactly_and_its_correction_holds_over_the_covered_domain(smoke):
    assert smoke.verdict == HOLDS_AFTER_CORRECTION
    assert smoke.verdict_printed == VIOLATED
    assert smoke.verdict_corrected == HOLDS
    # The smallest counterexample: one term, at Lemma 5's bound, against exp(-s^4) -> 1/e.
    smallest = smoke.counterexample
    assert (smallest["point"]["m"], smallest["point"]["t"]) == (1, 1)
    assert smallest["point"]["r"] == 1.0
    assert smallest["lhs"] == "1/1"
    assert smallest["ratio"] == pytest.approx(math.e, rel=1e-9)
    assert smoke.details["sides"][CORRECTED]["worst"]["ratio"] < 1
    for side in smoke.details["coverage"].values():
        assert all(v["covered"] for v in side.values()), side
    assert all(row["conforms"] for row in smoke.details["points"].values())
    assert smoke.details["shipped_right_sides"]
    assert all(r["agrees"] for r in smoke.details["shipped_right_sides"])


def test_the_coverage_reaches_every_end_of_every_variable(smoke):
    coverage = smoke.details["coverage"][CORRECTED]
    assert coverage["m"]["searched"] == [1, 2**20]
    assert coverage["t"]["searched"] == [1, 2**20]
    assert coverage["r"]["searched"][1] == 1.0
    assert coverage["r"]["searched"][0] <= 1e-11
    assert coverage["B"]["searched"] == [1.0, 1e6]
    assert coverage["eta"]["searched"] == [1e-6, 1e6]
    assert coverage["p"]["searched"] == [0.0, 1.0]


def test_an_implementation_off_the_exact_law_makes_the_verdict_inconclusive():
    config = {"search": search.searched(TAIL)}
    records = [{p["key"]: False for p in config["search"]["confirm"]} for _ in range(400)]
    verdict = search.decide(TAIL, records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert "does not follow the exact law" in verdict.details["reason"]
    assert verdict.verdict_printed == VIOLATED


def test_a_shipped_tail_other_than_the_statement_s_makes_the_verdict_inconclusive():
    """iln.theory ships eq. (20) and its correction: one with Lemma 5's bound at t - 1 is caught."""
    config = {"search": search.searched(TAIL)}
    records = [search.confirm(TAIL, config, np.random.SeedSequence([5, i])) for i in range(200)]
    assert search.decide(TAIL, records, config, 1e-3).verdict == HOLDS_AFTER_CORRECTION

    def off_by_a_round(i):
        return float(theory.hoeffding_tail_corrected(i["m"], i["eps"], (16 * i["B"] + 1) * i["eta"] * (i["t"] + 1)))

    verdict = search.decide(replace(TAIL, shipped={CORRECTED: off_by_a_round}), records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert f"the shipped {CORRECTED} right side" in verdict.details["reason"]


def test_every_false_generated_mutant_of_the_correction_is_detected():
    table = search.assess(TAIL, CORRECTED)
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert table["survivors"] == []
    kinds = {row["kind"] for row in table["mutants"] if row.get("false")}
    assert {"prefactor dropped", "constant halved", "exponent doubled"} <= kinds


def test_the_search_is_deterministic():
    assert search.searched(TAIL)["sides"] == {s: r.to_json() for s, r in search.search(TAIL).items()}
