"""Type I at the null boundary (issue 42 item 4): each statistical rule, at the catalog's sample
sizes and per-point levels, on laws whose true value equals the bound exactly, rejects its true
statement at most at its level; and the measurement can see a rule of twice its level.

The seed counts here are small (the committed ``reports/selftest-null-boundary.json`` has 320
seeds per case); each test names the seeds it uses, so its outcome is fixed.
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import pytest

from verification import catalog
from verification.selftest import campaign, null_boundary
from verification.selftest.null_boundary import (
    LEVEL,
    Case,
    cases,
    doubling_power,
    judge,
    rejects,
    run_case,
)

pytestmark = pytest.mark.slow

#: seeds of each unit-test case: enough that a rule of several times its level is a finding.
SEEDS = range(40)


def _catalog_cases(rule: str, profile: str = "smoke") -> list[Case]:
    return [c for c in cases((profile,)) if c.rule == rule]


def _level_kept(case: Case, seeds=SEEDS) -> dict:
    entry = run_case(case, seeds)
    assert not entry["outcome"].startswith("finding"), entry
    return entry


@pytest.mark.parametrize("case", _catalog_cases("probability"), ids=lambda c: c.claim)
def test_probability_rule_keeps_its_level_at_the_bound(case):
    """Bin(n, p0) at every point, the claim's grid and share (smoke profile's n)."""
    _level_kept(case)


@pytest.mark.parametrize("case", [c for c in _catalog_cases("mean") if c.claim in ("iln.lemma3.variance",
                                                                                   "iln.thm1.regret")],
                         ids=lambda c: f"{c.claim}/{c.law}")
def test_mean_rule_keeps_its_level_on_two_point_and_skewed_laws(case):
    """Both ends known (two-point at 1/2 and 0.02, a skewed beta) and bounded below only
    (exponential, lognormal, two-point {0, 20}: the truncated rule)."""
    _level_kept(case)


@pytest.mark.parametrize("case", _catalog_cases("equivalence"), ids=lambda c: f"{c.claim}/{c.law}")
def test_equivalence_rule_keeps_its_level_at_the_stated_value(case):
    _level_kept(case)


@pytest.mark.parametrize("profile", ["smoke", "quick"])
@pytest.mark.parametrize("law", ["gamma(2)", "lognormal(0, 1)", "exponential(1)"])
def test_rate_rule_keeps_its_level_on_skewed_slopes(law, profile):
    """The sign test of the median slope at the catalog's repetitions (17 for Theorem 1's run
    time, two sides of a grid; 24 and 16 for RKS Figure 2), skewed slopes whose median is the
    bound: more seeds here, the rule is cheap."""
    for case in _catalog_cases("rate", profile):
        if case.law == law:
            # A sample rate may pass the level by chance (RKS Figure 2 at 24 repetitions: 18 of
            # 320 on gamma slopes, where the exact size is 0.032 and 4,000 seeds give 0.0325);
            # the interval decides.
            _level_kept(case, range(320))


@pytest.mark.parametrize("case", _catalog_cases("comparison"), ids=lambda c: f"{c.claim}/{c.law}")
def test_comparison_rule_keeps_its_level_with_and_without_ties(case):
    _level_kept(case)


@pytest.mark.parametrize("case", _catalog_cases("conformance") + _catalog_cases("conformance of a mean"),
                         ids=lambda c: f"{c.claim}/{c.profile}")
def test_search_conformance_test_keeps_its_level_at_the_exact_value(case):
    _level_kept(case)


def test_every_specification_that_samples_the_implementation_is_a_case():
    claims = {c.claim for c in cases(("quick",)) if c.rule.startswith("conformance")}
    assert {"iln.lemma4.hoeffding", "iln.lemma3.variance", "rks.rademacher.bound"} <= claims


def test_a_rule_of_one_point_is_measured_near_its_level_not_at_zero():
    """At the boundary the rate is near the level, not 0 as far inside the null: the sign test
    at one point, 1000 paired seeds, at 0.05 (its exact size there is 0.047)."""
    case = Case("comparison", "rks.fig1.vs_adaboost", "smoke", 1000, 1, 1.0, "continuous (exponential)")
    entry = run_case(case, range(320))
    assert entry["outcome"] == "passes"
    assert 0.02 <= entry["rate"] <= LEVEL, entry["rate"]


def test_a_rule_of_twice_its_level_is_a_finding():
    """The same sign test told twice the claim's alpha: the measurement finds it."""
    case = Case("comparison", "rks.fig1.vs_adaboost", "smoke", 1000, 1, 2.0, "continuous (exponential)")
    entry = run_case(case, range(320))
    assert entry["outcome"].startswith("finding"), entry


def test_the_plan_can_show_a_doubling():
    assert doubling_power(null_boundary.SEEDS) >= null_boundary.DOUBLING_POWER
    # A rate of exactly twice the level is a finding; a rate at the level passes.
    assert judge(round(2 * LEVEL * null_boundary.SEEDS), null_boundary.SEEDS)["outcome"].startswith("finding")
    assert judge(round(LEVEL * null_boundary.SEEDS), null_boundary.SEEDS)["outcome"] == "passes"


def test_designs_are_read_from_the_claims_configurations():
    known = catalog.load()
    for case in cases():
        config = known[case.claim].config(case.profile)
        if case.claim != "iln.thm1.runtime":
            assert case.n == config["n_trials"], case
    test_time = {c.profile: c for c in cases(claims=["iln.thm1.test_time"])}
    assert test_time["full"].rule == "conformance"  # a specification: its confirm points
    assert test_time["full"].points == len(known["iln.thm1.test_time"].config("full")["search"]["confirm"])
    regret = {c.profile: c for c in cases(claims=["iln.thm1.regret"])}
    assert regret["full"].points == 2 * len(known["iln.thm1.regret"].config("full")["T_grid"])
    # Every statistical rule is measured.
    assert {c.rule for c in cases()} == set(null_boundary.RULES)


def test_unknown_claim_or_profile_is_refused_by_name():
    with pytest.raises(ValueError, match="claims"):
        cases(claims=["iln.nope"])
    with pytest.raises(ValueError, match="profiles"):
        cases(("tiny",))
    with pytest.raises(ValueError, match="seeds"):
        run_case(_catalog_cases("rate")[0], [1, 1])
    with pytest.raises(ValueError, match=r"case\.rule"):
        rejects(replace(_catalog_cases("rate")[0], rule="nope"), 0)


def test_the_same_numbers_for_any_number_of_processes():
    case = _catalog_cases("rate")[0]
    alone = run_case(case, range(24))
    with ProcessPoolExecutor(2) as pool:
        assert run_case(case, range(24), pool=pool) == alone
    # Each seed's draws are its own: the seeds' order changes nothing.
    assert [rejects(case, s) for s in reversed(range(24))][::-1] == [rejects(case, s) for s in range(24)]


def test_the_campaign_runs_the_part_as_resumable_units(tmp_path, monkeypatch):
    """A case stored for the same code and seeds is not run again."""
    few = [c for c in cases(("smoke",)) if c.rule in ("rate", "comparison")][:3]
    monkeypatch.setattr(null_boundary, "cases", lambda: few)
    ran = []
    real = null_boundary.run_case

    def counted(case, seeds, pool=None):
        ran.append(case.key)
        return real(case, seeds, pool=pool)

    monkeypatch.setattr(null_boundary, "run_case", counted)
    plan = campaign.Plan(defects=[], seeds=[], mutation_seed=0, profile="smoke", claims=["iln.thm1.runtime"],
                         parts=("null_boundary",), workdir=tmp_path / "w", null_seeds=5)
    out = tmp_path / "selftest.json"
    first = campaign.run_campaign(plan, out)
    assert ran == [c.key for c in few]
    assert first["complete"]
    part = json.loads(out.read_text())["null_boundary"]
    assert part["seeds_per_case"] == 5
    assert not part["pending"]
    assert sum(len(r["cases"]) for r in part["by_rule"].values()) == 3
    again = campaign.run_campaign(plan, out)
    assert len(ran) == 3
    assert again["null_boundary"] == first["null_boundary"]
    # Other seeds: every case runs again.
    campaign.run_campaign(replace(plan, null_seeds=6), out)
    assert len(ran) == 6


def test_the_self_test_page_shows_the_part():
    """Its tables: per rule the largest rate, then every case with its outcome."""
    from verification.report.self_test import selftest_tables

    entries = [run_case(case, range(3)) for case in _catalog_cases("rate")[:2]]
    doc = {"complete": True, "pending": [], "defects": [], "mutation_score": None, "gaps": [],
           "false_alarms": {"seeds": [], "n_verdicts": 0, "differing": [], "rate": None,
                            "interval": [None, None], "level": 0.95}, "faults": None, "bad_input": None,
           "meta": {}, "null_boundary": null_boundary.summarise(entries, [e["key"] for e in entries], 3)}
    tables = selftest_tables(doc)
    titles = [t.title for t in tables]
    assert any(t.startswith("type I at the null boundary: ") for t in titles)
    cases_table = next(t for t in tables if t.title.startswith("type I at the null boundary, case by case"))
    assert [row[3] for row in cases_table.rows] == [e["case"]["law"] for e in entries]
