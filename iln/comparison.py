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
budget is defined once in :mod:`iln.budget` (:data:`iln.budget.DEFINITION`); m, r and k
are the nearest integers to the values that spend ``budget`` evaluations.

Step sizes.  The paper says "for all methods we explored different initial step sizes and
schedules for changing the step size" without the values.  Here each learner gets a small
grid (:data:`DEFAULT_STEP_GRID`) and the value with the lowest average online loss on a
*separate tuning run* (independent data and features: children 1 and 3 of the seed; the
reported run uses children 0 and 2) is used; ``steps`` fixes them instead.  The grid is
set for the Section 6 data as :func:`iln.data.section6_data` scales it: inputs below 1 in
every coordinate, ``k(x, x) = ||x||^2 / D`` about 0.02, so the steps ``0.2, ..., 200``
(a 1-2-5 series) put ``eta k(x, x)`` between 0.004 and 4, across the single-point
stability limit ``eta k(x, x) < 2`` of the squared loss.  Algorithm 1 and the kernel OGD
baseline take a constant step (their signatures have no schedule); Fixed-Random and DSGD
also try the decaying schedules ``gamma0 / (1 + gamma1 (t - 1))``, ``gamma1`` in
``{0, 0.01, 0.1}``, of Dai et al. (2014).  DSGD runs without regularisation (``nu = 0``):
the target here is the risk, not Dai et al.'s regularised objective (ICML Section 4).

Evaluation is the checker's side, not learning: the test loss of Shrinking Gradient's
final predictor ``f_{T+1} = sum_i alpha_i Phi(x_i)`` is computed exactly with the oracle
kernel, ``k(X_test, X) @ alpha``, and so is its exact online loss ``l_t(f_t)``; the
baselines predict with their own features.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from iln import arguments, estimator, random_streams
from iln.baselines.doubly_stochastic import doubly_stochastic
from iln.baselines.fixed_random import fixed_random
from iln.baselines.kernel_ogd import kernel_ogd
from iln.budget import DEFINITION, Budget
from iln.data import section6_data
from iln.features import RandomCoordinate
from iln.shrinking_gradient import shrinking_gradient

__all__ = [
    "DEFAULT_STEP_GRID",
    "LABELS",
    "LEARNERS",
    "ComparisonResult",
    "LearnerOutcome",
    "equal_budget_sizes",
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
    tuning : tuple of (dict, float)
        Each grid value and its average online loss on the tuning run (inf if it diverged).
    online_loss : float
        ``(1/T) sum_t (p_t - y_t)^2 / 2`` for the learner's own predictions ``p_t`` (for
        Shrinking Gradient ``p_t = E_t``, the output of Algorithm 2).
    online_loss_exact : float
        The same for ``p_t = <f_t, Phi(x_t)>`` computed exactly; differs from
        ``online_loss`` only for Shrinking Gradient, whose ``f_t`` the learner sees only
        through estimates.
    test_loss : float
        ``(1/n) sum_j (f_{T+1}(x_j) - y_j)^2 / 2`` on the held-out points.
    budget : Budget
        Training budget actually spent (:mod:`iln.budget`).
    kernel_evaluations : int
        Oracle kernel entries the learner computed during training (exact-kernel OGD only).
    wall_time : float
        Seconds of the reported training run.
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
                "time (s) |")
        lines = [
            f"Section 6 comparison (ICML): D = {self.D}, T = {self.T}, n_test = {self.n_test}, "
            f"target budget = {self.budget:,} psi evaluations, B = {self.B:.4g} "
            f"(target norm {self.target_norm:.4g}), seed = {self.seed.entropy}"
            f"{' spawn key ' + str(tuple(self.seed.spawn_key)) if self.seed.spawn_key else ''}.",
            "",
            head,
            "|---|---|---|--:|--:|--:|--:|--:|--:|--:|",
        ]
        for o in self.outcomes:
            size = ", ".join(f"{key} = {value:,}" for key, value in o.size.items()) or "-"
            steps = ", ".join(f"{key} = {value:g}" for key, value in o.steps.items())
            steps += " (tuned)" if o.tuned else " (given)"
            lines.append(
                f"| {o.label} | {size} | {steps} | {o.budget.psi_evaluations:,} | "
                f"{o.budget.features_sampled:,} | {o.kernel_evaluations:,} | {o.online_loss:.4g} | "
                f"{o.online_loss_exact:.4g} | {o.test_loss:.4g} | {o.wall_time:.3f} |"
            )
        lines += [
            "",
            f"Budget: {DEFINITION}.",
            "Losses are (prediction - y)^2 / 2 averaged over the T online rounds (predictions made "
            "before each update) or over the held-out points (final predictor). Steps tuned: the "
            "grid value with the lowest average online loss on an independent tuning run "
            f"(other data and features); tuning took {self.tuning_time:.1f} s, the whole "
            f"comparison {self.wall_time:.1f} s.",
        ]
        return "\n".join(lines) + "\n"


def equal_budget_sizes(budget, T: int) -> dict[str, int]:
    """m, r and k that spend ``budget`` evaluations of ``psi`` in T rounds, rounded.

    Shrinking Gradient spends ``2 m`` per round after the first (``alpha^(1) = 0`` needs no
    sample), Fixed-Random ``r`` per point, DSGD ``t k`` at round t.

    Parameters
    ----------
    budget : float
        Target evaluations, at least ``T (T + 1) / 4`` so that ``k >= 1``.
    T : int
        Rounds, ``T >= 2``.

    Returns
    -------
    dict
        ``{"m": round(budget / (2 (T - 1))), "r": round(budget / T),
        "k": round(budget / (T (T + 1) / 2))}``.

    Examples
    --------
    >>> equal_budget_sizes(2_000_000, 200)
    {'m': 5025, 'r': 10000, 'k': 100}
    """
    T = arguments.integer(T, "T", 2)
    budget = arguments.finite_real(budget, "budget")
    minimum = T * (T + 1) / 4
    if budget < minimum:
        raise ValueError(f"budget must be >= T (T + 1) / 4 = {minimum:g} psi evaluations so that "
                         f"DSGD draws k >= 1 feature per point; got {budget!r}")
    return {
        "m": max(1, round(budget / (2 * (T - 1)))),
        "r": max(1, round(budget / T)),
        "k": max(1, round(budget / (T * (T + 1) / 2))),
    }


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


def _run(name, data_X, data_y, family, size, steps, B, seed, estimator_method):
    """Train one learner; returns (result, learner's own per-round losses)."""
    if name == "shrinking_gradient":
        result = shrinking_gradient(data_X, data_y, family, B=B, m=size["m"], seed=seed,
                                    oracle=family.kernel, method=estimator_method, **steps)
        return result, result.trace.loss_estimated
    if name == "fixed_random":
        result = fixed_random(data_X, data_y, family, r=size["r"], seed=seed, **steps)
    elif name == "doubly_stochastic":
        result = doubly_stochastic(data_X, data_y, family, k=size["k"], seed=seed, **steps)
    else:
        result = kernel_ogd(data_X, data_y, family, B=B, seed=seed, **steps)
    return result, result.losses


def _average(losses) -> float:
    value = float(np.mean(losses))
    return value if math.isfinite(value) else math.inf


def section6_comparison(D: int = 600, T: int = 200, *, budget, seed, n_test: int = 200,
                        B=None, n_support=None, steps=None, step_grid=None,
                        learners=LEARNERS, estimator_method: str = "fast") -> ComparisonResult:
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
        Target ``psi`` evaluations per learner (:data:`iln.budget.DEFINITION`), at least
        ``T (T + 1) / 4``.
    seed : int or numpy.random.SeedSequence
        Child 0: the data; 1: the tuning data; 2 and 3: the learners' features in the
        reported and tuning runs (child ``(2, j)`` for the j-th learner of
        :data:`LEARNERS`).
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

    Returns
    -------
    ComparisonResult

    Raises
    ------
    TypeError, ValueError
        On invalid input; the message names the argument.

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
    sizes = equal_budget_sizes(budget, T)
    budget_target = round(arguments.finite_real(budget, "budget"))
    if budget_target > arguments.MAX_LENGTH:
        # Fixed-Random's feature matrix has T x r = budget entries.
        raise ValueError(f"budget must be at most {arguments.MAX_LENGTH} (the most float64 entries "
                         f"a numpy array can hold; Fixed-Random's T x r feature matrix has about "
                         f"budget entries), got {budget!r}")
    seed = random_streams.as_seed_sequence(seed, "seed")
    chosen = _check_learners(learners)
    if not isinstance(estimator_method, str) or estimator_method not in estimator.METHODS:
        raise ValueError(f"estimator_method must be one of {estimator.METHODS}, got {estimator_method!r}")
    fixed = _check_step_table(steps, "steps", grid=False)
    grids = {**DEFAULT_STEP_GRID, **_check_step_table(step_grid, "step_grid", grid=True)}
    if B is not None:
        B = arguments.finite_real(B, "B")
        if B < 1.0:
            raise ValueError(f"B must be a finite real number >= 1 (Theorem 1), got {B!r}")

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
            chosen_steps = fixed[name]
        else:
            tick = time.perf_counter()
            if tuning_data is None:
                tuning_data = section6_data(T, D, seed=random_streams.child(seed, 1),
                                            n_support=n_support)
            scores = []
            for candidate in grids[name]:
                # A diverging step size is a legitimate (bad) grid value: its overflow is
                # scored as an infinite loss, not raised.
                with np.errstate(over="ignore", invalid="ignore"):
                    _, losses = _run(name, tuning_data.X, tuning_data.y, family, size, candidate,
                                     B, random_streams.child(seed, 3, j), estimator_method)
                scores.append((dict(candidate), _average(losses)))
            tuning = tuple(scores)
            chosen_steps = min(scores, key=lambda item: item[1])[0]
            tuning_time += time.perf_counter() - tick

        tick = time.perf_counter()
        with np.errstate(over="ignore", invalid="ignore"):
            result, losses = _run(name, data.X, data.y, family, size, chosen_steps, B,
                                  random_streams.child(seed, 2, j), estimator_method)
        wall = time.perf_counter() - tick
        with np.errstate(over="ignore", invalid="ignore"):
            if name == "shrinking_gradient":
                # The checker's side: f_{T+1} evaluated exactly with the oracle kernel.
                test_pred = family.kernel(data.X_test, data.X) @ result.alpha
                exact = _average(result.trace.loss_exact)
                kernel_evaluations = 0
            else:
                test_pred = result.predict(data.X_test)
                exact = _average(losses)
                kernel_evaluations = getattr(result, "kernel_evaluations", 0)
            test_loss = _average(0.5 * (test_pred - data.y_test) ** 2)
        outcomes.append(LearnerOutcome(
            name=name, size=dict(size), steps=dict(chosen_steps), tuned=name not in fixed,
            tuning=tuning, online_loss=_average(losses), online_loss_exact=exact,
            test_loss=test_loss, budget=result.budget, kernel_evaluations=kernel_evaluations,
            wall_time=wall, losses=np.asarray(losses),
        ))
    return ComparisonResult(
        outcomes=tuple(outcomes), budget=budget_target, D=D, T=T, n_test=n_test, B=B,
        target_norm=float(data.target_norm), seed=seed, tuning_time=tuning_time,
        wall_time=time.perf_counter() - start,
    )
