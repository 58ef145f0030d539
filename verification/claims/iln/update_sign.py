"""The sign of Algorithm 1's step as printed, against Theorem 1's regret bound.

Both versions print the new coefficient so that ``f_{t+1} = f_t + eta (E_t - y_t) Phi(x_t)``
(ICML Algorithm 1: ``alpha_t^(t+1) = -eta (y_t - E_t)``; arXiv Algorithm 1:
``alpha_t^(t+1) = eta (E_t - y_t)``): a step *up* the estimated gradient
``bar grad_t = (E_t - y_t) Phi(x_t)`` of the squared loss. The analysis uses the descent
step ``f_t - eta bar grad_t`` (ICML Lemma 2 and the proof of Lemma 6, eq. (22); arXiv
Lemma 2 and the proof of Lemma 5). ``iln.alg1.update_sign`` runs Algorithm 1 as printed
and as analysed, at the proof's ``eta`` and ``m``, and decides Theorem 1's bound on both:
the printed algorithm is the statement, the descent step the correction.
"""

from __future__ import annotations

import functools

import verification.rules.mean
from iln import theory
from iln.comparator import best_in_ball
from iln.comparator import regret as comparator_regret
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification import rules
from verification.catalog import DESIGN_ALPHA, Claim, Erratum, Quote, Source, register
from verification.claims.iln.regret import SEQUENCES, regret_point, sequence
from verification.verdicts import HOLDS_AFTER_CORRECTION, Verdict

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
    keys = [(f"{u}/{key}", u, T) for u in _UPDATES for key, _, T in _points(config)]
    # Bonferroni over the two signs: the printed sign decides the printed statement, the
    # descent sign the corrected one.
    verdicts = {u: rules.mean_bound("iln.alg1.update_sign",
                                    [regret_point(k, [r[k]["regret"] for r in records], 1.0, T)
                                     for k, u2, T in keys if u2 == u], alpha / len(_UPDATES),
                                    {"sequences": {n: SEQUENCES[n] for n in config["sequences"]}})
                for u in _UPDATES}
    shrinks = {k: sum(r[k]["shrinks"] for r in records) for k, _, _ in keys}
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
    id="iln.alg1.update_sign",
    title="Algorithm 1 as printed (its step's sign) meets Theorem 1's regret bound",
    sources=(
        Source("ICML", "Section 3, Algorithm 1 and Theorem 1, part 1", _STEP_ICML + _THEOREM),
        Source("arXiv", "Section 3, Algorithm 1 and Theorem 1, part 1", _STEP_ARXIV + _THEOREM),
    ),
    rule="mean bound",
    # Fixed before running: the printed step climbs the squared loss; the shrink keeps |E_t|
    # below 16B, so the loss per round stays of order (16B)^2 / 2 and the regret grows like T.
    expected=HOLDS_AFTER_CORRECTION,
    configs={
        # Trials planned for the violation side to find a printed-sign regret 16 times the
        # bound with the design power, from the pilots: 107 times at T = 64 and 128 in the
        # last full report, 20 times at T = 32 in a smoke run of 4 trials.
        "smoke": {"n_trials": functools.partial(_trials, [32], 1), "T": [32], "sequences": ["near_duplicate_constant"]},
        "quick": {"n_trials": functools.partial(_trials, [64], 2), "T": [64],
                  "sequences": ["near_duplicate_constant", "section6"]},
        "full": {"n_trials": functools.partial(_trials, [64, 128], 2), "T": [64, 128],
                 "sequences": ["near_duplicate_constant", "section6"]},
    },
    trial=update_sign_trial,
    decide=update_sign_decide,
    instances="the proof's eta = B/(2 sqrt T) and m = m_proof(B, T), B = 1, each sequence run with the "
              "printed step and the descent step on the same learner seed: "
              + "; ".join(f"{k}: {SEQUENCES[k]}" for k in ("near_duplicate_constant", "section6")),
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
                       "Counterexample: two inputs 0.01 apart under random coordinates, every label "
                       "+1, T = 64, B = 1, the proof's eta and m: the printed algorithm's mean regret "
                       "exceeds the proof's bound 4 B sqrt(T) / (1 - B / sqrt(T)) (the check's numbers).",
        corrected=r"\alpha_t^{(t+1)} = -\eta(E_t - y_t)\ \text{(}f_{t+1} = f_t - \eta\bar{\nabla}_t\text{)}",
        check="The same sequences and learner seeds with the descent step: the mean regret is below "
              "the proof's bound at every point (mean rule, BCa bootstrap over seeds).",
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
