"""The conformance rule: the shipped code against its line-by-line transcription.

A conformance claim (``kind="conformance"``) is a claim about the code, not about a paper:
the shipped implementation, called as a user calls it, must do what the transcription of the
paper's pseudo-code does on the same inputs.  Where the two share every random number that is
a deterministic invariant: each quantity of each run must agree to rounding (:data:`SLACK`),
and one quantity off is a violation.  :func:`compare` records a run, :func:`conformance_decide`
decides a claim's runs; every paper's conformance claims use them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from verification.rules.invariant import invariant
from verification.verdicts import Verdict

__all__ = ["SLACK", "compare", "conformance_decide"]

#: relative slack of a comparison: the transcriptions add the same terms in another order (a
#: Python sum over rounds, a Gram quadratic form instead of an update of the norm), which over
#: a few hundred rounds agrees to about 1e-13; a planted mistake moves a quantity by far more.
SLACK = 1e-9


def _deviation(found, expected) -> float:
    """Largest ``|found - expected| / max(1, |expected|)``; infinite when shapes differ or a
    value is NaN (a NaN must not pass as agreement)."""
    found = np.asarray(found, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if found.shape != expected.shape:
        return float("inf")
    if found.size == 0:
        return 0.0
    gap = np.abs(found - expected) / np.maximum(1.0, np.abs(expected))
    return float(np.max(np.nan_to_num(gap, nan=np.inf)))


def compare(rounds: int, quantities: Mapping[str, tuple]) -> dict:
    """One run's record: each quantity's deviation and the names of those beyond :data:`SLACK`.

    Parameters
    ----------
    rounds : int
        Rounds the run played (what the verdict counts as checked).
    quantities : mapping name -> (found, expected)
        The shipped code's value and the transcription's, arrays or scalars.

    Returns
    -------
    dict
        ``{"rounds", "deviations": {name: float}, "off": [names]}``, JSON-ready.
    """
    deviations = {name: _deviation(found, expected) for name, (found, expected) in quantities.items()}
    return {"rounds": int(rounds), "deviations": deviations,
            "off": sorted(name for name, d in deviations.items() if not d <= SLACK)}


def conformance_decide(claim_id: str, records: list[dict], runs: Mapping[str, str],
                       alpha: float) -> Verdict:
    """Deterministic invariant over every run of every trial: one quantity off is a violation.

    Parameters
    ----------
    claim_id : str
    records : list of dict
        Trial records ``{run name: compare(...)}``.
    runs : mapping run name -> description
        The runs of the claim, for the report and the counterexample.
    alpha : float
        The claim's share of the run's false-alarm budget (recorded only).

    Returns
    -------
    Verdict
    """
    rounds = sum(r["rounds"] for rec in records for r in rec.values())
    off = [(i, name, r) for i, rec in enumerate(records) for name, r in rec.items() if r["off"]]
    counterexample = None
    if off:
        index, name, r = off[0]
        counterexample = {"trial_index": index, "run": name, "description": runs.get(name, ""),
                          "quantities_off": r["off"],
                          "deviations": {q: r["deviations"][q] for q in r["off"]}}
    per_run = {}
    for name in runs:
        mine = [rec[name] for rec in records if name in rec]
        per_run[name] = {
            "rounds": sum(r["rounds"] for r in mine),
            "runs_off": sum(bool(r["off"]) for r in mine),
            # A quantity some runs leave out (one the paper determines only on some instances,
            # such as a minimiser that is unique only at full rank) counts where it is present.
            "largest_deviation": {q: max(r["deviations"][q] for r in mine if q in r["deviations"])
                                  for q in sorted(set().union(*(r["deviations"] for r in mine)))},
        }
    return invariant(claim_id, broken=bool(off), share=len(off) / max(1, sum(len(rec) for rec in records)),
                     checked=rounds, alpha=alpha, counterexample=counterexample, n_trials=len(records),
                     details={"runs": per_run, "slack": SLACK, "descriptions": dict(runs)},
                     rule="deterministic invariant (the shipped code equals its transcription on "
                          "shared random numbers, every quantity of every run)")
