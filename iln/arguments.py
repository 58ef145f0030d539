"""Validation of scalar arguments at the public boundary (DESIGN.md, Bad input).

Each function returns the cleaned value or raises ``TypeError``/``ValueError``
whose message names the argument and the accepted range.
"""

from __future__ import annotations

import math
import numbers
from typing import TypeVar

import numpy as np

__all__ = ["MAX_LENGTH", "choice", "closed_unit", "finite_real", "integer", "length", "nonnegative_real",
           "norm_radius", "open_unit", "ordered_bounds", "positive_real", "real_array"]

#: The most float64 entries one numpy array can hold: its size in bytes must fit in a signed
#: ``intp``.  Beyond it numpy refuses the array with a message that names no argument.
#: a str type, kept by :func:`choice` (a Literal of the accepted values, say).
_S = TypeVar("_S", bound=str)

MAX_LENGTH = np.iinfo(np.intp).max // np.dtype(np.float64).itemsize


def finite_real(value, name: str) -> float:
    """A finite real number (bools are refused: a flag passed for a number is a caller's bug).

    Parameters
    ----------
    value : real number
        The argument.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    float
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def positive_real(value, name: str) -> float:
    """A finite real number ``> 0``; same parameters as :func:`finite_real`."""
    value = finite_real(value, name)
    if value <= 0.0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    return value


def nonnegative_real(value, name: str) -> float:
    """A finite real number ``>= 0``; same parameters as :func:`finite_real`."""
    value = finite_real(value, name)
    if value < 0.0:
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}")
    return value


def integer(value, name: str, minimum: int) -> int:
    """An int at least ``minimum``.

    Parameters
    ----------
    value : int
        The argument.
    name : str
        The argument's name, used in error messages.
    minimum : int
        The smallest accepted value.

    Returns
    -------
    int
    """
    # A bad minimum is the caller's bug, not the user's: say so before judging the value.
    if isinstance(minimum, bool) or not isinstance(minimum, numbers.Integral):
        raise TypeError(f"minimum must be an int (the smallest {name} accepted), "
                        f"got {type(minimum).__name__}")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int >= {minimum}, got {type(value).__name__}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value}")
    return value


def length(value, name: str, minimum: int = 1) -> int:
    """The length of a float64 array to allocate: an int in ``[minimum, MAX_LENGTH]``.

    Same parameters as :func:`integer`.
    """
    value = integer(value, name, minimum)
    if value > MAX_LENGTH:
        raise ValueError(f"{name} must be an int in [{minimum}, {MAX_LENGTH}] (the most float64 "
                         f"entries a numpy array can hold), got {value}")
    return value


def open_unit(value, name: str) -> float:
    """A real number in the open interval (0, 1) (a level, a probability of error)."""
    value = finite_real(value, name)
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must lie in the open interval (0, 1), got {value!r}")
    return value


def closed_unit(value, name: str) -> float:
    """A real number in [0, 1] (a probability)."""
    value = finite_real(value, name)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value!r}")
    return value


def choice(value: _S, name: str, choices: tuple[str, ...]) -> _S:
    """One of ``choices`` (a tuple of str), returned as given (so a ``Literal`` stays one)."""
    if not isinstance(choices, tuple) or not all(isinstance(c, str) for c in choices):
        raise TypeError(f"choices must be a tuple of str (the values {name} accepts), "
                        f"got {type(choices).__name__}")
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def real_array(values, name: str) -> np.ndarray:
    """A float64 array of finite real numbers (bools and non-numeric dtypes are refused)."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as exc:  # ragged nested sequences
        raise TypeError(f"{name} must be a real numeric array: {exc}") from None
    if array.dtype == np.bool_ or not (
        np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    ):
        raise TypeError(f"{name} must be a real numeric array, got dtype {array.dtype}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must contain only finite values (no NaN or inf)")
    return array


def ordered_bounds(lower, upper) -> tuple[float, float]:
    """Finite ``lower < upper`` (the range of a bounded variable)."""
    lower = finite_real(lower, "lower")
    upper = finite_real(upper, "upper")
    if not lower < upper:
        raise ValueError(f"upper must be > lower, got lower={lower!r}, upper={upper!r}")
    return lower, upper


def norm_radius(B, name: str = "B") -> float | None:
    """The radius ``B >= 1`` of the ball the comparator lies in (Theorem 1, both versions),
    or None (no projection); ``name`` is the argument's name in the caller."""
    if B is None:
        return None
    B = finite_real(B, name)
    if B < 1.0:
        raise ValueError(f"{name} must be a finite real number >= 1 (Theorem 1, both versions), got {B!r}")
    return B
