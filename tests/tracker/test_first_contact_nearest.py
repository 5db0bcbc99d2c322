"""First contacts read where the cue ball's path reached the ball, a first mover set off by the
ball hit, and a thin cut's turn read across the step that holds it.

Found on simulated shots never looked at before (``scripts/eval_shots_sim.py`` seed 7):
- the contact tolerance is for the centres' errors, but the contact was read on the first step
  that came within a diameter and the tolerance, though the next came nearer: a cue ball unseen
  a frame before it hit two touching balls, filled in on a straight line 69 mm from one of them,
  read as hitting that one a frame early, alone, and the other (clearly moving first) then
  overruled that guessed contact (spread, 30 fps);
- a ball hit full 13 mm from another passes the blow on and barely moves: the other is the first
  to move, and overruled the contact read on the path where the cue ball was unseen at the step
  that reached the ball (cluster, 50 fps);
- a thin cut at 5.9 m/s, 25 fps: the step's chord passed 73 mm off the red (the loose tolerance,
  which needs the path to turn) and the turn was read between that chord, already partly turned,
  and the step after the next (cluster, 25 fps).
"""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker.config import StrokeConfig
from snooker.tracker.events import first_contacts

D = STANDARD_TABLE.ball_diameter_mm
LEFT = np.array([500.0 - D / 2.0, 1000.0])
RIGHT = np.array([500.0 + D / 2.0, 1000.0])
"""Two balls touching side by side, square to the cue ball's line."""


def _pair_hit_at_once(cue_x: float, hidden_before: bool) -> tuple[np.ndarray, np.ndarray, dict, dict]:
    """At 30 fps the cue ball rolls up the table at x = ``cue_x`` (20 mm a frame from frame 10),
    is seen at y = 935 on frame 29 (unseen there if ``hidden_before``) and stops at y = 955 on
    frame 30, between the two touching balls, which set off from frame 31 away from it, the green
    at 12 mm a frame and the black at 25 (so the black alone clearly moves first)."""
    n, fps = 60, 30.0
    t = np.arange(n) / fps
    y = 955.0 - 20.0 * np.clip(30 - np.arange(n), 0, 20)
    cue = np.stack([np.full(n, cue_x), y], axis=1)
    if hidden_before:
        cue[29] = np.nan
    run = np.clip(np.arange(n) - 30, 0, None)[:, None]
    left = LEFT + run * 12.0 * np.array([-0.5, 0.866])
    right = RIGHT + run * 25.0 * np.array([0.5, 0.866])
    return t, cue, {"green": left, "black": right}, {"green": LEFT, "black": RIGHT}


@pytest.mark.parametrize(
    ("cue_x", "hidden_before", "first"),
    [
        (492.0, False, ["black", "green"]),
        (492.0, True, ["black", "green"]),
        (500.0, True, ["black", "green"]),
    ],
    ids=[
        "seen 67 mm from the green (within the tolerance), 74 from the black, a frame before",
        "unseen there, filled in on a straight line",
        "unseen there, midway between them: 70 mm from both",
    ],
)
def test_a_contact_is_read_where_the_cue_ball_came_nearest(cue_x, hidden_before, first) -> None:
    t, cue, paths, rest = _pair_hit_at_once(cue_x, hidden_before)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert sorted(c.label for c in contacts) == first


HIT = np.array([500.0, 1000.0])
HIT_BALL_STEPS = np.array(
    [[0.0, 8.0], [-3.0, 14.0], [-9.0, 15.0], [-15.0, 15.0], [-21.0, 15.0], [-25.0, 15.0]]
)
"""The ball hit full passing the blow on: 8 and 14 mm on, then sliding off sideways to 29 mm."""


def _full_hit_next_to(beyond_mm: float) -> tuple[np.ndarray, np.ndarray, dict, dict]:
    """At 50 fps the cue ball rolls up the table at 40 mm a frame (2 m/s) from frame 20, unseen on
    frame 38, and stops where it hits a red full on frame 39; the red moves as
    ``HIT_BALL_STEPS`` from frame 40 and stops; a second red resting ``beyond_mm`` beyond
    touching it, straight behind, runs on up the table from frame 41 at 1.5 m/s."""
    n, fps = 90, 50.0
    t = np.arange(n) / fps
    contact_y = HIT[1] - D
    y = np.clip(200.0 + 40.0 * (np.arange(n) - 20), 200.0, contact_y)
    cue = np.stack([np.full(n, HIT[0]), y], axis=1)
    cue[38] = np.nan
    hit = np.tile(HIT, (n, 1))
    hit[40 : 40 + len(HIT_BALL_STEPS)] += HIT_BALL_STEPS
    hit[40 + len(HIT_BALL_STEPS) :] += HIT_BALL_STEPS[-1]
    behind_at = HIT + np.array([0.0, D + beyond_mm])
    behind = np.tile(behind_at, (n, 1))
    behind[41:, 1] += 30.0 * np.arange(1, n - 40)
    return t, cue, {"red-1": hit, "red-2": behind}, {"red-1": HIT, "red-2": behind_at}


@pytest.mark.parametrize(
    ("beyond_mm", "first"),
    [(13.0, ["red-1"]), (150.0, ["red-2"])],
    ids=[
        "the ball behind, 13 mm beyond touching, set off by the ball hit",
        "a ball far beyond, which the ball hit never reached: it moved first, the guess is overruled",
    ],
)
def test_a_first_mover_set_off_by_the_ball_hit_does_not_overrule_it(beyond_mm, first) -> None:
    t, cue, paths, rest = _full_hit_next_to(beyond_mm)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == first


def _thin_cut(perp_mm: float, before_contact: float) -> tuple[np.ndarray, np.ndarray, dict, dict]:
    """At 25 fps the cue ball rolls up the table at 236 mm a frame (5.9 m/s) on a line
    ``perp_mm`` off red-1's centre and meets it ``before_contact`` of a frame after frame 30;
    both leave as equal balls do (the red along the line of centres, the cue ball square to it)
    and 2.5 frames later the cue ball hits red-2 full, stops, and red-2 runs on."""
    n, fps, step, on_to_next = 60, 25.0, 236.0, 2.5
    t = np.arange(n) / fps
    red_at = np.array([500.0, 1000.0])
    meet = red_at - np.array([perp_mm, np.sqrt(D * D - perp_mm * perp_mm)])
    centres = (red_at - meet) / D
    cue_after = np.array([0.0, 1.0]) - centres[1] * centres
    heading = cue_after / np.linalg.norm(cue_after)
    next_at = meet + on_to_next * step * cue_after + D * heading
    since = np.arange(n, dtype=float)[:, None] - 30.0 - before_contact
    cue = (
        meet
        + np.clip(since, -8.0 - before_contact, 0.0) * step * np.array([0.0, 1.0])
        + np.clip(since, 0.0, on_to_next) * step * cue_after
    )
    red = red_at + np.clip(since, 0.0, 6.0) * step * centres[1] * centres
    next_red = next_at + np.clip(since - on_to_next, 0.0, 6.0) * step * cue_after
    return t, cue, {"red-1": red, "red-2": next_red}, {"red-1": red_at, "red-2": next_at}


@pytest.mark.parametrize(
    ("before_contact", "first"),
    [(0.3, ["red-1"]), (0.1, ["red-1"])],
    ids=[
        "the chord of the step passes 72 mm off (the loose tolerance), turned 8 of the 24 degrees",
        "the chord passes 61 mm off (the tight tolerance)",
    ],
)
def test_a_thin_cut_s_turn_is_read_across_the_step_that_holds_it(before_contact, first) -> None:
    """A thin cut at speed turns the cue ball 24 degrees within a frame: the chord of that step,
    partly turned, is within 4-8 degrees of the step after the next (``scripts/eval_shots_sim.py``
    seed 7, clusters at 25 fps: the contact was lost, and the next ball hit taken for the first)."""
    t, cue, paths, rest = _thin_cut(48.0, before_contact)
    contacts = first_contacts(t, cue, paths, rest, StrokeConfig(), STANDARD_TABLE)
    assert [c.label for c in contacts] == first
