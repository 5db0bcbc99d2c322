"""First contact when the struck ball's measured centre shifts a frame early (blobs merging)."""

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
    ("early_shift_mm", "frames_before", "found"),
    [(0.0, 0, True), (13.0, 1, True), (13.0, 3, False)],
)
def test_a_one_frame_early_shift_still_counts_as_the_cue_ball_hitting_it(
    early_shift_mm, frames_before, found
):
    t, cue, paths, rest = _paths(early_shift_mm, frames_before)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == (["red-1"] if found else [])


def test_without_the_allowance_the_early_shift_hides_the_contact():
    t, cue, paths, rest = _paths(13.0, 1)
    strict = StrokeConfig(max_onset_lead_s=0.0)
    assert first_contacts(t, cue, paths, rest, strict, STANDARD_TABLE) == ()
