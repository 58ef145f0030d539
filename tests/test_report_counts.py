"""The report says what it is and counts one way (issue 40, item 5).

The first line of ``index.html`` and ``REPORT.md`` names the run behind the verdicts (profile,
seed, revision, date) or says that several runs are mixed; the papers' claims and the
conformance checks of the code are counted apart, and the header, the forest plot and the
tables count the same claims by the same verdicts (read here from the generated files, as a
reader reads them); an inconclusive row says why on the index; the pre-registered expectation
is shown in a neutral style; claims without a verdict are not counted.

The reports are written from stores whose verdicts are saved directly (no trials: seconds), with
every verdict group, a conformance claim of each outcome, an exploration and a claim that raised;
the committed report is checked the same way.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from verification import catalog, runner
from verification.report import write_report
from verification.reproduction import Difference, figure_verdict
from verification.store import Store
from verification.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[1]
REVISION = "0123456789abcdef0123456789abcdef01234567"
#: the reason the runner or a rule stores with an inconclusive verdict (iln.alg1.update_sign's in
#: the committed full report: printed statement 107 times its bound, correction undecided).
UNDECIDED = "the printed statement is violated; the corrected one is undecided"


def _verdict(claim_id: str, verdict: str, statistic: float, bound: float, interval: tuple[float, float],
             **fields) -> dict:
    details = fields.pop("details", {})
    return Verdict(claim_id=claim_id, verdict=verdict, rule="mean bound", statistic=statistic, bound=bound,
                   interval=interval, level=0.999, alpha=1e-4, tightness=statistic / bound,
                   counterexample=None, elapsed_s=1.0, n_trials=10, pvalue=0.5, details=details,
                   **fields).to_json()


#: claim id -> its verdict: every group of the forest, among the papers' claims and the
#: conformance checks alike.
VERDICTS = {
    "rks.fig2.alpha_inf_decay": _verdict("rks.fig2.alpha_inf_decay", "violated", 2.0, 1.0, (1.5, 2.5)),
    "iln.lemma4.hoeffding": _verdict("iln.lemma4.hoeffding", "holds_after_correction", 8.0, 1.0, (7.0, 9.0),
                                     verdict_printed="violated", verdict_corrected="holds"),
    "iln.lemma3.grad_norm": _verdict("iln.lemma3.grad_norm", "holds", 0.5, 1.0, (0.4, 0.6)),
    # Printed statement far above its bound, the verdict inconclusive: the row must say why.
    "iln.alg1.update_sign": _verdict("iln.alg1.update_sign", "inconclusive", 5321.0, 49.64, (4000.0, 6500.0),
                                     worst_ratio=107.19, verdict_printed="violated",
                                     verdict_corrected="inconclusive", details={"reason": UNDECIDED}),
    "iln.explore.families": _verdict("iln.explore.families", "inconclusive", 6.5, 49.6, (-180.0, 4.6e5),
                                     details={"reason": "at relu/constant the exact interval [-179.8, 4.645e+05] "
                                                        "straddles the bound 49.64"}),
    # Expected not_reproduced: a verdict unlike the pre-registered expectation.
    "iln.sec6.figure1": _verdict("iln.sec6.figure1", "holds", 0.2, 0.5, (0.1, 0.3)),
    "iln.thm1.runtime": runner.error_verdict("iln.thm1.runtime", "trial", "ValueError: planted",
                                             seed=0, profile="full").to_json(),
    "iln.conformance.alg1": _verdict("iln.conformance.alg1", "holds", 0.0, 1.0, (0.0, 0.0)),
    "rks.conformance.adaboost_weak_learner": _verdict("rks.conformance.adaboost_weak_learner", "violated",
                                                      0.7, 0.5, (0.6, 0.8)),
    # A figure contradicted on stand-in data: its own group, never counted as violated.
    "rks.fig1.vs_adaboost": figure_verdict(
        Verdict.from_json(_verdict("rks.fig1.vs_adaboost", "violated", 0.9, 0.5, (0.8, 1.0), verdict_printed="violated")),
        [Difference("data", "adult, activity and KDDCUP99", "scikit-learn's breast_cancer")],
        claim="RKS 10x faster at AdaBoost's error", finding="slower where reached").to_json(),
}


def _store(path: Path, runs: list[tuple[str, int, dict[str, dict]]]) -> Path:
    """A store with one recorded run per ``(profile, seed, verdicts)``, each saving its verdicts."""
    with Store(path) as db:
        for profile, seed, verdicts in runs:
            run_id = db.start_run({"seed": seed, "profile": profile, "git_revision": REVISION,
                                   "claims": sorted(verdicts)})
            for claim_id, verdict in verdicts.items():
                db.save_verdict(seed, profile, claim_id, verdict)
            db.finish_run(run_id, {})
    return path


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """The report of one full-profile run that saved :data:`VERDICTS`."""
    base = tmp_path_factory.mktemp("counts")
    store = _store(base / "store.sqlite", [("full", 0, VERDICTS)])
    write_report(store, base / "report")
    return base / "report"


# -- reading the generated files as a reader does -------------------------------------------

def _header_counts(index: str) -> dict[str, dict[str, int]]:
    """Per set of the header (``papers``, ``conformance``): verdict -> the number written."""
    out = {}
    for name, body in re.findall(r'<span class="counts" data-set="(\w+)">(.*?)\.</span>', index, re.S):
        found = re.findall(r'<span class="count" data-verdict="([^"]+)"><span class="verdict v-([\w-]+)">'
                           r"([^<]*)</span> (\d+)</span>", body)
        assert found, body
        for verdict, css, shown, _ in found:
            assert verdict == shown == css.replace("-", " "), (verdict, css, shown)
        out[name] = {verdict: int(n) for verdict, _, _, n in found}
        # "N checked" is their sum.
        assert int(re.search(r"(\d+) checked", body).group(1)) == sum(out[name].values()), body
    return out


def _plot_counts(svg: str) -> dict[str, int]:
    """Verdict -> rows of the forest plot, from its group headings (the number shown and the
    data attribute) and from its rows; the three must agree."""
    headings = re.findall(r'<text class="group" data-verdict="([^"]+)" data-count="(\d+)"[^>]*>([^<]*)</text>', svg)
    rows: dict[str, int] = {}
    for verdict in re.findall(r'<g class="row" data-verdict="([^"]+)">', svg):
        rows[verdict] = rows.get(verdict, 0) + 1
    counts = {}
    for verdict, n, text in headings:
        assert text.startswith(verdict), text
        assert text.endswith(f"({n})"), text
        counts[verdict] = int(n)
    assert counts == rows, (counts, rows)
    return counts


def _table_counts(index: str, table: str) -> dict[str, int]:
    """Verdict -> rows of one of the index's tables, read from each row's verdict badge."""
    body = index.split(f'<table class="claims" id="table-{table}">', 1)[1].split("</table>", 1)[0]
    out: dict[str, int] = {}
    for row in re.findall(r"<tr [^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        verdict = re.match(r'<span class="verdict v-[\w-]+">([^<]+)</span>', cells[1]).group(1)
        out[verdict] = out.get(verdict, 0) + 1
    return out


def _markdown_counts(markdown: str) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """REPORT.md's header counts per set, and its tables' rows per verdict."""
    plain = markdown.replace("\\_", "_")
    header = {}
    for name, label in (("papers", "The papers' claims"), ("conformance", "Conformance of the code")):
        line = re.search(rf"^\*\*{label}\*\*.*?: ((?:[\w ]+ \d+(?:, )?)+)\.$", plain, re.M)
        if line:
            header[name] = {v: int(n) for v, n in re.findall(r"(\w+) (\d+)", line.group(1))}
    tables = {}
    for name, heading in (("papers", "## Claims of the papers"), ("conformance", "## Conformance of the code")):
        if heading not in plain:
            continue
        section = plain.split(heading, 1)[1].split("\n## ", 1)[0]
        rows = [line for line in section.splitlines() if line.startswith("| [`")]
        verdicts = [re.match(r"\| \[`[^`]+`\]\([^)]+\) \| \*\*(\w+)\*\*", row).group(1) for row in rows]
        tables[name] = {v: verdicts.count(v) for v in dict.fromkeys(verdicts)}
    return header, tables


def _row(index: str, claim_id: str) -> str:
    """A claim's row of the index's tables."""
    tables = "".join(t.split("</table>", 1)[0] for t in index.split('<table class="claims"')[1:])
    return tables.split(f'<a href="claims/{claim_id}.html">{claim_id}</a>', 1)[1].split("</tr>", 1)[0]


def _sorted(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items()))


def _check_counts_agree(report: Path) -> dict[str, dict[str, int]]:
    index = (report / "index.html").read_text()
    svg = (report / "plots" / "index--forest.svg").read_text()
    assert svg in index  # the plot inline in the page is the plot's file
    header = _header_counts(index)
    plot = _plot_counts(svg)
    assert header["papers"] == plot
    assert _sorted(header["papers"]) == _sorted(_table_counts(index, "papers"))
    if "conformance" in header:
        assert _sorted(header["conformance"]) == _sorted(_table_counts(index, "conformance"))
    md_header, md_tables = _markdown_counts((report / "REPORT.md").read_text())
    assert md_header == header
    assert {k: _sorted(v) for k, v in md_tables.items()} == {k: _sorted(v) for k, v in header.items()}
    # Every verdict of summary.json is counted once, in one set.
    summary = json.loads((report / "summary.json").read_text())
    by_set = {"papers": {}, "conformance": {}}
    for c in summary["claims"]:
        group = by_set["conformance" if c["kind"] == "conformance" else "papers"]
        group[c["verdict"]] = group.get(c["verdict"], 0) + 1
    assert {k: _sorted(v) for k, v in by_set.items() if v} == {k: _sorted(v) for k, v in header.items()}
    return header


# -- the tests ------------------------------------------------------------------------------

def test_the_counts_of_header_plot_and_tables_agree(mixed):
    header = _check_counts_agree(mixed)
    assert header == {"papers": {"violated": 1, "holds_after_correction": 1, "holds": 2, "not_reproduced": 1,
                                 "inconclusive": 2, "error": 1},
                      "conformance": {"violated": 1, "holds": 1}}


def test_the_committed_report_counts_one_way():
    header = _check_counts_agree(ROOT / "reports")
    conformance = [c for c in catalog.load().values() if c.kind == "conformance"]
    assert sum(header["conformance"].values()) == len(conformance)
    assert sum(header["papers"].values()) == len(catalog.load()) - len(conformance)


def test_the_first_line_names_the_run(mixed):
    today = datetime.now(UTC).date().isoformat()
    line = f"full profile, seed 0, revision {REVISION[:7]}, {today}"
    index = (mixed / "index.html").read_text()
    body = index.split("<body", 1)[1].split(">", 1)[1].lstrip()
    assert body.startswith(f'<h1 class="top">iln-verify report: {line}</h1>')
    assert f"<title>iln-verify report: {line}</title>" in index
    assert (mixed / "REPORT.md").read_text().startswith(f"# iln-verify report: {line}\n")
    # A full-profile report needs no word on its profile.
    assert 'class="profile-note"' not in index


def test_a_report_of_several_runs_says_so_in_its_first_line(tmp_path):
    first = {k: VERDICTS[k] for k in ("iln.lemma3.grad_norm", "iln.conformance.alg1")}
    store = _store(tmp_path / "s.sqlite", [("full", 0, first),
                                           ("smoke", 3, {"rks.fig2.alpha_inf_decay": VERDICTS["rks.fig2.alpha_inf_decay"]})])
    write_report(store, tmp_path / "out")
    index = (tmp_path / "out" / "index.html").read_text()
    title = re.search(r'<h1 class="top">(.*?)</h1>', index).group(1)
    assert title.startswith("iln-verify report: verdicts of 2 runs mixed: full and smoke profiles, seeds 0 and 3, "
                            f"revision {REVISION[:7]}, "), title
    # A smoke verdict is among them: the line under the title says what that profile is worth.
    assert re.search(r'<p class="profile-note">The smoke profile(?:\'|&#39;)s samples are the smallest', index)
    markdown = (tmp_path / "out" / "REPORT.md").read_text()
    assert markdown.startswith("# iln-verify report: verdicts of 2 runs mixed: ")


def test_an_inconclusive_row_says_why_and_its_plot_row_too(mixed):
    index = (mixed / "index.html").read_text()
    row = _row(index, "iln.alg1.update_sign")
    assert '<span class="verdict v-inconclusive">inconclusive</span>' in row
    assert "printed: violated · corrected: inconclusive" in row
    assert f"Why inconclusive:</strong> {UNDECIDED}." in row
    # In the plot, right of 1 in the inconclusive group: its finding begins with the reason.
    svg = (mixed / "plots" / "index--forest.svg").read_text()
    finding = re.search(r'>iln\.alg1\.update_sign</text></a><text [^>]*><title>([^<]*)</title>', svg).group(1)
    assert finding.startswith(UNDECIDED[0].upper() + UNDECIDED[1:] + ". 107× its bound")
    for claim_id in ("iln.explore.families", "iln.thm1.runtime"):
        row = _row(index, claim_id)
        assert '<div class="why">' in row, claim_id
    markdown = (mixed / "REPORT.md").read_text().replace("\\_", "_")
    row = next(line for line in markdown.splitlines() if line.startswith("| [`iln.alg1.update_sign`]"))
    assert f"*why inconclusive:* {UNDECIDED}" in row
    assert "**inconclusive** (printed violated, corrected inconclusive)" in row


def test_the_expectation_is_shown_as_the_project_s_prior_in_a_neutral_style(mixed):
    index = (mixed / "index.html").read_text()
    line = re.search(r'<span class="expectation">(.*?)</span>\n', index, re.S).group(1)
    assert line.startswith("Differs from the pre-registered expectation: ")
    assert '<a href="claims/iln.sec6.figure1.html">' in line
    assert "a finding, not a failed run" in line
    assert "unlike the expected" not in index
    assert 'class="differs"' not in index
    row = _row(index, "iln.sec6.figure1")
    assert '<span class="expectation-differs">(differs)</span>' in row
    # Neutral: grey text, not the red of a violated verdict.
    style = index.split("<style>", 1)[1].split("</style>", 1)[0]
    red = re.search(r"\.v-violated \{[^}]*color: (#\w+)", style).group(1)
    for rule in (".expectation {", ".expectation-differs {"):
        css = style.split(rule, 1)[1].split("}", 1)[0]
        assert red not in css, css
        assert "font-weight" not in css, css
    page = (mixed / "claims" / "iln.sec6.figure1.html").read_text()
    assert f"expected (pre-registered): {catalog.get('iln.sec6.figure1').expected}" in page
    assert 'class="differs"' not in page
    markdown = (mixed / "REPORT.md").read_text()
    assert "[`iln.sec6.figure1`](claims/iln.sec6.figure1.md)" in markdown.split("Differs from the pre-registered expectation: ", 1)[1].split("\n", 1)[0]


def test_claims_without_a_verdict_are_not_counted(tmp_path):
    # Only two claims of the iln paper ran: the rks paper was not run at all (as a plug-in
    # paper installed beside a store of other papers' verdicts), nor the other iln claims.
    ran = {k: VERDICTS[k] for k in ("iln.lemma3.grad_norm", "iln.alg1.update_sign")}
    store = _store(tmp_path / "s.sqlite", [("full", 0, ran)])
    write_report(store, tmp_path / "out")
    index = (tmp_path / "out" / "index.html").read_text()
    assert _header_counts(index) == {"papers": {"holds": 1, "inconclusive": 1}}
    assert "2 checked" in index
    assert _plot_counts((tmp_path / "out" / "plots" / "index--forest.svg").read_text()) == {
        "holds": 1, "inconclusive": 1}
    assert "Not run" not in (tmp_path / "out" / "plots" / "index--forest.svg").read_text()
    known = catalog.load()
    rks = [c for c in known if c.startswith("rks.")]
    iln_not_run = [c for c in known if c.startswith("iln.") and c not in ran]
    note = re.search(r'<span class="not-run-note">(.*?)</span>', index).group(1)
    assert note == (f"Not run in this store, so not counted: the paper rks (RKS; {len(rks)} claims) and "
                    f"{len(iln_not_run)} more claims of iln.")
    # Not in the tables; listed apart, each linked to its page.
    tables = "".join(t.split("</table>", 1)[0] for t in index.split('<table class="claims"')[1:])
    listed = index.split('id="not-run"', 1)[1].split("</details>", 1)[0]
    for claim_id in [*rks, *iln_not_run]:
        assert f'href="claims/{claim_id}.html"' not in tables
        assert f'href="claims/{claim_id}.html"' in listed
    assert 'data-set="conformance"' not in index
    # The papers named are those checked.
    papers = index.split("<p class=\"muted\">Papers: ", 1)[1].split("</p>", 1)[0]
    assert "(ICML)" in papers
    assert "(arXiv)" in papers
    assert "(RKS)" not in papers
    markdown = (tmp_path / "out" / "REPORT.md").read_text()
    assert "Kitchen Sinks" not in markdown.split("## Claims of the papers", 1)[0].split("<sub>", 1)[0]


def test_a_figure_not_reproduced_has_its_own_group_and_says_what_differs(mixed):
    index = (mixed / "index.html").read_text()
    row = _row(index, "rks.fig1.vs_adaboost")
    assert '<span class="verdict v-not_reproduced">not_reproduced</span>' in row
    assert "<strong>Why not_reproduced:</strong> the figure" in row
    assert "differs from the paper" in row
    svg = (mixed / "plots" / "index--forest.svg").read_text()
    heading = re.search(r'<text class="group" data-verdict="not_reproduced"[^>]*>([^<]*)</text>', svg).group(1)
    assert heading.startswith("not_reproduced: contradicted on a setting other than the paper")
    finding = re.search(r'>rks\.fig1\.vs_adaboost</text></a><text [^>]*><title>([^<]*)</title>', svg).group(1)
    assert finding.startswith("Not_reproduced, on a setting that differs from the paper")
    # Not the red of a violation.
    style = index.split("<style>", 1)[1].split("</style>", 1)[0]
    red = re.search(r"\.v-violated \{[^}]*color: (#\w+)", style).group(1)
    assert red not in style.split(".v-not_reproduced {", 1)[1].split("}", 1)[0]
    page = (mixed / "claims" / "rks.fig1.vs_adaboost.html").read_text()
    assert "<strong>Not the paper's setting:</strong> decided on a setting that differs from the paper's in data" in page
    markdown = (mixed / "claims" / "rks.fig1.vs_adaboost.md").read_text()
    assert "**Not the paper's setting:** decided on a setting that differs from the paper's in data" in markdown


def test_the_readme_block_counts_not_reproduced_figures():
    # A summary with a figure claim not reproduced (the full run of 0762e82 has two): its
    # headline counts it, where the block generator raised a KeyError.
    from verification.report import readme

    summary = json.loads((ROOT / "reports" / "summary.json").read_text())
    figure = next(c for c in summary["claims"] if c["id"] == "iln.sec6.figure1")
    figure["verdict"] = "not_reproduced"
    assert "**1** not reproduced" in readme.readme_block(summary)
