"""Validation of scalar arguments at the public boundary (DESIGN.md, Bad input).

Each function returns the cleaned value or raises ``TypeError``/``ValueError``
whose message names the argument and the accepted range.
"""

from __future__ import annotations

import math
import numbers

__all__ = ["finite_real", "integer"]


def finite_real(value, name: str) -> float:
    """A finite real number (bools are refused: a flag passed for a number is a caller's bug)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def integer(value, name: str, minimum: int) -> int:
    """An int at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int >= {minimum}, got {type(value).__name__}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value}")
    return value
