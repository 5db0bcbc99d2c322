"""A ball whose measured centre moves towards the cue ball as it comes by was not hit by it.

A struck ball leaves along the line of centres, away from the cue ball. On a coarsely compressed
frame a resting ball's look flattens, and its measured centre is pulled towards the blob of the
cue ball coming by (Task2 clip 11 at a low bit rate: a green's centre 28-31 mm off its place
towards the cue ball on three frames, then unseen, then back 17 mm off it; the cue ball passed
75 mm from it, a diameter and 22 mm, and went on to pot a red at the far end). Taken for the first
ball to move, it overruled the red's contact.
"""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.config import StrokeConfig
from snooker.tracker.events import first_contacts

FPS = 30.0
D = STANDARD_TABLE.ball_diameter_mm
GREEN = np.array([500.0, 500.0])
BY_THE_CUSHION = np.array([40.0, 500.0])
"""A green resting 14 mm from the side cushion (the line a ball touching it has its centre on)."""
STEP = 118.0
"""The cue ball's step a frame (3.5 m/s at 30 fps)."""
N = 90


def _paths(green_at: np.ndarray, shift: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict, dict]:
    """The cue ball at rest until frame 20, then rolling up the table 75 mm off the centre of the
    green at ``green_at`` (a diameter and 22 mm) straight at a red, which it hits full between
    frames 43 and 44 (the red running on from frame 44); the green's centre ``shift`` off its
    place on frames 22-24 (as the cue ball comes within 105 mm of it), unseen on 25-59, then 17 mm
    off it to the end."""
    t = np.arange(N) / FPS
    lane_x = green_at[0] + 75.0
    red_at = np.array([lane_x, 3000.0])
    y = np.clip(190.0 + STEP * (np.arange(N) - 20), 190.0, red_at[1] - D)
    cue = np.stack([np.full(N, lane_x), y], axis=1)
    red = np.tile(red_at, (N, 1))
    red[44:, 1] += 60.0 * np.arange(1, N - 43)
    green = np.tile(green_at, (N, 1))
    green[22:25] = green_at + shift
    green[25:60] = np.nan
    green[60:] = green_at + np.array([0.0, -17.0])
    paths = {"green": green, "red-1": red}
    return t, cue, paths, {"green": green_at, "red-1": red_at}


@pytest.mark.parametrize(
    ("green_at", "shift", "first"),
    [
        (GREEN, np.array([9.0, -30.0]), ["red-1"]),
        (GREEN, np.array([-30.0, 9.0]), ["green"]),
        (BY_THE_CUSHION, np.array([30.0, -9.0]), ["green"]),
    ],
    ids=[
        "its centre pulled towards the cue ball coming up the table",
        "set off away from it",
        "towards it, but from beside a cushion it may have come back off",
    ],
)
def test_a_ball_moving_first_towards_the_cue_ball_does_not_overrule_its_contact(
    green_at, shift, first
) -> None:
    t, cue, paths, rest = _paths(green_at, shift)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == first


def test_a_blurred_pass_long_before_the_contact_does_not_say_the_blow_s_side() -> None:
    """The cue ball runs past a red early in the stroke, its blurred place measured over the red
    (12 mm from it) on one frame, goes on to the cushion and comes back slowly to hit the red from
    the other side, which leaves away from it (rendered touching_ball seed 8, a 960 x 540
    broadcast at 25 fps: judged from the early pass, the red set off "towards" the cue ball and
    the first contact was lost)."""
    t = np.arange(N + 40) / FPS
    red_at = np.array([500.0, 1600.0])
    towards_cue = np.array([1.0, -0.6]) / np.linalg.norm([1.0, -0.6])
    contact_at = red_at + D * towards_cue
    waypoints = [(0, (170.0, 1700.0)), (10, (170.0, 1700.0)), (35, (1700.0, 1700.0)), (80, tuple(contact_at))]
    frames = np.arange(len(t))
    cue = np.stack(
        [np.interp(frames, [f for f, _ in waypoints], [xy[k] for _, xy in waypoints]) for k in (0, 1)], axis=1
    )
    cue[15] = red_at + np.array([-5.0, 11.0])
    red = np.tile(red_at, (len(t), 1))
    red[81:96] = red_at - towards_cue * 8.0 * np.arange(1, 16)[:, None]
    red[96:] = red[95]
    paths = {"red-1": red}
    contacts = first_contacts(t, cue, paths, {"red-1": red_at}, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == ["red-1"]
