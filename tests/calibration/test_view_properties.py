"""Invariants of the image ↔ table mapping for any plausible camera (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.calibration import TableView, pockets_by_image_position, view_from_corners
from snooker.calibration.synthetic import broadcast_camera, overhead_camera
from snooker.calibration.table import STANDARD_TABLE

cameras = st.one_of(
    st.builds(
        overhead_camera,
        height_mm=st.floats(2500.0, 8000.0),
        fill=st.floats(0.5, 0.95),
        baulk_on_left=st.booleans(),
    ),
    st.builds(
        broadcast_camera,
        distance_mm=st.floats(1500.0, 5000.0),
        height_mm=st.floats(2000.0, 5000.0),
        focal_px=st.floats(700.0, 1100.0),
    ),
)
table_points = st.tuples(st.floats(0.0, STANDARD_TABLE.width_mm), st.floats(0.0, STANDARD_TABLE.length_mm))


@settings(max_examples=15, deadline=None)
@given(camera=cameras, point=table_points, height=st.floats(0.0, 60.0))
def test_image_to_table_inverts_table_to_image(camera, point, height):
    view = TableView(camera=camera)
    xy = np.array([point])
    assert np.abs(view.image_to_table(view.table_to_image(xy, height), height) - xy).max() < 1e-6


@settings(max_examples=15, deadline=None)
@given(camera=cameras)
def test_four_exact_corners_give_back_the_plane(camera):
    corners = camera.project(np.column_stack([STANDARD_TABLE.corners, np.zeros(4)]))
    view = view_from_corners(corners, camera.image_size)
    probe = np.array([[200.0, 300.0], [889.0, 1784.5], [1600.0, 3300.0]])
    expected = camera.project(np.column_stack([probe, np.zeros(3)]))
    assert np.abs(view.table_to_image(probe) - expected).max() < 0.5


@settings(max_examples=15, deadline=None)
@given(camera=cameras)
def test_every_pocket_has_one_image_position(camera):
    positions = pockets_by_image_position(TableView(camera=camera))
    assert sorted(positions.values()) == sorted(STANDARD_TABLE.pockets)
    assert len(set(positions)) == 6


def test_broadcast_pocket_positions_follow_the_camera_behind_the_top_cushion():
    positions = pockets_by_image_position(TableView(camera=broadcast_camera()))
    assert positions == {
        "top-left": "baulk_right",
        "top-right": "baulk_left",
        "middle-left": "middle_right",
        "middle-right": "middle_left",
        "bottom-left": "top_right",
        "bottom-right": "top_left",
    }
