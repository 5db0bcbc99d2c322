"""The cloth in shade counts as cloth on the circle a candidate must stand out from.

``ClassicConfig.ring_shade_max_lightness_ratio``, ``ring_shade_min_chroma_share`` and
``ring_shade_max_hue_deg``: a shadow on the cloth (a player's arm, the cue, a ball's own) is
foreground, and a ball lying in one was judged as if covered (Task1 12.jpg's brown in the shadow of
the arm and the cue; 40.jpg's white under the magenta tint: the still rows are in
``test_recurring_stills_footage.py``). Rows here are built pictures: the cloth, and points of the
circle around a candidate painted in shade or in something else.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.classic import ClassicConfig

CLOTH_BGR = np.array([20.0, 140.0, 40.0])
"""A broadcast's green cloth."""
SIDE_PX = 80
RADIUS_PX = 10.0
BALL_DISC_RADII = 1.05
"""The candidate's own foreground: a disc this many radii wide (its rim blurred a little beyond)."""


def _cloth_at(ix: np.ndarray, iy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cloth model of the built pictures: one colour everywhere (the cloth model's chromaticity
    is B, G, R over B+G+R + the dark floor, its brightness B+G+R)."""
    floor = ClassicConfig().cloth.dark_chroma_floor
    chroma = CLOTH_BGR / (CLOTH_BGR.sum() + floor)
    return np.tile(chroma, (len(ix), 1)), np.full(len(ix), CLOTH_BGR.sum())


def _shade(factor: float) -> np.ndarray:
    """The cloth darkened by ``factor`` (a shadow: every channel scaled alike)."""
    return np.round(factor * CLOTH_BGR)


@pytest.mark.parametrize(
    ("bgr", "shaded"),
    [
        (_shade(0.4), True),  # a shadow: darker, the cloth's hue, its chroma scaled down with it
        (_shade(0.7), True),
        (CLOTH_BGR, False),  # the cloth itself is not shade (and is not foreground)
        (_shade(0.95), False),  # near the cloth's lightness: an edge blurred into it, not shade
        (np.array([60.0, 60.0, 60.0]), False),  # dark grey: no hue (a sleeve)
        (np.array([40.0, 70.0, 60.0]), False),  # greyer than shade (a ball's own shadow under it)
        (np.array([30.0, 60.0, 90.0]), False),  # a brown: another hue
        (np.array([90.0, 110.0, 20.0]), False),  # a bluish green: another hue (37° off the cloth's)
    ],
)
def test_shaded_cloth(bgr: np.ndarray, shaded: bool) -> None:
    from snooker.vision.classic import _shaded_cloth

    image = np.zeros((4, 4, 3), np.uint8)
    image[:] = np.clip(bgr, 0, 255).astype(np.uint8)
    got = _shaded_cloth(image, _cloth_at, np.array([[1.0, 2.0]]), ClassicConfig())
    assert got.tolist() == [shaded]


def _ring_point(config: ClassicConfig, k: int) -> tuple[int, int]:
    angle = 2 * np.pi * k / config.ring_samples
    reach = config.intruder_ball_ring * RADIUS_PX
    centre = SIDE_PX / 2
    return round(centre + reach * np.cos(angle)), round(centre + reach * np.sin(angle))


# What covers the circle's points around a candidate: (first point, last point, what) with
# "shade" (the cloth in shade), "hand" (skin) or "ball" (a ball's own dark shadow); points are
# numbered from the right, clockwise in the picture (y down), taken modulo 32.
ARC = (26, 44)
"""19 of the 32 points, from the upper left over the right to below it: 13 left lit, 0.41 of the
circle (below ``intruder_ball_min_cloth``)."""


@pytest.mark.parametrize(
    ("highlight", "cover", "kept"),
    [
        (True, [(*ARC, "shade")], True),  # a ball in an arm's shadow
        (True, [(*ARC, "hand")], False),  # ...the same points a hand's: not a ball
        (True, [(*ARC, "shade"), (14, 16, "hand")], True),  # the cue's tip by it on one side
        (True, [(*ARC, "shade"), (9, 11, "hand"), (25, 27, "hand")], False),  # inside a hand
        (False, [(4, 14, "shade"), (7, 9, "ball")], True),  # the white, its shadow and the cue's
        (False, [(4, 14, "ball")], False),  # ...its own dark shadow alone, as wide: blocked
    ],
)
def test_plausible_counts_shade_as_cloth(
    highlight: bool, cover: list[tuple[int, int, str]], kept: bool
) -> None:
    from snooker.vision.classic import _plausible

    config = ClassicConfig()
    colours = {
        "shade": _shade(0.6),
        "hand": np.array([120.0, 150.0, 210.0]),
        "ball": np.array([25.0, 35.0, 30.0]),
    }
    image = np.empty((SIDE_PX, SIDE_PX, 3), np.uint8)
    image[:] = CLOTH_BGR.astype(np.uint8)
    foreground = np.zeros((SIDE_PX, SIDE_PX), bool)
    yy, xx = np.mgrid[:SIDE_PX, :SIDE_PX]
    centre = SIDE_PX / 2
    foreground[(xx - centre) ** 2 + (yy - centre) ** 2 <= (BALL_DISC_RADII * RADIUS_PX) ** 2] = True
    for first, last, what in cover:
        for k in range(first, last + 1):
            x, y = _ring_point(config, k % config.ring_samples)
            image[y - 1 : y + 2, x - 1 : x + 2] = colours[what].astype(np.uint8)
            foreground[y - 1 : y + 2, x - 1 : x + 2] = True
    everywhere = np.ones((SIDE_PX, SIDE_PX), bool)
    g = SimpleNamespace(
        radius=np.full((SIDE_PX, SIDE_PX), RADIUS_PX, np.float32), inner=everywhere, area=everywhere
    )
    centre_mm = np.array([[STANDARD_TABLE.width_mm / 2, STANDARD_TABLE.length_mm / 2]])
    got = _plausible(
        np.array([[centre, centre]]),
        np.array([highlight]),
        foreground,
        foreground,
        g,
        centre_mm,
        np.array([True]),  # in a region coming over the cushions: must stand out
        config,
        np.array([False]),
        image=image,
        cloth_at=_cloth_at,
    )
    assert got.tolist() == [kept]
