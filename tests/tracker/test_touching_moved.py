"""A ball the cue ball rests against, moved with the strike (a push stroke, 3.8(b)): ``touching_moved``.

The cue ball rests touching a red; the stroke either pushes the red (it sets off with the strike,
the cue ball following into its place), plays away from it (the red stays), or plays away into a
cushion and comes back to hit the red after it got clear. Only the first moved the touching ball
with the strike; all three have the red as the first contact where it is hit.
"""

from __future__ import annotations

import pytest
from tracker_scenarios import Ball, run, still

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import StrokeConfig

D = STANDARD_TABLE.ball_diameter_mm
R = D / 2.0
SPOTS = STANDARD_TABLE.spots
STRIKE = 0.5


def _colours() -> list[Ball]:
    return [still(c, *SPOTS[c]) for c in ("yellow", "green", "brown", "blue", "black")]


def _pushed(white_at: tuple[float, float], speed: float = 1500.0) -> list[Ball]:
    """The red touching the white on its top side is pushed up the table; the white follows it."""
    red_at = (white_at[0], white_at[1] + D)
    white = Ball(
        "white", [(0, *white_at), (STRIKE, *white_at), (STRIKE + 0.4, white_at[0], white_at[1] + 120.0)]
    )
    red = Ball("red", [(0, *red_at), (STRIKE, *red_at), (STRIKE + 0.5, red_at[0], red_at[1] + speed * 0.5)])
    return [white, red]


def _played_away(white_at: tuple[float, float]) -> list[Ball]:
    """The white played down the table, away from the red touching it, which stays."""
    white = Ball(
        "white", [(0, *white_at), (STRIKE, *white_at), (STRIKE + 0.5, white_at[0], white_at[1] - 600.0)]
    )
    return [white, still("red", white_at[0], white_at[1] + D)]


def _back_off_the_cushion(speed: float = 1500.0) -> list[Ball]:
    """The white rests 150 mm off the baulk cushion touching a red above it; played down into the
    cushion, it comes back and hits the red after a cushion (a fair stroke at a red)."""
    white_at = (600.0, R + 150.0)
    red_at = (white_at[0], white_at[1] + D)
    at_cushion = STRIKE + 150.0 / speed
    contact = at_cushion + 150.0 / speed
    white = Ball(
        "white",
        [
            (0, *white_at),
            (STRIKE, *white_at),
            (at_cushion, white_at[0], R),
            (contact, *white_at),
            (contact + 0.3, *white_at),
        ],
    )
    red = Ball("red", [(0, *red_at), (contact, *red_at), (contact + 0.5, red_at[0], red_at[1] + 600.0)])
    return [white, red]


WHITE_AT = (889.0, 1200.0)


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
@pytest.mark.parametrize("noise_mm", [0.0, 1.0])
def test_a_touching_red_pushed_with_the_strike_is_written(fps, noise_mm):
    result = run([*_pushed(WHITE_AT), *_colours()], duration_s=3.0, fps=fps, noise_mm=noise_mm)
    [stroke] = result.strokes
    line = stroke.to_log_line()
    assert line["touching_moved"] == ["red"]  # a push stroke (3.8(b))
    assert line["first_contact"] == ["red"]  # the ball it pushed, set off with the strike
    assert stroke.touching_moved == ("red-1",)  # by its id, as the tracker names it


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
@pytest.mark.parametrize("noise_mm", [0.0, 1.0])
def test_a_touching_red_left_still_as_the_cue_ball_plays_away_is_not_written(fps, noise_mm):
    result = run([*_played_away(WHITE_AT), *_colours()], duration_s=3.0, fps=fps, noise_mm=noise_mm)
    [stroke] = result.strokes
    assert stroke.touching_moved == ()
    assert "touching_moved" not in stroke.to_log_line()
    assert stroke.to_analysis()["touching_moved"] == []


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
@pytest.mark.parametrize("noise_mm", [0.0, 1.0])
def test_a_touching_red_hit_later_off_a_cushion_is_not_written(fps, noise_mm):
    result = run([*_back_off_the_cushion(), *_colours()], duration_s=3.0, fps=fps, noise_mm=noise_mm)
    [stroke] = result.strokes
    line = stroke.to_log_line()
    assert line["first_contact"] == ["red"]
    assert stroke.touching_moved == ()
    assert "touching_moved" not in line


def test_a_red_pushed_from_a_cue_ball_not_touching_it_is_no_push():
    """The white 200 mm short of the red: struck into it, it follows on; a plain contact."""
    white_at = (WHITE_AT[0], WHITE_AT[1] - 200.0)
    red_at = (WHITE_AT[0], WHITE_AT[1] + D)
    contact = STRIKE + 200.0 / 1500.0
    after = (WHITE_AT[0], WHITE_AT[1] + 100.0)
    white = Ball(
        "white", [(0, *white_at), (STRIKE, *white_at), (contact, *WHITE_AT), (contact + 0.4, *after)]
    )
    red = Ball("red", [(0, *red_at), (contact, *red_at), (contact + 0.5, red_at[0], red_at[1] + 700.0)])
    [stroke] = run([white, red, *_colours()], duration_s=3.0).strokes
    assert stroke.to_log_line()["first_contact"] == ["red"]
    assert stroke.touching_moved == ()


def test_the_push_thresholds_are_lengths_and_times():
    for name in ("touching_moved_mm", "touching_clear_mm", "touching_moved_within_s"):
        with pytest.raises(ValueError, match=name):
            StrokeConfig(**{name: -1.0})
