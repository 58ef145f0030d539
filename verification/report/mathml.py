r"""LaTeX to MathML for the HTML report, with a visible fallback.

:func:`to_mathml` converts with ``latex2mathml`` and then checks the result before it goes into
a page: it must be well-formed XML made of MathML elements only, with no event-handler or link
attributes.  ``latex2mathml`` copies the contents of ``\text{...}`` verbatim, so a statement
such as ``\text{<b>x</b>}`` would otherwise inject HTML.  When the conversion raises or the
check fails, the LaTeX source is shown, escaped, in ``<code>`` with a note saying so.

Examples
--------
>>> to_mathml(r"\frac{a}{b}", display=False).ok
True
>>> bad = to_mathml(r"a^", display=False)
>>> bad.ok, "<code" in bad.markup
(False, True)
>>> to_mathml(r"\text{<b>x</b>}", display=False).ok
False
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import latex2mathml.converter

__all__ = ["MATHML_ELEMENTS", "RenderedMath", "to_mathml"]

#: the presentation-MathML elements a page may contain.
MATHML_ELEMENTS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
    "mfrac", "msqrt", "mroot", "mstyle", "merror", "mpadded", "mphantom", "menclose", "munder",
    "mover", "munderover", "mtable", "mtr", "mtd", "mlabeledtr", "mmultiscripts", "mprescripts",
    "none", "semantics", "annotation", "maction",
})
_MATHML_NS = "{http://www.w3.org/1998/Math/MathML}"


@dataclass(frozen=True)
class RenderedMath:
    """HTML for one math segment: MathML when ``ok``, else the escaped source and a note."""

    markup: str
    ok: bool
    error: str | None = None


def _unsafe(mathml: str) -> str | None:
    """Why ``mathml`` may not go into a page, or None when it may."""
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError as exc:
        return f"not well-formed MathML ({exc})"
    for element in root.iter():
        name = element.tag.removeprefix(_MATHML_NS)
        if name not in MATHML_ELEMENTS:
            return f"element <{name}> is not MathML"
        for attribute in element.attrib:
            if attribute.lower().startswith("on") or "href" in attribute.lower():
                return f"attribute {attribute} is not allowed"
    return None


def _fallback(latex: str, reason: str) -> RenderedMath:
    markup = (f'<code class="math-fallback">{html.escape(latex)}</code>'
              f'<span class="note"> (LaTeX source shown: it could not be rendered as MathML: '
              f'{html.escape(reason)})</span>')
    return RenderedMath(markup, False, reason)


def to_mathml(latex: str, *, display: bool) -> RenderedMath:
    """Render LaTeX math as MathML, or fall back to its source.

    Parameters
    ----------
    latex : str
        Math-mode LaTeX, without ``$`` delimiters.
    display : bool
        Block (display) math rather than inline.

    Returns
    -------
    RenderedMath
        Markup safe to insert into HTML unescaped.

    Raises
    ------
    TypeError
        ``latex`` is not a str.
    """
    if not isinstance(latex, str):
        raise TypeError(f"latex must be a str, got {type(latex).__name__}")
    try:
        mathml = latex2mathml.converter.convert(latex, display="block" if display else "inline")
    # latex2mathml's errors share no base class beyond Exception.
    except Exception as exc:
        return _fallback(latex, f"{type(exc).__name__} {exc}".strip())
    reason = _unsafe(mathml)
    return _fallback(latex, reason) if reason else RenderedMath(mathml, True)
