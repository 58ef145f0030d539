"""rks.lemma4.hilbert_concentration as a specification: its evaluators, its search, its verdict, its mutants."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from verification import runner, search
from verification.claims.rks.lemma4 import (
    EVENTS,
    HILBERT,
    RATIONAL_K,
    deviation_ties,
    tail_certified,
    tail_exact,
    tail_sampling_point,
    tail_trial,
)
from verification.verdicts import HOLDS

ID = "rks.lemma4.hilbert_concentration"


def _points(law, p, q):
    """The law's vectors (in R^2) with their probabilities, as rationals."""
    p, q = Fraction(p), Fraction(q)
    if law == "two-point":
        return [((Fraction(1), Fraction(0)), p), ((1 - 2 * q, Fraction(0)), 1 - p)]
    return [((Fraction(1), Fraction(0)), p * q), ((Fraction(-1), Fraction(0)), p * (1 - q)),
            ((Fraction(0), Fraction(1)), 1 - p)]


def _brute_force(K, eps, M, law, p, q, event):
    """P[event] by enumerating the |law|^K sequences of draws; each event decided on squares
    of rationals (``f > 1/sqrt(K) + e`` iff ``f - e > 0`` and ``(f - e)^2 K > 1``, f = sqrt(f2))."""
    points = _points(law, p, q)
    mean = [sum(v[i] * w for v, w in points) for i in range(2)]
    e, total = Fraction(eps) / Fraction(M), Fraction(0)
    for draws in itertools.product(range(len(points)), repeat=K):
        weight = math.prod(points[j][1] for j in draws)
        f2 = sum((sum(points[j][0][i] for j in draws) / K - mean[i]) ** 2 for i in range(2))
        # Decided in high precision: sqrt(f2) with 60 digits, far beyond any gap here.
        f = Fraction(math.isqrt(int(f2 * 10**120)), 10**60)
        t = Fraction(math.isqrt(10**120 // K), 10**60) + e
        hit = f > t if event == EVENTS[0] else f >= t
        total += weight if hit else 0
    return total


@pytest.mark.parametrize(("K", "eps", "M", "law", "p", "q"), [
    (1, 0.2, 1.0, "two-point", 0.1, 1.0), (3, 0.1, 1.0, "two-point", 0.3, 1.0), (5, 0.05, 2.0, "two-point", 0.5, 0.8),
    (6, 0.01, 0.5, "two-point", 0.7, 0.25), (2, 0.001, 1.0, "three-point", 0.5, 0.5),
    (4, 0.02, 1.0, "three-point", 0.6, 0.3), (5, 0.1, 0.5, "three-point", 0.9, 0.5)])
@pytest.mark.parametrize("event", EVENTS)
def test_the_exact_tail_is_the_enumerated_law(K, eps, M, law, p, q, event):
    instance = {"K": K, "eps": eps, "M": M, "law": law, "p": p, "q": q, "event": event}
    truth = _brute_force(K, eps, M, law, p, q, event)
    certified = tail_certified(instance)
    assert certified.method == "rational arithmetic"
    assert certified.log == (pytest.approx(math.log(truth), rel=1e-12) if truth else -math.inf)
    assert float(np.exp(tail_exact(instance))) == pytest.approx(float(truth), rel=1e-12, abs=0)


def test_the_two_events_differ_exactly_at_an_atom():
    # Two fair points +-M, K = 2: f = M with probability 1/2; at eps = M (1 - 1/sqrt(2)) eq. (16)'s
    # event f > M is impossible and eq. (20)'s f >= M has probability 1/2.
    cell = {"K": 2, "M": 1.0, "law": "two-point", "p": 0.5, "q": 1.0}
    tie = float(deviation_ties(cell)[0])
    assert tie == pytest.approx(1 - 1 / math.sqrt(2), rel=1e-15)
    assert float(tail_exact({**cell, "eps": tie, "event": EVENTS[0]})) == -math.inf
    assert float(tail_exact({**cell, "eps": tie, "event": EVENTS[1]})) == pytest.approx(math.log(0.5), rel=1e-12)
    # Just below the tie both count it, and the rational arithmetic agrees.
    below = {**cell, "eps": tie * (1 - 1e-8), "event": EVENTS[0]}
    assert tail_certified(below).text == "1/2"


def test_the_certified_tail_beyond_rational_k_uses_the_log_space_evaluator():
    instance = {"K": RATIONAL_K + 1, "eps": 0.05, "M": 1.0, "law": "three-point", "p": 0.5, "q": 0.5,
                "event": EVENTS[0]}
    assert tail_certified(instance).method.startswith("log-space float64")


def test_the_exact_tail_reaches_below_1e_300_without_underflow():
    # f = 2 |n/1024 - 1/2| > 1/32 + 0.965 only at n <= 1 or n >= 1023: 2 (1 + 1024) / 2^1024.
    instance = {"K": 1024, "eps": 0.965, "M": 1.0, "law": "two-point", "p": 0.5, "q": 1.0, "event": EVENTS[0]}
    log = float(tail_exact(instance))
    assert log < math.log(1e-300)
    assert log == pytest.approx(math.log(2050) - 1024 * math.log(2), rel=1e-12)


def test_the_sampling_point_keeps_the_exact_tail_for_both_events():
    cell = {"K": 5, "M": 1.0, "law": "two-point", "p": 0.5, "q": 1.0}
    for tie in deviation_ties(cell):
        for event in EVENTS:
            instance = {**cell, "eps": float(tie), "event": event}
            moved = tail_sampling_point(instance)
            assert float(tail_exact(moved)) == float(tail_exact(instance))
            assert float(tail_exact({**moved, "event": EVENTS[0]})) == float(tail_exact({**moved, "event": EVENTS[1]}))


@pytest.mark.parametrize(("law", "q"), [("two-point", 1.0), ("three-point", 0.4)])
def test_the_shipped_witness_follows_the_exact_law(law, q):
    instance = tail_sampling_point({"K": 6, "eps": 0.05, "M": 2.0, "law": law, "p": 0.7, "q": q, "event": EVENTS[0]})
    n = 4000
    hits = sum(tail_trial(instance, np.random.SeedSequence([11, i])) for i in range(n))
    exact = float(np.exp(tail_exact(instance)))
    assert 0.05 < exact < 0.95
    assert abs(hits / n - exact) < 4 * math.sqrt(exact * (1 - exact) / n)  # 4 standard errors


def test_the_declared_domain_is_listed():
    declared = search.declared_domain(ID)
    assert list(declared["variables"]) == ["K", "eps", "M", "law", "p", "q", "event"]
    assert declared["variables"]["K"]["admissible"]["text"] == "integers in [1, inf)"
    assert declared["variables"]["p"]["admissible"]["text"] == "[0, 1]"
    assert declared["sides"] == {"printed": "exp(-K * eps**2 / (2 * M**2))"}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("rks_lemma4") / "s.sqlite"
    return runner.run([ID], profile="smoke", seed=0, jobs=1, store=store, quiet=True).outcomes[0].verdict


def test_the_bound_holds_over_the_covered_domain(smoke):
    assert smoke.verdict == smoke.verdict_printed == HOLDS
    assert smoke.counterexample is None
    worst = smoke.details["sides"]["printed"]["worst"]
    # Tight as eps -> 0 at K = 1: three points with the mass near +-M e_1, each beyond M.
    assert 0.99 < worst["ratio"] < 1
    assert worst["lhs_method"] == "rational arithmetic"
    coverage = smoke.details["coverage"]["printed"]
    assert all(v["covered"] for v in coverage.values()), coverage
    assert coverage["K"]["searched"] == [1, 2**10]
    assert coverage["law"]["searched"] == ["two-point", "three-point"]
    assert all(row["conforms"] for row in smoke.details["points"].values())


def test_every_false_generated_mutant_is_detected():
    table = search.assess(HILBERT, "printed")
    assert table["false"] >= 3
    assert table["detected"] == table["false"]
    assert table["survivors"] == []
    kinds = {row["kind"] for row in table["mutants"] if row.get("false")}
    assert {"exponent doubled", "exponent halved"} <= kinds


def test_the_search_is_deterministic():
    assert search.searched(HILBERT)["sides"] == {s: r.to_json() for s, r in search.search(HILBERT).items()}
