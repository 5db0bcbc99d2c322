"""The direction a hit ball that vanished was struck in, and the pocket it is judged potted in:
only a cue ball that lost a measurable velocity in the contact gives one
(``StrokeConfig.vanished_pot_min_impulse_mm_s``; table-driven)."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import events as ev
from snooker.tracker.config import StrokeConfig
from snooker.tracker.strokes import _struck_course

BY_THE_BAULK_CUSHION = np.array([792.1, 112.3])
"""Where a resting ball's second detection, named green, lay beside the cue ball resting by the
baulk cushion (Task2 clip 14 at a low bit rate)."""
CUE_AT = (804.6, 47.9)

ROWS = {
    # (the cue ball's velocity lost, mm/s; the pocket the ball is judged to head for)
    # round-off of a held path (the cue ball hidden at rest): no direction, no pocket (each of
    # these pointed at a pocket: baulk right, baulk left, the baulk pockets along the cushion)
    "round-off along +x": ((1.7e-12, 0.0), None),
    "round-off along -x": ((-3.4e-13, 0.0), None),
    "round-off along +x, a little up the table": ((1e-13, 1e-14), None),
    "30 mm/s, slower than a ball needs to reach a pocket": ((30.0, 0.0), None),
    # a cue ball that lost velocity: the struck ball's direction, as before
    "900 mm/s along +x": ((900.0, 0.0), "baulk_right"),
    "900 mm/s along -x": ((-900.0, 0.0), "baulk_left"),
}


@pytest.mark.parametrize("row", ROWS)
def test_a_hit_ball_heads_for_a_pocket_only_where_the_cue_ball_lost_velocity(row: str) -> None:
    impulse, pocket = ROWS[row]
    config = StrokeConfig()
    contact = ev.Contact("green", 2.0, 65.6, CUE_AT, impulse)
    course, momentum = _struck_course(contact, BY_THE_BAULK_CUSHION, config.vanished_pot_min_impulse_mm_s)
    assert momentum
    found = ev.pocket_ahead(BY_THE_BAULK_CUSHION, course, STANDARD_TABLE, config.vanished_pot_max_angle_deg)
    assert found == pocket, (course, found)


def test_an_unmeasured_loss_falls_back_on_the_line_of_centres() -> None:
    contact = ev.Contact("green", 2.0, 65.6, CUE_AT)
    course, momentum = _struck_course(
        contact, BY_THE_BAULK_CUSHION, StrokeConfig().vanished_pot_min_impulse_mm_s
    )
    assert not momentum
    assert np.allclose(course, BY_THE_BAULK_CUSHION - np.array(CUE_AT))


def test_a_negative_least_impulse_is_refused() -> None:
    with pytest.raises(ValueError, match="vanished_pot_min_impulse_mm_s"):
        StrokeConfig(vanished_pot_min_impulse_mm_s=-1.0)
