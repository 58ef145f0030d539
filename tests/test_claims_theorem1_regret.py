"""iln.thm1.regret as two specifications (the printed algorithm, the descent step) decided exactly
on point masses, the descent step sampled beyond them: evaluators against the rational run,
the declared domain, the smoke verdict, the sampled part's companions, and the mutants."""

from __future__ import annotations

import functools
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from iln import theory
from iln.shrinking_gradient import shrinking_gradient
from verification import runner, search
from verification.claims.iln import theorem1_regret
from verification.claims.iln.algorithm1 import point_mass_regret as rational_point_mass_regret
from verification.claims.iln.theorem1_regret import (
    BOUND,
    DESCENT_ALGORITHM,
    PRINTED_ALGORITHM,
    point_mass_regret,
    regret_point,
)
from verification.search.decide import side_verdict
from verification.search.formula import Formula
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED

ALPHA = 1e-3 / 4  # the run's budget shared by four claims

pytestmark = pytest.mark.usefixtures("one_numba_thread")


@pytest.mark.parametrize("step", ["printed", "descent"])
def test_the_float_run_is_the_rational_run(step):
    # Both parities of T, c from near 0 to near 1, both labels, both step sizes: the float64
    # recurrence the search uses against finite_laws' rational run, a part in 1e9.
    for T in range(1, 41):
        for B, c, y, s in [(1.0, 0.999, 1.0, 0.5), (1.0, 0.5, 0.5, 1.0), (2.0, 0.3, 1.0, 0.5), (1.0, 1e-6, 1.0, 1.0),
                           (1.0, 0.1, 0.25, 0.5)]:
            eta = s * B / math.sqrt(T)
            exact, _ = rational_point_mass_regret(Fraction(B), Fraction(c), Fraction(y), T, Fraction(eta), step)
            loss_scale = T * max(1.0, (16 * B) ** 2)
            assert point_mass_regret(B, T, c, y, eta, step) == pytest.approx(float(exact), rel=1e-9,
                                                                             abs=1e-12 * loss_scale), (T, B, c, y, s)


def test_the_printed_run_shrinks_and_the_float_run_follows_it_through_the_shrinks():
    exact, shrinks = rational_point_mass_regret(Fraction(1), Fraction(0.999), Fraction(1), 256, Fraction(1 / 32),
                                                "printed")
    assert shrinks >= 3  # the pieces between shrinks are what the float recurrence sums
    assert point_mass_regret(1.0, 256, 0.999, 1.0, 1 / 32, "printed") == pytest.approx(float(exact), rel=1e-9)


def test_the_right_side_is_the_shipped_bound_of_the_proof():
    formula = Formula(BOUND)
    for B in (1.0, 1.5, 4.0):
        for T in (17, 65, 300, 2048):
            for s in (0.5, 1.0):
                eta = s * B / math.sqrt(T)
                if eta >= theory.LEMMA2_MAX_ETA:
                    continue
                shipped = float(theory.regret_bound_proof(B, T, eta))
                assert float(formula.value({"B": B, "T": T, "s": s})) == pytest.approx(shipped, rel=1e-12)


@pytest.mark.parametrize("step", ["printed", "descent"])
def test_the_shipped_algorithm_follows_the_exact_regret_on_a_point_mass(step):
    spec = PRINTED_ALGORITHM if step == "printed" else DESCENT_ALGORITHM
    for instance in ({"B": 1.0, "T": 64, "c": 0.999, "y": 1.0, "s": 0.5}, {"B": 2.0, "T": 300, "c": 0.3, "y": 0.5, "s": 1.0}):
        drawn = spec.lhs.sample(instance, np.random.SeedSequence(5))
        exact = point_mass_regret(instance["B"], instance["T"], instance["c"], instance["y"],
                                  instance["s"] * instance["B"] / math.sqrt(instance["T"]), step)
        assert drawn == pytest.approx(exact, rel=1e-9, abs=1e-9)
        low, high = spec.lhs.sample_range(instance)
        assert low <= drawn <= high


def test_no_bound_is_compared_where_the_proof_states_none():
    # eta = 1/8 exactly at T = 16 with the proof's step size (Lemma 2 needs eta < 1/8).
    instance = {"B": 1.0, "T": 16, "c": 0.999, "y": 1.0, "s": 0.5}
    assert PRINTED_ALGORITHM.lhs.exact(instance) == -math.inf
    assert PRINTED_ALGORITHM.lhs.exact({**instance, "T": 17}) > math.log(
        float(Formula(BOUND).value({"B": 1.0, "T": 17, "s": 0.5})))


def test_the_declared_domain_reaches_every_end_it_admits_or_its_stated_cap():
    declared = search.declared_domain("iln.thm1.regret")
    assert declared is not None
    variables = declared["variables"]
    assert set(variables) == {"B", "T", "c", "y", "s"}
    assert variables["T"]["admissible"]["low"] == 1
    assert variables["T"]["plan"]["searched"] == [1, 2048]
    assert variables["B"]["admissible"]["low"] == 1.0
    assert variables["B"]["plan"]["searched"] == [1.0, 8.0]
    assert variables["c"]["admissible"]["open_low"]
    assert variables["c"]["admissible"]["open_high"]
    assert variables["s"]["admissible"]["values"] == [1.0, 0.5]
    for spec in (PRINTED_ALGORITHM, DESCENT_ALGORITHM):
        for found in search.searched_sides(spec).values():
            assert found.covered == []
            assert not found.exhausted


def test_the_printed_algorithm_fails_exactly_and_the_descent_step_holds_on_point_masses():
    printed = side_verdict(PRINTED_ALGORITHM, "printed", search.searched_sides(PRINTED_ALGORITHM)["printed"].to_json())
    assert printed["verdict"] == VIOLATED
    smallest = printed["smallest_violation"]
    assert smallest["ratio"] > 1
    assert smallest["at_instance"] == "violated"
    if smallest["point"]["T"] <= theorem1_regret.RATIONAL_T:
        assert smallest["lhs_method"] == "rational arithmetic"
    descent = side_verdict(DESCENT_ALGORITHM, "printed", search.searched_sides(DESCENT_ALGORITHM)["printed"].to_json())
    assert descent["verdict"] == HOLDS
    # The minimax point mass c ~ 2 / sqrt(T) reaches about a quarter of the bound.
    assert 0.2 < descent["worst"]["ratio"] < 0.3


def test_the_smoke_verdict_is_the_printed_algorithm_s_failure_blamed_on_its_step(tmp_path):
    result = runner.run(["iln.thm1.regret"], profile="smoke", seed=0, jobs=1, store=tmp_path / "s.sqlite", quiet=True)
    json.dumps(result.to_json())
    smoke = result.outcomes[0].verdict
    assert smoke.verdict == VIOLATED
    assert smoke.verdict_printed == VIOLATED
    assert smoke.verdict_corrected == INCONCLUSIVE
    assert smoke.exact
    assert smoke.pvalue == 0.0
    assert smoke.counterexample["ratio"] > 1
    details = smoke.details
    assert details["blame"]["claim"] == "iln.alg1.update_sign"
    corrected = details["corrected"]
    assert corrected["exact_point_masses"]["verdict"] == HOLDS
    assert "sampled only" in corrected["reason"]
    sampled = corrected["sampled"]["details"]
    assert sampled["plan"]["planned"] is False  # 4 seeds: the smoke profile says it cannot fail
    assert set(sampled["companions"]) == {f"{n}/B=1/T={T}" for n in theorem1_regret.SAMPLED for T in (17, 32)}
    assert sampled["conditional_holds"]["given"] is False
    assert details["printed_regret_over_B_sqrt_T"]["T=1024"] > details["printed_regret_over_B_sqrt_T"]["T=64"]


def test_the_quick_and_full_profiles_plan_their_seeds():
    from verification import catalog

    claim = catalog.get("iln.thm1.regret")
    level = runner.DEFAULT_ALPHA / len(catalog.load())  # a claim's first level in a whole-catalog run
    for profile in ("quick", "full"):
        config = claim.config(profile)
        points = len(theorem1_regret.SAMPLED) * len(config["T_grid"])
        assert theorem1_regret.seed_plan(config, level / points)["planned"], profile


def test_the_sampled_violation_side_finds_the_printed_step(trial_records, monkeypatch):
    # The printed step in place of the shipped descent step: the sampled part must find it
    # (its regret on these sequences is far past the bound), whatever the exact part says.
    from verification import catalog

    claim = catalog.get("iln.thm1.regret")
    monkeypatch.setattr(theorem1_regret, "shrinking_gradient", functools.partial(shrinking_gradient, update="printed"))
    config = {**claim.config("smoke"), "n_trials": 16}
    verdict = theorem1_regret.sampled_verdict(trial_records(claim, config), config, ALPHA)
    assert verdict.verdict == VIOLATED
    assert verdict.pvalue <= ALPHA


def _point(values, bound=10.0, lower=-1.0):
    return theorem1_regret.rules.MeanPoint(key="p", values=list(values), bound=bound, lower=lower)


def test_the_companions_decide_the_median_and_markov_s_tail_exactly_both_ways():
    tail = 1e-3
    below = theorem1_regret.companions(_point([1.0] * 80), tail)
    assert below["median"]["verdict"] == HOLDS
    assert below["median"]["events"] == 0
    assert below["tail"]["verdict"] == HOLDS  # 0 of 80 beyond b: P < 0.1 shown
    assert below["tail"]["plan_n_holds"] == math.ceil(math.log(tail) / math.log(0.9))
    assert below["tail"]["b"] == pytest.approx((10.0 + 1.0) / 0.1 - 1.0)
    above = theorem1_regret.companions(_point([500.0] * 20), tail)
    assert above["median"]["verdict"] == VIOLATED
    assert above["tail"]["verdict"] == VIOLATED
    few = theorem1_regret.companions(_point([1.0] * 4), tail)
    assert few["median"]["verdict"] == few["tail"]["verdict"] == INCONCLUSIVE


def test_the_slopes_sign_test_reads_per_seed_growth_of_regret_over_b_sqrt_t():
    config = {"T_grid": [17, 32, 64]}
    growing = [{f"{n}/B=1/T={T}": float(T) for n in theorem1_regret.SAMPLED for T in config["T_grid"]} for _ in range(20)]
    flat = [{f"{n}/B=1/T={T}": math.sqrt(T) * (1 + 0.01 * ((i % 2) * 2 - 1) * (T == 64))
             for n in theorem1_regret.SAMPLED for T in config["T_grid"]} for i in range(20)]
    assert theorem1_regret.regret_slopes(growing, config, 1e-3)["orthogonal"]["median_slope_above_0"]
    assert not theorem1_regret.regret_slopes(flat, config, 1e-3)["orthogonal"]["median_slope_above_0"]


def test_every_false_generated_mutant_of_the_printed_statement_is_detected():
    table = search.assess(PRINTED_ALGORITHM, "printed")
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert table["survivors"] == []


def test_every_false_generated_mutant_of_the_descent_step_s_statement_is_detected():
    # On point masses the descent step reaches a quarter of the bound: factor-2 mutants are true
    # there (survivors, with that reason); the exponent of T halved is false and is found.
    table = search.assess(DESCENT_ALGORITHM, "printed")
    assert table["false"] >= 1
    assert table["detected"] == table["false"]
    false = [row["formula"] for row in table["mutants"] if row.get("false")]
    assert "B * T ** 0.25 * (1 / s + 4 * s) / (1 - 2 * s * B * T ** (-0.5))" in false
    assert all(s["reason"].startswith("true over the denser search") for s in table["survivors"])


def test_regret_point_lower_end_is_the_comparators_loss_on_a_fixed_sequence():
    point = regret_point("p", [1.0], 1.0, 256, sequence_name="orthogonal", repeats=256)
    # One row x = 0.99 under one coordinate: the best of the unit ball predicts 0.99.
    assert point.lower == pytest.approx(-256 * 0.01**2 / 2, rel=1e-9)
    assert regret_point("p", [1.0], 1.0, 64, sequence_name="section6").lower == -32
    assert regret_point("p", [1.0], 1.0, 64).lower == -32
