"""Error control over the claims of one run: Holm's step-down, as it is meant to be applied.

The claims of a run are one family: the run's family-wise false-alarm budget ``alpha``
(the probability that any true printed statement is declared violated) is kept by Holm's
step-down procedure on the p-values of the tests that decide each claim's violation
(each rule's p-value, :mod:`verification.rules`).  Sorting the p-values increasingly, the
claim of rank ``r`` is tested at ``alpha / (m - r + 1)``; claims are rejected in rank order
until the first p-value above its threshold, and none after it (statsmodels'
``multipletests(method="holm")`` decides).  A group of equal p-values is then rejected
together or not at all, at the threshold of its first rank, which is the rank it shares.  A
claim that Holm does not reject is decided at ``alpha / m`` (Bonferroni), the level that keeps
the family's false "holds" at most ``alpha`` too.

Only claims whose ``violated`` can be a false alarm belong to the family: an exact or
deterministic decision (the invariant rule, the search engine's exact decisions; a verdict's
``exact``) rejects a true statement with probability 0, so it takes no share of ``alpha`` and
``m`` does not count it (:func:`outside_family` records why).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Family", "holm_family", "outside_family"]

#: why an exact claim is not in the family, as its verdict records it.
EXACT_REASON = ("exact or deterministic decision: its violated verdict is a computed fact, not a test "
                "that can raise a false alarm, so it takes no share of the family-wise alpha")


@dataclass(frozen=True)
class Family:
    """Holm's decisions for one run's claims, in input order.

    Attributes
    ----------
    alpha : float
        The family-wise false-alarm budget.
    size : int
        The number of claims in the family.
    ranks : tuple of int
        Each claim's rank (1 = smallest p-value; tied claims share the first rank of the tie).
    reject : tuple of bool
        Whether Holm's step-down rejects each claim's printed statement.
    levels : tuple of float
        The alpha each claim is decided at: its rank's threshold when rejected, else
        ``alpha / size``.
    """

    alpha: float
    size: int
    ranks: tuple[int, ...]
    reject: tuple[bool, ...]
    levels: tuple[float, ...]

    def describe(self, i: int) -> dict:
        """The family of claim ``i`` as a verdict records it."""
        return {"alpha": self.alpha, "size": self.size, "member": True, "rank": self.ranks[i],
                "holm_rejects": self.reject[i], "level": self.levels[i]}


def outside_family(alpha: float, size: int) -> dict:
    """The family record of an exact claim: the run's family (``alpha``, its ``size``) that it
    is not a member of, and why."""
    return {"alpha": alpha, "size": size, "member": False, "rank": None, "level": None, "why": EXACT_REASON}


def holm_family(pvalues: Sequence[float], alpha: float) -> Family:
    """Holm's step-down over ``pvalues`` at family-wise level ``alpha``.

    Examples
    --------
    >>> holm_family([0.01, 0.04, 0.03, 0.005], 0.05).reject
    (True, False, False, True)
    >>> holm_family([0.02, 0.02], 0.05).reject  # a tie is tested at the first rank's 0.025
    (True, True)
    >>> holm_family([0.03, 0.03], 0.05).reject
    (False, False)
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    p = [float(v) for v in pvalues]
    if not p:
        raise ValueError("pvalues must not be empty")
    if any(not 0.0 <= v <= 1.0 for v in p):
        raise ValueError(f"pvalues must lie in [0, 1], got {p}")
    # Imported here: statsmodels takes about a second to import, which every trial worker
    # importing the rules would pay for this one call per run.
    from statsmodels.stats.multitest import multipletests

    m = len(p)
    reject = tuple(bool(r) for r in multipletests(p, alpha=alpha, method="holm")[0])
    # A tie shares the first rank of its group: one more than the p-values below it.
    ranks = [1 + sum(q < v for q in p) for v in p]
    levels = tuple(alpha / (m - ranks[i] + 1) if reject[i] else alpha / m for i in range(m))
    return Family(alpha=alpha, size=m, ranks=tuple(ranks), reject=reject, levels=levels)
