"""A red the white sent running, hidden (under the cue lying on the table, the player's arm) until
after the white is struck again while it still runs: the stroke the restrike ended is no place to
judge it gone. A ball leaves the table off a cushion or into a pocket, not silently mid-run; it is
judged only once the balls have come to rest (rendered stroke_while_ball_moving seed 8 overhead at
960x540, 25 fps: the red struck at 1.2 m/s, seen on two frames only before the restrike, was
called off the table). A red that did leave the table (or went down the pocket its path led to),
never seen again, is still judged so in its own stroke."""

from __future__ import annotations

import numpy as np
import pytest
from tracker_scenarios import Ball, run, still

from snooker.balls import ball_kind
from snooker.calibration.table import STANDARD_TABLE

D = STANDARD_TABLE.ball_diameter_mm
SPOTS = STANDARD_TABLE.spots
RED_AT = np.array([600.0, 1500.0])
STRIKE_S, WHITE_MM_S, WHITE_FROM_MM = 0.5, 2000.0, 500.0
"""The white, ``WHITE_FROM_MM`` behind the red, struck at 0.5 s at 2 m/s straight at it."""
RED_RUN_S = 2.5
"""How long the red runs after the contact."""
ROLL_MM_S = 300.0
"""The white's speed on after the contact (follow-through), mm/s."""
RESTRIKE_S = 1.6
"""When the white is struck again, straight back at 400 mm/s on average, stopping 1 s later."""
UP = np.array([0.0, 1.0])
"""Straight up the table: no pocket ahead (the top corner's mouth lies 16 degrees off)."""
TO_TOP_LEFT = np.subtract(STANDARD_TABLE.pockets["top_left"].mouth_centre, RED_AT)
TO_TOP_LEFT = TO_TOP_LEFT / np.linalg.norm(TO_TOP_LEFT)
"""Straight at the top left pocket."""


def _balls(toward: np.ndarray, red_run_mm: float, hidden_until: float | None, gone: bool) -> list[Ball]:
    contact_s = STRIKE_S + (WHITE_FROM_MM - D) / WHITE_MM_S
    white_at, contact_at = RED_AT - WHITE_FROM_MM * toward, RED_AT - D * toward
    at_restrike = contact_at + ROLL_MM_S * (RESTRIKE_S - contact_s) * toward
    back = at_restrike - 400.0 * toward
    white = Ball(
        "white",
        [(t, *xy) for t, xy in [(0.0, white_at), (STRIKE_S, white_at), (contact_s, contact_at)]]
        + [(RESTRIKE_S, *at_restrike), (RESTRIKE_S + 1.0, *back)],
    )
    stop = RED_AT + red_run_mm * toward
    keys = [(0.0, *RED_AT), (contact_s, *RED_AT), (contact_s + RED_RUN_S, *stop)]
    red = Ball(
        "red",
        keys,
        hidden=[] if hidden_until is None else [(contact_s + 0.02, hidden_until)],
        gone_after=contact_s + 0.02 if gone else None,
    )
    return [white, red, still("yellow", *SPOTS["yellow"]), still("black", *SPOTS["black"])]


ROWS = {
    # Hidden from the contact until 0.4 s after the restrike, then seen running on to rest.
    "hidden-until-after-the-restrike": (UP, 1800.0, RESTRIKE_S + 0.4, False, (), ()),
    # Hidden until 1 s after the restrike (longer than a ball must be unseen to be judged gone).
    "hidden-until-a-second-after-the-restrike": (UP, 1800.0, RESTRIKE_S + 1.0, False, (), ()),
    # Sent towards a pocket, stopping 700 mm short of it, hidden until after the restrike: no pot.
    "towards-a-pocket-hidden-stops-short": (TO_TOP_LEFT, 1450.0, RESTRIKE_S + 0.4, False, (), ()),
    # Seen all the way: nothing to judge (unchanged).
    "seen-all-the-way": (UP, 1800.0, None, False, (), ()),
    # Never seen again after the contact: it left the table, judged in its own stroke once the
    # balls have come to rest (unchanged).
    "gone-for-good": (UP, 1800.0, None, True, ("red",), ()),
    # Never seen again, its path leading into a pocket: potted in its own stroke (unchanged).
    "gone-into-the-pocket-ahead": (TO_TOP_LEFT, 2150.0, None, True, (), ("red",)),
}


@pytest.mark.parametrize(
    ("toward", "run_mm", "hidden_until", "gone", "off_table", "potted"), ROWS.values(), ids=ROWS.keys()
)
@pytest.mark.parametrize("fps", [25.0, 30.0])
def test_a_ball_hidden_while_the_white_is_struck_again_is_judged_once_the_balls_rest(
    toward, run_mm, hidden_until, gone, off_table, potted, fps
):
    result = run(_balls(toward, run_mm, hidden_until, gone), duration_s=6.0, fps=fps, noise_mm=1.0)
    assert len(result.strokes) == 2
    first, second = result.strokes
    assert _kinds(first.first_contact) == ("red",)
    assert second.start_frame == pytest.approx(RESTRIKE_S * fps, abs=0.1 * fps)
    assert _kinds(first.off_table) == off_table
    assert _kinds(p.label for p in first.potted) == potted
    assert second.off_table == () and second.potted == ()
    assert ("red" in _kinds(first.positions_after)) == (not (off_table or potted))


def _kinds(labels) -> tuple[str, ...]:
    return tuple(ball_kind(label) for label in labels)
