"""Where the shared footage is looked for: the environment variable first, else beside the checkout."""

from __future__ import annotations

from pathlib import Path

from snooker.datasets.shared import SHARED_DATA_ENV, bucharest_training, shared_data_root

REPO = Path(__file__).resolve().parents[2]


def test_the_environment_variable_wins(monkeypatch, tmp_path):
    monkeypatch.setenv(SHARED_DATA_ENV, str(tmp_path))
    assert shared_data_root() == tmp_path
    assert bucharest_training("Task2") == tmp_path / "bucharest-2020" / "training" / "Task2"


def test_without_it_the_folder_beside_the_checkout(monkeypatch):
    monkeypatch.delenv(SHARED_DATA_ENV, raising=False)
    assert shared_data_root() == (REPO.parent / "shared" / "data").resolve()
    assert bucharest_training() == shared_data_root() / "bucharest-2020" / "training"


def test_an_empty_variable_counts_as_unset(monkeypatch):
    monkeypatch.setenv(SHARED_DATA_ENV, "")
    assert shared_data_root() == (REPO.parent / "shared" / "data").resolve()
