"""The synthetic stand-ins for RKS's data sets: seeded, and with the structure their docstrings
document (shapes, one-hot blocks, sparsity, class shares, duplicate rows)."""

import numpy as np
import pytest

from iln.rks.datasets import Dataset
from iln.rks.synthetic_benchmarks import (
    ADULT_ATTRIBUTES,
    KDD_ATTACK_SHARE,
    adult_like,
    duplicate_share,
    kdd_like,
)

GENERATORS = [adult_like, kdd_like]


@pytest.fixture(scope="module")
def adult():
    return adult_like(20_000, seed=0)


@pytest.fixture(scope="module")
def kdd():
    return kdd_like(20_000, seed=0)


@pytest.mark.parametrize("make", GENERATORS)
def test_the_same_seed_gives_the_same_data_and_another_seed_other_data(make):
    first, again, other = make(3000, seed=7), make(3000, seed=7), make(3000, seed=8)
    assert np.array_equal(first.X, again.X)
    assert np.array_equal(first.y, again.y)
    assert not np.array_equal(first.X, other.X)


@pytest.mark.parametrize("make", GENERATORS)
def test_a_seed_sequence_and_its_int_give_the_same_data(make):
    assert np.array_equal(make(500, seed=3).X, make(500, seed=np.random.SeedSequence(3)).X)


@pytest.mark.parametrize("make", GENERATORS)
def test_the_numbers_do_not_depend_on_the_blas_threads(make):
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        one = make(2000, seed=5)
    assert np.array_equal(one.X, make(2000, seed=5).X)


@pytest.mark.parametrize("make", GENERATORS)
@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"n": 1000}, TypeError, "seed"),  # the seed is required: nothing random without one
    ({"n": 1000, "seed": None}, TypeError, "seed"),
    ({"n": 1000, "seed": -1}, ValueError, "seed"),
    ({"n": 1, "seed": 0}, ValueError, "n must"),
    ({"n": 10.0, "seed": 0}, TypeError, "n must"),
])
def test_bad_arguments_are_refused_by_name(make, kwargs, error, match):
    with pytest.raises(error, match=match):
        make(**kwargs)


def test_adult_like_has_a9as_columns_in_one_hot_blocks(adult):
    assert isinstance(adult, Dataset)
    assert adult.task == "classification"
    assert adult.X.shape == (20_000, 123) == (20_000, sum(w for _, w in ADULT_ATTRIBUTES))
    assert len(ADULT_ATTRIBUTES) == 14
    assert set(np.unique(adult.X)) == {0.0, 1.0}
    blocks = np.add.reduceat(adult.X, np.cumsum([0] + [w for _, w in ADULT_ATTRIBUTES])[:-1], axis=1)
    assert blocks.max() == 1  # at most one category an attribute
    ones = adult.X.sum(axis=1)
    # Only workclass, occupation and country can be missing: 11 to 14 ones a row, mostly 14.
    assert ones.min() >= 11
    assert ones.max() == 14
    assert 13.5 < ones.mean() < 14
    assert 0.87 < np.mean(adult.X == 0) < 0.9


def test_adult_like_has_adults_class_share_and_rare_columns(adult):
    assert 0.22 < np.mean(adult.y == 1) < 0.26
    shares = adult.X.mean(axis=0)
    assert np.sum(shares < 0.01) > 123 / 3
    assert np.sum(shares > 0.3) >= 10


def test_adult_like_education_num_is_a_function_of_education(adult):
    education = slice(18, 34)
    education_num = slice(34, 39)
    codes = {tuple(row) for row in np.hstack([adult.X[:, education], adult.X[:, education_num]])}
    assert len(codes) == 16


def test_adult_like_label_depends_on_more_than_one_column_at_a_time(adult):
    # A logistic model on the one-hot columns predicts it well above the majority rate but
    # not perfectly (the labels are noisy, as adult's are).
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(max_iter=2000).fit(adult.X[:15_000], adult.y[:15_000])
    accuracy = model.score(adult.X[15_000:], adult.y[15_000:])
    assert 0.8 < accuracy < 0.9


def test_kdd_like_is_imbalanced_and_full_of_duplicates(kdd):
    assert kdd.X.shape == (20_000, 122)
    attack = np.mean(kdd.y == 1)
    assert abs(attack - KDD_ATTACK_SHARE) < 0.02
    assert attack > 0.75
    assert duplicate_share(kdd.X) > 0.7
    # The floods repeat; normal traffic mostly does not.
    assert duplicate_share(kdd.X[kdd.y == -1]) < 0.3
    assert np.all(kdd.X[:, :3].sum(axis=1) == 1)
    assert np.all(kdd.X[:, 73:84].sum(axis=1) == 1)


def test_kdd_like_numeric_attributes_have_their_recorded_ranges(kdd):
    numeric = kdd.X[:, 84:]
    assert numeric.shape[1] == 38
    assert np.all(numeric >= 0)
    rates = np.r_[21:28, 30:38]  # positions among the 38, in KDD's documented order
    assert np.all(numeric[:, rates] <= 1)
    assert np.array_equal(numeric[:, rates], np.round(numeric[:, rates], 2))
    assert np.all(numeric[:, [19, 20]] <= 511)
    assert np.all(numeric[:, [28, 29]] <= 255)
    assert numeric[:, 1].max() > 1e4  # byte counts are heavy-tailed


def test_duplicate_share_counts_rows_that_repeat_an_earlier_one():
    assert duplicate_share([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]) == 0.5
    assert duplicate_share([[1.0]]) == 0.0
    with pytest.raises(ValueError, match="X must"):
        duplicate_share([1.0, 2.0])
