"""iln.eq17.zero_comparator as a specification: its evaluators, its search, its verdict."""

from __future__ import annotations

import math

import numpy as np
import pytest
from specification_checks import (
    assert_covered_and_conforming,
    assert_off_the_exact_value_is_inconclusive,
    smoke_verdict,
)

from verification import search
from verification.claims.iln.eq17 import (
    INPUTS,
    ZERO_COMPARATOR,
    comparator_exact,
    labels,
    shipped_comparator_loss,
)
from verification.verdicts import HOLDS


def _brute_force(instance) -> float:
    """The comparator's loss by a fine search over the predictions the ball allows: on these
    Gram matrices the predictions are p = s^2 a with ||f||^2 = ||p||^2 / s^2 (orthogonal), one
    p with |p| <= s B (repeated), or 0 (zero inputs)."""
    T, B, s = instance["T"], instance["B"], instance["s"]
    y = labels(instance["pattern"], instance["level"], T)
    if instance["inputs"] == "zero":
        return float(np.sum(y**2) / 2)
    if instance["inputs"] == "repeated":
        p = np.linspace(-s * B, s * B, 200001)
        return float(np.min(np.sum((p[:, None] - y[None, :]) ** 2, axis=1) / 2))
    # Orthogonal: the best prediction vector in the ball of radius s B lies along y.
    scale = np.linspace(0, 1, 200001)[:, None] * s * B / max(np.linalg.norm(y), 1e-300)
    p = np.minimum(scale, 1.0) * y[None, :]
    return float(np.min(np.sum((p - y) ** 2, axis=1) / 2))


@pytest.mark.parametrize("inputs", INPUTS)
@pytest.mark.parametrize(("T", "B", "s", "pattern", "level"), [
    (1, 1.0, 0.5, 1, 1.0), (5, 1.0, 0.5, 0b10110, 0.9), (8, 2.0, 0.3, 0b11111111, 1.0), (7, 1.0, 0.05, 0b1010, 0.4)])
def test_the_closed_form_is_the_searched_minimum_and_the_shipped_comparator(inputs, T, B, s, pattern, level):
    instance = {"T": T, "B": B, "s": s, "inputs": inputs, "pattern": pattern, "level": level}
    exact = comparator_exact(instance)
    value = math.exp(exact) if exact > -math.inf else 0.0
    assert value == pytest.approx(_brute_force(instance), rel=1e-6, abs=1e-12)
    assert shipped_comparator_loss(instance, np.random.SeedSequence(0)) == pytest.approx(value, rel=1e-9, abs=1e-12)


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("iln.eq17.zero_comparator")
    assert list(declared["variables"]) == ["T", "B", "s", "inputs", "pattern", "level"]
    assert declared["variables"]["T"]["admissible"]["text"] == "integers in [1, inf)"
    assert declared["variables"]["s"]["admissible"]["text"] == "(0, 1)"
    assert declared["sides"] == {"printed": "T"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    return smoke_verdict("iln.eq17.zero_comparator", tmp_path_factory.mktemp("eq17"))


def test_the_bound_holds_with_half_of_it_attained(smoke):
    assert smoke.verdict == HOLDS
    worst = smoke.details["sides"]["printed"]["worst"]
    # sum_t l_t(0) = T / 2 with every |y_t| = 1, and no predictor helps on zero inputs.
    assert worst["ratio"] == pytest.approx(0.5, rel=1e-12)
    assert worst["point"]["level"] == 1.0
    assert_covered_and_conforming(smoke)


def test_a_comparator_off_the_closed_form_makes_the_verdict_inconclusive():
    # Every comparator loss reported as 0: the worst instance's T / 2 is far from it.
    assert_off_the_exact_value_is_inconclusive(ZERO_COMPARATOR, 0.0)


def test_a_tighter_right_side_is_violated_exactly():
    """T has no constant to mutate (search.generate finds none): T / 4 is rejected."""
    assert search.generate("T") == []
    verdict = search.mutants.side_verdict(ZERO_COMPARATOR.with_side("printed", "T / 4"), "printed",
                                          search.search_side(ZERO_COMPARATOR.with_side("printed", "T / 4"),
                                                             "printed").to_json())
    assert verdict["verdict"] == "violated"
    assert verdict["worst"]["ratio"] == pytest.approx(2.0, rel=1e-12)
