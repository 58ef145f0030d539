"""No learner code path reads an oracle kernel (docs, Design, principle 1).

Exact-kernel online gradient descent (``iln/baselines/kernel_ogd.py``) is the one
learner allowed to: it is the "kernel trick" learner the others are compared with.

Two proofs: (1) statically, the learner modules never name a kernel method of a
family; (2) dynamically, every learner runs on families whose kernel methods
raise, and the oracle passed for the trace changes no decision of the learner.
"""

import ast
import pathlib

import numpy as np
import pytest

import iln
from iln import estimator
from iln.data import section6_data
from iln.features import RandomCoordinate, RandomSigmoid, RandomStump
from iln.shrinking_gradient import shrinking_gradient

LEARNER_MODULES = [
    "estimator.py",
    "numba_sampling.py",
    "shrinking_gradient.py",
    "baselines/fixed_random.py",
    "baselines/doubly_stochastic.py",
    "rks/kitchen_sinks.py",
    "reference/shrinking_gradient.py",
    "reference/fixed_random.py",
    "reference/doubly_stochastic.py",
    "sklearn.py",
]
ORACLE_NAMES = {"kernel", "kernel_validated", "_kernel", "quadrature_kernel", "has_kernel", "oracle"}


@pytest.mark.parametrize("module", LEARNER_MODULES)
def test_learner_modules_never_name_a_kernel_method(module):
    tree = ast.parse((pathlib.Path(iln.__file__).parent / module).read_text())
    touched = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not touched & ORACLE_NAMES, touched & ORACLE_NAMES


def _blinded(family_cls, *args):
    class Blind(family_cls):
        def kernel(self, X, Y=None):
            raise AssertionError("a learner read the oracle kernel")

        def kernel_validated(self, X, Y):
            raise AssertionError("a learner read the oracle kernel")

        def _kernel(self, X, Y):
            raise AssertionError("a learner read the oracle kernel")

    return Blind(*args)


@pytest.mark.parametrize("method", estimator.METHODS)
@pytest.mark.parametrize(("cls", "args"), [(RandomCoordinate, (20,)), (RandomStump, (20,)),
                                           (RandomSigmoid, (20, 2.0))])
def test_learners_run_on_blinded_families(method, cls, args):
    data = section6_data(8, 20, seed=1)
    X = data.X / np.linalg.norm(data.X, axis=1, keepdims=True) * 0.9
    blind = _blinded(cls, *args)
    r = shrinking_gradient(X, data.y, blind, B=1.0, m=20, seed=0, method=method)
    r.predict(X[:2], m=20, seed=1)
    r.predict(X[:2], m=20, seed=1, averaged=True)
    estimator.estimate_scalar_product(r.alpha, X, X[0], 20, blind, seed=0, method=method)


def test_the_trace_oracle_changes_no_decision():
    data = section6_data(40, 50, seed=2)
    fam = RandomCoordinate(50)
    with_oracle = shrinking_gradient(data.X, data.y, fam, B=1.0, m=300, seed=3, oracle=fam.kernel)
    blind = shrinking_gradient(data.X, data.y, _blinded(RandomCoordinate, 50), B=1.0, m=300, seed=3)
    np.testing.assert_array_equal(with_oracle.alpha, blind.alpha)
    np.testing.assert_array_equal(with_oracle.trace.estimate, blind.trace.estimate)
    np.testing.assert_array_equal(with_oracle.trace.shrink, blind.trace.shrink)
