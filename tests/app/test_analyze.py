"""``snooker-referee analyze``: outputs, clear errors for bad input, and a real clip when present."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.cli import main

SHARED = Path(
    os.environ.get("SNOOKER_SHARED_DATA", Path(__file__).resolve().parents[2] / ".." / "shared" / "data")
)
CLIP = SHARED / "bucharest-2020" / "training" / "Task2" / "4.mp4"


def _write_video(path: Path, frames: int, make) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 30.0, (320, 180))
    for i in range(frames):
        writer.write(make(i))
    writer.release()


def test_a_corrupt_video_is_a_clear_error_and_still_writes_the_outputs(tmp_path, capsys):
    video = tmp_path / "broken.mp4"
    video.write_bytes(b"\x00\x01 this is not a video" * 100)
    code = main(["analyze", str(video), "--out", str(tmp_path / "out")])
    assert code == 1
    err = capsys.readouterr().err
    assert "broken.mp4" in err and "Traceback" not in err
    doc = json.loads((tmp_path / "out" / "analysis.json").read_text())
    assert doc["error"] and doc["complete"] is False
    assert (tmp_path / "out" / "frame_log.jsonl").read_text().startswith('{"type": "match"')


def test_a_video_without_a_table_says_so(tmp_path, capsys):
    video = tmp_path / "grey.mp4"
    rng = np.random.default_rng(0)
    _write_video(video, 12, lambda i: rng.integers(0, 255, (180, 320, 3), dtype=np.uint8))
    code = main(["analyze", str(video), "--out", str(tmp_path / "out")])
    assert code == 1
    assert "no snooker table found" in capsys.readouterr().err
    doc = json.loads((tmp_path / "out" / "analysis.json").read_text())
    assert doc["frames"] == [] and doc["strokes"] == []
    assert doc["video"]["frames"] == 12


def test_a_missing_calibration_file_is_a_clear_error(tmp_path, capsys):
    code = main(["analyze", "x.mp4", "--out", str(tmp_path), "--calibration", str(tmp_path / "none.json")])
    assert code == 1
    assert "none.json" in capsys.readouterr().err


@pytest.mark.footage
def test_analyze_a_real_clip_writes_balls_and_an_annotated_video(tmp_path):
    if not CLIP.exists():
        pytest.skip(f"shared footage not found at {CLIP}")
    out = tmp_path / "out"
    assert main(["analyze", str(CLIP), "--out", str(out), "--annotate", "--max-frames", "20"]) == 0
    doc = json.loads((out / "analysis.json").read_text())
    assert doc["schema"] == "snooker.analysis/1"
    assert len(doc["calibration"]["pockets_px"]) == 6
    assert doc["video"]["width"] == 1280
    last = doc["frames"][-1]["balls"]
    assert sum(b["ball"] == "white" for b in last) == 1
    assert len(last) >= 6
    assert (out / "annotated.mp4").stat().st_size > 0
