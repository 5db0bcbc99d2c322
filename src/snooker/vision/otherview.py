"""The cue ball in frames that show no calibrated table: a broadcast's low side and corner views,
close-ups of the pack, the view of a player addressing the cue ball.

The referee cannot rule from such a view (no table geometry, so no table mm), but the cue ball can
still be followed in the image, for a graphics feed and for whoever scores a clip frame by frame.
Without a calibration the ball's size is unknown and changes with depth; what is known:

- the cloth is the frame's dominant saturated colour (``calibration.detect.cloth_hue``) and the table
  is the convex hull of its largest region;
- a ball is a round hole in the cloth: a peak of the distance to the cloth inside the hull, whose
  distance is its radius, with cloth around most of it (a ring), the table under that ring (not a
  shirt cuff over the cushion), and an edge near its radius in most directions (not a strip along a
  cushion or the cue, not a hand or an arm);
- seen in perspective, the balls' radii grow smoothly down the frame: a disc whose size disagrees
  with the others' is not a ball (a cue's ferrule, a hand);
- the cue ball is white. Over green cloth a white ball takes on the cloth's colour, and a
  broadcast's grading can make it look pale yellow-green: only the colour away from the cloth's
  counts against it (``whiteness``), which a pink, a yellow or a hand cannot escape. But a cream
  cue ball under warm light reads less white than a rest's steel head or a white cue shaft beside
  it, so the candidates are ranked by a learned score (:mod:`snooker.vision.cueball_score`: size
  against the others', shading, highlight and the look of the neighbourhood as well as colour);
  the whitest is taken only where nothing scores and nothing is held.

:class:`OtherViewCueBall` follows it from frame to frame: the best-scored ball near its last place
continues it; a ball addressed by the cue (hidden by the hand, merged with the cue tip) is held where
it was for ``hold_s``. With nothing to hold (a view's first frames) and no ball scored enough, it
looks closer: circles found by their rims inside holes larger than a ball (the cue ball merged with
the bridge hand). All positions are image px of the frame; radii are image px.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field, replace

import cv2
import numba
import numpy as np

from snooker.calibration.detect import ClothConfig, TableNotFound, cloth_hue, cloth_mask
from snooker.vision.cueball_score import (
    CandidateContext,
    CueBallScoreModel,
    ScoreFeatureConfig,
    candidate_features,
    packaged_model,
)


@dataclass(frozen=True)
class OtherViewConfig:
    """How the cue ball is found and followed where no table is calibrated (px are image px)."""

    enabled: bool = True
    """Look for the cue ball in frames that do not show the calibrated table."""
    cloth: ClothConfig = field(default_factory=lambda: ClothConfig(centre_fraction=0.8))
    """The cloth's hue and mask (the calibration's; the hue sampled over most of the frame, as the
    table may lie anywhere in a side view)."""
    hue_sample_step_px: int = 4
    """The cloth's hue is taken from every this many px in each direction (its histogram's peak)."""
    min_cloth_fraction: float = 0.08
    """Less cloth than this fraction of the frame: no table in view (a crowd shot, a close-up)."""
    smoothing_px: int = 3
    """Side (px) of the opening that cleans the cloth mask and the holes in it (noise, seams)."""
    peak_window_px: int = 5
    """Side (px) of the window in which a distance peak must be the largest."""
    min_radius_px: float = 3.0
    """Holes narrower than this radius (px) are not balls (the cue, seams, specks)."""
    max_peaks: int = 400
    """At most this many peaks, widest first, are looked at (a pack gives ~20, a strip of cushion
    shadow a ridge of them)."""
    peak_separation: float = 1.2
    """A peak within this many of a wider ball's radii from its centre is part of it (two balls
    touching lie ~2.3 radii apart)."""
    ring_radii: tuple[float, float] = (1.3, 1.7)
    """The ring around a candidate (inner, outer; in its radii) where cloth must show."""
    min_ring_cloth: float = 0.35
    """Fraction of the ring that must be cloth (a ball in the pack touches a few others)."""
    min_ring_on_table: float = 0.9
    """Fraction of the ring that must lie on the table's hull (not over the cushion's top edge)."""
    edge_rays: int = 16
    """Directions in which the candidate's edge is looked for."""
    edge_search_radii: float = 2.0
    """How far (radii) along each direction the edge is looked for."""
    edge_within_radii: float = 1.6
    """A direction is closed when the edge lies within this many radii."""
    min_closed_fraction: float = 0.6
    """Fraction of the directions that must be closed (an arm, a hand leave more open)..."""
    max_open_lines: int = 2
    """...and at most this many directions may be open both ways (a strip of the cue or a
    cushion's shadow is open along it, ~3 of 16 directions each way)."""
    min_balls_for_size: int = 4
    """With fewer balls than this, their sizes are not compared."""
    radius_agreement: tuple[float, float] = (0.6, 1.4)
    """A ball's radius over the one the others' sizes give at its place must lie in this range
    (wide: a ball half hidden or merged with its shadow reads smaller or larger)..."""
    max_radius_gradient: float = 0.005
    """A plane of radii may change by at most this fraction of the typical radius per px (a table
    seen from its side, three times deeper at the top of the frame than at the bottom, changes by
    ~0.0015; a row of small discs beside a ball would need ten times that)."""
    size_cap_quantile: float = 0.8
    """A disc's area counts in the size fit up to this quantile of the discs' radii, squared."""
    min_triple_determinant: float = 1e-6
    """Three balls in a line (|det| of their system below this, px²) make no plane."""
    size_fit_triples: int = 400
    """At most this many planes through three balls are tried (all of them up to 14 balls)..."""
    size_fit_seed: int = 0
    """...the rest a fixed random sample (the same frame gives the same answer)."""
    circle_radius_range: tuple[float, float] = (0.6, 1.4)
    """Looking closer (see :func:`ball_candidates`): circles from this fraction of the smallest
    hole's inscribed radius among the balls to this multiple of the largest one's..."""
    min_circle_radius_px: float = 4.0
    """...and of at least this radius (px)..."""
    min_merged_hole_radii: float = 2.0
    """...in holes at least as large as a disc of this many of the smallest radius..."""
    circle_edge_threshold: float = 120.0
    """...with rims where the grey level's gradient passes this (the Canny threshold, levels)..."""
    circle_votes: float = 22.0
    """...gathering this many votes of the Hough transform..."""
    min_circle_in_hole: float = 0.7
    """...and lying at least this fraction in the hole."""
    radius_scale: float = 1.15
    """The ball's radius over the hole's inscribed radius (its shaded rim reads as cloth shadow)."""
    core_radius: float = 0.6
    """Radius (ball radii) of the core whose median colour describes the ball."""
    min_whiteness: float = 150.0
    """The least whiteness (Lab L units, 8-bit) a cue ball can have (a pink reads ~100, a yellow
    ~135, a white tinted by green cloth 170-230)."""
    follow_radii: float = 4.0
    """The whitest ball within this many radii of the last sighting continues it..."""
    whiteness_margin: float = 25.0
    """...unless a ball elsewhere is whiter by more than this (the follower had taken something
    else). With none near, a ball elsewhere is taken (the ball moved fast, or the view cut) only if
    it is at most this much less white than the last sighting, else the last is held (a yellow or a
    hand is not taken for the cue ball while the cue hides it)."""
    hold_s: float = 1.0
    """A cue ball lost for up to this long (s) is held where it was last seen: addressed by the cue
    it does not move, and the hand or the tip merge with it."""
    learned_score: bool = True
    """Pick the cue ball by the learned score (:mod:`snooker.vision.cueball_score`, the packaged
    model) rather than by whiteness: the candidates scored at least ``min_score`` are those that may
    be it, the best scored within ``follow_radii`` of the last sighting continues it unless one
    elsewhere scores more by over ``score_margin``, and with none near, one elsewhere is taken only
    if it scores at most ``score_margin`` below the last sighting. Task4's other views, the model
    trained on other clips (five ways): the followed cue ball 92.8 % of frames against 78.2 % by
    whiteness (``scripts/train_cue_ball_score.py``, docs/PERFORMANCE.md)."""
    min_score: float = 0.5
    """The least score (probability) a candidate that may be the cue ball has."""
    score_margin: float = 0.3
    """The score's counterpart of ``whiteness_margin`` (probability)."""
    whiteness_fallback: bool = True
    """Scored, with no sighting to hold and no candidate scoring ``min_score``, the cue ball is
    picked by whiteness as without a score: a cue ball being addressed, half hidden by the hand or
    merged with the tip, scores low (held-out Task4 other views, trained without mirrored frames:
    92.6 % with, 91.3 % without)."""

    def __post_init__(self) -> None:
        low, high = self.ring_radii
        if not 1.0 <= low < high:
            raise ValueError(f"ring_radii must satisfy 1 <= inner < outer, got {self.ring_radii}")
        if not 0.0 < self.min_closed_fraction <= 1.0 or not 0.0 <= self.min_ring_cloth <= 1.0:
            raise ValueError("min_closed_fraction and min_ring_cloth must be fractions")
        if self.edge_rays % 2 or self.edge_rays < 4:
            raise ValueError(f"edge_rays must be even and >= 4, got {self.edge_rays}")
        if self.edge_within_radii > self.edge_search_radii:
            raise ValueError("edge_within_radii must not exceed edge_search_radii")
        if self.hold_s < 0 or self.follow_radii <= 0 or self.radius_scale <= 0:
            raise ValueError("hold_s must be >= 0; follow_radii and radius_scale > 0")
        if not 0.0 <= self.min_score <= 1.0 or not 0.0 <= self.score_margin <= 1.0:
            raise ValueError("min_score and score_margin must be probabilities (0 to 1)")


@dataclass(frozen=True)
class BallCandidate:
    """A round hole in the cloth: centre (x, y) and radius in image px, its ``whiteness`` (Lab L
    less the colour away from the cloth's, 8-bit Lab units) and, when scored, the probability
    that it is the cue ball (``score``, see :mod:`snooker.vision.cueball_score`)."""

    x_px: float
    y_px: float
    r_px: float
    whiteness: float
    score: float | None = None


@dataclass(frozen=True)
class CueBallSighting:
    """The cue ball in one frame of another view (image px); ``held``: not seen in this frame,
    kept where it was last seen."""

    x_px: float
    y_px: float
    r_px: float
    whiteness: float
    held: bool = False
    score: float | None = None
    """The learned score of the candidate taken (None when picked by whiteness)."""

    def to_record(self) -> dict:
        return {
            "x_px": round(self.x_px, 1),
            "y_px": round(self.y_px, 1),
            "r_px": round(self.r_px, 1),
            "held": self.held,
        }


def ball_candidates(
    image_bgr: np.ndarray,
    config: OtherViewConfig | None = None,
    look_closer: bool = False,
    scorer: CueBallScoreModel | None = None,
) -> list[BallCandidate]:
    """The round holes in the table's cloth of ``image_bgr`` (H, W, 3) uint8 BGR, widest first;
    none where the frame shows too little cloth.

    ``look_closer``: where no candidate can be the cue ball (white enough, or scored at least
    ``min_score``), also circles found by their rims (a Hough transform of the grey image) inside
    holes larger than a ball. A cue ball being addressed merges with the bridge hand into one hole
    whose distance peak lies in the hand, but its rim still shows.

    ``scorer``: score each candidate (``BallCandidate.score``). Scored, every ball-like peak is a
    candidate, those whose size disagrees with the others' too (the score weighs it: a cue ball
    merged with its shadow or half hidden reads larger or smaller)."""
    config = config or OtherViewConfig()
    frame = _holes(image_bgr, config)
    if frame is None:
        return []
    found = frame.peaks if scorer is not None else frame.alike
    features = None if scorer is None else scorer.features
    candidates, described = _described(image_bgr, frame, found, False, features, config)
    candidates = _scored(candidates, described, scorer)
    if look_closer and not any(_may_be_cue_ball(c, config, scorer is not None) for c in candidates):
        circles = _circles_in_holes(image_bgr, frame.holes, found, config)
        more, described = _described(image_bgr, frame, circles, True, features, config)
        candidates += _scored(more, described, scorer)
    return candidates


def training_candidates(
    image_bgr: np.ndarray, config: OtherViewConfig, features: ScoreFeatureConfig
) -> tuple[list[BallCandidate], np.ndarray]:
    """Every candidate a scored follower may see in ``image_bgr`` (all ball-like peaks and all
    circles found by their rims in holes larger than a ball) and their features (n, F): what the
    learned score is trained on (``scripts/train_cue_ball_score.py``)."""
    frame = _holes(image_bgr, config)
    if frame is None:
        return [], np.zeros((0, features.count), np.float32)
    peaks, described = _described(image_bgr, frame, frame.peaks, False, features, config)
    circles = _circles_in_holes(image_bgr, frame.holes, frame.peaks, config)
    rims, rim_features = _described(image_bgr, frame, circles, True, features, config)
    return peaks + rims, np.concatenate([described, rim_features])


@dataclass(frozen=True)
class _Holes:
    """One frame's cloth (bool), the holes in it on the table (uint8), the ball-like distance
    peaks (x, y, inscribed radius px) and those of them that agree in size."""

    cloth: np.ndarray
    holes: np.ndarray
    peaks: list[tuple[int, int, float]]
    alike: list[tuple[int, int, float]]


def _holes(image_bgr: np.ndarray, config: OtherViewConfig) -> _Holes | None:
    """The frame's cloth, holes and peaks; None where it shows too little cloth."""
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    try:
        step = config.hue_sample_step_px
        hue = cloth_hue(hsv[::step, ::step], config.cloth)
    except TableNotFound:
        return None
    kernel = np.ones((config.smoothing_px, config.smoothing_px), np.uint8)
    cloth = cv2.morphologyEx(cloth_mask(image_bgr, config.cloth, hue), cv2.MORPH_OPEN, kernel) > 0
    if cloth.mean() < config.min_cloth_fraction:
        return None
    table = _table_hull(cloth)
    holes = cv2.morphologyEx((table & ~cloth).astype(np.uint8), cv2.MORPH_OPEN, kernel)
    distance = cv2.distanceTransform(holes, cv2.DIST_L2, 5)
    peaks = _balls(distance, cloth, table, holes, config)
    return _Holes(cloth, holes, peaks, _sized_alike(peaks, config))


def _scored(
    candidates: list[BallCandidate], features: np.ndarray | None, scorer: CueBallScoreModel | None
) -> list[BallCandidate]:
    """``candidates`` with their scores (unchanged without a scorer)."""
    if scorer is None or features is None or not candidates:
        return candidates
    return [replace(c, score=float(p)) for c, p in zip(candidates, scorer(features), strict=True)]


def _ranked_by(item: BallCandidate | CueBallSighting, scored: bool) -> float:
    """What candidates and sightings are ranked by: the score, or the whiteness unscored."""
    return (item.score or 0.0) if scored else item.whiteness


def _may_be_cue_ball(candidate: BallCandidate, config: OtherViewConfig, scored: bool) -> bool:
    """Scored at least ``min_score`` or, ranked by whiteness, at least ``min_whiteness`` white."""
    if scored:
        return (candidate.score or 0.0) >= config.min_score
    return candidate.whiteness >= config.min_whiteness


def _described(
    image_bgr: np.ndarray,
    frame: _Holes,
    found: list[tuple[int, int, float]],
    by_rim: bool,
    features: ScoreFeatureConfig | None,
    config: OtherViewConfig,
) -> tuple[list[BallCandidate], np.ndarray | None]:
    """``found`` (x, y, inscribed radius px) as candidates (ball radius and whiteness) and, given
    a ``features`` description, their score's features (``by_rim``: they are circles found by
    their rims)."""
    if not found:
        return [], None if features is None else np.zeros((0, features.count), np.float32)
    lab = _core_lab(image_bgr, found, config)
    cloth_ab = _cloth_ab(image_bgr, frame.cloth, found, config)
    white = whiteness(lab, cloth_ab)
    described = None
    if features is not None:
        context = CandidateContext(frame.peaks, frame.alike)
        described = candidate_features(
            image_bgr,
            found,
            [by_rim] * len(found),
            lab,
            cloth_ab,
            white,
            context,
            config.radius_scale,
            features,
        )
    candidates = [
        BallCandidate(float(x), float(y), float(r * config.radius_scale), float(w))
        for (x, y, r), w in zip(found, white, strict=True)
    ]
    return candidates, described


def _circles_in_holes(
    image_bgr: np.ndarray, holes: np.ndarray, found: list[tuple[int, int, float]], config: OtherViewConfig
) -> list[tuple[int, int, float]]:
    """Circles of the balls' sizes inside holes larger than a ball, apart from the balls ``found``
    (x, y, inscribed radius px, as :func:`_balls` gives them)."""
    if not found:
        return []
    radii = np.array([r for _, _, r in found])
    low, high = config.circle_radius_range
    smallest = max(int(config.min_circle_radius_px), int(low * radii.min()))
    largest = int(high * radii.max()) + 1
    count, _, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=8)
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    h, w = holes.shape
    reach_factor = config.ring_radii[1] / config.radius_scale
    circles: list[tuple[int, int, float]] = []
    for k in range(1, count):
        x, y, width, height, area = stats[k]
        if area < np.pi * (config.min_merged_hole_radii * smallest) ** 2:
            continue
        x0, y0 = max(0, x - largest), max(0, y - largest)
        x1, y1 = min(w, x + width + largest), min(h, y + height + largest)
        found_here = cv2.HoughCircles(
            grey[y0:y1, x0:x1],
            cv2.HOUGH_GRADIENT,
            dp=1,
            minDist=2 * smallest,
            param1=config.circle_edge_threshold,
            param2=config.circle_votes,
            minRadius=smallest,
            maxRadius=largest,
        )
        for cx, cy, r in [] if found_here is None else found_here[0]:
            cx, cy, r = int(cx) + x0, int(cy) + y0, float(r)
            reach = int(np.ceil(reach_factor * r)) + 1
            if cx - reach < 0 or cy - reach < 0 or cx + reach >= w or cy + reach >= h:
                continue
            if any(
                (cx - bx) ** 2 + (cy - by) ** 2 < (config.peak_separation * br) ** 2
                for bx, by, br in found + circles
            ):
                continue
            side = int(r)
            dy, dx = np.ogrid[-side : side + 1, -side : side + 1]
            disc = dx * dx + dy * dy <= r * r
            if (
                holes[cy - side : cy + side + 1, cx - side : cx + side + 1][disc].mean()
                < config.min_circle_in_hole
            ):
                continue
            circles.append((cx, cy, r / config.radius_scale))
    return circles


def whiteness(lab: np.ndarray, cloth_ab: np.ndarray) -> np.ndarray:
    """(n,) Lab lightness less the colour that does not come from the cloth: for balls' core
    colours ``lab`` (n, 3) (OpenCV 8-bit L, a and b centred on 0) over cloth of chroma ``cloth_ab``
    (n, 2). The chroma across the cloth's direction counts whole, and that along it only where it
    points away from the cloth (a white lit over green cloth turns green, never magenta)."""
    lab = np.asarray(lab, dtype=float).reshape(-1, 3)
    cloth_ab = np.asarray(cloth_ab, dtype=float).reshape(-1, 2)
    norm = np.linalg.norm(cloth_ab, axis=1, keepdims=True)
    direction = np.divide(cloth_ab, norm, out=np.zeros_like(cloth_ab), where=norm > 0)
    along = np.sum(lab[:, 1:3] * direction, axis=1)
    across = np.abs(lab[:, 1] * direction[:, 1] - lab[:, 2] * direction[:, 0])
    return lab[:, 0] - across - np.maximum(-along, 0.0)


def _table_hull(cloth: np.ndarray) -> np.ndarray:
    """(H, W) bool: the convex hull of the largest cloth region (the table as far as it shows)."""
    contours, _ = cv2.findContours(cloth.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    table = np.zeros(cloth.shape, np.uint8)
    if contours:
        cv2.fillConvexPoly(table, cv2.convexHull(max(contours, key=cv2.contourArea)), 1)
    return table > 0


def _balls(
    distance: np.ndarray, cloth: np.ndarray, table: np.ndarray, holes: np.ndarray, config: OtherViewConfig
) -> list[tuple[int, int, float]]:
    """The ball-like peaks of the distance to the cloth (x, y, inscribed radius px), widest first.
    A peak overlapping a wider ball is part of it; one that is not ball-like suppresses nothing
    (a ball touching a cushion's shadow has the wider peak in the shadow, its own beside it)."""
    window = np.ones((config.peak_window_px, config.peak_window_px), np.uint8)
    mask = (distance >= cv2.dilate(distance, window)) & (distance >= config.min_radius_px)
    ys, xs = np.nonzero(mask)
    radii = distance[ys, xs].astype(np.float64)
    order = np.argsort(-radii, kind="stable")[: config.max_peaks]
    inner, outer = config.ring_radii
    accepted = _accept_peaks(
        xs[order].astype(np.int64),
        ys[order].astype(np.int64),
        radii[order],
        cloth.astype(np.uint8),
        table.astype(np.uint8),
        holes.astype(np.uint8),
        np.array(
            [
                inner,
                outer,
                config.min_ring_cloth,
                config.min_ring_on_table,
                config.edge_search_radii,
                config.edge_within_radii,
                config.min_closed_fraction,
                config.peak_separation,
            ]
        ),
        config.edge_rays,
        config.max_open_lines,
    )
    return [(int(xs[order[k]]), int(ys[order[k]]), float(radii[order[k]])) for k in accepted]


@numba.njit(cache=True, nogil=True)
def _accept_peaks(
    xs: np.ndarray,
    ys: np.ndarray,
    radii: np.ndarray,
    cloth: np.ndarray,
    table: np.ndarray,
    holes: np.ndarray,
    limits: np.ndarray,
    rays: int,
    max_open_lines: int,
) -> np.ndarray:
    """Indices of the peaks (widest first) that are balls and overlap no wider ball. A ball: cloth
    in its ring, the table under the ring, its hole's edge close in most directions and not open
    both ways along a line (see the module docstring). ``limits``: ring inner and outer radii,
    the least cloth and table fractions in the ring, how far and how near (radii) the edge is
    looked for and must lie, the least fraction of closed directions, the peak separation."""
    inner, outer, min_cloth, min_table, search, within, min_closed, separation = limits
    h, w = cloth.shape
    accepted = np.empty(len(xs), np.int64)
    count = 0
    closed = np.empty(rays, np.bool_)
    for k in range(len(xs)):
        x, y, r = xs[k], ys[k], radii[k]
        overlaps = False
        for j in range(count):
            a = accepted[j]
            dx, dy = x - xs[a], y - ys[a]
            if dx * dx + dy * dy < (separation * radii[a]) ** 2:
                overlaps = True
                break
        if overlaps:
            continue
        reach = int(np.ceil(outer * r))
        if x - reach < 0 or y - reach < 0 or x + reach >= w or y + reach >= h:
            continue
        ring = on_cloth = on_table = 0
        low, high = (inner * r) ** 2, (outer * r) ** 2
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                squared = dx * dx + dy * dy
                if low <= squared <= high:
                    ring += 1
                    on_cloth += cloth[y + dy, x + dx]
                    on_table += table[y + dy, x + dx]
        if ring == 0 or on_cloth < min_cloth * ring or on_table < min_table * ring:
            continue
        closed_count = 0
        for ray in range(rays):
            angle = 2.0 * np.pi * ray / rays
            c, s = np.cos(angle), np.sin(angle)
            closed[ray] = False
            step = r
            while step <= search * r:
                px = min(max(int(np.round(x + c * step)), 0), w - 1)
                py = min(max(int(np.round(y + s * step)), 0), h - 1)
                if holes[py, px] == 0:
                    closed[ray] = step <= within * r
                    break
                step += 1.0
            closed_count += closed[ray]
        through = 0
        for ray in range(rays // 2):
            through += (not closed[ray]) and (not closed[ray + rays // 2])
        if closed_count >= min_closed * rays and through <= max_open_lines:
            accepted[count] = k
            count += 1
    return accepted[:count]


def _sized_alike(
    found: list[tuple[int, int, float]], config: OtherViewConfig
) -> list[tuple[int, int, float]]:
    """The balls whose radius agrees with the most others': seen in perspective, a ball's radius
    is an affine function of its image position (the inverse depth on the table plane is), growing
    down the image (nearer), and slowly. The plane through three balls that the most ball area
    agrees with is refitted to those (a cue's ferrule or white shaft beside a ball, read as a row
    of small discs, or specks along a cushion would otherwise outvote the balls); each disc's
    area counts up to that of the ``size_cap_quantile`` of their radii (a hand and its arm, read as
    large discs, would otherwise outweigh them)."""
    if len(found) < config.min_balls_for_size:
        return found
    balls = np.asarray(found, dtype=float)
    design = np.column_stack([balls[:, 0], balls[:, 1], np.ones(len(balls))])
    weight = np.minimum(balls[:, 2], np.quantile(balls[:, 2], config.size_cap_quantile)) ** 2
    triples = _triples(len(balls), config)
    systems = design[triples]
    solvable = np.abs(np.linalg.det(systems)) > config.min_triple_determinant
    coefficients = np.linalg.solve(systems[solvable], balls[triples[solvable], 2][..., None])[..., 0]
    predicted = coefficients @ design.T
    typical = np.median(predicted, axis=1)
    steepness = np.hypot(coefficients[:, 0], coefficients[:, 1])
    plausible = (
        (coefficients[:, 1] >= 0) & (typical > 0) & (steepness <= config.max_radius_gradient * typical)
    )
    best = np.ones(len(balls), dtype=bool)
    if plausible.any():
        agree = _agreeing(balls, predicted[plausible], config)
        best = agree[int(np.argmax(agree @ weight))]
    if best.sum() >= config.min_balls_for_size:
        coefficients, *_ = np.linalg.lstsq(design[best], balls[best, 2], rcond=None)
        best = _agreeing(balls, design @ coefficients, config)
    return [ball for ball, ok in zip(found, best, strict=True) if ok]


def _agreeing(balls: np.ndarray, predicted: np.ndarray, config: OtherViewConfig) -> np.ndarray:
    """Whether each ball's radius agrees with the radius ``predicted`` (..., n) at its place."""
    low, high = config.radius_agreement
    ratio = balls[:, 2] / np.maximum(predicted, config.min_radius_px)
    return (predicted > 0) & (ratio >= low) & (ratio <= high)


def _triples(count: int, config: OtherViewConfig) -> np.ndarray:
    """(t, 3) every triple of ``count`` balls, or a fixed random sample of ``size_fit_triples``."""
    every = np.array(list(itertools.combinations(range(count), 3)))
    if len(every) <= config.size_fit_triples:
        return every
    rng = np.random.default_rng(config.size_fit_seed)
    return every[rng.choice(len(every), config.size_fit_triples, replace=False)]


def _core_lab(
    image_bgr: np.ndarray, found: list[tuple[int, int, float]], config: OtherViewConfig
) -> np.ndarray:
    """(n, 3) the median Lab (OpenCV 8-bit, a and b centred) of each ball's core."""
    out = np.zeros((len(found), 3))
    for k, (x, y, r) in enumerate(found):
        core = max(1, int(config.core_radius * r * config.radius_scale))
        patch = image_bgr[y - core : y + core + 1, x - core : x + core + 1]
        dy, dx = np.ogrid[-core : core + 1, -core : core + 1]
        inside = (dx * dx + dy * dy <= core * core)[: patch.shape[0], : patch.shape[1]]
        lab = cv2.cvtColor(patch, cv2.COLOR_BGR2Lab)[inside].astype(float)
        out[k] = np.median(lab, axis=0) - [0.0, 128.0, 128.0]
    return out


def _cloth_ab(
    image_bgr: np.ndarray, cloth: np.ndarray, found: list[tuple[int, int, float]], config: OtherViewConfig
) -> np.ndarray:
    """(n, 2) the median Lab a, b (centred) of the cloth in each ball's ring; NaN where no cloth
    shows in it (a circle found by its rim inside a hand), which no whiteness then passes."""
    inner, outer = config.ring_radii
    out = np.zeros((len(found), 2))
    for k, (x, y, r) in enumerate(found):
        reach = int(np.ceil(outer * r))
        window = slice(y - reach, y + reach + 1), slice(x - reach, x + reach + 1)
        dy, dx = np.ogrid[-reach : reach + 1, -reach : reach + 1]
        squared = dx * dx + dy * dy
        ring = (squared >= (inner * r) ** 2) & (squared <= (outer * r) ** 2) & cloth[window]
        if not ring.any():
            out[k] = np.nan
            continue
        lab = cv2.cvtColor(image_bgr[window], cv2.COLOR_BGR2Lab)[ring].astype(float)
        out[k] = np.median(lab[:, 1:3], axis=0) - 128.0
    return out


def compile_kernels() -> None:
    """Compile the peak test now (a no-op once compiled), not on the first frame of another view."""
    blank = np.zeros((8, 8), np.uint8)
    _accept_peaks(np.array([4]), np.array([4]), np.array([3.0]), blank, blank, blank, np.ones(8), 16, 2)


class OtherViewCueBall:
    """Follows the cue ball through consecutive frames of views with no calibrated table.

    Call it with each such frame (``image``, its time ``t`` in s); :meth:`reset` when the table is
    back in view (the tracker takes over, and the next other view starts afresh).
    """

    def __init__(
        self, config: OtherViewConfig | None = None, scorer: CueBallScoreModel | None = None
    ) -> None:
        self.config = config or OtherViewConfig()
        compile_kernels()
        if scorer is None and self.config.learned_score:
            scorer = packaged_model()
        self.scorer = scorer if self.config.learned_score else None
        self._last: CueBallSighting | None = None
        self._last_seen_t = 0.0

    def reset(self) -> None:
        self._last = None

    def __call__(self, image_bgr: np.ndarray, t: float) -> CueBallSighting | None:
        config = self.config
        last = self._last
        if last is not None and t - self._last_seen_t > config.hold_s:
            last = self._last = None
        # with a sighting to hold, a hidden cue ball is held rather than looked for closer
        found = ball_candidates(image_bgr, config, look_closer=last is None, scorer=self.scorer)
        scored = self.scorer is not None
        chosen = self._choose(found, last, scored)
        if chosen is None and last is None and scored and config.whiteness_fallback:
            chosen = self._choose(found, None, scored=False)
        if chosen is not None:
            self._last = CueBallSighting(
                chosen.x_px, chosen.y_px, chosen.r_px, chosen.whiteness, score=chosen.score
            )
            self._last_seen_t = t
            return self._last
        if last is not None:
            return replace(last, held=True)
        return None

    def _choose(
        self, found: list[BallCandidate], last: CueBallSighting | None, scored: bool
    ) -> BallCandidate | None:
        """The candidate that continues ``last`` or, with none near, the best one elsewhere (None
        to hold ``last``), ranked by score or, not ``scored``, by whiteness."""
        config = self.config
        candidates = [c for c in found if _may_be_cue_ball(c, config, scored)]
        margin = config.score_margin if scored else config.whiteness_margin
        value = functools.partial(_ranked_by, scored=scored)
        best = max(candidates, key=value, default=None)
        if last is None or best is None:
            return best
        near = [
            c
            for c in candidates
            if np.hypot(c.x_px - last.x_px, c.y_px - last.y_px) <= config.follow_radii * last.r_px
        ]
        nearest_best = max(near, key=value, default=None)
        if nearest_best is not None:
            return nearest_best if value(best) - value(nearest_best) <= margin else best
        return None if value(best) < value(last) - margin else best
