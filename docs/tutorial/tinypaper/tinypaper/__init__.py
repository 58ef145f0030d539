"""A. Author, *Means of uniform samples* (2025): two statements about X ~ U[0, 1]."""

from verification.catalog import Paper

PAPER = Paper(versions={"TINY": "A. Author, Means of uniform samples, 2025"},
              claims="tinypaper.claims")
