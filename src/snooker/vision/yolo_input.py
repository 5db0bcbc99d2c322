"""The picture the YOLO network sees: the table's region, scaled so a ball has a fixed size.

Broadcast balls are small (about 6–12 px radius at 1280×720) and cameras differ in zoom, so the
network is trained and run at one ball scale: the frame is cropped to the table (from the
calibration) and resized so that a ball at the table's centre has ``target_ball_radius_px``; the
crop is padded to a multiple of the network stride. Training tiles (``snooker.datasets.yolo_export``)
are cut from pictures prepared the same way, so what the network learns is what it is shown.

Frames: source pixels are the frame's (x right, y down); network pixels are those of
``NetworkInput.image``; ``source = offset + network / scale``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np


class ScaledView(Protocol):
    """The part of ``snooker.calibration.TableView`` used here (image px ↔ table mm)."""

    table: object

    def ball_radius_px(self, xy_mm: np.ndarray) -> np.ndarray | float: ...

    @property
    def corners_px(self) -> np.ndarray: ...


@dataclass(frozen=True)
class InputConfig:
    """How a frame becomes the network's input.

    - ``target_ball_radius_px``: apparent ball radius at the table centre after scaling (px).
    - ``margin_ball_radii``: margin kept around the cushion-nose corners, in ball radii.
    - ``stride_px``: the network's largest stride; input sides are padded to a multiple of it (px).
    - ``pad_value``: grey level of the padding (ultralytics' letterbox grey).
    - ``fallback_width_px``: without a calibration the whole frame is scaled to this width (px).
    - ``max_side_px``: upper bound on either side of the network input (px), against absurd views.
    """

    target_ball_radius_px: float = 8.0
    margin_ball_radii: float = 4.0
    stride_px: int = 32
    pad_value: int = 114
    fallback_width_px: int = 1280
    max_side_px: int = 2048

    def __post_init__(self) -> None:
        if self.target_ball_radius_px <= 0 or self.stride_px <= 0 or self.fallback_width_px <= 0:
            raise ValueError("target_ball_radius_px, stride_px and fallback_width_px must be positive")


@dataclass(frozen=True)
class NetworkInput:
    """A frame prepared for the network.

    ``image``: (H, W, 3) uint8 BGR, sides multiples of the stride; ``offset_px``: (x, y) source px
    of the crop's top-left corner; ``scale``: network px per source px; ``valid_size``: (width,
    height) network px of real picture (the rest is padding).
    """

    image: np.ndarray
    offset_px: tuple[float, float]
    scale: float
    valid_size: tuple[int, int]

    def to_source(self, xy_network: np.ndarray) -> np.ndarray:
        """(n, 2) network px → (n, 2) source frame px."""
        return np.asarray(xy_network, dtype=float).reshape(-1, 2) / self.scale + np.asarray(self.offset_px)

    def to_network(self, xy_source: np.ndarray) -> np.ndarray:
        """(n, 2) source frame px → (n, 2) network px."""
        return (np.asarray(xy_source, dtype=float).reshape(-1, 2) - np.asarray(self.offset_px)) * self.scale


def table_scale_and_region(
    view: ScaledView, frame_shape: tuple[int, ...], config: InputConfig
) -> tuple[float, tuple[int, int, int, int]]:
    """Scale (network px per source px) and crop (x0, y0, x1, y1) source px for a calibrated view."""
    height, width = frame_shape[:2]
    corners = np.asarray(view.corners_px, dtype=float).reshape(-1, 2)
    radius = float(np.atleast_1d(view.ball_radius_px(_table_centre_mm(view)))[0])
    if not math.isfinite(radius) or radius <= 0:
        raise ValueError(f"calibration gives a ball radius of {radius} px at the table centre")
    margin = config.margin_ball_radii * radius
    x0 = int(max(0, math.floor(corners[:, 0].min() - margin)))
    y0 = int(max(0, math.floor(corners[:, 1].min() - margin)))
    x1 = int(min(width, math.ceil(corners[:, 0].max() + margin)))
    y1 = int(min(height, math.ceil(corners[:, 1].max() + margin)))
    if x1 - x0 < 2 or y1 - y0 < 2:
        raise ValueError("the calibrated table lies outside the frame")
    return config.target_ball_radius_px / radius, (x0, y0, x1, y1)


def _table_centre_mm(view: ScaledView) -> np.ndarray:
    """Centre of the playing area (mm) of the view's table."""
    table = getattr(view, "table", None)
    if table is None:
        raise ValueError("the view has no table geometry")
    return np.array([table.width_mm / 2.0, table.length_mm / 2.0])


def prepare_input(frame_bgr: np.ndarray, view: ScaledView | None, config: InputConfig) -> NetworkInput:
    """Crop and scale ``frame_bgr`` (H, W, 3 uint8 BGR) for the network; ``view`` may be None."""
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
        raise ValueError(f"frame must be (H, W, 3) uint8 BGR, got {frame_bgr.shape} {frame_bgr.dtype}")
    height, width = frame_bgr.shape[:2]
    if view is None:
        scale, (x0, y0, x1, y1) = config.fallback_width_px / width, (0, 0, width, height)
    else:
        scale, (x0, y0, x1, y1) = table_scale_and_region(view, frame_bgr.shape, config)
    out_w, out_h = round((x1 - x0) * scale), round((y1 - y0) * scale)
    if max(out_w, out_h) > config.max_side_px:
        shrink = config.max_side_px / max(out_w, out_h)
        scale *= shrink
        out_w, out_h = round((x1 - x0) * scale), round((y1 - y0) * scale)
    crop = frame_bgr[y0:y1, x0:x1]
    interpolation = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_LINEAR
    resized = cv2.resize(crop, (out_w, out_h), interpolation=interpolation)
    stride = config.stride_px
    padded_h, padded_w = math.ceil(out_h / stride) * stride, math.ceil(out_w / stride) * stride
    image = np.full((padded_h, padded_w, 3), config.pad_value, dtype=np.uint8)
    image[:out_h, :out_w] = resized
    # The exact scale per axis differs from ``scale`` by rounding; use the mean of both.
    exact_scale = 0.5 * (out_w / (x1 - x0) + out_h / (y1 - y0))
    return NetworkInput(
        image=image, offset_px=(float(x0), float(y0)), scale=exact_scale, valid_size=(out_w, out_h)
    )
