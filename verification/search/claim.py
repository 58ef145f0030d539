"""A specification as a catalog claim: search when the configuration is built, sample, decide.

:func:`as_claim` turns a :class:`~verification.search.specification.Statement` into a
:class:`verification.catalog.Claim` without any change to the runner:

* its configuration (every profile) holds the search's result, computed once per process when
  the configuration is first built (:func:`searched`, deterministic: the plan's seed): the
  best instances of each side, the coverage, and the instances the trials sample;
* its trial samples the shipped implementation at those instances (:func:`confirm`);
* its decision is :func:`verification.search.decide.decide`: exact at the searched instances,
  then the implementation's conformance.

The claim module keeps two one-line functions, its trial and its decision, that call
:func:`confirm` and :func:`~verification.search.decide.decide` with its statement: the
runner finds a trial's code by its module (so an edit of the claim's evaluators keys its
trials anew).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from iln.random_streams import child
from verification.catalog import Claim, Erratum, Source, profiles
from verification.search.decide import confirm_points, rule
from verification.search.search import SideSearch, search
from verification.search.specification import EXPECTATION, Statement, register_statement
from verification.verdicts import Verdict

__all__ = ["as_claim", "confirm", "searched", "searched_sides"]


@functools.cache
def searched_sides(spec: Statement) -> dict[str, SideSearch]:
    """The search of every right side of ``spec`` (printed first), once per process."""
    return search(spec)


def searched(spec: Statement) -> dict[str, Any]:
    """The configuration's ``search`` entry: the plan, each side's search (JSON, without its
    time, so that the configuration's hash does not change from run to run) and the
    instances the trials sample."""
    sides = {side: result.to_json() for side, result in searched_sides(spec).items()}
    plan = {k: getattr(spec.plan, k) for k in spec.plan.__dataclass_fields__}
    return {"statement": spec.id, "plan": plan, "sides": sides, "confirm": confirm_points(spec, sides)}


def confirm(spec: Statement, config: Mapping[str, Any], seed: np.random.SeedSequence) -> dict[str, bool | float]:
    """One trial: the shipped implementation sampled once at every instance of
    ``config["search"]["confirm"]``, each from its own child seed: whether its event happened
    (a probability), or its draw (an expectation)."""
    cast = float if spec.lhs.kind == EXPECTATION else bool
    return {point["key"]: cast(spec.lhs.sample(point["sample_at"], child(seed, j)))
            for j, point in enumerate(config["search"]["confirm"])}


def as_claim(spec: Statement, *, title: str, sources: tuple[Source, ...], expected: str,
             trial: Callable[[Mapping[str, Any], np.random.SeedSequence], dict],
             decide: Callable[[list[dict], Mapping[str, Any], float], Verdict],
             n_trials: Mapping[str, int], erratum: Erratum | None = None, instances: str = "") -> Claim:
    """The catalog claim of ``spec`` (registered as a specification too).

    Parameters
    ----------
    spec : Statement
    title, sources, expected, erratum, instances
        As :class:`verification.catalog.Claim`'s (``instances`` defaults to the spec's scope).
    trial, decide : callable
        The claim module's functions, calling :func:`confirm` and
        :func:`verification.search.decide.decide` with ``spec``.
    n_trials : mapping profile -> int
        Trials per profile: how many times the implementation is sampled at each instance.
    """
    register_statement(spec)
    plan = functools.partial(searched, spec)  # built on first use, then cached (Claim.config)
    configs = profiles({"search": plan}, **{p: {"n_trials": n} for p, n in n_trials.items()})
    return Claim(id=spec.id, title=title, sources=sources, rule=rule(spec), expected=expected, configs=configs,
                 trial=trial, decide=decide, instances=instances or spec.scope, erratum=erratum)
