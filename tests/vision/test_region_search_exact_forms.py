"""A region search's faster forms give the very values of the plain forms they replace, bit for bit.

A region search (``ClassicDetector.redetect``) is many small steps on a mosaic of windows; the
faster forms do the same arithmetic with less around it. Each is checked here against the plain
form it replaced (kept below as the reference, as it was) on hypothesis' inputs.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import Scene, make_view, render

from snooker.vision.classic import (
    _WINDOWS_APART_MM,
    ClassicConfig,
    ClassicDetector,
    _blob_centres,
    _blob_depth,
    _clamp,
    _Mosaic,
    _radius_at,
    _sparse_regions_at,
)
from snooker.vision.peaks import POSITIVE, local_peaks

H, W = 40, 56
half_pixels = st.integers(min_value=-8, max_value=2 * W + 8).map(lambda v: v / 2.0)
"""Places on a half-pixel grid (and beyond the picture), so that roundings meet their ties."""


# --------------------------------------------------------------------------- plain forms
def _plain_blob_centres(foreground, area, found, radius, peak_radius, config):
    """``_blob_centres`` as it was: each found ball's shapes rounded by Python's ``round``."""
    residual = foreground.astype(np.uint8)
    unshadowed = residual.copy()
    outside = (~area).view(np.uint8)
    r_found = _radius_at(radius, found)
    for (x, y), r in zip(found, r_found, strict=True):
        reach = config.explained_radius * r
        cv2.ellipse(
            residual,
            (round(x), round(y + config.shadow_extent * r / 2)),
            (round(reach), round(reach + config.shadow_extent * r / 2)),
            0.0,
            0.0,
            360.0,
            0,
            -1,
        )
        cv2.circle(unshadowed, (round(x), round(y)), round(reach), 0, -1)
    depth = cv2.distanceTransform(residual | outside, cv2.DIST_L2, 3)
    deep = cv2.distanceTransform(unshadowed | outside, cv2.DIST_L2, 3) if len(found) else depth
    depth = _blob_depth(depth, deep, area, radius, np.float32(config.unshadowed_blob_depth))
    window = max(3, round(config.blob_peak_window * peak_radius) | 1)
    peaks = local_peaks(depth, window, POSITIVE)
    _, centroids = _sparse_regions_at(peaks, depth.shape)
    if len(centroids) == 0:
        return np.zeros((0, 2))
    h, w = foreground.shape
    xs = _clamp(np.round(centroids[:, 0]).astype(int), w - 1)
    ys = _clamp(np.round(centroids[:, 1]).astype(int), h - 1)
    r = radius[ys, xs]
    ok = (depth[ys, xs] >= config.min_blob_depth * r) & (depth[ys, xs] <= config.max_blob_depth * r)
    xs, ys = xs[ok], ys[ok]
    order = np.argsort(-depth[ys, xs])
    return np.stack([xs[order], ys[order]], axis=1).astype(float)


def _plain_to_crop(mosaic, points):
    """``_Mosaic.to_crop`` as it was: each point's shift stacked from its window's box."""
    k = mosaic.window_of(points)
    shift = np.stack([mosaic.boxes[k, 0], mosaic.boxes[k, 1] - mosaic.tops[k]], axis=1)
    return points + shift


def _plain_apart(mosaic, points_mm, points):
    """``_Mosaic.apart`` as it was: each point's offset an outer product of its window."""
    return points_mm + np.outer(mosaic.window_of(points), [_WINDOWS_APART_MM, 0.0])


# --------------------------------------------------------------------------- inputs
@st.composite
def blob_scenes(draw):
    """A foreground of a few discs and boxes, a playing area with a margin off, a radius map that
    grows down the picture (in steps that put the radii's roundings on their ties), and found balls."""
    foreground = np.zeros((H, W), np.uint8)
    for _ in range(draw(st.integers(0, 5))):
        x, y = draw(st.integers(0, W - 1)), draw(st.integers(0, H - 1))
        if draw(st.booleans()):
            cv2.circle(foreground, (x, y), draw(st.integers(2, 9)), 1, -1)
        else:
            foreground[y : y + draw(st.integers(1, 14)), x : x + draw(st.integers(1, 14))] = 1
    area = np.zeros((H, W), bool)
    margin = draw(st.integers(0, 4))
    area[margin : H - margin, margin : W - margin] = True
    top = draw(st.sampled_from([2.5, 3.0, 3.5, 4.0, 4.5]))
    step = draw(st.sampled_from([0.0, 0.5, 0.25]))
    radius = (top + step * np.floor(np.arange(H) / 8.0)).astype(np.float32)[:, None].repeat(W, axis=1)
    found = np.array(draw(st.lists(st.tuples(half_pixels, half_pixels), max_size=6)), dtype=float).reshape(
        -1, 2
    )
    return foreground.astype(bool), area, found, np.ascontiguousarray(radius), float(top)


# --------------------------------------------------------------------------- the fast forms
@settings(max_examples=300, deadline=None)
@given(blob_scenes(), st.sampled_from([0.6, 0.5, 0.75]), st.sampled_from([1.15, 1.5, 1.25]))
def test_blob_centres_as_the_plain_form(scene, shadow_extent, explained_radius) -> None:
    foreground, area, found, radius, peak_radius = scene
    config = ClassicConfig(shadow_extent=shadow_extent, explained_radius=explained_radius)
    fast = _blob_centres(foreground, area, found, radius, peak_radius, config)
    plain = _plain_blob_centres(foreground, area, found, radius, peak_radius, config)
    assert fast.dtype == plain.dtype and fast.shape == plain.shape
    assert fast.tobytes() == plain.tobytes()


@pytest.fixture(scope="module")
def searched_scene():
    """A full detection's scene of a rendered table, and the next picture (a cue over it)."""
    view = make_view()
    balls = [("white", 1400.0, 1700.0), ("red", 1200.0, 1500.0), ("black", 889.0, 3245.0)]
    detector = ClassicDetector()
    detector(render(Scene(balls=balls), view), view)
    moved = [("white", 1300.0, 1650.0), ("red", 1250.0, 1450.0), ("black", 889.0, 3245.0)]
    image = render(Scene(balls=moved, cue=((1750.0, 1400.0), (1330.0, 1670.0))), view)
    return detector.scene, image


windows = st.lists(
    st.tuples(st.integers(-40, 1400), st.integers(-40, 800), st.integers(4, 400), st.integers(4, 300)).map(
        lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3])
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(windows, st.integers(0, 2**32 - 1))
def test_mosaic_points_as_the_plain_forms(searched_scene, boxes, seed) -> None:
    scene, image = searched_scene
    mosaic = _Mosaic.of(image, scene, boxes, ClassicConfig())
    if mosaic is None:
        return
    rng = np.random.default_rng(seed)
    h, w = mosaic.image.shape[:2]
    # anywhere in the mosaic and beyond it, whole pixels (rows on the windows' tops) and between
    points = np.concatenate(
        [
            rng.uniform([-5, -5], [w + 5, h + 5], (12, 2)),
            np.stack([rng.integers(0, w, len(mosaic.tops)), mosaic.tops], axis=1).astype(float),
            np.zeros((0, 2)),
        ]
    )
    points_mm = rng.uniform(-100.0, 3700.0, points.shape)
    for some in (points, points[:0], points[:1]):
        assert mosaic.to_crop(some).tobytes() == _plain_to_crop(mosaic, some).tobytes()
        apart = mosaic.apart(points_mm[: len(some)], some)
        assert apart.tobytes() == _plain_apart(mosaic, points_mm[: len(some)], some).tobytes()
