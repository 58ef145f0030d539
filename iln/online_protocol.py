"""The online protocol's bookkeeping shared by the online learners' results.

At round t the learner predicts, then sees ``y_t`` and suffers
``l_t = (prediction_t - y_t)^2 / 2`` (ICML Section 2, eq. 6; arXiv eq. 5).
"""

from __future__ import annotations

import numpy as np

__all__ = ["OnlineLosses"]


class OnlineLosses:
    """Mixin for a result with a ``losses`` array of the T online rounds."""

    losses: np.ndarray

    @property
    def T(self) -> int:
        """Number of rounds."""
        return self.losses.shape[0]

    @property
    def cumulative_loss(self) -> float:
        """``sum_t l_t`` of the online predictions."""
        return float(self.losses.sum())

    @property
    def average_loss(self) -> float:
        """``(1/T) sum_t l_t`` of the online predictions."""
        return float(self.losses.mean())
