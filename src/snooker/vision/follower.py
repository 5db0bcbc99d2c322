"""A cheap follower for balls the classical detector already knows.

While a stroke runs, most changed regions of the table are balls rolling, each alone on the cloth.
Searching them again (the detector's region search: highlights, blobs, plausibility, joint
naming) costs a fixed few milliseconds per frame. A ball already found and named can instead be
followed: in a small window around where it is expected, the foreground is computed against the
scene's cloth model, the window's candidates are found as the detector finds them (by their
highlights first; by ball-sized blobs only when no highlight candidate is near), and the one
nearest the expected place is centred on its rim exactly as the detector centres it
(``classic._centre_on_rim``) — the same start and the same fit, so followed centres equal detected
ones but for the window's edges. The ball keeps its name, its colour features and whether it
showed a highlight.

The follower is conservative: it answers None — and the caller searches the regions as before —
whenever it is unsure: another known ball lies in the window, no candidate lies near the expected
place, the ball's disc is not plainly filled, the window holds foreground that no known ball
explains (a new ball, a hand, the cue), the rim fit is refused,
or the fitted ball lies near a cushion or off the playing area (where the detector's stricter
checks apply: pocket leathers, a ball dropping).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import (
    ClassicConfig,
    ClassicScene,
    FollowerConfig,
    TableGeometry,
    _candidates,
    _centre_on_rim,
    _cloth_at,
    _cloth_foreground,
    _cloth_lightness,
    _coverage,
    _highlight_spots,
    _in_jaws,
    _near_cushion,
    _radius_at,
    _refine,
    _tophat,
    smooth_kernel_px,
)
from snooker.vision.cloth import ClothEstimate, not_cloth
from snooker.vision.colour import lab_lightness
from snooker.vision.detector import CalibratedView
from snooker.vision.types import BallDetections


def follow_scene(
    frame_bgr: np.ndarray,
    scene: ClassicScene,
    rows: np.ndarray,
    expected_px: np.ndarray,
    config: ClassicConfig,
    follower: FollowerConfig,
) -> ClassicScene | None:
    """``scene`` with the detected balls ``rows`` (indices into ``scene.detections``) moved to
    where ``frame_bgr`` shows them, each looked for around its expected place ``expected_px``
    (k, 2) frame px; None when any of them cannot be followed with confidence (see the module
    docstring). The scene is changed only when every ball was followed."""
    g = scene.geometry
    offset = np.array([g.x0, g.y0], dtype=float)
    candidates = _candidate_rows(scene, offset)
    if candidates is None or len(rows) == 0:
        return None
    moved = candidates[rows]
    h, w = g.area.shape
    pad = smooth_kernel_px(g.typical_radius, config) // 2 + 1
    expected = np.asarray(expected_px, dtype=float).reshape(-1, 2) - offset
    radii = _radius_at(g.radius, expected)
    reach = follower.window_radii * radii[:, None]
    lows = np.minimum(scene.centres[moved], expected) - reach
    highs = np.maximum(scene.centres[moved], expected) + reach
    inside = np.all((scene.centres[None] >= lows[:, None]) & (scene.centres[None] <= highs[:, None]), axis=2)
    inside[np.arange(len(moved)), moved] = False
    if inside.any():
        return None  # another known ball in a ball's window: looked for before any window's pixels
    fits, boxes, masks = [], [], []
    for k, candidate in enumerate(moved):
        low, high, margin = lows[k], highs[k], float(reach[k, 0])
        others = np.delete(scene.centres, candidate, axis=0)
        x0, y0 = max(0, int(low[0]) - pad), max(0, int(low[1]) - pad)
        x1, y1 = min(w, int(np.ceil(high[0])) + pad + 1), min(h, int(np.ceil(high[1])) + pad + 1)
        if x1 - x0 <= 2 * pad or y1 - y0 <= 2 * pad:
            return None
        image, foreground, body = _window_masks(frame_bgr, scene, (x0, y0, x1, y1), config)
        near = others[
            np.all((others >= [x0 - margin, y0 - margin]) & (others < [x1 + margin, y1 + margin]), axis=1)
        ]
        window = _Window(image, foreground, body, g.window(x0, y0, x1, y1), scene.view)
        fit = _fit(window, expected[k] - [x0, y0], near - [x0, y0], config, follower)
        if fit is None:
            return None
        fits.append(fit + np.array([x0, y0]))
        boxes.append((x0, y0, x1, y1))
        masks.append(foreground)
    centres = np.array(fits)
    centres_mm = scene.view.image_to_table(centres + offset)
    resting = STANDARD_TABLE.on_playing_area(centres_mm, margin_mm=config.cushion_margin_mm)
    if np.any(_near_cushion(centres_mm, config.near_cushion_mm)) or not np.all(
        resting | _in_jaws(centres_mm, config.jaws_reach_mm)
    ):
        return None
    for (x0, y0, x1, y1), foreground in zip(boxes, masks, strict=True):
        t, left = (pad if y0 > 0 else 0), (pad if x0 > 0 else 0)
        b, right = (pad if y1 < h else 0), (pad if x1 < w else 0)
        scene.foreground[y0 + t : y1 - b, x0 + left : x1 - right] = foreground[
            t : y1 - y0 - b, left : x1 - x0 - right
        ]
    scene.centres = scene.centres.copy()
    scene.centres_mm = scene.centres_mm.copy()
    scene.centres[moved] = centres
    scene.centres_mm[moved] = centres_mm
    d = scene.detections
    xy_px, radius_px, xy_mm = d.xy_px.copy(), d.radius_px.copy(), d.xy_mm.copy()
    xy_px[rows] = centres + offset
    radius_px[rows] = _radius_at(g.radius, centres)
    xy_mm[rows] = centres_mm
    scene.detections = BallDetections(xy_px, radius_px, d.ball, d.confidence, xy_mm)
    return scene


def _candidate_rows(scene: ClassicScene, offset: np.ndarray) -> np.ndarray | None:
    """(n,) the candidate of ``scene`` behind each detected ball (detections are candidates moved
    by the crop's offset); None when one cannot be told."""
    detected = scene.detections.xy_px - offset
    if len(detected) == 0 or len(scene.centres) == 0:
        return None
    gap = np.abs(detected[:, None, :] - scene.centres[None, :, :]).max(axis=2)
    rows = np.argmin(gap, axis=1)
    if np.any(gap[np.arange(len(rows)), rows] > _SAME_PX):
        return None
    return rows


_SAME_PX = 1e-6
"""A detection and a candidate this close (px) are the same ball."""


def _window_masks(
    frame_bgr: np.ndarray, scene: ClassicScene, box: tuple[int, int, int, int], config: ClassicConfig
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The image of crop box (x0, y0, x1, y1), its foreground and its ball-body mask, as the
    detector computes them (against the scene's cloth model)."""
    g = scene.geometry
    x0, y0, x1, y1 = box
    image = frame_bgr[g.y0 + y0 : g.y0 + y1, g.x0 + x0 : g.x0 + x1]
    cloth = ClothEstimate(
        scene.cloth.chromaticity[y0:y1, x0:x1], scene.cloth.brightness[y0:y1, x0:x1], scene.cloth.saturation
    )
    different, darker = not_cloth(image, cloth, config.cloth, config.ball_body_darker_ratio)
    foreground, body, _, _ = _cloth_foreground(
        image, different, darker, g.window(x0, y0, x1, y1), _cloth_at(cloth), config, scene.markings_shown
    )
    return image, foreground, body


@dataclass(frozen=True)
class _Window:
    """One follower window: its image, foreground and ball-body masks, its geometry (frame box and
    expected radii) and the view (to place its points on the table)."""

    image: np.ndarray
    foreground: np.ndarray
    body: np.ndarray
    geometry: TableGeometry
    view: CalibratedView


def _fit(
    window: _Window, expected: np.ndarray, others: np.ndarray, config: ClassicConfig, follower: FollowerConfig
) -> np.ndarray | None:
    """The ball's centre (2,) in ``window``, looked for around ``expected`` (window px): the
    detector's candidate nearest to it (found as the detector finds candidates, so the rim fit
    starts where the detector's would), centred on its rim. None when there is none within
    ``start_reach_radii``, the rim fit is refused, the disc is not plainly filled, or foreground
    neither it nor the other known balls ``others`` (k, 2) (window px; their discs may reach into
    the window) explain."""
    g, foreground = window.geometry, window.foreground
    offset = np.array([g.x0, g.y0], dtype=float)

    def on_table(points: np.ndarray) -> np.ndarray:
        return window.view.image_to_table(points + offset) if len(points) else np.zeros((0, 2))

    r = float(_radius_at(g.radius, expected[None])[0])
    lightness = lab_lightness(window.image)
    tophat = _tophat(lightness, g.typical_radius)
    # A ball with a highlight is the detector's candidate at its highlight: look for those first
    # (the blob search, for a ball whose highlight is lost, costs as much again).
    start = _nearest(
        _spot_centres(lightness, tophat, foreground, window.body, g, config), expected, r, follower
    )
    if start is None:
        spots, blobs, _, _, _ = _candidates(
            lightness, tophat, foreground, window.body, g, on_table, None, config
        )
        start = _nearest(np.concatenate([spots, blobs]), expected, r, follower)
    if start is None:
        return None
    radii = _radius_at(g.radius, start)
    centre = _centre_on_rim(start, foreground, radii, config, g.area)
    if np.array_equal(centre, start):
        return None  # the rim fit was refused: too few rays found a rim, or an implausible circle
    if _coverage(foreground, centre, config.coverage_radius * radii)[0] < follower.min_disc_fill:
        return None
    h, w = foreground.shape
    explained = np.zeros((h, w), np.uint8)
    extent = follower.explained_radius * r
    shadow = config.shadow_extent * r / 2
    for x, y in np.concatenate([centre, others.reshape(-1, 2)]):
        axes = (round(extent), round(extent + shadow))
        cv2.ellipse(explained, (round(x), round(y + shadow)), axes, 0.0, 0.0, 360.0, 1, -1)
    stray = np.count_nonzero(foreground & (explained == 0))
    if stray > follower.max_stray_ball_areas * np.pi * r * r:
        return None
    return centre[0]


def _spot_centres(
    lightness: np.ndarray,
    tophat: np.ndarray,
    foreground: np.ndarray,
    body: np.ndarray,
    g: TableGeometry,
    config: ClassicConfig,
) -> np.ndarray:
    """The candidates the detector finds by their highlights (``classic._candidates``' first half,
    before keeping them apart), (n, 2) px of the window."""
    cloth_lightness = _cloth_lightness(lightness, g.inner, body, config)
    spots = _refine(
        _highlight_spots(lightness, tophat, body, g.radius, config, cloth_lightness=cloth_lightness)[0],
        foreground,
        g.radius,
        g.typical_radius,
        config,
    )
    radii = _radius_at(g.radius, spots)
    return spots[_coverage(body, spots, config.coverage_radius * radii) >= config.min_coverage]


def _nearest(
    candidates: np.ndarray, expected: np.ndarray, r: float, follower: FollowerConfig
) -> np.ndarray | None:
    """(1, 2) the candidate nearest to ``expected`` (2,), if within ``start_reach_radii`` radii ``r``."""
    if len(candidates) == 0:
        return None
    gaps = np.linalg.norm(candidates - expected, axis=1)
    nearest = int(np.argmin(gaps))
    return candidates[[nearest]] if gaps[nearest] <= follower.start_reach_radii * r else None
