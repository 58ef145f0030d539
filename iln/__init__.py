"""Reference implementation of *Learning Infinite Layer Networks Without the Kernel Trick*."""

__version__ = "0.1.0"
