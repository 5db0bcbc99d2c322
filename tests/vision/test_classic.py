"""The classical detector on synthetic stills with exact ground truth (table-driven)."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic import Scene, make_view, render

from snooker.balls import BALL_NAMES
from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import ClassicConfig, ClassicDetector, detect_balls
from snooker.vision.detector import BallDetector

SPOTS = STANDARD_TABLE.spots
COLOURS_ON_SPOTS = [(name, *SPOTS[name]) for name in ("yellow", "green", "brown", "blue", "pink", "black")]
R = STANDARD_TABLE.ball_diameter_mm  # centre distance of touching balls


@pytest.fixture(scope="module")
def view():
    return make_view()


CASES = {
    "colours on their spots, cue ball and reds apart": Scene(
        balls=[*COLOURS_ON_SPOTS, ("white", 1400, 500), ("red", 300, 1200), ("red", 1500, 2900)]
    ),
    "two touching reds side by side": Scene(balls=[("red", 800, 2200), ("red", 800 + R, 2200)]),
    "two touching reds one behind the other": Scene(balls=[("red", 800, 2200), ("red", 800, 2200 + R)]),
    "a triangle of six touching reds": Scene(
        balls=[
            ("red", 889 + dx * R / 2, 2750 + row * R * np.sqrt(3) / 2)
            for row, dxs in enumerate([[0], [-1, 1], [-2, 0, 2]])
            for dx in dxs
        ]
    ),
    "pink and black touching reds": Scene(
        balls=[("pink", 889, SPOTS["pink"][1]), ("red", 889, SPOTS["pink"][1] + R), ("black", 889, 3245)]
    ),
    "a cue aimed at the cue ball": Scene(balls=[("white", 1400, 1700)], cue=((1750, 1400), (1430, 1670))),
    "a cue lying over bare cloth": Scene(balls=[("blue", 889, 1784)], cue=((300, 2500), (900, 3000))),
    "chalk marks on the cloth": Scene(balls=[("brown", *SPOTS["brown"])], chalk=[(500, 1000), (1200, 2500)]),
    "a player's shadow across the cloth": Scene(
        balls=[("green", *SPOTS["green"])], shadow=((200, 3000), (700, 2400))
    ),
    "reflections on the cloth": Scene(balls=[("black", 889, 3245)], glare=[(600, 1500), (1300, 2600)]),
    "dark pocket openings": Scene(balls=[("yellow", *SPOTS["yellow"])], pocket_shadows=True),
    "motion blur": Scene(
        balls=[*COLOURS_ON_SPOTS, ("white", 1400, 600), ("red", 400, 2000)], motion_blur_px=5
    ),
    "strong vignetting": Scene(balls=[*COLOURS_ON_SPOTS, ("white", 900, 400)], lighting_gradient=0.4),
    "balls resting in the jaws of a corner and a middle pocket": Scene(
        balls=[("red", STANDARD_TABLE.width_mm - 17, STANDARD_TABLE.length_mm - 17), ("blue", 4, 1784.5)]
    ),
}


@pytest.mark.parametrize("scene", CASES.values(), ids=CASES.keys())
def test_finds_and_names_every_ball(scene: Scene, view) -> None:
    detections = detect_balls(render(scene, view), view)
    expected = {name: sum(b[0] == name for b in scene.balls) for name in BALL_NAMES}
    assert detections.counts() == expected


@pytest.mark.parametrize("scene", CASES.values(), ids=CASES.keys())
def test_positions_are_within_a_ball_radius(scene: Scene, view) -> None:
    detections = detect_balls(render(scene, view), view)
    truth = np.array([b[1:] for b in scene.balls], dtype=float)
    gaps = np.linalg.norm(detections.xy_mm[:, None] - truth[None], axis=2).min(axis=1)
    assert np.all(gaps < STANDARD_TABLE.ball_radius_mm), gaps


def test_empty_table_has_no_balls(view) -> None:
    assert len(detect_balls(render(Scene(), view), view)) == 0


def test_detector_object_satisfies_the_protocol(view) -> None:
    detector = ClassicDetector(ClassicConfig())
    assert isinstance(detector, BallDetector)
    detections = detector(render(Scene(balls=[("white", 900, 900)]), view), view)
    assert list(detections.ball) == ["white"]
    assert 0.0 <= detections.confidence[0] <= 1.0
    assert detections.radius_px[0] == pytest.approx(float(view.ball_radius_px(detections.xy_mm[0])), rel=0.2)


def test_a_view_whose_table_is_off_the_image_gives_nothing(view) -> None:
    class NoArea:
        def playing_area_mask(self, shape):
            return np.zeros(shape[:2], np.uint8)

    assert len(detect_balls(render(Scene(balls=[("red", 900, 900)]), view), NoArea())) == 0  # type: ignore[arg-type]


def test_detector_reuses_the_geometry_of_one_view(view) -> None:
    detector = ClassicDetector()
    scene = render(Scene(balls=[("red", 500, 900), ("pink", *SPOTS["pink"])]), view)
    first, second = detector(scene, view), detector(scene, view)
    assert detector._cached is not None and detector._cached[0] is view
    assert np.array_equal(first.xy_px, second.xy_px)
    assert np.array_equal(first.xy_px, detect_balls(scene, view).xy_px)
