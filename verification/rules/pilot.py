"""Seed plans from a pilot: the sample size a deciding run needs, planned on the pilot's lower
confidence bound on the effect, never on its point estimate (docs, The decision rules).

A figure claim's verdict is stable only when its profile has the seeds to find the effect
the claim expects on nearly every master seed.  A pilot, run on seeds of its own that no
deciding run uses, measures the effect; the plan takes the effect's one-sided lower
confidence bound (a pilot that saw a large effect by luck must not buy a small plan) and
finds the smallest sample size at which the rule that decides reaches, at that bound:

* at least the design power (:data:`verification.catalog.DESIGN_POWER`), and
* a probability ``target`` (:data:`TARGET`, 0.98) of the expected verdict,
  where the verdict needs several independent tests to reject together (a comparison
  violated at *every* budget of an unstated setting,
  :func:`verification.rules.comparison.at_some_setting`): each of the ``S`` tests then gets
  the power ``target^(1/S)``, so that their product is at least ``target``.

The planned size is that of one test; the level is the one the claim decides that test at
(the design level split over everything the claim splits it over), and the returned
``probability`` is the chance of the expected verdict at the lower confidence bound, so a
true effect at least that large gives the expected verdict at least that often.

Two plans, one per kind of sign test that decides a claim:

* :func:`sign_test_plan`, the exact sign test of :mod:`verification.rules.comparison`, from
  the pilot's count of seeds on which the side to be detected won (Clopper-Pearson bound);
* :func:`rate_plan`, the sign test of the median slope of :mod:`verification.rules.rate`, from
  the pilot's mean and standard deviation of the slopes (a noncentral-t bound on the margin,
  through a normal shape that the decision itself does not assume).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from iln.random_streams import child
from verification import statistics
from verification.catalog import DESIGN_POWER
from verification.rules.comparison import SHARE_BOUND, sign_test_seeds

__all__ = ["RatePlan", "SignTestPlan", "rate_plan", "sign_test_plan"]

#: the one-sided confidence of the pilot's lower bound on the effect.
CONFIDENCE = 0.95
#: the probability of the expected verdict a plan asks for, per master seed.  A claim is stable
#: when it gives its expected verdict on 19 of 20 master seeds (the self-test's STABLE_SHARE):
#: at 0.95 per seed that happens with probability 0.74 only, at 0.98 with 0.94.
TARGET = 0.98


@dataclass(frozen=True)
class SignTestPlan:
    """A sign test's seed plan from a pilot (:func:`sign_test_plan`).

    Attributes
    ----------
    pilot : tuple of (int, int, int or None)
        Per test that must reject, ``(k, n, ties)``: of the pilot's ``n`` seeds, ``k`` had the
        side to be detected win and ``ties`` were ties (None: ties counted against the side).
    confidence : float
        The one-sided confidence with which all the bounds of a test hold together.
    share_lcb : tuple of float
        Per test, the Clopper-Pearson lower bound on the share the sign test sees:
        ``P[side wins | no tie]`` when ties are counted apart, else ``P[side wins]``.
    tie_ucb : tuple of float
        Per test, the Clopper-Pearson upper bound on ``P[tie]`` (0 when ties are counted against).
    tail : float
        The level each test is decided at.
    power : float
        The probability each test is planned to reject with: ``max(DESIGN_POWER, target^(1/S))``.
    seeds : int
        Seeds per test.
    probability : float
        A lower bound, at the bounds, on the probability that every test rejects at ``seeds``
        seeds: the chance of the expected verdict.
    """

    pilot: tuple[tuple[int, int, int | None], ...]
    confidence: float
    share_lcb: tuple[float, ...]
    tie_ucb: tuple[float, ...]
    tail: float
    power: float
    seeds: int
    probability: float

    def describe(self) -> str:
        """One line for a claim's configuration and report."""
        counts = ", ".join(f"{k}/{n}" + (f" ({t} ties)" if t is not None else "") for k, n, t in self.pilot)
        bounds = ", ".join(f"{b:.3f}" for b in self.share_lcb)
        ties = "" if not any(self.tie_ucb) else (", tie rate at most " + ", ".join(f"{t:.3f}" for t in self.tie_ucb)
                                                 + " (ties apart: the sign test leaves them out)")
        return (f"pilot {counts} seeds on the expected side; one-sided {self.confidence:.0%} Clopper-Pearson "
                f"lower bound {bounds} on the share{ties}; sign test at level {self.tail:.3g} with power "
                f"{self.power:.3f} per test -> {self.seeds} seeds per point; P[expected verdict] >= "
                f"{self.probability:.4f} at the bounds")


def sign_test_plan(pilot: Sequence[tuple[int, ...]], tail: float, *, confidence: float = CONFIDENCE,
                   target: float = TARGET) -> SignTestPlan:
    """Seeds per point for the sign test to reject at every one of ``S`` tests, planned on the
    pilot's lower confidence bounds.

    Parameters
    ----------
    pilot : sequence of (int, int) or (int, int, int)
        One entry per test that must reject for the expected verdict (one, or one per setting
        of :func:`verification.rules.comparison.at_some_setting`).  ``(k, n)``: ``k`` of the
        pilot's ``n`` seeds had the side to be detected win, a tie counted against it (the
        rule leaves ties out, which only lowers its p-value, so this is conservative; for a
        statistic with a continuous law, where ties do not happen).  ``(k, n, ties)``: ties
        counted apart (for a statistic with a discrete law, a test error, where they are
        common): the share the sign test sees, ``P[win | no tie]``, is bounded below from the
        ``n - ties`` seeds without a tie and the tie rate above, each at ``(1 + confidence) / 2``
        so that both hold together with ``confidence``.
    tail : float
        The level each test is decided at, in (0, 1).
    confidence : float, default 0.95
        One-sided confidence of the bounds of one test, in (0, 1).
    target : float, default :data:`TARGET`
        The probability of the expected verdict to plan for, in (0, 1).

    Returns
    -------
    SignTestPlan

    Raises
    ------
    ValueError
        When a lower bound on the share is not above 1/2: the pilot does not show an effect
        the sign test can be planned for (the claim cannot reach its power from this pilot).

    Notes
    -----
    A test rejects with probability at least ``power'`` once it sees ``n' =
    sign_test_seeds(share_lcb, tail, power')`` seeds without a tie, whatever their number
    beyond (:func:`verification.statistics.binomial_sample_size` plans past the saw-tooth of
    the discrete power); with a tie rate at most ``tie_ucb``, ``N`` seeds give at least ``n'``
    without a tie with probability at least ``P[Bin(N, 1 - tie_ucb) >= n']``.  A test's
    probability of rejecting at ``N`` is bounded below by the largest product of the two over
    a grid of ``power'``, and ``seeds`` is the smallest ``N`` at which every test's bound
    reaches ``power``.

    Examples
    --------
    >>> plan = sign_test_plan([(16, 16)], 1e-5)
    >>> round(plan.share_lcb[0], 3), plan.seeds > 17  # 17 seeds would do at a share of 1
    (0.829, True)
    """
    if isinstance(pilot, tuple) and all(isinstance(v, int) for v in pilot):
        raise TypeError("pilot must be a sequence of (k, n) or (k, n, ties), one per test: wrap a single "
                        "entry in a list")
    if not pilot:
        raise ValueError("pilot must hold at least one (k, n) or (k, n, ties) entry")
    target = _unit_iv(target, "target")
    confidence = _unit_iv(confidence, "confidence")
    tail = _unit_iv(tail, "tail")
    power = max(DESIGN_POWER, target ** (1.0 / len(pilot)))
    entries, bounds, tie_bounds, floors = [], [], [], []
    for entry in pilot:
        if len(entry) not in (2, 3):
            raise ValueError(f"pilot entries must be (k, n) or (k, n, ties), got {entry!r}")
        k, n, ties = (*entry, None) if len(entry) == 2 else entry
        if ties is None:
            low = statistics.clopper_pearson(k, n, confidence, alternative="greater").low
            tie_high = 0.0
        else:
            each = 1.0 - (1.0 - confidence) / 2.0
            if not (isinstance(ties, int) and ties >= 0 and k + ties <= n):
                raise ValueError(f"pilot entry {entry!r}: ties must be an int with k + ties <= n")
            low = statistics.clopper_pearson(k, n - ties, each, alternative="greater").low if n > ties else 0.0
            tie_high = statistics.clopper_pearson(ties, n, each, alternative="less").high
        if not low > SHARE_BOUND:
            raise ValueError(f"pilot: {entry!r} bounds the share below only by {low:.3f} (one-sided "
                             f"{confidence:.0%}), not above 1/2: no sign-test plan reaches power from this pilot")
        entries.append((int(k), int(n), ties))
        bounds.append(low)
        tie_bounds.append(tie_high)
        floors.append(_RejectionFloor(low, tie_high, tail, power))
    seeds = max(f.start for f in floors)
    while min(f(seeds) for f in floors) < power:
        seeds += 1
    return SignTestPlan(pilot=tuple(entries), confidence=confidence, share_lcb=tuple(bounds),
                        tie_ucb=tuple(tie_bounds), tail=tail, power=power, seeds=seeds,
                        probability=math.prod(f(seeds) for f in floors))


class _RejectionFloor:
    """``N -> `` a lower bound on one sign test's probability of rejecting from ``N`` seeds, at
    a share ``share`` without ties and a tie rate ``tie`` (see :func:`sign_test_plan`, Notes)."""

    def __init__(self, share: float, tie: float, tail: float, power: float):
        # power' from the planned power up to 1 - 1e-5: a larger power' needs more seeds without a tie.
        grid = 1.0 - np.geomspace(1.0 - power, 1e-5, 40)
        self.tie = tie
        self.grid = grid
        self.needed = np.array([sign_test_seeds(share, tail, float(p)) for p in grid])
        self.start = int(self.needed[0])

    def __call__(self, seeds: int) -> float:
        reach = stats.binom.sf(self.needed - 1, seeds, 1.0 - self.tie) if self.tie > 0 else (self.needed <= seeds)
        return float(np.max(reach * self.grid))


@dataclass(frozen=True)
class RatePlan:
    """The repetitions for the rate rule's sign tests, planned from a pilot (:func:`rate_plan`).

    Attributes
    ----------
    pilot : tuple of (float, float, int)
        Per test that must reject for the expected verdict, the pilot's mean and standard
        deviation of the slopes and its number of repetitions.
    bounds : tuple of float
        Per test, the bound the median is to be found beyond.
    margin_lcb : tuple of float
        Per test, the one-sided lower confidence bound (noncentral t, at ``confidence``) on
        the standardized margin ``|bound - mean| / sd`` on the side planned.
    share_lcb : tuple of float
        Per test, ``Phi(margin_lcb)``: the share of slopes on the side planned, were their law
        normal.
    share_any_law : tuple of float
        Per test, ``margin_lcb^2 / (1 + margin_lcb^2)``: that share for every law with that
        margin (Cantelli's inequality), the plan's floor where the law is far from normal.
    confidence, tail, power : float
        As in :class:`SignTestPlan`.
    repetitions : int
        Repetitions per test: the smallest number from which on each sign test rejects with
        at least ``power`` at ``share_lcb``, and at least the test's minimum at ``tail``.
    probability : float
        The probability that every test rejects at ``repetitions`` and ``share_lcb``.
    probability_any_law : float
        The same at ``share_any_law``.
    """

    pilot: tuple[tuple[float, float, int], ...]
    bounds: tuple[float, ...]
    margin_lcb: tuple[float, ...]
    share_lcb: tuple[float, ...]
    share_any_law: tuple[float, ...]
    confidence: float
    tail: float
    power: float
    repetitions: int
    probability: float
    probability_any_law: float

    def describe(self) -> str:
        """One line for a claim's configuration and report."""
        pilots = ", ".join(f"mean {m:.4g}, sd {s:.3g} (n = {n}) against {b:.4g}"
                           for (m, s, n), b in zip(self.pilot, self.bounds, strict=True))
        margins = ", ".join(f"{d:.2f}" for d in self.margin_lcb)
        return (f"pilot {pilots}; one-sided {self.confidence:.0%} noncentral-t lower bound {margins} on the "
                f"standardized margin; sign test at level {self.tail:.3g} with power {self.power:.3f} per test at "
                f"the share Phi(margin) of normal slopes -> {self.repetitions} repetitions; P[expected verdict] >= "
                f"{self.probability:.4f} there, >= {self.probability_any_law:.4f} for any law with that margin "
                f"(Cantelli)")


def _margin_lcb(mean: float, sd: float, n: int, bound: float, side: str, confidence: float) -> float:
    """The one-sided lower confidence bound on ``(bound - mean) / sd`` (side "below") or
    ``(mean - bound) / sd`` (side "above"): ``t = sqrt(n) margin`` is noncentral t with
    ``n - 1`` degrees of freedom and noncentrality ``sqrt(n) delta``; the bound solves
    ``P[T <= t | nc] = confidence`` for ``nc``, divided by ``sqrt(n)``."""
    margin = (bound - mean) / sd if side == "below" else (mean - bound) / sd
    observed, df = math.sqrt(n) * margin, n - 1

    def excess(nc: float) -> float:  # falls as nc rises
        return float(stats.nct.cdf(observed, df, nc)) - confidence

    if excess(0.0) <= 0:
        raise ValueError(f"pilot: the standardized margin {margin:.3g} from n = {n} is not above 0 at "
                         f"one-sided {confidence:.0%}: no plan reaches power from this pilot")
    high = max(1.0, 2 * observed)
    while excess(high) > 0:
        high *= 2
    return optimize.brentq(excess, 0.0, high, xtol=1e-10) / math.sqrt(n)


def rate_plan(pilot: Sequence[tuple[float, float, int, float]], tail: float, *, side: str = "below",
              confidence: float = CONFIDENCE, target: float = TARGET) -> RatePlan:
    """Repetitions for the rate rule's sign tests (:mod:`verification.rules.rate`) to find the
    median slope beyond its bound at every one of ``S`` tests, planned on the pilot's lower
    confidence bound on the margin.

    Parameters
    ----------
    pilot : sequence of (float, float, int, float)
        One ``(mean, sd, n, bound)`` per test that must reject for the expected verdict: the
        pilot's mean and sample standard deviation (``sd > 0``) of the slopes over its ``n``
        repetitions (at least 2), and the bound of that test.
    tail : float
        The level each test is decided at, in (0, 1).
    side : {"below", "above"}, default "below"
        The side of the bounds on which the median is to be found.
    confidence, target : float, default :data:`CONFIDENCE`, :data:`TARGET`
        As in :func:`sign_test_plan`.

    Returns
    -------
    RatePlan

    Raises
    ------
    ValueError
        When a lower bound on a margin is not above 0: the pilot shows no effect to plan for.

    Notes
    -----
    The sign test sees only the share of slopes on each side of the bound; a pilot of a few
    slopes that all lie on one side bounds that share below only weakly without a shape (12 of
    12 give 0.78 at 95%, which plans over 100 repetitions however far they lie).  The plan uses
    how far they lie, through a shape: were the slopes normal, the share would be
    ``Phi(margin)``, and the margin is bounded below by the noncentral t.  The decision does
    not rest on it (the sign test keeps its level for every law); a wrong shape costs power
    only, and :attr:`RatePlan.probability_any_law` states the probability of the expected
    verdict for every law with that margin (Cantelli), so the reader sees what the shape buys.

    Examples
    --------
    >>> plan = rate_plan([(0.2, 0.07, 12, 0.8)], 2.5e-5)
    >>> plan.repetitions  # 2^-16 <= 2.5e-5: 16 slopes all below the bound reject
    16
    """
    if side not in ("below", "above"):
        raise ValueError(f"side must be 'below' or 'above', got {side!r}")
    if not pilot:
        raise ValueError("pilot must hold at least one (mean, sd, n, bound) entry")
    confidence = _unit_iv(confidence, "confidence")
    target = _unit_iv(target, "target")
    tail = _unit_iv(tail, "tail")
    power = max(DESIGN_POWER, target ** (1.0 / len(pilot)))
    entries, bounds, margins = [], [], []
    for entry in pilot:
        if len(entry) != 4:
            raise ValueError(f"pilot entries must be (mean, sd, n, bound), got {entry!r}")
        mean, sd, n, bound = entry
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise ValueError(f"pilot entry {entry!r}: n must be an int >= 2")
        if not (math.isfinite(sd) and sd > 0 and math.isfinite(mean) and math.isfinite(bound)):
            raise ValueError(f"pilot entry {entry!r}: mean and bound must be finite and sd finite and > 0")
        entries.append((float(mean), float(sd), n))
        bounds.append(float(bound))
        margins.append(_margin_lcb(mean, sd, n, bound, side, confidence))
    shares = [float(stats.norm.cdf(d)) for d in margins]
    any_law = [d * d / (1.0 + d * d) for d in margins]
    floors = [_RejectionFloor(share, 0.0, tail, power) for share in shares]
    repetitions = max(f.start for f in floors)
    while min(f(repetitions) for f in floors) < power:
        repetitions += 1
    return RatePlan(pilot=tuple(entries), bounds=tuple(bounds), margin_lcb=tuple(margins), share_lcb=tuple(shares),
                    share_any_law=tuple(any_law), confidence=confidence, tail=tail, power=power,
                    repetitions=repetitions, probability=math.prod(_sign_test_power(repetitions, q, tail)
                                                                   for q in shares),
                    probability_any_law=math.prod(_sign_test_power(repetitions, q, tail) for q in any_law))


def _sign_test_power(n: int, share: float, tail: float) -> float:
    """The probability that the sign test at ``tail`` rejects from ``n`` slopes, each on the
    side to be detected with probability ``share``."""
    return statistics.binomial_power(n, 0.5, min(share, 1.0), tail)


def pilot_records(claim_id: str, profile: str, master_seed: int, trials: int) -> list[dict]:
    """The records of a pilot: ``trials`` trials of claim ``claim_id``'s configuration at
    ``profile``, on the seeds a run with master seed ``master_seed`` would give them
    (:func:`verification.trials.claim_seed`), so that a pilot's master seed is kept apart from
    the deciding ones as a run's is.

    Parameters
    ----------
    claim_id : str
        A claim of the catalog.
    profile : str
        The profile whose configuration the pilot runs (its ``n_trials`` is replaced by ``trials``).
    master_seed : int
        The pilot's master seed: never one a deciding run uses.
    trials : int
        How many trials, at least 2.

    Returns
    -------
    list of dict
        The trials' records, in order.
    """
    # The engine, loaded only when a pilot runs.
    from verification import catalog
    from verification.trials import claim_seed, one_library_thread

    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 2:
        raise ValueError(f"trials must be an int >= 2, got {trials!r}")
    claim = catalog.get(claim_id)
    config = {**claim.config(profile), "n_trials": trials}
    seed = claim_seed(master_seed, claim_id, config.get(catalog.SEED_STREAM, 0))
    with one_library_thread():  # as a run's trials: the same numbers on every machine
        return [claim.trial(config, child(seed, i)) for i in range(trials)]


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m verification.rules.pilot CLAIM --profile P --master-seed S --trials N --out F``:
    a pilot's records, with the command and the git revision, as JSON."""
    import argparse
    import json

    from verification import provenance

    parser = argparse.ArgumentParser(prog="python -m verification.rules.pilot", description=main.__doc__)
    parser.add_argument("claim")
    parser.add_argument("--profile", required=True)
    parser.add_argument("--master-seed", type=int, required=True)
    parser.add_argument("--trials", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    records = pilot_records(args.claim, args.profile, args.master_seed, args.trials)
    with open(args.out, "w") as f:
        json.dump({"claim": args.claim, "profile": args.profile, "master_seed": args.master_seed,
                   "trials": args.trials, "git_revision": provenance.git_revision(), "records": records}, f)


def _unit_iv(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"{name} must be a number in (0, 1), got {value!r}")
    return float(value)


if __name__ == "__main__":
    main()
