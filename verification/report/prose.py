r"""The math in the project's prose, found and rendered as MathML.

The texts the claims write (errata counterexamples and checks, instance descriptions, notes,
titles, the numbers a trial records) are plain text with math in the project's ASCII
conventions: ``||alpha||_1 <= B sqrt(T)``, ``alpha_i^(t)``, ``<f, Phi(x_t)>``, ``E_t``,
``+-0.998``, ``exp(-2 * 0.81)``, ``f*``.  They are stored as written (they are part of the
trials' code and records), and the report renders them here: :func:`prose_segments` splits a
text into runs of words and runs of math, and gives each run of math as LaTeX that
:func:`verification.report.mathml.to_mathml` renders.

A run of math is a maximal run of tokens that are math-like (one-letter names, names with
a subscript or superscript, Greek letters by name, ``sqrt``/``exp``/``log``/... applied to
something, numbers, operators, brackets; commas and semicolons only inside brackets) that
holds at least one mark no English sentence has (a relation ``<=``, ``=``, ``<``, a subscript
``_``, a superscript ``^``, a norm ``||``, ``+-``, ``->``, a Greek letter, a function applied,
a starred name).  Words of English end a run; so do claim ids and dotted names
(``iln.lemma4.hoeffding``), identifiers of code (``holds_after_correction``: two underscores, or
a first part that is a word), the keys of a grid's points (``two_point/m=2/eps=0.9``, ``K=10``),
options of a command line (``--alpha 1e-4``: ``alpha`` there is a name, not a Greek letter), URLs
and environment variables (``$ILN_DATA_DIR``), which are
kept as code.  An unmatched bracket at a run's edge stays in the text.  A run whose LaTeX
does not render stays as written, so a text is never lost.

Examples
--------
>>> [(s.kind, s.content) for s in prose_segments("the bound ||alpha||_1 <= B sqrt(T) holds")]
[('text', 'the bound '), ('math', '\\|\\alpha \\|_{1}\\le B\\sqrt{T}'), ('text', ' holds')]
>>> [(s.kind, s.content) for s in prose_segments("see iln.lemma4.hoeffding (holds_after_correction)")]
[('text', 'see iln.lemma4.hoeffding (holds_after_correction)')]
>>> [s.content for s in prose_segments("<f, Phi(x_t)> = 0 and alpha_i^(t), log-log fits")
...  if s.kind == "math"]
['\\langle f,\\Phi (x_{t})\\rangle =0', '\\alpha _{i}^{(t)}']
>>> [(s.kind, s.content) for s in prose_segments("data in $ILN_DATA_DIR")]
[('text', 'data in '), ('code', '$ILN_DATA_DIR')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from verification.report.mathml import to_mathml
from verification.report.statements import Segment

__all__ = ["GREEK", "prose_segments"]

#: Greek letters the texts write by name, and their LaTeX.
GREEK = {name: "\\" + name for name in (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "kappa", "lambda", "mu",
    "nu", "rho", "sigma", "tau", "phi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda",
    "Sigma", "Phi", "Psi", "Omega")} | {"eps": "\\epsilon"}
#: functions written by name: math only when applied (``log-log fits`` is English).
_FUNCTIONS = {"sqrt": "\\sqrt", "exp": "\\exp", "log": "\\log", "ln": "\\ln", "sgn": "\\operatorname{sgn}",
              "inf": "\\inf", "sup": "\\sup", "min": "\\min", "max": "\\max", "sum": "\\sum",
              "ceil": "\\operatorname{ceil}", "floor": "\\operatorname{floor}"}
#: names that mean a symbol when written as a subscript (``||alpha||_inf``).
_SCRIPT_SYMBOLS = {"inf": "\\infty "}
#: accents written before their argument (``bar grad_t``), and the gradient.
_ACCENTS = {"bar": "\\bar", "hat": "\\hat", "tilde": "\\tilde"}
_SYMBOLS = {"grad": "\\nabla"}
#: what follows an apostrophe in a possessive or a contraction (the s of "Lemma 1's").
_CONTRACTIONS = frozenset({"s", "t", "d", "m", "ll", "re", "ve"})
#: one-letter English words: never a variable on their own.
_ENGLISH_LETTERS = frozenset({"a", "A", "I"})
_OPERATORS = {"<=": "\\le ", ">=": "\\ge ", "->": "\\to ", "+-": "\\pm ", "!=": "\\ne ", "||": "\\|",
              "*": "\\cdot "}
#: marks that make a run of tokens math (module docstring).
_STRONG_OPERATORS = frozenset({"<=", ">=", "->", "+-", "!=", "||", "=", "<", ">", "^", "_"})
_OPEN, _CLOSE = "([{", ")]}"

_TOKEN = re.compile(r"""
 (?P<url>https?://[^\s)]+[^\s).,;:])
|(?P<option>(?<!\S)--[A-Za-z][\w-]*)
|(?P<env>\$[A-Z][A-Z0-9_]*)
|(?P<key>(?<!\S)(?=\S*[=_])[A-Za-z][\w.+-]*(?:/[\w.+=-]*)+(?=[\s,;)]|$))
|(?P<setting>(?<!\S)[A-Za-z][\w.]*=[\w.+-]+(?=[\s,;)]|$))
|(?P<dotted>\b[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\([^()]*\))?)
|(?P<ident>\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b)
|(?P<space>\s+)
|(?P<number>\d+(?:\.\d+)?(?:e[+-]?\d+(?![A-Za-z]))?)
|(?P<word>[A-Za-z][A-Za-z0-9]*(?:'(?![A-Za-z\s]))*)
|(?P<op><=|>=|->|\+-|!=|\|\||[-+*/=<>^_|,;:])
|(?P<bracket>[()\[\]{}])
|(?P<other>.)
""", re.X | re.S)


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str


def _base(word: str) -> str:
    return re.sub(r"[0-9']+$", "", word)


def _is_name(word: str) -> bool:
    """A word that names a variable or a symbol: one letter (not ``a``), a Greek letter, a
    function, an accent, ``kT`` (two variables), each with digits or primes after it."""
    base = _base(word)
    if len(base) == 1:
        return base not in _ENGLISH_LETTERS or word != base
    return (base in GREEK or base in _FUNCTIONS or base in _ACCENTS or base in _SYMBOLS
            or bool(re.fullmatch(r"[a-z][A-Z]", base)))


def _is_code(ident: str) -> bool:
    """An identifier of code rather than a name with a subscript (module docstring)."""
    parts = ident.split("_")
    return len(parts) > 2 or not _is_name(parts[0])


def _tokens(text: str) -> list[_Token]:
    out = []
    for m in _TOKEN.finditer(text):
        kind, value = str(m.lastgroup), m.group()  # every alternative is a named group
        if kind == "ident":
            if _is_code(value):
                out.append(_Token("plain", value))
            else:
                base, script = value.split("_", 1)
                out.extend([_Token("word", base), _Token("op", "_"),
                            _Token("number" if script.isdigit() else "word", script)])
        elif kind in ("dotted", "key", "setting", "option"):
            out.append(_Token("plain", value))
        else:
            out.append(_Token(kind, value))
    return out


def _applied(tokens: Sequence[_Token], i: int) -> bool:
    """Whether the function at ``i`` has an argument: a bracket, a script or a name after it."""
    j = i + 1
    if j < len(tokens) and tokens[j].text in ("(", "_", "^"):
        return True
    while j < len(tokens) and tokens[j].kind == "space":
        j += 1
    return j < len(tokens) and (tokens[j].kind == "number" or (tokens[j].kind == "word" and _is_name(tokens[j].text))
                                or tokens[j].text == "(")


def _strong(tokens: Sequence[_Token], i: int) -> bool:
    t = tokens[i]
    if t.kind == "op":
        return t.text in _STRONG_OPERATORS or _is_star(tokens, i)
    if t.kind == "word":
        base = _base(t.text)
        return base in GREEK or base in _SYMBOLS or ((base in _FUNCTIONS) and _applied(tokens, i))
    return False


def _is_star(tokens: Sequence[_Token], i: int) -> bool:
    """``f*``: a star right after a name, not followed by something it multiplies."""
    if tokens[i].text != "*" or i == 0 or tokens[i - 1].kind not in ("word", "bracket"):
        return False
    return i + 1 == len(tokens) or tokens[i + 1].kind in ("space", "other") or tokens[i + 1].text in (")", "|", "||", ",")


def _joins(tokens: Sequence[_Token], i: int, depth: int) -> bool:
    """Whether token ``i`` may belong to a run of math."""
    t = tokens[i]
    if t.kind in ("space", "number", "bracket"):
        return True
    if t.kind == "op":
        return depth > 0 or t.text not in ",;:"
    if t.kind == "word":
        if i > 0 and tokens[i - 1].text == "'" and t.text in _CONTRACTIONS:
            return False  # the s of a possessive, the t of a contraction
        # A word right after a subscript or superscript mark is its script, English or not.
        return _is_name(t.text) or (i > 0 and tokens[i - 1].text in ("_", "^"))
    return False


def _angle(tokens: Sequence[_Token], i: int) -> int:
    """+1 for the ``<`` that opens an inner product (no space after it), -1 for the ``>``
    that closes one (no space before it), else 0."""
    t = tokens[i]
    if t.text == "<" and i + 1 < len(tokens) and tokens[i + 1].kind != "space":
        return 1
    if t.text == ">" and i > 0 and tokens[i - 1].kind != "space":
        return -1
    return 0


def _runs(tokens: list[_Token]):
    """``(is_candidate, tokens)`` runs: candidates are maximal runs of joinable tokens."""
    run: list[tuple[int, _Token]] = []
    depth, candidate = 0, None
    for i, t in enumerate(tokens):
        joins = _joins(tokens, i, depth)
        if joins != candidate and run:
            yield candidate, run
            run, depth = [], 0
        candidate = joins
        run.append((i, t))
        if joins and t.kind == "bracket":
            depth = max(0, depth + (1 if t.text in _OPEN else -1))
        elif joins:
            # Inside <f, Phi(x)> a comma belongs to the inner product, as inside brackets.
            depth = max(0, depth + _angle(tokens, i))
    if run:
        yield candidate, run


_EDGE_LEFT = frozenset({"space", ",", ";", ":"})
_EDGE_RIGHT = frozenset({"space", ",", ";", ":", "=", "+", "-", "/"})


def _trimmed(run):
    """``(left, middle, right)``: spaces and dangling punctuation moved out of a run."""
    a, b = 0, len(run)
    while a < b and (run[a][1].kind == "space" or run[a][1].text in _EDGE_LEFT):
        a += 1
    while b > a and (run[b - 1][1].kind == "space" or run[b - 1][1].text in _EDGE_RIGHT):
        b -= 1
    return run[:a], run[a:b], run[b:]


def _unmatched(run) -> set[int]:
    """Positions in ``run`` of brackets without their partner inside it."""
    stack, bad = [], set()
    for k, (_, t) in enumerate(run):
        if t.kind != "bracket":
            continue
        if t.text in _OPEN:
            stack.append(k)
        elif stack and _OPEN.index(run[stack[-1]][1].text) == _CLOSE.index(t.text):
            stack.pop()
        else:
            bad.add(k)
    return bad | set(stack)


class _Latex:
    """LaTeX of a balanced run of math tokens (a small recursive-descent reader)."""

    def __init__(self, tokens: Sequence[_Token]):
        self.t = list(tokens)
        self.angles = self._angles()

    def _angles(self) -> dict[int, str]:
        """``<`` and ``>`` that bracket an inner product (no space inside their edges)."""
        out, pending = {}, []
        for k in range(len(self.t)):
            side = _angle(self.t, k)
            if side == 1:
                pending.append(k)
            elif side == -1 and pending:
                out[pending.pop()] = "\\langle "
                out[k] = "\\rangle "
        return out

    def _match(self, k: int) -> int:
        depth = 0
        for j in range(k, len(self.t)):
            if self.t[j].kind == "bracket":
                depth += 1 if self.t[j].text in _OPEN else -1
                if depth == 0:
                    return j
        raise ValueError("unbalanced")

    def _skip(self, k: int) -> int:
        while k < len(self.t) and self.t[k].kind == "space":
            k += 1
        return k

    def _word(self, word: str, script: bool) -> str:
        base, rest = _base(word), word[len(_base(word)):]
        digits, primes = rest.rstrip("'"), "'" * rest.count("'")
        if script and word in _SCRIPT_SYMBOLS:
            return _SCRIPT_SYMBOLS[word]
        if base in GREEK:
            core = GREEK[base] + " "
        elif base in _SYMBOLS:
            core = _SYMBOLS[base] + " "
        elif base in _FUNCTIONS:
            core = _FUNCTIONS[base] + " "
        elif len(base) > 1 and script:
            core = f"\\mathrm{{{base}}}"
        elif re.fullmatch(r"[a-z][A-Z]", base):
            core = f"{base[0]} {base[1]}"
        else:
            core = base
        if digits and not script:
            core = f"{core}_{{{digits}}}"
        elif digits:
            core += digits
        return core + primes

    def _number(self, text: str) -> str:
        mantissa, _, exponent = text.partition("e")
        return f"{mantissa}\\times 10^{{{int(exponent)}}}" if exponent else text

    def _script(self, k: int) -> tuple[str, int]:
        """The argument of a ``_`` or ``^`` at ``k - 1``."""
        t = self.t[k]
        if t.text == "(":
            end = self._match(k)
            return "(" + self.read(k + 1, end) + ")", end + 1
        if t.text == "{":
            end = self._match(k)
            return self.read(k + 1, end), end + 1
        if t.text in ("-", "+") and k + 1 < len(self.t):
            inner, j = self._atom(k + 1, script=True)
            return t.text + inner, j
        return self._atom(k, script=True)

    def _atom(self, k: int, script: bool = False) -> tuple[str, int]:
        """One token (a bracketed group counts as one), without the scripts after it."""
        t = self.t[k]
        if t.kind == "bracket" and t.text in _OPEN:
            end = self._match(k)
            inner = self.read(k + 1, end)
            return ("{" + inner + "}" if t.text == "{" else t.text + inner + self.t[end].text), end + 1
        if t.kind == "word":
            base = _base(t.text)
            if base == "sqrt" or base in _ACCENTS:
                j = self._skip(k + 1)
                if j < len(self.t) and not (self.t[j].kind == "bracket" and self.t[j].text not in _OPEN):
                    if base == "sqrt" and self.t[j].text == "(":
                        end = self._match(j)
                        return f"\\sqrt{{{self.read(j + 1, end)}}}", end + 1
                    inner, end = self._atom(j)
                    command = "\\sqrt" if base == "sqrt" else _ACCENTS[base]
                    return f"{command}{{{inner}}}", end
                return f"\\mathrm{{{base}}}", k + 1
            return self._word(t.text, script), k + 1
        if t.kind == "number":
            return self._number(t.text), k + 1
        if k in self.angles:
            return self.angles[k], k + 1
        if t.text == "*" and _is_star(self.t, k):
            return "^{*}", k + 1
        if t.text in "{}":
            return "\\" + t.text, k + 1
        return _OPERATORS.get(t.text, t.text), k + 1

    def term(self, k: int) -> tuple[str, int]:
        """An atom with its subscripts, superscripts and star."""
        out, k = self._atom(k)
        while k < len(self.t) and self.t[k].text in ("_", "^"):
            mark = self.t[k].text
            if k + 1 >= len(self.t) or self.t[k + 1].kind == "space":
                break
            arg, k = self._script(k + 1)
            out += f"{mark}{{{arg}}}"
        return out, k

    def read(self, start: int = 0, end: int | None = None) -> str:
        end = len(self.t) if end is None else end
        out, k = [], start
        while k < end:
            if self.t[k].kind == "space":
                k += 1
                continue
            piece, k = self.term(k)
            out.append(piece)
        return "".join(out).strip()


def _pieces(run):
    """A candidate run split at its unmatched brackets: ``(is_math, tokens)`` pieces."""
    bad = _unmatched(run)
    part = []
    for k, item in enumerate(run):
        if k in bad:
            yield from _decided(part)
            yield False, [item]
            part = []
        else:
            part.append(item)
    yield from _decided(part)


def _decided(part):
    if not part:
        return
    left, middle, right = _trimmed(part)
    if left:
        yield False, left
    if middle:
        if _unmatched(middle):
            yield from _pieces(middle)
        else:
            tokens = [t for _, t in middle]
            # A mark alone is a formula only when it is a relation written in two characters
            # ("with <= for the probabilities"); the < of an HTML tag in a note is not.
            operand = any(t.kind in ("word", "number") for t in tokens) or (
                len(tokens) == 1 and tokens[0].text in ("<=", ">=", "!=", "->"))
            yield operand and any(_strong(tokens, i) for i in range(len(tokens))), middle
    if right:
        yield False, right


def prose_segments(text: str) -> tuple[Segment, ...]:
    """Split prose into text, math (LaTeX that renders as MathML) and code.

    Parameters
    ----------
    text : str
        Prose in the project's ASCII math conventions (module docstring).

    Returns
    -------
    tuple of Segment
        ``kind`` is ``"text"``, ``"math"`` (its ``content`` LaTeX, checked to render) or
        ``"code"`` (a URL or an environment variable); adjacent text is merged.  The texts of
        the segments, math read back as written, are ``text``.

    Raises
    ------
    TypeError
        ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    tokens = _tokens(text)
    out: list[Segment] = []

    def add(kind: str, content: str) -> None:
        if kind == "text" and out and out[-1].kind == "text":
            out[-1] = Segment("text", out[-1].content + content)
        elif content:
            out.append(Segment(kind, content))

    for candidate, run in _runs(tokens):
        if not candidate:
            for _, t in run:
                add("code" if t.kind in ("url", "env") else "text", t.text)
            continue
        for is_math, piece in _pieces(run):
            written = "".join(t.text for _, t in piece)
            latex = None
            if is_math:
                try:
                    latex = _Latex([t for _, t in piece]).read()
                except (ValueError, IndexError):
                    latex = None
            if latex and to_mathml(latex, display=False).ok:
                add("math", latex)
            else:
                add("text", written)
    return tuple(out)
