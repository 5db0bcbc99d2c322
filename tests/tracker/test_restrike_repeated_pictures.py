"""A video that shows some pictures twice (a broadcast carried at a higher frame rate than it was
filmed at) is not a cue ball struck again: a repeated picture adds no time to a ball's speed."""

from __future__ import annotations

import pytest

from snooker.tracker import StrokeSegmenter
from snooker.tracker.types import BallState, TableState, TrackStatus

FPS = 30.0
RED = (300.0, 3000.0)
"""A red at rest far from the cue ball's path (table mm)."""

TASK2_CLIP_14 = [
    (96, (804.1, 32.0), (659.0, 146.0)),
    (97, (804.1, 32.0), (659.0, 146.0)),
    (98, (804.1, 32.0), (659.0, 146.0)),
    (99, (804.1, 32.0), (659.0, 146.0)),
    (100, (804.1, 32.0), (659.0, 146.0)),
    (101, (804.1, 32.0), (659.0, 146.0)),
    (102, (804.1, 32.0), (659.0, 146.0)),
    (103, (804.1, 32.0), (659.0, 146.0)),
    (104, (819.7, 125.8), (655.33, 154.18)),
    (105, (832.4, 155.2), (652.25, 156.77)),
    (106, (832.4, 155.2), (652.25, 156.77)),
    (107, (847.7, 247.8), (648.55, 165.03)),
    (108, (860.8, 315.6), (645.35, 171.16)),
    (109, (860.8, 315.6), (645.35, 171.16)),
    (110, (886.3, 497.6), (639.0, 188.0)),
    (111, (902.3, 521.1), (634.88, 190.23)),
    (112, (902.3, 521.1), (634.88, 190.23)),
    (113, (913.9, 591.1), (631.91, 196.89)),
    (114, (927.1, 656.3), (628.46, 203.17)),
    (115, (927.1, 656.3), (628.46, 203.17)),
    (116, (954.6, 791.9), (621.13, 216.49)),
    (117, (966.5, 857.5), (617.89, 223.06)),
    (118, (967.1, 859.1), (617.72, 223.22)),
    (119, (979.0, 925.2), (614.44, 229.93)),
    (120, (992.5, 993.0), (610.67, 236.89)),
]
"""The cue ball of Task2 clip 14 (Bucharest 2020) as the tracker reported it: (frame, table mm,
image px). Struck from the baulk cushion on frame 104, it runs up the table; frames 106, 109, 112
and 115 repeat the picture before them (same centre to the bit), so over frames 110–112 it reads
426 mm/s along its path (a ball nearly at rest) and over 112–114 2060 mm/s along the chord."""


def _states(sightings) -> list[TableState]:
    states = []
    rest = sightings[0][1]
    for frame, xy, px in sightings:
        cue = BallState(1, "white", xy, TrackStatus.VISIBLE, xy != rest, xy_px=px, radius_px=8.0)
        red = BallState(2, "red-1", RED, TrackStatus.VISIBLE, False, xy_px=(100.0, 400.0), radius_px=8.0)
        states.append(TableState(frame, frame / FPS, (cue, red)))
    return states


def _without_repeats(sightings):
    """The same run with each repeated picture replaced by the cue ball halfway to the next one."""
    out = list(sightings)
    for k in range(1, len(out) - 1):
        frame, xy, px = out[k]
        if xy == out[k - 1][1] and xy != out[0][1]:
            nxt = out[k + 1]
            mid = tuple((a + b) / 2.0 for a, b in zip(xy, nxt[1], strict=True))
            mid_px = tuple((a + b) / 2.0 for a, b in zip(px, nxt[2], strict=True))
            out[k] = (frame, mid, mid_px)
    return out


@pytest.mark.parametrize(
    "sightings",
    [TASK2_CLIP_14, _without_repeats(TASK2_CLIP_14)],
    ids=["pictures-repeated-as-recorded", "every-picture-new"],
)
def test_a_cue_ball_running_through_repeated_pictures_is_one_stroke(sightings):
    segmenter = StrokeSegmenter()
    strokes = [s for state in _states(sightings) for s in segmenter.push(state)]
    strokes += segmenter.finish()
    assert [s.start_frame for s in strokes] == [104]
