"""How much a round hole in the cloth of another view looks like the cue ball: a learned score.

In views with no calibrated table (``snooker.vision.otherview``) the cue ball was picked as the
whitest ball. Broadcast grading makes that fail where it matters: a cream cue ball under warm light
reads less white than the steel head of a rest or a white cue shaft beside it, and a pale yellow or
a cuff can read as white as the ball. The score looks at more than colour: the candidate's size
against the other balls' (seen in perspective), its shading and highlight, and the look of its
neighbourhood (an 8 x 8 grey and saturation thumbnail around it).

The model is small and shipped as JSON (``weights/cue_ball_score.json``): features standardised,
then the mean of a logistic regression's and a one-hidden-layer perceptron's probabilities. It is
trained by ``scripts/train_cue_ball_score.py`` (scikit-learn, a training-time dependency only) on
the candidates of the labelled Task4 clips; inference here is numpy. Positions are image px;
radii are image px; colours OpenCV 8-bit Lab with a and b centred on 0.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numba
import numpy as np

_SAMPLING_MARGIN_PX = 2
"""Pixels beyond a patch's square that its bilinear sampling may read (px): the neighbour of a
sample at the square's edge, and one more for a centre given in whole pixels."""
MODEL_SCHEMA = "snooker.cue_ball_score/1"
DEFAULT_MODEL = Path(__file__).resolve().parent / "weights" / "cue_ball_score.json"

_NUMPY_PAIRWISE_BLOCK = 128
"""NumPy's ``PW_BLOCKSIZE``: runs of at most this many values it sums without halving (a fact of
NumPy's summation that :func:`_pairwise_sum` reproduces, not a tuning parameter)."""
_PAIRWISE_DEPTH = 128
"""Room on :func:`_pairwise_sum`'s stack: two entries a halving (the half being summed and the
other waiting), and a run of 2^63 values is halved fewer than 64 times (a bound, not a tuning
parameter)."""

CandidateSource = Literal["hole", "rim", "white"]
"""How a candidate was found: a distance peak of a hole in the cloth, a circle found by its rim
inside a larger hole, or a peak of the distance inside a white region (a ball merged with a hand or
with other balls into one hole, but whiter than they are)."""


@dataclass(frozen=True)
class ScoreFeatureConfig:
    """How a candidate is described to the score (the model is trained with these values)."""

    patch_px: int = 8
    """Side (px) of the grey and saturation thumbnails of the candidate's neighbourhood."""
    patch_radii: float = 1.25
    """Half the side of the square the thumbnails cover, in the candidate's ball radii."""
    core_radii: float = 0.6
    """Half the side of the core square whose grey spread and highlight are measured (ball radii)."""
    thumbnail_spread_floor: float = 1.0
    """Grey levels added to the grey thumbnail's spread before it is divided by it (a flat patch of
    cloth is not blown up into noise)."""

    def __post_init__(self) -> None:
        if (
            self.patch_px < 2
            or self.patch_radii <= 0
            or self.core_radii <= 0
            or self.thumbnail_spread_floor <= 0
        ):
            raise ValueError("patch_px must be >= 2; patch_radii, core_radii and thumbnail_spread_floor > 0")

    @property
    def count(self) -> int:
        """How many features a candidate has."""
        return len(SCALAR_FEATURES) + 2 * self.patch_px**2 + 2


SCALAR_FEATURES = (
    "whiteness",
    "core_lightness",
    "core_a",
    "core_b",
    "cloth_a",
    "cloth_b",
    "radius_over_median",
    "radius_over_plane",
    "sized_alike",
    "found_by_rim",
    "found_by_whiteness",
    "core_grey_spread",
    "core_highlight",
    "radius_over_height",
)
"""The scalar features, in order (then the grey thumbnail, the saturation one, the grey
thumbnail's mean and spread): see :func:`candidate_features`."""

FEATURE_NAMES = (*SCALAR_FEATURES, "grey_thumbnail", "saturation_thumbnail", "grey_mean_spread")
"""The feature groups a model file names: a file naming others was trained on other features."""


@dataclass(frozen=True)
class CandidateContext:
    """What a candidate's size is measured against in one frame: every distance peak taken for a
    ball (x, y, inscribed radius px) and those of them that agree in size (``sized_alike``, as
    :mod:`snooker.vision.otherview` finds them)."""

    peaks: list[tuple[int, int, float]]
    sized_alike: list[tuple[int, int, float]]


def candidate_features(
    grey: np.ndarray,
    saturation: np.ndarray,
    found: list[tuple[int, int, float]],
    found_by: list[CandidateSource],
    core_lab: np.ndarray,
    cloth_ab: np.ndarray,
    whiteness: np.ndarray,
    context: CandidateContext,
    radius_scale: float,
    config: ScoreFeatureConfig,
) -> np.ndarray:
    """(n, ``config.count``) float32 features of the candidates ``found`` (x, y, inscribed radius
    px) of a frame whose grey level and HSV saturation are ``grey`` and ``saturation`` ((H, W)
    float32, 0-255); ``found_by``: how each was found; ``core_lab`` (n, 3), ``cloth_ab`` (n, 2)
    and ``whiteness`` (n,) as measured for them; ``radius_scale``: ball radius over inscribed
    radius."""
    if not found:
        return np.zeros((0, config.count), np.float32)
    table = np.array(found, float)
    xy, radii = table[:, :2], table[:, 2]
    peak_radii = np.array([r for _, _, r in context.peaks], float)
    median = float(np.median(peak_radii)) if len(peak_radii) else float(np.median(radii))
    planned = plane_radii(context.sized_alike, xy, median)
    alike = set(context.sized_alike)
    height = grey.shape[0]
    side = config.patch_px
    target = np.float32([[0, 0], [side, 0], [0, side]])
    count = len(found)
    patches = np.empty((count, side, side), np.float32)
    patch_saturations = np.empty((count, side, side), np.float32)
    for k, (x, y, r) in enumerate(found):
        half = config.patch_radii * (r * radius_scale)
        source = np.float32([[x - half, y - half], [x + half, y - half], [x - half, y + half]])
        warp = cv2.getAffineTransform(source, target)
        patches[k] = cv2.warpAffine(
            grey, warp, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
        )
        patch_saturations[k] = cv2.warpAffine(
            saturation, warp, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
        )
    ball_radii = radii * radius_scale
    spreads, tops = core_spreads_and_tops(grey, _core_boxes(table, ball_radii, config))
    highlights = np.where(np.isnan(tops), 0.0, tops - core_lab[:, 0])
    scalars = np.column_stack(
        [
            whiteness,
            core_lab[:, 0],
            core_lab[:, 1],
            core_lab[:, 2],
            cloth_ab[:, 0],
            cloth_ab[:, 1],
            radii / median if median > 0 else np.ones(count),
            radii / np.maximum(planned, 1.0),
            [float(f in alike) for f in found],
            [float(by == "rim") for by in found_by],
            [float(by == "white") for by in found_by],
            spreads,
            highlights,
            ball_radii / height,
        ]
    )
    # every patch's mean and spread in one reduction each (each row reduced as one patch alone is)
    flat = patches.reshape(count, side * side)
    means, stds = flat.mean(axis=1), flat.std(axis=1)
    normalised = (flat - means[:, None]) / (stds[:, None] + config.thumbnail_spread_floor)
    rows = np.empty((count, config.count), np.float32)
    rows[:, : len(SCALAR_FEATURES)] = scalars
    rows[:, len(SCALAR_FEATURES) : len(SCALAR_FEATURES) + side * side] = normalised
    rows[:, len(SCALAR_FEATURES) + side * side : -2] = patch_saturations.reshape(count, -1) / 255.0
    rows[:, -2], rows[:, -1] = means / 255.0, stds / 255.0
    return np.nan_to_num(rows)


def _core_boxes(found: np.ndarray, ball_radii: np.ndarray, config: ScoreFeatureConfig) -> np.ndarray:
    """(n, 4) int64 the core windows (y0, y1, x0, x1 px, clipped at the frame's top and left; the
    bottom and right are clipped where they are read) of candidates ``found`` (n, 3: whole-pixel
    x, y and a radius) whose ball radii are ``ball_radii`` (n,) px: ``core_radii`` of the ball
    radius each way, at least a pixel."""
    core = _core_half_sides(ball_radii, config)
    xs, ys = found[:, 0].astype(np.int64), found[:, 1].astype(np.int64)
    return np.column_stack([np.maximum(0, ys - core), ys + core + 1, np.maximum(0, xs - core), xs + core + 1])


def core_spreads_and_tops(grey: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n,) float64 the spread (population standard deviation) and (n,) the largest value of
    ``grey`` (H, W) float32 in each window of ``boxes`` (n, 4: y0, y1, x0, x1 px, clipped to the
    image here); 0 and NaN for an empty window. The spread is the float32 value NumPy's ``std``
    gives, bit for bit (the score was trained on it), in one compiled pass over the windows;
    windows larger than NumPy's buffer, which it sums in pieces, are left to NumPy."""
    boxes = np.ascontiguousarray(boxes, dtype=np.int64)
    h, w = grey.shape
    boxes = np.minimum(boxes, np.array([h, h, w, w]))
    spreads, tops = _window_spreads(np.ascontiguousarray(grey, dtype=np.float32), boxes)
    areas = np.maximum(boxes[:, 1] - boxes[:, 0], 0) * np.maximum(boxes[:, 3] - boxes[:, 2], 0)
    for k in np.flatnonzero(areas > np.getbufsize()):
        y0, y1, x0, x1 = boxes[k]
        spreads[k] = grey[y0:y1, x0:x1].std()
    return spreads.astype(np.float64), tops.astype(np.float64)


@numba.njit(cache=True, nogil=True)
def _window_spreads(grey: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The body of :func:`core_spreads_and_tops`: NumPy's float32 ``std`` of a window no larger than
    its buffer is the pairwise sum of the window's values in row order over their count, then that
    of the squared differences from it (float32 throughout), and the square root."""
    count = len(boxes)
    spreads = np.zeros(count, np.float32)
    tops = np.full(count, np.nan, np.float32)
    values = np.empty(0, np.float32)
    for k in range(count):
        y0, y1, x0, x1 = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3]
        rows, columns = y1 - y0, x1 - x0
        if rows <= 0 or columns <= 0:
            continue
        n = rows * columns
        if len(values) < n:
            values = np.empty(n, np.float32)
        top = grey[y0, x0]
        for y in range(rows):
            for x in range(columns):
                value = grey[y0 + y, x0 + x]
                values[y * columns + x] = value
                top = max(top, value)
        mean = _pairwise_sum(values, 0, n) / np.float32(n)
        for i in range(n):
            difference = values[i] - mean
            values[i] = difference * difference
        spreads[k] = np.sqrt(_pairwise_sum(values, 0, n) / np.float32(n))
        tops[k] = top
    return spreads, tops


@numba.njit(cache=True, nogil=True)
def _pairwise_sum(values: np.ndarray, start: int, n: int) -> np.float32:
    """NumPy's float32 sum of ``values[start:start + n]`` (``pairwise_sum`` in its loops): blocks
    of at most ``_NUMPY_PAIRWISE_BLOCK`` values summed by :func:`_block_sum`, larger runs halved
    (at a multiple of eight) and their halves' sums added. The halving is walked with a stack (a recursive
    function's compiled cache is not reloaded safely)."""
    starts, counts = np.empty(_PAIRWISE_DEPTH, np.int64), np.empty(_PAIRWISE_DEPTH, np.int64)
    split = np.zeros(_PAIRWISE_DEPTH, np.bool_)
    sums = np.empty(_PAIRWISE_DEPTH, np.float32)
    starts[0], counts[0], split[0] = start, n, False
    depth, done = 1, 0
    while depth:
        top = depth - 1
        if counts[top] <= _NUMPY_PAIRWISE_BLOCK:
            total = _block_sum(values, starts[top], counts[top])
            depth -= 1
            sums[done] = total
            done += 1
        elif not split[top]:
            split[top] = True
            half = counts[top] // 2
            half -= half % 8
            starts[depth], counts[depth], split[depth] = starts[top] + half, counts[top] - half, False
            starts[depth + 1], counts[depth + 1], split[depth + 1] = starts[top], half, False
            depth += 2
        else:
            depth -= 1
            done -= 1
            sums[done - 1] = sums[done - 1] + sums[done]
    return sums[0]


@numba.njit(cache=True, nogil=True)
def _block_sum(values: np.ndarray, start: int, n: int) -> np.float32:
    """NumPy's float32 sum of at most ``_NUMPY_PAIRWISE_BLOCK`` values: eight running sums, then
    the rest one by one."""
    if n < 8:
        total = np.float32(0.0)
        for i in range(n):
            total += values[start + i]
        return total
    r0, r1, r2, r3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    r4, r5, r6, r7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    i = 8
    while i < n - n % 8:
        r0 += values[start + i]
        r1 += values[start + i + 1]
        r2 += values[start + i + 2]
        r3 += values[start + i + 3]
        r4 += values[start + i + 4]
        r5 += values[start + i + 5]
        r6 += values[start + i + 6]
        r7 += values[start + i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        total += values[start + i]
        i += 1
    return total


def features_reach(ball_radii: np.ndarray, config: ScoreFeatureConfig) -> np.ndarray:
    """(n,) px around each candidate's centre (its ball radius ``ball_radii`` (n,) px) within which
    :func:`candidate_features` reads the grey and saturation images: the patch's square, widened
    by the pixel bilinear sampling reads beyond a sample and one for rounding the centre, and the
    core's window."""
    half = np.ceil(config.patch_radii * ball_radii) + _SAMPLING_MARGIN_PX
    return np.maximum(half, _core_half_sides(ball_radii, config) + 1).astype(np.int64)


def _core_half_sides(ball_radii: np.ndarray, config: ScoreFeatureConfig) -> np.ndarray:
    """(n,) int64 px each way from a candidate's centre that its core window spans: ``core_radii``
    of its ball radius ``ball_radii`` (n,) px, whole, at least a pixel."""
    return np.maximum(1, (config.core_radii * ball_radii).astype(np.int64))


def plane_radii(alike: list[tuple[int, int, float]], xy: np.ndarray, fallback: float) -> np.ndarray:
    """(n,) inscribed radius px at ``xy`` (n, 2) on the plane of radii fitted to the balls that
    agree in size (``fallback`` everywhere with fewer than three)."""
    if len(alike) < 3:
        return np.full(len(xy), fallback)
    balls = np.asarray(alike, float)
    design = np.column_stack([balls[:, 0], balls[:, 1], np.ones(len(balls))])
    coefficients, *_ = np.linalg.lstsq(design, balls[:, 2], rcond=None)
    return np.column_stack([xy, np.ones(len(xy))]) @ coefficients


@dataclass(frozen=True)
class CueBallScoreModel:
    """Standardise the features, then average a logistic regression's probability and a
    one-hidden-layer (ReLU) perceptron's logistic output: (n,) probabilities in [0, 1]."""

    mean: np.ndarray
    scale: np.ndarray
    logistic_weights: np.ndarray
    logistic_bias: float
    hidden_weights: np.ndarray
    hidden_bias: np.ndarray
    output_weights: np.ndarray
    output_bias: float
    features: ScoreFeatureConfig

    def __call__(self, features: np.ndarray) -> np.ndarray:
        if features.ndim != 2 or features.shape[1] != len(self.mean):
            raise ValueError(f"expected (n, {len(self.mean)}) features, got {features.shape}")
        z = (features.astype(np.float64) - self.mean) / self.scale
        logistic = _sigmoid(z @ self.logistic_weights + self.logistic_bias)
        hidden = np.maximum(z @ self.hidden_weights + self.hidden_bias, 0.0)
        perceptron = _sigmoid(hidden @ self.output_weights + self.output_bias)
        return 0.5 * (logistic + perceptron)

    def to_json(self, extra: dict | None = None) -> str:
        """The model as the JSON :meth:`load` reads (``extra``: facts about its training)."""
        record = {
            "schema": MODEL_SCHEMA,
            "features": {
                "patch_px": self.features.patch_px,
                "patch_radii": self.features.patch_radii,
                "core_radii": self.features.core_radii,
                "thumbnail_spread_floor": self.features.thumbnail_spread_floor,
                "names": list(FEATURE_NAMES),
            },
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "logistic": {"weights": self.logistic_weights.tolist(), "bias": self.logistic_bias},
            "perceptron": {
                "hidden_weights": self.hidden_weights.tolist(),
                "hidden_bias": self.hidden_bias.tolist(),
                "output_weights": self.output_weights.tolist(),
                "output_bias": self.output_bias,
            },
            **(extra or {}),
        }
        return json.dumps(record)

    @classmethod
    def load(cls, path: Path) -> CueBallScoreModel:
        """The model in ``path``; a ValueError naming the file and the field when it is not one."""
        try:
            record = json.loads(Path(path).read_text())
        except OSError as exc:
            raise ValueError(f"cue ball score model {path}: cannot read it ({exc.strerror})") from exc
        except json.JSONDecodeError as exc:
            raise ValueError(f"cue ball score model {path}: not JSON ({exc.msg}, line {exc.lineno})") from exc
        try:
            return cls._of(record)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"cue ball score model {path}: {exc}") from exc

    @classmethod
    def _of(cls, record: dict) -> CueBallScoreModel:
        if not isinstance(record, dict) or record.get("schema") != MODEL_SCHEMA:
            raise ValueError(f"schema is not {MODEL_SCHEMA!r}")
        spec = record["features"]
        names = spec.get("names")
        if names is not None and list(names) != list(FEATURE_NAMES):
            missing = sorted(set(FEATURE_NAMES) - set(names))
            unknown = sorted(set(names) - set(FEATURE_NAMES))
            raise ValueError(
                f"features.names differ from those described now (missing {missing}, unknown {unknown}): "
                "retrain the model"
            )
        features = ScoreFeatureConfig(
            int(spec["patch_px"]),
            float(spec["patch_radii"]),
            float(spec["core_radii"]),
            float(spec.get("thumbnail_spread_floor", ScoreFeatureConfig.thumbnail_spread_floor)),
        )
        mean, scale = _vector(record, "mean"), _vector(record, "scale")
        count = features.count
        logistic, perceptron = record["logistic"], record["perceptron"]
        hidden_weights = np.asarray(perceptron["hidden_weights"], float)
        model = cls(
            mean=mean,
            scale=scale,
            logistic_weights=_vector(logistic, "weights"),
            logistic_bias=_number(logistic, "bias"),
            hidden_weights=hidden_weights,
            hidden_bias=_vector(perceptron, "hidden_bias"),
            output_weights=_vector(perceptron, "output_weights"),
            output_bias=_number(perceptron, "output_bias"),
            features=features,
        )
        hidden = len(model.hidden_bias)
        shapes = {
            "mean": (mean.shape, (count,)),
            "scale": (scale.shape, (count,)),
            "logistic.weights": (model.logistic_weights.shape, (count,)),
            "perceptron.hidden_weights": (hidden_weights.shape, (count, hidden)),
            "perceptron.output_weights": (model.output_weights.shape, (hidden,)),
        }
        for name, (shape, expected) in shapes.items():
            if shape != expected:
                raise ValueError(f"{name} has shape {shape}, expected {expected}")
        if not np.all(scale > 0):
            raise ValueError("scale must be > 0 everywhere")
        return model


def _vector(record: dict, name: str) -> np.ndarray:
    values = np.asarray(record[name], float)
    if values.ndim != 1 or not np.all(np.isfinite(values)):
        raise ValueError(f"{name} must be a list of finite numbers")
    return values


def _number(record: dict, name: str) -> float:
    value = float(record[name])
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number")
    return value


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))


@functools.cache
def packaged_model() -> CueBallScoreModel:
    """The model shipped with the package (read once per process)."""
    return CueBallScoreModel.load(DEFAULT_MODEL)


__all__ = [
    "DEFAULT_MODEL",
    "CandidateContext",
    "CandidateSource",
    "CueBallScoreModel",
    "ScoreFeatureConfig",
    "candidate_features",
    "core_spreads_and_tops",
    "features_reach",
    "packaged_model",
    "plane_radii",
]
