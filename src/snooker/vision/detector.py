"""What every ball detector shares: the view it needs, its call signature, and a factory by name.

A detector is a callable ``detector(frame_bgr, view) -> BallDetections``. The classical detector
(``snooker.vision.classic``) and the YOLO detector (``snooker.vision.yolo``) both satisfy
:class:`BallDetector`; :func:`make_detector` builds one by name and imports the YOLO one only when
it is asked for, so torch and ultralytics are never loaded for the classical path. A detector that
can also look again in changed regions of the frame alone satisfies :class:`RegionDetector` (the
classical one does; the YOLO one detects in full, and the motion gate calls it so).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from snooker.vision.types import BallDetections

DETECTOR_NAMES: tuple[str, ...] = ("classic", "yolo")


class CalibratedView(Protocol):
    """The part of ``snooker.calibration.TableView`` a detector uses (image px ↔ table mm)."""

    def image_to_table(self, xy_px: np.ndarray) -> np.ndarray:
        """(n, 2) image pixels → (n, 2) table mm on the ball-centre plane."""
        ...

    def table_to_image(self, xy_mm: np.ndarray) -> np.ndarray:
        """(n, 2) table mm → (n, 2) image pixels."""
        ...

    def playing_area_mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """(H, W) bool: pixels on the cloth inside the cushion noses."""
        ...

    def ball_radius_px(self, xy_mm: np.ndarray) -> np.ndarray | float:
        """Apparent radius in pixels of a ball whose centre is at ``xy_mm`` (n, 2)."""
        ...


@runtime_checkable
class BallDetector(Protocol):
    """Finds and names the balls in one BGR frame of a calibrated table."""

    def __call__(self, frame_bgr: np.ndarray, view: CalibratedView) -> BallDetections: ...


@dataclass(frozen=True)
class MissingBalls:
    """Balls the caller of :meth:`RegionDetector.redetect` knew and its detections have lost since
    (no ball of the name found again near where each was last seen): ``xy_px`` (k, 2) frame px
    where each was last seen, ``names`` (k,) their names, ``confidence`` (k,) in [0, 1] the
    detector's confidence in each name then, and ``age`` (k,) frames since each was lost (1 on the
    frame after)."""

    xy_px: np.ndarray
    names: np.ndarray
    confidence: np.ndarray
    age: np.ndarray

    @classmethod
    def none(cls) -> MissingBalls:
        return cls(np.zeros((0, 2)), np.zeros(0, dtype=object), np.zeros(0), np.zeros(0, dtype=int))


@runtime_checkable
class RegionDetector(BallDetector, Protocol):
    """A ball detector that can also detect again in changed regions of the frame alone, the balls
    found before staying elsewhere (see ``snooker.vision.gating.MotionGatedDetector``)."""

    def redetect(
        self,
        frame_bgr: np.ndarray,
        view: CalibratedView,
        windows: Sequence[tuple[int, int, int, int]],
        owner: Callable[[np.ndarray], np.ndarray],
        missing: MissingBalls | None = None,
    ) -> BallDetections:
        """``windows``: (x0, y0, x1, y1) frame px, each around one part (its core) of the changed
        region; ``owner(xy_px)``: (n,) int, for frame points (n, 2) the index of the window whose
        core holds each, -1 where nothing changed; ``missing``: the balls the caller has lost
        since it last found them (None: none known), which the detector may look for harder."""
        ...


class UnknownDetectorError(ValueError):
    """Raised for a detector name that is not one of :data:`DETECTOR_NAMES`."""


def make_detector(name: str) -> BallDetector:
    """The detector called ``name`` (``classic`` or ``yolo``) with its default configuration.

    The module of each detector is imported here, not at import time, so asking for ``classic``
    never loads torch; a missing optional dependency surfaces as ImportError from this call.
    """
    if name == "classic":
        from snooker.vision.classic import ClassicDetector

        return ClassicDetector()
    if name == "yolo":
        module = importlib.import_module("snooker.vision.yolo")
        return module.YoloDetector()
    raise UnknownDetectorError(f"unknown detector {name!r}; expected one of {', '.join(DETECTOR_NAMES)}")
