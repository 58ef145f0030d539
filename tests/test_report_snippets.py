"""The errata page's reading aids (issue 21, item 4): every numpy snippet it shows runs without
this package and prints what the page says, every erratum has its note, and the comparison of
printed and corrected formulas marks what differs."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import resources

import pytest

from verification import catalog
from verification.report.errata import NOTES, compare, mark, note_for, quotation_segments, snippet
from verification.report.statements import segments

SNIPPETS = resources.files("verification.report") / "snippets"
WITH_SNIPPET = sorted(n.snippet for n in NOTES if n.snippet)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")


def test_every_erratum_has_one_note_and_every_note_one_erratum():
    errata = catalog.errata()
    notes = [note_for(e) for e in errata]           # raises when none or several fit
    assert len(set(notes)) == len(errata) == len(NOTES)


def test_every_counterexample_has_a_snippet_and_every_snippet_a_note():
    for e in catalog.errata():
        if e.kind == "counterexample":
            assert note_for(e).snippet, f"{e.claim_id}: a counterexample without a snippet"
    files = {p.name.removesuffix(".py") for p in SNIPPETS.iterdir()
             if p.name.endswith(".py") and p.name != "conftest.py"}
    assert files == set(WITH_SNIPPET)
    assert len(WITH_SNIPPET) == len(set(WITH_SNIPPET))


@pytest.mark.parametrize("name", WITH_SNIPPET)
def test_snippet_runs_without_the_package_and_prints_what_the_page_states(name, tmp_path):
    shown = snippet(name)
    # Self-contained: numpy and the standard library, nothing of this project.
    assert not re.search(r"^\s*(?:from|import)\s+(?:iln|verification)\b", shown.code, re.M)
    assert re.search(r"^import numpy as np$", shown.code, re.M)
    assert re.search(r"^\s*assert ", shown.code, re.M), "the snippet must assert the violation"
    # -I: isolated from this checkout (no cwd or PYTHONPATH on sys.path), in an empty folder.
    done = subprocess.run([sys.executable, "-I", "-c", shown.code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown.output
    # The summary's size of the violation quotes the snippet's numbers, not others.
    size = next(n.size for n in NOTES if n.snippet == name)
    printed = set(_NUMBER.findall(shown.output))
    assert set(_NUMBER.findall(size)) <= printed, (size, printed)


def test_compare_marks_the_changed_symbols_on_both_sides():
    printed, corrected = segments(r"(E_t - y_t)\,\mathbf{x}_t"), segments(r"(E_t - y_t)\,\Phi(x_t)")
    cmp = compare(printed, corrected)
    # A bold x and an x are one symbol: only Phi and its parentheses are new.
    assert cmp.printed == (frozenset(),)
    assert cmp.changes == (("", "Φ("), ("", ")"))
    marked = mark(corrected[0], cmp.corrected[0])
    assert marked.count('class="changed"') == 3
    assert marked.startswith('<math xmlns="http://www.w3.org/1998/Math/MathML"')


def test_quotations_render_as_mathml_without_fallback():
    for e in catalog.errata():
        for q in e.quotes:
            for s in quotation_segments(q.text):
                if s.kind == "math":
                    assert "math-fallback" not in mark(s, frozenset()), (e.claim_id, q.location)


def test_an_erratum_of_a_plug_in_paper_gets_a_plain_note():
    erratum = catalog.Erratum(claim_id="tiny.prop2.second_moment", printed={}, corrected=r"\mathbb{E}[X^2] = 1/3",
                      counterexample="E[X^2] = 1/3 > 1/4 for X ~ U[0, 1]. Exact.", check="the mean rule")
    note = note_for(erratum)
    assert note.claim_id == "tiny.prop2.second_moment"
    assert note.size == "E[X^2] = 1/3 > 1/4 for X ~ U[0, 1]"
    assert not note.snippet
    # An erratum of a covered paper without its note is still drift, and says so.
    with pytest.raises(LookupError, match=r"update verification\.report\.errata\.NOTES"):
        note_for(catalog.Erratum(claim_id="iln.lemma4.hoeffding", printed={}, corrected="x",
                         counterexample="no marker of any note", check="-"))
