"""A ball struck out of a pack runs off the cue ball's lost momentum: the ball it touched takes part
of the blow (``StrokeConfig.pressed_run_max_turn_deg``; table-driven)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from tracker_scenarios import segmented

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.types import BallState, TableState, TrackStatus

FPS = 30.0
WHITE_AT = np.array([900.0, 1500.0])
"""Where the cue ball rests (table mm); it is struck up the table (+y), 150 mm a frame, and stops
dead on the red (a stun: all its momentum lost, straight up the table)."""
RED_AT = WHITE_AT + np.array([0.0, 600.0])
"""Where the struck red rests, straight ahead of the cue ball."""
WHITE_STEP_MM = 150.0
RUN_STEPS_MM = (190.0, 150.0, 110.0, 80.0, 50.0, 20.0)
"""The red's run, frame by frame (mm): 5.7 m/s, its first sighting 190 mm from its place (farther
than ``off_course_unseen_mm``: it was not seen on its way), to rest 600 mm away on the cloth."""
DIAMETER = STANDARD_TABLE.ball_diameter_mm
STRUCK_FRAME = 12
FRAMES = 100


@dataclass(frozen=True)
class Layout:
    """The red runs ``turn_deg`` off the cue ball's lost momentum (towards +x); the ball it rests
    against lies ``neighbour_deg`` off that momentum (towards -x, 0: straight ahead; None: none)."""

    turn_deg: float
    neighbour_deg: float | None


def _rotated(deg: float) -> np.ndarray:
    """The unit direction ``deg`` off +y, towards +x."""
    rad = np.radians(deg)
    return np.array([np.sin(rad), np.cos(rad)])


def _states(layout: Layout) -> list[TableState]:
    contact_k = (RED_AT[1] - WHITE_AT[1] - DIAMETER) / WHITE_STEP_MM  # frames after the strike
    white_stop = WHITE_AT + np.array([0.0, contact_k * WHITE_STEP_MM])
    run = np.cumsum(RUN_STEPS_MM)
    way = _rotated(layout.turn_deg)
    neighbour = None
    if layout.neighbour_deg is not None:
        neighbour = RED_AT + DIAMETER * _rotated(-layout.neighbour_deg)
    states = []
    for frame in range(FRAMES):
        k = frame - STRUCK_FRAME
        white = WHITE_AT + np.array([0.0, min(max(k, 0) * WHITE_STEP_MM, contact_k * WHITE_STEP_MM)])
        white_moving = 0 < k <= int(np.ceil(contact_k))
        steps = int(np.clip(k - np.ceil(contact_k) + 1, 0, len(run)))
        red = RED_AT + (run[steps - 1] if steps else 0.0) * way
        red_moving = 0 < steps < len(run)
        balls = [
            BallState(1, "white", (float(white[0]), float(white[1])), TrackStatus.VISIBLE, white_moving),
            BallState(2, "red-1", (float(red[0]), float(red[1])), TrackStatus.VISIBLE, red_moving),
        ]
        if neighbour is not None:
            balls.append(
                BallState(3, "red-2", (float(neighbour[0]), float(neighbour[1])), TrackStatus.VISIBLE, False)
            )
        assert np.allclose(white_stop[0], white[0])
        states.append(TableState(frame, frame / FPS, tuple(balls), ()))
    return states


CASES = {
    # (layout, whether the red's run is the red: it rests where it ran, no pot, nothing off;
    # else the red vanished where it was struck)
    "alone, run along its course": (Layout(10.0, None), True),
    "in a pack, run 45 deg off (the blow shared with the ball ahead)": (Layout(45.0, 45.0), True),
    "in a pack, run 65 deg off": (Layout(65.0, 25.0), True),
    "in a pack, run 80 deg off": (Layout(80.0, 10.0), True),
    "alone, run 65 deg off: another thing named red": (Layout(65.0, None), False),
    "touching a ball behind it only, run 65 deg off: another thing": (Layout(65.0, 150.0), False),
    "in a pack, a sighting 120 deg off (back towards the cue ball's side): another thing": (
        Layout(120.0, 20.0),
        False,
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_ball_struck_out_of_a_pack_is_followed_where_it_ran(case: str) -> None:
    layout, followed = CASES[case]
    [stroke] = segmented(_states(layout))
    assert stroke.first_contact == ("red-1",)
    gone = [p.label for p in stroke.potted] + list(stroke.off_table)
    if followed:
        assert gone == [], gone
        ran_to = RED_AT + sum(RUN_STEPS_MM) * _rotated(layout.turn_deg)
        assert np.allclose(stroke.positions_after["red-1"], ran_to, atol=1.0)
    else:
        # its sightings are another thing's: the red vanished where it was struck (its course,
        # straight up the table, leads to no pocket: it flew off the table)
        assert gone == ["red-1"], gone
        assert "red-1" not in stroke.positions_after
