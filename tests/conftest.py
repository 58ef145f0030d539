"""Shared test settings.

Hypothesis runs derandomised under the ``ci`` profile (the default), so a test
run is a fixed experiment whose thresholds were chosen before looking at it;
``HYPOTHESIS_PROFILE=dev`` explores new examples.
"""

import os

import numba
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,  # the first call of a numba kernel compiles it
    derandomize=True,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def one_numba_thread():
    """One numba thread, as in the runner's workers (a parallel kernel per small call costs
    more than the work); the previous count is restored afterwards."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)
