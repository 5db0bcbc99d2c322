"""``events.pocket_ahead``: the pocket a ball sent along a direction heads for. A mouth has a width:
from close by it spans a wider angle than the angular allowance, and a line through its jaws heads
into it (Task2 clip 11 at 854 × 480: a red sent from 69 mm off a corner mouth, 26° off its centre,
was ruled off the table)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.events import pocket_ahead

ALLOWANCE_DEG = 12.0


def _sent(pocket: str, distance_mm: float, off_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """A start ``distance_mm`` from ``pocket``'s mouth centre towards the table's centre, and a
    direction ``off_deg`` off the line back to the mouth."""
    mouth = np.array(STANDARD_TABLE.pockets[pocket].mouth_centre)
    inward = np.array([STANDARD_TABLE.width_mm / 2, STANDARD_TABLE.length_mm / 2]) - mouth
    inward /= np.linalg.norm(inward)
    off = math.radians(off_deg)
    turn = np.array([[math.cos(off), -math.sin(off)], [math.sin(off), math.cos(off)]])
    return mouth + inward * distance_mm, turn @ -inward


@pytest.mark.parametrize(
    ("pocket", "distance_mm", "off_deg", "expected"),
    [
        ("top_left", 1000.0, 5.0, "top_left"),  # straight at it from afar
        ("top_left", 1000.0, 11.0, "top_left"),  # within the allowance
        ("top_left", 1000.0, 26.0, None),  # far off: the mouth spans 2.5° from there
        ("top_left", 69.0, 26.0, "top_left"),  # close by: the line passes between the jaws
        ("baulk_right", 69.0, -26.0, "baulk_right"),
        ("middle_left", 80.0, 25.0, "middle_left"),
        ("top_left", 69.0, 50.0, None),  # past the jaws even from close by (±38° there)
        ("top_left", 200.0, 26.0, None),  # the jaws span ±12.4° from 200 mm
    ],
)
def test_a_line_through_the_jaws_heads_for_the_pocket(pocket, distance_mm, off_deg, expected):
    start, direction = _sent(pocket, distance_mm, off_deg)
    assert pocket_ahead(start, direction, STANDARD_TABLE, ALLOWANCE_DEG) == expected


def test_no_direction_heads_nowhere():
    start, _ = _sent("top_left", 69.0, 0.0)
    assert pocket_ahead(start, np.zeros(2), STANDARD_TABLE, ALLOWANCE_DEG) is None
    assert pocket_ahead(start, np.array([np.nan, 1.0]), STANDARD_TABLE, ALLOWANCE_DEG) is None
