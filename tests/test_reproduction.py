"""``not_reproduced`` is not ``violated`` (issue 42, item 7): a figure's claim contradicted on a
setting other than the paper's (stand-in data, a protocol the paper does not state) is
``not_reproduced`` with what differs; on the paper's own stated setting it is ``violated``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from verification import catalog, cli, rules, runner
from verification.reproduction import Difference, figure_verdict
from verification.verdicts import CONTRADICTED, NOT_REPRODUCED, OUTCOMES, VIOLATED, Verdict

DATA = Difference("data", "adult (RKS Section 4)", "scikit-learn's breast_cancer")
BUDGET = Difference("feature budget", "not stated", "2e4 psi evaluations")


def _compared(a_higher: int, seeds: int = 20, claim_id: str = "fig") -> Verdict:
    """The comparison rule's verdict of "A below B" with A higher on ``a_higher`` of ``seeds``."""
    point = rules.PairedPoint("D=550/b", a=[1.0] * a_higher + [0.0] * (seeds - a_higher), b=[0.5] * seeds,
                              names=("a", "b"))
    return rules.paired_comparison(claim_id, [point], 1e-3)


def _figure(verdict: Verdict, differs) -> Verdict:
    return figure_verdict(verdict, differs, claim="A below B at every D", finding="B below A on most seeds",
                          sub_results={"held-out loss": "holds"})


def test_a_figure_contradicted_on_stand_in_data_or_an_unstated_protocol_is_not_violated():
    found = _compared(20)
    assert found.verdict == VIOLATED
    for differs in ([DATA], [BUDGET], [DATA, BUDGET]):
        v = _figure(found, differs)
        assert v.verdict == v.verdict_printed == NOT_REPRODUCED
        assert v.details["found_here"] == VIOLATED
        assert [d["aspect"] for d in v.details["differs"]] == [d.aspect for d in differs]
        assert v.details["headline"].startswith(
            f"not_reproduced, on a setting that differs from the paper's in: {', '.join(d.aspect for d in differs)}: "
            "B below A on most seeds")
        assert "held-out loss: holds" in v.details["headline"]
        assert "no evidence against the paper" in v.details["reason"]
        # The contradiction's numbers are kept: Holm's step-down still confirms it.
        assert (v.pvalue, v.statistic, v.counterexample) == (found.pvalue, found.statistic, found.counterexample)


def test_on_the_paper_s_own_stated_setting_a_figure_can_be_violated():
    v = _figure(_compared(20), [])
    assert v.verdict == VIOLATED
    assert v.details["differs"] == []
    assert v.details["headline"].startswith("violated, on the paper's own stated setting: ")
    assert "reason" not in v.details


def test_a_figure_that_holds_or_is_undecided_keeps_its_verdict_with_what_differs():
    holds = _figure(_compared(0), [DATA])
    assert holds.verdict == "holds"
    assert holds.details["differs"][0]["here"] == "scikit-learn's breast_cancer"
    assert holds.details["headline"].startswith("holds, on a setting that differs from the paper's in: data: ")
    undecided = _compared(10)
    assert undecided.verdict == "inconclusive"
    v = _figure(undecided, [DATA])
    assert v.verdict == "inconclusive"
    assert v.details["reason"] == undecided.details["reason"]  # the rule's, which the report puts first


def test_an_error_verdict_passes_through():
    error = runner.error_verdict("fig", "trial", "ValueError: x", seed=0, profile="smoke")
    assert _figure(error, [DATA]) is error


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"differs": ["data"]}, TypeError, "Difference"),
    ({"claim": ""}, ValueError, "claim must be"),
    ({"finding": None}, ValueError, "finding must be"),
    ({"verdict": {"verdict": "violated"}}, TypeError, "verdict must be a Verdict"),
])
def test_bad_input_names_the_argument(kwargs, error, match):
    args = {"verdict": _compared(20), "differs": [DATA], "claim": "c", "finding": "f", **kwargs}
    verdict, differs = args.pop("verdict"), args.pop("differs")
    with pytest.raises(error, match=match):
        figure_verdict(verdict, differs, **args)
    with pytest.raises(ValueError, match="here of a Difference"):
        Difference("data", "adult", " ")


def test_the_outcome_round_trips_and_counts_as_a_contradiction_but_not_a_printed_failure():
    v = _figure(_compared(20), [DATA])
    assert NOT_REPRODUCED in OUTCOMES
    assert NOT_REPRODUCED in CONTRADICTED
    assert NOT_REPRODUCED not in cli.PRINTED_FAILS  # --fail-on-violation: the paper is not shown false
    again = Verdict.from_json(v.to_json())
    assert again.verdict == NOT_REPRODUCED
    assert again.details["differs"] == v.details["differs"]


def test_holm_s_step_down_confirms_a_not_reproduced_figure_like_a_violation():
    """A contradiction Holm's step-down does not reject (a decision whose p-value disagrees
    with it) is inconclusive, whatever setting it was found on."""
    def claim(claim_id, pvalue):
        def decide(records, config, alpha):
            found = Verdict(claim_id, VIOLATED, "comparison", 1.0, 0.5, (0.9, 1.0), 1 - alpha, alpha, 2.0,
                            None, 0.0, 20, pvalue, min_detectable_ratio=2.0)
            return figure_verdict(found, [DATA], claim="A below B", finding="B below A")
        return SimpleNamespace(id=claim_id, decide=decide)

    verdicts = runner._decide([claim("strong", 1e-9), claim("weak", 0.5)],
                              lambda c, level: c.decide([], {}, level), 1e-3)
    assert verdicts["strong"].verdict == NOT_REPRODUCED
    assert verdicts["weak"].verdict == "inconclusive"
    assert "not rejected by Holm" in verdicts["weak"].details["reason"]


def _claim(location: str, expected: str) -> catalog.Claim:
    return catalog.Claim(id="x.fig", title="t", sources=(catalog.Source("RKS", location, "s"),), rule="comparison",
                         expected=expected, configs={p: {"n_trials": 1} for p in catalog.PROFILES},
                         trial=lambda config, seed: {}, decide=lambda records, config, alpha: None)


def test_only_a_figure_claim_may_expect_not_reproduced():
    assert _claim("Figure 2 and Section 4", NOT_REPRODUCED).is_figure
    with pytest.raises(ValueError, match="expected 'not_reproduced' is the outcome of a figure claim"):
        _claim("Lemma 1", NOT_REPRODUCED)
    assert not _claim("Lemma 1", VIOLATED).is_figure
    with pytest.raises(ValueError, match="expected must be one of"):
        _claim("Figure 1", "not reproduced")


def test_the_three_figure_claims_are_the_figures_and_none_expects_violated():
    """Issue 42 item 7: no figure claim here runs the paper's own stated setting (stand-in data,
    unstated budgets, step sizes, grids of K, a solver), so none may expect ``violated``."""
    known = catalog.load()
    figures = {c for c, claim in known.items() if claim.is_figure}
    assert figures == {"iln.sec6.figure1", "rks.fig1.vs_adaboost", "rks.fig2.alpha_inf_decay"}
    assert {c: known[c].expected for c in sorted(figures)} == {
        "iln.sec6.figure1": NOT_REPRODUCED, "rks.fig1.vs_adaboost": "holds", "rks.fig2.alpha_inf_decay": NOT_REPRODUCED}
