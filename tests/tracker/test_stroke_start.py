"""A stroke starts when the cue ball sets off, also when it is missed on frames as it runs."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.tracker import StrokeSegmenter
from snooker.tracker.types import BallState, TableState, TrackStatus

FPS = 30.0
REST = np.array([900.0, 800.0])
"""Where the cue ball rests before the stroke (table mm)."""
VELOCITY = np.array([0.0, 3000.0])
"""The struck cue ball's velocity (mm/s): 100 mm a frame."""
RED = (300.0, 3000.0)
"""A red at rest far from the cue ball's path."""


def _states(script: str) -> list[TableState]:
    """One table state per character of ``script``, for the cue ball: ``r`` seen at rest where it
    rests, ``-`` not seen (held where it was last seen, moving if it was), ``m`` seen running from
    where it rests, set off on the first frame after it was last seen at rest, ``j`` seen once off
    its place (a detected centre that jumps)."""
    states = []
    set_off = None
    held_xy, held_moving = REST, False
    for frame, code in enumerate(script):
        t = frame / FPS
        if code == "r":
            set_off = None
        elif set_off is None:
            set_off = t
        if code == "-":
            xy, status, moving = held_xy, TrackStatus.HELD, held_moving
        else:
            running = code in "mj"
            xy = REST + VELOCITY * (t - set_off + 1.0 / FPS) if code == "m" else REST
            xy = xy + np.array([40.0, 0.0]) if code == "j" else xy
            status, moving = TrackStatus.VISIBLE, running
            held_xy, held_moving = xy, moving
        cue = BallState(1, "white", (float(xy[0]), float(xy[1])), status, moving)
        red = BallState(2, "red-1", RED, TrackStatus.VISIBLE, False)
        states.append(TableState(frame, t, (cue, red)))
    return states


AT_REST = "r" * 12
"""The cue ball seen at rest on frames 0–11."""


@pytest.mark.parametrize(
    ("script", "start_frames"),
    [
        (AT_REST + "rrrrrr", []),
        (AT_REST + "mmmmmm", [12]),
        (AT_REST + "--mmmm", [12]),
        (AT_REST + "-m-m-m", [12]),
        (AT_REST + "--m--m--m", [12]),
        (AT_REST + "jrrrrr", []),
        (AT_REST + "m--------m", []),
    ],
    ids=[
        "at rest throughout",
        "seen running throughout",
        "missed on two frames, found running",
        "found running on every other frame",
        "found running on every third frame",
        "a centre that jumps once",
        "two running sightings too far apart",
    ],
)
def test_a_stroke_starts_on_the_frame_the_cue_ball_left_its_place(
    script: str, start_frames: list[int]
) -> None:
    segmenter = StrokeSegmenter()
    strokes = []
    for state in _states(script):
        strokes += segmenter.push(state)
    strokes += segmenter.finish()
    assert [stroke.start_frame for stroke in strokes] == start_frames
