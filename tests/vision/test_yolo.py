"""The YOLO detector: offline set-up, input geometry, constraint assignment, shipped weights."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.balls import BALL_NAMES
from snooker.datasets.shared import bucharest_training
from snooker.vision.yolo import DEFAULT_WEIGHTS, YoloConfig, assign_ball_names, decode_output
from snooker.vision.yolo_input import InputConfig, prepare_input
from snooker.vision.yolo_offline import FONT_NAME, OfflineConfig, prepare_offline_environment

STILLS = bucharest_training("Task1")
needs_weights = pytest.mark.skipif(not DEFAULT_WEIGHTS.is_file(), reason="no shipped YOLO weights")


def _scores(rows: list[dict[str, float]]) -> np.ndarray:
    """Score matrix from {name: score} rows (others get 0.01)."""
    matrix = np.full((len(rows), len(BALL_NAMES)), 0.01)
    for i, row in enumerate(rows):
        for name, value in row.items():
            matrix[i, BALL_NAMES.index(name)] = value
    return matrix


ASSIGNMENT_CASES = [
    ("plain", [{"white": 0.9}, {"red": 0.8}, {"pink": 0.7}], 15, ["white", "red", "pink"]),
    (
        "second pink that is also red-ish becomes red",
        [{"pink": 0.9}, {"pink": 0.8, "red": 0.6}],
        15,
        ["pink", "red"],
    ),
    ("second white with nothing else is dropped", [{"white": 0.9}, {"white": 0.8}], 15, ["white", ""]),
    ("weak detection dropped", [{"red": 0.1}], 15, [""]),
    ("red limit", [{"red": 0.9}, {"red": 0.8}, {"red": 0.7}], 2, ["red", "red", ""]),
    ("best of two blues wins", [{"blue": 0.5}, {"blue": 0.95}], 15, ["", "blue"]),
]


@pytest.mark.parametrize(
    ("case", "rows", "max_reds", "expected"), ASSIGNMENT_CASES, ids=[c[0] for c in ASSIGNMENT_CASES]
)
def test_assign_ball_names(
    case: str, rows: list[dict[str, float]], max_reds: int, expected: list[str]
) -> None:
    names, keep = assign_ball_names(_scores(rows), max_reds=max_reds, min_class_score=0.25)
    assert list(names) == expected, case
    assert list(keep) == [bool(name) for name in expected]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(0, 15), st.integers(0, 2**31 - 1))
def test_assignment_never_breaks_the_game_constraints(n: int, max_reds: int, seed: int) -> None:
    scores = np.random.default_rng(seed).random((n, len(BALL_NAMES)))
    names, keep = assign_ball_names(scores, max_reds=max_reds, min_class_score=0.25)
    kept = list(names[keep])
    assert kept.count("red") <= max_reds
    assert all(kept.count(name) <= 1 for name in BALL_NAMES if name != "red")
    assert all(scores[i, BALL_NAMES.index(names[i])] >= 0.25 for i in np.nonzero(keep)[0])


def test_decode_output_merges_overlapping_boxes() -> None:
    anchors = np.zeros((4 + len(BALL_NAMES), 3), dtype=np.float32)
    anchors[:4, 0] = [100, 100, 16, 16]
    anchors[:4, 1] = [101, 100, 16, 16]  # the same ball, weaker
    anchors[:4, 2] = [200, 50, 16, 16]
    anchors[4 + 1, :] = [0.9, 0.7, 0.01]  # red, red, (below candidate score)
    raw = decode_output(anchors[None], YoloConfig())
    assert len(raw.boxes) == 1
    np.testing.assert_allclose(raw.boxes[0], [92, 92, 108, 108])


@settings(max_examples=30, deadline=None)
@given(st.integers(200, 1920), st.integers(150, 1080), st.floats(0, 1), st.floats(0, 1))
def test_network_input_round_trip_without_view(width: int, height: int, fx: float, fy: float) -> None:
    frame = np.zeros((height, width, 3), dtype=np.uint8)
    config = InputConfig()
    prepared = prepare_input(frame, None, config)
    assert prepared.image.shape[0] % config.stride_px == 0 and prepared.image.shape[1] % config.stride_px == 0
    point = np.array([[fx * width, fy * height]])
    np.testing.assert_allclose(prepared.to_source(prepared.to_network(point)), point, atol=1e-6)


def test_offline_environment_and_font(tmp_path: Path) -> None:
    config_dir = prepare_offline_environment(OfflineConfig(config_dir=tmp_path / "yolo", threads=2))
    assert os.environ["YOLO_OFFLINE"] == "1" and os.environ["YOLO_AUTOINSTALL"] == "0"
    assert os.environ["YOLO_CONFIG_DIR"] == str(config_dir)
    assert (config_dir / "Ultralytics" / FONT_NAME).stat().st_size > 100_000


# Run in a fresh interpreter: sockets refuse to connect and DNS fails, so any network use raises.
_NO_NETWORK_PROBE = r"""
import json, os, socket, sys
def refuse(*args, **kwargs):
    raise RuntimeError("network access attempted")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
for key in ("YOLO_OFFLINE", "YOLO_AUTOINSTALL", "YOLO_CONFIG_DIR"):
    os.environ.pop(key, None)
import snooker.vision.yolo as yolo
imported_at_import = "ultralytics" in sys.modules
import numpy as np
detector = yolo.YoloDetector()
frame = np.full((720, 1280, 3), (40, 140, 30), dtype=np.uint8)
balls = detector.detect(frame, None)
print(json.dumps({
    "ultralytics_at_import": imported_at_import,
    "offline": os.environ.get("YOLO_OFFLINE"),
    "autoinstall": os.environ.get("YOLO_AUTOINSTALL"),
    "config_dir": os.environ.get("YOLO_CONFIG_DIR"),
    "balls_on_empty_cloth": len(balls),
}))
"""


@needs_weights
def test_shipped_weights_load_and_run_without_network() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _NO_NETWORK_PROBE], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["ultralytics_at_import"] is False
    assert report["offline"] == "1" and report["autoinstall"] == "0" and report["config_dir"]
    assert report["balls_on_empty_cloth"] == 0


@needs_weights
def test_shipped_weights_are_small() -> None:
    assert DEFAULT_WEIGHTS.stat().st_size < 12_000_000
    record = json.loads(DEFAULT_WEIGHTS.with_suffix(".json").read_text())
    assert record["train_config"]["model_yaml"].endswith(".yaml")
    assert "clips_left_out" in record["data_provenance"]


@pytest.fixture(scope="module")
def detector():
    if not DEFAULT_WEIGHTS.is_file():
        pytest.skip("no shipped YOLO weights")
    from snooker.vision.yolo import YoloDetector

    return YoloDetector()


@pytest.mark.slow
def test_finds_the_balls_of_a_rendered_still(detector) -> None:
    from snooker.datasets.yolo_export import SynthConfig, synthetic_frames

    config = SynthConfig(occluder_probability=0.0, score_graphic_probability=0.0, cluster_probability=0.0)
    frame = next(synthetic_frames(1, np.random.default_rng(11), config))
    found = detector.detect(frame.image, frame.view)
    assert abs(len(found) - len(frame.balls)) <= 1
    # Every true ball has a detection within half a ball radius, and most carry the right name.
    distance = np.linalg.norm(frame.balls.xy_px[:, None] - found.xy_px[None], axis=2)
    nearest = distance.argmin(axis=1)
    close = distance[np.arange(len(frame.balls)), nearest] < 0.5 * frame.balls.radius_px
    assert close.mean() >= 0.9
    same_name = found.ball[nearest][close] == frame.balls.ball[close]
    assert same_name.mean() >= 0.8
    assert np.all(np.isfinite(found.xy_mm))


def _still_counts(name: str) -> int:
    return int((STILLS / "ground-truth" / f"{name}_gt.txt").read_text().split()[0])


REAL_STILLS = ("1", "9", "16", "24", "33", "37", "44", "49")
MIN_EXACT_OF_REAL_STILLS = 6
"""Stills of REAL_STILLS whose ball count must be exactly right: 7 of 8 with the shipped weights
(2026-12-02; 33.jpg misses the black), one still of slack."""
MAX_COUNT_ERROR_ON_REAL_STILLS = 1
"""Largest count error on any of them (measured: 1)."""


@pytest.mark.footage
@pytest.mark.slow
@pytest.mark.skipif(not STILLS.is_dir(), reason="shared footage not present")
def test_counts_on_real_stills(detector) -> None:
    import cv2

    from snooker.calibration import find_table

    errors = []
    for name in REAL_STILLS:
        image = cv2.imread(str(STILLS / f"{name}.jpg"))
        found = detector.detect(image, find_table(image))
        errors.append(abs(len(found) - _still_counts(name)))
    # Measured with the shipped weights (see the weights' JSON record); a regression fails here.
    assert sum(error == 0 for error in errors) >= MIN_EXACT_OF_REAL_STILLS, errors
    assert max(errors) <= MAX_COUNT_ERROR_ON_REAL_STILLS, errors
