"""The probe states of Lemma 2 (lemma2.py) and the claim that replays them, iln.lemma2.shrink_penalty:
states, replays, decisions.

The planted defect is a change of Algorithm 1 the claim must flag: an Algorithm 1 that always
shrinks (a large penalty at the m where Lemma 2's bound is 0.1).
"""

import math

import numpy as np
import pytest
from scipy import stats

from iln import theory
from iln.random_streams import child
from verification import catalog
from verification.claims.iln import lemma2

CLAIMS = ["iln.lemma2.shrink_penalty"]
#: the share of a smoke run's false-alarm budget the claim gets first (a third, as when
#: iln.lemma3.variance and iln.lemma6.events replayed these states too: the stricter level is kept).
ALPHA = 1e-3 / 3


def _replays(claim_id, n, seed=0, grid=None):
    claim = catalog.get(claim_id)
    config = claim.config("smoke")
    if grid is not None:
        config = {**config, "grid": grid}
    records = [claim.trial(config, child(np.random.SeedSequence(seed), i)) for i in range(n)]
    return claim, config, records


@pytest.fixture(scope="module", autouse=True)
def _built_states():
    # States are cached; building them before any test patches Algorithm 1 keeps the
    # planted defects to the replayed round.
    for name in lemma2.STATES:
        lemma2.probe_state(name)


@pytest.mark.parametrize("name", list(lemma2.STATES))
def test_states_meet_the_lemmas_setting(name):
    state = lemma2.probe_state(name)
    assert state.eta < theory.LEMMA2_MAX_ETA
    assert state.t == state.run.T + 1
    # Lemma 5 on the run's path (the l1 bound is loose by a step: t - 1 updates).
    assert state.alpha_l1 <= theory.alpha_l1_bound(lemma2.B, state.eta, state.t - 1)
    for beta in state.comparators.values():
        assert lemma2.rkhs_norm(beta, state.K) < lemma2.B
    if name != "section6":
        c, _ = state.two_point
        # Shrinking is possible and f_t is inside the ball: where shrinking can hurt.
        assert c * state.alpha_l1 > lemma2.EVENT_THRESHOLD * lemma2.B
        assert state.f_norm < lemma2.B


def test_unknown_state_is_refused():
    with pytest.raises(ValueError, match="unknown probe state"):
        lemma2.probe_state("no_such_state")


def test_no_penalty_without_a_shrink():
    state = lemma2.probe_state("sign_two_point")
    estimate = 3.0
    following = state.alpha
    following[-1] = -state.eta * (estimate - state.label)
    outcome = lemma2.round_outcome(state, estimate, following, shrank=False)
    assert not any(outcome[name] for name in state.comparators)


def test_replays_follow_the_two_point_law():
    # Each term is +-0.998 ||alpha||_1 with probability 1/2: with m = 3 the round shrinks
    # exactly when the three signs agree (1/4), and the unshrunk step at the + side lands
    # where shrinking hurts (exactly half of those).
    grid = [{"state": "sign_two_point", "m": 3}]
    _, _, records = _replays("iln.lemma2.shrink_penalty", 400, seed=1, grid=grid)
    n = len(records)
    for flag in ("shrink", "step_at_+16B"):
        exact = 10 ** lemma2.exact_log10("sign_two_point", 3, lambda o, f=flag: o[f])
        k = sum(r["sign_two_point/m=3"][flag] for r in records)
        # Two-sided exact binomial test at 1e-6: a false alarm once in a million runs.
        assert stats.binomtest(k, n, exact).pvalue > 1e-6, (flag, k, exact)
    assert math.isclose(10 ** lemma2.exact_log10("sign_two_point", 3, lambda o: o["shrink"]), 0.25)


def test_printed_lemma2_follows_from_the_corrected_chain_up_to_t_577():
    # Why iln.lemma2.shrink_penalty is expected to hold: P_t <= P[D] <= 2 exp(-32 B^2 m /
    # ||alpha||_1^2) with ||alpha^(t)||_1 < 17 eta (t - 1) at B = 1 is below the printed bound
    # for t <= 577, and the argument stops working beyond.
    eta = 0.12
    for t in (2, 41, 300, 577):
        for m in np.unique(np.geomspace(1, 1e6, 40).astype(int)):
            chain = theory.hoeffding_tail_corrected(m, 8.0, theory.alpha_l1_bound(1.0, eta, t - 1))
            assert chain <= theory.shrink_penalty_printed(m, eta, t) * (1 + 1e-12), (t, m)
    m = 10**7
    assert (theory.hoeffding_tail_corrected(m, 8.0, theory.alpha_l1_bound(1.0, eta, 3000))
            > theory.shrink_penalty_printed(m, eta, 3001))


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_smoke_profile_gives_the_expected_verdict(claim_id):
    n = catalog.get(claim_id).config("smoke")["n_trials"]
    claim, config, records = _replays(claim_id, n)
    verdict = claim.decide(records, config, ALPHA)
    # The run's verdict: a grid's holds is inconclusive where the domain was not searched.
    assert catalog.domain_not_searched(claim, verdict).verdict == claim.expected
    assert verdict.counterexample is None
    for value in (verdict.statistic, verdict.bound, verdict.min_detectable_ratio, verdict.tightness, *verdict.interval):
        assert math.isfinite(value)


def test_always_shrinking_is_flagged_by_lemma2(monkeypatch):
    monkeypatch.setattr(theory, "SHRINK_THRESHOLD", 0)
    claim, config, records = _replays("iln.lemma2.shrink_penalty", 100)
    verdict = claim.decide(records, config, ALPHA)
    assert verdict.verdict == "violated"
    assert verdict.counterexample["frequency"] > verdict.counterexample["printed_bound"]


@pytest.mark.parametrize("profile", ["smoke", "quick", "full"])
def test_penalties_that_cannot_happen_are_not_counted(profile):
    # The section6 state never shrinks (||alpha^(t)||_1 = 0.60 <= 16B), and at the two-point
    # states no outcome hurts the comparator or the step at -16B: those points cannot fail.
    config = catalog.get("iln.lemma2.shrink_penalty").config(profile)
    for point in config["grid"]:
        state = lemma2.probe_state(point["state"])
        for name in state.comparators:
            can_happen = point["state"] != "section6" and name == "step_at_+16B"
            assert lemma2.penalty_possible(point["state"], lemma2.point_m(state, point), name) == can_happen


def test_smoke_decides_on_the_penalties_that_can_happen():
    n = catalog.get("iln.lemma2.shrink_penalty").config("smoke")["n_trials"]
    claim, config, records = _replays("iln.lemma2.shrink_penalty", n)
    rows = claim.decide(records, config, ALPHA).details["points"]
    counted = {k for k, row in rows.items() if row["can_fail"]}
    assert counted == {k for k in rows if k.endswith("step_at_+16B") and "m=1" not in k and "section6" not in k}
    assert all(row["event_possible"] is False for k, row in rows.items() if not k.endswith("step_at_+16B")
               or k.startswith("section6"))
    # An event at a penalty that cannot happen means the argument is wrong: refused, not decided.
    key = "section6/target=0.25"
    planted = [{**r, key: {**r[key], "comparator": True}} for r in records]
    with pytest.raises(ValueError, match="declared impossible"):
        claim.decide(planted, config, ALPHA)
