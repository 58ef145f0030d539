# ICML eq. (20) / arXiv eq. (16): P[|E_t - <f_t, Phi(x_t)>| > eps] <= exp(-eps^2 m / ((16B + 1) eta t)^2).
# Algorithm 1 with B = 1, eta = 1 and sign features psi(x; w) = 0.999 sign(<w, x>), w standard
# normal. Round 1 sees x_1 = e_1, y_1 = 1: E_1 = 0 (alpha^(1) = 0), so alpha^(2) = (-eta (y_1 - E_1)).
# Round 2 sees x_2 = e_2: <f_2, Phi(x_2)> = alpha_1 E_w[psi(x_1; w) psi(x_2; w)] = 0, and
# Algorithm 2 with m = 1 returns ||alpha||_1 sgn(alpha_1) psi(x_1; w) psi(x_2; w) = +-0.998 eta.
from math import exp

import numpy as np

rng = np.random.default_rng(0)
B, eta, t, m = 1.0, 1.0, 2, 1
x1, x2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
alpha1 = -eta * (1.0 - 0.0)                        # round 1's gradient step
w = rng.standard_normal((100_000, m, 2))           # 100,000 runs of Algorithm 2 in round 2
terms = np.sign(alpha1) * 0.999 * np.sign(w @ x1) * 0.999 * np.sign(w @ x2)
E2 = abs(alpha1) * terms.mean(axis=1)
eps = eta / 2
simulated = np.mean(np.abs(E2 - 0.0) > eps)
exact = 1.0                                        # |E_2| = 0.998001 eta > eps whatever w
printed = exp(-eps**2 * m / ((16 * B + 1) * eta * t) ** 2)
print(f"t = {t}, m = {m}, eps = eta/2: P = {exact:.0f} (simulated {simulated:.2f}) "
      f"> printed bound {printed:.5f}")
assert np.all(np.abs(E2) > eps)
assert exact > printed
assert simulated > printed
