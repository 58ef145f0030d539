"""The errata ledger: every entry rests on a counterexample or a quotation, and names a claim."""

import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from iln.features import RandomCoordinate
from iln.shrinking_gradient import shrinking_gradient
from verification import catalog, cli, search
from verification.catalog import Erratum, Quote
from verification.claims.iln.algorithm1 import printed_step_point_mass
from verification.claims.iln.lemma4 import hoeffding_counterexample, sign_mean_tail
from verification.claims.iln.theorem1_test_time import printed_test_time_counterexample
from verification.claims.rks.lemma1 import (
    APPROXIMATION,
    approximation_tail,
    orthogonal_lemma1_exact,
)
from verification.quotations import Location, SearchableText
from verification.verdicts import HOLDS_AFTER_CORRECTION

#: the papers' texts (machine conversions of the PDFs), beside the repository as in CI.
PAPERS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "papers"
PAPER_FILES = {"ICML": "000_5ebcfbcff3536b59.txt", "arXiv": "002_435b4fa314dab6a0.txt",
               "RKS": "004_813c74c7c436e721.txt"}


def paper_texts(directory: Path) -> dict[str, SearchableText]:
    """Each paper version's text, normalised once; skips the test when a text is not there."""
    missing = [name for name in PAPER_FILES.values() if not (directory / name).is_file()]
    if missing:
        pytest.skip(f"the papers' texts are not at {directory} (missing {missing}): the quotations "
                    "of the errata ledger cannot be checked without them")
    return {paper: SearchableText((directory / name).read_text(encoding="utf-8"))
            for paper, name in PAPER_FILES.items()}


@pytest.fixture(scope="module")
def papers():
    return paper_texts(PAPERS_DIR)


def test_without_the_papers_texts_the_check_skips_and_says_why(tmp_path):
    with pytest.raises(pytest.skip.Exception, match="papers' texts are not at"):
        paper_texts(tmp_path)


def _label(erratum: Erratum) -> str:
    """The erratum as a reader finds it: its claim and its place among that claim's errata."""
    same = [e for e in catalog.errata() if e.claim_id == erratum.claim_id]
    return f"{erratum.claim_id} (erratum {same.index(erratum) + 1} of {len(same)})"


def test_every_quotation_of_the_ledger_is_in_its_paper_as_written(papers):
    failures = []
    for erratum in catalog.errata():
        for quote in erratum.quotes:
            found = papers[quote.paper].locate(quote.text)
            if not isinstance(found, Location):
                failures.append(f"{_label(erratum)}: {quote.paper}, {quote.location}: {found}")
    assert not failures, "quotations not in the papers' texts:\n" + "\n".join(failures)


def test_every_entry_quotes_each_version_it_cites_and_a_disagreement_quotes_two_places():
    for erratum in catalog.errata():
        quoted = {q.paper for q in erratum.quotes}
        assert set(erratum.printed) <= quoted, (_label(erratum), sorted(set(erratum.printed) - quoted))
        if erratum.kind == "quoted disagreement":
            assert len(erratum.quotes) >= 2, _label(erratum)


def test_quotations_live_in_quotes_not_in_the_prose():
    # The ledger's prose refers to its quotes; a quotation in the prose would escape the check.
    for erratum in catalog.errata():
        prose = [*erratum.printed.values(), erratum.counterexample, erratum.corrected, erratum.check]
        for marks in ("``", "\'\'", '"', "\u201c", "\u2018\u2018"):
            assert not any(marks in p for p in prose), (_label(erratum), marks)


def test_a_quote_names_a_known_paper_and_some_words():
    with pytest.raises(ValueError, match="paper must be one of"):
        Quote("NeurIPS", "Lemma 1", "words")
    with pytest.raises(ValueError, match="is empty"):
        Quote("ICML", "Lemma 1", "  ")
    with pytest.raises(TypeError, match="must be Quote instances"):
        Erratum(claim_id="iln.thm1.regret", printed={"ICML": "x"}, counterexample="c", corrected="y",
                check="z", quotes=("a quotation in prose",))


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


# ------------------------------------------------------------------------------------------
# Exact counterexamples of the ledger (computed, not sampled)
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("m", [1, 2, 3, 6])
def test_the_sign_sum_tail_is_the_count_of_sign_vectors(m):
    threshold = Fraction(1, 3)
    count = sum(abs(sum(signs)) > threshold * m for signs in itertools.product((-1, 1), repeat=m))
    assert sign_mean_tail(m, threshold) == Fraction(count, 2**m)


def test_hoeffding_erratum_exact():
    # ICML eq. (19) / arXiv eq. (15): the erratum's two points, exactly.
    at_2 = hoeffding_counterexample(2, Fraction(9, 10))
    at_1 = hoeffding_counterexample(1, Fraction(1, 2))
    assert at_2["probability"] == Fraction(1, 2)
    assert at_1["probability"] == 1
    assert at_2["violates_printed"]
    assert at_1["violates_printed"]
    assert not at_2["violates_corrected"]
    assert not at_1["violates_corrected"]


def test_test_time_erratum_exact():
    first = printed_test_time_counterexample(Fraction(1, 5), Fraction(9, 10))
    second = printed_test_time_counterexample(Fraction(1, 100), Fraction(3, 10))
    assert (first["m"], first["probability"]) == (2, Fraction(1, 2))
    assert second["m"] == 52
    assert second["probability"] == Fraction(2 * sum(math.comb(52, k) for k in range(19)), 2**52)
    assert 0.036 < second["probability"] < 0.037
    assert first["violates"]
    assert second["violates"]


def test_update_sign_erratum_exact_and_smallest():
    assert printed_step_point_mass(1, 9)["regret"] > printed_step_point_mass(1, 9)["bound"]
    assert printed_step_point_mass(1, 4)["regret"] < printed_step_point_mass(1, 4)["bound"]
    big = printed_step_point_mass(1, 64)
    assert big["ratio"] > 50
    with pytest.raises(ValueError, match="perfect square"):
        printed_step_point_mass(1, 10)


def test_update_sign_exact_run_is_the_shipped_printed_algorithm():
    # The closed-form recurrence describes the shipped Algorithm 1 with the printed step:
    # same losses round by round whatever the learner's seed (the estimates are exact).
    T = 16
    X = np.full((T, 1), 0.999)
    run = shrinking_gradient(X, np.ones(T), RandomCoordinate(1), B=1.0, seed=5, m=3,
                             update="printed", method="numpy", oracle=RandomCoordinate(1).kernel)
    exact = printed_step_point_mass(1, T)
    best = T * (1 - 0.999) ** 2 / 2
    # float64 against rational arithmetic over 16 rounds: relative 1e-12 is ample
    assert float(exact["regret"]) == pytest.approx(run.trace.loss_exact.sum() - best, rel=1e-12)


# ------------------------------------------------------------------------------------------
# The two versions, line by line (docs/explanation/versions.md): every quoted line checked
# ------------------------------------------------------------------------------------------

VERSIONS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "explanation" / "versions.md"
VERSIONS_TITLE = "# The two versions, line by line"
#: a quoted line of the section: "- ICML: `...`", or "- arXiv, not in the text: `...`".
QUOTED_LINE = re.compile(r"^\s*- (ICML|arXiv)(, not in the text)?: `(.+)`\s*$")
#: the statements compared (ICML numbering), each a subsection of its own.
COMPARED = ["Algorithm 1", "Algorithm 2", "Theorem 1", "Corollary 1",
            *(f"Lemma {k}" for k in range(1, 7))]


def versions_section() -> dict[str, list[re.Match]]:
    """The page's quoted lines, by subsection title."""
    text = VERSIONS_PAGE.read_text(encoding="utf-8")
    assert text.startswith(VERSIONS_TITLE + "\n"), f"{VERSIONS_PAGE} does not start with {VERSIONS_TITLE!r}"
    quoted: dict[str, list[re.Match]] = {}
    title = None
    for line in text.splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            quoted[title] = []
        elif (match := QUOTED_LINE.match(line)) is not None:
            assert title is not None, line
            quoted[title].append(match)
    return quoted


def test_the_versions_section_compares_every_statement_it_names():
    quoted = versions_section()
    for name in COMPARED:
        titles = [t for t in quoted if t == name or t.startswith(name + " ")]
        assert len(titles) == 1, (name, sorted(quoted))
        lines = quoted[titles[0]]
        assert {m[1] for m in lines} == {"ICML", "arXiv"}, name  # both versions quoted


def test_every_line_the_versions_section_quotes_is_in_its_paper_and_every_absence_absent(papers):
    failures = []
    for title, lines in versions_section().items():
        for match in lines:
            paper, absent, quotation = match[1], bool(match[2]), match[3]
            found = papers[paper].locate(quotation)
            if isinstance(found, Location) == absent:
                failures.append(f"{title}: {paper}{' (said absent)' if absent else ''}: {found}")
    assert not failures, "The line-by-line comparison of the versions misquotes:\n" + "\n".join(failures)


def test_rks_lemma1_erratum_exact():
    # Two atoms of probability 1/2, |phi| = 1, phi_1, phi_2 orthogonal, f* = C/2 (phi_1 + phi_2),
    # K = 1: the best member of F_w is at sqrt(mu(X)) C / 2 surely.  At delta = 1/2, eq. (9)'s
    # bound is C (1 + sqrt(2 log 2)) = 2.18 C: exceeded with probability 1 once mu(X) > 4 (2.18)^2.
    z = 1 + math.sqrt(2 * math.log(2))
    for mass, violated in ((1.0, False), (4 * z * z * 0.99, False), (4 * z * z * 1.01, True), (32.0, True)):
        instance = {"K": 1, "C": 1.0, "mass": mass, "p": 0.5, "b1": 1.0, "b2": 1.0, "u1": 1.0, "u2": 1.0,
                    "rho": 0.0, "eps": z}
        probability = math.exp(float(approximation_tail(instance)))
        assert probability == (1.0 if violated else 0.0), mass
        printed = float(search.Formula(APPROXIMATION.printed).value(instance))
        corrected = float(search.Formula(APPROXIMATION.corrected["sqrt(mu(X)) C"]).value(instance))
        assert printed == pytest.approx(0.5, rel=1e-12)  # eps = eq. (9)'s bound at delta = 1/2
        assert (probability > printed) == violated
        assert probability <= corrected


def test_rks_lemma1_erratum_exact_on_the_orthogonal_instance():
    # Under the counting measure (mass 32) eq. (9) fails with these exact probabilities;
    # under the uniform probability, and corrected, it never fails at these K.
    assert orthogonal_lemma1_exact(16, 0.5, 32)["probability"] == 1
    assert 0.41 < orthogonal_lemma1_exact(16, 0.1, 32)["probability"] < 0.42
    assert orthogonal_lemma1_exact(32, 0.5, 32)["probability"] > 0.99998
    for K in (4, 16, 32, 64):
        for mass in (1, 32):
            out = orthogonal_lemma1_exact(K, 0.1, mass)
            assert not out["violates_corrected"]
            assert out["violates_printed"] == (mass == 32 and K >= 16), (K, mass)
    with pytest.raises(ValueError, match="K must be"):
        orthogonal_lemma1_exact(256, 0.1, 32)
