"""CONTRACTS.md §3 as `snooker-referee analyze --referee` really writes it, on the shipped demo clip:
every named field of ``analysis.json`` and ``frame_log.jsonl`` with its name, type, units and
meaning (ball mm and px against the clip's own truth, strokes fed to the referee unchanged)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from snooker.balls import BALL_NAMES, POCKET_NAMES
from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import Referee

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLIP = SAMPLES / "demo_clip.mp4"
TRUTH = SAMPLES / "demo_clip.json"
STROKE_FIELDS = ("first_contact", "potted", "off_table", "cue_ball", "touching")
"""The frame-log stroke fields §3 says a stroke of the analysis carries with the same meaning."""
POSITION_TOLERANCE_MM = 2 * STANDARD_TABLE.ball_radius_mm
"""A ball the tracker sees is within one ball diameter of where the clip's truth has it."""
POSITION_TOLERANCE_PX = 6.0
"""... and within about one ball radius in the 960x540 image (a ball is ~6 px in radius there)."""


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _point(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_number(v) for v in value)


def _ball_list(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(b, str) and b.split("-")[0] in BALL_NAMES for b in value
    )


@pytest.fixture(scope="module")
def written(demo_clip_analysed: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    out = demo_clip_analysed
    doc = json.loads((out / "analysis.json").read_text())
    log = [json.loads(line) for line in (out / "frame_log.jsonl").read_text().splitlines()]
    return doc, log


@pytest.fixture(scope="module")
def truth() -> dict[str, Any]:
    return json.loads(TRUTH.read_text())


TOP_LEVEL = [
    ("schema", lambda v: v == "snooker.analysis/1"),
    ("video", lambda v: isinstance(v, dict)),
    ("calibration", lambda v: isinstance(v, dict)),
    ("frames", lambda v: isinstance(v, list) and len(v) > 0),
    ("strokes", lambda v: isinstance(v, list)),
    ("rulings", lambda v: isinstance(v, list)),
]


@pytest.mark.parametrize(("field", "valid"), TOP_LEVEL, ids=[f for f, _ in TOP_LEVEL])
def test_analysis_json_top_level_field(written, field, valid):
    doc, _ = written
    assert field in doc
    assert valid(doc[field]), doc[field]


VIDEO = [
    ("path", lambda v, truth: v == str(CLIP)),
    ("fps", lambda v, truth: _number(v) and v == truth["fps"]),
    ("frames", lambda v, truth: type(v) is int and v == truth["frames_count"]),
    ("width", lambda v, truth: type(v) is int and v == truth["size"][0]),
    ("height", lambda v, truth: type(v) is int and v == truth["size"][1]),
]


@pytest.mark.parametrize(("field", "valid"), VIDEO, ids=[f for f, _ in VIDEO])
def test_video_field_says_what_was_read(written, truth, field, valid):
    doc, _ = written
    assert valid(doc["video"][field], truth), doc["video"]


def test_calibration_gives_four_corners_and_the_six_named_pockets_in_image_px(written, truth):
    calibration = written[0]["calibration"]
    corners = calibration["corners_px"]
    assert isinstance(corners, list) and len(corners) == 4 and all(_point(c) for c in corners)
    assert set(calibration["pockets_px"]) == set(POCKET_NAMES)
    assert all(_point(p) for p in calibration["pockets_px"].values())
    # meaning: the corners are where the camera that made the clip sees them (baulk-left first)
    expected = truth["calibration"]["corners_px"]
    assert truth["calibration"]["corners_order"][0] == "baulk_left"
    assert max(math.dist(c, e) for c, e in zip(corners, expected, strict=True)) < POSITION_TOLERANCE_PX


BALL = [
    ("id", lambda v: type(v) is int),
    ("ball", lambda v: v in BALL_NAMES),
    ("x_px", _number),
    ("y_px", _number),
    ("r_px", lambda v: _number(v) and v > 0),
    ("x_mm", lambda v: v is None or _number(v)),
    ("y_mm", lambda v: v is None or _number(v)),
]


def test_every_frame_has_its_index_time_in_seconds_and_balls(written):
    doc, _ = written
    fps = doc["video"]["fps"]
    indices = [frame["i"] for frame in doc["frames"]]
    assert all(type(i) is int for i in indices) and indices == sorted(set(indices))
    for frame in doc["frames"]:
        assert _number(frame["t"]) and frame["t"] == pytest.approx(frame["i"] / fps, abs=1e-3)
        assert isinstance(frame["balls"], list)


@pytest.mark.parametrize(("field", "valid"), BALL, ids=[f for f, _ in BALL])
def test_every_ball_of_every_frame_carries(written, field, valid):
    doc, _ = written
    balls = [ball for frame in doc["frames"] for ball in frame["balls"]]
    assert balls
    wrong = [ball for ball in balls if field not in ball or not valid(ball[field])]
    assert not wrong, wrong[:3]


def test_ball_mm_and_px_are_where_the_clip_put_the_ball(written, truth):
    """Units and axes: x_mm along the baulk cushion, y_mm up the table, origin baulk-left; px in the
    image. Every ball the tracker sees is near a truth ball of its colour, in mm and in px."""
    truth_frames = {frame["i"]: frame["balls"] for frame in truth["frames"]}
    errors_mm, errors_px = [], []
    for frame in written[0]["frames"]:
        for ball in frame["balls"]:
            if ball["x_mm"] is None or not ball.get("visible", True):
                continue
            same = [t for t in truth_frames[frame["i"]] if t["ball"] == ball["ball"]]
            mm, px = (ball["x_mm"], ball["y_mm"]), (ball["x_px"], ball["y_px"])
            errors_mm.append(min(math.dist(mm, (t["x_mm"], t["y_mm"])) for t in same))
            errors_px.append(min(math.dist(px, (t["x_px"], t["y_px"])) for t in same))
    assert len(errors_mm) > 1000
    assert max(errors_mm) < POSITION_TOLERANCE_MM
    assert max(errors_px) < POSITION_TOLERANCE_PX
    assert np.median(errors_mm) < STANDARD_TABLE.ball_radius_mm


STROKE = [
    ("start_frame", lambda v: type(v) is int),
    ("end_frame", lambda v: type(v) is int),
    ("first_contact", _ball_list),
    ("potted", lambda v: isinstance(v, list) and all(isinstance(p, dict) for p in v)),
    ("off_table", _ball_list),
    ("cue_ball", lambda v: v in ("on_table", "potted", "off_table")),
    ("touching", _ball_list),
]


@pytest.mark.parametrize(("field", "valid"), STROKE, ids=[f for f, _ in STROKE])
def test_every_stroke_carries(written, field, valid):
    strokes = written[0]["strokes"]
    assert len(strokes) == 2  # the demo clip's truth: a red, then the green
    for stroke in strokes:
        assert valid(stroke[field]), stroke[field]


def test_pots_name_the_ball_the_pocket_and_a_frame_inside_the_stroke(written, truth):
    strokes = written[0]["strokes"]
    for stroke in strokes:
        assert stroke["start_frame"] < stroke["end_frame"]
        for pot in stroke["potted"]:
            assert pot["ball"] in BALL_NAMES and pot["pocket"] in POCKET_NAMES
            assert type(pot["frame"]) is int and stroke["start_frame"] <= pot["frame"] <= stroke["end_frame"]
    expected = [s["log"]["potted"] for s in truth["strokes"]]
    assert [[{k: p[k] for k in ("ball", "pocket")} for p in s["potted"]] for s in strokes] == expected


def test_one_ruling_per_stroke_as_the_referee_gives_for_the_strokes_fed_unchanged(written):
    doc, log = written
    referee = Referee()
    referee.apply(log[0])
    if doc["joined"] is not None:  # the clip joins a frame in play: the referee is told the table
        assert "error" not in referee.apply(doc["joined"])
    fed = [referee.apply(stroke) for stroke in doc["strokes"]]  # extra fields and all
    assert doc["rulings"] == fed
    assert [r["score"] for r in doc["rulings"]] == [[1, 0], [4, 0]]  # ONE, then FOUR (break 4)
    assert [r["announcements"][0] for r in doc["rulings"]] == ["ONE", "FOUR"]


def test_the_frame_log_holds_the_same_strokes_after_a_match_line(written):
    doc, log = written
    header, joined = log[0], [line for line in log[1:2] if line["type"] == "table"]
    assert joined == ([doc["joined"]] if doc["joined"] is not None else [])
    strokes = log[1 + len(joined) :]
    assert header["type"] == "match" and header["schema"] == "snooker.log/1"
    assert isinstance(header["players"], list) and len(header["players"]) == 2
    assert type(header["best_of"]) is int and header["breaker"] in (0, 1)
    assert [line["type"] for line in strokes] == ["stroke"] * len(doc["strokes"])
    for line, stroke in zip(strokes, doc["strokes"], strict=True):
        for field in STROKE_FIELDS:
            if field == "potted":
                assert line[field] == [{k: p[k] for k in ("ball", "pocket")} for p in stroke[field]]
            else:
                assert line[field] == stroke[field], field
