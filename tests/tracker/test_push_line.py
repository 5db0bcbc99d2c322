"""A red at rest touching the cue ball, pushed (3.8(b)): it may leave along the line of centres.

The cue strikes the cue ball while it touches the red: the two meet at once, at a speed no sighting
shows, and the cue ball creeps on behind a red that runs off many times faster. Unseen on the frame
after the strike, the red is found beyond its gate before the cue ball is seen moving at all; it
was taken for a new red and its own track held at its old place (``touching_ball_pushed`` on the
overhead camera, seed 1). A struck ball leaves along the line of centres: the red keeps its name
there, and only there (``AssociationConfig.push_line_deg``). So does a colour, which was taken for
a second ball of its colour and followed only through the slower duplicate takeover; and the red
is not named a new red for the frames before the cue ball is seen moving (it is found along the
line of centres from the ball that touched it when it was last seen).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from tracker_scenarios import Ball, run, still

from snooker.calibration.table import STANDARD_TABLE

D = STANDARD_TABLE.ball_diameter_mm
RED = np.array([900.0, 1500.0])
"""Where the red rests."""
LINE = np.array([math.cos(math.radians(-30.0)), math.sin(math.radians(-30.0))])
"""The line of centres, from the cue ball to the red."""
WHITE = RED - D * LINE
"""The cue ball, resting against the red."""
STRIKE_S = 0.5
RED_SPEED = 1200.0
"""The red's speed off the push (mm/s)..."""
WHITE_SPEED = 120.0
"""...and the cue ball's, creeping on (4 mm a frame at 30 fps: still within a resting ball's jitter
over the first frames)."""
HIDDEN = (STRIKE_S + 0.01, STRIKE_S + 0.04)
"""The red unseen on the frame after the strike."""


def _turned(direction: np.ndarray, degrees: float) -> np.ndarray:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return np.array([c * direction[0] - s * direction[1], s * direction[0] + c * direction[1]])


NAMES = {"red": "red-1", "blue": "blue"}
"""The ball pushed (a red, a colour) and the name the tracker gives it."""
CONFIRMED_S = HIDDEN[1] + 3 / 30
"""By when the pushed ball, seen again after ``HIDDEN``, has been seen on three frames (a new
track's ``LifecycleConfig.confirm_frames``)."""


def _pushed(ball: str, off_line_deg: float, hidden: tuple[float, float] = HIDDEN) -> Ball:
    run = _turned(LINE, off_line_deg)
    return Ball(
        ball,
        [(0.0, *RED), (STRIKE_S, *RED), (STRIKE_S + 1.0, *(RED + RED_SPEED * run))],
        hidden=[hidden],
    )


def _balls(red_off_line_deg: float, ball: str = "red") -> list[Ball]:
    white_run = _turned(LINE, 25.0)
    white = Ball(
        "white", [(0.0, *WHITE), (STRIKE_S, *WHITE), (STRIKE_S + 1.0, *(WHITE + WHITE_SPEED * white_run))]
    )
    return [_pushed(ball, red_off_line_deg), white, still("black", 889.0, 3245.0)]


@pytest.mark.parametrize("ball", sorted(NAMES))
@pytest.mark.parametrize("off_line_deg", [0.0, 8.0])
def test_a_pushed_ball_found_along_the_line_of_centres_keeps_its_name(ball: str, off_line_deg: float) -> None:
    result = run(_balls(off_line_deg, ball), duration_s=STRIKE_S + 0.5)
    state = result.states[-1]
    found = {b.label: b for b in state.balls if b.ball == ball}
    expected = RED + RED_SPEED * 0.5 * _turned(LINE, off_line_deg)
    assert list(found) == [NAMES[ball]]
    assert math.dist(found[NAMES[ball]].xy_mm, expected) < 5.0


@pytest.mark.parametrize("ball", sorted(NAMES))
def test_a_pushed_ball_is_followed_from_the_frame_it_is_named_under_its_own_name_alone(ball: str) -> None:
    """From its third sighting after the push it is shown where it is, and no frame shows it under
    another name (a new red's) meanwhile."""
    balls = _balls(0.0, ball)
    result = run(balls, duration_s=STRIKE_S + 0.5)
    for i, state in enumerate(result.states):
        names = {b.label for b in state.balls if b.ball == ball}
        assert names == {NAMES[ball]}, (i, names)
        if i / 30 >= CONFIRMED_S - 1e-9:
            shown = next(b for b in state.balls if b.label == NAMES[ball])
            assert math.dist(shown.xy_mm, balls[0].at(i / 30)) < 5.0, i


@pytest.mark.parametrize("ball", sorted(NAMES))
def test_the_stroke_reads_the_push_of_the_ball_followed(ball: str) -> None:
    """The ball taken over as it runs off is running: the stroke has it moved by the strike (a push
    stroke) and hit first, not resting where it was found again."""
    result = run(_balls(0.0, ball), duration_s=STRIKE_S + 0.5)
    assert len(result.strokes) == 1
    assert result.strokes[0].first_contact == (NAMES[ball],)
    assert result.strokes[0].touching_moved == (NAMES[ball],)
    assert math.dist(result.strokes[0].positions_before[NAMES[ball]], RED) < 5.0


def test_a_red_found_off_the_line_of_centres_is_another_ball() -> None:
    """Nothing else reached the red: a red found beyond its gate across the line of centres is not
    it (no push sends a ball there); it stays held where it rested."""
    result = run(_balls(90.0), duration_s=STRIKE_S + 0.5)
    reds = {b.label: b for b in result.states[-1].balls if b.ball == "red"}
    assert math.dist(reds["red-1"].xy_mm, RED) < 5.0
    assert len(reds) == 2


def test_a_red_found_on_the_line_long_after_it_was_lost_beside_a_ball_at_rest_is_another_ball() -> None:
    """The cue ball never moves: a red lost beside it and a red found along their line of centres
    more than a rest window later (``MotionConfig.rest_window_s``: a pushing cue ball, however slow,
    is seen moving by then) is not the red pushed; it stays held where it rested."""
    hidden = (STRIKE_S + 0.01, STRIKE_S + 0.3)
    balls = [_pushed("red", 0.0, hidden), still("white", *WHITE), still("black", 889.0, 3245.0)]
    result = run(balls, duration_s=STRIKE_S + 0.5)
    reds = {b.label: b for b in result.states[-1].balls if b.ball == "red"}
    assert math.dist(reds["red-1"].xy_mm, RED) < 5.0
    assert len(reds) == 2
