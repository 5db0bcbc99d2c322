"""The compiled (numba) kernels against plain numpy / OpenCV statements of the same definitions,
on random inputs: they must give the same answers, bit for bit where the arithmetic is the same."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.vision.classic import (
    ClassicConfig,
    _areas_up_to,
    _blob_depth,
    _cloth_lightness,
    _coverage,
    _disc_offsets,
    _highlight_pixels,
    _masked_medians,
    _median,
    _merged_points,
    _refine,
    _regions_touching,
    _ring_samples,
    _sparse_regions,
)
from snooker.vision.cloth import (
    ClothCells,
    ClothConfig,
    ClothEstimate,
    chroma_threshold,
    grid_of_cells,
    not_cloth,
    not_cloth_in_windows,
)
from snooker.vision.colour import ColourConfig, FrameTransform, _fit_kernel, _models, class_costs
from snooker.vision.cueball_score import core_spreads_and_tops
from snooker.vision.gating import _components, _disc_stamp, _stamp, _thin_labels, _tiles, _without_labels_away
from snooker.vision.peaks import POSITIVE, local_peaks

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _random_mask(rng: np.random.Generator, shape: tuple[int, int], density: float) -> np.ndarray:
    """Blobs rather than salt: a thresholded blurred noise image."""
    noise = cv2.GaussianBlur(rng.random(shape).astype(np.float32), (0, 0), 1.5)
    return noise > np.quantile(noise, 1.0 - density)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.floats(0.0, 0.5), st.integers(1, 90), st.integers(1, 90), st.booleans())
def test_sparse_regions_match_opencv_statistics_in_its_order(
    seed: int, density: float, h: int, w: int, salt: bool
) -> None:
    rng = np.random.default_rng(seed)
    # blobs, or scattered pixels and pairs (highlights and distance-transform peaks)
    mask = rng.random((h, w)) < density / 4 if salt else _random_mask(rng, (h, w), density)
    areas, centroids = _sparse_regions(mask)
    count, _, stats, expected = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    assert np.array_equal(areas, stats[1:, cv2.CC_STAT_AREA])
    assert np.allclose(centroids, expected[1:], rtol=0, atol=1e-9)
    assert len(areas) == count - 1


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.floats(0.1, 0.7), st.integers(1, 8))
def test_areas_up_to_count_the_region_until_past_the_limit(seed: int, density: float, count: int) -> None:
    rng = np.random.default_rng(seed)
    mask = _random_mask(rng, (33, 45), density)
    xs, ys = rng.integers(0, 45, count), rng.integers(0, 33, count)
    limits = rng.uniform(0.0, 400.0, count)
    areas = _areas_up_to(mask, xs, ys, limits)
    labels_count, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    true = np.bincount(labels.ravel(), minlength=labels_count)[labels[ys, xs]]
    on = mask[ys, xs]
    assert np.all(areas[~on] == -1)
    small = on & (true <= limits)
    assert np.array_equal(areas[small], true[small])
    large = on & (true > limits)
    assert np.all((areas[large] > limits[large]) & (areas[large] <= true[large]))


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.floats(0.05, 0.6))
def test_regions_touching_count_each_label_and_its_band_pixels(seed: int, density: float) -> None:
    rng = np.random.default_rng(seed)
    mask = _random_mask(rng, (41, 29), density)
    band = np.zeros_like(mask)
    band[:, : rng.integers(1, 6)] = True
    labels, areas, touching = _regions_touching(mask, band)
    count, expected_labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    assert np.array_equal(labels, expected_labels)
    assert np.array_equal(areas, np.bincount(labels.ravel(), minlength=count))
    in_band = np.zeros(count, bool)
    in_band[labels[band & mask]] = True
    assert np.array_equal(touching[1:], in_band[1:])


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.floats(0.0, 0.9), st.integers(1, 60), st.integers(1, 60))
def test_components_match_opencv_labels_and_statistics(seed: int, density: float, h: int, w: int) -> None:
    mask = _random_mask(np.random.default_rng(seed), (h, w), density).astype(np.uint8)
    labels, stats = _components(mask)
    count, expected_labels, expected, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert np.array_equal(labels, expected_labels)
    assert len(stats) == count
    assert np.array_equal(stats[1:], expected[1:])
    if mask.size > np.count_nonzero(mask):
        assert np.array_equal(stats[0], expected[0])


def _tiles_by_slices(labels: np.ndarray, stats: np.ndarray, tile: int) -> tuple[np.ndarray, list]:
    """The tiling stated with array slices (the definition the kernel follows)."""
    owners = np.full(labels.shape, -1, np.int32)
    boxes = []
    for label in range(1, len(stats)):
        x, y, w, h = stats[label, :4]
        for ty in range(y, y + h, tile):
            for tx in range(x, x + w, tile):
                cell = labels[ty : ty + tile, tx : tx + tile] == label
                if cell.any():
                    owners[ty : ty + tile, tx : tx + tile][cell] = len(boxes)
                    ys, xs = np.nonzero(cell)
                    boxes.append([tx + xs.min(), ty + ys.min(), tx + xs.max() + 1, ty + ys.max() + 1])
    return owners, boxes


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.floats(0.05, 0.7), st.integers(1, 12))
def test_tiles_cut_each_region_as_slices_do(seed: int, density: float, tile: int) -> None:
    mask = _random_mask(np.random.default_rng(seed), (31, 47), density)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    owners, boxes = _tiles(labels, stats, tile)
    expected_owners, expected_boxes = _tiles_by_slices(labels, stats, tile)
    assert np.array_equal(owners, expected_owners)
    assert boxes.tolist() == [[int(v) for v in box] for box in expected_boxes]
    assert np.all((owners >= 0) == mask)


def _not_cloth_by_arrays(image: np.ndarray, cloth: ClothEstimate, config: ClothConfig, darker_ratio: float):
    """The cloth comparison as float32 whole-array expressions, in the kernel's order."""
    p = image.astype(np.float32)
    q = cloth.chromaticity
    total = p[..., 0] + p[..., 1] + p[..., 2]
    inverse = np.float32(1.0) / (total + np.float32(config.dark_chroma_floor))
    squares = p[..., 0] * p[..., 0] + p[..., 1] * p[..., 1] + p[..., 2] * p[..., 2]
    products = p[..., 0] * q[..., 0] + p[..., 1] * q[..., 1] + p[..., 2] * q[..., 2]
    cloth_squares = q[..., 0] * q[..., 0] + q[..., 1] * q[..., 1] + q[..., 2] * q[..., 2]
    distance = squares * inverse * inverse - products * np.float32(2.0) * inverse + cloth_squares
    ratio = total / np.maximum(cloth.brightness, np.float32(1.0))
    different = (
        (distance > np.float32(chroma_threshold(cloth, config) ** 2))
        | (ratio > np.float32(config.bright_ratio))
        | (ratio < np.float32(config.dark_ratio))
    )
    return different, ratio < np.float32(darker_ratio)


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.booleans())
def test_not_cloth_matches_the_array_expressions(seed: int, as_view: bool) -> None:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (23, 31, 3), dtype=np.uint8)
    chroma = rng.random((23, 31, 3)).astype(np.float32) + 0.05
    chroma /= chroma.sum(axis=2, keepdims=True)
    brightness = (rng.random((23, 31)) * 700).astype(np.float32)
    if as_view:  # a window cut from a larger frame, as the follower and a full detection pass
        image, chroma, brightness = image[2:-3, 1:-4], chroma[2:-3, 1:-4], brightness[2:-3, 1:-4]
    cloth = ClothEstimate(chroma, brightness, float(rng.uniform(0.2, 0.8)))
    config = ClothConfig()
    different, darker = not_cloth(image, cloth, config, 0.6)
    expected_different, expected_darker = _not_cloth_by_arrays(image, cloth, config, 0.6)
    assert np.array_equal(different, expected_different)
    assert np.array_equal(darker, expected_darker)
    assert not not_cloth(image, cloth, config)[1].any()


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.integers(1, 4))
def test_not_cloth_in_windows_is_not_cloth_of_each_window(seed: int, count: int) -> None:
    rng = np.random.default_rng(seed)
    picture = rng.integers(0, 256, (40, 50, 3), dtype=np.uint8)
    chroma = rng.random((40, 50, 3)).astype(np.float32) + 0.05
    chroma /= chroma.sum(axis=2, keepdims=True)
    cloth = ClothEstimate(chroma, (rng.random((40, 50)) * 700).astype(np.float32), 0.4)
    x0, y0 = rng.integers(0, 30, count), rng.integers(0, 30, count)
    x1, y1 = x0 + rng.integers(1, 20, count), y0 + rng.integers(1, 10, count)
    boxes = np.stack([x0, y0, x1, y1], axis=1)
    tops = np.concatenate([[0], np.cumsum(y1 - y0 + 2)[:-1]])
    stacked = np.zeros((int(tops[-1] + y1[-1] - y0[-1]), int((x1 - x0).max()), 3), np.uint8)
    for (a, b, c, d), top in zip(boxes, tops, strict=True):
        stacked[top : top + d - b, : c - a] = picture[b:d, a:c]
    config = ClothConfig()
    different, darker = not_cloth_in_windows(stacked, cloth, boxes, tops, config, 0.6)
    expected_different, expected_darker = np.zeros_like(different), np.zeros_like(darker)
    for (a, b, c, d), top in zip(boxes, tops, strict=True):
        window = ClothEstimate(chroma[b:d, a:c], cloth.brightness[b:d, a:c], cloth.saturation)
        rows = slice(top, top + d - b)
        expected_different[rows, : c - a], expected_darker[rows, : c - a] = not_cloth(
            picture[b:d, a:c], window, config, 0.6
        )
    assert np.array_equal(different, expected_different)
    assert np.array_equal(darker, expected_darker)


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.integers(1, 6))
def test_disc_and_ring_samples_match_fancy_indexing(seed: int, count: int) -> None:
    rng = np.random.default_rng(seed)
    mask = rng.random((30, 40)) > 0.5
    centres = rng.uniform(-3, 43, (count, 2))
    radii = rng.uniform(2, 9, count)
    points = centres[:, None, :] + radii[:, None, None] * _disc_offsets()[None]
    ix = np.clip(np.round(points[..., 0]).astype(int), 0, 39)
    iy = np.clip(np.round(points[..., 1]).astype(int), 0, 29)
    assert np.array_equal(_coverage(mask, centres, radii), mask[iy, ix].mean(axis=1))
    angle = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
    ix = np.clip(np.round(centres[:, 0:1] + radii[:, None] * np.cos(angle)).astype(int), 0, 39)
    iy = np.clip(np.round(centres[:, 1:2] + radii[:, None] * np.sin(angle)).astype(int), 0, 29)
    assert np.array_equal(_ring_samples(mask, centres, radii, 16), mask[iy, ix])


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.integers(1, 5), st.floats(0.1, 0.9), st.floats(2.0, 12.0))
def test_refine_moves_to_the_first_best_covered_pixel(
    seed: int, count: int, density: float, typical: float
) -> None:
    rng = np.random.default_rng(seed)
    mask = _random_mask(rng, (25, 35), density)
    radius = np.full((25, 35), 6.0, np.float32)
    centres = rng.uniform(-3, 37, (count, 2))  # some beyond the image: clamped
    config = ClassicConfig()
    box = max(1, round(config.refine_radius * typical))
    coverage = cv2.blur(mask.astype(np.float32), (2 * box + 1,) * 2, borderType=cv2.BORDER_CONSTANT)
    reach = max(1, round(config.refine_reach * 6.0))
    steps = np.arange(-reach, reach + 1)
    dx, dy = (a.ravel() for a in np.meshgrid(steps, steps))
    base = np.round(centres).astype(int)
    ix = np.clip(base[:, 0:1] + dx[None], 0, 34)
    iy = np.clip(base[:, 1:2] + dy[None], 0, 24)
    moved = np.hypot(ix - centres[:, 0:1], iy - centres[:, 1:2]) / 6.0
    best = np.argmax(coverage[iy, ix] - config.refine_distance_penalty * moved, axis=1)
    rows = np.arange(count)
    expected = np.stack([ix[rows, best], iy[rows, best]], axis=1)
    assert np.array_equal(_refine(centres, mask, radius, typical, config), expected)


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.integers(0, 6), st.integers(1, 12))
def test_masked_medians_match_numpy_median_row_by_row(seed: int, rows: int, samples: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 6, (rows, samples)).astype(float)  # ties, as on 8-bit lightness
    use = rng.random((rows, samples)) > 0.4
    medians = _masked_medians(values, use)
    for row, chosen, median in zip(values, use, medians, strict=True):
        if chosen.any():
            assert median == np.median(row[chosen])
        else:
            assert np.isnan(median)


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.integers(1, 8), st.floats(0.5, 20.0))
def test_merge_close_keeps_points_apart_as_they_are(seed: int, count: int, spread: float) -> None:
    rng = np.random.default_rng(seed)
    points = rng.uniform(0, spread * count, (count, 2))
    weights = rng.uniform(1, 5, count)
    distance = rng.uniform(0.5, 3.0, count)
    merged = _merged_points(points, weights, distance)[0]
    gap = np.linalg.norm(points[:, None] - points[None], axis=2)
    apart = np.all((gap >= np.minimum(distance[:, None], distance[None])) | np.eye(count, dtype=bool))
    if apart:
        assert np.array_equal(merged, points)
    else:
        assert len(merged) < count
        assert np.all(merged >= points.min(axis=0) - 1e-9) and np.all(merged <= points.max(axis=0) + 1e-9)


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.floats(0.0, 0.6), st.integers(0, 255), st.floats(0.0, 255.0))
def test_highlight_pixels_are_the_masks_and_dilation(
    seed: int, density: float, tophat_min: int, floor: float
) -> None:
    rng = np.random.default_rng(seed)
    tophat, lightness = (rng.integers(0, 256, (29, 37), dtype=np.uint8) for _ in range(2))
    foreground = _random_mask(rng, (29, 37), density)
    near = cv2.dilate(foreground.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    expected = np.flatnonzero((tophat >= float(tophat_min)) & (lightness >= floor) & near)
    got = _highlight_pixels(tophat, lightness, foreground, float(tophat_min), floor)
    assert np.array_equal(got, expected)


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.floats(0.1, 0.9))
def test_blob_depth_and_peaks_match_the_array_expressions(seed: int, density: float) -> None:
    rng = np.random.default_rng(seed)
    mask = _random_mask(rng, (31, 43), density).astype(np.uint8)
    area = _random_mask(rng, (31, 43), 0.8)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    deep = cv2.distanceTransform(mask | _random_mask(rng, (31, 43), 0.2).view(np.uint8), cv2.DIST_L2, 3)
    radius = rng.uniform(2.0, 6.0, (31, 43)).astype(np.float32)
    expected = np.where(deep * area >= 0.65 * radius, deep * area, depth * area)
    got = _blob_depth(depth, deep, area, radius, np.float32(0.65))
    assert got.dtype == np.float32 and np.array_equal(got, expected)
    dilated = cv2.dilate(got, np.ones((5, 5), np.uint8))
    assert np.array_equal(local_peaks(got, 5, POSITIVE), np.flatnonzero((got >= dilated) & (got > 0)))


def _grid_of_cells_by_arrays(
    medians: np.ndarray, counts: np.ndarray, cell: int, config: ClothConfig
) -> np.ndarray:
    """The cloth grid's definition in array statements (``cloth.grid_of_cells``)."""
    enough = counts >= config.min_cell_fraction * cell * cell
    grid_medians = np.full((*counts.shape, 3), 128.0, dtype=np.float32)
    if enough.any():
        cell_medians = medians[enough]
        overall = np.median(cell_medians, axis=0)
        grid_medians[:] = overall
        floor = config.dark_chroma_floor
        totals, reference_total = cell_medians.sum(axis=1), float(overall.sum())
        chroma = cell_medians / (totals + floor)[:, None]
        reference = overall / (reference_total + floor)
        ratio = totals / max(reference_total, 1.0)
        limit = config.max_cell_brightness_ratio
        like = (
            (np.linalg.norm(chroma - reference, axis=1) <= config.max_cell_chroma_deviation)
            & (ratio <= limit)
            & (ratio >= 1.0 / limit)
        )
        grid_medians[enough] = np.where(like[:, None], cell_medians, overall)
    total = grid_medians.sum(axis=2)
    return np.dstack([grid_medians / (total + config.dark_chroma_floor)[..., None], total]).astype(np.float32)


@settings(max_examples=200, deadline=None)
@given(SEEDS, st.integers(1, 14), st.integers(1, 18), st.floats(0.0, 1.0), st.floats(0.0, 0.3))
def test_grid_of_cells_matches_the_array_statements(
    seed: int, rows: int, cols: int, filled: float, spread: float
) -> None:
    rng = np.random.default_rng(seed)
    cloth = rng.uniform(20, 200, 3)
    # mostly cloth-like cells, some far off (an arm, a cushion), some dark or blank; whole values
    # and halves, as the medians of 8-bit samples are
    medians = cloth * (1.0 + rng.normal(0.0, spread, (rows, cols, 3)))
    medians[rng.random((rows, cols)) < 0.2] = rng.uniform(0, 255, 3)
    medians = (np.round(np.clip(medians, 0, 255) * 2) / 2).astype(np.float32)
    counts = np.where(rng.random((rows, cols)) < filled, rng.integers(0, 145, (rows, cols)), 0)
    medians[counts == 0] = 0.0
    config = ClothConfig(cell_px=12, sample_step_px=1)
    cells = ClothCells(medians, counts, np.ones((rows * 12, cols * 12), bool), 12, 1, 1)
    assert np.array_equal(grid_of_cells(cells, config), _grid_of_cells_by_arrays(medians, counts, 12, config))


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.floats(0.02, 0.6), st.floats(0.5, 4.0))
def test_thin_regions_away_from_balls_are_dropped_as_the_array_statements_drop_them(
    seed: int, density: float, thinnest: float
) -> None:
    rng = np.random.default_rng(seed)
    changed = _random_mask(rng, (37, 53), density)
    mask = changed.astype(np.uint8)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    expected = np.ones(count, bool)
    expected[labels[depth >= thinnest]] = False
    expected[0] = False
    thin = _thin_labels(labels, depth, count, np.float32(thinnest))
    assert np.array_equal(thin, expected)
    near = (rng.random((37, 53)) < 0.3).astype(np.uint8)
    assert np.array_equal(
        _without_labels_away(changed, labels, thin, near), changed & ~(thin[labels] & (near == 0))
    )


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(1, 40), st.integers(1, 40), st.integers(1, 5), st.floats(0.0, 1.0))
def test_bare_cloth_lightness_is_numpys_median_of_the_samples(
    seed: int, h: int, w: int, step: int, bare: float
) -> None:
    rng = np.random.default_rng(seed)
    lightness = rng.integers(0, 256, (h, w)).astype(np.uint8)
    inner, body = rng.random((h, w)) < bare, rng.random((h, w)) < 0.3
    samples = lightness[::step, ::step][inner[::step, ::step] & ~body[::step, ::step]]
    config = ClassicConfig(cloth_lightness_step_px=step)
    expected = float(np.median(samples)) if len(samples) else None
    assert _cloth_lightness(lightness, inner, body, config) == expected


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(0.5, 40.0), min_size=1, max_size=25))
def test_short_median_is_numpys(values: list[float]) -> None:
    array = np.array(values)
    assert _median(array) == float(np.median(array))


def _sharp_costs_by_arrays(features: np.ndarray, config: ColourConfig, t: FrameTransform) -> np.ndarray:
    """The colour costs' definition in array statements: the models through ``t``
    (``FrameTransform.apply`` and ``.spreads``), half the squared Mahalanobis distance plus the
    log-spread over the least untransformed one."""
    models = _models(config)
    means, stds = models.means, models.stds
    seen_means = np.array(means, copy=True)
    seen_means[:, 0] = 255.0 * np.exp(t.log_gain + t.gamma * models.log_lightness)
    cast = models.cast_response @ np.array([t.red_cast, t.blue_cast])
    seen_means[:, 1] = t.chroma_scale * means[:, 1] + t.a_shift + cast[:, 0]
    seen_means[:, 2] = t.chroma_scale * means[:, 2] + t.b_shift + cast[:, 1]
    slope = t.gamma * np.exp(t.log_gain) * models.unit_lightness ** (t.gamma - 1.0)
    seen_stds = np.column_stack([stds[:, 0] * slope, stds[:, 1:] * t.chroma_scale])
    offset = features[:, None, :3] - seen_means[None]
    log_spread = np.sum(np.log(seen_stds), axis=1)[None] - models.least_log_spread
    return 0.5 * np.sum(offset**2 * seen_stds[None] ** -2.0, axis=2) + log_spread


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(1, 25), st.floats(-0.5, 0.5), st.floats(0.7, 1.4), st.floats(0.7, 1.4))
def test_colour_costs_match_the_array_statements(
    seed: int, n: int, log_gain: float, gamma: float, chroma_scale: float
) -> None:
    rng = np.random.default_rng(seed)
    features = np.column_stack(
        [rng.uniform(5, 250, n), rng.uniform(-60, 60, (n, 2)), rng.uniform(0, 3, (n, 4))]
    )
    shifts, casts = rng.uniform(-8, 8, 2), rng.uniform(-0.3, 0.3, 2)
    transform = FrameTransform(log_gain, gamma, chroma_scale, *shifts, *casts)
    config = ColourConfig()
    expected = _sharp_costs_by_arrays(features, config, transform)
    # not glossy: no candidate may be read as blurred, so these are the costs whole
    got = class_costs(features, config, transform, np.zeros(n, bool))
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-12)


def _fit_by_arrays(features: np.ndarray, index: np.ndarray, config: ColourConfig) -> np.ndarray:
    """The frame transform's fit in array statements: both weighted least-squares problems with
    their Gaussian priors, unclamped (log gain, gamma, chroma scale, a and b shifts, red and blue
    casts)."""
    models = _models(config)

    def ridge(
        design: np.ndarray, y: np.ndarray, w: np.ndarray, prior: np.ndarray, sigma: np.ndarray
    ) -> np.ndarray:
        precision = np.diag(sigma**-2.0)
        return np.linalg.solve(
            design.T @ (w[:, None] * design) + precision, design.T @ (w * y) + precision @ prior
        )

    x = models.log_lightness[index]
    light = ridge(
        np.column_stack([np.ones_like(x), x]),
        np.log(np.maximum(features[:, 0], 1e-3) / 255.0),
        models.lightness_weight[index],
        np.array([0.0, 1.0]),
        np.array([config.gain_prior_sigma, config.gamma_prior_sigma]),
    )
    means, ones, zeros = models.means[index], np.ones(len(x)), np.zeros(len(x))
    response = models.cast_response[index]
    design = np.concatenate(
        [
            np.column_stack([means[:, 1], ones, zeros, response[:, 0]]),
            np.column_stack([means[:, 2], zeros, ones, response[:, 1]]),
        ]
    )
    sigma = np.array(
        [
            config.chroma_scale_prior_sigma,
            *[config.chroma_shift_prior_sigma] * 2,
            *[config.cast_prior_sigma] * 2,
        ]
    )
    shape = ridge(
        design,
        np.concatenate([features[:, 1], features[:, 2]]),
        models.chroma_weight[index].ravel(order="F"),
        np.array([1.0, 0.0, 0.0, 0.0, 0.0]),
        sigma,
    )
    return np.concatenate([light, shape])


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(0, 22))
def test_frame_transform_fit_matches_the_array_statements(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    config = ColourConfig()
    features = np.column_stack([rng.uniform(5, 250, n), rng.uniform(-60, 60, (n, 2))])
    index = rng.integers(0, len(_models(config).means), n)
    got = _fit_kernel(
        np.ascontiguousarray(features[:, 1:3]),
        np.log(np.maximum(features[:, 0], 1e-3) / 255.0),
        index,
        _models(config).means,
        _models(config).log_lightness,
        _models(config).lightness_weight,
        _models(config).chroma_weight,
        _models(config).cast_response,
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
    assert np.allclose(got, _fit_by_arrays(features, index, config), rtol=1e-9, atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(0, 25), st.integers(1, 12))
def test_disc_stamps_are_the_circles_opencv_draws(seed: int, count: int, radius: int) -> None:
    rng = np.random.default_rng(seed)
    # places inside, on the edges and beyond the mask (a ball last seen off the thumbnail)
    places = rng.integers(-15, 60, (count, 2))
    expected = np.zeros((41, 53), np.uint8)
    for x, y in places:
        cv2.circle(expected, (int(x), int(y)), radius, 1, -1)
    got = np.zeros((41, 53), np.uint8)
    _stamp(got, _disc_stamp(radius), places.astype(np.int64))
    assert np.array_equal(got, expected)


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(1, 12), st.integers(0, 60), st.booleans())
def test_core_spreads_are_numpys_float32_std_bit_for_bit(
    seed: int, count: int, largest: int, whole: bool
) -> None:
    rng = np.random.default_rng(seed)
    # fractional grey levels, so that the order of the sums shows in the last bit; windows cut
    # by the image's edges and (``whole``) one larger than NumPy's buffer
    grey = (rng.random((150, 170)) * 255.0).astype(np.float32)
    centres = np.column_stack([rng.integers(0, 170, count), rng.integers(0, 150, count)])
    cores = rng.integers(0, largest + 1, count)
    boxes = np.column_stack(
        [
            np.maximum(0, centres[:, 1] - cores),
            centres[:, 1] + cores + 1,
            np.maximum(0, centres[:, 0] - cores),
            centres[:, 0] + cores + 1,
        ]
    )
    if whole:
        boxes[0] = (0, 150, 0, 170)
    spreads, tops = core_spreads_and_tops(grey, boxes)
    for k, (y0, y1, x0, x1) in enumerate(boxes):
        window = grey[y0:y1, x0:x1]
        assert spreads[k] == float(window.std()) and tops[k] == float(window.max())


@settings(deadline=None)  # the first example compiles the kernel
@given(
    seed=st.integers(0, 2**16),
    smallest=st.sampled_from([0.0, 1.0, 2.5, 3.0]),
    window=st.integers(1, 8),
    shape=st.tuples(st.integers(1, 19), st.integers(1, 23)),
)
def test_local_peaks_are_the_dilation_test(seed, smallest, window, shape):
    rng = np.random.default_rng(seed)
    # few levels: plateaus of equal maxima, and windows of even sides, anchored as OpenCV does
    distance = rng.integers(0, 6, shape).astype(np.float32) / 2
    dilated = cv2.dilate(distance, np.ones((window, window), np.uint8))
    expected = np.flatnonzero(((distance >= dilated) & (distance >= smallest)).ravel())
    assert np.array_equal(local_peaks(distance, window, np.float32(smallest)), expected)
