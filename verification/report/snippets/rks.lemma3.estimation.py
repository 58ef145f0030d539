# RKS Lemma 3, eq. (13): with probability 1 - delta, every f in F_w has
# |R[f] - R_emp[f]| <= (4LC + 2|c(0)| + LC sqrt(log(1/delta) / 2)) / sqrt(m).
# F_w with one feature phi = +-1 (or K copies of it) and C = 1, the hinge loss (L = 1, |c(0)| = 1;
# on the margins [-1, 1] it is 1 - z), labels uncorrelated with the feature: y phi(x) is a fair
# sign, R[a phi] - R_emp[a phi] = a (mean of the m signs), and the supremum over |a| <= 1 is
# |2k/m - 1| with k ~ Binomial(m, 1/2).
from math import comb, exp, log, sqrt

import numpy as np

m, u = 256, 0.6                                   # delta = exp(-2 m u^2)
delta = exp(-2 * m * u**2)
threshold = (4 + 2) / sqrt(m) + u                 # eq. (13): LC sqrt(log(1/delta) / 2) / sqrt(m) = u
assert abs(sqrt(log(1 / delta) / 2) / sqrt(m) - u) < 1e-12
k = np.arange(m + 1)
beyond = [int(j) for j in k if abs(2 * j / m - 1) > threshold]
probability = sum(comb(m, j) for j in beyond) / 2**m  # exact: integers over 2^m
print(f"m = {m}, delta = {delta:.3g}: P[sup |R - R_emp| > eq. (13)] = {probability:.3g} (k in {beyond})")
assert probability > delta
