"""The jaws beyond the cloth's outline widen the crop only on frames where they changed.

A crop that takes in the jaws beyond the playing area (``ClassicDetector.jaws_geometry``) has
other cloth cells (48 px squares from the crop's corner), another radius grid and another median
radius than the crop of the playing area alone (``ClassicDetector.geometry``): with it on every
frame, the cloth model moved everywhere and Task1 stills under broadcast looks gained or lost
balls far from any pocket (4.jpg at JPEG quality 30 gained a green on the near cushion). A frame
whose jaws show no change against their picture with no ball (``JawsReference``) is detected on
the crop of the playing area alone, as by a detector without the jaws search; one with a ball in
the jaws, on the wider crop. Rendered frames of the synthetic broadcast camera (its far corners
are seen from the table's side: a ball on their lip shows with its centre outside the outline)."""

from __future__ import annotations

import numpy as np
import pytest
from test_jaws_windows import on_the_lip

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.render import Renderer, RenderOptions
from snooker.vision.classic import ClassicDetector, detect_balls

ON_THE_CLOTH = {"red-1": (900.0, 1200.0), "black": (889.0, 3237.0), "blue": (889.0, 1778.0)}
"""Balls on the cloth, away from the pockets (table mm)."""


@pytest.fixture(scope="module")
def rendered():
    camera = Camera.broadcast((1280, 720))
    renderer = Renderer(camera, RenderOptions())
    frames = [
        renderer.render(balls, np.random.default_rng(k))[0]
        for k, balls in enumerate([{}, ON_THE_CLOTH, {"red-2": on_the_lip(), **ON_THE_CLOTH}, ON_THE_CLOTH])
    ]
    return camera.table_view(), frames


def _crop(geometry) -> tuple[int, int, int, int]:
    return geometry.x0, geometry.y0, geometry.x1, geometry.y1


def test_the_jaws_widen_the_crop_only_while_they_changed(rendered):
    view, (empty, cloth, lip, cloth_again) = rendered
    detector = ClassicDetector()
    plain = detector.geometry(view, empty.shape)
    wide = detector.jaws_geometry(view, empty.shape)
    assert plain is not None and wide is not None and plain.jaws == () and len(wide.jaws) >= 2
    assert wide.y0 < plain.y0, "the far corners' jaws lie above the playing area's crop"
    crops = []
    for frame in (empty, cloth, lip, cloth_again):
        detector(frame, view)
        crops.append(_crop(detector.scene.geometry))
    assert crops == [_crop(plain), _crop(plain), _crop(wide), _crop(plain)]
    assert sorted(detector(lip, view).ball) == ["black", "blue", "red", "red"]


def test_a_frame_whose_jaws_did_not_change_is_detected_as_without_the_jaws_search(rendered):
    view, (empty, cloth, _, _) = rendered
    detector = ClassicDetector()
    detector(empty, view)
    found, alone = detector(cloth, view), detect_balls(cloth, view)
    assert sorted(found.ball) == ["black", "blue", "red"]
    assert list(found.ball) == list(alone.ball)
    np.testing.assert_array_equal(found.xy_px, alone.xy_px)
    np.testing.assert_array_equal(found.radius_px, alone.radius_px)
    np.testing.assert_array_equal(found.confidence, alone.confidence)
