"""First contact when the struck ball's measured centre shifts a frame early (blobs merging), and
when the cue ball is not seen where it hits (a power shot blurred out of sight)."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.config import StrokeConfig
from snooker.tracker.events import first_contacts

FPS = 30.0
D = STANDARD_TABLE.ball_diameter_mm
REST = np.array([900.0, 2000.0])
SPEED_MM_PER_FRAME = 60.0
FOLLOW_MM_PER_FRAME = 15.0
CONTACT_FRAME = 10
"""The cue ball touches the red between frames 9 and 10; the red moves from frame 10 on."""


def _paths(early_shift_mm: float, shift_frames_before: int):
    """Cue ball rolling straight at the red; the red resting, then driven on. The red's measured
    centre is shifted by ``early_shift_mm`` towards the cue ball ``shift_frames_before`` frames
    before it really moves."""
    n = 20
    t = np.arange(n) / FPS
    contact_x = REST[0] - D
    cue = np.stack(
        [contact_x - SPEED_MM_PER_FRAME * (CONTACT_FRAME - 0.5 - np.arange(n)), np.full(n, REST[1])], 1
    )
    # After the contact the cue ball follows on slowly along the same line (no deflection).
    cue[CONTACT_FRAME:, 0] = contact_x + FOLLOW_MM_PER_FRAME * np.arange(n - CONTACT_FRAME)
    red = np.tile(REST, (n, 1))
    red[CONTACT_FRAME:, 0] += SPEED_MM_PER_FRAME * (np.arange(n - CONTACT_FRAME) + 0.5)
    if shift_frames_before:
        red[CONTACT_FRAME - shift_frames_before, 0] -= early_shift_mm
    return t, cue, {"red-1": red}, {"red-1": REST}


@pytest.mark.parametrize(
    ("early_shift_mm", "frames_before", "along_the_path"),
    [(0.0, 0, True), (13.0, 1, True), (13.0, 3, False)],
)
def test_a_one_frame_early_shift_still_counts_as_the_cue_ball_hitting_it(
    early_shift_mm, frames_before, along_the_path
):
    t, cue, paths, rest = _paths(early_shift_mm, frames_before)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == ["red-1"]
    # Along the cue ball's path the contact has a closest approach; without it, the red is named
    # only as the first ball to move.
    assert np.isfinite(contacts[0].distance_mm) == along_the_path


def test_without_the_allowance_the_early_shift_leaves_only_the_first_mover():
    t, cue, paths, rest = _paths(13.0, 1)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(max_onset_lead_s=0.0), STANDARD_TABLE)
    assert [c.label for c in contacts] == ["red-1"] and np.isnan(contacts[0].distance_mm)


def _unseen_power_shot(near: str):
    """The cue ball seen at rest, then not until the end; two reds and the blue set off at once
    (a pack split at 30 fps), one red nearer the cue ball's last sighting than the other balls."""
    n = 20
    t = np.arange(n) / FPS
    cue = np.full((n, 2), np.nan)
    cue[:5] = [900.0, 700.0]
    rests = {
        "red-1": np.array([900.0, 2600.0]),
        "red-2": np.array([960.0, 2650.0]),
        "blue": np.array([889.0, 2900.0]),
    }
    if near == "blue":
        rests["blue"] = np.array([900.0, 2500.0])
    paths = {}
    for label, xy in rests.items():
        path = np.tile(xy, (n, 1))
        path[CONTACT_FRAME:, 1] += 40.0 * (np.arange(n - CONTACT_FRAME) + 1)
        paths[label] = path
    return t, cue, paths, rests


@pytest.mark.parametrize(("near", "hit"), [("red", "red-1"), ("blue", "blue")])
def test_a_cue_ball_blurred_out_of_sight_hit_the_first_ball_to_move_nearest_its_last_sighting(near, hit):
    t, cue, paths, rest = _unseen_power_shot(near)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == [hit]


def test_balls_that_never_leave_their_place_are_not_first_movers():
    t, cue, _, rest = _unseen_power_shot("red")
    still = {label: np.tile(rest[label], (len(t), 1)) for label in rest}
    assert first_contacts(t, cue, still, rest, StrokeConfig(), STANDARD_TABLE) == ()


@pytest.mark.parametrize(
    ("cue_passes_at_mm", "red_moves", "first_contact"),
    [(1200.0, "jumps", []), (D + 60.0, "jumps", []), (D + 10.0, "creeps", ["red-1"])],
    ids=["cue-ball-far-away", "cue-ball-close-by", "cue-ball-close-by-and-the-red-creeps-off"],
)
def test_a_resting_ball_whose_centre_is_measured_again_is_no_first_mover_far_from_the_cue_ball(
    cue_passes_at_mm, red_moves, first_contact
):
    # The red's centre, measured off under the player's arm, is measured again 22 mm away once
    # the arm has gone (frame 10) and stays there: it reads as a clear departure. The cue ball,
    # seen on every frame, is level with it on that frame 1.2 m away (it cannot have moved it: no
    # first contact) or within the first mover's reach: a ball set moving fast enough to cover
    # 22 mm in a frame would run on for a metre, so that jump is still a centre measured again
    # (StrokeConfig.centre_jump_max_mm; the first mover's rule took it for the red until
    # 2026-12-04). A red hit softly creeps off over many frames: that is the red.
    n = 20
    t = np.arange(n) / FPS
    cue = np.stack([REST[0] - 400.0 + 40.0 * np.arange(n), np.full(n, REST[1] - cue_passes_at_mm)], 1)
    red = np.tile(REST, (n, 1))
    if red_moves == "jumps":
        red[CONTACT_FRAME:] += [15.0, 16.0]
    else:
        red[CONTACT_FRAME:, 1] += 4.0 * (np.arange(n - CONTACT_FRAME) + 1)
    contacts = first_contacts(t, cue, {"red-1": red}, {"red-1": REST}, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == first_contact
