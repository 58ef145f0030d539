"""A paper's figure checked here: the setting it was decided on against the paper's.

A figure states a finding on the paper's data under the paper's protocol.  Offline, a figure
claim runs on stand-in data (a bundled or synthetic data set in place of the paper's), or under
a protocol the paper does not state (a feature budget, a scaling, a grid of step sizes, which
loss an axis plots, which solution a solver returns).  Its rule decides the figure's own claim
(its caption's, in the range of its axes or the range the data support) on that setting; what
the verdict may then say about the paper depends on what differs:

* nothing differs (the paper's own stated setting reproduced): the rule's verdict stands,
  ``violated`` included;
* something differs and the rule finds the claim contradicted: ``not_reproduced``, never
  ``violated``: a contradiction on another setting is no evidence against the paper, and the
  verdict names what differs;
* something differs and the claim holds, or the rule cannot decide: ``holds`` or
  ``inconclusive``, with what differs named the same way.

What differs is known before any run: a figure claim lists it from its configuration (the data
set it is given, the protocol it fixes), never from its results.  The figure's other results
(a second loss, the other data sets, a part of a speed-accuracy figure whose error is not
reached) are reported beside the verdict as sub-results, none of them deciding.

Examples
--------
>>> from verification.verdicts import Verdict
>>> found = Verdict("fig", "violated", "comparison", 1.0, 0.5, (0.9, 1.0), 0.999, 1e-3, 2.0,
...                 None, 1.0, 20, 1e-6, min_detectable_ratio=2.0, verdict_printed="violated")
>>> data = Difference("data", "adult", "scikit-learn's breast_cancer")
>>> v = figure_verdict(found, [data], claim="A below B", finding="B below A on 20 of 20 seeds")
>>> v.verdict, v.details["differs"][0]["aspect"]
('not_reproduced', 'data')
>>> figure_verdict(found, [], claim="A below B", finding="B below A on 20 of 20 seeds").verdict
'violated'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from verification.verdicts import ERROR, HOLDS, INCONCLUSIVE, NOT_REPRODUCED, VIOLATED, Verdict

__all__ = ["Difference", "figure_verdict", "found_here"]

#: how a rule's outcome on this setting reads in a sub-result: a setting that is not the
#: paper's contradicts the claim here, it does not violate the paper.
_FOUND = {VIOLATED: "contradicted here", HOLDS: "holds here", INCONCLUSIVE: "undecided here"}


@dataclass(frozen=True)
class Difference:
    """One way the setting a figure was decided on differs from the paper's.

    Attributes
    ----------
    aspect : str
        What differs, in a few words: ``"data"``, ``"feature budget"``, ``"step sizes"``.
    paper : str
        What the paper states, quoted or paraphrased, or that it states nothing.
    here : str
        What this check does instead.
    """

    aspect: str
    paper: str
    here: str

    def __post_init__(self):
        for name in ("aspect", "paper", "here"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{name} of a Difference must be a non-empty str, got {value!r}")

    def to_json(self) -> dict[str, str]:
        """The difference as JSON."""
        return {"aspect": self.aspect, "paper": self.paper, "here": self.here}


def found_here(outcome: str) -> str:
    """A rule's outcome on the setting decided on, as a sub-result says it.

    >>> found_here("violated"), found_here("inconclusive")
    ('contradicted here', 'undecided here')
    """
    if outcome not in _FOUND:
        raise ValueError(f"outcome must be one of {sorted(_FOUND)}, got {outcome!r}")
    return _FOUND[outcome]


def figure_verdict(verdict: Verdict, differs: Sequence[Difference], *, claim: str, finding: str,
                   sub_results: Mapping[str, str] | None = None) -> Verdict:
    """The verdict of a figure's claim from its rule's verdict on the setting decided on.

    Parameters
    ----------
    verdict : Verdict
        The rule's verdict of the figure's claim on this setting.
    differs : sequence of Difference
        How this setting differs from the paper's; empty when the paper's own stated setting
        was reproduced.
    claim : str
        The figure's claim as decided, in words (its caption's, with the range decided).
    finding : str
        What the rule found, in words, with its numbers.
    sub_results : mapping of str to str, optional
        The figure's other results, one line each, by name: reported, not deciding.

    Returns
    -------
    Verdict
        ``not_reproduced`` in place of ``violated`` when ``differs`` is not empty (its
        ``details["reason"]`` names the aspects that differ), otherwise the rule's outcome;
        ``details`` gains ``figure_claim``, ``found_here`` (the rule's outcome on this
        setting), ``differs``, ``sub_results`` and a ``headline`` that begins with the verdict
        and why.
    """
    if not isinstance(verdict, Verdict):
        raise TypeError(f"verdict must be a Verdict, got {type(verdict).__name__}")
    differs = list(differs)
    if not all(isinstance(d, Difference) for d in differs):
        raise TypeError("differs must hold Difference objects only")
    for name, text in (("claim", claim), ("finding", finding)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"{name} must be a non-empty str, got {text!r}")
    subs = dict(sub_results or {})
    found = verdict.verdict
    if found == ERROR:
        return verdict
    outcome = NOT_REPRODUCED if found == VIOLATED and differs else found
    aspects = ", ".join(d.aspect for d in differs)
    setting = (f"on a setting that differs from the paper's in: {aspects}" if differs
               else "on the paper's own stated setting")
    details = {**verdict.details, "figure_claim": claim, "found_here": found,
               "differs": [d.to_json() for d in differs], "sub_results": subs}
    if outcome == NOT_REPRODUCED:
        details["reason"] = (f"the figure's claim is contradicted here, {setting} (each difference "
                             "under differs): no evidence against the paper")
    # An inconclusive verdict's reason is the rule's, and the report puts it first.
    head = f"{outcome} {setting}" if outcome == INCONCLUSIVE else f"{outcome}, {setting}"
    details["headline"] = "; ".join([f"{head}: {finding}",
                                     *(f"{name}: {line}" for name, line in subs.items())])
    return replace(verdict, verdict=outcome, verdict_printed=outcome, verdict_corrected=None, details=details)
