"""iln.lemma3.variance as a specification: its evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from iln import estimator
from verification import runner, search
from verification.claims.iln.lemma3 import (
    VARIANCE,
    alpha_l1,
    squared_error_draw,
    variance_certified,
    variance_exact,
    variance_range,
)
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED


def _brute_force(instance) -> Fraction:
    """E[(E - <f, Phi(x)>)^2] k(x, x) by enumerating the 2^m sign sequences of Algorithm 2's terms
    (each +-a s^2, + with probability p), in rational arithmetic."""
    m = instance["m"]
    p, s = Fraction(instance["p"]), Fraction(instance["s"])
    B, eta, load = Fraction(instance["B"]), Fraction(instance["eta"]), Fraction(instance["load"])
    term = load * (16 * B + 1) * eta * (instance["t"] - 1) * s**2
    mean = term * (2 * p - 1)
    total = Fraction(0)
    for signs in range(2**m):
        plus = bin(signs).count("1")
        E = term * Fraction(2 * plus - m, m)
        total += p**plus * (1 - p) ** (m - plus) * (E - mean) ** 2
    return total * s**2


_INSTANCES = [
    {"m": 1, "t": 2, "B": 1.0, "eta": 0.0625, "load": 1.0, "p": 0.5, "s": 0.999},
    {"m": 3, "t": 5, "B": 2.5, "eta": 0.1, "load": 0.3, "p": 0.25, "s": 0.7},
    {"m": 7, "t": 9, "B": 1.0, "eta": 0.01, "load": 0.9, "p": 0.9, "s": 0.6},
    {"m": 4, "t": 1, "B": 1.0, "eta": 0.1, "load": 1.0, "p": 0.5, "s": 0.9},  # t = 1: alpha^(1) = 0
    {"m": 2, "t": 3, "B": 1.0, "eta": 0.1, "load": 1.0, "p": 1.0, "s": 0.9},  # every term +: no variance
]


@pytest.mark.parametrize("instance", _INSTANCES)
def test_the_exact_variance_is_the_enumerated_law(instance):
    truth = _brute_force(instance)
    certified = variance_certified(instance)
    assert certified.method == "rational arithmetic"
    if truth == 0:
        assert certified.log == -math.inf
        assert certified.text == "0"
        assert float(variance_exact(instance)) == -math.inf
        return
    assert certified.log == pytest.approx(math.log(truth), rel=1e-14)
    assert float(np.exp(variance_exact(instance))) == pytest.approx(float(truth), rel=1e-12)


def test_the_l1_norm_is_lemma_5_s_bound_at_load_one():
    instance = {"m": 1, "t": 7, "B": 2.0, "eta": 0.1, "load": 1.0, "p": 0.5, "s": 0.5}
    assert alpha_l1(instance) == pytest.approx((16 * 2 + 1) * 0.1 * 6)
    assert alpha_l1({**instance, "load": 0.25}) == pytest.approx(alpha_l1(instance) / 4)


def test_algorithm_2_on_sign_features_follows_the_exact_variance():
    instance = {"m": 3, "t": 4, "B": 1.0, "eta": 0.05, "load": 0.8, "p": 0.3, "s": 0.8}
    n = 4000
    draws = np.array([squared_error_draw(instance, np.random.SeedSequence([11, i])) for i in range(n)])
    low, high = variance_range(instance)
    assert draws.min() >= low
    assert draws.max() <= high
    exact = float(np.exp(variance_exact(instance)))
    assert abs(draws.mean() - exact) < 4 * draws.std() / math.sqrt(n)


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("iln.lemma3.variance")
    assert list(declared["variables"]) == ["m", "t", "B", "eta", "load", "p", "s"]
    variables = declared["variables"]
    assert variables["m"]["admissible"]["text"] == "integers in [1, inf)"
    assert variables["B"]["admissible"]["text"] == "[1, inf)"
    assert variables["eta"]["admissible"]["text"] == "(0, 0.125)"
    assert variables["load"]["admissible"]["text"] == "[0, 1]"
    assert variables["s"]["admissible"]["text"] == "(0, 1)"
    assert declared["sides"] == {"printed": "((16 * B + 1) * eta * t)**2 / m"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("lemma3") / "s.sqlite"
    return runner.run(["iln.lemma3.variance"], profile="smoke", seed=0, jobs=1, store=store, quiet=True).outcomes[0].verdict


def test_the_printed_bound_holds_over_the_covered_domain(smoke):
    assert smoke.verdict == HOLDS
    assert smoke.verdict_printed == HOLDS
    worst = smoke.details["sides"]["printed"]["worst"]
    # The supremum 1 is approached at load = 1, p = 1/2, s -> 1, t -> inf: at t = 2^20 the
    # ratio is (1 - 2^-20)^2 up to the s end's 1e-11.
    assert worst["point"]["t"] == 2**20
    assert worst["point"]["load"] == 1.0
    assert worst["point"]["p"] == 0.5
    assert worst["log10_ratio"] * math.log(10) == pytest.approx(2 * math.log1p(-(2.0**-20)), rel=1e-4)
    assert worst["lhs_method"] == "rational arithmetic"
    for variable in smoke.details["coverage"]["printed"].values():
        assert variable["covered"], variable
    assert smoke.details["points"]
    assert all(row["conforms"] for row in smoke.details["points"].values())


def test_the_coverage_reaches_each_end(smoke):
    coverage = smoke.details["coverage"]["printed"]
    assert coverage["m"]["searched"] == [1, 2**16]
    assert coverage["t"]["searched"] == [1, 2**20]
    assert coverage["load"]["searched"] == [0.0, 1.0]
    assert coverage["eta"]["ends"]["high"].startswith("approached")
    assert coverage["s"]["ends"]["high"].startswith("approached")


def test_an_algorithm_2_without_its_one_over_m_is_refused_naming_the_range(monkeypatch):
    """Draws of an Algorithm 2 that forgets its 1/m leave the a-priori range ``(2 a s^2)^2 s^2``
    at the sampled instance with m > 1; the decision refuses them, naming the instance."""
    fast = estimator._IMPLEMENTATIONS["fast"]
    monkeypatch.setitem(estimator._IMPLEMENTATIONS, "fast",
                        lambda alpha, X, x, m, family, seed: m * fast(alpha, X, x, m, family, seed))
    config = {"search": search.searched(VARIANCE)}
    assert any(p["sample_at"]["m"] > 1 for p in config["search"]["confirm"])
    records = [search.confirm(VARIANCE, config, np.random.SeedSequence([5, i])) for i in range(50)]
    with pytest.raises(ValueError, match="a-priori range"):
        search.decide(VARIANCE, records, config, 1e-3)


def test_a_shipped_bound_other_than_the_statement_s_makes_the_verdict_inconclusive():
    config = {"search": search.searched(VARIANCE)}
    records = [search.confirm(VARIANCE, config, np.random.SeedSequence([3, i])) for i in range(100)]
    assert search.decide(VARIANCE, records, config, 1e-3).verdict == HOLDS
    # A shipped bound with (16B+1) eta (t-1): a part in 2^19 off at t = 2^20, beyond the 1e-9 allowed.
    wrong = replace(VARIANCE, shipped={"printed": lambda i: ((16 * i["B"] + 1) * i["eta"] * (i["t"] - 1)) ** 2 / i["m"]})
    verdict = search.decide(wrong, records, config, 1e-3)
    rows = verdict.details["shipped_right_sides"]
    assert rows
    assert not any(r["agrees"] for r in rows)
    assert verdict.verdict == INCONCLUSIVE


def test_every_false_generated_mutant_is_detected():
    table = search.assess(VARIANCE, "printed")
    assert table["generated"] == 7
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert table["survivors"] == []
    kinds = {row["kind"] for row in table["mutants"] if row.get("false")}
    assert {"prefactor dropped", "exponent doubled", "exponent halved", "constant halved"} <= kinds


def test_half_the_bound_is_violated_at_the_smallest_m():
    """Half the printed bound is exceeded (the ratio passes 1/2 from t = 4 on), smallest m first."""
    halved = search.search_side(VARIANCE.with_side("printed", "((16 * B + 1) * eta * t)**2 / (2 * m)"), "printed")
    assert halved.smallest_violation is not None
    assert halved.smallest_violation.point["m"] == 1
    assert halved.smallest_violation.point["t"] >= 4


def test_the_search_is_deterministic():
    assert search.searched(VARIANCE)["sides"] == {s: r.to_json() for s, r in search.search(VARIANCE).items()}


def test_a_mutant_of_the_formula_is_violated_at_the_searched_instances():
    mutated = VARIANCE.with_side("printed", "(eta * t)**2 / m")
    config = {"search": search.searched(VARIANCE)}
    verdict = search.decide(mutated, [], config, 1e-3)
    # The statement side is violated exactly (the self-test's mutant reads verdict_printed); the
    # whole verdict is inconclusive because iln.theory still ships the unmutated bound.
    assert verdict.verdict_printed == VIOLATED
    assert verdict.verdict == INCONCLUSIVE
    assert "the shipped printed right side" in verdict.details["reason"]
    assert verdict.details["sides"]["printed"]["worst"]["at_instance"] == "violated"
