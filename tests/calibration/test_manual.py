"""Manual calibration: the click logic, corners → view, and the calibrate command without a display."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from snooker.app import calibrate as app
from snooker.calibration import CalibrationError, load_calibration, view_from_corners
from snooker.calibration.manual import CornerClicks
from snooker.calibration.synthetic import broadcast_camera, overhead_camera, render_table
from snooker.calibration.table import STANDARD_TABLE


def _true_corners(camera) -> np.ndarray:
    return camera.project(np.column_stack([STANDARD_TABLE.corners, np.zeros(4)]))


def test_left_clicks_add_corners_and_right_click_undoes():
    clicks = CornerClicks(scale=0.5)
    assert clicks.next_name == "baulk-left"
    clicks.on_mouse(cv2.EVENT_LBUTTONDOWN, 10, 20)
    clicks.on_mouse(cv2.EVENT_LBUTTONDOWN, 30, 40)
    clicks.on_mouse(cv2.EVENT_RBUTTONDOWN, 0, 0)
    assert clicks.points == [(20.0, 40.0)]
    assert clicks.next_name == "baulk-right"
    for x in (1, 2, 3):
        clicks.on_mouse(cv2.EVENT_LBUTTONDOWN, x, x)
    clicks.on_mouse(cv2.EVENT_LBUTTONDOWN, 99, 99)  # a fifth click is ignored
    assert clicks.complete and len(clicks.points) == 4
    clicks.on_mouse(cv2.EVENT_MOUSEMOVE, 5, 5)
    assert len(clicks.corners()) == 4


def test_incomplete_clicks_cannot_make_corners():
    clicks = CornerClicks()
    clicks.on_mouse(cv2.EVENT_LBUTTONDOWN, 1, 1)
    with pytest.raises(CalibrationError, match="1 of 4"):
        clicks.corners()


@pytest.mark.parametrize("camera", [overhead_camera(), broadcast_camera()], ids=["overhead", "broadcast"])
def test_view_from_exact_corners_reproduces_the_camera(camera):
    view = view_from_corners(_true_corners(camera), camera.image_size)
    grid = np.array([[100.0, 100.0], [889.0, 1784.5], [1700.0, 3400.0]])
    assert (
        np.abs(view.table_to_image(grid) - camera.project(np.column_stack([grid, np.zeros(3)]))).max() < 0.5
    )


def test_corners_in_the_wrong_order_are_refused():
    camera = broadcast_camera()
    with pytest.raises(CalibrationError):
        view_from_corners(_true_corners(camera)[::-1], camera.image_size)


def test_calibrate_without_display_says_so(tmp_path, monkeypatch, capsys):
    image_path = tmp_path / "table.png"
    cv2.imwrite(str(image_path), render_table(broadcast_camera()))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    args = argparse.Namespace(source=str(image_path), out=str(tmp_path / "c.json"), frame=0, auto=False)
    assert app.run(args) == 2
    assert "no display" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def test_calibrate_auto_saves_a_loadable_file(tmp_path):
    camera = broadcast_camera()
    image_path = tmp_path / "table.png"
    cv2.imwrite(str(image_path), render_table(camera))
    out = tmp_path / "c.json"
    assert app.run(argparse.Namespace(source=str(image_path), out=str(out), frame=0, auto=True)) == 0
    assert np.abs(load_calibration(out).corners_px - _true_corners(camera)).max() < 1.0


def test_calibrate_reports_a_missing_source(tmp_path, capsys):
    args = argparse.Namespace(
        source=str(tmp_path / "none.mp4"), out=str(tmp_path / "c.json"), frame=0, auto=True
    )
    assert app.run(args) == 2
    assert "does not exist" in capsys.readouterr().err


def test_calibrate_auto_with_no_table_fails_cleanly(tmp_path, capsys):
    image_path = tmp_path / "black.png"
    cv2.imwrite(str(image_path), np.zeros((360, 640, 3), np.uint8))
    args = argparse.Namespace(source=str(image_path), out=str(tmp_path / "c.json"), frame=0, auto=True)
    assert app.run(args) == 1
    assert "no table found" in capsys.readouterr().err
