"""Fitting the colour models on video frames labelled by the detector and checked over time.

The models (``ColourConfig.models``) are fitted on frames of training clips, never on the
evaluation stills: the detector labels the sampled frames of each clip, and a ball's label is kept
only where the ball rests at one place over several sampled frames and carries the same name in
most of them (a label that flickers is a mistake of one of them). Each frame is then calibrated
against the models (its :class:`FrameTransform`) and the models are fitted to the canonical
colours, so that they describe the balls, not the grading of one broadcast; the spread of the
frames' transforms says how much broadcasts differ. ``scripts/fit_colours.py`` runs it all.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from snooker.balls import BALL_NAMES
from snooker.vision.colour import ColourConfig, FrameTransform, fit_transform

Models = dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]]


@dataclass(frozen=True)
class ObservedFrame:
    """The balls the detector found in one sampled frame of a clip.

    ``xy_px``: (n, 2) image px; ``xy_mm``: (n, 2) table mm; ``names``: (n,) ball names;
    ``features``: (n, ≥3) core features (``colour.FEATURE_NAMES``; the fit reads the first three).
    """

    clip: str
    index: int
    xy_px: np.ndarray
    xy_mm: np.ndarray
    names: np.ndarray
    features: np.ndarray


@dataclass(frozen=True)
class FitConfig:
    """How labels are checked over time and how the models are fitted."""

    rest_link_mm: float = 15.0
    """Two detections of one clip closer than this on the table (mm) are one ball at rest."""
    min_rest_frames: int = 3
    """A label is checked only for a ball seen at rest in at least this many sampled frames..."""
    min_agreement: float = 0.8
    """...and kept when at least this fraction of them give it the same name."""
    spread_factor: float = 1.5
    """Model spread: this many standard deviations of the canonical colours (a margin for
    footage unlike the fitting clips)."""
    min_spread: tuple[float, float, float] = (10.0, 6.0, 6.0)
    """Smallest model spread of (L, a, b), Lab units (a colour seen in few frames is not exact)."""
    rounds: int = 4
    """Rounds of (calibrate every frame against the models, fit the models to canonical colours)."""


def consistent_labels(frames: list[ObservedFrame], config: FitConfig) -> list[np.ndarray]:
    """Per frame, (n,) bool: the ball rests (seen within ``rest_link_mm`` in at least
    ``min_rest_frames`` frames of its clip) and its name is the one most of those frames give."""
    masks = []
    for frame in frames:
        same_clip = [other for other in frames if other.clip == frame.clip]
        keep = np.zeros(len(frame.names), dtype=bool)
        for i, (xy, name) in enumerate(zip(frame.xy_mm, frame.names, strict=True)):
            seen = []
            for other in same_clip:
                if len(other.names) == 0:
                    continue
                gap = np.linalg.norm(other.xy_mm - xy, axis=1)
                nearest = int(np.argmin(gap))
                if gap[nearest] < config.rest_link_mm:
                    seen.append(other.names[nearest])
            if len(seen) >= config.min_rest_frames:
                keep[i] = seen.count(name) >= config.min_agreement * len(seen)
        masks.append(keep)
    return masks


def _plain_models(
    features: np.ndarray, names: np.ndarray, clips: np.ndarray, start: Models, config: FitConfig
) -> Models:
    """Per name: the mean (L, a, b) of its examples, and a spread of ``spread_factor`` times the
    standard deviation a new clip's balls are expected to have — the scatter within clips plus
    the scatter of the clips' means — at least ``min_spread``; names without examples keep their
    ``start`` model."""
    models = dict(start)
    for name in BALL_NAMES:
        chosen = names == name
        rows, groups = features[chosen, :3], clips[chosen]
        if len(rows) < 2:
            continue
        clip_means = np.array([rows[groups == g].mean(axis=0) for g in np.unique(groups)])
        within = np.mean([rows[groups == g].var(axis=0) for g in np.unique(groups)], axis=0)
        spread = config.spread_factor * np.sqrt(within + clip_means.var(axis=0))
        mean = tuple(float(v) for v in np.round(clip_means.mean(axis=0), 1))
        spread = np.maximum(spread, config.min_spread)
        models[name] = (mean, tuple(float(v) for v in np.round(spread, 1)))  # type: ignore[assignment]
    return models


def fit_canonical_models(
    frames: list[ObservedFrame], masks: list[np.ndarray], colour: ColourConfig, config: FitConfig
) -> tuple[Models, list[FrameTransform]]:
    """Models of the canonical colours, and each frame's transform, from the checked balls.

    Alternates: fit each frame's transform to its checked balls under the current models, map
    the colours back to canonical, refit the models. The first models are the plain statistics.
    """
    names = np.concatenate([f.names[m] for f, m in zip(frames, masks, strict=True)])
    clips = np.concatenate(
        [np.full(int(m.sum()), f.clip, dtype=object) for f, m in zip(frames, masks, strict=True)]
    )
    raw = np.concatenate([f.features[m] for f, m in zip(frames, masks, strict=True)])
    models = _plain_models(raw, names, clips, colour.models, config)
    transforms = [FrameTransform()] * len(frames)
    for _ in range(config.rounds):
        current = replace(colour, models=models)
        transforms = [
            fit_transform(f.features[m], f.names[m], current) if m.any() else FrameTransform()
            for f, m in zip(frames, masks, strict=True)
        ]
        canonical = np.concatenate(
            [t.invert(f.features[m, :3]) for t, f, m in zip(transforms, frames, masks, strict=True)]
        )
        models = _plain_models(canonical, names, clips, colour.models, config)
    return models, transforms


def transform_spread(transforms: list[FrameTransform]) -> dict[str, float]:
    """Standard deviation over frames of each transform parameter (log units for the factors)."""
    if not transforms:
        return {}
    terms = [(t.log_gain, np.log(t.gamma), np.log(t.chroma_scale), t.a_shift, t.b_shift) for t in transforms]
    casts = [(t.red_cast, t.blue_cast) for t in transforms]
    values = np.hstack([np.array(terms), np.array(casts)])
    keys = ("log_gain", "log_gamma", "log_chroma_scale", "a_shift", "b_shift", "red_cast", "blue_cast")
    return {key: float(v) for key, v in zip(keys, values.std(axis=0), strict=True)}


__all__ = [
    "FitConfig",
    "Models",
    "ObservedFrame",
    "consistent_labels",
    "fit_canonical_models",
    "transform_spread",
]
