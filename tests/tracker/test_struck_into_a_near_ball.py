"""A cue ball struck into a ball a few mm off hits it at once: that ball is the first contact.

A cue ball in hand placed 3-7 mm from a colour and struck through it meets it within milliseconds
of the strike and, all but stopped, is still read in its place on the first frame after while the
colour already runs: the stroke was traced back to that frame, the colour taken for a ball running
before the stroke, and no contact read (a whole frame's stroke on exact positions, the contact 3 ms
after the strike). Not touching, it is no push (``touching_moved`` stays empty). Exact positions
from the rendered clips' physics, through the tracker and the stroke segmenter."""

from __future__ import annotations

import math

import numpy as np
import pytest

from snooker.balls import ball_kind
from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.physics import Shot, simulate
from snooker.tracker import BallTracker, StrokeSegmenter
from snooker.vision.types import BallDetections

D = STANDARD_TABLE.ball_diameter_mm
PX_PER_MM = 0.5


def _strokes(gap_mm: float, speed_mm_s: float, fps: float):
    white = (600.0, 1000.0)
    layout = {"white": white, "blue": (white[0], white[1] + D + gap_mm), "red-1": (1400.0, 3000.0)}
    traj = simulate(layout, Shot(speed_mm_s, 90.0, top=0.3), fps=fps, lead_in_s=1.0, tail_s=1.5)
    times = np.arange(math.floor(traj.duration_s * fps) + 1) / fps
    places = traj.positions(times)
    tracker, segmenter, strokes = BallTracker(), StrokeSegmenter(), []
    for i, t in enumerate(times):
        seen = [(ball, xyz[i, :2]) for ball, xyz in places.items() if not np.isnan(xyz[i, 0])]
        xy = np.array([p for _, p in seen]).reshape(-1, 2)
        names = np.array([ball_kind(b) for b, _ in seen], dtype=object)
        detections = BallDetections(xy * PX_PER_MM, np.full(len(xy), 8.0), names, np.ones(len(xy)), xy)
        strokes += segmenter.push(tracker.update(i, float(t), detections))
    return strokes + segmenter.finish(tracker.finish())


@pytest.mark.parametrize(
    ("fps", "gap_mm", "speed_mm_s"), [(25.0, 6.5, 2000.0), (30.0, 3.0, 800.0), (50.0, 6.5, 1500.0)]
)
def test_a_ball_a_few_mm_off_struck_through_is_the_first_contact(fps, gap_mm, speed_mm_s):
    strokes = _strokes(gap_mm, speed_mm_s, fps)
    assert len(strokes) == 1
    assert strokes[0].first_contact == ("blue",)
    assert strokes[0].touching_moved == ()
    assert strokes[0].moving_at_strike == ()
