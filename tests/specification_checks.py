"""Checks every claim that is a specification (verification.search) shares in its tests."""

from __future__ import annotations

from verification import runner, search
from verification.verdicts import INCONCLUSIVE, Verdict


def smoke_verdict(claim_id: str, directory) -> Verdict:
    """The claim's verdict on the smoke profile, seed 0, in a fresh store under ``directory``."""
    return runner.run([claim_id], profile="smoke", seed=0, jobs=1, store=directory / "s.sqlite",
                      quiet=True).outcomes[0].verdict


def assert_covered_and_conforming(verdict: Verdict) -> None:
    """Every variable searched to each end (or the plan's cap), and the shipped code on the exact values."""
    for side in verdict.details["coverage"].values():
        for variable in side.values():
            assert variable["covered"], variable
    assert all(row["conforms"] for row in verdict.details["points"].values())


def assert_off_the_exact_value_is_inconclusive(spec: search.Statement, value: float, trials: int = 50) -> None:
    """Trials that all draw ``value`` (an implementation that ignores its input) leave the
    exact verdict standing and make the claim inconclusive, naming the disagreement."""
    config = {"search": search.searched(spec)}
    records = [{p["key"]: value for p in config["search"]["confirm"]} for _ in range(trials)]
    verdict = search.decide(spec, records, config, 1e-3)
    assert verdict.verdict == INCONCLUSIVE
    assert "does not follow the exact law" in verdict.details["reason"]
