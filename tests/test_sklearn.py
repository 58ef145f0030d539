"""The scikit-learn estimators pass ``check_estimator``; expected failures carry their reason."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from iln.sklearn import (
    DoublyStochasticRegressor,
    FixedRandomRegressor,
    RandomKitchenSinksClassifier,
    RandomKitchenSinksRegressor,
    ShrinkingGradientRegressor,
)

ONE_PASS = (
    "one online pass with the paper's norm bound B = 1 does not fit the check's training data to "
    "R^2 > 0.5: the estimator learns a predictor of norm at most about B online, it does not "
    "interpolate (ICML/arXiv Theorem 1 bounds its regret, not its training error)"
)
BASELINE_ONE_PASS = (
    "one online pass of gradient descent with the default step does not fit the check's training "
    "data to R^2 > 0.5; the batch variant (FixedRandomRegressor(method='least_squares')) does"
)
EXPECTED_FAILURES = {
    "ShrinkingGradientRegressor": {"check_regressors_train": ONE_PASS},
    "FixedRandomRegressor/online": {"check_regressors_train": BASELINE_ONE_PASS},
    "DoublyStochasticRegressor": {"check_regressors_train": BASELINE_ONE_PASS},
}


def _expected_failures(estimator):
    name = type(estimator).__name__
    if name == "FixedRandomRegressor":
        name += "/" + estimator.method
    return EXPECTED_FAILURES.get(name, {})

ESTIMATORS = [
    ShrinkingGradientRegressor(random_state=0, m=200),
    RandomKitchenSinksRegressor(random_state=0),
    RandomKitchenSinksClassifier(random_state=0),
    FixedRandomRegressor(random_state=0),
    FixedRandomRegressor(method="least_squares", random_state=0),
    DoublyStochasticRegressor(random_state=0),
]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failures)
def test_check_estimator(estimator, check):
    check(estimator)


def _data(n=60, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1]
    return X, y


def test_partial_fit_in_two_halves_equals_fit():
    X, y = _data()
    whole = ShrinkingGradientRegressor(random_state=3, m=300, eta=0.2).fit(X, y)
    halves = ShrinkingGradientRegressor(random_state=3, m=300, eta=0.2)
    halves.partial_fit(X[:30], y[:30]).partial_fit(X[30:], y[30:])
    np.testing.assert_array_equal(halves.run_.alpha, whole.run_.alpha)
    np.testing.assert_array_equal(halves.predict(X[:5]), whole.predict(X[:5]))


def test_learns_something_and_predictions_are_in_target_units():
    X, y = _data(n=400)
    est = ShrinkingGradientRegressor(family="fourier", family_params={"gamma": 0.5}, B=4.0,
                                     random_state=0, m=2000).fit(X, y)
    pred = est.predict(X)
    # Better than predicting 0 after one pass (a weak, honest bar for an online learner).
    assert np.mean((pred - y) ** 2) < np.mean(y**2)


@pytest.mark.parametrize("family", ["coordinate", "relu", "sigmoid", "sign", "stump"])
def test_every_family_maps_the_data_into_its_domain(family):
    X, y = _data(n=40)
    est = ShrinkingGradientRegressor(family=family, random_state=0, m=100).fit(X * 10, y * 7)
    assert est.predict(X * 30).shape == (40,)  # inputs beyond the training range are clipped


def test_bad_parameters_name_the_parameter():
    X, y = _data()
    with pytest.raises(ValueError, match="'B' parameter"):
        ShrinkingGradientRegressor(B=0.5).fit(X, y)
    with pytest.raises(ValueError, match="'family' parameter"):
        ShrinkingGradientRegressor(family="wavelet").fit(X, y)


def test_kitchen_sinks_classifier_on_breast_cancer():
    from iln.datasets import load_sklearn_dataset, standardize, train_test_split_seeded

    train, test = train_test_split_seeded(load_sklearn_dataset("breast_cancer"), 0.3, seed=0)
    scaled = standardize(train.X, test.X)
    clf = RandomKitchenSinksClassifier(family="stump", K=300, random_state=0).fit(scaled.X_train, train.y)
    # 004's features on its preprocessing: a linear SVM on 300 stumps separates these
    # classes well; 0.9 is far below what it reaches and far above chance (0.63).
    assert clf.score(scaled.X_test, test.y) > 0.9


def test_kitchen_sinks_regressor_constraint_holds():
    X, y = _data(n=80)
    reg = RandomKitchenSinksRegressor(K=50, C=2.0, random_state=0).fit(X, y)
    assert np.max(np.abs(reg.result_.alpha)) <= 2.0 / 50 + 1e-12


@pytest.mark.parametrize("cls", [FixedRandomRegressor, DoublyStochasticRegressor])
def test_baseline_partial_fit_in_two_halves_equals_fit(cls):
    X, y = _data()
    whole = cls(random_state=2).fit(X, y)
    halves = cls(random_state=2).partial_fit(X[:25], y[:25]).partial_fit(X[25:], y[25:])
    np.testing.assert_array_equal(halves.predict(X[:7]), whole.predict(X[:7]))
