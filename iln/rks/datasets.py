"""Real data sets for the Random Kitchen Sinks comparisons; nothing is downloaded at run time.

Rahimi & Recht, *Weighted Sums of Random Kitchen Sinks*, Section 4
compares Random Kitchen Sinks with AdaBoost on *adult*, *KDDCUP99* and *activity*; "the
datasets were preprocessed by zero-meaning and rescaling each dimension to unit
variance" (:func:`standardize`).  Those files are not shipped: :func:`load_libsvm` reads
them in the LIBSVM/svmlight format in which *adult* is distributed (``a9a``, 123 binary
features, on the LIBSVM binary data sets page) once a user has put them on disk.  The
tests and the quick profiles use the small data sets bundled with scikit-learn
(:func:`load_sklearn_dataset`), which need no network.

Label conventions: classification labels are in {-1, +1} (RKS Section 1: ``y_i in +-1``);
regression targets are mapped affinely onto [-1, 1] (the label range every learner of
:mod:`iln` assumes), with the map kept in :attr:`Dataset.target_transform`.

Synthetic data live elsewhere: stand-ins for RKS's adult and KDD Cup 99 in
:mod:`iln.rks.synthetic_benchmarks`, the ICML Section 6 experiment and worst-case sequences in
:mod:`iln.data`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from iln import arguments, random_streams

__all__ = [
    "DATA_DIR_ENV",
    "LIBSVM_PREFIX",
    "LIBSVM_URL",
    "SKLEARN_DATASETS",
    "TASKS",
    "Dataset",
    "DatasetSplit",
    "Standardization",
    "default_data_dir",
    "load_libsvm",
    "load_sklearn_dataset",
    "standardize",
    "train_test_split_seeded",
]

TASKS = ("classification", "regression")
#: data sets bundled with scikit-learn that :func:`load_sklearn_dataset` knows.
SKLEARN_DATASETS = ("breast_cancer", "digits", "diabetes")
#: the environment variable naming the directory where LIBSVM files are looked up.
DATA_DIR_ENV = "ILN_DATA_DIR"
#: the prefix that names a LIBSVM file among data set names: ``"libsvm:PATH"``.
LIBSVM_PREFIX = "libsvm:"
#: where the LIBSVM binary-classification files (a9a = adult, ...) can be downloaded by hand.
LIBSVM_URL = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html"


def _readonly(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=np.float64, copy=True)
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class Dataset:
    """A labelled data set, arrays read-only.

    Attributes
    ----------
    X : ndarray of shape (n, D)
        Inputs, float64, finite.
    y : ndarray of shape (n,)
        Labels in {-1, +1} (classification) or targets in [-1, 1] (regression).
    name : str
    task : {"classification", "regression"}
    source : str
        Where the data came from (loader, version, file).
    target_transform : tuple of float or None
        For regression, ``(a, b)`` such that the original target is ``a * y + b``.
    """

    X: np.ndarray
    y: np.ndarray
    name: str
    task: str
    source: str
    target_transform: tuple[float, float] | None = None

    def __post_init__(self):
        X = arguments.real_matrix(self.X, "X")
        arguments.choice(self.task, "task", TASKS)
        y = (arguments.sign_labels(self.y, "y", X.shape[0], why=" for a classification data set")
             if self.task == "classification" else arguments.labels(self.y, "y", X.shape[0]))
        object.__setattr__(self, "X", _readonly(X))
        object.__setattr__(self, "y", _readonly(y))

    @property
    def n(self) -> int:
        """Number of examples."""
        return self.X.shape[0]

    @property
    def dim(self) -> int:
        """Number of input coordinates."""
        return self.X.shape[1]


@dataclass(frozen=True)
class DatasetSplit:
    """A train/test split; unpacks as ``train, test = split``.

    Attributes
    ----------
    train, test : Dataset
    train_index, test_index : ndarray of int
        Rows of the original data set in each part (in the order they appear there).
    """

    train: Dataset
    test: Dataset
    train_index: np.ndarray = field(repr=False)
    test_index: np.ndarray = field(repr=False)

    def __iter__(self) -> Iterator[Dataset]:
        return iter((self.train, self.test))


@dataclass(frozen=True)
class Standardization:
    """Per-coordinate standardisation fitted on training data; unpacks as
    ``X_train, X_test, mean, scale = result``.

    Attributes
    ----------
    X_train : ndarray of shape (n, D)
        ``(X_train - mean) / scale``.
    X_test : ndarray of shape (n_test, D) or None
        The test inputs under the training statistics, when given.
    mean : ndarray of shape (D,)
    scale : ndarray of shape (D,)
        Training standard deviation (``ddof=0``); 1 for a constant column.
    """

    X_train: np.ndarray
    X_test: np.ndarray | None
    mean: np.ndarray
    scale: np.ndarray

    def __iter__(self):
        return iter((self.X_train, self.X_test, self.mean, self.scale))

    def transform(self, X) -> np.ndarray:
        """Apply the fitted map to new inputs.

        Parameters
        ----------
        X : array of shape (n, D)

        Returns
        -------
        ndarray of shape (n, D)
        """
        X = arguments.real_matrix(X, "X")
        if X.shape[1] != self.mean.shape[0]:
            raise ValueError(f"X must have {self.mean.shape[0]} columns, got {X.shape[1]}")
        return (X - self.mean) / self.scale


def _scale_to_unit_interval(t: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    lo, hi = float(t.min()), float(t.max())
    a, b = (hi - lo) / 2.0, (hi + lo) / 2.0
    # Clipping only removes round-off beyond +-1 at the extremes.
    return np.clip((t - b) / a, -1.0, 1.0), (a, b)


def load_sklearn_dataset(name: str, *, digit: int | None = None) -> Dataset:
    """Load a data set bundled with scikit-learn (no network).

    Parameters
    ----------
    name : {"breast_cancer", "digits", "diabetes"}
        * ``"breast_cancer"``: 569 x 30, classification; benign = +1, malignant = -1.
        * ``"digits"``: 1797 x 64 (8x8 images, pixel values 0-16), classification;
          even digits = +1, odd = -1, or with ``digit`` that digit = +1 against the rest.
        * ``"diabetes"``: 442 x 10 raw (unscaled) features, regression; the disease
          progression target (25-346) mapped affinely onto [-1, 1].
    digit : int in 0..9, optional
        ``"digits"`` only: one-vs-rest instead of even-vs-odd.

    Returns
    -------
    Dataset
        Raw features; standardise them with :func:`standardize` as RKS Section 4 does.

    Examples
    --------
    >>> data = load_sklearn_dataset("breast_cancer")
    >>> data.X.shape, sorted(set(data.y.tolist()))
    ((569, 30), [-1.0, 1.0])
    """
    import sklearn
    from sklearn import datasets as skd

    name = arguments.choice(name, "name", SKLEARN_DATASETS)
    if digit is not None:
        if name != "digits":
            raise ValueError(f"digit applies to name='digits' only, got name={name!r}")
        if arguments.integer(digit, "digit", 0) > 9:
            raise ValueError(f"digit must be an int in 0..9, got {digit}")
    version = f"scikit-learn {sklearn.__version__}"
    if name == "breast_cancer":
        bunch = skd.load_breast_cancer()
        # sklearn codes malignant 0, benign 1.
        y = np.where(bunch.target == 1, 1.0, -1.0)
        return Dataset(bunch.data, y, name, "classification",
                       f"{version} sklearn.datasets.load_breast_cancer (UCI Breast Cancer Wisconsin "
                       "Diagnostic); +1 = benign, -1 = malignant")
    if name == "digits":
        bunch = skd.load_digits()
        if digit is None:
            y = np.where(bunch.target % 2 == 0, 1.0, -1.0)
            split = "+1 = even digit, -1 = odd digit"
        else:
            y = np.where(bunch.target == digit, 1.0, -1.0)
            split = f"+1 = digit {digit}, -1 = any other digit"
        return Dataset(bunch.data, y, name if digit is None else f"digits[{digit}-vs-rest]",
                       "classification",
                       f"{version} sklearn.datasets.load_digits (UCI optical digits, 8x8); {split}")
    bunch = skd.load_diabetes(scaled=False)
    y, transform = _scale_to_unit_interval(np.asarray(bunch.target, dtype=np.float64))
    return Dataset(bunch.data, y, name, "regression",
                   f"{version} sklearn.datasets.load_diabetes(scaled=False); target mapped "
                   f"affinely onto [-1, 1] (original = {transform[0]:g} * y + {transform[1]:g})",
                   target_transform=transform)


def default_data_dir() -> Path:
    """The directory searched for LIBSVM files given by a relative path.

    ``$ILN_DATA_DIR`` when set, otherwise ``~/iln_data``.
    """
    env = os.environ.get(DATA_DIR_ENV)
    return Path(env).expanduser() if env else Path.home() / "iln_data"


def _binary_labels(y: np.ndarray, path: Path) -> np.ndarray:
    values = np.unique(y)
    if np.all(np.isin(values, (-1.0, 1.0))):
        return y.astype(np.float64)
    if np.all(np.isin(values, (0.0, 1.0))):
        return 2.0 * y - 1.0
    if values.size == 2:
        # Any other two labels: the smaller is -1 (documented in load_libsvm).
        return np.where(y == values[1], 1.0, -1.0)
    raise ValueError(
        f"path {str(path)!r} holds {values.size} distinct labels {values[:5].tolist()}...; "
        "load_libsvm reads binary classification files (two labels)"
    )


def load_libsvm(path, *, n_features: int | None = None) -> Dataset:
    """Load a binary classification file in LIBSVM/svmlight format, dense, labels in {-1, +1}.

    The format of the LIBSVM copies of *adult* (``a9a``/``a9a.t``, 123 features) used in
    RKS Section 4.  Feature indices are one-based (the LIBSVM convention); absent
    indices are zeros.  Labels {-1, +1} are kept, {0, 1} become {-1, +1}, and any other
    two values map the smaller to -1 and the larger to +1.  Nothing is downloaded.

    Parameters
    ----------
    path : str or os.PathLike
        The file.  A relative path that does not exist is also looked up in
        :func:`default_data_dir` (``$ILN_DATA_DIR`` or ``~/iln_data``).
    n_features : int, optional
        Number of columns; pass it to load a train/test pair with equal width
        (``a9a.t`` never uses feature 123, so it needs ``n_features=123``).

    Returns
    -------
    Dataset

    Raises
    ------
    FileNotFoundError
        With instructions on where to get the file and where to put it.
    """
    from sklearn.datasets import load_svmlight_file

    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    if n_features is not None:
        n_features = arguments.integer(n_features, "n_features", 1)
    given = Path(path).expanduser()
    candidates = [given]
    if not given.is_absolute():
        candidates.append(default_data_dir() / given)
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        looked = ", ".join(str(c.resolve()) for c in candidates)
        raise FileNotFoundError(
            f"LIBSVM data file not found: {str(path)!r} (looked at {looked}). Nothing is "
            f"downloaded at run time: download it by hand from the LIBSVM data sets page "
            f"{LIBSVM_URL} (RKS's 'adult' is a9a and a9a.t), then pass its path, or put it in "
            f"{default_data_dir()} (set ${DATA_DIR_ENV} to use another directory)."
        )
    try:
        X, y = load_svmlight_file(str(found), n_features=n_features, zero_based=False)
    except ValueError as exc:
        raise ValueError(f"path {str(found)!r} is not a valid one-based LIBSVM file "
                         f"(n_features={n_features}): {exc}") from exc
    if X.shape[0] == 0:
        raise ValueError(f"path {str(found)!r} holds no examples")
    return Dataset(X.toarray(), _binary_labels(np.asarray(y, dtype=np.float64), found), found.name,
                   "classification", f"LIBSVM file {found.resolve()}")


def standardize(X_train, X_test=None) -> Standardization:
    """Zero mean and unit variance per coordinate, fitted on the training data (RKS Section 4).

    A constant training column is centred to exactly 0 and not divided (its scale is
    1), so no division by zero occurs and no information leaks from ``X_test``.

    Parameters
    ----------
    X_train : array of shape (n, D), n >= 1
    X_test : array of shape (n_test, D), optional
        Transformed with the training statistics.

    Returns
    -------
    Standardization
        Unpacks as ``X_train, X_test, mean, scale``.

    Examples
    --------
    >>> Xtr, _, mean, scale = standardize([[0.0, 5.0], [2.0, 5.0]])
    >>> Xtr.tolist(), mean.tolist(), scale.tolist()
    ([[-1.0, 0.0], [1.0, 0.0]], [1.0, 5.0], [1.0, 1.0])
    """
    X_train = arguments.real_matrix(X_train, "X_train")
    if X_train.shape[0] < 1:
        raise ValueError("X_train must hold at least one row")
    if X_test is not None:
        X_test = arguments.real_matrix(X_test, "X_test")
        if X_test.shape[1] != X_train.shape[1]:
            raise ValueError(f"X_test must have {X_train.shape[1]} columns like X_train, "
                             f"got {X_test.shape[1]}")
    mean = X_train.mean(axis=0)
    scale = X_train.std(axis=0)
    constant = np.ptp(X_train, axis=0) == 0
    # The mean of n equal floats can differ from them by round-off; centring a constant
    # column on its own value makes it exactly 0, and scale 1 avoids 0/0.
    mean[constant] = X_train[0, constant]
    scale[constant] = 1.0
    return Standardization(
        X_train=(X_train - mean) / scale,
        X_test=None if X_test is None else (X_test - mean) / scale,
        mean=mean, scale=scale,
    )


def train_test_split_seeded(dataset: Dataset, test_fraction: float, seed) -> DatasetSplit:
    """A uniformly random train/test split that depends only on ``seed``.

    Parameters
    ----------
    dataset : Dataset
    test_fraction : float in (0, 1)
        ``round(test_fraction * n)`` examples go to the test part; both parts must be
        non-empty.
    seed : int or numpy.random.SeedSequence

    Returns
    -------
    DatasetSplit
        Unpacks as ``train, test``; each part keeps the data set's task, source and
        target transform.
    """
    if not isinstance(dataset, Dataset):
        raise TypeError(f"dataset must be an iln.rks.datasets.Dataset, got {type(dataset).__name__}")
    test_fraction = arguments.open_unit(test_fraction, "test_fraction")
    seed = random_streams.as_seed_sequence(seed)
    n = dataset.n
    n_test = round(test_fraction * n)
    if not 1 <= n_test <= n - 1:
        raise ValueError(f"test_fraction={test_fraction} leaves an empty part of a data set of "
                         f"{n} examples (test size {n_test})")
    order = random_streams.generator(seed).permutation(n)
    test_index, train_index = np.sort(order[:n_test]), np.sort(order[n_test:])

    def part(index, label):
        return Dataset(dataset.X[index], dataset.y[index], f"{dataset.name}[{label}]",
                       dataset.task, dataset.source, dataset.target_transform)

    return DatasetSplit(part(train_index, "train"), part(test_index, "test"),
                        train_index, test_index)
