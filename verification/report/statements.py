r"""A printed statement as a sequence of text and math segments.

The catalog keeps each statement as printed (:class:`verification.catalog.Source`).  Two forms
occur: text with inline ``$...$`` (or display ``$$...$$``) math, and, where a statement has no
``$`` at all (escaped or not), a statement written wholly in LaTeX math mode (text inside it as ``\text{...}``).
The HTML writer renders the math segments as MathML and the Markdown writer keeps them as
LaTeX, so both split a statement here, once.

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
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Segment", "segments"]

# $$...$$ before $...$ so that a display delimiter is not read as two empty inline ones;
# a backslash-escaped dollar is a literal dollar sign, never a delimiter.
_MATH = re.compile(r"(?<!\\)\$\$(?P<display>.+?)(?<!\\)\$\$|(?<!\\)\$(?P<inline>.+?)(?<!\\)\$", re.S)


@dataclass(frozen=True)
class Segment:
    """A run of a statement: ``kind`` is ``"text"`` or ``"math"`` (LaTeX, without delimiters)."""

    kind: str
    content: str
    display: bool = False


def _text(content: str) -> Segment:
    return Segment("text", content.replace(r"\$", "$"))


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
        return (Segment("math", statement.strip(), display=True),)
    out, position = [], 0
    for match in _MATH.finditer(statement):
        if match.start() > position:
            out.append(_text(statement[position:match.start()]))
        display = match.group("display") is not None
        latex = match.group("display") if display else match.group("inline")
        out.append(Segment("math", latex.strip(), display=display))
        position = match.end()
    if position < len(statement):
        out.append(_text(statement[position:]))
    return tuple(out)
