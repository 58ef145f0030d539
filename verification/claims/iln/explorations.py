"""Explorations: findings beyond the ILN paper's statements, with the same statistics.

* ``iln.explore.families``: the regret bound of Theorem 1's proof and the l1 bound of
  ICML Lemma 5 (arXiv Lemma 4) for every feature family of :mod:`iln.features`, not only
  the random coordinates the other claims use. The theorem is stated for any pair
  ``(mu, psi)`` with ``|psi| <= 1``; here each family runs at the proof's ``eta`` and ``m``.
* ``iln.explore.m_ablation``: the regret as the number of estimates ``m`` per round shrinks
  below the proof's ``m_proof = ((16B+1) B)^2 T log gamma``, for every family: the smallest
  fraction of ``m_proof`` at which the regret bound still holds. The statement decided is
  fixed in advance: *the bound still holds at m = m_proof / 1024* (every factor of
  ``m_proof`` beyond the variance ``1/m`` comes from union bounds over rounds and from the
  worst-case ``||alpha||_1``, which the runs do not reach).
* ``iln.explore.adversarial``: a hypothesis search (``target()``) over oblivious sequences
  of inputs and labels for the one that maximises the regret over its bound. The search
  sees one learner seed, so its best value is biased upwards (winner's curse); the sequence
  it finds is then re-run on fresh seeds, and those runs decide.

These are not numbered statements of the paper, so no erratum can come from them; a
violation is a finding reported in its own section of the report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from iln import theory
from iln.comparator import best_in_ball
from iln.comparator import regret as comparator_regret
from iln.data import (
    alternating_labels,
    constant_labels,
    section6_data,
    two_point_inputs,
    unit_ball_data,
)
from iln.features import (
    FeatureFamily,
    RandomCoordinate,
    RandomFourier,
    RandomReLU,
    RandomSigmoid,
    RandomSign,
    RandomStump,
)
from iln.random_streams import child
from iln.shrinking_gradient import shrinking_gradient
from verification import rules
from verification.catalog import Claim, Source, profiles, register
from verification.claims.iln.instances import NEAR_DUPLICATES, described, hadamard_rows
from verification.claims.iln.lemma5 import SLACK, alpha_l1_ratio
from verification.claims.iln.theorem1_regret import regret_point
from verification.verdicts import INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["FAMILIES", "FAMILY_SEQUENCES", "family", "family_sequence"]

#: every family of :mod:`iln.features` that has an oracle (the regret needs the comparator),
#: at small dimensions so that the hard inputs below are as close as the family allows.
FAMILIES = {
    "coordinate": "random coordinates psi(x; d) = x_d on [-1, 1]^4",
    "stump": "random stumps psi(x; d, s) = 0.999 sign(x_d - s) on [-1, 1]^4",
    "fourier": "random Fourier features cos(w . x + b) (Gaussian kernel, gamma = 1) on R^3",
    "sign": "random signs 0.999 sign(w . x), w uniform on the sphere (arc-cosine kernel of order 0)",
    "relu": "random ReLU neurons max(0, w . x) on the unit ball of R^3 (arc-cosine kernel of order 1)",
    "sigmoid": "random sigmoid neurons on the unit ball of R^3 (kernel by quadrature)",
}

#: what each sequence is and why it pushes against the bounds (shown in the report).
FAMILY_SEQUENCES = {
    "contradictory": "two inputs as close as the family allows (coordinates: entries 0.99 and "
                     "one 0.98; the others: unit vectors 1e-3 apart), labels +1, -1 in turn: "
                     "the largest gradient every round, in alternating directions",
    "constant": "the same two inputs, every label +1: the learner must travel to a predictor "
                "of norm about B, where the B^2 / eta term of the bound binds",
    "random": "inputs drawn from the family's domain (coordinates: the Section 6 data with "
              "its labels; the others: uniform in the unit ball with uniform labels in [-1, 1]): "
              "the benign case",
}


def family(name: str) -> FeatureFamily:
    """The feature family called ``name`` (see :data:`FAMILIES`)."""
    families = {"coordinate": lambda: RandomCoordinate(4), "stump": lambda: RandomStump(4),
                "fourier": lambda: RandomFourier(3), "sign": lambda: RandomSign(3),
                "relu": lambda: RandomReLU(3), "sigmoid": lambda: RandomSigmoid(3)}
    if name not in families:
        raise ValueError(f"unknown family {name!r}; known: {sorted(FAMILIES)}")
    return families[name]()


@dataclass(frozen=True)
class FamilyRun:
    """One run of Algorithm 1 and what the explorations read from it."""

    regret: float
    bound: float
    alpha_l1_ratio: float
    shrinks: int


def family_sequence(family_name: str, sequence_name: str, T: int, seed: np.random.SeedSequence):
    """Inputs, labels and family of the sequence ``sequence_name`` (see :data:`FAMILY_SEQUENCES`).

    Returns ``(X, y, family)``; ``seed`` draws the inputs where they are random.
    """
    fam = family(family_name)
    coordinates = family_name in ("coordinate", "stump")
    if sequence_name == "random":
        if coordinates:
            data = section6_data(T, 2 * T, seed=seed)
            return data.X, data.y, RandomCoordinate(2 * T) if family_name == "coordinate" else RandomStump(2 * T)
        data = unit_ball_data(T, fam.dim, seed=seed)
        return data.X, data.y, fam
    if sequence_name not in FAMILY_SEQUENCES:
        raise ValueError(f"unknown sequence {sequence_name!r}; known: {sorted(FAMILY_SEQUENCES)}")
    X = NEAR_DUPLICATES[np.arange(T) % 2] if coordinates else two_point_inputs(T, fam.dim, seed=seed)
    y = alternating_labels(T) if sequence_name == "contradictory" else constant_labels(T)
    return X, y, fam


def run_regret(X, y, fam: FeatureFamily, B: float, seed: np.random.SeedSequence,
               m: int | None = None) -> FamilyRun:
    """Algorithm 1 at the proof's ``eta`` (and ``m`` unless given): regret against the best
    predictor of norm at most B, the proof's bound, and the largest l1 ratio over the rounds."""
    run = shrinking_gradient(X, y, fam, B=B, m=m, seed=seed, oracle=fam.kernel)
    best = best_in_ball(fam.kernel(X), y, B)
    return FamilyRun(regret=comparator_regret(run.trace.loss_exact, best),
                     bound=float(theory.regret_bound_proof(B, len(X))),
                     alpha_l1_ratio=float(alpha_l1_ratio(run).max()), shrinks=int(run.trace.shrink.sum()))


def _regret_points(records, keys, T: int) -> list[rules.MeanPoint]:
    """The mean rule's points for the regret at each key, at B = 1 and the proof's eta."""
    return [regret_point(key, [r[key]["regret"] for r in records], 1.0, T) for key in keys]


# ------------------------------------------------------------------------------------------
# iln.explore.families
# ------------------------------------------------------------------------------------------


def _family_keys(config) -> list[tuple[str, str, str]]:
    return [(f"{f}/{s}", f, s) for f in config["families"] for s in config["sequences"]]


def families_trial(config, seed) -> dict:
    """One run per (family, sequence) at the proof's eta and m; its regret and l1 ratio."""
    record = {}
    for j, (key, fam_name, seq_name) in enumerate(_family_keys(config)):
        X, y, fam = family_sequence(fam_name, seq_name, config["T"], child(seed, j, 0))
        r = run_regret(X, y, fam, 1.0, child(seed, j, 1))
        record[key] = {"regret": r.regret, "alpha_l1_ratio": r.alpha_l1_ratio, "shrinks": r.shrinks}
    return record


def families_decide(records, config, alpha) -> Verdict:
    """Mean rule on the regret per (family, sequence), Bonferroni over them, and the l1
    invariant on every round: one round above the l1 bound is a violation."""
    keys = [k for k, _, _ in _family_keys(config)]
    worst_l1 = {k: max(r[k]["alpha_l1_ratio"] for r in records) for k in keys}
    details = {"families": {f: FAMILIES[f] for f in config["families"]},
               "sequences": {s: FAMILY_SEQUENCES[s] for s in config["sequences"]},
               "max_alpha_l1_ratio": worst_l1}
    verdict = rules.mean_bound("iln.explore.families", _regret_points(records, keys, config["T"]), alpha, details)
    l1_broken = [k for k, v in worst_l1.items() if v > 1 + SLACK]
    if not l1_broken:
        return verdict
    key = max(l1_broken, key=worst_l1.__getitem__)
    return replace(verdict, verdict=VIOLATED, counterexample={
        "point": key, "alpha_l1_ratio": worst_l1[key], "statement": "||alpha^(t)||_1 <= (16B+1) eta t"})


_REGRET_STATEMENT = (r"\mathbb{E}[R_T] \le \frac{1}{1-2\eta}\left(\frac{B^2}{\eta} + 4\eta T\right),\ "
                     r"\eta = \frac{B}{2\sqrt{T}},\ m = ((16B+1)B)^2 T\log\gamma;\quad "
                     r"\|\alpha^{(t)}\|_1 \le (16B+1)\eta t")
_FAMILY_SOURCES = (
    Source("ICML", "Section 2 (any (mu, psi) with |psi| <= 1); Theorem 1 and its proof "
                   "(Section 5.1); Lemma 5", _REGRET_STATEMENT),
    Source("arXiv", "Section 2; Theorem 1 and its proof (Appendix C.2); Lemma 4", _REGRET_STATEMENT),
)

register(Claim(
    id="iln.explore.families", title="Exploration: Theorem 1's regret bound and the l1 bound hold for every feature family",
    sources=_FAMILY_SOURCES, rule="mean bound and deterministic invariant", trial=families_trial, decide=families_decide,
    # Nothing in the proofs depends on the family beyond |psi| <= 1: fixed before running, as
    # holds. Inconclusive since the full run of 89c418c and all 20 self-test seeds of 4ba29f8:
    # at relu/constant the exact interval of the mean regret at n = 12, [-180, 4.6e5] from its
    # a-priori range, straddles the bound 49.6 (the t interval, not used, ends at 6.5).
    expected=INCONCLUSIVE, kind="exploration",
    configs=profiles({"families": list(FAMILIES), "sequences": list(FAMILY_SEQUENCES)},
                     smoke={"n_trials": 3, "T": 20}, quick={"n_trials": 8, "T": 32}, full={"n_trials": 12, "T": 128}),
    instances="every feature family with an oracle (" + described(FAMILIES) + ") on each sequence ("
              + described(FAMILY_SEQUENCES) + "), B = 1.",
))


# ------------------------------------------------------------------------------------------
# iln.explore.m_ablation
# ------------------------------------------------------------------------------------------


def ablation_m(T: int, fraction: float) -> int:
    """``max(1, ceil(fraction * m_proof(1, T)))``: the m of a fraction of the proof's m."""
    return max(1, math.ceil(fraction * theory.m_proof(1.0, T)))


def _ablation_fractions(config) -> list[float]:
    """The grid's fractions, largest first, less those that round to an m already on it."""
    by_m: dict[int, float] = {}
    for q in sorted(config["fractions"], reverse=True):
        by_m.setdefault(ablation_m(config["T"], q), q)
    return list(by_m.values())


def _ablation_keys(config) -> list[tuple[str, str, str, float]]:
    return [(f"{f}/{s}/m={ablation_m(config['T'], q)}", f, s, q)
            for f in config["families"] for s in config["sequences"] for q in _ablation_fractions(config)]


def ablation_trial(config, seed) -> dict:
    """Per (family, sequence): the same inputs and learner seed at every m of the grid.

    Common random numbers across m make the differences between fractions those of m, not
    of the draw.
    """
    record = {}
    for j, fam_name in enumerate(config["families"]):
        for i, seq_name in enumerate(config["sequences"]):
            X, y, fam = family_sequence(fam_name, seq_name, config["T"], child(seed, j, i, 0))
            for q in _ablation_fractions(config):
                m = ablation_m(config["T"], q)
                r = run_regret(X, y, fam, 1.0, child(seed, j, i, 1), m=m)
                record[f"{fam_name}/{seq_name}/m={m}"] = {"regret": r.regret, "shrinks": r.shrinks}
    return record


def smallest_fraction_holding(rows, keys, config, bound: float) -> dict:
    """Per family, the smallest fraction of m_proof from which up every point's t interval
    (approximate: reported, not decided) lies below the bound, or None.

    With the regret's vast a-priori range no point can be shown to hold at the rule's level,
    so the smallest m is read off the t interval, which is approximate (and says so).
    """
    smallest = {}
    for fam_name in config["families"]:
        holding = None
        for q in _ablation_fractions(config):
            mine = [rows[k]["t_interval_not_deciding"][1] < bound for k, f, _, q2 in keys
                    if f == fam_name and q2 == q]
            if not all(mine):
                break
            holding = q
        smallest[fam_name] = holding
    return smallest


def ablation_decide(records, config, alpha) -> Verdict:
    """The mean rule at the decisive fraction decides (Bonferroni over its points); every other
    fraction is reported with the same rule, and per family the smallest fraction from which
    up every point holds."""
    keys = _ablation_keys(config)
    bound = float(theory.regret_bound_proof(1.0, config["T"]))
    decisive_keys = [k for k, _, _, q in keys if q == config["decisive_fraction"]]
    decisive = rules.mean_bound("iln.explore.m_ablation", _regret_points(records, decisive_keys, config["T"]),
                                alpha, {})
    # Every fraction reported with the same rule and level (not deciding).
    rows = rules.mean_bound("iln.explore.m_ablation", _regret_points(records, [k for k, *_ in keys], config["T"]),
                            alpha * len(keys) / len(decisive_keys), {}).details["points"]
    smallest = smallest_fraction_holding(rows, keys, config, bound)
    details = {"m_proof": theory.m_proof(1.0, config["T"]), "fractions": config["fractions"],
               "decisive_fraction": config["decisive_fraction"],
               "smallest_fraction_holding": smallest,
               "smallest_m_holding": {f: None if q is None else ablation_m(config["T"], q)
                                      for f, q in smallest.items()},
               "smallest_m_note": "from every larger m on, the t interval's upper end (approximate, "
                                  "not a decision) is below the bound",
               "regret_by_m": {k: {"mean": rows[k]["mean"], "interval": rows[k]["interval"], "bound": bound,
                                   "t_interval": rows[k]["t_interval_not_deciding"],
                                   "holds": rows[k]["printed_holds"], "violated": rows[k]["printed_violated"],
                                   "shrinks": sum(r[k]["shrinks"] for r in records)} for k in rows},
               "families": {f: FAMILIES[f] for f in config["families"]},
               "sequences": {s: FAMILY_SEQUENCES[s] for s in config["sequences"]}}
    return replace(decisive, details={**decisive.details, **details})


#: 4^-1, ..., 4^-9: at T = 32, m_proof = 1.2e5 and 4^-9 of it is m = 1.
_FRACTIONS = [4.0 ** -k for k in range(1, 10)]
_ABLATION_SEQUENCES = ["contradictory", "constant"]

register(Claim(
    id="iln.explore.m_ablation", title="Exploration: the regret bound still holds with 1/1024 of the proof's m",
    sources=_FAMILY_SOURCES, rule="mean bound at m = m_proof / 1024; the other fractions reported",
    # Fixed before running: the variance term needs m of order ||alpha||_1^2 T, and the runs'
    # ||alpha||_1 stays far below the (16B+1) eta t the proof's m provisions for, so three
    # orders of magnitude fewer samples should still meet the bound. Inconclusive (it was
    # holds) since the full run of 89c418c and all 20 self-test seeds of 4ba29f8: at
    # relu/constant/m=557 the exact interval [-177, 4.6e5] straddles the bound 49.6 (n = 12).
    expected=INCONCLUSIVE, kind="exploration", trial=ablation_trial, decide=ablation_decide,
    configs=profiles({"families": list(FAMILIES), "sequences": _ABLATION_SEQUENCES, "fractions": _FRACTIONS,
                      "decisive_fraction": 4.0 ** -5},
                     smoke={"n_trials": 3, "T": 20, "families": ["coordinate", "relu"], "fractions": _FRACTIONS[::2]},
                     quick={"n_trials": 10, "T": 32}, full={"n_trials": 12, "T": 128, "fractions": [*_FRACTIONS, 4.0 ** -10]}),
    instances="the hard sequences of iln.explore.families (" + described(FAMILY_SEQUENCES, _ABLATION_SEQUENCES)
              + ") for every family, B = 1, the proof's eta, and m = 4^-k m_proof down to m = 1.",
))


# ------------------------------------------------------------------------------------------
# iln.explore.adversarial
# ------------------------------------------------------------------------------------------

#: the labels the search chooses from: the ends and the middle of [-1, 1].
_LABELS = (-1.0, -0.5, 0.0, 0.5, 1.0)


def adversarial_pool() -> tuple[np.ndarray, FeatureFamily]:
    """The inputs the search chooses from, under random coordinates on [-1, 1]^4.

    The four orthogonal Hadamard rows (entries +-0.99, the largest k(x, x) the family
    allows) and a near-duplicate of the first: orthogonal directions (the minimax
    construction) and nearly parallel ones (contradictory labels) in one pool.
    """
    rows, fam = hadamard_rows(4)
    return np.vstack([rows, NEAR_DUPLICATES[1]]), fam


def _search(config, seed, pool, fam) -> dict:
    """The hypothesis search: the sequence of largest regret / bound for one learner seed."""
    # Imported here: hypothesis is only needed by this claim's trials.
    from hypothesis import HealthCheck, Phase, example, given, settings, target
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    T = config["T"]
    learner_seed = child(seed, 1)
    best = {"ratio": -math.inf}
    sequences = st.lists(st.integers(0, len(pool) - 1), min_size=T, max_size=T)
    labels = st.lists(st.sampled_from(_LABELS), min_size=T, max_size=T)
    # The handcrafted worst cases start the search, so it has to beat them.
    orthogonal = [t % 4 for t in range(T)], [1.0 if t % 2 == 0 else -1.0 for t in range(T)]
    contradictory = [4 * (t % 2) for t in range(T)], [1.0 if t % 2 == 0 else -1.0 for t in range(T)]

    @settings(max_examples=config["max_examples"], database=None, deadline=None, derandomize=False,
              phases=[Phase.explicit, Phase.generate, Phase.target], suppress_health_check=list(HealthCheck),
              print_blob=False, report_multiple_bugs=False)
    @hypothesis_seed(int(child(seed, 0).generate_state(1)[0]))
    @given(sequences, labels)
    @example(*orthogonal)
    @example(*contradictory)
    def search(which, ys):
        r = run_regret(pool[which], np.asarray(ys), fam, 1.0, learner_seed)
        ratio = r.regret / r.bound
        target(ratio, label="regret / bound")
        if ratio > best["ratio"]:
            best.update(ratio=ratio, inputs=list(which), labels=list(ys))

    search()
    return best


def adversarial_trial(config, seed) -> dict:
    """One search, then the sequence it found re-run on fresh learner seeds."""
    pool, fam = adversarial_pool()
    best = _search(config, seed, pool, fam)
    X, y = pool[best["inputs"]], np.asarray(best["labels"])
    fresh = [run_regret(X, y, fam, 1.0, child(seed, 2, k)).regret for k in range(config["fresh_runs"])]
    return {"search_ratio": best["ratio"], "inputs": best["inputs"], "labels": best["labels"],
            "fresh_regret": fresh}


def adversarial_decide(records, config, alpha) -> Verdict:
    """Mean rule on the fresh runs of each search's sequence, Bonferroni over the searches."""
    bound = float(theory.regret_bound_proof(1.0, config["T"]))
    points = [regret_point(f"search {j}", r["fresh_regret"], 1.0, config["T"]) for j, r in enumerate(records)]
    worst = max(range(len(records)), key=lambda j: float(np.mean(records[j]["fresh_regret"])))
    details = {"T": config["T"], "bound": bound, "search_ratios": [r["search_ratio"] for r in records],
               "worst_sequence": {"inputs": records[worst]["inputs"], "labels": records[worst]["labels"]},
               "pool": "4 Hadamard rows (+-0.99) and a near-duplicate of the first, random coordinates",
               "note": "the search's own ratio is biased upwards (one learner seed, maximised); "
                       "the fresh runs decide"}
    verdict = rules.mean_bound("iln.explore.adversarial", points, alpha, details)
    if verdict.counterexample is None:
        return verdict
    bad = verdict.counterexample["point"]
    sequence = {k: records[int(bad.split()[1])][k] for k in ("inputs", "labels")}
    return replace(verdict, counterexample={**verdict.counterexample, "sequence": sequence})


register(Claim(
    id="iln.explore.adversarial", title="Exploration: no oblivious sequence a hypothesis search finds breaks the regret bound",
    sources=_FAMILY_SOURCES, rule="mean bound on fresh runs of each searched sequence",
    # Fixed before running: the proof's bound holds for every oblivious sequence, and the
    # minimax construction reaches only about a quarter of it (iln.thm1.regret). Inconclusive
    # (it was holds) since the full run of 89c418c and all 20 self-test seeds of 4ba29f8: the
    # exact interval of a searched sequence's mean regret, [-64, 5.0e4] at n = 20, straddles
    # the bound 32.4.
    expected=INCONCLUSIVE, kind="exploration", trial=adversarial_trial, decide=adversarial_decide,
    configs=profiles(smoke={"n_trials": 2, "T": 20, "max_examples": 10, "fresh_runs": 5},
                     quick={"n_trials": 4, "T": 24, "max_examples": 60, "fresh_runs": 12},
                     full={"n_trials": 8, "T": 48, "max_examples": 200, "fresh_runs": 20}),
    instances="sequences of T inputs from a pool of 4 orthogonal Hadamard rows (+-0.99) and a "
              "near-duplicate of the first, with labels in {-1, -1/2, 0, 1/2, 1}, under random "
              "coordinates, B = 1, the proof's eta and m; the search (hypothesis, target()) "
              "starts from the minimax construction and from contradictory labels on "
              "near-duplicates, one search per trial.",
))
