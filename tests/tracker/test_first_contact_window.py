"""The simultaneous-hit window, ``StrokeConfig.simultaneous_window_s``, at 50 fps: 0.02 s is one
frame there, and frame times ``i / 50`` one frame apart differ by 0.02 and a rounding more. A
rendered hit of a red and the pink at once (broadcast, 50 fps) read the pink's contact a frame
after the red's, and lost it (no foul called)."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.config import StrokeConfig
from snooker.tracker.events import first_contacts

FPS = 50.0
STEP_MM = 40.0
CONTACT_FRAME = 21
"""The cue ball's closest approach to the red; to the blue one frame later (21 / 50 and 22 / 50
differ by more than 0.02 in floating point)."""
GAP_MM = 60.0
"""How far each ball's centre is from the cue ball's at its closest: within the tight contact
tolerance, never within a diameter (the closest point is a sighting, as on a blurred hit)."""


def _paths(late_frames: int):
    """The cue ball rolling +y into the red, turned +x towards the blue for ``late_frames`` frames,
    then away from both (-y); each ball set off along its line of centres on the frame after its
    contact."""
    n = 40
    t = np.arange(n) / FPS
    k = CONTACT_FRAME
    cue = np.zeros((n, 2))
    cue[: k + 1] = np.stack([np.full(k + 1, 900.0), 1800.0 - STEP_MM * (k - np.arange(k + 1))], 1)
    turn = k + late_frames
    cue[k : turn + 1] = np.stack(
        [900.0 + STEP_MM * np.arange(late_frames + 1), np.full(late_frames + 1, 1800.0)], 1
    )
    cue[turn:] = cue[turn] - np.outer(np.arange(n - turn), [0.0, 30.0])
    red_rest = np.array([900.0, 1800.0 + GAP_MM])
    blue_rest = cue[turn] + [GAP_MM, 0.0]
    red = np.tile(red_rest, (n, 1))
    red[k + 1 :, 1] += STEP_MM * np.arange(1, n - k)
    blue = np.tile(blue_rest, (n, 1))
    blue[turn + 1 :, 0] += STEP_MM * np.arange(1, n - turn)
    return t, cue, {"red-1": red, "blue": blue}, {"red-1": red_rest, "blue": blue_rest}


@pytest.mark.parametrize(("late_frames", "expected"), [(1, ["blue", "red-1"]), (2, ["red-1"])])
def test_a_ball_met_one_frame_later_at_50_fps_is_hit_at_the_same_time(late_frames, expected):
    t, cue, paths, rest = _paths(late_frames)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert sorted(c.label for c in contacts) == expected
