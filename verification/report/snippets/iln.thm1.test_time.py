# Theorem 1.3's m with the constant of its proof (ICML Lemma 4, eq. 19):
# m = ceil(log(1/delta) ||alpha||_1^2 / eps0^2) should give P[|E - <f_t, Phi(x)>| > eps0] <= delta.
# Random-coordinate features psi(x; w) = x_w (w uniform over D = 4 coordinates), every input
# of the run (0.99, 0.99, 0.99, 0.99), test point x = (0.99, 0.99, -0.99, -0.99): whatever
# alpha^(t), <f_t, Phi(x)> = 0 and each term of Algorithm 2 is +-0.9801 ||alpha^(t)||_1.
from math import ceil, comb, log

import numpy as np

rng = np.random.default_rng(0)
X = np.full((5, 4), 0.99)                          # the run's inputs x_1..x_5
x = np.array([0.99, 0.99, -0.99, -0.99])
alpha = np.array([0.3, -0.1, 0.25, 0.05, -0.2])    # any alpha^(t)
l1 = np.abs(alpha).sum()
for delta, ratio in [(0.2, 0.9), (0.01, 0.3)]:     # eps0 = ratio * ||alpha||_1
    m = ceil(log(1 / delta) / ratio**2)
    i = rng.choice(len(alpha), size=(100_000, m), p=np.abs(alpha) / l1)   # Algorithm 2's draws
    w = rng.integers(0, 4, size=(100_000, m))
    E = (l1 * np.sign(alpha[i]) * X[i, w] * x[w]).mean(axis=1)
    simulated = np.mean(np.abs(E) > ratio * l1)
    exact = sum(comb(m, k) for k in range(m + 1) if abs(2 * k - m) * 0.9801 > ratio * m) / 2**m
    print(f"delta = {delta}, eps0 = {ratio} ||alpha||_1: m = {m}, "
          f"P = {exact:.4f} (simulated {simulated:.3f}) > delta")
    assert exact > delta
    assert simulated > delta
