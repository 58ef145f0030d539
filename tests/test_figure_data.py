"""The data sets of the RKS figure claims: names, the synthetic stand-ins, Figure 2's K <= m/3,
and ``iln-verify run --data PATH`` on a user's LIBSVM file."""

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from iln.rks.synthetic_benchmarks import adult_like
from verification import catalog, cli, runner
from verification.claims.rks import figure2
from verification.claims.rks.instances import DATASETS, dataset, run_on, training_rows

FIG1, FIG2 = "rks.fig1.vs_adaboost", "rks.fig2.alpha_inf_decay"


def _libsvm_file(path, n, seed=0):
    """A LIBSVM file of ``n`` adult-like rows, as a9a is written (one-based, labels +-1)."""
    data = adult_like(n, seed=seed)
    dump_svmlight_file(data.X, data.y, str(path), zero_based=False)
    return path


def test_every_named_data_set_loads_with_labels_in_plus_minus_one():
    for name in DATASETS:
        if name.startswith("libsvm:") or name == "diabetes":
            continue
        data = dataset(name)
        assert data.task == "classification"
        assert set(np.unique(data.y)) == {-1.0, 1.0}
    assert dataset("adult_like").X.shape == (12_000, 123)
    assert training_rows("adult_like") == 9_000
    assert "not the adult data" in dataset("adult_like").source


@pytest.mark.parametrize(("name", "error"), [("adult", ValueError), (3, TypeError)])
def test_an_unknown_data_set_is_refused_with_the_known_ones(name, error):
    with pytest.raises(error, match="dataset name"):
        dataset(name)


def test_a_libsvm_name_reads_the_users_file(tmp_path):
    path = _libsvm_file(tmp_path / "a9a_small", 60)
    data = dataset(f"libsvm:{path}")
    # As with a9a.t, the file is as wide as its last used column (rare ones are unused here).
    np.testing.assert_array_equal(data.X, adult_like(60, seed=0).X[:, :data.X.shape[1]])


def test_a_relative_libsvm_name_is_read_under_the_data_directory_never_the_current_one(tmp_path, monkeypatch):
    data_dir, elsewhere = tmp_path / "data", tmp_path / "cwd"
    data_dir.mkdir()
    elsewhere.mkdir()
    _libsvm_file(elsewhere / "a9a_small", 60)
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("ILN_DATA_DIR", str(data_dir))
    with pytest.raises(FileNotFoundError, match="a9a_small"):
        dataset("libsvm:a9a_small")
    _libsvm_file(data_dir / "a9a_small", 60)
    assert dataset("libsvm:a9a_small").X.shape[0] == 60


def test_figure2_keeps_every_k_at_most_a_third_of_the_training_points():
    for profile in catalog.PROFILES:
        config = catalog.get(FIG2).config(profile)
        for name in config["datasets"]:
            assert 3 * max(figure2.k_grid(config, name)) <= training_rows(name), (profile, name)
    assert catalog.get(FIG2).config("quick")["datasets"][0] == "adult_like"


def test_figure2_refuses_a_grid_beyond_a_third_of_the_training_points():
    config = {"datasets": ["breast_cancer"], "K": [8, 256], "band": [-1.2, -0.8]}
    with pytest.raises(ValueError, match=r"config K: .*m/3"):
        figure2.trial(config, np.random.SeedSequence(0))


def test_figure2_on_another_data_set_cuts_its_grid_at_a_third(tmp_path):
    path = _libsvm_file(tmp_path / "mid", 400)  # 300 training points: K up to 100
    config = catalog.get(FIG2).config("quick", f"libsvm:{path}")
    assert config["datasets"] == [f"libsvm:{path}"]
    assert config["K"] == {f"libsvm:{path}": [16, 32, 64]}
    with pytest.raises(ValueError, match=r"data: .*too few"):
        catalog.get(FIG2).config("quick", f"libsvm:{_libsvm_file(tmp_path / 'tiny', 40)}")
    assert catalog.get(FIG1).config("quick", "adult_like")["dataset"] == "adult_like"


def test_a_claim_without_data_refuses_data():
    with pytest.raises(ValueError, match=r"data: claim rks\.lemma4"):
        catalog.get("rks.lemma4.hilbert_concentration").config("smoke", "adult_like")


def test_run_on_the_adult_like_stand_in():
    verdict = run_on(FIG2, "adult_like", seeds=2, profile="smoke")
    assert set(verdict.details["K"]) == {"adult_like"}
    assert verdict.n_trials == 2


def test_cli_runs_figure2_on_a_users_libsvm_file(tmp_path, capsys):
    path = _libsvm_file(tmp_path / "a9a_sample", 200)
    status = cli.main(["run", "--data", str(path), FIG2, "--profile", "smoke", "--jobs", "1", "--quiet",
                       "--store", str(tmp_path / "s.sqlite"), "--json", str(tmp_path / "r.json")])
    out = capsys.readouterr().out
    assert status in (0, 1), out  # a verdict, whichever it is
    assert f"libsvm:{path.resolve()}" in out
    assert FIG2 in out
    import json

    run = json.loads((tmp_path / "r.json").read_text())
    assert run["meta"]["data"] == f"libsvm:{path.resolve()}"


@pytest.mark.parametrize(("argv", "message"), [
    (["--data", "{tmp}/missing"], "--data: LIBSVM data file not found"),
    (["--data", "{tmp}/bad"], "--data: path .* is not a valid"),
    (["--data", "{tmp}/tiny", FIG2], "--data: rks.fig2.alpha_inf_decay: data: .*too few"),
    (["--data", "{tmp}/good", "rks.lemma4.hilbert_concentration"], "--data: rks.lemma4.hilbert_concentration run on no"),
])
def test_cli_data_errors_name_the_argument(tmp_path, capsys, argv, message):
    (tmp_path / "bad").write_text("+1 this is not libsvm\n")
    _libsvm_file(tmp_path / "tiny", 40)
    _libsvm_file(tmp_path / "good", 400)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    status = cli.main(["run", *argv, "--profile", "smoke", "--store", str(tmp_path / "s.sqlite"), "--quiet"])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    import re

    assert re.search(message, err), err


@pytest.mark.parametrize("claim_id", [FIG1, FIG2])
def test_a_users_file_replaced_at_the_same_path_keys_its_trials_anew(tmp_path, claim_id):
    """The trials on a user's file are keyed by its content: a file replaced at the same path
    must not reuse the trials computed on the old one."""
    path = _libsvm_file(tmp_path / "a9a_sample", 400)
    name = f"libsvm:{path}"
    before = runner.trials_key(catalog.get(claim_id).config("quick", name))
    assert runner.trials_key(catalog.get(claim_id).config("quick", name)) == before
    _libsvm_file(path, 400, seed=1)
    assert runner.trials_key(catalog.get(claim_id).config("quick", name)) != before
