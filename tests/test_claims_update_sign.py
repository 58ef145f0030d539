"""iln.alg1.update_sign: the printed step against Theorem 1's bound, the descent step as the correction."""

import numpy as np
import pytest

from iln import theory
from iln.random_streams import child
from verification import catalog
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, VIOLATED

ALPHA = 1e-3
pytestmark = pytest.mark.usefixtures("one_numba_thread")


@pytest.fixture(scope="module")
def smoke():
    claim = catalog.get("iln.alg1.update_sign")
    config = claim.config("smoke")
    seed = np.random.SeedSequence(0)
    return claim, config, [claim.trial(config, child(seed, i)) for i in range(config["n_trials"])]


def test_smoke_profile_gives_the_expected_verdict(smoke):
    claim, config, records = smoke
    verdict = claim.decide(records, config, ALPHA)
    assert verdict.verdict == claim.expected == HOLDS_AFTER_CORRECTION
    assert verdict.counterexample["point"].startswith("printed/")
    assert verdict.details["corrected_verdict"] == HOLDS


def _shifted(records, update, amount):
    return [{k: ({**v, "regret": v["regret"] + amount} if k.startswith(update) else v) for k, v in r.items()}
            for r in records]


def test_a_printed_step_within_the_bound_is_a_holding_statement(smoke):
    claim, config, records = smoke
    bound = theory.regret_bound_proof(1.0, config["T"][0])
    # Planted: the printed runs brought down to the descent runs' level.
    lowered = [{k: (r[k.replace("printed/", "descent/")] if k.startswith("printed/") else v) for k, v in r.items()}
               for r in records]
    assert claim.decide(lowered, config, ALPHA).verdict == HOLDS
    # Planted: the descent runs pushed above the bound too, so the correction fails as well.
    both = _shifted(records, "descent/", 2 * bound)
    assert claim.decide(both, config, ALPHA).verdict == VIOLATED
