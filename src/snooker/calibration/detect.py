"""Find the table in an image automatically: cloth → rail lines → corners → pockets → camera.

Method (no per-image parameters):

1. Cloth: the dominant saturated hue in the middle of the frame is the cloth's (green, blue, …);
   pixels near that hue, saturated and not dark, are cloth. Morphology removes thin bridges
   (cue, score-graphic edges) and fills balls; the largest region is the table's cloth, which
   includes the cloth-covered cushion tops, so its outline runs along the wooden rails.
2. Rail lines: the outline's convex hull approximated by a quadrilateral tells which outline
   points belong to which side; a robust line (RANSAC, then least squares on the inliers) is fitted
   to each side, ignoring the ends (pockets cut the corners) and points pulled in by players.
3. Corners: the four lines intersect in the outer corners of the cushion-top cloth; the long axis
   and the baulk end are chosen (the camera's geometry, then the baulk line on the cloth).
4. Camera: a pinhole camera is fitted to those corners (``camera.py``), which predicts the six
   pocket openings; each is refined to the dark hole found near the prediction, and the camera is
   refitted to corners and holes together. The lens's radial distortion comes from the bending of
   the rail sides (or, with ``DistortionConfig.fit_to_pockets``, where a pinhole still misses the
   corners and the pocket leathers by a pixel or more, from the one that lets them fit one camera
   best: a long lens's slight pincushion).
5. Sanity: a convex quad covering enough of the frame, a plausible focal length, a small
   reprojection error — otherwise ``TableNotFound``.

``shows_table`` reuses step 1 to decide cheaply whether a frame still shows the calibrated view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numba
import numpy as np
from scipy.optimize import minimize_scalar

from snooker.balls import POCKET_NAMES
from snooker.calibration.camera import (
    CameraPrior,
    fit_camera,
    focal_from_hfov,
    undistort_radial,
    with_radial_distortion,
)
from snooker.calibration.rails import STANDARD_RAILS, RailGeometry
from snooker.calibration.table import STANDARD_TABLE, TableSpec
from snooker.calibration.view import TableView


class TableNotFound(RuntimeError):
    """No snooker table could be found in the image; the message says which step failed."""


@dataclass(frozen=True)
class ClothConfig:
    """How the cloth is segmented (OpenCV HSV units: hue 0–180, saturation and value 0–255)."""

    centre_fraction: float = 0.5
    """Side of the central window, as a fraction of the frame, where the cloth hue is sampled."""
    min_saturation: int = 80
    """Pixels less saturated than this are not cloth (grey floor, white graphics)."""
    min_value: int = 45
    """Pixels darker than this are not cloth (shadows, dark suits, rails)."""
    min_saturated_fraction: float = 0.1
    """At least this fraction of the central window must be saturated and bright (else no cloth)."""
    hue_smoothing: int = 5
    """Width (hue units) of the box filter over the hue histogram before taking its peak."""
    hue_tolerances: tuple[int, ...] = (12, 6)
    """Half-widths of the accepted hue band around the cloth hue (OpenCV hue units), tried in turn:
    the wide band copes with uneven light; the narrow one separates a score graphic of nearly the
    cloth's colour that touches the table. The candidate that agrees best with the pockets wins."""
    open_fraction: float = 0.006
    """Opening kernel size as a fraction of the frame width (cuts the cue and thin bridges)."""
    close_fraction: float = 0.02
    """Closing kernel size as a fraction of the frame width (fills balls and cue shadows)."""


@dataclass(frozen=True)
class LineFitConfig:
    """How the four rail lines are fitted to the cloth outline."""

    end_margin_fraction: float = 0.1
    """Fraction of each side ignored at both ends (the pockets cut the cloth's corners)."""
    band_fraction: float = 0.03
    """Outline points farther than this fraction of the frame diagonal from a hull side are ignored."""
    ransac_inlier_px: float = 2.0
    """A point is on a RANSAC line when within this distance (px, full resolution)."""
    ransac_iterations: int = 200
    min_side_points: int = 20
    """Fewer outline points than this on a side: the side is not seen, no table."""


@dataclass(frozen=True)
class DistortionConfig:
    """When and how radial lens distortion is estimated from the bending of the rail sides."""

    estimate: bool = True
    max_abs_coefficient: float = 0.6
    """Largest |k1| tried, with radii in units of the image's half-diagonal."""
    min_bending_px: float = 0.6
    """Sides whose points lie within this RMS distance (px) of straight lines count as straight."""
    min_straightening: float = 0.5
    """Distortion is accepted only if it cuts the sides' mean squared bending below this fraction."""
    trim_fraction: float = 0.8
    """Fraction of each side's points (the closest to its line) used, ignoring occluders."""
    fit_to_pockets: bool = False
    """Then choose the distortion that lets one pinhole camera fit the rail corners and the pocket
    leathers best. A long broadcast lens bends the rails by a pixel or two, within the outline's
    noise, yet leaves the pinhole fitted to them a per cent too large over the middle of the table:
    balls on their spots read up to 20 mm towards the middle. The leathers (middle pockets half
    way along the sides, corner ones beyond the corners) show the bending the sides hide. Off for
    now: on, the Task1 spots read within 3 mm at the baulk end (README), but the near corners move
    by up to 3 px and two stills' inventories under a broadcast look change (5.jpg brighter: a
    glint in the top-right pocket's jaws named green; 12.jpg other_broadcast: the brown by the far
    cushion lost), rows of ``tests/vision/test_recurring_stills_footage.py``."""
    fit_min_error_px: float = 1.0
    """...but only where the pinhole with the bending's distortion misses the rail corners and the
    leathers by at least this RMS (px at 1280 wide): a leather's blob sits where the model puts it
    only to about a pixel (its centroid moves with the view and the hole beside it), so a smaller
    misfit may be the leathers' own and is no evidence of the lens."""
    fit_min_pockets: int = 4
    """Fewer leathers than this agreeing with the rail corners: the distortion stays the bending's."""
    fit_max_abs_coefficient: float = 0.2
    """Largest |k1| (half-diagonal units) searched by that fit: a broadcast lens's few per cent,
    with room to spare, kept well inside the range where undistorting the outline stays one-to-one."""
    fit_grid_step: float = 0.02
    """Step (half-diagonal units) of the coarse scan before the fit's minimum is refined."""


@dataclass(frozen=True)
class PocketSearchConfig:
    """How each pocket's leather (the light plate lining the pocket on the rail) is found.

    Leather pixels are bright and only moderately saturated, unlike the cloth (saturated), the
    wooden rail (dark), the hole (dark) and the floor or surround (between the two). How much
    brighter the leather is than the cloth depends on the broadcast (white balance, tone curve),
    so the brightness cut is placed between the measured cloth and the leather's measured
    brightness in each search window rather than at a fixed ratio to the cloth.
    """

    search_radius_ball_radii: float = 3.0
    """Search window half-size around the predicted leather, in apparent ball radii there."""
    peak_percentile: float = 98.0
    """The leather's brightness in a window: this percentile (%) of the HSV value of the window's
    pixels that are not too saturated (the leather is a few per cent of the window at least)."""
    min_peak_over_cloth: float = 1.05
    """No leather in a window whose brightness (above) is less than this many times the cloth's
    median HSV value: nothing there stands out from the cloth."""
    value_cut_fraction: float = 0.3
    """A leather pixel's HSV value is above the cloth's median plus this fraction of the way from it
    to the window's leather brightness (0: the cloth's value, 1: the leather's peak)."""
    max_saturation_over_cloth: float = 0.7
    """A leather pixel is at most this fraction of the cloth's median HSV saturation (a broadcast's
    colour saturation scales the leather's and the cloth's alike)."""
    min_area_ball_areas: float = 0.4
    """Smallest leather blob, in apparent ball areas (less: occluded or not a leather)."""
    max_area_ball_areas: float = 8.0
    """Largest leather blob, in apparent ball areas (more: a shirt, the floor, a graphic)."""
    max_shift_ball_radii: float = 2.0
    """A blob centre farther than this from the prediction (ball radii) is not that leather."""
    weight: float = 1.0
    """Weight of a found leather in the camera refit (the rail corners have weight 1)."""


@dataclass(frozen=True)
class SanityConfig:
    """When a candidate is rejected as not a table."""

    min_cloth_fraction: float = 0.08
    """The cloth must cover at least this fraction of the frame."""
    max_fit_error_px: float = 10.0
    """RMS reprojection error of the final camera fit must stay below this (px at 1280 wide)."""
    orientation_tie_px: float = 1.0
    orientation_tie_fraction: float = 0.5
    """Two ways of laying the table on the outline whose corner fit errors differ by less than
    max(orientation_tie_px, orientation_tie_fraction × the best error) are told apart by the baulk end."""
    good_fit_px: float = 2.0
    """A candidate with every pocket confirmed and an RMS fit error below this (px) is accepted at once."""
    outlier_px: float = 4.0
    """A pocket leather farther than this from the fitted camera's prediction is dropped (px at 1280)."""
    min_leathers: int = 3
    """At least this many pocket leathers must agree with the rail corners: fewer, and the view is
    not a full-table view (a low side angle, a close-up) or the outline was misread."""
    pocket_margin_fraction: float = 0.0
    """Every predicted pocket must lie inside the frame, shrunk by this fraction of its width."""


@dataclass(frozen=True)
class ViewCheckConfig:
    """When a frame counts as still showing the calibrated full-table view."""

    min_cloth_inside: float = 0.6
    """Fraction of the playing area (inside the noses) that must look like cloth."""
    max_cloth_outside: float = 0.35
    """Largest fraction of a ring around the table (outside the rails) that may look like cloth."""
    ring_width_fraction: float = 0.06
    """Width of that ring, as a fraction of the frame width."""
    rail_inset_mm: float = 25.0
    """The rail edge is checked this far inside (cushion-top cloth) and outside (wood) the rail line;
    it is also how far the camera may drift before the view no longer counts as the same."""
    rail_samples_per_side: int = 40
    min_rail_edge_fraction: float = 0.5
    """Fraction of a side's samples where cloth inside and no cloth outside must be seen."""
    min_rail_sides: int = 3
    """How many of the four rail sides must show that edge (one may be hidden by a graphic or a player)."""
    area_sample_step: int = 4
    """Every this many-th pixel (in row order) of the playing area and of the ring is read: the
    fractions above are measured on a regular sample of some 100 k pixels instead of all 400 k,
    and only the pixels read are converted to HSV (a quarter of the work of a check)."""

    def __post_init__(self) -> None:
        if self.area_sample_step < 1:
            raise ValueError("area_sample_step must be at least 1")


@dataclass(frozen=True)
class CalibrationConfig:
    """Everything find_table and shows_table use; all thresholds are named and carry their unit."""

    cloth: ClothConfig = field(default_factory=ClothConfig)
    lines: LineFitConfig = field(default_factory=LineFitConfig)
    distortion: DistortionConfig = field(default_factory=DistortionConfig)
    pockets: PocketSearchConfig = field(default_factory=PocketSearchConfig)
    sanity: SanityConfig = field(default_factory=SanityConfig)
    view_check: ViewCheckConfig = field(default_factory=ViewCheckConfig)
    camera: CameraPrior = field(default_factory=CameraPrior)
    rails: RailGeometry = STANDARD_RAILS
    baulk_end: str = "auto"
    """Which image end of the table is baulk: ``auto``, or ``far``/``near`` (from the camera),
    or ``top``/``bottom``/``left``/``right`` of the image. ``auto`` looks for the baulk line and
    falls back to ``far`` (broadcast cameras stand behind the top cushion)."""
    baulk_line_min_contrast: float = 4.0
    """The baulk line must be this much brighter (value units) than the cloth beside it to count."""
    baulk_line_side_offsets_mm: tuple[float, ...] = (30.0, 60.0)
    """Where the cloth beside the would-be baulk line is sampled, on both sides (mm)."""
    baulk_line_span: tuple[float, float] = (0.15, 0.85)
    """Part of the table's width sampled along the line (fractions; avoids cushions and the D)."""
    baulk_line_samples: int = 60


DEFAULT_CONFIG = CalibrationConfig()
RAIL_SAMPLE_SPAN = (0.12, 0.88)
"""Part of each rail (fractions of its length) checked by shows_table: the corner pockets cut the rest."""
MIDDLE_POCKET_GAP = 0.08
"""Half-length (fraction of the long rails) around a middle pocket left out of that check."""
FOCAL_RANGE_SLACK = 0.01
"""Relative slack on the prior's focal range (the fit may end a hair outside the scanned range)."""


def cloth_hue(hsv: np.ndarray, config: ClothConfig) -> int:
    """The dominant hue (OpenCV units) of saturated, bright pixels in the middle of the frame."""
    h, w = hsv.shape[:2]
    fh, fw = int(h * config.centre_fraction / 2), int(w * config.centre_fraction / 2)
    centre = np.ascontiguousarray(hsv[h // 2 - fh : h // 2 + fh, w // 2 - fw : w // 2 + fw])
    hist = np.zeros(_HUES)  # a frame too small to have a middle: no hue counted (hue 0)
    if centre.size:
        # saturation and value at least their minima (uint8: at least their ceilings), by OpenCV
        low = (0, math.ceil(config.min_saturation), math.ceil(config.min_value))
        good = cv2.inRange(centre, low, (255, 255, 255))
        if cv2.countNonZero(good) < config.min_saturated_fraction * centre.shape[0] * centre.shape[1]:
            raise TableNotFound("no saturated cloth colour in the middle of the frame")
        hist = cv2.calcHist([centre], [0], good, [_HUES], [0, _HUES]).ravel().astype(float)
    k = config.hue_smoothing
    wrapped = np.concatenate([hist[-k:], hist, hist[:k]])  # hue is circular
    smooth = np.convolve(wrapped, np.ones(k), mode="same")[k:-k]
    return int(np.argmax(smooth))


_HUES = 180
"""OpenCV's 8-bit hues: 0-179 (degrees halved)."""


def cloth_mask(
    image_bgr: np.ndarray,
    config: ClothConfig,
    hue: int | None = None,
    tolerance: int | None = None,
    hsv: np.ndarray | None = None,
) -> np.ndarray:
    """uint8 mask (255 = cloth colour) of the frame, before picking the table's region: the hue
    within ``tolerance`` of ``hue`` (around the circle of 180), saturation and value at least
    ``min_saturation`` and ``min_value``. ``hsv``: the frame's OpenCV 8-bit HSV where the caller
    has it (a frame's conversion costs a few ms)."""
    if hsv is None:
        hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    if hue is None:
        hue = cloth_hue(hsv, config)
    if tolerance is None:
        tolerance = config.hue_tolerances[0]
    return _cloth_pixels(hsv, int(hue), int(tolerance), float(config.min_saturation), float(config.min_value))


@numba.njit(cache=True, nogil=True)
def _cloth_pixels(
    hsv: np.ndarray, hue: int, tolerance: int, min_saturation: float, min_value: float
) -> np.ndarray:
    """The compiled body of :func:`cloth_mask`, one pass over the frame (the array statements it
    replaced made six full-frame passes and int16 temporaries)."""
    h, w = hsv.shape[:2]
    out = np.zeros((h, w), dtype=np.uint8)
    for y in range(h):
        for x in range(w):
            diff = abs(int(hsv[y, x, 0]) - hue)
            diff = min(diff, 180 - diff)
            if diff <= tolerance and hsv[y, x, 1] >= min_saturation and hsv[y, x, 2] >= min_value:
                out[y, x] = 255
    return out


def _odd(n: float) -> int:
    k = max(3, round(n))
    return k if k % 2 else k + 1


def table_region(mask: np.ndarray, config: ClothConfig) -> np.ndarray:
    """The largest cloth region with holes filled (balls, players' hands), uint8 255 inside."""
    w = mask.shape[1]
    k_open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(w * config.open_fraction),) * 2)
    k_close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(w * config.close_fraction),) * 2)
    m = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k_open)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, k_close)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    if n <= 1:
        return np.zeros_like(mask)
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    region = (labels == biggest).astype(np.uint8) * 255
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return filled


def _line_through(points: np.ndarray, config: LineFitConfig, rng: np.random.Generator) -> np.ndarray:
    """Homogeneous line (a, b, c), a² + b² = 1, fitted robustly to ``points`` (n, 2)."""
    n = len(points)
    pairs = rng.integers(0, n, size=(config.ransac_iterations, 2))
    d = points[pairs[:, 1]] - points[pairs[:, 0]]
    norm = np.hypot(d[:, 0], d[:, 1])
    usable = norm >= 1e-6
    best_inliers = None
    if usable.any():
        first, d, norm = pairs[usable, 0], d[usable], norm[usable]
        normals = np.stack([-d[:, 1], d[:, 0]], axis=1) / norm[:, None]
        offsets = np.sum(points[first] * normals, axis=1)
        inliers = np.abs(normals @ points.T - offsets[:, None]) <= config.ransac_inlier_px
        best_inliers = inliers[int(np.argmax(inliers.sum(axis=1)))]
    pts = points[best_inliers] if best_inliers is not None and best_inliers.sum() >= 2 else points
    vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    a, b = -vy, vx
    return np.array([a, b, -(a * x0 + b * y0)], dtype=float)


def outline_sides(region: np.ndarray, config: LineFitConfig) -> list[np.ndarray]:
    """The cloth outline's points on each of its four sides, (n_k, 2) px each.

    Sides in image-clockwise order, starting at the corner nearest the frame's top-left; the
    ends of each side (pockets), points far from it (players) and points on the frame's edge are
    left out.
    """
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise TableNotFound("no cloth region")
    outline = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(float)
    hull = cv2.convexHull(outline.astype(np.float32))
    if len(hull) < 4:  # a region one pixel across (a frame a pixel high): approxPolyN asserts
        raise TableNotFound("the cloth outline has fewer than four corners")
    quad = cv2.approxPolyN(hull, 4, ensure_convex=True).reshape(-1, 2).astype(float)
    if len(quad) != 4:
        raise TableNotFound("the cloth outline is not a quadrilateral")
    quad = _order_clockwise(quad)
    band = config.band_fraction * np.hypot(*region.shape[:2])
    frame_h, frame_w = region.shape[:2]
    on_frame_edge = (
        (outline[:, 0] <= 1)
        | (outline[:, 1] <= 1)
        | (outline[:, 0] >= frame_w - 2)
        | (outline[:, 1] >= frame_h - 2)
    )
    sides = []
    for k in range(4):
        p, q = quad[k], quad[(k + 1) % 4]
        d = q - p
        length = np.hypot(*d)
        u = d / length
        normal = np.array([-u[1], u[0]])
        rel = outline - p
        along = rel @ u / length
        across = np.abs(rel @ normal)
        keep = (
            (along > config.end_margin_fraction)
            & (along < 1 - config.end_margin_fraction)
            & (across < band)
            & ~on_frame_edge
        )
        if keep.sum() < config.min_side_points:
            raise TableNotFound(f"side {k} of the table outline is hidden or cut by the frame edge")
        sides.append(outline[keep])
    return sides


def quad_from_sides(sides: list[np.ndarray], config: LineFitConfig, rng: np.random.Generator) -> np.ndarray:
    """Corners (4, 2) px where robust lines through consecutive sides meet."""
    lines = [_line_through(pts, config, rng) for pts in sides]
    corners = []
    for k in range(4):
        x = np.cross(lines[k - 1], lines[k])
        if abs(x[2]) < 1e-9:
            raise TableNotFound("two sides of the table outline are parallel")
        corners.append(x[:2] / x[2])
    return np.array(corners)


def rail_quad(region: np.ndarray, config: LineFitConfig, rng: np.random.Generator) -> np.ndarray:
    """Corners (4, 2) px of the cloth region's outline as four intersecting lines.

    Order: image-clockwise starting from the corner nearest the top-left of the frame.
    """
    return quad_from_sides(outline_sides(region, config), config, rng)


def _side_bending(sides: list[np.ndarray], kappa: float, image_size, trim: float) -> float:
    """Mean squared distance (px²) of the sides' points from straight lines once undistorted by ``kappa``."""
    total, count = 0.0, 0
    for pts in sides:
        u = undistort_radial(pts, kappa, image_size)
        centred = u - u.mean(axis=0)
        _, _, vt = np.linalg.svd(centred, full_matrices=False)
        d2 = np.sort((centred @ vt[1]) ** 2)
        kept = d2[: max(2, int(len(d2) * trim))]
        total += float(kept.sum())
        count += len(kept)
    return total / max(count, 1)


def estimate_radial_distortion(sides: list[np.ndarray], image_size, config: DistortionConfig) -> float:
    """The radial distortion κ (px⁻², ``camera.radial_distortion``) that makes the rail sides straight.

    Zero when the sides are already straight, or when bending them straight gains too little to
    be more than noise: a long-lens broadcast camera has no visible distortion.
    """
    if not config.estimate:
        return 0.0
    straight = _side_bending(sides, 0.0, image_size, config.trim_fraction)
    if np.sqrt(straight) < config.min_bending_px:
        return 0.0
    scale = np.hypot(*image_size) / 2.0
    limit = config.max_abs_coefficient
    best = minimize_scalar(
        lambda k: _side_bending(sides, k / scale**2, image_size, config.trim_fraction),
        bounds=(-limit, limit),
        method="bounded",
    )
    if best.fun > config.min_straightening * straight:
        return 0.0
    return float(best.x / scale**2)


def _order_clockwise(quad: np.ndarray) -> np.ndarray:
    """Order four points clockwise in the image (y down), starting nearest the frame's top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def _is_convex(quad: np.ndarray) -> bool:
    edges = np.roll(quad, -1, axis=0) - quad
    nxt = np.roll(edges, -1, axis=0)
    signs = edges[:, 0] * nxt[:, 1] - edges[:, 1] * nxt[:, 0]
    return bool(np.all(signs > 0) or np.all(signs < 0))


def _assignments(quad: np.ndarray) -> list[np.ndarray]:
    """The four ways the clockwise image quad can map onto the table corners.

    ``table.corners`` (baulk-left, baulk-right, top-right, top-left) runs counter-clockwise as
    seen from above, and a camera above the table sees it counter-clockwise too, so the table
    order is a rotation of the reversed (clockwise) image order.
    """
    reversed_quad = quad[::-1]
    return [np.roll(reversed_quad, -k, axis=0) for k in range(4)]


def _fit_candidate(quad: np.ndarray, image_size, table: TableSpec, config: CalibrationConfig):
    object_mm = config.rails.rail_corners(table)
    camera, residual = fit_camera(object_mm, quad, image_size, config.camera)
    return camera, residual


def _camera_plausible(camera, config: CalibrationConfig) -> bool:
    w = camera.image_size[0]
    f = camera.focal_px
    lo = focal_from_hfov(config.camera.max_hfov_deg, w)
    hi = focal_from_hfov(config.camera.min_hfov_deg, w)
    above = camera.centre_mm[2] > 0
    return bool(lo <= f * (1 + FOCAL_RANGE_SLACK) and f <= hi * (1 + FOCAL_RANGE_SLACK) and above)


def _choose_orientation(quad, image_size, table, config, hsv, kappa: float) -> tuple[np.ndarray, object]:
    """Pick which image corner is baulk-left: long axis from the camera fit, baulk end from the cloth."""
    candidates = []
    for assigned in _assignments(quad):
        camera, residual = _fit_candidate(assigned, image_size, table, config)
        if not _camera_plausible(camera, config):
            continue
        candidates.append((float(np.sqrt(np.mean(residual**2))), assigned, camera))
    if not candidates:
        raise TableNotFound("no camera can see the cloth outline as a table (wrong shape)")
    candidates.sort(key=lambda c: c[0])
    best_err = candidates[0][0]
    # Two candidates (the two ends of the same long axis) fit equally well; keep those.
    tolerance = max(config.sanity.orientation_tie_px, config.sanity.orientation_tie_fraction * best_err)
    tied = [c for c in candidates if c[0] <= best_err + tolerance]
    tied = tied[:2]
    if len(tied) == 1:
        return tied[0][1], tied[0][2]
    return _pick_baulk_end(tied, table, config, hsv, kappa)


def _pick_baulk_end(
    tied, table: TableSpec, config: CalibrationConfig, hsv, kappa: float
) -> tuple[np.ndarray, object]:
    mode = config.baulk_end
    if mode == "auto":
        scores = [
            _baulk_line_contrast(with_radial_distortion(camera, kappa), table, hsv, config)
            for _, _, camera in tied
        ]
        if (
            max(scores) >= config.baulk_line_min_contrast
            and max(scores) - min(scores) >= config.baulk_line_min_contrast
        ):
            best = int(np.argmax(scores))
            return tied[best][1], tied[best][2]
        mode = "far"
    for _, assigned, camera in tied:
        baulk_mid = (assigned[0] + assigned[1]) / 2.0
        top_mid = (assigned[2] + assigned[3]) / 2.0
        if _end_matches(mode, baulk_mid, top_mid, camera, table):
            return assigned, camera
    return tied[0][1], tied[0][2]


def _end_matches(mode: str, baulk_mid, top_mid, camera, table: TableSpec) -> bool:
    if mode in ("far", "near"):
        centre = camera.centre_mm
        d_baulk = np.hypot(centre[0] - table.width_mm / 2, centre[1])
        d_top = np.hypot(centre[0] - table.width_mm / 2, centre[1] - table.length_mm)
        return (d_baulk > d_top) == (mode == "far")
    axis = {"top": (1, -1), "bottom": (1, 1), "left": (0, -1), "right": (0, 1)}
    if mode not in axis:
        raise ValueError(f"baulk_end must be auto, far, near, top, bottom, left or right, not {mode!r}")
    i, sign = axis[mode]
    return bool(sign * (baulk_mid[i] - top_mid[i]) > 0)


def _baulk_line_contrast(camera, table: TableSpec, hsv: np.ndarray, config: CalibrationConfig) -> float:
    """How much brighter the cloth is along the would-be baulk line than beside it (value units)."""
    value = hsv[..., 2].astype(float)
    h, w = value.shape
    xs = np.linspace(*config.baulk_line_span, config.baulk_line_samples) * table.width_mm
    y0 = table.baulk_line_y_mm
    side = np.array(config.baulk_line_side_offsets_mm)
    offsets = np.concatenate([[0.0], side, -side])
    samples = []
    for dy in offsets:
        px = camera.project(np.column_stack([xs, np.full_like(xs, y0 + dy), np.zeros_like(xs)]))
        xi = np.clip(np.round(px[:, 0]).astype(int), 0, w - 1)
        yi = np.clip(np.round(px[:, 1]).astype(int), 0, h - 1)
        samples.append(value[yi, xi])
    samples = np.array(samples)
    on_line = samples[0]
    beside = np.median(samples[1:], axis=0)
    return float(np.median(on_line - beside))


def _find_leathers(hsv: np.ndarray, camera, table: TableSpec, config: CalibrationConfig, region) -> dict:
    """Centres (px) of the pocket leathers found near their predicted places, keyed by pocket."""
    cfg = config.pockets
    leathers = config.rails.pocket_leathers(table)
    mask = region if np.any(region) else None
    cloth_value = _channel_median(hsv, 2, mask)
    pale = hsv[..., 1] <= cfg.max_saturation_over_cloth * _channel_median(hsv, 1, mask)
    h, w = pale.shape
    found = {}
    r_mm = table.ball_radius_mm
    for name in POCKET_NAMES:
        centre = leathers[name]
        c_px = camera.project(centre[None])[0]
        steps = centre + np.array([[r_mm, 0.0, 0.0], [0.0, r_mm, 0.0]])
        r_px = float(np.linalg.norm(camera.project(steps) - c_px, axis=1).max())
        half = int(np.ceil(cfg.search_radius_ball_radii * r_px))
        x0, y0 = round(c_px[0]) - half, round(c_px[1]) - half
        xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + 2 * half + 1, w), min(y0 + 2 * half + 1, h)
        if xb - xa < 3 or yb - ya < 3:
            continue
        bright = _leather_pixels(hsv[ya:yb, xa:xb, 2], pale[ya:yb, xa:xb], cloth_value, cfg)
        if bright is None:
            continue
        n, _labels, stats, centroids = cv2.connectedComponentsWithStats(bright, connectivity=8)
        ball_area = np.pi * r_px**2
        best, best_d = None, None
        for k in range(1, n):
            area = stats[k, cv2.CC_STAT_AREA]
            if not cfg.min_area_ball_areas * ball_area <= area <= cfg.max_area_ball_areas * ball_area:
                continue
            c = centroids[k] + [xa, ya]
            d = float(np.hypot(*(c - c_px)))
            if d <= cfg.max_shift_ball_radii * r_px and (best_d is None or d < best_d):
                best, best_d = c, d
        if best is not None:
            found[name] = best
    return found


def _channel_median(image: np.ndarray, channel: int, mask: np.ndarray | None) -> float:
    """``np.median`` of one channel of a uint8 image (H, W, C) over the pixels where ``mask`` (H, W)
    uint8 is set (all where None), from its histogram: exact, without gathering the pixels (a
    frame's cloth is half a million of them)."""
    counts = cv2.calcHist([image], [channel], mask, [256], [0, 256]).ravel()
    cumulative = np.cumsum(counts)
    n = int(cumulative[-1])
    lower = int(np.searchsorted(cumulative, (n - 1) // 2, side="right"))
    upper = int(np.searchsorted(cumulative, n // 2, side="right"))
    return (lower + upper) / 2.0


def _leather_pixels(value: np.ndarray, pale: np.ndarray, cloth_value: float, cfg: PocketSearchConfig):
    """uint8 mask (1 = leather-like) of one search window, or None when nothing there is bright.

    ``value`` is the window's HSV value, ``pale`` its pixels not too saturated. The cut lies
    between the cloth's value and the window's brightest pale pixels, so it follows the leather
    when a broadcast makes it only a little brighter than the cloth (a bright cloth, a cool white
    balance) and keeps the floor or surround out when that is nearly as bright as the cloth.
    """
    if not pale.any():
        return None
    peak = float(np.percentile(value[pale], cfg.peak_percentile))
    if peak < cfg.min_peak_over_cloth * cloth_value:
        return None
    cut = cloth_value + cfg.value_cut_fraction * (peak - cloth_value)
    return (pale & (value >= cut)).astype(np.uint8)


def _robust_refit(assigned, pockets: dict, camera, image_size, table: TableSpec, config: CalibrationConfig):
    """Fit the camera to rail corners and leathers, dropping the worst leather while it disagrees.

    A leather is dropped when its reprojection error exceeds ``SanityConfig.outlier_px`` (scaled
    to the frame width): a hand or a shirt mistaken for it, or a leather half hidden.
    """
    pockets = dict(pockets)
    leathers = config.rails.pocket_leathers(table)
    limit = config.sanity.outlier_px * image_size[0] / 1280.0
    while True:
        names = list(pockets)
        object_mm = np.vstack([config.rails.rail_corners(table), *[leathers[n][None] for n in names]])
        image_px = np.vstack([assigned, *[pockets[n][None] for n in names]])
        weights = np.concatenate([np.ones(4), np.full(len(names), config.pockets.weight)])
        camera, residual = fit_camera(object_mm, image_px, image_size, config.camera, weights, initial=camera)
        if not names:
            return camera, residual, pockets
        worst = int(np.argmax(residual[4:]))
        if residual[4 + worst] <= limit:
            return camera, residual, pockets
        del pockets[names[worst]]


def _lens_misfit(residual: np.ndarray, pockets: dict, image_size, config: DistortionConfig) -> bool:
    """Whether the camera fitted to the rail corners and ``pockets`` (per-point ``residual``, px)
    misses them by enough, with enough leathers, for the lens's distortion to be fitted to them."""
    if not config.fit_to_pockets or len(pockets) < config.fit_min_pockets:
        return False
    return float(np.sqrt(np.mean(residual**2))) >= config.fit_min_error_px * image_size[0] / 1280.0


def _distortion_from_fit(
    sides: list[np.ndarray],
    assigned: np.ndarray,
    leathers_px: dict,
    camera,
    image_size,
    table: TableSpec,
    config: CalibrationConfig,
) -> float:
    """The radial distortion κ (px⁻²) under which the rail corners and ``leathers_px`` (as seen,
    distorted px) fit one pinhole camera best: the RMS reprojection error scanned over
    ±``fit_max_abs_coefficient`` and refined around the best step. ``sides`` are the outline's
    points as seen; ``assigned`` the rail corners found so far, in table order."""
    cfg = config.distortion
    scale2 = (np.hypot(*image_size) / 2.0) ** 2
    names = list(leathers_px)
    leathers = config.rails.pocket_leathers(table)
    object_mm = np.vstack([config.rails.rail_corners(table), *[leathers[n][None] for n in names]])
    seen = np.array([leathers_px[n] for n in names], dtype=float)
    weights = np.concatenate([np.ones(4), np.full(len(names), config.pockets.weight)])

    def fit_error(k1: float) -> float:
        kappa = k1 / scale2
        undistorted = [undistort_radial(side, kappa, image_size) for side in sides]
        try:
            quad = quad_from_sides(undistorted, config.lines, np.random.default_rng(0))
        except TableNotFound:
            return math.inf
        if not _is_convex(quad):
            return math.inf
        corners = _same_corners(quad, assigned)
        image_px = np.vstack([corners, undistort_radial(seen, kappa, image_size)])
        _, residual = fit_camera(object_mm, image_px, image_size, config.camera, weights, initial=camera)
        return float(np.sqrt(np.mean(residual**2)))

    limit, step = cfg.fit_max_abs_coefficient, cfg.fit_grid_step
    grid = np.linspace(-limit, limit, 2 * round(limit / step) + 1)
    errors = [fit_error(float(k)) for k in grid]
    best = int(np.argmin(errors))
    if not math.isfinite(errors[best]):
        return 0.0
    low, high = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    refined = minimize_scalar(fit_error, bounds=(low, high), method="bounded", options={"xatol": step / 20})
    k1 = float(refined.x) if refined.fun <= errors[best] else float(grid[best])
    return k1 / scale2


def _same_corners(quad: np.ndarray, assigned: np.ndarray) -> np.ndarray:
    """``quad``'s corners (4, 2) in the order of ``assigned``'s: each the one nearest it (the same
    outline seen through a slightly different lens moves its corners by a few pixels)."""
    nearest = np.argmin(np.linalg.norm(assigned[:, None, :] - quad[None, :, :], axis=2), axis=1)
    return quad[nearest]


def find_table(
    image_bgr: np.ndarray, config: CalibrationConfig = DEFAULT_CONFIG, table: TableSpec = STANDARD_TABLE
) -> TableView:
    """Find the table in a BGR image; raises TableNotFound (saying why) when there is none."""
    if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise TableNotFound("the image must be an (H, W, 3) uint8 BGR array")
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    hue = cloth_hue(hsv, config.cloth)
    best: TableView | None = None
    first_error: TableNotFound | None = None
    for tolerance in config.cloth.hue_tolerances:
        try:
            view = _find_with_cloth_band(image_bgr, hsv, hue, tolerance, config, table)
        except TableNotFound as exc:
            first_error = first_error or exc
            continue
        if best is None or _agreement(view) > _agreement(best):
            best = view
        if (
            len(view.extras["leathers_px"]) == len(POCKET_NAMES)
            and view.fit_error_px <= config.sanity.good_fit_px
        ):
            break
    if best is None:
        raise first_error or TableNotFound("no table")
    return best


def _agreement(view: TableView) -> tuple[int, float]:
    """How well a candidate agrees with the image: pockets confirmed, then a small fit error."""
    return (len(view.extras["leathers_px"]), -view.fit_error_px)


def _find_with_cloth_band(
    image_bgr, hsv, hue: int, tolerance: int, config: CalibrationConfig, table
) -> TableView:
    h, w = image_bgr.shape[:2]
    image_size = (w, h)
    region = table_region(cloth_mask(image_bgr, config.cloth, hue, tolerance, hsv), config.cloth)
    if region.sum() / 255 < config.sanity.min_cloth_fraction * h * w:
        raise TableNotFound("the cloth covers too little of the frame for a full-table view")
    rng = np.random.default_rng(0)
    raw_sides = outline_sides(region, config.lines)
    kappa = estimate_radial_distortion(raw_sides, image_size, config.distortion)
    sides = [undistort_radial(side, kappa, image_size) for side in raw_sides] if kappa else raw_sides
    quad = quad_from_sides(sides, config.lines, rng)
    if not _is_convex(quad):
        raise TableNotFound("the table outline is not convex")
    # From here on, fits happen in undistorted pixels; the image is searched with the lens applied.
    assigned, camera = _choose_orientation(quad, image_size, table, config, hsv, kappa)
    seen = _find_leathers(hsv, with_radial_distortion(camera, kappa), table, config, region)
    pockets = {name: undistort_radial(px[None], kappa, image_size)[0] for name, px in seen.items()}
    camera, residual, pockets = _robust_refit(assigned, pockets, camera, image_size, table, config)
    if _lens_misfit(residual, pockets, image_size, config.distortion):
        kappa = _distortion_from_fit(
            raw_sides, assigned, {n: seen[n] for n in pockets}, camera, image_size, table, config
        )
        sides = [undistort_radial(side, kappa, image_size) for side in raw_sides]
        assigned = _same_corners(quad_from_sides(sides, config.lines, np.random.default_rng(0)), assigned)
        pockets = {name: undistort_radial(px[None], kappa, image_size)[0] for name, px in seen.items()}
        camera, residual, pockets = _robust_refit(assigned, pockets, camera, image_size, table, config)
    camera = with_radial_distortion(camera, kappa)
    rms = float(np.sqrt(np.mean(residual**2)))
    if rms > config.sanity.max_fit_error_px * w / 1280.0:
        raise TableNotFound(f"the table outline and pockets do not agree (fit error {rms:.1f} px)")
    if not _camera_plausible(camera, config):
        raise TableNotFound("the fitted camera is implausible")
    if len(pockets) < config.sanity.min_leathers:
        raise TableNotFound(
            f"only {len(pockets)} pocket(s) seen where the table outline puts them; not a full-table view"
        )
    view = TableView(
        camera=camera,
        table=table,
        rails=config.rails,
        source="auto",
        fit_error_px=rms,
        extras={
            "leathers_px": {n: seen[n].tolist() for n in pockets},
            "rail_corners_px": assigned.tolist(),
            "radial_distortion_per_px2": kappa,
        },
    )
    margin = config.sanity.pocket_margin_fraction * w
    pockets_px = np.array(list(view.pockets_px.values()))
    inside = (pockets_px >= margin) & (pockets_px <= np.array([w, h]) - margin)
    if not inside.all():
        raise TableNotFound("some pockets fall outside the frame; not a full-table view")
    return view


def _rail_samples(
    view: TableView, inset_mm: float, samples_per_side: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per rail side, pixels just inside (on the cushion-top cloth) and just outside (on the wood).

    Samples near the pockets are left out: there the cloth is cut anyway. Sides in the order
    baulk, top, left, right.
    """
    table, rails = view.table, view.rails
    c, z = rails.cushion_top_width_mm, rails.cushion_top_height_mm
    w, length = table.width_mm, table.length_mm
    t = np.linspace(RAIL_SAMPLE_SPAN[0], RAIL_SAMPLE_SPAN[1], samples_per_side)
    t_side = t[np.abs(t - 0.5) > MIDDLE_POCKET_GAP]
    sides = []
    for side in range(4):
        pair = []
        for d in (c - inset_mm, c + inset_mm):
            pts = (
                np.column_stack([t * w, np.full_like(t, -d)]),
                np.column_stack([t * w, np.full_like(t, length + d)]),
                np.column_stack([np.full_like(t_side, -d), t_side * length]),
                np.column_stack([np.full_like(t_side, w + d), t_side * length]),
            )[side]
            pair.append(view.table_to_image(pts, height_mm=z))
        sides.append((pair[0], pair[1]))
    return sides


@dataclass(frozen=True)
class ViewCheckGeometry:
    """Where ``shows_table`` looks in frames of one size seen through one view (it depends on the
    view only, so a video computes it once), as flat pixel indices: ``inside`` the playing area,
    ``band`` the ring around the table outside the rails, and per rail side the samples just
    inside and just outside it (with whether each falls in the frame)."""

    shape: tuple[int, int]
    inside: np.ndarray
    band: np.ndarray
    rails: list[tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]]


def view_check_geometry(
    view: TableView, shape: tuple[int, ...], config: CalibrationConfig = DEFAULT_CONFIG
) -> ViewCheckGeometry:
    """The pixels ``shows_table`` reads for frames of ``shape`` (H, W[, 3]) seen through ``view``."""
    h, w = shape[:2]
    cfg = config.view_check
    area = view.playing_area_mask((h, w))
    grow = _odd(cfg.ring_width_fraction * w)
    outer = cv2.dilate(area, cv2.getStructuringElement(cv2.MORPH_RECT, (grow, grow)))
    near = cv2.dilate(area, cv2.getStructuringElement(cv2.MORPH_RECT, (grow // 2 | 1, grow // 2 | 1)))
    band = (outer > 0) & (near == 0)
    rails = [
        (_flat_indices(rail_in, (h, w)), _flat_indices(rail_out, (h, w)))
        for rail_in, rail_out in _rail_samples(view, cfg.rail_inset_mm, cfg.rail_samples_per_side)
    ]
    step = cfg.area_sample_step
    return ViewCheckGeometry((h, w), np.flatnonzero(area > 0)[::step], np.flatnonzero(band)[::step], rails)


def _flat_indices(px: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices of the pixels nearest ``px`` (n, 2) in an image of ``shape``, and whether each
    lies in it (those outside get index 0)."""
    h, w = shape
    xi, yi = np.round(px[:, 0]).astype(int), np.round(px[:, 1]).astype(int)
    ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    return np.where(ok, yi * w + xi, 0), ok


def shows_table(
    image_bgr: np.ndarray,
    view: TableView,
    config: CalibrationConfig = DEFAULT_CONFIG,
    geometry: ViewCheckGeometry | None = None,
) -> bool:
    """Whether ``image_bgr`` still shows the calibrated full-table view.

    True when the playing area looks mostly like cloth, the cloth stops at the predicted rail
    lines, and little cloth lies outside them. A player or the cue over the table, or a score
    graphic over a cushion, leaves these true; a close-up, a replay from another angle or a
    crowd shot does not. ``geometry`` (from :func:`view_check_geometry` for this view and frame
    size) saves recomputing it.
    """
    if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        return False
    h, w = image_bgr.shape[:2]
    if (w, h) != tuple(view.image_size):
        return False
    if geometry is None or geometry.shape != (h, w):
        geometry = view_check_geometry(view, (h, w), config)
    cfg = config.view_check
    if len(geometry.inside) == 0:
        return False
    pixels = image_bgr.reshape(-1, 3)

    def hsv(index: np.ndarray) -> np.ndarray:
        """HSV (n, 3) of the pixels at flat ``index`` (only those read are converted, as one row of
        an image: OpenCV converts row by row, and a column of n one-pixel rows costs ten times as
        much)."""
        row = np.take(pixels, index, axis=0).reshape(1, -1, 3)
        return cv2.cvtColor(row, cv2.COLOR_BGR2HSV).reshape(-1, 3)

    inside = hsv(geometry.inside)
    saturated = inside[:, 1] >= config.cloth.min_saturation
    if saturated.mean() < cfg.min_cloth_inside:
        return False
    hue = int(_channel_median(inside.reshape(1, -1, 3), 0, saturated.view(np.uint8).reshape(1, -1)))
    if _cloth_of_hsv(inside, config.cloth, hue).mean() < cfg.min_cloth_inside:
        return False
    sides_ok = 0
    for (in_index, in_ok), (out_index, out_ok) in geometry.rails:
        cloth_in = _cloth_of_hsv(hsv(in_index), config.cloth, hue) & in_ok
        cloth_out = _cloth_of_hsv(hsv(out_index), config.cloth, hue) & out_ok
        sides_ok += int((cloth_in & ~cloth_out).mean() >= cfg.min_rail_edge_fraction)
    if sides_ok < cfg.min_rail_sides:
        return False
    if len(geometry.band) == 0:
        return True
    return bool(_cloth_of_hsv(hsv(geometry.band), config.cloth, hue).mean() <= cfg.max_cloth_outside)


def _cloth_of_hsv(hsv: np.ndarray, config: ClothConfig, hue: int) -> np.ndarray:
    """bool (n,): which HSV pixels (n, 3) have the cloth's colour around ``hue`` (as
    :func:`cloth_mask` with its first tolerance)."""
    diff = np.abs(hsv[:, 0].astype(np.int16) - hue)
    diff = np.minimum(diff, 180 - diff)
    tolerance = config.hue_tolerances[0]
    return (diff <= tolerance) & (hsv[:, 1] >= config.min_saturation) & (hsv[:, 2] >= config.min_value)


class TableViewCheck:
    """``shows_table`` with the pixels it reads computed once per view and frame size."""

    def __init__(self, config: CalibrationConfig = DEFAULT_CONFIG) -> None:
        self.config = config
        self._cached: tuple[TableView, tuple[int, int], ViewCheckGeometry] | None = None

    def __call__(self, image_bgr: np.ndarray, view: TableView) -> bool:
        if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[1::-1] != tuple(view.image_size):
            return shows_table(image_bgr, view, self.config)
        shape = (image_bgr.shape[0], image_bgr.shape[1])
        if self._cached is None or self._cached[0] is not view or self._cached[1] != shape:
            self._cached = (view, shape, view_check_geometry(view, shape, self.config))
        return shows_table(image_bgr, view, self.config, self._cached[2])


def refresh_view(
    image_bgr: np.ndarray,
    view: TableView | None,
    config: CalibrationConfig = DEFAULT_CONFIG,
    table: TableSpec = STANDARD_TABLE,
) -> TableView | None:
    """The view to use for this frame: ``view`` while the frame still shows it, else a new one.

    For video: cheap while the camera holds still (``shows_table`` only); after a camera move or a
    cut back to the full-table view it calibrates again; None when the frame shows no full table
    (a close-up, a replay, the crowd), so such frames can be skipped.
    """
    if view is not None and shows_table(image_bgr, view, config):
        return view
    try:
        return find_table(image_bgr, config, table)
    except TableNotFound:
        return None
