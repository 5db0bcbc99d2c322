"""Fitting colour models on clip frames: labels checked over time, canonical colours recovered."""

from __future__ import annotations

import numpy as np

from snooker.balls import BALL_NAMES
from snooker.vision.colour import ColourConfig, FrameTransform
from snooker.vision.colour_fit import (
    FitConfig,
    ObservedFrame,
    consistent_labels,
    fit_canonical_models,
    transform_spread,
)

CONFIG = ColourConfig()
FIT = FitConfig()


def frame(
    clip: str, index: int, balls: list[tuple[str, float, float]], lab: np.ndarray | None = None
) -> ObservedFrame:
    names = np.array([b[0] for b in balls], dtype=object)
    xy = np.array([[b[1], b[2]] for b in balls], dtype=float).reshape(-1, 2)
    if lab is None:
        lab = np.array([CONFIG.models[n][0] for n in names], dtype=float).reshape(-1, 3)
    features = np.column_stack([lab, np.full(len(names), 3.0)])
    return ObservedFrame(clip, index, xy * 0.5, xy, names, features)


def test_a_resting_ball_with_a_steady_name_is_kept() -> None:
    frames = [frame("1", k, [("pink", 900.0, 2500.0), ("red", 300.0, 3000.0)]) for k in range(5)]
    masks = consistent_labels(frames, FIT)
    assert all(m.all() for m in masks)


def test_a_flickering_name_is_dropped_where_it_disagrees() -> None:
    names = ["pink", "pink", "red", "pink", "pink"]
    frames = [frame("1", k, [(name, 900.0, 2500.0)]) for k, name in enumerate(names)]
    masks = consistent_labels(frames, FIT)
    assert [bool(m[0]) for m in masks] == [True, True, False, True, True]


def test_a_moving_ball_and_other_clips_do_not_vouch_for_a_label() -> None:
    moving = [frame("1", k, [("white", 500.0 + 200.0 * k, 1000.0)]) for k in range(5)]
    elsewhere = [frame("2", k, [("white", 500.0, 1000.0)]) for k in range(5)]
    masks = consistent_labels([moving[0], *elsewhere[:1], *moving[1:]], FIT)
    assert not masks[0][0]


def test_models_seen_through_each_frames_transform_predict_its_balls() -> None:
    rng = np.random.default_rng(5)
    truth = np.array([CONFIG.models[name][0] for name in BALL_NAMES])
    gradings = [
        FrameTransform(),
        FrameTransform(log_gain=-0.15, a_shift=3.0),
        FrameTransform(chroma_scale=0.9),
    ]
    frames = []
    for clip, grading in enumerate(gradings):
        for index in range(6):
            lab = grading.apply(truth + rng.normal(0.0, 1.0, truth.shape))
            frames.append(
                frame(str(clip), index, [(n, 100.0 * k, 1000.0) for k, n in enumerate(BALL_NAMES)], lab)
            )
    masks = consistent_labels(frames, FIT)
    models, transforms = fit_canonical_models(frames, masks, CONFIG, FIT)
    means = np.array([models[name][0] for name in BALL_NAMES])
    spreads = np.array([models[name][1] for name in BALL_NAMES])
    assert np.all(spreads >= np.array(FIT.min_spread))
    for observed, transform in zip(frames, transforms, strict=True):
        error = (transform.apply(means) - observed.features[:, :3]) / spreads
        assert np.abs(error).max() < 0.5
    # The canonical colours are those of the average grading: the clips' gradings are told apart.
    assert transforms[6].log_gain < transforms[0].log_gain - 0.1
    assert transform_spread(transforms)["log_gain"] > 0.05
