"""The exact decision of a claim (verification.claims.iln.exact_decision): a violation is found
with no sampling error, a "holds" needs every declared variable covered, a tie decides nothing."""

from fractions import Fraction

from verification.claims.iln.exact_decision import TIE, Coverage, ExactPoint, exact_verdict
from verification.verdicts import HOLDS, HOLDS_AFTER_CORRECTION, INCONCLUSIVE, VIOLATED

COVERED = {"T": Coverage("every T >= 1", "1..4", 4, True)}
NOT_COVERED = {"T": Coverage("every T >= 1", "1..4", 4, False)}


def _verdict(printed, corrected, printed_cover=COVERED, corrected_cover=COVERED):
    return exact_verdict("test.exact", printed, corrected, coverage={"printed": printed_cover,
                                                                     "corrected": corrected_cover},
                         alpha=1e-3, n_trials=0)


def test_an_exact_excess_is_a_violation_and_the_first_one_is_the_counterexample():
    points = [ExactPoint("T=1", Fraction(1, 2), 1.0, {"T": 1}), ExactPoint("T=2", Fraction(3), 2.0, {"T": 2}),
              ExactPoint("T=3", Fraction(9), 3.0, {"T": 3})]
    verdict = _verdict(points, [])
    assert verdict.verdict == verdict.verdict_printed == VIOLATED
    assert verdict.verdict_corrected is None
    assert verdict.counterexample["T"] == 2  # the smallest instance that fails, not the worst
    assert verdict.worst_instance["T"] == 3
    assert verdict.pvalue == 0.0


def test_holds_only_when_every_variable_is_covered():
    points = [ExactPoint("T=1", Fraction(1, 2), 1.0)]
    assert _verdict(points, [], NOT_COVERED).verdict == INCONCLUSIVE
    assert "T (admissible every T >= 1" in _verdict(points, [], NOT_COVERED).details["reason"]
    assert _verdict(points, []).verdict == HOLDS


def test_the_correction_decides_between_violated_and_holds_after_correction():
    printed = [ExactPoint("T=1", Fraction(2), 1.0)]
    corrected = [ExactPoint("T=1", Fraction(1, 2), 1.0)]
    assert _verdict(printed, corrected).verdict == HOLDS_AFTER_CORRECTION
    undecided = _verdict(printed, corrected, corrected_cover=NOT_COVERED)
    assert (undecided.verdict, undecided.verdict_corrected) == (VIOLATED, INCONCLUSIVE)
    assert "reason_corrected" in undecided.details
    false = _verdict(printed, [ExactPoint("T=1", Fraction(2), 1.0)])
    assert (false.verdict, false.verdict_corrected) == (VIOLATED, VIOLATED)


def test_a_tie_within_the_margin_decides_nothing():
    tie = ExactPoint("T=1", Fraction(1) + TIE / 2, 1.0)
    assert tie.outcome == "tie"
    assert _verdict([tie], []).verdict == INCONCLUSIVE
    assert ExactPoint("T=1", Fraction(1) + 2 * TIE, 1.0).outcome == "above"
