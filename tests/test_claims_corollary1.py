"""iln.cor1.online_to_batch: the exact excess risk on point masses (against the shipped run and
the float closed form), arXiv's rate, the smoke verdict and planted mistakes."""

import math
from fractions import Fraction

import numpy as np
import pytest

from iln.comparator import predict_exact
from iln.features import RandomCoordinate
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification.claims.iln import corollary1
from verification.selftest.injection import CodeEdit
from verification.verdicts import HOLDS, INCONCLUSIVE, VIOLATED

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


@pytest.mark.parametrize(("B", "T"), [(1, 49), (4, 400), (2, 1024)])
def test_the_exact_excess_risk_is_the_float_closed_form(B, T):
    exact = corollary1.excess_risk(Fraction(B), Fraction(999, 1000 * B), Fraction(1), T, "descent", "proof")
    assert float(exact) == pytest.approx(corollary1.constant_input_excess(B, T), rel=1e-9)


@pytest.mark.parametrize(("step", "eta_from"), [("printed", "theorem"), ("descent", "proof")])
@pytest.mark.parametrize(("B", "c", "y", "T"), [(1, Fraction(999, 1000), Fraction(1), 25),
                                               (2, Fraction(1, 4), Fraction(-1, 2), 81)])
def test_the_exact_excess_risk_is_the_shipped_run(step, eta_from, B, c, y, T):
    family = RandomCoordinate(1)
    eta = B / math.isqrt(T) if eta_from == "theorem" else B / (2 * math.isqrt(T))
    run = shrinking_gradient(np.full((T, 1), float(c)), np.full(T, float(y)), family, B=B, eta=eta, m=4, seed=3,
                             update=step)
    prediction = float(predict_exact(run.alpha_mean, family.kernel(np.array([[float(c)]]), run.X))[0])
    best = (abs(float(y)) - min(abs(float(y)), B * float(c))) ** 2 / 2
    exact = corollary1.excess_risk(Fraction(B), c, y, T, step, eta_from)
    assert (prediction - float(y)) ** 2 / 2 - best == pytest.approx(float(exact), rel=1e-10)


def test_arxiv_rate_fails_exactly_from_B_182_on():
    # T(B) = the smallest square >= 206 B: B = 181 and 182 both give T = 37636 = 194^2, where
    # 181's excess risk is 0.29993 and 182's 0.30074 > eps = 0.3 (ICML's T gives 0.0098).
    check = corollary1.arxiv_rate_check(Fraction(3, 10), 400)
    assert check["smallest_B"] == 182
    assert check["violated"]
    assert check["exact"]["B=182"]["above_eps"]
    assert not check["exact"]["B=181"]["above_eps"]
    assert check["exact"]["B=182"]["T"] == 194**2


@pytest.fixture(scope="module")
def smoke(smoke_decision):
    return smoke_decision("iln.cor1.online_to_batch")


def test_smoke_profile_finds_the_printed_corollary_false_in_both_versions(smoke):
    # Run "as in Theorem 1" (the printed step at eta = B / sqrt T), the smallest (B, eps) already
    # fails: T = 25, excess risk 29.99 against eps = 1, at each version's rate.
    claim, _, _, verdict = smoke
    assert verdict.verdict == claim.expected == VIOLATED
    assert verdict.verdict_printed == VIOLATED
    assert verdict.counterexample["T"] == 25
    assert verdict.counterexample["eps"] == 1.0
    assert verdict.counterexample["mean"] == pytest.approx(29.989177592451888, rel=1e-12)
    assert verdict.details["exact"]["printed"]["above"] == verdict.details["exact"]["printed"]["instances"]
    versions = {row["version"] for row in verdict.details["points"].values() if row["statement"] == "printed"}
    assert versions == {"ICML", "arXiv"}


def test_smoke_profile_leaves_the_correction_undecided_and_finds_arxiv_s_rate_false(smoke):
    _, _, _, verdict = smoke
    assert verdict.verdict_corrected == INCONCLUSIVE
    assert verdict.details["exact"]["corrected"]["above"] == 0
    assert "distribution P" in verdict.details["reason_corrected"]
    assert verdict.details["arxiv_rate_with_the_descent_step"]["violated"]
    assert verdict.details["conformance"]["verdict"] == HOLDS


def test_a_false_correction_is_found_exactly(smoke_verdict):
    # Planted: the corrected bound divided by sqrt(T) (the statement mutant
    # online_to_batch_t_exponent_doubled): false at B = 4, T = 4096 (0.00784 > 0.00417).
    edit = CodeEdit("iln.theory", "online_to_batch_excess_risk", "return _out(_regret_bound_proof(B, T, eta) / T)",
                    "return _out(_regret_bound_proof(B, T, eta) / T / np.sqrt(T))")
    verdict = smoke_verdict("iln.cor1.online_to_batch", edits=(edit,))
    assert verdict.verdict_corrected == VIOLATED


def test_a_shipped_algorithm_off_the_exact_law_fails_the_conformance(smoke, monkeypatch):
    # Planted: the shipped Algorithm 1 always takes the printed step; the descent run's excess
    # risk is then far from the exact one, which the conformance (beside the verdict) shows.
    claim, config, _, _ = smoke
    monkeypatch.setattr(corollary1, "shrinking_gradient",
                        lambda *args, **kwargs: shrinking_gradient(*args, **{**kwargs, "update": "printed"}))
    records = [claim.trial(config, child(np.random.SeedSequence(0), i)) for i in range(config["n_trials"])]
    verdict = claim.decide(records, config, ALPHA)
    assert verdict.details["conformance"]["verdict"] == VIOLATED
    assert verdict.verdict_printed == VIOLATED  # the paper's verdict does not read the shipped code
