"""The domain a statement quantifies over: each variable with the range the paper admits.

* :class:`Integers`: ``low, low + 1, ...``, every value of the first sixteen (both parities),
  then a ladder of ratio 2 (each rung with its successor, again both parities) up to ``high``
  or, for an unbounded variable, up to the ``cap`` the search plan states;
* :class:`Reals`: a log grid to each end: an end the variable admits is reached (a closed
  end exactly, an open one to within ``approach`` of its width), an unbounded or zero end to
  the ``cap`` the plan states; or, for the variable a tail bound is stated over, the ends the
  right side itself fixes (:class:`RightSideEnds`: where the bound is within 1e-12 of 1, and
  where it is 1e-300), found by bisection for each instance;
* :class:`Choice`: every discrete choice the assumptions allow.

A :class:`Domain` holds them in the order the statement names them.  What the search tried of
each variable is summed up by :func:`coverage`: the admissible domain (words and numbers), the
range searched, the number of values tried, and whether each end was reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Choice", "Domain", "Integers", "Reals", "RightSideEnds", "coverage"]


def _number_text(value: float) -> str:
    return "inf" if value == math.inf else "-inf" if value == -math.inf else f"{value:g}"


@dataclass(frozen=True)
class Integers:
    """Integers from ``low`` (to ``high``, or without end).

    Parameters
    ----------
    low : int
        The smallest value the statement admits.
    high : int, optional
        The largest; None for no end, when ``cap`` is required.
    cap : int, optional
        The largest value searched when the variable has no end: the search plan's end,
        reported beside the admissible ``[low, inf)``.
    first : int, default=16
        How many values from ``low`` on are each tried.
    ratio : float, default=2.0
        The ladder's ratio after them.
    """

    low: int
    high: int | None = None
    cap: int | None = None
    first: int = 16
    ratio: float = 2.0

    kind = "integers"

    def __post_init__(self):
        if not isinstance(self.low, int | np.integer):
            raise TypeError(f"low must be an integer, got {self.low!r}")
        if self.high is not None and self.high < self.low:
            raise ValueError(f"high must be at least low = {self.low}, got {self.high!r}")
        if self.high is None and (self.cap is None or self.cap < self.low):
            raise ValueError(f"cap: an integer variable without high needs the plan's cap (>= low = {self.low}), "
                             f"got {self.cap!r}")
        if self.first < 2 or self.ratio <= 1:
            raise ValueError(f"first must be >= 2 and ratio > 1, got first={self.first!r}, ratio={self.ratio!r}")

    @property
    def end(self) -> int:
        """The largest value searched: ``high``, or the plan's ``cap``."""
        return int(self.high if self.high is not None else self.cap)  # type: ignore[arg-type]

    def values(self) -> list[int]:
        """``low .. low + first - 1``, then rungs ``v, v + 1`` of the ladder ``ratio^j``, then ``end - 1, end``."""
        out = set(range(self.low, min(self.low + self.first, self.end + 1)))
        rung = 1.0
        while rung < self.end:
            if rung >= self.low + self.first:
                out |= {math.ceil(rung), math.ceil(rung) + 1}
            rung *= self.ratio
        out |= {max(self.low, self.end - 1), self.end}
        return sorted(v for v in out if self.low <= v <= self.end)

    def neighbours(self, value: int) -> list[int]:
        """Values next to ``value`` for a local search: one step, and one rung of the ladder."""
        out = {value - 1, value + 1, math.floor(value / self.ratio), math.ceil(value * self.ratio)}
        return sorted(v for v in out if self.low <= v <= self.end and v != value)

    def admissible(self) -> dict[str, Any]:
        """The domain the statement admits, as text and numbers."""
        high = self.high if self.high is not None else math.inf
        return {"text": f"integers in [{self.low}, {_number_text(high)}{')' if self.high is None else ']'}",
                "low": self.low, "high": None if self.high is None else self.high}

    def ends_reached(self, tried: Sequence[float]) -> dict[str, str]:
        """Whether the values tried reach each end the search plans, and why not."""
        low = "reached" if min(tried) == self.low else f"not reached: smallest value tried {min(tried):g}"
        if max(tried) < self.end:
            high = f"not reached: largest value tried {max(tried):g} < {self.end}"
        else:
            high = "reached" if self.high is not None else f"the plan's cap {self.end} (the admissible end is inf)"
        return {"low": low, "high": high}


@dataclass(frozen=True)
class RightSideEnds:
    """The ends of a variable that a bound's right side fixes, found by bisection.

    Below the value where the right side is ``top`` (within 1e-12 of 1), a probability bound
    can be exceeded by a factor ``1 / top`` at most; the search goes from there down to where
    the right side is ``bottom`` (1e-300).  The right side must fall as the variable grows.
    """

    top: float = 1.0 - 1e-12
    bottom: float = 1e-300

    def __post_init__(self):
        if not 0.0 < self.bottom < self.top <= 1.0:
            raise ValueError(f"need 0 < bottom < top <= 1, got bottom={self.bottom!r}, top={self.top!r}")


@dataclass(frozen=True)
class Reals:
    """Reals between ``low`` and ``high``, each end open or closed.

    Parameters
    ----------
    low, high : float
        The admissible ends (``math.inf`` for none).
    open_low, open_high : bool
        Whether each end is excluded.
    per_decade : float, default=4
        Grid points per decade of the distance to each end.
    approach : float, default=1e-12
        An open finite end is approached to within ``approach * (high - low)``.
    cap_low, cap_high : float, optional
        The searched ends standing for an end at 0 (open) or at infinity: required there
        unless ``ends`` fixes them.
    ends : RightSideEnds, optional
        The ends are where the right side reaches ``ends.top`` and ``ends.bottom`` (a tail
        bound's deviation): the variable is then searched on a line for each instance of the
        other variables.  At most one variable of a domain has them.
    ties : callable, optional
        ``ties(instance) -> array``: the values of this variable at which the statement's
        left side jumps, for an instance of the other variables (a deviation the estimate can
        take exactly).  Each is tried, with the values just below and above it.
    """

    low: float
    high: float
    open_low: bool = False
    open_high: bool = False
    per_decade: float = 4.0
    approach: float = 1e-12
    cap_low: float | None = None
    cap_high: float | None = None
    ends: RightSideEnds | None = None
    ties: Callable[[Mapping[str, Any]], np.ndarray] | None = field(default=None, compare=False)

    kind = "reals"

    def __post_init__(self):
        if not self.low < self.high:
            raise ValueError(f"low must be below high, got low={self.low!r}, high={self.high!r}")
        if self.per_decade <= 0 or not 0 < self.approach < 0.5:
            raise ValueError(f"need per_decade > 0 and 0 < approach < 0.5, got {self.per_decade!r}, {self.approach!r}")
        if self.ends is None:
            self.searched_ends()

    def searched_ends(self) -> tuple[float, float]:
        """The grid's two extreme values: a closed end itself, an open finite end approached to
        within ``approach`` of the width, an end at infinity (or an open end at 0 of a log
        grid) at the plan's cap."""
        if self.ends is not None:
            raise ValueError("a variable with right-side ends is searched on a line per instance")
        if self.log_scale:
            low = self.cap_low if self.low == 0 and self.open_low else self.low
            if low is None or low <= 0 or (self.cap_high is None and math.isinf(self.high)):
                raise ValueError(f"cap_low/cap_high: Reals({self.low}, {self.high}) needs the plan's caps for its "
                                 f"ends at 0 or infinity, got cap_low={self.cap_low!r}, cap_high={self.cap_high!r}")
            high = self.cap_high if math.isinf(self.high) else self.high
            if self.open_high and math.isfinite(self.high):  # an open finite end is approached, never tried
                high = self.high - self.approach * (self.high - low)
            return float(low), float(high)  # type: ignore[arg-type]
        gap = self.approach * (self.high - self.low)
        return self.low + (gap if self.open_low else 0.0), self.high - (gap if self.open_high else 0.0)

    @property
    def log_scale(self) -> bool:
        """Whether the grid is geometric (an end at infinity, or an open end at 0 with a cap);
        else it steps on a log scale of the distance to each end."""
        return self.ends is not None or math.isinf(self.high) or (self.low == 0 and self.open_low
                                                                   and self.cap_low is not None)

    def values(self) -> np.ndarray:
        """The grid: each searched end, and distances to each end on a log scale."""
        low, high = self.searched_ends()
        if self.log_scale:
            return geometric(low, high, self.per_decade)
        width = self.high - self.low
        steps = math.ceil(self.per_decade * math.log10(0.5 / self.approach))
        distances = 0.5 * width * 10.0 ** (-np.arange(steps + 1) / self.per_decade)
        grid = np.concatenate([self.low + distances, self.high - distances, [low, high]])
        return np.unique(np.clip(grid, low, high))

    def line(self, low: float, high: float) -> np.ndarray:
        """The grid of a line from ``low`` to ``high`` (right-side ends found for an instance)."""
        return geometric(low, high, self.per_decade)

    def admissible(self) -> dict[str, Any]:
        """The domain the statement admits, as text and numbers."""
        text = (f"{'(' if self.open_low else '['}{_number_text(self.low)}, "
                f"{_number_text(self.high)}{')' if self.open_high or math.isinf(self.high) else ']'}")
        return {"text": text, "low": self.low if math.isfinite(self.low) else None,
                "high": self.high if math.isfinite(self.high) else None,
                "open_low": self.open_low, "open_high": self.open_high or math.isinf(self.high)}

    def ends_reached(self, tried: Sequence[float]) -> dict[str, str]:
        """Per end: reached (a closed end), approached (an open finite end, to ``approach``),
        the plan's cap (an end at infinity, or at 0 on a log grid), or not reached."""
        sides = {}
        low, high = self.searched_ends()
        for side, target, got, end, is_open in (("low", low, min(tried), self.low, self.open_low),
                                                 ("high", high, max(tried), self.high, self.open_high)):
            # A searched end within a part in 1e9 of its target counts as reached (grid rounding).
            if abs(got - target) > 1e-9 * max(abs(target), 1e-300):
                sides[side] = f"not reached: tried up to {got:g}, the plan's end is {target:g}"
            elif target == end:
                sides[side] = "reached"
            elif math.isinf(end) or (self.log_scale and end == 0):
                sides[side] = f"the plan's cap {target:g} (the admissible end is {_number_text(end)})"
            else:
                sides[side] = f"approached to {target:.17g} (open end {end:g})" if is_open else \
                    f"not reached: {target:g} instead of the closed end {end:g}"
        return sides


def geometric(low: float, high: float, per_decade: float) -> np.ndarray:
    """``low``, ``high`` and a geometric grid between them, ``per_decade`` points a decade."""
    if not 0 < low <= high:
        raise ValueError(f"a geometric grid needs 0 < low <= high, got {low!r}, {high!r}")
    count = max(2, math.ceil(per_decade * math.log10(high / low)) + 1)
    grid = np.exp(np.linspace(math.log(low), math.log(high), count))
    grid[0], grid[-1] = low, high
    return np.unique(grid)


@dataclass(frozen=True)
class Choice:
    """Every discrete choice the assumptions allow (laws, instances, algorithm variants).

    Parameters
    ----------
    options : sequence
        The choices, each JSON-ready (a string, a number).
    admissible_text : str, optional
        What the statement admits, in words, when the list is not self-explanatory.
    """

    options: tuple[Any, ...]
    admissible_text: str = ""

    kind = "choice"

    def __post_init__(self):
        object.__setattr__(self, "options", tuple(self.options))
        if not self.options:
            raise ValueError("options must name at least one choice")

    def values(self) -> list[Any]:
        """Every choice."""
        return list(self.options)

    def neighbours(self, value: Any) -> list[Any]:
        """The other choices."""
        return [v for v in self.options if v != value]

    def admissible(self) -> dict[str, Any]:
        """The choices the statement admits."""
        return {"text": self.admissible_text or "one of " + ", ".join(map(str, self.options)),
                "values": list(self.options)}

    def ends_reached(self, tried: Sequence[Any]) -> dict[str, str]:
        """Whether every choice was tried."""
        missing = [v for v in self.options if v not in set(tried)]
        return {"choices": "every choice tried" if not missing else f"not reached: {missing} not tried"}


Variable = Integers | Reals | Choice


class Domain(Mapping[str, Variable]):
    """The variables of a statement, in the order it names them.

    ``Domain(m=Integers(1, cap=2**16), eps=Reals(0, math.inf, open_low=True, ends=RightSideEnds()))``.
    At most one variable has right-side ends: the *line* variable, searched as one array per
    instance of the others (the *cell*).
    """

    def __init__(self, **variables: Variable):
        if not variables:
            raise ValueError("a domain needs at least one variable")
        bad = [k for k, v in variables.items() if not isinstance(v, Integers | Reals | Choice)]
        if bad:
            raise TypeError(f"variables {bad} must be Integers, Reals or Choice")
        lines = [k for k, v in variables.items() if isinstance(v, Reals) and v.ends is not None]
        if len(lines) > 1:
            raise ValueError(f"at most one variable may have right-side ends, got {lines}")
        self._variables = dict(variables)
        self.line: str | None = lines[0] if lines else None
        #: the variables other than the line variable (a cell of the search is one value of each).
        self.cell: list[str] = [k for k in variables if k != self.line]

    # A domain is the statement's own: compared and hashed by identity.
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __getitem__(self, name: str) -> Variable:
        return self._variables[name]

    def __iter__(self):
        return iter(self._variables)

    def __len__(self) -> int:
        return len(self._variables)

    def declared(self) -> dict[str, dict[str, Any]]:
        """Each variable's kind, admissible domain and search plan, JSON-ready (for ``iln-verify list``)."""
        out = {}
        for name, var in self._variables.items():
            plan: dict[str, Any]
            if isinstance(var, Integers):
                plan = {"values": len(var.values()), "searched": [var.low, var.end]}
            elif isinstance(var, Reals) and var.ends is not None:
                plan = {"ends": f"where the right side is {var.ends.top!r} and {var.ends.bottom!r} (bisection)",
                        "per_decade": var.per_decade, "ties": var.ties is not None}
            elif isinstance(var, Reals):
                low, high = var.searched_ends()
                plan = {"values": len(var.values()), "searched": [low, high], "ties": var.ties is not None}
            else:
                plan = {"values": len(var.values())}
            out[name] = {"kind": var.kind, "admissible": var.admissible(), "plan": plan}
        return out


def coverage(domain: Domain, tried: Mapping[str, Sequence[Any]], line_notes: str = "") -> dict[str, dict[str, Any]]:
    """What the search covered of each variable.

    Parameters
    ----------
    domain : Domain
    tried : mapping variable -> values
        Every value tried of each variable (for the line variable: the values of every line).
    line_notes : str
        How the line variable's ends were found (or where they were not).

    Returns
    -------
    dict
        Per variable: ``admissible`` (text and numbers), ``searched`` (the range, or the
        choices), ``values_tried``, ``ends`` (per end: reached, the plan's cap, or not
        reached, with the value) and ``covered`` (every end reached or capped by the plan).
    """
    out = {}
    for name, var in domain.items():
        values = list(tried.get(name, ()))
        if not values:
            out[name] = {"admissible": var.admissible(), "searched": None, "values_tried": 0,
                         "ends": {"all": "not searched"}, "covered": False}
            continue
        if name == domain.line:
            ends = {"line": line_notes or "found by bisection on the right side in every cell"}
            covered = not line_notes
        else:
            ends = var.ends_reached(values)
            covered = not any(v.startswith("not") for v in ends.values())
        if isinstance(var, Choice):
            searched: Any = sorted(set(values), key=list(var.values()).index)
        else:
            searched = [min(values), max(values)] if isinstance(var, Integers) else [float(min(values)), float(max(values))]
        out[name] = {"admissible": var.admissible(), "searched": searched,
                     "values_tried": len(set(values)), "ends": ends, "covered": covered}
    return out
