"""Verdicts: what a claim's check concludes, with the numbers and error rates behind it."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["HOLDS", "HOLDS_AFTER_CORRECTION", "INCONCLUSIVE", "OUTCOMES", "VIOLATED", "Verdict",
           "invariant_verdict"]

#: the printed statement survives a test that could have caught a violation of the stated power.
HOLDS = "holds"
#: the data contradict the printed statement at the stated level.
VIOLATED = "violated"
#: the printed statement is violated and the corrected statement of the errata ledger holds.
HOLDS_AFTER_CORRECTION = "holds_after_correction"
#: neither: the interval straddles the bound.
INCONCLUSIVE = "inconclusive"
OUTCOMES = (HOLDS, VIOLATED, HOLDS_AFTER_CORRECTION, INCONCLUSIVE)


def _finite_or_none(value):
    """JSON has no inf or NaN: such values are written as null."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class Verdict:
    """The outcome of a claim's check.

    Attributes
    ----------
    claim_id : str
    verdict : str
        One of :data:`OUTCOMES`.
    rule : str
        The decision rule (DESIGN.md, Statistics), e.g. ``"probability bound"``.
    statistic : float
        The measured quantity the rule compares with the bound (e.g. a tail frequency).
    bound : float
        The bound it is compared with, as printed.
    interval : tuple of float
        Confidence interval of the statistic at ``level``.
    level : float
        Coverage of ``interval`` (``1 - alpha`` for two-sided rules, or as stated).
    alpha : float
        The share of the run's family-wise false-alarm budget this claim used (Holm).
    power : float
        The smallest violation the check detects with probability 0.9, in the statistic's units.
    tightness : float
        Measured / bound: how close the instances came to the bound (1 means attained).
    counterexample : dict or None
        Seed and instance of a violation, when there is one.
    elapsed_s : float
        Seconds spent on the claim's trials and decision.
    n_trials : int
    pvalue : float
        p-value of the test of the printed statement (H0: it holds), used by Holm.
    details : dict
        Per-instance figures and, for a corrected claim, the corrected check's numbers.
    """

    claim_id: str
    verdict: str
    rule: str
    statistic: float
    bound: float
    interval: tuple[float, float]
    level: float
    alpha: float
    power: float
    tightness: float
    counterexample: dict | None
    elapsed_s: float
    n_trials: int
    pvalue: float
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.verdict not in OUTCOMES:
            raise ValueError(f"verdict must be one of {OUTCOMES}, got {self.verdict!r}")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (non-finite numbers become null)."""
        out = asdict(self)
        for key in ("statistic", "bound", "level", "alpha", "power", "tightness", "elapsed_s", "pvalue"):
            out[key] = _finite_or_none(out[key])
        out["interval"] = [_finite_or_none(v) for v in self.interval]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        """Inverse of :meth:`to_json` (null numbers come back as NaN)."""
        data = dict(data)
        for key in ("statistic", "bound", "level", "alpha", "power", "tightness", "elapsed_s", "pvalue"):
            data[key] = math.nan if data[key] is None else data[key]
        data["interval"] = tuple(math.nan if v is None else v for v in data["interval"])
        return cls(**data)

    def with_elapsed(self, elapsed_s: float) -> Verdict:
        """The same verdict with its time filled in."""
        return Verdict(**{**asdict(self), "interval": self.interval, "elapsed_s": float(elapsed_s)})


def invariant_verdict(claim_id: str, *, broken: bool, share: float, checked: int, alpha: float,
                      counterexample: dict | None, n_trials: int, details: dict[str, Any]) -> Verdict:
    """The verdict of a deterministic invariant checked on every round of every run.

    One breach is a violation and is seen with certainty, so the check's power is one round
    in ``checked`` and its p-value 0 or 1 (DESIGN.md, Statistics: deterministic rules).

    Parameters
    ----------
    claim_id : str
    broken : bool
        Whether some round (or final state) breaks the invariant.
    share : float
        Breached rounds / ``checked``: the statistic, against the bound 0.
    checked : int
        Rounds checked in all.
    alpha : float
        The claim's share of the run's false-alarm budget (recorded; a deterministic rule
        makes no false alarm).
    counterexample : dict or None
        The first breach.
    n_trials : int
    details : dict

    Returns
    -------
    Verdict
    """
    return Verdict(
        claim_id=claim_id, verdict=VIOLATED if broken else HOLDS,
        rule="deterministic invariant (every round of every run)",
        statistic=share, bound=0.0, interval=(share, share), level=1.0, alpha=alpha,
        power=1.0 / checked, tightness=share, counterexample=counterexample, elapsed_s=0.0,
        n_trials=n_trials, pvalue=0.0 if broken else 1.0, details=details,
    )
