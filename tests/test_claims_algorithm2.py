"""iln.alg2.unbiased decides from its records: unbiased, biased and out-of-range estimates."""

import numpy as np
import pytest

from verification.claims.iln import algorithm2
from verification.selftest.injection import CodeEdit


def _records(values):
    # The two-point instance: exact value 0, ||alpha||_1 = 1.
    return [{"two_point/fast": float(v)} for v in values]


@pytest.mark.parametrize(("p_plus", "margin", "expected"), [
    (0.5, 0.1, "holds"),         # 4000 draws put the interval within +-0.07 of the mean
    (0.5, 0.02, "inconclusive"),  # ... but not within +-0.02: no bias found, no equivalence
    (0.7, 0.1, "violated"),      # a bias of 0.4 ||alpha||_1
])
def test_two_point_estimates_unbiased_hold_and_biased_are_flagged(p_plus, margin, expected):
    rng = np.random.default_rng(3)
    values = np.where(rng.random(4000) < p_plus, 0.998, -0.998)
    verdict = algorithm2.unbiased_decide(_records(values), {"margin": margin}, 1e-3)
    assert verdict.verdict == expected
    assert verdict.rule.startswith("equivalence")


def test_estimates_outside_the_range_are_decided_not_raised():
    # |E| > ||alpha||_1 is impossible for Algorithm 2 with |psi| <= 1 (a wrong family).
    values = np.random.default_rng(4).normal(3.0, 0.5, 500)
    verdict = algorithm2.unbiased_decide(_records(values), {"margin": 0.05}, 1e-3)
    assert verdict.verdict == "violated"
    assert verdict.details["points"]["two_point/fast"]["values_outside_range"] > 0


def test_smoke_flags_an_estimator_that_indexes_the_inputs_by_position_in_the_support(smoke_verdict):
    # The compiled Algorithm 2 drops the zeros of alpha and then reads x_1, ..., x_s instead
    # of the inputs of the s non-zero coefficients: right whenever alpha has no zero, which
    # only the zero_coefficient instance has.
    edit = CodeEdit("iln.estimator", "_fast", "np.ascontiguousarray(X[rows]), x,",
                    "np.ascontiguousarray(X[: support.size]), x,")
    verdict = smoke_verdict("iln.alg2.unbiased", edits=(edit,))
    assert verdict.verdict == "violated", verdict.details
    assert verdict.counterexample["point"] == "zero_coefficient/fast"

