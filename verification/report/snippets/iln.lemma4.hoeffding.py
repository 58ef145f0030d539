# ICML eq. (19) / arXiv eq. (15): P[|E - <f, Phi(x)>| > eps] <= exp(-m eps^2 / ||alpha||_1^2).
# Sign features psi(x; w) = 0.999 sign(<w, x>), w standard normal, two orthogonal inputs and
# alpha = (1): each term of Algorithm 2 is psi(x1; w) psi(x2; w) = +-0.998 with probability
# 1/2, and <f, Phi(x2)> = E_w[psi(x1; w) psi(x2; w)] = 0.
from math import comb, exp

import numpy as np

rng = np.random.default_rng(0)
x1, x2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
for m, eps in [(2, 0.9), (1, 0.5)]:
    w = rng.standard_normal((100_000, m, 2))            # 100,000 runs of Algorithm 2
    E = (0.999 * np.sign(w @ x1) * 0.999 * np.sign(w @ x2)).mean(axis=1)
    simulated = np.mean(np.abs(E) > eps)
    # exactly: |E| > eps when |#plus - #minus| * 0.998 > eps * m
    exact = sum(comb(m, k) for k in range(m + 1) if abs(2 * k - m) * 0.998 > eps * m) / 2**m
    printed = exp(-m * eps**2)
    print(f"m = {m}, eps = {eps}: P = {exact:.3f} (simulated {simulated:.2f}) "
          f"> printed bound {printed:.3f}")
    assert exact > printed
    assert simulated > printed
