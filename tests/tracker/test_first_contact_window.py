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
"""How far the red's centre is from the cue ball's at its closest: within the tight contact
tolerance, never within a diameter (the closest point is a sighting, as on a blurred hit)."""
SIDE_STEP_MM = 10.0
"""How far a frame the cue ball runs on sideways after the red, towards the blue."""
BLUE_OFFSET_MM = (45.0, 50.0)
"""Where the blue rests from the cue ball's sighting after its sideways run: 69.5 mm from where
the cue ball's line of approach touches the red (within a diameter and the tight tolerance: hit
at once), 74.3 mm from its sighting at the red's contact."""


def _paths(late_frames: int):
    """The cue ball rolling +y into the red, running on sideways (+x) for ``late_frames`` frames,
    then away from both (-y); each ball set off along its line of centres on the frame after its
    contact."""
    n = 40
    t = np.arange(n) / FPS
    k = CONTACT_FRAME
    cue = np.zeros((n, 2))
    cue[: k + 1] = np.stack([np.full(k + 1, 900.0), 1800.0 - STEP_MM * (k - np.arange(k + 1))], 1)
    turn = k + late_frames
    sideways = 900.0 + SIDE_STEP_MM * np.arange(late_frames + 1)
    cue[k : turn + 1] = np.stack([sideways, np.full(late_frames + 1, 1800.0)], 1)
    cue[turn:] = cue[turn] - np.outer(np.arange(n - turn), [0.0, 30.0])
    red_rest = np.array([900.0, 1800.0 + GAP_MM])
    blue_rest = cue[turn] + BLUE_OFFSET_MM
    red = np.tile(red_rest, (n, 1))
    red[k + 1 :, 1] += STEP_MM * np.arange(1, n - k)
    heading = np.asarray(BLUE_OFFSET_MM) / np.linalg.norm(BLUE_OFFSET_MM)
    blue = np.tile(blue_rest, (n, 1))
    blue[turn + 1 :] += np.outer(STEP_MM * np.arange(1, n - turn), heading)
    return t, cue, {"red-1": red, "blue": blue}, {"red-1": red_rest, "blue": blue_rest}


@pytest.mark.parametrize(("late_frames", "expected"), [(1, ["blue", "red-1"]), (3, ["red-1"])])
def test_a_ball_met_one_frame_later_at_50_fps_is_hit_at_the_same_time(late_frames, expected):
    t, cue, paths, rest = _paths(late_frames)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert sorted(c.label for c in contacts) == expected


@pytest.mark.parametrize(
    ("blue_offset_mm", "expected"),
    [((68.0, -15.0), ["red-1"]), ((68.0, -40.0), ["red-1"]), ((52.0, 50.0), ["blue", "red-1"])],
    ids=["19-mm-clear", "30-mm-clear", "15-mm-clear-within-tolerance"],
)
def test_a_ball_the_cue_ball_passed_clear_of_is_not_hit_with_the_one_it_met(blue_offset_mm, expected):
    # The cue ball's sightings come within the tight tolerance of the blue a moment before the red
    # (a chord of the path), and the blue sets off with the red, away from the cue ball; but where
    # the cue ball's line of approach touched the red, the blue was 19 or 30 mm clear of it, beyond
    # the tight tolerance (a cluster: the blue moved by the red, or met after the deflection).
    # 15 mm clear is within the tolerance of a measured contact: hit at once.
    t, cue, paths, rest = _paths(0)
    k = CONTACT_FRAME
    blue_rest = cue[k] + blue_offset_mm
    blue = np.tile(blue_rest, (len(t), 1))
    heading = (
        np.array([1.0, 0.0])
        if blue_offset_mm[1] < 0
        else np.asarray(blue_offset_mm) / np.hypot(*blue_offset_mm)
    )
    blue[k + 1 :] += np.outer(STEP_MM * np.arange(1, len(t) - k), heading)
    paths["blue"], rest["blue"] = blue, blue_rest
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert sorted(c.label for c in contacts) == expected
