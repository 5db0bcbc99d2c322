"""Pocket positions found automatically against hand labels on real broadcast stills."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.footage

LABELS = Path(__file__).resolve().parents[1] / "fixtures" / "calibration" / "bucharest_task1_labels.json"
MEDIAN_LIMIT_PX = 3.0
MAX_LIMIT_PX = 8.0


@pytest.fixture(scope="module")
def pocket_errors(still_views) -> dict[tuple[str, str], float]:
    stills = json.loads(LABELS.read_text())["stills"]
    errors = {}
    for still, labels in stills.items():
        view = still_views[int(still)][1]
        for name, xy in labels["pockets_px"].items():
            errors[(still, name)] = float(np.hypot(*(np.array(view.pockets_px[name]) - xy)))
    return errors


def test_at_least_twelve_stills_are_labelled():
    stills = json.loads(LABELS.read_text())["stills"]
    assert len(stills) >= 12
    assert sum(len(s["pockets_px"]) for s in stills.values()) >= 12 * 6 - 6


def test_median_pocket_error_is_small(pocket_errors):
    assert np.median(list(pocket_errors.values())) <= MEDIAN_LIMIT_PX


def test_every_pocket_is_close(pocket_errors):
    worst = max(pocket_errors, key=pocket_errors.get)
    assert pocket_errors[worst] <= MAX_LIMIT_PX, (
        f"still {worst[0]} {worst[1]} is off by {pocket_errors[worst]:.1f} px"
    )
