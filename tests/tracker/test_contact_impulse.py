"""The cue ball's velocity lost in a contact (the direction the struck ball sets off in) when the
measured centres carry the detector's errors (a pixel or two: several mm at the far end)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from snooker.tracker.config import StrokeConfig
from snooker.tracker.events import _velocity_lost

FRAME_RATE_HZ = 30.0
CONTACT_FRAME = 6
CENTRE_ERROR_MM = 3.0
"""Standard deviation (mm, per axis) of the centres (a pixel at the far end of a broadcast table)."""
STROKES = {
    "full ball, cue ball stops short": ((1500.0, 0.0), (150.0, -50.0)),
    "thin cut, cue ball runs on": ((1800.0, 250.0), (900.0, -700.0)),
    "cue ball deflected back": ((-900.0, 1200.0), (-1000.0, -100.0)),
}


def _path(
    before: tuple[float, float], after: tuple[float, float], seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """A cue ball's centres at the frame rate, hitting a ball as it reaches ``CONTACT_FRAME``."""
    t = np.arange(2 * CONTACT_FRAME) / FRAME_RATE_HZ
    dt = t - t[CONTACT_FRAME]
    path = np.where((dt <= 0)[:, None], np.outer(dt, before), np.outer(dt, after))
    return t, path + np.random.default_rng(seed).normal(0.0, CENTRE_ERROR_MM, path.shape)


@pytest.mark.parametrize("before, after", STROKES.values(), ids=STROKES.keys())
def test_lost_velocity_points_where_the_struck_ball_went(before, after) -> None:
    truth = np.subtract(before, after)
    errors = []
    for seed in range(40):
        t, path = _path(before, after, seed)
        lost = _velocity_lost(t, path, CONTACT_FRAME, StrokeConfig().impulse_span_frames)
        cos = float(lost @ truth / (np.linalg.norm(lost) * np.linalg.norm(truth)))
        errors.append(math.degrees(math.acos(min(1.0, cos))))
    assert max(errors) < StrokeConfig().vanished_pot_max_angle_deg, sorted(errors)[-3:]


@pytest.mark.parametrize("found_off_by", [-1, 1], ids=["one_frame_early", "one_frame_late"])
@pytest.mark.parametrize("before, after", STROKES.values(), ids=STROKES.keys())
def test_lost_velocity_holds_where_the_contact_is_found_a_frame_off(before, after, found_off_by) -> None:
    """The contact's frame comes from centres a pixel or two off, and may be found a frame early or
    late (Task2 clip 6 at 1080 lines: the black's pot judged 19.6 degrees off its pocket)."""
    truth = np.subtract(before, after)
    errors = []
    for seed in range(40):
        t, path = _path(before, after, seed)
        lost = _velocity_lost(t, path, CONTACT_FRAME + found_off_by, StrokeConfig().impulse_span_frames)
        cos = float(lost @ truth / (np.linalg.norm(lost) * np.linalg.norm(truth)))
        errors.append(math.degrees(math.acos(min(1.0, cos))))
    assert max(errors) < StrokeConfig().vanished_pot_max_angle_deg, sorted(errors)[-3:]
