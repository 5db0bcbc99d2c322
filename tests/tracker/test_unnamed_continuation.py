"""A fast ball blurred beyond naming continues at the detector's unnamed places near its path."""

from __future__ import annotations

import numpy as np
import pytest
from tracker_scenarios import named_and_unnamed

from snooker.tracker import BallTracker
from snooker.tracker.types import TrackStatus

FPS = 25.0
START = np.array([900.0, 800.0])
"""Where the black starts (table mm), well inside the playing area."""


def _black_status(speed_mm_s: float, unnamed_offset_mm: float | None) -> list[tuple[TrackStatus, float]]:
    """The black rolls along y at ``speed_mm_s``; on frames 12–14 it is not named, and the
    detector reports an unnamed place ``unnamed_offset_mm`` beside its true one (None: nothing).
    Returns the black's (status, y) on frames 12–14."""
    tracker = BallTracker()
    white = np.array([300.0, 300.0])
    seen = []
    for frame in range(18):
        t = frame / FPS
        black = START + np.array([0.0, speed_mm_s * max(t - 0.2, 0.0)])
        blurred = 12 <= frame <= 14
        named = {"white": white} if blurred else {"white": white, "black": black}
        found = blurred and unnamed_offset_mm is not None
        unnamed = [black + np.array([unnamed_offset_mm, 0.0])] if found else []
        state = tracker.update(frame, t, named_and_unnamed(named, unnamed))
        if blurred:
            ball = next(b for b in state.balls if b.ball == "black")
            seen.append((ball.status, ball.xy_mm[1]))
    return seen


@pytest.mark.parametrize(
    ("speed_mm_s", "offset_mm", "continued"),
    [
        (2500.0, 0.0, True),
        (2500.0, 20.0, True),
        (2500.0, None, False),
        (2500.0, 300.0, False),
        (300.0, 0.0, False),
    ],
    ids=[
        "fast, on its path",
        "fast, a little off its path",
        "fast, nothing found",
        "fast, the place far off its path",
        "slow: it keeps its colour, the place is a mark",
    ],
)
def test_a_fast_ball_continues_only_at_an_unnamed_place_near_its_prediction(
    speed_mm_s: float, offset_mm: float | None, continued: bool
) -> None:
    seen = _black_status(speed_mm_s, offset_mm)
    assert all((status == TrackStatus.VISIBLE) == continued for status, _ in seen)
    if continued:
        truth = [START[1] + speed_mm_s * (frame / FPS - 0.2) for frame in (12, 13, 14)]
        assert np.allclose([y for _, y in seen], truth)


def test_an_unnamed_place_never_starts_a_ball() -> None:
    tracker = BallTracker()
    for frame in range(10):
        state = tracker.update(
            frame, frame / FPS, named_and_unnamed({"white": np.array([300.0, 300.0])}, [START])
        )
    assert [b.ball for b in state.balls] == ["white"]


def _struck_black(trail: list[list[np.ndarray]]) -> list[TrackStatus]:
    """The black rests at START until frame 10, then shows only as the unnamed places ``trail``
    (a list of places per frame from frame 11). Returns its status on those frames."""
    tracker = BallTracker()
    white = np.array([300.0, 300.0])
    statuses = []
    for frame in range(11 + len(trail)):
        named = {"white": white} if frame > 10 else {"white": white, "black": START}
        unnamed = trail[frame - 11] if frame > 10 else []
        state = tracker.update(frame, frame / FPS, named_and_unnamed(named, unnamed))
        if frame > 10:
            statuses.append(next(b for b in state.balls if b.ball == "black").status)
    return statuses


STEP = np.array([-120.0, 50.0])
"""A struck ball's step per frame at 25 fps (3.2 m/s)."""
ASIDE = np.array([50.0, 120.0]) / 130.0 * 80.0
"""80 mm across STEP (a ball and a half to the side)."""
HELD, VISIBLE = TrackStatus.HELD, TrackStatus.VISIBLE


@pytest.mark.parametrize(
    ("trail", "expected"),
    [
        (
            [[START + STEP], [START + 2 * STEP], [START + 3 * STEP], [START + 4 * STEP]],
            [HELD, VISIBLE, VISIBLE, VISIBLE],
        ),
        ([[START + STEP], [START + STEP + STEP[::-1] * [1, -1]]], [HELD, HELD]),
        ([[START + STEP], [START + STEP]], [HELD, HELD]),
        ([[START + 5 * STEP], [START + 6 * STEP]], [HELD, HELD]),
        ([[], [], [START + 3 * STEP], [START + 4 * STEP]], [HELD, HELD, HELD, VISIBLE]),
        ([[], [], [START + 3 * STEP + ASIDE], [START + 4 * STEP + ASIDE]], [HELD, HELD, HELD, HELD]),
        (
            [[START + 0.8 * STEP, START + 1.2 * STEP], [START + 0.8 * STEP, START + 1.2 * STEP]],
            [HELD, HELD],
        ),
    ],
    ids=[
        "a straight fast trail",
        "a trail that turns",
        "a mark that stays",
        "a trail beyond its reach",
        "a straight trail after it was hidden",
        "another ball's trail running past beside it",
        "one blurred look handed on again by the detector",
    ],
)
def test_a_ball_struck_from_rest_continues_along_a_fast_straight_unnamed_trail(
    trail: list[list[np.ndarray]], expected: list[TrackStatus]
) -> None:
    assert _struck_black(trail) == expected


@pytest.mark.parametrize(
    ("second_frame_offset_mm", "continued"),
    [(0.0, False), (0.5, False), (48.0, True)],
    ids=["the same place again", "the same place within a hair", "a new place on its path"],
)
def test_a_fast_ball_does_not_continue_at_a_place_found_the_frame_before(
    second_frame_offset_mm: float, continued: bool
) -> None:
    """The black runs at 1.2 m/s (48 mm a frame: its gate reaches back to where it was); on frames
    12 and 13 it is not named. On frame 12 an unnamed place lies on its path; on frame 13 the
    detector reports that place again, moved by the offset (a motion-gated detector hands on its
    last look where it did not look again; 48 mm on is where the ball is then)."""
    tracker = BallTracker()
    white = np.array([300.0, 300.0])
    speed = 1200.0
    statuses = {}
    for frame in range(14):
        t = frame / FPS
        black = START + np.array([0.0, speed * max(t - 0.2, 0.0)])
        named = {"white": white} if frame >= 12 else {"white": white, "black": black}
        on_12 = START + np.array([0.0, speed * (12 / FPS - 0.2)])
        unnamed = {12: [on_12], 13: [on_12 + np.array([0.0, second_frame_offset_mm])]}.get(frame, [])
        state = tracker.update(frame, t, named_and_unnamed(named, unnamed))
        if frame >= 12:
            statuses[frame] = next(b for b in state.balls if b.ball == "black").status
    assert statuses[12] == VISIBLE
    assert (statuses[13] == VISIBLE) == continued
