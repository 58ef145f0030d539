"""Validation of scalar arguments at the public boundary (DESIGN.md, Bad input).

Each function returns the cleaned value or raises ``TypeError``/``ValueError``
whose message names the argument and the accepted range.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["MAX_LENGTH", "finite_real", "integer", "length", "positive_real"]

#: The most float64 entries one numpy array can hold: its size in bytes must fit in a signed
#: ``intp``.  Beyond it numpy refuses the array with a message that names no argument.
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
