"""The estimators of :mod:`iln.sklearn` against scikit-learn's own, at equal feature budgets.

``python -m iln.benchmark_sklearn`` (``nox -s compare``) fits, on the data sets bundled
with scikit-learn (nothing is downloaded) and over several seeds of the train/test
split, every estimator of :mod:`iln.sklearn` and scikit-learn's random-features
pipelines (``RBFSampler`` and ``Nystroem`` followed by a ridge fit or by stochastic
gradient descent), with ``KernelRidge`` (the exact kernel, regression) and
``AdaBoostClassifier`` (classification) as references, and prints a Markdown table of
test score and fit time.

Equal budgets (:mod:`iln.budget`: evaluations of ``psi`` in training).  With ``n``
training rows and ``K`` features, ``RBFSampler``, ``Nystroem`` (K kernel evaluations a
row), Random Kitchen Sinks and Fixed-Random spend ``K n``; Shrinking Gradient spends
``2 m`` a round, so ``m = K / 2``; DSGD spends ``k n (n + 1) / 2``, so
``k = max(1, round(2 K / (n + 1)))``.  KernelRidge (``n^2`` kernel evaluations) and
AdaBoost (stumps over every coordinate) are outside the budget, references only.
Shrinking Gradient is also run with its defaults (``m = 4 T``, more than the budget),
the setting issue 22 timed.

Every learner sees the same standardised inputs and the same kernel width,
``gamma = 1 / (n_features * X.var())`` (the online learners' default in :mod:`iln.sklearn`,
scikit-learn's ``gamma="scale"``; Random Kitchen Sinks' own default, the median heuristic,
is measured by ``tests/benchmarks/test_learners.py``); the ridge fits choose their
penalty by (generalised) cross-validation on the training rows (``RidgeCV``,
``RidgeClassifierCV``; ``ridge="auto"`` for Random Kitchen Sinks), ``KernelRidge`` by
5-fold cross-validation on standardised targets (it has no intercept); the online learners of :mod:`iln.sklearn` use their "auto"
steps; ``SGDRegressor``/``SGDClassifier`` their defaults (several epochs).  BLAS runs on
one thread for every learner: on a shared 2-core machine a two-thread OpenBLAS that waits
for a busy core was measured up to 50 times slower on these sizes, which would time the
machine's load rather than the learners.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["DATASETS", "Row", "compare", "learners", "main", "to_markdown"]

#: data set name -> (task, features K of the equal budget).
DATASETS = {"diabetes": ("regression", 300), "breast_cancer": ("binary", 300), "digits": ("multiclass", 300)}
#: the scikit-learn random-features pipelines the goal is measured against.
RANDOM_FEATURE_PIPELINES = ("RBFSampler + Ridge", "RBFSampler + SGD", "Nystroem + Ridge", "Nystroem + SGD")
_ALPHAS = np.logspace(-3, 3, 13)


@dataclass(frozen=True)
class Row:
    """One learner on one data set, over the seeds.

    Attributes
    ----------
    dataset, learner : str
    budget : str
        The learner's size and its ``psi`` evaluations in training, or why it has none.
    scores, seconds : tuple of float
        Test score (R^2 or accuracy) and fit time of each seed.
    gap : float or None
        Mean score minus the best random-features pipeline's mean score (None for those
        pipelines and the references).
    """

    dataset: str
    learner: str
    budget: str
    scores: tuple
    seconds: tuple
    gap: float | None = None


def _load(name: str):
    from sklearn import datasets

    loader = {"diabetes": datasets.load_diabetes, "breast_cancer": datasets.load_breast_cancer,
              "digits": datasets.load_digits}[name]
    return loader(return_X_y=True)


def learners(task: str, n: int, d: int, K: int, seed: int) -> dict[str, tuple[str, Callable]]:
    """The learners of one data set: name -> (budget, a factory of the unfitted pipeline).

    Parameters
    ----------
    task : {"regression", "binary", "multiclass"}
    n, d : int
        Training rows and input dimension.
    K : int
        Features of the equal budget (``K n`` evaluations of ``psi``).
    seed : int
        ``random_state`` of every learner.

    Returns
    -------
    dict
    """
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.kernel_approximation import Nystroem, RBFSampler
    from sklearn.kernel_ridge import KernelRidge
    from sklearn.linear_model import RidgeClassifierCV, RidgeCV, SGDClassifier, SGDRegressor
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from iln import sklearn as ours

    gamma = 1.0 / d  # gamma="scale" on standardised inputs (unit variance)
    family = {"family_params": {"gamma": gamma}}
    budget = f"K = {K}: {K * n:,}"
    regression = task == "regression"
    ridge = (lambda: RidgeCV(alphas=_ALPHAS)) if regression else (lambda: RidgeClassifierCV(alphas=_ALPHAS))
    sgd = (lambda: SGDRegressor(random_state=seed)) if regression else (lambda: SGDClassifier(random_state=seed))

    def pipe(*steps):
        return lambda: make_pipeline(StandardScaler(), *[step() for step in steps])

    table = {
        "RBFSampler + Ridge": (budget, pipe(lambda: RBFSampler(gamma=gamma, n_components=K, random_state=seed), ridge)),
        "RBFSampler + SGD": (budget, pipe(lambda: RBFSampler(gamma=gamma, n_components=K, random_state=seed), sgd)),
        "Nystroem + Ridge": (budget, pipe(lambda: Nystroem(gamma=gamma, n_components=K, random_state=seed), ridge)),
        "Nystroem + SGD": (budget, pipe(lambda: Nystroem(gamma=gamma, n_components=K, random_state=seed), sgd)),
    }
    if regression:
        m, k = K // 2, max(1, round(2 * K / (n + 1)))
        table.update({
            # KernelRidge has no intercept: standardised targets give it the mean the
            # ridge pipelines fit as their intercept and the iln estimators as y_offset_.
            "KernelRidge (exact kernel, reference)": (f"{n * n:,} kernel evaluations", pipe(
                lambda: TransformedTargetRegressor(GridSearchCV(
                    KernelRidge(kernel="rbf", gamma=gamma), {"alpha": _ALPHAS}, cv=5), transformer=StandardScaler()))),
            "RandomKitchenSinksRegressor": (budget, pipe(lambda: ours.RandomKitchenSinksRegressor(
                K=K, random_state=seed, **family))),
            "FixedRandomRegressor": (f"r = {K}: {K * n:,}", pipe(lambda: ours.FixedRandomRegressor(
                r=K, random_state=seed, **family))),
            "DoublyStochasticRegressor": (f"k = {k}: {k * n * (n + 1) // 2:,}", pipe(
                lambda: ours.DoublyStochasticRegressor(k=k, random_state=seed, **family))),
            "ShrinkingGradientRegressor": (f"m = {m}: {2 * m * n:,}", pipe(
                lambda: ours.ShrinkingGradientRegressor(m=m, random_state=seed, **family))),
            "ShrinkingGradientRegressor (defaults)": (f"m = 4T = {4 * n}: {8 * n * n:,}", pipe(
                lambda: ours.ShrinkingGradientRegressor(random_state=seed))),
        })
    else:
        table.update({
            "AdaBoostClassifier (stumps, reference)": (f"{K} stumps over all coordinates", pipe(
                lambda: AdaBoostClassifier(n_estimators=K, random_state=seed))),
            "RandomKitchenSinksClassifier": (budget, pipe(lambda: ours.RandomKitchenSinksClassifier(
                K=K, random_state=seed, **family))),
        })
    return table


def compare(datasets=tuple(DATASETS), seeds=range(5), test_size: float = 0.25) -> list[Row]:
    """Fit every learner on every data set and seed; returns the rows of the table.

    Parameters
    ----------
    datasets : iterable of str
        Names among :data:`DATASETS`.
    seeds : iterable of int
        Seed ``s`` splits the rows (``train_test_split(random_state=s)``) and seeds the learners.
    test_size : float, default=0.25

    Returns
    -------
    list of Row
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.model_selection import train_test_split
    from threadpoolctl import threadpool_limits

    rows = []
    for name in datasets:
        if name not in DATASETS:
            raise ValueError(f"datasets must hold names among {tuple(DATASETS)}, got {name!r}")
        task, K = DATASETS[name]
        X, y = _load(name)
        results: dict[str, tuple[str, list, list]] = {}
        for seed in seeds:
            X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_size, random_state=seed)
            n, d = X_train.shape
            for learner, (budget, make) in learners(task, n, d, K, seed).items():
                model = make()
                # SGD stops at its default max_iter on some splits: the table reports its
                # default behaviour, warnings included, so silence only that one.
                with threadpool_limits(limits=1), warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    start = time.perf_counter()
                    model.fit(X_train, y_train)
                    elapsed = time.perf_counter() - start
                entry = results.setdefault(learner, (budget, [], []))
                entry[1].append(float(model.score(X_test, y_test)))
                entry[2].append(elapsed)
        best = max(statistics.mean(results[p][1]) for p in RANDOM_FEATURE_PIPELINES)
        for learner, (budget, scores, seconds) in results.items():
            ours = not (learner in RANDOM_FEATURE_PIPELINES or "reference" in learner)
            rows.append(Row(name, learner, budget, tuple(scores), tuple(seconds),
                            statistics.mean(scores) - best if ours else None))
    return rows


def to_markdown(rows: list[Row]) -> str:
    """The rows as a Markdown table (score: mean, sd and minimum over the seeds; time: median)."""
    lines = ["| data set | learner | budget (psi evaluations) | test score | min | fit time (s) | vs best RF pipeline |",
             "|---|---|---|--:|--:|--:|--:|"]
    for row in rows:
        sd = statistics.stdev(row.scores) if len(row.scores) > 1 else 0.0
        gap = "" if row.gap is None else f"{row.gap:+.3f}"
        lines.append(f"| {row.dataset} | {row.learner} | {row.budget} | {statistics.mean(row.scores):.3f} "
                     f"± {sd:.3f} | {min(row.scores):.3f} | {statistics.median(row.seconds):.2f} | {gap} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    """Command line: ``python -m iln.benchmark_sklearn [--seeds N] [--datasets ...]``."""
    parser = argparse.ArgumentParser(prog="python -m iln.benchmark_sklearn", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="number of splits (seeds 0..N-1), default 5")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=list(DATASETS))
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    import os

    import sklearn

    start = time.perf_counter()
    rows = compare(args.datasets, range(args.seeds))
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores; Python "
          f"{platform.python_version()}, scikit-learn {sklearn.__version__}; seeds 0-{args.seeds - 1}, "
          f"test size 0.25; scores: R^2 (diabetes), accuracy (others); {time.perf_counter() - start:.0f} s\n")
    print(to_markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
