"""What the conformance claims share: the shipped code against its transcription (iln.reference).

A conformance claim (``kind="conformance"``) is a claim about the code, not about a paper:
the shipped implementation, called as a user calls it (its public defaults wherever it has
one), must do what the line-by-line transcription of the paper's pseudo-code in
:mod:`iln.reference` does on the same inputs.  Where the two share every random number (the
same seed children, the same implementation of Algorithm 2) that is a deterministic
invariant: each quantity of each run (every round's estimate, rule, step and shrink, the
samples behind each estimate, the weights, the averaged predictor) must agree to rounding,
and one quantity off is a violation.  This module compares the quantities and decides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from iln.data import section6_data
from iln.features import RandomCoordinate
from iln.random_streams import child
from verification.catalog import Claim, Source, profiles, register
from verification.rules import invariant
from verification.verdicts import Verdict

__all__ = ["NO_ARXIV_SOURCE", "SECTION6_CONFIGS", "SLACK", "compare", "conformance_decide",
           "register_section6_conformance", "section6_trial"]

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


#: configurations of the baselines' conformance claims: Section 6 data (D > T, as there).
SECTION6_CONFIGS = profiles(smoke={"n_trials": 2, "T": 30, "D": 50}, quick={"n_trials": 5, "T": 100, "D": 150},
                            full={"n_trials": 20, "T": 200, "D": 550})

#: the arXiv version has no experiment section, hence no Section 6 baselines.
NO_ARXIV_SOURCE = Source("arXiv", "none: the arXiv version has no experiment section",
                         r"\text{(not in this version)}")


def section6_trial(config, seed, runs: Mapping[str, Mapping],
                   quantities: Callable[..., Mapping[str, tuple]]) -> dict:
    """One trial of a baseline's conformance claim: each run on fresh Section 6 data.

    Parameters
    ----------
    config : dict
        ``T``, ``D`` and optionally ``runs`` (names of ``runs``; default all).
    seed : numpy.random.SeedSequence
        Run j draws its data from child ``(j, 0)`` and gives child ``(j, 1)`` to the learner.
    runs : mapping name -> settings
        The learner's keyword arguments per run.
    quantities : callable ``(X, y, family, settings, seed) -> {name: (found, expected)}``
        Runs the shipped learner and its transcription.

    Returns
    -------
    dict
        ``{run name: compare(...)}``.
    """
    record = {}
    for j, name in enumerate(config.get("runs", list(runs))):
        data = section6_data(config["T"], config["D"], seed=child(seed, j, 0))
        family = RandomCoordinate(config["D"])
        record[name] = compare(config["T"], quantities(data.X, data.y, family, runs[name], child(seed, j, 1)))
    return record


def register_section6_conformance(claim_id: str, *, title: str, sources: tuple[Source, ...],
                                  runs: Mapping[str, Mapping], expected: str,
                                  trial: Callable) -> Claim:
    """Register a baseline's conformance claim: Section 6 data, a deterministic invariant.

    ``trial`` is a module-level function of the claim's module, built on :func:`section6_trial`
    (trials are looked up by claim id in worker processes and fingerprinted by their module);
    the decision is :func:`conformance_decide` over ``runs``, which runs after the trials in the
    main process and so needs no module of its own.
    """
    descriptions = {name: str(settings) for name, settings in runs.items()}

    def decide(records, config, alpha) -> Verdict:
        """Deterministic invariant: one quantity off its transcription is a violation."""
        return conformance_decide(claim_id, records, descriptions, alpha)

    return register(Claim(
        id=claim_id, title=title, sources=sources, rule="deterministic invariant",
        expected=expected, configs=SECTION6_CONFIGS, trial=trial, decide=decide,
        instances="fresh Section 6 data (random coordinates, D > T) each trial, the same explicit "
                  "arguments given to the shipped learner and its transcription; "
                  + "; ".join(f"{k}: {dict(v)}" for k, v in runs.items()),
        kind="conformance",
    ))
