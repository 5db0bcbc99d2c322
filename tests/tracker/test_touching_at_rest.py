"""Touching judged where the cue ball came to rest, with a tolerance in image pixels.

The scenarios' camera spans 5 mm a pixel (``PX_PER_MM`` 0.2). A touch reads up to a fraction of a
pixel apart (``StrokeConfig.touching_gap_px``); a ball a pixel and a half away does not touch,
though it lies within the old tolerance (6 mm plus a pixel); a cue ball that creeps the last
centimetres to rest against a ball after the stroke is over touches it (judged on its last
sightings, not on all the frames since it stopped rolling: their average would lie beyond a
touch's pixel tolerance)."""

from __future__ import annotations

import pytest
from tracker_scenarios import PX_PER_MM, Ball, run, still

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import StrokeConfig

D = STANDARD_TABLE.ball_diameter_mm
RED_AT = (889.0, 2000.0)
WHITE_FROM = (889.0, 1200.0)
STRUCK_S = 0.5
ROLL_MM_S = 800.0
MM_PER_PX = 1.0 / PX_PER_MM
CREEP_KEYS = 8


def _white(stop_gap_mm: float, creep: tuple[float, float] | None) -> Ball:
    """The white struck at ``STRUCK_S`` up the table towards the red, stopping ``stop_gap_mm``
    short of touching it; with ``creep`` (final gap mm, seconds) it then creeps on, slowly, to
    that gap."""
    stop_y = RED_AT[1] - D - stop_gap_mm
    arrive = STRUCK_S + (stop_y - WHITE_FROM[1]) / ROLL_MM_S
    keys = [(0.0, *WHITE_FROM), (STRUCK_S, *WHITE_FROM), (arrive, WHITE_FROM[0], stop_y)]
    if creep is not None:
        # slowing to a stop, as a ball does: the gap closes as the square of the time left
        final_gap, seconds = creep
        for k in range(1, CREEP_KEYS + 1):
            left = 1.0 - k / CREEP_KEYS
            gap = final_gap + (stop_gap_mm - final_gap) * left * left
            keys.append((arrive + seconds * k / CREEP_KEYS, WHITE_FROM[0], RED_AT[1] - D - gap))
    return Ball("white", keys)


@pytest.mark.parametrize(
    ("stop_gap_mm", "creep", "expected"),
    [
        (0.2, None, True),  # rests against it
        (0.5 * MM_PER_PX, None, True),  # a touch read 0.5 px apart (rendered: up to 0.39 px)
        (1.3 * MM_PER_PX, None, False),  # 6.5 mm, 1.3 px: within the old 6 mm plus a pixel
        (1.6 * MM_PER_PX, None, False),  # 8 mm, 1.6 px: likewise
        (3.0 * MM_PER_PX, None, False),
        # a slow ball's last centimetres, slowing to a stop, the stroke already over (the rest
        # threshold passed): averaged over the frames since, the places read 4.3 and 12.2 mm apart
        (25.0, (0.2, 0.8), True),
        (40.0, (0.2, 1.2), True),
        (40.0, (1.6 * MM_PER_PX, 1.2), False),  # to rest 8 mm (1.6 px) short
    ],
)
def test_the_cue_ball_touches_a_ball_where_it_came_to_rest(stop_gap_mm, creep, expected):
    red = still("red-1", *RED_AT)
    result = run([_white(stop_gap_mm, creep), red], duration_s=6.0)
    [stroke] = result.strokes
    assert stroke.touching == (("red-1",) if expected else ())


def test_the_pixel_tolerance_is_what_a_touch_reads():
    assert StrokeConfig().touching_gap_px == pytest.approx(0.65)
    with pytest.raises(ValueError):
        StrokeConfig(touching_gap_px=-0.1)
    with pytest.raises(ValueError):
        StrokeConfig(touching_rest_sightings=0)
