"""Shared test settings.

Hypothesis runs derandomised under the ``ci`` profile (the default), so a test
run is a fixed experiment whose thresholds were chosen before looking at it;
``HYPOTHESIS_PROFILE=dev`` explores new examples.
"""

import functools
import os

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from iln.random_streams import child

settings.register_profile(
    "ci",
    deadline=None,  # the first call of a numba kernel compiles it
    derandomize=True,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def one_numba_thread():
    """One numba thread, as in the runner's workers (a parallel kernel per small call costs
    more than the work); the previous count is restored afterwards."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


def _trial_records(claim, config, n=None, master=0):
    seed = np.random.SeedSequence(master)
    return [claim.trial(config, child(seed, i)) for i in range(config["n_trials"] if n is None else n)]


@pytest.fixture
def trial_records():
    """``trial_records(claim, config, n=None, master=0)``: the claim's first ``n`` trials
    (default: the configuration's ``n_trials``), trial i from child i of ``SeedSequence(master)``.
    The runner puts the claim's key between the two (``verification.trials.claim_seed``), so
    these are not a run's records; tests that need those call ``trials.run_batch``."""
    return _trial_records


def _follows_exact_law(sample, exact, instance, seed, n=4000):
    import math

    hits = sum(bool(sample(instance, np.random.SeedSequence([seed, i]))) for i in range(n))
    probability = float(np.exp(exact(instance)))
    assert 0.05 < probability < 0.95, f"the exact probability {probability} tests the law one way only"
    assert abs(hits / n - probability) < 4 * math.sqrt(probability * (1 - probability) / n)


@pytest.fixture
def follows_exact_law():
    """``follows_exact_law(sample, exact, instance, seed, n=4000)``: a specification's sampled
    event (``sample(instance, seed)``, the shipped implementation) happens with the frequency
    of its exact log-probability ``exact(instance)``, within four standard errors, from the
    seeds ``SeedSequence([seed, i])``."""
    return _follows_exact_law


@pytest.fixture
def expected_at_smoke(tmp_path):
    """``expected_at_smoke(claim_id)``: run the claim at the smoke profile (seed 0, one worker)
    and check that its verdict is the expected one and that the result is JSON-ready."""
    import json

    from verification import catalog, runner

    def check(claim_id):
        result = runner.run([claim_id], profile="smoke", seed=0, jobs=1, store=tmp_path / "smoke.sqlite",
                            quiet=True)
        for outcome in result.outcomes:
            assert outcome.verdict.verdict == catalog.get(outcome.claim.id).expected, outcome.verdict
        json.dumps(result.to_json())

    return check


def _smoke_verdict(claim_id, *, edits=(), n_trials=None, first_seed=0):
    from verification import catalog
    from verification.selftest.injection import apply_all

    claim = catalog.load()[claim_id]
    config = claim.config("smoke")
    n = config["n_trials"] if n_trials is None else n_trials
    # The edits stay planted while the claim decides (a bound's formula is read only then: undone
    # before, a mistake in it could never be flagged), and are undone even when a trial raises,
    # so that a planted mistake never leaks into the tests that run after this one.
    undo = apply_all(tuple(edits))
    try:
        records = [claim.trial(config, np.random.SeedSequence([first_seed, s])) for s in range(n)]
        return claim.decide(records, config, 1e-3 / 30)
    finally:
        undo()


@pytest.fixture
def smoke_verdict():
    """``smoke_verdict(claim_id, *, edits=(), n_trials=None, first_seed=0)``: the claim's verdict
    from its smoke configuration's trials (seeds ``[first_seed, s]``, in this process), with the
    run-time source ``edits`` (:mod:`verification.selftest.injection`) planted while they run and
    while the claim decides."""
    return _smoke_verdict


@functools.cache
def _smoke_decision(claim_id):
    from verification import catalog

    claim = catalog.load()[claim_id]
    config = claim.config("smoke")
    records = [claim.trial(config, child(np.random.SeedSequence(0), i)) for i in range(config["n_trials"])]
    return claim, config, records, claim.decide(records, config, 1e-3 / 4)


@pytest.fixture(scope="session")
def smoke_decision():
    """``smoke_decision(claim_id)``: ``(claim, config, records, verdict)`` at the smoke profile,
    trial i from child i of ``SeedSequence(0)``, decided at 1e-3 / 4; computed once a session
    (the exact claims' checks are deterministic, so their tests share one decision)."""
    return _smoke_decision
