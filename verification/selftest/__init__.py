"""Verify the verifier: planted defects, false alarms, and their JSON document (issue #8).

* :mod:`verification.selftest.defects`: the catalog of planted defects;
* :mod:`verification.selftest.injection`: how a defect is planted at run time;
* :mod:`verification.selftest.mutation`: which claims flag each defect;
* :mod:`verification.selftest.false_alarms`: verdicts that differ on the unmodified code;
* :mod:`verification.selftest.statements`: statement mutants, the papers' bounds tightened until
  provably false, each of which its claim's check must reject (issue #18);
* ``python -m verification.selftest``: the campaigns, written to ``selftest.json``.
"""
