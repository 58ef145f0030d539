"""Statement mutants generated from the registered specifications (issue 41, item 5).

For every claim that is a specification (:func:`verification.search.specification.statement`
finds it by id), :func:`claim_mutants` generates the mutants of one of its right sides
(:func:`verification.search.mutants.generate`: each constant halved and doubled, each prefactor
dropped, each exponent doubled and halved, each ``log`` weakened) and assesses them
(:func:`verification.search.mutants.assess`): which tighten the statement, which of those are
false (an exact search finds an instance beyond the mutant's bound), and which the claim's own
search and exact decision detect; the survivors are named with the reason.

The side mutated is the one the claim's pre-registered expectation says holds: the printed
statement of a claim expected to hold, the first correction of one expected to hold after
correction.  A claim expected violated has no side expected to hold: its printed statement is
mutated, and the entry says that its tightening mutants are false wherever the statement is,
so that detecting them shows only that the search still finds a violation.

:func:`generated_mutants` gathers the claims' entries into ``summary.json``'s
``selftest.statement_mutants.generated``: computed from the specifications, deterministic (the
plans' seeds), with no trial of the implementation.  It is built beside the hand-written
mutants of :mod:`verification.selftest.statements`, which stay until every claim is a
specification.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from verification import catalog
from verification.search import assess, specification
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION

__all__ = ["RULE", "claim_mutants", "generated_mutants", "mutated_side"]

RULE = ("generated from the specification's right side (verification.search.mutants): each tightening mutant "
        "is false when the claim's search or a denser one (four times the budget, another seed) finds an "
        "instance beyond its bound, decided exactly; it is detected when the claim's own search and exact "
        "decision find it violated; a false mutant not detected is a gap of the check")


def mutated_side(spec: specification.Statement, expected: str) -> tuple[str, str]:
    """The right side whose mutants are assessed, and why that one (module docstring)."""
    if expected == HOLDS:
        return specification.PRINTED, "the printed statement, expected to hold"
    if expected == HOLDS_AFTER_CORRECTION and spec.corrected:
        side = next(iter(spec.corrected))
        return side, f"the correction {side!r}, expected to hold (the printed statement is expected violated)"
    return specification.PRINTED, (f"the printed statement (expected {expected}: no side is expected to hold, so "
                                   "its tightening mutants are false wherever it is, and detecting them shows "
                                   "only that the search still finds a violation)")


@functools.cache
def claim_mutants(claim_id: str) -> dict[str, Any]:
    """The generated mutants of one specification: :func:`verification.search.mutants.assess`'s
    table of its :func:`mutated_side`, with the side and why, and the claim's expectation.

    Raises
    ------
    KeyError
        ``claim_id`` is not a registered specification.
    """
    spec = specification.statement(claim_id)
    expected = catalog.get(claim_id).expected
    side, why = mutated_side(spec, expected)
    return {**assess(spec, side), "expected": expected, "why_this_side": why}


def generated_mutants(claim_ids: Iterable[str]) -> dict[str, Any]:
    """``summary.json``'s ``selftest.statement_mutants.generated`` for the given claims.

    Parameters
    ----------
    claim_ids : iterable of str
        Claims of the catalog; those that are not specifications are listed apart.

    Returns
    -------
    dict
        ``rule``; ``by_claim`` (claim id -> :func:`claim_mutants`); the totals ``generated``,
        ``tightening``, ``false`` and ``detected``; ``survivors`` (claim, formula, reason:
        every tightening mutant not detected, false or not); ``claims_without_specification``.
    """
    ids = list(dict.fromkeys(claim_ids))
    by_claim = {c: claim_mutants(c) for c in ids if specification.declared_domain(c) is not None}
    totals = {k: sum(e[k] for e in by_claim.values()) for k in ("generated", "tightening", "false", "detected")}
    survivors = [{"claim": c, **s} for c, e in by_claim.items() for s in e["survivors"]]
    return {"rule": RULE, **totals, "survivors": survivors, "by_claim": by_claim,
            "claims_without_specification": [c for c in ids if c not in by_claim]}
