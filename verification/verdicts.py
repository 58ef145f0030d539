"""Verdicts: what a claim's check concludes, with the numbers and error rates behind it."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["CONTRADICTED", "ERROR", "HOLDS", "HOLDS_AFTER_CORRECTION", "INCONCLUSIVE", "NOT_REPRODUCED", "OUTCOMES",
           "VIOLATED", "Verdict"]

#: the printed statement survives a test that could have caught a violation of the stated power.
HOLDS = "holds"
#: the data contradict the printed statement at the stated level.
VIOLATED = "violated"
#: the printed statement is violated and the corrected statement of the errata ledger holds.
HOLDS_AFTER_CORRECTION = "holds_after_correction"
#: neither: the interval straddles the bound, or the rule cannot decide at its n (the reason
#: is in ``details["reason"]``).
INCONCLUSIVE = "inconclusive"
#: a figure's claim contradicted on a setting that is not the paper's: stand-in data, or a
#: protocol the paper does not state (its budget, scaling, step sizes, which loss, ...).  What
#: differs is named in ``details["differs"]``; it is no evidence against the paper, and never
#: ``violated``, which is kept for a figure whose own stated setting was reproduced.  A figure
#: that holds on such a setting is ``holds``, with what differs named the same way
#: (:mod:`verification.reproduction`).
NOT_REPRODUCED = "not_reproduced"
#: the claim's configuration, trial or decision raised: no verdict on the paper (the
#: exception, the seed and the command that reproduces it are in ``details``).
ERROR = "error"
OUTCOMES = (HOLDS, VIOLATED, HOLDS_AFTER_CORRECTION, NOT_REPRODUCED, INCONCLUSIVE, ERROR)
#: the verdicts that found a statement contradicted at the stated level, whatever it says
#: about the paper: the runner's Holm step-down must confirm each.
CONTRADICTED = (VIOLATED, HOLDS_AFTER_CORRECTION, NOT_REPRODUCED)


def _finite_or_none(value):
    """JSON has no inf or NaN: such values are written as null."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _json_ready(value):
    """``value`` with every non-finite float, at any depth, written as null."""
    if isinstance(value, float):
        return _finite_or_none(value)
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    return value


#: the float fields of a verdict (JSON has no inf or NaN: they are stored as null).
_NUMBERS = ("statistic", "bound", "level", "alpha", "tightness", "elapsed_s", "pvalue",
            "min_detectable_ratio", "min_detectable_ratio_best_point", "worst_ratio")
#: the ratios whose infinity means something ("no violation is detectable", "exceeded
#: without bound"): written as the string "inf" rather than null.
_RATIOS = ("min_detectable_ratio", "min_detectable_ratio_best_point", "worst_ratio")


@dataclass(frozen=True)
class Verdict:
    """The outcome of a claim's check.

    Attributes
    ----------
    claim_id : str
    verdict : str
        One of :data:`OUTCOMES`.
    rule : str
        The decision rule (docs, The decision rules), e.g. ``"probability bound"``.
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
    min_detectable_ratio : float
        The grid's weakest point: the largest over the points of each point's smallest value
        of statistic / bound (oriented so that above 1 the printed statement is exceeded) at
        which some law the statement's assumptions allow, at that instance, is rejected with
        probability at least 0.9 (:data:`verification.catalog.DESIGN_POWER`) at the point's
        sample size and level.  Points at which the printed statement cannot be false (a
        probability bound of 1 or more, an impossible event, a mean bound at or above the
        variable's a-priori upper end) are left out.  Infinite when some point that could be
        false cannot be detected (the string ``"inf"`` in JSON); NaN when not computed.
        Where a rule computes a point's figure for every law on a stated range rather than
        for the easiest law, the figure bounds the definition's from above and the point's
        row says under which condition it holds.
    min_detectable_ratio_best_point : float
        The same figure at the grid's strongest point (the smallest over the points): a
        violation that large is caught somewhere, not everywhere.
    family : dict or None
        The multiple-testing family the verdict was decided in: the run's family-wise
        ``alpha``, its ``size``, the claim's Holm ``rank`` and ``level``; for an exact claim,
        kept out of the family, ``member`` false and ``why``.  Set by the runner.
    exact : bool
        Whether the decision is exact or deterministic (its ``violated`` carries no
        false-alarm risk): such a claim is left out of the Holm family's size.
    worst_ratio : float
        The largest statistic / bound reached over the instances tried, oriented so that
        above 1 the printed statement is exceeded.
    worst_instance : dict or None
        What reproduces the instance of ``worst_ratio``.
    verdict_printed, verdict_corrected : str or None
        The printed statement's own verdict, and the corrected statement's (None when no
        correction is involved).
    """

    claim_id: str
    verdict: str
    rule: str
    statistic: float
    bound: float
    interval: tuple[float, float]
    level: float
    alpha: float
    tightness: float
    counterexample: dict | None
    elapsed_s: float
    n_trials: int
    pvalue: float
    details: dict[str, Any] = field(default_factory=dict)
    min_detectable_ratio: float = math.nan
    min_detectable_ratio_best_point: float = math.nan
    family: dict[str, Any] | None = None
    exact: bool = False
    worst_ratio: float = math.nan
    worst_instance: dict[str, Any] | None = None
    verdict_printed: str | None = None
    verdict_corrected: str | None = None

    def __post_init__(self):
        if self.verdict not in OUTCOMES:
            raise ValueError(f"verdict must be one of {OUTCOMES}, got {self.verdict!r}")

    @property
    def can_fail(self) -> bool | None:
        """Whether the check could have shown the printed statement false at every point
        where it can be false: ``min_detectable_ratio < inf`` (None when not computed).

        Derived here and nowhere else: no rule sets it.
        """
        if math.isnan(self.min_detectable_ratio):
            return None
        return bool(self.min_detectable_ratio < math.inf)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (non-finite numbers become null, at any depth), with the derived
        ``can_fail`` for readers of the JSON alone."""
        out = _json_ready(asdict(self))
        out["can_fail"] = self.can_fail
        out["interval"] = [_finite_or_none(v) for v in self.interval]
        for key in _RATIOS:
            if math.isinf(getattr(self, key)):
                # "no violation is detectable" must not read as "not computed" (null).
                out[key] = "inf" if getattr(self, key) > 0 else "-inf"
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        """Inverse of :meth:`to_json` (null numbers come back as NaN); reads verdicts stored
        before the power fields were defined once (:func:`_from_legacy_power`)."""
        data = dict(data)
        data.pop("can_fail", None)  # derived, never stored state
        if "power" in data:
            data = _from_legacy_power(data)
        for key in _NUMBERS:
            # A verdict stored before a field existed lacks it: NaN, as for a null.
            data[key] = math.nan if data.get(key) is None else float(data[key])
        data["interval"] = tuple(math.nan if v is None else v for v in data["interval"])
        return cls(**data)

    def with_elapsed(self, elapsed_s: float) -> Verdict:
        """The same verdict with its time filled in."""
        return Verdict(**{**asdict(self), "interval": self.interval, "elapsed_s": float(elapsed_s)})



def _from_legacy_power(data: dict[str, Any]) -> dict[str, Any]:
    """A verdict stored with the field ``power`` (before issue 42): its ``min_detectable_ratio``
    was the grid's best point, and ``can_fail`` was set by each rule in its own sense.

    The stored figure becomes ``min_detectable_ratio_best_point``; the weakest point is read
    back from the points' rows that could fail (a row's null figure was an infinite one, since
    those rules computed every point's), or, for a verdict with no per-point rows of that kind,
    it is the one figure stored.
    """
    data = dict(data)
    data.pop("power")
    stored = data.get("min_detectable_ratio")
    data["min_detectable_ratio_best_point"] = stored
    rows = (data.get("details") or {}).get("points") or {}
    rows = [r for r in rows.values() if isinstance(r, dict) and "can_fail" in r]
    if rows:
        figures = [math.inf if r.get("min_detectable_ratio") is None else float(r["min_detectable_ratio"])
                   for r in rows if r["can_fail"]]
        # A comparison over settings stored its settings' largest figure already: never below it.
        weakest = max([*figures, *([float(stored)] if stored is not None else [])], default=math.inf)
        data["min_detectable_ratio"] = weakest
        if stored is not None:
            data["min_detectable_ratio_best_point"] = min(float(stored), weakest)
    return data
