"""iln.thm1.runtime decides from benchmark files: synthetic files with known exponents."""

import json

import numpy as np
import pytest

from iln import theory
from verification.claims.iln import runtime

GRID = [(64, 1.0), (128, 1.0), (256, 1.0), (512, 1.0), (128, 1.5), (128, 2.0), (128, 2.5)]


def _write(tmp_path, power, seed=0):
    rng = np.random.default_rng(seed)
    benches = []
    for T, B in GRID:
        samples = theory.total_feature_samples(B, T)
        base = 1e-9 * samples**power
        times = (base * rng.uniform(0.98, 1.02, 3)).tolist()
        benches.append({"extra_info": {"variant": "algorithm1", "T": T, "B": B, "samples": samples},
                        "stats": {"data": times}})
    path = tmp_path / "algorithm1.json"
    path.write_text(json.dumps({"benchmarks": benches, "machine_info": {}, "datetime": "now"}))
    return path


@pytest.mark.parametrize(("power", "expected"), [(1.0, "holds"), (0.8, "holds"), (1.3, "violated")])
def test_time_proportional_to_samples_holds_and_faster_growth_is_flagged(tmp_path, monkeypatch, power, expected):
    monkeypatch.setattr(runtime, "_ROOT", tmp_path)
    _write(tmp_path, power)
    config = {"n_trials": 1, "benchmark_json": "algorithm1.json"}
    record = runtime.runtime_trial(config, np.random.SeedSequence(0))
    assert runtime.runtime_decide([record], config, 1e-3).verdict == expected


def test_missing_benchmark_file_is_inconclusive(tmp_path, monkeypatch):
    monkeypatch.setattr(runtime, "_ROOT", tmp_path)
    config = {"n_trials": 1, "benchmark_json": "absent.json"}
    verdict = runtime.runtime_decide([runtime.runtime_trial(config, np.random.SeedSequence(0))], config, 1e-3)
    assert verdict.verdict == "inconclusive"
    assert "nox -s bench" in verdict.details["reason"]


def test_file_found_from_the_working_directory_and_keyed_by_its_digest(tmp_path, monkeypatch):
    # An installed package (nox) is not beside the repository: the working directory is.
    monkeypatch.setattr(runtime, "_ROOT", tmp_path / "elsewhere")
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, 1.0)
    digest = runtime.benchmark_digest("algorithm1.json")
    config = {"n_trials": 1, "benchmark_json": "algorithm1.json", "benchmark_sha256": digest}
    assert runtime.runtime_trial(config, np.random.SeedSequence(0))["sha256"] == digest
    path.write_text(path.read_text() + " ")
    with pytest.raises(ValueError, match="benchmark_json"):
        runtime.runtime_trial(config, np.random.SeedSequence(0))
    assert runtime.benchmark_digest("absent.json") == "missing"
