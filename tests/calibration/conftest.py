"""Shared helpers for the calibration tests: where the real footage is (skip when absent)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def shared_data_root() -> Path:
    env = os.environ.get("SNOOKER_SHARED_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def bucharest_root() -> Path:
    """The Bucharest 2020 training split (Task1 … Task4)."""
    return shared_data_root() / "bucharest-2020" / "training"


@pytest.fixture(scope="session")
def bucharest() -> Path:
    root = bucharest_root()
    if not (root / "Task1").is_dir():
        pytest.skip(f"shared footage not found at {root}")
    return root
