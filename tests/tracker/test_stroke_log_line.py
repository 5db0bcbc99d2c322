"""A stroke's frame-log line says when the source cut it off (docs/FRAME_LOG.md ``truncated``), and
the referee still rules it as given; an ordinary stroke's line has no such field."""

from __future__ import annotations

import pytest

from snooker.referee import Referee
from snooker.tracker import StrokeEvents
from snooker.tracker.types import PotEvent


@pytest.mark.parametrize("truncated", [False, True], ids=["settled", "cut_off"])
def test_the_log_line_marks_only_a_cut_off_stroke_and_the_referee_rules_it(truncated):
    stroke = StrokeEvents(
        start_frame=10,
        end_frame=40,
        first_contact=("red-3",),
        potted=(PotEvent("red-3", "top_left", 30),),
        truncated=truncated,
    )
    line = stroke.to_log_line()
    assert ("truncated" in line) is truncated and line.get("truncated", False) is truncated
    assert stroke.to_analysis()["truncated"] is truncated
    referee = Referee()
    referee.apply({"type": "match", "players": ["A", "B"]})
    assert referee.apply(line)["score"] == [1, 0]
