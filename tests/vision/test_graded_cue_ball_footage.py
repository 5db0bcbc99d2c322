"""Regression on a Task2 clip under another broadcast's tone curve: the cue ball named where it is.

Task2 clip 23's cue ball rests by the yellow, by the bridge hand, before the stroke. Under the
``gamma_1.25`` perturbation (``snooker.vision.photometric``) it was found on some frames by a
candidate 6 px (0.75 of its radius) below its centre, and its core, read there, took in the cloth
and the shade under it: Lab (206, -30, 58) instead of (247, -14, 46) at its centre, a yellow's
colour, and the ball was named yellow (frames 30 to 55; the tracks of the ``look_gamma_1.25``
variant lost the cue ball). A ball's core is read where the ball is placed (its rim's centre).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from snooker.calibration import find_table
from snooker.datasets.shared import bucharest_training
from snooker.vision.classic import detect_balls
from snooker.vision.photometric import perturbation_named

FRAMES = {
    # (clip, frame, perturbation): the name the ball in the cue ball's Task3 box must have
    (23, 0, "gamma_1.25"): "white",
    (23, 30, "gamma_1.25"): "white",
    (23, 40, "gamma_1.25"): "white",
    (23, 50, "gamma_1.25"): "white",
}


def _frame(clip: int, index: int) -> np.ndarray:
    capture = cv2.VideoCapture(str(bucharest_training("Task2") / f"{clip}.mp4"))
    try:
        for _ in range(index):
            capture.grab()
        ok, frame = capture.read()
    finally:
        capture.release()
    assert ok, f"cannot read frame {index} of clip {clip}"
    return frame


@pytest.mark.footage
@pytest.mark.parametrize(("clip", "index", "perturbation"), FRAMES.keys())
def test_the_cue_ball_keeps_its_name_under_a_tone_curve(clip: int, index: int, perturbation: str) -> None:
    truth = bucharest_training("Task3") / "ground-truth" / f"{clip}_ball_1_gt.txt"
    if not truth.is_file():
        pytest.skip(f"Task3 truth not found at {truth}")
    box = np.array(truth.read_text().splitlines()[1 + index].split()[1:5], dtype=float)
    frame = perturbation_named(perturbation).apply(_frame(clip, index))
    detections = detect_balls(frame, find_table(frame))
    inside = (
        (detections.xy_px[:, 0] >= box[0])
        & (detections.xy_px[:, 0] <= box[2])
        & (detections.xy_px[:, 1] >= box[1])
        & (detections.xy_px[:, 1] <= box[3])
    )
    assert list(detections.ball[inside]) == [FRAMES[clip, index, perturbation]]
