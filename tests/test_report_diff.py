"""iln-verify diff: what changed between two reports (stores or summary.json files)."""

import json

import pytest

from verification import cli, runner
from verification.report import diff


def _summary(tmp_path, name, claims, errata=None):
    doc = {"schema_version": 2, "meta": {}, "claims": claims, "not_run": []}
    if errata is not None:
        doc["errata"] = errata
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_changed_verdicts_ratios_and_errata_are_listed_and_nothing_else(tmp_path, capsys):
    old = _summary(tmp_path, "old.json", [
        {"id": "a", "verdict": "holds", "tightness": 0.5},
        {"id": "b", "verdict": "holds_after_correction", "verdict_printed": "violated", "worst_ratio": 17.0},
        {"id": "gone", "verdict": "holds", "worst_ratio": 0.1}],
        errata=[{"claim_id": "b", "kind": "counterexample", "corrected": "x <= 2"}])
    new = _summary(tmp_path, "new.json", [
        {"id": "a", "verdict": "inconclusive", "worst_ratio": 0.5},
        {"id": "b", "verdict": "holds_after_correction", "verdict_printed": "violated", "worst_ratio": 17.0},
        {"id": "added", "verdict": "holds", "worst_ratio": 0.2}],
        errata=[{"claim_id": "b", "kind": "counterexample", "corrected": "x <= 3"}])
    changes = diff.compare(diff.load(old), diff.load(new))
    found = {(c.claim, c.field) for c in changes}
    # a's ratio is the same number (from the older tightness): only its verdict changed.
    assert found == {("a", "verdict"), ("added", "present"), ("gone", "present"),
                     ("errata", "b (counterexample)")}
    assert cli.main(["diff", str(old), str(new)]) == 0
    out = capsys.readouterr().out
    assert "holds -> inconclusive" in out
    assert "x <= 2 -> x <= 3" in out


def test_a_store_and_a_summary_can_be_compared_and_bad_paths_are_named(tmp_path, capsys):
    store = tmp_path / "s.sqlite"
    runner.run(["iln.lemma3.grad_norm"], profile="smoke", jobs=1, store=store, quiet=True)
    summary = _summary(tmp_path, "old.json", [{"id": "iln.lemma3.grad_norm", "verdict": "violated", "worst_ratio": 2.0}])
    changes = diff.compare(diff.load(summary), diff.load(store))
    assert {(c.field, c.old, c.new) for c in changes if c.field == "verdict"} == {("verdict", "violated", "holds")}
    assert cli.main(["diff", str(summary), str(tmp_path / "missing.json")]) == 2
    assert "missing.json is not a file" in capsys.readouterr().err
    (tmp_path / "x.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match=r"not a summary\.json"):
        diff.load(tmp_path / "x.json")


def test_report_against_an_earlier_one_has_a_section_of_what_changed(tmp_path):
    from verification.report import write_report

    store = tmp_path / "s.sqlite"
    runner.run(["iln.lemma3.grad_norm"], profile="smoke", jobs=1, store=store, quiet=True)
    old = _summary(tmp_path, "old.json", [{"id": "iln.lemma3.grad_norm", "verdict": "violated", "worst_ratio": 2.0}])
    write_report(store, tmp_path / "out", against=old)
    index = (tmp_path / "out" / "index.html").read_text()
    assert "What changed" in index
    assert "violated" in index.split("What changed", 1)[1].split("Errata ledger", 1)[0]
    assert "## What changed" in (tmp_path / "out" / "REPORT.md").read_text()
    write_report(store, tmp_path / "plain")
    assert "What changed" not in (tmp_path / "plain" / "index.html").read_text()


def test_a_figure_that_becomes_not_reproduced_says_what_differs(tmp_path, capsys):
    figure = {"id": "rks.fig2.alpha_inf_decay", "worst_ratio": 4.0}
    differs = [{"aspect": "data", "paper": "adult", "here": "adult-like synthetic data"},
               {"aspect": "K grid", "paper": "not stated", "here": "16 to 1024"}]
    old = _summary(tmp_path, "old.json", [{**figure, "verdict": "violated", "verdict_printed": "violated"}])
    new = _summary(tmp_path, "new.json", [{**figure, "verdict": "not_reproduced", "verdict_printed": "not_reproduced",
                                           "details": {"differs": differs}}])
    changes = diff.compare(diff.load(old), diff.load(new))
    (verdict,) = [c for c in changes if c.field == "verdict"]
    assert (verdict.old, verdict.new) == ("violated", "not_reproduced")
    assert verdict.note == ("now not_reproduced: a figure contradicted on a setting other than the paper's "
                            "(differs: data, K grid), not a violation")
    # Only the verdict's own change carries the note; the same ratio is no change.
    assert {c.field for c in changes} == {"verdict", "verdict_printed"}
    back = diff.compare(diff.load(new), diff.load(old))
    assert next(c for c in back if c.field == "verdict").note.startswith("before not_reproduced")
    assert cli.main(["diff", str(old), str(new)]) == 0
    assert "violated -> not_reproduced  [now not_reproduced" in capsys.readouterr().out
