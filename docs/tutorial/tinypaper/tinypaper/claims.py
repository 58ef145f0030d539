"""The claims of the tiny paper: the sample mean of X ~ U[0, 1] and of X^2."""

import numpy as np

from verification import rules
from verification.catalog import Claim, Source, register
from verification.verdicts import HOLDS, VIOLATED

#: the same configuration on every profile: 300 trials, each the mean of 100 draws.
CONFIGS = {profile: {"n_trials": 300, "draws": 100} for profile in ("smoke", "quick", "full")}


def trial(config, seed):
    """The means of X and of X^2 over ``draws`` draws of X ~ U[0, 1]."""
    x = np.random.default_rng(seed).uniform(size=config["draws"])
    return {"mean": float(x.mean()), "mean_square": float(np.mean(x**2))}


def decide_mean(records, config, alpha):
    """Proposition 1, E[X] <= 3/4, by the mean rule on the range [0, 1]."""
    point = rules.MeanPoint("mean", [r["mean"] for r in records], bound=0.75, lower=0.0, upper=1.0)
    return rules.mean_bound("tiny.prop1.mean", [point], alpha)


def decide_square(records, config, alpha):
    """Proposition 2 as printed, E[X^2] <= 1/4 (it is 1/3), by the same rule."""
    point = rules.MeanPoint("mean_square", [r["mean_square"] for r in records], bound=0.25,
                            lower=0.0, upper=1.0)
    return rules.mean_bound("tiny.prop2.second_moment", [point], alpha)


register(Claim(
    id="tiny.prop1.mean", title="The mean of U[0, 1] is at most 3/4",
    sources=(Source("TINY", "Proposition 1", r"\mathbb{E}[X] \le \tfrac{3}{4}"),),
    rule="mean bound", expected=HOLDS, configs=CONFIGS, trial=trial, decide=decide_mean,
    instances="X ~ U[0, 1]; each trial averages 100 draws"))
register(Claim(
    id="tiny.prop2.second_moment", title="The second moment of U[0, 1] is at most 1/4",
    sources=(Source("TINY", "Proposition 2", r"\mathbb{E}[X^2] \le \tfrac{1}{4}"),),
    rule="mean bound", expected=VIOLATED, configs=CONFIGS, trial=trial, decide=decide_square,
    instances="X ~ U[0, 1]; each trial averages 100 draws"))
