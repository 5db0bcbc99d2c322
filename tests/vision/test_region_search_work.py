"""The work a region search does, counted (the same answers, less computing): the mosaic's
foreground regions are labelled once per search however often its candidates are asked whether
they lie in a region coming over the cushions (table-driven, synthetic stills)."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic import Scene, make_view, render

import snooker.vision.classic as classic
from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import ClassicConfig, ClassicDetector, _CropRegions, _Mosaic, _MosaicIntruders

D = STANDARD_TABLE.ball_diameter_mm


@pytest.fixture(scope="module")
def view():
    return make_view()


SEARCHES = {
    # (the balls at rest, the balls that arrive in the searched windows, the cue (table mm) or None)
    "two balls arrive apart in one window": (
        [("pink", 889.0, 2700.0)],
        [("red", 700.0, 1500.0), ("blue", 900.0, 1500.0)],
        None,
    ),
    "two touching balls arrive": ([], [("red", 800.0, 1500.0), ("white", 800.0 + D, 1500.0)], None),
    "three balls arrive, a cue over the cushion to one": (
        [],
        [("white", 1400.0, 1700.0), ("red", 1200.0, 1500.0), ("yellow", 1000.0, 1700.0)],
        ((1750.0, 1400.0), (1430.0, 1670.0)),
    ),
}


def _window_around(view, balls, margin_radii: float = 6.0) -> tuple[int, int, int, int]:
    xy = view.table_to_image(np.array([[x, y] for _, x, y in balls], dtype=float))
    reach = margin_radii * float(view.ball_radius_px(np.array([balls[0][1:]], dtype=float))[0])
    x0, y0 = xy.min(axis=0) - reach
    x1, y1 = xy.max(axis=0) + reach
    return int(x0), int(y0), int(x1), int(y1)


@pytest.mark.parametrize(("resting", "arriving", "cue"), SEARCHES.values(), ids=SEARCHES.keys())
def test_a_region_search_labels_its_mosaic_once(resting, arriving, cue, view, monkeypatch) -> None:
    # A search asks which candidates come over the cushions several times (the highlights judged on
    # the loose body, the pairs of distinct highlights, every candidate): the regions are the same
    # each time, and labelling the mosaic is the dear part of an ask.
    detector = ClassicDetector()
    detector(render(Scene(balls=resting), view), view)
    image = render(Scene(balls=[*resting, *arriving], cue=cue), view)
    window = _window_around(view, arriving)
    labelled = []
    original = classic._regions_touching

    def counting(mask, band):
        labelled.append(mask.shape)
        return original(mask, band)

    monkeypatch.setattr(classic, "_regions_touching", counting)
    asked = []
    call = _MosaicIntruders.__call__

    def asking(self, centres):
        asked.append(len(centres))
        return call(self, centres)

    monkeypatch.setattr(_MosaicIntruders, "__call__", asking)
    found = detector.redetect(image, view, [window], lambda xy: np.zeros(len(xy), dtype=int))
    assert sum(n > 0 for n in asked) >= 2  # the search asked more than once
    assert len(labelled) == 1
    assert len(found) >= len(arriving)


BALLS = [
    ("white", 1400.0, 1700.0),
    ("red", 1200.0, 1500.0),
    ("black", 889.0, 3245.0),
    ("blue", 100.0, 1000.0),
]
"""The balls of the mosaics' frame, with a cue over the cushion to the white."""
ASKS = {
    # the balls the mosaic's windows are made around (indices of BALLS), each window's margin (ball
    # radii), and the seed of the candidates asked
    "one window": ([[0]], 5.0, 0),
    "one window over two balls and the cue": ([[0, 1]], 6.0, 1),
    "two windows, one by the cushion": ([[2], [3]], 4.0, 2),
    "three windows, one cutting the cue": ([[0], [1], [3]], 2.5, 3),
}


@pytest.mark.parametrize(("around", "margin", "seed"), ASKS.values(), ids=ASKS.keys())
def test_a_mosaics_intruders_answer_every_ask_as_a_fresh_labelling_does(around, margin, seed, view) -> None:
    # The labelling kept from the first ask gives every later ask (other centres, some in regions a
    # window's edge cuts, followed over the crop) the answer a labelling of its own gives.
    config = ClassicConfig()
    detector = ClassicDetector(config)
    detector(render(Scene(balls=BALLS), view), view)
    image = render(Scene(balls=BALLS, cue=((1750.0, 1400.0), (1430.0, 1670.0))), view)
    windows = [_window_around(view, [BALLS[i] for i in which], margin) for which in around]
    scene = detector.scene
    mosaic = _Mosaic.of(image, scene, windows, config)
    assert mosaic is not None
    foreground, _, _ = mosaic.cloth_masks(config, scene.markings_shown)
    kept = _MosaicIntruders(_CropRegions(scene, config), foreground, mosaic)
    rng = np.random.default_rng(seed)
    h, w = foreground.shape
    on = np.argwhere(foreground)
    for _ in range(6):
        # centres on the foreground (in regions) and anywhere, rounded or not
        picks = on[rng.integers(0, len(on), 5)][:, ::-1].astype(float) + rng.uniform(-0.5, 0.5, (5, 2))
        anywhere = rng.uniform([0, 0], [w - 1, h - 1], (3, 2))
        centres = np.concatenate([picks, anywhere])
        fresh = _MosaicIntruders(_CropRegions(scene, config), foreground, mosaic)
        assert np.array_equal(kept(centres), fresh(centres))
    assert len(kept(np.zeros((0, 2)))) == 0
