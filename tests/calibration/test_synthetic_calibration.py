"""Calibrate rendered tables whose camera is known exactly, and compare."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from snooker.calibration import BALL_RADIUS, TableNotFound, find_table
from snooker.calibration.camera import CameraPrior
from snooker.calibration.detect import DEFAULT_CONFIG
from snooker.calibration.synthetic import broadcast_camera, overhead_camera, render_table
from snooker.calibration.table import STANDARD_TABLE

CAMERAS = {
    "overhead_baulk_left": (overhead_camera(), 2.0),
    "overhead_baulk_right": (overhead_camera(baulk_on_left=False), 2.0),
    "overhead_high_small": (overhead_camera(height_mm=6000.0, fill=0.7), 2.0),
    # End-on TV-style views: the far (baulk) end is ~5 mm per pixel, so allow a little more.
    "broadcast": (broadcast_camera(), 4.0),
    "broadcast_low": (broadcast_camera(distance_mm=2500.0, height_mm=2800.0, focal_px=900.0), 4.0),
}
BALLS = {
    "white": ((300.0, 3300.0), (255, 255, 255)),
    "blue": ((889.0, 1784.5), (200, 60, 0)),
    "red": ((1500.0, 200.0), (0, 0, 200)),
}


def _grid(n_x: int = 9, n_y: int = 15) -> np.ndarray:
    r = STANDARD_TABLE.ball_radius_mm
    xs, ys = np.meshgrid(
        np.linspace(r, STANDARD_TABLE.width_mm - r, n_x), np.linspace(r, STANDARD_TABLE.length_mm - r, n_y)
    )
    return np.column_stack([xs.ravel(), ys.ravel()])


@pytest.fixture(scope="module", params=sorted(CAMERAS))
def calibrated(request):
    camera, limit_mm = CAMERAS[request.param]
    view = find_table(render_table(camera, balls=BALLS))
    return request.param, camera, view, limit_mm


def test_ball_centres_map_back_to_their_table_positions(calibrated):
    name, camera, view, limit_mm = calibrated
    grid = _grid()
    seen_px = camera.project(np.column_stack([grid, np.full(len(grid), BALL_RADIUS)]))
    error = np.hypot(*(view.image_to_table(seen_px) - grid).T)
    assert error.max() <= limit_mm, f"{name}: worst {error.max():.2f} mm"


def test_corners_and_pockets_land_where_the_camera_put_them(calibrated):
    _name, camera, view, _limit = calibrated
    true_corners = camera.project(np.column_stack([STANDARD_TABLE.corners, np.zeros(4)]))
    assert np.abs(view.corners_px - true_corners).max() <= 1.0
    openings = view.rails.pocket_openings(STANDARD_TABLE)
    for pocket, xy in view.pockets_px.items():
        assert np.hypot(*(np.array(xy) - camera.project(openings[pocket][None])[0])) <= 1.5


def test_ball_height_matters_in_the_end_on_view():
    camera = broadcast_camera()
    view = find_table(render_table(camera))
    far_ball = np.array([[889.0, 300.0]])
    seen_px = camera.project(np.column_stack([far_ball, [BALL_RADIUS]]))
    on_cloth_plane = view.image_to_table(seen_px, height_mm=0.0)
    at_ball_height = view.image_to_table(seen_px)
    assert np.hypot(*(on_cloth_plane - far_ball)[0]) > 20.0
    assert np.hypot(*(at_ball_height - far_ball)[0]) < 4.0


def test_table_to_image_and_back_are_inverse(calibrated):
    _name, _camera, view, _limit = calibrated
    grid = _grid(5, 5)
    for height in (0.0, BALL_RADIUS, 40.0):
        back = view.image_to_table(view.table_to_image(grid, height), height)
        assert np.abs(back - grid).max() < 1e-6


def test_ball_radius_in_pixels_matches_the_render(calibrated):
    _name, camera, view, _limit = calibrated
    centre = np.array([889.0, 1784.5, BALL_RADIUS])
    true_r = np.hypot(
        *(camera.project((centre + np.array([BALL_RADIUS, 0.0, 0.0]))[None]) - camera.project(centre[None]))[
            0
        ]
    )
    assert view.ball_radius_px(centre[:2]) == pytest.approx(true_r, rel=0.1)


def test_playing_area_mask_covers_the_cloth_inside_the_noses(calibrated):
    _name, camera, view, _limit = calibrated
    w, h = camera.image_size
    mask = view.playing_area_mask((h, w, 3))
    inside = camera.project(np.array([[889.0, 1784.5, 0.0], [100.0, 100.0, 0.0]]))
    outside = camera.project(np.array([[-60.0, 1784.5, 0.0], [889.0, STANDARD_TABLE.length_mm + 60.0, 0.0]]))
    assert all(mask[round(y), round(x)] == 255 for x, y in inside)
    assert all(mask[round(y), round(x)] == 0 for x, y in outside)


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((720, 1280, 3), np.uint8),
        np.full((720, 1280, 3), (30, 150, 20), np.uint8),
        np.random.default_rng(1).integers(0, 256, (720, 1280, 3), dtype=np.uint8),
        np.zeros((720, 1280), np.uint8),
    ],
    ids=["black", "all_cloth", "noise", "grey"],
)
def test_no_table_raises_table_not_found(image):
    with pytest.raises(TableNotFound):
        find_table(image)


@pytest.mark.parametrize(("k1", "limit_mm"), [(0.04, 2.0), (-0.05, 2.0), (-0.1, 3.5)])
def test_wide_lens_distortion_is_estimated_from_the_bent_rails(k1, limit_mm):
    camera = overhead_camera(height_mm=2200.0, fill=0.9, k1=k1)
    lens_hfov = float(np.degrees(2 * np.arctan(camera.image_size[0] / 2 / camera.focal_px)))
    config = replace(DEFAULT_CONFIG, camera=CameraPrior(default_hfov_deg=lens_hfov))
    view = find_table(render_table(camera), config)
    kappa_true = k1 / camera.focal_px**2
    assert view.extras["radial_distortion_per_px2"] == pytest.approx(kappa_true, rel=0.15)
    grid = _grid()
    seen_px = camera.project(np.column_stack([grid, np.full(len(grid), BALL_RADIUS)]))
    error = np.hypot(*(view.image_to_table(seen_px) - grid).T)
    assert error.max() <= limit_mm


LONG_LENS_FOCAL_PX = 2700.0
"""A broadcast camera's zoom: some 6 m behind the top cushion and 3.5 m up, the table fills the frame."""
LONG_LENS_SPOT_LIMIT_MM = 2.5
"""How far a ball on its spot may read from it through the table found (the far end's pixel spans
some 8 mm along the table)."""


@pytest.mark.parametrize("k1_half_diagonal", [0.0, 0.05])
def test_a_long_lens_slight_pincushion_is_found_from_the_pockets(k1_half_diagonal):
    """A zoom lens's pincushion of a few per cent bends the rails by less than a pixel, as much as
    the cloth outline's own noise, yet a pinhole fitted to them reads balls on the end spots up to
    11 mm towards the middle (the stretch measured on the broadcast stills). The pocket leathers
    fit one camera only with the lens's distortion, and tell it; with none they add none."""
    half_diagonal = np.hypot(1280.0, 720.0) / 2.0
    k1 = k1_half_diagonal * (LONG_LENS_FOCAL_PX / half_diagonal) ** 2
    camera = broadcast_camera(distance_mm=6000.0, height_mm=3500.0, focal_px=LONG_LENS_FOCAL_PX, k1=k1)
    config = replace(DEFAULT_CONFIG, distortion=replace(DEFAULT_CONFIG.distortion, fit_to_pockets=True))
    view = find_table(render_table(camera), config)
    spots = np.array(list(STANDARD_TABLE.spots.values()))
    seen_px = camera.project(np.column_stack([spots, np.full(len(spots), BALL_RADIUS)]))
    error = np.hypot(*(view.image_to_table(seen_px) - spots).T)
    assert error.max() <= LONG_LENS_SPOT_LIMIT_MM, f"worst {error.max():.1f} mm"
