"""A stroke's frame-log line says when the source cut it off (docs/FRAME_LOG.md ``truncated``), and
the referee still rules it as given; an ordinary stroke's line has no such field."""

from __future__ import annotations

import pytest

from snooker.calibration.table import STANDARD_TABLE
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


@pytest.mark.parametrize("beyond_mm", [8.0, 30.0], ids=["within_the_tolerance", "beyond_it"])
def test_an_analysis_stroke_fed_unchanged_is_ruled_as_its_frame_log_line(beyond_mm):
    # CONTRACTS.md §3: analysis.json's strokes can be fed to the referee unchanged. A cue ball played
    # from hand a little beyond the baulk line is within how far the tracker says its place may be
    # off (position_tolerance_mm, 26 mm): both forms must carry it, or the analysis's stroke reads
    # as improperly played from hand where the frame log's does not.
    baulk_y = STANDARD_TABLE.baulk_line_y_mm
    stroke = StrokeEvents(
        start_frame=10,
        end_frame=40,
        first_contact=("red-1",),
        positions_before={
            "white": (STANDARD_TABLE.d_centre[0], baulk_y + beyond_mm),
            **{f"red-{k}": (889.0 + 20.0 * k, 2700.0) for k in range(1, 16)},
        },
        positions_after={
            "white": (889.0, 1500.0),
            **{f"red-{k}": (889.0 + 20.0 * k, 2720.0) for k in range(1, 16)},
        },
        position_tolerance_mm=26.0,
    )
    rulings = []
    for line in (stroke.to_log_line(), stroke.to_analysis()):
        referee = Referee()
        referee.apply({"type": "match", "players": ["A", "B"]})
        rulings.append(referee.apply(line))
    assert rulings[0]["fouls"] == rulings[1]["fouls"]
    assert rulings[0]["score"] == rulings[1]["score"]
    assert ("improper_in_hand" in rulings[0]["fouls"]) is (beyond_mm > 26.0)


def test_a_pot_whose_pocket_is_unknown_names_no_pocket_in_the_log_line():
    # CONTRACTS.md §1: potted balls carry their pocket "where known"; an unknown one is left out,
    # not written as null. analysis.json keeps its named field (null).
    stroke = StrokeEvents(
        start_frame=10,
        end_frame=40,
        first_contact=("red-3",),
        potted=(PotEvent("red-3", None, 30), PotEvent("red-4", "top_left", 31)),
    )
    assert stroke.to_log_line()["potted"] == [{"ball": "red"}, {"ball": "red", "pocket": "top_left"}]
    assert [p["pocket"] for p in stroke.to_analysis()["potted"]] == [None, "top_left"]
    referee = Referee()
    referee.apply({"type": "match", "players": ["A", "B"]})
    assert referee.apply(stroke.to_log_line())["score"] == [2, 0]
