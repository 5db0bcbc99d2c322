"""The table's painted markings (the baulk line, the D) are no ball, and balls on them stay whole
(``ClassicConfig.mask_table_markings``; table-driven)."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.render import Renderer, RenderOptions
from snooker.vision.classic import (
    MARKING_BAND,
    MARKING_LINE,
    ClassicConfig,
    ClassicDetector,
    TableGeometry,
    _shows_marking_lines,
    _without_marking_paint,
)

SPOTS = STANDARD_TABLE.spots
BAULK_Y = STANDARD_TABLE.baulk_line_y_mm
CENTRE_ERROR_PX = 1.5
"""A ball found on a marking lies within this of its rendered centre (the rim fit's error on
rendered balls at rest is well under a pixel; a line kept in the foreground pulled the brown 5 px)."""

LAYOUTS = {
    "the baulk colours on their spots": {name: SPOTS[name] for name in ("yellow", "green", "brown")},
    "the cue ball against the baulk line, reds astride it": {
        "white": (1300.0, BAULK_Y - 30.0),
        "red-1": (400.0, BAULK_Y + 5.0),
        "red-2": (1500.0, BAULK_Y - 12.0),
    },
    "a ball on the D's arc": {"blue": (889.0 + 292.0 * np.cos(4.0), BAULK_Y + 292.0 * np.sin(4.0))},
}
CAMERAS = {
    # the baulk line 3-4 px wide: it outlasts the foreground's median filter
    "overhead 960 x 540": Camera.overhead((960, 540)),
    "overhead 1280 x 720": Camera.overhead((1280, 720)),
    "broadcast 960 x 540": Camera.broadcast((960, 540)),
}


@pytest.mark.parametrize("camera_name", CAMERAS)
@pytest.mark.parametrize("layout_name", LAYOUTS)
def test_balls_on_the_markings_are_found_where_they_lie(camera_name: str, layout_name: str) -> None:
    camera, layout = CAMERAS[camera_name], LAYOUTS[layout_name]
    image, labels = Renderer(camera, RenderOptions()).render(layout, np.random.default_rng(3))
    found = ClassicDetector()(image, camera.table_view())
    for label in labels.balls:
        same = found.ball == label.ball
        assert same.any(), f"the {label.id} at ({label.x_px:.1f}, {label.y_px:.1f}) px is not found"
        error = np.linalg.norm(found.xy_px[same] - [label.x_px, label.y_px], axis=1).min()
        assert error <= CENTRE_ERROR_PX, f"the {label.id} is found {error:.1f} px off"
    assert len(found.ball) == len(layout), list(found.ball)


CLOTH_BGR = np.array([40.0, 140.0, 30.0], np.float32)
"""A green cloth, B + G + R = 210."""
SIDE_PX = 21
"""The test pictures: a square of cloth this wide..."""
LINE_PX = 3
"""...with a line this wide down its middle, in a band of markings ``BAND_PX`` wide."""
BAND_PX = 5
RADIUS_PX = 4.0
"""The test pictures' ball radius: their line is 21 px long, over four radii."""


PIXELS = {
    # (what lies on the marking, its BGR, whether it is taken for paint where it is a line)
    "paint blurred into the cloth, a third of the way": (CLOTH_BGR * 2 / 3 + np.float32(200) / 3, True),
    "paint blurred into the cloth, half way": (CLOTH_BGR / 2 + np.float32(100), True),
    "pure white paint": ((235, 240, 238), False),
    "the yellow ball": ((40, 220, 230), False),
    "a red ball": ((30, 40, 170), False),
    "the pink ball": ((150, 140, 230), False),
    "the green ball, darker than the cloth": ((30, 100, 20), False),
    "a lighter patch of cloth of another green": ((30, 190, 60), False),
}


def _cloth_at(ix: np.ndarray, iy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = float(CLOTH_BGR.sum())
    return np.tile(CLOTH_BGR / total, (len(ix), 1)), np.full(len(ix), total, np.float32)


def _geometry(markings: bool) -> TableGeometry:
    """The test pictures' geometry: balls of radius ``RADIUS_PX``; a marking down the middle, or none."""
    area = np.ones((SIDE_PX, SIDE_PX), bool)
    band = np.zeros(area.shape, np.uint8)
    middle = SIDE_PX // 2
    if markings:
        band[:, middle - BAND_PX // 2 : middle + BAND_PX // 2 + 1] = MARKING_BAND
        band[:, middle] = MARKING_LINE
    radius = np.full(area.shape, RADIUS_PX, np.float32)
    return TableGeometry(
        0, 0, SIDE_PX, SIDE_PX, area, area, ~area, radius, RADIUS_PX, RADIUS_PX, band, BAND_PX
    )


def _picture(bgr, disc_radius_px: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Cloth with a line of ``bgr`` down its middle, or a disc of it there; and where it lies."""
    image = np.tile(CLOTH_BGR.round().astype(np.uint8), (SIDE_PX, SIDE_PX, 1))
    shape = np.zeros((SIDE_PX, SIDE_PX), bool)
    middle = SIDE_PX // 2
    if disc_radius_px is None:
        shape[:, middle - LINE_PX // 2 : middle + LINE_PX // 2 + 1] = True
    else:
        ys, xs = np.mgrid[:SIDE_PX, :SIDE_PX]
        shape = np.hypot(xs - middle, ys - middle) <= disc_radius_px
    image[shape] = np.array(bgr, np.float32).round().astype(np.uint8)
    return image, shape


@pytest.mark.parametrize("case", PIXELS)
def test_only_a_line_of_paint_blurred_into_the_cloth_is_cleared_on_a_marking(case: str) -> None:
    bgr, paint = PIXELS[case]
    image, line = _picture(bgr, None)
    config = ClassicConfig()
    kept = _without_marking_paint(image, line, np.zeros_like(line), _geometry(True), _cloth_at, config)
    assert not kept[line].any() if paint else kept[line].all()
    off_marking = _without_marking_paint(
        image, line, np.zeros_like(line), _geometry(False), _cloth_at, config
    )
    assert off_marking[line].all()


@pytest.mark.parametrize("case", [name for name, (_, paint) in PIXELS.items() if paint])
def test_a_ball_the_colour_of_blurred_paint_on_a_marking_stays_whole(case: str) -> None:
    image, disc = _picture(PIXELS[case][0], 1.5 * RADIUS_PX)
    kept = _without_marking_paint(
        image, disc, np.zeros_like(disc), _geometry(True), _cloth_at, ClassicConfig()
    )
    # the disc's middle is thicker than the lines: only specks at its rim may go
    assert kept[disc].mean() >= 0.9, kept[disc].mean()
    assert kept[SIDE_PX // 2 - 3 : SIDE_PX // 2 + 4, SIDE_PX // 2].all()


SHOWN = {
    # (how much of the line the foreground holds, whether the line is taken out)
    "all of it: the smoothing left the line": (1.0, True),
    "most of it, balls and gaps between": (0.6, True),
    "under half: a ball or two on a line the smoothing removed": (0.4, False),
    "none of it": (0.0, False),
}


@pytest.mark.parametrize("case", SHOWN)
def test_the_lines_are_taken_out_only_where_the_foreground_holds_them(case: str) -> None:
    share, shown = SHOWN[case]
    foreground = np.zeros((SIDE_PX, SIDE_PX), bool)
    foreground[: round(share * SIDE_PX), SIDE_PX // 2] = True
    assert _shows_marking_lines(foreground, _geometry(True), ClassicConfig()) is shown
    assert _shows_marking_lines(foreground, _geometry(False), ClassicConfig()) is False


SAME_PLACE_PX = 0.01
"""A region search of an unchanged picture places a ball where the full detection did."""
WINDOW_HALF_PX = 40
"""The region searches' windows: this far either side of each ball (its core 10 px less)."""
WINDOW_MARGIN_PX = 10


@pytest.mark.parametrize("camera_name", CAMERAS)
def test_a_region_search_takes_the_paint_out_only_where_the_full_detection_did(camera_name: str) -> None:
    """Whether the lines outlast the smoothing is judged once, on the full detection's foreground
    (``ClassicScene.markings_shown``): a window sees too little of them to judge it, and one that
    took the paint out where the full detection had not moved balls on a line off their places (on
    a rendered 960 x 540 broadcast, the green touched by the white 3.6 px)."""
    camera = CAMERAS[camera_name]
    layout = {name: SPOTS[name] for name in ("yellow", "green", "brown")}
    image, labels = Renderer(camera, RenderOptions()).render(layout, np.random.default_rng(3))
    view = camera.table_view()
    detector = ClassicDetector()
    full = detector(image, view)
    boxes = [
        (
            int(b.x_px) - WINDOW_HALF_PX,
            int(b.y_px) - WINDOW_HALF_PX,
            int(b.x_px) + WINDOW_HALF_PX,
            int(b.y_px) + WINDOW_HALF_PX,
        )
        for b in labels.balls
    ]

    def owner(xy: np.ndarray) -> np.ndarray:
        out = np.full(len(xy), -1)
        for k, (x0, y0, x1, y1) in enumerate(boxes):
            core = (xy >= [x0 + WINDOW_MARGIN_PX, y0 + WINDOW_MARGIN_PX]) & (
                xy < [x1 - WINDOW_MARGIN_PX, y1 - WINDOW_MARGIN_PX]
            )
            out[(out < 0) & core.all(axis=1)] = k
        return out

    again = detector.redetect(image, view, boxes, owner)
    assert sorted(again.ball) == sorted(full.ball)
    for name in layout:
        moved = np.linalg.norm(again.xy_px[again.ball == name] - full.xy_px[full.ball == name], axis=1)
        assert moved.max() <= SAME_PLACE_PX, f"the {name} placed {moved.max():.2f} px off by a region search"
