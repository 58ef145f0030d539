"""The ICML Section 6 experiment: random-feature learners at an equal feature budget.

Livni, Carmon & Globerson, ICML 2017, Section 6 and Figure 1 (the arXiv version has no
experiment section) compare three learners "so that the same overall number of features
is calculated", one pass each over T = 200 points in dimension D = 550, ..., 800, with
the random-coordinate features ``psi(x; w) = x_w``:

* **Shrinking Gradient** (Algorithm 1, :func:`iln.shrinking_gradient.shrinking_gradient`)
  with m samples per call of Algorithm 2: ``2 m`` evaluations per round once
  ``alpha != 0``, i.e. ``2 m (T - 1)``;
* **Fixed-Random** (:func:`iln.baselines.fixed_random.fixed_random`) with r features:
  ``r T``;
* **Doubly Stochastic Gradient Descent** (:func:`iln.baselines.doubly_stochastic.doubly_stochastic`)
  with k features per point: ``k T (T + 1) / 2``;

and, as a reference without a feature budget, **exact-kernel OGD**
(:func:`iln.baselines.kernel_ogd.kernel_ogd`), the kernel trick the paper avoids.  The
paper does not say whether it counts evaluations of ``psi`` or draws of ``w``: both
accountings are defined once in :mod:`iln.budget` (:data:`iln.budget.ACCOUNTINGS`), and
m, r and k are the nearest integers to the values that spend ``budget`` under the one
chosen (:func:`equal_budget_sizes`).

Step sizes.  The paper says "for all methods we explored different initial step sizes and
schedules for changing the step size" without the values.  Here each learner gets a small
grid (:data:`DEFAULT_STEP_GRID`), tried on a *separate tuning run* (independent data,
held-out points (at most :data:`TUNING_HELD_OUT`) and features: children 1, 3 and 5 of
the seed; the reported run uses children 0, 2 and 4), and each loss is reported for the value best on that loss there: the
online loss for the value with the lowest average online loss, the test loss for the value
with the lowest held-out loss; ``steps`` fixes them instead.  The grid is
set for the Section 6 data as :func:`iln.data.section6_data` scales it: inputs below 1 in
every coordinate, ``k(x, x) = ||x||^2 / D`` about 0.02, so the steps ``0.2, ..., 200``
(a 1-2-5 series) put ``eta k(x, x)`` between 0.004 and 4, across the single-point
stability limit ``eta k(x, x) < 2`` of the squared loss.  Algorithm 1 and the kernel OGD
baseline take a constant step (their signatures have no schedule); Fixed-Random and DSGD
also try the decaying schedules ``gamma0 / (1 + gamma1 (t - 1))``, ``gamma1`` in
``{0, 0.01, 0.1}``, of Dai et al. (2014).  DSGD runs without regularisation (``nu = 0``):
the target here is the risk, not Dai et al.'s regularised objective (ICML Section 4).
The runs of a learner's grid share what does not depend on the step: the baselines' features
(or Gram rows) and their evaluations on the points, drawn and computed once
(``*_grid`` in :mod:`iln.baselines`) and at the held-out points (``features`` and
``predict_from_features`` of their results), and the oracle Gram matrix of Shrinking
Gradient's exact losses; each run's numbers are those of a run alone, bit for bit.  Algorithm 1's
own draws depend on its step (Algorithm 2 samples from the current ``alpha``).

Test points are predicted as a user of each learner would, at a counted test-time budget
(:func:`prediction_budget`): Shrinking Gradient through Algorithm 2 (ICML Theorem 1 part 3 /
arXiv Theorem 1.3) at the m of its training, so ``2 m`` evaluations per point, about the
``r`` of Fixed-Random at an equal evaluation budget; the baselines with their own features.
The checker's side, a reference that decides nothing: Shrinking Gradient's ``f_{T+1} =
sum_i alpha_i Phi(x_i)`` and ``f_t`` evaluated exactly with the oracle kernel
(``test_loss_exact``, ``online_loss_exact``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from iln import arguments, estimator, random_streams
from iln.baselines.doubly_stochastic import doubly_stochastic_grid
from iln.baselines.fixed_random import fixed_random_grid
from iln.baselines.kernel_ogd import kernel_ogd_grid
from iln.budget import ACCOUNTINGS, Budget
from iln.data import section6_data
from iln.features import RandomCoordinate
from iln.shrinking_gradient import shrinking_gradient

__all__ = [
    "DEFAULT_STEP_GRID",
    "LABELS",
    "LEARNERS",
    "TUNING_HELD_OUT",
    "ComparisonResult",
    "LearnerOutcome",
    "equal_budget_sizes",
    "prediction_budget",
    "section6_comparison",
]

#: the learners, in the order of the report.
LEARNERS = ("shrinking_gradient", "fixed_random", "doubly_stochastic", "kernel_ogd")

#: names in the report.
LABELS = {
    "shrinking_gradient": "Shrinking Gradient",
    "fixed_random": "Fixed-Random",
    "doubly_stochastic": "DSGD",
    "kernel_ogd": "Exact-kernel OGD",
}

_STEPS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0)
_DECAYS = (0.0, 0.01, 0.1)

#: Step sizes tried on the tuning run (see the module docstring for the scale).
DEFAULT_STEP_GRID: dict[str, tuple[dict[str, float], ...]] = {
    "shrinking_gradient": tuple({"eta": s} for s in _STEPS),
    "fixed_random": tuple({"gamma0": s, "gamma1": d} for s in _STEPS for d in _DECAYS),
    "doubly_stochastic": tuple({"gamma0": s, "gamma1": d} for s in _STEPS for d in _DECAYS),
    "kernel_ogd": tuple({"eta": s} for s in _STEPS),
}

#: held-out points of the tuning run: each grid value's held-out loss costs predictions
#: (Algorithm 2 for Shrinking Gradient, k T features a point for DSGD), so the tuning run
#: scores it on at most this many points; the reported test loss uses all ``n_test``.
TUNING_HELD_OUT = 50

_STEP_KEYS = {
    "shrinking_gradient": {"eta"},
    "fixed_random": {"eta", "gamma0", "gamma1"},
    "doubly_stochastic": {"gamma0", "gamma1", "nu"},
    "kernel_ogd": {"eta"},
}


@dataclass(frozen=True)
class LearnerOutcome:
    """One learner's run in :func:`section6_comparison`.

    Attributes
    ----------
    name : str
        Key in :data:`LEARNERS`.
    size : dict
        The budget parameter: ``{"m": ...}``, ``{"r": ...}``, ``{"k": ...}`` or ``{}``.
    steps : dict
        Step parameters of the reported run.
    tuned : bool
        Whether ``steps`` were chosen on the tuning run (False: given by the caller).
    tuning : tuple of (dict, float, float)
        Each grid value, its average online loss and its held-out loss on the tuning run
        (inf if it diverged).
    online_loss : float
        ``(1/T) sum_t (p_t - y_t)^2 / 2`` for the learner's own predictions ``p_t`` (for
        Shrinking Gradient ``p_t = E_t``, the output of Algorithm 2).
    online_loss_exact : float
        The same for ``p_t = <f_t, Phi(x_t)>`` computed exactly; differs from
        ``online_loss`` only for Shrinking Gradient, whose ``f_t`` the learner sees only
        through estimates.
    test_loss : float
        ``(1/n) sum_j (p_j - y_j)^2 / 2`` on the held-out points, for the learner's own
        predictions ``p_j`` of ``f_{T+1}(x_j)`` (Shrinking Gradient: Algorithm 2 at its
        training m, :func:`prediction_budget`), trained with ``steps_test``.
    test_loss_exact : float
        The same with ``p_j = f_{T+1}(x_j)`` exact (the oracle kernel, checker's side, for
        Shrinking Gradient; equal to ``test_loss`` for the others): a reference.
    steps_test : dict
        Step parameters of the run whose test loss is reported (tuned on the tuning run's
        held-out loss; ``steps`` are tuned on its online loss).
    test_budget : Budget
        What predicting the held-out points cost (:func:`prediction_budget`).
    budget : Budget
        Training budget actually spent (:mod:`iln.budget`).
    kernel_evaluations : int
        Oracle kernel entries the learner computed during training (exact-kernel OGD only).
    wall_time : float
        Seconds of the reported training runs: one, or two when the online and the test loss
        tuned different steps (the baselines' two runs then share their draws and
        evaluations, Shrinking Gradient's do not: a timing of this implementation, not of
        the learners' budgets).
    losses : ndarray (T,)
        Per-round losses of the learner's predictions.
    """

    name: str
    size: dict
    steps: dict
    tuned: bool
    tuning: tuple
    online_loss: float
    online_loss_exact: float
    test_loss: float
    budget: Budget
    kernel_evaluations: int
    wall_time: float
    losses: np.ndarray = field(repr=False)
    steps_test: dict = field(default_factory=dict)
    test_loss_exact: float = math.nan
    test_budget: Budget = field(default_factory=lambda: Budget(0, 0))

    @property
    def label(self) -> str:
        """The learner's name in the report."""
        return LABELS[self.name]


@dataclass(frozen=True)
class ComparisonResult:
    """The outcome of :func:`section6_comparison`.

    Attributes
    ----------
    outcomes : tuple of LearnerOutcome
        In the order of :data:`LEARNERS`.
    budget : int
        Target number of ``psi`` evaluations per learner.
    D, T, n_test : int
    B : float
        Radius given to Shrinking Gradient (Algorithm 1) and to the kernel OGD projection.
    target_norm : float
        ``||f*||`` of the data's target (:class:`iln.data.Section6Data`).
    seed : numpy.random.SeedSequence
    tuning_time, wall_time : float
        Seconds spent on tuning, and in all.
    accounting : str
        How the budget was equalised (a key of :data:`iln.budget.ACCOUNTINGS`).
    """

    outcomes: tuple
    budget: int
    D: int
    T: int
    n_test: int
    B: float
    target_norm: float
    seed: np.random.SeedSequence
    tuning_time: float
    wall_time: float
    accounting: str = "psi_evaluations"

    def outcome(self, name: str) -> LearnerOutcome:
        """The outcome of learner ``name`` (a key of :data:`LEARNERS`)."""
        for outcome in self.outcomes:
            if outcome.name == name:
                return outcome
        raise KeyError(f"no learner {name!r} in this comparison; ran {[o.name for o in self.outcomes]}")

    def to_markdown(self) -> str:
        """A Markdown table of the outcomes, with the budget definition under it."""
        head = ("| learner | size | steps | psi evaluations | parameters sampled | "
                "kernel evaluations | online loss | online loss (exact f_t) | test loss | "
                "test loss (exact f) | test-time psi evaluations | time (s) |")
        lines = [
            f"Section 6 comparison (ICML): D = {self.D}, T = {self.T}, n_test = {self.n_test}, "
            f"target budget = {self.budget:,} psi evaluations, B = {self.B:.4g} "
            f"(target norm {self.target_norm:.4g}), seed = {self.seed.entropy}"
            f"{' spawn key ' + str(tuple(self.seed.spawn_key)) if self.seed.spawn_key else ''}.",
            "",
            head,
            "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
        ]
        for o in self.outcomes:
            size = ", ".join(f"{key} = {value:,}" for key, value in o.size.items()) or "-"
            steps = ", ".join(f"{key} = {value:g}" for key, value in o.steps.items())
            steps += " (tuned)" if o.tuned else " (given)"
            if o.steps_test != o.steps:
                steps += "; test loss: " + ", ".join(f"{key} = {value:g}" for key, value in o.steps_test.items())
            lines.append(
                f"| {o.label} | {size} | {steps} | {o.budget.psi_evaluations:,} | "
                f"{o.budget.features_sampled:,} | {o.kernel_evaluations:,} | {o.online_loss:.4g} | "
                f"{o.online_loss_exact:.4g} | {o.test_loss:.4g} | {o.test_loss_exact:.4g} | "
                f"{o.test_budget.psi_evaluations:,} | {o.wall_time:.3f} |"
            )
        lines += [
            "",
            f"Budget: {ACCOUNTINGS[self.accounting]}.",
            "Losses are (prediction - y)^2 / 2 averaged over the T online rounds (predictions made "
            "before each update) or over the held-out points (final predictor; Shrinking Gradient "
            "through Algorithm 2 at its training m, the exact f as a reference). Steps tuned per "
            "loss: the grid value with the lowest loss of that kind on an independent tuning run "
            f"(other data and features); tuning took {self.tuning_time:.1f} s, the whole "
            f"comparison {self.wall_time:.1f} s.",
        ]
        return "\n".join(lines) + "\n"


def equal_budget_sizes(budget, T: int, accounting: str = "psi_evaluations") -> dict[str, int]:
    """m, r and k that spend ``budget`` in T rounds under an accounting, rounded.

    Under ``"psi_evaluations"`` Shrinking Gradient spends ``2 m`` evaluations per round after
    the first (``alpha^(1) = 0`` needs no sample), Fixed-Random ``r`` per point, DSGD ``t k``
    at round t; under ``"feature_draws"`` Shrinking Gradient draws ``m`` parameters per round
    after the first, Fixed-Random ``r`` once, DSGD ``k`` per round
    (:data:`iln.budget.ACCOUNTINGS`).

    Parameters
    ----------
    budget : float
        Target evaluations or draws, enough for ``k >= 1``: at least ``T (T + 1) / 4``
        evaluations, or ``T / 2`` draws.
    T : int
        Rounds, ``T >= 2``.
    accounting : {"psi_evaluations", "feature_draws"}, default="psi_evaluations"

    Returns
    -------
    dict
        ``{"m": ..., "r": ..., "k": ...}``.

    Examples
    --------
    >>> equal_budget_sizes(2_000_000, 200)
    {'m': 5025, 'r': 10000, 'k': 100}
    >>> equal_budget_sizes(10_000, 200, "feature_draws")
    {'m': 50, 'r': 10000, 'k': 50}
    """
    T = arguments.integer(T, "T", 2)
    budget = arguments.finite_real(budget, "budget")
    accounting = arguments.choice(accounting, "accounting", tuple(ACCOUNTINGS))
    # per unit of m, r and k, what each learner spends in T rounds under the accounting
    per_unit = ({"m": 2 * (T - 1), "r": T, "k": T * (T + 1) / 2} if accounting == "psi_evaluations"
                else {"m": T - 1, "r": 1, "k": T})
    minimum = per_unit["k"] / 2
    if budget < minimum:
        raise ValueError(f"budget must be >= {minimum:g} {accounting.replace('_', ' ')} at T = {T} so "
                         f"that DSGD draws k >= 1 feature per point; got {budget!r}")
    return {name: max(1, round(budget / unit)) for name, unit in per_unit.items()}


def prediction_budget(name: str, size: Mapping[str, int], T: int, n_test: int) -> Budget:
    """What a trained learner spends to predict ``n_test`` new points (counted apart from
    training, :mod:`iln.budget`).

    Shrinking Gradient predicts each point with Algorithm 2 (ICML Theorem 1 part 3 / arXiv
    Theorem 1.3) at the ``m`` of its training: ``m`` draws and ``2 m`` evaluations per point
    (about the ``r`` evaluations per point of Fixed-Random at an equal evaluation budget).
    Fixed-Random evaluates its ``r`` features at each point, DSGD the ``k`` features of each
    of the ``T`` training points, both without new draws; exact-kernel OGD spends kernel
    evaluations, not features.
    """
    if name == "shrinking_gradient":
        return Budget(features_sampled=size["m"] * n_test, psi_evaluations=2 * size["m"] * n_test)
    if name == "fixed_random":
        return Budget(features_sampled=0, psi_evaluations=size["r"] * n_test)
    if name == "doubly_stochastic":
        return Budget(features_sampled=0, psi_evaluations=size["k"] * T * n_test)
    return Budget(features_sampled=0, psi_evaluations=0)


def _check_learners(learners) -> tuple[str, ...]:
    if isinstance(learners, str) or not isinstance(learners, Sequence):
        raise TypeError(f"learners must be a sequence of names from {LEARNERS}, got {learners!r}")
    chosen = tuple(learners)
    unknown = [name for name in chosen if name not in LEARNERS]
    if unknown or not chosen or len(set(chosen)) != len(chosen):
        raise ValueError(f"learners must be distinct names from {LEARNERS}, got {chosen!r}")
    return tuple(name for name in LEARNERS if name in chosen)


def _check_step_table(table, name: str, grid: bool) -> dict:
    if table is None:
        return {}
    if not isinstance(table, Mapping):
        raise TypeError(f"{name} must be a mapping from learner names to step parameters")
    out = {}
    for learner, value in table.items():
        if learner not in LEARNERS:
            raise ValueError(f"{name} has an unknown learner {learner!r}; learners are {LEARNERS}")
        entries = tuple(value) if grid else (value,)
        if grid and not entries:
            raise ValueError(f"{name}[{learner!r}] must list at least one set of step parameters")
        for entry in entries:
            if not isinstance(entry, Mapping):
                raise TypeError(f"{name}[{learner!r}] must hold mappings of step parameters")
            extra = set(entry) - _STEP_KEYS[learner]
            if extra:
                raise ValueError(f"{name}[{learner!r}] has unknown step parameters {sorted(extra)}; "
                                 f"{learner} takes {sorted(_STEP_KEYS[learner])}")
            for key, number in entry.items():
                arguments.finite_real(number, f"{name}[{learner!r}][{key!r}]")
        out[learner] = tuple(dict(e) for e in entries) if grid else dict(value)
    return out


def _runs(name, data_X, data_y, family, size, schedules, B, seed, estimator_method) -> list:
    """Train one learner at each step setting of ``schedules``; returns (result, learner's
    own per-round losses) per setting.  What a learner computes whatever its step is computed
    once for all settings: DSGD's draws and evaluations
    (:func:`~iln.baselines.doubly_stochastic.doubly_stochastic_grid`), kernel OGD's Gram rows
    (:func:`~iln.baselines.kernel_ogd.kernel_ogd_grid`), Fixed-Random's feature matrix
    (:func:`~iln.baselines.fixed_random.fixed_random_grid`), Shrinking Gradient's oracle
    Gram matrix for its exact losses (the checker's side); each result is the one a run
    alone gives, bit for bit.  Algorithm 1's own draws depend on its step.  The baselines'
    runs also share their features at new points (:func:`_predictions`)."""
    results: Sequence
    if name == "doubly_stochastic":
        results = doubly_stochastic_grid(data_X, data_y, family, k=size["k"], seed=seed, schedules=schedules)
    elif name == "kernel_ogd":
        results = kernel_ogd_grid(data_X, data_y, family, B=B, seed=seed, schedules=schedules)
    elif name == "fixed_random":
        results = fixed_random_grid(data_X, data_y, family, r=size["r"], seed=seed, schedules=schedules)
    else:
        oracle = _GramOf(family, data_X)
        trained = [shrinking_gradient(data_X, data_y, family, B=B, m=size["m"], seed=seed, oracle=oracle,
                                      method=estimator_method, **steps) for steps in schedules]
        return [(result, result.trace.loss_estimated) for result in trained]
    return [(result, result.losses) for result in results]


class _GramOf:
    """The oracle kernel of ``family`` as Shrinking Gradient calls it for its exact losses,
    ``oracle(X, X)`` on the run's data: the Gram matrix of ``X`` computed on the first call
    and returned again to the runs of a step search on the same data (any other argument is
    computed afresh)."""

    def __init__(self, family, X):
        self._family, self._X, self._gram = family, X, None

    def __call__(self, X, Y=None):
        Y = X if Y is None else Y
        if not (np.array_equal(X, self._X) and np.array_equal(Y, self._X)):
            return self._family.kernel(X, Y)
        if self._gram is None:
            self._gram = self._family.kernel(X, Y)
        return self._gram.copy()


def _predict(name, result, X, size, seed) -> np.ndarray:
    """A trained learner's predictions at new points, as :func:`prediction_budget` counts them:
    Shrinking Gradient through Algorithm 2 at its training m (it has no other access to
    ``f_{T+1}`` without the kernel), the others with their own features."""
    if name == "shrinking_gradient":
        if not np.isfinite(result.alpha).all():
            # A diverged run has no finite predictor: its loss is infinite, as in training.
            return np.full(X.shape[0], math.inf)
        return result.predict(X, seed=seed, m=size["m"])
    return result.predict(X)


def _predictions(name, results, X, size, seed) -> list[np.ndarray]:
    """:func:`_predict` for each run of one step search (one :func:`_runs` call): a baseline's
    runs share their features (or support points), evaluated on ``X`` once."""
    if name == "shrinking_gradient":
        return [_predict(name, result, X, size, seed) for result in results]
    features = results[0].features(X)
    return [result.predict_from_features(features) for result in results]


def _average(losses) -> float:
    value = float(np.mean(losses))
    return value if math.isfinite(value) else math.inf


def section6_comparison(D: int = 600, T: int = 200, *, budget, seed, n_test: int = 200,
                        B=None, n_support=None, steps=None, step_grid=None,
                        learners=LEARNERS, estimator_method: str = "fast",
                        accounting: str = "psi_evaluations") -> ComparisonResult:
    """Run the ICML Section 6 comparison at an equal budget of ``psi`` evaluations.

    Draws the Section 6 data (:func:`iln.data.section6_data`: clipped Gaussian inputs, a
    target in the RKHS of the random-coordinate features), and runs each learner for one
    pass over it.  See the module docstring for the budget, the step-size tuning and the
    evaluation.

    Parameters
    ----------
    D : int, default=600
        Input dimension (number of coordinates), ``D >= 1``; the paper uses 550, ..., 800.
    T : int, default=200
        Training points, ``T >= 2``.
    budget : float
        Target ``psi`` evaluations (or draws, by ``accounting``) per learner, at least
        ``T (T + 1) / 4`` evaluations or ``T / 2`` draws.
    seed : int or numpy.random.SeedSequence
        Child 0: the data; 1: the tuning data; 2 and 3: the learners' features in the
        reported and tuning runs (child ``(2, j)`` for the j-th learner of
        :data:`LEARNERS`); 4 and 5: Algorithm 2's draws at the held-out points of the
        reported and tuning runs.
    n_test : int, default=200
        Held-out points, ``>= 1``.
    B : float, optional
        Radius of Algorithm 1 and of the kernel OGD projection, ``B >= 1``; default the
        norm of the data's target (at least 1), the smallest ball that contains it.
    n_support : int, optional
        Training points combined into the target (:func:`iln.data.section6_data`).
    steps : mapping, optional
        Fixed step parameters per learner, e.g. ``{"fixed_random": {"gamma0": 20.0}}``
        (``eta`` for Shrinking Gradient and kernel OGD; ``eta`` or ``gamma0``, ``gamma1``
        for Fixed-Random; ``gamma0``, ``gamma1``, ``nu`` for DSGD); the others are tuned.
    step_grid : mapping, optional
        Replaces :data:`DEFAULT_STEP_GRID` for the learners it names.
    learners : sequence of str, default=LEARNERS
        Which learners to run.
    estimator_method : {"fast", "numpy", "reference"}, default="fast"
        Implementation of Algorithm 2 inside Shrinking Gradient (:mod:`iln.estimator`; all
        three have the same law, so the choice changes the draws, not their distribution).
        Calls below :data:`iln.numba_sampling.PARALLEL_MIN` samples run on one thread.
    accounting : {"psi_evaluations", "feature_draws"}, default="psi_evaluations"
        What ``budget`` counts (:data:`iln.budget.ACCOUNTINGS`); m, r and k from
        :func:`equal_budget_sizes`.

    Returns
    -------
    ComparisonResult

    Raises
    ------
    TypeError, ValueError
        On invalid input, the message naming the argument; a ``ValueError`` also for a
        ``budget`` too small for DSGD's ``k >= 1`` or too large for Fixed-Random's matrix.

    Examples
    --------
    >>> res = section6_comparison(60, 20, budget=4000, seed=0, n_test=10,
    ...                           steps={"shrinking_gradient": {"eta": 5.0},
    ...                                  "fixed_random": {"eta": 5.0},
    ...                                  "doubly_stochastic": {"gamma0": 5.0},
    ...                                  "kernel_ogd": {"eta": 5.0}})
    >>> [o.budget.psi_evaluations for o in res.outcomes]
    [3990, 4000, 3990, 0]
    """
    start = time.perf_counter()
    D = arguments.integer(D, "D", 1)
    T = arguments.integer(T, "T", 2)
    n_test = arguments.integer(n_test, "n_test", 1)
    sizes = equal_budget_sizes(budget, T, accounting)
    budget_target = round(arguments.finite_real(budget, "budget"))
    if sizes["r"] * T > arguments.MAX_LENGTH:
        raise ValueError(f"budget must leave Fixed-Random's T x r feature matrix at most "
                         f"{arguments.MAX_LENGTH} entries (the most float64 entries a numpy array can "
                         f"hold); {budget!r} {accounting.replace('_', ' ')} give r = {sizes['r']}")
    seed = random_streams.as_seed_sequence(seed, "seed")
    chosen = _check_learners(learners)
    arguments.choice(estimator_method, "estimator_method", estimator.METHODS)
    fixed = _check_step_table(steps, "steps", grid=False)
    grids = {**DEFAULT_STEP_GRID, **_check_step_table(step_grid, "step_grid", grid=True)}
    B = arguments.norm_radius(B)

    data = section6_data(T, D, seed=random_streams.child(seed, 0), n_support=n_support,
                         n_test=n_test)
    B = max(1.0, float(data.target_norm)) if B is None else B
    family = RandomCoordinate(D)
    size_of = {"shrinking_gradient": {"m": sizes["m"]}, "fixed_random": {"r": sizes["r"]},
               "doubly_stochastic": {"k": sizes["k"]}, "kernel_ogd": {}}

    tuning_time = 0.0
    tuning_data = None
    outcomes = []
    for name in chosen:
        j = LEARNERS.index(name)
        size = size_of[name]
        tuning: tuple = ()
        if name in fixed:
            online_steps = test_steps = fixed[name]
        else:
            tick = time.perf_counter()
            if tuning_data is None:
                tuning_data = section6_data(T, D, seed=random_streams.child(seed, 1),
                                            n_support=n_support, n_test=min(n_test, TUNING_HELD_OUT))
            # A diverging step size is a legitimate (bad) grid value: its overflow is scored
            # as an infinite loss, not raised.
            with np.errstate(over="ignore", invalid="ignore"):
                tried = _runs(name, tuning_data.X, tuning_data.y, family, size, grids[name], B,
                              random_streams.child(seed, 3, j), estimator_method)
                predicted = _predictions(name, [result for result, _ in tried], tuning_data.X_test, size,
                                         random_streams.child(seed, 5, j))
                scores = [(dict(candidate), _average(losses), _average(0.5 * (p - tuning_data.y_test) ** 2))
                          for candidate, (_, losses), p in zip(grids[name], tried, predicted, strict=True)]
            tuning = tuple(scores)
            # Tuned per loss: each loss is reported for the steps best on that loss.
            online_steps = min(scores, key=lambda item: item[1])[0]
            test_steps = min(scores, key=lambda item: item[2])[0]
            tuning_time += time.perf_counter() - tick

        tick = time.perf_counter()
        # The reported run at each loss's tuned steps (one run when they agree).
        chosen_steps = {tuple(sorted(s.items())): s for s in (online_steps, test_steps)}
        with np.errstate(over="ignore", invalid="ignore"):
            reported = _runs(name, data.X, data.y, family, size, list(chosen_steps.values()), B,
                             random_streams.child(seed, 2, j), estimator_method)
        runs = dict(zip(chosen_steps, reported, strict=True))
        result, losses = runs[tuple(sorted(online_steps.items()))]
        test_result, _ = runs[tuple(sorted(test_steps.items()))]
        wall = time.perf_counter() - tick
        with np.errstate(over="ignore", invalid="ignore"):
            test_pred = _predict(name, test_result, data.X_test, size, random_streams.child(seed, 4, j))
            if name == "shrinking_gradient":
                # The checker's side, a reference that decides nothing: f_t and f_{T+1}
                # evaluated exactly with the oracle kernel.
                exact_pred = family.kernel(data.X_test, data.X) @ test_result.alpha
                exact = _average(result.trace.loss_exact)
                kernel_evaluations = 0
            else:
                exact_pred = test_pred
                exact = _average(losses)
                kernel_evaluations = getattr(result, "kernel_evaluations", 0)
            test_loss = _average(0.5 * (test_pred - data.y_test) ** 2)
            test_loss_exact = _average(0.5 * (exact_pred - data.y_test) ** 2)
        outcomes.append(LearnerOutcome(
            name=name, size=dict(size), steps=dict(online_steps), tuned=name not in fixed,
            tuning=tuning, online_loss=_average(losses), online_loss_exact=exact,
            test_loss=test_loss, budget=result.budget,
            kernel_evaluations=kernel_evaluations, wall_time=wall, losses=np.asarray(losses),
            steps_test=dict(test_steps), test_loss_exact=test_loss_exact,
            test_budget=prediction_budget(name, size, T, n_test),
        ))
    return ComparisonResult(
        outcomes=tuple(outcomes), budget=budget_target, D=D, T=T, n_test=n_test, B=B,
        target_norm=float(data.target_norm), seed=seed, tuning_time=tuning_time,
        wall_time=time.perf_counter() - start, accounting=accounting,
    )
