"""iln.thm1.runtime decides from benchmark files: synthetic files with known exponents."""

import json

import numpy as np
import pytest

from iln import theory
from verification import catalog
from verification.claims.iln import theorem1_runtime as runtime
from verification.rules import MIN_REPETITIONS

GRID = [(64, 1.0), (128, 1.0), (256, 1.0), (128, 1.5), (128, 2.0), (128, 2.5)]


def _benchmarks(power, reps, seed):
    """Interleaved repetitions: time = samples^power, times a drift of the machine's speed
    common to a repetition's grid points and 2% noise per measurement."""
    rng = np.random.default_rng(seed)
    benches = []
    for rep in range(reps):
        drift = rng.uniform(0.7, 1.5)
        for T, B in GRID:
            samples = theory.total_feature_samples(B, T)
            time = 1e-9 * samples**power * drift * rng.lognormal(0.0, 0.02)
            benches.append({"extra_info": {"variant": "algorithm1", "T": T, "B": B, "rep": rep,
                                           "samples": samples, "load_average_1min": 2.0},
                            "stats": {"data": [time]}})
    return benches


def _old_format(power, seed):
    """The format before repetitions: three back-to-back rounds per grid point, no ``rep``."""
    rng = np.random.default_rng(seed)
    benches = []
    for T, B in GRID:
        samples = theory.total_feature_samples(B, T)
        times = (1e-9 * samples**power * rng.uniform(0.98, 1.02, 3)).tolist()
        benches.append({"extra_info": {"variant": "algorithm1", "T": T, "B": B, "samples": samples},
                        "stats": {"data": times}})
    return benches


def _write(tmp_path, benches, name="algorithm1.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"benchmarks": benches, "machine_info": {"cpu": {"brand_raw": "test"}},
                                "datetime": "now"}))
    return path


def _verdict(path, alpha=1e-3):
    config = {"n_trials": 1, "benchmark_json": str(path)}
    record = runtime.runtime_trial(config, np.random.SeedSequence(0))
    return runtime.runtime_decide([record], config, alpha)


@pytest.mark.parametrize(("power", "expected"), [(1.0, "holds"), (0.8, "holds"), (1.3, "violated"),
                                                 (2.0, "violated")])
def test_time_proportional_to_samples_holds_and_faster_growth_is_flagged(tmp_path, power, expected):
    # power 1: the slopes are the operation count's (about 2.1 in T, 4.6 in B over this grid),
    # below the bound by the tolerance; power 1.3 puts them 0.6 and 1.4 above.
    verdict = _verdict(_write(tmp_path, _benchmarks(power, 15, seed=int(10 * power))))
    assert verdict.verdict == expected, verdict.details.get("reason")
    assert verdict.n_trials == 15
    assert verdict.details["interleaved_repetitions"]
    assert len(verdict.details["exponent_T"]["slopes"]) == 15
    assert verdict.min_detectable_ratio < 1.1
    if expected == "violated":
        assert verdict.pvalue < 1e-3
        assert verdict.counterexample["axis"] in ("T", "B")


def test_old_format_file_is_reported_without_a_decision(tmp_path):
    # Even time growing far faster than the samples is not decided from back-to-back rounds.
    verdict = _verdict(_write(tmp_path, _old_format(2.0, seed=0)))
    assert verdict.verdict == "inconclusive"
    assert "no `rep`" in verdict.details["reason"]
    assert "nox -s bench" in verdict.details["reason"]
    assert not verdict.details["interleaved_repetitions"]
    assert len(verdict.details["exponent_T"]["slopes"]) == 3  # the numbers are there
    assert verdict.statistic > 2.0


def test_fewer_than_ten_repetitions_are_reported_without_a_decision(tmp_path):
    verdict = _verdict(_write(tmp_path, _benchmarks(2.0, MIN_REPETITIONS - 1, seed=1)))
    assert verdict.verdict == "inconclusive"
    assert f"fewer than the {MIN_REPETITIONS}" in verdict.details["reason"]
    assert verdict.n_trials == MIN_REPETITIONS - 1


def test_missing_benchmark_file_says_how_to_make_it(tmp_path):
    verdict = _verdict(tmp_path / "absent.json")
    assert verdict.verdict == "inconclusive"
    assert "nox -s bench" in verdict.details["reason"]
    assert str(tmp_path / "absent.json") in verdict.details["reason"]
    config = {"n_trials": 1, "benchmark_json": "reports/absent.json", "repository_root": None}
    record = runtime.runtime_trial(config, np.random.SeedSequence(0))
    assert runtime.ROOT_VARIABLE in record["missing"]


def test_file_found_through_the_configuration_never_the_working_directory(tmp_path, monkeypatch):
    root, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    (root / "reports").mkdir(parents=True)
    (elsewhere / "reports").mkdir(parents=True)
    _write(root / "reports", _benchmarks(1.0, 12, seed=2))
    _write(elsewhere / "reports", _benchmarks(2.0, 12, seed=3))
    monkeypatch.chdir(elsewhere)  # a file under the working directory is never read
    config = {"n_trials": 1, "benchmark_json": "reports/algorithm1.json", "repository_root": str(root)}
    digest = runtime.benchmark_digest(config)
    config["benchmark_sha256"] = digest
    record = runtime.runtime_trial(config, np.random.SeedSequence(0))
    assert record["sha256"] == digest
    assert record["path"] == str(root / "reports" / "algorithm1.json")
    assert runtime.runtime_decide([record], config, 1e-3).verdict == "holds"
    # A file rewritten after the catalog was loaded is refused, not stored under the old key.
    path = root / "reports" / "algorithm1.json"
    path.write_text(path.read_text() + " ")
    with pytest.raises(ValueError, match="benchmark_json"):
        runtime.runtime_trial(config, np.random.SeedSequence(0))
    assert runtime.benchmark_digest({"benchmark_json": "absent.json", "repository_root": str(root)}) == "missing"


def test_repository_root_from_the_environment_else_the_source_tree(monkeypatch, tmp_path):
    monkeypatch.setenv(runtime.ROOT_VARIABLE, str(tmp_path))
    assert runtime.repository_root() == str(tmp_path.resolve())
    monkeypatch.delenv(runtime.ROOT_VARIABLE)
    root = runtime.repository_root()
    assert root is not None
    # The catalog's configuration names the repository's file by its root, not by the cwd.
    config = catalog.load()["iln.thm1.runtime"].config("full")
    assert config["benchmark_json"] == runtime.BENCHMARK_JSON
    assert runtime.benchmark_path(config).is_absolute()


def test_a_non_editable_install_finds_the_directory_it_was_built_from(monkeypatch, tmp_path):
    # pip records the source of `pip install .` (PEP 610 direct_url.json); an installed package
    # does not sit in a checkout, so that is where the repository's reports/ are.
    class Installed:
        def read_text(self, name):
            assert name == "direct_url.json"
            return json.dumps({"url": (tmp_path / "my repo").as_uri(), "dir_info": {}})

    monkeypatch.delenv(runtime.ROOT_VARIABLE, raising=False)
    monkeypatch.setattr(runtime, "_SOURCE_TREE", tmp_path / "site-packages")
    monkeypatch.setattr(runtime.importlib.metadata, "distribution", lambda name: Installed())
    assert runtime.repository_root() == str(tmp_path / "my repo")
