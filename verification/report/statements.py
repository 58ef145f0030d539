r"""A printed statement as a sequence of text and math segments.

The catalog keeps each statement as printed (:class:`verification.catalog.Source`).  Two forms
occur: text with inline ``$...$`` (or display ``$$...$$``) math, and, where a statement has no
``$`` at all (escaped or not), a statement written wholly in LaTeX math mode (text inside it as ``\text{...}``).
The HTML writer renders the math segments as MathML and the Markdown writer keeps them as
LaTeX, so both split a statement here, once.

Math is split further, at its top level (outside any brace group): a ``\\text{...}`` run
becomes a text segment, so that prose and quotations read as text and not as one MathML letter
run that cannot wrap (``\\dots`` and TeX quotes inside it become their characters), and a
``\\quad`` separating two formulas becomes a space, so that a long statement wraps between its
formulas instead of running off the page's right edge.  A statement that splits keeps its
formulas inline; one that does not stays display math.

Examples
--------
>>> for s in segments(r"If $m \ge 1$ then $$E = 0$$."):
...     print(s.kind, s.display, repr(s.content))
text False 'If '
math False 'm \\ge 1'
text False ' then '
math True 'E = 0'
text False '.'
>>> segments(r"\frac{1}{2}")
(Segment(kind='math', content='\\frac{1}{2}', display=True),)
>>> segments(r"costs \$5")
(Segment(kind='text', content='costs $5', display=False),)
>>> [(s.kind, s.content) for s in segments(r"\text{Figure 1: \dots ``fast''} K = 1,\quad m = 2")]
[('text', 'Figure 1: … “fast” '), ('math', 'K = 1,'), ('text', ' '), ('math', 'm = 2')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Segment", "quoted_segments", "segments"]

# $$...$$ before $...$ so that a display delimiter is not read as two empty inline ones;
# a backslash-escaped dollar is a literal dollar sign, never a delimiter.
_MATH = re.compile(r"(?<!\\)\$\$(?P<display>.+?)(?<!\\)\$\$|(?<!\\)\$(?P<inline>.+?)(?<!\\)\$", re.S)


@dataclass(frozen=True)
class Segment:
    """A run of a statement: ``kind`` is ``"text"`` or ``"math"`` (LaTeX, without delimiters)."""

    kind: str
    content: str
    display: bool = False


#: TeX that reads as a character in text mode.
_TEXT_MODE = ((r"\ldots", "…"), (r"\dots", "…"), ("``", "“"), ("''", "”"), (r"\%", "%"),
              (r"\&", "&"), (r"\_", "_"), ("~", " "))
#: spacing commands that separate two formulas of a statement (a place to wrap the line).
_SEPARATORS = (r"\qquad", r"\quad")
#: math that is only spacing: rendered as a space between the text segments around it.
_SPACING = re.compile(r"^(?:\s|\\[ ,;:!]|~)*$")
_EDGES = re.compile(r"^((?:\s|\\[ ,;:!]|~)*)(.*?)((?:\s|\\[ ,;:!]|~)*)$", re.S)


def _text(content: str) -> Segment:
    return Segment("text", content.replace(r"\$", "$"))


def _text_mode(content: str) -> str:
    for tex, char in _TEXT_MODE:
        content = content.replace(tex, char)
    return content


def _top_level(latex: str):
    """``(kind, piece)`` runs of ``latex``: ``text`` for a top-level ``\\text{...}`` (its
    content), ``sep`` for a top-level ``\\quad``, ``math`` for everything between."""
    depth, start, i = 0, 0, 0
    while i < len(latex):
        char = latex[i]
        if char == "\\" and depth == 0:
            if latex.startswith(r"\text{", i):
                end, inner = i + len(r"\text{"), 1
                while end < len(latex) and inner:
                    inner += {"{": 1, "}": -1}.get(latex[end], 0) if latex[end - 1] != "\\" else 0
                    end += 1
                yield "math", latex[start:i]
                yield "text", latex[i + len(r"\text{"):end - 1]
                start = i = end
                continue
            sep = next((s for s in _SEPARATORS if latex.startswith(s, i)
                        and not latex[i + len(s):i + len(s) + 1].isalpha()), None)
            if sep:
                yield "math", latex[start:i]
                yield "sep", sep
                start = i = i + len(sep)
                continue
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        i += 1
    yield "math", latex[start:]


def _split_math(latex: str, display: bool) -> list[Segment]:
    """A math segment split at its top-level text runs and separators (module docstring)."""
    runs = [(k, p) for k, p in _top_level(latex) if k != "math" or p.strip()]
    if all(k == "math" for k, _ in runs):
        return [Segment("math", latex.strip(), display=display)]
    out = []
    for kind, piece in runs:
        if kind == "text":
            out.append(Segment("text", _text_mode(piece)))
        elif kind == "sep" or _SPACING.match(piece):
            out.append(Segment("text", " "))
        else:
            # Spacing at either end ("\\ " before a text run) is the space between words.
            lead, core, trail = _EDGES.match(piece).groups()
            out.extend([*([Segment("text", " ")] if lead else []), Segment("math", core),
                        *([Segment("text", " ")] if trail else [])])
    merged: list[Segment] = []
    for seg in out:
        if merged and seg.kind == "text" and merged[-1].kind == "text":
            joined = merged[-1].content + seg.content
            merged[-1] = Segment("text", re.sub(r" {2,}", " ", joined))
        else:
            merged.append(seg)
    while merged and merged[-1].kind == "text" and not merged[-1].content.strip():
        merged.pop()
    return merged


def segments(statement: str) -> tuple[Segment, ...]:
    """Split a printed statement into text and math.

    Parameters
    ----------
    statement : str
        Text with ``$...$``/``$$...$$`` math, or (no ``$`` at all) LaTeX math as a whole.

    Returns
    -------
    tuple of Segment
        In order; empty for an empty statement.  An unmatched ``$`` stays in the text.

    Raises
    ------
    TypeError
        ``statement`` is not a str.
    """
    if not isinstance(statement, str):
        raise TypeError(f"statement must be a str, got {type(statement).__name__}")
    if not statement.strip():
        return ()
    if "$" not in statement:
        # The catalog's convention: a statement without delimiters is LaTeX in math mode.
        return tuple(_split_math(statement.strip(), display=True))
    out, position = [], 0
    for match in _MATH.finditer(statement):
        if match.start() > position:
            out.append(_text(statement[position:match.start()]))
        display = match.group("display") is not None
        latex = match.group("display") if display else match.group("inline")
        out.extend(_split_math(latex.strip(), display))
        position = match.end()
    if position < len(statement):
        out.append(_text(statement[position:]))
    return tuple(out)


def quoted_segments(text: str) -> tuple[Segment, ...]:
    r"""Like :func:`segments`, for a text that is prose unless it shows math: without a ``$``
    or a backslash (a quotation stored as plain text, like what a paper's figure showed), it is
    one text segment rather than a statement in math mode.

    >>> quoted_segments('Section 6: "the results show"')
    (Segment(kind='text', content='Section 6: "the results show"', display=False),)
    >>> quoted_segments(r"\text{a} b")[0].kind
    'text'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if "$" not in text and "\\" not in text:
        return (Segment("text", text),) if text.strip() else ()
    return segments(text)
