"""What each verdict covered of its statement's domain, in summary.json and on the claim pages
(issue 41): the search engine's coverage, the exact decisions', and a plain "not searched" with
the grid for every other claim; the best instances per side; the statement mutants generated
from the specifications; each verdict field linked to where the documentation explains it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from verification import runner
from verification.report import write_report
from verification.report.coverage import claim_coverage, domain_tables, range_text, side_tables
from verification.report.explanations import EXPLAINED, explanation, heading_anchor
from verification.search import specification
from verification.selftest.generated import generated_mutants, mutated_side
from verification.store import Store
from verification.verdicts import HOLDS, VIOLATED

#: a specification, a claim decided exactly, and a claim on a hand-chosen grid.
SEARCHED, EXACT, GRID = "iln.lemma4.hoeffding", "iln.alg1.update_sign", "iln.alg2.unbiased"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("coverage")
    runner.run([SEARCHED, EXACT, GRID], profile="smoke", seed=0, jobs=1, store=base / "s.sqlite", quiet=True)
    write_report(base / "s.sqlite", base / "report")
    return base / "report"


@pytest.fixture(scope="module")
def summary(report) -> dict:
    return {c["id"]: c for c in json.loads((report / "summary.json").read_text())["claims"]}


def _details(report: Path, claim_id: str) -> dict:
    with Store(report.parent / "s.sqlite", read_only=True) as db:
        return db.latest_verdict(claim_id).verdict["details"]


def test_every_claim_has_a_coverage_entry(summary):
    assert set(summary) == {SEARCHED, EXACT, GRID}
    assert all(isinstance(c["coverage"], dict) and "searched" in c["coverage"] for c in summary.values())


def test_a_specification_gives_each_variable_of_each_side_as_its_verdict_searched_it(report, summary):
    cover = summary[SEARCHED]["coverage"]
    details = _details(report, SEARCHED)
    spec = specification.statement(SEARCHED)
    assert cover["searched"] is True
    assert "verification.search" in cover["method"]
    assert list(cover["sides"]) == list(spec.sides())  # printed first, then each correction
    for side, variables in cover["sides"].items():
        assert list(variables) == list(spec.domain)
        for name, entry in variables.items():
            assert entry == details["coverage"][side][name]
            assert {"admissible", "searched", "values_tried", "ends", "covered"} <= set(entry)
            assert entry["values_tried"] >= 2
    assert cover["covered"] is (cover["uncovered"] == [])
    # m: every integer from the smallest allowed, to the plan's cap.
    assert cover["sides"]["printed"]["m"]["searched"][0] == 1


def test_an_exact_decision_gives_its_stated_domain_and_names_what_it_did_not_cover(report, summary):
    cover = summary[EXACT]["coverage"]
    details = _details(report, EXACT)
    assert cover["searched"] is True
    assert "exact_decision" in cover["method"]
    assert cover["sides"] == details["coverage"]
    uncovered = [f"{side}: {name}" for side, v in details["coverage"].items() for name, e in v.items()
                 if not e["covered"]]
    assert uncovered
    assert cover["uncovered"] == uncovered
    assert cover["covered"] is False


def test_a_claim_on_its_own_grid_says_its_domain_was_not_searched(report, summary):
    cover = summary[GRID]["coverage"]
    config = _details(report, GRID)["configuration"]
    assert cover["searched"] is False
    assert "not searched" in cover["method"]
    assert cover["grid_from"] == "the configuration the verdict recorded"
    assert set(cover["grid"]) == set(config)
    assert cover["grid"]


def test_no_side_that_holds_has_a_variable_left_uncovered(summary):
    for claim in summary.values():
        cover = claim["coverage"]
        if not cover["searched"]:
            continue
        verdicts = {"printed": claim["verdict_printed"]}
        sides = list(cover["sides"])
        if len(sides) > 1:
            verdicts[sides[1]] = claim["verdict_corrected"]
        for side, verdict in verdicts.items():
            if verdict == HOLDS:
                assert all(e["covered"] for e in cover["sides"][side].values()), (claim["id"], side)


def test_claim_pages_show_per_side_the_domain_the_best_instances_and_the_smallest_violation(report):
    page = (report / "claims" / f"{SEARCHED}.html").read_text()
    titles = re.findall(r'<h3 id="table-([^"]+)">', page)
    expected = ["domain-printed-statement", "best-instances-printed-statement", "smallest-violation-printed-statement",
                "domain-correction-two-sided-hoeffding", "best-instances-correction-two-sided-hoeffding"]
    assert [t for t in titles if t in expected] == expected  # printed first, then the correction
    assert ">exact<" in page
    assert ">sampled<" in page
    # The smallest violation's exact numbers: m = 1, where the single term is sure to exceed eps.
    smallest = page[page.index('id="table-smallest-violation-printed-statement"'):]
    assert "<td>instance: m</td><td class=\"num\">1</td>" in smallest
    assert "rational arithmetic" in smallest
    markdown = (report / "claims" / f"{SEARCHED}.md").read_text()
    assert "#### domain, printed statement" in markdown
    assert "#### best instances, correction: two-sided Hoeffding" in markdown
    exact = (report / "claims" / f"{EXACT}.html").read_text()
    assert "NOT covered" in exact
    # Beside its exact decision, the shipped code's conformance at the same instances.
    assert "<strong>Conformance:</strong> the shipped implementation against the exact law" in exact
    assert "smallest violation, corrected statement" not in exact
    grid = (report / "claims" / f"{GRID}.html").read_text()
    assert "Not searched by the engine" in grid
    assert "table-domain-printed-statement" not in grid


def test_the_overview_marks_exact_ratios_apart_from_sampled_ones(report):
    forest = (report / "plots" / "index--forest.svg").read_text()
    rows = re.findall(r'<g class="row"[^>]*>(.*?)</g>', forest)
    marks = {re.search(r">([a-z0-9_.]+)</text></a>", r).group(1): ("exact" if 'class="exact"' in r else
                                                                  "sampled" if 'class="sampled"' in r else None)
             for r in rows}
    assert marks == {SEARCHED: "exact", EXACT: "exact", GRID: "sampled"}


def test_the_generated_statement_mutants_are_in_the_summary_and_on_the_page(report):
    part = json.loads((report / "summary.json").read_text())["selftest"]["statement_mutants"]["generated"]
    entry = part["by_claim"][SEARCHED]
    # The two-sided Hoeffding bound is expected to hold: its mutants are the ones assessed.
    assert entry["side"] == "two-sided Hoeffding"
    assert entry["generated"] == len(entry["mutants"])
    assert entry["false"] >= 3
    assert entry["detected"] == entry["false"]  # issue 41: every false mutant detected
    assert part["survivors"] == [{"claim": SEARCHED, **s} for s in entry["survivors"]]
    assert set(part["claims_without_specification"]) == {EXACT, GRID}
    page = (report / "claims" / f"{SEARCHED}.html").read_text()
    assert 'id="statement-mutants"' in page
    assert page.count(">detected<") == entry["detected"]


def test_generated_mutants_of_a_claim_expected_violated_mutate_its_printed_side():
    spec = specification.statement(SEARCHED)
    side, why = mutated_side(spec, VIOLATED)
    assert side == "printed"
    assert "no side is expected to hold" in why
    assert generated_mutants(["iln.alg2.unbiased"])["by_claim"] == {}


def test_each_verdict_field_shown_links_to_its_explanation(report):
    page = (report / "claims" / f"{SEARCHED}.html").read_text()
    for label, field in (("can fail (the smallest detectable ratio is finite)", "can_fail"),
                         ("family (Holm)", "family"), ("verdict of the printed statement", "verdict_printed")):
        href = re.search(rf'<a href="([^"]+)">{re.escape(label)}</a>', page).group(1)
        assert href == explanation(field, href.split("/verdicts.md")[0].removeprefix("../"), "../")
    for href in re.findall(r'href="([^"]+\.md#[^"]+)"', page):
        target = (report / "claims" / unquote(urlsplit(href).path)).resolve()
        headings = {heading_anchor(line.lstrip("#")) for line in target.read_text().splitlines() if line.startswith("#")}
        assert urlsplit(href).fragment in headings, href
    for page_name, heading in EXPLAINED.values():
        assert heading_anchor(heading) in {heading_anchor(line.lstrip("#")) for line in (
            Path(__file__).resolve().parents[1] / "docs" / "explanation" / page_name).read_text().splitlines()
            if line.startswith("#")}, heading


def test_coverage_helpers_on_hand_made_details():
    assert claim_coverage({"points": {}}, None, "x") == {"searched": False, "method": claim_coverage({}, None, "")["method"],
                                                         "grid": {}, "grid_from": "its configuration could not be read"}
    # A details entry named coverage that is not per side and variable is not a domain's.
    assert claim_coverage({"coverage": 0.95}, {"n": [1, 2]}, "x")["grid"] == {"n": "1, 2"}
    exact = {"exact": {"printed": {}}, "coverage": {"printed": {"T": {"admissible": "T >= 1", "searched": "1..3",
                                                                     "values_tried": 3, "covered": False}}}}
    assert claim_coverage(exact, None, "x")["uncovered"] == ["printed: T"]
    assert domain_tables(exact)["printed"].rows == (("T", "T >= 1", "1..3", "3", "as stated", "NOT covered"),)
    assert side_tables(exact, "rule") == (("printed statement", (domain_tables(exact)["printed"],)),)
    assert range_text([0.0, 1.0]) == "0 to 1"
    assert range_text("1..3") == "1..3"
