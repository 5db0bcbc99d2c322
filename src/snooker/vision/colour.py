"""Colour identification: which ball each detection is, decided jointly under the game's limits.

Each candidate ball is described by the colour of its core (a disc inside the ball, leaving out
the specular highlight and the dark rim) in CIE Lab: lightness, the red–green axis ``a`` and the
blue–yellow axis ``b`` (OpenCV 8-bit scale, ``a`` and ``b`` centred on 0). Red, brown and pink —
the hard case — differ mainly in lightness (pink is light) and in ``a`` against ``b`` (brown is
orange-yellow, red is red). Each ball name has a Gaussian model of these features.

The labelling is one assignment problem (scipy's ``linear_sum_assignment``): the table holds one
cue ball, at most one of each colour and at most 15 reds, and a candidate that fits no ball well
is left out as "not a ball" rather than forced into a name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from snooker.balls import BALL_NAMES, FULL_RACK_REDS, RED

FEATURE_NAMES: tuple[str, ...] = ("L", "a", "b", "cloth_distance")
"""The features of a ball's core, in order: Lab lightness, a, b (OpenCV 8-bit, a/b centred), and
the distance of its rgb chromaticity from the local cloth's (0–1; shading leaves it unchanged)."""


def _default_models() -> dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """Mean and spread of (L, a, b) per ball name in broadcast footage.

    Measured on the training stills of the Bucharest 2020 set (the balls of the stills whose
    inventory an earlier version of this detector got right; see :func:`fit_models`): means,
    and 1.5 times the standard deviations, so that footage graded differently is still covered.
    Fitted on half of the stills, the models label the other half as well (48 of 49 right).
    """
    return {
        "white": ((228.0, -14.0, 32.0), (39.0, 8.0, 10.0)),
        "red": ((80.0, 51.0, 36.0), (24.0, 8.0, 9.0)),
        "yellow": ((207.0, -5.0, 78.0), (33.0, 12.0, 9.0)),
        "green": ((97.0, -36.0, 22.0), (18.0, 8.0, 13.0)),
        "brown": ((90.0, 12.0, 38.0), (20.0, 8.0, 8.0)),
        "blue": ((89.0, 2.0, -38.0), (24.0, 9.0, 9.0)),
        "pink": ((155.0, 46.0, 17.0), (28.0, 8.0, 9.0)),
        "black": ((15.0, -6.0, 3.0), (14.0, 8.0, 6.0)),
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
    reject_cost: float = 12.0
    """Cost of calling a candidate "not a ball"; a label costs half its squared Mahalanobis distance."""
    shade_chroma_sigma: float = 0.05
    """A candidate whose core chromaticity lies this close (0–1) to the cloth's is likely shaded
    cloth (the shadow of a player or the cue): the scale of the "cloth" pseudo-label's cost."""
    shade_min_lightness: float = 60.0
    """Shaded cloth is rarely darker than this Lab lightness (0–255); darker is the black ball."""
    shade_lightness_sigma: float = 10.0
    """Lightness (0–255) over which the "cloth" cost grows below ``shade_min_lightness``."""
    chroma_floor: float = 12.0
    """Added to B+G+R before dividing, as in the cloth model."""
    exposure_gains: tuple[float, ...] = (0.55, 0.65, 0.75, 0.85, 1.0, 1.15, 1.3)
    """Exposure gains tried for the frame: lightness is divided by the gain before labelling, and
    the gain whose joint labelling costs least wins (a dark broadcast makes pink look like red)."""
    exposure_prior_sigma: float = 0.3
    """Spread (natural log units) of the prior on the exposure gain, centred on 1."""


def core_features(
    image_bgr: np.ndarray,
    lab: np.ndarray,
    tophat: np.ndarray,
    cloth_at_centres: np.ndarray,
    centres: np.ndarray,
    radii: np.ndarray,
    config: ColourConfig,
    samples: int = 9,
) -> np.ndarray:
    """(n, 4) features of each ball's core (see :data:`FEATURE_NAMES`), highlights left out.

    ``image_bgr`` and ``lab``: (H, W, 3) uint8 of the same pixels; ``tophat``: (H, W) lightness
    white top-hat; ``cloth_at_centres``: (n, 3) the cloth model's chromaticity at each centre;
    ``centres``: (n, 2) px;
    ``radii``: (n,) px.
    """
    if len(centres) == 0:
        return np.zeros((0, len(FEATURE_NAMES)))
    h, w = tophat.shape
    t = np.linspace(-1.0, 1.0, samples)
    grid = np.stack(np.meshgrid(t, t), axis=-1).reshape(-1, 2)
    grid = grid[np.hypot(grid[:, 0], grid[:, 1]) <= 1.0]
    pts = centres[:, None, :] + (config.core_radius * radii)[:, None, None] * grid[None]
    ix = np.clip(np.round(pts[..., 0]).astype(int), 0, w - 1)
    iy = np.clip(np.round(pts[..., 1]).astype(int), 0, h - 1)
    values = lab[iy, ix].astype(float)
    values[..., 1:] -= 128.0
    highlight = tophat[iy, ix] >= config.highlight_tophat
    # A ball that is all highlight (the cue ball, over-exposed) keeps every pixel.
    highlight[highlight.all(axis=1)] = False
    values[highlight] = np.nan
    lab_median = np.nanmedian(values, axis=1)
    bgr = np.where(highlight[..., None], np.nan, image_bgr[iy, ix].astype(float))
    bgr_median = np.nanmedian(bgr, axis=1)
    chroma = bgr_median / (bgr_median.sum(axis=1, keepdims=True) + config.chroma_floor)
    cloth_distance = np.linalg.norm(chroma - cloth_at_centres, axis=1)
    return np.concatenate([lab_median, cloth_distance[:, None]], axis=1)


def shade_costs(features: np.ndarray, config: ColourConfig) -> np.ndarray:
    """(n,) cost of the "shaded cloth" pseudo-label: low when the core has the cloth's chromaticity
    and is not as dark as the black ball."""
    chroma = features[:, 3] / config.shade_chroma_sigma
    too_dark = np.maximum(0.0, config.shade_min_lightness - features[:, 0]) / config.shade_lightness_sigma
    return 0.5 * (chroma**2 + too_dark**2)


def class_costs(features: np.ndarray, config: ColourConfig) -> np.ndarray:
    """(n, len(BALL_NAMES)) negative log-likelihood (up to a constant) of each name for each ball."""
    means = np.array([config.models[name][0] for name in BALL_NAMES])
    stds = np.array([config.models[name][1] for name in BALL_NAMES])
    z = (features[:, None, :3] - means[None]) / stds[None]
    return 0.5 * np.sum(z**2, axis=2) + np.sum(np.log(stds), axis=1)[None] - np.log(stds).sum(axis=1).min()


def assign_labels(features: np.ndarray, config: ColourConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label the balls jointly: one white, at most one of each colour, at most ``max_reds`` reds.

    The frame's exposure gain is chosen with the labels (the cheapest joint solution over
    ``exposure_gains``). Returns ``labels`` (n,) object (names; "" for a candidate left out),
    ``confidence`` (n,) in [0, 1] (posterior of the label among the ball names, equal priors) and
    ``keep`` (n,) bool.
    """
    n = len(features)
    if n == 0:
        return np.zeros(0, dtype=object), np.zeros(0), np.zeros(0, dtype=bool)
    slots = [name for name in BALL_NAMES if name != RED] + [RED] * config.max_reds
    slot_index = np.array([BALL_NAMES.index(name) for name in slots])
    best: tuple[float, np.ndarray, np.ndarray, np.ndarray] | None = None
    for gain in config.exposure_gains:
        scaled = features.copy()
        scaled[:, 0] = features[:, 0] / gain
        costs = class_costs(scaled, config)
        reject = np.minimum(config.reject_cost, shade_costs(scaled, config))
        matrix = np.concatenate([costs[:, slot_index], np.repeat(reject[:, None], n, axis=1)], axis=1)
        rows, cols = linear_sum_assignment(matrix)
        total = matrix[rows, cols].sum() + 0.5 * (np.log(gain) / config.exposure_prior_sigma) ** 2
        if best is None or total < best[0]:
            best = (total, costs, rows, cols)
    assert best is not None
    _, costs, rows, cols = best
    labels = np.full(n, "", dtype=object)
    keep = np.zeros(n, dtype=bool)
    for row, col in zip(rows, cols, strict=True):
        if col < len(slots):
            labels[row] = slots[col]
            keep[row] = True
    posterior = np.exp(-(costs - costs.min(axis=1, keepdims=True)))
    posterior /= posterior.sum(axis=1, keepdims=True)
    confidence = np.zeros(n)
    for i in np.nonzero(keep)[0]:
        confidence[i] = posterior[i, BALL_NAMES.index(labels[i])]
    return labels, confidence, keep


def fit_models(
    features: np.ndarray, labels: np.ndarray, spread_factor: float = 1.5, min_spread: float = 6.0
) -> dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """Colour models from labelled core features (n, 4) and names (n,): per name the mean of
    (L, a, b) and ``spread_factor`` times its standard deviation (at least ``min_spread``).

    Names without any example keep the default model. This is how the defaults were made, from
    the balls of the training stills whose inventory the detector got right
    (``scripts/eval_inventory.py --fit-colours``).
    """
    models = _default_models()
    for name in BALL_NAMES:
        rows = features[labels == name, :3]
        if len(rows):
            mean = tuple(float(v) for v in np.round(rows.mean(axis=0)))
            spread = tuple(
                float(v) for v in np.round(np.maximum(spread_factor * rows.std(axis=0), min_spread))
            )
            models[name] = (mean, spread)  # type: ignore[assignment]
    return models


__all__ = ["FEATURE_NAMES", "ColourConfig", "assign_labels", "class_costs", "core_features", "fit_models"]
