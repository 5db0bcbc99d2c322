"""`snooker-referee calibrate SOURCE`: find or click the table's corners and save a calibration.

SOURCE is an image file, a video file or a camera index. By default a window shows the frame and
the user clicks the four cushion-nose corners (baulk-left, baulk-right, top-right, top-left; right
click undoes, Enter saves, Esc cancels). ``--auto`` finds the table automatically instead and
needs no display. Other commands reuse the file with ``--calibration FILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from snooker.calibration.detect import TableNotFound, find_table
from snooker.calibration.manual import (
    CORNER_NAMES,
    CornerClicks,
    display_available,
    save_calibration,
    view_from_corners,
)
from snooker.calibration.view import CalibrationError, TableView

WINDOW = "snooker-referee calibrate"
MAX_WINDOW_WIDTH_PX = 1280
"""Frames wider than this are shown scaled down (clicks are scaled back)."""
ENTER_KEYS = (13, 10)
ESCAPE_KEY = 27


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="image file, video file or camera index (0, 1, …)")
    parser.add_argument("--out", default="calibration.json", help="where to save (default: calibration.json)")
    parser.add_argument("--frame", type=int, default=0, help="frame of a video to use (default: 0)")
    parser.add_argument("--auto", action="store_true", help="find the table automatically (no window)")


def read_frame(source: str, frame_index: int = 0) -> np.ndarray:
    """The frame to calibrate on; raises CalibrationError when the source gives none."""
    if source.isdigit():
        capture = cv2.VideoCapture(int(source))
    else:
        path = Path(source)
        if not path.exists():
            raise CalibrationError(f"source {source} does not exist")
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            return image
        capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise CalibrationError(f"cannot open {source} as an image, a video or a camera")
        if frame_index > 0:
            capture.set(cv2.CAP_PROP_POS_FRAMES, frame_index)
        ok, frame = capture.read()
    finally:
        capture.release()
    if not ok or frame is None:
        raise CalibrationError(f"{source} gave no frame {frame_index}")
    return frame


def draw_clicks(image: np.ndarray, clicks: CornerClicks) -> np.ndarray:
    """The window contents: the frame (scaled), the clicked corners and what to click next."""
    shown = cv2.resize(image, None, fx=clicks.scale, fy=clicks.scale) if clicks.scale != 1.0 else image.copy()
    pts = [(round(x * clicks.scale), round(y * clicks.scale)) for x, y in clicks.points]
    for k, p in enumerate(pts):
        cv2.circle(shown, p, 6, (0, 0, 255), 2)
        cv2.putText(
            shown, CORNER_NAMES[k], (p[0] + 8, p[1] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 255), 2
        )
    if len(pts) > 1:
        cv2.polylines(shown, [np.array(pts, dtype=np.int32)], clicks.complete, (0, 255, 255), 1)
    prompt = f"click {clicks.next_name}" if not clicks.complete else "Enter: save   right click: undo"
    cv2.putText(shown, prompt + "   Esc: cancel", (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    return shown


def click_corners(image: np.ndarray) -> np.ndarray | None:
    """Show ``image`` and let the user click the corners; None when cancelled."""
    clicks = CornerClicks(scale=min(1.0, MAX_WINDOW_WIDTH_PX / image.shape[1]))
    cv2.namedWindow(WINDOW, cv2.WINDOW_AUTOSIZE)
    cv2.setMouseCallback(WINDOW, clicks.on_mouse)
    try:
        while True:
            cv2.imshow(WINDOW, draw_clicks(image, clicks))
            key = cv2.waitKey(30) & 0xFF
            if key == ESCAPE_KEY:
                return None
            if key in ENTER_KEYS and clicks.complete:
                return clicks.corners()
    finally:
        cv2.destroyWindow(WINDOW)


def run(args: argparse.Namespace) -> int:
    try:
        image = read_frame(args.source, args.frame)
    except CalibrationError as exc:
        print(f"calibrate: {exc}", file=sys.stderr)
        return 2
    h, w = image.shape[:2]
    view: TableView
    if args.auto:
        try:
            view = find_table(image)
        except TableNotFound as exc:
            print(f"calibrate: no table found: {exc}", file=sys.stderr)
            return 1
    else:
        if not display_available():
            print(
                "calibrate: no display here (DISPLAY is not set), so no window can open; "
                "run it on a machine with a screen, or use --auto",
                file=sys.stderr,
            )
            return 2
        corners = click_corners(image)
        if corners is None:
            print("calibrate: cancelled, nothing saved", file=sys.stderr)
            return 1
        try:
            view = view_from_corners(corners, (w, h))
        except CalibrationError as exc:
            print(f"calibrate: {exc}", file=sys.stderr)
            return 1
    try:
        path = save_calibration(view, args.out)
    except OSError as exc:
        print(f"calibrate: cannot save the calibration to {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"calibration saved to {path} (fit error {view.fit_error_px:.2f} px)")
    return 0
