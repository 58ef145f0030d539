"""The Section 6 experiment: ICML Figure 1 (the arXiv version has no experiment).

``iln.sec6.figure1``: Shrinking Gradient "achieves a lower loss while working with the same
feature budget" than Fixed-Random and Doubly Stochastic Gradient Descent, for D = 550, ...,
800 and T = 200.  The caption says only "Comparison of three random feature methods"; the
text makes the claim decided here (:data:`FIGURE_CLAIM`).  Section 6 does not state the
feature budget, the step sizes, a scaling, which loss the figure plots, how sparse the target
is, or Algorithm 1's radius: each is fixed here (:func:`figure1_differs`), so a contradiction
found is ``not_reproduced``, never ``violated`` (:mod:`verification.reproduction`).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from iln.budget import ACCOUNTINGS
from iln.comparison import LABELS, LEARNERS, section6_comparison
from iln.random_streams import child
from verification import rules, statistics
from verification.catalog import DESIGN_ALPHA, Claim, Source, profiles, register
from verification.claims.iln.conformance import NO_ARXIV_SOURCE
from verification.reproduction import Difference, figure_verdict, found_here
from verification.rules.pilot import SignTestPlan, sign_test_plan
from verification.verdicts import NOT_REPRODUCED, Verdict

FIGURE1_ID = "iln.sec6.figure1"

#: the learners the claim compares Shrinking Gradient with; exact-kernel OGD is plotted as a
#: reference without a feature budget and is not part of the verdict.
COMPETITORS = ("fixed_random", "doubly_stochastic")

#: the losses, each a reading of Figure 1's axis (not legible in our copy): the learner's own
#: online predictions averaged over the pass ("one pass ... to emulate the online regret
#: setting" points to it) and the final predictor's held-out loss, each learner predicting as
#: a user would (Shrinking Gradient through Algorithm 2, :func:`iln.comparison.prediction_budget`).
LOSSES = {"online": "average online loss over the pass, (1/T) sum_t (p_t - y_t)^2 / 2",
          "test": "held-out loss of the final predictor, mean (p(x) - y)^2 / 2, Shrinking Gradient's p(x) "
                  "from Algorithm 2 at its training m (a counted test-time budget)"}

#: references that decide nothing: Shrinking Gradient with its exact f_t / f_{T+1} (the oracle
#: kernel, which no learner may use), the others with their own predictions.
_REFERENCE_LOSSES = {
    "online_exact": "average online loss with the exact f_t for Shrinking Gradient (its estimates E_t "
                    "replaced by <f_t, Phi(x_t)>); the others' own",
    "test_exact": "held-out loss with the exact f_{T+1} for Shrinking Gradient (the oracle kernel, no "
                  "test-time budget); the others' own predictions"}

_FIGURE_LOSSES = {**LOSSES, **_REFERENCE_LOSSES}

#: the reading of the statement that decides the claim, fixed before any deciding data: the
#: online loss, under psi evaluations (ICML Section 6: "the same overall number of features is
#: calculated").  The other cells of (loss x accounting) each get their own verdict.
DECIDING_CELL = "online/psi_evaluations"

#: a diverged run (non-finite loss) counts as this loss: worse than predicting 0 (at most 0.5).
DIVERGED_LOSS = 1e3

_PAPER_D = [550, 600, 650, 700, 750, 800]


def _figure_points(config):
    """(accounting, budget, D) of every grid point, in the order trials take them."""
    return [(acc, b, D) for acc, budgets in config["budgets"].items() for b in budgets for D in config["D"]]


def figure1_trial(config, seed) -> dict:
    """One run of :func:`iln.comparison.section6_comparison` at one (accounting, budget, D).

    Trial i of the run takes grid point ``i mod G`` (G = accountings x budgets x D); ``i`` is
    the last entry of its seed's spawn key, so the trial stays a pure function of (config,
    seed) while the runner can spread the grid over its workers.  The learners inside one
    call share the data (child 0 of the seed): the pairs of the comparison.
    """
    points = _figure_points(config)
    index = seed.spawn_key[-1] if seed.spawn_key else 0
    accounting, budget, D = points[index % len(points)]
    grid = config.get("step_grid")
    result = section6_comparison(D, config["T"], budget=budget, seed=child(seed, 0), n_test=config["n_test"],
                                 step_grid=grid, learners=config["learners"], accounting=accounting)
    learners = {}
    for o in result.outcomes:
        learners[o.name] = {"online": o.online_loss, "online_exact": o.online_loss_exact, "test": o.test_loss,
                            "test_exact": o.test_loss_exact,
                            "steps": {k: float(v) for k, v in o.steps.items()},
                            "steps_test": {k: float(v) for k, v in o.steps_test.items()},
                            "size": {k: int(v) for k, v in o.size.items()},
                            "psi_evaluations": int(o.budget.psi_evaluations),
                            "features_sampled": int(o.budget.features_sampled),
                            "test_psi_evaluations": int(o.test_budget.psi_evaluations),
                            "test_features_sampled": int(o.test_budget.features_sampled)}
    return {"accounting": accounting, "budget": float(budget), "D": int(D), "learners": learners}


def point_losses(records, accounting, budget, D, learner, loss):
    """``learner``'s ``loss`` on every trial of the grid point (accounting, budget, D), in seed
    order; a diverged run counts as :data:`DIVERGED_LOSS`."""
    values = [r["learners"][learner][loss] for r in records
              if r["accounting"] == accounting and r["budget"] == budget and r["D"] == D]
    return np.array([v if math.isfinite(v) else DIVERGED_LOSS for v in values])


def _cells(records, config):
    """Per cell ``loss/accounting`` (a reading of the statement, :func:`verification.rules.by_cell`),
    per budget of that accounting (the paper does not state its budget: each is a setting of
    :func:`verification.rules.at_some_setting`), one paired point per (D, competitor):
    Shrinking Gradient's loss against the competitor's, paired by seed."""
    cells = {}
    for loss in LOSSES:
        for accounting, budgets in config["budgets"].items():
            cells[f"{loss}/{accounting}"] = {f"{budget:g}": [
                rules.PairedPoint(
                    key=f"D={D}/{comp}", a=point_losses(records, accounting, budget, D, "shrinking_gradient", loss),
                    b=point_losses(records, accounting, budget, D, comp, loss), names=("shrinking_gradient", comp),
                    instance={"accounting": accounting, "budget": budget, "D": D, "competitor": comp,
                              "competitor_label": LABELS[comp], "loss": LOSSES[loss]})
                for D in config["D"] for comp in COMPETITORS] for budget in budgets}
    return cells


#: ICML Section 6, the sentence that states what Figure 1 shows.
_PAPER_SHOWED = ("ICML Section 6: \"The results shown in Figure 1 show that our method indeed achieves a "
                 "lower loss while working with the same feature budget\" (Shrinking Gradient below "
                 "Fixed-Random and DSGD at every D = 550, ..., 800).")


def _figure(records, config, loss, accounting):
    """Per budget, the table of Figure 1: D and each learner's mean loss with a 95% interval."""
    table = {}
    for budget in config["budgets"][accounting]:
        series = {"D": list(config["D"])}
        for learner in config["learners"]:
            means, intervals = [], []
            for D in config["D"]:
                values = point_losses(records, accounting, budget, D, learner, loss)
                means.append(float(values.mean()))
                ci = statistics.bootstrap_interval(values, 0.95, seed=int(D), method="percentile")
                intervals.append([ci.low, ci.high])
            series[learner], series[f"{learner}_interval"] = means, intervals
        table[f"{budget:g}"] = series
    return {"loss": _FIGURE_LOSSES[loss], "accounting": ACCOUNTINGS[accounting], "labels": dict(LABELS),
            "interval": "95% percentile bootstrap over seeds (shown, not deciding)", "per_budget": table,
            "paper_showed": _PAPER_SHOWED}


#: how the held-out points are predicted at a counted budget (the report's details).
TEST_TIME_BUDGET = ("each learner predicts the held-out points as a user would, the cost counted "
                    "(iln.comparison.prediction_budget): Shrinking Gradient through Algorithm 2 at "
                    "its training m (2 m psi evaluations and m draws per point), Fixed-Random with "
                    "its r features, DSGD with its k T features")


def figure1_decide(records, config, alpha) -> Verdict:
    """Comparison rule, one verdict per cell (loss x budget accounting,
    :func:`verification.rules.by_cell`, each cell at ``alpha / 4``): in a cell, at a budget
    the paper's statement holds when Shrinking Gradient's loss is below both competitors' on
    most seeds at every D (the exact sign test, :func:`verification.rules.paired_comparison`),
    and is violated when a competitor's is below on most seeds at some D; the cell holds at
    some budget of its grid or is violated at every one
    (:func:`verification.rules.at_some_setting`).  The claim's verdict is that of
    :data:`DECIDING_CELL`, read by :func:`verification.reproduction.figure_verdict`: the
    setting differs from the paper's (:func:`figure1_differs`), so a violation found here is
    ``not_reproduced``; ``details["headline"]`` says so and why, what each competitor's
    comparisons found, and every other cell's outcome as a sub-result.
    """
    figures = {f"{loss}/{acc}": _figure(records, config, loss, acc)
               for loss in _FIGURE_LOSSES for acc in config["budgets"]}
    details = {
        # Written before the check was run for the first time, by the helper who wrote it:
        "history": HISTORY,
        "figure": figures.pop(DECIDING_CELL),
        "figures": figures,
        "accountings": {acc: ACCOUNTINGS[acc] for acc in config["budgets"]},
        "losses": dict(LOSSES),
        "test_time_budget": TEST_TIME_BUDGET,
        "tuned_steps": _tuned_steps(records),
    }
    verdict = rules.by_cell(FIGURE1_ID, _cells(records, config), DECIDING_CELL, alpha, details=details)
    cells = verdict.details["cells"]
    return figure_verdict(verdict, figure1_differs(config), claim=FIGURE_CLAIM,
                          finding=_finding(cells[DECIDING_CELL], config),
                          sub_results={_cell_words(name): f"{found_here(cell['verdict'])} ({_finding(cell, config)})"
                                       for name, cell in cells.items() if name != DECIDING_CELL})


#: the claim Figure 1 makes (ICML Section 6: "our method indeed achieves a lower loss while
#: working with the same feature budget"), as decided, on the axis of the figure (D).
FIGURE_CLAIM = ("at an equal feature budget, Shrinking Gradient's average online loss is below Fixed-Random's and "
                "DSGD's on most seeds at every D of Figure 1 decided (550, ..., 800; the smoke and quick "
                "profiles 550), at some budget tried (the paper states none)")

_LOSS_WORDS = {"online": "average online loss", "test": "held-out loss"}
_ACCOUNTING_WORDS = {"psi_evaluations": "psi evaluations", "feature_draws": "feature draws"}


def _cell_words(cell: str) -> str:
    loss, accounting = cell.split("/")
    return f"{_LOSS_WORDS[loss]}, budget in {_ACCOUNTING_WORDS[accounting]}"


def _finding(cell, config) -> str:
    """What a cell's comparisons found, per competitor, over its budgets and D: on how many
    paired seeds the competitor's loss was the lower one, and at how many points most seeds
    put it below (or above) Shrinking Gradient's."""
    parts = []
    for comp in COMPETITORS:
        rows = [row for setting in cell["settings"].values() for key, row in (setting.get("points") or {}).items()
                if key.endswith(f"/{comp}")]
        lower = sum(row.get("seeds_shrinking_gradient_higher", 0) for row in rows)
        seeds = sum(row.get("seeds", 0) for row in rows)
        below = sum(bool(row.get("printed_violated")) for row in rows)
        above = sum(bool(row.get("printed_holds")) for row in rows)
        parts.append(f"{LABELS[comp]}'s loss below Shrinking Gradient's on {lower} of {seeds} paired seeds, on most "
                     f"seeds at {below} of {len(rows)} points (budget x D), Shrinking Gradient's below at {above}")
    return "; ".join(parts)


def figure1_differs(config) -> list[Difference]:
    """How the setting of ``config`` differs from Section 6's: known before any run (every
    item is a part of the protocol that Section 6 does not state)."""
    spent = "; ".join(f"{_ACCOUNTING_WORDS[acc]} at {', '.join(f'{b:g}' for b in grid)}"
                      for acc, grid in config["budgets"].items())
    narrowed = (" (the smoke profile: three or four steps from the middle of each grid)"
                if config.get("step_grid") else "")
    return [
        Difference("feature budget",
                   "\"we choose r, k, m so that the same overall number of features is calculated\" (Section 6): "
                   "the number is not stated, nor whether it counts evaluations of psi or draws of w",
                   f"{spent}; the claim is decided at the budget where it does best, in psi evaluations"),
        Difference("step sizes",
                   "\"for all methods we explored different initial step sizes and schedules for changing the "
                   "step size\" (Section 6): which ones, and which run the figure plots, are not stated",
                   "per learner a grid of constant steps 0.2 to 200 (Fixed-Random and DSGD also decaying "
                   "schedules), the best on an independent tuning run, for each loss apart" + narrowed),
        Difference("scaling", "labels y_i = a . x_i (Section 6); no scaling of inputs or labels is stated",
                   "inputs divided by their largest entry, so that |psi| < 1 (Section 2), and labels by their "
                   "largest |y|, into [-1, 1]"),
        Difference("loss plotted", "Figure 1's axis is not legible in our copy: \"a lower loss\" (Section 6)",
                   "the average online loss over the one pass decides (\"to emulate the online regret "
                   "setting\"); the held-out loss is a sub-result"),
        Difference("target", "\"a random sparse linear combination of the training points\" (Section 6): how "
                             "sparse, and with which coefficients, is not stated",
                   "T // 10 training points with standard normal coefficients"),
        Difference("Algorithm 1's radius B", "not stated for the experiment",
                   "the norm of the data's target (at least 1)"),
    ]


def _tuned_steps(records):
    """How often each step value was chosen, per accounting, budget, learner and loss (the
    tuning's footprint)."""
    out = {}
    for r in records:
        for learner, v in r["learners"].items():
            for loss, steps in (("online", v["steps"]), ("test", v["steps_test"])):
                key = f"{r['accounting']}/{r['budget']:g}/{learner}/{loss}"
                step = ", ".join(f"{k}={x:g}" for k, x in sorted(steps.items()))
                out.setdefault(key, {}).setdefault(step, 0)
                out[key][step] += 1
    return out


HISTORY = (
    "Before this claim's expectation was set, runs of section6_comparison were seen: (1) a helper "
    "ran D = 600, T = 200, budget 2e6, seed 0: Fixed-Random had the lower loss (online 0.0072 vs "
    "0.0157 for Shrinking Gradient; test 0.00104 vs 0.00185) and DSGD was also lower online; "
    "(2) the helper writing this claim had formed the expectation below from the analysis "
    "alone, then ran a timing run (seed 0, D = 550 and 800, budgets 2e4, 2e5, 2e6) that "
    "printed the losses: Fixed-Random was lower at all six points, online and test. The "
    "expectation was not changed after (2); the lead reviews it. (3) When the cells (loss x "
    "accounting), Algorithm 2 at test time and per-loss tuning were added, a pilot on seeds of its "
    "own (master seed 20261124, never a deciding seed; the quick grid at D = 550, 4 seeds per "
    "grid point) was seen: Fixed-Random's loss was below Shrinking Gradient's on all 16 pilot "
    "seeds, online and held-out, under both accountings; DSGD's below it on 14 of 16 online and "
    "14 of 16 held-out. With Shrinking Gradient's exact f_{T+1} (the oracle, no test-time budget) "
    "its held-out loss was below DSGD's on 9 of 12 psi-evaluation seeds. No expectation was set "
    "for the new cells: four seeds a point bound P[Fixed-Random lower] below only by 0.56 (90%), "
    "too little to plan the sign test from (a share of 0.825 needs about 80 seeds a point). "
    "(4) For the seed plans of the smoke and quick profiles (issue 20, item 2), pilots on seeds of "
    "their own, which no deciding run uses and the earlier pilot did not (master seeds 4012001 and "
    "4012006: quick trials at D = 550, psi evaluations at 2e4, 2e5 and 2e6, 16 + 16 seeds per "
    "budget; 4012004: smoke trials at D = 550 and 2e4, 24 seeds), were seen: Fixed-Random's online "
    "loss was below Shrinking Gradient's on every pilot seed, 32 of 32 at each quick budget (Shrinking "
    "Gradient's loss 1.07 to 14.6 times Fixed-Random's, median about 2) and 24 of 24 at the smoke "
    "budget; DSGD's on 23, 26 and 23 of 32 and 16 of 24. The plans (figure1_plan) rest on the one-sided "
    "95% Clopper-Pearson lower bounds, 0.911 (quick, per budget) and 0.883 (smoke), never on the "
    "all-seeds point estimate: quick 56 seeds per budget (level 2.8e-6 a point: the design level over "
    "2 cells x 3 budgets x 2 competitors; power 0.993 per budget, so that all three budgets are "
    "violated with probability at least 0.98, 0.99 exactly), smoke 57 seeds (level 8.3e-6, power "
    "0.98). The "
    "expectation, violated on the deciding cell, was kept: the pilots agree with it, and it was "
    "fixed in the commit that set these plans, before any deciding run of them."
)

_FIG1 = (r"\text{Comparison of three random feature methods (Figure 1), } D = 550, 600, \dots, 800,\ "
         r"T = 200,\ \text{one pass: ``our method indeed achieves a lower loss while working with the same "
         r"feature budget''}")


def _point_tail(D, budgets, grid) -> float:
    """The level of one paired point in a cell whose accounting has the budgets ``grid``: the
    design level split over the cells (loss x accounting), the cell's budgets, and each
    budget's points (two competitors at every D), as :func:`figure1_decide` splits it."""
    return DESIGN_ALPHA / (len(LOSSES) * len(budgets) * len(grid) * len(D) * len(COMPETITORS))


#: budgets per accounting: psi evaluations from r = 100 < D to r = 10^4 >> D features for
#: Fixed-Random; feature draws at 10^4 give Shrinking Gradient the m of 2 x 10^4 evaluations
#: (m = 50) and Fixed-Random r = 10^4 (a larger draw budget gives Fixed-Random a T x r matrix
#: too large to tune in a trial's time).
_BUDGETS = {"psi_evaluations": [2e4, 2e5, 2e6], "feature_draws": [1e4]}

#: the planned profiles decide the deciding accounting only (psi evaluations) at one D: the
#: claim's statement and its deciding cell are those of full, the level is split over what they
#: decide (2 cells, not 4; 2 points a budget, not 4 or 12), and the planned seeds of the quick
#: profile fit 20 master seeds of the self-test in a night on 2 cores (the feature-draw cells
#: and the other D are decided in full).
_SMOKE_BUDGETS = {"psi_evaluations": [2e4]}

_PLANNED_BUDGETS = {"psi_evaluations": _BUDGETS["psi_evaluations"]}

_PLANNED_D = [550]

#: the pilots of the seed plans (issue 20, item 2), on master seeds no deciding run uses (the
#: self-test's 0..19, the report's 0, 2026, and 20261124, the earlier pilot of HISTORY): trials
#: of a profile's configuration at D = 550 and psi evaluations at its budgets, seen before the
#: plan and the expected verdict were fixed.  Per budget, the seeds on which Fixed-Random's
#: average online loss (the deciding cell's loss) was below Shrinking Gradient's, of the seeds at
#: that budget; a tie would count against.
FIGURE1_PILOT = {
    "smoke": {"master_seeds": (4012004,), "seeds": 24, "fixed_random_lower": {2e4: 24}},
    "quick": {"master_seeds": (4012001, 4012006), "seeds": 32,
              "fixed_random_lower": {2e4: 32, 2e5: 32, 2e6: 32}},
}

#: per profile: the budgets and D it decides, and the pilot its plan rests on.  Full decides
#: every cell at the paper's six D; its plan rests on the quick pilot, whose trials (D = 550,
#: psi evaluations at 2e4, 2e5 and 2e6, T = 200, 200 held-out points, the default step grids)
#: are trials of full's points at D = 550, and asks the Fixed-Random point at D = 550 to reject at
#: every budget at the level full gives a point (the design level over 2 losses x 2 accountings
#: x 3 budgets x 6 D x 2 competitors); the other D are further chances, not counted.
_PLANNED = {"smoke": (_SMOKE_BUDGETS, _PLANNED_D, "smoke"), "quick": (_PLANNED_BUDGETS, _PLANNED_D, "quick"),
            "full": (_BUDGETS, _PAPER_D, "quick")}


@functools.cache
def figure1_plan(profile: str) -> SignTestPlan:
    """The seed plan of ``profile`` from its pilot (:data:`FIGURE1_PILOT`, :data:`_PLANNED`).

    The expected verdict, not_reproduced (the rule's outcome violated on :data:`DECIDING_CELL`
    on a setting that differs from the paper's), needs the cell violated at every
    budget (:func:`verification.rules.at_some_setting`), and a budget is violated when a point
    is: the plan asks that the Fixed-Random point at D = 550 reject at every budget, at the level
    :func:`figure1_decide` gives a point (:func:`_point_tail`), each with power
    ``0.98^(1/budgets)`` (:data:`verification.rules.pilot.TARGET`), at the pilot's one-sided 95%
    Clopper-Pearson lower bounds (:func:`verification.rules.pilot.sign_test_plan`); the
    probability of the expected verdict is the product over the budgets.
    """
    budgets, D, row = _PLANNED[profile]
    pilot = FIGURE1_PILOT[row]
    grid = budgets[DECIDING_CELL.split("/")[1]]
    return sign_test_plan([(pilot["fixed_random_lower"][b], pilot["seeds"]) for b in grid],
                          _point_tail(D, budgets, grid))


def _figure1_planned_trials(profile: str) -> int:
    """The plan's seeds at every grid point of ``profile``."""
    budgets, D, _ = _PLANNED[profile]
    return figure1_plan(profile).seeds * len(D) * sum(len(grid) for grid in budgets.values())


def _figure1_plan_text(profile: str) -> str:
    row = _PLANNED[profile][2]
    pilot = FIGURE1_PILOT[row]
    seeds = " and ".join(map(str, pilot["master_seeds"]))
    return (f"pilot on master seeds {seeds} ({pilot['seeds']} seeds per budget, {row} trials at D = "
            f"{', '.join(map(str, _PLANNED_D))}; "
            f"Fixed-Random lower online at budgets " + ", ".join(f"{b:g}" for b in pilot["fixed_random_lower"])
            + "): " + figure1_plan(profile).describe())


_COMPARED = ("shrinking_gradient", *COMPETITORS)

#: a narrower step grid for the smoke profile (each learner's default grid spans 0.2-200;
#: this keeps 3-4 values in the middle of it for every learner), so that the seeds fit in seconds.
_SMOKE_STEPS = {
    "shrinking_gradient": [{"eta": s} for s in (1.0, 2.0, 5.0, 10.0)],
    "fixed_random": [{"gamma0": s, "gamma1": 0.1} for s in (10.0, 20.0, 50.0)],
    "doubly_stochastic": [{"gamma0": s, "gamma1": 0.1} for s in (5.0, 10.0, 20.0)],
}


register(Claim(
    id=FIGURE1_ID, title="Section 6: Shrinking Gradient has a lower loss than Fixed-Random and DSGD at equal budget",
    sources=(Source("ICML", "Section 6, Figure 1", _FIG1), NO_ARXIV_SOURCE),
    rule="comparison", trial=figure1_trial, decide=figure1_decide,
    # Issue 42 item 7 (2026-11-28): not_reproduced, set from the paper and this module before
    # any run of the new decision.  Section 6 leaves the budget, the step sizes, the scaling,
    # the loss plotted, the target's sparsity and Algorithm 1's radius unstated
    # (figure1_differs: known from the configuration, never from results), so no run here is
    # of the paper's own stated setting and a contradiction found is not_reproduced, never
    # violated; the rule's outcome on this setting is expected to be the contradiction it was
    # before (the reasoning below, HISTORY, the pilots of FIGURE1_PILOT and every committed
    # run: Fixed-Random's loss below on every seed).  What follows is the reasoning of the
    # expectation as first set, "violated", which is now the outcome found here.
    # HISTORY above says what had been seen when this was set.  The paper's setting differs
    # from ours in ways we cannot name with confidence: its budget is not stated (the grid
    # covers 2e4-2e6, from r = 100 < D to r = 10^4 >> D features for Fixed-Random), and its
    # data scaling and step grids are not given.  None of these is a difference we believe
    # would reverse the result: with clipped (non-negative) inputs the labels share a large
    # constant component, which Shrinking Gradient can only express with ||alpha||_1 of order
    # 1 / k(x, x') ~ 100, so the noise of Algorithm 2, about ||alpha||_1 / sqrt(m), exceeds
    # Fixed-Random's approximation error at every budget of the grid, while Fixed-Random fits
    # the constant with any r features.  Hence "violated", as the brief prescribes when no
    # difference can be named.  This expectation is for the deciding cell (DECIDING_CELL:
    # online loss, psi evaluations), the only reading there was when it was set; it was kept
    # when the other cells were added, and the other cells carry no expectation yet (no
    # pilot on seeds of their own has fixed one).  The pilots of the seed plans (HISTORY (4),
    # FIGURE1_PILOT) agree with it: Fixed-Random below on all 32 quick pilot seeds at each
    # budget, so the quick plan gives "violated" with probability at least 0.98 per master seed
    # at the pilot's lower bounds (figure1_plan).
    expected=NOT_REPRODUCED,
    # Smoke and quick: seeds per grid point planned on a pilot of their own
    # (FIGURE1_PILOT, figure1_plan; the "plan" entry shows the numbers), for the expected
    # verdict with probability at least 0.98 per master seed at the pilot's lower
    # confidence bounds.  Both decide the psi-evaluation cells at D = 550 only
    # (_PLANNED_BUDGETS: the deciding cell's statement, the level split over what they
    # decide).  Smoke: one budget, narrow step grids, without the exact-kernel reference;
    # quick: the three budgets.  Full: every cell at the paper's six D, planned on the quick
    # pilot at full's level of a point (_PLANNED); before that plan (2026-11-24) it took 23
    # seeds per grid point, the fewest at which one method lower on every seed rejects (share
    # 1.0), not planned from a pilot.
    configs=profiles({"T": 200, "n_test": 200, "D": _PLANNED_D, "learners": list(LEARNERS)},
                     smoke={"n_trials": functools.partial(_figure1_planned_trials, "smoke"), "n_test": 100,
                            "budgets": _SMOKE_BUDGETS, "step_grid": _SMOKE_STEPS, "learners": [*_COMPARED],
                            "plan": functools.partial(_figure1_plan_text, "smoke")},
                     quick={"n_trials": functools.partial(_figure1_planned_trials, "quick"), "budgets": _PLANNED_BUDGETS,
                            "plan": functools.partial(_figure1_plan_text, "quick")},
                     full={"n_trials": functools.partial(_figure1_planned_trials, "full"), "budgets": _BUDGETS,
                           "D": _PAPER_D, "plan": functools.partial(_figure1_plan_text, "full")}),
    instances="the Section 6 data (iln.data.section6_data: clipped Gaussian inputs scaled below 1, "
              "a target in the RKHS of random coordinates, labels scaled into [-1, 1]), T = 200, one "
              "pass; one verdict per cell of (loss: average online loss, held-out loss of the final "
              "predictor) x (budget accounting: psi evaluations at 2e4, 2e5 and 2e6; feature draws "
              "at 1e4; iln.budget.ACCOUNTINGS), the claim's verdict the online loss under psi "
              "evaluations; held-out points predicted at a counted test-time budget (Shrinking "
              "Gradient through Algorithm 2 at its training m); step sizes tuned per learner and per "
              "loss on an independent run (iln.comparison); exact-kernel OGD and Shrinking Gradient's "
              "exact f are plotted as references without budget",
))

