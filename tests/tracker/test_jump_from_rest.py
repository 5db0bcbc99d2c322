"""A ball at rest taken to something named like it as it was struck follows the trail it ran off on.

As a cue ball is struck it blurs beyond naming, and the player's bridge hand behind it may be named
white on the same frame: the re-association pass (reaching as far as a struck ball runs in a
frame) takes the white there, the hand stays put, and the real ball shows only as unnamed places
running off the other way (Task2 clip 3 on a more saturated look, 30 fps).
"""

from __future__ import annotations

import numpy as np
import pytest
from tracker_scenarios import named_and_unnamed

from snooker.tracker import BallTracker, StrokeSegmenter
from snooker.tracker.types import TrackStatus

FPS = 30.0
REST = np.array([340.0, 3070.0])
"""Where the cue ball rests until frame 10 (table mm)."""
STEP = np.array([35.0, -165.0])
"""The struck cue ball's step a frame (5 m/s at 30 fps), down the table."""
BLACK = np.array([1000.0, 50.0])
"""A black at rest far from everything."""
HAND = REST - STEP / np.linalg.norm(STEP) * 314.0
"""A patch of the bridge hand 314 mm behind the cue ball, on the cue's line."""
AHEAD = REST + STEP / np.linalg.norm(STEP) * 314.0
"""As far on the cue ball's way (a ball it hit, stopped there)."""


def _struck(white_at: np.ndarray | None, trail: dict[int, int]) -> tuple[list, list]:
    """The cue ball rests at REST until frame 10; from frame 11 it is not named, something named
    white sits at ``white_at`` (None: nothing), and the unnamed place of frame f is the ball's
    place ``trail[f]`` steps from REST (the detector's look of an earlier frame handed on where a
    step repeats). Returns the white's (status, place) per frame from 11, and the strokes."""
    tracker = BallTracker()
    segmenter = StrokeSegmenter()
    seen, strokes = [], []
    for frame in range(40):
        named = {"black": BLACK}
        if frame <= 10:
            named["white"] = REST
        elif white_at is not None:
            named["white"] = white_at
        unnamed = [REST + trail[frame] * STEP] if frame in trail else []
        state = tracker.update(frame, frame / FPS, named_and_unnamed(named, unnamed))
        strokes += segmenter.push(state)
        if frame > 10:
            white = next(b for b in state.balls if b.label == "white")
            seen.append((white.status, np.array(white.xy_mm)))
    return seen, strokes + segmenter.finish()


RUN = {f: f - 10 for f in range(14, 22)}
"""Unnamed from frame 14 on (lost to its blur on frames 11-13), a new place every frame."""
RUN_REPEATED = {**RUN, 15: 4}
"""The same, frame 15 handing on frame 14's look."""
LATE = {f: f - 10 for f in range(18, 24)}
"""Unnamed only from frame 18 on (0.27 s after it was last seen at rest)."""


@pytest.mark.parametrize(
    ("white_at", "trail", "follows_trail"),
    [
        (HAND, RUN, True),
        (HAND, RUN_REPEATED, True),
        (AHEAD, RUN, False),
        (HAND, LATE, False),
        (HAND, {}, False),
    ],
    ids=[
        "a hand behind it named white, the ball's trail ahead",
        "the same, one frame of the trail handed on again",
        "taken to a place on its way, the trail running on past it (a ball it hit)",
        "a trail that starts too long after it was last seen at rest",
        "no trail: the jump stands",
    ],
)
def test_a_ball_taken_from_rest_follows_a_trail_leaving_it_the_other_way(
    white_at: np.ndarray, trail: dict[int, int], follows_trail: bool
) -> None:
    seen, _ = _struck(white_at, trail)
    status, xy = seen[21 - 11]
    on_trail = status == TrackStatus.VISIBLE and np.allclose(xy, REST + trail.get(21, 0) * STEP)
    assert on_trail == follows_trail
    if not follows_trail:
        assert all(np.allclose(xy, white_at) for status, xy in seen if status == TrackStatus.VISIBLE)


def test_the_stroke_of_a_ball_taken_back_from_a_hand_sets_off_from_its_place() -> None:
    """One stroke, from the frame after it was last seen at rest, the cue ball where it rested;
    its sightings at the hand are not taken for a stop and a second strike."""
    _, strokes = _struck(HAND, RUN_REPEATED)
    assert len(strokes) == 1
    assert strokes[0].start_frame == 11
    assert np.allclose(strokes[0].positions_before["white"], REST)


@pytest.mark.parametrize(
    ("trail", "expected"),
    [
        ({11: 1, 12: 1, 13: 3, 14: 4}, ["held", "held", "visible", "visible"]),
        ({11: 1, 13: 3, 14: 4}, ["held", "held", "visible", "visible"]),
    ],
    ids=["a straight trail, its second frame handed on", "a straight trail, a frame with no place in it"],
)
def test_a_ball_lost_at_rest_follows_a_trail_across_a_frame_handed_on(
    trail: dict[int, int], expected: list[str]
) -> None:
    """The cue ball, at rest until frame 10, shows only as unnamed places from frame 11; a frame
    whose place repeats the one before is no new sighting, and the trail skips it, as it skips a
    frame with none (the trail's first place may be on any frame within
    ``AssociationConfig.unnamed_max_lost_s``)."""
    seen, _ = _struck(None, trail)
    assert [status.name.lower() for status, _ in seen[:4]] == expected
