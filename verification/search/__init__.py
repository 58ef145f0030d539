"""Claims as specifications, one search engine (README, "Claims as specifications").

* :mod:`~verification.search.formula`: a right side as a formula string, in log space;
* :mod:`~verification.search.domain`: the variables a statement quantifies over, each with the
  domain the paper admits, and what a search covered of them;
* :mod:`~verification.search.specification`: a :class:`Statement` (domain, printed and
  corrected right sides, left side's evaluators, search plan);
* :mod:`~verification.search.search`: the instances of largest left side / right side;
* :mod:`~verification.search.decide`: exact decisions, and the implementation's conformance;
* :mod:`~verification.search.claim`: a statement as a catalog claim;
* :mod:`~verification.search.mutants`: statement mutants generated from the formulas.
"""

from verification.search.claim import as_claim, confirm, searched, searched_sides
from verification.search.decide import certify, decide
from verification.search.domain import Choice, Domain, Integers, Reals, RightSideEnds, coverage
from verification.search.formula import Formula
from verification.search.mutants import assess, generate
from verification.search.search import search, search_side
from verification.search.specification import (
    EXPECTATION,
    PRINTED,
    PROBABILITY,
    ExactValue,
    LeftSide,
    Plan,
    Statement,
    declared_domain,
    register_statement,
    registered,
    statement,
)

__all__ = ["EXPECTATION", "PRINTED", "PROBABILITY", "Choice", "Domain", "ExactValue", "Formula", "Integers", "LeftSide", "Plan", "Reals",
           "RightSideEnds", "Statement", "as_claim", "assess", "certify", "confirm", "coverage", "decide",
           "declared_domain", "generate", "register_statement", "registered", "search", "search_side", "searched",
           "searched_sides", "statement"]
