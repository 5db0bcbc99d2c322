"""Broadcast perturbations: each changes what it says and nothing else."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from snooker.vision.photometric import BROADCAST_PERTURBATIONS, Perturbation, perturbation_named


def image() -> np.ndarray:
    """A small BGR test card: cloth green, a red and a white patch, a dark patch."""
    card = np.zeros((90, 160, 3), np.uint8)
    card[:] = (20, 150, 20)
    card[10:40, 10:40] = (30, 30, 170)
    card[10:40, 60:90] = (230, 235, 235)
    card[50:80, 10:40] = (10, 10, 10)
    return card


def mean_bgr(picture: np.ndarray) -> np.ndarray:
    return picture.reshape(-1, 3).astype(float).mean(axis=0)


def chroma(picture: np.ndarray) -> float:
    lab = cv2.cvtColor(picture, cv2.COLOR_BGR2Lab).astype(float)
    return float(np.hypot(lab[..., 1] - 128, lab[..., 2] - 128).mean())


def test_the_default_changes_nothing() -> None:
    assert np.array_equal(Perturbation("none").apply(image()), image())


CASES = {
    "gain darkens": (Perturbation("p", gain=0.7), lambda a, b: mean_bgr(b).sum() < 0.75 * mean_bgr(a).sum()),
    "warm raises red over blue": (
        Perturbation("p", channel_gains_bgr=(0.88, 1.0, 1.12)),
        lambda a, b: (mean_bgr(b)[2] - mean_bgr(b)[0]) > (mean_bgr(a)[2] - mean_bgr(a)[0]) + 5,
    ),
    "gamma below 1 lifts mid-tones": (
        Perturbation("p", gamma=0.8),
        lambda a, b: mean_bgr(b).sum() > mean_bgr(a).sum(),
    ),
    "desaturation washes colours out": (
        Perturbation("p", saturation=0.8),
        lambda a, b: chroma(b) < 0.85 * chroma(a),
    ),
    "blur keeps the mean": (
        Perturbation("p", blur_sigma_px=1.2),
        lambda a, b: np.allclose(mean_bgr(a), mean_bgr(b), atol=2.0) and not np.array_equal(a, b),
    ),
    "JPEG stays close": (
        Perturbation("p", jpeg_quality=30),
        lambda a, b: np.abs(a.astype(int) - b).mean() < 6,
    ),
    "resize": (Perturbation("p", size=(80, 45)), lambda a, b: b.shape == (45, 80, 3)),
}


@pytest.mark.parametrize(("perturbation", "holds"), CASES.values(), ids=CASES.keys())
def test_each_change_does_what_it_says(perturbation: Perturbation, holds) -> None:
    before = image()
    after = perturbation.apply(before)
    assert after.dtype == np.uint8 and after.ndim == 3
    assert holds(before, after)
    assert np.array_equal(before, image()), "the input must not be changed in place"


def test_every_broadcast_perturbation_is_found_by_name() -> None:
    names = [p.name for p in BROADCAST_PERTURBATIONS]
    assert len(set(names)) == len(names)
    for name in names:
        assert perturbation_named(name).name == name
    with pytest.raises(KeyError):
        perturbation_named("sepia")
