"""The view check with its pixels computed once per view answers as ``shows_table`` does."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.calibration import TableNotFound, TableView, TableViewCheck, shows_table
from snooker.calibration.detect import (
    DEFAULT_CONFIG,
    CalibrationConfig,
    ViewCheckConfig,
    _channel_median,
    cloth_hue,
    view_check_geometry,
)
from snooker.calibration.synthetic import broadcast_camera, render_table


@pytest.fixture(scope="module")
def scene():
    camera = broadcast_camera()
    return TableView(camera=camera), render_table(camera)


def _variants(image: np.ndarray) -> dict[str, np.ndarray]:
    h, w = image.shape[:2]
    return {
        "the table": image,
        "a small camera shake": np.roll(image, 3, axis=1),
        "a close-up (zoomed crop)": np.ascontiguousarray(
            np.repeat(np.repeat(image[h // 4 : h // 4 + h // 2, w // 4 : w // 4 + w // 2], 2, 0), 2, 1)
        ),
        "a crowd shot (no cloth)": np.full_like(image, (60, 70, 160)),
        "the view moved far": np.roll(image, w // 5, axis=1),
        "a frame of another size": image[: h // 2, : w // 2],
    }


def test_cached_check_answers_as_shows_table_on_every_kind_of_frame(scene):
    view, image = scene
    check = TableViewCheck()
    answers = {
        name: (shows_table(frame, view), check(frame, view)) for name, frame in _variants(image).items()
    }
    assert all(plain == cached for plain, cached in answers.values()), answers
    assert answers["the table"] == (True, True)
    assert answers["a crowd shot (no cloth)"] == (False, False)


def test_geometry_is_computed_once_per_view(scene):
    view, image = scene
    check = TableViewCheck()
    check(image, view)
    first = check._cached
    check(np.roll(image, 1, axis=0), view)
    assert check._cached is first
    other = TableView(camera=broadcast_camera(distance_mm=2000.0))
    check(image, other)
    assert check._cached is not first and check._cached[0] is other


@pytest.mark.parametrize("step", [1, 4])
def test_geometry_reads_a_regular_sample_of_the_playing_area_and_a_ring_outside_it(scene, step):
    view, image = scene
    config = CalibrationConfig(view_check=ViewCheckConfig(area_sample_step=step))
    geometry = view_check_geometry(view, image.shape, config)
    area = view.playing_area_mask(image.shape[:2]).reshape(-1) > 0
    assert np.array_equal(np.flatnonzero(area)[::step], geometry.inside)
    assert len(np.intersect1d(geometry.inside, geometry.band)) == 0
    assert len(geometry.rails) == 4


def test_a_sampled_check_answers_as_the_whole_one_on_every_kind_of_frame(scene):
    view, image = scene
    whole = CalibrationConfig(view_check=ViewCheckConfig(area_sample_step=1))
    answers = {
        name: (shows_table(frame, view), shows_table(frame, view, whole))
        for name, frame in _variants(image).items()
    }
    assert all(sampled == read_whole for sampled, read_whole in answers.values()), answers
    assert answers["the table"] == (True, True) and answers["the view moved far"] == (False, False)


@pytest.mark.parametrize(
    "hues",
    [[0], [5, 9], [1, 2, 3], [10, 10, 11, 179], [60] * 7 + [61] * 8, list(range(0, 180, 7))],
)
def test_median_hue_is_numpys_median_truncated(hues):
    hsv = np.array([[hue, 0, 0] for hue in hues], dtype=np.uint8)
    everywhere = np.ones((1, len(hues)), np.uint8)
    assert int(_channel_median(hsv.reshape(1, -1, 3), 0, everywhere)) == int(np.median(hsv[:, 0]))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 179), st.booleans()), min_size=1, max_size=300).filter(
        lambda pairs: any(use for _, use in pairs)
    )
)
def test_the_median_hue_of_the_saturated_pixels_is_numpys(pairs):
    """As the view check reads it: the hue channel of the sampled pixels' HSV row, under a mask."""
    hsv = np.array([[hue, 0, 0] for hue, _ in pairs], dtype=np.uint8)
    use = np.array([use for _, use in pairs])
    median = _channel_median(hsv.reshape(1, -1, 3), 0, use.view(np.uint8).reshape(1, -1))
    assert median == np.median(hsv[use, 0])


def _cloth_hue_by_numpy(hsv: np.ndarray, config) -> int:
    """The cloth's hue as the array statements took it (the reference for the counted one)."""
    h, w = hsv.shape[:2]
    fh, fw = int(h * config.centre_fraction / 2), int(w * config.centre_fraction / 2)
    centre = hsv[h // 2 - fh : h // 2 + fh, w // 2 - fw : w // 2 + fw].reshape(-1, 3)
    good = (centre[:, 1] >= config.min_saturation) & (centre[:, 2] >= config.min_value)
    if good.sum() < config.min_saturated_fraction * len(centre):
        raise TableNotFound("no saturated cloth colour in the middle of the frame")
    hist = np.bincount(centre[good, 0], minlength=180).astype(float)
    k = config.hue_smoothing
    wrapped = np.concatenate([hist[-k:], hist, hist[:k]])
    smooth = np.convolve(wrapped, np.ones(k), mode="same")[k:-k]
    return int(np.argmax(smooth))


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    saturated=st.floats(0.0, 1.0),
    min_saturation=st.sampled_from([80, 80.5, 0]),
    strided=st.booleans(),
    shape=st.sampled_from([(24, 30), (8, 8), (3, 2), (1, 1)]),
)
def test_the_cloth_hue_counted_by_opencv_is_the_array_statements(
    seed, saturated, min_saturation, strided, shape
):
    """Also on frames too small to have a middle (the follower's tests draw 8 x 8 frames)."""
    rng = np.random.default_rng(seed)
    hsv = np.stack(
        [
            rng.integers(0, 180, shape),
            np.where(rng.random(shape) < saturated, rng.integers(80, 256, shape), rng.integers(0, 82, shape)),
            rng.integers(30, 256, shape),
        ],
        axis=2,
    ).astype(np.uint8)
    if strided:
        hsv = hsv[::2, ::2]  # as the other views' follower passes it
    config = replace(DEFAULT_CONFIG.cloth, min_saturation=min_saturation)
    try:
        expected = _cloth_hue_by_numpy(hsv, config)
    except TableNotFound:
        with pytest.raises(TableNotFound):
            cloth_hue(hsv, config)
        return
    assert cloth_hue(hsv, config) == expected
