"""Algorithm 1, SHRINKING_GRADIENT: online least squares with estimated scalar products.

At round t the learner holds ``f_t = sum_{i<t} alpha_i^(t) Phi(x_i)``, observes
``(x_t, y_t)``, estimates ``E_t ~ <f_t, Phi(x_t)>`` with Algorithm 2, and

* if ``|E_t| < 16 B``: keeps ``alpha^(t)`` and sets the new coefficient
  ``alpha_t^(t+1) = -eta (E_t - y_t)``, a gradient step ``f_t - eta grad_t``
  with the estimated gradient ``grad_t = (E_t - y_t) Phi(x_t)``
  (ICML eq. 12 and Lemma 2; arXiv eq. 12 and Lemma 2);
* otherwise shrinks: ``alpha^(t+1) = alpha^(t) / 4``.

(ICML Algorithm 1; arXiv Algorithm 1.)

The sign of the step.  Both versions print the update as
``alpha_t^(t+1) = -eta (y_t - E_t)`` (ICML) and ``eta (E_t - y_t)`` (arXiv),
which are the same number: ``f_{t+1} = f_t + eta (E_t - y_t) Phi(x_t)``, a
step *up* the gradient of the squared loss (ICML eq. 6, 9; arXiv eq. 5).  The
analysis (Lemma 1's ``hat f_{t+1} = f_t - eta bar grad_t``, and the proof of
Lemma 6 / arXiv Lemma 5, which writes ``f_t - eta (E_t - y) Phi(x_t)``) uses
the descent step.  ``update="descent"`` (the default) is that step;
``update="printed"`` runs the printed one so that checks can compare them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from iln import arguments, estimator, random_streams, theory
from iln.budget import Budget
from iln.features import FeatureFamily, check_family

__all__ = ["UPDATES", "ShrinkingGradientResult", "Trace", "shrinking_gradient"]

#: ``"descent"``: the step the analysis uses; ``"printed"``: the sign printed in both versions.
UPDATES = ("descent", "printed")


@dataclass(frozen=True)
class Trace:
    """Per-round record of a run of Algorithm 1 (arrays indexed by round ``t - 1``).

    Attributes
    ----------
    estimate : ndarray (T,)
        ``E_t``, the output of Algorithm 2 at round t.
    inner_exact : ndarray (T,)
        ``<f_t, Phi(x_t)>`` from the oracle kernel; NaN when no oracle was given.
    loss_exact : ndarray (T,)
        ``l_t(f_t) = (<f_t, Phi(x_t)> - y_t)^2 / 2`` (ICML eq. 6; arXiv eq. 5); NaN without oracle.
    loss_estimated : ndarray (T,)
        ``(E_t - y_t)^2 / 2``, the loss as the learner sees it.
    alpha_l1 : ndarray (T + 1,)
        ``||alpha^(t)||_1`` for t = 1, ..., T + 1 (ICML Lemma 5; arXiv Lemma 4).
    f_norm : ndarray (T + 1,)
        ``||f_t||`` for t = 1, ..., T + 1 from the oracle; NaN without oracle.
    shrink : ndarray of bool (T,)
        Whether round t shrank (``|E_t| >= 16 B``).
    step : ndarray (T,)
        ``alpha_t^(t+1)``, the coefficient given to ``x_t`` (0 on a shrink round).
    labels : ndarray (T,)
        ``y_t`` as played (an adaptive label sequence is only known after the run).
    samples : ndarray of int (T,)
        Samples Algorithm 2 drew at round t (0 while ``alpha^(t) = 0``).
    """

    estimate: np.ndarray
    inner_exact: np.ndarray
    loss_exact: np.ndarray
    loss_estimated: np.ndarray
    alpha_l1: np.ndarray
    f_norm: np.ndarray
    shrink: np.ndarray
    step: np.ndarray
    labels: np.ndarray
    samples: np.ndarray


@dataclass(frozen=True)
class ShrinkingGradientResult:
    """The outcome of :func:`shrinking_gradient`.

    Attributes
    ----------
    alpha : ndarray (T,)
        ``alpha^(T+1)``: ``f_{T+1} = sum_i alpha_i Phi(x_i)``.
    alpha_mean : ndarray (T,)
        ``(1/T) sum_{t=1}^T alpha^(t)``, the coefficients of the averaged predictor
        ``f_S = (1/T) sum_t f_t`` of Corollary 1 (both versions).
    alpha_history : ndarray (T + 1, T) or None
        Row ``t - 1`` is ``alpha^(t)`` when the run was asked to record it.
    X : ndarray (T, D)
        The inputs ``x_1, ..., x_T``.
    trace : Trace
    family : FeatureFamily
    B, eta : float
    m : int
        Samples per call of Algorithm 2.
    update, method : str
    seed : numpy.random.SeedSequence
    """

    alpha: np.ndarray
    alpha_mean: np.ndarray
    alpha_history: np.ndarray | None
    X: np.ndarray
    trace: Trace
    family: FeatureFamily = field(repr=False)
    B: float
    eta: float
    m: int
    update: str
    method: str
    seed: np.random.SeedSequence

    @property
    def T(self) -> int:
        """Number of rounds."""
        return self.X.shape[0]

    @property
    def budget(self) -> Budget:
        """Training budget (:mod:`iln.budget`): each sample of Algorithm 2 is one ``w``, two ``psi``."""
        drawn = int(self.trace.samples.sum())
        return Budget(features_sampled=drawn, psi_evaluations=2 * drawn)

    @property
    def cumulative_loss(self) -> float:
        """``sum_t l_t(f_t)`` with exact losses (NaN without oracle)."""
        return float(self.trace.loss_exact.sum())

    def predict(self, X_new, *, seed, m=None, epsilon=None, delta=None,
                averaged: bool = False, method: str | None = None) -> np.ndarray:
        """Estimate ``<f, Phi(x)>`` at new points with Algorithm 2 (Theorem 1, part 3).

        Parameters
        ----------
        X_new : array (n, D)
            Test points.
        seed : int or numpy.random.SeedSequence
            Point j uses the child ``j`` of this seed.
        m : int, optional
            Samples per point.  Without it, ``epsilon`` and ``delta`` choose m so
            that each estimate is within ``epsilon`` of the exact value with
            probability at least ``1 - delta`` by the two-sided Hoeffding bound
            (:func:`iln.theory.test_time_m_corrected`; the printed ICML/arXiv
            Theorem 1.3 gives ``m = O(B^4 T log(1/delta) / epsilon^2)``).
        epsilon, delta : float, optional
            Accuracy and failure probability, used when ``m`` is None.
        averaged : bool, default=False
            Predict with ``f_S`` (Corollary 1) instead of ``f_{T+1}``.
        method : {"fast", "numpy", "reference"}, optional
            Implementation of Algorithm 2; defaults to the run's.

        Returns
        -------
        ndarray (n,)
        """
        X_new = self.family.check_inputs(X_new, "X_new")
        seed = random_streams.as_seed_sequence(seed)
        method = estimator.check_method(self.method if method is None else method)
        alpha = self.alpha_mean if averaged else self.alpha
        if m is None:
            if epsilon is None or delta is None:
                raise ValueError("m, or both epsilon and delta, must be given")
            m = theory.test_time_m_corrected(epsilon, delta, float(np.abs(alpha).sum()) or 1.0)
        m = estimator.check_m(m)
        return np.array([
            estimator.estimate_validated(alpha, self.X, X_new[j], m, self.family,
                                         random_streams.child(seed, j), method)
            for j in range(X_new.shape[0])
        ])


LabelSource = np.ndarray | Callable[[int, np.ndarray, np.ndarray, np.ndarray], float]


def _check_label(y: float, t: int) -> float:
    if not arguments.is_real(y) or not math.isfinite(y) or abs(y) > 1:
        raise ValueError(f"y must hold labels in [-1, 1] (ICML/arXiv Section 2); label of round {t} is {y!r}")
    return float(y)


def _validate(X, y, family, B, eta, m, update, method, oracle):
    family = check_family(family)
    X = family.check_inputs(X, "X")
    T = X.shape[0]
    if T < 1:
        raise ValueError("X must hold at least one point (T >= 1)")
    labels = y if callable(y) else arguments.labels(y, "y", T)
    # B is required here: norm_radius alone would take None for "no ball".
    B = arguments.norm_radius(arguments.finite_real(B, "B"))
    eta = theory.eta_proof(B, T) if eta is None else arguments.positive_real(eta, "eta")
    m = _proof_m(B, T, eta) if m is None else estimator.check_m(m)
    arguments.choice(update, "update", UPDATES)
    estimator.check_method(method)
    if oracle is not None and not callable(oracle):
        raise TypeError("oracle must be a callable kernel (X, Y) -> matrix, or None")
    return X, labels, B, eta, m


def _proof_m(B: float, T: int, eta: float) -> int:
    """The proof's m (:func:`iln.theory.m_proof`), refused when Algorithm 2 cannot draw it.

    It grows like ``B^4``: from B = 2**13 on it asks for more samples per round than the
    int64 counts of Algorithm 2 hold (:data:`iln.estimator.MAX_M`), and numpy's overflow
    would name neither B nor m.
    """
    m = theory.m_proof(B, T, eta)
    if m > estimator.MAX_M:
        raise ValueError(
            f"B = {B!r} makes the proof's m = m_proof(B, T, eta) = {float(m):.3g} samples per round "
            f"(T = {T}, eta = {eta:.3g}), more than the 2**62 Algorithm 2 can draw (it counts "
            "samples in int64): use a smaller B, or pass m explicitly"
        )
    return m


def _check_warm_start(warm, family, B, update, method, eta, m):
    """Continue only a run of the same learner; its eta and m are the defaults."""
    if not isinstance(warm, ShrinkingGradientResult):
        raise TypeError(f"warm_start must be a ShrinkingGradientResult, got {type(warm).__name__}")
    for name, mine, theirs in (("family", family, warm.family), ("B", B, warm.B),
                               ("update", update, warm.update), ("method", method, warm.method)):
        if mine is not theirs and mine != theirs:
            raise ValueError(f"{name} must match the warm start's ({theirs!r}), got {mine!r}")
    return (warm.eta if eta is None else eta), (warm.m if m is None else m)


def shrinking_gradient(X, y, family, *, B, seed, eta=None, m=None, update: str = "descent",
                       method: str = "fast", oracle=None, record_alpha: bool = False,
                       warm_start: ShrinkingGradientResult | None = None) -> ShrinkingGradientResult:
    """Run SHRINKING_GRADIENT (ICML Algorithm 1; arXiv Algorithm 1) for T = len(X) rounds.

    Parameters
    ----------
    X : array (T, D)
        The inputs ``x_1, ..., x_T``, in the family's domain.
    y : array (T,) or callable
        Labels in [-1, 1], or an adaptive adversary
        ``y(t, x_t, alpha, X_past) -> float`` called at round t (1-based) with the
        learner's current coefficients ``alpha^(t)`` restricted to the past points
        ``X_past = x_1, ..., x_{t-1}`` (read-only copies).
    family : FeatureFamily
        The pair ``(mu, psi)``; the learner only samples from it.
    B : float
        Radius of the comparison class ``H^B_mu``, ``B >= 1``.
    seed : int or numpy.random.SeedSequence
        Round t uses child ``t`` of this seed for its Algorithm 2 call.
    eta : float, optional
        Step size; default :func:`iln.theory.eta_proof` ``= B / (2 sqrt T)``, the
        value the proof of Theorem 1 sets (Theorem 1 itself prints ``B / sqrt T``).
    m : int, optional
        Samples per Algorithm 2 call, at most :data:`iln.estimator.MAX_M` ``= 2**62``;
        default :func:`iln.theory.m_proof` ``= ((16B+1) B)^2 T log gamma`` (proof of
        Theorem 1, both versions), which exceeds that limit from ``B = 2**13`` on (refused).
    update : {"descent", "printed"}, default="descent"
        The step's sign; see the module docstring.
    method : {"fast", "numpy", "reference"}, default="fast"
        Implementation of Algorithm 2.
    oracle : callable ``(X, Y) -> kernel matrix``, optional
        Used only to fill the exact columns of the trace; the learner's
        decisions never read it (``tests/test_oracle_isolation.py``).
    record_alpha : bool, default=False
        Keep ``alpha^(t)`` for every t (memory ``(T + 1) * T`` floats).
    warm_start : ShrinkingGradientResult, optional
        Continue that run: its rounds come first and these are rounds ``T0 + 1, ...``;
        ``eta`` and ``m`` default to its values, ``B``, ``family``, ``update`` and
        ``method`` must match.  Round t still uses child t of ``seed``, so two runs
        continued with the same seed give the numbers of one run over all the rounds.

    Returns
    -------
    ShrinkingGradientResult
    """
    if warm_start is not None:
        eta, m = _check_warm_start(warm_start, family, B, update, method, eta, m)
    X, labels, B, eta, m = _validate(X, y, family, B, eta, m, update, method, oracle)
    seed = random_streams.as_seed_sequence(seed)
    T0 = 0 if warm_start is None else warm_start.T
    if warm_start is not None:
        X = np.vstack([warm_start.X, X])
    T = X.shape[0]
    threshold = theory.SHRINK_THRESHOLD * B
    shrink_factor = theory.SHRINK_FACTOR
    sign = -1.0 if update == "descent" else 1.0

    K = None
    if oracle is not None:
        K = np.asarray(oracle(X, X), dtype=np.float64)
        if K.shape != (T, T):
            raise ValueError(f"oracle must return a ({T}, {T}) matrix for X, got {K.shape}")

    alpha = np.zeros(T)
    alpha_sum = np.zeros(T)
    history = np.zeros((T + 1, T)) if record_alpha else None
    estimate = np.empty(T)
    inner = np.full(T, np.nan)
    played = np.empty(T)
    alpha_l1 = np.empty(T + 1)
    f_norm_sq = np.full(T + 1, np.nan)
    shrink = np.zeros(T, dtype=bool)
    step = np.zeros(T)
    samples = np.zeros(T, dtype=np.int64)
    alpha_l1[0] = 0.0
    if K is not None:
        f_norm_sq[0] = 0.0
    if warm_start is not None:
        old = warm_start.trace
        for mine, theirs in ((estimate, old.estimate), (inner, old.inner_exact), (played, old.labels),
                             (alpha_l1, old.alpha_l1), (f_norm_sq, old.f_norm**2), (shrink, old.shrink),
                             (step, old.step), (samples, old.samples)):
            mine[: len(theirs)] = theirs
        alpha[:T0] = warm_start.alpha
        alpha_sum[:T0] = warm_start.alpha_mean * T0
        if history is not None:
            if warm_start.alpha_history is None:
                raise ValueError("record_alpha needs a warm_start that recorded alpha")
            history[: T0 + 1, :T0] = warm_start.alpha_history
        if K is not None and not np.isfinite(f_norm_sq[T0]):
            f_norm_sq[T0] = float(alpha[:T0] @ K[:T0, :T0] @ alpha[:T0])

    for t in range(T0, T):  # round t + 1 of the paper
        past = alpha[:t]
        alpha_sum[:t] += past
        if history is not None:
            history[t] = alpha
        if callable(labels):
            y_t = _check_label(labels(t + 1, X[t].copy(), past.copy(), X[:t].copy()), t + 1)
        else:
            y_t = labels[t - T0]
        played[t] = y_t
        E = estimator.estimate_validated(past, X[:t], X[t], m, family,
                                         random_streams.child(seed, t + 1), method)
        estimate[t] = E
        # Algorithm 2 samples only when alpha^(t) != 0 (its "if alpha = 0" branch).
        samples[t] = m if np.any(past) else 0
        if K is not None:
            inner[t] = float(K[t, :t] @ past)
        if abs(E) < threshold:
            step[t] = sign * eta * (E - y_t)
            alpha[t] = step[t]
            if K is not None:
                # ||f + a Phi(x_t)||^2 = ||f||^2 + 2 a <f, Phi(x_t)> + a^2 k(x_t, x_t)
                f_norm_sq[t + 1] = f_norm_sq[t] + 2.0 * step[t] * inner[t] + step[t] ** 2 * K[t, t]
        else:
            shrink[t] = True
            alpha[:t] *= shrink_factor
            if K is not None:
                f_norm_sq[t + 1] = f_norm_sq[t] * shrink_factor**2
        # Over the prefix that can be non-zero: a sum over the trailing zeros of a longer
        # run would round differently, and a warm-started run must give the same numbers.
        alpha_l1[t + 1] = np.abs(alpha[: t + 1]).sum()

    if history is not None:
        history[T] = alpha
    trace = Trace(
        estimate=estimate,
        inner_exact=inner,
        loss_exact=0.5 * (inner - played) ** 2,
        loss_estimated=0.5 * (estimate - played) ** 2,
        alpha_l1=alpha_l1,
        f_norm=np.sqrt(np.maximum(f_norm_sq, 0.0)),
        shrink=shrink,
        step=step,
        labels=played,
        samples=samples,
    )
    return ShrinkingGradientResult(
        alpha=alpha, alpha_mean=alpha_sum / T, alpha_history=history, X=X, trace=trace,
        family=family, B=B, eta=eta, m=m, update=update, method=method, seed=seed,
    )
