r"""What the errata page adds to the catalog's ledger so that a reader can check each entry by hand.

Three things, none of which changes an erratum (the catalog owns those):

* the size of each violation in one line, for the summary table (:data:`NOTES`);
* the printed and the corrected formulas compared symbol by symbol: both are rendered as
  MathML and their leaves (identifiers, numbers, operators) aligned with
  :class:`difflib.SequenceMatcher`, so that the page can mark what differs
  (:func:`compare`, :func:`mark`) and the Markdown can list it;
* for the entries that rest on numbers (every counterexample, and the quoted disagreements
  whose consequence is a number), a short numpy script that reproduces them without this
  package (``snippets/<name>.py``), shown with what it prints (``snippets/<name>.out``).
  ``tests/test_report_snippets.py`` runs every script in a fresh interpreter and checks that it
  prints exactly that, asserts the violation and that each number of the summary line is in
  it.

An entry of the ledger is found by its claim and a phrase of its counterexample text
(:attr:`Note.marker`), not by its place in the ledger, so that a new erratum of a claim cannot
shift another's note onto it.

Examples
--------
>>> from verification.report.statements import segments
>>> printed, corrected = segments(r"a + x_t"), segments(r"a + \Phi(x_t)")
>>> cmp = compare(printed, corrected)
>>> cmp.changes
(('', 'Φ('), ('', ')'))
>>> sorted(cmp.corrected[0])
[2, 3, 6]
"""

from __future__ import annotations

import difflib
import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from importlib import resources

from verification.catalog import Erratum
from verification.report.mathml import to_mathml
from verification.report.statements import Segment, quoted_segments

__all__ = ["CHANGED_CLASS", "NOTES", "Comparison", "Note", "Snippet", "compare", "mark", "note_for",
           "quotation_segments", "snippet"]

_MATHML_NS = "http://www.w3.org/1998/Math/MathML"
# The pages write MathML with a default namespace; without this ElementTree would write
# "ns0:" prefixes, which Chromium does not render as MathML inside HTML.
ET.register_namespace("", _MATHML_NS)
#: leaves compared: what a reader sees as a symbol (mtext is prose and is not compared).
_LEAVES = frozenset({"mi", "mn", "mo", "ms"})
#: the class a changed leaf gets (styled by base.html).
CHANGED_CLASS = "changed"


@dataclass(frozen=True)
class Note:
    """The report's note on one erratum.

    Attributes
    ----------
    claim_id : str
        The erratum's claim.
    marker : str
        Words of the erratum's counterexample text that pick it among its claim's errata.
    change : str
        What the correction changes, printed -> corrected, in LaTeX (math mode, ``\\text``
        for words): the summary table's reading of the symbols that :func:`compare` marks in
        the full formulas.
    size : str
        The violation in one line, text with ``$...$`` math; where there is a snippet, every
        number in it is one the snippet prints.
    snippet : str, default=""
        The name of the script that reproduces the entry, ``snippets/<snippet>.py`` (what it
        prints is in ``snippets/<snippet>.out``); "" for none.
    """

    claim_id: str
    marker: str
    change: str
    size: str
    snippet: str = ""


#: one note per erratum of the catalog (tests/test_report_snippets.py checks the pairing).
NOTES = (
    Note("iln.alg1.update_sign", "Exact counterexample",
         r"-\eta(y_t - E_t) \to -\eta(E_t - y_t)",
         r"regret $1878.07 >$ bound $36.57$ at $T = 64$; from $T = 9$ on, linear in $T$",
         snippet="iln.alg1.update_sign"),
    Note("iln.cor1.online_to_batch", "contradicts itself",
         r"\text{arXiv } T = O(B/\epsilon^2) \to T = O(B^2/\epsilon^2)",
         r"excess risk $0.3002 > \epsilon = 0.3$ at $B = 180$, $T = 37080$ (arXiv rate)",
         snippet="iln.cor1.online_to_batch"),
    Note("iln.lemma1.decomposition", "index the shrink penalty differently",
         r"\text{ICML } P_t(f^*) \to P_{t+1}(f^*)",
         r"one round: the proof gives $P_{t+1}$, ICML prints $P_t$"),
    Note("iln.lemma2.shrink_penalty", "does not follow from its proof",
         r"2e^{-m/(3\eta t)^2} \to 4e^{-32B^2 m/((16B+1)\eta t)^2}",
         r"the proof's exponent is below the printed one for $1 \le B \le 1.0303$ and its prefactor "
         r"is 4; no counterexample to the lemma itself is known",
         snippet="iln.lemma2.shrink_penalty"),
    Note("iln.lemma3.grad_norm", "opposite signs",
         r"\text{arXiv } y_t - \langle f_t, \Phi \rangle \to \langle f_t, \Phi \rangle - y_t,\ "
         r"\alpha_i \Phi(\mathbf{x}_t) \to \alpha_i \Phi(\mathbf{x}_i)",
         r"the sign of the gradient (its norm, which the claim checks, is the same)"),
    Note("iln.lemma3.variance", "along the input x_t",
         r"\mathbf{x}_t \to \Phi(\mathbf{x}_t)",
         r"a symbol: $\mathbf{x}_t$ and $\Phi(\mathbf{x}_t)$ live in different spaces"),
    Note("iln.lemma3.variance", "squares ||alpha||_1",
         r"\|\alpha^{(t)}\|_1^2 \to \|\alpha^{(t)}\|_1 \operatorname{sgn}(\alpha_i)",
         r"$\|\alpha\|_1^4 / m$ for $\|\alpha\|_1^2 / m$, a factor $\|\alpha\|_1^2$"),
    Note("iln.lemma4.hoeffding", "Sign features on two orthogonal inputs",
         r"e^{-m\epsilon^2/\|\alpha\|_1^2} \to 2e^{-m\epsilon^2/(2\|\alpha\|_1^2)}",
         r"$P = 0.500 >$ printed bound $0.198$ at $m = 2$, $\epsilon = 0.9$",
         snippet="iln.lemma4.hoeffding"),
    Note("iln.lemma5.tail", "Round t = 2 of Algorithm 1",
         r"e^{-\epsilon^2 m/((16B+1)\eta t)^2} \to 2e^{-\epsilon^2 m/(2((16B+1)\eta t)^2)}",
         r"$P = 1 >$ printed bound $0.99978$ at $t = 2$, $m = 1$, $\epsilon = \eta/2$",
         snippet="iln.lemma5.tail"),
    Note("iln.lemma6.events", "Round t = 1 of any run",
         r"P_t(f^*) < \mathbb{P}[\mathcal{E}_1^t \cup \mathcal{E}_2^t] \to "
         r"P_t(f^*) \le \mathbb{P}[\mathcal{E}_1^t \cup \mathcal{E}_2^t]",
         r"at round 1 the strict inequality reads $0.0 < 0.0$", snippet="iln.lemma6.events"),
    Note("iln.lemma6.events", "shrinks when |E_t| >= 16B",
         r"|E_t| > 16B \to |E_t| \ge 16B",
         r"the case $|E_t| = 16B$ exactly, where the algorithm shrinks and no event happens"),
    Note("iln.thm1.regret", "a factor 2 apart",
         r"\eta = \frac{B}{\sqrt{T}} \to \eta = \frac{B}{2\sqrt{T}}",
         r"a factor 2 in $\eta$: $5.01 B\sqrt{T}$ for $4.00 B\sqrt{T}$ at $T = 1000000$",
         snippet="iln.thm1.regret.eta"),
    Note("iln.thm1.regret", "bounds the variance term of eq. (16) by T",
         r"\text{ICML } \le T \to \le \eta T",
         r"$T$ for $\eta T$: the proof would end at $O(T)$"),
    Note("iln.thm1.test_time", "descent adversary",
         r"m = \frac{\|\alpha\|_1^2 \log(1/\delta)}{\epsilon_0^2} \to "
         r"\frac{2\|\alpha\|_1^2 \log(2/\delta)}{\epsilon_0^2}",
         r"$P = 0.5000 > \delta = 0.2$ at $m = 2$; $P = 0.0365 > \delta = 0.01$ at $m = 52$",
         snippet="iln.thm1.test_time"),
    Note("rks.fig2.alpha_inf_decay", "C = K^{3/4}",
         r"C = o(K) \to C = o(\min(\sqrt{K}, \sqrt{m}))",
         r"at $C = K^{3/4}$ the bound grows like $K^{1/4}$", snippet="rks.fig2.alpha_inf_decay"),
    Note("rks.lemma1.approximation", "counting measure of the 32 points",
         r"\frac{C}{\sqrt{K}} \to \frac{C\sqrt{\mu(\mathcal{X})}}{\sqrt{K}}",
         r"$P = 0.42 > \delta = 0.1$ at $K = 16$ under the counting measure",
         snippet="rks.lemma1.approximation"),
    Note("rks.lemma3.estimation", "half the range the margins allow",
         r"LC\sqrt{\tfrac{1}{2}\log\tfrac{1}{\delta}} \to LC\sqrt{2\log\tfrac{2}{\delta}}",
         r"probability 4.83e-71 $> \delta =$ 8.93e-81 at $m = 256$",
         snippet="rks.lemma3.estimation"),
    Note("rks.lemma3.estimation", "bounds only R - R_emp",
         r"\log\frac{1}{\delta} \to \log\frac{2}{\delta}",
         r"a one-sided result cited for a two-sided one"),
    Note("rks.rademacher.bound", "inner sums run over k = 1..m",
         r"\sum_{k=1}^{m} \sigma_i \to \sum_{i=1}^{m} \sigma_i",
         r"an index: $k$ for $i$ in eqs. (22) and (23)"),
    Note("rks.thm1.excess_risk", "cites Theorem 1 itself",
         r"\text{by Theorem 1} \to \text{by Lemma 2}",
         r"a reference: Theorem 1 for Lemma 2"),
    Note("rks.thm2.uniform_deviation", "half the range the margins allow",
         r"LC\sqrt{\tfrac{1}{2m}\log\tfrac{1}{\delta}} \to 2LC\sqrt{\tfrac{1}{2m}\log\tfrac{1}{\delta}}",
         r"probability 2.02e-61 $> \delta =$ 8.93e-81 at $m = 256$",
         snippet="rks.thm2.uniform_deviation"),
)


def note_for(erratum: Erratum) -> Note:
    """The note of ``erratum``: of its claim, with its marker in the counterexample text.

    An erratum of a paper :data:`NOTES` does not cover (a plug-in paper's) gets a plain note:
    the summary table reads "printed -> corrected" and the violation is the counterexample's
    first sentence.

    Raises
    ------
    LookupError
        No note, or more than one, fits an erratum of a paper :data:`NOTES` covers: the notes
        and the catalog have drifted apart.
    """
    found = [n for n in NOTES if n.claim_id == erratum.claim_id and n.marker in erratum.counterexample]
    covered = {n.claim_id.split(".", 1)[0] for n in NOTES}
    if not found and erratum.claim_id.split(".", 1)[0] not in covered:
        return Note(erratum.claim_id, "", r"\text{printed} \to \text{corrected}",
                    erratum.counterexample.split(". ", 1)[0].rstrip("."))
    if len(found) != 1:
        raise LookupError(f"{len(found)} notes fit the erratum of {erratum.claim_id} "
                          f"({erratum.counterexample[:60]!r}...): update verification.report.errata.NOTES")
    return found[0]


@dataclass(frozen=True)
class Snippet:
    """A script that reproduces an erratum with numpy alone, and what it prints."""

    name: str
    code: str
    output: str


def snippet(name: str) -> Snippet:
    """The snippet ``name`` (:attr:`Note.snippet`): ``snippets/<name>.py`` and its ``.out``.

    Raises
    ------
    FileNotFoundError
        There is no such snippet.
    """
    folder = resources.files("verification.report") / "snippets"
    code = (folder / f"{name}.py").read_text(encoding="utf-8")
    output = (folder / f"{name}.out").read_text(encoding="utf-8")
    return Snippet(f"{name}.py", code, output)


@dataclass(frozen=True)
class Comparison:
    """Printed against corrected, symbol by symbol.

    Attributes
    ----------
    printed, corrected : tuple of frozenset of int
        For each segment of the statement, the indices (in document order) of the MathML
        leaves that differ; empty for a text segment.
    changes : tuple of (str, str)
        Each run that differs: the printed symbols and the corrected ones ('' for none).
    """

    printed: tuple[frozenset[int], ...]
    corrected: tuple[frozenset[int], ...]
    changes: tuple[tuple[str, str], ...]


#: an equation's number, "(12)", set apart from its formula: a label, not a symbol of it.
_EQUATION_NUMBER = re.compile(r"^\(\d+\)\s*[;,.]?$")


def _parsed(segment: Segment) -> tuple[ET.Element | None, list[ET.Element]]:
    """A math segment's MathML tree and its leaves in document order; (None, []) for text, for
    an equation's number (a corrected statement has none, and it would read as a change) and
    for math that does not render (its fallback has no symbols to compare)."""
    if segment.kind != "math" or _EQUATION_NUMBER.match(segment.content.strip()):
        return None, []
    rendered = to_mathml(segment.content, display=segment.display)
    if not rendered.ok:
        return None, []
    root = ET.fromstring(rendered.markup)
    return root, [e for e in root.iter() if e.tag.removeprefix(f"{{{_MATHML_NS}}}") in _LEAVES]


def _symbol(leaf: ET.Element) -> str:
    # NFKC: a bold x (\mathbf{x}) and an x are one symbol to a reader comparing formulas.
    return unicodedata.normalize("NFKC", (leaf.text or "").strip())


def compare(printed: tuple[Segment, ...], corrected: tuple[Segment, ...]) -> Comparison:
    """Align the symbols of two statements and say which differ.

    Parameters
    ----------
    printed, corrected : tuple of Segment
        The statements as :func:`verification.report.statements.segments` splits them.

    Returns
    -------
    Comparison
    """
    def flatten(segs):
        where, symbols = [], []
        for i, seg in enumerate(segs):
            for j, leaf in enumerate(_parsed(seg)[1]):
                where.append((i, j))
                symbols.append(_symbol(leaf))
        return where, symbols

    (where_a, a), (where_b, b) = flatten(printed), flatten(corrected)
    marked_a, marked_b, changes = set(), set(), []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        marked_a.update(where_a[i1:i2])
        marked_b.update(where_b[j1:j2])
        changes.append(("".join(a[i1:i2]), "".join(b[j1:j2])))

    def per_segment(segs, marked):
        return tuple(frozenset(j for i, j in marked if i == k) for k in range(len(segs)))

    return Comparison(per_segment(printed, marked_a), per_segment(corrected, marked_b), tuple(changes))


def mark(segment: Segment, changed: frozenset[int]) -> str:
    """MathML of a math segment with the leaves ``changed`` given :data:`CHANGED_CLASS`.

    The markup is :func:`verification.report.mathml.to_mathml`'s, checked there; only a class
    attribute is added.  A segment that does not render comes back as its checked fallback.
    """
    root, leaves = _parsed(segment) if changed else (None, [])
    if root is None:
        return to_mathml(segment.content, display=segment.display).markup
    for j in changed:
        leaves[j].set("class", CHANGED_CLASS)
    return ET.tostring(root, encoding="unicode")


def quotation_segments(text: str) -> tuple[Segment, ...]:
    r"""A :class:`verification.catalog.Quote`'s text split for display.

    The quotations keep the alignment marks of a multi-line display (``&=``) and the
    equation tags (``\tag{12}``) because the papers' text has them; shown as one line of a
    list, the marks mean nothing and a tag is the number after the formula, so the marks are
    dropped (an escaped ``\&`` stays) and a tag becomes ``(12)`` set apart.

    >>> [s.content for s in quotation_segments(r"\|x\| &= 1 \tag{12}")]
    ['\\|x\\| = 1', ' ', '(12)']
    >>> [(s.kind, s.content) for s in quotation_segments(r"\mathcal{E}_1^t : $a$")]
    [('math', '\\mathcal{E}_1^t'), ('text', ' : '), ('math', 'a')]
    """
    text = re.sub(r"\\tag\{([^{}]*)\}", r"\\quad (\1)", text)
    out = []
    for seg in quoted_segments(re.sub(r"(?<!\\)&", "", text)):
        if seg.kind != "text":
            out.append(seg)
            continue
        # A paper's text has math outside its dollars at times (``\mathcal{E}_1^t :``): a bare
        # command with its braces and scripts is math, not words to show as typed.
        for k, piece in enumerate(_BARE_LATEX.split(seg.content)):
            if piece:
                out.append(Segment("math", piece) if k % 2 else Segment("text", piece))
    return tuple(out)


#: a LaTeX command outside math, with its braced arguments and its sub- and superscripts.
_BARE_LATEX = re.compile(r"(\\[A-Za-z]+(?:\{[^{}]*\})*(?:[_^](?:\{[^{}]*\}|\w))*)")
