"""Anytime-valid confidence sequences for the mean of a bounded variable, by betting.

A claim that samples in batches until it is decided, stops early when its answer is clear, or
is resumed later with more trials looks at its data many times. A fixed-n interval loses its
level under such optional stopping; a *confidence sequence* does not: with probability at least
``1 - alpha`` it contains the true mean at every time ``t = 1, 2, ...`` simultaneously, so it may
be read after every value and the reading at any data-dependent stopping time keeps its level
(docs, The decision rules, Sequential decisions; issue 16, item 7).

Reference
---------
I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by betting",
*Journal of the Royal Statistical Society, Series B* 86(1), 1-27, 2024 (published online 2023),
doi:10.1093/jrsssb/qkad009, arXiv:2010.09686. This module implements its hedged-capital
confidence sequence (the "hedged capital process" ``K^hgd`` of the paper's betting section,
Section 4 of the arXiv version, with its Theorem 3) with the predictable plug-in bets of its
PrPl-EB confidence sequence (Section 3, Theorem 2). The section and theorem numbers are quoted
from memory of the arXiv version: the text was not available offline when this was written, so
the formulas below, not the numbers, are the specification. The ``confseq`` package of the
authors does not build on this machine, so the construction is written out here and tested by
simulation (``tests/test_confidence_sequence.py``).

Construction
------------
Values are rescaled from the a-priori range ``[lower, upper]`` to ``x_i`` in ``[0, 1]``. For a
candidate mean ``m`` in ``[0, 1]`` two gamblers bet against it::

    K+_t(m) = prod_{i <= t} (1 + lambda+_i(m) (x_i - m))     (wins when the mean is above m)
    K-_t(m) = prod_{i <= t} (1 - lambda-_i(m) (x_i - m))     (wins when the mean is below m)

and the hedged capital is ``K_t(m) = max(theta K+_t(m), (1 - theta) K-_t(m))``. When the ``x_i``
have conditional mean ``mu`` given the past (independent draws suffice) and the bets are
predictable with ``lambda+`` in ``[0, 1/m)`` and ``lambda-`` in ``[0, 1/(1 - m))``, ``K+(mu)`` and
``K-(mu)`` are nonnegative martingales started at 1, so is ``theta K+ + (1 - theta) K-``, and
Ville's inequality gives ``P(exists t: K_t(mu) >= 1/alpha) <= alpha``. The confidence sequence
is ``C_t = {m : K_t(m) < 1/alpha}``; its running intersection ``C_1 ∩ ... ∩ C_t`` misses ``mu``
only on the same event, so it keeps the level and never widens.

The bets are the paper's predictable plug-in bets::

    mu_hat_t     = (1/2 + sum_{i <= t} x_i) / (t + 1)
    sigma2_hat_t = (1/4 + sum_{i <= t} (x_i - mu_hat_i)^2) / (t + 1)
    lambda_t     = sqrt(2 log(2 / alpha) / (sigma2_hat_{t-1} t log(t + 1)))

(``alpha`` enters only this tuning: any predictable bet keeps the level.)

truncated by default at ``lambda+_t = lambda-_t = min(lambda_t, c)`` with ``c = truncation``
(the paper uses 1/2 or 3/4), as in the paper's PrPl-EB bets; this is valid for every ``m`` at
once, every factor being at least ``1 - c > 0``. ``m_truncation=True`` truncates instead at
``lambda+_t(m) = min(lambda_t, c / m)`` and ``lambda-_t(m) = min(lambda_t, c / (1 - m))``, the
largest stakes the hedged process allows (the truncation of the authors' ``confseq.hedged_cs``).
Both are valid; on our checks the default is narrower (Bernoulli(1/2), alpha = 0.05, n = 10^4:
width 0.043 against 0.053, because stakes up to ``c / m`` near the middle of the range lose
much early on) and equal near the ends of the range (Bernoulli(0.01): same ends at n = 10^4).

Grid
----
``C_t`` is evaluated on the grid ``m_j = j / grid``, ``j = 0..grid``. Each factor of ``K+_t(m)``
is nonincreasing in ``m`` and each factor of ``K-_t(m)`` nondecreasing (also at the switch of
the truncation), so the values rejected by ``K+`` form an interval ``[0, a_t]`` and those
rejected by ``K-`` an interval ``[b_t, 1]``; ``C_t`` is the interval between them. The reported
lower end is the largest grid point known to be rejected from below (or 0), the upper end the
smallest grid point rejected from above (or 1). The exact ``C_t`` and its running intersection
therefore always lie inside the reported interval, which is wider by less than one grid step
(``(upper - lower) / grid``) at each end: the grid makes the sequence conservative, never
under-covering. Grid points outside the running intersection are never evaluated again, so
the cost is proportional to ``grid`` times the sum over ``t`` of the running width, not to
``grid * n``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from iln import arguments
from verification.statistics import Interval

__all__ = [
    "DEFAULT_GRID",
    "ConfidenceSequence",
    "HedgedCapital",
    "SequentialDecision",
    "SequentialMeanTest",
    "betting_confidence_sequence",
    "hedged_capital",
]

#: Grid intervals on the rescaled range [0, 1]: the reported ends are wider than the exact
#: ones by less than 1/1000 of the range, far below the width at any sample size we use.
DEFAULT_GRID = 1000
#: The largest grid accepted: beyond it the grid costs memory and time for widening that is
#: already below float rounding of the data.
MAX_GRID = 10**6
#: Elements of one (times x grid points) block: blocks of ~0.5 MiB per array keep the
#: temporaries in cache while the per-block Python overhead stays small.
_BLOCK_ELEMENTS = 1 << 16

Claim = Literal["<=", ">="]
Outcome = Literal["holds", "violated", "undecided"]


@dataclass(frozen=True, eq=False)
class ConfidenceSequence:
    """The running intersection of a betting confidence sequence, one interval per time.

    Attributes
    ----------
    low, high : numpy.ndarray, shape (n,)
        Ends of the running intersection ``C_1 ∩ ... ∩ C_t`` after ``t = 1..n`` values, in the
        units of the values (read-only). With probability at least ``1 - alpha`` the true mean
        lies in ``[low[t-1], high[t-1]]`` for every ``t`` simultaneously. Both are NaN from
        ``empty_from`` on.
    alpha : float
        The probability that the sequence ever misses the mean.
    n : int
        The number of values seen.
    lower, upper : float
        The a-priori range of the values.
    grid : int
        Grid intervals on the range: each end is conservative by less than
        ``(upper - lower) / grid``.
    empty_from : int or None
        The first time (1-based) at which the running intersection is empty, which happens only
        if the sequence has missed the mean (probability at most ``alpha``) or the values break
        the assumptions (a conditional mean that changes over time); ``None`` if never.
    """

    low: NDArray[np.float64]
    high: NDArray[np.float64]
    alpha: float
    n: int
    lower: float
    upper: float
    grid: int
    empty_from: int | None

    @property
    def width(self) -> NDArray[np.float64]:
        """``high - low`` per time (NaN where the intersection is empty)."""
        return self.high - self.low

    def interval(self, t: int | None = None) -> Interval:
        """The running intersection after ``t`` values (default: all ``n``) as an Interval.

        Parameters
        ----------
        t : int, optional
            A time in ``1..n``; the last by default.

        Returns
        -------
        Interval
            ``[low, high]`` at level ``1 - alpha``. The level holds at every ``t``, including
            a ``t`` chosen after looking at the data.

        Raises
        ------
        ValueError
            If ``t`` is not in ``1..n``, or the intersection is empty at ``t``.
        """
        t = self.n if t is None else arguments.integer(t, "t", 1)
        if t > self.n:
            raise ValueError(f"t must be an int in [1, n] = [1, {self.n}], got {t}")
        if self.empty_from is not None and t >= self.empty_from:
            raise ValueError(f"the running intersection is empty from t = {self.empty_from}, "
                             f"so it has no interval at t = {t}")
        return Interval(float(self.low[t - 1]), float(self.high[t - 1]), 1.0 - self.alpha,
                        f"betting confidence sequence (Waudby-Smith & Ramdas 2023), t = {t}")


@dataclass(frozen=True)
class SequentialDecision:
    """A one-sided claim about the mean decided on a confidence sequence.

    Attributes
    ----------
    outcome : {"holds", "violated", "undecided"}
        For the claim ``mean <= bound``: ``"violated"`` once the running intersection lies
        entirely above ``bound``, ``"holds"`` once it lies entirely below, ``"undecided"``
        otherwise (mirrored for ``mean >= bound``). Either decision is wrong with probability
        at most ``alpha`` whenever it is read, because a wrong one needs the sequence to miss
        the mean; and the running intersection only shrinks, so a decision once taken stays.
    stopping_time : int or None
        The number of values after which the decision was first reached; ``None`` if
        undecided.
    pvalue : float
        Anytime-valid p-value against the claim after all ``n`` values (small: violated):
        ``min(1, 1 / (w sup_t K_t(bound)))`` with the capital betting against the claim and
        its weight ``w`` (``theta`` or ``1 - theta``). ``outcome == "violated"`` implies
        ``pvalue <= alpha``; the converse can fail when ``bound`` lies within a grid step of
        the reported end.
    pvalue_negation : float
        The same against the negation of the claim (small: holds).
    bound : float
        The bound in the claim.
    claim : {"<=", ">="}
        The claim: ``mean <= bound`` or ``mean >= bound``.
    low, high : float
        The running intersection at the stopping time, or after all values if undecided
        (NaN if empty).
    alpha : float
        The error probability of the confidence sequence.
    n : int
        The number of values seen.
    """

    outcome: Outcome
    stopping_time: int | None
    pvalue: float
    pvalue_negation: float
    bound: float
    claim: Claim
    low: float
    high: float
    alpha: float
    n: int


@dataclass(frozen=True, eq=False)
class HedgedCapital:
    """The capital processes betting against one candidate mean, from :func:`hedged_capital`.

    Attributes
    ----------
    log_plus, log_minus : numpy.ndarray, shape (n,)
        ``log K+_t(m)`` and ``log K-_t(m)`` after ``t = 1..n`` values (read-only).
    mean : float
        The candidate mean ``m``, in the units of the values.
    alpha : float
        The level the bets were tuned for (it enters ``lambda_t``).
    theta : float
        The weight of ``K+`` in the hedged capital.
    """

    log_plus: NDArray[np.float64]
    log_minus: NDArray[np.float64]
    mean: float
    alpha: float
    theta: float

    @property
    def log_hedged(self) -> NDArray[np.float64]:
        """``log max(theta K+_t, (1 - theta) K-_t)`` per time."""
        return np.maximum(math.log(self.theta) + self.log_plus,
                          math.log1p(-self.theta) + self.log_minus)

    @property
    def pvalue(self) -> float:
        """Anytime-valid p-value of ``mean == m`` after all values: ``min(1, 1 / sup_t K_t)``."""
        return _pvalue(self.log_hedged)

    @property
    def first_exclusion(self) -> int | None:
        """The first time (1-based) at which ``K_t(m) >= 1/alpha``, i.e. the exact confidence
        sequence excludes ``m``; ``None`` if never."""
        crossed = self.log_hedged >= math.log(1.0 / self.alpha)
        return int(np.argmax(crossed)) + 1 if crossed.any() else None


def _pvalue(log_capital: NDArray[np.float64]) -> float:
    if log_capital.size == 0:
        return 1.0
    return float(min(1.0, math.exp(-float(log_capital.max()))))


def _flag_iv(value: object, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def _grid_iv(grid: object) -> int:
    grid = arguments.integer(grid, "grid", 2)
    if grid > MAX_GRID:
        raise ValueError(f"grid must be an int in [2, {MAX_GRID}], got {grid}")
    return grid


def _batch_iv(values: object, lower: float, upper: float, min_size: int) -> NDArray[np.float64]:
    batch = arguments.real_array(values, "values")
    if batch.ndim != 1 or batch.size < min_size:
        raise ValueError(f"values must be a 1-D array with at least {min_size} entries, "
                         f"got shape {batch.shape}")
    if batch.size and (batch.min() < lower or batch.max() > upper):
        raise ValueError(f"values must lie in [lower, upper] = [{lower!r}, {upper!r}], got "
                         f"values in [{batch.min()!r}, {batch.max()!r}]")
    return batch


@dataclass(frozen=True)
class _Settings:
    lower: float
    upper: float
    alpha: float
    theta: float
    truncation: float
    grid: int
    m_truncation: bool

    @classmethod
    def checked(cls, lower: object, upper: object, alpha: object, theta: object,
                truncation: object, grid: object, m_truncation: object) -> _Settings:
        lower, upper = arguments.ordered_bounds(lower, upper)
        return cls(lower, upper, arguments.open_unit(alpha, "alpha"), arguments.open_unit(theta, "theta"),
                   arguments.open_unit(truncation, "truncation"), _grid_iv(grid),
                   _flag_iv(m_truncation, "m_truncation"))

    def rescale(self, values: NDArray[np.float64]) -> NDArray[np.float64]:
        # The clip only absorbs rounding of the affine map: values were checked to lie in range.
        return np.clip((values - self.lower) / (self.upper - self.lower), 0.0, 1.0)

    def caps(self, m: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The largest bets ``lambda+`` and ``lambda-`` allowed at candidate means ``m``."""
        if not self.m_truncation:
            full = np.full(m.shape, self.truncation)
            return full, full
        with np.errstate(divide="ignore"):  # c / 0 = inf: no cap where the factor cannot vanish
            return self.truncation / m, self.truncation / (1.0 - m)

    def thresholds(self) -> tuple[float, float]:
        """``log(1 / (theta alpha))`` and ``log(1 / ((1 - theta) alpha))``: ``m`` leaves the
        sequence once ``log K+`` or ``log K-`` reaches its threshold."""
        return (-math.log(self.theta) - math.log(self.alpha),
                -math.log1p(-self.theta) - math.log(self.alpha))


@dataclass
class _Bets:
    """The running sums behind the plug-in bets; all sums are carried, never recomputed."""

    n: int = 0
    sum_x: float = 0.5  # the paper's prior pseudo-observation 1/2 in mu_hat
    sum_sq: float = 0.25  # and its prior variance 1/4 in sigma2_hat

    def next(self, x: NDArray[np.float64], alpha: float) -> NDArray[np.float64]:
        """``lambda_t`` for the times of ``x``, before truncation; advances the sums."""
        t = self.n + np.arange(1, x.size + 1, dtype=np.float64)
        # cumsum over [carry, batch] adds in the same order as over the whole sequence, so a
        # run extended batch by batch gets the same floats as one computed at once.
        cum_x = np.cumsum(np.concatenate(([self.sum_x], x)))[1:]
        mu_hat = cum_x / (t + 1.0)
        cum_sq = np.cumsum(np.concatenate(([self.sum_sq], (x - mu_hat) ** 2)))
        sigma2_before = cum_sq[:-1] / t  # sigma2_hat_{t-1}: the bet is predictable
        if x.size:
            self.n += x.size
            self.sum_x = float(cum_x[-1])
            self.sum_sq = float(cum_sq[-1])
        return np.sqrt(2.0 * math.log(2.0 / alpha) / (sigma2_before * t * np.log1p(t)))


def _log_factors(x: NDArray[np.float64], bets: NDArray[np.float64], m: NDArray[np.float64],
                 caps: tuple[NDArray[np.float64], NDArray[np.float64]]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``log(1 + lambda+ (x - m))`` and ``log(1 - lambda- (x - m))``, times x candidates."""
    deviation = x[:, None] - m[None, :]
    plus = np.log1p(np.minimum(bets[:, None], caps[0][None, :]) * deviation)
    minus = np.log1p(-np.minimum(bets[:, None], caps[1][None, :]) * deviation)
    return plus, minus


def _capital(s: _Settings, x: NDArray[np.float64], lambdas: NDArray[np.float64],
             mean: object) -> HedgedCapital:
    mean = arguments.finite_real(mean, "mean")
    if not s.lower <= mean <= s.upper:
        raise ValueError(f"mean must lie in [lower, upper] = [{s.lower!r}, {s.upper!r}], "
                         f"got {mean!r}")
    m = np.clip(np.array([(mean - s.lower) / (s.upper - s.lower)]), 0.0, 1.0)
    plus, minus = _log_factors(x, lambdas, m, s.caps(m))
    log_plus, log_minus = np.cumsum(plus[:, 0]), np.cumsum(minus[:, 0])
    log_plus.setflags(write=False)
    log_minus.setflags(write=False)
    return HedgedCapital(log_plus, log_minus, mean, s.alpha, s.theta)


def _carried_cumsum(carry: NDArray[np.float64], steps: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.cumsum(np.vstack((carry[None, :], steps)), axis=0)[1:]


class SequentialMeanTest:
    """A betting confidence sequence for a bounded mean, extended batch by batch.

    Feed values with :meth:`update` as trials finish; read the sequence with
    :meth:`confidence_sequence` and decide a one-sided claim with :meth:`decide` after any
    batch. Extending the test gives exactly (to the bit) the numbers that one call on the
    concatenated values gives, at the cost of the new values only.

    Parameters
    ----------
    lower, upper : float
        The a-priori range of the values, ``lower < upper``.
    alpha : float
        The probability, in (0, 1), that the sequence ever misses the mean.
    theta : float, default=0.5
        Weight of the capital betting on a larger mean, in (0, 1); 1/2 splits ``alpha``
        evenly between the two ends.
    truncation : float, default=0.5
        The paper's ``c`` in (0, 1): the largest bet ``lambda`` (scaled by ``1/m`` or
        ``1/(1-m)`` under ``m_truncation``). The paper uses 1/2 or 3/4.
    grid : int, default=DEFAULT_GRID
        Grid intervals on ``[lower, upper]``, at least 2: each reported end is conservative by
        less than ``(upper - lower) / grid``.
    m_truncation : bool, default=False
        Truncate ``lambda+`` at ``c/m`` and ``lambda-`` at ``c/(1-m)`` (the most the hedged
        process allows) instead of both at ``c``; see the module docstring.

    Raises
    ------
    TypeError, ValueError
        On an argument of the wrong type or outside its range; the message names it.

    Examples
    --------
    >>> test = SequentialMeanTest(0.0, 1.0, alpha=0.05)
    >>> test.update([1, 0] * 200).n
    400
    >>> test.decide(0.9).outcome, test.decide(0.2).outcome
    ('holds', 'violated')
    """

    def __init__(self, lower: float, upper: float, alpha: float, *, theta: float = 0.5,
                 truncation: float = 0.5, grid: int = DEFAULT_GRID,
                 m_truncation: bool = False) -> None:
        self._settings = _Settings.checked(lower, upper, alpha, theta, truncation, grid,
                                           m_truncation)
        self._m = np.linspace(0.0, 1.0, self._settings.grid + 1)
        self._caps = self._settings.caps(self._m)
        self._thresholds = self._settings.thresholds()
        self._bets = _Bets()
        self._log_plus = np.zeros(self._m.size)
        self._log_minus = np.zeros(self._m.size)
        # Grid indices of the running ends: m <= m[lo] and m >= m[hi] are all excluded (lo = 0
        # and hi = grid also before anything is excluded: the ends of the range).
        self._lo, self._hi = 0, self._settings.grid
        self._empty_from: int | None = None
        self._x: list[NDArray[np.float64]] = []
        self._lambdas: list[NDArray[np.float64]] = []
        self._lo_path: list[NDArray[np.int64]] = []
        self._hi_path: list[NDArray[np.int64]] = []

    @property
    def n(self) -> int:
        """The number of values seen."""
        return self._bets.n

    def update(self, values: ArrayLike) -> SequentialMeanTest:
        """Add a batch of values (in the order they were drawn); returns ``self``.

        Parameters
        ----------
        values : array_like, shape (k,)
            The new values, each in ``[lower, upper]``; an empty batch changes nothing.

        Returns
        -------
        SequentialMeanTest
            This test, extended.
        """
        return self._extend(values, 0)

    def _extend(self, values: ArrayLike, min_size: int) -> SequentialMeanTest:
        s = self._settings
        x = s.rescale(_batch_iv(values, s.lower, s.upper, min_size))
        t0 = self._bets.n
        lambdas = self._bets.next(x, s.alpha)
        self._x.append(x)
        self._lambdas.append(lambdas)
        start = 0
        while start < x.size:
            lo, hi = self._lo, self._hi
            if self._empty_from is not None:
                # Empty stays empty; nothing is evaluated any more.
                self._lo_path.append(np.full(x.size - start, lo))
                self._hi_path.append(np.full(x.size - start, hi))
                break
            window = slice(lo, hi + 1)
            stop = min(x.size, start + max(1, _BLOCK_ELEMENTS // (hi - lo + 1)))
            plus, minus = _log_factors(x[start:stop], lambdas[start:stop], self._m[window],
                                       (self._caps[0][window], self._caps[1][window]))
            log_plus = _carried_cumsum(self._log_plus[window], plus)
            log_minus = _carried_cumsum(self._log_minus[window], minus)
            self._log_plus[window] = log_plus[-1]
            self._log_minus[window] = log_minus[-1]
            # Rejections from below are a prefix of the grid and those from above a suffix
            # (monotonicity in m), so counting them in the window locates the new ends.
            n_plus = np.count_nonzero(log_plus >= self._thresholds[0], axis=1)
            n_minus = np.count_nonzero(log_minus >= self._thresholds[1], axis=1)
            lo_path = np.maximum.accumulate(np.where(n_plus > 0, lo + n_plus - 1, lo))
            hi_path = np.minimum.accumulate(np.where(n_minus > 0, hi - n_minus + 1, hi))
            empty = lo_path >= hi_path  # every m excluded, by one side or the other
            if empty.any():
                # The indices after the first empty time depend on the block's window (the
                # counts are capped by it), so they are not reported: only the time is.
                first = int(np.argmax(empty))
                self._empty_from = t0 + start + first + 1
                lo_path[first:] = lo_path[first]
                hi_path[first:] = hi_path[first]
            self._lo_path.append(lo_path)
            self._hi_path.append(hi_path)
            self._lo, self._hi = int(lo_path[-1]), int(hi_path[-1])
            start = stop
        return self

    def confidence_sequence(self) -> ConfidenceSequence:
        """The running intersection after each value seen so far.

        Returns
        -------
        ConfidenceSequence
        """
        s = self._settings
        lo = np.concatenate(self._lo_path) if self._lo_path else np.zeros(0, dtype=np.int64)
        hi = np.concatenate(self._hi_path) if self._hi_path else np.zeros(0, dtype=np.int64)
        span = s.upper - s.lower
        low = np.clip(s.lower + span * self._m[lo], s.lower, s.upper)
        high = np.clip(s.lower + span * self._m[hi], s.lower, s.upper)
        if self._empty_from is not None:
            low[self._empty_from - 1:] = np.nan
            high[self._empty_from - 1:] = np.nan
        low.setflags(write=False)
        high.setflags(write=False)
        return ConfidenceSequence(low, high, s.alpha, self.n, s.lower, s.upper, s.grid,
                                  self._empty_from)

    def capital(self, mean: float) -> HedgedCapital:
        """The capital processes against the candidate ``mean``, over all values seen.

        Parameters
        ----------
        mean : float
            A candidate mean in ``[lower, upper]``.

        Returns
        -------
        HedgedCapital
        """
        x = np.concatenate(self._x) if self._x else np.zeros(0)
        lambdas = np.concatenate(self._lambdas) if self._lambdas else np.zeros(0)
        return _capital(self._settings, x, lambdas, mean)

    def decide(self, bound: float, claim: Claim = "<=") -> SequentialDecision:
        """Decide the claim ``mean <= bound`` (or ``>=``) on the values seen so far.

        Parameters
        ----------
        bound : float
            The bound, in ``[lower, upper]`` (outside it the claim needs no data).
        claim : {"<=", ">="}, default="<="
            The direction of the claim.

        Returns
        -------
        SequentialDecision
            The outcome, the stopping time at which it was first reached, and anytime-valid
            p-values; see :class:`SequentialDecision`.
        """
        claim = arguments.choice(claim, "claim", ("<=", ">="))
        bound = arguments.finite_real(bound, "bound")
        s = self._settings
        if not s.lower <= bound <= s.upper:
            raise ValueError(f"bound must lie in [lower, upper] = [{s.lower!r}, {s.upper!r}], "
                             f"got {bound!r}")
        capital = self.capital(bound)
        cs = self.confidence_sequence()
        above = cs.low > bound  # NaN (empty) compares False: an empty sequence decides nothing
        below = cs.high < bound
        violated, holds = (above, below) if claim == "<=" else (below, above)
        log_plus = math.log(s.theta) + capital.log_plus
        log_minus = math.log1p(-s.theta) + capital.log_minus
        against, against_negation = (log_plus, log_minus) if claim == "<=" else (log_minus,
                                                                                 log_plus)
        decided = violated | holds
        if decided.any():
            index = int(np.argmax(decided))
            outcome: Outcome = "violated" if violated[index] else "holds"
            stopping_time: int | None = index + 1
        else:
            index, outcome, stopping_time = self.n - 1, "undecided", None
        low = float(cs.low[index]) if self.n else s.lower
        high = float(cs.high[index]) if self.n else s.upper
        return SequentialDecision(outcome, stopping_time, _pvalue(against),
                                  _pvalue(against_negation), bound, claim, low, high, s.alpha,
                                  self.n)


def betting_confidence_sequence(values: ArrayLike, lower: float, upper: float, alpha: float, *,
                                theta: float = 0.5, truncation: float = 0.5,
                                grid: int = DEFAULT_GRID,
                                m_truncation: bool = False) -> ConfidenceSequence:
    """Anytime-valid confidence sequence for the mean of values in ``[lower, upper]``.

    The hedged-capital betting construction of Waudby-Smith & Ramdas (JRSS-B 2023); see the
    module docstring for the formulas and :class:`SequentialMeanTest` for the parameters.

    Parameters
    ----------
    values : array_like, shape (n,)
        The values in the order they were drawn, ``n >= 1``, each in ``[lower, upper]``, with
        a common conditional mean given the past (independent draws of one law suffice).
    lower, upper : float
        The a-priori range, ``lower < upper``.
    alpha : float
        The probability, in (0, 1), that the sequence ever misses the mean.
    theta, truncation, grid, m_truncation
        As in :class:`SequentialMeanTest`.

    Returns
    -------
    ConfidenceSequence
        The running intersection after each of the ``n`` values.

    Examples
    --------
    >>> cs = betting_confidence_sequence([0.25, 0.75] * 500, 0.0, 1.0, alpha=0.05)
    >>> bool(cs.low[-1] < 0.5 < cs.high[-1]), bool(cs.width[-1] < 0.1)
    (True, True)
    """
    test = SequentialMeanTest(lower, upper, alpha, theta=theta, truncation=truncation,
                              grid=grid, m_truncation=m_truncation)
    return test._extend(values, 1).confidence_sequence()


def hedged_capital(values: ArrayLike, mean: float, lower: float, upper: float, alpha: float, *,
                   theta: float = 0.5, truncation: float = 0.5,
                   m_truncation: bool = False) -> HedgedCapital:
    """The capital processes betting against one candidate mean, without a grid.

    ``m`` is in the exact confidence sequence at time ``t`` when
    ``HedgedCapital.log_hedged[t-1] < log(1/alpha)``; the grid-based sequence of
    :func:`betting_confidence_sequence` excludes ``m`` only if this one does. It costs O(n)
    for one ``m``, so it is also the cheap way to test coverage at the true mean.

    Parameters
    ----------
    values : array_like, shape (n,)
        As in :func:`betting_confidence_sequence`.
    mean : float
        The candidate mean, in ``[lower, upper]``.
    lower, upper, alpha, theta, truncation, m_truncation
        As in :class:`SequentialMeanTest`.

    Returns
    -------
    HedgedCapital

    Examples
    --------
    >>> capital = hedged_capital([1.0] * 20, 0.5, 0.0, 1.0, alpha=0.05)
    >>> capital.first_exclusion is not None, capital.pvalue < 0.05
    (True, True)
    """
    s = _Settings.checked(lower, upper, alpha, theta, truncation, DEFAULT_GRID, m_truncation)
    x = s.rescale(_batch_iv(values, s.lower, s.upper, 1))
    return _capital(s, x, _Bets().next(x, s.alpha), mean)
