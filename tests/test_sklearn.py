"""The scikit-learn estimators pass ``check_estimator`` with no expected failure, and fit real data."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from iln.sklearn import (
    DoublyStochasticRegressor,
    FixedRandomRegressor,
    InvalidParameterError,
    RandomKitchenSinksClassifier,
    RandomKitchenSinksRegressor,
    ShrinkingGradientRegressor,
)

ESTIMATORS = [
    ShrinkingGradientRegressor(random_state=0),
    RandomKitchenSinksRegressor(random_state=0),
    RandomKitchenSinksClassifier(random_state=0),
    FixedRandomRegressor(random_state=0),
    FixedRandomRegressor(method="least_squares", random_state=0),
    DoublyStochasticRegressor(random_state=0),
]


@parametrize_with_checks(ESTIMATORS)
def test_check_estimator(estimator, check):
    check(estimator)


def _data(n=60, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1]
    return X, y


def _twice(X, y, seed=1):
    """The rows, then the same rows reordered: the second half leaves the target map, the
    Fourier gamma and the first call's T-dependent settings as the first half fitted them."""
    order = np.random.default_rng(seed).permutation(len(y))
    return np.vstack([X, X[order]]), np.concatenate([y, y[order]])


def test_partial_fit_in_two_halves_equals_fit():
    X, y = _twice(*_data(n=30))
    whole = ShrinkingGradientRegressor(random_state=3, m=300, eta=0.2).fit(X, y)
    halves = ShrinkingGradientRegressor(random_state=3, m=300, eta=0.2)
    halves.partial_fit(X[:30], y[:30]).partial_fit(X[30:], y[30:])
    # The target map fitted on 30 rows and on the same rows twice differs in the last bit
    # (the mean is summed in another order); the run is otherwise the same.
    np.testing.assert_allclose(halves.run_.alpha, whole.run_.alpha, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(halves.predict(X[:5]), whole.predict(X[:5]), rtol=1e-12)


@pytest.mark.parametrize(("cls", "step"), [(FixedRandomRegressor, "eta"), (DoublyStochasticRegressor, "gamma0")])
def test_baseline_partial_fit_in_two_halves_equals_fit(cls, step):
    X, y = _twice(*_data(n=30))
    whole = cls(random_state=2, **{step: 0.3}).fit(X, y)
    halves = cls(random_state=2, **{step: 0.3}).partial_fit(X[:30], y[:30]).partial_fit(X[30:], y[30:])
    np.testing.assert_allclose(halves.predict(X[:7]), whole.predict(X[:7]), rtol=1e-12)  # as above


def test_targets_are_mapped_onto_the_label_range_and_back():
    X, y = _data(n=80)
    y = 150.0 + 70.0 * y  # diabetes-like units: the paper's learners need labels in [-1, 1]
    est = FixedRandomRegressor(random_state=0).fit(X, y)
    assert est.y_offset_ == pytest.approx(y.mean())
    assert est.y_scale_ == pytest.approx(np.max(np.abs(y - y.mean())))
    scaled = est.result_.labels
    assert scaled.min() >= -1.0
    assert scaled.max() <= 1.0
    assert max(-scaled.min(), scaled.max()) == 1.0  # the range is filled, not only respected
    # Predictions come back in the targets' units: near the targets, far from the [-1, 1] scale.
    assert np.mean((est.predict(X) - y) ** 2) < np.var(y)


def _diabetes_split():
    from sklearn.datasets import load_diabetes
    from sklearn.model_selection import train_test_split

    X, y = load_diabetes(return_X_y=True)
    return train_test_split(X, y, random_state=0)


def _diabetes_score(estimator, X_train, X_test, y_train, y_test):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), estimator).fit(X_train, y_train).score(X_test, y_test)


@pytest.mark.parametrize("make", [
    lambda: ShrinkingGradientRegressor(random_state=0),
    lambda: FixedRandomRegressor(random_state=0),
    lambda: RandomKitchenSinksRegressor(K=300, random_state=0),
])
def test_defaults_fit_diabetes_as_well_as_ridge_within_a_margin(make):
    """Issue 22's case: defaults in a pipeline on diabetes, where every estimator's R^2 was
    negative.  scikit-learn's Ridge reaches 0.36 on this split and these learners 0.29-0.36
    (``nox -s compare`` has more seeds and the equal budgets); 0.1 below Ridge is beneath
    them and far above the negative R^2 of unscaled targets."""
    from sklearn.linear_model import Ridge

    split = _diabetes_split()
    assert _diabetes_score(make(), *split) > _diabetes_score(Ridge(), *split) - 0.1


def test_doubly_stochastic_defaults_beat_the_mean_on_diabetes():
    """DSGD's final predictor estimates each kernel value with the k = 10 features of its
    point, a noise the others do not have; it reaches R^2 = 0.12 on this split (Ridge:
    0.36: that noise is why), no longer the -34 of unscaled targets."""
    assert _diabetes_score(DoublyStochasticRegressor(random_state=0), *_diabetes_split()) > 0.05


@pytest.mark.parametrize(("cls", "step"), [(FixedRandomRegressor, "eta"), (DoublyStochasticRegressor, "gamma0")])
def test_auto_step_keeps_the_pass_of_smallest_online_loss(cls, step):
    from iln.sklearn import AUTO_STEP_FACTORS

    X, y = _data(n=100)
    est = cls(random_state=0).fit(X, y)
    steps = sorted(est.auto_losses_)
    assert len(steps) == len(AUTO_STEP_FACTORS)
    np.testing.assert_allclose(np.array(steps) / steps[0], np.array(AUTO_STEP_FACTORS) / AUTO_STEP_FACTORS[0])
    assert est.step_ == min(est.auto_losses_, key=est.auto_losses_.get)
    # The recorded losses are those of the later 50 rounds of the pass a user gets with the step.
    for value, loss in est.auto_losses_.items():
        assert np.mean(cls(random_state=0, **{step: value}).fit(X, y).result_.losses[50:]) == loss


def test_ridge_auto_regularises_when_features_approach_the_rows():
    X, y = _data(n=60)
    y = y + np.random.default_rng(1).normal(0.0, 0.3, size=60)  # noise that K = 60 could interpolate
    est = RandomKitchenSinksRegressor(K=60, random_state=0).fit(X, y)
    plain = RandomKitchenSinksRegressor(K=60, ridge=0.0, random_state=0).fit(X, y)
    X_new, y_new = _data(n=400, seed=5)
    assert est.ridge_ > 1e-8  # above the smallest value of the grid
    assert est.score(X_new, y_new) > plain.score(X_new, y_new)


def test_a_slow_fit_warns_naming_the_parameter():
    from iln.sklearn import SlowFitWarning

    X, y = _data(n=331, d=10)
    # The proof's m at T = 331 (issue 22 measured 107 s); the warning comes before any sampling.
    est = ShrinkingGradientRegressor(m="proof", eta=0.2, random_state=0)
    with pytest.warns(SlowFitWarning, match="m='auto'"), pytest.raises(_StopBeforeSampling):
        _stop_at_first_sampling(est, X, y)


class _StopBeforeSampling(Exception):
    pass


def _stop_at_first_sampling(est, X, y):
    import iln.sklearn as module

    def refuse(*args, **kwargs):
        raise _StopBeforeSampling

    original = module.shrinking_gradient
    module.shrinking_gradient = refuse
    try:
        est.fit(X, y)
    finally:
        module.shrinking_gradient = original


def test_classifier_one_vs_rest_on_digits():
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X / 16.0, y, random_state=0)
    for loss in ("quadratic", "hinge"):
        clf = RandomKitchenSinksClassifier(K=500, loss=loss, random_state=0).fit(X_train, y_train)
        assert clf.result_.alpha.shape == (500, 10)
        assert clf.decision_function(X_test).shape == (len(y_test), 10)
        # Ten classes, chance 0.1; 500 Fourier features and either loss separate digits well.
        assert clf.score(X_test, y_test) > 0.9


def _nystroem_and_kitchen_sinks(load, seeds):
    """Test accuracy of the default Random Kitchen Sinks classifier and of scikit-learn's
    Nystroem + RidgeClassifierCV, both after a StandardScaler, on one stratified split."""
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import RidgeClassifierCV
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
    scores = {"rks": [], "nystroem": []}
    for seed in seeds:
        for name, last in (("rks", RandomKitchenSinksClassifier(random_state=seed)),
                           ("nystroem", Nystroem(random_state=seed))):
            steps = [StandardScaler(), last] + ([RidgeClassifierCV()] if name == "nystroem" else [])
            scores[name].append(make_pipeline(*steps).fit(X_train, y_train).score(X_test, y_test))
    return np.mean(scores["rks"]), np.mean(scores["nystroem"])


@pytest.mark.parametrize("dataset", ["breast_cancer", "digits"])
def test_kitchen_sinks_classifier_defaults_come_within_two_points_of_nystroem(dataset):
    """Issue 40's goal for the defaults, on its protocol: mean test accuracy over seeds 0-2 of
    the learners, one stratified quarter held out.  The 2 points are the goal's margin, fixed
    before measuring; the accuracies themselves are in reports/benchmarks/learners.json."""
    from sklearn import datasets

    rks, nystroem = _nystroem_and_kitchen_sinks(getattr(datasets, f"load_{dataset}"), range(3))
    assert rks >= nystroem - 0.02


@pytest.mark.parametrize("family", ["coordinate", "relu", "sigmoid", "sign", "stump"])
def test_every_family_maps_the_data_into_its_domain(family):
    X, y = _data(n=40)
    est = ShrinkingGradientRegressor(family=family, random_state=0, m=100).fit(X * 10, y * 7)
    assert est.predict(X * 30).shape == (40,)  # inputs beyond the training range are clipped


def test_bad_parameters_name_the_parameter():
    X, y = _data()
    with pytest.raises(ValueError, match="'B' parameter"):
        ShrinkingGradientRegressor(B=0.5).fit(X, y)
    with pytest.raises(ValueError, match="'eta' parameter"):
        ShrinkingGradientRegressor(eta="fast").fit(X, y)
    with pytest.raises(ValueError, match="'ridge' parameter"):
        RandomKitchenSinksRegressor(ridge=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="'family' parameter"):
        ShrinkingGradientRegressor(family="wavelet").fit(X, y)


@pytest.mark.parametrize(("estimator", "name"), [
    (ShrinkingGradientRegressor(B=2.0**13), "B"),  # the proof's m would overflow
    (ShrinkingGradientRegressor(m=0), "m"),
    (ShrinkingGradientRegressor(m=2**62 + 1), "m"),  # beyond iln.estimator.MAX_M
    (ShrinkingGradientRegressor(n_predict_samples=1.5), "n_predict_samples"),
    (ShrinkingGradientRegressor(update="ascent"), "update"),
    (ShrinkingGradientRegressor(random_state=-1), "random_state"),
    (ShrinkingGradientRegressor(random_state=2**32), "random_state"),
    (ShrinkingGradientRegressor(family_params=[1.0]), "family_params"),
    (RandomKitchenSinksRegressor(K=0), "K"),
    (RandomKitchenSinksRegressor(C=0.0), "C"),
    (RandomKitchenSinksClassifier(svm_C=-1.0), "svm_C"),
    (RandomKitchenSinksClassifier(loss="logistic"), "loss"),
    (RandomKitchenSinksClassifier(ridge=-1.0), "ridge"),
    (RandomKitchenSinksClassifier(random_state=np.random.default_rng(0)), "random_state"),
    (FixedRandomRegressor(r=True), "r"),
    (FixedRandomRegressor(method="lsq"), "method"),
    (FixedRandomRegressor(B=float("nan")), "B"),
    (DoublyStochasticRegressor(gamma1=-0.1), "gamma1"),
    (DoublyStochasticRegressor(nu=float("inf")), "nu"),
])
def test_each_parameter_is_checked_at_fit(estimator, name):
    X, y = _data(n=20)
    with pytest.raises(InvalidParameterError, match=f"'{name}' parameter") as caught:
        estimator.fit(X, y)
    # As scikit-learn's own estimators: one error class is both.
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, TypeError)


def test_the_accepted_words_and_none_pass_the_checks():
    X, y = _data(n=20)
    RandomKitchenSinksRegressor(K=5, C=None, ridge="auto", family_params=None,
                                random_state=np.random.RandomState(0)).fit(X, y)
    FixedRandomRegressor(r=5, eta="auto", B=None, random_state=None).fit(X, y)


def test_kitchen_sinks_classifier_on_breast_cancer():
    from iln.rks.datasets import load_sklearn_dataset, standardize, train_test_split_seeded

    train, test = train_test_split_seeded(load_sklearn_dataset("breast_cancer"), 0.3, seed=0)
    scaled = standardize(train.X, test.X)
    clf = RandomKitchenSinksClassifier(family="stump", K=300, random_state=0).fit(scaled.X_train, train.y)
    # RKS's features on its preprocessing, with its loss (Section 4: the quadratic): 300
    # stumps separate these classes well; 0.9 is far below what they reach and far above
    # chance (0.63).
    assert clf.score(scaled.X_test, test.y) > 0.9


def test_kitchen_sinks_regressor_constraint_holds():
    X, y = _data(n=80)
    reg = RandomKitchenSinksRegressor(K=50, C=2.0, random_state=0).fit(X, y)
    assert np.max(np.abs(reg.result_.alpha)) <= 2.0 / 50 + 1e-12


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_random_state_of_every_documented_type_is_accepted_and_a_seed_sequence_maps_as_its_int(estimator):
    # The docstrings say "int, SeedSequence, RandomState or None": each fits, and
    # SeedSequence(s) gives the fit of the int s (both become that seed), so a project seed
    # and a scikit-learn seed reproduce one another.
    from sklearn.base import clone

    X, y = _data(n=30)
    if isinstance(estimator, RandomKitchenSinksClassifier):
        y = (y > 0).astype(int)
    fits = {}
    for name, state in (("int", 5), ("SeedSequence", np.random.SeedSequence(5)),
                        ("RandomState", np.random.RandomState(5)), ("None", None)):
        fits[name] = clone(estimator).set_params(random_state=state).fit(X, y).predict(X)
    np.testing.assert_array_equal(fits["SeedSequence"], fits["int"])


def _documented_parameters(cls):
    """``{name: type text}`` from the numpydoc Parameters section of ``cls``, a line ``a, b``
    whose description reads "As in :class:`Other`" taking Other's types."""
    import inspect
    import re

    import iln.sklearn as module

    doc = inspect.getdoc(cls)
    section = doc.split("Parameters\n----------\n", 1)[1].split("\n\n", 1)[0]
    lines = section.splitlines()
    types = {}
    for k, line in enumerate(lines):
        if line.startswith(" "):
            continue
        names, _, kind = line.partition(" : ")
        if kind:
            types[names] = kind
            continue
        other = re.search(r"As in :class:`(\w+)`", lines[k + 1])
        assert other, f"{cls.__name__}: {line!r} has neither a type nor an 'As in :class:`...`'"
        inherited = _documented_parameters(getattr(module, other.group(1)))
        types.update({name: inherited[name] for name in names.split(", ")})
    return types


def _values_of(kind):
    """One value per type the text names: quoted words, int, float, None, dict, the seed types,
    a FeatureFamily."""
    import re

    from iln.features import RandomFourier

    kind = re.sub(r",? default=.*$", "", kind)
    words = re.findall(r'"([^"]+)"', kind)
    bare = re.sub(r'\{[^}]*\}|"[^"]*"', "", kind)
    known = {"int": 3, "float": 1.5, "None": None, "dict": {}, "SeedSequence": np.random.SeedSequence(3),
             "RandomState": np.random.RandomState(3), "FeatureFamily": RandomFourier(3)}
    tokens = [t.strip() for t in re.split(r",|\bor\b", bare) if t.strip()]
    unknown = [t for t in tokens if t not in known]
    assert not unknown, f"no sample value for the documented type(s) {unknown} in {kind!r}"
    return words + [known[t] for t in tokens]


@pytest.mark.parametrize("cls", sorted({type(e) for e in ESTIMATORS}, key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_every_documented_parameter_type_passes_the_checks(cls):
    """Each parameter's documented types (its numpydoc line) against its check at fit: a value
    of every type named must pass, so that the documentation promises nothing the checks refuse.
    Every parameter of __init__ must be documented."""
    import inspect

    documented = _documented_parameters(cls)
    assert set(documented) == set(inspect.signature(cls).parameters)
    for name, kind in documented.items():
        for value in _values_of(kind):
            estimator = cls().set_params(**{name: value})
            try:
                estimator._validate_parameters()
            except InvalidParameterError as error:
                pytest.fail(f"{cls.__name__}({name}={value!r}) is documented as {kind!r} but refused: {error}")
