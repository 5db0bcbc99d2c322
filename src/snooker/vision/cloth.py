"""The cloth model: what the bare cloth looks like in this frame, and which pixels are not cloth.

The cloth's colour is estimated afresh in every frame, per region (a median over cells of the
playing area, interpolated smoothly), so slow changes of lighting, vignetting and broadcast colour
grading are followed. A pixel is compared with the cloth by two numbers that shadows barely
change: its rgb chromaticity (B, G, R divided by their sum — a shadow scales all three alike) and
its brightness relative to the cloth (very bright = white ball or highlight; very dark = black).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numba
import numpy as np


@dataclass(frozen=True)
class ClothConfig:
    """Thresholds of the cloth model. Units: px (image pixels), chromaticity (0–1), ratios."""

    cell_px: int = 48
    """Side of the square cells, px, in which the cloth colour is estimated by a median."""
    sample_step_px: int = 4
    """Only every this many-th pixel (in x and y) enters the medians; the cloth is smooth."""
    min_cell_fraction: float = 0.25
    """A cell's median counts only if at least this fraction of its pixels are playing area."""
    chroma_threshold: float = 0.13
    """rgb-chromaticity distance (0–1) from the local cloth above which a pixel is not cloth, for
    a cloth of ``reference_saturation``..."""
    reference_saturation: float = 0.39
    """...or more saturated (see :func:`chroma_threshold`; the cloths of the training broadcasts
    measure 0.34 to 0.75). A broadcast that washes its colours out brings every colour closer to
    the cloth, so for a less saturated cloth the threshold shrinks in proportion..."""
    threshold_factor_range: tuple[float, float] = (0.4, 1.0)
    """...by a factor kept within this range (most of the training footage keeps 1)."""
    saturation_sample_step_px: int = 16
    """The cloth's saturation is the median of every this many-th pixel (in x and y) of the model."""
    bright_ratio: float = 1.3
    """Brightness (B+G+R) relative to the local cloth above which a pixel is not cloth."""
    dark_ratio: float = 0.14
    """Brightness relative to the local cloth below which a pixel is not cloth (the black ball)."""
    max_cell_chroma_deviation: float = 0.08
    """A cell whose median chromaticity is further than this from the whole cloth's is not cloth
    (an arm, a cushion) and takes the whole cloth's colour instead."""
    max_cell_brightness_ratio: float = 1.6
    """A cell's median brightness must lie within this factor of the whole cloth's (either way)."""
    dark_chroma_floor: float = 12.0
    """Added to B+G+R before dividing, so the chromaticity of near-black pixels stays tame."""


@dataclass(frozen=True)
class ClothEstimate:
    """The cloth seen in one image region (a crop), pixel-aligned with that crop.

    ``chromaticity``: (H, W, 3) float32, the cloth's B, G, R divided by their sum;
    ``brightness``: (H, W) float32, the cloth's B+G+R (0–765);
    ``saturation``: the cloth's saturation over the whole frame (see :func:`cloth_saturation`),
    carried by estimates of parts of it; None: measured on this estimate when needed.
    """

    chromaticity: np.ndarray
    brightness: np.ndarray
    saturation: float | None = None


def estimate_cloth(image_bgr: np.ndarray, on_cloth: np.ndarray, config: ClothConfig) -> ClothEstimate:
    """Estimate the bare cloth per region from ``image_bgr`` (H, W, 3) uint8 where ``on_cloth``.

    Balls, the cue and shadows occupy a small share of each cell, so the per-cell median is the
    cloth. Cells with too little playing area, or whose median is not cloth-like (an arm over
    the table), take the median of all the cells.
    """
    return cloth_from_grid(cloth_grid(image_bgr, on_cloth, config), on_cloth.shape, config)


def cloth_from_grid(grid: np.ndarray, shape: tuple[int, ...], config: ClothConfig) -> ClothEstimate:
    """The cloth maps over an image of ``shape`` (H, W) from its :func:`cloth_grid`."""
    h, w = shape[:2]
    side = cloth_cell_side(config)
    rows, cols = grid.shape[:2]
    maps = cv2.resize(grid, (cols * side, rows * side), interpolation=cv2.INTER_LINEAR)[:h, :w]
    chroma, total = maps[..., :3], maps[..., 3]
    return ClothEstimate(chromaticity=chroma.astype(np.float32), brightness=total.astype(np.float32))


def cloth_cell_side(config: ClothConfig) -> int:
    """Side (px) of the cells of :func:`cloth_grid` (``cell_px`` rounded to whole samples)."""
    return max(1, config.cell_px // config.sample_step_px) * config.sample_step_px


@dataclass(frozen=True)
class ClothCells:
    """The cells of a cloth estimate, kept so that some of them can be taken again from a later
    picture (:func:`retake_cells`) while the others stay.

    ``medians`` (rows, cols, 3) float32: per cell the median B, G, R of its samples on the cloth
    (0 where none); ``counts`` (rows, cols): how many; ``on_samples`` (sh, sw) bool: which samples
    are on the cloth; ``cell``: samples per cell side. Sample (y, x) is the mean of the ``scale`` ×
    ``scale`` pixels from image px (``stride`` y, ``stride`` x) on, rounded as OpenCV's INTER_AREA
    rounds: the samples of the image shrunk by ``scale`` (see :func:`cloth_cells`). The arrays are
    updated in place.
    """

    medians: np.ndarray
    counts: np.ndarray
    on_samples: np.ndarray
    cell: int
    stride: int
    scale: int


def cloth_cells(
    image_bgr: np.ndarray, on_samples: np.ndarray, config: ClothConfig, scale: int = 1
) -> ClothCells:
    """The cells of :func:`cloth_grid` of ``image_bgr`` (H, W, 3) uint8 shrunk by ``scale`` (a whole
    factor that divides H and W; ``config`` in px of the shrunk image), without shrinking it: only
    the samples are made, each from its block of pixels. ``on_samples``: (sh, sw) bool, which
    samples (every ``sample_step_px``-th pixel of the shrunk image) are on the cloth."""
    on = np.ascontiguousarray(on_samples, dtype=np.bool_)
    cell = max(1, config.cell_px // config.sample_step_px)
    sh, sw = on.shape
    rows, cols = max(1, -(-sh // cell)), max(1, -(-sw // cell))
    cells = ClothCells(
        np.zeros((rows, cols, 3), np.float32),
        np.zeros((rows, cols), np.int64),
        on,
        cell,
        config.sample_step_px * scale,
        scale,
    )
    retake_cells(cells, image_bgr, np.ones((rows, cols), np.bool_))
    return cells


def retake_cells(cells: ClothCells, image_bgr: np.ndarray, wanted: np.ndarray) -> None:
    """Take the medians and counts of the ``wanted`` (rows, cols) cells again from ``image_bgr``."""
    _cell_medians(
        image_bgr,
        cells.on_samples,
        np.ascontiguousarray(wanted, dtype=np.bool_),
        cells.cell,
        cells.stride,
        cells.scale,
        cells.medians,
        cells.counts,
    )


def cloth_grid(image_bgr: np.ndarray, on_cloth: np.ndarray, config: ClothConfig) -> np.ndarray:
    """(rows, cols, 4) float32: per cell of :func:`estimate_cloth` (side :func:`cloth_cell_side`,
    from the image's top left) the cloth's chromaticity B, G, R and brightness B+G+R, which its
    maps interpolate linearly between the cells' centres."""
    step = config.sample_step_px
    return grid_of_cells(cloth_cells(image_bgr, on_cloth[::step, ::step], config), config)


def grid_of_cells(cells: ClothCells, config: ClothConfig) -> np.ndarray:
    """The grid of :func:`cloth_grid` from its cells: the cells with too few samples on the cloth,
    or whose median is not cloth-like (its chromaticity further than ``max_cell_chroma_deviation``
    from the median of the other cells' medians, or its brightness beyond
    ``max_cell_brightness_ratio`` of it either way), take that median (of the cells with enough
    samples). Chromaticity and brightness are computed per cell and interpolated (cheaper than
    per pixel)."""
    return _grid_kernel(
        cells.medians,
        cells.counts,
        config.min_cell_fraction * cells.cell * cells.cell,
        np.float32(config.dark_chroma_floor),
        np.float32(config.max_cell_chroma_deviation),
        np.float32(config.max_cell_brightness_ratio),
        np.float32(1.0 / config.max_cell_brightness_ratio),
    )


@numba.njit(cache=True, nogil=True)
def _grid_kernel(
    cell_medians: np.ndarray,
    counts: np.ndarray,
    min_count: float,
    floor: np.float32,
    max_deviation: np.float32,
    max_ratio: np.float32,
    min_ratio: np.float32,
) -> np.ndarray:
    """The compiled body of :func:`grid_of_cells` (it runs on every region search), in float32 as
    its array statements were: the cells counting ``min_count`` samples or more, their median B,
    G, R (NumPy's median: the mean of the two middle values for an even count), each kept where
    cloth-like against it and replaced by it elsewhere (128 where no cell counts); then per cell
    B, G, R over B+G+R + ``floor``, and B+G+R."""
    rows, cols = counts.shape
    medians = np.full((rows, cols, 3), np.float32(128.0), dtype=np.float32)
    enough = np.zeros((rows, cols), dtype=np.bool_)
    n = 0
    for r in range(rows):
        for c in range(cols):
            if counts[r, c] >= min_count:
                enough[r, c] = True
                n += 1
    if n > 0:
        values = np.empty(n, dtype=np.float32)
        overall = np.empty(3, dtype=np.float32)
        for k in range(3):
            i = 0
            for r in range(rows):
                for c in range(cols):
                    if enough[r, c]:
                        values[i] = cell_medians[r, c, k]
                        i += 1
            values.sort()
            if n % 2:
                overall[k] = values[n // 2]
            else:
                overall[k] = (values[n // 2 - 1] + values[n // 2]) / np.float32(2.0)
        reference_total = overall[0] + overall[1] + overall[2]
        reference_divisor = np.float32(np.float64(reference_total) + np.float64(floor))
        reference = overall / reference_divisor
        total_divisor = np.float32(max(np.float64(reference_total), 1.0))
        for r in range(rows):
            for c in range(cols):
                medians[r, c] = overall
                if not enough[r, c]:
                    continue
                colour = cell_medians[r, c]
                total = colour[0] + colour[1] + colour[2]
                chroma = colour / (total + floor)
                squared = np.float32(0.0)
                for k in range(3):
                    d = chroma[k] - reference[k]
                    squared += d * d
                ratio = total / total_divisor
                if np.sqrt(squared) <= max_deviation and ratio <= max_ratio and ratio >= min_ratio:
                    medians[r, c] = colour
    grid = np.empty((rows, cols, 4), dtype=np.float32)
    for r in range(rows):
        for c in range(cols):
            total = medians[r, c, 0] + medians[r, c, 1] + medians[r, c, 2]
            for k in range(3):
                grid[r, c, k] = medians[r, c, k] / (total + floor)
            grid[r, c, 3] = total
    return grid


@numba.njit(cache=True, nogil=True)
def _cell_medians(
    image: np.ndarray,
    on: np.ndarray,
    wanted: np.ndarray,
    cell: int,
    stride: int,
    scale: int,
    medians: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Per ``wanted`` cell of ``cell`` × ``cell`` samples (from the top left; the last row and
    column of cells may be cut short): the median B, G, R of its samples ``on`` the cloth (the
    mean of the two middle ones for an even count; 0 where none) into ``medians`` (rows, cols, 3)
    float32, and their count into ``counts`` (rows, cols); sample (y, x) from ``image`` as
    :class:`ClothCells` makes it (:func:`_sample_into`). Counted in histograms of the 8-bit values:
    exact, as sorting each cell's samples. Each sample's three channels are made in one pass over
    its pixels, and each histogram is read and cleared only between its cell's least and greatest
    values (a cloth cell's values span a few dozen of the 256; this kernel runs on every region
    search, over every cell of the crop)."""
    sh, sw = on.shape
    rows, cols = wanted.shape
    inverse_area = np.float32(1.0) / np.float32(scale * scale)
    histogram = np.zeros((3, 256), np.int64)
    sample = np.zeros(3, np.int64)
    lowest = np.zeros(3, np.int64)
    highest = np.zeros(3, np.int64)
    for r in range(rows):
        for c in range(cols):
            if not wanted[r, c]:
                continue
            lowest[:] = 255
            highest[:] = 0
            n = 0
            for y in range(r * cell, min(sh, (r + 1) * cell)):
                for x in range(c * cell, min(sw, (c + 1) * cell)):
                    if on[y, x]:
                        n += 1
                        _sample_into(sample, image, y * stride, x * stride, scale, inverse_area)
                        for k in range(3):
                            value = sample[k]
                            histogram[k, value] += 1
                            lowest[k] = min(lowest[k], value)
                            highest[k] = max(highest[k], value)
            counts[r, c] = n
            medians[r, c] = 0.0
            if n == 0:
                continue
            for k in range(3):
                median = _histogram_median_between(histogram[k], n, lowest[k], highest[k])
                medians[r, c, k] = np.float32(median)
                histogram[k, lowest[k] : highest[k] + 1] = 0


@numba.njit(cache=True, nogil=True)
def histogram_median(histogram: np.ndarray, n: int) -> float:
    """The median of ``n`` >= 1 values counted in ``histogram`` (one bin per value 0, 1, ...), as
    NumPy's median gives it: the middle value, or the mean of the two middle ones for an even
    count."""
    return _histogram_median_between(histogram, n, 0, len(histogram) - 1)


@numba.njit(cache=True, nogil=True, inline="always")
def _histogram_median_between(histogram: np.ndarray, n: int, lowest: int, highest: int) -> float:
    """:func:`histogram_median` of a histogram whose bins are empty below ``lowest`` and above
    ``highest`` (only those between are read)."""
    low, high = (n - 1) // 2, n // 2
    seen, lower, upper = 0, -1, -1
    for value in range(lowest, highest + 1):
        seen += histogram[value]
        if lower < 0 and seen > low:
            lower = value
        if seen > high:
            upper = value
            break
    return (lower + upper) / 2.0


@numba.njit(cache=True, nogil=True, inline="always")
def _sample_into(
    sample: np.ndarray, image: np.ndarray, y0: int, x0: int, scale: int, inverse_area: np.float32
) -> None:
    """Channels B, G, R (into ``sample`` (3,)) of the ``scale`` × ``scale`` pixels of ``image`` from
    (``y0``, ``x0``) on, averaged as OpenCV's INTER_AREA shrinks an 8-bit image by that whole
    factor: (sum + 2) >> 2 for 2 (its own rounding), else the sum times the float32 inverse of the
    area, rounded half to even."""
    if scale == 1:
        for k in range(3):
            sample[k] = np.int64(image[y0, x0, k])
        return
    if scale == 2:
        for k in range(3):
            total = (
                np.int64(image[y0, x0, k])
                + np.int64(image[y0, x0 + 1, k])
                + np.int64(image[y0 + 1, x0, k])
                + np.int64(image[y0 + 1, x0 + 1, k])
            )
            sample[k] = (total + 2) >> 2
        return
    for k in range(3):
        total = np.int64(0)
        for dy in range(scale):
            for dx in range(scale):
                total += np.int64(image[y0 + dy, x0 + dx, k])
        sample[k] = np.int64(np.rint(np.float32(total) * inverse_area))


def cloth_saturation(chromaticity: np.ndarray, config: ClothConfig) -> float:
    """The cloth's saturation: ``sqrt(Σq² - 1/3)`` of its chromaticity q (H, W, 3), the median over
    the region (the distance from grey when q sums to 1; the dark floor, which makes q sum to a
    little less, counts dull dark cloths as duller still)."""
    step = config.saturation_sample_step_px
    samples = chromaticity[::step, ::step].reshape(-1, 3)
    squared = float(np.median(np.sum(samples * samples, axis=1))) - 1.0 / 3.0
    return float(np.sqrt(max(squared, 0.0)))


def chroma_threshold(cloth: ClothEstimate, config: ClothConfig) -> float:
    """The rgb-chromaticity distance from the cloth beyond which a pixel is not cloth in this frame:
    ``chroma_threshold`` scaled by the cloth's saturation (:func:`cloth_saturation`). A broadcast's
    grading changes it for the whole frame alike, so one value serves the frame: the one ``cloth``
    carries for the whole frame when it describes a part of it, else its own."""
    saturation = cloth.saturation
    if saturation is None:
        saturation = cloth_saturation(cloth.chromaticity, config)
    low, high = config.threshold_factor_range
    factor = saturation / config.reference_saturation
    return config.chroma_threshold * float(np.clip(factor, low, high))


def not_cloth(
    image_bgr: np.ndarray, cloth: ClothEstimate, config: ClothConfig, darker_ratio: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(H, W) bool masks: pixels that differ from the local cloth in chromaticity or brightness,
    and pixels darker than ``darker_ratio`` times the cloth (all False when it is None).

    One compiled pass over the pixels (:func:`_windows_differences`, the whole image one window):
    this runs on every window the detector searches, where a chain of whole-image operations made
    a dozen passes and as many temporary images."""
    h, w = image_bgr.shape[:2]
    return not_cloth_in_windows(image_bgr, cloth, np.array([[0, 0, w, h]]), np.zeros(1), config, darker_ratio)


def not_cloth_in_windows(
    image_bgr: np.ndarray,
    cloth: ClothEstimate,
    boxes: np.ndarray,
    tops: np.ndarray,
    config: ClothConfig,
    darker_ratio: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`not_cloth` of windows of a larger picture stacked into ``image_bgr`` (H, W, 3): window
    k, the picture's box ``boxes[k]`` (x0, y0, x1, y1), lies at rows ``tops[k]`` on, columns 0 on,
    and is compared with ``cloth`` (a model of the whole picture) where it lies in the picture;
    False elsewhere. One compiled pass over the windows, without a copy of the model's maps."""
    h, w = image_bgr.shape[:2]
    different, darker = np.zeros((h, w), dtype=bool), np.zeros((h, w), dtype=bool)
    _windows_differences(
        image_bgr,
        cloth.chromaticity,
        cloth.brightness,
        np.ascontiguousarray(boxes, dtype=np.int64),
        np.ascontiguousarray(tops, dtype=np.int64),
        *_limits(cloth, config, darker_ratio),
        different,
        darker,
    )
    return different, darker


def _limits(
    cloth: ClothEstimate, config: ClothConfig, darker_ratio: float | None
) -> tuple[np.float32, np.float32, np.float32, np.float32, np.float32]:
    """The numbers of :func:`_windows_differences`, in float32: the dark floor, the squared chroma
    threshold, the bright and dark ratios and the darker ratio (-inf: none)."""
    return (
        np.float32(config.dark_chroma_floor),
        np.float32(chroma_threshold(cloth, config) ** 2),
        np.float32(config.bright_ratio),
        np.float32(config.dark_ratio),
        np.float32(darker_ratio if darker_ratio is not None else -np.inf),
    )


@numba.njit(cache=True, nogil=True)
def _windows_differences(
    image_bgr: np.ndarray,
    chromaticity: np.ndarray,
    brightness: np.ndarray,
    boxes: np.ndarray,
    tops: np.ndarray,
    dark_floor: np.float32,
    threshold_squared: np.float32,
    bright_ratio: np.float32,
    dark_ratio: np.float32,
    darker_ratio: np.float32,
    different: np.ndarray,
    darker: np.ndarray,
) -> None:
    """The compiled body of :func:`not_cloth_in_windows` (and :func:`not_cloth`): window by window,
    each pixel compared with the model at its place in the picture (:func:`_pixel_differences`)."""
    for k in range(len(boxes)):
        x0, y0, x1, y1, top = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3], tops[k]
        for y in range(y1 - y0):
            for x in range(x1 - x0):
                different[top + y, x], darker[top + y, x] = _pixel_differences(
                    np.float32(image_bgr[top + y, x, 0]),
                    np.float32(image_bgr[top + y, x, 1]),
                    np.float32(image_bgr[top + y, x, 2]),
                    chromaticity[y0 + y, x0 + x, 0],
                    chromaticity[y0 + y, x0 + x, 1],
                    chromaticity[y0 + y, x0 + x, 2],
                    brightness[y0 + y, x0 + x],
                    dark_floor,
                    threshold_squared,
                    bright_ratio,
                    dark_ratio,
                    darker_ratio,
                )


@numba.njit(cache=True, nogil=True, inline="always")
def _pixel_differences(
    b: np.float32,
    g: np.float32,
    r: np.float32,
    qb: np.float32,
    qg: np.float32,
    qr: np.float32,
    cloth_brightness: np.float32,
    dark_floor: np.float32,
    threshold_squared: np.float32,
    bright_ratio: np.float32,
    dark_ratio: np.float32,
    darker_ratio: np.float32,
) -> tuple[bool, bool]:
    """One pixel (``b``, ``g``, ``r``) against the cloth's chromaticity (``qb``, ``qg``, ``qr``)
    and brightness, in float32: the squared rgb-chromaticity distance |p / T - q|² expanded as
    Σp² / T² - 2 Σpq / T + Σq² (T = B + G + R + ``dark_floor``), and the brightness B + G + R
    relative to the cloth's (at least 1): whether it differs, and whether it is darker (none
    darker than a ratio of -inf). No branches, so that the loops around it vectorise."""
    one, two = np.float32(1.0), np.float32(2.0)
    total = b + g + r
    inverse = one / (total + dark_floor)
    distance = (b * b + g * g + r * r) * inverse * inverse
    distance -= (b * qb + g * qg + r * qr) * two * inverse
    distance += qb * qb + qg * qg + qr * qr
    ratio = total / max(cloth_brightness, one)
    differs = (distance > threshold_squared) | (ratio > bright_ratio) | (ratio < dark_ratio)
    return differs, ratio < darker_ratio
