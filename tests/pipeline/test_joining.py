"""Whether a video opens a frame or joins one in play, and the table line the referee is given."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.balls import COLOURS
from snooker.calibration.table import STANDARD_TABLE
from snooker.pipeline.joining import JoinConfig, is_break_off, table_line
from snooker.referee import Referee
from snooker.tracker.types import PotEvent, StrokeEvents

IN_D = (800.0, 650.0)
"""A cue ball in the D (the baulk line is 737 mm from the baulk cushion)."""
MID_TABLE = (500.0, 2000.0)
SPOTS = {name: tuple(map(float, STANDARD_TABLE.spots[name])) for name in COLOURS}


def _stroke(cue, reds: int, colours=COLOURS, potted=(), tolerance=None) -> StrokeEvents:
    before = {f"red-{k}": (300.0 + 40.0 * (k % 10), 2900.0 + 40.0 * (k // 10)) for k in range(1, reds + 1)}
    before.update({name: SPOTS[name] for name in colours})
    if cue is not None:
        before["white"] = cue
    return StrokeEvents(
        start_frame=10,
        end_frame=40,
        first_contact=("red-1",),
        potted=tuple(potted),
        positions_before=before,
        position_tolerance_mm=tolerance,
    )


@pytest.mark.parametrize(
    ("stroke", "config", "expect"),
    [
        # a break-off: the cue ball in the D, the rack whole or nearly (a few reds of the pack unseen)
        (_stroke(IN_D, 15), JoinConfig(), None),
        (_stroke(IN_D, 12), JoinConfig(), None),
        # just outside the D's arc or beyond the baulk line, within the tolerance: still a break-off
        (
            _stroke((STANDARD_TABLE.d_centre[0] + STANDARD_TABLE.d_radius_mm + 8.0, 737.0), 15),
            JoinConfig(),
            None,
        ),
        (_stroke((800.0, 737.0 + 15.0), 15, tolerance=18.0), JoinConfig(), None),
        # told the video opens a frame
        (_stroke(MID_TABLE, 7), JoinConfig(start="frame"), None),
        # no object ball to describe: nothing to say
        (_stroke(MID_TABLE, 0, colours=()), JoinConfig(), None),
        # a frame in play
        (_stroke(IN_D, 11), JoinConfig(), {"reds": 11, "colours": list(COLOURS), "ball_on": "either"}),
        (_stroke((800.0, 737.0 + 15.0), 15), JoinConfig(), {"reds": 15, "ball_on": "either"}),
        (_stroke(MID_TABLE, 15), JoinConfig(), {"reds": 15}),
        (
            _stroke(MID_TABLE, 4, colours=("blue", "black")),
            JoinConfig(),
            {"reds": 4, "colours": list(COLOURS)},
        ),
        (
            _stroke(MID_TABLE, 0, colours=("blue", "black")),
            JoinConfig(),
            {"reds": 0, "colours": ["blue", "pink", "black"]},
        ),
        (_stroke(IN_D, 15), JoinConfig(start="mid"), {"reds": 15, "cue_in_hand": False}),
        # a red potted in the stroke was on the table before it, seen or not
        (
            _stroke(MID_TABLE, 2, potted=[PotEvent("red-9", "top_left", 20)]),
            JoinConfig(),
            {"reds": 3},
        ),
        # more reds than a rack holds (a false detection): the rack's
        (_stroke(MID_TABLE, 16), JoinConfig(), {"reds": 15}),
        # what is on, when told; a ball on the table cannot have is not passed on
        (_stroke(MID_TABLE, 5), JoinConfig(ball_on="red"), {"ball_on": "red"}),
        (_stroke(MID_TABLE, 5), JoinConfig(ball_on="colour"), {"ball_on": "colour"}),
        (_stroke(MID_TABLE, 0, colours=("pink", "black")), JoinConfig(ball_on="red"), {"ball_on": "either"}),
        (
            _stroke(MID_TABLE, 0, colours=("pink", "black")),
            JoinConfig(ball_on="colour"),
            {"ball_on": "either"},
        ),
    ],
)
def test_the_table_line_before_the_first_stroke(stroke, config, expect):
    line = table_line(stroke, config)
    if expect is None:
        assert line is None
        return
    assert line is not None and line["type"] == "table"
    for key, value in expect.items():
        assert line[key] == value, key
    reds_placed = sum(1 for label in line["positions"] if label.startswith("red"))
    assert reds_placed <= line["reds"]
    referee = Referee()
    referee.apply({"type": "match", "players": ["A", "B"]})
    assert "error" not in referee.apply(line)


def test_without_the_cue_ball_placed_nothing_is_known_of_the_table():
    assert not is_break_off(_stroke(None, 15), JoinConfig())
    assert table_line(_stroke(None, 7), JoinConfig()) is None


@pytest.mark.parametrize(
    "fields",
    [
        {"start": "later"},
        {"ball_on": "pink"},
        {"rack_reds": 0},
        {"break_off_unseen_reds": 15},
        {"d_tolerance_mm": -1},
        {"best_of": 0},
    ],
)
def test_nonsense_settings_are_refused(fields):
    with pytest.raises(ValueError):
        JoinConfig(**fields)


@settings(max_examples=80, deadline=None)
@given(
    reds=st.integers(0, 17),
    colours=st.lists(st.sampled_from(COLOURS), unique=True),
    cue=st.tuples(st.floats(30, 1750), st.floats(30, 3540)),
    start=st.sampled_from(["auto", "mid"]),
    ball_on=st.sampled_from(["either", "red", "colour"]),
)
def test_every_table_line_written_is_one_the_referee_accepts(reds, colours, cue, start, ball_on):
    line = table_line(_stroke(cue, reds, colours=tuple(colours)), JoinConfig(start=start, ball_on=ball_on))
    if line is None:
        return
    referee = Referee()
    referee.apply({"type": "match", "players": ["A", "B"]})
    ruling = referee.apply(line)
    assert "error" not in ruling, (line, ruling)
    assert ruling["reds"] == min(reds, 15)


def _black_potted() -> StrokeEvents:
    """Only the black left, the cue ball mid-table: the black potted (the frame ends)."""
    return StrokeEvents(
        start_frame=10,
        end_frame=40,
        first_contact=("black",),
        potted=(PotEvent("black", "top_left", 35),),
        positions_before={"white": MID_TABLE, "black": SPOTS["black"]},
    )


def _break_off(start: int) -> StrokeEvents:
    return StrokeEvents(
        start_frame=start,
        end_frame=start + 30,
        first_contact=("red-1",),
        positions_before=_stroke(IN_D, 15).positions_before,
    )


@pytest.mark.parametrize(
    ("best_of", "strokes", "types", "frame"),
    [
        # the frame ends, the table is re-racked: the break-off starts frame 2
        (3, [_black_potted(), _break_off(100)], ["match", "table", "stroke", "new_frame", "stroke"], 2),
        # best of one: the match is over with the frame; nothing starts (the stroke is refused)
        (1, [_black_potted(), _break_off(100)], ["match", "table", "stroke", "stroke"], None),
        # a break-off while the frame is in play (conceded off camera?): no new frame is invented
        (3, [_stroke(MID_TABLE, 6), _break_off(100)], ["match", "table", "stroke", "stroke"], 1),
    ],
    ids=["re-racked", "best of one", "frame in play"],
)
def test_a_break_off_after_a_frame_ended_starts_the_next_in_the_frame_log(best_of, strokes, types, frame):
    from snooker.pipeline.analyze import frame_log_lines

    lines = frame_log_lines(strokes, join=JoinConfig(best_of=best_of))
    assert [line["type"] for line in lines] == types
    assert lines[0]["best_of"] == best_of
    referee = Referee()
    rulings = [referee.apply(line) for line in lines]
    assert all("error" not in ruling for ruling in rulings[:-1])
    if frame is None:
        assert "match is over" in rulings[-1]["error"]
    else:
        assert "error" not in rulings[-1] and rulings[-1]["frame"] == frame


def test_an_analysis_rules_its_strokes_as_its_frame_log_reads(tmp_path):
    """``analyze --referee`` rules the strokes as they finish; the frame log it writes, replayed,
    gives the same rulings (the new_frame lines included)."""
    from snooker.app.analyze import _referee, _rule
    from snooker.pipeline.analyze import frame_log_lines

    join = JoinConfig(best_of=3)
    strokes = [_black_potted(), _break_off(100)]
    referee, _ = _referee(join)
    live = _rule(referee, strokes[:1], [], join) + _rule(referee, strokes[1:], [None], join)
    replayed = Referee()
    lines = frame_log_lines(strokes, join=join)
    by_log = [replayed.apply(line) for line in lines]
    strokes_ruled = [ruling for line, ruling in zip(lines, by_log, strict=True) if line["type"] == "stroke"]
    assert [r["frame"] for r in live] == [r["frame"] for r in strokes_ruled] == [1, 2]
    assert [r["score"] for r in live] == [r["score"] for r in strokes_ruled]
