"""The verification report (issue #7): contents, links, MathML, determinism, errors."""

from __future__ import annotations

import html.parser
import json
import math
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markupsafe import escape

from verification import catalog, cli, runner
from verification.report import ReportError, write_report
from verification.report.context import gather
from verification.report.errata import note_for, snippet
from verification.report.forest import comparison, forest_rows, forest_svg
from verification.report.mathml import to_mathml
from verification.report.plots import claim_plots
from verification.report.statements import segments
from verification.store import Store
from verification.verdicts import Verdict

#: a tail-probability claim with an erratum and a counterexample, and a mean-bound claim.
CLAIMS = ["iln.lemma4.hoeffding", "iln.alg2.unbiased"]
#: a claim whose verdict is written straight into the store, with hostile text in its details.
HOSTILE = "iln.eq17.zero_comparator"
HOSTILE_TEXT = "<script>alert('x')</script> & \"q\""


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("store") / "s.sqlite"
    runner.run(CLAIMS, profile="smoke", seed=0, jobs=1, store=path, quiet=True)
    verdict = Verdict(claim_id=HOSTILE, verdict="holds", rule="deterministic invariant", statistic=0.5,
                      bound=1.0, interval=(0.5, 0.5), level=1.0, alpha=1e-4, power=0.0, tightness=0.5,
                      counterexample=None, elapsed_s=0.1, n_trials=2, pvalue=1.0,
                      details={"note": HOSTILE_TEXT, "ratio": math.nan})
    with Store(path) as db:
        db.save_verdict(1, "smoke", HOSTILE, verdict.to_json())
    return path


@pytest.fixture(scope="module")
def report(store, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    assert cli.main(["report", "--store", str(store), "--out", str(out)]) == 0
    return out


class _Links(html.parser.HTMLParser):
    """The hrefs, srcs and ids of a page, and whether it has a script or stylesheet link."""

    def __init__(self):
        super().__init__()
        self.hrefs, self.ids, self.external = [], set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if "href" in attrs and tag == "a":
            self.hrefs.append(attrs["href"])
        if tag in ("script", "link", "img", "iframe") or "src" in attrs:
            self.external.append(tag)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text())
    return parser


def _pages(out: Path) -> list[Path]:
    return [out / "index.html", *sorted(out.glob("*.html")), *sorted((out / "claims").glob("*.html"))]


def test_every_claim_and_erratum_is_in_the_report(report):
    index = (report / "index.html").read_text()
    ledger = (report / "errata.html").read_text()
    markdown = (report / "REPORT.md").read_text()
    for claim_id in catalog.load():
        assert (report / "claims" / f"{claim_id}.html").is_file()
        assert f'href="claims/{claim_id}.html"' in index
        assert f"](claims/{claim_id}.md)" in markdown
        assert (report / "claims" / f"{claim_id}.md").read_text().startswith(f"# {claim_id}\n")
    errata = catalog.errata()
    assert errata
    for e in errata:
        escaped = e.counterexample.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert escaped.replace('"', "&#34;").replace("'", "&#39;") in ledger
        assert f'href="errata.html#erratum-{e.claim_id.replace(".", "-")}-' in index
        assert f"### [`{e.claim_id}`](claims/{e.claim_id}.md)" in markdown
    # One heading per claim, its errata below it (issue 21: entries not repeated under one heading).
    for claim_id in {e.claim_id for e in errata}:
        assert ledger.count(f'<section id="claim-{claim_id.replace(".", "-")}">') == 1
        assert markdown.count(f"### [`{claim_id}`](claims/{claim_id}.md)") == 1


def test_the_errata_page_shows_each_snippet_and_what_it_prints(report):
    ledger = (report / "errata.html").read_text()
    markdown = (report / "REPORT.md").read_text()
    summary = ledger.split('id="summary"', 1)[1].split("</table>", 1)[0]
    for e in catalog.errata():
        note = note_for(e)
        assert f'href="#erratum-{e.claim_id.replace(".", "-")}-' in summary
        for q in e.quotes:
            assert str(escape(q.location)) in ledger
        if note.snippet:
            shown = snippet(note.snippet)
            for part in (shown.code, shown.output):
                assert str(escape(part)) in ledger      # as jinja escapes it
                assert part.rstrip("\n") in markdown
    assert 'class="changed"' in ledger


def test_claims_without_a_verdict_are_listed_as_not_run(report):
    not_run = [c for c in catalog.load() if c not in (*CLAIMS, HOSTILE)]
    summary = json.loads((report / "summary.json").read_text())
    assert summary["not_run"] == not_run
    assert [c["id"] for c in summary["claims"]] == sorted([*CLAIMS, HOSTILE])
    page = (report / "claims" / f"{not_run[0]}.html").read_text()
    assert "not run" in page
    row = (report / "index.html").read_text().split(f'href="claims/{not_run[0]}.html"')[1].split("</tr>")[0]
    assert "not run" in row


def test_summary_json_is_the_run_document_in_strict_json(report, store):
    summary = json.loads((report / "summary.json").read_text())
    with Store(store) as db:
        assert summary["meta"] == db.latest_run().meta
    hoeffding = next(c for c in summary["claims"] if c["id"] == CLAIMS[0])
    assert hoeffding["verdict"] == "holds_after_correction"
    assert hoeffding["counterexample"]["reproduce"] == f"iln-verify run {CLAIMS[0]} --profile smoke --seed 0"
    hostile = next(c for c in summary["claims"] if c["id"] == HOSTILE)
    assert hostile["details"]["ratio"] is None  # NaN is not strict JSON
    assert "selftest" not in summary
    json.loads((report / "summary.json").read_text(), parse_constant=pytest.fail)


def test_internal_links_resolve_and_nothing_is_fetched(report):
    for page in _pages(report):
        parsed = _parse(page)
        assert parsed.external == [], page
        for href in parsed.hrefs:
            parts = urlsplit(href)
            assert not parts.scheme, f"{page.name}: external link {href}"
            assert not parts.netloc, f"{page.name}: external link {href}"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.is_file(), f"{page.name}: {href}"
            if parts.fragment:
                assert parts.fragment in _parse(target).ids, f"{page.name}: {href}"


def test_markdown_links_and_plots_resolve(report):
    for page in [report / "REPORT.md", *sorted((report / "claims").glob("*.md"))]:
        markdown = page.read_text()
        links = re.findall(r"\]\(([^)#]+)\)", markdown)
        assert links, page.name
        for link in links:
            assert (page.parent / link).is_file(), (page.name, link)
    assert re.findall(r"!\[[^\]]*\]\(plots/index--forest\.svg\)", (report / "REPORT.md").read_text())


def test_statements_are_mathml(report):
    ledger = (report / "errata.html").read_text()
    assert ledger.count('<math xmlns="http://www.w3.org/1998/Math/MathML"') >= len(catalog.errata())
    assert 'class="math-fallback"' not in ledger
    page = (report / "claims" / f"{CLAIMS[0]}.html").read_text()
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in page
    assert "<mfrac>" in page  # the exponent's fraction of eq. (19), laid out as MathML
    assert 'class="math-fallback"' not in page


def test_latex_that_does_not_convert_is_shown_as_source_with_a_note():
    bad = to_mathml(r"\left( x", display=True)
    assert not bad.ok
    assert '<code class="math-fallback">\\left( x</code>' in bad.markup
    assert "could not be rendered" in bad.markup
    injected = to_mathml(r"\text{<img src=x onerror=alert(1)>}", display=False)
    assert not injected.ok
    assert "<img" not in injected.markup
    with pytest.raises(TypeError, match="latex"):
        to_mathml(None, display=False)


def test_statements_split_text_and_math():
    assert [s.kind for s in segments(r"if $x$ then $$y$$")] == ["text", "math", "text", "math"]
    assert segments(r"\alpha")[0].display
    with pytest.raises(TypeError, match="statement"):
        segments(3)


def test_text_from_the_store_is_escaped(report):
    page = (report / "claims" / f"{HOSTILE}.html").read_text()
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &#34;q&#34;" in page


def test_identical_inputs_give_byte_identical_files(store, tmp_path):
    first = write_report(store, tmp_path / "a")
    second = write_report(store, tmp_path / "b")
    names = [p.relative_to(tmp_path / "a") for p in first]
    assert names == [p.relative_to(tmp_path / "b") for p in second]
    assert {"index.html", "REPORT.md", "summary.json"} <= {n.as_posix() for n in names}
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_plots_are_inline_svg_and_files_beside_the_markdown(report):
    page = (report / "claims" / f"{CLAIMS[0]}.html").read_text()
    svg = (report / "plots" / f"{CLAIMS[0]}--tail-points.svg").read_text()
    assert svg.startswith("<svg")
    assert svg in page
    assert "Date" not in svg  # no time stamp in the metadata
    index = (report / "index.html").read_text()
    forest = (report / "plots" / "index--forest.svg").read_text()
    assert forest.startswith('<svg id="forest"')
    # The forest plot comes first: before the table of claims.
    assert forest in index
    assert index.index(forest) < index.index('id="claims"')


def test_stale_plots_and_pages_are_removed_and_other_files_kept(store, tmp_path):
    (tmp_path / "plots").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "plots" / "gone--tail.svg").write_text("<svg/>")
    (tmp_path / "claims" / "gone.html").write_text("")
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "keep.json").write_text("{}")
    write_report(store, tmp_path)
    assert not (tmp_path / "plots" / "gone--tail.svg").exists()
    assert not (tmp_path / "claims" / "gone.html").exists()
    assert (tmp_path / "benchmarks" / "keep.json").exists()


def test_selftest_figures_go_into_the_report_and_the_summary(store, tmp_path):
    doc = {"complete": False, "pending": ["seed:1"], "fingerprint": {"sha256": "ab" * 32},
           "defects": [{"name": "alg2_drop_sign", "module": "iln/estimator.py", "description": "d",
                        "breaks": "b", "check_added": "", "flagged_by": ["iln.alg2.unbiased"],
                        "verdicts": {"iln.alg2.unbiased": "violated", "iln.lemma5.tail": "holds"}}],
           "defects_planned": ["alg2_drop_sign"], "mutation_score": 1.0, "gaps": [],
           "false_alarms": {"seeds": [0], "n_verdicts": 2, "differing": [], "rate": 0.0,
                            "interval": [0.0, 0.8419], "level": 0.95,
                            "per_seed": {"0": {"verdicts": {}, "elapsed_s": 3.0}}},
           "faults": {"passed": True, "counts": {"passed": 1}, "elapsed_s": 2.0, "tests": [
               {"id": "tests/test_faults.py::test_x", "what": "a full disk", "outcome": "passed",
                "seconds": 1.5, "message": ""}]},
           "bad_input": None,
           "meta": {"claims": ["iln.alg2.unbiased", "iln.lemma5.tail"], "profile": "quick"}}
    (tmp_path / "selftest.json").write_text(json.dumps(doc))
    write_report(store, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())["selftest"]
    # The document as written, and the two kinds of error computed from it.
    assert {k: v for k, v in summary.items() if k not in ("type_one", "type_two", "stable_claims")} == doc
    assert summary["type_one"]["seeds"] == len(doc["false_alarms"].get("seeds", []))
    for page in ("selftest.html", "REPORT.md"):
        body = (tmp_path / page).read_text()
        assert "partial: 1 units pending (seeds 1)" in body, page
        assert "1.000 (1 of 1)" in body, page  # the mutation score
    # The self-test's full tables are on a page of its own, linked from the index.
    page = (tmp_path / "selftest.html").read_text()
    assert "defect-by-claim table" in page
    assert "a full disk" in page
    assert 'href="selftest.html"' in (tmp_path / "index.html").read_text()
    assert "a full disk" not in (tmp_path / "index.html").read_text()
    (tmp_path / "selftest.json").write_text(json.dumps({"coverage": 0.95}))
    with pytest.raises(ReportError, match=r"selftest\.json: doc: selftest\.json lacks complete"):
        write_report(store, tmp_path)
    (tmp_path / "selftest.json").write_text("{not json")
    with pytest.raises(ReportError, match=r"selftest\.json"):
        write_report(store, tmp_path)


def test_missing_store_exits_2_with_one_line_and_creates_nothing(tmp_path, capsys):
    missing = tmp_path / "missing.sqlite"
    assert cli.main(["report", "--store", str(missing), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "does not exist" in err
    assert not missing.exists()
    assert not (tmp_path / "r").exists()


def test_out_that_is_a_file_exits_2(store, tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert cli.main(["report", "--store", str(store), "--out", str(tmp_path / "file")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_plots_follow_the_shape_of_the_details():
    fit = {"slope": 1.9, "bootstrap": [1.8, 2.0], "ols": [1.7, 2.1], "theorem_exponent": 2.0,
           "sizes": [10.0, 20.0, 40.0], "mean_seconds": [1.0, 3.9, 15.0]}
    figure = {"labels": {"a": "Method A", "b": "Method B"}, "loss": "loss",
              "per_budget": {"100": {"D": [5, 6], "a": [0.1, 0.2], "a_interval": [[0.05, 0.15], [0.1, None]],
                                     "b": [0.3, 0.2]}}}
    means = {"x": {"mean": -3.0, "interval": [-4.0, -2.0], "bound": 0.0},
             "y": {"mean": -3e5, "interval": [-4e5, -1e5], "bound": 0.0}}
    plots = claim_plots("new.claim", {"rates": {"T": fit}, "figure": figure, "points": means})
    assert sorted(p.kind for p in plots) == ["exponents", "figure", "loglog", "mean"]
    again = claim_plots("new.claim", {"rates": {"T": fit}, "figure": figure, "points": means})
    assert [p.svg for p in plots] == [p.svg for p in again]
    assert all('id="new-claim-' in p.svg for p in plots)
    assert claim_plots("c", {"points": {"a": {"frequency": 0.1}}}) == []
    with pytest.raises(TypeError, match="details"):
        claim_plots("c", [])


def test_report_written_again_from_the_verdicts_without_the_trials(store, report, tmp_path, capsys):
    small = tmp_path / "verdicts.sqlite"
    again = tmp_path / "again"
    assert cli.main(["report", "--store", str(store), "--out", str(again),
                     "--save-verdicts", str(small)]) == 0
    with Store(small) as db:
        assert db.count_trials() == 0
    assert small.stat().st_size < store.stat().st_size
    from_small = tmp_path / "from-small"
    assert cli.main(["report", "--store", str(small), "--out", str(from_small)]) == 0
    for name in ("index.html", "REPORT.md", "summary.json"):
        assert (from_small / name).read_bytes() == (report / name).read_bytes(), name
    # An existing file is never replaced.
    before = small.read_bytes()
    capsys.readouterr()
    assert cli.main(["report", "--store", str(store), "--out", str(again),
                     "--save-verdicts", str(small)]) == 2
    assert "--save-verdicts" in capsys.readouterr().err
    assert small.read_bytes() == before


def test_verdicts_of_several_runs_are_attributed_to_the_run_that_saved_each(store, tmp_path):
    both = tmp_path / "both.sqlite"
    runner.run(CLAIMS, profile="smoke", seed=0, jobs=1, store=both, quiet=True)
    # A claim added later to a store whose other verdicts came from an earlier run.
    runner.run(["iln.sec6.baselines"], profile="smoke", seed=0, jobs=1, store=both, quiet=True)
    line = dict(gather(both, tmp_path / "out").reproducibility.rows)[
        "verdicts shown, by the run that saved them"]
    assert "run 1 at revision" in line
    assert "seed 0, started" in line
    assert line.count(": 2 of the verdicts") == 1
    assert line.count(": 1 of the verdicts") == 1
    # One run behind every verdict (the fixture's extra verdict has a seed of no run): no row.
    assert "verdicts shown, by the run that saved them" not in dict(
        gather(store, tmp_path / "o").reproducibility.rows)


def _verdict(verdict, statistic, bound, interval, **details):
    return {"verdict": verdict, "statistic": statistic, "bound": bound, "interval": interval,
            "details": details}


def test_the_forest_orients_each_comparison_from_the_data():
    upper = comparison(_verdict("holds_after_correction", 0.0079, 0.00046, [0.0072, 0.0085]))
    assert upper.sense == "<="
    assert 17 < upper.ratio < 17.2  # exceeded 17-fold: right of 1
    lower = comparison(_verdict("violated", 0.377, 0.5, [0.27, 0.49]))
    assert lower.sense == ">="
    assert lower.ratio > 1  # a share that must reach 0.5 falls short: right of 1 too
    assert lower.ratio_interval[0] > 1
    assert comparison(_verdict("holds", 0.2, 0.5, [0.1, 0.3])).ratio < 1
    band = comparison(_verdict("violated", 0.05, -1.0, [-0.04, 0.13], band=[-1.2, -0.8]))
    assert band.sense == "band"
    assert band.ratio is None
    assert "band" in band.undefined
    zero = comparison(_verdict("violated", 0.03, 0.0, [0.001, None]))
    assert zero.ratio is None
    assert "bound 0" in zero.undefined
    equal = comparison(_verdict("holds", 0.0009, 0.0, [-0.002, 0.004]))
    assert equal.sense == "="
    assert "within a margin" in equal.text
    # A claim's own oriented ratio wins over the one read from the data.
    assert comparison({**_verdict("violated", 3.0, 1.0, [2.0, 4.0]), "worst_ratio": 5.0}).ratio == 5.0


def test_the_forest_groups_rows_and_says_what_has_no_ratio():
    rows = forest_rows([
        ("a", "claims/a.html", _verdict("holds", 0.0, 0.5, [0.0, 0.01])),
        ("b", "claims/b.html", _verdict("violated", 0.03, 0.0, [0.001, None])),
        ("c", "claims/c.html", {**_verdict("holds_after_correction", 2.0, 1.0, [1.5, 2.5]),
                                "details": {"points": {"p": {"frequency": 2.0, "printed_bound": 1.0,
                                                             "corrected_bound": 4.0,
                                                             "interval": [1.5, 2.5]}}}}),
        ("d", "claims/d.html", None)])
    assert [r.group for r in rows] == ["fails", "fixed", "holds", "not run"]
    assert rows[1].corrected == 0.5
    assert "corrected statement: worst point at 1/2 of its bound" in rows[1].finding
    assert "must be ≤ 0" in rows[0].finding
    assert "none observed" in rows[2].finding.lower()
    svg = forest_svg(rows)
    assert svg.startswith('<svg id="forest"')
    assert "bound 0: no ratio" in svg
    assert "NaN" not in svg
    assert "nan" not in svg.replace("span", "")


def test_numbers_read_unambiguously(report):
    page = (report / "claims" / f"{CLAIMS[0]}.html").read_text()
    assert "smallest ratio detected with probability 0.9" in page
    assert "(must be ≤" in page  # the direction of the comparison
    for path in _pages(report):
        text = path.read_text()
        assert ">NaN<" not in text, path.name
        assert "pvalue 0<" not in text, path.name


def test_summary_json_names_its_schema_and_each_verdicts_run(report):
    summary = json.loads((report / "summary.json").read_text())
    assert summary["schema_version"] == 2
    hoeffding = next(c for c in summary["claims"] if c["id"] == CLAIMS[0])
    assert hoeffding["run_id"] == 1
    assert hoeffding["profile"] == "smoke"
    assert "revision" in hoeffding


def test_report_md_stays_small_with_a_page_per_claim(report):
    assert (report / "REPORT.md").stat().st_size <= 100_000
    assert len(list((report / "claims").glob("*.md"))) == len(catalog.load())


def test_the_report_goes_to_a_folder_of_its_own_by_default(store, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["report", "--store", str(store)]) == 0
    assert (tmp_path / cli.DEFAULT_REPORT / "index.html").is_file()
    assert not (tmp_path / "reports").exists()
    assert str(cli.DEFAULT_REPORT / "index.html") in capsys.readouterr().out


def test_fields_other_issues_add_to_verdicts_are_shown_when_present():
    # worst_ratio, min_detectable_ratio and the two sub-verdicts, as a verdict's fields or
    # in its details: the forest reads either place and falls back without them.
    verdict = {**_verdict("holds_after_correction", 2.0, 1.0, [1.5, 2.5]), "worst_ratio": 3.0,
               "verdict_printed": "violated", "verdict_corrected": "holds"}
    verdict["details"] = {"min_detectable_ratio": 1.2, "worst_ratio_corrected": 0.5}
    (row,) = forest_rows([("c", "claims/c.html", verdict)])
    assert row.comparison.ratio == 3.0
    assert row.detectable == 1.2
    assert row.corrected == 0.5
    assert (row.verdict_printed, row.verdict_corrected) == ("violated", "holds")
    assert "smallest ratio detected w.p. 0.9" in forest_svg([row])
    (plain,) = forest_rows([("c", "claims/c.html", _verdict("holds", 0.2, 0.5, [0.1, 0.3]))])
    assert plain.detectable is None
    assert "smallest ratio detected" not in forest_svg([plain])


def test_the_type_one_and_statement_mutant_campaigns_come_from_their_own_documents(store, tmp_path):
    base = {"complete": True, "pending": [], "fingerprint": {"sha256": "cd" * 32}, "defects": [],
            "defects_planned": [], "mutation_score": None, "gaps": [],
            "false_alarms": {"seeds": [0], "n_verdicts": 1, "differing": [], "rate": 0.0,
                             "interval": [0.0, 0.975], "level": 0.95,
                             "per_seed": {"0": {"verdicts": {}, "elapsed_s": 1.0}}},
            "faults": None, "bad_input": None, "meta": {"claims": ["iln.lemma5.tail"], "profile": "quick"}}
    (tmp_path / "selftest.json").write_text(json.dumps(base))
    seeds = list(range(200))
    type_one = {**base, "false_alarms": {**base["false_alarms"], "seeds": seeds, "alpha": 0.05,
                                         "claims": ["iln.lemma5.tail"], "profile": "smoke",
                                         "per_seed": {str(s): {"verdicts": {}} for s in seeds}},
                "meta": {"claims": ["iln.lemma5.tail"], "profile": "smoke", "alpha": 0.05,
                         "git_revision": "e5949f3", "expected": {"iln.lemma5.tail": "holds"}}}
    (tmp_path / "selftest-type-one.json").write_text(json.dumps(type_one))
    entry = {"name": "m1", "claim": "iln.lemma5.tail", "kind": "prefactor dropped", "statement": "P <= x",
             "counterexample": {"probability": "1"}, "verdict": "holds", "error": None, "detected": False}
    searched = {**entry, "name": "m2", "claim": "iln.lemma1.decomposition", "verdict": "violated", "detected": True,
                "config": {"n_trials": 43}, "config_why": "The search runs T = 2."}
    mutants = {**base, "statement_mutants": {"total": 2, "detected": 1,
                                             "by_claim": {"iln.lemma5.tail": [entry], "iln.lemma1.decomposition": [searched]},
                                             "gaps": ["m1"], "planned": ["m1", "m2"], "rule": "r"},
               "meta": {"profile": "smoke", "git_revision": "abc"}}
    (tmp_path / "selftest-statement-mutants.json").write_text(json.dumps(mutants))
    write_report(store, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())["selftest"]
    # The rate over 200 seeds at alpha 0.05, not the one seed of selftest.json.
    assert (summary["type_one"]["seeds"], summary["type_one"]["alpha"]) == (200, 0.05)
    assert summary["type_one"]["interval"][1] == pytest.approx(0.0183, abs=1e-4)
    assert (summary["statement_mutants"]["total"], summary["statement_mutants"]["gaps"]) == (2, ["m1"])
    page = (tmp_path / "selftest.html").read_text()
    assert "statement mutants (smoke profile): 1 of 2" in page
    assert "The search runs T = 2. (43 trials)" in page
    assert "s grid</td>" in page  # the mutant without a search: the profile's grid
    assert "GAP: not detected" in page
