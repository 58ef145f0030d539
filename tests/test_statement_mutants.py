"""Statement mutants (issue #18, item 3): each is provably false, and its check rejects it."""

import dataclasses
import json

import pytest

from verification import catalog, search
from verification.selftest import statements

#: claims that state no bound, each with why: a claim not named here, not a conformance claim,
#: a figure or an exploration, states a bound and must have a mutant.
_NOT_BOUNDS = {
    "iln.alg1.rule": "Algorithm 1's printed rule, round by round: a procedure, no inequality",
    "iln.alg2.unbiased": "an identity (E[E_t] = <f, Phi(x)>), decided by an equivalence test",
    "iln.sec6.baselines": "Section 6's description of the baselines: a procedure, no inequality",
    "iln.sec6.figure1": "a figure",
}


def _states_a_bound(claim_id: str) -> bool:
    # A conformance claim compares the code with its transcription: no statement of a paper.
    # The explorations run Theorem 1's bound (iln.thm1.regret's statement, whose mutants they
    # share) on searched instances; the figures state no bound.
    if catalog.load()[claim_id].kind in ("conformance", "exploration"):
        return False
    return not (claim_id in _NOT_BOUNDS or ".fig" in claim_id)


def test_the_claims_said_to_state_no_bound_exist():
    assert set(_NOT_BOUNDS) <= set(catalog.load())


@pytest.mark.parametrize("name", statements.names())
def test_counterexample_is_the_stored_one_and_refutes_the_mutant(name):
    mutant = statements.get(name)
    computed = mutant.counterexample()
    assert computed.pop("violates_mutant") is True
    assert computed == mutant.stored
    assert mutant.why
    assert mutant.statement
    assert mutant.edits


@pytest.mark.parametrize("name", statements.names())
def test_mutant_search_config_is_the_claims_with_entries_replaced(name):
    mutant = statements.get(name)
    config = mutant.check_config()
    base = catalog.get(mutant.claim).config(mutant.profile)
    assert set(config) == set(base)
    assert isinstance(config["n_trials"], int)
    assert config["n_trials"] >= 1
    assert (mutant.config is None) == (not mutant.config_why)
    assert json.loads(json.dumps(mutant.to_json()))["config"] == (None if mutant.config is None else config)


def test_a_search_config_naming_an_unknown_entry_is_refused():
    mutant = dataclasses.replace(statements.get("lemma1_first_term_dropped"), config={"n_trials": 2, "Tee": 2},
                                 config_why="a search of its own")
    with pytest.raises(ValueError, match="Tee"):
        mutant.check_config()
    with pytest.raises(ValueError, match="config_why"):
        dataclasses.replace(mutant, config_why="")


def test_runner_configs_name_claims_run_and_plan_their_trials(tmp_path):
    from verification import runner

    config = catalog.get("iln.lemma3.grad_norm").config("smoke")
    with pytest.raises(ValueError, match="configs"):
        runner.run(["iln.lemma3.grad_norm"], profile="smoke", jobs=1, store=tmp_path / "s.sqlite", quiet=True,
                   configs={"iln.eq17.zero_comparator": config})
    with pytest.raises(ValueError, match="n_trials"):
        runner.run(["iln.lemma3.grad_norm"], profile="smoke", jobs=1, store=tmp_path / "s.sqlite", quiet=True,
                   configs={"iln.lemma3.grad_norm": {**config, "n_trials": 0}})


@pytest.mark.parametrize("name", statements.names())
def test_every_mutant_edit_applies_and_is_undone(name):
    mutant = statements.get(name)
    for edit in mutant.edits:
        undo = edit.apply()
        undo()


def test_mutants_name_known_claims_that_state_a_bound():
    known = catalog.load()
    for mutant in statements.MUTANTS.values():
        assert mutant.claim in known
        assert _states_a_bound(mutant.claim), mutant.name
        # A statement the project expects to fail as printed has nothing to tighten: a mutant
        # of such a claim tightens the corrected statement beside it.
        assert known[mutant.claim].expected != "violated" or mutant.tightens == "corrected", mutant.name


def test_a_mutant_of_the_correction_names_a_claim_with_a_corrected_statement():
    corrected = {m.name for m in statements.MUTANTS.values() if m.tightens == "corrected"}
    assert corrected == {"lemma4_corrected_prefactor_dropped", "test_time_corrected_m_quartered",
                         "events_for_the_printed_step", "estimate_tail_corrected_prefactor_dropped",
                         "update_sign_corrected_sqrt_t_dropped", "online_to_batch_t_exponent_doubled",
                         "lemma1_first_term_dropped", "regret_sqrt_t_dropped", "rks_lemma3_corrected_range_dropped",
                         "rks_thm2_corrected_range_dropped"}
    with_errata = {e.claim_id for e in catalog.errata()}
    for name in corrected:
        assert statements.get(name).claim in with_errata, name
    with pytest.raises(ValueError, match="tightens must be one of"):
        dataclasses.replace(statements.get("grad_norm_constant_halved"), tightens="both")


def test_every_claim_that_states_a_bound_has_a_mutant():
    # A claim that is a specification has its mutants generated from its formulas
    # (verification.search.mutants), tested with the claim.
    covered = {m.claim for m in statements.MUTANTS.values()} | {
        c for c in catalog.load() if search.declared_domain(c) is not None}
    bounds = {c for c in catalog.load() if _states_a_bound(c)}
    assert bounds <= covered, sorted(bounds - covered)


def test_mutant_changes_the_formula_only_while_planted():
    mutant = statements.get("zero_comparator_quartered")
    from verification.claims.iln import eq17
    from verification.selftest.injection import edits_applied

    with edits_applied(mutant.edits):
        assert "T / 4" in eq17.zero_comparator_decide.__code__.co_consts
    assert "T / 4" not in eq17.zero_comparator_decide.__code__.co_consts


def test_rejected_reads_the_sub_verdict_of_the_statement_mutated():
    assert statements.rejected("printed", "violated", "violated", None)
    assert statements.rejected("printed", "inconclusive", "violated", "inconclusive")
    assert not statements.rejected("printed", "inconclusive", "inconclusive", None)
    assert statements.rejected("corrected", "violated", "violated", "violated")
    # Only the printed statement failing is the unmutated outcome, not a rejection: so too
    # when the correction is undecided (iln.alg1.update_sign's verdict on the unmodified code).
    assert not statements.rejected("corrected", "holds_after_correction", "violated", "holds")
    assert not statements.rejected("corrected", "inconclusive", "violated", "inconclusive")
    with pytest.raises(ValueError, match="tightens"):
        statements.rejected("holds", "violated", "violated", None)


@pytest.mark.parametrize("name", ["grad_norm_constant_halved", "lemma4_corrected_prefactor_dropped",
                                  "runtime_t_exponent_halved", "lemma1_first_term_dropped"])
def test_check_rejects_the_mutant_end_to_end(name, tmp_path):
    entry = statements.run_mutant(statements.get(name), seed=0, store=tmp_path / f"{name}.sqlite")
    assert entry["error"] is None
    assert entry["detected"], entry
    summary = statements.summarise([entry], [name])
    assert summary["total"] == summary["detected"] == 1
    assert summary["by_claim"] == {entry["claim"]: [entry]}


def test_campaign_runs_the_mutants_as_resumable_units(tmp_path, monkeypatch):
    import json

    from verification.selftest import campaign

    calls = []

    def fake_run_mutant(mutant, *, seed, store, alpha):
        calls.append(mutant.name)
        return {**mutant.to_json(), "verdict": "violated", "detected": mutant.name != "zero_comparator_quartered"}

    monkeypatch.setattr(campaign.statements, "run_mutant", fake_run_mutant)
    claims = ["iln.lemma3.grad_norm", "iln.eq17.zero_comparator"]
    plan = campaign.Plan(defects=[], seeds=[], mutation_seed=0, profile="smoke", claims=claims,
                         parts=("statement_mutants",), workdir=tmp_path / "w",
                         mutants=tuple(statements.names()))
    assert plan.unit_ids() == ["mutant:grad_norm_constant_halved", "mutant:zero_comparator_quartered"]
    out = tmp_path / "selftest.json"
    doc = campaign.run_campaign(plan, out)
    part = doc["statement_mutants"]
    assert (part["total"], part["detected"], part["gaps"]) == (2, 1, ["zero_comparator_quartered"])
    assert sorted(part["by_claim"]) == sorted(claims)
    assert json.loads(out.read_text())["statement_mutants"] == part
    campaign.run_campaign(plan, out)
    assert calls == ["grad_norm_constant_halved", "zero_comparator_quartered"]  # reused, not run again


def test_summary_json_carries_the_statement_mutants(tmp_path):
    """The campaign's document goes into summary.json's ``selftest`` whole (report.context)."""
    import json

    from verification import runner
    from verification.report.context import gather
    from verification.selftest import campaign

    store = tmp_path / "store.sqlite"
    runner.run(["iln.lemma3.grad_norm"], profile="smoke", seed=0, jobs=1, store=store, quiet=True)
    plan = campaign.Plan(defects=[], seeds=[], mutation_seed=0, profile="smoke",
                         claims=["iln.lemma3.grad_norm"], parts=("statement_mutants",),
                         workdir=tmp_path / "w", jobs=1, mutants=("grad_norm_constant_halved",))
    campaign.run_campaign(plan, tmp_path / "selftest.json")
    summary = gather(store, tmp_path).summary["selftest"]["statement_mutants"]
    assert (summary["total"], summary["detected"]) == (1, 1)
    entry = summary["by_claim"]["iln.lemma3.grad_norm"][0]
    assert entry["name"] == "grad_norm_constant_halved"
    assert entry["detected"]
    assert entry["counterexample"] == statements.get("grad_norm_constant_halved").stored
    assert json.loads(json.dumps(summary)) == summary


def test_the_true_statement_is_not_rejected_at_a_search_config(tmp_path):
    """The search runs where the mutant fails, not where the check rejects everything."""
    from verification import runner

    mutant = statements.get("lemma1_first_term_dropped")
    result = runner.run([mutant.claim], profile=mutant.profile, seed=0, jobs=1, store=tmp_path / "c.sqlite",
                        quiet=True, configs={mutant.claim: mutant.check_config()})
    verdict = result.outcomes[0].verdict
    # Lemma 1 is violated as printed (a start away from 0); its corrected statement, which the
    # mutant tightens, is not rejected.
    assert not statements.rejected(mutant.tightens, verdict.verdict, verdict.verdict_printed,
                                   verdict.verdict_corrected)
