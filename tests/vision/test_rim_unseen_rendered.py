"""A ball is centred on the part of its rim that can be seen: rays that cannot see it (beyond the
playing area, by the far cushion) are not counted (``ClassicConfig.rim_cut_min_rays``). Rendered
broadcast views (table-driven; each row failed before)."""

from __future__ import annotations

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.render import Renderer, RenderOptions
from snooker.vision.classic import ClassicDetector

RADIUS = STANDARD_TABLE.ball_radius_mm
CENTRE_ERROR_RADII = 0.12
"""A ball is found within this fraction of its radius of its rendered centre (about a pixel on the
broadcast view; the rows were 0.14-0.65 radii off, and are 0.01-0.08 off now)."""


ROWS = {
    # a white 30 mm off the baulk cushion, at the top of the picture, rises over the cushion's
    # nose line: its upper rays found the area's edge
    "white 30 mm off the baulk cushion, left": {"white": (300.0, RADIUS + 30.0)},
    "white 30 mm off the baulk cushion, centre": {"white": (889.0, RADIUS + 30.0)},
    "white 30 mm off the baulk cushion, right": {"white": (1500.0, RADIUS + 30.0)},
}


@pytest.mark.parametrize("row", ROWS)
def test_a_ball_whose_rim_is_partly_unseen_is_centred_on_what_is_seen(row: str) -> None:
    assert_centred_on_broadcast(ROWS[row], CENTRE_ERROR_RADII)


def assert_centred_on_broadcast(balls: dict[str, tuple[float, float]], tolerance_radii: float) -> None:
    """Render ``balls`` (name: table mm) on the 1280 × 720 broadcast view and check that the classic
    detector finds each, named so, within ``tolerance_radii`` of its radius of its rendered centre."""
    camera = Camera.broadcast((1280, 720))
    image, labels = Renderer(camera, RenderOptions()).render(balls, np.random.default_rng(0))
    found = ClassicDetector()(image, camera.table_view())
    for label in labels.balls:
        same = found.ball == label.ball
        assert same.any(), f"the {label.id} at ({label.x_px:.1f}, {label.y_px:.1f}) px is not found"
        error = np.linalg.norm(found.xy_px[same] - [label.x_px, label.y_px], axis=1).min()
        assert error <= tolerance_radii * label.r_px, f"the {label.id} is found {error:.2f} px off"
