# Lemma 2 prints P_t <= 2 exp(-m / (3 eta t)^2). Its proof, with the corrected tail of E_t
# (two-sided Hoeffding), gives P_t <= 4 exp(-32 B^2 m / ((16B + 1) eta t)^2): the exponent's
# coefficient 32 B^2 / (16B + 1)^2 is below the printed 1/9 while B < 1 / (12 sqrt(2) - 16),
# and the prefactor 4 > 2 makes the proof's bound the larger one for small m at every B.
import numpy as np

edge = 1 / (12 * np.sqrt(2) - 16)                  # where 32 B^2 / (16B + 1)^2 = 1/9
print(f"the proof's exponent is below the printed one for 1 <= B <= {edge:.4f}")
for B in [1.0, 1.03, 1.05, 2.0]:
    proof, printed = 32 * B**2 / (16 * B + 1) ** 2, 1 / 9
    # 4 exp(-proof x) > 2 exp(-printed x), x = m / (eta t)^2, for x below log 2 / (proof - printed)
    where = (f"m / (eta t)^2 < {np.log(2) / (proof - printed):.1f}" if proof > printed
             else "every m")
    print(f"B = {B}: coefficient {proof:.5f} against {printed:.5f}; prefactor 4 against 2: "
          f"the proof's bound is the larger for {where}")
assert 32 / 289 < 1 / 9
