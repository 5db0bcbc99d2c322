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


@pytest.mark.parametrize(
    ("gap_mm", "mm_per_px", "expected"),
    [
        (0.0, 8.4, True),
        (0.6 * 8.4, 8.4, True),  # far end of a 960 x 540 broadcast: 0.6 px
        (1.26 * 8.4, 8.4, False),  # 10.6 mm there: 18 mm apart, read 1.26 px (6 mm plus a pixel: 14.4)
        (0.87 * 3.0, 3.0, False),  # near a 1280 x 720 broadcast camera: 5.5 mm apart, read 0.87 px
        (0.6 * 3.0, 3.0, True),
        (-10.0, 3.0, True),  # read overlapping: a centre placed off (one ball hides part of the other)
    ],
)
def test_touching_on_the_rest_gap_is_judged_in_image_pixels(gap_mm, mm_per_px, expected):
    """Where the gap where the two came to rest was measured (``rest_gaps``: mm, mm per pixel along
    it), the tolerance is ``touching_gap_px`` of those pixels, not the mm tolerance; the places
    given (here touching) are not used for such a ball."""
    cue = np.array([800.0, 3000.0])
    others = {"red-1": cue + np.array([0.0, D])}
    found = touching(cue, others, CONFIG, STANDARD_TABLE, None, {"red-1": (D + gap_mm, mm_per_px)})
    assert found == (("red-1",) if expected else ())
