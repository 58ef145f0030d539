"""iln.lemma5.alpha_l1 as a specification: its evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from specification_checks import (
    assert_covered_and_conforming,
    assert_off_the_exact_value_is_inconclusive,
    smoke_verdict,
)

from verification import search
from verification.claims.iln.finite_laws import point_mass, run_law
from verification.claims.iln.lemma5_alpha_l1 import (
    ALPHA_L1,
    alpha_l1_certified,
    alpha_l1_exact,
    alpha_l1_trial,
    labels,
)
from verification.search.decide import side_verdict
from verification.verdicts import HOLDS, VIOLATED

INSTANCES = [
    {"B": 1.0, "eta": 10.0, "c": 0.999, "t": 3, "pattern": 255, "level": 1.0},  # E_2 = 9.98 < 16, no shrink
    {"B": 1.0, "eta": 20.0, "c": 0.9, "t": 5, "pattern": 255, "level": 1.0},  # shrinks at round 3
    {"B": 2.5, "eta": 0.75, "c": 0.6, "t": 9, "pattern": 0b10110101, "level": 0.5},
    {"B": 1.0, "eta": 3.0, "c": 0.0, "t": 7, "pattern": 0b00000110, "level": 0.25},  # psi = 0: E_t = 0
    {"B": 1.0, "eta": 1.0, "c": 0.5, "t": 1, "pattern": 255, "level": 1.0},  # alpha^(1) = 0
]


def _brute_force(instance) -> Fraction:
    """||alpha^(t)||_1 from the enumeration of every branch of Algorithm 1 (printed step) in
    rational arithmetic (verification.claims.iln.finite_laws): one branch of probability 1."""
    t = instance["t"]
    if t == 1:
        return Fraction(0)
    branches = run_law(point_mass(Fraction(instance["c"])), [0] * (t - 1),
                       [Fraction(y) for y in labels(instance["pattern"], Fraction(instance["level"]), t - 1)],
                       B=Fraction(instance["B"]), eta=Fraction(instance["eta"]), m=3, step="printed")
    assert len(branches) == 1
    assert branches[0].probability == 1
    return sum(branches[0].final)


@pytest.mark.parametrize("instance", INSTANCES)
def test_the_exact_norm_is_the_enumerated_run_and_the_shipped_one(instance):
    truth = _brute_force(instance)
    certified = alpha_l1_certified(instance)
    assert certified.method == "rational arithmetic"
    assert certified.log == (pytest.approx(math.log(truth), rel=1e-14) if truth else -math.inf)
    fast = alpha_l1_exact(instance)
    assert (math.exp(fast) if truth else fast) == (pytest.approx(float(truth), rel=1e-12) if truth else -math.inf)
    assert alpha_l1_trial(instance, np.random.SeedSequence(5)) == pytest.approx(float(truth), rel=1e-12, abs=0)


def test_the_trial_does_not_depend_on_the_seed():
    instance = INSTANCES[2]
    assert alpha_l1_trial(instance, np.random.SeedSequence(1)) == alpha_l1_trial(instance, np.random.SeedSequence(2))


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("iln.lemma5.alpha_l1")
    assert list(declared["variables"]) == ["B", "eta", "c", "t", "pattern", "level"]
    assert declared["variables"]["B"]["admissible"]["text"] == "[1, inf)"
    assert declared["variables"]["eta"]["admissible"]["text"] == "(0, inf)"
    assert declared["variables"]["c"]["admissible"]["text"] == "[0, 1)"
    assert declared["variables"]["t"]["admissible"]["text"] == "integers in [1, inf)"
    assert declared["sides"] == {"printed": "(16 * B + 1) * eta * t"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    return smoke_verdict("iln.lemma5.alpha_l1", tmp_path_factory.mktemp("alpha_l1"))


def test_the_lemma_holds_over_the_covered_domain_far_from_its_bound(smoke):
    assert smoke.verdict == HOLDS
    assert smoke.verdict_printed == HOLDS
    worst = smoke.details["sides"]["printed"]["worst"]
    assert worst["lhs_method"] == "rational arithmetic"
    # Long runs: about 16B / ((16B + 1) log(16B + 1)) = 0.332 at B = 1 (the module's docstring).
    assert 0.3 < worst["ratio"] < 0.34
    assert worst["point"]["B"] == 1.0
    assert smoke.details["coverage"]["printed"]["t"]["searched"] == [1, 2**10]
    assert_covered_and_conforming(smoke)


def test_a_run_off_the_exact_norm_makes_the_verdict_inconclusive():
    # Every run reports 0: the worst instance's norm is far from 0.
    assert_off_the_exact_value_is_inconclusive(ALPHA_L1, 0.0)


def test_the_mutant_without_16_b_is_violated_by_the_claim_s_own_search():
    mutant = ALPHA_L1.with_side("printed", "(B + 1) * eta * t")
    decided = side_verdict(mutant, "printed", search.search_side(mutant, "printed").to_json())
    assert decided["verdict"] == VIOLATED
    assert decided["worst"]["lhs_method"] == "rational arithmetic"


@pytest.mark.slow
def test_every_false_generated_mutant_is_detected():
    """Of the 5 generated mutants 3 tighten; only (B + 1) eta t is false on these deterministic
    runs (their ratio stays near 1/3: the module's docstring), and it is detected; (8B + 1) eta t
    and (16B + 1/2) eta t survive as true over the denser search. Minutes: the dense searches
    run Algorithm 1 up to t = 2^10 at thousands of instances."""
    table = search.assess(ALPHA_L1, "printed")
    assert (table["generated"], table["tightening"], table["false"], table["detected"]) == (5, 3, 1, 1)
    assert [r["formula"] for r in table["survivors"]] == ["(16 * B + 0.5) * eta * t", "(8 * B + 1) * eta * t"]
    assert all(r["reason"].startswith("true over the denser search") for r in table["survivors"])


def test_the_search_is_deterministic():
    assert search.searched(ALPHA_L1)["sides"] == {s: r.to_json() for s, r in search.search(ALPHA_L1).items()}
