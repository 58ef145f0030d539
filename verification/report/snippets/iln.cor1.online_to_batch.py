# arXiv Corollary 1: T = O(B / eps^2) rounds give excess risk at most eps. The constant fixed
# where the versions agree, at B = 1: T = 206 for eps = 0.3 (ICML's T = O(B^2 / eps^2) is
# 206 B^2, 13,464,008 at B = 256). The point mass psi(x; w) = c = 0.999 / B, y = 1: every estimate
# of Algorithm 2 is exact and the predictions run p_{t+1} = p_t + eta c^2 (1 - p_t), p_1 = 0;
# the averaged predictor f_S predicts their mean, the best f in the B-ball predicts cB.
import numpy as np


def excess_risk(B, T):
    c, eta = 0.999 / B, B / (2 * np.sqrt(T))
    r = 1 - eta * c * c
    # mean of p_t = 1 - r^(t-1) over t = 1..T, with 1 - r^T through expm1/log1p (r near 1)
    gap = -np.expm1(T * np.log1p(-eta * c * c)) / (T * (1 - r))
    return gap**2 / 2 - (1 - B * c) ** 2 / 2


p, c, eta = 0.0, 0.999 / 180, 180 / (2 * np.sqrt(37080))
predictions = []
for _ in range(37080):                                 # the run itself at B = 180
    predictions.append(p)
    p += eta * c * c * (1 - p)
assert abs((1 - np.mean(predictions)) ** 2 / 2 - (1 - 0.999) ** 2 / 2 - excess_risk(180, 37080)) < 1e-9
for B, T in [(179, 36874), (180, 37080), (256, 52736), (256, 13_464_008)]:
    risk = excess_risk(B, T)
    print(f"B = {B}, T = {T}: excess risk {risk:.4f} {'>' if risk > 0.3 else '<='} eps = 0.3")
assert excess_risk(180, 37080) > 0.3
assert excess_risk(256, 52736) > 0.3 >= excess_risk(179, 36874)
