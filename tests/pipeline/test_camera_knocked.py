"""A camera knocked on its mount mid-match (``snooker.vision.viewshift``): the picture moves a few
pixels, perhaps turning it too, and stays there. With the table found in the frames it is found
again where it moved; with a calibration given, the calibration is moved with the picture (its turn
and shift measured whole); either way the match reads as it would have. A move that cannot be
measured stops a run with a calibration given, by name, keeping what it had read.

The demo clip (a rendered broadcast view, 960 × 540: a red, then the green, potted) knocked between
its strokes (frame 100: its first stroke is frames 16-82, its second 121-228) and during its
second. Unknocked the calls are ONE, then FOUR; knocked and not noticed, every ball jumps ~25 mm at
once and the two strokes read as one foul (so too, between the strokes, a knock of 2.5 px, or one
that only turns the picture 0.6-0.8° about its centre).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.calibration import load_calibration
from snooker.cli import main
from snooker.datasets.shared import bucharest_training
from snooker.pipeline.evaluation import ClipResult, PotTruth, frame_loop_clip, pot_answer
from snooker.record.store import MatchRecord
from snooker.vision.viewshift import PictureMotion, ViewShift, ViewShiftConfig

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLIP = SAMPLES / "demo_clip.mp4"
CALIBRATION = SAMPLES / "demo_clip.calibration.json"
CALLS = [["ONE"], ["FOUR"]]


def _move(dx: float, dy: float, turn_deg: float = 0.0, size: tuple[int, int] = (960, 540)) -> np.ndarray:
    """The picture's move (2, 3): turned ``turn_deg`` clockwise as seen about the centre of a
    picture of ``size`` (width, height px), then shifted (dx, dy) px."""
    move = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), -turn_deg, 1.0)
    move[:, 2] += (dx, dy)
    return move


def _knocked(
    path: Path, from_frame: int, dx: float, dy: float, turn_deg: float = 0.0, clip: Path = CLIP
) -> Path:
    """``clip`` (the demo clip) with every frame from ``from_frame`` on moved by (dx, dy) px,
    turned ``turn_deg``."""
    capture = cv2.VideoCapture(str(clip))
    size = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, size)
    move = _move(dx, dy, turn_deg, size)
    index = 0
    while True:
        ok, image = capture.read()
        if not ok:
            break
        if index >= from_frame:
            image = cv2.warpAffine(image, move, size, borderMode=cv2.BORDER_REPLICATE)
        writer.write(image)
        index += 1
    writer.release()
    capture.release()
    return path


@pytest.mark.parametrize(
    ("from_frame", "dx", "dy", "turn_deg"),
    [
        (100, 6.0, 4.0, 0.0),
        (100, -3.0, 2.0, 0.0),
        (150, 5.0, -4.0, 0.0),
        (101, 6.0, 4.0, 0.0),
        (100, -5.0, 3.0, -0.8),
        (100, 0.0, 0.0, 0.8),
        (100, 2.0, 1.5, 0.0),
    ],
    ids=[
        "between_strokes",
        "a_small_knock",
        "during_a_stroke",
        "on_an_odd_frame",
        "turned_as_it_moved",
        "only_turned",
        "below_3_px",
    ],
)
def test_a_knocked_camera_is_followed_and_the_match_reads_as_it_would_have(
    tmp_path, from_frame, dx, dy, turn_deg
):
    video = _knocked(tmp_path / "knocked.avi", from_frame, dx, dy, turn_deg)
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
    if turn_deg == 0.0:
        assert np.hypot(moved["picture_moved_px"][0] - dx, moved["picture_moved_px"][1] - dy) < 1.5
    # the frames from the first measured as moved to the one the table was found again on
    first_measured = -(-from_frame // config.measure_every_frames) * config.measure_every_frames
    assert doc["skipped_frames"] == {"the picture is moving": moved["frame"] - first_measured}


FOLLOWED_TOLERANCE_PX = 0.5
"""How close the calibration moved with the picture puts the table's centre to where it moved (frame
px): the alignment reads the knocked, re-compressed frames against the first one, balls moved."""


@pytest.mark.parametrize(
    ("from_frame", "dx", "dy", "turn_deg"),
    [(100, 6.0, 4.0, 0.0), (150, 5.0, -4.0, 0.3), (100, -5.0, 3.0, -0.8), (100, 0.0, 0.0, 0.8)],
    ids=["between_strokes", "during_a_stroke_turned", "turned_more", "only_turned"],
)
def test_a_calibration_given_is_moved_with_the_picture_and_the_match_reads_as_it_would_have(
    tmp_path, from_frame, dx, dy, turn_deg
):
    video = _knocked(tmp_path / "knocked.avi", from_frame, dx, dy, turn_deg)
    out = tmp_path / "out"
    assert (
        main(["analyze", str(video), "--out", str(out), "--referee", "--calibration", str(CALIBRATION)]) == 0
    )
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["complete"] is True and [r["announcements"] for r in doc["rulings"]] == CALLS
    (moved,) = doc["calibration"]["views"]
    assert moved["adopted"] and not moved["found"] and from_frame <= moved["frame"] <= from_frame + 6
    followed = moved["followed"]
    assert followed["turn_deg"] == pytest.approx(turn_deg, abs=0.05)
    calibration = load_calibration(CALIBRATION)
    centre = np.mean(calibration.corners_px, axis=0)
    truth = _move(dx, dy, turn_deg)
    assert np.hypot(*(np.array(followed["moved_px"]) - (truth[:, :2] @ centre + truth[:, 2] - centre))) < (
        FOLLOWED_TOLERANCE_PX
    )
    # the view at the end is the moved one: its corners where the move put the calibration's
    expected = calibration.corners_px @ truth[:, :2].T + truth[:, 2]
    assert np.abs(np.array(doc["calibration"]["corners_px"]) - expected).max() < 2 * FOLLOWED_TOLERANCE_PX


@pytest.fixture
def unmeasurable(monkeypatch):
    """Every move's turn and shift cannot be measured (as where a player fills the table)."""
    monkeypatch.setattr(ViewShift, "motion", lambda self, image, shift: None)


def test_an_unmeasurable_knock_with_a_calibration_given_fails_the_analysis_by_name_and_keeps_what_it_read(
    tmp_path, capsys, unmeasurable
):
    video = _knocked(tmp_path / "knocked.avi", 100, 6.0, 4.0)
    out = tmp_path / "out"
    assert (
        main(["analyze", str(video), "--out", str(out), "--referee", "--calibration", str(CALIBRATION)]) == 1
    )
    err = capsys.readouterr().err
    assert "Traceback" not in err and "knocked.avi" in err and "could not be measured" in err
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["complete"] is False and [r["announcements"] for r in doc["rulings"]] == CALLS[:1]
    # tried on follow_tries confirmed moves, their frames not read
    config = ViewShiftConfig()
    assert doc["skipped_frames"]["the picture is moving"] == config.follow_tries * config.confirm_frames - 1


def test_live_with_a_calibration_given_moves_it_with_the_picture_says_so_and_rules_both_strokes(
    tmp_path, capsys
):
    video = _knocked(tmp_path / "knocked.avi", 150, 6.0, 4.0, 0.5)
    record = tmp_path / "match.sqlite"
    args = ["live", "--source", str(video), "--table", "t1", "--record", str(record), "--every-frame"]
    assert main([*args, "--calibration", str(CALIBRATION)]) == 0
    said = capsys.readouterr()
    assert "the view moved with it (turned +0.5" in said.out + said.err
    with MatchRecord(record) as stored:
        rulings = [entry.ruling for entry in stored.effective_lines() if entry.line["type"] == "stroke"]
    assert [r["announcements"] for r in rulings] == CALLS


def test_live_with_a_calibration_given_stops_when_a_knock_cannot_be_measured_and_keeps_its_record(
    tmp_path, capsys, unmeasurable
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


@pytest.mark.parametrize(
    ("measurable", "said_then"), [(True, "the view moved with it"), (False, "the table found again")]
)
def test_live_follows_a_knock_or_finds_the_table_again_says_so_and_rules_both_strokes(
    tmp_path, capsys, monkeypatch, measurable, said_then
):
    """Where the move cannot be measured (as where a player fills the table), the table is found
    again in the frames."""
    if not measurable:
        monkeypatch.setattr(ViewShift, "motion", lambda self, image, shift: None)
    video = _knocked(tmp_path / "knocked.avi", 100, 6.0, 4.0)
    record = tmp_path / "match.sqlite"
    args = ["live", "--source", str(video), "--table", "t1", "--record", str(record), "--every-frame"]
    assert main(args) == 0
    said = capsys.readouterr()
    assert "the picture moved +" in said.out + said.err and said_then in said.out + said.err
    with MatchRecord(record) as stored:
        rulings = [entry.ruling for entry in stored.effective_lines() if entry.line["type"] == "stroke"]
    assert [r["announcements"] for r in rulings] == CALLS


@pytest.mark.footage
@pytest.mark.parametrize("number", [9, 10])
def test_a_knock_mid_stroke_on_broadcast_footage_keeps_the_clips_pot(tmp_path, number):
    """Task2 clips knocked 5, 3 px and turned 0.4° at 2 s, as their cue ball is struck: the
    frames skipped while the picture moves are still watched (no cut), so the stroke after them
    is not taken for a replay of it, and the clip's pot stands."""
    task2 = bucharest_training() / "Task2"
    if not task2.is_dir():
        pytest.skip(f"shared footage not found at {task2}")
    from snooker.vision.detector import make_detector

    video = _knocked(tmp_path / "knocked.avi", 60, 5.0, 3.0, 0.4, clip=task2 / f"{number}.mp4")
    analysis = frame_loop_clip(video, make_detector("classic"))
    (moved,) = [v for v in analysis.views if "picture_moved_px" in v]
    assert moved["adopted"] and moved["followed"]["turn_deg"] == pytest.approx(0.4, abs=0.05)
    assert not analysis.replays
    assert pot_answer(ClipResult.of(analysis)) == PotTruth.read(task2 / "ground-truth" / f"{number}_gt.txt")


def test_a_move_measured_below_a_refits_threshold_is_still_taken_once(tmp_path, monkeypatch):
    """A move read and measured, however small (here measured as 1, 1 px: 1.4 px at the corners,
    below ``refit_min_move_px``), moves the view once; left standing, the same move was read again
    every ``recheck_gap_frames``, its frames skipped each time."""
    measured = PictureMotion(np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]), 0.99)
    monkeypatch.setattr(ViewShift, "motion", lambda self, image, shift: measured)
    video = _knocked(tmp_path / "knocked.avi", 100, 6.0, 4.0)
    out = tmp_path / "out"
    assert main(["analyze", str(video), "--out", str(out), "--referee"]) == 0
    doc = json.loads((out / "analysis.json").read_text())
    (moved,) = [v for v in doc["calibration"]["views"] if "picture_moved_px" in v]
    assert moved["adopted"] and moved["followed"]["moved_px"] == [1.0, 1.0]
    config = ViewShiftConfig()
    assert doc["skipped_frames"] == {"the picture is moving": config.confirm_frames - 1}
