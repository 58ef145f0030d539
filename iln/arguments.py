"""Validation of arguments at the public boundary (docs, Design, Bad input): one check for each
kind of argument, numbers, choices and arrays, that more than one function takes.

Each function returns the cleaned value or raises ``TypeError``/``ValueError``
whose message names the argument and the accepted range.  A check that takes a parameter
besides the value (a minimum, the accepted choices, a condition) refuses
a bad parameter first, naming it: that is the caller's bug, not the user's.
"""

from __future__ import annotations

import math
import numbers
from typing import TypeVar

import numpy as np

__all__ = ["MAX_LENGTH", "broadcastable", "choice", "closed_unit", "count_values", "finite_real",
           "integer", "is_integer", "is_real", "labels", "length", "nonnegative_real", "nonnegative_values", "norm_radius",
           "open_unit", "open_unit_values", "ordered_bounds",
           "positive_real", "positive_values", "real_array", "real_matrix", "real_values", "scalar",
           "values_where"]

#: Types that pass for numbers.  A bool is a ``numbers.Integral`` (a flag passed for a number is a
#: caller's bug), and numpy registers its time spans ``timedelta64`` as ``numbers.Integral``:
#: ``np.timedelta64(5, "ns")`` passed as 5, and a span in seconds or days failed later with a
#: message that names no argument.
_NOT_NUMBERS = (bool, np.bool_, np.timedelta64, np.datetime64)


def is_integer(value) -> bool:
    """Whether ``value`` is an integer (Python's or numpy's): not a bool, not a time span."""
    return isinstance(value, numbers.Integral) and not isinstance(value, _NOT_NUMBERS)


def is_real(value) -> bool:
    """Whether ``value`` is a real number (Python's or numpy's): not a bool, not a time span."""
    return isinstance(value, numbers.Real) and not isinstance(value, _NOT_NUMBERS)


# A str type, kept by :func:`choice` (a Literal of the accepted values, say).
_S = TypeVar("_S", bound=str)

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
    if not is_real(value):
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
    if not is_integer(minimum):
        raise TypeError(f"minimum must be an int (the smallest {name} accepted), "
                        f"got {type(minimum).__name__}")
    if not is_integer(value):
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


def real_array(values, name: str, *, copy: bool = True) -> np.ndarray:
    """A float64 array of finite real numbers.

    Parameters
    ----------
    values : array_like
        The argument; bools and non-numeric (object, str, complex) dtypes are refused.
    name : str
        The argument's name, used in error messages.
    copy : bool, default=True
        Return a copy; with False, ``values`` itself where it already is a float64 array.

    Returns
    -------
    ndarray of float64
    """
    if not isinstance(copy, bool):
        raise TypeError(f"copy must be a bool (whether to copy {name}), got {type(copy).__name__}")
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as exc:  # ragged nested sequences
        raise TypeError(f"{name} must be a real numeric array: {exc}") from None
    # By kind: integers ("i", "u") and floats ("f"); bools, complex, objects, strings, dates and
    # time spans are refused.  A kind test costs a tenth of np.issubdtype, and this check runs
    # in every call of the estimators' and families' public functions.
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real numeric array, got dtype {array.dtype}")
    array = array.astype(np.float64, copy=copy)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return array


def real_matrix(values, name: str, columns: int | None = None) -> np.ndarray:
    """A float64 copy of a 2-D array ``(n_points, n_features)`` of finite real numbers.

    Parameters
    ----------
    values : array_like of shape (n_points, n_features)
        The argument.
    name : str
        The argument's name, used in error messages.
    columns : int, optional
        The number of features required (as in training, say); default any.

    Returns
    -------
    ndarray of shape (n_points, n_features), C-contiguous
    """
    columns = None if columns is None else integer(columns, "columns", 0)
    array = real_array(values, name)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (n_points, n_features), got shape {array.shape}")
    if columns is not None and array.shape[1] != columns:
        raise ValueError(f"{name} must have {columns} columns, got {array.shape[1]}")
    return array


def labels(values, name: str, T: int) -> np.ndarray:
    """``T`` labels in ``[-1, 1]``, the label set of ICML/arXiv Section 2, as a float64 copy.

    Parameters
    ----------
    values : array_like of shape (T,)
        The argument.
    name : str
        The argument's name, used in error messages.
    T : int
        The number of labels, one per row of the inputs ``X``.

    Returns
    -------
    ndarray of shape (T,)
    """
    T = length(T, "T", 0)
    array = real_array(values, name)
    if array.shape != (T,):
        raise ValueError(f"{name} must have shape ({T},) to match X, got {array.shape}")
    if np.any(np.abs(array) > 1.0):
        raise ValueError(f"{name} must hold finite labels in [-1, 1], got max |{name}| = "
                         f"{np.max(np.abs(array))!r}")
    return array


def sign_labels(values, name: str, T: int, *, both: bool = False, why: str = "") -> np.ndarray:
    """``T`` labels in ``{-1, +1}``, Rahimi & Recht's label set (RKS Section 1), as a float64 copy.

    Parameters
    ----------
    values, name, T
        As in :func:`labels`.
    both : bool, default=False
        Whether both labels must occur (a classifier cannot be fitted on one).
    why : str, default=""
        Why this caller needs signs (``" for the hinge loss"``), appended to the message.

    Returns
    -------
    ndarray of shape (T,)
    """
    array = labels(values, name, T)
    if not np.all(np.abs(array) == 1.0):
        raise ValueError(f"{name} must hold labels in {{-1, +1}}{why}")
    if both and not (np.any(array > 0) and np.any(array < 0)):
        raise ValueError(f"{name} must hold labels in {{-1, +1}}, both present{why}")
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



# ---------------------------------------------------------------------------------------
# Real numbers or arrays of them, for formulas that broadcast over NumPy arrays
# (iln.theory).  Each check returns a float64 array (0-d for a number) and its error
# quotes the first offending entry, so that a bad entry deep in an array can be found.
# ---------------------------------------------------------------------------------------


def real_values(value, name: str) -> np.ndarray:
    """A finite real number or an array of them, as a float64 array (0-d for a number).

    Parameters
    ----------
    value : real number or array_like of real numbers
        The argument; bools are refused (a flag passed for a number is a caller's bug).
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64
    """
    if isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be a real number, got the bool {value!r}")
    array = np.asarray(value)
    if array.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must be a real number or an array of real numbers, got {type(value).__name__}"
        )
    array = array.astype(np.float64)
    finite = np.isfinite(array)
    if not finite.all():
        raise ValueError(f"{name} must be finite, got {_first_offender(array, ~finite)}")
    return array


def _first_offender(array: np.ndarray, bad: np.ndarray) -> str:
    value = float(np.atleast_1d(array)[np.atleast_1d(bad)][0])
    if array.ndim == 0:
        return repr(value)
    return f"{value!r} (in an array of shape {array.shape})"


def values_where(value, name: str, where, accepted: str, hint: str = "") -> np.ndarray:
    """:func:`real_values` for which ``where`` holds everywhere.

    Parameters
    ----------
    value : real number or array_like of real numbers
        The argument.
    name : str
        The argument's name, used in error messages.
    where : callable
        Takes the float64 array and returns a bool array of its shape: where it is accepted.
    accepted : str
        What is accepted, completing "``name`` must be ..." in the message.
    hint : str, optional
        Appended to the message (how the value came about, say).

    Returns
    -------
    ndarray of float64

    Raises
    ------
    ValueError
        Quoting the first entry where ``where`` fails.
    """
    if not callable(where):
        raise TypeError(f"where must be callable (what {name} accepts), got {type(where).__name__}")
    array = real_values(value, name)
    ok = np.asarray(where(array))
    if ok.dtype != np.bool_ or ok.shape != array.shape:
        raise TypeError(f"where must return a bool array of the shape of {name}, "
                        f"got {ok.dtype} of shape {ok.shape}")
    if not ok.all():
        raise ValueError(f"{name} must be {accepted}, got {_first_offender(array, ~ok)}{hint}")
    return array


def positive_values(value, name: str, role: str) -> np.ndarray:
    """:func:`real_values` ``> 0``; ``role`` (what the argument is) goes into the message."""
    return values_where(value, name, lambda array: array > 0, f"> 0 ({role})")


def nonnegative_values(value, name: str, role: str) -> np.ndarray:
    """:func:`real_values` ``>= 0``; ``role`` (what the argument is) goes into the message."""
    return values_where(value, name, lambda array: array >= 0, f">= 0 ({role})")


def count_values(value, name: str, role: str) -> np.ndarray:
    """:func:`real_values` that are positive integers (an integral float is accepted);
    ``role`` (what the argument counts) goes into the message."""
    return values_where(value, name, lambda array: (array >= 1) & (array == np.floor(array)),
                        f"a positive integer ({role})")


def open_unit_values(value, name: str, role: str) -> np.ndarray:
    """:func:`real_values` in the open interval (0, 1); ``role`` goes into the message."""
    return values_where(value, name, lambda array: (array > 0) & (array < 1), f"in (0, 1) ({role})")


def broadcastable(**arrays) -> None:
    """Refuse arguments whose shapes do not broadcast together, naming them: NumPy's own
    error, raised later inside a formula, names no argument.

    Parameters
    ----------
    **arrays : array_like
        The arguments by name, in the order the message lists them.
    """
    try:
        np.broadcast_shapes(*(np.shape(array) for array in arrays.values()))
    except ValueError:
        *most, last = arrays
        shapes = ", ".join(f"{name}: {np.shape(array)}" for name, array in arrays.items())
        raise ValueError(
            f"{', '.join(most)} and {last} must have shapes that broadcast together, got {shapes}"
        ) from None


def scalar(value, name: str) -> float:
    """A :func:`real_values` that is one number (a number or a 0-d array), for a formula that
    takes a scalar only; same parameters as :func:`real_values`."""
    array = real_values(value, name)
    if array.ndim != 0:
        raise TypeError(f"{name} must be a scalar here, got an array of shape {array.shape}")
    return float(array)
