"""The reference transcriptions (iln.reference) against the shipped implementations.

Where the two share their random numbers (the same seed children, the same implementation
of Algorithm 2) they must agree to rounding on fixed seeds; where they do not (Algorithm 1
with Algorithm 2's own transcription inside) they must agree in distribution.
"""

import numpy as np
import pytest
from scipy import stats

from iln.baselines import doubly_stochastic, fixed_random, kernel_ogd
from iln.data import section6_data
from iln.features import RandomCoordinate
from iln.reference.doubly_stochastic import doubly_stochastic_reference
from iln.reference.fixed_random import fixed_random_reference
from iln.reference.kernel_ogd import kernel_ogd_reference
from iln.reference.shrinking_gradient import (
    averaged_predictor_reference,
    predict_reference,
    shrinking_gradient_reference,
)
from iln.shrinking_gradient import shrinking_gradient


@pytest.fixture(scope="module")
def data():
    return section6_data(8, 12, seed=0), RandomCoordinate(12)


def _same_run(fast, ref):
    assert (fast.eta, fast.m) == (ref.eta, ref.m)
    np.testing.assert_array_equal(fast.alpha_history, ref.alpha)
    np.testing.assert_array_equal(fast.trace.estimate, ref.estimates)
    np.testing.assert_array_equal(fast.trace.samples, ref.samples)
    np.testing.assert_array_equal(fast.trace.shrink, ref.shrink)


@pytest.mark.parametrize("seed", [0, 1])
def test_algorithm1_at_its_defaults_equals_the_transcription_on_shared_streams(data, seed):
    d, family = data
    fast = shrinking_gradient(d.X, d.y, family, B=1.0, seed=seed, record_alpha=True)
    ref = shrinking_gradient_reference(d.X, d.y, family, B=1.0, seed=seed, estimator_method="fast")
    _same_run(fast, ref)
    np.testing.assert_allclose(fast.alpha_mean, averaged_predictor_reference(ref), rtol=1e-12, atol=0)


@pytest.mark.parametrize("update", ["descent", "printed"])
def test_algorithm1_shrinks_like_the_transcription_at_a_large_step(update):
    # Two coordinates near 1: k(x, x) ~ 0.5 and eta k > 2, so f oscillates out to 16B.
    rng = np.random.default_rng(0)
    X, y, family = rng.uniform(0.5, 0.95, (12, 2)), rng.choice([-1.0, 1.0], 12), RandomCoordinate(2)
    kwargs = {"B": 2.0, "seed": 4, "eta": 6.0, "m": 40, "update": update}
    fast = shrinking_gradient(X, y, family, record_alpha=True, **kwargs)
    ref = shrinking_gradient_reference(X, y, family, estimator_method="fast", **kwargs)
    assert ref.shrink.any()
    assert not ref.shrink.all()
    _same_run(fast, ref)


def test_the_tie_shrinks_in_both():
    # One coordinate: Algorithm 2 is exact, E_2 = 64 * 0.5 * 0.5 = 16 = 16 B.
    X, y, family = np.full((3, 1), 0.5), np.array([1.0, 0.0, 0.0]), RandomCoordinate(1)
    fast = shrinking_gradient(X, y, family, B=1.0, eta=64.0, m=3, seed=0, record_alpha=True)
    ref = shrinking_gradient_reference(X, y, family, B=1.0, eta=64.0, m=3, seed=0)
    assert ref.estimates[1] == 16.0
    assert ref.shrink[1]
    _same_run(fast, ref)


def test_the_averaged_predictors_test_time_estimates_are_the_transcriptions(data):
    d, family = data
    fast = shrinking_gradient(d.X, d.y, family, B=1.0, seed=2)
    ref = shrinking_gradient_reference(d.X, d.y, family, B=1.0, seed=2, estimator_method="fast")
    for averaged, alpha in ((True, averaged_predictor_reference(ref)), (False, ref.alpha[-1])):
        found = fast.predict(d.X[:3], seed=7, epsilon=0.05, delta=0.1, averaged=averaged)
        expected = predict_reference(alpha, ref.X, d.X[:3], family, seed=7, epsilon=0.05, delta=0.1,
                                     estimator_method="fast")
        np.testing.assert_allclose(found, expected, rtol=1e-12, atol=1e-15)


def test_algorithm1_with_the_transcribed_algorithm2_has_the_fast_law():
    # Different streams (Algorithm 2's transcription draws sample by sample): two-sample KS
    # on E_3, the first estimate that depends on an estimated past, over fixed seeds.
    d, family = section6_data(3, 6, seed=1), RandomCoordinate(6)
    kwargs = {"B": 1.0, "eta": 0.5, "m": 20}
    fast = [shrinking_gradient(d.X, d.y, family, seed=s, **kwargs).trace.estimate[2] for s in range(300)]
    ref = [shrinking_gradient_reference(d.X, d.y, family, seed=10_000 + s, **kwargs).estimates[2]
           for s in range(300)]
    assert stats.ks_2samp(fast, ref).pvalue > 1e-3


def test_fixed_random_equals_its_transcription(data):
    d, family = data
    for settings in ({"eta": 5.0}, {"gamma0": 20.0, "gamma1": 0.1, "B": 1.0}):
        fast = fixed_random(d.X, d.y, family, r=7, seed=3, **settings)
        ref = fixed_random_reference(d.X, d.y, family, r=7, seed=3, **settings)
        np.testing.assert_array_equal(fast.W, ref.W)
        np.testing.assert_allclose(fast.predictions, ref.predictions, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(fast.theta, ref.theta[-1], rtol=1e-12, atol=1e-15)
        np.testing.assert_array_equal(fast.projected, ref.projected)


def test_dsgd_equals_its_transcription(data):
    d, family = data
    fast = doubly_stochastic(d.X, d.y, family, k=3, seed=3, gamma0=10.0, gamma1=0.5, nu=0.05)
    ref = doubly_stochastic_reference(d.X, d.y, family, k=3, seed=3, gamma0=10.0, gamma1=0.5, nu=0.05)
    np.testing.assert_array_equal(fast.W, ref.W)
    np.testing.assert_array_equal(fast.steps, ref.steps)
    np.testing.assert_allclose(fast.predictions, ref.predictions, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(fast.coef, ref.coef, rtol=1e-12, atol=1e-15)


def test_kernel_ogd_equals_its_transcription(data):
    d, family = data
    for B in (None, 1.0):
        fast = kernel_ogd(d.X, d.y, family, B=B, eta=50.0)
        ref = kernel_ogd_reference(d.X, d.y, family, B=B, eta=50.0)
        np.testing.assert_allclose(fast.predictions, ref.predictions, rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(fast.alpha, ref.alpha[-1], rtol=1e-10, atol=1e-14)
        assert ref.projected.any() == (B is not None)


@pytest.mark.parametrize(("call", "name"), [
    (lambda d, f: shrinking_gradient_reference(d.X, d.y, f, B=0.5, seed=0), "B"),
    (lambda d, f: shrinking_gradient_reference(d.X, d.y, f, B=1.0, seed=0, m=0), "m"),
    (lambda d, f: shrinking_gradient_reference(d.X, d.y, f, B=1.0, seed=-1), "seed"),
    (lambda d, f: shrinking_gradient_reference(d.X, d.y, f, B=1.0, seed=0, update="up"), "update"),
    (lambda d, f: shrinking_gradient_reference(d.X, d.y[:3], f, B=1.0, seed=0), "y"),
    (lambda d, f: fixed_random_reference(d.X, d.y, f, r=0, seed=0, eta=1.0), "r"),
    (lambda d, f: doubly_stochastic_reference(d.X, d.y, f, k=2, seed=0, gamma0=-1.0), "gamma0"),
    (lambda d, f: kernel_ogd_reference(d.X, d.y, f, B=1.0, eta=0.0), "eta"),
])
def test_bad_input_names_the_argument(data, call, name):
    with pytest.raises((TypeError, ValueError), match=name):
        call(*data)
