"""What the RKS conformance claims share: the data of a trial, the profiles, the registration.

The conformance claims of RKS's algorithms (Algorithm 1, :mod:`.conformance_kitchen_sinks`;
the AdaBoost competitor of Figure 1, :mod:`.conformance_adaboost`) hold the shipped code,
called with its public defaults, to the line-by-line transcriptions of :mod:`iln.rks.reference`.
The comparison and the decision (a deterministic invariant: one quantity of one run off its
transcription beyond :data:`verification.rules.conformance.SLACK`, a relative 1e-9, is a
violation) are the ones the ILN conformance claims use.  Given the shared features, every
quantity compared is determined by exact methods on both sides: least squares through the
SVD, an active set (the shipped BVLS, stopped at an optimality measure of 1e-13; the
transcription's enumeration of faces), a linear program's optimal vertex (HiGHS at
feasibility tolerances of 1e-10), and AdaBoost's closed-form loop, so the two agree to a few
units of round-off (4e-15 in the deciding runs), while every mistake planted in the tests
moves a quantity by more than 1e-3.

Each run of a trial fits a fresh sample of ``m`` training and ``n_test`` test rows of
scikit-learn's breast_cancer, standardized as RKS Section 4 does (zero mean, unit variance per
coordinate): 30 continuous coordinates, so that decision stumps on nearby thresholds are nearly
collinear (the least-squares problems are ill-conditioned, as on RKS's data) and the weighted
errors of different stumps rarely tie.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from iln import random_streams
from iln.random_streams import child
from verification.catalog import Claim, Source, profiles, register
from verification.claims.rks import instances
from verification.rules.conformance import compare, conformance_decide
from verification.verdicts import Verdict

__all__ = ["CONFIGS", "DATA", "register_rks_conformance", "rks_conformance_trial", "sample_rows"]

#: the data set the runs sample from (:func:`verification.claims.rks.instances.standardized`).
DATA = "breast_cancer"

#: sizes of every RKS conformance claim, fixed before the deciding runs.  At m = 40 (tried
#: first, seed 0) the features nearly separate the rows, the shipped SVM's hinge risk is within
#: 1e-6 of (3)'s minimum and the Gini stumps coincided with the least-error ones, so both
#: findings could hide: m >= 80 everywhere, K <= m/4.
CONFIGS = profiles(smoke={"n_trials": 2, "m": 80, "n_test": 20}, quick={"n_trials": 5, "m": 120, "n_test": 40},
                   full={"n_trials": 20, "m": 200, "n_test": 100})


def sample_rows(config, seed) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, X_test)``: ``config["m"]`` training and ``config["n_test"]`` test rows of
    :data:`DATA`, distinct, drawn without replacement from a generator on ``seed``."""
    X, y = instances.standardized(DATA)
    rows = random_streams.generator(seed).permutation(X.shape[0])
    train, test = rows[: config["m"]], rows[config["m"] : config["m"] + config["n_test"]]
    return X[train], y[train], X[test]


def rks_conformance_trial(config, seed, runs: Mapping[str, Mapping],
                          quantities: Callable[..., tuple[int, Mapping[str, tuple], dict]]) -> dict:
    """One trial: each run on fresh rows (child ``(j, 0)``), the learner seeded by ``(j, 1)``.

    Parameters
    ----------
    config : dict
        ``m``, ``n_test``.
    seed : numpy.random.SeedSequence
    runs : mapping name -> settings
        The shipped learner's keyword arguments per run.
    quantities : callable ``(X, y, X_test, settings, seed) -> (count, pairs, notes)``
        Runs the shipped learner and its transcription: ``count`` is what the run checked
        (points fitted, rounds played), ``pairs`` is ``{name: (found, expected)}``, ``notes``
        JSON-ready facts of the run kept beside the comparison (a box that binds, say).

    Returns
    -------
    dict
        ``{run name: compare(...) and the run's notes}``.
    """
    record = {}
    for j, name in enumerate(runs):
        X, y, X_test = sample_rows(config, child(seed, j, 0))
        count, pairs, notes = quantities(X, y, X_test, runs[name], child(seed, j, 1))
        record[name] = {**compare(count, pairs), **notes}
    return record


def register_rks_conformance(claim_id: str, *, title: str, statement: str, location: str,
                             runs: Mapping[str, Mapping], expected: str, trial: Callable,
                             instances_note: str) -> Claim:
    """Register a conformance claim of RKS's code: kind ``conformance``, a deterministic
    invariant (one quantity of one run off its transcription is a violation), the sizes of
    :data:`CONFIGS`.

    ``trial`` is a module-level function of the claim's module (trials are looked up by claim
    id in worker processes and fingerprinted by their module), built on
    :func:`rks_conformance_trial`; the decision is
    :func:`verification.rules.conformance.conformance_decide` over ``runs``.
    """
    descriptions = {k: str(dict(v)) for k, v in runs.items()}

    def decide(records, config, alpha) -> Verdict:
        return conformance_decide(claim_id, records, descriptions, alpha)

    return register(Claim(
        id=claim_id, title=title, sources=(Source("RKS", location, statement),),
        rule="deterministic invariant", expected=expected, configs=CONFIGS, trial=trial,
        decide=decide, kind="conformance",
        instances=f"fresh standardized rows of {DATA} each trial; {instances_note}; "
                  + "; ".join(f"{k}: {dict(v)}" for k, v in runs.items()),
    ))
