"""Hypothesis properties of Algorithms 1 and 2 over generated instances.

The statistical properties split a false-alarm budget over the examples a run
draws: with at most 40 examples (the ``ci`` profile) and 2.5e-8 per example,
a run of this module raises a false alarm with probability below 1e-6.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats
from tolerances import hoeffding_half_width

from iln.estimator import estimate_scalar_product, estimate_scalar_product_reference
from iln.features import RandomCoordinate, RandomSign, RandomStump
from iln.shrinking_gradient import shrinking_gradient

PER_EXAMPLE = 2.5e-8
D = 3
FAMILIES = {"coordinate": RandomCoordinate(D), "sign": RandomSign(D), "stump": RandomStump(D)}


@st.composite
def instances(draw, max_points=5):
    n = draw(st.integers(1, max_points))
    # Inputs up to 0.99 in each coordinate: the largest kernel values the families allow.
    X = draw(arrays(np.float64, (n, D), elements=st.floats(-0.99, 0.99)))
    x = draw(arrays(np.float64, D, elements=st.floats(-0.99, 0.99)))
    alpha = draw(arrays(np.float64, n, elements=st.floats(-5, 5)))
    family = FAMILIES[draw(st.sampled_from(sorted(FAMILIES)))]
    if isinstance(family, RandomSign):
        X = X / max(1.0, np.max(np.linalg.norm(X, axis=1)))
    return alpha, X, x, family


@given(instances(), st.integers(0, 2**32))
def test_estimator_is_unbiased(instance, seed):
    alpha, X, x, family = instance
    exact = alpha @ family.kernel(X, x[None, :])[:, 0]
    n_seeds, m = 40, 500
    base = np.random.SeedSequence(seed)
    est = [estimate_scalar_product(alpha, X, x, m, family, seed=s) for s in base.spawn(n_seeds)]
    # Grand mean of n_seeds * m iid terms in [-||alpha||_1, ||alpha||_1]: two-sided Hoeffding.
    assert abs(np.mean(est) - exact) <= hoeffding_half_width(np.abs(alpha).sum() + 1e-300,
                                                             n_seeds * m, PER_EXAMPLE)


@settings(max_examples=8)
@given(instances(max_points=3), st.integers(0, 2**32))
def test_reference_and_fast_estimators_have_the_same_law(instance, seed):
    alpha, X, x, family = instance
    base = np.random.SeedSequence(seed)
    ref = [estimate_scalar_product_reference(alpha, X, x, 8, family, seed=s) for s in base.spawn(150)]
    fast = [estimate_scalar_product(alpha, X, x, 8, family, seed=s) for s in base.spawn(150)]
    # KS two-sample test, conservative for these discrete laws: false alarm <= 1e-6
    # per example (8 examples); detects a gap in the distribution functions above about 0.3.
    # The versions add the same terms in different orders, so an atom of the law can sit
    # a few ulps apart in each (hypothesis found one): compare at 1e-9 resolution.
    assert stats.ks_2samp(np.round(ref, 9), np.round(fast, 9)).pvalue > 1e-6


@given(instances(), st.integers(1, 40), st.integers(0, 2**32),
       st.sampled_from([np.float32, np.float64, np.int64]))
def test_same_seed_same_numbers_and_dtypes(instance, m, seed, dtype):
    alpha, X, x, family = instance
    a = estimate_scalar_product(alpha.astype(dtype), X, x, m, family, seed=seed)
    b = estimate_scalar_product(alpha.astype(dtype), X, x, m, family, seed=seed)
    assert a == b
    assert type(a) is float


@given(
    T=st.integers(1, 10),
    labels=st.data(),
    seed=st.integers(0, 2**32),
    dtype=st.sampled_from([np.float32, np.float64]),
)
def test_same_seed_same_trace_shapes_and_dtypes(T, labels, seed, dtype):
    X = np.linspace(-0.9, 0.9, T * D).reshape(T, D).astype(dtype)
    y = labels.draw(arrays(np.float64, T, elements=st.floats(-1, 1))).astype(dtype)
    fam = FAMILIES["coordinate"]
    runs = [shrinking_gradient(X, y, fam, B=1.0, eta=0.7, m=20, seed=seed, oracle=fam.kernel)
            for _ in range(2)]
    for field in ("estimate", "inner_exact", "alpha_l1", "f_norm", "shrink", "step", "labels"):
        first, second = getattr(runs[0].trace, field), getattr(runs[1].trace, field)
        np.testing.assert_array_equal(first, second)
        assert first.shape[0] in (T, T + 1)
    assert runs[0].alpha.shape == (T,)
    assert runs[0].alpha.dtype == np.float64
    assert runs[0].predict(X[:2], m=5, seed=seed).shape == (min(2, T),)
