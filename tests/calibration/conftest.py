"""Shared helpers for the calibration tests: where the real footage is (skip when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from snooker.datasets.shared import bucharest_training


@pytest.fixture(scope="session")
def bucharest() -> Path:
    """The Bucharest 2020 training split (Task1 … Task4)."""
    root = bucharest_training()
    if not (root / "Task1").is_dir():
        pytest.skip(f"shared footage not found at {root}")
    return root


@pytest.fixture(scope="session")
def still_views(bucharest):
    """find_table on every valid Task1 still, once per session: {still: (image, view or the error)}."""
    import cv2

    from snooker.calibration import TableNotFound, find_table

    views = {}
    for still in [n for n in range(1, 51) if n != 42]:  # 42.jpg is a broken 87x76 stub
        image = cv2.imread(str(bucharest / "Task1" / f"{still}.jpg"))
        try:
            views[still] = (image, find_table(image))
        except TableNotFound as exc:
            views[still] = (image, exc)
    return views
