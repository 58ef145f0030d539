# RKS Section 4: "for the results of this paper to hold, C cannot grow faster than K".
# Theorem 1's bound, eq. (7), is O((1/sqrt(m) + 1/sqrt(K)) L C sqrt(log 1/delta)): with
# C = K^(3/4), slower than K, and m = K examples it grows without end.
import numpy as np

L, delta = 1.0, 0.1
K = np.array([16, 256, 4096, 65536])
C = K ** 0.75
bound = (1 / np.sqrt(K) + 1 / np.sqrt(K)) * L * C * np.sqrt(np.log(1 / delta))
for k, b in zip(K, bound, strict=True):
    print(f"K = m = {k}, C = K^(3/4): bound {b:.2f}")
slope = np.polyfit(np.log(K), np.log(bound), 1)[0]
print(f"log-log slope {slope:.2f} = 1/4")
assert np.isclose(slope, 0.25)
