"""Whole frames played at a quick pace: the next strike soon after the balls stopped.

Exact positions from the rendered clips' physics (``snooker.datasets.synth``), strokes joined as
the simulator's player joins them, through the tracker and the stroke segmenter:

- a ball that drops into a pocket as the balls come to rest, the next stroke struck less than the
  tracker's ``pot_confirm_s`` after it vanished, is potted in its own stroke (it was added to the
  next one, and counted running at its strike: a foul);
- a cue ball potted, placed in the D and struck again 0.8 s after the balls stopped starts a
  stroke of its own (placed while its pot was being confirmed, it was a second white for good:
  the two strokes were one);
- a cue ball stunned dead into a ball a few mm off (it stops at once, the object ball leaves)
  starts a stroke, that ball its first contact (the cue ball never ran: no stroke was read);
- a cue ball that came to rest on a pocket's edge, struck out of there 0.8 s later, starts a
  stroke (the stroke held open for it to drop took its run off the edge for more of its creep).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from snooker.balls import CUE_BALL, ball_kind
from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.physics import Shot, Trajectory, simulate
from snooker.datasets.synth.player import _join
from snooker.tracker import BallTracker, StrokeSegmenter
from snooker.tracker.types import StrokeEvents
from snooker.vision.types import BallDetections

D = STANDARD_TABLE.ball_diameter_mm
PX_PER_MM = 0.5
TAIL_S = 1.5
"""Rest filmed after the last stroke (the segmenter's rest call needs 0.7 s of it)."""


def _strokes(traj: Trajectory, fps: float) -> list[StrokeEvents]:
    """The strokes the tracker and segmenter read off ``traj``'s exact positions (balls off the
    cloth's surface, falling into a pocket, unseen)."""
    times = np.arange(math.floor((traj.rest_time + TAIL_S) * fps) + 1) / fps
    places = traj.positions(times)
    tracker, segmenter, strokes = BallTracker(), StrokeSegmenter(), []
    for i, t in enumerate(times):
        seen = [
            (ball, xyz[i, :2])
            for ball, xyz in places.items()
            if np.isfinite(xyz[i]).all() and abs(xyz[i, 2] - traj.ball_radius_mm) < 1.0
        ]
        xy = np.array([p for _, p in seen]).reshape(-1, 2)
        names = np.array([ball_kind(b) for b, _ in seen], dtype=object)
        detections = BallDetections(xy * PX_PER_MM, np.full(len(xy), 8.0), names, np.ones(len(xy)), xy)
        strokes += segmenter.push(tracker.update(i, float(t), detections))
    return strokes + segmenter.finish(tracker.finish())


def _played(first: dict, shot: Shot, then: Shot, gap_s: float, fps: float, place_white=None) -> Trajectory:
    """``shot`` from ``first``, then ``then`` struck ``gap_s`` after the balls came to rest (the
    cue ball placed at ``place_white`` first, if given: in hand), joined as one frame."""
    one = simulate(first, shot, fps=fps, lead_in_s=0.5, tail_s=0.0)
    layout = dict(one.final_layout)
    if place_white is not None:
        layout[CUE_BALL] = place_white
    two = simulate(layout, then, fps=fps, lead_in_s=gap_s, tail_s=0.0)
    return _join([one, two], list(first), fps, STANDARD_TABLE)


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
@pytest.mark.parametrize("gap_s", [0.3, 0.5])
def test_a_ball_dropping_as_the_balls_stop_is_potted_in_its_own_stroke(fps: float, gap_s: float):
    """A red stunned slowly into the middle pocket drops as the last ball stops; the next stroke
    is struck ``gap_s`` later, before the tracker confirms the pot."""
    layout = {"white": (950.0, 1784.5), "red-1": (1100.0, 1784.5), "red-2": (600.0, 2800.0)}
    traj = _played(layout, Shot(900.0, 0.0), Shot(1500.0, 90.0), gap_s, fps)
    drops = [e.t for e in traj.events if e.kind == "pot"]
    rests = [e.t for e in traj.events if e.kind == "rest"]
    assert len(drops) == 1 and abs(drops[0] - rests[0]) < 0.1  # the drop ends the stroke
    strokes = _strokes(traj, fps)
    assert len(strokes) == 2
    assert [ball_kind(p.label) for p in strokes[0].potted] == ["red"]
    assert strokes[1].potted == ()
    assert strokes[1].moving_at_strike == ()


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
def test_a_cue_ball_potted_and_struck_again_from_the_d_starts_a_stroke(fps: float):
    """An in-off into the top-left pocket: the cue ball, in hand, placed in the D as the balls
    stop and struck 0.8 s later."""
    layout = {"white": (400.0, 3100.0), "red-1": (1200.0, 2400.0), "red-2": (600.0, 2800.0)}
    angle = math.degrees(math.atan2(3538.6 - 3100.0, 30.4 - 400.0))
    traj = _played(layout, Shot(1200.0, angle), Shot(1500.0, 80.0), 0.8, fps, place_white=(950.0, 650.0))
    strokes = _strokes(traj, fps)
    assert len(strokes) == 2
    assert strokes[0].cue_ball == "potted"
    assert strokes[1].cue_ball == "on_table"
    assert abs(strokes[1].start_frame / fps - traj.shots[1].time_s) <= 2.0 / fps


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
@pytest.mark.parametrize("gap_mm", [3.0, 6.0])
def test_a_cue_ball_stunned_dead_into_a_near_ball_starts_a_stroke(fps: float, gap_mm: float):
    """Struck with no spin full into a blue ``gap_mm`` off, the cue ball stops where it met it."""
    white = (600.0, 1000.0)
    layout = {"white": white, "blue": (white[0], white[1] + D + gap_mm), "red-1": (1400.0, 3000.0)}
    traj = simulate(layout, Shot(1500.0, 90.0), fps=fps, lead_in_s=1.0, tail_s=0.0)
    strokes = _strokes(traj, fps)
    assert len(strokes) == 1
    assert strokes[0].first_contact == ("blue",)
    assert abs(strokes[0].start_frame / fps - traj.shots[0].time_s) <= 2.0 / fps


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
def test_a_cue_ball_resting_on_a_pocket_edge_struck_again_starts_a_stroke(fps: float):
    """Rolled slowly into the top-left pocket's jaws, the cue ball stops on the edge (the stroke
    is held open for it to drop, 3.9(c)) and is struck out of there 0.8 s later."""
    white = (300.0, 3300.0)
    mouth = STANDARD_TABLE.pockets["top_left"].mouth_centre
    angle = math.degrees(math.atan2(mouth[1] - white[1], mouth[0] - white[0]))
    layout = {"white": white, "red-1": (1200.0, 1500.0)}
    traj = _played(layout, Shot(272.0, angle, top=0.4), Shot(1500.0, -45.0), 0.8, fps)
    first_rest = next(e.t for e in traj.events if e.kind == "rest")
    assert math.dist(traj.position(CUE_BALL, np.array([first_rest]))[0, :2], mouth) < 50.0
    strokes = _strokes(traj, fps)
    assert len(strokes) == 2
    assert abs(strokes[1].start_frame / fps - traj.shots[1].time_s) <= 2.0 / fps


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
def test_a_cue_ball_stunned_dead_into_a_near_ball_soon_after_the_last_stroke_starts_a_stroke(fps: float):
    """The cue ball comes to rest 4 mm off the blue (having hit a red away) and is stunned dead into
    it 0.3 s later, before the last stroke's rest call."""
    layout = {
        "white": (600.0, 1000.0),
        "red-2": (500.0, 1000.0),
        "blue": (519.25, 1056.5),
        "red-1": (1400.0, 3000.0),
    }
    traj = _played(layout, Shot(1000.0, 180.0), Shot(1500.0, 90.0), 0.3, fps)
    struck_at = traj.position(CUE_BALL, np.array([traj.shots[1].time_s]))[0, :2]
    assert math.dist(struck_at, traj.final_layout[CUE_BALL]) < 10.0  # it stopped where it met the blue
    strokes = _strokes(traj, fps)
    assert len(strokes) == 2
    assert strokes[1].first_contact == ("blue",)
    assert abs(strokes[1].start_frame / fps - traj.shots[1].time_s) <= 2.0 / fps
