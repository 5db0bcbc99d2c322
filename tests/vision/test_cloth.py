"""The cloth model: follows uneven lighting, flags balls, leaves shadows as cloth."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.vision.cloth import ClothConfig, chroma_threshold, cloth_cells, estimate_cloth, not_cloth

CONFIG = ClothConfig()


def lit_cloth(height: int = 240, width: int = 320, falloff: float = 0.5) -> np.ndarray:
    """Green cloth whose brightness falls by ``falloff`` from left to right."""
    gain = np.linspace(1.0, 1.0 - falloff, width)[None, :, None]
    return np.clip(np.array([5.0, 180.0, 8.0]) * gain * np.ones((height, 1, 1)), 0, 255).astype(np.uint8)


def test_cloth_estimate_follows_the_lighting() -> None:
    image = lit_cloth()
    cloth = estimate_cloth(image, np.ones(image.shape[:2], bool), CONFIG)
    measured = image.astype(float).sum(axis=2)
    assert np.allclose(cloth.brightness[:, 24:-24], measured[:, 24:-24], rtol=0.08)


def test_bare_cloth_under_uneven_light_is_cloth() -> None:
    image = lit_cloth()
    cloth = estimate_cloth(image, np.ones(image.shape[:2], bool), CONFIG)
    different, _ = not_cloth(image, cloth, CONFIG)
    assert different.mean() < 0.01


PIXELS = {
    "red ball": ((20, 15, 160), True),
    "white ball": ((230, 240, 240), True),
    "black ball": ((3, 6, 3), True),
    "blue ball": ((150, 80, 10), True),
    "shadow (cloth at half light)": ((3, 90, 4), False),
    "cloth": ((5, 180, 8), False),
}


@pytest.mark.parametrize(("bgr", "is_ball"), PIXELS.values(), ids=PIXELS.keys())
def test_pixel_classes(bgr: tuple[int, int, int], is_ball: bool) -> None:
    image = lit_cloth(falloff=0.0)
    image[100:110, 100:110] = bgr
    mask = np.ones(image.shape[:2], bool)
    different, _ = not_cloth(image, estimate_cloth(image, mask, CONFIG), CONFIG)
    assert bool(different[105, 105]) is is_ball


def test_darker_mask_marks_shade() -> None:
    image = lit_cloth(falloff=0.0)
    image[100:110, 100:110] = (3, 90, 4)
    mask = np.ones(image.shape[:2], bool)
    _, darker = not_cloth(image, estimate_cloth(image, mask, CONFIG), CONFIG, darker_ratio=0.8)
    assert darker[105, 105] and not darker[10, 10]


def test_a_cell_covered_by_an_arm_takes_the_whole_cloth_colour() -> None:
    image = lit_cloth(falloff=0.0)
    image[:96, :96] = (60, 60, 60)  # an arm covering whole cells
    cloth = estimate_cloth(image, np.ones(image.shape[:2], bool), CONFIG)
    assert cloth.chromaticity[40, 40, 1] > 0.8  # still the cloth's green


def flat(bgr: tuple[int, int, int]) -> np.ndarray:
    return np.tile(np.array(bgr, np.uint8), (96, 96, 1))


THRESHOLDS = {
    "saturated broadcast cloth keeps the threshold": ((5, 180, 8), (1.0, 1.0)),
    "the dullest training cloth keeps most of it": ((34, 155, 43), (0.85, 0.95)),
    "a washed-out cloth lowers it": ((70, 160, 75), (0.4, 0.6)),
}


@pytest.mark.parametrize(("bgr", "factors"), THRESHOLDS.values(), ids=THRESHOLDS.keys())
def test_chroma_threshold_follows_the_cloths_saturation(
    bgr: tuple[int, int, int], factors: tuple[float, float]
) -> None:
    image = flat(bgr)
    cloth = estimate_cloth(image, np.ones(image.shape[:2], bool), CONFIG)
    factor = chroma_threshold(cloth, CONFIG) / CONFIG.chroma_threshold
    assert factors[0] - 1e-6 <= factor <= factors[1] + 1e-6


def test_a_green_ball_on_a_washed_out_cloth_is_not_cloth() -> None:
    # Both washed out alike (Lab chroma x 0.6): the ball's colour is closer to the cloth's than the
    # fixed threshold allows, the cloth's own saturation says by how much.
    cloth_bgr, ball_bgr = (70, 160, 75), (95, 130, 70)
    image = flat(cloth_bgr)
    image[40:50, 40:50] = ball_bgr
    cloth = estimate_cloth(image, np.ones(image.shape[:2], bool), CONFIG)
    fixed = ClothConfig(threshold_factor_range=(1.0, 1.0))
    assert not_cloth(image, cloth, CONFIG)[0][45, 45]
    assert not not_cloth(image, cloth, fixed)[0][45, 45]


def _cell_medians_by_sorting(image: np.ndarray, on: np.ndarray, config: ClothConfig):
    """The cells' medians and counts as sorting NaN-padded blocks gives them (the reference)."""
    step = config.sample_step_px
    sampled, sampled_on = image[::step, ::step], on[::step, ::step]
    sh, sw = sampled_on.shape
    cell = max(1, config.cell_px // step)
    rows, cols = max(1, -(-sh // cell)), max(1, -(-sw // cell))
    padded = np.full((rows * cell, cols * cell, 3), np.nan, dtype=np.float32)
    padded[:sh, :sw] = np.where(sampled_on[..., None], sampled.astype(np.float32), np.nan)
    blocks = padded.reshape(rows, cell, cols, cell, 3).transpose(0, 2, 1, 3, 4).reshape(rows, cols, -1, 3)
    counts = np.sum(~np.isnan(blocks[..., 0]), axis=2)
    filled = np.where(counts[..., None, None] > 0, blocks, 0)  # an empty cell's median: 0
    medians = np.where(counts[..., None] > 0, np.nanmedian(filled, axis=2), 0)
    return medians.astype(np.float32), counts


@pytest.mark.parametrize("seed", range(6))
def test_the_cells_medians_are_exactly_those_of_sorting(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = rng.integers(5, 90, size=2)
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    if seed % 2:  # few distinct values: ties at the middle
        image = (image // 64 * 64).astype(np.uint8)
    on = rng.random((h, w)) < rng.uniform(0.0, 1.0)
    config = ClothConfig(cell_px=int(rng.integers(4, 40)), sample_step_px=int(rng.integers(1, 4)))
    expected, expected_counts = _cell_medians_by_sorting(image, on, config)
    step = config.sample_step_px
    cells = cloth_cells(image, on[::step, ::step], config)
    assert np.array_equal(cells.counts, expected_counts)
    assert np.array_equal(cells.medians, expected)
