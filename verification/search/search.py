"""The search engine: the instances of largest left side / right side over a declared domain.

For one right side of a :class:`~verification.search.specification.Statement` (printed first,
then each corrected one, each its own search), :func:`search_side` evaluates the statement's
exact left side, in log space, at *cells* (an instance of every variable but the line
variable) and, within each cell, at every value of the line variable at once:

1. the **coarse product**: a few values of each variable (both searched ends among them), every
   choice, smallest values first, within the plan's budget of cells;
2. **sweeps**: from each of the best cells, every value of every variable in turn (every
   integer of the first sixteen, the ladder to the end or the cap, the whole log grid of each
   real, the ties);
3. **local refinement**: bounded Brent (:func:`scipy.optimize.minimize_scalar`) on the log
   ratio along each continuous variable, from the best cells;
4. a **seeded local search** (numpy's generator, seeded from the plan: the same steps on any
   machine and release): random moves to neighbouring values, kept when the ratio does not
   fall;
5. a **shrink** of the smallest violation: each integer variable lowered to the smallest value
   at which the instance still violates, as a shrinker does (hypothesis, QuickCheck).

The line variable (a tail bound's deviation) runs, in each cell, from where the right side
is within 1e-12 of 1 to where it is 1e-300 (bisection in log space), on a log grid, with the
values exactly at, just below and just above every tie the statement names.

The result records per variable the admissible domain, the range searched and the values
tried (:func:`verification.search.domain.coverage`), the best instances with their left and
right sides and ratio, the smallest violation (smallest integers first: the counterexample a
shrinker would reach), and the time taken.  It is deterministic given the plan's seed.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize_scalar

from verification.search.domain import Choice, Integers, Reals, RightSideEnds, coverage
from verification.search.formula import Formula
from verification.search.specification import Statement

__all__ = ["LOG_TOLERANCE", "Probe", "SideSearch", "coarse_probes", "order_key", "search", "search_side"]

#: ratios within this of 1 in log space are ties with the bound, not violations.
LOG_TOLERANCE = 1e-9
#: the left sides a trial's frequency tests both ways: each side also keeps its worst instance
#: with an exact left side in this range, where sampling checks the implementation's law.
SAMPLEABLE = (0.05, 0.95)
#: how many values of an integer variable, from its smallest, the shrink stage tries in turn.
SHRINK_SCAN = 64
#: the bracket in which right-side ends are bisected, for a variable without finite ends.
_BRACKET = (1e-300, 1e300)


def _plain(value: Any) -> Any:
    """A JSON-ready Python scalar."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def _exp(log: float) -> float | None:
    """``exp(log)``, None where it overflows (the log says how large: JSON has no inf)."""
    return math.exp(log) if log < 709 else None


@dataclass(frozen=True)
class Probe:
    """One instance: every variable's value, the left and right sides (natural logs)."""

    point: dict[str, Any]
    log_lhs: float
    log_rhs: float

    @property
    def log_ratio(self) -> float:
        """log(lhs / rhs); minus infinity where the left side is 0."""
        if self.log_lhs == -math.inf:
            return -math.inf
        return self.log_lhs - self.log_rhs

    def to_json(self) -> dict[str, Any]:
        """The instance as JSON: its point, both sides and their ratio."""
        finite = [None if not math.isfinite(v) else v for v in (self.log_lhs, self.log_rhs, self.log_ratio)]
        return {"point": {k: _plain(v) for k, v in self.point.items()},
                "lhs": _exp(self.log_lhs), "rhs": _exp(self.log_rhs), "ratio": _exp(self.log_ratio),
                "log_lhs": finite[0], "log_rhs": finite[1], "log_ratio": finite[2],
                "log10_ratio": None if finite[2] is None else finite[2] / math.log(10), "evaluator": "exact"}


@dataclass
class SideSearch:
    """The search of one right side: best instances, smallest violation, coverage, effort."""

    side: str
    formula: str
    best: list[Probe]
    smallest_violation: Probe | None
    sampleable: Probe | None
    coverage: dict[str, dict[str, Any]]
    cells: int
    probes: int
    stages: dict[str, int]
    exhausted: bool
    elapsed_s: float = field(default=math.nan, compare=False)

    @property
    def covered(self) -> list[str]:
        """The variables not covered to each end (empty when all are)."""
        return [k for k, v in self.coverage.items() if not v["covered"]]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, without the elapsed time (a configuration must not change run to run)."""
        return {"side": self.side, "formula": self.formula, "best": [p.to_json() for p in self.best],
                "smallest_violation": None if self.smallest_violation is None else self.smallest_violation.to_json(),
                "sampleable": None if self.sampleable is None else self.sampleable.to_json(),
                "coverage": self.coverage, "cells": self.cells, "probes": self.probes, "stages": self.stages,
                "budget_exhausted": self.exhausted}


def order_key(spec: Statement, point: Mapping[str, Any]) -> tuple:
    """Smaller counterexamples first: integers by value, choices by position, in the domain's order."""
    key = []
    for name, var in spec.domain.items():
        if isinstance(var, Integers):
            key.append(point[name])
        elif isinstance(var, Choice):
            key.append(var.options.index(point[name]))
    return tuple(key)


def _coarse(values: list[Any], count: int) -> list[Any]:
    """``count`` values spread evenly by position, both extremes among them."""
    if len(values) <= count:
        return list(values)
    picks = np.unique(np.round(np.linspace(0, len(values) - 1, count)).astype(int))
    return [values[i] for i in picks]


class _Searcher:
    """The state of one side's search: the cells evaluated, the values tried, the best found."""

    def __init__(self, spec: Statement, side: str):
        self.spec, self.side = spec, side
        self.formula = Formula(spec.sides()[side])
        self.domain, self.plan = spec.domain_of(side), spec.plan
        self.cells: dict[tuple, Probe] = {}
        self.tried: dict[str, set] = {k: set() for k in self.domain.cell}
        self.line_range = [math.inf, -math.inf]
        self.line_notes: list[str] = []
        self.probes = 0
        self.smallest: Probe | None = None
        self.sampleable: Probe | None = None
        self.exhausted = False
        self._ends: dict[tuple, tuple[float, float]] = {}

    # -- one cell -----------------------------------------------------------------------
    def evaluate(self, cell: Mapping[str, Any]) -> float:
        """The largest log ratio over the cell's line (the cell's only probe without one)."""
        key = tuple(_plain(cell[k]) for k in self.domain.cell)
        if key in self.cells:
            return self.cells[key].log_ratio
        if len(self.cells) >= self.plan.budget:
            self.exhausted = True
            return -math.inf
        cell = dict(zip(self.domain.cell, key, strict=True))
        line = self.domain.line
        env = self.line_of(cell)
        shape = np.shape(env[line]) if line is not None else ()
        log_lhs = np.broadcast_to(np.asarray(self.spec.lhs.exact(env), dtype=float), shape)
        log_rhs = np.broadcast_to(self.formula.log_value(env), shape)
        with np.errstate(invalid="ignore"):
            ratio = np.where(log_lhs == -np.inf, -np.inf, log_lhs - log_rhs)
        ratio = np.where(np.isnan(ratio), -np.inf, ratio)
        self._record(cell, env, log_lhs, log_rhs, ratio)
        return self.cells[key].log_ratio

    def _record(self, cell, env, log_lhs, log_rhs, ratio) -> None:
        line = self.domain.line
        i = int(np.argmax(ratio)) if np.ndim(ratio) else 0

        def probe(j):
            point = {**cell, line: float(env[line][j])} if line is not None else dict(cell)
            return Probe(point, float(np.ravel(log_lhs)[j]), float(np.ravel(log_rhs)[j]))

        self.cells[tuple(cell.values())] = probe(i)
        self.probes += int(np.size(ratio))
        for k, v in cell.items():
            self.tried[k].add(v)
        if line is not None:
            self.line_range = [min(self.line_range[0], float(env[line][0])), max(self.line_range[1], float(env[line][-1]))]
        flat_lhs = np.ravel(log_lhs)
        inside = (flat_lhs >= math.log(SAMPLEABLE[0])) & (flat_lhs <= math.log(SAMPLEABLE[1]))
        if inside.any():
            j = int(np.argmax(np.where(inside, np.ravel(ratio), -np.inf)))
            if self.sampleable is None or np.ravel(ratio)[j] > self.sampleable.log_ratio:
                self.sampleable = probe(j)
        if np.any(np.ravel(ratio) > LOG_TOLERANCE):
            candidate = probe(i)
            if self.smallest is None or (order_key(self.spec, cell), -candidate.log_ratio) < (
                    order_key(self.spec, self.smallest.point), -self.smallest.log_ratio):
                self.smallest = candidate

    def _line_variable(self) -> tuple[str, Reals, RightSideEnds]:
        name = self.domain.line
        var = self.domain[name] if name is not None else None
        if name is None or not isinstance(var, Reals) or var.ends is None:
            raise ValueError(f"statement {self.spec.id}: its domain has no line variable (a Reals with ends)")
        return name, var, var.ends

    def _line(self, cell: Mapping[str, Any]) -> np.ndarray:
        """The line variable's values in a cell: its log grid between the right side's ends and the ties."""
        var = self._line_variable()[1]
        low, high = self._line_ends(cell)
        values = [var.line(low, high)]
        if var.ties is not None:
            ties = np.asarray(var.ties(cell), dtype=float)
            ties = ties[(ties >= low) & (ties <= high)]
            if ties.size > 64:
                # Too many to try them all: the tie just above each grid value.
                ties = ties if np.all(ties[1:] >= ties[:-1]) else np.sort(ties)
                ties = np.unique(ties[np.minimum(np.searchsorted(ties, values[0]), ties.size - 1)])
            offset = self.plan.tie_offset
            values += [ties, ties * (1 - offset), ties * (1 + offset)]
        out = np.unique(np.concatenate(values))
        return out[(out >= low) & (out <= high)]

    def _line_ends(self, cell: Mapping[str, Any]) -> tuple[float, float]:
        """Where the right side is ``top`` and ``bottom``: bisection on its log, in log space."""
        name, var, target = self._line_variable()
        key = tuple(_plain(cell[k]) for k in sorted(self.formula.names - {name}))
        if key in self._ends:
            return self._ends[key]
        low, high = max(var.low, _BRACKET[0]), min(var.high, _BRACKET[1])
        levels = np.log([target.top, target.bottom])[:, None]
        lo, hi = np.full(2, math.log(low)), np.full(2, math.log(high))

        def above(u: np.ndarray) -> np.ndarray:  # rows: the two levels
            return self.formula.log_value({**cell, name: np.exp(u)}) >= levels

        bracketed = np.array([above(lo[:, None])[0, 0], not above(hi[:, None])[1, 0]])
        # Multisection in log space: 1024 points a round shrink the bracket 1023-fold, so five
        # rounds take the 1381-wide bracket below a part in 1e12 of the end.
        for _ in range(6):
            grid = np.linspace(lo, hi, 1024, axis=1)
            last = np.maximum(np.sum(above(grid), axis=1) - 1, 0)
            rows = np.arange(2)
            lo, hi = grid[rows, last], grid[rows, np.minimum(last + 1, 1023)]
        ends = (float(np.exp(lo[0])) if bracketed[0] else low, float(np.exp(hi[1])) if bracketed[1] else high)
        ends = (min(ends), max(ends))
        for ok, level, where in zip(bracketed, (target.top, target.bottom), ("low", "high"), strict=True):
            if not ok:
                self.line_notes.append(f"{name}: the right side does not cross {level:g} in [{low:g}, {high:g}] "
                                       f"at {dict(cell)} ({where} end taken at the bracket)")
        self._ends[key] = ends
        return ends

    # -- stages ---------------------------------------------------------------------------
    def ranked(self, count: int) -> list[dict[str, Any]]:
        """The ``count`` best cells, largest ratio first, smaller counterexamples first on ties."""
        order = sorted(self.cells.values(), key=lambda p: (-p.log_ratio, order_key(self.spec, p.point)))
        return [{k: p.point[k] for k in self.domain.cell} for p in order[:count]]

    def coarse_cells(self) -> list[dict[str, Any]]:
        """The coarse product: a few values of each variable, every choice, smallest first."""
        names = self.domain.cell
        grids = [(self.domain[k].values() if isinstance(self.domain[k], Choice)
                  else _coarse(list(self.domain[k].values()), self.plan.coarse)) for k in names]
        return [dict(zip(names, values, strict=True)) for values in itertools.product(*grids)]

    def coarse(self) -> None:
        for cell in self.coarse_cells():
            self.evaluate(cell)

    def line_of(self, cell: Mapping[str, Any]) -> dict[str, Any]:
        """The cell with its line variable's values (an array), as the evaluators take it."""
        line = self.domain.line
        return {**cell, line: self._line(cell)} if line is not None else dict(cell)

    def sweep(self) -> None:
        for cell in self.ranked(self.plan.sweeps):
            for name in self.domain.cell:
                var = self.domain[name]
                values = list(var.values())
                if isinstance(var, Reals) and var.ties is not None:
                    values += list(var.ties({k: v for k, v in cell.items() if k != name}))
                for value in values:
                    self.evaluate({**cell, name: value})

    def refine(self) -> None:
        """Bounded Brent along each continuous variable, between its grid neighbours, twice."""
        for cell in self.ranked(self.plan.restarts):
            for _ in range(2):
                for name in [k for k in self.domain.cell if isinstance(self.domain[k], Reals)]:
                    cell = self._refine_along(cell, name)

    def _refine_along(self, cell: dict[str, Any], name: str) -> dict[str, Any]:
        var = self.domain[name]
        assert isinstance(var, Reals)
        grid = np.asarray(var.values())
        i = int(np.searchsorted(grid, cell[name]))
        low, high = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
        # A ratio of +-inf (a left side of 0, or a right side of 0: an inclusion's bound) has no
        # slope to follow; Brent's arithmetic on it would only produce nan.
        if not low < high or not math.isfinite(self.evaluate(cell)):
            return cell
        scale = np.log if var.log_scale else (lambda x: x)
        back = np.exp if var.log_scale else (lambda x: x)
        with np.errstate(invalid="ignore", over="ignore"):  # a neighbour's ratio may be infinite
            result = minimize_scalar(lambda u: -self.evaluate({**cell, name: float(np.clip(back(u), low, high))}),
                                     bounds=(float(scale(low)), float(scale(high))), method="bounded",
                                     # a part in 1e6 of the bracket: the ties, not this, find a jump's edge.
                                     options={"xatol": 1e-6 * float(scale(high) - scale(low)), "maxiter": 25})
        best = {**cell, name: float(np.clip(back(result.x), low, high))}
        return best if self.evaluate(best) >= self.evaluate(cell) else cell

    def local(self, index: int) -> None:
        """A seeded local search from each of the best cells: moves kept when the ratio does not fall."""
        rng = np.random.default_rng([self.plan.seed, index])
        for cell in self.ranked(self.plan.restarts):
            current = self.evaluate(cell)
            for _ in range(self.plan.local_steps):
                name = self.domain.cell[int(rng.integers(len(self.domain.cell)))]
                proposal = {**cell, name: self._move(name, cell[name], rng)}
                value = self.evaluate(proposal)
                if value >= current:
                    cell, current = proposal, value

    def shrink(self) -> None:
        """From the smallest violation, each integer variable lowered to the smallest value at
        which the cell still violates, the others fixed, until no variable moves (a shrinker's
        passes: the counterexample reported is the smallest this reaches, not a grid's).

        Values from the variable's ``low`` up are tried in turn (:data:`SHRINK_SCAN` of them),
        then the ladder's rungs, and between the last rung that holds and the first that
        violates a bisection; within the plan's budget of cells, never exhausting it.
        """
        for _ in range(3):
            if self.smallest is None:
                return
            start = {k: self.smallest.point[k] for k in self.domain.cell}
            cell = dict(start)
            for name in [k for k in self.domain.cell if isinstance(self.domain[k], Integers)]:
                cell[name] = self._smallest_violating(cell, name)
            if cell == start:
                return

    def _smallest_violating(self, cell: dict[str, Any], name: str) -> int:
        var = self.domain[name]
        assert isinstance(var, Integers)  # the shrink stage lowers integers only
        current = int(cell[name])
        candidates = [v for v in range(var.low, min(current, var.low + SHRINK_SCAN))]
        candidates += [v for v in var.values() if var.low + SHRINK_SCAN <= v < current]
        holds_at = var.low - 1
        for value in candidates:
            if len(self.cells) >= self.plan.budget:
                return current
            if self.evaluate({**cell, name: value}) > LOG_TOLERANCE:
                current = value
                break
            holds_at = value
        while current - holds_at > 1 and len(self.cells) < self.plan.budget:  # between a rung that holds and one that fails
            middle = (current + holds_at) // 2
            if self.evaluate({**cell, name: middle}) > LOG_TOLERANCE:
                current = middle
            else:
                holds_at = middle
        return current

    def _move(self, name: str, value: Any, rng: np.random.Generator) -> Any:
        var = self.domain[name]
        if isinstance(var, Integers | Choice):
            options = var.neighbours(value)
            return options[int(rng.integers(len(options)))] if options else value
        low, high = var.searched_ends()
        if var.log_scale:
            return float(np.clip(value * math.exp(rng.normal(0.0, 0.5)), low, high))
        # The distance to the nearer end, moved on a log scale: ends are approached as on the grid.
        nearer = var.low if value - var.low <= var.high - value else var.high
        distance = abs(value - nearer) * math.exp(rng.normal(0.0, 1.0))
        moved = nearer + distance if nearer == var.low else nearer - distance
        return float(np.clip(moved, low, high))

    def result(self, elapsed: float, stages: dict[str, int]) -> SideSearch:
        tried: dict[str, Any] = {k: sorted(v, key=lambda x: (str(type(x)), x)) for k, v in self.tried.items()}
        line = self.domain.line
        if line is not None and math.isfinite(self.line_range[0]):
            tried[line] = self.line_range
        cover = coverage(self.domain, tried, "; ".join(dict.fromkeys(self.line_notes)))
        if line is not None and line in cover:
            cover[line]["values_tried"] = self.probes
        best = [self.cells[tuple(_plain(c[k]) for k in self.domain.cell)] for c in self.ranked(self.plan.best)]
        return SideSearch(self.side, self.formula.text, best, self.smallest, self.sampleable, cover, len(self.cells), self.probes,
                          stages, self.exhausted, elapsed)


def search_side(spec: Statement, side: str, index: int = 0) -> SideSearch:
    """The search of one right side of ``spec`` (see the module's docstring).

    Parameters
    ----------
    spec : Statement
    side : str
        ``"printed"`` or the name of a corrected side.
    index : int
        The side's position, which seeds its local search apart from the other sides'.
    """
    if side not in spec.sides():
        raise ValueError(f"side must be one of {list(spec.sides())}, got {side!r}")
    start = time.perf_counter()
    searcher = _Searcher(spec, side)
    stages = {}
    for stage in ("coarse", "sweep", "refine", "local", "shrink"):
        before = len(searcher.cells)
        if stage == "local":
            searcher.local(index)
        else:
            getattr(searcher, stage)()
        stages[stage] = len(searcher.cells) - before
    return searcher.result(time.perf_counter() - start, stages)


def coarse_probes(spec: Statement, side: str) -> list[dict[str, Any]]:
    """The instances of ``side``'s coarse product, each with its line of values (an array)."""
    searcher = _Searcher(spec, side)
    return [searcher.line_of(cell) for cell in searcher.coarse_cells()]


def search(spec: Statement) -> dict[str, SideSearch]:
    """Every right side of ``spec`` searched, printed first."""
    return {side: search_side(spec, side, i) for i, side in enumerate(spec.sides())}
