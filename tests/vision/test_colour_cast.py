"""A colour cast (another broadcast's white balance) moves light balls further than dark ones.

A camera's or grade's white balance multiplies the red, green and blue channels: in Lab it pulls
the white and the yellow several times further than the reds and the black (a green tint of 8 %
makes the white 14 units greener, a red 3). The frame transform's constant a/b shift, fitted
mostly to the fifteen reds, could not follow the white: a full table graded so left the white
unnamed. Here the balls of a table (their models' colours, the white as a real broadcast shows
it) are graded in memory by each look's channel gains, as ``snooker.vision.photometric`` grades
the stills, and labelled jointly.
"""

from __future__ import annotations

import numpy as np
import pytest

from snooker.balls import COLOURS, CUE_BALL, RED
from snooker.vision.colour import (
    FEATURE_NAMES,
    ColourConfig,
    _bgr_of,
    _lab_of,
    label_balls,
)
from snooker.vision.photometric import Perturbation

CONFIG = ColourConfig()
NAMES = [CUE_BALL, *COLOURS, *[RED] * 15]
WHITE_SEEN = (210.0, -20.0, 41.0)
"""The cue ball's core as Task1 still 30 shows it (ungraded): greener and yellower than the white's
model mean (232.9, -14.0, 31.5), well within its spread."""
CLOTH_LAB = (99.0, -41.0, 38.0)
"""That still's cloth."""
LOOKS = {
    # name: the channel gains (B, G, R) of one of photometric's looks
    "green tint": (0.95, 1.08, 0.95),
    "magenta tint": (1.05, 0.92, 1.05),
    "warm": (0.88, 1.0, 1.12),
    "cool": (1.12, 1.0, 0.88),
    "yellow tint": (0.88, 1.04, 1.04),
    "blue tint": (1.12, 0.98, 0.98),
}
STRENGTHS = (1.0, 2.0)
"""Each look as photometric makes it, and twice as strong (its gains squared: a green tint of
17 %, red and blue 0.26 below green in natural-log units; the white balances of the Task1 stills'
broadcasts differ from the models' by up to 0.17)."""
CASTS = {
    f"{name} x{strength:g}": tuple(float(g**strength) for g in gains)
    for strength in STRENGTHS
    for name, gains in LOOKS.items()
}


def graded_table(gains: tuple[float, float, float]) -> np.ndarray:
    """(22, 7) features of a full table whose balls' colours, in 8-bit BGR, went through a look
    with channel gains ``gains`` (the cloth too)."""
    lab = np.array([WHITE_SEEN, *[CONFIG.models[name][0] for name in NAMES[1:]], CLOTH_LAB])
    patches = np.repeat(_bgr_of(lab).astype(np.uint8)[:, None, :], 4, axis=1)
    seen = _lab_of(Perturbation("cast", channel_gains_bgr=gains).apply(patches)[:, 0].astype(float))
    balls, cloth = seen[:-1], seen[-1]
    distance = np.full((len(balls), 1), 1.0)
    table = np.hstack([balls, distance, np.repeat(cloth[None], len(balls), axis=0)])
    return table.reshape(-1, len(FEATURE_NAMES))


@pytest.mark.parametrize("gains", CASTS.values(), ids=CASTS.keys())
def test_a_table_under_a_colour_cast_is_named_whole(gains) -> None:
    # before the cast was modelled: the white left unnamed under the green tint twice as strong
    table = graded_table(gains)
    labelling = label_balls(table, CONFIG, glossy=np.ones(len(table), dtype=bool))
    assert list(labelling.labels) == NAMES


def test_an_ungraded_table_fits_no_cast() -> None:
    labelling = label_balls(graded_table((1.0, 1.0, 1.0)), CONFIG, glossy=np.ones(len(NAMES), dtype=bool))
    assert list(labelling.labels) == NAMES
    assert abs(labelling.transform.red_cast) < 0.05 and abs(labelling.transform.blue_cast) < 0.05


@pytest.mark.parametrize("gains", CASTS.values(), ids=CASTS.keys())
def test_the_fitted_cast_points_the_way_the_look_moved_the_channels(gains) -> None:
    # red and blue against green, in natural-log units: the sign of each, where the look moved it
    labelling = label_balls(graded_table(gains), CONFIG, glossy=np.ones(len(NAMES), dtype=bool))
    blue, green, red = np.log(gains)
    transform = labelling.transform
    for fitted, moved in ((transform.red_cast, red - green), (transform.blue_cast, blue - green)):
        if abs(moved) > 0.05:
            assert np.sign(fitted) == np.sign(moved), (fitted, moved)
