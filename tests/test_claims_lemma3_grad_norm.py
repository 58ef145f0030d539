"""iln.lemma3.grad_norm as a specification: its evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import math

import numpy as np
import pytest
from specification_checks import (
    assert_covered_and_conforming,
    assert_off_the_exact_value_is_inconclusive,
    smoke_verdict,
)

from iln.features import RandomSign
from iln.shrinking_gradient import shrinking_gradient
from verification import search
from verification.claims.iln.lemma3 import GRAD_NORM, gradient_norm_exact, gradient_norm_trial
from verification.verdicts import HOLDS


@pytest.mark.parametrize(("r", "k"), [(0.3, 0.5), (5.0, 0.99), (1e3, 1e-6), (1e-5, 0.25), (2.0, 0.0)])
def test_the_exact_gradient_norm_is_the_shipped_run_s(r, k):
    exact = gradient_norm_exact({"r": r, "k": k})
    assert (math.exp(exact) if exact > -math.inf else 0.0) == pytest.approx(r * r * k, rel=1e-15)
    assert gradient_norm_trial({"r": r, "k": k}, np.random.SeedSequence(3)) == pytest.approx(r * r * k, rel=1e-9)


def test_a_run_of_algorithm_1_reduces_to_its_residual_and_k():
    """On a random run (sign features, Algorithm 2 random) every round's ||grad_t||^2 is the
    specification's left side at (|<f_t, Phi(x_t)> - y_t|, k(x_t, x_t)), and 2 l_t(f_t) its right side."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((12, 3))
    family = RandomSign(3, scale=0.9)
    run = shrinking_gradient(X, rng.uniform(-1, 1, 12), family, B=1.0, eta=0.3, m=4, seed=1, oracle=family.kernel)
    k = np.diag(family.kernel(X))
    residual = np.abs(run.trace.inner_exact - run.trace.labels)
    for r, k_t, loss in zip(residual, k, run.trace.loss_exact, strict=True):
        if r > 0:
            assert float(search.Formula(GRAD_NORM.printed).value({"r": r})) == pytest.approx(2 * loss, rel=1e-12)
            assert math.exp(gradient_norm_exact({"r": r, "k": k_t})) == pytest.approx(r * r * k_t, rel=1e-12)


def test_the_declared_domain_is_listed():
    declared = search.declared_domain("iln.lemma3.grad_norm")
    assert list(declared["variables"]) == ["r", "k"]
    assert declared["variables"]["r"]["admissible"]["text"] == "(0, inf)"
    assert declared["variables"]["k"]["admissible"]["text"] == "[0, 1)"
    assert declared["sides"] == {"printed": "2 * (r**2 / 2)"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    return smoke_verdict("iln.lemma3.grad_norm", tmp_path_factory.mktemp("grad_norm"))


def test_the_bound_holds_with_ratio_k_up_to_the_open_end(smoke):
    assert smoke.verdict == HOLDS
    worst = smoke.details["sides"]["printed"]["worst"]
    assert worst["point"]["k"] == pytest.approx(1 - 1e-8, rel=1e-15)
    assert worst["ratio"] == pytest.approx(1 - 1e-8, rel=1e-12)
    assert_covered_and_conforming(smoke)


def test_a_gradient_off_the_exact_one_makes_the_verdict_inconclusive():
    assert_off_the_exact_value_is_inconclusive(GRAD_NORM, 0.0)


def test_every_false_generated_mutant_is_detected():
    table = search.assess(GRAD_NORM, "printed")
    assert table["generated"] == 7
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert table["survivors"] == []
    kinds = {row["kind"] for row in table["mutants"] if row.get("false")}
    assert {"prefactor dropped", "exponent doubled", "exponent halved"} <= kinds


def test_the_search_is_deterministic():
    assert search.searched(GRAD_NORM)["sides"] == {s: r.to_json() for s, r in search.search(GRAD_NORM).items()}
