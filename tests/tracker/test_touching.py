"""Touching: the tolerance on the gap follows the image scale where the two balls lie."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.config import StrokeConfig
from snooker.tracker.events import touching

D = STANDARD_TABLE.ball_diameter_mm
CONFIG = StrokeConfig()


def _rounding_mm(mm_per_px: float) -> float:
    """What the rounding of both image centres may add to the gap at that scale."""
    return 2.0 * CONFIG.centre_rounding_px * mm_per_px


@pytest.mark.parametrize(
    ("gap_mm", "mm_per_px", "with_image", "expected"),
    [
        (0.0, 7.0, True, True),
        (
            CONFIG.touching_tolerance_mm + _rounding_mm(7.0) - 0.5,
            7.0,
            True,
            True,
        ),  # far end of a broadcast view
        (CONFIG.touching_tolerance_mm + _rounding_mm(7.0) + 0.5, 7.0, True, False),
        (CONFIG.touching_tolerance_mm + _rounding_mm(7.0) - 0.5, 2.0, True, False),  # near the camera: finer
        (CONFIG.touching_tolerance_mm + _rounding_mm(2.0) - 0.5, 2.0, True, True),
        (CONFIG.touching_tolerance_mm - 0.5, 7.0, False, True),  # no image centres: mm tolerance only
        (CONFIG.touching_tolerance_mm + 0.5, 7.0, False, False),
    ],
)
def test_touching_tolerance_is_the_position_uncertainty_where_the_balls_lie(
    gap_mm, mm_per_px, with_image, expected
):
    cue = np.array([800.0, 3000.0])
    red = cue + np.array([0.0, D + gap_mm])
    image = {"white": np.array([400.0, 500.0]), "red-1": np.array([400.0, 500.0 + (D + gap_mm) / mm_per_px])}
    found = touching(cue, {"red-1": red}, CONFIG, STANDARD_TABLE, image if with_image else None)
    assert found == (("red-1",) if expected else ())


def test_touching_balls_are_listed_nearest_first():
    cue = np.array([800.0, 1500.0])
    offsets = {"red-1": (D + 3.0, 0.0), "red-2": (0.0, D + 1.0), "blue": (0.0, -D - 40.0)}
    others = {label: cue + np.array(offset) for label, offset in offsets.items()}
    assert touching(cue, others, CONFIG, STANDARD_TABLE) == ("red-2", "red-1")
