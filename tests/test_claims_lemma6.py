"""iln.lemma6.events as a specification: the inclusion's exact left side, its search, its verdict."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from iln import theory
from verification import runner, search
from verification.claims.iln import lemma6
from verification.claims.iln.lemma6 import (
    EVENTS,
    adversary,
    outside_events_exact,
    outside_events_trial,
    round_outcomes,
)
from verification.search.decide import side_verdict
from verification.selftest import statements
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED

CORRECTED = "descent step, events at |E_t| >= 16B"

#: a state where the shrink can hurt f* only inside E2: f_t = 0, |E_t| = 1.2 * 16B at k = 0 and m.
_INSIDE_E2 = {"printed_reading": 0, "m": 2, "B": 1.0, "eta": 0.1, "s": 0.9, "level": 1.2, "bias": 0.0, "spread": 0.0,
              "y": 0.0}


def _penalties(instance, star) -> list[tuple[float, bool, bool]]:
    """(probability, penalty at f* = star, inside E1 or E2) for each k, from scratch."""
    B, s, eta, y, m, bias = (instance[k] for k in ("B", "s", "eta", "y", "m", "bias"))
    printed = instance["printed_reading"] == 1
    a = 16 * B * instance["level"] / s**2
    along = a * s * bias
    norm = a * s * (bias + instance["spread"] * (1 - bias))
    f = np.array([along, math.sqrt(max(norm**2 - along**2, 0.0))])
    phi = np.array([s, 0.0])
    rows = []
    for k in range(m + 1):
        E = a * s**2 * (2 * k - m) / m
        hat = f - eta * (E - y) * phi
        nxt = f / 4 if abs(E) >= 16 * B else f + eta * (E - y) * phi if printed else hat
        large = abs(E) > 16 * B if printed else abs(E) >= 16 * B
        rows.append((stats.binom.pmf(k, m, (1 + bias) / 2),
                     bool(np.linalg.norm(nxt - star) > np.linalg.norm(hat - star)),
                     bool(large and (abs(E) > norm / (4 * eta) or norm < 8 * B))))
    return rows


def _brute_force(instance, star) -> float:
    return sum(p for p, penalty, inside in _penalties(instance, star) if penalty and not inside)


@pytest.mark.parametrize("instance", [
    {"printed_reading": 1, "m": 1, "B": 1.0, "eta": 0.1, "s": 0.999, "level": 1e-12, "bias": 0.0, "spread": 0.0,
     "y": 1.0},  # round 1 of the printed step: the ascent hurts f*
    {**_INSIDE_E2, "printed_reading": 1}, _INSIDE_E2,
    {"printed_reading": 1, "m": 4, "B": 1.0, "eta": 0.05, "s": 0.8, "level": 0.7, "bias": 0.4, "spread": 0.4,
     "y": -0.5},
    {"printed_reading": 0, "m": 5, "B": 2.0, "eta": 0.12, "s": 0.95, "level": 3.0, "bias": 0.2, "spread": 0.9,
     "y": 0.3},
    {"printed_reading": 0, "m": 3, "B": 1.0, "eta": 0.1, "s": 0.9, "level": 0.75, "bias": 0.0, "spread": 0.0,
     "y": 0.0},  # never shrinks: the descent step is hat f_{t+1}
])
def test_the_exact_left_side_is_the_enumerated_law_at_the_worst_f_star(instance):
    star = adversary(instance)
    assert np.linalg.norm(star) < instance["B"]
    truth = _brute_force(instance, star)
    assert float(np.exp(outside_events_exact(instance))) == pytest.approx(truth, rel=1e-12, abs=0)
    # No f* of the ball (a polar grid) is hurt outside the events where the adversary is not.
    if truth == 0:
        for r in np.linspace(0, 0.999, 12):
            for angle in np.linspace(0, 2 * math.pi, 48, endpoint=False):
                other = r * instance["B"] * np.array([math.cos(angle), math.sin(angle)])
                assert _brute_force(instance, other) == 0


def test_round_1_of_the_printed_step_hurts_outside_the_events_surely():
    instance = {"printed_reading": 1, "m": 1, "B": 1.0, "eta": 0.1, "s": 0.999, "level": 1e-12, "bias": 0.0,
                "spread": 0.0, "y": 1.0}
    assert float(outside_events_exact(instance)) == 0.0  # log 1
    # The descent step is the unshrunk step itself: no penalty without a shrink.
    assert float(outside_events_exact({**instance, "printed_reading": 0})) == -math.inf


def test_the_shrink_hurts_only_inside_e2_and_the_inclusion_holds_there():
    rows = _penalties(_INSIDE_E2, np.array([-0.9, 0.0]))  # f* near the descent step of E_t = +19.2
    assert [(penalty, inside) for _, penalty, inside in rows] == [(False, True), (False, False), (True, True)]
    assert float(outside_events_exact(_INSIDE_E2)) == -math.inf


def test_at_exactly_16b_the_printed_events_miss_a_shrink_that_hurts():
    # level = 1, k = m: E_t = 16B exactly; Algorithm 1 shrinks (to f_t / 4 = 0), which hurts an f*
    # near the descent step; the printed events (> 16B) fail there, the corrected ones (>= 16B) hold it.
    tie, star = {**_INSIDE_E2, "level": 1.0}, np.array([-0.99, 0.0])
    _, penalty, inside = _penalties({**tie, "printed_reading": 1}, star)[-1]
    assert penalty
    assert not inside
    assert _penalties(tie, star)[-1][1:] == (True, True)
    assert round_outcomes(tie, np.array([16.0]))["shrink"][0]
    assert 1.0 in lemma6.level_ties({"m": 2})


def test_a_sampled_round_follows_the_exact_law():
    instance = {**_INSIDE_E2, "printed_reading": 1, "m": 3, "bias": 0.2, "level": 0.9}
    n = 2000
    hits = sum(outside_events_trial(instance, np.random.SeedSequence([13, i])) for i in range(n))
    exact = float(np.exp(outside_events_exact(instance)))
    assert 0 < exact < 1
    assert stats.binomtest(hits, n, exact).pvalue > 1e-6


def test_the_declared_domain_and_readings_are_listed():
    declared = search.declared_domain("iln.lemma6.events")
    assert list(declared["variables"]) == ["printed_reading", "m", "B", "eta", "s", "level", "bias", "spread", "y"]
    assert declared["sides"] == {"printed": "0", CORRECTED: "0"}
    assert declared["pinned"] == {"printed": {"printed_reading": 1}, CORRECTED: {"printed_reading": 0}}
    assert declared["variables"]["level"]["admissible"]["text"] == "(0, inf)"


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    store = tmp_path_factory.mktemp("lemma6") / "s.sqlite"
    return runner.run(["iln.lemma6.events"], profile="smoke", seed=0, jobs=1, store=store, quiet=True).outcomes[0].verdict


def test_the_printed_reading_is_violated_and_the_corrected_one_holds(smoke):
    assert smoke.verdict == HOLDS_AFTER_CORRECTION
    assert smoke.verdict_printed == VIOLATED
    assert smoke.verdict_corrected == HOLDS
    smallest = smoke.counterexample
    assert smallest["point"]["printed_reading"] == 1
    assert smallest["point"]["m"] == 1
    assert smallest["lhs_float"] == 1.0
    for side in smoke.details["coverage"].values():
        assert all(v["covered"] for v in side.values()), side
    assert smoke.details["coverage"][CORRECTED]["printed_reading"]["searched"] == [0]
    assert all(row["conforms"] for row in smoke.details["points"].values())


def test_a_shrink_threshold_lowered_to_8b_is_found_by_the_search(monkeypatch):
    """Shrinking from |E_t| >= 8B: shrinks that hurt with 8B <= |E_t| < 16B, in neither event."""
    monkeypatch.setattr(theory, "SHRINK_THRESHOLD", 8.0)
    found = search.search_side(EVENTS, CORRECTED).to_json()
    decided = side_verdict(EVENTS, CORRECTED, found)
    assert decided["verdict"] == VIOLATED
    point = decided["smallest_violation"]["point"]
    assert point["printed_reading"] == 0


def test_the_correction_claimed_for_the_printed_step_is_the_self_test_s_mutant():
    mutant = statements.get("events_for_the_printed_step")
    undo = mutant.edits[0].apply()
    try:
        config = {"search": search.searched(EVENTS)}
        verdict = lemma6.events_decide([], config, 1e-3)
    finally:
        undo()
    assert verdict.verdict_corrected == VIOLATED
    assert statements.rejected(mutant.tightens, verdict.verdict, verdict.verdict_printed, verdict.verdict_corrected)


def test_an_implementation_off_the_exact_law_makes_the_verdict_inconclusive():
    config = {"search": search.searched(EVENTS)}
    records = [{p["key"]: False for p in config["search"]["confirm"]} for _ in range(100)]
    verdict = search.decide(EVENTS, records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert "does not follow the exact law" in verdict.details["reason"]
    assert verdict.verdict_printed == VIOLATED


def test_the_generated_mutants_have_nothing_to_tighten():
    """The bound is 0: no edit of the formula is below it, so no generated mutant is kept (the
    self-test's hand-written mutant widens the corrected reading instead)."""
    table = search.assess(EVENTS, CORRECTED)
    assert table["tightening"] == 0
    assert table["survivors"] == []


def test_the_search_is_deterministic():
    assert search.searched(EVENTS)["sides"] == {s: r.to_json() for s, r in search.search(EVENTS).items()}
