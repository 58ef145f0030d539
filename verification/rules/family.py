"""Error control over the claims of one run: Holm's step-down, as it is meant to be applied.

The claims of a run are one family: the run's family-wise false-alarm budget ``alpha``
(the probability that any true printed statement is declared violated) is kept by Holm's
step-down procedure on the p-values of the tests that decide each claim's violation
(each rule's p-value, :mod:`verification.rules`).  Sorting the p-values increasingly, the
claim of rank ``r`` is tested at ``alpha / (m - r + 1)``; claims are rejected in rank order
until the first p-value above its threshold, and none after it.  Ties are broken toward not
rejecting: a group of equal p-values is rejected together or not at all, at the threshold of
its first rank.  A claim that Holm does not reject is decided at ``alpha / m`` (Bonferroni),
the level that keeps the family's false "holds" at most ``alpha`` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Family", "holm_family"]


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
        return {"alpha": self.alpha, "size": self.size, "rank": self.ranks[i],
                "holm_rejects": self.reject[i], "level": self.levels[i]}


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
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    ranks = [0] * m
    reject = [False] * m
    stopped = False
    position = 0
    while position < m:
        # The tie group starting at this position shares its first rank's threshold.
        end = position
        while end + 1 < m and p[order[end + 1]] == p[order[position]]:
            end += 1
        threshold = alpha / (m - position)
        rejected = not stopped and p[order[position]] <= threshold
        stopped = stopped or not rejected
        for i in order[position:end + 1]:
            ranks[i] = position + 1
            reject[i] = rejected
        position = end + 1
    levels = tuple(alpha / (m - ranks[i] + 1) if reject[i] else alpha / m for i in range(m))
    return Family(alpha=alpha, size=m, ranks=tuple(ranks), reject=tuple(reject), levels=levels)
