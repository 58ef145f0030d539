"""Algorithm 1 (SHRINKING_GRADIENT): invariants, seeds, the step's sign, the trace, prediction."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats
from tolerances import hoeffding_half_width

from iln import theory
from iln.comparator import best_in_ball
from iln.data import adversarial_label, section6_data
from iln.features import RandomCoordinate, RandomReLU
from iln.shrinking_gradient import shrinking_gradient

D = 4
FAMILY = RandomCoordinate(D)


def _repeated_point(T, value=0.99):
    # k(x, x) = value^2: the largest kernel value the coordinate family allows.
    return np.full((T, D), value)


def _l1_bound_holds(result):
    t = np.arange(1, result.T + 2)
    bound = theory.alpha_l1_bound(result.B, result.eta, t)
    # Deterministic invariant (ICML Lemma 5; arXiv Lemma 4): only round-off slack.
    return np.all(result.trace.alpha_l1 <= bound * (1 + 1e-12))


@given(
    labels=arrays(np.float64, st.integers(1, 12), elements=st.floats(-1, 1)),
    B=st.sampled_from([1.0, 1.5, 4.0]),
    eta=st.floats(0.01, 3.0),
    m=st.integers(1, 40),
    update=st.sampled_from(["descent", "printed"]),
    seed=st.integers(0, 2**32),
)
def test_alpha_l1_bound_every_round_any_labels(labels, B, eta, m, update, seed):
    X = _repeated_point(len(labels))
    result = shrinking_gradient(X, labels, FAMILY, B=B, eta=eta, m=m, seed=seed, update=update)
    assert _l1_bound_holds(result)


def test_alpha_l1_bound_through_shrinks_against_an_adaptive_adversary():
    X = _repeated_point(60)
    K = FAMILY.kernel(X)

    def adversary(t, x_t, alpha, X_past):
        return adversarial_label(float(K[t - 1, : t - 1] @ alpha))

    for update in ("printed", "descent"):
        result = shrinking_gradient(X, adversary, FAMILY, B=1.0, eta=2.0, m=30, seed=4, update=update)
        assert _l1_bound_holds(result)
    # The printed (ascent) step with a large eta must reach the shrink branch.
    printed = shrinking_gradient(X, np.ones(60), FAMILY, B=1.0, eta=2.0, m=30, seed=4, update="printed")
    assert printed.trace.shrink.any()
    assert _l1_bound_holds(printed)


def test_same_seed_same_trace_and_different_seed_differs():
    data = section6_data(30, 40, seed=2)
    fam = RandomCoordinate(40)
    runs = [shrinking_gradient(data.X, data.y, fam, B=1.0, m=500, seed=s, oracle=fam.kernel)
            for s in (9, 9, 10)]
    for name in ("estimate", "alpha_l1", "loss_exact", "f_norm", "shrink", "step"):
        np.testing.assert_array_equal(getattr(runs[0].trace, name), getattr(runs[1].trace, name))
    np.testing.assert_array_equal(runs[0].alpha, runs[1].alpha)
    assert not np.array_equal(runs[0].trace.estimate, runs[2].trace.estimate)


def test_descent_step_fits_and_printed_step_does_not():
    # One point repeated, label 0.5: descent with an accurate estimate converges to it.
    T = 200
    X = _repeated_point(T, 0.9)
    y = np.full(T, 0.5)
    descent = shrinking_gradient(X, y, FAMILY, B=1.0, eta=0.5, m=20_000, seed=1, oracle=FAMILY.kernel)
    printed = shrinking_gradient(X, y, FAMILY, B=1.0, eta=0.5, m=20_000, seed=1, oracle=FAMILY.kernel,
                                 update="printed")
    # Exact prediction after descent: within 0.05 of the label (the noise of E is
    # below ||alpha||_1 / sqrt(m) < 0.02 at these sizes).
    assert abs(descent.trace.inner_exact[-1] - 0.5) < 0.05
    assert printed.trace.loss_exact.sum() > 5 * descent.trace.loss_exact.sum()
    assert printed.trace.shrink.any()
    assert not descent.trace.shrink.any()


def test_trace_matches_the_recorded_alphas():
    data = section6_data(25, 30, seed=3)
    fam = RandomCoordinate(30)
    r = shrinking_gradient(data.X, data.y, fam, B=1.0, eta=0.3, m=200, seed=0, oracle=fam.kernel,
                           record_alpha=True)
    K = fam.kernel(data.X)
    H = r.alpha_history
    assert H.shape == (26, 25)
    np.testing.assert_array_equal(H[-1], r.alpha)
    inner = np.array([K[t, :t] @ H[t, :t] for t in range(25)])
    np.testing.assert_allclose(r.trace.inner_exact, inner, rtol=1e-12, atol=1e-15)
    norms = np.sqrt(np.maximum(np.einsum("ti,ij,tj->t", H, K, H), 0))
    # The incremental norm update accumulates round-off over 25 rounds only.
    np.testing.assert_allclose(r.trace.f_norm, norms, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(r.alpha_mean, H[:-1].mean(axis=0), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(r.trace.alpha_l1, np.abs(H).sum(axis=1), rtol=1e-14)
    np.testing.assert_allclose(r.trace.loss_exact, 0.5 * (inner - data.y) ** 2, rtol=1e-12, atol=1e-15)
    assert np.all(np.isnan(shrinking_gradient(data.X, data.y, fam, B=1.0, m=10, seed=0).trace.inner_exact))


def test_defaults_come_from_the_proof():
    data = section6_data(20, 30, seed=1)
    r = shrinking_gradient(data.X, data.y, RandomCoordinate(30), B=2.0, seed=0)
    assert r.eta == theory.eta_proof(2.0, 20)
    assert r.m == theory.m_proof(2.0, 20)


def test_reference_and_fast_runs_have_the_same_law():
    X = np.array([[0.9, 0.1, 0.0, 0.5], [0.2, 0.8, 0.3, 0.0], [0.9, 0.1, 0.1, 0.5]] * 2)
    y = np.array([1.0, -1.0, 0.5, -0.5, 1.0, 0.0])
    n = 150

    def final_losses(method, offset):
        return [shrinking_gradient(X, y, FAMILY, B=1.0, eta=0.8, m=15, seed=offset + s, method=method,
                                   oracle=FAMILY.kernel).cumulative_loss for s in range(n)]

    ref, fast = final_losses("reference", 0), final_losses("fast", 10_000)
    # Two-sample KS at level 1e-4 (conservative: the law has atoms at shrink rounds).
    assert stats.ks_2samp(ref, fast).pvalue > 1e-4


def test_predict_is_unbiased_for_the_final_and_averaged_predictors():
    d = 8
    fam = RandomReLU(d)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((15, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = rng.uniform(-1, 1, 15)
    r = shrinking_gradient(X, y, fam, B=1.0, eta=0.5, m=300, seed=2)
    X_new = X[:3] * 0.5
    for averaged in (False, True):
        alpha = r.alpha_mean if averaged else r.alpha
        exact = fam.kernel(X_new, X) @ alpha
        reps = np.array([r.predict(X_new, m=2000, seed=s, averaged=averaged) for s in range(40)])
        assert reps.shape == (40, 3)
        assert reps.dtype == np.float64
        # Hoeffding over 40 * 2000 terms in [-||alpha||_1, ||alpha||_1], false alarm 1e-6 per point.
        w = hoeffding_half_width(np.abs(alpha).sum(), 40 * 2000, 1e-6)
        assert np.all(np.abs(reps.mean(axis=0) - exact) <= w)
    # epsilon/delta choose m from the corrected Hoeffding bound.
    assert r.predict(X_new, epsilon=0.5, delta=0.1, seed=0).shape == (3,)


def test_regret_of_a_section6_run_is_below_the_proof_bound():
    data = section6_data(64, 80, seed=5)
    fam = RandomCoordinate(80)
    r = shrinking_gradient(data.X, data.y, fam, B=1.0, seed=1, oracle=fam.kernel)
    comp = best_in_ball(fam.kernel(data.X), data.y, 1.0)
    regret = r.cumulative_loss - comp.total_loss
    # A sanity check on one benign run, not the claim's test (that lives in verification/).
    assert regret <= theory.regret_bound_proof(1.0, 64)


def test_float32_inputs_shapes_and_dtypes():
    data = section6_data(10, 12, seed=0)
    r = shrinking_gradient(data.X.astype(np.float32), data.y.astype(np.float32), RandomCoordinate(12),
                           B=1.0, m=10, seed=0)
    assert r.alpha.shape == (10,)
    assert r.alpha.dtype == np.float64
    assert r.trace.alpha_l1.shape == (11,)
    assert r.trace.estimate.shape == (10,)
    assert r.trace.shrink.dtype == np.bool_


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"B": 0.5}, "B must be a finite real number >= 1"),
        ({"B": "1"}, "B must be a real number"),
        ({"eta": 0.0}, r"eta must be a finite real number > 0"),
        ({"eta": float("inf")}, "eta must be finite"),
        ({"m": 0}, "m must be >= 1"),
        ({"m": 3.5}, "m must be a positive int"),
        ({"y": np.full(5, 1.5)}, r"y must hold finite labels in \[-1, 1\]"),
        ({"y": np.zeros(4)}, r"y must have shape \(5,\)"),
        ({"y": lambda t, x, a, X: 2.0}, r"y must hold labels in \[-1, 1\]"),
        ({"y": lambda t, x, a, X: np.timedelta64(1, "ns")}, r"y must hold labels in \[-1, 1\]"),
        ({"eta": np.timedelta64(1, "ns")}, "eta must be a real number"),
        ({"m": np.timedelta64(5, "ns")}, "m must be a positive int"),
        ({"X": np.full((5, D), np.nan)}, "X must be finite"),
        ({"X": np.zeros((0, D))}, "X must hold at least one point"),
        ({"update": "ascent"}, "update must be one of"),
        ({"method": "cuda"}, "method must be one of"),
        ({"oracle": 3}, "oracle must be a callable"),
        ({"seed": -2}, "seed must be >= 0"),
        ({"family": object()}, "family must be"),
    ],
)
def test_bad_input(kwargs, match):
    args = {"X": _repeated_point(5), "y": np.zeros(5), "family": FAMILY, "B": 1.0, "seed": 0, "m": 5}
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=match):
        shrinking_gradient(args.pop("X"), args.pop("y"), args.pop("family"), **args)


def test_predict_bad_input():
    r = shrinking_gradient(_repeated_point(4), np.zeros(4), FAMILY, B=1.0, m=5, seed=0)
    with pytest.raises(ValueError, match="m, or both epsilon and delta"):
        r.predict(_repeated_point(2), seed=0)
    with pytest.raises(ValueError, match="X_new"):
        r.predict(np.ones((2, D)), m=5, seed=0)


def test_a_custom_family_with_psi_at_one_is_refused_by_the_learner():
    from iln.features import CustomFamily

    bad = CustomFamily(lambda n, rng: rng.integers(0, D, (n, 1)).astype(float),
                       lambda X, W: X[:, W[:, 0].astype(int)] * 2.0, dim=D, name="doubled")
    with pytest.raises(ValueError, match=r"\|psi\| = .* >= 1"):
        shrinking_gradient(_repeated_point(5), np.ones(5), bad, B=1.0, eta=0.5, m=5, seed=0)


def test_a_custom_family_runs_without_an_oracle():
    from iln.features import CustomFamily

    fam = CustomFamily(lambda n, rng: rng.standard_normal((n, D)),
                       lambda X, W: 0.9 * np.tanh(X @ W.T), dim=D, name="tanh")
    r = shrinking_gradient(_repeated_point(6, 0.5), np.linspace(-1, 1, 6), fam, B=1.0, m=50, seed=0)
    assert np.all(np.isnan(r.trace.loss_exact))
    assert np.all(np.isfinite(r.trace.loss_estimated))


def test_budget_counts_the_samples_of_algorithm_2():
    X = _repeated_point(5)
    r = shrinking_gradient(X, np.array([1.0, 0.0, 0.0, 0.0, 0.0]), FAMILY, B=1.0, eta=0.5, m=7, seed=0)
    # Round 1 has alpha = 0 (no sampling); rounds 2-5 draw m = 7 each, two psi per draw.
    np.testing.assert_array_equal(r.trace.samples, [0, 7, 7, 7, 7])
    assert r.budget.features_sampled == 28
    assert r.budget.psi_evaluations == 56


def test_warm_start_continues_the_same_run():
    data = section6_data(24, 30, seed=4)
    fam = RandomCoordinate(30)
    whole = shrinking_gradient(data.X, data.y, fam, B=1.0, eta=0.3, m=200, seed=5, oracle=fam.kernel,
                               record_alpha=True)
    first = shrinking_gradient(data.X[:10], data.y[:10], fam, B=1.0, eta=0.3, m=200, seed=5,
                               oracle=fam.kernel, record_alpha=True)
    both = shrinking_gradient(data.X[10:], data.y[10:], fam, B=1.0, seed=5, oracle=fam.kernel,
                              record_alpha=True, warm_start=first)
    np.testing.assert_array_equal(both.alpha, whole.alpha)
    np.testing.assert_array_equal(both.alpha_history, whole.alpha_history)
    np.testing.assert_allclose(both.alpha_mean, whole.alpha_mean, rtol=1e-12, atol=1e-15)
    for name in ("estimate", "alpha_l1", "shrink", "step", "samples", "labels"):
        np.testing.assert_array_equal(getattr(both.trace, name), getattr(whole.trace, name))
    np.testing.assert_allclose(both.trace.f_norm, whole.trace.f_norm, rtol=1e-12)
    with pytest.raises(ValueError, match="B must match"):
        shrinking_gradient(data.X[10:], data.y[10:], fam, B=2.0, seed=5, warm_start=first)
    with pytest.raises(TypeError, match="warm_start"):
        shrinking_gradient(data.X[10:], data.y[10:], fam, B=1.0, seed=5, warm_start="run")
