"""rks.rademacher.bound as a specification: its evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from iln.rks import function_class as fc
from verification import runner, search
from verification.claims.rks.rademacher import (
    RADEMACHER,
    complexity_certified,
    complexity_exact,
    complexity_trial,
)
from verification.verdicts import INCONCLUSIVE

ID = "rks.rademacher.bound"


def _brute_force(m, C, a, b, pi):
    """eq. (21) by enumeration: every input sequence (two points) and every sign vector, the
    supremum over the box attained at a vertex (identical features: C |sigma . column| / m)."""
    a, b, pi, C = map(Fraction, (a, b, pi, C))
    total = Fraction(0)
    for inputs in itertools.product((0, 1), repeat=m):
        weight = math.prod(pi if x == 0 else 1 - pi for x in inputs)
        column = [a if x == 0 else b for x in inputs]
        for sigma in itertools.product((-1, 1), repeat=m):
            total += weight * Fraction(1, 2**m) * C * abs(sum(s * c for s, c in zip(sigma, column, strict=True))) / m
    return total


@pytest.mark.parametrize(("m", "C", "a", "b", "pi"), [
    (1, 1.0, 1.0, 1.0, 0.5), (3, 2.0, 0.75, 0.25, 0.375), (5, 0.5, 1.0, 0.0, 0.625), (6, 1.0, 0.25, 0.875, 1.0),
    (7, 3.0, 1.0, 1.0, 0.0)])
def test_the_exact_complexity_is_the_enumerated_eq21(m, C, a, b, pi):
    instance = {"m": m, "K": 3, "C": C, "a": a, "b": b, "pi": pi}
    truth = _brute_force(m, C, a, b, pi)
    certified = complexity_certified(instance)
    assert certified.method == "rational arithmetic"
    assert certified.text == f"{truth.numerator}/{truth.denominator}"
    assert float(np.exp(complexity_exact(instance))) == pytest.approx(float(truth), rel=1e-12)


@pytest.mark.parametrize("m", [1, 2, 9, 40, 200])
def test_sign_features_give_the_package_s_exact_value(m):
    # a = b = 1: +-1 features, R_m = C E|S_m| / m (iln.rks.function_class.rademacher_sign_features).
    instance = {"m": m, "K": 1, "C": 2.5, "a": 1.0, "b": 1.0, "pi": 0.3}
    assert float(np.exp(complexity_exact(instance))) == pytest.approx(fc.rademacher_sign_features(2.5, m), rel=1e-12)


def test_the_shipped_features_follow_the_exact_mean():
    instance = {"m": 4, "K": 3, "C": 2.0, "a": 0.7, "b": 0.2, "pi": 0.3}
    draws = [complexity_trial(instance, np.random.SeedSequence([1, i])) for i in range(20_000)]
    assert all(0.0 <= d <= 2.0 for d in draws)
    # Draws in [0, 2]: 5 standard errors of the mean at most 5 * 2 / (2 sqrt(20000)) = 0.035.
    assert abs(np.mean(draws) - math.exp(float(complexity_exact(instance)))) < 0.035


def test_the_declared_domain_is_listed():
    declared = search.declared_domain(ID)
    assert list(declared["variables"]) == ["m", "K", "C", "a", "b", "pi"]
    assert declared["variables"]["m"]["admissible"]["text"] == "integers in [1, inf)"
    assert declared["sides"] == {"printed": "C / m**0.5"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("rks_rademacher") / "s.sqlite"
    return runner.run([ID], profile="smoke", seed=0, jobs=1, store=store, quiet=True).outcomes[0].verdict


def test_the_bound_is_attained_at_m_1_and_nowhere_exceeded(smoke):
    # R_1 = C E|sigma phi| = C |phi| = C / sqrt(1) where |phi| = 1: the bound is an equality there,
    # which the engine, comparing the right side in floating point, leaves at the bound.
    assert smoke.verdict == smoke.verdict_printed == INCONCLUSIVE
    assert "at the bound within rounding" in smoke.details["reason"]
    assert smoke.counterexample is None
    worst = smoke.details["sides"]["printed"]["worst"]
    assert worst["point"]["m"] == 1
    assert worst["ratio"] == pytest.approx(1.0, abs=1e-9)
    coverage = smoke.details["coverage"]["printed"]
    assert all(v["covered"] for v in coverage.values()), coverage
    assert all(row["conforms"] for row in smoke.details["points"].values())


def test_every_false_generated_mutant_is_detected():
    table = search.assess(RADEMACHER, "printed")
    assert table["false"] >= 1
    assert table["detected"] == table["false"]
    assert table["survivors"] == []
