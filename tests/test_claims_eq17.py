"""iln.eq17.zero_comparator: a planted defect and the smoke verdict."""

import dataclasses

import numpy as np
import pytest

from iln.comparator import best_in_ball
from verification import catalog
from verification.claims.iln import eq17

ALPHA = 1e-3 / 4  # the run's budget shared by the four claims


pytestmark = pytest.mark.usefixtures("one_numba_thread")


def test_a_comparator_worse_than_zero_is_flagged(trial_records, monkeypatch):
    def negated(K, y, B):
        # Report the loss of the minimiser's opposite: no longer a minimum.
        best = best_in_ball(K, y, B)
        return dataclasses.replace(best, total_loss=0.5 * float(np.sum((best.predictions + y) ** 2)))

    claim = catalog.get("iln.eq17.zero_comparator")
    monkeypatch.setattr(eq17, "best_in_ball", negated)
    config = claim.config("smoke")
    verdict = claim.decide(trial_records(claim, config, n=1), config, ALPHA)
    assert verdict.verdict == "violated"



def test_smoke_profile_gives_the_expected_verdict(trial_records):
    claim = catalog.get("iln.eq17.zero_comparator")
    config = claim.config("smoke")
    verdict = claim.decide(trial_records(claim, config), config, ALPHA)
    assert verdict.verdict == claim.expected
    assert verdict.to_json()["details"]  # JSON-ready

