"""Statement mutants generated from a specification's formulas, and whether its check rejects them.

:func:`generate` edits a right side's syntax tree (:mod:`ast`) in every way the issue lists:

* each numeric constant (not an exponent) halved and doubled;
* each multiplicative prefactor (a factor free of variables) dropped;
* each exponent (of ``**`` and the argument of ``exp``) doubled and halved;
* each ``log(...)`` divided by 4 (``log(1/delta)`` weakened to ``log(1/delta) / 4``).

:func:`assess` keeps the mutants that *tighten* the statement (their right side is below the
statement's somewhere on the coarse probes) and are not equivalent to an earlier one there,
then establishes which are false: a search with a denser plan (four times the budget, twice
the sweeps, restarts and local steps) or the claim's own search finds an instance that
exceeds the mutant's bound, decided exactly.  The claim's check *detects* a mutant when its
own search (the plan the claim runs) and exact decision find it violated.  Survivors are
listed with the reason: true over the denser search (not a defect of the check), or false
but missed by the claim's plan.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from verification.search.decide import side_verdict
from verification.search.formula import Formula
from verification.search.search import coarse_probes, search_side
from verification.search.specification import Statement
from verification.verdicts import VIOLATED

__all__ = ["Mutant", "assess", "generate"]


@dataclass(frozen=True)
class Mutant:
    """A right side edited once: what was edited, how, and the resulting formula."""

    kind: str
    edit: str
    formula: str


def _halved(value: float) -> float:
    """``value / 2``, an integer while it is one (``2 -> 1``, not ``1.0``)."""
    return value // 2 if isinstance(value, int) and value % 2 == 0 else value / 2


def _variable_free(node: ast.AST) -> bool:
    return not any(isinstance(n, ast.Name) for n in ast.walk(node))


def _edits(node: ast.AST, parent: ast.AST | None) -> Iterator[tuple[str, str, ast.expr]]:
    """(kind, description, replacement) for every edit of ``node`` itself."""
    exponent_of = isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Pow) and parent.right is node
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not exponent_of:
        half = _halved(node.value)
        yield "constant halved", f"{node.value!r} -> {half!r}", ast.Constant(half)
        yield "constant doubled", f"{node.value!r} -> {node.value * 2!r}", ast.Constant(node.value * 2)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            if _variable_free(factor):
                yield "prefactor dropped", f"{ast.unparse(factor)} dropped from {ast.unparse(node)}", copy.deepcopy(other)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        for kind, new in (("exponent doubled", _scaled(node.right, 2)), ("exponent halved", _scaled(node.right, 0.5))):
            power = ast.BinOp(left=copy.deepcopy(node.left), op=ast.Pow(), right=new)
            yield kind, f"{ast.unparse(node)} -> {ast.unparse(power)}", power
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "exp":
        for kind, new in (("exponent doubled", _scaled(node.args[0], 2)), ("exponent halved", _scaled(node.args[0], 0.5))):
            call = ast.Call(func=ast.Name("exp", ast.Load()), args=[new], keywords=[])
            yield kind, f"{ast.unparse(node)} -> {ast.unparse(call)}", call
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "log":
        weakened = ast.BinOp(left=copy.deepcopy(node), op=ast.Div(), right=ast.Constant(4))
        yield "log weakened", f"{ast.unparse(node)} -> {ast.unparse(weakened)}", weakened


def _scaled(node: ast.expr, factor: float) -> ast.expr:
    """``node`` times ``factor`` (2 or 1/2): a number folded, an expression multiplied or divided."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return ast.Constant(node.value * 2 if factor == 2 else _halved(node.value))
    op: ast.operator = ast.Mult() if factor == 2 else ast.Div()
    return ast.BinOp(left=copy.deepcopy(node), op=op, right=ast.Constant(2))


class _Replace(ast.NodeTransformer):
    """Replace the ``index``-th node of :func:`ast.walk`'s order by ``new``."""

    def __init__(self, target: ast.AST, new: ast.expr):
        self.target, self.new = target, new

    def visit(self, node: ast.AST) -> Any:
        return self.new if node is self.target else self.generic_visit(node)


def generate(text: str) -> list[Mutant]:
    """Every single edit of the right side ``text`` (see the module's docstring), in the
    order of the formula's syntax tree; each result is a valid formula."""
    tree = Formula(text).tree
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out = []
    for index, node in enumerate(ast.walk(tree)):
        for kind, edit, replacement in _edits(node, parents.get(node)):
            fresh = Formula(text).tree
            target = list(ast.walk(fresh))[index]
            mutated = _Replace(target, replacement).visit(fresh)
            formula = ast.unparse(ast.fix_missing_locations(mutated))
            Formula(formula)  # a mutant is a formula the engine evaluates, or a bug of this module
            out.append(Mutant(kind, edit, formula))
    return out


def _log_sides(spec: Statement, formulas: list[str], side: str) -> np.ndarray:
    """Each formula's log right side at the coarse probes of ``side``'s search (rows: formulas)."""
    line = spec.domain.line
    rows: list[list[np.ndarray]] = [[] for _ in formulas]
    for env in coarse_probes(spec, side):
        shape = np.shape(env[line]) if line is not None else ()
        for row, text in zip(rows, formulas, strict=True):
            row.append(np.ravel(np.broadcast_to(Formula(text).log_value(env), shape)))
    return np.array([np.concatenate(r) for r in rows])


def _dense(spec: Statement) -> Statement:
    plan = spec.plan
    return replace(spec, plan=replace(plan, budget=4 * plan.budget, sweeps=2 * plan.sweeps,
                                      restarts=2 * plan.restarts, local_steps=2 * plan.local_steps,
                                      seed=plan.seed + 1))


def _verdict(spec: Statement, side: str) -> dict[str, Any]:
    return side_verdict(spec, side, search_side(spec, side).to_json())


def assess(spec: Statement, side: str, decide: Callable[[Statement, str], dict] = _verdict) -> dict[str, Any]:
    """The mutants table of one right side of ``spec`` (see the module's docstring).

    Parameters
    ----------
    spec : Statement
    side : str
        The right side the mutants edit: the one the claim's expected verdict says holds.
    decide : callable ``(statement, side) -> side verdict``
        The claim's check of one side (default: its own search and exact decision).

    Returns
    -------
    dict
        ``generated``, ``tightening``, ``false``, ``detected`` (counts), ``mutants`` (each
        with its formula, what it edits, whether it tightens, is false, is detected, its
        witness) and ``survivors`` (name, reason).
    """
    candidates = generate(spec.sides()[side])
    logs = _log_sides(spec, [spec.sides()[side], *[m.formula for m in candidates]], side)
    rows: list[dict[str, Any]] = []
    kept: list[int] = []
    for i, mutant in enumerate(candidates):
        row: dict[str, Any] = {"kind": mutant.kind, "edit": mutant.edit, "formula": mutant.formula}
        # Where a right side is undefined (a denominator at or below 0: its log is nan or
        # infinite) the comparison is False: no mutant tightens a statement there.
        with np.errstate(invalid="ignore"):
            tighter = bool(np.any(logs[i + 1] < logs[0] - 1e-12 * np.maximum(1.0, np.abs(logs[0]))))
        twin = next((kept_i for kept_i in kept if np.allclose(logs[i + 1], logs[kept_i + 1], rtol=1e-12, atol=0)), None)
        row["tightens"] = tighter
        if not tighter:
            row["status"] = "dropped: its right side is nowhere below the statement's on the coarse probes"
        elif twin is not None:
            row["status"] = f"dropped: equal on the coarse probes to {candidates[twin].formula}"
        else:
            kept.append(i)
            row.update(_judge(spec, side, mutant.formula, decide))
        rows.append(row)
    judged = [r for r in rows if "false" in r]
    survivors = [{"formula": r["formula"], "reason": r["reason"]} for r in judged if not r["detected"]]
    return {"claim": spec.id, "side": side, "statement": spec.sides()[side], "generated": len(candidates),
            "tightening": len(judged), "false": sum(r["false"] for r in judged),
            "detected": sum(r["detected"] for r in judged), "mutants": rows, "survivors": survivors}


def _judge(spec: Statement, side: str, formula: str, decide: Callable[[Statement, str], dict]) -> dict[str, Any]:
    """Whether a tightening mutant is false (a witness from either search) and detected (the claim's own)."""
    mutated = spec.with_side(side, formula)
    own = decide(mutated, side)
    dense = own if own["verdict"] == VIOLATED else _verdict(_dense(mutated), side)
    witness = own if own["verdict"] == VIOLATED else dense if dense["verdict"] == VIOLATED else None
    out = {"false": witness is not None, "detected": own["verdict"] == VIOLATED,
           "witness": None if witness is None else (witness["smallest_violation"] or witness["worst"])}
    if witness is None:
        worst = dense["worst"]
        out["reason"] = (f"true over the denser search: largest ratio 10^{worst['log10_ratio']:.3g} at "
                         f"{worst['point']}" if worst["log10_ratio"] is not None else "its left side is 0 everywhere")
    elif not out["detected"]:
        out["reason"] = f"false (witness {out['witness']['point']}), but the claim's search found no violation"
    else:
        out["reason"] = None
    return out
