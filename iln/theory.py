"""The papers' formulas: step sizes, sample counts, tail bounds and regret bounds.

Every step size, sample count and bound of the two versions of the paper is a small function
here, so that the algorithms take their defaults from one place and the checkers take their
bounds from the same place.

* "ICML": Livni, Carmon, Globerson, *Learning Infinite Layer Networks Without the Kernel
  Trick*, ICML 2017.
* "arXiv": Globerson, Livni, *Learning Infinite-Layer Networks: Beyond the Kernel Trick*.

The lemma numbers differ: ICML Lemmas 3, 4, 5, 6 are arXiv Lemmas 6, 3, 4, 5 (Lemmas 1 and 2
agree). Every docstring cites both versions.

Where a printed formula is wrong, or does not follow from its own proof, both are kept side by
side: the printed one (suffix ``_printed``, or the plain name when the paper prints only an
``O(.)``) and the corrected one (suffix ``_corrected``); the docstring says what is wrong.

Conventions
-----------
``B >= 1`` is the norm bound of the comparator class (Theorem 1), ``T`` the number of rounds,
``t`` a round index, ``m`` the number of samples of Algorithm 2 (EST_SCALAR_PROD) and ``eta``
the step size. ``T``, ``t`` and ``m`` must be positive integers (an integral float is
accepted). Functions that return a real number broadcast over NumPy arrays and return a
``float`` for scalar input; functions that return a count (``int``) take scalars only.
Arguments are validated once, at the public function: a value outside the accepted range
raises ``ValueError`` and a non-number raises ``TypeError``, both naming the argument.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from iln import arguments

__all__ = [
    "LEMMA2_MAX_ETA",
    "SHRINK_FACTOR",
    "SHRINK_THRESHOLD",
    "alpha_l1_bound",
    "corollary1_T",
    "estimate_tail_corrected",
    "estimate_tail_printed",
    "eta_proof",
    "eta_theorem",
    "f_norm_bound",
    "gamma_proof",
    "hoeffding_tail_corrected",
    "hoeffding_tail_printed",
    "lemma1_rhs",
    "lemma2_condition",
    "m_proof",
    "min_T_for_proof",
    "online_to_batch_excess_risk",
    "regret_bound_proof",
    "regret_rate_theorem",
    "shrink_penalty_corrected",
    "shrink_penalty_printed",
    "test_time_m",
    "test_time_m_corrected",
    "test_time_m_theorem",
    "test_time_m_theorem_corrected",
    "total_feature_samples",
    "variance_bound",
    "variance_bound_alpha",
    "zero_comparator_loss_bound",
    "zero_comparator_loss_exact_bound",
]

#: Algorithm 1 (both versions) shrinks when ``|E_t| >= SHRINK_THRESHOLD * B``.
SHRINK_THRESHOLD = 16
#: Algorithm 1 (both versions) shrinks by ``alpha <- SHRINK_FACTOR * alpha``.
SHRINK_FACTOR = 0.25
#: Lemma 2 (both versions) assumes ``eta < LEMMA2_MAX_ETA``.
LEMMA2_MAX_ETA = 0.125

Real = float | NDArray[np.float64]

# min_T_for_proof and corollary1_T solve for T in closed form, which floating point can put
# one off; a few unit steps repair that. The steps are bounded because above 2**53 a unit
# step no longer changes the float, and an open-ended search would not stop.
_ROUNDING_STEPS = 4


# --------------------------------------------------------------------------------------------
# Input validation (once, at the public boundary)
# --------------------------------------------------------------------------------------------


def _norm_bound(value: Any, name: str, role: str) -> NDArray[np.float64]:
    return arguments.values_where(value, name, lambda B: B >= 1, f">= 1 ({role})")


# Each argument name is one of the papers' symbols (Conventions above) with one meaning, so
# one check serves it everywhere: the check and the role its message gives the argument.
_CHECKS: dict[str, tuple[Callable[[Any, str, str], NDArray[np.float64]], str]] = {
    "B": (_norm_bound, "Theorem 1"),
    "T": (arguments.count_values, "number of rounds"),
    "t": (arguments.count_values, "round index"),
    "m": (arguments.count_values, "samples of Algorithm 2"),
    "eta": (arguments.positive_values, "step size"),
    "epsilon": (arguments.positive_values, "deviation"),
    "epsilon0": (arguments.positive_values, "test-time accuracy"),
    "delta": (arguments.open_unit_values, "failure probability"),
    "alpha_l1": (arguments.nonnegative_values, "||alpha||_1"),
    "B_T": (arguments.nonnegative_values, "bound on max_t ||f_t||"),
    "sum_grad_sq": (arguments.nonnegative_values, "sum of E||nabla_t||^2"),
    "sum_grad_var": (arguments.nonnegative_values, "sum of V[grad_t]"),
    "sum_shrink_prob": (arguments.nonnegative_values, "sum of E[P_t(f*)]"),
}


def _checked(**values: Any) -> tuple[NDArray[np.float64], ...]:
    """The arguments, each checked by its name (:data:`_CHECKS`) in the order given, and
    refused together when their shapes do not broadcast."""
    arrays = {}
    for name, value in values.items():
        check, role = _CHECKS[name]
        arrays[name] = check(value, name, role)
    arguments.broadcastable(**arrays)
    return tuple(arrays.values())


def _scalars(**values: Any) -> tuple[float, ...]:
    """The arguments of a formula that takes scalars only, each checked by its name."""
    return tuple(arguments.scalar(_checked(**{name: value})[0], name)
                 for name, value in values.items())


def _rounds_and_step(B: Any, T: Any, eta: Any) -> tuple[NDArray[np.float64], ...]:
    """``B``, ``T`` and the step size ``eta``, by default :func:`eta_proof` ``(B, T)``."""
    B, T = _checked(B=B, T=T)
    if eta is None:
        return B, T, _eta_proof(B, T)
    (eta,) = _checked(eta=eta)
    arguments.broadcastable(B=B, T=T, eta=eta)
    return B, T, eta


def _lemma2_step_size(eta: NDArray[np.float64], defaulted: bool) -> NDArray[np.float64]:
    # When eta was not passed the caller only sees B and T, so say how eta was derived.
    hint = (
        "; eta defaulted to eta_proof(B, T) = B/(2 sqrt(T)), which needs T >= min_T_for_proof(B)"
        if defaulted
        else ""
    )
    return arguments.values_where(eta, "eta", lambda step: step < LEMMA2_MAX_ETA, "< 1/8 (Lemma 2)",
                                  hint)


def _lemma2_rounds_and_step(B: Any, T: Any, eta: Any) -> tuple[NDArray[np.float64], ...]:
    """:func:`_rounds_and_step` with Lemma 2's hypothesis ``eta < 1/8`` enforced."""
    B, T, step = _rounds_and_step(B, T, eta)
    return B, T, _lemma2_step_size(step, defaulted=eta is None)


def _proof_scalars(B: Any, T: Any, eta: Any) -> tuple[float, float, float]:
    """:func:`_rounds_and_step` for the formulas that take scalars only."""
    B, T = _scalars(B=B, T=T)
    return B, T, arguments.scalar(_rounds_and_step(B, T, eta)[2], "eta")


@contextlib.contextmanager
def _float_count(inputs: str) -> Iterator[None]:
    """Refuse, naming ``inputs``, a count that floating point cannot hold: Python's float
    ``**`` and ``math.ceil`` raise ``OverflowError`` and a divisor that underflows to 0
    ``ZeroDivisionError``, neither of which names an argument."""
    try:
        yield
    except (OverflowError, ZeroDivisionError):
        raise ValueError(f"the count for these {inputs} overflows a float (it exceeds about "
                         "1.8e308, or a divisor underflows to 0)") from None


def _out(value: Any) -> Real:
    return float(value) if np.ndim(value) == 0 else np.asarray(value, dtype=np.float64)


# --------------------------------------------------------------------------------------------
# The formulas on validated input
# --------------------------------------------------------------------------------------------


def _eta_proof(B: Any, T: Any) -> Any:
    return B / (2.0 * np.sqrt(T))


def _alpha_l1_bound(B: Any, eta: Any, t: Any) -> Any:
    # 16B + 1: a gradient step happens only when |E_t| < 16B, and |y_t| <= 1.
    return (SHRINK_THRESHOLD * B + 1.0) * eta * t


def _gamma(B: Any, T: Any, eta: Any) -> Any:
    # ((16B+1) eta T + B)^2 / eta^2, with the eta^2 cancelled before rounding.
    return np.maximum(((SHRINK_THRESHOLD * B + 1.0) * T + B / eta) ** 2, math.e)


def _m_proof(B: float, T: float, eta: float) -> int:
    # log(gamma) = 2 log((16B+1) T + B/eta), taken in log space so that a small eta cannot
    # overflow the square inside gamma.
    scaled = (SHRINK_THRESHOLD * B + 1.0) * T * eta / B
    log_gamma = max(1.0, 2.0 * (math.log(B) - math.log(eta) + math.log1p(scaled)))
    with _float_count("B, T and eta"):
        return math.ceil(((SHRINK_THRESHOLD * B + 1.0) * B) ** 2 * T * log_gamma)


def _hoeffding_exponent(m: Any, epsilon: Any, alpha_l1: Any) -> Any:
    # alpha_l1 = 0 means alpha = 0: Algorithm 2 returns 0 = <f, Phi(x)> exactly, so the tail
    # is 0, i.e. an infinite exponent; the guard keeps 0/0 out of NumPy.
    exact = alpha_l1 == 0
    safe = np.where(exact, 1.0, alpha_l1)
    # An exponent that overflows to inf is still right: the tail is 0 to double precision.
    with np.errstate(over="ignore"):
        return np.where(exact, np.inf, m * (epsilon / safe) ** 2)


def _tail_printed(m: Any, epsilon: Any, alpha_l1: Any) -> Any:
    return np.exp(-_hoeffding_exponent(m, epsilon, alpha_l1))


def _tail_corrected(m: Any, epsilon: Any, alpha_l1: Any) -> Any:
    return np.minimum(1.0, 2.0 * np.exp(-_hoeffding_exponent(m, epsilon, alpha_l1) / 2.0))


def _regret_bound_proof(B: Any, T: Any, eta: Any) -> Any:
    first = B**2 / eta  # B^2/eta of Lemma 1: ||f_1 - f*||^2 / eta with f_1 = 0
    comparator = 2.0 * eta * T  # 2 eta sum_t l_t(f*), sum_t l_t(f*) <= T: ICML 17, arXiv 25
    variance = eta * T  # eta sum_t V[grad_t] once m >= ((16B+1) eta T)^2: ICML 16, arXiv 26
    shrink = eta * T  # (B_T + B)^2/eta sum_t P_t(f*): ICML eq. 18, arXiv eq. 27
    # E||grad_t||^2 <= 2 E[l_t(f_t)] moves 2 eta times the regret to the left-hand side.
    return (first + comparator + variance + shrink) / (1.0 - 2.0 * eta)


def _test_time_m(epsilon0: float, delta: float, alpha_l1: float, corrected: bool,
                 inputs: str = "epsilon0, delta and alpha_l1") -> int:
    # alpha = 0 needs one sample (Algorithm 2 returns 0 exactly); the formula would give
    # 0 * inf = NaN when delta is so small that 1/delta overflows.
    if alpha_l1 == 0.0:
        return 1
    with _float_count(inputs):
        if corrected:
            samples = 2.0 * alpha_l1**2 * math.log(2.0 / delta) / epsilon0**2
        else:
            samples = alpha_l1**2 * math.log(1.0 / delta) / epsilon0**2
        # Algorithm 2 needs m >= 1; alpha_l1 = 0 would otherwise give m = 0.
        return max(1, math.ceil(samples))


# --------------------------------------------------------------------------------------------
# Step sizes
# --------------------------------------------------------------------------------------------


def eta_theorem(B: ArrayLike, T: ArrayLike) -> Real:
    """Step size of Theorem 1 as stated, ``eta = B / sqrt(T)``.

    ICML Theorem 1; arXiv Theorem 1 (same statement). The proofs use half of it, see
    :func:`eta_proof`.

    Parameters
    ----------
    B : float or array_like
        Norm bound of the comparator class, ``B >= 1``.
    T : int or array_like
        Number of rounds, a positive integer.

    Returns
    -------
    float or ndarray
        ``B / sqrt(T)``.

    Examples
    --------
    >>> eta_theorem(1, 100)
    0.1
    """
    B, T = _checked(B=B, T=T)
    return _out(B / np.sqrt(T))


def eta_proof(B: ArrayLike, T: ArrayLike) -> Real:
    """Step size the proof of Theorem 1 sets, ``eta = B / (2 sqrt(T))``.

    ICML Section 5.1, "Proof of Theorem 1" ("Namely: eta = B/(2 sqrt T)"); arXiv Appendix
    C.2. This is half the step size that Theorem 1 states (:func:`eta_theorem`); both give
    ``O(B sqrt(T))`` regret, and this one makes ``B^2/eta`` and ``4 eta T`` equal in
    :func:`regret_bound_proof`.

    Parameters
    ----------
    B, T
        As in :func:`eta_theorem`.

    Returns
    -------
    float or ndarray
        ``B / (2 sqrt(T))``.

    Examples
    --------
    >>> eta_proof(1, 100)
    0.05
    """
    B, T = _checked(B=B, T=T)
    return _out(_eta_proof(B, T))


# --------------------------------------------------------------------------------------------
# Sample counts and run time
# --------------------------------------------------------------------------------------------


def gamma_proof(B: ArrayLike, T: ArrayLike, eta: ArrayLike | None = None) -> Real:
    """The proof's ``gamma = max(((16B+1) eta T + B)^2 / eta^2, e)``.

    ICML Section 5.1, "Proof of Theorem 1"; arXiv Appendix C.2 (both print the same
    expression). The proof needs ``gamma >= (B + B_T)^2 / eta^2``, which holds because
    ``B_T <= (16B+1) eta T`` (arXiv eq. (23)), and ``log(gamma) >= 1``, which the ``max``
    with ``e`` enforces. For ``B >= 1`` and ``T >= 1`` the first entry is at least
    ``17^2 = 289``, so the ``max`` never binds in the range this module accepts.

    Parameters
    ----------
    B, T
        As in :func:`eta_theorem`.
    eta : float or array_like, optional
        Step size, ``> 0``; default :func:`eta_proof` ``(B, T)``.

    Returns
    -------
    float or ndarray
        ``gamma``.
    """
    B, T, eta = _rounds_and_step(B, T, eta)
    return _out(_gamma(B, T, eta))


def m_proof(B: float, T: int, eta: float | None = None) -> int:
    """Samples per round the proof of Theorem 1 uses, ``ceil(((16B+1) B)^2 T log(gamma))``.

    ICML Section 5.1, "Proof of Theorem 1" ("m = ((16B+1)B)^2 T log gamma"); arXiv Appendix
    C.2. Theorem 1 itself (both versions) prints only ``m = O(B^4 T log(BT))``; with
    ``eta = eta_proof`` one has ``log(gamma) = 2 log((16B+1) T + 2 sqrt(T)) = O(log(BT))``,
    so the two agree.

    The proof uses two consequences of this choice (checked in the tests):

    * ``m >= ((16B+1) eta T)^2``, so the variance term of Lemma 1 is at most ``eta T``
      (ICML eq. (16) and text below; arXiv eq. (26)). With ``eta = eta_proof`` the margin is
      ``4 log(gamma)``; for another ``eta`` it needs ``eta <= B sqrt(log(gamma) / T)``.
    * ``m >= (3 eta t)^2 log(gamma)`` for every ``t <= T``, which with Lemma 2 bounds the
      shrink penalty (ICML eq. (18); arXiv eq. (27)). It holds whenever
      ``eta <= (16B+1) B / (3 sqrt(T))``, with a margin of at least 128 at ``eta_proof``.

    Parameters
    ----------
    B : float
        Norm bound, ``B >= 1``.
    T : int
        Number of rounds, a positive integer.
    eta : float, optional
        Step size entering ``gamma``, ``> 0``; default :func:`eta_proof` ``(B, T)``.

    Returns
    -------
    int
        The number of samples ``m`` Algorithm 2 draws in each round.

    Examples
    --------
    >>> m_proof(1, 1000)  # about 5.6 million for B = 1, T = 1000
    5632427
    """
    return _m_proof(*_proof_scalars(B, T, eta))


def total_feature_samples(B: float, T: int, eta: float | None = None) -> int:
    """Feature samples of a whole run with the proof's ``m``: ``T * m_proof(B, T, eta)``.

    Theorem 1, part 2 (both versions): the run time is ``O~(rho B^4 T^2)``, where ``rho`` is
    the time to draw one ``w ~ mu``; this is that run time in units of ``rho``, up to the
    constant of the ``O(.)`` (each sample also evaluates ``psi`` twice and draws an index).
    It is an upper bound on the draws of Algorithm 1: round 1 draws nothing because
    ``alpha^(1) = 0`` (ICML Algorithm 2 returns 0 for ``alpha = 0``).

    Parameters
    ----------
    B, T, eta
        As in :func:`m_proof`.

    Returns
    -------
    int
        ``T * m_proof(B, T, eta)``.
    """
    checked = _proof_scalars(B, T, eta)
    return int(checked[1]) * _m_proof(*checked)


# --------------------------------------------------------------------------------------------
# The l1 norm of alpha and the norm of f_t
# --------------------------------------------------------------------------------------------


def alpha_l1_bound(B: ArrayLike, eta: ArrayLike, t: ArrayLike) -> Real:
    """Bound on the weights of Algorithm 1, ``||alpha^(t)||_1 <= (16B+1) eta t``.

    ICML Lemma 5; arXiv Lemma 4. A deterministic invariant: by induction, a shrink step
    divides the norm by 4, and a gradient step, taken only when ``|E_t| < 16B``, adds
    ``eta |E_t - y_t| < eta (16B + 1)`` since ``|y_t| <= 1``. The bound is loose by one step
    (``alpha^(t)`` has had at most ``t - 1`` updates), which is harmless.

    Parameters
    ----------
    B : float or array_like
        Norm bound, ``B >= 1``.
    eta : float or array_like
        Step size, ``> 0``.
    t : int or array_like
        Round index, a positive integer.

    Returns
    -------
    float or ndarray
        ``(16B+1) eta t``.

    Examples
    --------
    >>> alpha_l1_bound(1, 0.1, 10)
    17.0
    """
    B, eta, t = _checked(B=B, eta=eta, t=t)
    return _out(_alpha_l1_bound(B, eta, t))


def f_norm_bound(B: ArrayLike, eta: ArrayLike, T: ArrayLike) -> Real:
    """Bound ``B_T`` on ``max_t ||f_t||`` used by Lemma 1: ``B_T <= (16B+1) eta T``.

    arXiv eq. (23), Appendix C.2; ICML Section 5.1 uses it ("by the bound on B_T") without
    printing it. It follows from ICML Lemma 5 / arXiv Lemma 4 and ``||f_t|| <= ||alpha^(t)||_1``,
    which holds because ``||Phi(x)|| < 1`` when ``|psi| < 1``.

    Parameters
    ----------
    B, eta
        As in :func:`alpha_l1_bound`.
    T : int or array_like
        Number of rounds, a positive integer.

    Returns
    -------
    float or ndarray
        ``(16B+1) eta T``.
    """
    B, eta, T = _checked(B=B, eta=eta, T=T)
    return _out(_alpha_l1_bound(B, eta, T))


# --------------------------------------------------------------------------------------------
# Concentration of Algorithm 2
# --------------------------------------------------------------------------------------------


def hoeffding_tail_printed(m: ArrayLike, epsilon: ArrayLike, alpha_l1: ArrayLike) -> Real:
    """Printed tail of Algorithm 2, ``exp(-m epsilon^2 / ||alpha||_1^2)``. Wrong.

    ICML Lemma 4, eq. (19); arXiv Lemma 3, eq. (15): ``P[|E - <f, Phi(x)>| > epsilon] <=
    exp(-m epsilon^2 / ||alpha||_1^2)``, "directly from Hoeffding's inequality".

    The statement is false. ``E`` is the mean of ``m`` iid variables ``||alpha||_1 E^(k)`` in
    ``(-a, a)`` with ``a = ||alpha||_1``; Hoeffding's inequality for a range of width ``2a``
    gives ``2 exp(-m epsilon^2 / (2 a^2))`` (:func:`hoeffding_tail_corrected`): the printed
    form drops the factor 2 of the two-sided bound and doubles the exponent.

    Counterexample with ``m = 1``: let ``psi(x_1; w) = c s_1(w)`` and ``psi(x; w) = c s_2(w)``
    with ``c = 0.95`` and independent signs ``s_1, s_2``, and ``alpha = (1,)``. Then
    ``E = c^2 s_1 s_2 = +-0.9025`` with probability 1/2 each and ``<f, Phi(x)> = 0``, so for
    ``epsilon = 0.5`` the tail is 1, yet the printed bound is below 1. The failure is not
    limited to small ``m``: with every term equal to ``+-0.99 a`` and ``epsilon = 0.98 a``,
    the mean exceeds ``epsilon`` at least when all ``m`` signs agree, with probability
    ``2^(1-m) = 2 exp(-0.693 m)``, while the printed bound is ``exp(-0.9604 m)``; this holds
    for every ``m`` (checked exactly in the tests).

    Parameters
    ----------
    m : int or array_like
        Number of samples of Algorithm 2, a positive integer.
    epsilon : float or array_like
        Deviation, ``> 0``.
    alpha_l1 : float or array_like
        ``||alpha||_1 >= 0``; ``0`` means ``alpha = 0`` and an exact estimate (tail 0).

    Returns
    -------
    float or ndarray
        ``exp(-m epsilon^2 / alpha_l1^2)``, in ``[0, 1]``.

    Examples
    --------
    >>> true_tail = 1.0  # m = 1, E = +-0.9025, epsilon = 0.5: |E - 0| > epsilon surely
    >>> hoeffding_tail_printed(1, 0.5, 1.0) < true_tail  # the printed bound is violated
    True
    >>> hoeffding_tail_corrected(1, 0.5, 1.0) >= true_tail
    True
    """
    return _hoeffding_tail(_tail_printed, m, epsilon, alpha_l1)


def hoeffding_tail_corrected(m: ArrayLike, epsilon: ArrayLike, alpha_l1: ArrayLike) -> Real:
    """Hoeffding tail of Algorithm 2, ``min(1, 2 exp(-m epsilon^2 / (2 ||alpha||_1^2)))``.

    Corrects ICML Lemma 4, eq. (19) / arXiv Lemma 3, eq. (15) (see
    :func:`hoeffding_tail_printed`). ``E`` is the mean of ``m`` iid variables
    ``||alpha||_1 E^(k)`` with values in ``[-a, a]``, ``a = ||alpha||_1``, and mean
    ``<f, Phi(x)>`` (the lemma's unbiasedness). The two-sided Hoeffding inequality,
    ``P[|mean - mu| >= epsilon] <= 2 exp(-2 m epsilon^2 / (2a)^2)``, is this bound; it
    covers the event with ``>=`` as well as the lemma's ``>``. It is capped at 1, a trivial
    bound on a probability.

    Parameters
    ----------
    m, epsilon, alpha_l1
        As in :func:`hoeffding_tail_printed`.

    Returns
    -------
    float or ndarray
        The bound, in ``[0, 1]``; never below :func:`hoeffding_tail_printed`.
    """
    return _hoeffding_tail(_tail_corrected, m, epsilon, alpha_l1)


def _hoeffding_tail(tail, m: ArrayLike, epsilon: ArrayLike, alpha_l1: ArrayLike) -> Real:
    """``tail`` (:func:`_tail_printed` or :func:`_tail_corrected`) at the checked arguments of
    :func:`hoeffding_tail_printed`."""
    m, epsilon, alpha_l1 = _checked(m=m, epsilon=epsilon, alpha_l1=alpha_l1)
    return _out(tail(m, epsilon, alpha_l1))


def estimate_tail_printed(
    m: ArrayLike, epsilon: ArrayLike, B: ArrayLike, eta: ArrayLike, t: ArrayLike
) -> Real:
    """Printed tail of ``E_t`` in round ``t``, ``exp(-epsilon^2 m / ((16B+1) eta t)^2)``.

    ICML eq. (20), the corollary of Lemmas 4 and 5; arXiv eq. (16), the corollary of Lemmas 3
    and 4: :func:`hoeffding_tail_printed` with ``||alpha^(t)||_1`` replaced by its bound
    :func:`alpha_l1_bound`, which is valid because the tail grows with ``||alpha||_1``.
    Inherits the error of the printed Hoeffding step; see :func:`estimate_tail_corrected`.

    Parameters
    ----------
    m, epsilon
        As in :func:`hoeffding_tail_printed`.
    B, eta, t
        As in :func:`alpha_l1_bound`.

    Returns
    -------
    float or ndarray
        The printed bound on ``P[|E_t - <f_t, Phi(x_t)>| > epsilon]``.
    """
    return _estimate_tail(_tail_printed, m, epsilon, B, eta, t)


def estimate_tail_corrected(
    m: ArrayLike, epsilon: ArrayLike, B: ArrayLike, eta: ArrayLike, t: ArrayLike
) -> Real:
    """Tail of ``E_t`` in round ``t``, ``min(1, 2 exp(-epsilon^2 m / (2 ((16B+1) eta t)^2)))``.

    Corrects ICML eq. (20) / arXiv eq. (16): :func:`hoeffding_tail_corrected` with
    ``||alpha^(t)||_1`` replaced by :func:`alpha_l1_bound` (ICML Lemma 5; arXiv Lemma 4).
    The samples of round ``t`` are iid given the past, so the bound holds conditionally on
    ``alpha^(t)`` and hence unconditionally.

    Parameters
    ----------
    m, epsilon, B, eta, t
        As in :func:`estimate_tail_printed`.

    Returns
    -------
    float or ndarray
        A bound on ``P[|E_t - <f_t, Phi(x_t)>| >= epsilon]``, in ``[0, 1]``.
    """
    return _estimate_tail(_tail_corrected, m, epsilon, B, eta, t)


def _estimate_tail(tail, m: ArrayLike, epsilon: ArrayLike, B: ArrayLike, eta: ArrayLike,
                   t: ArrayLike) -> Real:
    """``tail`` (:func:`_tail_printed` or :func:`_tail_corrected`) at ``||alpha^(t)||_1``'s
    bound :func:`_alpha_l1_bound`, at the checked arguments of :func:`estimate_tail_printed`."""
    m, epsilon, B, eta, t = _checked(m=m, epsilon=epsilon, B=B, eta=eta, t=t)
    return _out(tail(m, epsilon, _alpha_l1_bound(B, eta, t)))


# --------------------------------------------------------------------------------------------
# Variance of the gradient estimate
# --------------------------------------------------------------------------------------------


def variance_bound(m: ArrayLike, B: ArrayLike, eta: ArrayLike, t: ArrayLike) -> Real:
    """Variance bound of the gradient estimate, ``V[grad_t] <= ((16B+1) eta t)^2 / m``.

    ICML Lemma 3; arXiv Lemma 6. Here ``V[grad_t] = E||grad_t - nabla_t||^2`` and
    ``grad_t - nabla_t = (E_t - <f_t, Phi(x_t)>) Phi(x_t)`` with ``||Phi(x_t)|| < 1``, so
    ``V[grad_t] <= V[E_t] <= ||alpha^(t)||_1^2 / m`` (:func:`variance_bound_alpha`) and ICML
    Lemma 5 / arXiv Lemma 4 bounds ``||alpha^(t)||_1``. The statement is correct; the printed
    proof has a garble, recorded in :func:`variance_bound_alpha`.

    Parameters
    ----------
    m : int or array_like
        Number of samples of Algorithm 2, a positive integer.
    B, eta, t
        As in :func:`alpha_l1_bound`.

    Returns
    -------
    float or ndarray
        ``((16B+1) eta t)^2 / m``.
    """
    m, B, eta, t = _checked(m=m, B=B, eta=eta, t=t)
    return _out(_alpha_l1_bound(B, eta, t) ** 2 / m)


def variance_bound_alpha(m: ArrayLike, alpha_l1: ArrayLike) -> Real:
    """Variance bound of Algorithm 2's estimate for given weights, ``V[E] <= ||alpha||_1^2 / m``.

    The step of the proof of ICML Lemma 3 (Appendix B.3) / arXiv Lemma 6 (Appendix C.1):
    ``E`` is the mean of ``m`` iid copies of ``||alpha||_1 sgn(alpha_i) psi(x_i; w) psi(x; w)``,
    whose absolute value is below ``||alpha||_1``, so
    ``V[E] = (1/m) V[||alpha||_1 sgn(alpha_i) psi psi] <= ||alpha||_1^2 / m``.

    Garble: both versions print ``V[E_t] = (1/m) V[||alpha^(t)||_1^2 psi(x_i; w) psi(x_t; w)]``,
    with ``||alpha||_1`` squared inside the variance (and ``sgn(alpha_i)`` dropped). Taken
    literally that gives ``||alpha||_1^4 / m``; the lemma's conclusion
    ``((16B+1) eta t)^2 / m`` matches the correct ``||alpha||_1^2 / m``.

    Parameters
    ----------
    m : int or array_like
        Number of samples of Algorithm 2, a positive integer.
    alpha_l1 : float or array_like
        ``||alpha||_1 >= 0``.

    Returns
    -------
    float or ndarray
        ``alpha_l1^2 / m``.
    """
    m, alpha_l1 = _checked(m=m, alpha_l1=alpha_l1)
    return _out(alpha_l1**2 / m)


# --------------------------------------------------------------------------------------------
# The shrink penalty (Lemma 2)
# --------------------------------------------------------------------------------------------


def shrink_penalty_printed(m: ArrayLike, eta: ArrayLike, t: ArrayLike) -> Real:
    """Printed bound of Lemma 2, ``P_t(f*) <= min(1, 2 exp(-m / (3 eta t)^2))``.

    ICML Lemma 2; arXiv Lemma 2 (same statement; ``P_t`` is ICML eq. (14), arXiv eq. (13)).
    The cap at 1 is the trivial bound on a probability. The proof (ICML Appendix B.2, arXiv
    Appendix B.2) reaches it through the printed tail of :func:`estimate_tail_printed` at
    deviation ``8B`` and ``exp(-64 B^2 m / ((16B+1) eta t)^2) < exp(-m / (3 eta t)^2)``,
    i.e. ``64 B^2 / (16B+1)^2 > 1/9``, true for ``B > 1/8``. Because the printed tail is
    wrong, this bound is unproven; :func:`shrink_penalty_corrected` is what the proof gives.

    Parameters
    ----------
    m : int or array_like
        Number of samples of Algorithm 2, a positive integer.
    eta : float or array_like
        Step size, ``0 < eta < 1/8`` (the lemma's hypothesis).
    t : int or array_like
        Round index, a positive integer.

    Returns
    -------
    float or ndarray
        The printed bound, in ``[0, 1]``.

    Raises
    ------
    ValueError
        If ``eta >= 1/8``, where Lemma 2 claims nothing.
    """
    m, eta, t = _checked(m=m, eta=eta, t=t)
    eta = _lemma2_step_size(eta, defaulted=False)
    return _out(np.minimum(1.0, 2.0 * np.exp(-m / (3.0 * eta * t) ** 2)))


def shrink_penalty_corrected(m: ArrayLike, B: ArrayLike, eta: ArrayLike, t: ArrayLike) -> Real:
    """Lemma 2 as its proof gives it: ``P_t(f*) <= min(1, 4 exp(-32 B^2 m / ((16B+1) eta t)^2))``.

    The proof of Lemma 2 (ICML Appendix B.2 via ICML Lemma 6; arXiv Appendix B.2 via arXiv
    Lemma 5) with the corrected Hoeffding tail. Write ``D`` for the event
    ``|E_t - <f_t, Phi(x_t)>| >= 8B``. Step by step:

    1. ``P_t(f*) <= P[E_1 or E_2]`` (ICML Lemma 6; arXiv Lemma 5). It uses ``eta < 2B``
       (implied by ``eta < 1/8`` and ``B >= 1``) and ``||f*|| < B``.
    2. ``E_1 and not E_2`` implies ``D`` (ICML eq. (23); arXiv eq. (19)); this step needs
       ``1/(4 eta) - 1 >= 1``, i.e. ``eta <= 1/8``. ``E_2`` implies ``D`` (ICML eq. (24);
       arXiv eq. (20)) because ``|<f_t, Phi(x_t)>| < 8B`` while ``|E_t| > 16B``.
    3. The union bound gives ``P[E_1 or E_2] <= 2 P[D]`` (ICML eq. (25); arXiv eq. (21)):
       the **outer factor 2**.
    4. ``P[D] <= min(1, 2 exp(-m (8B)^2 / (2 ((16B+1) eta t)^2)))`` by
       :func:`estimate_tail_corrected` at ``epsilon = 8B`` (ICML Lemmas 4-5; arXiv Lemmas
       3-4): the **inner factor 2** (two-sided Hoeffding) and the **2 in the exponent's
       denominator** (range ``2 ||alpha||_1``), so the exponent is
       ``32 B^2 m / ((16B+1) eta t)^2``.

    The result ``2 min(1, 2 exp(.))`` is capped at 1, which gives the formula above.

    Step 3 is loose: both events lie inside ``D``, so ``P[E_1 or E_2] <= P[D]`` without the
    factor 2. This function keeps the proof's factor; half of it (before the cap) is also a
    valid bound.

    The printed simplification does not follow at ``B = 1``: it needs
    ``32 B^2 / (16B+1)^2 > 1/9``, i.e. ``32 B^2 - 32 B - 1 > 0``, i.e.
    ``B > 1/2 + 3 sqrt(2)/8 ~= 1.0303``. At ``B = 1`` the ratio is ``32/289 ~= 0.11073``,
    just below ``1/9 ~= 0.11111``, so for ``1 <= B <= 1.0303`` and large ``m`` this bound is
    larger than :func:`shrink_penalty_printed` (and the prefactor is 4, not 2, for every
    ``B``). Theorem 1 does not depend on this; see :func:`regret_bound_proof`.

    Parameters
    ----------
    m, eta, t
        As in :func:`shrink_penalty_printed`.
    B : float or array_like
        Norm bound, ``B >= 1``.

    Returns
    -------
    float or ndarray
        The bound, in ``[0, 1]``.

    Raises
    ------
    ValueError
        If ``eta >= 1/8``, where Lemma 2 claims nothing.
    """
    m, B, eta, t = _checked(m=m, B=B, eta=eta, t=t)
    eta = _lemma2_step_size(eta, defaulted=False)
    deviation_tail = _tail_corrected(m, 8.0 * B, _alpha_l1_bound(B, eta, t))
    return _out(np.minimum(1.0, 2.0 * deviation_tail))


def lemma2_condition(B: ArrayLike, T: ArrayLike, eta: ArrayLike | None = None) -> Any:
    """Whether the step size meets the hypotheses of Lemma 2: ``eta < 1/8`` and ``eta < 2B``.

    ICML Lemma 2 and its proof through Lemma 6 (Appendix B.2); arXiv Lemma 2 and Lemma 5
    (Appendix B.2). The lemma assumes ``eta < 1/8`` ("We assume T is sufficiently large and
    eta < 1/8", which makes ``1/(4 eta) - 1 > 1``); the proof of Lemma 6 / arXiv Lemma 5 also
    uses ``eta < 2B``, implied by the first when ``B >= 1`` and checked here because the proof
    states it separately.

    Parameters
    ----------
    B : float or array_like
        Norm bound, ``B >= 1``.
    T : int or array_like
        Number of rounds, a positive integer (only used for the default ``eta``).
    eta : float or array_like, optional
        Step size, ``> 0``; default :func:`eta_proof` ``(B, T)``.

    Returns
    -------
    bool or ndarray of bool
        ``True`` where Lemma 2 applies.
    """
    B, T, eta = _rounds_and_step(B, T, eta)
    holds = (eta < LEMMA2_MAX_ETA) & (eta < 2.0 * B)
    return bool(holds) if np.ndim(holds) == 0 else holds


def min_T_for_proof(B: float) -> int:
    """Smallest number of rounds for which the proof's step size meets Lemma 2.

    The smallest integer ``T`` with ``eta_proof(B, T) = B/(2 sqrt(T)) < 1/8`` (ICML Lemma 2,
    arXiv Lemma 2), i.e. ``T > 16 B^2``: ``T = floor(16 B^2) + 1``. Below it, the proof of
    Theorem 1 (ICML Section 5.1; arXiv Appendix C.2) does not apply ("We assume T is
    sufficiently large").

    Parameters
    ----------
    B : float
        Norm bound, ``B >= 1``.

    Returns
    -------
    int
        The smallest such ``T``; 17 for ``B = 1``.

    Examples
    --------
    >>> min_T_for_proof(1)
    17
    """
    (b,) = _scalars(B=B)
    with _float_count("B"):
        rounds = math.floor(16.0 * b * b) + 1
    # The closed form can be off by one where 16 B^2 is close to an integer.  The rounds go
    # in as floats: NumPy has no sqrt of an int beyond 64 bits (B above about 7e8).
    for _ in range(_ROUNDING_STEPS):
        if _eta_proof(b, float(rounds)) >= LEMMA2_MAX_ETA:
            rounds += 1
    for _ in range(_ROUNDING_STEPS):
        if rounds > 1 and _eta_proof(b, float(rounds - 1)) < LEMMA2_MAX_ETA:
            rounds -= 1
    return rounds


# --------------------------------------------------------------------------------------------
# Regret (Lemma 1 and the proof of Theorem 1)
# --------------------------------------------------------------------------------------------


def lemma1_rhs(
    B: ArrayLike,
    eta: ArrayLike,
    B_T: ArrayLike,
    sum_grad_sq: ArrayLike,
    sum_grad_var: ArrayLike,
    sum_shrink_prob: ArrayLike,
) -> Real:
    """Right-hand side of Lemma 1, the regret bound of OGD with non-gradient steps.

    ICML Lemma 1, eq. (15); arXiv Lemma 1, eq. (14)::

        B^2/eta + eta sum_t E||nabla_t||^2 + eta sum_t V[grad_t]
                + (B_T + B)^2 / eta * sum_t E[P_t(f*)]

    It bounds ``E[sum_t l_t(f_t) - l_t(f*)]`` for every ``||f*|| <= B`` when
    ``||f_t|| <= B_T`` for all ``t``.

    Notes on the printed lemma: the proof (ICML Appendix B.1; arXiv Appendix B.1, eqs.
    (17)-(18)) bounds *twice* the regret by this expression, so the lemma holds with half of
    it; the printed form is valid but loose by a factor 2. The versions index the penalty
    differently: ICML sums ``E[P_t(f*)]``, arXiv ``E[P_{t+1}(f*)]``; with Lemma 1's own
    ``hat f_t = f_{t-1} - eta grad_{t-1}`` the proof produces ``P_{t+1}`` (arXiv). Pass the
    sum of whichever penalties the check estimates.

    Parameters
    ----------
    B : float or array_like
        Norm bound of the comparator, ``B >= 1``.
    eta : float or array_like
        Step size, ``> 0``.
    B_T : float or array_like
        Bound on ``max_t ||f_t||``, ``>= 0``.
    sum_grad_sq : float or array_like
        ``sum_t E||nabla_t||^2``, ``>= 0``.
    sum_grad_var : float or array_like
        ``sum_t V[grad_t]``, ``>= 0``.
    sum_shrink_prob : float or array_like
        ``sum_t E[P_t(f*)]``, ``>= 0``.

    Returns
    -------
    float or ndarray
        The bound.
    """
    B, eta, B_T, sum_grad_sq, sum_grad_var, sum_shrink_prob = _checked(
        B=B, eta=eta, B_T=B_T, sum_grad_sq=sum_grad_sq, sum_grad_var=sum_grad_var,
        sum_shrink_prob=sum_shrink_prob)
    return _out(
        B**2 / eta + eta * sum_grad_sq + eta * sum_grad_var + (B_T + B) ** 2 / eta * sum_shrink_prob
    )


def zero_comparator_loss_bound(T: ArrayLike) -> Real:
    """Printed bound on the comparator's loss, ``sum_t l_t(0) <= T``.

    ICML eq. (17); arXiv eq. (25): ``min_{||f*|| < B} sum_t l_t(f*) <= sum_t l_t(0) <= T``.
    Valid but loose: ``l_t(0) = y_t^2 / 2 <= 1/2`` since ``|y_t| <= 1``; see
    :func:`zero_comparator_loss_exact_bound`. :func:`regret_bound_proof` uses this printed
    form, as the proof does.

    Parameters
    ----------
    T : int or array_like
        Number of rounds, a positive integer.

    Returns
    -------
    float or ndarray
        ``T``.
    """
    (T,) = _checked(T=T)
    return _out(T)


def zero_comparator_loss_exact_bound(T: ArrayLike) -> Real:
    """Tight bound on the comparator's loss, ``sum_t l_t(0) <= T/2``.

    Sharpens ICML eq. (17) / arXiv eq. (25): ``l_t(0) = (0 - y_t)^2 / 2 <= 1/2`` for labels in
    ``[-1, 1]``, with equality when every ``|y_t| = 1``.

    Parameters
    ----------
    T
        As in :func:`zero_comparator_loss_bound`.

    Returns
    -------
    float or ndarray
        ``T / 2``.
    """
    (T,) = _checked(T=T)
    return _out(T / 2.0)


def regret_bound_proof(B: ArrayLike, T: ArrayLike, eta: ArrayLike | None = None) -> Real:
    """Explicit regret bound the proof of Theorem 1 ends with.

    ICML Section 5.1, "Proof of Theorem 1", eqs. (16)-(18) and the last display; arXiv
    Appendix C.2, eqs. (24)-(27) and the last display::

        (1 - 2 eta) E[Regret] <= B^2/eta + 2 eta T + eta T + eta T

    Term by term:

    * ``B^2/eta``: first term of Lemma 1 (ICML eq. (15); arXiv eq. (14)).
    * ``2 eta T``: Lemma 3 (ICML) / Lemma 6 (arXiv) gives ``E||nabla_t||^2 <= 2 E[l_t(f_t)]``,
      which splits into ``2 eta`` times the regret (moved to the left, hence ``1 - 2 eta``)
      and ``2 eta sum_t l_t(f*) <= 2 eta T`` by ICML eq. (17) / arXiv eq. (25)
      (:func:`zero_comparator_loss_bound`; the exact ``T/2`` would give ``eta T``).
    * ``eta T``: the variance term ``eta T ((16B+1) eta T)^2 / m <= eta T`` once
      ``m >= ((16B+1) eta T)^2`` (ICML eq. (16) and the text after it, which prints "upper
      bounded by T" where ``eta T`` is meant; arXiv eq. (26)).
    * ``eta T``: the shrink penalty ``(B_T + B)^2/eta sum_t P_t(f*) <= eta T`` (ICML eq. (18);
      arXiv eq. (27)).

    With ``eta = eta_proof(B, T) = B/(2 sqrt(T))`` this equals
    ``4 B sqrt(T) / (1 - B/sqrt(T))``.

    Validity: it needs Lemma 2 (``eta < 1/8``, enforced) and Algorithm 1 run with
    ``m >= m_proof(B, T, eta)``; for the variance step that ``m`` suffices when
    ``eta <= B sqrt(log(gamma)/T)``, which covers :func:`eta_proof` and :func:`eta_theorem`.

    Two remarks on the shrink step. As printed, ``m > (3 eta t)^2 log(gamma)`` and the
    printed Lemma 2 give ``P_t <= 2/gamma`` and so a penalty of ``2 eta T``, not ``eta T``;
    the proof's ``m`` is larger than needed by a factor of at least 128 at ``eta_proof``,
    which closes the gap. And with the corrected Lemma 2 (:func:`shrink_penalty_corrected`),
    ``m = m_proof`` and ``eta = eta_proof`` give ``P_t <= 4 gamma^(-128 B^2)``, so the
    penalty is at most ``4 eta T gamma^(1 - 128 B^2)``, far below ``eta T``: this bound, and
    Theorem 1, survive the corrections of Lemmas 2 and 4.

    Parameters
    ----------
    B, T
        As in :func:`eta_theorem`.
    eta : float or array_like, optional
        Step size, ``0 < eta < 1/8``; default :func:`eta_proof` ``(B, T)``, which needs
        ``T >= min_T_for_proof(B)``.

    Returns
    -------
    float or ndarray
        ``(B^2/eta + 4 eta T) / (1 - 2 eta)``.

    Raises
    ------
    ValueError
        If ``eta >= 1/8`` (Lemma 2's hypothesis), including the default ``eta`` when
        ``T < min_T_for_proof(B)``.

    Examples
    --------
    >>> regret_bound_proof(1, 100)  # 4 sqrt(100) / (1 - 1/10)
    44.44444444444444
    """
    return _out(_regret_bound_proof(*_lemma2_rounds_and_step(B, T, eta)))


def regret_rate_theorem(B: ArrayLike, T: ArrayLike) -> Real:
    """The rate of Theorem 1, ``B sqrt(T)``, with constant 1.

    ICML Theorem 1, part 1; arXiv Theorem 1, part 1: ``E[Regret] = O(B sqrt(T))``. For rate
    fits; the proof's constant is in :func:`regret_bound_proof` (about 4). Same parameters as
    :func:`eta_theorem`.

    Returns
    -------
    float or ndarray
        ``B sqrt(T)``.
    """
    B, T = _checked(B=B, T=T)
    return _out(B * np.sqrt(T))


# --------------------------------------------------------------------------------------------
# Test-time estimation (Theorem 1, part 3)
# --------------------------------------------------------------------------------------------


def test_time_m(epsilon0: float, delta: float, alpha_l1: float) -> int:
    """Samples for an ``epsilon0``-accurate test-time estimate by the printed tail.

    Theorem 1, part 3 (ICML: "with probability >= 1 - delta ... m = O(B^4 T/epsilon0^2
    log 1/delta)"; arXiv: the same without "with probability >= 1 - delta"), made explicit by
    solving ``exp(-m epsilon0^2 / ||alpha||_1^2) <= delta`` (ICML Lemma 4, eq. (19); arXiv
    Lemma 3, eq. (15)): ``m = ceil(||alpha||_1^2 log(1/delta) / epsilon0^2)``. The printed
    tail is wrong (:func:`hoeffding_tail_printed`), so this ``m`` does not guarantee the
    confidence; :func:`test_time_m_corrected` does.

    Parameters
    ----------
    epsilon0 : float
        Accuracy, ``> 0``.
    delta : float
        Failure probability, in ``(0, 1)``.
    alpha_l1 : float
        ``||alpha^(t)||_1 >= 0`` of the predictor being evaluated.

    Returns
    -------
    int
        ``m``, at least 1 (Algorithm 2 draws at least one sample).
    """
    eps0, prob, l1 = _scalars(epsilon0=epsilon0, delta=delta, alpha_l1=alpha_l1)
    return _test_time_m(eps0, prob, l1, corrected=False)


def test_time_m_corrected(epsilon0: float, delta: float, alpha_l1: float) -> int:
    """Samples for an ``epsilon0``-accurate test-time estimate with confidence ``1 - delta``.

    Corrects the explicit form of Theorem 1, part 3 (both versions) by solving the
    Hoeffding bound :func:`hoeffding_tail_corrected`,
    ``2 exp(-m epsilon0^2 / (2 ||alpha||_1^2)) <= delta``:
    ``m = ceil(2 ||alpha||_1^2 log(2/delta) / epsilon0^2)``. Same ``O(.)`` as printed.

    Parameters
    ----------
    epsilon0, delta, alpha_l1
        As in :func:`test_time_m`.

    Returns
    -------
    int
        ``m``, at least 1 (Algorithm 2 draws at least one sample).
    """
    eps0, prob, l1 = _scalars(epsilon0=epsilon0, delta=delta, alpha_l1=alpha_l1)
    return _test_time_m(eps0, prob, l1, corrected=True)


def _theorem_alpha_l1(B: Any, T: Any) -> float:
    b, rounds = _scalars(B=B, T=T)
    # (16B+1) B sqrt(T) is (16B+1) eta T at eta_theorem = B/sqrt(T).
    return (SHRINK_THRESHOLD * b + 1.0) * b * math.sqrt(rounds)


def test_time_m_theorem(epsilon0: float, delta: float, B: float, T: int) -> int:
    """Test-time samples of Theorem 1, part 3, with the printed tail and ``||alpha||_1`` bound.

    arXiv Appendix C.2, last display: ``P[|E - <f_t, x>| > epsilon] <= exp(-epsilon^2 m /
    ((16B+1) B sqrt(T))^2)`` (printed without the ``> epsilon``); ICML prints only the
    ``O(B^4 T / epsilon0^2 log 1/delta)`` of Theorem 1, part 3. This is :func:`test_time_m`
    with ``||alpha||_1 <= (16B+1) B sqrt(T)``.

    That bound is ``(16B+1) eta T`` at Theorem 1's ``eta = B/sqrt(T)``
    (:func:`alpha_l1_bound`), which is twice the bound at the proof's
    ``eta = B/(2 sqrt(T))``; for a run with :func:`eta_proof` it over-counts ``m`` by a factor
    of 4. It inherits the printed tail's error; see :func:`test_time_m_theorem_corrected`.

    Parameters
    ----------
    epsilon0, delta
        As in :func:`test_time_m`.
    B : float
        Norm bound, ``B >= 1``.
    T : int
        Number of rounds, a positive integer.

    Returns
    -------
    int
        ``ceil(((16B+1) B)^2 T log(1/delta) / epsilon0^2)``.
    """
    return _test_time_m_theorem(epsilon0, delta, B, T, corrected=False)


def test_time_m_theorem_corrected(epsilon0: float, delta: float, B: float, T: int) -> int:
    """Test-time samples of Theorem 1, part 3, with the corrected tail.

    :func:`test_time_m_corrected` with ``||alpha||_1 <= (16B+1) B sqrt(T)`` as printed at the
    end of arXiv Appendix C.2 (see :func:`test_time_m_theorem`); Theorem 1, part 3, in both
    versions.

    Parameters
    ----------
    epsilon0, delta, B, T
        As in :func:`test_time_m_theorem`.

    Returns
    -------
    int
        ``ceil(2 ((16B+1) B)^2 T log(2/delta) / epsilon0^2)``.
    """
    return _test_time_m_theorem(epsilon0, delta, B, T, corrected=True)


def _test_time_m_theorem(epsilon0: float, delta: float, B: float, T: int, corrected: bool) -> int:
    """:func:`_test_time_m` at the theorem's bound on ``||alpha||_1``, at the checked arguments
    of :func:`test_time_m_theorem`."""
    epsilon0, delta = _scalars(epsilon0=epsilon0, delta=delta)
    return _test_time_m(epsilon0, delta, _theorem_alpha_l1(B, T), corrected=corrected,
                        inputs="epsilon0, delta, B and T")


# The test_ prefix is the paper's "test time", not a pytest test; keep pytest from collecting
# these when a test module imports them by name.
for _function in (
    test_time_m,
    test_time_m_corrected,
    test_time_m_theorem,
    test_time_m_theorem_corrected,
):
    _function.__test__ = False  # type: ignore[union-attr]  # pytest reads it; functions take attributes
del _function


# --------------------------------------------------------------------------------------------
# Statistical setting (Corollary 1)
# --------------------------------------------------------------------------------------------


def online_to_batch_excess_risk(B: ArrayLike, T: ArrayLike, eta: ArrayLike | None = None) -> Real:
    """Excess risk of the averaged predictor, ``regret_bound_proof(B, T, eta) / T``.

    Corollary 1 (both versions) through the standard online-to-batch conversion they cite
    (Shalev-Shwartz 2011): for an iid sample, ``E[L(f_S)] - L(f*) <= E[Regret(f*)] / T`` with
    ``f_S = (1/T) sum_t f_t``, by convexity of ``L`` and because ``f_t`` depends only on the
    first ``t - 1`` examples. With ``eta = eta_proof`` this is ``4B / (sqrt(T) - B)``.

    Parameters
    ----------
    B : float or array_like
        Norm bound, ``B >= 1``.
    T : int or array_like
        Number of rounds (sample size), a positive integer.
    eta : float or array_like, optional
        Step size, ``0 < eta < 1/8``; default :func:`eta_proof` ``(B, T)``.

    Returns
    -------
    float or ndarray
        The bound on ``E[L(f_S)] - inf_{||f*|| < B} L(f*)``.

    Raises
    ------
    ValueError
        If ``eta >= 1/8``, as in :func:`regret_bound_proof`.
    """
    B, T, eta = _lemma2_rounds_and_step(B, T, eta)
    return _out(_regret_bound_proof(B, T, eta) / T)


def corollary1_T(B: float, epsilon: float) -> int:
    """Smallest sample size for which the proof guarantees excess risk ``<= epsilon``.

    The smallest ``T >= min_T_for_proof(B)`` with ``online_to_batch_excess_risk(B, T) <=
    epsilon`` at ``eta = eta_proof(B, T)``. Solving ``4B / (sqrt(T) - B) <= epsilon`` gives
    ``T = ceil(B^2 (1 + 4/epsilon)^2) ~ 16 B^2 / epsilon^2`` whenever ``epsilon < 4/3``
    (otherwise Lemma 2's ``T >= min_T_for_proof(B)`` binds).

    The versions print different rates in Corollary 1: ICML ``T = O(B^2/epsilon^2)``, arXiv
    ``T = O(B/epsilon^2)``. The regret ``O(B sqrt(T))`` of Theorem 1 gives ``B^2``, as does
    the count here; arXiv's own Related Work section also says ``O(B^2/epsilon^2)`` samples,
    so its Corollary 1 is a misprint.

    Parameters
    ----------
    B : float
        Norm bound, ``B >= 1``.
    epsilon : float
        Target excess risk, ``> 0``.

    Returns
    -------
    int
        The smallest such ``T``.

    Examples
    --------
    >>> corollary1_T(1, 0.3)
    206
    """
    (b,) = _scalars(B=B)
    # epsilon here is a target excess risk, not the deviation _CHECKS means by the name.
    eps = arguments.scalar(arguments.positive_values(epsilon, "epsilon", "target excess risk"),
                           "epsilon")
    rounds_min = min_T_for_proof(b)

    def excess(n: int) -> float:
        # As a float, as in min_T_for_proof.
        rounds_f = float(n)
        return float(_regret_bound_proof(b, rounds_f, _eta_proof(b, rounds_f)) / rounds_f)

    with _float_count("B and epsilon"):
        rounds = max(rounds_min, math.ceil(b * b * (1.0 + 4.0 / eps) ** 2))
        # The closed form can be off by one in floating point; the excess risk decreases in T.
        for _ in range(_ROUNDING_STEPS):
            if excess(rounds) > eps:
                rounds += 1
        for _ in range(_ROUNDING_STEPS):
            if rounds > rounds_min and excess(rounds - 1) <= eps:
                rounds -= 1
        return rounds
