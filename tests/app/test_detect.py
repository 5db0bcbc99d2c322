"""`snooker-referee detect`: CONTRACTS.md §3 JSON, and one-line errors with non-zero exit codes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from snooker.calibration.manual import save_calibration
from snooker.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from synthetic import Scene, make_view, render

BALL_FIELDS = {"ball", "x_px", "y_px", "r_px", "x_mm", "y_mm", "confidence"}


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("detect")
    view = make_view()
    scene = Scene(balls=[("white", 1400, 600), ("red", 500, 2000), ("black", 889, 3245)])
    image_path = folder / "still.png"
    cv2.imwrite(str(image_path), render(scene, view))
    calibration = save_calibration(view, folder / "calibration.json")
    return image_path, calibration


def test_json_follows_the_contract(still: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    image, calibration = still
    assert main(["detect", str(image), "--json", "--calibration", str(calibration)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["calibration"]) >= {"corners_px", "pockets_px"}
    assert len(result["calibration"]["corners_px"]) == 4
    assert sorted(b["ball"] for b in result["balls"]) == ["black", "red", "white"]
    for ball in result["balls"]:
        assert set(ball) >= BALL_FIELDS
        assert 0.0 <= ball["confidence"] <= 1.0


def test_plain_output_is_one_line_per_ball(
    still: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    image, calibration = still
    assert main(["detect", str(image), "--calibration", str(calibration)]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 3


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert captured.out == ""
    return code, captured.err.strip()


def test_missing_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _error(["detect", str(tmp_path / "none.jpg"), "--json"], capsys)
    assert code != 0 and "does not exist" in err and len(err.splitlines()) == 1


def test_corrupt_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    code, err = _error(["detect", str(bad), "--json"], capsys)
    assert code != 0 and "not a readable image" in err and len(err.splitlines()) == 1


def test_no_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "crowd.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), (90, 80, 70), np.uint8))
    code, err = _error(["detect", str(blank), "--json"], capsys)
    assert code != 0 and "no table" in err and len(err.splitlines()) == 1


def test_bad_calibration_file(
    still: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image, _ = still
    broken = tmp_path / "calibration.json"
    broken.write_text("{not json")
    code, err = _error(["detect", str(image), "--calibration", str(broken)], capsys)
    assert code != 0 and "calibration.json" in err and len(err.splitlines()) == 1
