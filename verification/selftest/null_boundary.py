"""Type I error at the null boundary: each statistical rule's rejection rate where the statement is exactly true.

The false-alarm smoke test (:mod:`verification.selftest.false_alarms`) runs the catalog's claims,
whose true values sit far inside their nulls: every p-value there is 1, so a rule a hundred
times too liberal would score as well.  Here each statistical rule runs as the catalog uses
it, at each claim's sample size and grid (read from the claim's configuration, profiles
smoke, quick and full) and at a per-claim level of :data:`LEVEL` (0.05, so that the rule's
own split of alpha over its points and statements applies), on synthetic laws whose true
value equals the bound exactly, at every point of the grid.  Each case is run on
:data:`SEEDS` independent seeds; a seed's rejection is the rule's ``violated`` (the
conformance test's "does not conform").  The rejection rate gets its exact two-sided
Clopper-Pearson interval at :data:`COVERAGE`.

The rules and their laws at the boundary:

* **probability** (:func:`verification.rules.probability.probability_bound`): ``k`` events
  of ``n`` trials, ``k ~ Bin(n, p0)`` with the point's bound ``p0`` cycling over
  :data:`BOUNDS`;
* **mean** (:func:`verification.rules.mean.mean_bound`): for a variable with both ends known
  (range ``[0, 1]``) the two-point law at 1/2, the skewed two-point law at 0.02 and a skewed
  beta law (mean 0.05); for a variable bounded below only (range ``[0, inf)``, the truncated
  rule) an exponential, a lognormal and a two-point law ``{0, 20}``, each of mean 1;
* **equivalence** (:func:`verification.rules.equivalence.equivalence`): the two two-point
  laws above (the largest variance, and the skewed one) with ``E[X]`` equal to the stated
  value (the beta law is left out here: at the full profile's 144,401 trials it would double
  the plan's time, and the rule's intervals are the mean rule's, measured on it);
* **rate** (:func:`verification.rules.rate.rate_bound`): slopes ``bound + s (Y - median Y)``
  with ``Y`` gamma(2), lognormal(0, 1) or exponential(1), the long tail toward the violation
  (``s = 1`` on an upper side, ``-1`` on a lower one): median exactly the bound;
* **comparison** (:func:`verification.rules.comparison.paired_comparison`): ``a`` and ``b``
  independent with one law, continuous (exponential) or with ties (Poisson(1)), so that
  ``P[a > b | a != b] = 1/2``;
* **conformance** (:func:`verification.search.decide.conformance`): at each of the claim's
  confirm points, events drawn with the exact probability the search certified; for an
  expectation (**conformance of a mean**), draws of the two-point law on the a-priori range
  whose mean is the exact one (the largest variance that mean and range allow).  Every
  specification of the catalog that samples the implementation is a case, read from the
  registry (:func:`specification_designs`).

Each case's ``points`` and its alpha ``share`` (the fraction of the claim's alpha its printed
statement's violation side gets: 1/2 when a corrected statement or a bracketing pair shares
it) follow the claim's decision code; :data:`DESIGNS` says how each is read from the
configuration.  A claim decided over several settings or cells is run as its one setting
(the violation needs every setting: one setting rejects at least as often).

The plan, fixed before the measurement (:data:`CRITERION`): a case *passes* when the lower end
of its interval is at most the level and its upper end below twice the level, so that the
measurement shows the rate is not above the level and excludes a doubling; a case whose lower
end exceeds the level is a *finding* (the rule rejects a true statement more often than its
level), reported with its numbers and never loosened.  :data:`SEEDS` is chosen so that a
rule whose rate is twice the level is found with probability at least :data:`DOUBLING_POWER`
(:func:`doubling_power`).  Every seed is explicit: the generator of seed ``s`` of a case is
``SeedSequence(ENTROPY, spawn_key=(crc32(case key), s))``, so the numbers are the same for any
number of processes and any order.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, cast

import numpy as np
from scipy import stats

from verification import catalog, rules, statistics
from verification.claims.iln import theorem1_regret as regret
from verification.search.decide import conformance
from verification.search.specification import EXPECTATION, registered, statement
from verification.verdicts import VIOLATED

__all__ = ["BOUNDS", "COVERAGE", "CRITERION", "DESIGNS", "DOUBLING_POWER", "ENTROPY", "LEVEL", "RULES", "SEEDS",
           "Case", "cases", "doubling_power", "judge", "rejects", "run_case", "summarise"]

#: the per-claim level every case runs at (the rule splits it over points and statements).
LEVEL = 0.05
#: coverage of the two-sided Clopper-Pearson interval of each rejection rate.
COVERAGE = 0.95
#: seeds per case: at a true rate of twice the level, the interval's lower end exceeds the
#: level with probability 0.923 (:func:`doubling_power`; the power is a saw-tooth in the seeds:
#: 200 give 0.79, 300 give 0.898, 400 give 0.964, at about 4 s of one core per seed of the plan).
SEEDS = 320
#: the probability with which the plan must find a rule whose rate is twice the level.
DOUBLING_POWER = 0.9
#: the entropy of every case's seeds (with the case key's crc32 and the seed as spawn key).
ENTROPY = 20261128
#: the bounds of a probability claim's points, in turn (the catalog's deltas run from 0.5 to 0.01).
BOUNDS = (0.5, 0.1, 0.01)
#: the rules measured, in the order they run.
RULES = ("probability", "mean", "equivalence", "rate", "comparison", "conformance", "conformance of a mean")
#: the acceptance criterion, as the document states it.
CRITERION = (f"a case passes when the lower end of its two-sided {COVERAGE:g} Clopper-Pearson interval of the "
             f"rejection rate is at most the level {LEVEL:g} and its upper end is below twice the level; a case "
             "whose lower end exceeds the level is a finding (the rule rejects a true statement more often than "
             f"its level); the seeds are planned so that a rate of twice the level is a finding with probability "
             f"at least {DOUBLING_POWER:g}")

#: laws of a variable on [0, 1], by name: (sampler(rng, n), mean).
_BOTH_ENDS: dict[str, tuple[Callable[[np.random.Generator, int], np.ndarray], float]] = {
    "two-point {0, 1} at 1/2": (lambda rng, n: (rng.random(n) < 0.5).astype(np.float64), 0.5),
    "two-point {0, 1} at 0.02": (lambda rng, n: (rng.random(n) < 0.02).astype(np.float64), 0.02),
    "beta(0.1, 1.9), mean 0.05": (lambda rng, n: rng.beta(0.1, 1.9, n), 0.05),
}
#: laws of a variable bounded below by 0 only, each of mean 1.
_LOWER_END: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "exponential, mean 1": lambda rng, n: rng.exponential(1.0, n),
    "lognormal(sigma 1), mean 1": lambda rng, n: rng.lognormal(-0.5, 1.0, n),
    "two-point {0, 20} at 0.05": lambda rng, n: 20.0 * (rng.random(n) < 0.05),
}
#: skewed laws of the slopes, with their exact medians.
_SLOPES: dict[str, tuple[Callable[[np.random.Generator, int], np.ndarray], float]] = {
    "gamma(2)": (lambda rng, n: rng.gamma(2.0, 1.0, n), float(stats.gamma.median(2.0))),
    "lognormal(0, 1)": (lambda rng, n: rng.lognormal(0.0, 1.0, n), 1.0),
    "exponential(1)": (lambda rng, n: rng.exponential(1.0, n), math.log(2.0)),
}
#: paired laws with P[a > b | a != b] = 1/2.
_PAIRS: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "continuous (exponential)": lambda rng, n: rng.exponential(1.0, n),
    "with ties (Poisson(1))": lambda rng, n: rng.poisson(1.0, n).astype(np.float64),
}


@dataclass(frozen=True)
class Case:
    """One rule at one claim's design, on one law at the boundary.

    Attributes
    ----------
    rule : str
        One of :data:`RULES`.
    claim : str
        The catalog claim whose design this is.
    profile : str
    n : int
        Trials (seeds, repetitions) per point.
    points : int
        Points of the claim's grid, every one at the boundary.
    share : float
        The fraction of the claim's alpha its printed statement's violation side gets.
    law : str
    side : str
        ``"both ends"`` or ``"lower end"`` (mean), ``"upper"`` or ``"lower"`` (rate), else ``""``.
    splits : int
        The split the rule is told (comparison: the claim's seed plan's), else 0.
    source : str
        How ``n`` and ``points`` are read from the claim's configuration.
    """

    rule: str
    claim: str
    profile: str
    n: int
    points: int
    share: float
    law: str
    side: str = ""
    splits: int = 0
    source: str = ""

    @property
    def key(self) -> str:
        """``rule/claim/profile/law``: the case's name, and its seeds' spawn key (its crc32)."""
        return f"{self.rule}/{self.claim}/{self.profile}/{self.law}"

    @property
    def per_point_level(self) -> float:
        """The one-sided level of each point's violation side."""
        statements = 2 if self.rule == "equivalence" else 1  # two sides per point
        return LEVEL * self.share / (statements * max(self.points, self.splits))


def _n(config: Mapping[str, Any]) -> int:
    return int(config["n_trials"])


def _count(*axes: str, times: int = 1) -> Callable[[Mapping[str, Any]], int]:
    def points(config: Mapping[str, Any]) -> int:
        return times * math.prod(len(config[a]) for a in axes)
    points.__doc__ = (f"{times} x " if times > 1 else "") + " x ".join(f"len({a})" for a in axes)
    return points


def _regret_points(config: Mapping[str, Any]) -> int:
    """sampled sequences x T_grid (the descent step's sampled points)."""
    return len(regret.SAMPLED) * len(config["T_grid"])


def _repetitions(config: Mapping[str, Any]) -> int:
    """The committed benchmark's independent repetitions (its ``rep`` parameter)."""
    path = Path(config["repository_root"]) / config["benchmark_json"]
    reps = {b["params"]["rep"] for b in json.loads(path.read_text())["benchmarks"]}
    return len(reps)


def _figure1_cells(config: Mapping[str, Any]) -> float:
    """1 / (losses x accountings): by_cell's share of each cell (two losses decide cells)."""
    return 1.0 / (2 * len(config["budgets"]))


@dataclass(frozen=True)
class _Design:
    rule: str
    points: Callable[[Mapping[str, Any]], int]
    share: float | Callable[[Mapping[str, Any]], float] = 1.0
    n: Callable[[Mapping[str, Any]], int] = _n
    side: str = ""
    splits: Callable[[Mapping[str, Any]], int] | None = None


#: per statistical claim of the catalog that is not a specification, how its design is read
#: from its configuration (points and shares as the claim's decision code forms them); a
#: specification's design is its conformance test at its confirm points
#: (:func:`specification_designs`), read from the registry, not copied here.
DESIGNS: dict[str, _Design] = {
    "iln.lemma2.shrink_penalty": _Design("probability", _count("grid", times=3)),
    "rks.lemma2.risk_approximation": _Design("probability", _count("instances", "losses", "K", "delta", times=2), 0.5),
    "rks.thm1.excess_risk": _Design("probability", _count("instances", "losses", "K", "m", "delta")),
    # the descent step's sampled part (its exact parts are decided without a rule)
    "iln.thm1.regret": _Design("mean", _regret_points, side="lower end"),
    "iln.explore.families": _Design("mean", _count("families", "sequences"), side="lower end"),
    "iln.explore.m_ablation": _Design("mean", _count("families", "sequences"), side="lower end"),
    "iln.alg2.unbiased": _Design("equivalence", _count("instances", "methods")),
    "iln.conformance.alg1_law": _Design("equivalence", lambda config: 2),
    "iln.thm1.runtime": _Design("rate", lambda config: 2, n=_repetitions, side="upper"),
    "rks.fig2.alpha_inf_decay": _Design("rate", lambda config: 1, side="lower"),
    "iln.sec6.figure1": _Design("comparison", lambda config: len(config["D"]) * 2, _figure1_cells),
    "rks.fig1.vs_adaboost": _Design("comparison", _count("targets"), splits=_count("targets", times=2)),
}


def _confirm_points(config: Mapping[str, Any]) -> int:
    """len(search.confirm): the instances the search certified and the trials sample."""
    return len(config["search"]["confirm"])


def specification_designs() -> dict[str, _Design]:
    """The conformance design of every claim that is a specification and samples the shipped
    implementation (:mod:`verification.search`): ``conformance`` for a probability (events at
    the exact probability), ``conformance of a mean`` for an expectation (draws on the a-priori
    range with the exact mean), at the claim's confirm points."""
    catalog.load()
    out = {}
    for claim_id, spec in sorted(registered().items()):
        if claim_id in DESIGNS or claim_id not in catalog.load():
            continue  # a claim with a design of its own (its rule decides beside the search)
        rule = "conformance of a mean" if spec.lhs.kind == EXPECTATION else "conformance"
        out[claim_id] = _Design(rule, _confirm_points)
    return out


def _laws(rule: str, side: str) -> list[str]:
    if rule in ("probability", "conformance"):
        return ["at the bound"]
    if rule == "conformance of a mean":
        return ["two-point on the range"]
    if rule == "mean":
        return list(_BOTH_ENDS if side == "both ends" else _LOWER_END)
    if rule == "equivalence":
        return [law for law in _BOTH_ENDS if law.startswith("two-point")]
    if rule == "rate":
        return list(_SLOPES)
    return list(_PAIRS)


def cases(profiles: Sequence[str] = catalog.PROFILES, claims: Sequence[str] | None = None) -> list[Case]:
    """Every case of the plan: each claim of :data:`DESIGNS` at each profile, on each law.

    Parameters
    ----------
    profiles : sequence of str, default every profile
    claims : sequence of str, optional
        A subset of :data:`DESIGNS`' claims (default all).

    Returns
    -------
    list of Case
        In the order of :data:`RULES`, then claims, profiles and laws.
    """
    designs = {**DESIGNS, **specification_designs()}
    unknown = [c for c in claims or () if c not in designs]
    if unknown:
        raise ValueError(f"claims: no null-boundary design for {unknown[0]!r} (known: {', '.join(designs)})")
    bad = [p for p in profiles if p not in catalog.PROFILES]
    if bad:
        raise ValueError(f"profiles: unknown profile {bad[0]!r} (one of {', '.join(catalog.PROFILES)})")
    known = catalog.load()
    out = []
    for rule in RULES:
        for claim, design in designs.items():
            if design.rule != rule or (claims is not None and claim not in claims):
                continue
            for profile in profiles:
                config = known[claim].config(profile)
                if not design.points(config):  # nothing sampled at this profile: no rule decides
                    continue
                share = design.share(config) if callable(design.share) else design.share
                source = (f"n: {'the benchmark repetitions' if design.n is _repetitions else 'n_trials'}; "
                          f"points: {design.points.__doc__ or 'fixed by the claim'}")
                out += [Case(rule, claim, profile, design.n(config), design.points(config), share, law,
                             design.side, design.splits(config) if design.splits else 0, source)
                        for law in _laws(rule, design.side)]
    return out


def _generator(case: Case, seed: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(ENTROPY, spawn_key=(zlib.crc32(case.key.encode()), seed)))


def _values(draw: Callable[[np.random.Generator, int], np.ndarray], rng: np.random.Generator,
            n: int) -> Sequence[float]:
    """``n`` draws, as the rules' points take them (an array: a list would cost more than the rule)."""
    return cast(Sequence[float], draw(rng, n))


def _probability(case: Case, rng: np.random.Generator, alpha: float) -> bool:
    points = [rules.TailPoint(key=f"p{i}", k=int(rng.binomial(case.n, p0)), n=case.n, printed=p0)
              for i, p0 in ((i, BOUNDS[i % len(BOUNDS)]) for i in range(case.points))]
    return rules.probability_bound(case.claim, points, alpha).verdict == VIOLATED


def _mean(case: Case, rng: np.random.Generator, alpha: float) -> bool:
    if case.side == "both ends":
        draw, mean = _BOTH_ENDS[case.law]
        upper = 1.0
    else:
        draw, mean, upper = _LOWER_END[case.law], 1.0, math.inf
    points = [rules.MeanPoint(key=f"p{i}", values=_values(draw, rng, case.n), bound=mean, lower=0.0, upper=upper)
              for i in range(case.points)]
    return rules.mean_bound(case.claim, points, alpha).verdict == VIOLATED


def _equivalence(case: Case, rng: np.random.Generator, alpha: float) -> bool:
    draw, mean = _BOTH_ENDS[case.law]
    points = [rules.EqualityPoint(key=f"p{i}", values=_values(draw, rng, case.n), exact=mean, lower=0.0,
                                  upper=1.0, margin=0.05) for i in range(case.points)]
    return rules.equivalence(case.claim, points, alpha).verdict == VIOLATED


def _rate(case: Case, rng: np.random.Generator, alpha: float) -> bool:
    draw, median = _SLOPES[case.law]
    # The catalog's exponents: Theorem 1's T^2 and B^4 with tolerance 0.1 (upper side, time
    # ordered: a benchmark's repetitions); RKS Figure 2's decay exponent 1 with tolerance 0.2
    # (lower side).  The long tail of the slopes points toward the violation.
    points = []
    for i in range(case.points):
        excess = draw(rng, case.n) - median
        if case.side == "upper":
            upper, tolerance = (2.0, 4.0)[i % 2], 0.1
            points.append(rules.RatePoint(f"p{i}", (upper + tolerance + excess).tolist(), upper,
                                          tolerance=tolerance, time_ordered=True))
        else:
            points.append(rules.RatePoint(f"p{i}", (1.0 - 0.2 - excess).tolist(), None, lower=1.0, tolerance=0.2))
    return rules.rate_bound(case.claim, points, alpha).verdict == VIOLATED


def _comparison(case: Case, rng: np.random.Generator, alpha: float) -> bool:
    draw = _PAIRS[case.law]
    points = [rules.PairedPoint(f"p{i}", a=_values(draw, rng, case.n), b=_values(draw, rng, case.n))
              for i in range(case.points)]
    return rules.paired_comparison(case.claim, points, alpha, splits=case.splits or None).verdict == VIOLATED


def _conformance(case: Case, rng: np.random.Generator, alpha: float) -> bool:
    # The catalog first: loading it registers the claim's statement (in a worker process too).
    confirm = catalog.get(case.claim).config(case.profile)["search"]["confirm"]
    spec = statement(case.claim)
    if spec.lhs.kind == EXPECTATION:
        # The two-point law on the a-priori range with the exact mean: the largest variance
        # a law of that mean and range has, the hardest for the mean's interval.
        draws = {}
        for p in confirm:
            low, high = spec.lhs.sample_range(p["sample_at"])  # type: ignore[misc]
            at_high = rng.random(case.n) < ((p["p"] - low) / (high - low) if high > low else 0.0)
            draws[p["key"]] = np.where(at_high, high, low)
    else:
        draws = {p["key"]: rng.random(case.n) < p["p"] for p in confirm}
    records = [{key: values[t].item() for key, values in draws.items()} for t in range(case.n)]
    rows = conformance(spec, records, confirm, alpha)
    return any(row.get("conforms") is False for row in rows.values())


#: each rule's decision on one seed's draws: whether it rejects the true statement.
_DECISIONS: dict[str, Callable[[Case, np.random.Generator, float], bool]] = {
    "probability": _probability, "mean": _mean, "equivalence": _equivalence, "rate": _rate,
    "comparison": _comparison, "conformance": _conformance, "conformance of a mean": _conformance}


def rejects(case: Case, seed: int) -> bool:
    """Whether the rule rejects its true statement at seed ``seed`` of ``case`` (at the
    claim's alpha ``LEVEL * case.share``)."""
    if case.rule not in _DECISIONS:
        raise ValueError(f"case.rule must be one of {RULES}, got {case.rule!r}")
    return _DECISIONS[case.rule](case, _generator(case, seed), LEVEL * case.share)


def judge(rejections: int, seeds: int) -> dict[str, Any]:
    """The rate, its interval and the verdict of :data:`CRITERION` for ``rejections`` of ``seeds``."""
    interval = statistics.clopper_pearson(rejections, seeds, COVERAGE, alternative="two-sided")
    finding = interval.low > LEVEL
    passes = not finding and interval.high < 2 * LEVEL
    return {"rejections": rejections, "seeds": seeds, "rate": rejections / seeds,
            "interval": [interval.low, interval.high],
            "outcome": "finding: above the level" if finding else "passes" if passes
            else "undecided: a doubling is not excluded"}


def doubling_power(seeds: int) -> float:
    """The probability that a rule of rate ``2 LEVEL`` is a finding at ``seeds`` seeds: the
    lower end of the two-sided interval exceeds the level (exact)."""
    low = [statistics.clopper_pearson(k, seeds, COVERAGE).low for k in range(seeds + 1)]
    critical = next((k for k, value in enumerate(low) if value > LEVEL), seeds + 1)
    return float(stats.binom.sf(critical - 1, seeds, 2 * LEVEL))


def run_case(case: Case, seeds: Sequence[int], pool: Executor | None = None) -> dict[str, Any]:
    """The case run at ``seeds``: which reject, and :func:`judge`'s figures.

    Parameters
    ----------
    case : Case
    seeds : sequence of int
        Distinct non-negative seeds.
    pool : concurrent.futures.Executor, optional
        Splits the seeds over its workers; the numbers are the same as without it, since
        each seed's generator depends on the case and the seed only.
    """
    seeds = list(seeds)
    if not seeds or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in seeds) \
            or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct non-negative ints, at least one, got {seeds!r}")
    if pool is None:
        decided = [rejects(case, s) for s in seeds]
    else:
        decided = list(pool.map(partial(rejects, case), seeds, chunksize=max(1, len(seeds) // 16)))
    rejected = [s for s, r in zip(seeds, decided, strict=True) if r]
    return {"key": case.key, "case": asdict(case), "per_point_level": case.per_point_level,
            "seeds_run": [min(seeds), max(seeds)], "seeds_rejected": rejected,
            **judge(len(rejected), len(seeds))}


def summarise(entries: Sequence[Mapping[str, Any]], planned: Sequence[str], seeds: int) -> dict[str, Any]:
    """The part's document entry: per rule the cases, the largest rate, the findings.

    Parameters
    ----------
    entries : sequence of mapping
        :func:`run_case` results of the finished cases.
    planned : sequence of str
        The keys of every planned case.
    seeds : int
        The planned seeds per case.
    """
    by_rule: dict[str, dict[str, Any]] = {}
    for entry in entries:
        rule = by_rule.setdefault(entry["case"]["rule"], {"cases": [], "rejections": 0, "seeds": 0})
        rule["cases"].append(entry)
        rule["rejections"] += entry["rejections"]
        rule["seeds"] += entry["seeds"]
    for rule in by_rule.values():
        worst = max(rule["cases"], key=lambda e: (e["rate"], e["interval"][0]))
        rule["largest_rate"] = {"key": worst["key"], "rate": worst["rate"], "interval": worst["interval"]}
        rule["findings"] = [e["key"] for e in rule["cases"] if e["outcome"].startswith("finding")]
        rule["undecided"] = [e["key"] for e in rule["cases"] if e["outcome"].startswith("undecided")]
    done = {e["key"] for e in entries}
    return {"level": LEVEL, "coverage": COVERAGE, "seeds_per_case": seeds, "entropy": ENTROPY,
            "doubling_power": doubling_power(seeds), "criterion": CRITERION,
            "planned": list(planned), "pending": [k for k in planned if k not in done],
            "findings": [k for r in by_rule.values() for k in r["findings"]],
            "by_rule": {r: by_rule[r] for r in RULES if r in by_rule}}
