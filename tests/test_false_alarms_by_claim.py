"""The false alarms per claim (issue #8): the pooled rate hides a claim that misses on many
seeds; the per-claim count, its Clopper-Pearson interval and the report's table show it."""

import pytest

from verification.report.self_test import selftest_tables
from verification.selftest.false_alarms import FalseAlarms


def _alarms():
    differing = [{"seed": 1, "claim": "b", "verdict": "inconclusive", "expected": "violated"},
                 {"seed": 1, "claim": "a", "verdict": "violated", "expected": "holds"},
                 {"seed": 3, "claim": "b", "verdict": "holds", "expected": "violated"},
                 {"seed": 4, "claim": "b", "verdict": "inconclusive", "expected": "violated"}]
    return FalseAlarms([0, 1, 2, 3, 4], ["a", "b", "c"], differing, "quick", 1.0)


def test_by_claim_counts_each_claims_seeds_and_verdicts_with_an_exact_interval():
    by_claim = _alarms().to_json()["by_claim"]
    assert list(by_claim) == ["b", "a"]  # the order in which the claims first differ
    b = by_claim["b"]
    assert (b["expected"], b["seeds"], b["found"]) == ("violated", [1, 3, 4], {"inconclusive": 2, "holds": 1})
    assert b["rate"] == pytest.approx(3 / 5)
    low, high = b["interval"]
    # Clopper-Pearson at k = 3, n = 5, 95%: the known ends 0.1466 and 0.9473.
    assert (low, high) == (pytest.approx(0.1466, abs=1e-4), pytest.approx(0.9473, abs=1e-4))
    assert by_claim["a"]["seeds"] == [1]
    assert "c" not in by_claim  # never differed


def test_the_report_has_a_row_per_claim_and_no_table_without_false_alarms():
    fa = _alarms().to_json()
    fa["per_seed"] = {str(s): {"verdicts": {}, "elapsed_s": 1.0} for s in fa["seeds"]}
    doc = {"complete": True, "pending": [], "defects": [], "mutation_score": None, "gaps": [],
           "false_alarms": fa, "faults": None, "bad_input": None, "meta": {}}
    (table,) = [t for t in selftest_tables(doc) if t.title.startswith("false alarms by claim")]
    assert "5 master seeds" in table.title
    assert table.rows[0] == ("b", "violated", "2 inconclusive, 1 holds", "1, 3, 4", "3 of 5",
                             "[0.1466, 0.9473]")
    quiet = FalseAlarms([0, 1], ["a"], [], "quick", 1.0).to_json()
    assert quiet["by_claim"] == {}
    doc["false_alarms"] = {**quiet, "per_seed": {"0": {"verdicts": {}}, "1": {"verdicts": {}}}}
    assert not [t for t in selftest_tables(doc) if t.title.startswith("false alarms by claim")]


def test_type_one_and_type_two_are_counted_apart_and_unstable_claims_are_named():
    # Real claim ids, so that their expected verdicts come from the catalog.
    differing = [{"seed": 2, "claim": "iln.lemma5.alpha_l1", "verdict": "violated", "expected": "holds"},
                 {"seed": 2, "claim": "iln.lemma3.grad_norm", "verdict": "inconclusive", "expected": "holds"},
                 {"seed": 5, "claim": "iln.lemma4.hoeffding", "verdict": "inconclusive",
                  "expected": "holds_after_correction"}]
    claims = ["iln.lemma5.alpha_l1", "iln.lemma3.grad_norm", "iln.lemma4.hoeffding", "rks.fig2.alpha_inf_decay"]
    alarms = FalseAlarms(list(range(20)), claims, differing, "smoke", 1.0).to_json()
    one = alarms["type_one"]
    # Only a rejection counts as type I: the inconclusive holding claim is a lack of power.
    assert (one["seeds"], one["rejections"], one["seeds_with_a_rejection"]) == (20, 1, [2])
    assert one["claims"] == ["iln.lemma5.alpha_l1", "iln.lemma3.grad_norm"]
    assert one["interval"][0] < 0.05 < one["interval"][1]
    two = alarms["type_two"]
    assert set(two) == {"iln.lemma4.hoeffding", "rks.fig2.alpha_inf_decay"}
    assert (two["iln.lemma4.hoeffding"]["found"], two["iln.lemma4.hoeffding"]["missed_on"]) == (19, [5])
    assert two["rks.fig2.alpha_inf_decay"]["rate_found"] == 1.0
    # 19 of 20 is stable; a claim that differs on 2 of 20 seeds is not.
    assert alarms["stable"] == claims
    twice = [*differing, {"seed": 7, "claim": "iln.lemma4.hoeffding", "verdict": "inconclusive",
                          "expected": "holds_after_correction"}]
    assert "iln.lemma4.hoeffding" not in FalseAlarms(list(range(20)), claims, twice, "smoke", 1.0).stable()


def test_type_one_counts_a_failed_correction_and_records_the_alpha_it_was_decided_at():
    # lemma4 is expected holds_after_correction: "violated" rejects its corrected statement
    # (a true statement), "inconclusive" only misses; lemma5.alpha_l1 (expected holds) found
    # holds_after_correction had its printed statement rejected.
    differing = [{"seed": 3, "claim": "iln.lemma4.hoeffding", "verdict": "violated",
                  "expected": "holds_after_correction"},
                 {"seed": 4, "claim": "iln.lemma4.hoeffding", "verdict": "inconclusive",
                  "expected": "holds_after_correction"},
                 {"seed": 6, "claim": "iln.lemma5.alpha_l1", "verdict": "holds_after_correction",
                  "expected": "holds"}]
    claims = ["iln.lemma4.hoeffding", "iln.lemma5.alpha_l1"]
    one = FalseAlarms(list(range(200)), claims, differing, "smoke", 1.0, alpha=0.05).to_json()["type_one"]
    assert (one["rejections"], one["seeds_with_a_rejection"]) == (2, [3, 6])
    assert (one["alpha"], one["profile"], one["corrected_claims"]) == (0.05, "smoke", ["iln.lemma4.hoeffding"])
    assert one["consistent_with_alpha"]  # 2 of 200: the interval's lower end lies below 0.05
    many = [{"seed": s, "claim": "iln.lemma5.alpha_l1", "verdict": "violated", "expected": "holds"}
            for s in range(30)]
    assert not FalseAlarms(list(range(200)), claims, many, "smoke", 1.0, alpha=0.05).type_one()["consistent_with_alpha"]


def test_the_selftest_cli_selects_claims_by_expected_verdict_and_checks_alpha(tmp_path, capsys):
    from verification.selftest.__main__ import main
    out = tmp_path / "t.json"
    assert main(["--parts", "false_alarms", "--alpha", "1.5", "--out", str(out)]) == 2
    assert "--alpha" in capsys.readouterr().err
    assert main(["--parts", "false_alarms", "--expected", "maybe", "--out", str(out)]) == 2
    assert "--expected" in capsys.readouterr().err
    assert main(["--parts", "false_alarms", "--expected", "violated", "--claims", "iln.lemma5.alpha_l1",
                 "--out", str(out)]) == 2
    assert "no selected claim" in capsys.readouterr().err


def test_a_figure_expected_not_reproduced_is_a_type_two_row_and_a_holding_figure_rejected_is_type_one():
    # Issue 42 item 7: not_reproduced is a contradiction found (on a setting other than the
    # paper's): missing it is a type II error, finding it where holds is expected a type I one.
    expected = {"fig.a": "not_reproduced", "fig.b": "holds"}
    differing = [{"seed": 1, "claim": "fig.a", "verdict": "inconclusive", "expected": "not_reproduced"},
                 {"seed": 2, "claim": "fig.b", "verdict": "not_reproduced", "expected": "holds"}]
    alarms = FalseAlarms(list(range(10)), list(expected), differing, "smoke", 1.0, expected=expected).to_json()
    assert alarms["type_two"]["fig.a"]["found"] == 9
    assert alarms["type_two"]["fig.a"]["missed_on"] == [1]
    assert "fig.b" not in alarms["type_two"]
    assert alarms["type_one"]["seeds_with_a_rejection"] == [2]
