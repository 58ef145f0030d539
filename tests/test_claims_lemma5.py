"""iln.lemma5.tail (ICML Lemma 5, eq. (20) / arXiv Lemma 4, eq. (16)): the rounds whose threshold
is at least the largest error Algorithm 2 can make there are reported and not counted, and the
claim still decides on the rounds that can fail."""

import numpy as np
import pytest

from iln.random_streams import child
from verification import catalog
from verification.claims.iln import lemma5
from verification.claims.iln.instances import ALGORITHM1_RUNS, algorithm1_run

ID = "iln.lemma5.tail"
ALPHA = 1e-3 / 30
#: the (run, round) points of the grid that cannot fail, the same at every profile.
IMPOSSIBLE = {f"ascent_adversary/t={t}" for t in (2, 3, 5, 8, 12)} | {
    f"{name}/t={t}" for name, rounds in (("descent_adversary", (2, 3, 5)), ("two_point_relu", (2, 3, 5)),
                                         ("tie", (2, 3)), ("tie_B2", (2, 3))) for t in rounds}


@pytest.fixture(scope="module")
def smoke():
    claim = catalog.get(ID)
    config = claim.config("smoke")
    records = [claim.trial(config, child(np.random.SeedSequence(0), i)) for i in range(config["n_trials"])]
    return claim, config, records


def test_every_run_has_its_ceiling():
    assert set(lemma5.LARGEST_TERM) == set(ALGORITHM1_RUNS)
    assert lemma5.EXACT_ESTIMATE.issubset(ALGORITHM1_RUNS)
    with pytest.raises(ValueError, match="t must be a round"):
        lemma5.largest_estimate_error("tie", 1.0, 64.0, 0)


@pytest.mark.parametrize("profile", ["smoke", "quick", "full"])
def test_impossible_rounds_are_the_same_at_every_profile(profile):
    config = catalog.get(ID).config(profile)
    rows = lemma5.algorithm1_tail_decide([_no_events(config)], config, ALPHA).details["points"]
    assert {k for k, row in rows.items() if row["event_possible"] is False} == IMPOSSIBLE


def _no_events(config):
    return {**{f"{n}/t={t}": False for n in config["runs"] for t in config["rounds"]},
            **{f"{n}/t={t}/l1_ratio": 0.0 for n in config["runs"] for t in config["rounds"]}}


def test_no_run_exceeds_its_ceiling(smoke):
    """The ceilings bound what the runs do: the largest error over 60 runs of each is below it."""
    _, config, _ = smoke
    for name in config["runs"]:
        for s in range(60):
            run = algorithm1_run(name, config["T"], config["m"], child(np.random.SeedSequence(s), 0))
            for t in config["rounds"]:
                error = abs(run.trace.estimate[t - 1] - run.trace.inner_exact[t - 1])
                assert error <= lemma5.largest_estimate_error(name, run.B, run.eta, t) + 1e-9 * max(1.0, error)


def test_smoke_decides_on_the_rounds_that_can_fail(smoke):
    claim, config, records = smoke
    verdict = claim.decide(records, config, ALPHA)
    assert verdict.verdict == claim.expected
    rows = verdict.details["points"]
    assert all(not rows[k]["can_fail"] and rows[k]["event_possible"] is False for k in IMPOSSIBLE)
    assert all(row["can_fail"] for k, row in rows.items() if k not in IMPOSSIBLE)
    # Events at a round that can fail make it violated; one at an impossible round is refused.
    hit = [{**r, "descent_adversary/t=12": True} for r in records]
    assert claim.decide(hit, config, ALPHA).verdict == "violated"
    with pytest.raises(ValueError, match="declared impossible"):
        claim.decide([{**r, "ascent_adversary/t=8": True} for r in records], config, ALPHA)
