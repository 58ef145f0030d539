"""Claims of *Learning Infinite Layer Networks Without the Kernel Trick* (ICML and arXiv versions)."""
