"""Why a verdict on the unmodified code differs from the expected one.

Issue #8 asks that a false alarm name its claim *and say why*.  The why is the claim's decision
as the run saved it (docs, The decision rules): the statistic against the bound, its interval, the
p-value against the claim's share ``alpha`` of the family-wise budget, and the power.  From these
one sentence says which kind of miss it is:

* a ``holds`` claim found ``violated`` (or ``holds_after_correction``): the test rejected a
  true statement, which it does with probability at most ``alpha`` (a type-I error) -- unless
  the implementation or the claim's reading is wrong, which the p-value alone cannot tell
  apart, so the sentence gives the numbers;
* ``inconclusive`` where the statement was expected to hold: the interval straddles the bound,
  which happens when the instances come closer to the bound than the check's power resolves;
* an erratum (expected ``violated`` or ``holds_after_correction``) found ``inconclusive`` or
  ``holds``: the violation was not significant at the claim's ``alpha`` (a type-II error),
  which the check makes for a violation smaller than its power (the ``power`` of
  :class:`~verification.verdicts.Verdict`) -- except for a corrected claim found
  ``inconclusive`` with ``p <= alpha``: the printed statement's violation was found and the
  corrected statement's check was undecided.  The sentence does not set the statistic against
  the power: whether ``power`` is a distance from the bound or a value of the statistic
  depends on the rule, so the numbers are given as the run saved them;
* a figure (expected ``not_reproduced``: its claim contradicted on a setting other than the
  paper's) found ``holds`` or ``inconclusive``: the contradiction was not significant, as for
  an erratum; found ``violated``, or expected ``violated`` and found ``not_reproduced``: the
  contradiction was found, and the setting it was found on (the paper's own, or one that
  differs from it) is not the one the catalog expects;
* ``error``: the claim's trials raised; the sentence is the error.

The sentences are kept in the per-seed entries of ``selftest.json`` (``"why"``), so a campaign
resumed without the stores keeps them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from verification import verdicts as outcomes
from verification.report.tables import format_value
from verification.selftest.mutation import ERROR
from verification.store import Store
from verification.verdicts import Verdict

__all__ = ["annotate", "why"]

_REJECTED = set(outcomes.CONTRADICTED)
_TYPE_ONE = ("the test rejected the printed statement, which for a true statement happens with "
             "probability at most alpha (a type-I error)")


def _undetected(expected: str, verdict: Verdict) -> str:
    """An expected violation that was not found, or a correction left undecided."""
    # A NaN p-value compares false: no evidence that the printed statement was violated.
    if (expected == outcomes.HOLDS_AFTER_CORRECTION and verdict.verdict == outcomes.INCONCLUSIVE
            and verdict.pvalue <= verdict.alpha):
        return ("the printed statement's violation was found (p <= alpha), but the check of the "
                "corrected statement was undecided: its interval straddles its bound")
    what = ("the figure's contradiction on a setting other than the paper's" if expected == outcomes.NOT_REPRODUCED
            else "the printed statement's violation")
    return (f"{what} was not significant (p = {format_value(verdict.pvalue)} "
            f"vs alpha = {format_value(verdict.alpha)}): a type-II error, which the check makes for "
            "a violation smaller than its power at this profile (and with probability at most 0.1 "
            "for a larger one)")


def _kind(expected: str, verdict: Verdict) -> str:
    """The kind of miss, from the expected and the found verdict."""
    found = verdict.verdict
    if expected in _REJECTED and found in (outcomes.INCONCLUSIVE, outcomes.HOLDS):
        return _undetected(expected, verdict)
    if found == outcomes.INCONCLUSIVE:
        return ("the interval straddles the bound: the instances came closer to the bound than "
                "the check's power resolves")
    if expected == outcomes.HOLDS and found in _REJECTED:
        return _TYPE_ONE
    if {expected, found} == {outcomes.VIOLATED, outcomes.NOT_REPRODUCED}:
        differs = ", ".join(str(d.get("aspect")) for d in verdict.details.get("differs", ()) if isinstance(d, dict))
        setting = f"a setting that differs from the paper's in {differs}" if differs else "the paper's own setting"
        return (f"the figure's claim was found contradicted, on {setting}; the catalog expects it on "
                + ("the paper's own setting" if expected == outcomes.VIOLATED else "a setting other than the paper's"))
    if expected == outcomes.HOLDS_AFTER_CORRECTION and found == outcomes.VIOLATED:
        return ("the printed statement's violation was found, and the corrected statement was "
                "rejected too, which for a true correction happens with probability at most "
                "alpha (a type-I error of the corrected check)")
    return "the corrected statement of the errata ledger held, which the catalog does not expect"


def why(verdict: Verdict, expected: str) -> str:
    """One sentence on why ``verdict`` differs from ``expected``, with the decision's numbers.

    Parameters
    ----------
    verdict : Verdict
        The verdict as the run saved it.
    expected : str
        The claim's expected verdict (the catalog's ``expected``).

    Returns
    -------
    str

    Examples
    --------
    >>> v = Verdict("c", "violated", "probability bound", 0.2, 0.1, (0.15, 0.25), 0.99, 0.001,
    ...             2.0, None, 1.0, 400, 0.0004, min_detectable_ratio=1.5)
    >>> why(v, "holds")  # doctest: +NORMALIZE_WHITESPACE
    'violated, expected holds: the test rejected the printed statement, which for a true
    statement happens with probability at most alpha (a type-I error). probability bound:
    statistic 0.2 vs
    bound 0.1, interval [0.15, 0.25] at level 0.99, p = 0.0004 vs alpha = 0.001, smallest
    detectable ratio 1.5, tightness 2, 400 trials'
    """
    numbers = (f"{verdict.rule}: statistic {format_value(verdict.statistic)} vs bound "
               f"{format_value(verdict.bound)}, interval {format_value(list(verdict.interval))} at "
               f"level {_level(verdict.level)}, p = {format_value(verdict.pvalue)} vs alpha = "
               f"{format_value(verdict.alpha)}, smallest detectable ratio "
               f"{format_value(verdict.min_detectable_ratio)}, tightness "
               f"{format_value(verdict.tightness)}, {verdict.n_trials} trials")
    return f"{verdict.verdict}, expected {expected}: {_kind(expected, verdict)}. {numbers}"


def _level(level: float) -> str:
    """A coverage near one as ``1 - x``: four significant digits would round 0.99996 to 1."""
    return f"1 - {format_value(1.0 - level)}" if 0.999 < level < 1.0 else format_value(level)


def annotate(doc: dict, expected: Mapping[str, str], store_for: Callable[[int], Path],
             profile: str) -> int:
    """Add ``"why"`` (claim to sentence) to each per-seed entry of ``doc`` that lacks one.

    Parameters
    ----------
    doc : dict
        A ``selftest.json`` document; changed in place.
    expected : mapping of str to str
        Claim id to expected verdict.
    store_for : callable
        Master seed to the path of the store its run wrote.
    profile : str
        The campaign's profile (the store's verdicts are looked up by seed and profile).

    Returns
    -------
    int
        How many differing verdicts are left without a why (their store is gone).
    """
    unexplained = 0
    for seed_text, entry in doc["false_alarms"].get("per_seed", {}).items():
        differing = [c for c, v in entry["verdicts"].items() if v != expected.get(c, v)]
        reasons = dict(entry.get("why", {}))
        missing = [c for c in differing if c not in reasons]
        errors = entry.get("errors", {})
        for claim in [c for c in missing if entry["verdicts"][c] == ERROR]:
            reasons[claim] = f"error, expected {expected[claim]}: the trials raised {errors.get(claim, '')}"
        missing = [c for c in missing if c not in reasons]
        path = store_for(int(seed_text))
        if missing and path.exists():
            with Store(path) as store:
                saved = {row.claim_id: row.verdict
                         for row in store.verdicts(seed=int(seed_text), profile=profile)}
            reasons.update({c: why(Verdict.from_json(saved[c]), expected[c])
                            for c in missing if c in saved})
        unexplained += sum(c not in reasons for c in differing)
        if reasons:
            entry["why"] = {c: reasons[c] for c in differing if c in reasons}
    return unexplained
