"""A red at rest touching the cue ball, pushed (3.8(b)): it may leave along the line of centres.

The cue strikes the cue ball while it touches the red: the two meet at once, at a speed no sighting
shows, and the cue ball creeps on behind a red that runs off many times faster. Unseen on the frame
after the strike, the red is found beyond its gate before the cue ball is seen moving at all; it
was taken for a new red and its own track held at its old place (``touching_ball_pushed`` on the
overhead camera, seed 1). A struck ball leaves along the line of centres: the red keeps its name
there, and only there (``AssociationConfig.push_line_deg``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from tracker_scenarios import Ball, run, still

from snooker.calibration.table import STANDARD_TABLE

D = STANDARD_TABLE.ball_diameter_mm
RED = np.array([900.0, 1500.0])
"""Where the red rests."""
LINE = np.array([math.cos(math.radians(-30.0)), math.sin(math.radians(-30.0))])
"""The line of centres, from the cue ball to the red."""
WHITE = RED - D * LINE
"""The cue ball, resting against the red."""
STRIKE_S = 0.5
RED_SPEED = 1200.0
"""The red's speed off the push (mm/s)..."""
WHITE_SPEED = 120.0
"""...and the cue ball's, creeping on (4 mm a frame at 30 fps: still within a resting ball's jitter
over the first frames)."""
HIDDEN = (STRIKE_S + 0.01, STRIKE_S + 0.04)
"""The red unseen on the frame after the strike."""


def _turned(direction: np.ndarray, degrees: float) -> np.ndarray:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return np.array([c * direction[0] - s * direction[1], s * direction[0] + c * direction[1]])


def _balls(red_off_line_deg: float) -> list[Ball]:
    red_run = _turned(LINE, red_off_line_deg)
    white_run = _turned(LINE, 25.0)
    red = Ball(
        "red",
        [(0.0, *RED), (STRIKE_S, *RED), (STRIKE_S + 1.0, *(RED + RED_SPEED * red_run))],
        hidden=[HIDDEN],
    )
    white = Ball(
        "white", [(0.0, *WHITE), (STRIKE_S, *WHITE), (STRIKE_S + 1.0, *(WHITE + WHITE_SPEED * white_run))]
    )
    return [red, white, still("black", 889.0, 3245.0)]


@pytest.mark.parametrize("off_line_deg", [0.0, 8.0])
def test_a_pushed_red_found_along_the_line_of_centres_keeps_its_name(off_line_deg: float) -> None:
    result = run(_balls(off_line_deg), duration_s=STRIKE_S + 0.5)
    state = result.states[-1]
    reds = {b.label: b for b in state.balls if b.ball == "red"}
    expected = RED + RED_SPEED * 0.5 * _turned(LINE, off_line_deg)
    assert list(reds) == ["red-1"]
    assert math.dist(reds["red-1"].xy_mm, expected) < 5.0


def test_a_red_found_off_the_line_of_centres_is_another_ball() -> None:
    """Nothing else reached the red: a red found beyond its gate across the line of centres is not
    it (no push sends a ball there); it stays held where it rested."""
    result = run(_balls(90.0), duration_s=STRIKE_S + 0.5)
    reds = {b.label: b for b in result.states[-1].balls if b.ball == "red"}
    assert math.dist(reds["red-1"].xy_mm, RED) < 5.0
    assert len(reds) == 2
