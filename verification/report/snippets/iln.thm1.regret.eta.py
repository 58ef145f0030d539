# Theorem 1 sets eta = B / sqrt(T); its proof, "as in the statement of the theorem", sets
# eta = B / (2 sqrt(T)). The proof's last display bounds the regret by
# (B^2 / eta + 4 eta T) / (1 - 2 eta), and Lemma 2 needs eta < 1/8.
import numpy as np


def bound(B, T, eta):
    return (B**2 / eta + 4 * eta * T) / (1 - 2 * eta)


B = 1.0
for T in [100, 10_000, 1_000_000]:
    theorem, proof = bound(B, T, B / np.sqrt(T)), bound(B, T, B / (2 * np.sqrt(T)))
    print(f"T = {T}: the theorem's eta gives {theorem / (B * np.sqrt(T)):.2f} B sqrt(T), "
          f"the proof's {proof / (B * np.sqrt(T)):.2f} B sqrt(T)")
print(f"eta < 1/8 needs T > {(8 * B) ** 2:.0f} B^2 (theorem) or T > {(4 * B) ** 2:.0f} B^2 (proof)")
assert np.isclose(bound(B, 1e12, B / 1e6) / 1e6, 5, atol=1e-5)
assert np.isclose(bound(B, 1e12, B / 2e6) / 1e6, 4, atol=1e-5)
