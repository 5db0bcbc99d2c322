"""Colour identification: which ball each detection is, decided jointly under the game's limits.

Each candidate ball is described by the colour of its core (a disc inside the ball, leaving out
the specular highlight and the dark rim) in CIE Lab: lightness, the red–green axis ``a`` and the
blue–yellow axis ``b`` (OpenCV 8-bit scale, ``a`` and ``b`` centred on 0). Red, brown and pink —
the hard case — differ mainly in lightness (pink is light) and in ``a`` against ``b`` (brown is
orange-yellow, red is red). Each ball name has a Gaussian model of these features, in the
colours of a canonical broadcast (fitted on clip frames by ``scripts/fit_colours.py``).

Another broadcast grades the same balls differently (exposure, tone curve, saturation, white
balance). Each frame is calibrated against the ball set it shows: a :class:`FrameTransform` maps
the canonical models to the frame's colours (a colour cast as the camera's channel gains, whose
pull on Lab a and b grows with each ball's lightness and depends on its colour), fitted to the
balls as labelled, with a prior that keeps it near the canonical broadcast — the game's
one-of-each limits make the ball set a colour chart. Shaded cloth is told by its chromaticity
relative to the cloth measured in the same frame.

The labelling is one assignment problem (scipy's ``linear_sum_assignment``): the table holds one
cue ball, at most one of each colour and at most 15 reds, and a candidate that fits no ball well
is left out as "not a ball" rather than forced into a name.

A ball struck hard is blurred by its motion with the cloth behind it: its core's colour lies
between the ball's and the local cloth's (the black becomes a dark patch of the cloth's hue). A
candidate that shows a highlight (cloth does not shine) and that no ball fits sharply may be read
as a ball mixed with the cloth (at most ``ColourConfig.blur_max_mix`` of the way, its hue taken on
from the cloth), at a cost growing with the mix.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numba
import numpy as np
from scipy.optimize import linear_sum_assignment

from snooker.balls import BALL_NAMES, CUE_BALL, FULL_RACK_REDS, RED

FEATURE_NAMES: tuple[str, ...] = ("L", "a", "b", "cloth_distance", "cloth_L", "cloth_a", "cloth_b")
"""The features of a ball's core, in order: Lab lightness, a, b (OpenCV 8-bit, a/b centred), the
distance of its rgb chromaticity from the local cloth's, relative to the cloth's own distance from
grey (shading leaves it unchanged; a broadcast's saturation scales both alike), and the Lab of the
local cloth (what a ball blurred by its motion is mixed with)."""
CLOTH_LAB = slice(4, 7)
"""The columns of :data:`FEATURE_NAMES` holding the local cloth's Lab."""


def _default_models() -> dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """Canonical mean and spread of (L, a, b) per ball name in broadcast footage.

    Fitted by ``scripts/fit_colours.py --clips all --rounds 2`` on frames of the 25 Task2 clips of
    the Bucharest 2020 set, never on the Task1 stills: balls labelled by this detector, kept where
    they rest and keep their name over the clip, each frame calibrated (:class:`FrameTransform`)
    before the statistics. Spreads are 1.5 times the scatter a new clip is expected to show
    (within and between clips), at least (10, 6, 6). Scored leak-free on the stills by event
    (each still with models fitted without its broadcast): 48 of 49 exact inventories.
    """
    return {
        "white": ((232.9, -14.0, 31.5), (22.5, 6.0, 15.3)),
        "red": ((73.3, 46.6, 34.1), (12.7, 6.0, 6.0)),
        "yellow": ((208.3, -6.1, 79.3), (10.0, 12.9, 9.9)),
        "green": ((98.6, -36.8, 20.3), (10.0, 6.0, 12.1)),
        "brown": ((91.8, 8.9, 38.0), (14.9, 8.9, 7.2)),
        "blue": ((91.0, 4.7, -42.2), (10.0, 10.8, 10.6)),
        "pink": ((147.1, 48.5, 17.8), (12.6, 12.7, 8.3)),
        "black": ((15.2, -6.9, 4.2), (10.0, 6.5, 6.0)),
    }


@dataclass(frozen=True)
class ColourConfig:
    """Colour models and the thresholds of colour identification."""

    models: dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]] = field(
        default_factory=_default_models
    )
    """Per ball name: mean and standard deviation of (L, a, b), Lab OpenCV 8-bit units."""
    core_radius: float = 0.6
    """Radius of the core disc whose pixels describe the ball, in ball radii."""
    highlight_tophat: float = 30.0
    """Core pixels brighter than their neighbourhood by this much lightness are highlight: left out."""
    max_reds: int = FULL_RACK_REDS
    """At most this many reds are labelled (15 in a full-ball game)."""
    reject_cost: float = 10.0
    """Cost of calling a candidate "not a ball"; a label costs half its squared Mahalanobis distance."""
    shade_chroma_sigma: float = 0.09
    """A candidate whose core chromaticity lies this close to the cloth's (relative to the cloth's
    distance from grey) is likely shaded cloth (the shadow of a player or the cue): the scale of
    the "cloth" pseudo-label's cost."""
    shade_min_lightness: float = 60.0
    """Shaded cloth is rarely darker than this Lab lightness (0–255); darker is the black ball."""
    shade_lightness_sigma: float = 10.0
    """Lightness (0–255) over which the "cloth" cost grows below ``shade_min_lightness``."""
    chroma_floor: float = 12.0
    """Added to B+G+R before dividing, as in the cloth model."""
    min_cloth_saturation: float = 0.1
    """Floor of the cloth's rgb-chromaticity distance from grey (0–1) that cloth distances are
    divided by (a grey cloth would make every colour look far from it)."""
    exposure_gains: tuple[float, ...] = (0.55, 0.65, 0.75, 0.85, 1.0, 1.15, 1.3)
    """Exposure gains the frame's calibration starts from (a dark broadcast makes pink look like
    red; the refinement alone could settle on the wrong side of that)."""
    transform_iterations: int = 3
    """Rounds of (fit the frame transform to the labels, label again) from each start."""
    gain_prior_sigma: float = 0.3
    """Spread (natural log units) of the prior on the frame's exposure gain, centred on 1."""
    gamma_prior_sigma: float = 0.15
    """Spread (natural log units) of the prior on the frame's tone-curve exponent, centred on 1."""
    chroma_scale_prior_sigma: float = 0.15
    """Spread (natural log units) of the prior on the frame's saturation factor, centred on 1."""
    chroma_shift_prior_sigma: float = 6.0
    """Spread (Lab a/b units) of the prior on the frame's white-balance shift, centred on 0."""
    transform_limits: tuple[float, float, float, float] = (0.8, 1.6, 1.6, 25.0)
    """Largest |log gain|, gamma factor, saturation factor and |a/b shift| a frame may have."""
    cast_prior_sigma: float = 0.06
    """Spread (natural log units) of the prior on the frame's colour cast: its red and blue
    channel gains against green (:class:`FrameTransform`'s ``red_cast``, ``blue_cast``), centred
    on 0. A cast is what another broadcast's white balance makes (a green tint of 8 % on green
    and -5 % on red and blue is -0.13 on both); unlike the constant ``a_shift``, ``b_shift`` it
    pulls a light ball's a and b further than a dark one's (the white 14 Lab units greener under
    that tint, a red 3, the black 2), so the reds, the most numerous balls, no longer set a shift
    the white and yellow cannot follow (Task1 still 30 under the green tint: its white 13.9
    against 4.5 with the cast). The spread of the broadcasts the models were fitted on: fitted
    with a prior of 1 (no hold at these sizes) on the first frame of each of the 25 Task2 clips,
    the casts measure 0.049 (red) and 0.073 (blue) root mean square, 0.06 together."""
    cast_limit: float = 0.4
    """Largest |red_cast| and |blue_cast| (natural log units) a frame may have: over twice the
    largest the Task1 stills' broadcasts show (0.17, blue) and above twice photometric's
    strongest tint (0.26)."""
    transform_fit_max_distance: float = 3.0
    """A named ball whose core lies further than this (Mahalanobis distance in its model's spreads,
    L, a and b together) from its model seen through the transform fitted to every named ball, but
    near the line from its model towards its local cloth (``transform_fit_blur_residual``), is read
    as blurred by its motion and left out of the frame's transform, which is fitted again from the
    others: a ball blurred with the cloth (a cue ball struck hard, with no highlight) is named or
    not on its own reading, but does not drag the frame's grading towards itself. Dragged, it makes
    itself cheaper (the rendered pack split's break-off white: 8.2 with itself in the fit, 10.8
    without, against ``reject_cost`` 10), so that whether it is named depended on the transform the
    view's previous frames settled on, not on the frame. A ball far off its model another way (a
    white greener than the models' under another grading) stays in the fit: the grading is what it
    tells (left out, Task2 clip 6 at gamma 1.25 lost its black's pot). The models' spreads are 1.5
    times the scatter a clip shows: 3 of them is 4.5 times that scatter (of the 4600 named readings
    of the rendered pack split, 99 % lie within 2.6; 12 beyond 3, ten of them the cue ball blurred
    after the break-off)."""
    transform_fit_blur_residual: float = 1.5
    """...near: within this Mahalanobis distance (model spreads) of the nearest colour on the line
    from its model's mean towards its local cloth's (the rendered pack split's blurred cue ball:
    0.3 to 1.3 from it, 3.3 to 4.3 from the model; the white of Task2 clip 6 at gamma 1.25, greener
    than the models' by the grading, 2.2 to 3.1 from it at 3.1 to 3.4 from the model)."""
    blur_max_mix: float = 0.5
    """A ball moving fast is blurred with the cloth behind it: its core's Lab lies on the segment
    from its model's mean towards the local cloth's, at most this fraction of the way (further, the
    core is more cloth than ball: the tip of the cue over the cloth). Only a candidate showing a
    highlight (a dark patch of the cloth's hue is otherwise a shade) that no ball's model fits
    within ``reject_cost`` may be read so..."""
    blur_chroma_tolerance: float = 0.2
    """...and only where its chromaticity is no further from the cloth's (``cloth_distance``) than
    the mix of the ball's colour and the cloth's, by more than this: a blur takes on the cloth's
    hue, while a hand, the cue over a shadow, or wood mixed with cloth keep their own..."""
    blur_cost: float = 4.0
    """...at this cost added to the label's (the negative log of the prior odds that a ball is
    blurred: most balls rest or roll slowly, so a sharp reading that fits wins)..."""
    blur_mix_sigma: float = 0.25
    """...and ½(fraction / this)² more, so the least mixed reading that fits wins."""
    highlight_reject_cost: float = 1.0
    """Added to the cost of calling a candidate found by a specular highlight "not a ball": a ball
    shows one far more often than what else is found (on every 15th frame of the 25 Task2 clips,
    95 % of the candidates named balls against 34 % of those left out: ln(0.95 / 0.34) = 1.0).
    Of two candidates that fit one colour alike (a ball on its spot, the streak of another ball
    struck past it), the one with a highlight is named. For a candidate alone on the cloth (see
    ``label_balls``' ``alone``); for one in a region coming over the cushions, see
    ``intruding_highlight_reject_cost``."""
    intruding_highlight_reject_cost: float = 0.17
    """...and for a candidate found by a highlight in a region coming over the cushions (a player's
    hand or arm, the cue): there a highlight tells a ball far less, skin and the cue shine too (on
    the same frames, 89.5 % of such candidates named balls against 75.7 % of those left out:
    ln(0.895 / 0.757) = 0.17; alone on the cloth 95.7 % against 34.4 %, 1.02). With the full 1.0, a
    dark gap under the bridge hand beside a finger's glint, fitting the black about as well as the
    black itself (2.6 against 2.2-2.8), took its name while the black, alone by a corner pocket's
    jaws, was left out (Task2 clip 13 at 25 fps: unseen for 0.64 s, its rattle read as a pot)."""
    white_continuity_cost: float = 2.0
    """Taken off the cost of naming white a candidate where the cue ball was a frame ago (see
    ``label_balls``' ``white_expected``): the cue ball stays on the table from frame to frame far
    more often than not (it leaves it only into a pocket or over a cushion), so a candidate where it
    just was is it at better odds than any other. A cue ball struck hard, blurred with no highlight,
    reads near the rejection cost (the rendered pack split's break-off white: 10.0 to 10.8 under
    the transform the other balls set, against ``reject_cost`` 10) and would be named on one frame
    and not the next; 2 (odds e² ≈ 7 to 1, the margin ``ClassicConfig.relabel_searched_margin``
    keeps the last naming by) names it, while a candidate no white fits within 12 (a shine, a
    hand) is still left out, and a sharp white elsewhere, far cheaper, still takes the name. Only
    a candidate that fits the white better than any other ball gets it (else, on Task2 clip 4, a
    candidate 80 px behind the struck cue ball, fitting another colour far better, was named white
    on four frames)."""


def core_features(
    image_bgr: np.ndarray,
    tophat: np.ndarray,
    cloth_at_centres: np.ndarray,
    cloth_brightness: np.ndarray,
    centres: np.ndarray,
    radii: np.ndarray,
    config: ColourConfig,
    samples: int = 9,
    foreign: tuple[np.ndarray, float, float] | None = None,
) -> np.ndarray:
    """(n, 7) features of each ball's core (see :data:`FEATURE_NAMES`), highlights left out, and,
    with ``foreign`` (own (n, 4): each ball's own chromaticity, B, G, R over their sum plus
    ``chroma_floor``, and Lab lightness, NaN where unknown; a chromaticity distance; a lightness
    margin), the pixels of another ball lying over it: those that far or farther from its own
    chromaticity and from the cloth's, and that much or more lighter than its own (a white
    resting against it, nearer the camera).

    ``image_bgr``: (H, W, 3) uint8; ``tophat``: (H, W) lightness white top-hat of it;
    ``cloth_at_centres``: (n, 3) the cloth model's chromaticity at each centre and
    ``cloth_brightness`` (n,) its B+G+R; ``centres``: (n, 2) px; ``radii``: (n,) px. Only the core
    samples are converted to Lab (a conversion is per pixel: the same values as the whole image's).
    """
    if len(centres) == 0:
        return np.zeros((0, len(FEATURE_NAMES)))
    h, w = tophat.shape
    pts = centres[:, None, :] + (config.core_radius * radii)[:, None, None] * _core_grid(samples)[None]
    ix = np.minimum(np.maximum(np.round(pts[..., 0]).astype(int), 0), w - 1)
    iy = np.minimum(np.maximum(np.round(pts[..., 1]).astype(int), 0), h - 1)
    bgr = image_bgr[iy, ix]
    # Lab and BGR side by side, so that one sort gives both medians.
    values = np.concatenate([cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab), bgr], axis=2).astype(float)
    values[..., 1:3] -= 128.0
    highlight = tophat[iy, ix] >= config.highlight_tophat
    if foreign is not None:
        own, distance, lighter = foreign
        sampled = values[..., 3:6] / (values[..., 3:6].sum(axis=2, keepdims=True) + config.chroma_floor)
        with np.errstate(invalid="ignore"):
            far = np.sum((sampled - own[:, None, :3]) ** 2, axis=2) >= distance**2
            far &= np.sum((sampled - cloth_at_centres[:, None, :]) ** 2, axis=2) >= distance**2
            highlight |= far & (values[..., 0] >= own[:, None, 3] + lighter)
    # A ball that is all highlight (the cue ball, over-exposed) keeps every pixel.
    highlight[highlight.all(axis=1)] = False
    medians = _median_unmasked(values, highlight)
    lab_median, bgr_median = medians[:, :3], medians[:, 3:]
    chroma = bgr_median / (bgr_median.sum(axis=1, keepdims=True) + config.chroma_floor)
    grey = np.full(3, 1.0 / 3.0)
    cloth_saturation = np.maximum(
        np.linalg.norm(cloth_at_centres - grey, axis=1), config.min_cloth_saturation
    )
    cloth_distance = np.linalg.norm(chroma - cloth_at_centres, axis=1) / cloth_saturation
    cloth_bgr = cloth_at_centres * (np.asarray(cloth_brightness, dtype=float)[:, None] + config.chroma_floor)
    return np.concatenate([lab_median, cloth_distance[:, None], _lab_of(cloth_bgr)], axis=1)


def lab_lightness(image_bgr: np.ndarray) -> np.ndarray:
    """(H, W) uint8: the Lab lightness of ``image_bgr`` (H, W, 3) uint8, the values of
    ``cv2.cvtColor(image, cv2.COLOR_BGR2Lab)[..., 0]`` (tested on every colour) without computing
    ``a`` and ``b``: OpenCV's 8-bit conversion in fixed point, by its own tables (gamma, then the
    cube root of the luminance)."""
    blue, green, red, table = _lightness_tables()
    out = np.empty(image_bgr.shape[:2], np.uint8)
    _lightness_of(image_bgr, blue, green, red, table, out)
    return out


_GAMMA_BITS = 3
"""OpenCV's 8-bit Lab: linear light is kept in 255 · 2^3 steps..."""
_XYZ_BITS = 12
"""...the luminance weights in 2^12 steps..."""
_CBRT_BITS = 15
"""...and the cube root of the luminance in 2^15 steps."""
_LUMINANCE_BGR = (0.072169, 0.715160, 0.212671)
"""The luminance Y of linear sRGB blue, green and red (D65 white; its Y is 1)."""


@functools.cache
def _lightness_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tables of :func:`lab_lightness`, as OpenCV builds them: per 8-bit value, its linear
    light times each luminance weight (blue, green, red; int32), and the lightness (uint8) of each
    luminance step (read-only)."""
    x = np.arange(256) / 255.0
    linear = np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)
    gamma = np.round(255 * (1 << _GAMMA_BITS) * linear).astype(np.int64)
    weights = [round((1 << _XYZ_BITS) * c) for c in _LUMINANCE_BGR]
    steps = ((int(gamma[-1]) * sum(weights) + (1 << (_XYZ_BITS - 1))) >> _XYZ_BITS) + 1
    y = np.arange(steps) / (255.0 * (1 << _GAMMA_BITS))
    cbrt = np.round((1 << _CBRT_BITS) * np.where(y < 0.008856, y * 7.787 + 16.0 / 116.0, np.cbrt(y)))
    scale = (116 * 255 + 50) // 100
    shift = -((16 * 255 * (1 << _CBRT_BITS) + 50) // 100)
    lightness = (scale * cbrt.astype(np.int64) + shift + (1 << (_CBRT_BITS - 1))) >> _CBRT_BITS
    tables = [(gamma * weight).astype(np.int32) for weight in weights]
    tables.append(np.clip(lightness, 0, 255).astype(np.uint8))
    for table in tables:
        table.flags.writeable = False
    blue, green, red, table = tables
    return blue, green, red, table


@numba.njit(cache=True, nogil=True)
def _lightness_of(
    image: np.ndarray,
    blue: np.ndarray,
    green: np.ndarray,
    red: np.ndarray,
    table: np.ndarray,
    out: np.ndarray,
) -> None:
    """The compiled body of :func:`lab_lightness`: ``out`` (H, W) from ``image`` (H, W, 3)."""
    half = 1 << (_XYZ_BITS - 1)
    for y in range(image.shape[0]):
        for x in range(image.shape[1]):
            luminance = blue[image[y, x, 0]] + green[image[y, x, 1]] + red[image[y, x, 2]]
            out[y, x] = table[(luminance + half) >> _XYZ_BITS]


def warm_colour_conversions() -> None:
    """Make OpenCV build its Lab → BGR tables now (it does on first use, ~70 ms here), not while
    a frame is named (a blurred ball's reading converts a few colours back to BGR)."""
    _bgr_of(np.zeros((1, 3)))


_LAB_OFFSET = np.array([0.0, 128.0, 128.0])
"""What OpenCV adds to a and b in 8-bit Lab."""


def _bgr_of(lab: np.ndarray) -> np.ndarray:
    """(n, 3) BGR on 0–255 of colours ``lab`` (n, 3) Lab (OpenCV 8-bit, a/b centred)."""
    pixels = np.clip(np.rint(np.asarray(lab) + _LAB_OFFSET), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    return cv2.cvtColor(pixels, cv2.COLOR_Lab2BGR).reshape(-1, 3).astype(float)


def _lab_of(bgr: np.ndarray) -> np.ndarray:
    """(n, 3) Lab (OpenCV 8-bit, a/b centred) of colours ``bgr`` (n, 3) on 0–255."""
    pixels = np.clip(np.rint(bgr), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(float)
    lab[:, 1:] -= 128.0
    return lab


@functools.cache
def _core_grid(samples: int) -> np.ndarray:
    """Offsets on a unit disc, (k, 2): a square grid of ``samples``² points clipped to the disc
    (read-only)."""
    t = np.linspace(-1.0, 1.0, samples)
    grid = np.stack(np.meshgrid(t, t), axis=-1).reshape(-1, 2)
    grid = grid[np.hypot(grid[:, 0], grid[:, 1]) <= 1.0]
    grid.flags.writeable = False
    return grid


def _median_unmasked(values: np.ndarray, masked: np.ndarray) -> np.ndarray:
    """(n, c) median over axis 1 of ``values`` (n, k, c), leaving out the samples ``masked``
    (n, k) bool (each row keeps at least one): ``np.nanmedian`` with the left-out samples as NaN,
    by one sort (NaN sorts last) instead of its masked-array machinery."""
    values = np.where(masked[..., None], np.nan, values)
    values.sort(axis=1)
    count = values.shape[1] - masked.sum(axis=1)
    rows = np.arange(len(values))
    return 0.5 * (values[rows, (count - 1) // 2] + values[rows, count // 2])


@dataclass(frozen=True)
class FrameTransform:
    """How one broadcast's colours differ from the models' (the canonical broadcast).

    A ball whose canonical core colour is (L, a, b) is seen with lightness
    ``255 exp(log_gain) (L / 255) ** gamma`` (exposure and tone curve) and chroma
    ``chroma_scale (a, b) + (a_shift, b_shift) + J(L, a, b) (red_cast, blue_cast)`` (saturation
    and white balance): ``J`` (2 × 2) is how the colour's a and b move, to first order, when its
    8-bit red and blue are multiplied by ``exp(red_cast)`` and ``exp(blue_cast)`` against its
    green (a camera's or grade's colour cast: a white moves about five times as far as the black,
    and each colour its own way; :func:`_cast_response`). The identity changes nothing.
    """

    log_gain: float = 0.0
    gamma: float = 1.0
    chroma_scale: float = 1.0
    a_shift: float = 0.0
    b_shift: float = 0.0
    red_cast: float = 0.0
    blue_cast: float = 0.0

    def apply(self, lab: np.ndarray) -> np.ndarray:
        """(n, 3) canonical (L, a, b) → as this broadcast shows them."""
        out = np.array(lab, dtype=float, copy=True)
        out[:, 0] = 255.0 * np.exp(self.log_gain + self.gamma * np.log(_unit_lightness(out[:, 0])))
        cast = _cast_response(lab) @ np.array([self.red_cast, self.blue_cast])
        out[:, 1] = self.chroma_scale * out[:, 1] + self.a_shift + cast[:, 0]
        out[:, 2] = self.chroma_scale * out[:, 2] + self.b_shift + cast[:, 1]
        return out

    def invert(self, lab: np.ndarray) -> np.ndarray:
        """(n, 3) (L, a, b) seen in this broadcast → canonical (the cast's response taken at the
        colour seen: exact for no cast, first order otherwise)."""
        out = np.array(lab, dtype=float, copy=True)
        cast = _cast_response(out) @ np.array([self.red_cast, self.blue_cast])
        out[:, 0] = 255.0 * np.exp((np.log(_unit_lightness(out[:, 0])) - self.log_gain) / self.gamma)
        out[:, 1] = (out[:, 1] - self.a_shift - cast[:, 0]) / self.chroma_scale
        out[:, 2] = (out[:, 2] - self.b_shift - cast[:, 1]) / self.chroma_scale
        return out

    def spreads(self, means: np.ndarray, stds: np.ndarray) -> np.ndarray:
        """(k, 3) standard deviations of canonical models ``means`` ± ``stds`` once transformed
        (first order: the slope of the transform at the mean)."""
        lightness = _unit_lightness(means[:, 0])
        slope = self.gamma * np.exp(self.log_gain) * lightness ** (self.gamma - 1.0)
        return np.column_stack([stds[:, 0] * slope, stds[:, 1:] * self.chroma_scale])

    def prior_cost(self, config: ColourConfig) -> float:
        """Negative log prior (up to a constant): broadcasts differ from the canonical one little."""
        z = (
            self.log_gain / config.gain_prior_sigma,
            np.log(self.gamma) / config.gamma_prior_sigma,
            np.log(self.chroma_scale) / config.chroma_scale_prior_sigma,
            self.a_shift / config.chroma_shift_prior_sigma,
            self.b_shift / config.chroma_shift_prior_sigma,
            self.red_cast / config.cast_prior_sigma,
            self.blue_cast / config.cast_prior_sigma,
        )
        return 0.5 * float(np.sum(np.square(z)))


def _unit_lightness(lightness: np.ndarray) -> np.ndarray:
    """Lightness on 0–1, kept off 0 so that its logarithm stays finite."""
    return np.clip(np.asarray(lightness, dtype=float) / 255.0, 1.0 / 255.0, 1.0)


_CHROMA_UNKNOWNS = 5
"""The chroma fit's unknowns (:func:`_fit_kernel`): the chroma scale, the a and b shifts, the red
and blue casts."""

_CAST_STEP = 0.05
"""The step (natural log units of gain) of :func:`_cast_response`'s central differences: a 5 %
change of a channel, small enough that the response is the slope, large enough to stay clear of
the float conversion's rounding."""


def _cast_response(lab: np.ndarray, step: float = _CAST_STEP) -> np.ndarray:
    """(n, 2, 2) how colours ``lab`` (n, 3) (Lab, OpenCV 8-bit, a/b centred) move in a and b (rows)
    per natural-log unit of gain on their red and on their blue against their green (columns):
    central differences of ``step`` through OpenCV's own conversion, in floating point (sRGB on
    0–1; OpenCV clips a channel beyond 1, which none of the models' means comes near: the
    brightest, the white's green, is 0.93, 0.97 a step up; a colour clipped responds less)."""
    lab = np.asarray(lab, dtype=float).reshape(-1, 3)
    if len(lab) == 0:
        return np.zeros((0, 2, 2))
    float_lab = np.column_stack([lab[:, 0] * (100.0 / 255.0), lab[:, 1], lab[:, 2]]).astype(np.float32)
    bgr = cv2.cvtColor(float_lab.reshape(-1, 1, 3), cv2.COLOR_Lab2BGR).reshape(-1, 3).astype(np.float64)
    response = np.empty((len(lab), 2, 2))
    for column, channel in enumerate((2, 0)):  # red, then blue (BGR order)
        ends = []
        for sign in (1.0, -1.0):
            moved = bgr.copy()
            moved[:, channel] *= np.exp(sign * step)
            moved_lab = cv2.cvtColor(moved.astype(np.float32).reshape(-1, 1, 3), cv2.COLOR_BGR2Lab)
            ends.append(moved_lab.reshape(-1, 3)[:, 1:].astype(np.float64))
        response[:, :, column] = (ends[0] - ends[1]) / (2.0 * step)
    return response


def shade_costs(
    features: np.ndarray, config: ColourConfig, transform: FrameTransform | None = None
) -> np.ndarray:
    """(n,) cost of the "shaded cloth" pseudo-label: low when the core has the cloth's chromaticity
    and is not as dark as the black ball (lightness and chroma judged in canonical terms)."""
    return _shade_costs(_log_lightness(features), features, transform or FrameTransform(), config)


def _log_lightness(features: np.ndarray) -> np.ndarray:
    """(n,) the log of each core's lightness on 0–1 (what inverting a transform starts from)."""
    return np.log(_unit_lightness(features[:, 0]))


def _shade_costs(
    log_lightness: np.ndarray, features: np.ndarray, transform: FrameTransform, config: ColourConfig
) -> np.ndarray:
    """:func:`shade_costs` given the cores' ``log_lightness`` (the canonical lightness is
    :meth:`FrameTransform.invert`'s, computed for the lightness alone)."""
    lightness = 255.0 * np.exp((log_lightness - transform.log_gain) / transform.gamma)
    chroma = features[:, 3] / config.shade_chroma_sigma
    too_dark = np.maximum(0.0, config.shade_min_lightness - lightness) / config.shade_lightness_sigma
    return 0.5 * (chroma**2 + too_dark**2)


def class_costs(
    features: np.ndarray,
    config: ColourConfig,
    transform: FrameTransform | None = None,
    glossy: np.ndarray | None = None,
) -> np.ndarray:
    """(n, len(BALL_NAMES)) negative log-likelihood of each name for each ball, the models seen
    through ``transform`` (up to a constant: the least log-spread of the untransformed models).
    A ``glossy`` candidate (n,) bool that no ball fits sharply may be a ball blurred with the cloth
    (see ``blur_max_mix``)."""
    glossy = np.zeros(len(features), dtype=bool) if glossy is None else np.asarray(glossy, dtype=bool)
    return _class_costs(features, _models(config), transform or FrameTransform(), config, glossy)


class _Models(NamedTuple):
    """The colour models as arrays in the order of BALL_NAMES, with what every labelling and fit
    computes from them alone: ``means`` and ``stds`` (k, 3); the means' lightness on 0–1 and its
    log (k,); each model's weight in the lightness fit (k,) and in the chroma fit (k, 2); the
    least log-spread of the models; each model's response to a colour cast (k, 2, 2)
    (:func:`_cast_response`)."""

    means: np.ndarray
    stds: np.ndarray
    unit_lightness: np.ndarray
    log_lightness: np.ndarray
    lightness_weight: np.ndarray
    chroma_weight: np.ndarray
    least_log_spread: float
    cast_response: np.ndarray


def _models(config: ColourConfig) -> _Models:
    """The models of ``config`` as arrays (built once per set of models)."""
    models = config.models
    return _models_of(tuple((tuple(models[name][0]), tuple(models[name][1])) for name in BALL_NAMES))


@functools.cache
def _models_of(models: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]) -> _Models:
    means = np.array([mean for mean, _ in models], dtype=float)
    stds = np.array([std for _, std in models], dtype=float)
    unit = _unit_lightness(means[:, 0])
    arrays = (means, stds, unit, np.log(unit), (means[:, 0] / stds[:, 0]) ** 2, stds[:, 1:] ** -2)
    response = np.ascontiguousarray(_cast_response(means))
    for array in (*arrays, response):
        array.flags.writeable = False
    return _Models(*arrays, float(np.log(stds).sum(axis=1).min()), response)


@functools.cache
def _slots(max_reds: int) -> tuple[tuple[str, ...], np.ndarray]:
    """The names a labelling can give, one per slot (each colour once, then ``max_reds`` reds),
    and each slot's index in BALL_NAMES (read-only)."""
    slots = tuple(name for name in BALL_NAMES if name != RED) + (RED,) * max_reds
    index = np.array([BALL_NAMES.index(name) for name in slots])
    index.flags.writeable = False
    return slots, index


def _class_costs(
    features: np.ndarray,
    models: _Models,
    transform: FrameTransform,
    config: ColourConfig,
    glossy: np.ndarray,
) -> np.ndarray:
    # the models seen through the transform, as FrameTransform.apply and .spreads give them, from
    # the models' own terms computed once
    t = transform
    costs, seen_means, weight, log_spread = _sharp_costs(
        np.ascontiguousarray(features[:, :3], dtype=float),
        models.means,
        models.stds,
        models.log_lightness,
        models.unit_lightness,
        models.least_log_spread,
        models.cast_response,
        _transform_array(t),
    )
    # Blur is the last explanation before "not a ball": only a glossy candidate that no ball fits
    # sharply may be read so (a red blurred with the cloth would otherwise pass for the brown, a
    # hand's knuckles for a blurred ball).
    unfit = glossy & (costs.min(axis=1) >= config.reject_cost)
    if unfit.any():
        offset = features[unfit][:, None, :3] - seen_means[None]
        blurred = _blurred_costs(offset, features[unfit], seen_means, weight[None], config) + log_spread[None]
        costs[unfit] = np.minimum(costs[unfit], blurred)
    return costs


@numba.njit(cache=True, nogil=True)
def _sharp_costs(
    features: np.ndarray,
    means: np.ndarray,
    stds: np.ndarray,
    log_lightness: np.ndarray,
    unit_lightness: np.ndarray,
    least_log_spread: float,
    cast_response: np.ndarray,
    transform: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The compiled body of :func:`_class_costs` (it runs a few times on every region search):
    the models (``means``, ``stds`` (k, 3) Lab, and their terms ``log_lightness``,
    ``unit_lightness`` (k,), ``cast_response`` (k, 2, 2)) seen through the ``transform`` (log gain,
    gamma, chroma scale, a and b shifts, red and blue casts), and each candidate's (``features``
    (n, 3) Lab) cost per model: half its squared Mahalanobis distance plus the model's log-spread
    less ``least_log_spread``. Returns the costs (n, k), the seen means (k, 3), their inverse
    variances (k, 3) and log-spreads (k,)."""
    log_gain, gamma, chroma_scale, a_shift, b_shift, red_cast, blue_cast = transform
    k = len(means)
    seen_means = np.empty((k, 3))
    weight = np.empty((k, 3))
    log_spread = np.empty(k)
    lift = gamma * np.exp(log_gain)
    for j in range(k):
        seen_means[j, 0] = 255.0 * np.exp(log_gain + gamma * log_lightness[j])
        for c in range(2):
            cast = cast_response[j, c, 0] * red_cast + cast_response[j, c, 1] * blue_cast
            shift = a_shift if c == 0 else b_shift
            seen_means[j, 1 + c] = chroma_scale * means[j, 1 + c] + shift + cast
        slope = lift * unit_lightness[j] ** (gamma - 1.0)
        spreads = (stds[j, 0] * slope, stds[j, 1] * chroma_scale, stds[j, 2] * chroma_scale)
        for c in range(3):
            weight[j, c] = spreads[c] ** -2.0
        log_spread[j] = np.log(spreads[0]) + np.log(spreads[1]) + np.log(spreads[2]) - least_log_spread
    costs = np.empty((len(features), k))
    for i in range(len(features)):
        for j in range(k):
            total = 0.0
            for c in range(3):
                offset = features[i, c] - seen_means[j, c]
                total += offset * offset * weight[j, c]
            costs[i, j] = 0.5 * total + log_spread[j]
    return costs, seen_means, weight, log_spread


def _blurred_costs(
    offset: np.ndarray, features: np.ndarray, seen_means: np.ndarray, weight: np.ndarray, config: ColourConfig
) -> np.ndarray:
    """(m, k) cost of reading each candidate as each ball blurred with the cloth (see
    ``blur_max_mix``): half the squared Mahalanobis distance of its core (``offset`` (m, k, 3)
    from each model's mean ``seen_means`` (k, 3), ``weight`` (1, k, 3) the inverse variances) from
    a point of the segment towards its local cloth (``features`` (m, 7)), plus the cost of the
    mixing fraction — a quadratic in the fraction, minimised in closed form — and ``blur_cost``;
    infinite where the fraction passes ``blur_max_mix`` or the hue is off the mix
    (``blur_chroma_tolerance``)."""
    cloth = features[:, CLOTH_LAB]
    toward = cloth[:, None] - seen_means[None]
    prior = config.blur_mix_sigma**-2.0
    mix = np.sum(offset * toward * weight, axis=2) / (np.sum(toward**2 * weight, axis=2) + prior)
    mix = np.maximum(mix, 0.0)
    residual = offset - mix[..., None] * toward
    costs = 0.5 * (np.sum(residual**2 * weight, axis=2) + prior * mix**2) + config.blur_cost
    mixed_distance = _mixed_cloth_distance(seen_means, cloth, mix, config)
    off_hue = features[:, 3, None] > mixed_distance + config.blur_chroma_tolerance
    return np.where((mix > config.blur_max_mix) | off_hue, np.inf, costs)


def _mixed_cloth_distance(
    means: np.ndarray, cloth: np.ndarray, mix: np.ndarray, config: ColourConfig
) -> np.ndarray:
    """(m, k) ``cloth_distance`` of each ball's colour ``means`` (k, 3) Lab mixed with each local
    cloth's ``cloth`` (m, 3) Lab by the fractions ``mix`` (m, k), the mix taken on BGR values."""
    both = _bgr_of(np.concatenate([means, cloth]))  # one conversion: each costs far more than its pixels
    ball_bgr, cloth_bgr = both[: len(means)], both[len(means) :]
    mixed = (1.0 - mix[..., None]) * ball_bgr[None] + mix[..., None] * cloth_bgr[:, None]
    chroma = mixed / (mixed.sum(axis=2, keepdims=True) + config.chroma_floor)
    cloth_chroma = cloth_bgr / (cloth_bgr.sum(axis=1, keepdims=True) + config.chroma_floor)
    saturation = np.maximum(np.linalg.norm(cloth_chroma - 1.0 / 3.0, axis=1), config.min_cloth_saturation)
    return np.linalg.norm(chroma - cloth_chroma[:, None], axis=2) / saturation[:, None]


def fit_transform(features: np.ndarray, names: np.ndarray, config: ColourConfig) -> FrameTransform:
    """The frame transform that best explains balls ``features`` (n, ≥3) named ``names`` (n,),
    given the prior: two weighted least-squares problems with Gaussian priors (closed form).

    Lightness: ``log(L_seen / 255) = log_gain + gamma log(L_model / 255)``; chroma:
    ``(a, b)_seen = chroma_scale (a, b)_model + (a_shift, b_shift)``. Each ball weighs by its
    model's spread.
    """
    if len(names) == 0:
        return FrameTransform()
    index = np.array([BALL_NAMES.index(name) for name in names])
    return _fit_transform(features, _log_lightness(features), index, _models(config), config)


def _fit_transform(
    features: np.ndarray, log_lightness: np.ndarray, index: np.ndarray, models: _Models, config: ColourConfig
) -> FrameTransform:
    """:func:`fit_transform` of balls ``features`` (n, ≥3) (``log_lightness`` (n,) their
    :func:`_log_lightness`) of the models ``index`` (n,)."""
    log_gain, gamma, scale, a_shift, b_shift, red_cast, blue_cast = _fit_kernel(
        np.ascontiguousarray(features[:, 1:3], dtype=float),
        np.asarray(log_lightness, dtype=float),
        np.asarray(index, dtype=np.int64),
        models.means,
        models.log_lightness,
        models.lightness_weight,
        models.chroma_weight,
        models.cast_response,
        np.array(
            [
                config.gain_prior_sigma,
                config.gamma_prior_sigma,
                config.chroma_scale_prior_sigma,
                config.chroma_shift_prior_sigma,
                config.cast_prior_sigma,
            ]
        ),
    )
    limits = config.transform_limits
    return FrameTransform(
        log_gain=_within(log_gain, -limits[0], limits[0]),
        gamma=_within(gamma, 1.0 / limits[1], limits[1]),
        chroma_scale=_within(scale, 1.0 / limits[2], limits[2]),
        a_shift=_within(a_shift, -limits[3], limits[3]),
        b_shift=_within(b_shift, -limits[3], limits[3]),
        red_cast=_within(red_cast, -config.cast_limit, config.cast_limit),
        blue_cast=_within(blue_cast, -config.cast_limit, config.cast_limit),
    )


@numba.njit(cache=True, nogil=True)
def _fit_kernel(
    chroma: np.ndarray,
    log_lightness: np.ndarray,
    index: np.ndarray,
    means: np.ndarray,
    model_log_lightness: np.ndarray,
    lightness_weight: np.ndarray,
    chroma_weight: np.ndarray,
    cast_response: np.ndarray,
    sigmas: np.ndarray,
) -> tuple[float, float, float, float, float, float, float]:
    """The compiled body of :func:`_fit_transform` (a naming fits it once or twice a region
    search), unclamped: two weighted least-squares problems with independent Gaussian priors,
    their normal equations solved. Lightness, in logs: ``log L_seen = log_gain + gamma log
    L_model`` (prior 0, 1; sigmas ``sigmas[0:2]``); chroma: ``(a, b)_seen = scale (a, b)_model +
    (a_shift, b_shift) + J_model (red_cast, blue_cast)`` (prior 1, 0, 0, 0, 0; sigmas
    ``sigmas[2]``, ``sigmas[3]`` twice, ``sigmas[4]`` twice). ``chroma`` (n, 2) the balls' a and
    b, ``log_lightness`` (n,) theirs, ``index`` (n,) their models; the models' ``means`` (k, 3),
    ``model_log_lightness`` and ``lightness_weight`` (k,), ``chroma_weight`` (k, 2),
    ``cast_response`` (k, 2, 2) (``J``)."""
    light_lhs = np.zeros((2, 2))
    light_rhs = np.zeros(2)
    light_lhs[0, 0] = sigmas[0] ** -2.0
    light_lhs[1, 1] = sigmas[1] ** -2.0
    light_rhs[1] = sigmas[1] ** -2.0  # prior gamma 1
    chroma_lhs = np.zeros((_CHROMA_UNKNOWNS, _CHROMA_UNKNOWNS))
    chroma_rhs = np.zeros(_CHROMA_UNKNOWNS)
    chroma_lhs[0, 0] = sigmas[2] ** -2.0
    chroma_lhs[1, 1] = sigmas[3] ** -2.0
    chroma_lhs[2, 2] = sigmas[3] ** -2.0
    chroma_lhs[3, 3] = sigmas[4] ** -2.0
    chroma_lhs[4, 4] = sigmas[4] ** -2.0
    chroma_rhs[0] = sigmas[2] ** -2.0  # prior scale 1
    row = np.zeros(_CHROMA_UNKNOWNS)
    for i in range(len(index)):
        m = index[i]
        x, w = model_log_lightness[m], lightness_weight[m]
        light_lhs[0, 0] += w
        light_lhs[0, 1] += w * x
        light_lhs[1, 0] += w * x
        light_lhs[1, 1] += w * x * x
        light_rhs[0] += w * log_lightness[i]
        light_rhs[1] += w * x * log_lightness[i]
        for c in range(2):
            wc, seen = chroma_weight[m, c], chroma[i, c]
            row[0] = means[m, 1 + c]
            row[1] = 1.0 if c == 0 else 0.0
            row[2] = 1.0 - row[1]
            row[3] = cast_response[m, c, 0]
            row[4] = cast_response[m, c, 1]
            for p in range(_CHROMA_UNKNOWNS):
                chroma_rhs[p] += wc * row[p] * seen
                for q in range(_CHROMA_UNKNOWNS):
                    chroma_lhs[p, q] += wc * row[p] * row[q]
    light = np.linalg.solve(light_lhs, light_rhs)
    shape = np.linalg.solve(chroma_lhs, chroma_rhs)
    return light[0], light[1], shape[0], shape[1], shape[2], shape[3], shape[4]


def _fit_sharp(
    features: np.ndarray,
    log_lightness: np.ndarray,
    chosen: np.ndarray,
    index: np.ndarray,
    models: _Models,
    config: ColourConfig,
) -> FrameTransform:
    """The frame transform fitted to the balls ``chosen`` (m,) rows of ``features`` (n, 7) named
    the models ``index`` (m,), leaving out those blurred with the cloth: fitted to all, then again
    without those further than ``transform_fit_max_distance`` from their model that lie within
    ``transform_fit_blur_residual`` of the line from their model towards their local cloth (at
    least one kept; see those fields)."""
    fitted = _fit_transform(features[chosen], log_lightness[chosen], index, models, config)
    lab = np.ascontiguousarray(features[chosen, :3], dtype=float)
    costs, seen_means, weight, log_spread = _sharp_costs(
        lab,
        models.means,
        models.stds,
        models.log_lightness,
        models.unit_lightness,
        models.least_log_spread,
        models.cast_response,
        _transform_array(fitted),
    )
    limit = config.transform_fit_max_distance**2
    far = 2.0 * (costs[np.arange(len(index)), index] - log_spread[index]) > limit
    if not far.any():
        return fitted
    # the far balls' readings as their model's colour mixed with the local cloth's (least squares
    # in the model's spreads)
    offset = lab[far] - seen_means[index[far]]
    toward = features[chosen[far]][:, CLOTH_LAB] - seen_means[index[far]]
    w = weight[index[far]]
    mix = np.maximum(np.sum(offset * toward * w, axis=1) / np.sum(toward**2 * w, axis=1), 0.0)
    residual = np.sum((offset - mix[:, None] * toward) ** 2 * w, axis=1)
    blurred = np.zeros(len(index), dtype=bool)
    blurred[far] = (mix > 0.0) & (residual <= config.transform_fit_blur_residual**2)
    if not blurred.any() or blurred.all():
        return fitted
    sharp = ~blurred
    return _fit_transform(features[chosen[sharp]], log_lightness[chosen[sharp]], index[sharp], models, config)


def _transform_array(t: FrameTransform) -> np.ndarray:
    """The terms of ``t`` in the order the compiled kernels take them."""
    return np.array([t.log_gain, t.gamma, t.chroma_scale, t.a_shift, t.b_shift, t.red_cast, t.blue_cast])


def _within(value: float, low: float, high: float) -> float:
    """``value`` limited to [low, high] (``np.clip`` of one number, without its overhead)."""
    return min(max(float(value), low), high)


def _label(
    features: np.ndarray,
    log_lightness: np.ndarray,
    config: ColourConfig,
    models: _Models,
    transform: FrameTransform,
    slot_index: np.ndarray,
    glossy: np.ndarray,
    blurrable: np.ndarray,
    white_bonus: np.ndarray,
    highlight_premium: np.ndarray,
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """One joint labelling under ``transform``: (total cost, class costs, rows, columns). A
    ``glossy`` candidate (n,) bool cannot be shaded cloth and is left out at a higher cost (its
    ``highlight_premium`` (n,) more: ``highlight_reject_cost`` alone on the cloth,
    ``intruding_highlight_reject_cost`` in a region coming over the cushions; 0 for the others),
    a ``blurrable`` one (n,) bool may be a
    ball blurred with the cloth (see :func:`label_balls`); ``white_bonus`` (n,) is taken off each
    candidate's cost of the white's slot where the white is its cheapest name
    (``white_continuity_cost`` where the cue ball was, else 0); ``log_lightness`` (n,) is the
    features' :func:`_log_lightness`."""
    n = len(features)
    costs = _class_costs(features, models, transform, config, blurrable)
    shade = np.where(glossy, np.inf, _shade_costs(log_lightness, features, transform, config))
    reject = np.minimum(config.reject_cost, shade) + highlight_premium
    named = costs[:, slot_index]
    # only where the white is the candidate's best name: what fits another ball better is not
    # taken for the cue ball
    named[:, slot_index == _WHITE] -= np.where(costs.argmin(axis=1) == _WHITE, white_bonus, 0.0)[:, None]
    matrix = np.concatenate([named, np.repeat(reject[:, None], n, axis=1)], axis=1)
    rows, cols = linear_sum_assignment(matrix)
    return float(matrix[rows, cols].sum()) + transform.prior_cost(config), costs, rows, cols


_WHITE = BALL_NAMES.index(CUE_BALL)
"""The cue ball's index in BALL_NAMES."""

_Solution = tuple[float, np.ndarray, np.ndarray, np.ndarray]
"""One joint labelling: (total cost, class costs, rows, columns) (see :func:`_label`)."""


def _labelling_key(solution: _Solution, slot_index: np.ndarray) -> tuple[int, ...]:
    """The names of a joint labelling ``solution`` as a hashable key: per candidate, in order,
    the index in BALL_NAMES of its name (``slot_index`` (m,) per slot), -1 where left out."""
    _, _, rows, cols = solution
    named = cols < len(slot_index)
    names = np.where(named, slot_index[np.minimum(cols, len(slot_index) - 1)], -1)
    return tuple(names[np.argsort(rows)].tolist())


@dataclass(frozen=True)
class Labelling:
    """A joint labelling of candidate balls: ``labels`` (n,) object (names; "" for a candidate
    left out), ``confidence`` (n,) in [0, 1] (posterior of the label among the ball names, equal
    priors), ``keep`` (n,) bool, and the frame ``transform`` it was found under."""

    labels: np.ndarray
    confidence: np.ndarray
    keep: np.ndarray
    transform: FrameTransform


def assign_labels(features: np.ndarray, config: ColourConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label the balls jointly: one white, at most one of each colour, at most ``max_reds`` reds.

    The frame's colours are calibrated against the ball set while labelling: from each starting
    exposure in ``exposure_gains``, the labelling and the frame transform (exposure, tone curve,
    saturation, white balance; :class:`FrameTransform`) are refined in turn (the transform fitted
    to the balls as labelled, with a prior that keeps it near the canonical broadcast), and the
    cheapest joint solution wins. A grading that makes pink look like red makes every ball look
    different, and the one-of-each limits tell it apart. Returns ``labels`` (n,) object (names;
    "" for a candidate left out), ``confidence`` (n,) in [0, 1] (posterior of the label among the
    ball names, equal priors) and ``keep`` (n,) bool.
    """
    labelling = label_balls(features, config)
    return labelling.labels, labelling.confidence, labelling.keep


def label_balls(
    features: np.ndarray,
    config: ColourConfig,
    starts: tuple[FrameTransform, ...] | None = None,
    glossy: np.ndarray | None = None,
    alone: np.ndarray | None = None,
    first_start_margin: float = 0.0,
    white_expected: np.ndarray | None = None,
) -> Labelling:
    """:func:`assign_labels`, from the frame transforms ``starts`` (default: one per exposure gain
    of ``exposure_gains``), with the transform of the cheapest solution. A solution reached from a
    later start replaces the first start's only where it is cheaper by more than
    ``first_start_margin`` (cost units; 0: the cheapest wins).

    ``glossy`` (n,) bool marks candidates found by a specular highlight: cloth does not shine, so
    these cannot be "shaded cloth" (:func:`shade_costs`), only a ball or not a ball. A black ball
    moving fast is blurred with the cloth behind it into a dark patch of the cloth's hue, which
    would otherwise read as shade; its highlight still shows, and its core lies between the
    black's colour and the cloth's: a glossy candidate that no ball fits sharply may be named as
    a ball blurred with the cloth (up to ``blur_max_mix``, at a cost growing with the mix) — if it
    is ``alone`` (n,) bool (default: all are) on the cloth, not touched by the cue, a hand or a
    player, whose mixes with the cloth look alike. Leaving a glossy candidate out costs
    ``highlight_reject_cost`` more where it is alone, ``intruding_highlight_reject_cost`` where
    it is not (a hand and the cue shine too).

    A broadcast's grading stays put while the camera holds its view, so a frame of the same view
    can start from the transform its previous frame settled on alone (a few assignments instead of
    a search over exposures); the refinement still follows any change in the ball set. The
    transform is fitted to the balls that fit it sharply (``transform_fit_max_distance``), so a
    marginal reading is named or left out against the grading the others set, whatever transform
    the search started from.

    ``white_expected`` (n,) bool marks candidates where the cue ball was a frame ago: naming them
    white costs ``white_continuity_cost`` less where no other ball fits them better.
    """
    n = len(features)
    if n == 0:
        return Labelling(np.zeros(0, dtype=object), np.zeros(0), np.zeros(0, dtype=bool), FrameTransform())
    if starts is None:
        starts = tuple(FrameTransform(log_gain=float(np.log(gain))) for gain in config.exposure_gains)
    slots, slot_index = _slots(config.max_reds)
    models = _models(config)
    log_lightness = _log_lightness(features)
    glossy = np.zeros(n, dtype=bool) if glossy is None else np.asarray(glossy, dtype=bool)
    on_cloth = np.ones(n, dtype=bool) if alone is None else np.asarray(alone, dtype=bool)
    blurrable = glossy & on_cloth
    highlight_premium = np.where(
        glossy,
        np.where(on_cloth, config.highlight_reject_cost, config.intruding_highlight_reject_cost),
        0.0,
    )
    white_bonus = (
        np.zeros(n)
        if white_expected is None
        else np.where(np.asarray(white_expected, dtype=bool), config.white_continuity_cost, 0.0)
    )
    best: _Solution | None = None
    best_transform = FrameTransform()
    best_order = -1
    refinements: dict[tuple[int, ...], tuple[_Solution, FrameTransform]] = {}
    for order, transform in enumerate(starts):
        result = _label(
            features,
            log_lightness,
            config,
            models,
            transform,
            slot_index,
            glossy,
            blurrable,
            white_bonus,
            highlight_premium,
        )
        for _ in range(config.transform_iterations):
            rows, cols = result[2], result[3]
            named = cols < len(slots)
            # The refinement depends on the labelling only: starts that reach the same labelling
            # share it.
            key = _labelling_key(result, slot_index)
            if key not in refinements:
                fitted = _fit_sharp(
                    features, log_lightness, rows[named], slot_index[cols[named]], models, config
                )
                relabelled = _label(
                    features,
                    log_lightness,
                    config,
                    models,
                    fitted,
                    slot_index,
                    glossy,
                    blurrable,
                    white_bonus,
                    highlight_premium,
                )
                refinements[key] = (relabelled, fitted)
            refined, fitted = refinements[key]
            if _labelling_key(refined, slot_index) == key:
                # a fixed point: the labelling's own transform, whatever the start (the fit is not
                # quite the cost's optimum, so a start's transform could undercut it by a little
                # and the start would decide the confidences)
                result, transform = refined, fitted
                break
            if refined[0] >= result[0]:
                break
            result, transform = refined, fitted
        if best is None or result[0] < best[0] - (first_start_margin if best_order == 0 else 0.0):
            best, best_transform, best_order = result, transform, order
    assert best is not None
    return Labelling(*_named_slots(best, slots, slot_index), best_transform)


def _named_slots(
    solution: _Solution, slots: tuple[str, ...], slot_index: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A joint labelling ``solution`` of n candidates as :class:`Labelling` gives it: ``labels``
    (n,) object (the names of the ``slots`` taken, "" for a candidate left out), ``confidence``
    (n,) (each name's posterior, equal priors, from the class costs; 0 left out) and ``keep`` (n,)
    bool (``slot_index`` (m,): each slot's index in BALL_NAMES)."""
    _, costs, rows, cols = solution
    n = len(costs)
    named = cols < len(slots)
    rows, cols = rows[named], cols[named]
    labels = np.full(n, "", dtype=object)
    labels[rows] = [slots[col] for col in cols.tolist()]
    keep = np.zeros(n, dtype=bool)
    keep[rows] = True
    posterior = np.exp(-(costs - costs.min(axis=1, keepdims=True)))
    posterior /= posterior.sum(axis=1, keepdims=True)
    confidence = np.zeros(n)
    confidence[rows] = posterior[rows, slot_index[cols]]
    return labels, confidence, keep


__all__ = [
    "FEATURE_NAMES",
    "ColourConfig",
    "FrameTransform",
    "Labelling",
    "assign_labels",
    "class_costs",
    "core_features",
    "fit_transform",
    "lab_lightness",
    "label_balls",
    "shade_costs",
    "warm_colour_conversions",
]
