"""A right-hand side written as a formula string over a statement's variables.

``Formula("2 * exp(-m * eps**2 / (2 * a**2))")`` is parsed once with :mod:`ast` and may use
numbers, the statement's variables, ``+ - * / **``, and ``exp``, ``log``, ``sqrt``, ``min``,
``max``.  It evaluates with numpy broadcasting (:meth:`Formula.value`), and in log space
(:meth:`Formula.log_value`): products, quotients, powers, ``exp`` and ``sqrt`` are taken
apart into sums of logarithms, so that ``2 * exp(-m * eps**2)`` at ``m eps^2 = 10^4`` is
``log 2 - 10^4``, not ``log(0)``.  A bound of ``1e-300`` or ``1e-3000`` is then compared with
a left side held in log space without underflow.
"""

from __future__ import annotations

import ast
import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["FUNCTIONS", "Formula"]

#: the functions a formula may call, and what they evaluate to.
FUNCTIONS = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "min": np.minimum, "max": np.maximum}
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd)


def _check(text: str, tree: ast.Expression) -> None:
    """Refuse anything but numbers, variables, arithmetic and :data:`FUNCTIONS`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None)
            if name not in FUNCTIONS or node.keywords:
                raise ValueError(f"formula {text!r}: {ast.unparse(node)} calls something other than "
                                 f"{sorted(FUNCTIONS)}")
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                raise ValueError(f"formula {text!r}: {node.value!r} is not a number")
        elif isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise ValueError(f"formula {text!r}: variable names must not start with '_': {node.id}")
        elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Load, *_OPERATORS)):
            raise ValueError(f"formula {text!r}: {type(node).__name__} is not allowed "
                             f"(numbers, variables, + - * / **, {', '.join(sorted(FUNCTIONS))})")


def _value_source(node: ast.expr) -> str:
    return f"({ast.unparse(node)})"


def _log_source(node: ast.expr) -> str:
    """Python source of ``log(node)``, taken apart where a product or an ``exp`` allows it."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return f"({_log_source(node.left)} + {_log_source(node.right)})"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return f"({_log_source(node.left)} - {_log_source(node.right)})"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return f"({_value_source(node.right)} * {_log_source(node.left)})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd):
        return _log_source(node.operand)
    if isinstance(node, ast.Call) and len(node.args) == 1 and node.func.id == "exp":  # type: ignore[attr-defined]
        return _value_source(node.args[0])
    if isinstance(node, ast.Call) and len(node.args) == 1 and node.func.id == "sqrt":  # type: ignore[attr-defined]
        return f"(0.5 * {_log_source(node.args[0])})"
    if isinstance(node, ast.Call) and len(node.args) == 2 and node.func.id in ("min", "max"):  # type: ignore[attr-defined]
        return f"{node.func.id}({_log_source(node.args[0])}, {_log_source(node.args[1])})"  # type: ignore[attr-defined]
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return repr(math.log(node.value)) if node.value > 0 else "_nan"
    return f"log({_value_source(node)})"


@functools.cache
def _compiled(text: str) -> tuple[Any, Any, frozenset[str]]:
    tree = ast.parse(text.strip(), mode="eval")
    _check(text, tree)
    names = frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name)) - set(FUNCTIONS)
    value = compile(ast.unparse(tree), f"<formula {text}>", "eval")
    log = compile(_log_source(tree.body), f"<log of formula {text}>", "eval")
    return value, log, names


@dataclass(frozen=True)
class Formula:
    """A right-hand side as a formula string (see the module's docstring).

    Parameters
    ----------
    text : str
        The formula, in Python syntax: ``"exp(-m * eps**2 / a**2)"``.

    Raises
    ------
    ValueError
        If ``text`` is not a formula of numbers, variables, arithmetic and :data:`FUNCTIONS`.
    SyntaxError
        If ``text`` is not a Python expression.

    Examples
    --------
    >>> f = Formula("2 * exp(-m * eps**2 / 2)")
    >>> sorted(f.names)
    ['eps', 'm']
    >>> float(f.log_value({"m": 10_000, "eps": 2.0}))   # 2 exp(-20000): no underflow
    -19999.30685281944
    """

    text: str

    def __post_init__(self):
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError(f"text must be a non-empty formula string, got {self.text!r}")
        _compiled(self.text)

    @property
    def names(self) -> frozenset[str]:
        """The variables the formula reads."""
        return _compiled(self.text)[2]

    @property
    def tree(self) -> ast.Expression:
        """The formula's syntax tree (a fresh copy: callers may edit it)."""
        return ast.parse(self.text.strip(), mode="eval")

    def _env(self, env: Mapping[str, Any]) -> dict[str, Any]:
        missing = sorted(self.names - set(env))
        if missing:
            raise ValueError(f"formula {self.text!r} needs the variables {missing}")
        return {**FUNCTIONS, "_nan": math.nan, **{k: env[k] for k in self.names}}

    def value(self, env: Mapping[str, Any]) -> np.ndarray:
        """The formula's value at ``env`` (variable -> number or array), numpy broadcasting."""
        with np.errstate(all="ignore"):
            return np.asarray(eval(_compiled(self.text)[0], {"__builtins__": {}}, self._env(env)), dtype=float)

    def log_value(self, env: Mapping[str, Any]) -> np.ndarray:
        """The natural logarithm of the formula's value at ``env``, computed in log space.

        Where the taken-apart form is undefined (a negative factor), the logarithm of
        :meth:`value` is returned instead: ``nan`` where the value is negative.
        """
        scope = self._env(env)
        with np.errstate(all="ignore"):
            out = np.asarray(eval(_compiled(self.text)[1], {"__builtins__": {}}, scope), dtype=float)
            if np.isnan(out).any():
                out = np.where(np.isnan(out), np.log(self.value(env)), out)
        return out
