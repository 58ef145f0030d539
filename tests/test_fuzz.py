"""Bad input (issue #8, part 4): a hypothesis fuzz of every public entry point of ``iln`` and of
the CLI.

Contract (docs, Design, Bad input): a call either succeeds or raises ``ValueError``/``TypeError``
whose message names one of the entry point's arguments; nothing hangs or returns NaN silently.
The CLI returns 0 or 1, or 2 with one line on stderr.  Numbers are kept small so that a valid
call stays cheap (a huge but valid ``m`` is slow, not wrong); the compiled kernels of
``iln.numba_sampling`` take unchecked arrays by design and are fuzzed in a child process, where
a crash is observed instead of ending the test run.

What the fuzz found (issue #8) is fixed in ``iln/``; each finding, and each further one a longer
run (300 examples an entry point) found, stays as a minimal regression case
(``test_minimal_reproducers_are_refused_naming_the_argument``).  ``FINDINGS`` lists what is not
fixed.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from iln import features
from verification import cli

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["iln.arguments", "iln.baselines", "iln.budget", "iln.comparator", "iln.comparison", "iln.data",
           "iln.rks.datasets", "iln.estimator", "iln.features", "iln.online_protocol", "iln.random_streams",
           "iln.shrinking_gradient", "iln.sklearn", "iln.theory"]
#: seconds a single call may take before it counts as a hang.
HANG_S = 30
#: what the fuzz found in iln/ and is not fixed yet, by entry point, with the reason; its fuzz is
#: a plain xfail (which of its bugs an example hits depends on the draws).  The 19 findings of
#: issue #8 are fixed; each kind has a regression test below
#: (``test_minimal_reproducers_are_refused_naming_the_argument``).
FINDINGS: dict[str, str] = {}


def _entry_points():
    seen, out = set(), []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if not callable(obj) or id(obj) in seen:
                continue
            if inspect.isclass(obj) and (issubclass(obj, BaseException) or inspect.isabstract(obj)):
                continue
            seen.add(id(obj))
            key = f"{name}.{attr}"
            marks = [pytest.mark.xfail(strict=False, reason=FINDINGS[key])] if key in FINDINGS else []
            out.append(pytest.param(obj, id=key, marks=marks))
    return out


def _families():
    return [features.RandomCoordinate(3), features.RandomSign(3), features.RandomFourier(3),
            features.RandomReLU(3), features.RandomStump(3), features.RandomSigmoid(3)]


small_floats = st.floats(-2.0, 3.0, allow_nan=False)
special_floats = st.sampled_from([0.0, -0.0, math.nan, math.inf, -math.inf, 1e-300, 1e300, 0.5, 1.0])
arrays_2d = arrays(np.float64, array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=4),
                   elements=st.one_of(st.floats(-1.2, 1.2), st.sampled_from([math.nan, math.inf])))
junk = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 6), st.sampled_from([2**64, -(10**30)]),
    small_floats, special_floats, st.text(max_size=4), arrays_2d,
    st.lists(st.floats(-1.0, 1.0), max_size=4), st.sampled_from(_families()),
    st.builds(np.random.SeedSequence, st.integers(0, 5)), st.just({"a": 1}),
)


class _Hang(Exception):
    pass


@contextlib.contextmanager
def _watchdog(seconds: int):
    def fire(signum, frame):
        raise _Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _parameters(fn):
    target = fn.__init__ if inspect.isclass(fn) else fn
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return []
    return [p for p in params if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _has_nan(value) -> bool:
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return bool(np.isnan(value).any())
    return False


def _names_an_argument(message: str, names: list[str]) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", message) for n in names)


def _call(fn, args, kwargs):
    """Call (and, for an estimator class, fit); returns what was produced."""
    with _watchdog(HANG_S), np.errstate(all="ignore"):
        out = fn(*args, **kwargs)
        if inspect.isclass(fn) and hasattr(out, "fit"):
            X, y = args[-2:] if len(args) >= 2 else (np.full((4, 3), 0.5), np.array([1.0, -1.0, 1.0, -1.0]))
            out = out.fit(X, y)
        return out


@pytest.mark.parametrize("fn", _entry_points())
@settings(max_examples=25)
@given(data=st.data())
def test_public_entry_point_accepts_or_names_the_argument(fn, data):
    params = _parameters(fn)
    required = [p for p in params if p.default is p.empty]
    optional = [p for p in params if p.default is not p.empty]
    args, kwargs = [], {}
    for p in required:
        # The helpers that take an argument's name use it in their messages: a name is given.
        value = data.draw(st.sampled_from(["alpha", "T"]) if p.name == "name" else junk, label=p.name)
        if p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = value
        else:
            args.append(value)
    for p in data.draw(st.lists(st.sampled_from(optional), max_size=2, unique_by=lambda q: q.name)
                       if optional else st.just([]), label="optional"):
        kwargs[p.name] = data.draw(st.sampled_from(["alpha", "T"]) if p.name == "name" else junk,
                                   label=p.name)
    names = [p.name for p in params]
    # The helpers that take an argument's name must name that argument.
    names += [v for v in [*args, *kwargs.values()] if isinstance(v, str) and v in ("alpha", "T")]
    if inspect.isclass(fn) and hasattr(fn, "fit"):
        names += ["X", "y", "sample_weight"]
    refusal = None
    try:
        out = _call(fn, args, kwargs)
    except (ValueError, TypeError) as error:
        refusal = error
    except (features.NoOracleError, FileNotFoundError):
        return  # documented: a family without an oracle kernel; a data file not on disk
    if refusal is not None:
        assert _names_an_argument(str(refusal), names), \
            f"{type(refusal).__name__} names no argument: {refusal}"
    else:
        assert not _has_nan(out), f"returned NaN silently: {out!r}"


#: each finding of issue #8 as a minimal call, and the argument its refusal must name.
_REPRODUCERS = {
    "integer_minimum": "minimum", "check_features_dim": "dim", "broadcast": "B",
    "feature_matrix": "family", "step_sizes": "T", "alternating_labels": "T", "constant_labels": "T",
    "RandomFourier": "gamma", "RandomSigmoid": "gain", "RandomSign": "scale", "RandomStump": "scale",
    "child": "seed", "generator": "seed", "stream_key": "seed", "family_params": "family_params",
    "family_params_classifier": "family_params", "family_params_kitchen_sinks": "family_params",
    "huge_B": "B", "huge_B_estimator": "B",
    # Found by a longer run of the fuzz (300 examples an entry point) once the above were fixed.
    "W_layout": "W", "W_coordinate": "W", "huge_r": "r", "huge_K": "K", "huge_k": "k", "lp_box": "C",
    "huge_D": "D", "huge_budget": "budget", "huge_m": "m", "huge_B_min_T": "B",
    "tiny_epsilon": "epsilon", "broadcast_eta": "eta",
}


def _reproduce(case):
    from iln import arguments, baselines, comparison, data, random_streams, theory
    from iln.shrinking_gradient import shrinking_gradient
    from iln.sklearn import (
        DoublyStochasticRegressor,
        FixedRandomRegressor,
        RandomKitchenSinksClassifier,
        RandomKitchenSinksRegressor,
        ShrinkingGradientRegressor,
    )

    X, y = np.full((2, 3), 0.5), np.array([1.0, -1.0])
    return {
        "integer_minimum": lambda: arguments.integer(1, "T", None),
        "check_features_dim": lambda: features.check_features(X, dim=np.array([])),
        "broadcast": lambda: theory.regret_rate_theorem(np.ones(0), np.ones((0, 2))),
        "feature_matrix": lambda: baselines.feature_matrix(None, X, X),
        "step_sizes": lambda: baselines.step_sizes(2**64, 1.0),
        "alternating_labels": lambda: data.alternating_labels(2**64),
        "constant_labels": lambda: data.constant_labels(2**64),
        "RandomFourier": lambda: features.RandomFourier(3, gamma=None),
        "RandomSigmoid": lambda: features.RandomSigmoid(3, gain=None),
        "RandomSign": lambda: features.RandomSign(3, scale=None),
        "RandomStump": lambda: features.RandomStump(3, scale=None),
        "child": lambda: random_streams.child(None, 1),
        "generator": lambda: random_streams.generator(None),
        "stream_key": lambda: random_streams.stream_key(None),
        "family_params": lambda: FixedRandomRegressor(family_params={"a": 1}).fit(X, y),
        "family_params_classifier": lambda: RandomKitchenSinksClassifier(family_params={"a": 1}).fit(X, y),
        "family_params_kitchen_sinks": lambda: RandomKitchenSinksRegressor(family_params={"a": 1}).fit(X, y),
        "huge_B": lambda: shrinking_gradient(X, y, features.RandomCoordinate(3), B=2.0**64, seed=0),
        "huge_B_estimator": lambda: ShrinkingGradientRegressor(B=2**64, random_state=0).fit(X, y),
        "W_layout": lambda: baselines.feature_matrix(features.RandomFourier(3), X, np.ones((2, 1))),
        "W_coordinate": lambda: features.RandomCoordinate(3).psi(X, np.full((2, 1), 7.0)),
        "huge_r": lambda: FixedRandomRegressor(r=2**64, random_state=0).fit(X, y),
        "huge_K": lambda: RandomKitchenSinksClassifier(K=2**64, random_state=0).fit(X, y),
        "huge_k": lambda: DoublyStochasticRegressor(k=2**64, random_state=0).fit(X, y),
        "lp_box": lambda: RandomKitchenSinksClassifier(loss="hinge", C=2.0**64, random_state=0).fit(X, y),
        "huge_D": lambda: data.section6_data(1, 2**64, seed=0),
        "huge_budget": lambda: comparison.section6_comparison(budget=2**64, seed=0),
        "huge_m": lambda: shrinking_gradient(X, y, features.RandomCoordinate(3), B=1.0, m=2**64, seed=0),
        "huge_B_min_T": lambda: theory.min_T_for_proof(1e300),
        "tiny_epsilon": lambda: theory.corollary1_T(1.0, 1e-300),
        "broadcast_eta": lambda: theory.regret_bound_proof(2.0, np.full(3, 100.0), np.full(2, 0.01)),
    }[case]


@pytest.mark.parametrize("case", list(_REPRODUCERS))
def test_minimal_reproducers_are_refused_naming_the_argument(case):
    """The fuzz's findings of issue #8, fixed: each refused with its argument named."""
    call = _reproduce(case)
    with pytest.raises((ValueError, TypeError)) as info, _watchdog(HANG_S):
        call()
    assert _names_an_argument(str(info.value), [_REPRODUCERS[case]]), str(info.value)


def test_test_time_m_of_alpha_zero_is_one_sample_whatever_delta():
    """Found by the longer run: alpha = 0 with a delta whose 1/delta overflows gave 0 * inf."""
    from iln import theory

    assert theory.test_time_m(1.0, 5e-324, 0.0) == theory.test_time_m_corrected(1.0, 5e-324, 0.0) == 1


# -- the compiled kernels, in a child process -----------------------------------------------

_KERNEL_CASES = [
    # (X shape, x length, counts, signs length, kind)
    ((2, 3), 3, [1, 2], 2, 0),
    ((2, 3), 3, [1, 2, 3], 3, 0),  # more counts than rows of X
    ((2, 3), 2, [5, 5], 2, 0),  # x shorter than the rows of X
    ((2, 3), 3, [-4, 2], 2, 0),  # a negative count
    ((2, 3), 3, [1, 2], 2, 9),  # an unknown feature kind
    ((0, 3), 3, [], 0, 1),
    ((2, 3), 3, [3, 1], 1, 2),  # fewer signs than counts
]

_KERNEL_CHILD = """
import json, sys
import numpy as np
from iln import numba_sampling as ns
for j, (shape, n_x, counts, n_signs, kind) in enumerate(json.loads(sys.argv[1])):
    print(json.dumps({"case": j, "start": True}), flush=True)
    try:
        out = ns.sum_products_serial(np.full(shape, 0.5), np.full(n_x, 0.5), np.array(counts, np.int64),
                                     np.ones(n_signs), np.uint64(7), kind, np.array([1.0]), 0)
        print(json.dumps({"case": j, "result": repr(out)}), flush=True)
    except Exception as error:
        print(json.dumps({"case": j, "error": type(error).__name__}), flush=True)
"""


@pytest.mark.system
def test_compiled_kernels_do_not_crash_the_interpreter():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", _KERNEL_CHILD, json.dumps(_KERNEL_CASES)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, env=env)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    finished = {d["case"] for d in lines if "start" not in d}
    where = f"at case {max((d['case'] for d in lines), default=None)}: {proc.stderr[-500:]}"
    assert proc.returncode == 0, where
    assert finished == set(range(len(_KERNEL_CASES))), where


# -- the CLI ------------------------------------------------------------------------------------


class _WouldRun(Exception):
    """Raised instead of running claims: the command line was accepted."""


_TOKENS = st.sampled_from([
    "run", "list", "show", "report", "--json", "--profile", "smoke", "quick", "huge", "--seed", "-1", "abc",
    "3", "99999999999999999999999", "--jobs", "0", "1", "--store", "s.sqlite", "no/such/dir/s.sqlite",
    "--out", "out", "--quiet", "--scheduler", "iln.alg2.unbiased", "iln.no.such", "", "-x", "--help",
    "é", "--seed=2", "--jobs=-3",
])


@settings(max_examples=150)
@given(argv=st.lists(_TOKENS, max_size=6))
def test_cli_exits_0_1_or_2_with_one_line(argv):
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp), \
            mock.patch.object(cli.runner, "run", side_effect=_WouldRun), \
            contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            with _watchdog(HANG_S):
                status = cli.main(argv)
        except _WouldRun:
            return  # accepted: the claims would run now
        except SystemExit as stop:  # argparse's --help
            status = stop.code
    assert status in (0, 1, 2)
    if status == 2:
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1, err.getvalue()
        assert lines[0].startswith("iln-verify: error:"), err.getvalue()
