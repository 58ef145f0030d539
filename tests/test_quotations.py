"""The quotation matcher: what its normal form forgets, and that every other character counts."""

import pytest

from verification.quotations import Location, Mismatch, SearchableText, locate, normalise

# A paragraph in the style of the papers' conversions: Unicode letters in prose, LaTeX math
# between dollars, Markdown emphasis and links, a converter escape, an aligned display.
TEXT = (
    "Title line\n"
    "**Lemma 4.** *Run [Algorithm 2](#) with α and m.* The ﬁrst estimate is unbiased –\n"
    "and ‘‘far away’’ from the SHRINKING\\_GRADIENT step $\\eta = \\frac{B}{2 \\sqrt{T}}$.\n"
    "$$\\begin{aligned} \\mathbb{P}\\left[|E - \\langle f, \\Phi(\\mathbf{x})\\rangle| > \\epsilon\\right]"
    " &\\leq \\exp\\left(-\\frac{m\\epsilon^2}{\\|\\alpha\\|_1^2}\\right) \\end{aligned}\\tag{15}$$\n"
    "an estimator of $\\underset{S \\sim \\mathbb{P}}{\\mathbb{E}}[L(f_S)]$ for every $f^*$, a hyphen-\n"
    "ated word.\n"
)


@pytest.fixture(scope="module")
def text():
    return SearchableText(TEXT)


@pytest.mark.parametrize(("quotation", "line"), [
    (r"Run Algorithm 2 with $\alpha$ and $m$.", 2),                           # link, stars, Greek
    (r"The first estimate is unbiased -- and ``far away''", 2),               # ligature, dashes, quotes
    (r"SHRINKING_GRADIENT step $\eta=\tfrac{B}{2\sqrt{T}}$", 3),              # escape, \tfrac, spaces
    (r"\mathbb{P}[|E - \langle f, \Phi(x) \rangle| > \varepsilon] \le "
     r"\exp(-\frac{m\epsilon^2}{||\alpha||_1^2}) \quad (15)", 4),             # layout, \le, ||, \tag
    (r"\mathbb{E}_{S \sim \mathbb{P}}[L(f_S)] for every $f^{*}$", 5),         # \underset, f^*
    ("a hyphenated word", 5),                                                 # hyphen at a line end
])
def test_what_the_normal_form_forgets_does_not_prevent_a_match(text, quotation, line):
    found = text.locate(quotation)
    assert isinstance(found, Location), str(found)
    assert found.line == line


@pytest.mark.parametrize("quotation", [
    r"Run Algorithm 1 with $\alpha$",                 # a digit
    r"The first Estimate",                            # case
    r"$\eta = \frac{B}{\sqrt{T}}$",                   # a dropped factor
    r"\mathbb{P}[|E - \langle f, \Phi(x) \rangle| \geq \epsilon]",  # > is not >=
    r"P[|E - \langle f",                              # \mathbb is kept: P is not \mathbb{P}
    r"for every $f$, a",                              # the star of f^* counts
    r"\exp(-\frac{m\epsilon^2}{\|\alpha\|_1})",       # a dropped exponent
    "rac",                                            # not inside a command's name
    r"\sqr",                                          # nor a command's name cut short
])
def test_every_other_character_counts(text, quotation):
    assert isinstance(text.locate(quotation), Mismatch)


def test_a_mismatch_names_the_longest_matching_prefix_and_the_first_difference(text):
    miss = text.locate(r"SHRINKING\_GRADIENT step $\eta = \frac{B}{3\sqrt{T}}$")
    assert isinstance(miss, Mismatch)
    assert miss.matched == normalise(r"SHRINKING_GRADIENT step $\eta = \frac{B}{")
    assert miss.quotation_next.startswith("3")
    assert miss.text_next.startswith("2")
    assert miss.line == 3
    assert "2 \\sqrt" in miss.text_excerpt          # the text's own characters at that place
    report = str(miss)
    assert "line 3" in report
    assert "'3" in report
    assert "'2" in report


def test_a_quotation_whose_first_character_is_absent_says_so():
    miss = locate("Ω is absent", "nothing here")
    assert isinstance(miss, Mismatch)
    assert miss.line is None
    assert "first character" in str(miss)


def test_a_location_gives_the_line_and_the_texts_own_characters():
    found = locate(r"$\eta$ and $m$", "first\nWe set η and m as")
    assert found == Location(2, "η and m")


@pytest.mark.parametrize("quotation", ["", "  $ {} $ ", r"\quad \left"])
def test_a_quotation_with_nothing_that_counts_is_refused(text, quotation):
    with pytest.raises(ValueError, match="no character that counts"):
        text.locate(quotation)


def test_the_text_must_be_a_string():
    with pytest.raises(TypeError, match="text must be a str"):
        SearchableText(b"bytes")
