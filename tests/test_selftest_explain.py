"""A false alarm names its claim and says why (issue #8): the why comes from the run's store and
survives a resumed campaign that no longer has the store."""

import dataclasses
import json
import shutil

import pytest

from verification import catalog
from verification.report import markdown
from verification.report.self_test import selftest_tables
from verification.selftest import __main__ as selftest_cli
from verification.selftest import explain
from verification.store import Store
from verification.verdicts import Verdict

CLAIM = "iln.lemma4.hoeffding"  # cheap under the smoke profile; expected holds_after_correction


def _verdict(found, **kw):
    base = dict(claim_id="c", verdict=found, rule="probability bound", statistic=0.2, bound=0.1,
                interval=(0.15, 0.25), level=0.99, alpha=0.001, tightness=2.0, min_detectable_ratio=1.5,
                counterexample=None, elapsed_s=1.0, n_trials=400, pvalue=0.0004)
    return Verdict(**{**base, **kw})


@pytest.mark.parametrize(("expected", "found", "kind"), [
    ("holds", "violated", "type-I error"),
    ("holds", "inconclusive", "interval straddles the bound"),
    ("violated", "inconclusive", "type-II error"),
    ("holds_after_correction", "inconclusive", "check of the corrected statement was undecided"),
    ("violated", "holds", "type-II error"),
    ("holds_after_correction", "holds", "type-II error"),
    ("holds", "holds_after_correction", "type-I error"),
    ("holds_after_correction", "violated", "type-I error of the corrected check"),
    ("violated", "holds_after_correction", "which the catalog does not expect"),
    # A figure expected contradicted on a setting other than the paper's (issue 42 item 7).
    ("not_reproduced", "holds", "contradiction on a setting other than the paper's was not significant"),
    ("not_reproduced", "inconclusive", "type-II error"),
    ("holds", "not_reproduced", "type-I error"),
    ("not_reproduced", "violated", "the catalog expects it on a setting other than the paper's"),
    ("violated", "not_reproduced", "the catalog expects it on the paper's own setting"),
])
def test_why_names_the_kind_of_miss_and_the_decision_numbers(expected, found, kind):
    text = explain.why(_verdict(found), expected)
    assert text.startswith(f"{found}, expected {expected}: ")
    assert kind in text
    for number in ("statistic 0.2", "bound 0.1", "[0.15, 0.25]", "p = 0.0004", "alpha = 0.001",
                   "smallest detectable ratio 1.5", "400 trials"):
        assert number in text


def test_an_undetected_violation_gives_p_against_alpha_and_a_level_near_one_keeps_digits():
    # The seed-1 false alarm of the committed campaign: Figure 1 with p = 0.0006 > alpha at
    # level 1 - 1.8e-6 (four significant digits would print 1).
    text = explain.why(_verdict("inconclusive", statistic=0.02288, bound=0.0, min_detectable_ratio=1.5,
                                pvalue=0.0006047, alpha=4.348e-05,
                                level=1 - 1.8115942028985508e-06), "violated")
    assert "not significant (p = 0.0006047 vs alpha = 4.348e-05): a type-II error" in text
    assert "level 1 - 1.812e-06" in text
    assert "level 0.999," in explain.why(_verdict("inconclusive", level=0.999), "holds")
    # A missing number reads "n/a", never NaN (the report's formatter).
    assert "level n/a," in explain.why(_verdict("inconclusive", level=float("nan")), "holds")


@pytest.mark.parametrize(("pvalue", "kind"), [
    (0.0004, "violation was found (p <= alpha), but the check of the corrected statement was undecided"),
    (0.2, "not significant (p = 0.2 vs alpha = 0.001): a type-II error"),
    (float("nan"), "not significant (p = n/a vs alpha = 0.001): a type-II error"),
])
def test_a_correction_found_inconclusive_says_which_check_was_undecided(pvalue, kind):
    assert kind in explain.why(_verdict("inconclusive", pvalue=pvalue), "holds_after_correction")


def _doc(per_seed):
    return {"false_alarms": {"per_seed": per_seed}}


def test_annotate_reads_the_store_keeps_earlier_whys_and_counts_the_rest(tmp_path):
    store = tmp_path / "seed-3.sqlite"
    with Store(store) as s:
        s.save_verdict(3, "smoke", "a", _verdict("violated", claim_id="a").to_json())
        s.save_verdict(3, "quick", "b", _verdict("violated", claim_id="b").to_json())  # other profile
    doc = _doc({
        "3": {"verdicts": {"a": "violated", "b": "violated", "ok": "holds"}, "errors": {}},
        "4": {"verdicts": {"a": "violated", "e": "error"}, "errors": {"e": "ValueError: x"},
              "why": {"a": "kept from before"}},
    })
    expected = {"a": "holds", "b": "holds", "ok": "holds", "e": "holds"}
    left = explain.annotate(doc, expected, lambda seed: tmp_path / f"seed-{seed}.sqlite", "smoke")
    three, four = doc["false_alarms"]["per_seed"]["3"], doc["false_alarms"]["per_seed"]["4"]
    assert list(three["why"]) == ["a"]  # b's verdict is of another profile; ok does not differ
    assert three["why"]["a"].startswith("violated, expected holds: ")
    assert "p = 0.0004" in three["why"]["a"]
    assert four["why"] == {"a": "kept from before",
                           "e": "error, expected holds: the trials raised ValueError: x"}
    assert left == 1  # b


def test_a_false_alarm_is_explained_in_the_document_the_table_and_after_the_stores_are_gone(
        tmp_path, monkeypatch, capsys):
    # Pretend the catalog expects 'holds' of a claim whose check finds an erratum: every seed's
    # verdict then differs, a false alarm as the campaign sees one.
    claim = catalog.get(CLAIM)
    monkeypatch.setitem(catalog._CATALOG, CLAIM, dataclasses.replace(claim, expected="holds"))
    out, work = tmp_path / "selftest.json", tmp_path / "work"
    argv = ["--claims", CLAIM, "--profile", "smoke", "--seeds", "1", "--jobs", "1", "--quiet",
            "--parts", "false_alarms", "--workdir", str(work), "--out", str(out)]
    assert selftest_cli.main(argv) == selftest_cli.EXIT_FINDINGS, capsys.readouterr()
    doc = json.loads(out.read_text())
    (alarm,) = doc["false_alarms"]["differing"]
    assert alarm == {"seed": 0, "claim": CLAIM, "verdict": "holds_after_correction",
                     "expected": "holds"}
    why = doc["false_alarms"]["per_seed"]["0"]["why"][CLAIM]
    assert why.startswith("holds_after_correction, expected holds: ")
    assert "p = " in why
    (table,) = [t for t in selftest_tables(doc) if t.title.startswith("why each false alarm")]
    assert table.rows == (("0", CLAIM, "holds_after_correction", "holds", why),)
    # The Markdown table shows the why as prose, its math as $...$ (issue 21).
    assert markdown.prose(why[why.index("p = "):]) in out.with_suffix(".md").read_text()

    shutil.rmtree(work)  # a resumed campaign reuses the unit and keeps its why
    assert selftest_cli.main(argv) == selftest_cli.EXIT_FINDINGS
    assert json.loads(out.read_text())["false_alarms"]["per_seed"]["0"]["why"] == {CLAIM: why}


def test_a_document_without_whys_says_so():
    doc = {"complete": True, "pending": [], "defects": [], "mutation_score": None, "gaps": [],
           "false_alarms": {"seeds": [2], "n_verdicts": 1, "rate": 1.0, "interval": [0.0, 1.0],
                            "level": 0.95, "differing": [{"seed": 2, "claim": "c", "verdict": "violated",
                                                          "expected": "holds"}],
                            "per_seed": {"2": {"verdicts": {"c": "violated"}, "elapsed_s": 1.0}}},
           "faults": None, "bad_input": None, "meta": {}}
    (table,) = [t for t in selftest_tables(doc) if t.title.startswith("why each false alarm")]
    assert "not recorded" in table.rows[0][-1]
