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

A cue ball touching the bridge hand, the cue tip, other balls or the far cushion makes one hole
with them, whose distance peak lies elsewhere. Two more kinds of candidate find it: circles found by
their rims inside holes larger than a ball (looked for where no hole can be the cue ball), and, when
scored, white discs: peaks of the distance inside the white parts of the table (the cue ball is
whiter than what it touches); a white disc is the ball's lit top, taken as a ball of the size the
other balls give there. Held out (Task4, five clip groups), white discs put the cue ball among the
candidates in 2361 of 2421 other-view frames against 2264.

:class:`OtherViewCueBall` follows it from frame to frame: the best-scored ball near its last place
continues it; a ball addressed by the cue (hidden by the hand, merged with the cue tip) is held where
it was for ``hold_s``. Scored, it looks closer in every frame where no hole scores enough; by
whiteness, only with nothing to hold (a view's first frames). All positions are image px of the
frame; radii are image px.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numba
import numpy as np

from snooker.calibration.detect import ClothConfig, TableNotFound, cloth_hue, cloth_mask
from snooker.vision.cloth import histogram_median
from snooker.vision.cueball_score import (
    CandidateContext,
    CandidateSource,
    CueBallScoreModel,
    ScoreFeatureConfig,
    candidate_features,
    core_spreads_and_tops,
    features_reach,
    packaged_model,
    plane_radii,
)
from snooker.vision.peaks import local_peaks

HOLES_BOX_MARGIN_PX = 2
"""The cloth kept around the holes' box when their distance to the cloth is measured in it (px):
a line of cloth all round, which no step of the distance's 5 x 5 mask leaps over (an exactness
guard, not a tuning parameter)."""
_PEAK_FLOOR_SHARE = 0.5
"""The white discs' local maxima are found from this share of the size test's floor (a fraction of
one), the size test applied after: any share below one finds the same discs, for less work the
nearer one (an exactness guard against rounding, not a tuning parameter)."""
TRIPLES_KEPT = 128
"""How many balls' counts keep their list of triples for the size fit (one list per count of
balls a frame shows; :func:`_triples`)."""


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
    white_discs: bool = True
    """Scored, also take as candidates the peaks of the distance inside white regions of the table
    (see :func:`_white_discs`): a cue ball touching the bridge hand, the cue tip, other balls or
    the far cushion makes one hole with them, whose distance peak lies elsewhere."""
    white_disc_min_whiteness: float = 140.0
    """A pixel is white at this whiteness or more (Lab L units, 8-bit; see :func:`whiteness`):
    below a cue ball's core (150-230) to keep its lit part whole, above a pink's or a hand's."""
    white_disc_table_margin_px: int = 15
    """White discs are looked for this far (px) beyond the table's hull: a ball against the far
    cushion of a low view stands above the cloth's edge."""
    white_disc_min_radius_fraction: float = 0.35
    """A white disc's inscribed radius is at least this fraction of the median one of the frame's
    ball-like holes (Task4: a cue ball's lit part reads 0.4-2 of it; highlights, the cue's edge and
    specks are smaller)."""
    white_disc_ball_size: bool = True
    """A white disc is the lit top of a ball: it is taken as a ball of the radius the holes' plane
    of radii gives where it lies (if larger), its centre that much lower in the frame (the lights
    are above the table)."""
    white_disc_max_growth: float = 2.5
    """...but at most this many times the disc's own radius (Task4: the cue ball's lit part reads
    at least 0.4 of the plane's radius in 99 % of frames; a plane extrapolated far from the balls
    it was fitted to may say anything)."""
    white_disc_scale: int = 2
    """White discs are looked for in the frame shrunk by this factor (a ball's lit part is several
    px wide; the full frame would cost four times as much)."""
    white_disc_cloth_step_px: int = 4
    """The cloth's colour, against which whiteness is measured, is the median over every this many
    px of the cloth mask in each direction."""
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
    whiteness; 97.7 % with white discs among the candidates (``scripts/train_cue_ball_score.py``,
    docs/PERFORMANCE.md)."""
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
        if self.white_disc_table_margin_px < 0 or self.white_disc_cloth_step_px < 1:
            raise ValueError("white_disc_table_margin_px must be >= 0 and white_disc_cloth_step_px >= 1")
        if self.white_disc_max_growth < 1:
            raise ValueError("white_disc_max_growth must be >= 1")
        if self.white_disc_min_radius_fraction < 0 or self.white_disc_scale < 1:
            raise ValueError("white_disc_min_radius_fraction must be >= 0 and white_disc_scale >= 1")


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
    candidates, described = _described(frame, found, "hole", features, config)
    candidates = _scored(candidates, described, scorer)
    circles: list[tuple[int, int, float]] = []
    if look_closer and not any(_may_be_cue_ball(c, config, scorer is not None) for c in candidates):
        circles = _circles_in_holes(image_bgr, frame.holes, found, config)
        more, described = _described(frame, circles, "rim", features, config)
        candidates += _scored(more, described, scorer)
    if scorer is not None and config.white_discs:
        whites = _white_discs(image_bgr, frame, found + circles, config)
        more, described = _described(frame, whites, "white", features, config)
        candidates += _scored(more, described, scorer)
    return candidates


def training_candidates(
    image_bgr: np.ndarray, config: OtherViewConfig, features: ScoreFeatureConfig
) -> tuple[list[BallCandidate], np.ndarray]:
    """Every candidate a scored follower may see in ``image_bgr`` (all ball-like peaks, all
    circles found by their rims in holes larger than a ball and the white discs apart from both)
    and their features (n, F): what the
    learned score is trained on (``scripts/train_cue_ball_score.py``)."""
    frame = _holes(image_bgr, config)
    if frame is None:
        return [], np.zeros((0, features.count), np.float32)
    peaks, described = _described(frame, frame.peaks, "hole", features, config)
    circles = _circles_in_holes(image_bgr, frame.holes, frame.peaks, config)
    rims, rim_features = _described(frame, circles, "rim", features, config)
    whites: list[tuple[int, int, float]] = []
    if config.white_discs:
        whites = _white_discs(image_bgr, frame, frame.peaks + circles, config)
    discs, disc_features = _described(frame, whites, "white", features, config)
    return peaks + rims + discs, np.concatenate([described, rim_features, disc_features])


class _Converted:
    """A per-pixel conversion of a frame (``convert`` of a box of ``source``) made only in the boxes
    around the points asked for: the array :meth:`near` returns holds the whole frame's conversion
    there (a box converted alone gives what the whole frame's conversion gives in it) and is never
    read elsewhere. A frame's candidates (~50 a frame of another view) cover a few per cent of it;
    converting the three images whole took ~3 ms a frame. Boxes that overlap are converted again
    (to the same values): cheaper than keeping count of what was converted."""

    def __init__(
        self,
        source: np.ndarray,
        convert: Callable[[np.ndarray], np.ndarray],
        shape: tuple[int, ...],
        dtype: type,
    ) -> None:
        self._source, self._convert = source, convert
        self._shape, self._dtype = shape, dtype
        self._image: np.ndarray | None = None

    def near(self, xs: np.ndarray, ys: np.ndarray, reaches: np.ndarray) -> np.ndarray:
        """The converted frame, made within ``reaches`` (n,) px (each way, a square) of each point
        (``xs``, ``ys``) (n,) px."""
        if self._image is None:
            self._image = np.empty(self._shape, self._dtype)
        h, w = self._shape[:2]
        for x, y, reach in zip(xs.tolist(), ys.tolist(), reaches.tolist(), strict=True):
            x0, x1 = max(0, int(x) - int(reach)), min(w, int(x) + int(reach) + 1)
            y0, y1 = max(0, int(y) - int(reach)), min(h, int(y) + int(reach) + 1)
            if x0 < x1 and y0 < y1:
                self._image[y0:y1, x0:x1] = self._convert(self._source[y0:y1, x0:x1])
        return self._image


class _FrameImages:
    """One frame's colour conversions, each made only around the candidates that read it: OpenCV
    8-bit Lab (H, W, 3) uint8, grey and HSV saturation (H, W) float32 (made as 8-bit and widened
    by OpenCV: the same values as NumPy's ``astype``, in a fraction of its time)."""

    def __init__(self, image_bgr: np.ndarray, hsv: np.ndarray) -> None:
        h, w = image_bgr.shape[:2]
        self.lab = _Converted(image_bgr, _to_lab, (h, w, 3), np.uint8)
        self.grey = _Converted(image_bgr, _to_grey, (h, w), np.float32)
        self.saturation = _Converted(hsv, _to_saturation, (h, w), np.float32)


def _to_lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)


def _to_grey(bgr: np.ndarray) -> np.ndarray:
    return cv2.multiply(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), 1.0, dtype=cv2.CV_32F)


def _to_saturation(hsv: np.ndarray) -> np.ndarray:
    return cv2.multiply(cv2.extractChannel(hsv, 1), 1.0, dtype=cv2.CV_32F)


@dataclass(frozen=True)
class _Holes:
    """One frame's cloth (bool), the table's hull (bool), the holes in the cloth on the table
    (uint8), the ball-like distance peaks (x, y, inscribed radius px) and those of them that agree
    in size, and the frame's colour conversions."""

    cloth: np.ndarray
    table: np.ndarray
    holes: np.ndarray
    peaks: list[tuple[int, int, float]]
    alike: list[tuple[int, int, float]]
    images: _FrameImages


def _holes(image_bgr: np.ndarray, config: OtherViewConfig) -> _Holes | None:
    """The frame's cloth, holes and peaks; None where it shows too little cloth."""
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    try:
        step = config.hue_sample_step_px
        hue = cloth_hue(hsv[::step, ::step], config.cloth)
    except TableNotFound:
        return None
    kernel = np.ones((config.smoothing_px, config.smoothing_px), np.uint8)
    cloth = cv2.morphologyEx(cloth_mask(image_bgr, config.cloth, hue, hsv=hsv), cv2.MORPH_OPEN, kernel) > 0
    if cv2.countNonZero(cloth.view(np.uint8)) / cloth.size < config.min_cloth_fraction:
        return None
    table = _table_hull(cloth)
    holes = cv2.morphologyEx((table & ~cloth).astype(np.uint8), cv2.MORPH_OPEN, kernel)
    distance, origin = _distance_to_cloth(holes)
    peaks = _balls(distance, origin, cloth, table, holes, config)
    return _Holes(cloth, table, holes, peaks, _sized_alike(peaks, config), _FrameImages(image_bgr, hsv))


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
    frame: _Holes,
    found: list[tuple[int, int, float]],
    found_by: CandidateSource,
    features: ScoreFeatureConfig | None,
    config: OtherViewConfig,
) -> tuple[list[BallCandidate], np.ndarray | None]:
    """``found`` (x, y, inscribed radius px) as candidates (ball radius and whiteness) and, given
    a ``features`` description, their score's features (``found_by``: how they were found)."""
    if not found:
        return [], None if features is None else np.zeros((0, features.count), np.float32)
    xs, ys, radii = _columns(found)
    lab_image = frame.images.lab.near(xs, ys, _lab_reach(radii, config))
    lab = _core_lab(lab_image, found, config)
    cloth_ab = _cloth_ab(lab_image, frame.cloth, found, config)
    white = whiteness(lab, cloth_ab)
    described = None
    if features is not None:
        context = CandidateContext(frame.peaks, frame.alike)
        reach = features_reach(radii * config.radius_scale, features)
        described = candidate_features(
            frame.images.grey.near(xs, ys, reach),
            frame.images.saturation.near(xs, ys, reach),
            found,
            [found_by] * len(found),
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
    points away from the cloth (a white lit over green cloth turns green, never magenta). Arrays
    of more axes broadcast (an image (H, W, 3) over one cloth (2,) gives (H, W))."""
    lab = np.asarray(lab, dtype=np.float64 if np.ndim(lab) < 3 else np.float32)
    cloth_ab = np.asarray(cloth_ab, dtype=lab.dtype)
    if lab.ndim < 2:
        lab, cloth_ab = lab.reshape(-1, 3), cloth_ab.reshape(-1, 2)
    norm = np.linalg.norm(cloth_ab, axis=-1, keepdims=True)
    direction = np.divide(cloth_ab, norm, out=np.zeros_like(cloth_ab), where=norm > 0)
    if lab.ndim == 3 and direction.shape == (2,):
        # an image over one cloth: one compiled pass, the same float32 operations in the same order
        # (the array statements below made six passes over the image)
        return _whiteness_kernel(lab, direction[0], direction[1])
    along = lab[..., 1] * direction[..., 0] + lab[..., 2] * direction[..., 1]
    across = np.abs(lab[..., 1] * direction[..., 1] - lab[..., 2] * direction[..., 0])
    return lab[..., 0] - across - np.maximum(-along, 0.0)


@numba.njit(cache=True, nogil=True)
def _whiteness_kernel(lab: np.ndarray, along_a: np.float32, along_b: np.float32) -> np.ndarray:
    """The compiled body of :func:`whiteness` of an image ``lab`` (H, W, 3) float32 over one cloth
    whose unit chroma direction is (``along_a``, ``along_b``)."""
    h, w = lab.shape[0], lab.shape[1]
    out = np.empty((h, w), np.float32)
    zero = np.float32(0.0)
    for y in range(h):
        for x in range(w):
            a, b = lab[y, x, 1], lab[y, x, 2]
            along = a * along_a + b * along_b
            across = abs(a * along_b - b * along_a)
            out[y, x] = lab[y, x, 0] - across - max(-along, zero)
    return out


def _white_discs(
    image_bgr: np.ndarray, frame: _Holes, taken: list[tuple[int, int, float]], config: OtherViewConfig
) -> list[tuple[int, int, float]]:
    """The peaks of the distance inside the white parts of the table (x, y, inscribed radius px),
    widest first, apart from the balls ``taken``: a cue ball touching the bridge hand, the cue tip,
    other balls or the far cushion makes one hole with them whose distance peak lies elsewhere, but
    it is whiter than all of them. A peak must be at least ``min_whiteness`` white itself and at
    least ``white_disc_min_radius_fraction`` of the frame's ball-like holes' median radius (none
    without such holes: nothing to size it by). The peak lies in the ball's lit upper part, so it
    reads smaller and higher than the ball: with ``white_disc_ball_size`` it is grown to the radius
    the holes' plane of radii gives there and moved down by as much. The score judges it
    (``found_by_whiteness``)."""
    if not frame.peaks:
        return []
    margin = config.white_disc_table_margin_px
    region = frame.table.astype(np.uint8)
    if margin:
        region = cv2.dilate(region, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    x0, y0, width, height = cv2.boundingRect(region)
    scale = config.white_disc_scale
    if width < scale or height < scale:
        return []
    box = slice(y0, y0 + height), slice(x0, x0 + width)
    small = (width // scale, height // scale)
    lab = cv2.cvtColor(cv2.resize(image_bgr[box], small, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2Lab)
    # a and b centred, in float32 (one pass by OpenCV: NumPy's in-place subtraction from two of
    # three interleaved channels took ~30 times as long)
    lab = cv2.subtract(lab, (0.0, 128.0, 128.0, 0.0), dtype=cv2.CV_32F)
    step = max(1, config.white_disc_cloth_step_px // scale)
    on_table = cv2.resize(region[box], small, interpolation=cv2.INTER_NEAREST) > 0
    cloth_here = cv2.resize(frame.cloth[box].astype(np.uint8), small, interpolation=cv2.INTER_NEAREST) > 0
    cloth = lab[::step, ::step][cloth_here[::step, ::step]]
    if not len(cloth):
        return []
    white = whiteness(lab, np.median(cloth[:, 1:], axis=0))
    kernel = np.ones((config.smoothing_px, config.smoothing_px), np.uint8)
    mask = ((white >= config.white_disc_min_whiteness) & on_table).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    distance = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    smallest = max(
        config.min_radius_px,
        config.white_disc_min_radius_fraction * float(np.median([r for _, _, r in frame.peaks])),
    )
    # the local maxima from a floor below the size test, then the tests themselves
    floor = np.float32(_PEAK_FLOOR_SHARE * smallest / scale)
    ys, xs = np.divmod(local_peaks(distance, config.peak_window_px, floor), distance.shape[1])
    peaks = (distance[ys, xs] * scale >= smallest) & (white[ys, xs] >= config.min_whiteness)
    ys, xs = ys[peaks], xs[peaks]
    radii = distance[ys, xs] * scale
    xs, ys = xs * scale + x0 + scale // 2, ys * scale + y0 + scale // 2
    order = np.argsort(-radii, kind="stable")[: config.max_peaks]
    kept = order[
        _apart(
            xs[order].astype(np.int64),
            ys[order].astype(np.int64),
            radii[order].astype(np.float64),
            np.array(taken, np.float64).reshape(-1, 3),
            config.peak_separation,
        )
    ]
    # the ball's size where the disc lies (the holes' plane of radii), the disc being its lit top
    lit, xy = radii[kept], np.column_stack([xs[kept], ys[kept]]).astype(np.float64)
    balls = lit
    if config.white_disc_ball_size:
        balls = np.clip(plane_radii(frame.alike, xy, 0.0), lit, config.white_disc_max_growth * lit)
    x, y = xs[kept], ys[kept] + np.round(balls - lit).astype(np.int64)
    h, w = image_bgr.shape[:2]
    reach = np.ceil(config.ring_radii[1] * balls)
    inside = (x - reach >= 0) & (y - reach >= 0) & (x + reach < w) & (y + reach < h)
    return [(int(cx), int(cy), float(r)) for cx, cy, r, ok in zip(x, y, balls, inside, strict=True) if ok]


@numba.njit(cache=True, nogil=True)
def _apart(
    xs: np.ndarray, ys: np.ndarray, radii: np.ndarray, taken: np.ndarray, separation: float
) -> np.ndarray:
    """Indices of the discs (in order) whose centres lie at least ``separation`` times the larger
    of the two radii from every disc ``taken`` (m, 3: x, y, radius) and every disc kept before."""
    count = len(taken)
    kept_xyr = np.empty((count + len(xs), 3))
    kept_xyr[:count] = taken
    kept = np.empty(len(xs), np.int64)
    found = 0
    for k in range(len(xs)):
        x, y, r = xs[k], ys[k], radii[k]
        clear = True
        for j in range(count):
            dx, dy = x - kept_xyr[j, 0], y - kept_xyr[j, 1]
            if dx * dx + dy * dy < (separation * max(r, kept_xyr[j, 2])) ** 2:
                clear = False
                break
        if clear:
            kept_xyr[count, 0] = x
            kept_xyr[count, 1] = y
            kept_xyr[count, 2] = r
            count += 1
            kept[found] = k
            found += 1
    return kept[:found]


def _table_hull(cloth: np.ndarray) -> np.ndarray:
    """(H, W) bool: the convex hull of the largest cloth region (the table as far as it shows)."""
    contours, _ = cv2.findContours(cloth.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    table = np.zeros(cloth.shape, np.uint8)
    if contours:
        cv2.fillConvexPoly(table, cv2.convexHull(max(contours, key=cv2.contourArea)), 1)
    return table > 0


def _distance_to_cloth(holes: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """The distance (px, OpenCV's 5 x 5 mask) of each pixel of the ``holes`` (H, W) uint8 to the
    nearest one that is not, over the holes' box and ``HOLES_BOX_MARGIN_PX`` round it (about half a
    frame), and the box's origin (x, y px): the values the whole frame's transform has there (it
    is 0 beyond), for half its work."""
    x, y, w, h = cv2.boundingRect(holes)
    margin = HOLES_BOX_MARGIN_PX
    x0, y0 = max(x - margin, 0), max(y - margin, 0)
    box = slice(y0, min(y + h + margin, holes.shape[0])), slice(x0, min(x + w + margin, holes.shape[1]))
    return cv2.distanceTransform(holes[box], cv2.DIST_L2, 5), (x0, y0)


def _balls(
    distance: np.ndarray,
    origin: tuple[int, int],
    cloth: np.ndarray,
    table: np.ndarray,
    holes: np.ndarray,
    config: OtherViewConfig,
) -> list[tuple[int, int, float]]:
    """The ball-like peaks of the distance to the cloth (x, y, inscribed radius px), widest first.
    A peak overlapping a wider ball is part of it; one that is not ball-like suppresses nothing
    (a ball touching a cushion's shadow has the wider peak in the shadow, its own beside it).
    ``distance`` covers the frame's box from ``origin`` (x, y px); beyond it the distance is 0, which
    no peak's neighbourhood maximum can exceed."""
    peaks = local_peaks(distance, config.peak_window_px, np.float32(config.min_radius_px))
    ys, xs = np.divmod(peaks, distance.shape[1])
    radii = distance[ys, xs].astype(np.float64)
    xs, ys = xs + origin[0], ys + origin[1]
    order = np.argsort(-radii, kind="stable")[: config.max_peaks]
    inner, outer = config.ring_radii
    accepted = _accept_peaks(
        xs[order].astype(np.int64),
        ys[order].astype(np.int64),
        radii[order],
        _as_bytes(cloth),
        _as_bytes(table),
        _as_bytes(holes),
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


def _as_bytes(mask: np.ndarray) -> np.ndarray:
    """A 0/1 mask (bool or uint8) as C-contiguous uint8, without a copy where it is one already
    (a bool frame mask is viewed, not converted: three full-frame copies a frame before)."""
    mask = np.ascontiguousarray(mask)
    return mask.view(np.uint8) if mask.dtype == np.bool_ else mask.astype(np.uint8, copy=False)


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
    """(t, 3) every triple of ``count`` balls, or a fixed random sample of ``size_fit_triples``
    (read-only: the same array serves every frame with as many balls)."""
    return _triples_of(count, config.size_fit_triples, config.size_fit_seed)


@functools.lru_cache(maxsize=TRIPLES_KEPT)
def _triples_of(count: int, sample_size: int, seed: int) -> np.ndarray:
    """:func:`_triples` of ``count`` balls, sampled with ``seed`` when more than ``sample_size``:
    listing every triple of ~50 balls took longer than the fit they serve."""
    every = np.array(list(itertools.combinations(range(count), 3)), dtype=np.int64).reshape(-1, 3)
    if len(every) > sample_size:
        every = every[np.random.default_rng(seed).choice(len(every), sample_size, replace=False)]
    every.setflags(write=False)
    return every


def _core_lab(
    lab_image: np.ndarray, found: list[tuple[int, int, float]], config: OtherViewConfig
) -> np.ndarray:
    """(n, 3) the median Lab (OpenCV 8-bit, a and b centred) of each ball's core, from the frame's
    ``lab_image`` (H, W, 3) uint8."""
    xs, ys, radii = _columns(found)
    return _disc_medians(lab_image, xs, ys, _core_radii(radii, config)) - np.array([0.0, 128.0, 128.0])


def _cloth_ab(
    lab_image: np.ndarray, cloth: np.ndarray, found: list[tuple[int, int, float]], config: OtherViewConfig
) -> np.ndarray:
    """(n, 2) the median Lab a, b (centred) of the cloth in each ball's ring, from the frame's
    ``lab_image`` (H, W, 3) uint8; NaN where no cloth shows in it (a circle found by its rim inside
    a hand), which no whiteness then passes."""
    xs, ys, radii = _columns(found)
    inner, outer = config.ring_radii
    return _ring_cloth_medians(lab_image, cloth, xs, ys, radii, inner, outer) - 128.0


def _lab_reach(radii: np.ndarray, config: OtherViewConfig) -> np.ndarray:
    """(n,) px around each candidate (inscribed ``radii`` (n,) px) that :func:`_core_lab` and
    :func:`_cloth_ab` read: the core's disc and the cloth's ring."""
    return np.maximum(_core_radii(radii, config), np.ceil(config.ring_radii[1] * radii)).astype(np.int64)


def _core_radii(radii: np.ndarray, config: OtherViewConfig) -> np.ndarray:
    """(n,) int64 px: the radius of each ball's core that :func:`_core_lab` reads (inscribed
    ``radii`` (n,) px), at least a pixel."""
    return np.maximum(1, (config.core_radius * radii * config.radius_scale).astype(np.int64))


def _columns(found: list[tuple[int, int, float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``found`` (x, y, radius) as int64 x, int64 y and float64 radius arrays."""
    table = np.array(found, np.float64).reshape(-1, 3)
    return table[:, 0].astype(np.int64), table[:, 1].astype(np.int64), table[:, 2]


@numba.njit(cache=True, nogil=True)
def _disc_medians(image: np.ndarray, xs: np.ndarray, ys: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(n, 3) the per-channel median of ``image`` (H, W, 3) uint8 over the pixels within each
    integer radius of each centre (those inside the image), counted in histograms (as NumPy's
    median gives it, without sorting)."""
    h, w = image.shape[0], image.shape[1]
    out = np.full((len(xs), 3), np.nan)
    histogram = np.zeros((3, 256), np.int64)
    for k in range(len(xs)):
        x, y, r = xs[k], ys[k], radii[k]
        histogram[:] = 0
        count = 0
        for py in range(max(y - r, 0), min(y + r + 1, h)):
            dy = py - y
            for px in range(max(x - r, 0), min(x + r + 1, w)):
                dx = px - x
                if dx * dx + dy * dy <= r * r:
                    for c in range(3):
                        histogram[c, image[py, px, c]] += 1
                    count += 1
        if count:
            for c in range(3):
                out[k, c] = histogram_median(histogram[c], count)
    return out


@numba.njit(cache=True, nogil=True)
def _ring_cloth_medians(
    image: np.ndarray,
    cloth: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    radii: np.ndarray,
    inner: float,
    outer: float,
) -> np.ndarray:
    """(n, 2) the medians of ``image``'s (H, W, 3) uint8 channels 1 and 2 over the ``cloth``
    pixels of each ring (``inner`` to ``outer`` radii around each centre), counted in histograms;
    NaN where none is cloth."""
    h, w = cloth.shape
    out = np.full((len(xs), 2), np.nan)
    histogram = np.zeros((2, 256), np.int64)
    for k in range(len(xs)):
        x, y, r = xs[k], ys[k], radii[k]
        reach = int(np.ceil(outer * r))
        low, high = (inner * r) ** 2, (outer * r) ** 2
        histogram[:] = 0
        count = 0
        for py in range(max(y - reach, 0), min(y + reach + 1, h)):
            dy = py - y
            for px in range(max(x - reach, 0), min(x + reach + 1, w)):
                dx = px - x
                squared = dx * dx + dy * dy
                if low <= squared <= high and cloth[py, px]:
                    histogram[0, image[py, px, 1]] += 1
                    histogram[1, image[py, px, 2]] += 1
                    count += 1
        if count:
            out[k, 0] = histogram_median(histogram[0], count)
            out[k, 1] = histogram_median(histogram[1], count)
    return out


def compile_kernels() -> None:
    """Compile the peak tests, the medians and the cloth mask now (a no-op once compiled), not on
    the first frame of another view."""
    blank = np.zeros((8, 8), np.uint8)
    _accept_peaks(np.array([4]), np.array([4]), np.array([3.0]), blank, blank, blank, np.ones(8), 16, 2)
    _apart(np.array([4]), np.array([4]), np.array([3.0]), np.zeros((0, 3)), 1.0)
    lab = np.zeros((8, 8, 3), np.uint8)
    _disc_medians(lab, np.array([4]), np.array([4]), np.array([2]))
    _ring_cloth_medians(lab, blank > 0, np.array([4]), np.array([4]), np.array([2.0]), 1.3, 1.7)
    cloth_mask(lab, ClothConfig(), hue=60, hsv=lab)  # the frame's cloth (finding the table too)
    distance = np.zeros((8, 8), np.float32)
    local_peaks(distance, 5, np.float32(3.0))
    core_spreads_and_tops(distance, np.array([[1, 4, 1, 4]]))
    whiteness(lab.astype(np.float32), np.ones(2, np.float32))


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

    def candidates(self, image_bgr: np.ndarray) -> list[BallCandidate] | None:
        """The candidates :meth:`__call__` would look for in ``image_bgr``, whatever came before
        (on any thread: it reads nothing that a call changes); None where what is looked for
        depends on the last sighting (ranked by whiteness, unscored)."""
        if self.scorer is None:
            return None
        return ball_candidates(image_bgr, self.config, look_closer=True, scorer=self.scorer)

    def __call__(
        self, image_bgr: np.ndarray, t: float, found: list[BallCandidate] | None = None
    ) -> CueBallSighting | None:
        """The cue ball in ``image_bgr`` (at ``t`` s) continuing the last sighting; ``found``: the
        frame's :meth:`candidates` if already looked for (else they are looked for here)."""
        config = self.config
        last = self._last
        if last is not None and t - self._last_seen_t > config.hold_s:
            last = self._last = None
        scored = self.scorer is not None
        # by whiteness, a hidden cue ball with a sighting to hold is held rather than looked for
        # closer; scored, a circle found by its rim is judged like any candidate
        if found is None or not scored:
            found = ball_candidates(image_bgr, config, look_closer=scored or last is None, scorer=self.scorer)
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
