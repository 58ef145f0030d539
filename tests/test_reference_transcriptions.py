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
from iln.features import RandomCoordinate, RandomStump
from iln.reference.doubly_stochastic import doubly_stochastic_reference
from iln.reference.fixed_random import fixed_random_reference
from iln.reference.kernel_ogd import kernel_ogd_reference
from iln.reference.shrinking_gradient import (
    averaged_predictor_reference,
    predict_reference,
    shrinking_gradient_reference,
)
from iln.rks.kitchen_sinks import adaboost_stumps, random_kitchen_sinks
from iln.rks.reference.adaboost import Stump, adaboost_reference, best_stump, weighted_error
from iln.rks.reference.kitchen_sinks import random_kitchen_sinks_reference
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


@pytest.fixture(scope="module")
def rows():
    # Standard normal coordinates (standardized data, RKS Section 4) and noisy labels.
    rng = np.random.default_rng(11)
    X = rng.standard_normal((50, 4))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.5 + 0.7 * rng.standard_normal(50) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("settings", [{"K": 15}, {"K": 5, "C": 1.0}, {"K": 8, "C": 4.0, "loss": "hinge"},
                                      {"K": 15, "ridge": 1e-3}, {"K": 5, "C": 1.0, "ridge": 1e-3}])
def test_kitchen_sinks_solves_the_transcriptions_problem(rows, settings):
    X, y = rows
    fast = random_kitchen_sinks(X, y, RandomStump(4), seed=5, **settings)
    ref = random_kitchen_sinks_reference(X, y, RandomStump(4), seed=5, **settings)
    np.testing.assert_array_equal(fast.W, ref.W)
    np.testing.assert_allclose(fast.train_risk, ref.risk, rtol=1e-12, atol=1e-14)
    if ref.bound is not None:
        assert fast.alpha_inf_norm <= ref.bound
        assert np.max(np.abs(ref.alpha)) <= ref.bound
    if settings.get("loss", "quadratic") == "quadratic":
        np.testing.assert_allclose(fast.decision_function(X), ref.Z @ ref.alpha, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("ridge", [0.0, 1e-2])
def test_the_faces_of_the_box_give_a_point_that_meets_the_kkt_conditions(rows, ridge):
    # Independent of the shipped solver: at a minimiser of (3) (plus ridge K ||alpha||^2) under
    # (4) the gradient vanishes on the free weights and points out of the box on the bound ones.
    X, y = rows
    ref = random_kitchen_sinks_reference(X, y, RandomStump(4), K=6, seed=1, C=0.9, ridge=ridge)
    grad = 2.0 / X.shape[0] * ref.Z.T @ (ref.Z @ ref.alpha - y) + 2.0 * ridge * 6 * ref.alpha
    upper, lower = ref.alpha >= ref.bound, ref.alpha <= -ref.bound
    assert upper.any() or lower.any()
    free = ~(upper | lower)
    np.testing.assert_allclose(grad[free], 0.0, atol=1e-12)
    assert np.all(grad[upper] <= 1e-12)
    assert np.all(grad[lower] >= -1e-12)


def test_the_hinge_minimum_without_the_box_is_zero_on_separable_features():
    # One stump separates the points, so (3) without (4) reaches 0 (an SVM would not).
    X = np.array([[-2.0], [-1.0], [1.0], [2.0]])
    ref = random_kitchen_sinks_reference(X, [-1.0, -1.0, 1.0, 1.0], RandomStump(1), K=40, seed=0,
                                         loss="hinge")
    assert ref.risk == pytest.approx(0.0, abs=1e-12)


def test_adaboost_puts_half_the_next_weight_on_each_rounds_mistakes(rows):
    # Freund & Schapire's update makes h_t no better than chance under D_{t+1}.
    X, y = rows
    run = adaboost_reference(X, y, T=6)
    for t in range(run.errors.size - 1):
        assert weighted_error(run.hypotheses[t](X), y, run.distributions[t + 1]) == pytest.approx(0.5)
        assert run.alphas[t] == pytest.approx(0.5 * np.log((1 - run.errors[t]) / run.errors[t]))


def test_best_stump_is_the_least_weighted_error_by_hand():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([-1.0, 1.0, -1.0, 1.0])
    # Weight on the last two points: the cut between 2 and 3 errs only on point 1 (weight 0.1).
    D = np.array([0.1, 0.1, 0.4, 0.4])
    assert best_stump(X, y, D) == Stump(0, 2.5, 1.0)
    assert weighted_error(Stump(0, 2.5, 1.0)(X), y, D) == pytest.approx(0.1)


def test_the_adaboost_loop_on_the_shipped_stumps_gives_the_shipped_vote(rows):
    X, y = rows
    fast = adaboost_stumps(X, y, n_estimators=8, seed=3)
    stumps = list(fast.model.estimators_)
    ref = adaboost_reference(X, y, T=8, weak_learner=lambda X_, y_, D: stumps.pop(0).predict)
    np.testing.assert_allclose(fast.model.estimator_errors_, ref.errors, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(fast.model.estimator_weights_ / 2.0, ref.alphas, rtol=1e-12)
    np.testing.assert_allclose(fast.decision_function(X) / 2.0, ref.margin(X), atol=1e-14)


@pytest.mark.parametrize(("call", "name"), [
    (lambda d, f: random_kitchen_sinks_reference(d.X, d.y, f, K=0, seed=0), "K"),
    (lambda d, f: random_kitchen_sinks_reference(d.X, d.y, f, K=11, seed=0, C=1.0), "K"),
    (lambda d, f: random_kitchen_sinks_reference(d.X, d.y, f, K=2, seed=0, C=-1.0), "C"),
    (lambda d, f: random_kitchen_sinks_reference(d.X, d.y, f, K=2, seed=0, loss="abs"), "loss"),
    (lambda d, f: random_kitchen_sinks_reference(d.X, d.y[:3], f, K=2, seed=0), "y"),
    (lambda d, f: random_kitchen_sinks_reference(d.X, d.y * 0.5, f, K=2, seed=0, loss="hinge"), "y"),
    (lambda d, f: random_kitchen_sinks_reference(d.X, np.sign(d.y + 0.01), f, K=2, seed=0, loss="hinge",
                                                        ridge=0.1), "ridge"),
    (lambda d, f: random_kitchen_sinks_reference(d.X, d.y, f, K=2, seed=0, ridge=-0.1), "ridge"),
    (lambda d, f: adaboost_reference(d.X, np.sign(d.y + 0.01), T=0), "T"),
    (lambda d, f: adaboost_reference(d.X, d.y * 0.5, T=2), "y"),
    (lambda d, f: adaboost_reference(d.X, np.sign(d.y + 0.01), T=2, weak_learner=3), "weak_learner"),
    (lambda d, f: adaboost_reference(d.X[0], np.sign(d.y + 0.01), T=2), "X"),

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
