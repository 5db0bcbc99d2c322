"""Regression on clips the stills do not contain: the first frame of each Task2 clip.

Task3 gives, for the same 25 clips, the box of the cue ball and of one object ball in the first
frame. Measured at the end of the work on issue 4: the classical detector puts a ball named
``white`` inside the cue ball's box in 25 of 25 clips, and a ball inside the object ball's box in
25 of 25. The test fails when either rate drops by more than 2 points (so, by one clip).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.calibration import find_table
from snooker.datasets.shared import bucharest_training
from snooker.vision.classic import detect_balls

MEASURED_CUE_BALL_RATE = 25 / 25
MEASURED_OBJECT_BALL_RATE = 25 / 25
ALLOWED_DROP = 0.02


def _first_box(path: Path) -> np.ndarray:
    """(x_min, y_min, x_max, y_max) px of the first frame in a Task3 box file."""
    return np.array(path.read_text().splitlines()[1].split()[1:5], dtype=float)


def _inside(points: np.ndarray, box: np.ndarray) -> np.ndarray:
    return (
        (points[:, 0] >= box[0])
        & (points[:, 0] <= box[2])
        & (points[:, 1] >= box[1])
        & (points[:, 1] <= box[3])
    )


@pytest.mark.footage
@pytest.mark.slow
def test_cue_ball_and_object_ball_in_first_frames() -> None:
    root = bucharest_training()
    clips = (
        sorted((root / "Task2").glob("*.mp4"), key=lambda p: int(p.stem)) if (root / "Task2").is_dir() else []
    )
    if not clips or not (root / "Task3").is_dir():
        pytest.skip(f"Task2/Task3 clips not found under {root}")
    cue_found = object_found = 0
    for clip in clips:
        capture = cv2.VideoCapture(str(clip))
        ok, frame = capture.read()
        capture.release()
        assert ok, f"cannot read {clip}"
        detections = detect_balls(frame, find_table(frame))
        cue_box = _first_box(root / "Task3" / f"{clip.stem}_ball_1.txt")
        object_box = _first_box(root / "Task3" / f"{clip.stem}_ball_2.txt")
        cue_found += bool(np.any(_inside(detections.xy_px, cue_box) & (detections.ball == "white")))
        object_found += bool(np.any(_inside(detections.xy_px, object_box)))
    assert cue_found / len(clips) >= MEASURED_CUE_BALL_RATE - ALLOWED_DROP, cue_found
    assert object_found / len(clips) >= MEASURED_OBJECT_BALL_RATE - ALLOWED_DROP, object_found
