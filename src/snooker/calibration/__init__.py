"""Table geometry in mm and the mapping between image pixels and table millimetres.

``snooker.calibration.table`` is plain numpy (the referee uses it); everything that needs OpenCV
(finding the table, the camera model) is imported lazily, so importing this package costs nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "TableView": "snooker.calibration.view",
    "CalibrationError": "snooker.calibration.view",
    "ImageSizeMismatch": "snooker.calibration.view",
    "CalibrationDoesNotFit": "snooker.calibration.view",
    "CameraMoved": "snooker.calibration.view",
    "check_image_size": "snooker.calibration.view",
    "BALL_RADIUS": "snooker.calibration.view",
    "pockets_by_image_position": "snooker.calibration.view",
    "CameraModel": "snooker.calibration.camera",
    "CalibrationConfig": "snooker.calibration.detect",
    "TableNotFound": "snooker.calibration.detect",
    "find_table": "snooker.calibration.detect",
    "shows_table": "snooker.calibration.detect",
    "TableViewCheck": "snooker.calibration.detect",
    "refresh_view": "snooker.calibration.detect",
    "load_calibration": "snooker.calibration.manual",
    "save_calibration": "snooker.calibration.manual",
    "view_from_corners": "snooker.calibration.manual",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'snooker.calibration' has no attribute {name!r}")
