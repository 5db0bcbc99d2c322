"""A stroke played soon after the balls stopped is a stroke of its own.

A whole frame played at a quick pace (the next strike 0.8 s after the balls stopped) left the cue
ball by the baulk cushion under the player, its detected centre jumping by up to 45 mm between
frames as his body came over it (broadcast, rendered frame 0): it read moving until 0.6 s before
the strike, so the stroke's rest call (``StrokeConfig.rest_duration_s``) had not come when it was
struck, and a cue ball by a cushion is not taken for struck again (a bounce between two sightings
reads the same), so the two strokes were one. Every ball had stood still (its centre within the
onset displacement) for a moment before the strike: the stroke ended there, and the next one
starts with the strike. A cue ball struck again while a
ball of the stroke still runs still ends the stroke where it was struck (``restruck``)."""

from __future__ import annotations

import pytest
from tracker_scenarios import Ball, run, still

REST = (570.0, 60.0)
"""Where the cue ball comes to rest by the baulk cushion (table mm)."""
STOPPED_S = 2.0
JUMPS = [(2.05, 80.0), (2.2, 35.0), (2.35, 75.0), (2.5, 61.0)]
"""The cue ball's detected centre jumping along the table under the player (s, y mm)."""


def _white(strike_s: float, along_mm: float = 0.0) -> Ball:
    """The cue ball struck at 0.5 s, at rest ``along_mm`` up the table from ``REST`` from
    ``STOPPED_S`` (its centre jumping), struck again at ``strike_s``."""
    keys = [(0.0, 900.0, 1500.0), (0.5, 900.0, 1500.0), (STOPPED_S, REST[0], REST[1] + along_mm)]
    for t, y in JUMPS:
        keys += [(t - 1e-3, keys[-1][1], keys[-1][2]), (t, REST[0], y + along_mm)]
    keys += [(strike_s, REST[0], JUMPS[-1][1] + along_mm), (strike_s + 1.0, 1200.0, 1500.0)]
    return Ball("white", keys)


@pytest.mark.parametrize("fps", [25.0, 30.0, 50.0])
@pytest.mark.parametrize("still_s", [0.6, 0.25])
def test_a_cue_ball_struck_by_a_cushion_soon_after_every_ball_stopped_starts_a_stroke(
    fps: float, still_s: float
):
    """Struck ``still_s`` after its centre last jumped (0.25 s: its moving flag, up for the
    tracker's rest window after the jump, down for a frame or two only; rendered frame 0 of seed 1
    at 25 fps)."""
    strike_s = JUMPS[-1][0] + still_s
    strokes = run([_white(strike_s), still("red-1", 300.0, 3000.0)], strike_s + 2.5, fps).strokes
    assert len(strokes) == 2
    first, second = strokes
    assert abs(first.end_frame / fps - strike_s) <= 0.65
    assert abs(second.start_frame / fps - strike_s) <= 2.0 / fps
    assert first.positions_after["white"] == pytest.approx(REST, abs=25.0)
    assert second.moving_at_strike == ()


def test_a_cue_ball_struck_while_a_red_still_runs_ends_the_stroke_where_struck():
    """Away from the cushions, struck again while a red still runs: a stroke played while balls
    move (3.15), the red carried into it as running."""
    strike_s = 3.1
    red = Ball("red-1", [(0.0, 1300.0, 2000.0), (2.0, 1300.0, 2000.0), (4.0, 1300.0, 3000.0)])
    strokes = run([_white(strike_s, along_mm=600.0), red], strike_s + 3.5, 30.0).strokes
    assert len(strokes) == 2
    assert strokes[1].moving_at_strike == ("red-1",)
