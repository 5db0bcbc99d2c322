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
            peak = True
            for reach in (1, max(before, after)):
                for ny in range(max(0, y - min(reach, before)), min(h, y + min(reach, after) + 1)):
                    for nx in range(max(0, x - min(reach, before)), min(w, x + min(reach, after) + 1)):
                        if values[ny, nx] > value:
                            peak = False
                            break
                    if not peak:
                        break
                if not peak:
                    break
            if peak:
                found[count] = y * w + x
                count += 1
    return found[:count]
