"""A view moved with its picture (``TableView.moved_in_picture``): a knocked camera's picture turned
and shifted, and the table seen through the moved view exactly where the move put it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.calibration import load_calibration
from snooker.calibration.camera import with_radial_distortion
from snooker.calibration.view import TableView

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
ROUNDING = 1e-4
"""Px and mm: the move is exact, up to the rotations' floating-point round trips."""
GRID_MM = np.array([[x, y] for x in np.linspace(0.0, 1778.0, 5) for y in np.linspace(0.0, 3569.0, 7)])


@pytest.fixture(scope="module")
def view() -> TableView:
    return load_calibration(SAMPLES / "demo_clip.calibration.json")


def _motion(turn_deg: float, dx: float, dy: float, about: tuple[float, float]) -> np.ndarray:
    matrix = cv2.getRotationMatrix2D(about, -turn_deg, 1.0)
    matrix[:, 2] += (dx, dy)
    return matrix


@settings(max_examples=80, deadline=None)
@given(
    st.floats(-3.0, 3.0),
    st.floats(-40.0, 40.0),
    st.floats(-40.0, 40.0),
    st.tuples(st.floats(0.0, 960.0), st.floats(0.0, 540.0)),
    st.sampled_from([0.0, -2e-7, 3e-7]),
    st.sampled_from([0.0, 26.25, 50.0]),
)
def test_the_table_is_seen_where_the_move_put_it(view, turn_deg, dx, dy, about, kappa, height_mm):
    """Any turn about any point and any shift; with radial lens distortion too (it turns with the
    picture about the principal point); points at any height."""
    view = TableView(with_radial_distortion(view.camera, kappa))
    motion = _motion(turn_deg, dx, dy, about)
    moved = view.moved_in_picture(motion)
    before = view.table_to_image(GRID_MM, height_mm)
    expected = before @ motion[:, :2].T + motion[:, 2]
    assert np.abs(moved.table_to_image(GRID_MM, height_mm) - expected).max() < ROUNDING
    assert np.abs(moved.image_to_table(expected, height_mm) - GRID_MM).max() < ROUNDING


def test_no_move_is_the_same_view_and_the_original_is_untouched(view):
    corners = view.corners_px.copy()
    same = view.moved_in_picture(np.eye(2, 3))
    assert np.allclose(same.corners_px, corners) and same is not view
    view.moved_in_picture(_motion(1.0, 5.0, 5.0, (0.0, 0.0)))
    assert np.array_equal(view.corners_px, corners)
