"""Segments of one long video: planning, the hand-over frame, renaming identities, merging counts."""

from __future__ import annotations

import json

import pytest

from snooker.pipeline.segments import (
    Handover,
    HandoverFiles,
    QuietFrames,
    Segment,
    SegmentConfig,
    SegmentResult,
    chain_segments,
    join,
    plan_segments,
    skip_runs,
)
from snooker.tracker import StrokeEvents
from snooker.tracker.strokes import OutsideEvent
from snooker.tracker.types import CushionContact, PotEvent

SMALL = SegmentConfig(min_segment_frames=100, warmup_frames=5, stroke_margin_frames=2, settle_frames=3)

TABLE = {"white": (500.0, 700.0), "pink": (889.0, 2677.0), "red-1": (800.0, 2900.0), "red-2": (853.0, 2900.0)}
"""A table at rest as one analysis names it (mm); two touching reds."""


def _ball(
    label: str, xy: tuple[float, float], track_id: int, visible: bool = True, moving: bool = False
) -> dict:
    return {
        "id": track_id,
        "ball": label.split("-")[0],
        "label": label,
        "x_mm": xy[0],
        "y_mm": xy[1],
        "visible": visible,
        "moving": moving,
    }


def _frames(
    start: int,
    stop: int,
    table: dict[str, tuple[float, float]],
    ids: dict[str, int],
    changes: dict[int, dict[str, dict]] | None = None,
    skipped: set[int] | frozenset[int] = frozenset(),
) -> list[dict]:
    """Frame records of a still table; ``changes[i][label]`` overrides one ball's fields on frame
    ``i`` (``{"gone": True}`` leaves it out)."""
    changes = changes or {}
    out = []
    for i in range(start, stop):
        if i in skipped:
            continue
        balls = []
        for label, xy in table.items():
            ball = _ball(label, xy, ids[label])
            change = changes.get(i, {}).get(label, {})
            if change.get("gone"):
                continue
            balls.append({**ball, **change})
        out.append({"i": i, "t": i / 30.0, "balls": balls})
    return out


def _result(start: int, stop: int | None, frames: list[dict], **fields) -> SegmentResult:
    read = (stop if stop is not None else frames[-1]["i"] + 1) - start
    return SegmentResult(start, stop, read=read, fps=30.0, frames=frames, finished=True, **fields)


def _stroke(start: int, end: int, **fields) -> StrokeEvents:
    return StrokeEvents(start_frame=start, end_frame=end, **fields)


EARLIER_IDS = {"white": 1, "pink": 2, "red-1": 3, "red-2": 4}
LATER_IDS = {"white": 11, "pink": 12, "red-1": 13, "red-2": 14}


# ------------------------------------------------------------------------------------------ planning
@pytest.mark.parametrize(
    ("frames", "jobs", "expected"),
    [
        (None, 2, []),
        (0, 2, []),
        (150, 1, []),
        (199, 2, []),
        (200, 2, [Segment(0, None), Segment(100, None)]),
        (200, 4, [Segment(0, None), Segment(100, None)]),
        (300, 3, [Segment(0, None), Segment(100, None), Segment(200, None)]),
        (1000, 3, [Segment(0, None), Segment(333, None), Segment(667, None)]),
    ],
    ids=["stream", "empty", "one_job", "short", "two", "capped_by_length", "three", "uneven"],
)
def test_segments_start_evenly_only_on_long_videos(frames, jobs, expected):
    assert plan_segments(frames, jobs, SMALL) == expected


def test_skipped_frames_are_kept_as_runs():
    runs: list[tuple[int, int, str]] = []
    for frame, reason in [(0, "a"), (1, "a"), (2, "b"), (5, "b"), (6, "b")]:
        skip_runs(runs, frame, reason)
    assert runs == [(0, 1, "a"), (2, 2, "b"), (5, 6, "b")]


# ------------------------------------------------------------------------------------------ hand-over frame
def _later_table(shift_mm: float = 0.0) -> dict[str, tuple[float, float]]:
    """The same table as the later analysis sees it: reds numbered the other way round, places off
    by ``shift_mm`` (its own calibration)."""
    names = {"white": "white", "pink": "pink", "red-1": "red-2", "red-2": "red-1"}
    return {names[label]: (x + shift_mm, y) for label, (x, y) in TABLE.items()}


def _in_stroke(frame: int, strokes: list[tuple[int, int]]) -> bool:
    return any(a <= frame <= b for a, b in strokes)


def _hand_over(tmp_path, earlier_frames, later_frames, earlier_strokes=(), later_strokes=(), config=SMALL):
    """The frame at which an earlier analysis (from frame 0) hands over to a later one (from 100)
    that published all its frames first; None where it reads to its end."""
    quiet = tmp_path / "quiet-1.jsonl"
    later = Handover(config, 100, HandoverFiles(publish=quiet))
    for record in later_frames:
        assert later.push(record, _in_stroke(record["i"], later_strokes)) is None  # it follows no one
    later.close()
    earlier = Handover(config, 0, HandoverFiles(follow=quiet, follow_start=100))
    for record in earlier_frames:
        q = earlier.push(record, _in_stroke(record["i"], earlier_strokes))
        if q is not None:
            return q
    return None


@pytest.mark.parametrize(
    ("case", "earlier_changes", "later_changes", "strokes", "later_skipped", "shift", "expected"),
    [
        ("quiet: first frame after the warm-up", {}, {}, [], set(), 0.0, 105),
        ("calibrations a few mm apart", {}, {}, [], set(), 8.0, 105),
        ("calibrations too far apart", {}, {}, [], set(), 30.0, None),
        ("a stroke running, then its margin", {}, {}, [(90, 108)], set(), 0.0, 111),
        ("a stroke ending late: read on past it", {}, {}, [(95, 190)], set(), 0.0, 193),
        ("a stroke running to the end", {}, {}, [(95, 199)], set(), 0.0, None),
        ("the later one skipped frames: its quiet run starts again", {}, {}, [], {105, 106}, 0.0, 109),
        (
            "a ball held in one, seen there by the other",
            {},
            {105: {"pink": {"visible": False}}},
            [],
            set(),
            0.0,
            105,
        ),
        (
            "a ball held unseen by both, in the same place",
            {105: {"pink": {"visible": False}}},
            {105: {"pink": {"visible": False}}},
            [],
            set(),
            0.0,
            105,
        ),
        (
            "a ball held unseen by both, far apart",
            {105: {"pink": {"visible": False}}},
            {105: {"pink": {"visible": False, "x_mm": 300.0}}},
            [],
            set(),
            0.0,
            106,
        ),
        ("a ball only the later one has", {105: {"red-1": {"gone": True}}}, {}, [], set(), 0.0, 105),
        (
            "a ball the earlier one sees missing in the later one",
            {},
            {105: {"red-1": {"gone": True}}},
            [],
            set(),
            0.0,
            106,
        ),
        (
            "a ball the earlier one holds unseen missing in the later one",
            {i: {"red-1": {"visible": False}} for i in range(200)},
            {i: {"red-2": {"gone": True}} for i in range(100, 200)},
            [],
            set(),
            0.0,
            105,
        ),
        (
            "a ball the earlier one holds unseen where it was, the later one sees elsewhere",
            {i: {"pink": {"visible": False, "x_mm": 300.0}} for i in range(200)},
            {},
            [],
            set(),
            0.0,
            105,
        ),
        (
            "a ball the earlier one sees, the later one holds unseen elsewhere",
            {},
            {i: {"pink": {"visible": False, "x_mm": 300.0}} for i in range(100, 200)},
            [],
            set(),
            0.0,
            None,
        ),
        (
            "a ball both see, far apart",
            {},
            {i: {"pink": {"x_mm": 300.0}} for i in range(100, 200)},
            [],
            set(),
            0.0,
            None,
        ),
        (
            "a ball moving",
            {105: {"white": {"moving": True}}, 106: {"white": {"moving": True}}},
            {},
            [],
            set(),
            0.0,
            109,
        ),
        (
            "the cue ball unseen: a stroke may start then",
            {105: {"white": {"visible": False}}},
            {},
            [],
            set(),
            0.0,
            108,
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_the_hand_over_frame_is_quiet_in_both_past_the_warm_up_and_agrees(
    tmp_path, case, earlier_changes, later_changes, strokes, later_skipped, shift, expected
):
    earlier = _frames(0, 200, TABLE, EARLIER_IDS, earlier_changes)
    later = _frames(100, 200, _later_table(shift), LATER_IDS, later_changes, later_skipped)
    assert _hand_over(tmp_path, earlier, later, earlier_strokes=strokes) == expected


def test_a_stroke_seen_only_by_the_later_analysis_also_blocks_the_frame(tmp_path):
    earlier = _frames(0, 200, TABLE, EARLIER_IDS)
    later = _frames(100, 200, _later_table(), LATER_IDS)
    assert _hand_over(tmp_path, earlier, later, later_strokes=[(104, 109)]) == 112


def test_frames_the_later_analysis_judges_after_the_earlier_one_read_past_them_still_hand_over(tmp_path):
    quiet = tmp_path / "quiet-1.jsonl"
    later = Handover(SMALL, 100, HandoverFiles(publish=quiet))
    earlier = Handover(SMALL, 0, HandoverFiles(follow=quiet, follow_start=100))
    earlier_frames = iter(_frames(0, 200, TABLE, EARLIER_IDS))
    # the earlier analysis reaches frame 130 before the later one has read anything
    assert all(earlier.push(next(earlier_frames), False) is None for _ in range(131))
    later_frames = iter(_frames(100, 200, _later_table(), LATER_IDS))
    for _ in range(8):  # the later one has read up to frame 107: frame 105 is not judged yet
        later.push(next(later_frames), False)
    assert earlier.push(next(earlier_frames), False) is None
    later.push(next(later_frames), False)  # frame 108 settles 105
    assert earlier.push(next(earlier_frames), False) == 105
    later.close()


def test_frames_beyond_the_pending_limit_are_given_up(tmp_path):
    config = SegmentConfig(
        min_segment_frames=100, warmup_frames=5, stroke_margin_frames=2, settle_frames=3, pending_frames=10
    )
    quiet = tmp_path / "quiet-1.jsonl"
    later = Handover(config, 100, HandoverFiles(publish=quiet))
    earlier = Handover(config, 0, HandoverFiles(follow=quiet, follow_start=100))
    earlier_frames = iter(_frames(0, 200, TABLE, EARLIER_IDS))
    assert all(earlier.push(next(earlier_frames), False) is None for _ in range(131))
    for record in _frames(100, 200, _later_table(), LATER_IDS):
        later.push(record, False)
    later.close()
    assert earlier.push(next(earlier_frames), False) == 119  # 128 settles now; the last ten are 119–128


def test_a_line_still_being_written_is_read_once_complete(tmp_path):
    quiet = tmp_path / "quiet-1.jsonl"
    balls = _frames(105, 106, _later_table(), LATER_IDS)[0]["balls"]
    lines = [json.dumps({"read": r}) for r in range(100, 108)]
    lines += [json.dumps({"read": 108, "i": 105, "balls": balls})]
    text = "\n".join(lines) + "\n"
    quiet.write_text(text[:-40])
    earlier = Handover(SMALL, 0, HandoverFiles(follow=quiet, follow_start=100))
    frames = _frames(0, 200, TABLE, EARLIER_IDS)
    assert all(earlier.push(record, False) is None for record in frames[:109])
    quiet.write_text(text)
    assert earlier.push(frames[109], False) == 105


def test_quiet_frames_settle_after_the_margin_and_the_settling_frames():
    quiet = QuietFrames(SMALL)
    settled = [quiet.push(record, False) for record in _frames(0, 10, TABLE, EARLIER_IDS)]
    assert [s["i"] if s else None for s in settled] == [None] * 5 + [2, 3, 4, 5, 6]


# ------------------------------------------------------------------------------------------ renaming
def _pair_with_new_red() -> tuple[SegmentResult, SegmentResult]:
    """An earlier analysis that also saw red-3 (potted before the overlap) and a later one whose
    red-9 first shows after the stitch frame (105), with a stroke potting it and touching reds."""
    earlier_table = {**TABLE}
    earlier = _result(0, 120, _frames(0, 120, earlier_table, EARLIER_IDS))
    earlier.frames[0]["balls"].append(_ball("red-3", (300.0, 300.0), 7))
    earlier.strokes = [
        _stroke(
            1,
            40,
            first_contact=("red-3",),
            potted=(PotEvent("red-3", "top_left", 30),),
            positions_before={"white": (1.0, 1.0), "red-3": (300.0, 300.0)},
        )
    ]
    later_table = _later_table()
    later_frames = _frames(
        100,
        200,
        {**later_table, "red-9": (1200.0, 1500.0)},
        {**LATER_IDS, "red-9": 19},
        {i: {"red-9": {"gone": True}} for i in range(100, 150)},
    )
    later = _result(100, None, later_frames)
    later.frames[-1]["events"] = [{"kind": "potted", "ball": "red-9", "frame": 199, "pocket": "top_left"}]
    later.strokes = [
        _stroke(
            90, 99, first_contact=("red-1",), positions_before={"red-1": (0.0, 0.0)}
        ),  # in the warm-up: dropped
        _stroke(
            160,
            190,
            first_contact=("red-2", "red-9"),
            potted=(PotEvent("red-9", "top_left", 185),),
            touching=("red-1",),
            cushion_contacts=(CushionContact("red-2", "top", 170),),
            positions_before={"white": (5.0, 5.0), "red-1": (1.0, 1.0), "red-9": (2.0, 2.0)},
            positions_after={"white": (6.0, 6.0), "red-1": (1.0, 1.0)},
        ),
    ]
    later.outside_events = [
        OutsideEvent("moved", "red-2", 95, (0.0, 0.0), (1.0, 1.0)),
        OutsideEvent("moved", "red-1", 195, (0.0, 0.0), (1.0, 1.0)),
    ]
    return earlier, later


def test_the_later_analysis_takes_the_earlier_names_and_new_balls_get_fresh_ones():
    earlier, later = _pair_with_new_red()
    first, second = join([earlier, later], [105], SMALL)
    assert [f["i"] for f in first.frames] == list(range(0, 105))
    assert [f["i"] for f in second.frames] == list(range(105, 200))
    at_q = {b["label"]: (b["id"], b["x_mm"]) for b in second.frames[0]["balls"]}
    assert at_q == {label: (EARLIER_IDS[label], TABLE[label][0]) for label in TABLE}
    last = {b["label"]: b["id"] for b in second.frames[-1]["balls"]}
    assert last["red-4"] == 8  # red-3 was the earlier one's highest red, track 7 its highest id
    assert second.frames[-1]["events"][0]["ball"] == "red-4"
    [stroke] = second.strokes
    assert stroke.first_contact == ("red-1", "red-4")
    assert [p.label for p in stroke.potted] == ["red-4"]
    assert stroke.touching == ("red-2",)
    assert stroke.cushion_contacts[0].label == "red-1"
    assert set(stroke.positions_before) == {"white", "red-2", "red-4"}
    assert set(stroke.positions_after) == {"white", "red-2"}
    assert [(e.label, e.frame) for e in second.outside_events] == [("red-2", 195)]
    assert [s.start_frame for s in first.strokes] == [1]


# ------------------------------------------------------------------------------------------ merging
@pytest.mark.parametrize(
    ("cut", "expected"),
    [
        (55, {"no table found yet": 10, "frame does not show the table": 10}),
        (70, {"no table found yet": 10, "frame does not show the table": 10}),
    ],
)
def test_skip_counts_come_from_the_frames_each_part_contributes(cut, expected):
    config = SegmentConfig(min_segment_frames=50, warmup_frames=5)
    off = set(range(60, 70))
    earlier = _result(0, 100, _frames(0, 100, TABLE, EARLIER_IDS, skipped=set(range(10)) | off))
    earlier.skips = [(0, 9, "no table found yet"), (60, 69, "frame does not show the table")]
    earlier.handed_over_at = cut
    later = _result(50, None, _frames(50, 150, _later_table(), LATER_IDS, skipped={50, 51, 52} | off))
    later.skips = [(50, 52, "no table found yet"), (60, 69, "frame does not show the table")]
    earlier.other_views = [{"i": i, "t": i / 30, "cue_ball": {"x_px": 1.0}} for i in sorted(off)]
    later.other_views = [{"i": i, "t": i / 30, "cue_ball": {"x_px": 2.0}} for i in sorted(off)]
    stitched = chain_segments([earlier, later], config)
    assert stitched.cuts == [cut]
    doc = stitched.document("long.mp4")
    assert doc["skipped_frames"] == expected
    # each other-view frame once, from the part that contributes it
    assert [(f["i"], f["cue_ball"]["x_px"]) for f in doc["other_views"]] == [
        (i, 1.0 if i < cut else 2.0) for i in sorted(off)
    ]
    assert doc["video"]["frames"] == 150
    assert [f["i"] for f in doc["frames"]] == [i for i in range(150) if i >= 10 and i not in off]
    assert doc["complete"] is True and "error" not in doc


def test_a_segment_that_never_hands_over_covers_the_rest_and_the_later_ones_are_left_out():
    earlier = _result(0, None, _frames(0, 300, TABLE, EARLIER_IDS))
    earlier.handed_over_at = 105
    middle = _result(100, None, _frames(100, 300, _later_table(), LATER_IDS))
    middle.strokes = [_stroke(150, 299)]
    broken = SegmentResult(200, None, error="cannot read video file x.mp4: no decodable frame at frame 200")
    stitched = chain_segments([earlier, middle, broken], SMALL)
    assert stitched.cuts == [105] and stitched.error is None
    doc = stitched.document("long.mp4")
    assert [f["i"] for f in doc["frames"]] == list(range(300))
    assert len(doc["strokes"]) == 1 and doc["complete"] is True


def test_a_segment_that_failed_after_taking_over_ends_the_video_and_what_was_read_is_kept():
    earlier = _result(0, None, _frames(0, 200, TABLE, EARLIER_IDS))
    earlier.strokes = [_stroke(10, 20)]
    earlier.handed_over_at = 105
    broken = _result(100, None, _frames(100, 150, _later_table(), LATER_IDS))
    broken.error = "the video x.mp4 ended early (truncated or corrupt), frame 150"
    last = _result(200, None, _frames(200, 300, TABLE, EARLIER_IDS))
    stitched = chain_segments([earlier, broken, last], SMALL)
    doc = stitched.document("x.mp4")
    assert doc["complete"] is False
    assert "frames 100–the end" in doc["error"] and "ended early" in doc["error"]
    assert "frames from 150 on were not analysed" in doc["error"]
    assert [f["i"] for f in doc["frames"]] == list(range(150))
    assert len(doc["strokes"]) == 1


def test_following_a_segment_needs_both_its_file_and_its_first_frame(tmp_path):
    with pytest.raises(ValueError, match="together"):
        HandoverFiles(follow=tmp_path / "quiet-1.jsonl")
