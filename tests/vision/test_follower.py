"""The follower of known balls behind the motion gate, on synthetic stills with exact truth: a
moved ball is followed where a detection would find it, keeping its name, and anything the
follower cannot vouch for goes to the region search."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic import Scene, make_view, render

from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import ClassicDetector
from snooker.vision.gating import MotionGateConfig, MotionGatedDetector

SPOTS = STANDARD_TABLE.spots
RESTING = [("pink", *SPOTS["pink"]), ("black", *SPOTS["black"]), ("red", 500.0, 2600.0)]
START = ("white", 1200.0, 1000.0)


@pytest.fixture(scope="module")
def view():
    return make_view()


def _position(detections, name: str) -> np.ndarray:
    rows = np.flatnonzero(detections.ball == name)
    assert len(rows) == 1, f"{name}: {len(rows)} found"
    return detections.xy_px[rows[0]]


STEPS_MM = {
    "a small step": ([(8.0, 5.0)], 1, 1),
    "a ball's width": ([(0.0, 52.5)], 1, 1),
    "rolling on": ([(25.0, -20.0)] * 4, 1, 4),
    # A step of two ball widths is beyond the follower's reach from where the ball stood: it is
    # searched; after it the ball is looked for where its last step leads...
    "rolling fast, predicted from its last step": ([(40.0, -90.0)] * 4, 1, 3),
    # ...on the next frame when the follower is asked on every frame, else that many frames later.
    "rolling fast, the follower asked again two frames later": ([(40.0, -90.0)] * 4, 2, 2),
}


@pytest.mark.parametrize(("steps", "retry", "followed"), STEPS_MM.values(), ids=STEPS_MM.keys())
def test_a_moved_ball_is_followed_where_a_detection_finds_it(steps, retry, followed, view):
    gated = MotionGatedDetector(
        ClassicDetector(), MotionGateConfig(follow_known=True, follow_retry_frames=retry)
    )
    gated(render(Scene(balls=[*RESTING, START]), view), view)
    x, y = START[1:]
    for dx, dy in steps:
        x, y = x + dx, y + dy
        image = render(Scene(balls=[*RESTING, ("white", x, y)]), view)
        found = gated(image, view)
        detected = ClassicDetector()(image, view)
        assert np.linalg.norm(_position(found, "white") - _position(detected, "white")) < 0.25
        assert sorted(found.ball) == sorted(detected.ball)
        white = found.xy_mm[found.ball == "white"][0]
        assert np.linalg.norm(white - (x, y)) < STANDARD_TABLE.ball_diameter_mm / 4
    assert gated.counts.followed == followed
    assert gated.counts.full == 1


def test_the_follower_can_be_switched_off(view):
    gated = MotionGatedDetector(ClassicDetector(), MotionGateConfig(follow_known=False))
    gated(render(Scene(balls=[*RESTING, START]), view), view)
    gated(render(Scene(balls=[*RESTING, ("white", 1210.0, 1005.0)]), view), view)
    assert (gated.counts.followed, gated.counts.partial) == (0, 1)


PAIR = [*RESTING[:2], ("red", 1300.0, 1000.0)]
FALLBACKS = {
    "a new ball where no ball was": ([*RESTING, START], [*RESTING, START, ("blue", *SPOTS["blue"])]),
    "a new ball next to a moved one": (
        [*RESTING, START],
        [*RESTING, ("white", 1210.0, 1005.0), ("blue", 1270.0, 1005.0)],
    ),
    "a moved ball next to another": ([*PAIR, START], [*PAIR, ("white", 1235.0, 1000.0)]),
}


@pytest.mark.parametrize(("before", "after"), FALLBACKS.values(), ids=FALLBACKS.keys())
def test_what_the_follower_cannot_vouch_for_is_searched(before, after, view):
    gated = MotionGatedDetector(ClassicDetector(), MotionGateConfig(follow_known=True))
    gated(render(Scene(balls=before), view), view)
    found = gated(render(Scene(balls=after), view), view)
    assert (gated.counts.followed, gated.counts.partial) == (0, 1)
    assert found.counts() == {name: sum(b[0] == name for b in after) for name in found.counts()}


def test_two_known_balls_in_one_window_are_not_followed(view):
    detector = ClassicDetector()
    balls = [*RESTING[:2], ("red", 1300.0, 1000.0), ("white", 1230.0, 1000.0)]
    detector(render(Scene(balls=balls), view), view)
    moved = render(Scene(balls=[*balls[:3], ("white", 1222.0, 1000.0)]), view)
    white = int(np.flatnonzero(detector.scene.detections.ball == "white")[0])
    expected = detector.scene.detections.xy_px[[white]]
    assert detector.follow(moved, view, np.array([white]), expected) is None
    alone = ClassicDetector()
    alone(render(Scene(balls=[*RESTING, START]), view), view)
    row = int(np.flatnonzero(alone.scene.detections.ball == "white")[0])
    image = render(Scene(balls=[*RESTING, ("white", 1210.0, 1000.0)]), view)
    assert alone.follow(image, view, np.array([row]), alone.scene.detections.xy_px[[row]]) is not None


AT_CUSHIONS = {
    "a new ball against a side cushion": ("blue", 27.0, 1500.0),
    "a new ball against the top cushion": ("blue", 900.0, 3541.0),
}


@pytest.mark.parametrize("new", AT_CUSHIONS.values(), ids=AT_CUSHIONS.keys())
def test_a_new_ball_at_a_cushion_is_searched_while_another_rolls(new, view):
    # A ball-sized change touching the playing area's edge is a ball (one coming back, one the
    # detector lost near a pocket), not a player coming over the cushion: it is searched at once,
    # as the region search would, not left for the frame on which large regions are searched.
    gated = MotionGatedDetector(ClassicDetector(), MotionGateConfig(follow_known=True))
    gated(render(Scene(balls=[*RESTING, START]), view), view)
    found = gated(render(Scene(balls=[*RESTING, ("white", 1210.0, 1005.0), new]), view), view)
    assert (gated.counts.followed, gated.counts.partial) == (0, 1)
    assert found.counts()["blue"] == 1
