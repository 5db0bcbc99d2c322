"""The data types the vision layer hands on: one frame, and the balls found in it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from snooker.balls import BALL_NAMES


@dataclass(frozen=True)
class Frame:
    """One decoded video frame.

    ``index`` counts frames from the start of the source (0-based, including dropped ones);
    ``t`` is seconds since the start of the source; ``image`` is (H, W, 3) uint8 BGR.
    """

    index: int
    t: float
    image: np.ndarray

    def __post_init__(self) -> None:
        if self.image.ndim != 3 or self.image.shape[2] != 3 or self.image.dtype != np.uint8:
            shape, dtype = self.image.shape, self.image.dtype
            raise ValueError(f"frame image must be (H, W, 3) uint8 BGR, got {shape} {dtype}")


@dataclass(frozen=True)
class BallDetections:
    """Balls found in one frame, as aligned arrays with one row per ball.

    - ``xy_px``: (n, 2) float, image pixels, x right / y down, the ball's centre in the image.
    - ``radius_px``: (n,) float, apparent radius in pixels.
    - ``ball``: (n,) str, a ball name from ``snooker.balls.BALL_NAMES`` (``white``, ``red`` …).
    - ``confidence``: (n,) float in [0, 1].
    - ``xy_mm``: (n, 2) float, table mm (CONTRACTS.md frame, ball-centre plane); NaN where the
      frame has no calibration.
    - ``unnamed_xy_mm``: (m, 2) float, table mm: places where the detector found something
      ball-like alone on the cloth that fits no ball's colour (a ball blurred by its motion beyond
      naming, or a mark, a shade); the tracker may let a fast ball it follows continue there, and
      never starts a ball from one. Empty when the detector gives none.
    - ``unnamed_xy_px``: (m, 2) float, the same places in image pixels.
    """

    xy_px: np.ndarray
    radius_px: np.ndarray
    ball: np.ndarray
    confidence: np.ndarray
    xy_mm: np.ndarray = field(default=None)  # type: ignore[assignment]
    unnamed_xy_mm: np.ndarray = field(default=None)  # type: ignore[assignment]
    unnamed_xy_px: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        for name in ("unnamed_xy_mm", "unnamed_xy_px"):
            value = getattr(self, name)
            places = np.zeros((0, 2)) if value is None else np.asarray(value, dtype=float).reshape(-1, 2)
            object.__setattr__(self, name, places)
        if len(self.unnamed_xy_mm) != len(self.unnamed_xy_px):
            raise ValueError("unnamed_xy_mm and unnamed_xy_px must have one row per place")
        n = len(self.xy_px)
        xy = np.asarray(self.xy_px, dtype=float).reshape(n, 2)
        object.__setattr__(self, "xy_px", xy)
        object.__setattr__(self, "radius_px", np.asarray(self.radius_px, dtype=float).reshape(n))
        object.__setattr__(self, "ball", np.asarray(self.ball, dtype=object).reshape(n))
        object.__setattr__(self, "confidence", np.asarray(self.confidence, dtype=float).reshape(n))
        mm = np.full((n, 2), np.nan) if self.xy_mm is None else np.asarray(self.xy_mm, dtype=float)
        object.__setattr__(self, "xy_mm", mm.reshape(n, 2))
        unknown = sorted({str(b) for b in self.ball} - set(BALL_NAMES))
        if unknown:
            raise ValueError(f"unknown ball names {unknown}; expected {BALL_NAMES}")
        if n and (self.confidence.min() < 0.0 or self.confidence.max() > 1.0):
            raise ValueError("confidence must lie in [0, 1]")

    def __len__(self) -> int:
        return len(self.xy_px)

    @classmethod
    def empty(cls) -> BallDetections:
        return cls(np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=object), np.zeros(0))

    def select(self, mask: np.ndarray) -> BallDetections:
        """The rows where ``mask`` (bool array or index array) selects."""
        return BallDetections(
            self.xy_px[mask],
            self.radius_px[mask],
            self.ball[mask],
            self.confidence[mask],
            self.xy_mm[mask],
            self.unnamed_xy_mm,
            self.unnamed_xy_px,
        )

    def counts(self) -> dict[str, int]:
        """Number of balls of each name (names with none are included as 0)."""
        return {name: int(np.sum(self.ball == name)) for name in BALL_NAMES}
