"""A second track of a unique colour (a duplicate) judged again on later frames: the ball lost and
seen again elsewhere takes its label there; two detections of one colour at once do not merge."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from tracker_scenarios import Ball, run, still

from snooker.calibration.table import STANDARD_TABLE
from snooker.tracker import BallTracker, TrackerConfig
from snooker.tracker.config import LifecycleConfig

LIFE = LifecycleConfig()
FPS = 30.0
OLD = STANDARD_TABLE.spots["black"]
NEW = (1300.0, 900.0)
"""Where the black is seen again: far beyond any reach in the time it was unseen."""
LOST_AT = 1.0
FOUND_AT = LOST_AT + 0.15


def _black_positions(result, at_s: float) -> list[tuple[float, float]]:
    state = result.states[round(at_s * FPS)]
    return [b.xy_mm for b in state.balls if b.label == "black"]


def _near(p, q, tolerance_mm: float = 5.0) -> bool:
    return math.dist(p, q) <= tolerance_mm


SHORT_S = LIFE.duplicate_takeover_s / 2
"""A sighting elsewhere shorter than the duplicate takeover."""

CASES = {
    # the black lost at its spot and seen again far away too soon to be reachable, then steadily
    "lost-and-seen-elsewhere": (
        [
            Ball("black", [(0.0, *OLD)], gone_after=LOST_AT),
            Ball("black", [(0.0, *NEW)], hidden=[(0.0, FOUND_AT)]),
        ],
        NEW,
        (),
    ),
    # the same while moving: struck towards the middle, lost, found far off in the baulk
    "lost-running-and-seen-elsewhere": (
        [
            Ball("black", [(0.0, *OLD), (0.5, *OLD), (LOST_AT, 889.0, 2600.0)], gone_after=LOST_AT),
            Ball("black", [(0.0, *NEW)], hidden=[(0.0, FOUND_AT)]),
        ],
        NEW,
        (),
    ),
    # two detections named black at once all along: the first confirmed keeps the label
    "both-seen-at-once": (
        [still("black", *OLD), Ball("black", [(0.0, *NEW)], hidden=[(0.0, 0.5)])],
        OLD,
        (),
    ),
    # both seen at once, then the black hidden (a player's arm) for less than long_absence_s
    "both-seen-then-the-ball-hidden-a-while": (
        [
            Ball("black", [(0.0, *OLD)], hidden=[(LOST_AT, LOST_AT + LIFE.long_absence_s - 0.5)]),
            Ball("black", [(0.0, *NEW)], hidden=[(0.0, 0.5)]),
        ],
        OLD,
        (LOST_AT + 1.0,),
    ),
    # a short sighting elsewhere while the black is hidden stays a duplicate
    "short-sighting-elsewhere-while-hidden": (
        [
            Ball("black", [(0.0, *OLD)], hidden=[(LOST_AT, LOST_AT + 2.0)]),
            Ball("black", [(0.0, *NEW)], hidden=[(0.0, FOUND_AT)], gone_after=FOUND_AT + SHORT_S),
        ],
        OLD,
        (FOUND_AT + SHORT_S * 0.8,),
    ),
}


@pytest.mark.parametrize(("balls", "expected", "also_at_s"), CASES.values(), ids=CASES.keys())
def test_the_black_is_where_it_was_last_seen_steadily_once_its_old_track_has_been_unseen_long(
    balls, expected, also_at_s
):
    duration = LOST_AT + LIFE.long_absence_s + 1.0
    result = run([*balls, still("white", 600.0, 1200.0)], duration_s=duration, fps=FPS, noise_mm=1.0)
    for at_s in (*also_at_s, LOST_AT + LIFE.long_absence_s + 0.1, duration):
        blacks = _black_positions(result, at_s)
        assert len(blacks) == 1
        assert _near(blacks[0], expected, tolerance_mm=10.0)


def test_a_pot_candidate_seen_again_far_from_its_pocket_is_not_found_there():
    """A black lost running into a pocket is a pot candidate (kept pending here long enough for the
    duplicate to be judged again): a black seen far from that pocket is not it."""
    mouth = STANDARD_TABLE.pockets["top_left"].mouth_centre
    start = (300.0, 3300.0)
    black = Ball("black", [(0.0, *start), (0.5, *start), (0.6, *mouth)], gone_after=0.58)
    ghost = Ball("black", [(0.0, *NEW)], hidden=[(0.0, 0.8)])
    life = replace(LIFE, pot_confirm_s=60.0)
    tracker = BallTracker(TrackerConfig(lifecycle=life))
    result = run([black, ghost, still("white", 600.0, 1200.0)], duration_s=5.0, fps=FPS, tracker=tracker)
    blacks = _black_positions(result, 5.0)
    assert len(blacks) == 1
    assert not _near(blacks[0], NEW, tolerance_mm=200.0)
