"""Manual calibration: four clicked corners → a TableView; saving and loading calibration files.

The GUI itself lives in ``snooker.app.calibrate``; everything here works without a display.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from snooker.calibration.camera import DEFAULT_PRIOR, CameraPrior, fit_camera
from snooker.calibration.rails import STANDARD_RAILS, RailGeometry
from snooker.calibration.table import STANDARD_TABLE, TableSpec
from snooker.calibration.view import CalibrationError, TableView

CORNER_NAMES = ("baulk-left", "baulk-right", "top-right", "top-left")
"""The order in which the corners are clicked (the order of ``TableSpec.corners``)."""


@dataclass
class CornerClicks:
    """The click state of the corner picker: left click adds a corner, right click removes the last.

    ``points`` are image pixels in ``CORNER_NAMES`` order; ``scale`` maps window pixels to image
    pixels when the window shows a resized frame.
    """

    scale: float = 1.0
    points: list[tuple[float, float]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.points) == len(CORNER_NAMES)

    @property
    def next_name(self) -> str | None:
        return None if self.complete else CORNER_NAMES[len(self.points)]

    def on_mouse(self, event: int, x: int, y: int, _flags: int = 0, _param: object = None) -> None:
        """An OpenCV mouse callback: left button adds, right button undoes."""
        if event == cv2.EVENT_LBUTTONDOWN and not self.complete:
            self.points.append((x / self.scale, y / self.scale))
        elif event == cv2.EVENT_RBUTTONDOWN and self.points:
            self.points.pop()

    def corners(self) -> np.ndarray:
        if not self.complete:
            raise CalibrationError(f"{len(self.points)} of 4 corners clicked")
        return np.array(self.points, dtype=float)


def view_from_corners(
    corners_px: np.ndarray,
    image_size: tuple[int, int],
    table: TableSpec = STANDARD_TABLE,
    rails: RailGeometry = STANDARD_RAILS,
    prior: CameraPrior = DEFAULT_PRIOR,
) -> TableView:
    """A TableView from the four cushion-nose corners (4, 2) px in ``TableSpec.corners`` order."""
    corners = np.asarray(corners_px, dtype=float).reshape(-1, 2)
    if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
        raise CalibrationError("need four finite corners (baulk-left, baulk-right, top-right, top-left)")
    area = cv2.contourArea(corners.astype(np.float32), oriented=True)
    if abs(area) < 1.0:
        raise CalibrationError("the four corners do not enclose an area")
    object_mm = np.column_stack([table.corners, np.zeros(4)])
    try:
        camera, residual = fit_camera(object_mm, corners, image_size, prior)
    except ValueError as exc:
        raise CalibrationError(f"the corners do not describe a table: {exc}") from exc
    if camera.centre_mm[2] <= 0:
        raise CalibrationError("the corners are in the wrong order (the camera would be under the table)")
    rms = float(np.sqrt(np.mean(residual**2)))
    return TableView(camera=camera, table=table, rails=rails, source="manual", fit_error_px=rms)


def save_calibration(view: TableView, path: str | os.PathLike) -> Path:
    """Write ``view`` as versioned JSON to ``path`` (atomically: a crash leaves the old file)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(target.suffix + ".tmp")
    tmp.write_text(view.to_json(), encoding="utf-8")
    tmp.replace(target)
    return target


def load_calibration(path: str | os.PathLike) -> TableView:
    """Read a calibration file; raises CalibrationError naming the file and the problem."""
    p = Path(path)
    if not p.is_file():
        raise CalibrationError(f"calibration file {p} does not exist")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"calibration file {p} cannot be read: {exc}") from exc
    try:
        return TableView.from_json(text)
    except CalibrationError as exc:
        raise CalibrationError(f"{p}: {exc}") from exc


def display_available() -> bool:
    """Whether an OpenCV window can open here (cv2.imshow aborts the process without a display)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True
