"""Algorithm 1 (ICML and arXiv): its rule round by round, and the sign of its step as printed.

* ``iln.alg1.rule``: if ``|E_t| < 16B`` then ``alpha^(t+1) = alpha^(t)`` and
  ``alpha_t^(t+1)`` is the step; else ``alpha^(t+1) = alpha^(t) / 4``. Each run is held to the
  sign it was run with. Every later claim about Algorithm 1 (Lemmas 1, 2, 5 and 6, Theorem 1)
  rests on this rule, and a statistical check of those claims cannot see a rule broken only
  on a set of rounds of probability zero, such as the boundary ``|E_t| = 16B``; the ``tie``
  runs put an estimate exactly on that boundary, and the claim checks that they do (their
  ``E_2`` is exact, :func:`tie_premise_breaches`): an Algorithm 2 off its eq. (11) there would
  otherwise move the estimate off the boundary and leave the rule untested on it.
* ``iln.alg1.update_sign``: both versions print the new coefficient so that
  ``f_{t+1} = f_t + eta (E_t - y_t) Phi(x_t)`` (ICML Algorithm 1: ``alpha_t^(t+1) = -eta (y_t -
  E_t)``; arXiv Algorithm 1: ``alpha_t^(t+1) = eta (E_t - y_t)``): a step *up* the estimated
  gradient ``bar grad_t = (E_t - y_t) Phi(x_t)`` of the squared loss. The analysis uses the
  descent step ``f_t - eta bar grad_t`` (ICML Lemma 2 and the proof of Lemma 6, eq. (22); arXiv
  Lemma 2 and the proof of Lemma 5). The claim runs Algorithm 1 as printed and as analysed, at
  the proof's ``eta`` and ``m``, and decides Theorem 1's bound on both: the printed algorithm
  is the statement, the descent step the correction.

Exact plan of ``iln.alg1.update_sign`` (issue 41; fixed before the exact check first ran,
from the algebra below, not from a run):

* Instances where Algorithm 2 is exact: point-mass features ``psi(x; w) = c`` for every w (one
  input; ``RandomCoordinate(1)`` at ``x = c``) and constant labels ``y``.  The printed step
  keeps every coefficient of the sign of ``-y``, the descent step (while ``eta c^2 <= 1``) of
  the sign of ``y``, so every term of Algorithm 2 is the same number and ``E_t = <f_t,
  Phi(x_t)>`` whatever ``m`` and the draws: the run is deterministic, a piecewise geometric
  recurrence, computed in rational arithmetic (T a perfect square, so that ``eta = B/sqrt T``
  and ``B/(2 sqrt T)`` are rational).
* Domain searched: step in {printed, descent}; eta in {B/sqrt T (Theorem 1), B/(2 sqrt T) (its
  proof)}, the corrected statement at the proof's; B in {1, 2} (smoke), {1, 2, 4} (quick,
  full); T = k^2 for k = 1..12 (smoke), 1..32 (quick, full); c B in {1/10, 1/2, 999/1000};
  y in {1, 1/2} (-y gives the same regret).  Left side: the regret against
  ``inf_{||f|| <= B}`` (exact); right side: ``theory.regret_bound_proof(B, T, eta)`` where
  ``eta < 1/8`` (Lemma 2's hypothesis; no explicit constant elsewhere), compared exactly
  unless the two are within 1e-9 of each other (relative: a tie, undecided).
* Expected: the printed step moves the prediction away from y by a factor ``1 + eta c^2`` a
  round until ``|E_t| >= 16B``, then quarters it, so its loss stays of order
  ``(4B..16B)^2 / 2`` a round and its regret grows like T: the printed statement is violated.
  The descent step's regret is at most ``y^2 / (2 (1 - (1 - eta c^2)^2))``, about
  ``sqrt(T) / (2 B c^2)``, below the bound at every instance; but the corrected statement
  quantifies over every label sequence and feature law, and a sequence whose coefficients
  change sign makes Algorithm 2 a binomial over ``m = m_proof`` draws a round, which is not
  enumerated: ``verdict_corrected`` is inconclusive (naming that), and the claim, decided on
  its printed statement, is ``violated``.
* Monte Carlo at the same instance (B = 1, c = 0.999, y = 1, the proof's eta and m; T = 25
  at smoke, 64 at quick and full): the shipped ``shrinking_gradient`` with each step must give
  the exact losses round by round (``verification.rules.conformance``), reported beside.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

import verification.rules.mean
from iln import estimator, theory
from iln.comparator import best_in_ball
from iln.comparator import regret as comparator_regret
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification import rules
from verification.catalog import DESIGN_ALPHA, Claim, Erratum, Quote, Source, profiles, register
from verification.claims.iln.instances import (
    ALGORITHM1_RUNS,
    SEQUENCES,
    algorithm1_run,
    described,
    sequence,
)
from verification.claims.iln.theorem1_regret import regret_point
from verification.rules import invariant
from verification.verdicts import HOLDS, VIOLATED, Verdict

#: relative slack of the comparison: the rule's arithmetic is a product or a quotient by 4,
#: so an implementation of the rule reproduces it to the last bit or close to it.
SLACK = 1e-12


def rule_breaches(run) -> list[dict]:
    """The rounds where ``alpha^(t+1)`` is not what the rule makes of ``alpha^(t)`` and ``E_t``.

    Parameters
    ----------
    run : iln.shrinking_gradient.ShrinkingGradientResult
        A run made with ``record_alpha=True``.

    Returns
    -------
    list of dict
        One entry per breached round (1-based ``round``) with ``E_t``, the branch the rule
        takes there and the largest deviation of ``alpha^(t+1)`` from the rule's.
    """
    history, trace = run.alpha_history, run.trace
    threshold = theory.SHRINK_THRESHOLD * run.B
    sign = -1.0 if run.update == "descent" else 1.0
    breaches = []
    for t in range(run.T):
        before, after = history[t], history[t + 1]
        E, y = float(trace.estimate[t]), float(trace.labels[t])
        expected = before.copy()
        if abs(E) < threshold:
            expected[t] = sign * run.eta * (E - y)
            branch = "step"
        else:
            expected[: t] = before[: t] * theory.SHRINK_FACTOR
            branch = "shrink"
        scale = max(1.0, float(np.abs(expected).max()))
        deviation = float(np.abs(after - expected).max()) / scale
        if deviation > SLACK or bool(trace.shrink[t]) != (branch == "shrink"):
            breaches.append({"round": t + 1, "E_t": E, "threshold": threshold, "rule": branch,
                             "recorded_shrink": bool(trace.shrink[t]), "deviation": deviation})
    return breaches


#: the runs whose round 2 puts E_2 = 16 on the test's boundary (16B at B = 1, 8B at B = 2).
TIE_RUNS = ("tie", "tie_B2")


def tie_premise_breaches(run) -> list[dict]:
    """Round 2 of a tie run, if ``E_2`` is not exactly ``<f_2, Phi(x_2)> = 16``.

    There ``alpha^(2) = (eta)`` has one positive entry on the repeated input, so every term of
    Algorithm 2 is ``psi(x; w)^2 = 1/4`` and ``E_2 = ||alpha||_1 / 4`` whatever the draws (ICML
    and arXiv eq. 11).  An estimate off it means Algorithm 2 is off eq. 11 (e.g. m - 1 terms
    summed and divided by m), and the run no longer reaches the boundary it exists for: the rule
    replayed on the estimate would then hold without the boundary ever being tested.  The run's
    own estimate comes from its implementation of Algorithm 2; the other two implementations
    (:data:`iln.estimator.METHODS`) are asked for the same ``E_2``, since no other claim of the
    smoke profile meets them on an instance where their output is exact.
    """
    exact = float(run.trace.inner_exact[1])
    estimates = {"run": float(run.trace.estimate[1])}
    for method in estimator.METHODS:
        if method != run.method:
            estimates[method] = estimator.estimate_scalar_product(
                run.alpha_history[1][:1], run.X[:1], run.X[1], run.m, run.family,
                seed=child(run.seed, 2), method=method)
    return [{"round": 2, "E_t": E, "exact": exact, "threshold": theory.SHRINK_THRESHOLD * run.B,
             "rule": f"premise: E_2 = <f_2, Phi(x_2)> exactly (every term of Algorithm 2 is 1/4), "
                     f"Algorithm 2 of the {source}",
             "recorded_shrink": bool(run.trace.shrink[1]), "deviation": abs(E - exact)}
            for source, E in estimates.items() if abs(E - exact) > SLACK * max(1.0, abs(exact))]


def rule_trial(config, seed) -> dict:
    """One run per configured run name, every round replayed against the rule."""
    record = {}
    for j, name in enumerate(config["runs"]):
        run = algorithm1_run(name, config["T"] if name != "section6_proof" else config["T_proof"],
                             config["m"], child(seed, j), record_alpha=True)
        breaches = rule_breaches(run)
        if name in TIE_RUNS:
            breaches += tie_premise_breaches(run)
        at_boundary = int(np.sum(np.abs(run.trace.estimate) == theory.SHRINK_THRESHOLD * run.B))
        record[name] = {"rounds": run.T, "breaches": len(breaches), "first": breaches[0] if breaches else None,
                        "shrinks": int(run.trace.shrink.sum()), "at_boundary": at_boundary}
    return record


def rule_decide(records, config, alpha) -> Verdict:
    """Deterministic invariant: a single round off the rule is a violation."""
    rounds = sum(r["rounds"] for rec in records for r in rec.values())
    breached = [(i, name, r) for i, rec in enumerate(records) for name, r in rec.items() if r["breaches"]]
    share = sum(r["breaches"] for _, _, r in breached) / rounds
    counterexample = {"trial_index": breached[0][0], "run": breached[0][1], "description": ALGORITHM1_RUNS[breached[0][1]],
                      **breached[0][2]["first"]} if breached else None
    totals = {"rounds": "rounds", "breaches": "breaches", "shrinks": "shrinks", "estimates_on_the_boundary": "at_boundary"}
    per_run = {name: {out: sum(rec[name][key] for rec in records) for out, key in totals.items()} for name in config["runs"]}
    return invariant("iln.alg1.rule", broken=bool(breached), share=share, checked=rounds, alpha=alpha,
                     counterexample=counterexample, n_trials=len(records),
                     details={"rounds_checked": rounds, "runs": per_run, "slack": SLACK})


_RULE = (r"\text{if } |E_t| < 16B:\ \alpha^{(t+1)} = \alpha^{(t)},\ \alpha_t^{(t+1)} = -\eta(y_t - E_t);"
         r"\quad\text{else}\ \alpha^{(t+1)} = \tfrac{1}{4}\alpha^{(t)}")

_RULE_ARXIV = (r"\text{if } |E_t| < 16B:\ \alpha^{(t+1)} = \alpha^{(t)},\ \alpha_t^{(t+1)} = \eta(E_t - y_t);"
               r"\quad\text{else}\ \alpha^{(t+1)} = \tfrac{1}{4}\alpha^{(t)}")

_RUN_NAMES = list(ALGORITHM1_RUNS)


register(Claim(
    id="iln.alg1.rule", title="Algorithm 1 steps when |E_t| < 16B and otherwise shrinks alpha by 4, on every round",
    sources=(Source("ICML", "Section 3, Algorithm 1 (and Appendix A, proof of Lemma 5)", _RULE),
             Source("arXiv", "Section 3, Algorithm 1 (and Appendix A, proof of Lemma 4)", _RULE_ARXIV)),
    rule="deterministic invariant", expected=HOLDS, trial=rule_trial, decide=rule_decide,
    configs=profiles({"runs": _RUN_NAMES}, smoke={"n_trials": 2, "T": 40, "T_proof": 20, "m": 20},
                     quick={"n_trials": 5, "T": 120, "T_proof": 60, "m": 50},
                     full={"n_trials": 20, "T": 300, "T_proof": 150, "m": 100}),
    instances="every round replayed from the recorded alpha^(t), E_t and y_t, each run held to "
              "the sign it was run with (see iln.alg1.update_sign for the printed sign): "
              + described(ALGORITHM1_RUNS),
))


_UPDATES = ("printed", "descent")


def _points(config) -> list[tuple[str, str, int]]:
    return [(f"{name}/T={T}", name, T) for name in config["sequences"] for T in config["T"]]


def update_sign_trial(config, seed) -> dict:
    """Per (sequence, T): one run with each sign on the same sequence and learner seed."""
    record = {}
    for j, (key, name, T) in enumerate(_points(config)):
        seq = sequence(name, T, child(seed, j, 0))
        best = best_in_ball(seq.family.kernel(seq.X), seq.y, 1.0)
        for update in _UPDATES:
            run = shrinking_gradient(seq.X, seq.y, seq.family, B=1.0, seed=child(seed, j, 1),
                                     update=update, oracle=seq.family.kernel)
            record[f"{update}/{key}"] = {"regret": comparator_regret(run.trace.loss_exact, best),
                                         "shrinks": int(run.trace.shrink.sum())}
    return record


def update_sign_decide(records, config, alpha) -> Verdict:
    """Mean rule per (sign, sequence, T) against ``regret_bound_proof(1, T)``, Bonferroni over
    all of them: the printed sign decides the printed statement, the descent sign the
    corrected one."""
    keys = [(f"{u}/{key}", u, name, T) for u in _UPDATES for key, name, T in _points(config)]
    # Bonferroni over the two signs: the printed sign decides the printed statement, the
    # descent sign the corrected one.  The sequences are fixed before the run (the trial
    # draws section6 anew, which regret_point knows), so each point's regret is bounded below
    # by minus its comparator's loss.
    verdicts = {u: rules.mean_bound("iln.alg1.update_sign",
                                    [regret_point(k, [r[k]["regret"] for r in records], 1.0, T, sequence_name=name)
                                     for k, u2, name, T in keys if u2 == u], alpha / len(_UPDATES),
                                    {"sequences": {n: SEQUENCES[n] for n in config["sequences"]}})
                for u in _UPDATES}
    shrinks = {k: sum(r[k]["shrinks"] for r in records) for k, _, _, _ in keys}
    return rules.with_correction(verdicts["printed"], verdicts["descent"], alpha, {"shrinks": shrinks})


def _trials(T_grid, n_sequences: int, ratio: float = 16.0) -> int:
    """Trials for the printed sign's violation side: ``ratio`` times the bound at every T,
    at the design level split over both signs' points (see :func:`update_sign_decide`)."""
    tail = DESIGN_ALPHA / (len(_UPDATES) * len(T_grid) * n_sequences)
    return max(verification.rules.mean.violation_sample_size(float(theory.regret_bound_proof(1.0, T)), -T / 2, ratio, tail)
               for T in T_grid)


_STEP_ICML = r"\text{if } |E_t| < 16B:\ \alpha^{(t+1)} = \alpha^{(t)};\ \alpha_t^{(t+1)} = -\eta(y_t - E_t)"

_STEP_ARXIV = r"\text{if } |E_t| < 16B:\ \alpha^{(t+1)} = \alpha^{(t)};\ \alpha_t^{(t+1)} = \eta(E_t - y_t)"

_THEOREM = r";\quad \mathbb{E}\left[\sum_t \ell_t(f_t) - \min_{\|f^*\| \le B} \sum_t \ell_t(f^*)\right] = O(B\sqrt{T})"


register(Claim(
    id="iln.alg1.update_sign", title="Algorithm 1 as printed (its step's sign) meets Theorem 1's regret bound",
    sources=(Source("ICML", "Section 3, Algorithm 1 and Theorem 1, part 1", _STEP_ICML + _THEOREM),
             Source("arXiv", "Section 3, Algorithm 1 and Theorem 1, part 1", _STEP_ARXIV + _THEOREM)),
    # Fixed before running (the module's exact plan): the printed step climbs the squared loss
    # and is decided exactly on point masses; the corrected statement is exact there only, so
    # it stays undecided over its domain and the printed statement's violation decides.
    rule="mean bound", expected=VIOLATED, trial=update_sign_trial, decide=update_sign_decide,
    # Trials planned for the violation side to find a printed-sign regret 16 times the
    # bound with the design power, from the pilots: 107 times at T = 64 and 128 in the
    # last full report, 20 times at T = 32 in a smoke run of 4 trials.
    configs=profiles({"sequences": ["near_duplicate_constant", "section6"]},
                     smoke={"n_trials": functools.partial(_trials, [32], 1), "T": [32], "sequences": ["near_duplicate_constant"]},
                     quick={"n_trials": functools.partial(_trials, [64], 2), "T": [64]},
                     full={"n_trials": functools.partial(_trials, [64, 128], 2), "T": [64, 128]}),
    instances="the proof's eta = B/(2 sqrt T) and m = m_proof(B, T), B = 1, each sequence run with the "
              "printed step and the descent step on the same learner seed: "
              + described(SEQUENCES, ("near_duplicate_constant", "section6")),
    erratum=Erratum(
        claim_id="iln.alg1.update_sign",
        printed={"ICML": _STEP_ICML, "arXiv": _STEP_ARXIV},
        counterexample="Both printed steps give f_{t+1} = f_t + eta (E_t - y_t) Phi(x_t), a step up "
                       "the estimated gradient, while ICML Lemma 2 and the proof of Lemma 6 (eq. 22), "
                       "and arXiv Lemma 2 and the proof of Lemma 5, write the descent step "
                       "f_t - eta (E_t - y_t) Phi(x_t). The arXiv version's eq. (9) prints the "
                       "gradient with the opposite sign, (y_t - <f_t, Phi(x_t)>) Phi(x_t), and its "
                       "Algorithm 1 is f_t - eta grad_t with that sign: a step up the true gradient "
                       "all the same; the ICML eq. (9) has the right sign. "
                       "Exact counterexample (printed_step_point_mass, rational arithmetic): "
                       "psi(x; w) = 0.999 for every w, every label +1, B = 1, the proof's eta = "
                       "B/(2 sqrt T) and any m: every estimate of Algorithm 2 is exact, the run is "
                       "deterministic, and its regret exceeds the proof's bound "
                       "(B^2/eta + 4 eta T)/(1 - 2 eta) = 4 B sqrt(T) / (1 - B / sqrt(T)) from T = 9 "
                       "on (20.75 > 18; at T = 4, 4.40 < 16): 1878.07 > 36.57 at T = 64, 49822 > 132.1 "
                       "at T = 1024, a regret linear in T. The check's sampled sequences (two inputs "
                       "0.01 apart under random coordinates, T = 64) show the same.",
        corrected=r"\alpha_t^{(t+1)} = -\eta(E_t - y_t)\ \text{(}f_{t+1} = f_t - \eta\bar{\nabla}_t\text{)}",
        check="The same sequences and learner seeds with the descent step: the mean regret is below "
              "the proof's bound at every point (mean rule: exact intervals from the regret's a-priori range "
              "over seeds).",
        quotes=(
            Quote("ICML", "Section 3, Algorithm 1", r"\alpha_t^{(t+1)} = -\eta(y_t - E_t)"),
            Quote("ICML", "Section 5.1, Lemma 2", r"Denote $\hat{f}_t = f_t - \eta \bar{\nabla}_t$"),
            Quote("ICML", "Appendix B.2, proof of Lemma 6, eq. (22)",
                  r"\|\hat{f}_{t+1}\| &= \|f_t - \eta(E_t - y)\Phi(\mathbf{x}_t)\|"),
            Quote("arXiv", "Section 3, Algorithm 1", r"\alpha_t^{(t+1)} = \eta(E_t - y_t)"),
            Quote("arXiv", "Section 5, eq. (9)",
                  r"\nabla_t = (y_t - \langle f_t, \Phi(\mathbf{x}_t) \rangle) \Phi(\mathbf{x}_t)"),
            Quote("arXiv", "Section 5.1, Lemma 2", r"Denote $\hat{f}_t = f_t - \eta \bar{\nabla}_t$"),
            Quote("arXiv", "Appendix B.2, proof of Lemma 5",
                  r"\|\hat{f}_{t+1}\| = \|f_t - \eta(E_t - y)\Phi(\mathbf{x}_t)\|"),
        ),
    ),
))


def printed_step_point_mass(B: int, T: int) -> dict:
    """Algorithm 1 as printed on the point mass, computed exactly (rational arithmetic).

    The feature family ``psi(x; w) = c = 999 / (1000 B)`` for every ``w`` (``|psi| < 1``) and
    every label ``y_t = 1``.  The printed step starts at ``alpha_1 = eta (E_1 - 1) < 0`` and
    keeps every coefficient negative (``E_t <= 0 < 1``; a shrink keeps signs), so every term
    of Algorithm 2 is ``sgn(alpha_i) c^2 = -c^2`` and ``E_t = c^2 sum_i alpha_i``: the estimate
    is exact whatever ``m`` and the seed, the run is deterministic, and with
    ``A_t = sum_i alpha_i^(t)``::

        A_{t+1} = A_t + eta (c^2 A_t - 1)   if |c^2 A_t| < 16 B,   A_t / 4 otherwise,

    loss ``(c^2 A_t - 1)^2 / 2``.  The best of the B-ball predicts ``c <f, 1>`` with
    ``|<f, 1>| <= ||f|| < B``: its loss tends to ``T (1 - c B)^2 / 2``, the infimum the regret is
    measured against (Theorem 1 writes min; the infimum makes the regret only smaller).

    Parameters
    ----------
    B : int
        The norm bound, ``1 <= B < sqrt(T)`` (so that ``1 - 2 eta > 0``).
    T : int
        The horizon, a perfect square, so that the proof's ``eta = B / (2 sqrt T)`` is rational.

    Returns
    -------
    dict
        ``regret`` and ``bound`` (the proof's ``(B^2/eta + 4 eta T) / (1 - 2 eta)``) as
        :class:`fractions.Fraction`, their ratio as a float, and the number of shrinks.

    Examples
    --------
    >>> out = printed_step_point_mass(1, 64)
    >>> out["regret"] > out["bound"]
    True
    """
    root = math.isqrt(T)
    if root * root != T or not 1 <= B < root:
        raise ValueError(f"T must be a perfect square and 1 <= B < sqrt(T); got B={B!r}, T={T!r}")
    c2 = Fraction(999, 1000 * B) ** 2
    eta = Fraction(B, 2 * root)
    A, loss, shrinks = Fraction(0), Fraction(0), 0
    for _ in range(T):
        E = c2 * A                         # Algorithm 2's estimate, exact here
        loss += (E - 1) ** 2 / 2
        if abs(E) < 16 * B:
            A += eta * (E - 1)             # alpha_t^(t+1) = -eta (y_t - E_t), as printed
        else:
            A /= 4
            shrinks += 1
    regret = loss - T * (1 - Fraction(999, 1000)) ** 2 / 2
    bound = (B * B / eta + 4 * eta * T) / (1 - 2 * eta)
    return {"B": B, "T": T, "regret": regret, "bound": bound, "ratio": float(regret / bound),
            "shrinks": shrinks}

