"""iln.lemma4.hoeffding as a specification: its evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from verification import runner, search
from verification.claims.iln.lemma4 import (
    HOEFFDING,
    LOG_FLOOR,
    RATIONAL_M,
    hoeffding_counterexample,
    tail_certified,
    tail_exact,
    tail_sampling_point,
    tail_trial,
)
from verification.search.decide import confirm_points
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED

CORRECTED = "two-sided Hoeffding"


def _brute_force(m, eps, a, p, s):
    """P[|E - <f, Phi(x)>| > eps] by enumerating the 2^m sign sequences of Algorithm 2's terms."""
    total = Fraction(0)
    p, term = Fraction(p), Fraction(a) * Fraction(s) ** 2
    mean = term * (2 * p - 1)
    for signs in range(2**m):
        plus = bin(signs).count("1")
        E = term * (2 * plus - m) / m
        if abs(E - mean) > Fraction(eps):
            total += p**plus * (1 - p) ** (m - plus)
    return total


@pytest.mark.parametrize(("m", "eps", "a", "p", "s"), [
    (1, 0.5, 1.0, 0.5, 0.999), (2, 0.9, 1.0, 0.5, 0.999), (3, 0.2, 2.5, 0.3, 0.7), (7, 0.05, 0.5, 0.9, 0.6),
    (8, 0.4, 1.0, 0.125, 0.9), (5, 0.0, 1.0, 0.5, 0.5)])
def test_the_exact_tail_is_the_enumerated_law(m, eps, a, p, s):
    instance = {"m": m, "eps": eps, "a": a, "p": p, "s": s}
    truth = _brute_force(m, eps, a, p, s)
    certified = tail_certified(instance)
    assert certified.method == "rational arithmetic"
    assert certified.log == (pytest.approx(math.log(truth), rel=1e-14) if truth else -math.inf)
    if len(str(truth.denominator)) <= 40:  # shown as the fraction itself
        assert certified.text == (f"{truth.numerator}/{truth.denominator}" if truth else "0")
    else:  # as 17 digits of it
        assert float(certified.text.split()[0]) == pytest.approx(float(truth), rel=1e-15)
    assert float(np.exp(tail_exact(instance))) == pytest.approx(float(truth), rel=1e-12, abs=0)


def test_the_exact_tail_reaches_below_1e_300_without_underflow():
    instance = {"m": 1500, "eps": 0.9, "a": 1.0, "p": 0.5, "s": 0.999}
    fast, certified = float(tail_exact(instance)), tail_certified(instance)
    assert -LOG_FLOOR < fast < math.log(1e-320)  # a float64 probability would be 0
    assert fast == pytest.approx(certified.log, rel=1e-12)
    # Below exp(-LOG_FLOOR) the fast evaluator says 0 (no right side searched is that small);
    # the rational one still has the value.
    far = {**instance, "m": 4000}
    assert float(tail_exact(far)) == -math.inf
    assert tail_certified(far).log == pytest.approx(-1993.135, rel=1e-6)


def test_the_certified_tail_beyond_rational_m_uses_the_log_space_evaluator():
    instance = {"m": RATIONAL_M + 1, "eps": 0.05, "a": 1.0, "p": 0.5, "s": 0.9}
    assert tail_certified(instance).method.startswith("log-space float64")


def test_the_erratum_counterexample_is_an_instance_of_the_specification():
    # +-0.998 terms, m = 2, eps = 0.9: probability 1/2 (hoeffding_counterexample); on sign features
    # of scale s the terms are +-s^2, so s = sqrt(0.998) gives the same law.
    instance = {"m": 2, "eps": 0.9, "a": 1.0, "p": 0.5, "s": math.sqrt(0.998)}
    assert hoeffding_counterexample(2, Fraction(9, 10))["probability"] == Fraction(1, 2)
    assert tail_certified(instance).text == "1/2"


def test_the_sampling_point_keeps_the_exact_tail_and_leaves_the_ties():
    # |E| takes the values (0.2, 0.6, 1) s^2 = (0.162, 0.486, 0.81): eps just below the tie 0.486.
    instance = {"m": 5, "eps": 0.486 * (1 - 1e-12), "a": 1.0, "p": 0.5, "s": 0.9}
    moved = tail_sampling_point(instance)
    assert float(tail_exact(moved)) == float(tail_exact(instance))
    assert moved["eps"] == pytest.approx(0.324, rel=1e-9)  # halfway between the ties 0.162 and 0.486
    assert tail_certified(moved).text == tail_certified(instance).text == "3/8"


def test_algorithm_2_on_sign_features_follows_the_exact_law():
    instance = {"m": 3, "eps": 0.5, "a": 2.0, "p": 0.25, "s": 0.8}  # P = 0.75^3 + 3 0.25^2 0.75 + 0.25^3
    n = 4000
    hits = sum(tail_trial(instance, np.random.SeedSequence([7, i])) for i in range(n))
    exact = float(np.exp(tail_exact(instance)))
    assert abs(hits / n - exact) < 4 * math.sqrt(exact * (1 - exact) / n)


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("iln.lemma4.hoeffding")
    assert list(declared["variables"]) == ["m", "eps", "a", "p", "s"]
    assert declared["variables"]["m"]["admissible"]["text"] == "integers in [1, inf)"
    assert declared["variables"]["s"]["admissible"]["text"] == "(0, 1)"
    assert declared["sides"] == {"printed": "exp(-m * eps**2 / a**2)", CORRECTED: "2 * exp(-m * eps**2 / (2 * a**2))"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("lemma4") / "s.sqlite"
    return runner.run(["iln.lemma4.hoeffding"], profile="smoke", seed=0, jobs=1, store=store, quiet=True).outcomes[0].verdict


def test_the_printed_bound_is_violated_exactly_and_the_correction_holds_over_the_covered_domain(smoke):
    assert smoke.verdict == HOLDS_AFTER_CORRECTION
    assert smoke.verdict_printed == VIOLATED
    assert smoke.verdict_corrected == HOLDS
    # The smallest counterexample: one term, beyond eps surely, against exp(-s^4) -> 1/e.
    smallest = smoke.counterexample
    assert smallest["point"]["m"] == 1
    assert smallest["lhs"] == "1/1"
    assert smallest["lhs_method"] == "rational arithmetic"
    assert smallest["ratio"] == pytest.approx(math.e, rel=1e-9)
    corrected = smoke.details["sides"][CORRECTED]
    assert corrected["worst"]["ratio"] < 1
    for side in smoke.details["coverage"].values():
        assert all(v["covered"] for v in side.values()), side
    assert all(row["conforms"] for row in smoke.details["points"].values())


def test_the_coverage_names_each_variable_s_admissible_domain_and_searched_range(smoke):
    coverage = smoke.details["coverage"]["printed"]
    assert coverage["m"]["searched"] == [1, 2**20]
    assert coverage["p"]["searched"] == [0.0, 1.0]
    assert coverage["s"]["ends"]["high"].startswith("approached")
    assert coverage["eps"]["searched"][1] > 1e6  # where exp(-m eps^2/a^2) = 1e-300 at a = 1e6, m = 1


def test_an_implementation_off_the_exact_law_makes_the_verdict_inconclusive(smoke):
    config = {"search": search.searched(HOEFFDING)}
    # Every trial misses every event: the m = 1 instance, certain to hit, shows it.
    records = [{p["key"]: False for p in config["search"]["confirm"]} for _ in range(400)]
    verdict = search.decide(HOEFFDING, records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert "does not follow the exact law" in verdict.details["reason"]
    assert verdict.verdict_printed == VIOLATED  # the exact verdicts stand


def test_the_sampled_instances_include_the_smallest_violation_and_an_informative_one():
    points = confirm_points(HOEFFDING, search.searched(HOEFFDING)["sides"])
    roles = {role for p in points for role in p["roles"]}
    assert {"printed/smallest violation", "printed/sampleable", f"{CORRECTED}/worst"} <= roles
    assert all(p["p"] >= 1e-9 for p in points)


def test_every_false_generated_mutant_of_the_correction_is_detected():
    table = search.assess(HOEFFDING, CORRECTED)
    assert table["generated"] == 12
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert table["survivors"] == []
    kinds = {row["kind"] for row in table["mutants"] if row.get("false")}
    assert {"prefactor dropped", "exponent doubled", "exponent halved"} <= kinds


def test_a_shipped_tail_other_than_the_statement_s_makes_the_verdict_inconclusive():
    """iln.theory ships the tails (iln.lemma2.shrink_penalty and users call them): one with the
    range ||alpha||_1 instead of 2 ||alpha||_1 is caught at the searched instances."""
    config = {"search": search.searched(HOEFFDING)}
    records = [search.confirm(HOEFFDING, config, np.random.SeedSequence([3, i])) for i in range(200)]
    assert search.decide(HOEFFDING, records, config, 1e-3).verdict == HOLDS_AFTER_CORRECTION
    wrong = replace(HOEFFDING, shipped={CORRECTED: lambda i: 2 * math.exp(-2 * i["m"] * i["eps"] ** 2 / i["a"] ** 2)})
    verdict = search.decide(wrong, records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert f"the shipped {CORRECTED} right side" in verdict.details["reason"]


def test_the_search_is_deterministic():
    """The configuration holds the search's result: another process must find the same, or
    the stored trials would be keyed anew on every run."""
    assert search.searched(HOEFFDING)["sides"] == {s: r.to_json() for s, r in search.search(HOEFFDING).items()}
