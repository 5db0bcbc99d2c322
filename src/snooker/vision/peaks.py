"""Local maxima of a distance or depth map (px), found in one compiled pass: the ball-like peaks of
the classical detector's blob depth and of the other views' distance to the cloth."""

from __future__ import annotations

import numba
import numpy as np

POSITIVE = np.nextafter(np.float32(0.0), np.float32(1.0))
"""The least positive float32: as :func:`local_peaks`' floor, the positive values."""


@numba.njit(cache=True, nogil=True)
def local_peaks(values: np.ndarray, window: int, floor: np.float32) -> np.ndarray:
    """Ascending flat indices of the pixels of ``values`` (h, w) float32 at least ``floor`` and
    at least every value in the ``window`` x ``window`` square around them, clipped to the image
    (anchored as OpenCV's dilation anchors it): ``np.flatnonzero((values >= cv2.dilate(values,
    square)) & (values >= floor))``, in one pass that looks round only the pixels at least
    ``floor``, their nearest neighbours first (where a pixel that is no peak nearly always has a
    higher one)."""
    h, w = values.shape
    before = window // 2
    after = window - 1 - before
    found = np.empty(h * w, dtype=np.int64)
    count = 0
    for y in range(h):
        for x in range(w):
            value = values[y, x]
            if value < floor:
                continue
            if _higher_within(values, y, x, min(1, before), min(1, after)):
                continue  # the nearest neighbours first
            if _higher_within(values, y, x, before, after):
                continue
            found[count] = y * w + x
            count += 1
    return found[:count]


@numba.njit(cache=True, nogil=True)
def _higher_within(values: np.ndarray, y: int, x: int, before: int, after: int) -> bool:
    """Whether a value of ``values`` (h, w) from ``before`` px above and left of (``y``, ``x``) to
    ``after`` px below and right of it (clipped to the image) exceeds the value there."""
    h, w = values.shape
    value = values[y, x]
    for ny in range(max(0, y - before), min(h, y + after + 1)):
        for nx in range(max(0, x - before), min(w, x + after + 1)):
            if values[ny, nx] > value:
                return True
    return False
