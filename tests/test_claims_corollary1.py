"""iln.cor1.online_to_batch: the closed form of the arXiv counterexample and a planted defect."""

import functools
import math

import numpy as np
import pytest

from iln import theory
from iln.features import RandomCoordinate
from iln.shrinking_gradient import shrinking_gradient
from verification import catalog
from verification.claims.iln import corollary1

ALPHA = 1e-3 / 4  # the run's budget shared by the four claims


pytestmark = pytest.mark.usefixtures("one_numba_thread")


@pytest.mark.parametrize(("B", "T"), [(1.0, 50), (4.0, 300)])
def test_constant_input_closed_form_is_the_run_of_algorithm1(B, T):
    c = 0.999 / B
    family = RandomCoordinate(1)
    # Every estimate is exact on this input, whatever m: m = 1 gives the same run as m_proof.
    run = shrinking_gradient(np.full((T, 1), c), np.ones(T), family, B=B, m=1, seed=0)
    assert not run.trace.shrink.any()
    prediction = c * c * run.alpha_mean.sum()
    excess = 0.5 * (prediction - 1.0) ** 2 - 0.5 * (1.0 - B * c) ** 2
    assert math.isclose(excess, corollary1.constant_input_excess(B, T), rel_tol=1e-9)



def test_arxiv_rate_fails_where_the_icml_rate_holds():
    check = corollary1.arxiv_rate_check(0.3, [1, 256])
    assert check["violated"]
    at_1, at_256 = check["points"]["B=1"], check["points"]["B=256"]
    assert at_1["T_arXiv"] == at_1["T_ICML"] == theory.corollary1_T(1.0, 0.3)
    assert at_256["excess_arXiv"] > 0.3
    assert at_256["excess_ICML"] <= theory.online_to_batch_excess_risk(256.0, at_256["T_ICML"])



def test_ascent_step_is_flagged_by_the_excess_risk_bound(trial_records, monkeypatch):
    claim = catalog.get("iln.cor1.online_to_batch")
    monkeypatch.setattr(corollary1, "shrinking_gradient", functools.partial(shrinking_gradient, update="printed"))
    config = {**claim.config("smoke"), "n_trials": 16}
    assert claim.decide(trial_records(claim, config), config, ALPHA).verdict == "violated"

