"""The tracking stage's frame records place balls held unseen without projecting the same places
again frame after frame: the same records, fewer projections."""

from __future__ import annotations

import numpy as np

from snooker.calibration.table import STANDARD_TABLE
from snooker.pipeline.tracking import TrackingStage
from snooker.tracker import StrokeConfig, TrackerConfig
from snooker.vision.types import BallDetections

SCALE = 0.25  # px per mm of the fake camera
FRAMES = 60
HIDDEN_FROM = 20
"""The pink is unseen from this frame on (held where it rested); the red stays in sight."""


class CountingView:
    """A top-down camera (px = mm * SCALE, y flipped) that counts what it is asked."""

    def __init__(self) -> None:
        self.fit_error_px = 0.5
        self.projections = 0
        self.radii = 0

    def table_to_image(self, xy_mm, height_mm=0.0):
        self.projections += 1
        xy = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        return np.column_stack([xy[:, 0] * SCALE + height_mm * 0.01, 900 - xy[:, 1] * SCALE])

    def image_to_table(self, xy_px):
        xy = np.asarray(xy_px, dtype=float).reshape(-1, 2)
        return np.column_stack([xy[:, 0] / SCALE, (900 - xy[:, 1]) / SCALE])

    def ball_radius_px(self, xy_mm):
        self.radii += 1
        return np.full(len(np.atleast_2d(xy_mm)), STANDARD_TABLE.ball_radius_mm * SCALE)


def _detections(i: int) -> BallDetections:
    mm = [[300.0, 3000.0]] + ([[900.0, 1500.0 + 0.3 * (i % 3)]] if i < HIDDEN_FROM else [])
    names = ["red"] + (["pink"] if i < HIDDEN_FROM else [])
    mm_array = np.asarray(mm, dtype=float)
    px = np.column_stack([mm_array[:, 0] * SCALE, 900 - mm_array[:, 1] * SCALE])
    return BallDetections(px, [6.0] * len(names), names, [1.0] * len(names), mm_array)


def _run(view: CountingView) -> TrackingStage:
    stage = TrackingStage(TrackerConfig(), StrokeConfig(), 0.5)
    stage.view = view
    for i in range(FRAMES):
        stage.push(i, i / 25.0, _detections(i))
    return stage


def test_a_ball_held_in_one_place_is_projected_once():
    """The pink held where it rested on 40 frames: its place projected once, its radius (its own,
    from its last sighting) never measured; each record places it where the view puts it."""
    view = CountingView()
    stage = _run(view)
    held = [
        (record, ball)
        for record in stage.frames
        for ball in record["balls"]
        if ball["label"] == "pink" and not ball["visible"]
    ]
    assert len(held) >= FRAMES - HIDDEN_FROM - 1
    assert view.projections == 1
    assert view.radii == 0
    for _, ball in held:
        expected = view.table_to_image(
            np.array([[ball["x_mm"], ball["y_mm"]]]), STANDARD_TABLE.ball_radius_mm
        )[0]
        assert (ball["x_px"], ball["y_px"]) == (round(float(expected[0]), 1), round(float(expected[1]), 1))
        assert ball["r_px"] == 6.0


def test_a_new_view_projects_the_held_ball_again():
    """Another view object (the table found again, the camera moved): the held ball is placed by it."""
    first, second = CountingView(), CountingView()
    stage = TrackingStage(TrackerConfig(), StrokeConfig(), 0.5)
    stage.view = first
    for i in range(FRAMES):
        if i == HIDDEN_FROM + 10:
            stage.view = second
        stage.push(i, i / 25.0, _detections(i))
    assert first.projections == 1
    assert second.projections == 1
