"""The statistics the rules and the claims' plans share, where no library computes them as needed.

Each is a small function whose result is a number or a typed, frozen dataclass:

* probability bounds ``P[A] <= p0``: exact binomial (Clopper-Pearson) intervals
  (:func:`clopper_pearson`), the power of the exact one-sided test (:func:`binomial_power`; its
  p-value is ``scipy.stats.binomtest``'s), the smallest violation it detects
  (:func:`binomial_detectable`) and the sample size from which on its power stays above a
  target, past the saw-tooth of a discrete test (:func:`binomial_sample_size`);
* mean bounds of bounded variables: the smallest shift a Hoeffding test detects
  (:func:`hoeffding_detectable_shift`) and the sample size that reaches a shift
  (:func:`hoeffding_sample_size`); the intervals themselves are the mean rule's
  (:mod:`verification.rules.mean`);
* other means: a bootstrap over independent seeds (:func:`bootstrap_interval`, scipy's), shown
  beside verdicts and never deciding one;
* rates ``O(T^a)``: a log-log fit with intervals from OLS (statsmodels) and from resampling whole
  seeds (:func:`loglog_fit`), for the report.

Why the Clopper-Pearson ends are beta quantiles and not ``scipy.stats.binomtest(k, n)
.proportion_ci(method="exact")``: scipy finds the same ends by root finding at an absolute
tolerance of 2e-12, which is 9% of the lower end at one event in 361,391 trials and a tail of
5e-7, sizes and levels of the catalog's own (``tests/test_statistics.py`` measures both).  Holm's
step-down is :func:`verification.rules.holm_family` (statsmodels' ``multipletests``).

Conventions
-----------
``level`` is a coverage probability in (0, 1) (e.g. 0.999) and ``alpha`` a false-alarm
probability in (0, 1). A test "at level alpha" rejects when its p-value is ``<= alpha``, so its
false-alarm rate is at most ``alpha``. Counts (``k``, ``n``, ``max_n``, ``n_resamples``) must be
ints. Every random procedure takes ``seed``, an int >= 0 or a ``numpy.random.SeedSequence``, and
returns the same numbers for the same seed. Arguments are validated once, at the public
function: a value outside the accepted range raises ``ValueError`` and a value of the wrong
type raises ``TypeError``, both naming the argument.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special, stats

from iln import arguments
from iln.random_streams import as_seed_sequence

__all__ = [
    "Interval",
    "RateFit",
    "binomial_detectable",
    "binomial_power",
    "binomial_sample_size",
    "bootstrap_interval",
    "clopper_pearson",
    "hoeffding_detectable_shift",
    "hoeffding_sample_size",
    "loglog_fit",
]

Seed = int | np.random.SeedSequence


@dataclass(frozen=True)
class Interval:
    """A confidence interval ``[low, high]`` with its coverage probability.

    Attributes
    ----------
    low, high : float
        The ends; one-sided intervals have an infinite end, or the end of the parameter's
        range (0 or 1 for a probability).
    level : float
        The coverage probability, in (0, 1): the interval contains the true value with
        probability at least ``level`` (exactly or approximately, as ``method`` says).
    method : str
        How the interval was computed, as the report prints it.
    """

    low: float
    high: float
    level: float
    method: str

    def __post_init__(self) -> None:
        if not (self.low <= self.high):  # also rejects NaN ends
            raise ValueError(f"low must be <= high, got [{self.low!r}, {self.high!r}]")
        if not (0.0 < self.level < 1.0):
            raise ValueError(f"level must lie in (0, 1), got {self.level!r}")

    def contains(self, value: float) -> bool:
        """Whether ``low <= value <= high``."""
        return bool(self.low <= value <= self.high)

    @property
    def width(self) -> float:
        """``high - low`` (infinite for a one-sided interval with an infinite end)."""
        return self.high - self.low


@dataclass(frozen=True)
class RateFit:
    """A fitted rate ``value ~ exp(intercept) * size ** slope``, from :func:`loglog_fit`.

    Attributes
    ----------
    slope, intercept : float
        OLS estimates of ``log(value) = intercept + slope * log(size)`` over all
        (seed, size) points.
    slope_interval : Interval
        The OLS interval of the slope (statsmodels); it treats every point as independent.
    slope_bootstrap : Interval
        The bootstrap interval of the slope, resampling whole seeds; valid when points of one
        seed are correlated, which is the usual case.
    r_squared : float
        The OLS coefficient of determination.
    n_sizes, n_seeds : int
        The grid: ``n_sizes`` sizes, each measured under ``n_seeds`` seeds.
    """

    slope: float
    intercept: float
    slope_interval: Interval
    slope_bootstrap: Interval
    r_squared: float
    n_sizes: int
    n_seeds: int


# The argument checks are iln.arguments' (one validation module); short local names keep
# the signatures below readable.
_real_iv = arguments.finite_real
_open_unit_iv = arguments.open_unit
_closed_unit_iv = arguments.closed_unit
_int_iv = arguments.integer
_choice_iv = arguments.choice
_array_iv = arguments.real_array
_bounds_iv = arguments.ordered_bounds


def _count_iv(k: object, n: object) -> tuple[int, int]:
    n = _int_iv(n, "n", 1)
    k = _int_iv(k, "k", 0)
    if k > n:
        raise ValueError(f"k must lie in [0, n] = [0, {n}], got {k}")
    return k, n


def _seed_iv(seed: object) -> np.random.SeedSequence:
    return as_seed_sequence(seed)


def _sample_iv(values: object, name: str, min_size: int) -> NDArray[np.float64]:
    sample = _array_iv(values, name)
    if sample.ndim != 1 or sample.size < min_size:
        raise ValueError(
            f"{name} must be a 1-D array with at least {min_size} entries, got shape {sample.shape}"
        )
    return sample


def clopper_pearson(
    k: int, n: int, level: float, alternative: Literal["two-sided", "less", "greater"] = "two-sided"
) -> Interval:
    """Exact (Clopper-Pearson) confidence interval for a probability from ``k`` of ``n``.

    Parameters
    ----------
    k : int
        Number of successes, in ``[0, n]``.
    n : int
        Number of independent trials, ``n >= 1``.
    level : float
        Coverage probability, in (0, 1).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"two-sided"`` splits ``1 - level`` equally over both ends; ``"less"`` gives
        ``[0, high]`` (an upper confidence bound) and ``"greater"`` gives ``[low, 1]``.

    Returns
    -------
    Interval
        Its coverage is at least ``level`` for every true probability (the interval inverts
        the exact binomial tests, so the guarantee holds at every ``n``, not asymptotically).

    Notes
    -----
    The lower end of the ``"greater"`` interval at ``level`` exceeds ``p0`` exactly when the
    exact test's p-value ``P[Bin(n, p0) >= k]`` (``scipy.stats.binomtest(k, n, p0,
    alternative="greater").pvalue``) is below ``1 - level``; the two-sided interval at
    ``level`` has the lower end of the one-sided one at ``(1 + level) / 2``.  The ends are beta
    quantiles (the binomial tail is a regularised incomplete beta), exact to rounding however
    small; ``binomtest``'s own ``proportion_ci(method="exact")`` finds them by root finding at
    an absolute tolerance of 2e-12, too coarse for the catalog's smallest ends (module docstring).

    Examples
    --------
    >>> ci = clopper_pearson(0, 3000, 0.95, alternative="less")
    >>> round(ci.high, 6)  # the "rule of three": about 3 / n
    0.000998
    """
    k, n = _count_iv(k, n)
    level = _open_unit_iv(level, "level")
    alternative = _choice_iv(alternative, "alternative", ("two-sided", "less", "greater"))
    tail = (1.0 - level) / 2.0 if alternative == "two-sided" else 1.0 - level
    # The ends are beta quantiles (the binomial tail is a regularised incomplete beta); at
    # k = 0 and k = n they are the ends of [0, 1] themselves.
    low = 0.0 if k == 0 else float(stats.beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(stats.beta.ppf(1.0 - tail, k + 1, n - k))
    if alternative == "less":
        low = 0.0
    elif alternative == "greater":
        high = 1.0
    return Interval(low, high, level, f"Clopper-Pearson ({alternative})")


def _critical_count(n: ArrayLike, p0: float, alpha: float) -> NDArray[np.int64]:
    """Smallest ``c`` in ``[1, n + 1]`` with ``P[Bin(n, p0) >= c] <= alpha`` (vectorised in n).

    The test rejects exactly when ``k >= c`` (``c = n + 1``: it never rejects).
    """
    n = np.asarray(n, dtype=np.int64)
    c = np.clip(stats.binom.isf(alpha, n, p0) + 1.0, 1, n + 1).astype(np.int64)
    # ``isf`` inverts a floating-point tail; step to the exact boundary of the same ``sf`` that
    # scipy.stats.binomtest's p-value is, so the two can never disagree on a decision.
    for _ in range(64):
        up = (c <= n) & (stats.binom.sf(c - 1, n, p0) > alpha)
        down = (c > 1) & (stats.binom.sf(c - 2, n, p0) <= alpha)
        if not (up.any() or down.any()):
            break
        c = c + up - down
    return c


def _power(n: ArrayLike, p0: float, p1: float, alpha: float) -> NDArray[np.float64]:
    n = np.asarray(n, dtype=np.int64)
    return stats.binom.sf(_critical_count(n, p0, alpha) - 1, n, p1)


def binomial_power(n: int, p0: float, p1: float, alpha: float) -> float:
    """Power of the exact one-sided binomial test of H0: ``p <= p0`` at level ``alpha``.

    Parameters
    ----------
    n : int
        Number of independent trials, ``n >= 1``.
    p0 : float
        The bound under test, in [0, 1].
    p1 : float
        The true probability, in [0, 1].
    alpha : float
        The test's level, in (0, 1).

    Returns
    -------
    float
        The probability that the exact test's p-value ``P[Bin(n, p0) >= k]`` is ``<= alpha``
        when ``k ~ Bin(n, p1)``.
        At ``p1 = p0`` it is the test's actual false-alarm rate, at most ``alpha`` (less,
        because the binomial is discrete).
    """
    n = _int_iv(n, "n", 1)
    p0 = _closed_unit_iv(p0, "p0")
    p1 = _closed_unit_iv(p1, "p1")
    alpha = _open_unit_iv(alpha, "alpha")
    return float(_power(n, p0, p1, alpha))


def binomial_detectable(n: int, p0: float, alpha: float, power: float = 0.9) -> float:
    """Smallest true probability that the exact one-sided test detects with given power.

    This is the figure a probability-bound verdict reports as its power, in the manner of
    TensorFlow Probability's ``min_num_samples_for_dkwm_*`` helpers: with ``n`` trials, a
    bound ``P[A] <= p0`` is declared violated (at level ``alpha``) with probability at least
    ``power`` whenever the true probability is at least the returned value.

    Parameters
    ----------
    n : int
        Number of independent trials, ``n >= 1``.
    p0 : float
        The bound under test, in [0, 1).
    alpha : float
        The test's level, in (0, 1).
    power : float, default=0.9
        The detection probability, in ``(alpha, 1)``.

    Returns
    -------
    float
        The smallest ``p1 > p0`` with ``binomial_power(n, p0, p1, alpha) >= power``; 1.0 when
        no ``p1`` qualifies (even ``k = n`` would not reject).

    Notes
    -----
    The rejection region ``k >= c`` does not depend on ``p1`` and ``P[Bin(n, p1) >= c]`` is
    the beta distribution function ``I_{p1}(c, n - c + 1)``, increasing in ``p1``; so the
    answer is its ``power`` quantile, exact up to rounding (nudged up by a few ulps if needed
    so that ``binomial_power`` at the answer is ``>= power``).

    Examples
    --------
    >>> round(binomial_detectable(1000, 0.01, 1e-3), 4)
    0.0281
    """
    n = _int_iv(n, "n", 1)
    p0 = _closed_unit_iv(p0, "p0")
    if p0 == 1.0:
        raise ValueError("p0 must lie in [0, 1) (no probability exceeds 1), got 1.0")
    alpha = _open_unit_iv(alpha, "alpha")
    power = _open_unit_iv(power, "power")
    if power <= alpha:
        raise ValueError(
            f"power must lie in (alpha, 1) = ({alpha!r}, 1) (a power of at most alpha is "
            f"already reached at p1 = p0), got {power!r}"
        )
    c = int(_critical_count(n, p0, alpha))
    if c > n:
        return 1.0
    p1 = float(stats.beta.ppf(power, c, n - c + 1))
    for _ in range(64):
        if p1 >= 1.0 or stats.binom.sf(c - 1, n, p1) >= power:
            break
        p1 = float(np.nextafter(p1, 2.0))
    return min(p1, 1.0)


def _kl_bernoulli(q: float, p: float) -> float:
    return float(special.rel_entr(q, p) + special.rel_entr(1.0 - q, 1.0 - p))


def _chernoff_power_bound(m: int, p0: float, p1: float, alpha: float) -> float:
    """A lower bound on the power at every sample size ``>= m``; -inf where none follows.

    With ``q`` solving ``m KL(q || p0) = log(1 / alpha)``, Chernoff's bound puts the critical
    count at most ``ceil(m q)``, so the power is at least ``P[Bin(m, p1) > m q] >=
    1 - exp(-m KL(q || p1))`` (for ``q < p1``). As ``m`` grows ``q`` falls towards ``p0`` and
    ``m KL(q || p1)`` grows, so the bound at ``m`` holds for every larger sample size too.
    """
    log_inv_alpha = math.log(1.0 / alpha)
    if p0 == 0.0:
        q = 0.0  # any q > 0 has infinite divergence from 0: the critical count is 1
    else:
        if -math.log(p0) * m <= log_inv_alpha:  # even k = m cannot reject at this m
            return -math.inf
        q = optimize.brentq(lambda x: _kl_bernoulli(x, p0) - log_inv_alpha / m, p0, 1.0,
                            xtol=1e-15, rtol=4 * np.finfo(float).eps)
    if q >= p1:
        return -math.inf
    return -math.expm1(-m * _kl_bernoulli(q, p1))


def binomial_sample_size(
    p0: float, alpha: float, power: float, p1: float, max_n: int = 10**7
) -> int:
    """Number of trials from which on the exact one-sided binomial test has the given power.

    Parameters
    ----------
    p0 : float
        The bound under test, in [0, 1).
    alpha : float
        The test's level, in (0, 1).
    power : float
        The required probability of rejecting when the truth is ``p1``, in (0, 1).
    p1 : float
        The true probability to detect, in ``(p0, 1]``.
    max_n : int, default=10**7
        The largest sample size considered, ``>= 1``.

    Returns
    -------
    int
        The smallest ``n`` such that ``binomial_power(m, p0, p1, alpha) >= power`` for every
        ``m >= n``; for every ``m`` in ``[n, max_n]`` only, when the certificate below needs
        more than ``max_n`` trials.

    Raises
    ------
    ValueError
        If the power at ``max_n`` is below ``power`` (naming ``max_n``).

    Notes
    -----
    The power of a discrete test is not monotone in ``n``: it falls each time the critical
    count steps up (a saw-tooth), so the first ``n`` with enough power can be followed by
    sample sizes without it. This function returns the point from which on the power stays
    above target, found in two steps. First, a Chernoff bound (see ``_chernoff_power_bound``)
    gives a sample size ``H`` from which on the power provably exceeds the target; it is
    monotone in ``n``, so ``H`` is found by bisection. Second, the exact power is evaluated at
    every ``m < H``, from ``H - 1`` down in blocks, until the largest ``m`` without enough
    power; the answer is the next integer. The cost is one exact power evaluation per sample
    size between the answer and ``H`` (about 2 microseconds each; ``H`` is within a small
    factor of the answer: 0.07 s for an answer of 28 000, 5 s for 9 million). When ``H`` exceeds
    ``max_n`` the scan starts at ``max_n`` instead.

    Examples
    --------
    >>> n = binomial_sample_size(0.01, 1e-3, 0.9, 0.03)
    >>> binomial_power(n, 0.01, 0.03, 1e-3) >= 0.9 > binomial_power(n - 1, 0.01, 0.03, 1e-3)
    True
    """
    p0 = _closed_unit_iv(p0, "p0")
    if p0 == 1.0:
        raise ValueError("p0 must lie in [0, 1) (no probability exceeds 1), got 1.0")
    alpha = _open_unit_iv(alpha, "alpha")
    power = _open_unit_iv(power, "power")
    p1 = _closed_unit_iv(p1, "p1")
    if p1 <= p0:
        raise ValueError(f"p1 must lie in (p0, 1] = ({p0!r}, 1], got {p1!r}")
    max_n = _int_iv(max_n, "max_n", 1)

    def certified(m: int) -> bool:
        return _chernoff_power_bound(m, p0, p1, alpha) >= power

    # Galloping then bisection for the first certified sample size (the bound is monotone).
    low, high = 0, 1
    while high < max_n and not certified(high):
        low, high = high, min(2 * high, max_n)
    if certified(high):
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (low, mid) if certified(mid) else (mid, high)
        horizon = high
    else:  # no certificate within max_n: check every sample size up to max_n instead
        if _power(max_n, p0, p1, alpha) < power:
            raise ValueError(
                f"max_n = {max_n} trials do not give power {power!r} at p1 = {p1!r} "
                f"(p0 = {p0!r}, alpha = {alpha!r}); raise max_n"
            )
        horizon = max_n + 1
    # Largest m < horizon without enough power, scanning down in growing blocks.
    stop, block = horizon, 4096
    while stop > 1:
        start = max(1, stop - block)
        sizes = np.arange(start, stop)
        bad = np.flatnonzero(_power(sizes, p0, p1, alpha) < power)
        if bad.size:
            return int(sizes[bad[-1]]) + 1
        stop, block = start, block * 2
    return 1


def hoeffding_detectable_shift(
    n: int, lower: float, upper: float, alpha: float, power: float = 0.9
) -> float:
    """Smallest shift of the mean past a bound that a Hoeffding test detects with given power.

    The mean rule's violation side (:func:`verification.rules.mean.lower_confidence`) declares
    ``E[X] > b`` when its lower confidence bound at ``alpha`` exceeds ``b``; that bound is at
    least the Hoeffding bound at ``alpha / 2``.  This is the rules' power figure and the claims'
    plans (:func:`hoeffding_sample_size`).

    Parameters
    ----------
    n : int
        Number of independent draws, ``n >= 1``.
    lower, upper : float
        Known bounds of the variables, ``lower < upper``.
    alpha : float
        The test's level, in (0, 1).
    power : float, default=0.9
        The detection probability, in (0, 1).

    Returns
    -------
    float
        ``w(alpha) + v(power)`` with ``w(alpha) = (upper - lower) sqrt(log(2 / alpha) / (2 n))``
        the Hoeffding bound's distance below the sample mean and ``v(power) = (upper - lower)
        sqrt(log(1 / (1 - power)) / (2 n))`` the one-sided Hoeffding deviation exceeded with
        probability at most ``1 - power``. A mean this far past ``b`` puts the bound above ``b``
        unless the sample mean falls more than ``v(power)`` short of the true mean, so the
        detection probability is at least ``power`` for every distribution on ``[lower, upper]``.
        This is conservative (Hoeffding on both steps). A value above ``upper - lower`` means no
        shift within the range is guaranteed to be detected.
    """
    n = _int_iv(n, "n", 1)
    lower, upper = _bounds_iv(lower, upper)
    alpha = _open_unit_iv(alpha, "alpha")
    power = _open_unit_iv(power, "power")
    return (upper - lower) * (math.sqrt(math.log(2.0 / alpha) / (2 * n))
                              + math.sqrt(math.log(1 / (1 - power)) / (2 * n)))


def hoeffding_sample_size(lower: float, upper: float, shift: float, alpha: float,
                          power: float = 0.9) -> int:
    """Smallest n for which :func:`hoeffding_detectable_shift` is at most ``shift``.

    Solves ``shift = (upper - lower) (sqrt(log(2/alpha)) + sqrt(log(1/(1-power)))) / sqrt(2 n)``
    for n: the sample size a mean claim needs to detect a bias of ``shift`` with
    probability ``power`` at false-alarm level ``alpha``.
    """
    lower, upper = _bounds_iv(lower, upper)
    shift = _real_iv(shift, "shift")
    if shift <= 0:
        raise ValueError(f"shift must be > 0, got {shift!r}")
    alpha = _open_unit_iv(alpha, "alpha")
    power = _open_unit_iv(power, "power")
    root = math.sqrt(math.log(2.0 / alpha)) + math.sqrt(math.log(1.0 / (1.0 - power)))
    n = max(1, math.ceil(((upper - lower) * root / shift) ** 2 / 2.0))
    # The closed form can land one off in floating point; the definition decides.
    while hoeffding_detectable_shift(n, lower, upper, alpha, power) > shift:
        n += 1
    return n


def _scipy_bootstrap(
    sample: NDArray[np.float64], statistic: Callable[..., float], level: float,
    seed: np.random.SeedSequence, n_resamples: int, method: str,
) -> tuple[float, float] | None:
    """scipy's bootstrap interval, or None where the method is degenerate (a BCa failure)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = stats.bootstrap((sample,), statistic, n_resamples=n_resamples,
                                 confidence_level=level, method=method,
                                 rng=np.random.default_rng(seed))
    degenerate = any(issubclass(w.category, stats.DegenerateDataWarning) for w in caught)
    low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    if degenerate or not (math.isfinite(low) and math.isfinite(high)):
        return None
    # Warnings other than the degenerate-BCa ones are the caller's business: pass them on.
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return low, high


def bootstrap_interval(
    values: ArrayLike, level: float, seed: Seed, statistic: Callable[..., float] = np.mean,
    n_resamples: int = 2000, method: Literal["BCa", "percentile", "basic"] = "BCa",
) -> Interval:
    """Bootstrap interval of a statistic of per-seed results (wraps ``scipy.stats.bootstrap``).

    Parameters
    ----------
    values : array_like, shape (n_seeds,)
        One result per independent seed, ``n_seeds >= 2``; seeds are resampled whole.
    level : float
        Coverage probability, in (0, 1).
    seed : int or numpy.random.SeedSequence
        Seed of the resampling (an int >= 0).
    statistic : callable, default=numpy.mean
        Maps a 1-D sample to a number; if it accepts ``axis`` it is called vectorised.
    n_resamples : int, default=2000
        Number of bootstrap resamples, ``>= 1``.
    method : {"BCa", "percentile", "basic"}, default="BCa"
        The interval's construction.

    Returns
    -------
    Interval
        Approximate coverage ``level`` (the bootstrap's error is ``O(1 / n_seeds)`` for BCa;
        it has no finite-sample guarantee, unlike the bounded-variable intervals above). When
        BCa is degenerate (scipy warns that it cannot be computed, e.g. for a statistic that
        is constant on the jackknife samples) the percentile interval from the same seed is
        returned and ``method`` says so; when all values are equal every resample is the
        sample itself and the point interval at the statistic is returned.
    """
    sample = _sample_iv(values, "values", 2)
    level = _open_unit_iv(level, "level")
    seed = _seed_iv(seed)
    if not callable(statistic):
        raise TypeError(f"statistic must be callable, got {type(statistic).__name__}")
    n_resamples = _int_iv(n_resamples, "n_resamples", 1)
    method = _choice_iv(method, "method", ("BCa", "percentile", "basic"))
    if np.all(sample == sample[0]):
        point = float(statistic(sample))
        return Interval(point, point, level, "bootstrap over seeds (all values equal: a point)")
    # The same seed for both attempts, so that a fallback draws the same resamples.
    ends = _scipy_bootstrap(sample, statistic, level, seed, n_resamples, method)
    label = f"bootstrap over seeds ({method})"
    if ends is None:
        ends = _scipy_bootstrap(sample, statistic, level, seed, n_resamples, "percentile")
        label = f"bootstrap over seeds (percentile; {method} was degenerate)"
        if ends is None:
            raise ValueError("values give a degenerate bootstrap distribution for statistic")
    return Interval(ends[0], ends[1], level, label)


def loglog_fit(
    sizes: ArrayLike, values: ArrayLike, level: float, seed: Seed, n_resamples: int = 1000
) -> RateFit:
    """Fit a rate ``value ~ C * size ** slope`` by OLS on a log-log scale, with two intervals.

    Parameters
    ----------
    sizes : array_like, shape (S,)
        The grid of sizes (``T`` or ``B``), positive and finite, at least two distinct.
    values : array_like, shape (n_seeds, S)
        The measured quantity, positive and finite; row ``i`` holds seed ``i``'s value at every
        size. ``n_seeds >= 2``.
    level : float
        Coverage probability of both slope intervals, in (0, 1).
    seed : int or numpy.random.SeedSequence
        Seed of the bootstrap.
    n_resamples : int, default=1000
        Number of bootstrap resamples, ``>= 1``.

    Returns
    -------
    RateFit
        The OLS fit of ``log(value)`` on ``log(size)`` over all ``n_seeds * S`` points
        (``statsmodels.regression.linear_model.OLS``), its interval for the slope (``conf_int(alpha=1 - level)``,
        which assumes independent normal errors), and a BCa bootstrap interval that resamples
        whole seeds and refits.

    Notes
    -----
    Because every seed is measured on the same grid, the pooled OLS slope equals the mean of
    the per-seed OLS slopes, and so does the refit on any resample of whole seeds; the
    bootstrap therefore resamples the per-seed slopes and averages them, which is the refit
    computed exactly and cheaply. Points of one seed are often correlated (they share the
    seed's data or features); then the OLS interval is too narrow and the bootstrap interval
    is the one to use.

    A rate fitted over a finite grid is evidence, not proof: it says how the quantity behaves
    over the sizes measured, and an ``O(.)`` claim is about sizes beyond any grid. A report
    should say so, and check the explicit-constant bound wherever the proof gives one.
    """
    size_array = _sample_iv(sizes, "sizes", 2)
    if np.any(size_array <= 0):
        raise ValueError("sizes must be > 0 (they are fitted on a log scale)")
    if np.all(size_array == size_array[0]):
        raise ValueError("sizes must contain at least two distinct values to fit a slope")
    value_array = _array_iv(values, "values")
    if value_array.ndim != 2 or value_array.shape[1] != size_array.size or value_array.shape[0] < 2:
        raise ValueError(
            f"values must have shape (n_seeds, S) = (n_seeds, {size_array.size}) with n_seeds "
            f">= 2, got shape {value_array.shape}"
        )
    if np.any(value_array <= 0):
        raise ValueError("values must be > 0 (they are fitted on a log scale)")
    level = _open_unit_iv(level, "level")
    seed = _seed_iv(seed)
    n_resamples = _int_iv(n_resamples, "n_resamples", 1)

    n_seeds, n_sizes = value_array.shape
    x = np.log(size_array)
    y = np.log(value_array)
    # Imported here: statsmodels takes about 2 s to import, which every process importing the
    # rules (each trial worker, each CLI command) would pay for this one fit.
    from statsmodels.regression.linear_model import OLS
    from statsmodels.tools.tools import add_constant

    design = add_constant(np.tile(x, n_seeds))
    fit = OLS(y.ravel(), design).fit()
    conf = np.asarray(fit.conf_int(alpha=1.0 - level))
    # statsmodels divides by the centred total sum of squares, zero when every value is equal;
    # a constant is then fitted exactly.
    r_squared = 1.0 if np.ptp(y) == 0.0 else float(fit.rsquared)
    centred = x - x.mean()
    per_seed_slopes = y @ centred / (centred @ centred)
    bootstrap = bootstrap_interval(per_seed_slopes, level, seed, np.mean, n_resamples, "BCa")
    return RateFit(
        slope=float(fit.params[1]),
        intercept=float(fit.params[0]),
        slope_interval=Interval(float(conf[1, 0]), float(conf[1, 1]), level,
                                "OLS on log-log (statsmodels; independent errors)"),
        slope_bootstrap=Interval(bootstrap.low, bootstrap.high, level,
                                 bootstrap.method.replace("bootstrap over seeds",
                                                          "refit on seeds resampled whole")),
        r_squared=r_squared,
        n_sizes=n_sizes,
        n_seeds=n_seeds,
    )
