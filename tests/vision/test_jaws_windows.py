"""The jaws beyond the cloth's outline read only where a region search looks.

A region search (``ClassicDetector.redetect``) looks inside windows around what changed; the
pockets' jaws beyond the outline (``TableGeometry.jaws``) are compared with their picture with no
ball (``snooker.vision.classic.JawsReference``) only where a window overlaps them
(``JawsReference.look``): a ball rolls into the jaws, so a window takes in the jaws it moves into,
and a ball resting there is kept by the scene while the windows are elsewhere. Rendered frames of
the synthetic broadcast camera (its far corners are seen from the table's side: a ball on their
lip shows with its centre outside the outline)."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.render import Renderer, RenderOptions
from snooker.vision.classic import ClassicDetector

LIP_MM = 38.0
"""How far (mm) the red's centre lies beyond the corner pocket's mouth centre towards its drop
centre (as ``test_jaws_rendered.LIP_MM``)."""
WINDOW_RADII = 4.0
"""A window around a place reaches this many ball radii from it on each side."""
POCKET = "baulk_left"
"""A far corner of the broadcast view."""


def on_the_lip() -> tuple[float, float]:
    """Where a red lies on the far corner's lip (table mm): ``LIP_MM`` beyond its mouth."""
    p = STANDARD_TABLE.pockets[POCKET]
    mouth, drop = np.asarray(p.mouth_centre), np.asarray(p.drop_centre)
    x, y = mouth + LIP_MM * (drop - mouth) / np.linalg.norm(drop - mouth)
    return float(x), float(y)


@pytest.fixture(scope="module")
def rendered():
    """The camera's view, and three frames: the empty table, a red on the far corner's lip, the
    red gone; with the red's place (frame px) and radius (px)."""
    camera = Camera.broadcast((1280, 720))
    renderer = Renderer(camera, RenderOptions())
    empty, _ = renderer.render({}, np.random.default_rng(0))
    red, labels = renderer.render({"red-1": on_the_lip()}, np.random.default_rng(1))
    gone, _ = renderer.render({}, np.random.default_rng(2))
    (label,) = labels.balls
    return camera.table_view(), empty, red, gone, np.array([label.x_px, label.y_px]), float(label.r_px)


def _window(xy: np.ndarray, r: float) -> tuple[int, int, int, int]:
    x0, y0 = np.floor(xy - WINDOW_RADII * r).astype(int)
    x1, y1 = np.ceil(xy + WINDOW_RADII * r).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def _owner(windows):
    def owner(points: np.ndarray) -> np.ndarray:
        out = np.full(len(points), -1)
        for k, (x0, y0, x1, y1) in enumerate(windows):
            inside = (points[:, 0] >= x0) & (points[:, 0] < x1) & (points[:, 1] >= y0) & (points[:, 1] < y1)
            out[(out < 0) & inside] = k
        return out

    return owner


def _far_from_the_jaws(view, r: float) -> tuple[int, int, int, int]:
    """A window around the table's centre spot."""
    centre = np.asarray(
        view.table_to_image(np.array([[STANDARD_TABLE.width_mm / 2, STANDARD_TABLE.length_mm / 2]]))
    )
    return _window(centre.reshape(2), r)


def test_the_jaws_are_read_only_where_a_window_overlaps_them(rendered):
    view, empty, red, _, xy, r = rendered
    detector = ClassicDetector()
    detector(empty, view)
    jaws = detector._jaws
    assert jaws is not None and len(jaws.geometry.jaws) >= 2
    assert len(jaws.look(red, detector.config)) == len(jaws.geometry.jaws)
    assert jaws.look(red, detector.config, [_far_from_the_jaws(view, r)]) == {}
    near = jaws.look(red, detector.config, [_window(xy, r)])
    assert len(near) == 1
    [changed] = near.values()
    assert changed.sum() >= 0.5 * np.pi * r * r, "the red changes the jaws it rests in"


def test_a_red_rolling_into_a_far_corners_jaws_is_found_by_the_region_search_and_kept(rendered):
    """The empty table (full detection); the red on the lip, searched in a window around it
    (found); the same frame searched far from it (kept: nothing changed there); the red gone,
    searched around its place (no ball, no unnamed place: the jaws' picture was not taken while
    the red was kept there)."""
    view, empty, red, gone, xy, r = rendered
    detector = ClassicDetector()
    assert len(detector(empty, view)) == 0
    near, far = [_window(xy, r)], [_far_from_the_jaws(view, r)]
    steps = [(red, near), (red, far), (gone, near), (gone, far)]
    found = [detector.redetect(frame, view, windows, _owner(windows)) for frame, windows in steps]
    assert [list(f.ball) for f in found] == [["red"], ["red"], [], []]
    assert all(len(f.unnamed_xy_px) == 0 for f in found)
    error = float(np.linalg.norm(found[0].xy_px[0] - xy))
    assert error <= 0.5 * r, f"the red is found {error:.2f} px off"
