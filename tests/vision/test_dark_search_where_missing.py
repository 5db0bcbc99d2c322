"""A region search looks for a dark ball blurred in flight only where one can be missing
(``ClassicConfig.dark_blobs_where_missing``): the full detection looks everywhere, a region search
where the caller has lost a ball that may be dark, or where a window's known balls are not all
found again by the other candidates. A search where every known ball is found again and nothing
is missing does not look (the search cost ~0.6 ms a frame of region searches that never needed it).
"""

from __future__ import annotations

import numpy as np
import pytest

import snooker.vision.classic as classic
from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.render import Renderer, RenderOptions
from snooker.vision.classic import ClassicConfig, ClassicDetector
from snooker.vision.detector import MissingBalls, RegionDetector
from snooker.vision.photometric import perturbation_named

SIZE = (1280, 720)
LOOK = "saturated"
"""A grading under which the blurred black differs from the cloth in brightness alone: only the
dark-blob search finds it (checked below)."""
TRAVEL_MM = 250.0
"""How far the black runs while the shutter is open (Task2 clip 6's black: about 250 mm)."""
SHUTTER_SAMPLES = 7
DIRECTION = np.array([1.0, 0.3]) / np.hypot(1.0, 0.3)
BLACK_AT_MM = np.array([600.0, 1500.0])
"""Where the black rests before it is struck."""
FLIGHT_START_MM = 300.0
"""How far from its rest the black's streak begins (mm) on the searched frame."""
RESTING = {"white": (300.0, 700.0), "pink": STANDARD_TABLE.spots["pink"], "red": (1300.0, 2500.0)}
RED_NUDGE_MM = np.array([20.0, 0.0])
FOUND_WITHIN_RADII = 0.5


@pytest.fixture(scope="module")
def camera() -> Camera:
    return Camera.overhead(SIZE)


def _render(camera: Camera, layout: dict, motion: dict | None = None) -> tuple[np.ndarray, object]:
    image, labels = Renderer(camera, RenderOptions()).render(layout, np.random.default_rng(0), motion=motion)
    return perturbation_named(LOOK).apply(image), labels


def _box(camera: Camera, points_mm: np.ndarray, margin_radii: float) -> tuple[int, int, int, int]:
    view = camera.table_view()
    xy = view.table_to_image(np.asarray(points_mm, dtype=float).reshape(-1, 2))
    reach = margin_radii * float(
        np.max(view.ball_radius_px(np.asarray(points_mm, dtype=float).reshape(-1, 2)))
    )
    (x0, y0), (x1, y1) = xy.min(axis=0) - reach, xy.max(axis=0) + reach
    return int(x0), int(y0), int(x1), int(y1)


def _owner_of(core: tuple[int, int, int, int]):
    """``owner`` of one window whose core is the frame box ``core``."""

    def owner(xy_px: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = core
        inside = (xy_px[:, 0] >= x0) & (xy_px[:, 0] < x1) & (xy_px[:, 1] >= y0) & (xy_px[:, 1] < y1)
        return np.where(inside, 0, -1)

    return owner


def _grown(box: tuple[int, int, int, int], margin: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return x0 - margin, y0 - margin, x1 + margin, y1 + margin


class _CountingDarkSearch:
    def __init__(self, monkeypatch) -> None:
        self.calls = 0
        original = classic._dark_blobs

        def counting(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(classic, "_dark_blobs", counting)


def _places(found, near: np.ndarray, reach: float) -> int:
    places = np.concatenate([found.xy_px.reshape(-1, 2), found.unnamed_xy_px.reshape(-1, 2)])
    return int(np.count_nonzero(np.linalg.norm(places - near, axis=1) <= reach))


def _flight(camera: Camera):
    """The frame with the black at rest, and the one with it blurred in flight (image, the black's
    label)."""
    radius = STANDARD_TABLE.ball_radius_mm
    start = BLACK_AT_MM + FLIGHT_START_MM * DIRECTION
    along = np.linspace(0.0, TRAVEL_MM, SHUTTER_SAMPLES)[:, None] * DIRECTION
    path = np.column_stack([start + along, np.full(SHUTTER_SAMPLES, radius)])
    middle = start + DIRECTION * TRAVEL_MM / 2.0
    before, _ = _render(camera, {**RESTING, "black": tuple(BLACK_AT_MM)})
    during, labels = _render(camera, {**RESTING, "black": tuple(middle)}, motion={"black": path})
    black = next(label for label in labels.balls if label.ball == "black")
    return before, during, black, start, middle


def test_the_classic_detector_is_a_region_detector() -> None:
    assert isinstance(ClassicDetector(), RegionDetector)


def test_a_region_search_finding_its_known_balls_again_does_not_look_for_dark_blobs(
    camera, monkeypatch
) -> None:
    view = camera.table_view()
    detector = ClassicDetector()
    before, _ = _render(camera, {**RESTING, "black": tuple(BLACK_AT_MM)})
    detector(before, view)
    moved = np.array(RESTING["red"]) + RED_NUDGE_MM
    image, _ = _render(camera, {**RESTING, "red": tuple(moved), "black": tuple(BLACK_AT_MM)})
    core = _box(camera, np.array([RESTING["red"], moved]), 1.5)
    counted = _CountingDarkSearch(monkeypatch)
    found = detector.redetect(image, view, [_grown(core, 30)], _owner_of(core), MissingBalls.none())
    assert counted.calls == 0
    red = view.table_to_image(moved[None])[0]
    assert _places(found, red, FOUND_WITHIN_RADII * float(view.ball_radius_px(moved[None])[0])) == 1


def test_the_full_detection_still_looks_everywhere(camera, monkeypatch) -> None:
    counted = _CountingDarkSearch(monkeypatch)
    before, _ = _render(camera, {**RESTING, "black": tuple(BLACK_AT_MM)})
    ClassicDetector()(before, camera.table_view())
    assert counted.calls == 1


def test_a_black_struck_from_a_window_that_knew_it_is_found_blurred(camera) -> None:
    # the window's core holds the black's rest and its flight: the black known there is not found
    # again by the other candidates, so the window looks for dark blobs
    view = camera.table_view()
    before, during, black, start, _ = _flight(camera)
    detector = ClassicDetector()
    detector(before, view)
    end = start + TRAVEL_MM * DIRECTION
    core = _box(camera, np.array([BLACK_AT_MM, end]), 1.5)
    found = detector.redetect(during, view, [_grown(core, 30)], _owner_of(core), MissingBalls.none())
    assert _places(found, np.array([black.x_px, black.y_px]), FOUND_WITHIN_RADII * black.r_px) == 1


def test_a_black_lost_in_flight_is_found_blurred_where_no_window_knew_it(camera) -> None:
    # the black left its rest unseen (lost on an earlier frame); the window holds only its flight:
    # only what the caller knows tells the search to look
    view = camera.table_view()
    before, during, black, start, _ = _flight(camera)
    detector = ClassicDetector()
    detector(before, view)
    end = start + TRAVEL_MM * DIRECTION
    core = _box(camera, np.array([start, end]), 1.5)
    window, owner = _grown(core, 30), _owner_of(core)
    where = view.table_to_image(BLACK_AT_MM[None])
    lost = MissingBalls(where, np.array(["black"], dtype=object), np.array([0.9]), np.array([2]))
    found = detector.redetect(during, view, [window], owner, lost)
    assert _places(found, np.array([black.x_px, black.y_px]), FOUND_WITHIN_RADII * black.r_px) == 1
    # ...which it needs: told nothing, the window finds no ball there, and with no dark-blob
    # search at all the black is not found under this look
    for config, missing in ((ClassicConfig(), MissingBalls.none()), (ClassicConfig(dark_blobs=False), lost)):
        again = ClassicDetector(config)
        again(before, view)
        unseen = again.redetect(during, view, [window], owner, missing)
        assert _places(unseen, np.array([black.x_px, black.y_px]), FOUND_WITHIN_RADII * black.r_px) == 0


@pytest.mark.parametrize(
    ("name", "confidence", "looks"),
    [("black", 0.9, True), ("blue", 0.9, True), ("red", 0.9, False), ("red", 0.3, True)],
)
def test_a_missing_ball_that_may_be_dark_makes_every_window_look(
    camera, monkeypatch, name: str, confidence: float, looks: bool
) -> None:
    view = camera.table_view()
    detector = ClassicDetector()
    before, _ = _render(camera, {**RESTING, "black": tuple(BLACK_AT_MM)})
    detector(before, view)
    moved = np.array(RESTING["red"]) + RED_NUDGE_MM
    image, _ = _render(camera, {**RESTING, "red": tuple(moved), "black": tuple(BLACK_AT_MM)})
    core = _box(camera, np.array([RESTING["red"], moved]), 1.5)
    lost = MissingBalls(
        np.array([[100.0, 100.0]]), np.array([name], dtype=object), np.array([confidence]), np.array([1])
    )
    counted = _CountingDarkSearch(monkeypatch)
    detector.redetect(image, view, [_grown(core, 30)], _owner_of(core), lost)
    assert counted.calls == int(looks)


@pytest.mark.parametrize(
    ("when", "looks"),
    [("a frame ago", True), ("at the limit", True), ("just beyond", False), ("long ago", False)],
)
def test_only_a_dark_ball_lost_recently_makes_every_window_look(
    camera, monkeypatch, when: str, looks: bool
) -> None:
    # a black lost long ago (mostly potted: gone for good) no longer makes every window look; one
    # lost within ``dark_blob_missing_frames`` (in flight, blurred anywhere) does
    config = ClassicConfig()
    limit = config.dark_blob_missing_frames
    age = {"a frame ago": 1, "at the limit": limit, "just beyond": limit + 1, "long ago": max(limit + 1, 25)}[
        when
    ]
    view = camera.table_view()
    detector = ClassicDetector(config)
    before, _ = _render(camera, {**RESTING, "black": tuple(BLACK_AT_MM)})
    detector(before, view)
    moved = np.array(RESTING["red"]) + RED_NUDGE_MM
    image, _ = _render(camera, {**RESTING, "red": tuple(moved), "black": tuple(BLACK_AT_MM)})
    core = _box(camera, np.array([RESTING["red"], moved]), 1.5)
    lost = MissingBalls(
        np.array([[100.0, 100.0]]), np.array(["black"], dtype=object), np.array([0.9]), np.array([age])
    )
    counted = _CountingDarkSearch(monkeypatch)
    detector.redetect(image, view, [_grown(core, 30)], _owner_of(core), lost)
    assert counted.calls == int(looks)


def test_a_negative_dark_blob_missing_frames_is_refused() -> None:
    with pytest.raises(ValueError, match="dark_blob_missing_frames"):
        ClassicConfig(dark_blob_missing_frames=-1)
