"""Real data loaders (bundled scikit-learn sets, LIBSVM files), standardisation, splits."""

import numpy as np
import pytest

from iln.rks import datasets
from iln.rks.datasets import (
    Dataset,
    load_libsvm,
    load_sklearn_dataset,
    standardize,
    train_test_split_seeded,
)


# -- bundled data sets -------------------------------------------------------------------
@pytest.mark.parametrize(("name", "shape", "task"), [
    ("breast_cancer", (569, 30), "classification"),
    ("digits", (1797, 64), "classification"),
    ("diabetes", (442, 10), "regression"),
])
def test_bundled_datasets_have_the_documented_shapes_and_labels(name, shape, task):
    data = load_sklearn_dataset(name)
    assert data.X.shape == shape
    assert data.y.shape == (shape[0],)
    assert data.task == task
    assert data.name == name
    assert "scikit-learn" in data.source
    assert np.all(np.isfinite(data.X))
    assert not data.X.flags.writeable
    assert not data.y.flags.writeable
    if task == "classification":
        assert set(np.unique(data.y)) == {-1.0, 1.0}
        assert data.target_transform is None
    else:
        # Scaled onto [-1, 1]: both ends reached.
        assert data.y.min() == -1.0
        assert data.y.max() == 1.0


def test_breast_cancer_benign_is_plus_one():
    # 357 benign and 212 malignant cases (UCI documentation of the data set).
    data = load_sklearn_dataset("breast_cancer")
    assert (data.y == 1).sum() == 357
    assert (data.y == -1).sum() == 212


def test_digits_splits():
    from sklearn.datasets import load_digits

    digits = load_digits().target
    parity = load_sklearn_dataset("digits")
    np.testing.assert_array_equal(parity.y == 1, digits % 2 == 0)
    three = load_sklearn_dataset("digits", digit=3)
    np.testing.assert_array_equal(three.y == 1, digits == 3)
    assert three.name == "digits[3-vs-rest]"


def test_diabetes_target_transform_inverts_to_the_original():
    from sklearn.datasets import load_diabetes

    data = load_sklearn_dataset("diabetes")
    a, b = data.target_transform
    np.testing.assert_allclose(a * data.y + b, load_diabetes().target, rtol=1e-13)


@pytest.mark.parametrize(("args", "kwargs", "error", "match"), [
    (("iris",), {}, ValueError, "name"),
    ((3,), {}, ValueError, "name"),
    (("breast_cancer",), {"digit": 1}, ValueError, "digit"),
    (("digits",), {"digit": 10}, ValueError, "digit"),
    (("digits",), {"digit": 1.0}, TypeError, "digit"),
])
def test_sklearn_loader_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        load_sklearn_dataset(*args, **kwargs)


# -- LIBSVM files --------------------------------------------------------------------------
def _write(path, text):
    path.write_text(text)
    return path


def test_libsvm_loader_reads_a_small_file(tmp_path):
    # One-based indices; row 2 has no feature 1 or 3, and no row has feature 4.
    f = _write(tmp_path / "tiny.svm", "1 1:0.5 3:1\n0 2:-1\n1 1:2 2:3 3:4\n0 3:-0.25\n")
    data = load_libsvm(f)
    np.testing.assert_array_equal(data.X, [[0.5, 0, 1], [0, -1, 0], [2, 3, 4], [0, 0, -0.25]])
    np.testing.assert_array_equal(data.y, [1, -1, 1, -1])  # {0, 1} -> {-1, +1}
    assert data.task == "classification"
    assert data.name == "tiny.svm"
    assert str(f.resolve()) in data.source
    wide = load_libsvm(str(f), n_features=5)  # the a9a.t case: declared width
    assert wide.X.shape == (4, 5)
    assert np.all(wide.X[:, 3:] == 0)


@pytest.mark.parametrize(("labels", "expected"), [
    ("-1 +1", [-1, 1]),
    ("+1 -1", [1, -1]),
    ("2 4", [-1, 1]),  # any two values: the smaller is -1
])
def test_libsvm_label_conventions(tmp_path, labels, expected):
    lo, hi = labels.split()
    f = _write(tmp_path / "l.svm", f"{lo} 1:1\n{hi} 2:1\n")
    np.testing.assert_array_equal(load_libsvm(f).y, expected)


def test_libsvm_relative_path_is_looked_up_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(datasets.DATA_DIR_ENV, str(tmp_path))
    monkeypatch.chdir(tmp_path / "..")
    _write(tmp_path / "a9a_tiny", "-1 1:1\n+1 2:1\n")
    assert datasets.default_data_dir() == tmp_path
    assert load_libsvm("a9a_tiny").X.shape == (2, 2)


def test_libsvm_missing_file_says_where_to_get_and_put_it(tmp_path, monkeypatch):
    monkeypatch.setenv(datasets.DATA_DIR_ENV, str(tmp_path / "store"))
    with pytest.raises(FileNotFoundError) as info:
        load_libsvm(tmp_path / "a9a")
    message = str(info.value)
    assert "a9a" in message
    assert datasets.LIBSVM_URL in message
    assert "Nothing is downloaded" in message
    with pytest.raises(FileNotFoundError) as info:
        load_libsvm("a9a")
    assert str(tmp_path / "store") in str(info.value)


@pytest.mark.parametrize(("text", "kwargs", "error", "match"), [
    ("1 1:1\n2 1:2\n3 1:3\n", {}, ValueError, "labels"),
    ("1 0:1\n-1 1:1\n", {}, ValueError, "one-based"),
    ("1 3:1\n-1 1:1\n", {"n_features": 2}, ValueError, "n_features"),
    ("1 1:1\n", {"n_features": 0}, ValueError, "n_features"),
    ("1 1:1\n", {"n_features": 2.0}, TypeError, "n_features"),
    ("", {}, ValueError, "no examples"),
])
def test_libsvm_bad_files_and_arguments(tmp_path, text, kwargs, error, match):
    f = _write(tmp_path / "bad.svm", text)
    with pytest.raises(error, match=match):
        load_libsvm(f, **kwargs)


def test_libsvm_path_type():
    with pytest.raises(TypeError, match="path"):
        load_libsvm(3)


# -- standardize ---------------------------------------------------------------------------
def test_standardize_statistics():
    rng = np.random.default_rng(0)
    X = rng.normal(3.0, 2.0, (500, 4))
    X[:, 2] = 0.1  # constant column, a value whose mean over 500 rows is inexact
    X_test = rng.normal(3.0, 2.0, (50, 4))
    result = standardize(X, X_test)
    Xs, Xt, mean, scale = result
    np.testing.assert_allclose(Xs.mean(axis=0), 0.0, atol=1e-14)
    np.testing.assert_allclose(Xs[:, [0, 1, 3]].std(axis=0), 1.0, rtol=1e-13)
    assert np.all(Xs[:, 2] == 0.0)
    assert scale[2] == 1.0
    np.testing.assert_allclose(mean[[0, 1, 3]], X[:, [0, 1, 3]].mean(axis=0), rtol=1e-15)
    np.testing.assert_allclose(scale[[0, 1, 3]], X[:, [0, 1, 3]].std(axis=0), rtol=1e-15)
    # The test part uses the training statistics, not its own.
    np.testing.assert_allclose(Xt, (X_test - mean) / scale, rtol=1e-15)
    np.testing.assert_allclose(result.transform(X_test), Xt, rtol=1e-15)
    assert standardize(X).X_test is None


def test_standardize_a_single_row_is_all_zeros():
    Xs, _, _, scale = standardize([[1.0, -2.0, 3.0]])
    np.testing.assert_array_equal(Xs, [[0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(scale, [1.0, 1.0, 1.0])


@pytest.mark.parametrize(("args", "error", "match"), [
    ((np.ones(3),), ValueError, "X_train"),
    ((np.ones((0, 3)),), ValueError, "X_train"),
    ((np.array([[np.nan, 1.0]]),), ValueError, "X_train"),
    ((np.array([["a", "b"]]),), TypeError, "X_train"),
    ((np.ones((3, 2)), np.ones((3, 3))), ValueError, "X_test"),
    ((np.ones((3, 2)), np.full((3, 2), np.inf)), ValueError, "X_test"),
])
def test_standardize_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        standardize(*args)


# -- splits --------------------------------------------------------------------------------
def test_split_is_a_seeded_partition():
    data = load_sklearn_dataset("diabetes")
    split = train_test_split_seeded(data, 0.25, seed=4)
    train, test = split
    assert test.n == round(0.25 * data.n)
    assert train.n + test.n == data.n
    both = np.concatenate([split.train_index, split.test_index])
    np.testing.assert_array_equal(np.sort(both), np.arange(data.n))
    np.testing.assert_array_equal(test.X, data.X[split.test_index])
    np.testing.assert_array_equal(train.y, data.y[split.train_index])
    assert train.task == "regression"
    assert train.target_transform == data.target_transform
    again = train_test_split_seeded(data, 0.25, seed=np.random.SeedSequence(4))
    np.testing.assert_array_equal(again.test_index, split.test_index)
    other = train_test_split_seeded(data, 0.25, seed=5)
    assert not np.array_equal(other.test_index, split.test_index)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"test_fraction": 0.0}, ValueError, "test_fraction"),
    ({"test_fraction": 1.0}, ValueError, "test_fraction"),
    ({"test_fraction": 0.01}, ValueError, "test_fraction"),  # 0 of 10 examples
    ({"test_fraction": "half"}, TypeError, "test_fraction"),
    ({"seed": -3}, ValueError, "seed"),
    ({"dataset": (np.ones((3, 1)), np.ones(3))}, TypeError, "dataset"),
])
def test_split_bad_input(kwargs, error, match):
    small = Dataset(np.arange(10.0)[:, None], np.where(np.arange(10) % 2, 1.0, -1.0), "toy",
                    "classification", "test")
    call = {"dataset": small, "test_fraction": 0.3, "seed": 0}
    call.update(kwargs)
    with pytest.raises(error, match=match):
        train_test_split_seeded(**call)


@pytest.mark.parametrize(("X", "y", "task", "error", "match"), [
    (np.ones((3, 2)), np.array([1.0, -1.0, 0.0]), "classification", ValueError, "y"),
    (np.ones((3, 2)), np.array([1.0, -1.0, 2.0]), "regression", ValueError, "y"),
    (np.ones((3, 2)), np.ones(2), "regression", ValueError, "y"),
    (np.ones((3, 2)), np.ones(3), "ranking", ValueError, "task"),
    (np.ones(3), np.ones(3), "regression", ValueError, "X"),
])
def test_dataset_validates(X, y, task, error, match):
    with pytest.raises(error, match=match):
        Dataset(X, y, "bad", task, "test")
