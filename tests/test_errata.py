"""The errata ledger: every entry rests on a counterexample or a quotation, and names a claim."""

import json

import pytest

from verification import catalog, cli
from verification.catalog import Erratum
from verification.verdicts import HOLDS_AFTER_CORRECTION


def test_a_corrected_verdict_comes_with_a_counterexample_of_the_claims_own():
    for claim in catalog.load().values():
        if claim.expected == HOLDS_AFTER_CORRECTION:
            assert claim.erratum is not None, claim.id
            assert claim.erratum.kind == "counterexample", claim.id
            assert claim.erratum.claim_id == claim.id


def test_every_entry_quotes_the_papers_and_says_how_the_correction_is_checked():
    entries = catalog.errata()
    assert [e.claim_id for e in entries] == sorted(e.claim_id for e in entries)
    for e in entries:
        assert e.printed, e.claim_id
        assert set(e.printed) <= set(catalog.PAPERS), e.claim_id
        assert all(e.printed.values()), e.claim_id
        assert e.corrected, e.claim_id
        assert e.check, e.claim_id
    quoted = [e for e in entries if e.kind == "quoted disagreement"]
    assert len(quoted) >= 8  # the disagreements recorded in verification/claims/iln/errata.py


def test_an_erratum_naming_no_claim_is_refused(monkeypatch):
    orphan = Erratum(claim_id="iln.lemma99.nothing", printed={"ICML": "x"}, counterexample="c",
                     corrected="y", check="z", kind="quoted disagreement")
    monkeypatch.setattr(catalog, "_ERRATA", [*catalog._ERRATA, orphan])
    with pytest.raises(ValueError, match=r"iln\.lemma99\.nothing"):
        catalog.errata()


@pytest.mark.parametrize(("field", "value", "message"), [
    ("kind", "hunch", "kind must be one of"),
    ("printed", {"NeurIPS": "x"}, "printed must name papers"),
])
def test_an_erratum_without_the_evidence_kinds_or_papers_is_refused(field, value, message):
    fields = {"claim_id": "iln.thm1.regret", "printed": {"ICML": "x"}, "counterexample": "c",
              "corrected": "y", "check": "z", field: value}
    with pytest.raises(ValueError, match=message):
        Erratum(**fields)


def test_list_shows_the_ledger_with_its_kinds(capsys):
    assert cli.main(["list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    kinds = {e["kind"] for e in doc["errata"]}
    assert kinds == {"counterexample", "quoted disagreement"}
    assert len(doc["errata"]) == len(catalog.errata())
