"""`snooker-referee detect IMAGE`: find and identify the balls in one still (CONTRACTS.md §3).

The table is found automatically unless ``--calibration FILE`` gives a saved calibration. With
``--json`` the result is one JSON object ``{"calibration": {...}, "balls": [...]}``; otherwise one
line per ball. Any failure (missing or unreadable image, no table, a detector that cannot load)
is one line on stderr and a non-zero exit code.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from snooker.vision.detector import DETECTOR_NAMES, make_detector
from snooker.vision.types import BallDetections

SCHEMA = "snooker.detect/1"
EXIT_BAD_INPUT = 2
EXIT_NO_TABLE = 3
EXIT_DETECTOR_UNAVAILABLE = 4


class DetectError(Exception):
    """A failure of the command, with the exit code it should end with."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="image file (JPEG, PNG, …) showing the whole table")
    parser.add_argument("--json", action="store_true", help="print CONTRACTS.md §3 JSON")
    parser.add_argument("--detector", choices=DETECTOR_NAMES, default="classic", help="ball detector")
    parser.add_argument("--calibration", metavar="FILE", help="saved calibration (default: find the table)")


def run(args: argparse.Namespace) -> int:
    try:
        result = detect_image(Path(args.image), args.detector, args.calibration)
    except DetectError as exc:
        print(f"snooker-referee detect: {exc}", file=sys.stderr)
        return exc.exit_code
    if args.json:
        print(json.dumps(result))
    else:
        for ball in result["balls"]:
            print(
                f"{ball['ball']:<7} px ({ball['x_px']:7.1f}, {ball['y_px']:6.1f})  "
                f"mm ({ball['x_mm']}, {ball['y_mm']})  confidence {ball['confidence']:.2f}"
            )
    return 0


def detect_image(
    path: Path, detector_name: str = "classic", calibration: str | None = None
) -> dict[str, Any]:
    """The CONTRACTS.md §3 result for the still at ``path``; raises DetectError on any failure."""
    from snooker.calibration import ImageSizeMismatch, check_image_size

    image = read_image(path)
    view = _view(image, calibration)
    try:
        check_image_size(view, image.shape)
    except ImageSizeMismatch as exc:
        raise DetectError(f"calibration {calibration} does not fit {path}: {exc}", EXIT_BAD_INPUT) from exc
    try:
        detector = make_detector(detector_name)
    except (ImportError, OSError, RuntimeError, ValueError) as exc:
        raise DetectError(
            f"the {detector_name} detector is not available: {exc}", EXIT_DETECTOR_UNAVAILABLE
        ) from exc
    detections = detector(image, view)
    return {"schema": SCHEMA, "image": str(path), "detector": detector_name, **to_contract(detections, view)}


def read_image(path: Path) -> np.ndarray:
    """The image at ``path`` as BGR uint8; raises DetectError if missing or not an image."""
    if path.is_dir():
        raise DetectError(f"{path} is a folder, not an image", EXIT_BAD_INPUT)
    if not path.is_file():
        raise DetectError(f"image {path} does not exist", EXIT_BAD_INPUT)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise DetectError(f"{path} is not a readable image (corrupt or unknown format)", EXIT_BAD_INPUT)
    return image


def _view(image: np.ndarray, calibration: str | None):
    from snooker.calibration import CalibrationError, TableNotFound, find_table, load_calibration

    if calibration is not None:
        try:
            return load_calibration(calibration)
        except CalibrationError as exc:
            raise DetectError(str(exc), EXIT_BAD_INPUT) from exc
    try:
        return find_table(image)
    except TableNotFound as exc:
        raise DetectError(f"no table found in the image: {exc}", EXIT_NO_TABLE) from exc


def to_contract(detections: BallDetections, view: Any) -> dict[str, Any]:
    """``{"calibration": {...}, "balls": [...]}`` as CONTRACTS.md §3 names the fields."""
    calibration = {
        "corners_px": np.asarray(view.corners_px, dtype=float).round(2).tolist(),
        "pockets_px": {
            name: [round(float(x), 2), round(float(y), 2)] for name, (x, y) in view.pockets_px.items()
        },
    }
    balls = [
        {
            "ball": str(name),
            "x_px": round(float(xy[0]), 2),
            "y_px": round(float(xy[1]), 2),
            "r_px": round(float(r), 2),
            "x_mm": _finite_or_none(mm[0]),
            "y_mm": _finite_or_none(mm[1]),
            "confidence": round(float(c), 3),
        }
        for xy, r, name, c, mm in zip(
            detections.xy_px,
            detections.radius_px,
            detections.ball,
            detections.confidence,
            detections.xy_mm,
            strict=True,
        )
    ]
    return {"calibration": calibration, "balls": balls}


def _finite_or_none(value: float, digits: int = 1) -> float | None:
    """JSON has no NaN: a coordinate that is not known is null."""
    return round(float(value), digits) if np.isfinite(value) else None
