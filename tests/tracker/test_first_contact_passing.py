"""A cue ball rolling past a ball within the contact tolerance: the blobs merge and the ball's
measured centre shifts for a frame or two (towards the cue ball, or split off away from it). It was
hit only if it did not come back to where it rested (more frames per second show more merged
frames: a 50 fps broadcast)."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.config import StrokeConfig
from snooker.tracker.events import first_contacts

FPS = 50.0
D = STANDARD_TABLE.ball_diameter_mm
GREEN = np.array([600.0, 760.0])
CUE_SPEED_MM_PER_FRAME = 14.0
PASS_FRAME = 20
"""The cue ball passes closest to the green on this frame."""


def _paths(gap_mm: float, shift_mm: float, green_after: str):
    """The cue ball rolls along x ``gap_mm`` clear of touching the green, below it (+y). On
    the two frames around its closest pass the green's centre is shifted ``shift_mm`` towards it
    (negative: away, the merged blob split off beyond it).
    ``green_after``: "stays" (back at rest), "struck" (driven off along the line of centres, away
    from the cue ball), "drifts" (off slowly along the merge's direction, ending 40 mm away)."""
    n = 60
    t = np.arange(n) / FPS
    y = GREEN[1] + D + gap_mm
    cue = np.stack([GREEN[0] + CUE_SPEED_MM_PER_FRAME * (np.arange(n) - PASS_FRAME), np.full(n, y)], 1)
    green = np.tile(GREEN, (n, 1))
    around = slice(PASS_FRAME - 1, PASS_FRAME + 1)
    green[around, 1] += shift_mm
    after = np.arange(n - PASS_FRAME - 1) + 1
    if green_after == "struck":
        green[PASS_FRAME + 1 :, 1] -= 8.0 * after
    elif green_after == "drifts":
        green[PASS_FRAME + 1 :, 1] += np.minimum(2.0 * after, 40.0)
    return t, cue, {"green": green}, {"green": GREEN}


CASES = {
    # (gap beyond touching (mm), merge shift (mm), green afterwards, hit?)
    "passed 12 mm clear, centre shifted towards it, back at rest": (12.0, 12.0, "stays", False),
    "passed 5 mm clear, back at rest": (5.0, 14.0, "stays", False),
    "passed by, centre split off away from it, back at rest": (5.0, -18.0, "stays", False),
    "struck: driven off away from the cue ball": (0.0, 12.0, "struck", True),
    "struck thinly: the merged frames lead, but it ends well away": (0.0, 12.0, "drifts", True),
}


@pytest.mark.parametrize(("gap", "shift", "after", "hit"), CASES.values(), ids=CASES.keys())
def test_a_ball_is_hit_only_if_it_left(gap, shift, after, hit):
    t, cue, paths, rest = _paths(gap, shift, after)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == (["green"] if hit else [])


@pytest.mark.parametrize(
    ("yellow_after", "hit"),
    [("corrected", False), ("corrected with jitter", False), ("driven off", True), ("crept off", True)],
)
def test_a_ball_resting_beside_the_cue_ball_whose_centre_is_corrected_as_it_leaves_was_not_hit(
    yellow_after, hit
):
    """Task2 clip 8: the cue ball rested 11 mm from the yellow at the far end of a broadcast; their
    blobs merged and the yellow's centre read 25 mm towards it. As the cue ball set off past it
    the yellow's centre read its true place, and stayed there: not a hit."""
    n, fps = 60, 30.0
    t = np.arange(n) / fps
    yellow_rest = np.array([1185.0, 724.0])  # as measured while merged, towards the cue ball
    yellow_true = yellow_rest + np.array([0.0, 25.0])
    cue_rest = yellow_rest + np.array([27.0, -58.0])
    heading = np.array([0.57, 0.82])
    cue = np.array([cue_rest + heading * 60.0 * k for k in range(n)])
    yellow = np.tile(yellow_rest, (n, 1))
    if yellow_after.startswith("corrected"):
        jitter = np.random.default_rng(1).normal(0.0, 3.0, (n - 1, 2)) if "jitter" in yellow_after else 0.0
        yellow[1:] = yellow_true + jitter
    elif yellow_after == "driven off":  # struck: off along the line of centres at 600 mm/s
        yellow[1:] = yellow_rest + np.outer(np.arange(1, n), [-6.0, 18.0])
    else:  # a fine contact: it creeps off over many frames, 50 mm in all
        yellow[1:] = yellow_rest + np.outer(np.minimum(np.arange(1, n) * 2.5, 50.0), [-0.3, 0.95])
    contacts = first_contacts(
        t, cue, {"yellow": yellow}, {"yellow": yellow_rest}, StrokeConfig(), STANDARD_TABLE
    )
    assert [c.label for c in contacts] == (["yellow"] if hit else [])
