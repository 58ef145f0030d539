r"""Quotations checked character by character against a paper's text.

The texts this module searches are machine conversions of PDFs: Markdown prose with LaTeX
math between dollar signs, Unicode letters where the PDF had them (``η``, ``μ``, ``–``),
ligatures, converter escapes (``\_``, ``\(``) and links.  A quotation is written in
LaTeX.  Both are brought to one *normal form* by :func:`normalise` and the quotation must
then occur in the text as one contiguous run of characters: nothing is fuzzy, no
character may differ, none may be skipped.

What the normal form forgets, and why each is not evidence in a PDF conversion:

* whitespace, all of it: the converter adds and drops spaces at will (``127dimensional``,
  ``\mathbf{x}_t, y_t ;``), and inside math spacing carries no meaning;
* markup that only sets the type: ``$``, braces, ``\left``/``\right``, spacing commands
  (``\,``, ``\quad``), alignment (``&``, ``\\``), and the style wrappers of letters and
  words (``\mathbf``, ``\text``, ``\operatorname``, ``\mathrm``, ``\emph``...), since
  the converter writes ``\mathbf{w}`` in one place and ``w`` in the next;
* spellings of one symbol: ``\eta`` and ``η``, ``\leq`` and ``\le`` and ``≤``, ``\|``
  and ``||``, ``\underset{\sigma}{\mathbb{E}}`` and ``\mathbb{E}_{\sigma}``, ``\ldots`` and ``\dots`` and ``…``, ``\tag{7}`` and ``(7)``, the Unicode
  dashes and quotation marks and TeX's (two backquotes, two apostrophes), ligatures (``ﬁ``), the Greek variant
  letters (``ϵ``/``ε``);
* Markdown: emphasis stars, links ``[text](#...)``, converter escapes, ``<sup>`` tags;
* a hyphen that breaks a word at the end of a line.

Everything else counts: letters, digits, case, operators, sub- and superscripts, and the
semantic alphabets (``\mathbb{P}`` becomes ``ℙ``, ``\mathcal{H}`` ``ℋ``: not ``P``, ``H``).
A command's name is closed by an invisible separator, and a match may not start inside
one, so that ``rac`` is not found in ``\frac``.  A quotation that is not
in the text gets a :class:`Mismatch` with the longest prefix that is, where that prefix
ends, and the first characters that differ.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Location", "Mismatch", "SearchableText", "locate", "normalise"]

#: commands whose argument is kept and the command dropped: they only choose a typeface.
_STYLE = ("mathbf", "boldsymbol", "bm", "mathrm", "mathit", "mathsf", "mathtt", "text", "textrm",
          "textit", "textbf", "textsf", "emph", "operatorname", "mbox", "hbox")
#: commands (and TeX control symbols) that only space or size: dropped.
_LAYOUT = ("left", "right", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "big", "Big", "bigg",
           "Bigg", "quad", "qquad", "displaystyle", "textstyle", "limits", "nolimits", "middle")
#: one symbol, several spellings: command -> the character both sides are mapped to.
_SYMBOLS = {
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "to": "→",
    "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒", "ldots": "…", "dots": "…",
    "cdots": "…", "dotsc": "…", "dotsb": "…", "cdot": "·", "Vert": "‖", "lVert": "‖", "rVert": "‖",
    "langle": "⟨", "rangle": "⟩", "nabla": "∇", "ell": "ℓ", "infty": "∞", "times": "×", "in": "∈",
    "sim": "∼", "cup": "∪", "cap": "∩", "wedge": "∧", "vee": "∨", "forall": "∀", "exists": "∃",
    "partial": "∂", "subseteq": "⊆", "subset": "⊂", "approx": "≈", "pm": "±", "square": "□",
    "Box": "□", "qed": "□", "tfrac": "\\frac", "dfrac": "\\frac",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "θ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "varrho": "ρ",
    "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ",
    "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}
#: single characters with another spelling: Unicode variants, ligatures, dashes, quotes.
_CHARACTERS = {
    "ϵ": "ε", "ϕ": "φ", "ϑ": "θ", "ϱ": "ρ", "ϖ": "π", "ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl",
    "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st", "‐": "-", "‑": "-", "‒": "-", "–": "-",
    "—": "-", "―": "-", "−": "-", "‘": "'", "’": "'", "‚": "'", "“": '"', "”": '"', "„": '"',
    "∥": "‖", "⋯": "…", "≦": "≤", "≧": "≥",
}


#: what ends a command's name in the normal form (INVISIBLE SEPARATOR: not whitespace).
_END = "\u2063"


def _alphabet(match) -> str:
    r"""``\mathbb{P}`` -> ``ℙ``, ``\mathcal{H}`` -> ``ℋ``: the letter as the PDF prints it."""
    style = {"mathbb": "DOUBLE-STRUCK", "mathcal": "SCRIPT"}[match.group(1)]
    for name in (f"{style} CAPITAL {match.group(2)}", f"MATHEMATICAL {style} CAPITAL {match.group(2)}"):
        try:
            return unicodedata.lookup(name)
        except KeyError:
            continue
    return match.group(0)  # pragma: no cover - every capital has one of the two names


@dataclass(frozen=True)
class _Normal:
    """Normalised characters and, for each, the offset in the source it comes from."""

    chars: str
    origin: tuple[int, ...]


def _substitute(pattern: str, replacement, normal: _Normal) -> _Normal:
    """Rewrite every match of ``pattern``, keeping each output character's source offset.

    ``replacement`` None keeps group 1 of the match (with its own offsets); a string, or a
    callable of the match returning one, replaces the match, its characters taken to come
    from where the match starts.
    """
    chars: list[str] = []
    origin: list[int] = []
    last = 0
    for match in re.finditer(pattern, normal.chars):
        chars.append(normal.chars[last:match.start()])
        origin.extend(normal.origin[last:match.start()])
        if replacement is None:
            chars.append(match.group(1))
            origin.extend(normal.origin[match.start(1):match.end(1)])
        else:
            out = replacement if isinstance(replacement, str) else replacement(match)
            chars.append(out)
            origin.extend([normal.origin[match.start()]] * len(out))
        last = match.end()
    chars.append(normal.chars[last:])
    origin.extend(normal.origin[last:])
    return _Normal("".join(chars), tuple(origin))


def _normal_form(source: str) -> _Normal:
    # NFC only: NFKC would also fold letters the papers distinguish (ℓ -> l, ² -> 2).
    chars, origin = [], []
    for offset, char in enumerate(source):
        for out in _CHARACTERS.get(char, unicodedata.normalize("NFC", char)):
            chars.append(out)
            origin.append(offset)
    n = _Normal("".join(chars), tuple(origin))
    n = _substitute(r"\[([^\]\n]*)\]\([^)\s]*\)", None, n)          # Markdown link -> its text
    n = _substitute(r"</?(?:sup|sub|em|strong|b|i)>", "", n)          # converter's HTML tags
    n = _substitute(r"(?m)^#+[ \t]", "", n)                            # Markdown headings
    n = _substitute(r"\\tag\*?\{([^{}]*)\}", lambda m: f"({m.group(1)})", n)  # \tag{7} -> (7)
    n = _substitute(r"\\(?:begin|end)\{[a-z*]*\}", "", n)             # aligned environments
    n = _underset(_substitute(r"\\substack(?![A-Za-z])", "", n))
    n = _substitute(r"\\(?:" + "|".join(_STYLE) + r")(?![A-Za-z])\*?", "", n)
    n = _substitute(r"\\(?:" + "|".join(_LAYOUT) + r")(?![A-Za-z])", "", n)
    n = _substitute(r"\\([_#%$()\[\]{}])", None, n)                    # escaped characters
    n = _substitute(r"\\[,;:!> ]|\\\\|&", "", n)                      # spacing, alignment
    for name in sorted(_SYMBOLS, key=len, reverse=True):
        n = _substitute(r"\\" + name + r"(?![A-Za-z])", _SYMBOLS[name], n)
    n = _substitute(r"\\\||\|\|", "‖", n)                               # \| and || -> ‖
    n = _substitute(r"\\(mathbb|mathcal)\s*\{?\s*([A-Z])\s*\}?", _alphabet, n)  # \mathbb{P} -> ℙ
    # A command's name ends where a separator says so, not where the next letter starts:
    # once braces go, \sqrt{T} would read \sqrtT and "rtT" would be found in it.
    n = _substitute(r"(\\[A-Za-z]+)", lambda m: m.group(1) + _END, n)
    n = _substitute(r"\.\.\.", "…", n)
    n = _substitute(r"``|''", '"', n)                                   # TeX quotes
    n = _substitute(r"-{2,3}", "-", n)                                  # TeX dashes
    n = _substitute(r"(\w)-[ \t]*\n[ \t]*(?=\w)", None, n)            # hyphen at a line end
    n = _substitute(r"[${}]", "", n)
    n = _substitute(r"\s+", "", n)
    # Markdown emphasis; a star after ^ is a superscript (f^*) and stays.
    return _substitute(r"(?<!\^)\*", "", n)


def _group_end(chars: str, start: int) -> int:
    """End (exclusive) of the TeX argument starting at ``start``: a braced group or one token."""
    while start < len(chars) and chars[start].isspace():
        start += 1
    if start < len(chars) and chars[start] == "{":
        depth = 0
        for end in range(start, len(chars)):
            depth += {"{": 1, "}": -1}.get(chars[end], 0)
            if depth == 0:
                return end + 1
        return len(chars)
    match = re.compile(r"\\[A-Za-z]+|\\.|.", re.S).match(chars, start)
    return match.end() if match else start


def _underset(normal: _Normal) -> _Normal:
    r"""``\underset{S}{E}`` -> ``E_{S}``: one printed symbol, an operator with a subscript
    set below it, which the conversion of a display writes either way."""
    chars, origin = normal.chars, normal.origin
    while (match := re.search(r"\\underset(?![A-Za-z])", chars)) is not None:
        below_end = _group_end(chars, match.end())
        symbol_end = _group_end(chars, below_end)
        below, symbol = slice(match.end(), below_end), slice(below_end, symbol_end)
        at = origin[match.start()]
        chars = chars[:match.start()] + chars[symbol] + "_" + chars[below] + chars[symbol_end:]
        origin = origin[:match.start()] + origin[symbol] + (at,) + origin[below] + origin[symbol_end:]
    return _Normal(chars, origin)


def normalise(text: str) -> str:
    r"""The normal form in which a quotation and a paper's text are compared.

    Parameters
    ----------
    text : str
        A quotation (LaTeX) or a paper's text (a PDF conversion).

    Returns
    -------
    str
        The characters that count, without whitespace (see the module's docstring).

    Examples
    --------
    >>> normalise(r"We next set $\eta$ and  ``m'' --- \text{as} $\frac{B}{2\sqrt{T}}$")
    'Wenextsetηand"m"-as\\frac\u2063B2\\sqrt\u2063T'
    >>> normalise("ﬁnd η ≤ 1") == normalise(r"find $\eta \leq 1$")
    True
    """
    return _normal_form(text).chars


@dataclass(frozen=True)
class Location:
    """Where a quotation stands in a text.

    Attributes
    ----------
    line : int
        Line (from 1) of the text where the quotation starts.
    excerpt : str
        The text as it stands there, from the quotation's first to its last character.
    """

    line: int
    excerpt: str

    def __str__(self) -> str:
        return f"found at line {self.line}: {self.excerpt!r}"


@dataclass(frozen=True)
class Mismatch:
    """A quotation that is not in the text: how far it matches and where it departs.

    Attributes
    ----------
    matched : str
        The longest prefix of the normalised quotation that occurs in the normalised text.
    line : int or None
        Line of the text where the first occurrence of that prefix ends (None when not even
        the first character occurs).
    quotation_next : str
        The quotation's next characters after the prefix (normalised).
    text_next : str
        The text's next characters at that place (normalised).
    text_excerpt : str
        The text as it stands at that place (its source characters).
    """

    matched: str
    line: int | None
    quotation_next: str
    text_next: str
    text_excerpt: str

    def __str__(self) -> str:
        if self.line is None:
            return f"not found: not even its first character {self.quotation_next[:1]!r} occurs"
        return (f"not found: the longest prefix that occurs is {self.matched[-60:]!r} ("
                f"{len(self.matched)} characters, to line {self.line}); then the quotation has "
                f"{self.quotation_next!r} where the text has {self.text_next!r} "
                f"(text there: {self.text_excerpt!r})")


class SearchableText:
    """A text normalised once, in which quotations are located.

    Parameters
    ----------
    text : str
        The text, e.g. a paper's machine conversion.
    context : int, default=24
        How many characters of each side a :class:`Mismatch` shows.
    """

    def __init__(self, text: str, *, context: int = 24):
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        self.text = text
        self.context = context
        self._normal = _normal_form(text)

    def _line(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def locate(self, quotation: str) -> Location | Mismatch:
        """Find ``quotation`` in the text, character by character after normalisation.

        Parameters
        ----------
        quotation : str
            The quoted words (LaTeX allowed).

        Returns
        -------
        Location or Mismatch
            Where it starts, or how far it matches and where it departs.

        Raises
        ------
        ValueError
            When the quotation normalises to nothing (it would match anywhere).
        """
        quote = normalise(quotation)
        if not quote:
            raise ValueError(f"quotation {quotation!r} has no character that counts")
        chars, origin = self._normal.chars, self._normal.origin
        start = chars.find(quote)
        while start > 0 and quote[0].isalpha() and re.search(r"\\[A-Za-z]+$", chars[max(0, start - 40):start]):
            start = chars.find(quote, start + 1)  # it would start inside a command's name
        if start >= 0:
            first, last = origin[start], origin[start + len(quote) - 1]
            return Location(self._line(first), self.text[first:last + 1])
        # The longest prefix that occurs: occurrence is monotone in the prefix length.
        lo, hi = 0, len(quote) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if quote[:mid] in chars:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            return Mismatch("", None, quote[:self.context], "", "")
        end = chars.find(quote[:lo]) + lo
        source = origin[end] if end < len(origin) else len(self.text)
        return Mismatch(quote[:lo], self._line(source), quote[lo:lo + self.context],
                        chars[end:end + self.context], self.text[source:source + 2 * self.context])


def locate(quotation: str, text: str) -> Location | Mismatch:
    r"""Find ``quotation`` in ``text``; see :meth:`SearchableText.locate`.

    Examples
    --------
    >>> str(locate("the kernel trick", "Beyond\nthe kernel  trick."))
    "found at line 2: 'the kernel  trick'"
    >>> locate("the kernel track", "Beyond the kernel trick.").quotation_next
    'ack'
    """
    return SearchableText(text).locate(quotation)
