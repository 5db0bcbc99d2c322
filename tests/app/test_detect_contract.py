"""CONTRACTS.md §3 `detect IMAGE --json` on the demo clip's first frame: the named fields, and their
meaning — each ball is the ball the clip's truth has there, in image px and in table mm."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import pytest

from snooker.balls import BALL_NAMES, POCKET_NAMES
from snooker.calibration.table import STANDARD_TABLE
from snooker.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
TOLERANCE_MM = STANDARD_TABLE.ball_radius_mm
"""A still ball is found within one ball radius of where the clip put it."""
TOLERANCE_PX = 3.0
"""... and within half a ball radius in the 960x540 image."""


def test_detect_json_names_every_ball_where_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capture = cv2.VideoCapture(str(SAMPLES / "demo_clip.mp4"))
    ok, image = capture.read()
    capture.release()
    assert ok
    still = tmp_path / "first.png"
    cv2.imwrite(str(still), image)
    calibration = SAMPLES / "demo_clip.calibration.json"
    assert main(["detect", str(still), "--json", "--calibration", str(calibration)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["calibration"]["corners_px"]) == 4
    assert set(result["calibration"]["pockets_px"]) == set(POCKET_NAMES)
    truth = json.loads((SAMPLES / "demo_clip.json").read_text())["frames"][0]["balls"]
    assert sorted(b["ball"] for b in result["balls"]) == sorted(t["ball"] for t in truth)
    for ball in result["balls"]:
        assert ball["ball"] in BALL_NAMES and 0.0 <= ball["confidence"] <= 1.0
        assert all(isinstance(ball[k], float) for k in ("x_px", "y_px", "r_px", "x_mm", "y_mm"))
        same = [t for t in truth if t["ball"] == ball["ball"]]
        mm = min(math.dist((ball["x_mm"], ball["y_mm"]), (t["x_mm"], t["y_mm"])) for t in same)
        px = min(math.dist((ball["x_px"], ball["y_px"]), (t["x_px"], t["y_px"])) for t in same)
        assert mm < TOLERANCE_MM and px < TOLERANCE_PX, (ball, mm, px)
