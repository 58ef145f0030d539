"""False alarms: verdicts that differ from the expected ones on the unmodified code (a smoke test).

A smoke test of false alarms: the claims run as the catalog states them, whose true values
mostly sit far inside their nulls (their p-values are 1), so zero rejections here show that
nothing is grossly broken (a crash, a rule that rejects whatever the data), not that a rule
keeps its level: a rule a hundred times too liberal would score as well.  The level is
measured where it can fail, at the null boundary (:mod:`verification.selftest.null_boundary`).

The selected claims run with several master seeds; each (seed, claim) verdict that differs
from the claim's expected verdict is counted.  The seeds are independent replications, so the
count over ``n = seeds x claims`` verdicts gets an exact binomial (Clopper-Pearson) interval
(:func:`verification.statistics.clopper_pearson`), and so does the share of runs with at least
one differing verdict, the quantity the run's family-wise budget (docs, The decision rules)
bounds for the claims whose expected verdict is ``holds``.  Per claim, the share of seeds on
which it differs gets the same interval over ``n = seeds`` (:meth:`FalseAlarms.by_claim`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from verification import catalog, runner, statistics
from verification.selftest.mutation import check_campaign, run_defect
from verification.verdicts import CONTRADICTED, HOLDS, HOLDS_AFTER_CORRECTION, VIOLATED

__all__ = ["STABLE_SHARE", "FalseAlarms", "differing_verdicts", "false_alarm_campaign"]

#: coverage of the reported intervals.
LEVEL = 0.95
#: a claim is *stable* when its clean verdict is the expected one on at least this share of the
#: master seeds (19 of 20): only a stable claim's changed verdict under a defect says something.
STABLE_SHARE = 19 / 20


@dataclass(frozen=True)
class FalseAlarms:
    """The outcome of :func:`false_alarm_campaign`.

    Attributes
    ----------
    seeds : list of int
    claims : list of str
    differing : list of dict
        ``{"seed", "claim", "verdict", "expected"}`` for every differing verdict.
    profile : str
    elapsed_s : float
    expected : mapping of str to str, optional
        Each claim's expected verdict when the seeds ran; default the catalog's today.
    alpha : float, default=runner.DEFAULT_ALPHA
        The family-wise alpha each seed's run was decided at.
    """

    seeds: list[int]
    claims: list[str]
    differing: list[dict]
    profile: str
    elapsed_s: float
    #: each claim's expected verdict when the seeds ran (default: the catalog's today).
    expected: Mapping[str, str] | None = None
    #: the family-wise alpha of every seed's run.
    alpha: float = runner.DEFAULT_ALPHA

    @property
    def n_verdicts(self) -> int:
        return len(self.seeds) * len(self.claims)

    def to_json(self) -> dict:
        """The ``"false_alarms"`` entry of ``selftest.json``, with :meth:`by_claim` under ``"by_claim"``."""
        out = {"seeds": list(self.seeds), "claims": list(self.claims), "profile": self.profile,
               "alpha": self.alpha,
               "differing": list(self.differing), "n_verdicts": self.n_verdicts, "level": LEVEL,
               "elapsed_s": self.elapsed_s}
        if not self.n_verdicts:
            return {**out, "rate": None, "interval": [None, None]}
        k = len(self.differing)
        ci = statistics.clopper_pearson(k, self.n_verdicts, LEVEL)
        runs = len({d["seed"] for d in self.differing})
        run_ci = statistics.clopper_pearson(runs, len(self.seeds), LEVEL)
        return {**out, "rate": k / self.n_verdicts, "interval": [ci.low, ci.high],
                "runs_with_a_difference": runs, "run_rate": runs / len(self.seeds),
                "run_interval": [run_ci.low, run_ci.high], "by_claim": self.by_claim(),
                "type_one": self.type_one(), "type_two": self.type_two(), "stable": self.stable()}

    def by_claim(self) -> dict:
        """Per claim with a differing verdict: the seeds, the verdicts found, and the rate.

        The pooled rate over ``seeds x claims`` hides where the misses are.  A claim that
        differs on many seeds is either rejecting a true statement more often than its alpha
        allows (expected ``holds``) or missing a violation smaller than its profile resolves
        (expected ``violated``); its share of the seeds, with a Clopper-Pearson interval over
        ``n = seeds`` (one verdict per seed), says how often.

        Returns
        -------
        dict
            Claim id to ``{"expected", "seeds", "found", "rate", "interval"}``, where ``found``
            counts each differing verdict; in the order the claims first differ.
        """
        out: dict[str, dict] = {}
        for d in self.differing:
            entry = out.setdefault(d["claim"], {"expected": d["expected"], "seeds": [], "found": {}})
            entry["seeds"].append(d["seed"])
            entry["found"][d["verdict"]] = entry["found"].get(d["verdict"], 0) + 1
        for entry in out.values():
            ci = statistics.clopper_pearson(len(entry["seeds"]), len(self.seeds), LEVEL)
            entry.update(rate=len(entry["seeds"]) / len(self.seeds), interval=[ci.low, ci.high])
        return out


    def _expected(self) -> dict[str, str]:
        if self.expected is not None:
            return {c: self.expected[c] for c in self.claims if c in self.expected}
        known = catalog.load()
        return {c: known[c].expected for c in self.claims if c in known}

    def type_one(self) -> dict:
        """Rejections of true statements: runs in which a statement expected to hold was rejected.

        Two kinds of statement are expected to hold: the printed statement of a claim expected
        ``holds`` (rejected when the verdict is ``violated``, ``holds_after_correction`` or, for
        a figure on a setting other than the paper's, ``not_reproduced``), and
        the corrected statement of a claim expected ``holds_after_correction`` (rejected when
        the verdict is ``violated``: the correction failed too).  The family-wise alpha of a
        run bounds the share of runs with such a rejection; with the seeds as independent runs
        it gets a Clopper-Pearson interval over ``n = seeds``.  Zero rejections in ``n`` runs
        bound the rate only below about ``3.7 / n`` (95%): a rate is measurable against alpha
        only when ``n`` is large enough for ``alpha`` itself (200 seeds at alpha 0.05).  It is a
        smoke test: with true values far inside the nulls it cannot show a rule's level
        (:mod:`verification.selftest.null_boundary` does).
        """
        expected = self._expected()
        holding = [c for c, e in expected.items() if e == HOLDS]
        corrected = [c for c, e in expected.items() if e == HOLDS_AFTER_CORRECTION]
        rejected_by = {**{c: set(CONTRADICTED) for c in holding}, **{c: {VIOLATED} for c in corrected}}
        runs = sorted({d["seed"] for d in self.differing
                       if d["verdict"] in rejected_by.get(d["claim"], ())})
        n = len(self.seeds)
        ci = statistics.clopper_pearson(len(runs), n, LEVEL) if n else None
        return {"claims": holding, "corrected_claims": corrected, "seeds": n, "alpha": self.alpha,
                "profile": self.profile, "rejections": len(runs), "seeds_with_a_rejection": runs,
                "rate": len(runs) / n if n else None, "interval": [ci.low, ci.high] if ci else [None, None],
                "level": LEVEL,
                "consistent_with_alpha": (ci.low <= self.alpha) if ci else None}

    def type_two(self) -> dict:
        """Missed violations: per claim expected ``violated``, ``holds_after_correction`` or
        ``not_reproduced`` (a figure's contradiction on a setting other than the paper's), the
        share of seeds on which the expected verdict was found, with its interval."""
        out = {}
        n = len(self.seeds)
        for claim, expected in self._expected().items():
            if expected not in CONTRADICTED or not n:
                continue
            missed = sorted({d["seed"] for d in self.differing if d["claim"] == claim})
            ci = statistics.clopper_pearson(n - len(missed), n, LEVEL)
            out[claim] = {"expected": expected, "found": n - len(missed), "seeds": n, "missed_on": missed,
                          "rate_found": (n - len(missed)) / n, "interval": [ci.low, ci.high]}
        return out

    def stable(self) -> list[str]:
        """The claims whose verdict is the expected one on at least :data:`STABLE_SHARE` of
        the seeds (all claims when no seed has run: nothing says otherwise yet)."""
        n = len(self.seeds)
        if not n:
            return list(self.claims)
        differs: dict[str, int] = {}
        for d in self.differing:
            differs[d["claim"]] = differs.get(d["claim"], 0) + 1
        return [c for c in self.claims if (n - differs.get(c, 0)) / n >= STABLE_SHARE]


def differing_verdicts(per_seed: Mapping[int, Mapping[str, str]]) -> list[dict]:
    """``{"seed", "claim", "verdict", "expected"}`` for each verdict unlike the expected one."""
    claims = catalog.load()
    return [{"seed": seed, "claim": c, "verdict": v, "expected": claims[c].expected}
            for seed, verdicts in per_seed.items() for c, v in verdicts.items()
            if v != claims[c].expected]


def false_alarm_campaign(seeds: Sequence[int], *, workdir: str | Path, profile: str = "quick",
                         claims: Sequence[str] | None = None, jobs: int = 1,
                         scheduler: str | None = None, quiet: bool = True,
                         alpha: float = runner.DEFAULT_ALPHA) -> FalseAlarms:
    """Run ``claims`` on the unmodified code once per master seed and collect differing verdicts.

    Parameters
    ----------
    seeds : sequence of int
        Master seeds, distinct and non-negative.
    workdir : path
        An existing directory for the stores (``seed-<s>.sqlite``); a campaign started again
        with the same directory resumes where it stopped.
    profile : {"smoke", "quick", "full"}, default="quick"
    claims : sequence of str, optional
        Claim ids; default the whole catalog.
    jobs : int, default=1
        Local worker processes per run.
    scheduler : str, optional
        A Dask scheduler address instead of local workers.
    quiet : bool, default=True
        No progress bars.
    alpha : float, default=runner.DEFAULT_ALPHA
        Family-wise alpha of each seed's run.

    Returns
    -------
    FalseAlarms
    """
    workdir, claims = check_campaign(workdir, claims)
    seeds = list(seeds)
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in seeds):
        raise ValueError(f"seeds must be non-negative ints, got {seeds!r}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct (independent replications), got {seeds!r}")
    start = time.perf_counter()
    # A claim that raises on the unmodified code is a differing verdict ('error'), not a crash.
    per_seed = {seed: run_defect(None, claims, profile=profile, seed=seed, jobs=jobs,
                                 scheduler=scheduler, store=workdir / f"seed-{seed}.sqlite",
                                 quiet=quiet, alpha=alpha).verdicts
                for seed in seeds}
    return FalseAlarms(seeds, claims, differing_verdicts(per_seed), profile,
                       time.perf_counter() - start, alpha=alpha)
