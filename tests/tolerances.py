"""Tolerances with stated false-alarm rates for the statistical tests.

Each helper returns the half-width of a band that the statistic leaves with
probability at most ``false_alarm`` when the property under test holds.
"""

import math


def hoeffding_half_width(bound: float, n: int, false_alarm: float) -> float:
    """Mean of n iid variables in [-bound, bound]: P(|mean - mu| >= w) <= false_alarm.

    Two-sided Hoeffding: 2 exp(-n w^2 / (2 bound^2)) = false_alarm.
    """
    return bound * math.sqrt(2.0 * math.log(2.0 / false_alarm) / n)
