# RKS Lemma 1, eq. (9), for "a measure mu": some f in F_w is within C / sqrt(K) (1 + sqrt(2
# log 1/delta)) of f* in L2(mu), with probability at least 1 - delta. The orthogonal instance:
# 32 points, phi(.; w_j) = the columns h_j of the 32 x 32 Hadamard matrix (orthonormal under
# the uniform probability), p uniform over j, f* = (C/32) sum_j h_j. A member of F_w puts at
# most n_j C / K on h_j, n_j the number of times w_1..w_K drew j; the closest one puts
# min(C/32, n_j C / K). Under mu = the counting measure (mass 32) eq. (9) fails.
import numpy as np

rng = np.random.default_rng(0)
H = np.array([[1.0]])
for _ in range(5):
    H = np.block([[H, H], [H, -H]])                  # Sylvester's construction, 32 x 32
C, f_star = 1.0, H.sum(axis=1) / 32
for K, delta in [(16, 0.5), (16, 0.1), (64, 0.1)]:
    bound = C / np.sqrt(K) * (1 + np.sqrt(2 * np.log(1 / delta)))
    fails = {"uniform": 0, "counting": 0}
    for _ in range(20_000):
        n = np.bincount(rng.integers(0, 32, size=K), minlength=32)
        closest = H @ np.minimum(C / 32, n * C / K)
        squared = np.sum((closest - f_star) ** 2)   # under the counting measure
        fails["counting"] += np.sqrt(squared) > bound
        fails["uniform"] += np.sqrt(squared / 32) > bound
    print(f"K = {K}, delta = {delta}: P[eq. (9) fails] = {fails['counting'] / 20_000:.2f} under the "
          f"counting measure, {fails['uniform'] / 20_000:.2f} under the uniform probability")
    assert fails["counting"] / 20_000 > delta
    assert fails["uniform"] == 0
