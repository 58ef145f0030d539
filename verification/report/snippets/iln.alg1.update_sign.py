# Algorithm 1's printed step alpha_t = -eta (y_t - E_t) (ICML; arXiv: eta (E_t - y_t)).
# psi(x; w) = c = 0.999 / B for every w, every label y_t = 1: every coefficient stays negative,
# so Algorithm 2's estimate is exactly E_t = c^2 sum_i alpha_i and the run is deterministic.
# The regret is measured against the best f in the B-ball, whose loss is (1 - cB)^2 / 2 a round.
import numpy as np


def printed_run(B, T):
    c2, eta = (0.999 / B) ** 2, B / (2 * np.sqrt(T))   # the proof's eta
    A = loss = 0.0                                      # A = sum_i alpha_i
    for _ in range(T):
        E = c2 * A
        loss += (E - 1) ** 2 / 2
        A = A + eta * (E - 1) if abs(E) < 16 * B else A / 4   # the printed step, or a shrink
    regret = loss - T * (1 - 0.999) ** 2 / 2
    bound = (B**2 / eta + 4 * eta * T) / (1 - 2 * eta)     # the proof's last display
    return regret, bound


for T in [4, 9, 64, 1024]:
    regret, bound = printed_run(1, T)
    print(f"T = {T}: regret {regret:.2f} {'>' if regret > bound else '<'} bound {bound:.2f}")
assert all(np.greater(*printed_run(1, T)) for T in [9, 64, 1024])
