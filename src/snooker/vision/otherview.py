"""The cue ball in frames that show no calibrated table: a broadcast's low side and corner views,
close-ups of the pack, the view of a player addressing the cue ball.

The referee cannot rule from such a view (no table geometry, so no table mm), but the cue ball can
still be followed in the image, for a graphics feed and for whoever scores a clip frame by frame.
Without a calibration the ball's size is unknown and changes with depth; what is known:

- the cloth is the frame's dominant saturated colour (``calibration.detect.cloth_hue``) and the table
  is the convex hull of its largest region;
- a ball is a round hole in the cloth: a peak of the distance to the cloth inside the hull, whose
  distance is its radius, with cloth around most of it (a ring), the table under all of it (not a
  shirt cuff over the cushion), and an edge near its radius in most directions (not a strip along a
  cushion, not a hand or an arm);
- the cue ball is the whitest ball. Over green cloth a white ball takes on the cloth's colour, and a
  broadcast's grading can make it look pale yellow-green: only the colour away from the cloth's
  counts against it (``whiteness``), which a pink, a yellow or a hand cannot escape.

:class:`OtherViewCueBall` follows it from frame to frame: the whitest ball near its last place
continues it; a ball addressed by the cue (hidden by the hand, merged with the cue tip) is held where
it was for ``hold_s``. All positions are image px of the frame; radii are image px.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import cv2
import numpy as np

from snooker.calibration.detect import ClothConfig, TableNotFound, cloth_hue, cloth_mask


@dataclass(frozen=True)
class OtherViewConfig:
    """How the cue ball is found and followed where no table is calibrated (px are image px)."""

    enabled: bool = True
    """Look for the cue ball in frames that do not show the calibrated table."""
    cloth: ClothConfig = field(default_factory=lambda: ClothConfig(centre_fraction=0.8))
    """The cloth's hue and mask (the calibration's; the hue sampled over most of the frame, as the
    table may lie anywhere in a side view)."""
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
    peak_separation: float = 0.9
    """A peak closer to a wider ball than this fraction of their radii's sum is part of it."""
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
    size_fit_triples: int = 400
    """At most this many planes through three balls are tried (all of them up to 15 balls)..."""
    size_fit_seed: int = 0
    """...the rest a fixed random sample (the same frame gives the same answer)."""
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


@dataclass(frozen=True)
class BallCandidate:
    """A round hole in the cloth: centre (x, y) and radius in image px, and its ``whiteness``
    (Lab L less the colour away from the cloth's, 8-bit Lab units)."""

    x_px: float
    y_px: float
    r_px: float
    whiteness: float


@dataclass(frozen=True)
class CueBallSighting:
    """The cue ball in one frame of another view (image px); ``held``: not seen in this frame,
    kept where it was last seen."""

    x_px: float
    y_px: float
    r_px: float
    whiteness: float
    held: bool = False

    def to_record(self) -> dict:
        return {
            "x_px": round(self.x_px, 1),
            "y_px": round(self.y_px, 1),
            "r_px": round(self.r_px, 1),
            "held": self.held,
        }


def ball_candidates(image_bgr: np.ndarray, config: OtherViewConfig | None = None) -> list[BallCandidate]:
    """The round holes in the table's cloth of ``image_bgr`` (H, W, 3) uint8 BGR, widest first;
    none where the frame shows too little cloth."""
    config = config or OtherViewConfig()
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    try:
        hue = cloth_hue(hsv, config.cloth)
    except TableNotFound:
        return []
    kernel = np.ones((config.smoothing_px, config.smoothing_px), np.uint8)
    cloth = cv2.morphologyEx(cloth_mask(image_bgr, config.cloth, hue), cv2.MORPH_OPEN, kernel) > 0
    if cloth.mean() < config.min_cloth_fraction:
        return []
    table = _table_hull(cloth)
    holes = cv2.morphologyEx((table & ~cloth).astype(np.uint8), cv2.MORPH_OPEN, kernel)
    distance = cv2.distanceTransform(holes, cv2.DIST_L2, 5)
    found = _sized_alike(_balls(distance, cloth, table, holes, config), config)
    if not found:
        return []
    lab = _core_lab(image_bgr, found, config)
    cloth_ab = _cloth_ab(image_bgr, cloth, found, config)
    return [
        BallCandidate(float(x), float(y), float(r * config.radius_scale), float(w))
        for (x, y, r), w in zip(found, whiteness(lab, cloth_ab), strict=True)
    ]


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
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cloth.astype(np.uint8), connectivity=8)
    table = np.zeros(cloth.shape, np.uint8)
    if count < 2:
        return table > 0
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    hull = cv2.convexHull(cv2.findNonZero((labels == largest).astype(np.uint8)))
    cv2.fillConvexPoly(table, hull, 1)
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
    radii = distance[ys, xs]
    kept: list[tuple[int, int, float]] = []
    for k in np.argsort(-radii, kind="stable")[: config.max_peaks]:
        x, y, r = int(xs[k]), int(ys[k]), float(radii[k])
        reach = config.peak_separation
        if any((x - kx) ** 2 + (y - ky) ** 2 < (reach * (r + kr)) ** 2 for kx, ky, kr in kept):
            continue
        if _ball_like(x, y, r, cloth, table, holes, config):
            kept.append((x, y, r))
    return kept


def _sized_alike(
    found: list[tuple[int, int, float]], config: OtherViewConfig
) -> list[tuple[int, int, float]]:
    """The balls whose radius agrees with the most others': seen in perspective, a ball's radius
    is an affine function of its image position (the inverse depth on the table plane is), growing
    down the image (nearer), and slowly. The plane through three balls that the most ball area
    agrees with is refitted to those. Each disc's area counts up to the median disc's: a cue's
    ferrule or white shaft beside a ball, read as a row of small discs, would otherwise outvote
    the ball, and a hand and its arm, read as large discs, the balls."""
    if len(found) < config.min_balls_for_size:
        return found
    balls = np.asarray(found, dtype=float)
    design = np.column_stack([balls[:, 0], balls[:, 1], np.ones(len(balls))])
    weight = np.minimum(balls[:, 2], np.median(balls[:, 2])) ** 2
    best_weight, best = -1.0, np.ones(len(balls), dtype=bool)
    for triple in _triples(len(balls), config):
        try:
            coefficients = np.linalg.solve(design[triple], balls[triple, 2])
        except np.linalg.LinAlgError:
            continue
        predicted = design @ coefficients
        typical = float(np.median(predicted))
        steepness = float(np.hypot(coefficients[0], coefficients[1]))
        if coefficients[1] < 0 or typical <= 0 or steepness > config.max_radius_gradient * typical:
            continue
        agree = _agreeing(balls, predicted, config)
        support = float(weight[agree].sum())
        if support > best_weight:
            best_weight, best = support, agree
    if best.sum() >= config.min_balls_for_size:
        coefficients, *_ = np.linalg.lstsq(design[best], balls[best, 2], rcond=None)
        best = _agreeing(balls, design @ coefficients, config)
    return [ball for ball, ok in zip(found, best, strict=True) if ok]


def _agreeing(balls: np.ndarray, predicted: np.ndarray, config: OtherViewConfig) -> np.ndarray:
    low, high = config.radius_agreement
    ratio = balls[:, 2] / np.maximum(predicted, config.min_radius_px)
    return (predicted > 0) & (ratio >= low) & (ratio <= high)


def _triples(count: int, config: OtherViewConfig) -> list[np.ndarray]:
    """Every triple of ``count`` balls, or a fixed random sample of ``size_fit_triples`` of them."""
    every = [np.array(t) for t in itertools.combinations(range(count), 3)]
    if len(every) <= config.size_fit_triples:
        return every
    rng = np.random.default_rng(config.size_fit_seed)
    return [every[k] for k in rng.choice(len(every), config.size_fit_triples, replace=False)]


def _ball_like(
    x: int, y: int, r: float, cloth: np.ndarray, table: np.ndarray, holes: np.ndarray, config: OtherViewConfig
) -> bool:
    """Whether the hole of radius ``r`` at (x, y) is a ball: cloth in its ring, the table under it,
    its edge close in most directions (see the module docstring)."""
    h, w = cloth.shape
    inner, outer = config.ring_radii
    reach = int(np.ceil(outer * r))
    if x - reach < 0 or y - reach < 0 or x + reach >= w or y + reach >= h:
        return False
    window = slice(y - reach, y + reach + 1), slice(x - reach, x + reach + 1)
    dy, dx = np.ogrid[-reach : reach + 1, -reach : reach + 1]
    squared = dx * dx + dy * dy
    ring = (squared >= (inner * r) ** 2) & (squared <= (outer * r) ** 2)
    if cloth[window][ring].mean() < config.min_ring_cloth:
        return False
    if table[window][ring].mean() < config.min_ring_on_table:
        return False
    return _round(holes, x, y, r, config)


def _edge_closed(holes: np.ndarray, x: int, y: int, r: float, config: OtherViewConfig) -> np.ndarray:
    """(edge_rays,) bool: whether the hole ends within ``edge_within_radii`` in each direction
    (evenly spaced from +x, so direction k + edge_rays / 2 is opposite k)."""
    angles = np.linspace(0.0, 2.0 * np.pi, config.edge_rays, endpoint=False)
    steps = np.arange(r, config.edge_search_radii * r + 1.0)
    xs = np.clip(np.round(x + np.outer(np.cos(angles), steps)).astype(int), 0, holes.shape[1] - 1)
    ys = np.clip(np.round(y + np.outer(np.sin(angles), steps)).astype(int), 0, holes.shape[0] - 1)
    inside = holes[ys, xs] > 0
    edge = np.where(inside.all(axis=1), np.inf, steps[np.argmax(~inside, axis=1)])
    return edge <= config.edge_within_radii * r


def _round(holes: np.ndarray, x: int, y: int, r: float, config: OtherViewConfig) -> bool:
    """Whether the hole at (x, y) is closed around it in most directions, and not open both ways
    along a line (a strip: the cue, a cushion's shadow; a ball touching others is open towards
    them, one side each)."""
    closed = _edge_closed(holes, x, y, r, config)
    through = ~closed & ~np.roll(closed, config.edge_rays // 2)
    return closed.mean() >= config.min_closed_fraction and through.sum() // 2 <= config.max_open_lines


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
    """(n, 2) the median Lab a, b (centred) of the cloth in each ball's ring."""
    inner, outer = config.ring_radii
    out = np.zeros((len(found), 2))
    for k, (x, y, r) in enumerate(found):
        reach = int(np.ceil(outer * r))
        window = slice(y - reach, y + reach + 1), slice(x - reach, x + reach + 1)
        dy, dx = np.ogrid[-reach : reach + 1, -reach : reach + 1]
        squared = dx * dx + dy * dy
        ring = (squared >= (inner * r) ** 2) & (squared <= (outer * r) ** 2) & cloth[window]
        lab = cv2.cvtColor(image_bgr[window], cv2.COLOR_BGR2Lab)[ring].astype(float)
        out[k] = np.median(lab[:, 1:3], axis=0) - 128.0
    return out


class OtherViewCueBall:
    """Follows the cue ball through consecutive frames of views with no calibrated table.

    Call it with each such frame (``image``, its time ``t`` in s); :meth:`reset` when the table is
    back in view (the tracker takes over, and the next other view starts afresh).
    """

    def __init__(self, config: OtherViewConfig | None = None) -> None:
        self.config = config or OtherViewConfig()
        self._last: CueBallSighting | None = None
        self._last_seen_t = 0.0

    def reset(self) -> None:
        self._last = None

    def __call__(self, image_bgr: np.ndarray, t: float) -> CueBallSighting | None:
        config = self.config
        candidates = [c for c in ball_candidates(image_bgr, config) if c.whiteness >= config.min_whiteness]
        last = self._last
        if last is not None and t - self._last_seen_t > config.hold_s:
            last = self._last = None
        best = max(candidates, key=lambda c: c.whiteness, default=None)
        chosen = best
        if last is not None and best is not None:
            near = [
                c
                for c in candidates
                if np.hypot(c.x_px - last.x_px, c.y_px - last.y_px) <= config.follow_radii * last.r_px
            ]
            nearest_white = max(near, key=lambda c: c.whiteness, default=None)
            if nearest_white is not None:
                if best.whiteness - nearest_white.whiteness <= config.whiteness_margin:
                    chosen = nearest_white
            elif best.whiteness < last.whiteness - config.whiteness_margin:
                chosen = None
        if chosen is not None:
            self._last = CueBallSighting(chosen.x_px, chosen.y_px, chosen.r_px, chosen.whiteness)
            self._last_seen_t = t
            return self._last
        if last is not None:
            return CueBallSighting(last.x_px, last.y_px, last.r_px, last.whiteness, held=True)
        return None
