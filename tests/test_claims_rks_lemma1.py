"""rks.lemma1.approximation as a specification: its evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import optimize

from verification import runner, search
from verification.claims.rks.lemma1 import (
    APPROXIMATION,
    CORRECTED,
    RATIONAL_K,
    approximation_certified,
    approximation_sampling_point,
    approximation_tail,
    approximation_trial,
    best_member_distance,
    draw_ties,
)
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED


def _gram(instance):
    """The Gram matrix of phi_1, phi_2 under mu and f*'s coefficients, from the realisation the
    trial runs (two points of masses mu(X) (1 +- rho) / 2, phi_1 = u_1 (1, 1), phi_2 = u_2 (1, -1))."""
    weights = np.array([1.0 + instance["rho"], 1.0 - instance["rho"]]) * instance["mass"] / 2
    phi = np.array([[instance["u1"], instance["u2"]], [instance["u1"], -instance["u2"]]])
    t = np.array([instance["p"] * instance["b1"], (1 - instance["p"]) * instance["b2"]]) * instance["C"]
    return phi.T @ (weights[:, None] * phi), t


def _brute_force_distance(instance, n):
    """min over the box of (x - t)^T G (x - t) by a general bounded solver (L-BFGS-B from many starts)."""
    G, t = _gram(instance)
    K, C = instance["K"], instance["C"]
    box = [(-n * C / K, n * C / K), (-(K - n) * C / K, (K - n) * C / K)]
    best = math.inf
    for start in itertools.product(*[(lo, 0.0, hi) for lo, hi in box]):
        res = optimize.minimize(lambda x: (x - t) @ G @ (x - t), np.array(start), jac=lambda x: 2 * G @ (x - t),
                                bounds=box, method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-13})
        best = min(best, res.fun)
    return math.sqrt(max(best, 0.0))


def _brute_force_tail(instance):
    """P[D > eps] summed over every draw count n in rational arithmetic for the binomial weights."""
    K, p = instance["K"], Fraction(instance["p"])
    total = Fraction(0)
    for n in range(K + 1):
        if _brute_force_distance(instance, n) > instance["eps"]:
            total += math.comb(K, n) * p**n * (1 - p) ** (K - n)
    return total


INSTANCES = [
    {"K": 1, "C": 1.0, "mass": 9.0, "p": 0.5, "b1": 1.0, "b2": 1.0, "u1": 1.0, "u2": 1.0, "rho": 0.0},
    {"K": 3, "C": 2.0, "mass": 0.7, "p": 0.3, "b1": 0.8, "b2": -0.6, "u1": 0.9, "u2": 0.5, "rho": 0.4},
    {"K": 5, "C": 0.5, "mass": 3.0, "p": 0.45, "b1": 1.0, "b2": -1.0, "u1": 1.0, "u2": 0.7, "rho": 0.9},
    {"K": 6, "C": 1.0, "mass": 1.0, "p": 0.42, "b1": 1.0, "b2": -1.0, "u1": 1.0, "u2": 1.0, "rho": 0.0},
    {"K": 4, "C": 1.5, "mass": 2.0, "p": 0.2, "b1": 0.3, "b2": 1.0, "u1": 0.0, "u2": 1.0, "rho": 1.0},
]


@pytest.mark.parametrize("instance", INSTANCES)
def test_the_closed_form_best_member_is_the_minimum_over_the_box(instance):
    n = np.arange(instance["K"] + 1)
    closed = best_member_distance(instance, n)
    for k in n:
        assert closed[k] == pytest.approx(_brute_force_distance(instance, int(k)), rel=1e-6, abs=1e-7)


@pytest.mark.parametrize("instance", INSTANCES)
def test_the_exact_tail_is_the_enumerated_law(instance):
    # eps in the middle of each step of the tail, and beyond its last atom.
    atoms = np.unique(best_member_distance(instance, np.arange(instance["K"] + 1)))
    for eps in [*(atoms[:-1] + atoms[1:]) / 2, atoms[-1] + 0.1, atoms[0] / 2 + 1e-3]:
        at = {**instance, "eps": float(eps)}
        truth = _brute_force_tail(at)
        assert math.exp(float(approximation_tail(at))) == pytest.approx(float(truth), rel=1e-12, abs=0)
        certified = approximation_certified(at)
        assert certified.method == "rational arithmetic"
        if truth.denominator.bit_length() <= 132:
            assert certified.text == f"{truth.numerator}/{truth.denominator}"
        else:
            assert float(certified.text.split()[0]) == pytest.approx(float(truth), rel=1e-15)


def test_the_certified_tail_beyond_rational_k_uses_the_log_space_evaluator():
    instance = {**INSTANCES[3], "K": RATIONAL_K + 1, "eps": 0.01}
    assert approximation_certified(instance).method.startswith("log-space float64")
    assert approximation_certified({**instance, "K": RATIONAL_K}).method == "rational arithmetic"


def test_the_exact_tail_reaches_below_1e_300_without_underflow():
    # f* = 0.3 C phi_1: the best member misses it by more than eps = 0.3 C - C / (2K) only when
    # no draw is w_1, probability 0.7^2000 = exp(-713.4), which a float64 probability cannot hold.
    instance = {"K": 2000, "C": 1.0, "mass": 1.0, "p": 0.3, "b1": 1.0, "b2": 0.0, "u1": 1.0, "u2": 1.0,
                "rho": 0.0, "eps": 0.3 - 0.5 / 2000}
    log = float(approximation_tail(instance))
    assert log == pytest.approx(2000 * math.log(0.7), rel=1e-12)
    assert log < math.log(1e-300)


def test_the_sampling_point_keeps_the_exact_tail_and_leaves_the_ties():
    instance = {**INSTANCES[3], "eps": 0.0}
    atoms = np.unique(best_member_distance(instance, np.arange(7)))
    at = {**instance, "eps": float(atoms[2]) * (1 - 1e-12)}
    moved = approximation_sampling_point(at)
    assert float(approximation_tail(moved)) == float(approximation_tail(at))
    assert moved["eps"] == pytest.approx((atoms[1] + atoms[2]) / 2, rel=1e-12)


def test_the_jumps_in_p_are_where_a_box_reaches_f_star():
    ties = draw_ties({"K": 4, "b1": 1.0, "b2": -0.8})
    # p b_1 = n / 4 and (1 - p) 0.8 = (4 - n) / 4 within (0, 1/2): p = 1/4 (n = 1), and
    # p = 1 - (4 - n) / 3.2 = 1/16, 3/8 (n = 1, 2); each with the values just beside it.
    assert set(np.round(ties, 6)) == {0.0625, 0.25, 0.375}
    assert ties.size == 9


def test_the_shipped_code_follows_the_exact_law():
    instance = {**INSTANCES[1], "eps": 0.0}
    atoms = np.unique(best_member_distance(instance, np.arange(4)))
    at = {**instance, "eps": float((atoms[1] + atoms[2]) / 2)}
    n = 3000
    hits = sum(approximation_trial(at, np.random.SeedSequence([11, i])) for i in range(n))
    exact = math.exp(float(approximation_tail(at)))
    assert 0.05 < exact < 0.95
    assert abs(hits / n - exact) < 4 * math.sqrt(exact * (1 - exact) / n)


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("rks.lemma1.approximation")
    assert list(declared["variables"]) == ["K", "eps", "C", "mass", "p", "b1", "b2", "u1", "u2", "rho"]
    assert declared["variables"]["K"]["admissible"]["text"] == "integers in [1, inf)"
    assert declared["variables"]["mass"]["admissible"]["text"] == "(0, inf)"
    assert declared["variables"]["b2"]["admissible"]["text"] == "[-1, 1]"
    assert declared["sides"] == {"printed": "exp(-max(K**0.5 * eps / C - 1, 0)**2 / 2)",
                                 CORRECTED: "exp(-max(K**0.5 * eps / (C * mass**0.5) - 1, 0)**2 / 2)"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("rks_lemma1") / "s.sqlite"
    return runner.run(["rks.lemma1.approximation"], profile="smoke", seed=0, jobs=1, store=store,
                      quiet=True).outcomes[0].verdict


def test_the_printed_bound_is_violated_exactly_and_the_correction_holds_over_the_covered_domain(smoke):
    assert smoke.verdict == HOLDS_AFTER_CORRECTION
    assert smoke.verdict_printed == VIOLATED
    assert smoke.verdict_corrected == HOLDS
    smallest = smoke.counterexample
    assert smallest["point"]["K"] == 1
    assert smallest["point"]["mass"] > 4  # a measure of mass above 1: the erratum
    assert smallest["lhs"] == "1/1"
    assert smallest["lhs_method"] == "rational arithmetic"
    corrected = smoke.details["sides"][CORRECTED]
    assert corrected["worst"]["ratio"] < 1
    for side in smoke.details["coverage"].values():
        assert all(v["covered"] for v in side.values()), side
    assert all(row["conforms"] for row in smoke.details["points"].values())
    assert all(row["agrees"] for row in smoke.details["shipped_right_sides"])


def test_the_coverage_reaches_delta_1e_300_and_its_largest_value(smoke):
    coverage = smoke.details["coverage"]["printed"]
    assert coverage["K"]["searched"] == [1, 2**16]
    assert coverage["p"]["searched"] == [0.0, 0.5]
    assert coverage["rho"]["searched"] == [0.0, 1.0]
    assert coverage["mass"]["searched"] == [1e-6, 1e6]
    # eps from where the bound is 1 - 1e-12 (delta's largest value) to where it is 1e-300.
    low, high = coverage["eps"]["searched"]
    assert low == pytest.approx(1e-3 / 2**8, rel=1e-3) or low < 1e-3
    assert high > 1e3 * 38


def test_an_implementation_off_the_exact_law_makes_the_verdict_inconclusive():
    config = {"search": search.searched(APPROXIMATION)}
    # Every trial misses every event: the instances certain to fail show it.
    records = [{p["key"]: False for p in config["search"]["confirm"]} for _ in range(400)]
    verdict = search.decide(APPROXIMATION, records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert "does not follow the exact law" in verdict.details["reason"]
    assert verdict.verdict_printed == VIOLATED


def test_every_false_generated_mutant_of_the_correction_is_detected():
    table = search.assess(APPROXIMATION, CORRECTED)
    assert table["generated"] == 14
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert all(s["reason"].startswith("true over the denser search") for s in table["survivors"])
    false = {row["formula"] for row in table["mutants"] if row.get("false")}
    # the rate 1/K, and the measure's mass with the wrong power either way
    assert "exp(-max(K ** 1.0 * eps / (C * mass ** 0.5) - 1, 0) ** 2 / 2)" in false
    assert "exp(-max(K ** 0.5 * eps / (C * mass ** 1.0) - 1, 0) ** 2 / 2)" in false
    assert "exp(-max(K ** 0.5 * eps / (C * mass ** 0.25) - 1, 0) ** 2 / 2)" in false


def test_the_search_is_deterministic():
    """The configuration holds the search's result: another process must find the same."""
    assert search.searched(APPROXIMATION)["sides"] == {s: r.to_json() for s, r in search.search(APPROXIMATION).items()}


def test_a_trial_is_a_function_of_the_seed():
    config = {"search": search.searched(APPROXIMATION)}
    one = search.confirm(APPROXIMATION, config, np.random.SeedSequence(5))
    assert one == search.confirm(APPROXIMATION, config, np.random.SeedSequence(5))
    assert set(one) == {p["key"] for p in config["search"]["confirm"]}
