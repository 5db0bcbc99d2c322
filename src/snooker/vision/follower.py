"""A cheap follower for balls the classical detector already knows.

While a stroke runs, most changed regions of the table are balls rolling, each alone on the cloth.
Searching them again (the detector's region search: highlights, blobs, plausibility, joint
naming) costs a fixed few milliseconds per frame. A ball already found and named can instead be
followed: in a small window around where it is expected, the foreground is computed against the
scene's cloth model, the window's best-covered ball-sized disc near the expected place is taken as
the start, and the centre is fitted to the rim exactly as the detector fits it
(``classic._centre_on_rim``), so followed centres match detected ones to a fraction of a pixel. The
ball keeps its name, its colour features and whether it showed a highlight.

The follower is conservative: it answers None — and the caller searches the regions as before —
whenever it is unsure: another known ball lies in the window, the window holds no ball-sized disc
or foreground that the ball does not explain (a new ball, a hand, the cue), the rim fit is refused,
or the fitted ball lies near a cushion or off the playing area (where the detector's stricter
checks apply: pocket leathers, a ball dropping).
"""

from __future__ import annotations

import cv2
import numpy as np

from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import (
    ClassicConfig,
    ClassicScene,
    FollowerConfig,
    _centre_on_rim,
    _coverage,
    _in_jaws,
    _near_cushion,
    _radius_at,
    _smooth,
)
from snooker.vision.cloth import ClothEstimate, not_cloth
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
    pad = config.smooth_kernel_px // 2 + 1
    fits, boxes, masks = [], [], []
    for k, candidate in enumerate(moved):
        last = scene.centres[candidate]
        expected = np.asarray(expected_px[k], dtype=float) - offset
        r = float(_radius_at(g.radius, expected[None])[0])
        reach = follower.window_radii * r
        low, high = np.minimum(last, expected) - reach, np.maximum(last, expected) + reach
        others = np.delete(scene.centres, candidate, axis=0)
        if len(others) and np.any(np.all((others >= low) & (others <= high), axis=1)):
            return None
        x0, y0 = max(0, int(low[0]) - pad), max(0, int(low[1]) - pad)
        x1, y1 = min(w, int(np.ceil(high[0])) + pad + 1), min(h, int(np.ceil(high[1])) + pad + 1)
        if x1 - x0 <= 2 * pad or y1 - y0 <= 2 * pad:
            return None
        foreground = _window_foreground(frame_bgr, scene, (x0, y0, x1, y1), config)
        near = others[
            np.all((others >= [x0 - reach, y0 - reach]) & (others < [x1 + reach, y1 + reach]), axis=1)
        ]
        fit = _fit(foreground, expected - [x0, y0], near - [x0, y0], r, config, follower)
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


def _window_foreground(
    frame_bgr: np.ndarray, scene: ClassicScene, box: tuple[int, int, int, int], config: ClassicConfig
) -> np.ndarray:
    """(h, w) bool foreground of crop box (x0, y0, x1, y1), as the detector computes it."""
    g = scene.geometry
    x0, y0, x1, y1 = box
    image = frame_bgr[g.y0 + y0 : g.y0 + y1, g.x0 + x0 : g.x0 + x1]
    cloth = ClothEstimate(scene.cloth.chromaticity[y0:y1, x0:x1], scene.cloth.brightness[y0:y1, x0:x1])
    different, _ = not_cloth(image, cloth, config.cloth)
    return _smooth(different & g.area[y0:y1, x0:x1], config)


def _fit(
    foreground: np.ndarray,
    expected: np.ndarray,
    others: np.ndarray,
    r: float,
    config: ClassicConfig,
    follower: FollowerConfig,
) -> np.ndarray | None:
    """The ball's centre (2,) in the window ``foreground``, looked for around ``expected`` (window
    px); None when no ball-sized disc is plainly there, or foreground neither it nor the other
    known balls ``others`` (k, 2) (window px; their discs may reach into the window) explain."""
    h, w = foreground.shape
    side = 2 * max(1, round(config.refine_radius * r)) + 1
    fill = cv2.blur(foreground.astype(np.float32), (side, side), borderType=cv2.BORDER_CONSTANT)
    reach = follower.start_reach_radii * r
    ys, xs = np.mgrid[0:h, 0:w]
    moved = np.hypot(xs - expected[0], ys - expected[1]) / r
    score = np.where(moved <= follower.start_reach_radii, fill - config.refine_distance_penalty * moved, -1.0)
    iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
    if reach <= 0 or fill[iy, ix] < follower.start_min_fill:
        return None
    start = np.array([[float(ix), float(iy)]])
    radii = np.array([r])
    centre = _centre_on_rim(start, foreground, radii, config)
    if np.array_equal(centre, start):
        return None  # the rim fit was refused: too few rays found a rim, or an implausible circle
    if _coverage(foreground, centre, config.coverage_radius * radii)[0] < follower.min_disc_fill:
        return None
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
