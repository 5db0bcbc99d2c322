"""A fast ball blurred beyond naming continues at the detector's unnamed places near its path."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.tracker import BallTracker
from snooker.tracker.types import TrackStatus
from snooker.vision.types import BallDetections

FPS = 25.0
START = np.array([900.0, 800.0])
"""Where the black starts (table mm), well inside the playing area."""


def _detections(named: dict[str, np.ndarray], unnamed: list[np.ndarray]) -> BallDetections:
    names = list(named)
    xy = np.array([named[n] for n in names]).reshape(-1, 2)
    places = np.array(unnamed).reshape(-1, 2)
    return BallDetections(
        xy * 0.5, np.full(len(names), 8.0), names, np.full(len(names), 0.9), xy, places, places * 0.5
    )


def _black_status(speed_mm_s: float, unnamed_offset_mm: float | None) -> list[tuple[TrackStatus, float]]:
    """The black rolls along y at ``speed_mm_s``; on frames 12–14 it is not named, and the
    detector reports an unnamed place ``unnamed_offset_mm`` beside its true one (None: nothing).
    Returns the black's (status, y) on frames 12–14."""
    tracker = BallTracker()
    white = np.array([300.0, 300.0])
    seen = []
    for frame in range(18):
        t = frame / FPS
        black = START + [0.0, speed_mm_s * max(t - 0.2, 0.0)]
        blurred = 12 <= frame <= 14
        named = {"white": white} if blurred else {"white": white, "black": black}
        unnamed = [black + [unnamed_offset_mm, 0.0]] if blurred and unnamed_offset_mm is not None else []
        state = tracker.update(frame, t, _detections(named, unnamed))
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
        state = tracker.update(frame, frame / FPS, _detections({"white": np.array([300.0, 300.0])}, [START]))
    assert [b.ball for b in state.balls] == ["white"]
