"""Association costs: the colour penalties every pairing of a track with a detection pays."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.tracker.association import FORBIDDEN, colour_penalty_matrix

NAMES = ["white", "red", "yellow", "green", "brown", "blue", "pink", "black"]
CONFUSABLE = [("red", "pink"), ("brown", "red"), ("yellow", "white")]


def _penalty_by_pairs(tracks, detections, confusable, cost):
    pairs = {frozenset(p) for p in confusable}
    out = np.full((len(tracks), len(detections)), FORBIDDEN)
    for i, track in enumerate(tracks):
        for j, detection in enumerate(detections):
            if track == detection:
                out[i, j] = 0.0
            elif frozenset((track, detection)) in pairs:
                out[i, j] = cost
    return out


@settings(max_examples=80, deadline=None)
@given(
    tracks=st.lists(st.sampled_from(NAMES), max_size=12),
    detections=st.lists(st.sampled_from(NAMES), max_size=12),
    confusable=st.lists(st.sampled_from(CONFUSABLE), max_size=3),
)
def test_penalty_is_zero_for_the_same_colour_the_cost_for_confusable_ones_else_forbidden(
    tracks, detections, confusable
) -> None:
    expected = _penalty_by_pairs(tracks, detections, confusable, 40.0)
    np.testing.assert_array_equal(colour_penalty_matrix(tracks, detections, confusable, 40.0), expected)
