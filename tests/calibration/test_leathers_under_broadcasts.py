"""Pocket leathers are found however much brighter or more saturated than the cloth a broadcast
shows them: rendered tables with the leather, the rail and the cloth in such relations, and real
stills as other broadcasts would show them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snooker.balls import POCKET_NAMES
from snooker.calibration import TableNotFound, find_table
from snooker.calibration.detect import DEFAULT_CONFIG, _channel_median, cloth_mask
from snooker.calibration.synthetic import SceneColours, broadcast_camera, overhead_camera, render_table
from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.photometric import BROADCAST_PERTURBATIONS

SCENES = {
    # BGR colours; the HSV value (V) and saturation (S) that matter are noted.
    "default colours": SceneColours(),
    "bright cloth, leather only a little brighter": SceneColours(
        cloth=(40, 200, 30), cushion_top=(45, 205, 35), leather=(170, 205, 215)
    ),  # cloth V 200, leather V 215: less than 1.1 times the cloth
    "dark cloth, pale rail a little brighter than it": SceneColours(
        cloth=(25, 110, 15), cushion_top=(28, 115, 18), rail=(60, 90, 127), leather=(150, 215, 235)
    ),  # cloth V 110, rail V 127 and S 134: the rail is no leather, the leather (V 235) is
    "saturated leather on a fully saturated cloth": SceneColours(
        cloth=(10, 160, 5), cushion_top=(12, 170, 6), leather=(90, 190, 240)
    ),  # cloth S 247, leather S 159: far less saturated than the cloth, though over 150
}
CAMERAS = {"overhead": overhead_camera(), "broadcast": broadcast_camera()}
CORNER_LIMIT_PX = 1.0
LEATHER_LIMIT_PX = 1.5


@pytest.mark.parametrize("camera_name", sorted(CAMERAS))
@pytest.mark.parametrize("scene", sorted(SCENES))
def test_every_leather_is_found_where_the_camera_put_it(scene, camera_name):
    camera = CAMERAS[camera_name]
    view = find_table(render_table(camera, colours=SCENES[scene]))
    found = view.extras["leathers_px"]
    assert sorted(found) == sorted(POCKET_NAMES), f"{scene}: only {sorted(found)}"
    leathers = DEFAULT_CONFIG.rails.pocket_leathers(STANDARD_TABLE)
    for name, xy in found.items():
        assert np.hypot(*(np.array(xy) - camera.project(leathers[name][None])[0])) <= LEATHER_LIMIT_PX
    true_corners = camera.project(np.column_stack([STANDARD_TABLE.corners, np.zeros(4)]))
    assert np.abs(view.corners_px - true_corners).max() <= CORNER_LIMIT_PX


HARD_STILLS = {
    3: "a bright cloth: the leathers are only a little brighter than it",
    11: "a dark surround beside the middle and top pockets, nearly as bright as the cloth",
}
POCKET_LIMIT_PX = 6.0
"""Largest distance (px at the still's 1280 width) of a pocket from where the unperturbed still puts it."""


@pytest.fixture(scope="module")
def hard_stills(still_views) -> dict:
    """{still: (image, its table found unperturbed)} for the hard stills."""
    return {still: still_views[still] for still in HARD_STILLS}


@pytest.mark.footage
@pytest.mark.parametrize("perturbation", BROADCAST_PERTURBATIONS, ids=lambda p: p.name)
@pytest.mark.parametrize("still", sorted(HARD_STILLS))
def test_the_table_is_found_on_hard_stills_as_other_broadcasts_show_them(hard_stills, still, perturbation):
    image, reference = hard_stills[still]
    assert not isinstance(reference, TableNotFound), f"still {still} unperturbed: {reference}"
    changed = perturbation.apply(image)
    try:
        view = find_table(changed)
    except TableNotFound as exc:
        pytest.fail(f"still {still} ({HARD_STILLS[still]}) under {perturbation.name}: {exc}")
    scale = image.shape[1] / changed.shape[1]
    for name, xy in view.pockets_px.items():
        off = np.hypot(*(np.array(xy) * scale - reference.pockets_px[name]))
        assert off <= POCKET_LIMIT_PX, f"{name} is {off:.1f} px from the unperturbed still's"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 60), st.integers(1, 60), st.floats(0.0, 1.0), st.booleans())
def test_cloth_medians_from_histograms_are_numpys(
    seed: int, h: int, w: int, share: float, narrow: bool
) -> None:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
    if narrow:  # a cloth's value spread over a few levels: ties at the middle
        image[..., 2] = rng.integers(100, 103, (h, w))
    mask = (rng.random((h, w)) < share).astype(np.uint8) * 255
    for channel in (1, 2):
        expected = float(np.median(image[..., channel][mask > 0])) if mask.any() else None
        if expected is not None:
            assert _channel_median(image, channel, mask) == expected
        assert _channel_median(image, channel, None) == float(np.median(image[..., channel]))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 179), st.integers(0, 30))
def test_the_cloth_mask_is_its_array_statements(seed: int, hue: int, tolerance: int) -> None:
    rng = np.random.default_rng(seed)
    hsv = np.dstack(
        [rng.integers(0, 180, (23, 31)), rng.integers(0, 256, (23, 31)), rng.integers(0, 256, (23, 31))]
    ).astype(np.uint8)
    config = DEFAULT_CONFIG.cloth
    diff = np.abs(hsv[..., 0].astype(np.int16) - hue)
    diff = np.minimum(diff, 180 - diff)
    ok = (diff <= tolerance) & (hsv[..., 1] >= config.min_saturation) & (hsv[..., 2] >= config.min_value)
    image = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    assert np.array_equal(cloth_mask(image, config, hue, tolerance, hsv=hsv), ok.astype(np.uint8) * 255)
    # made from the picture, the conversion is the same
    converted = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    assert np.array_equal(
        cloth_mask(image, config, hue, tolerance), cloth_mask(image, config, hue, tolerance, converted)
    )
