"""A camera knocked on its mount mid-match (``snooker.vision.viewshift``): the picture moves a few
pixels and stays there. With the table found in the frames it is found again where it moved and
the match reads as it would have; with a calibration given, the calibration no longer fits and the
run says so, keeping what it had read.

The demo clip (a rendered broadcast view, 960 × 540: a red, then the green, potted) knocked between
its strokes (frame 100: its first stroke is frames 16-82, its second 121-228) and during its
second. Unknocked the calls are ONE, then FOUR; knocked and not noticed, every ball jumps ~25 mm at
once and the two strokes read as one foul.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.cli import main
from snooker.record.store import MatchRecord
from snooker.vision.viewshift import ViewShiftConfig

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLIP = SAMPLES / "demo_clip.mp4"
CALIBRATION = SAMPLES / "demo_clip.calibration.json"
CALLS = [["ONE"], ["FOUR"]]


def _knocked(path: Path, from_frame: int, dx: float, dy: float) -> Path:
    """The demo clip with every frame from ``from_frame`` on moved by (dx, dy) px."""
    capture = cv2.VideoCapture(str(CLIP))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (960, 540))
    move = np.float32([[1, 0, dx], [0, 1, dy]])
    index = 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        if index >= from_frame:
            image = cv2.warpAffine(image, move, (960, 540), borderMode=cv2.BORDER_REPLICATE)
        writer.write(image)
        index += 1
    writer.release()
    capture.release()
    return path


@pytest.mark.parametrize(
    ("from_frame", "dx", "dy"),
    [(100, 6.0, 4.0), (100, -3.0, 2.0), (150, 5.0, -4.0), (101, 6.0, 4.0)],
    ids=["between_strokes", "a_small_knock", "during_a_stroke", "on_an_odd_frame"],
)
def test_a_knocked_camera_is_followed_and_the_match_reads_as_it_would_have(tmp_path, from_frame, dx, dy):
    video = _knocked(tmp_path / "knocked.avi", from_frame, dx, dy)
    out = tmp_path / "out"
    assert main(["analyze", str(video), "--out", str(out), "--referee"]) == 0
    doc = json.loads((out / "analysis.json").read_text())
    assert [r["announcements"] for r in doc["rulings"]] == CALLS
    assert [(s["first_contact"], [p["ball"] for p in s["potted"]]) for s in doc["strokes"]] == [
        (["red"], ["red"]),
        (["green"], ["green"]),
    ]
    (moved,) = [v for v in doc["calibration"]["views"] if "picture_moved_px" in v]
    config = ViewShiftConfig()
    assert (
        moved["adopted"]
        and from_frame <= moved["frame"] <= from_frame + config.measure_every_frames * config.confirm_frames
    )
    assert np.hypot(moved["picture_moved_px"][0] - dx, moved["picture_moved_px"][1] - dy) < 1.5
    # the frames from the first measured as moved to the one the table was found again on
    first_measured = -(-from_frame // config.measure_every_frames) * config.measure_every_frames
    assert doc["skipped_frames"] == {"the picture is moving": moved["frame"] - first_measured}


def test_a_knocked_camera_with_a_calibration_given_fails_the_analysis_by_name_and_keeps_what_it_read(
    tmp_path, capsys
):
    video = _knocked(tmp_path / "knocked.avi", 100, 6.0, 4.0)
    out = tmp_path / "out"
    assert (
        main(["analyze", str(video), "--out", str(out), "--referee", "--calibration", str(CALIBRATION)]) == 1
    )
    err = capsys.readouterr().err
    assert "Traceback" not in err and "knocked.avi" in err and "the picture moved +" in err
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["complete"] is False and [r["announcements"] for r in doc["rulings"]] == CALLS[:1]


def test_live_with_a_calibration_given_stops_when_the_camera_is_knocked_and_keeps_its_record(
    tmp_path, capsys
):
    video = _knocked(tmp_path / "knocked.avi", 100, 6.0, 4.0)
    record = tmp_path / "match.sqlite"
    args = ["live", "--source", str(video), "--table", "t1", "--record", str(record), "--every-frame"]
    assert main([*args, "--calibration", str(CALIBRATION)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "calibrate it again" in err
    with MatchRecord(record) as stored:
        rows = [entry.line for entry in stored.entries()]
    # the first stroke was still settling (its pot unconfirmed) when the run stopped: kept, to be
    # entered at the console
    assert (
        rows[0]["type"] == "match" and rows[-1]["type"] == "stroke" and rows[-1]["first_contact"] == ["red"]
    )


def test_live_finds_the_table_again_after_a_knock_says_so_and_rules_both_strokes(tmp_path, capsys):
    video = _knocked(tmp_path / "knocked.avi", 100, 6.0, 4.0)
    record = tmp_path / "match.sqlite"
    args = ["live", "--source", str(video), "--table", "t1", "--record", str(record), "--every-frame"]
    assert main(args) == 0
    said = capsys.readouterr()
    assert "the picture moved +" in said.out + said.err and "the table found again" in said.out + said.err
    with MatchRecord(record) as stored:
        rulings = [entry.ruling for entry in stored.effective_lines() if entry.line["type"] == "stroke"]
    assert [r["announcements"] for r in rulings] == CALLS
