# ICML Lemma 6 (arXiv Lemma 5): P_t(f*) < P[E1 or E2], both events needing |E_t| > 16B.
# Round t = 1 of any run: alpha^(1) = 0, and Algorithm 2 returns E = 0 when alpha = 0
# ("if alpha = 0 then Set E = 0"), so round 1 never shrinks and neither event can happen.
import numpy as np


def algorithm2(alpha, X, x, m, rng):
    """Algorithm 2 with random-coordinate features psi(x; w) = x_w."""
    if not alpha.any():
        return 0.0
    l1 = np.abs(alpha).sum()
    i = rng.choice(len(alpha), size=m, p=np.abs(alpha) / l1)
    w = rng.integers(0, X.shape[1], size=m)
    return l1 * np.mean(np.sign(alpha[i]) * X[i, w] * x[w])


rng = np.random.default_rng(0)
B, runs, shrinks, events = 1.0, 10_000, 0, 0
for _ in range(runs):
    x1 = rng.uniform(-1, 1, size=4)
    E1 = algorithm2(np.zeros(1), x1[None, :], x1, m=5, rng=rng)   # alpha^(1) = 0
    shrinks += abs(E1) >= 16 * B               # Algorithm 1 shrinks unless |E_1| < 16B
    events += abs(E1) > 16 * B                 # E1 and E2 both need |E_1| > 16B
p1, p_events = shrinks / runs, events / runs
print(f"round 1: P_1(f*) = {p1}, P[E1 or E2] = {p_events}; printed {p1} < {p_events}: {p1 < p_events}")
assert not p1 < p_events
