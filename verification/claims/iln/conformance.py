"""What the conformance claims share: the shipped code against its transcription (iln.reference).

A conformance claim (``kind="conformance"``) is a claim about the code, not about a paper:
the shipped implementation, called as a user calls it (its public defaults wherever it has
one), must do what the line-by-line transcription of the paper's pseudo-code in
:mod:`iln.reference` does on the same inputs.  Where the two share every random number (the
same seed children, the same implementation of Algorithm 2) that is a deterministic
invariant: each quantity of each run (every round's estimate, rule, step and shrink, the
samples behind each estimate, the weights, the averaged predictor) must agree to rounding,
and one quantity off is a violation (:mod:`verification.rules.conformance`, the rule every paper's
conformance claims use).  This module holds what the ILN baselines' claims share.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from iln.data import section6_data
from iln.features import RandomCoordinate
from iln.random_streams import child
from verification.catalog import Claim, Source, profiles, register
from verification.rules.conformance import compare, conformance_decide
from verification.verdicts import Verdict

__all__ = ["NO_ARXIV_SOURCE", "SECTION6_CONFIGS",
           "register_section6_conformance", "section6_trial"]

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
