# RKS Theorem 2, eq. (24): with probability 1 - delta, every f in F has
# R[f] <= R_emp[f] + 4 L R_m[F] + 2|c(0)| / sqrt(m) + LC sqrt(log(1/delta) / (2m)).
# F = {a phi : |a| <= C = 1} with one feature phi = +-1, the hinge loss (L = 1, |c(0)| = 1; on the
# margins [-1, 1] it is 1 - z), labels uncorrelated with the feature: y phi(x) is a fair sign,
# the supremum of R - R_emp is |2k/m - 1| with k ~ Binomial(m, 1/2), and R_m[F] = E|S_m| / m
# for S_m a sum of m fair signs.
from math import comb, exp, sqrt

import numpy as np

m, u = 256, 0.6                                   # delta = exp(-2 m u^2): LC sqrt(log(1/delta) / (2m)) = u
delta = exp(-2 * m * u**2)
k = np.arange(m + 1)
rademacher = sum(comb(m, int(j)) * abs(2 * int(j) - m) for j in k) / 2**m / m
threshold = 4 * rademacher + 2 / sqrt(m) + u
beyond = [int(j) for j in k if abs(2 * j / m - 1) > threshold]
probability = sum(comb(m, j) for j in beyond) / 2**m  # exact: integers over 2^m
print(f"m = {m}, R_m = {rademacher:.4f}, delta = {delta:.3g}: P[sup (R - R_emp) > eq. (24)] = "
      f"{probability:.3g} (k in {beyond})")
assert probability > delta
