"""The table's length as the calibration finds it on real broadcast stills: coloured balls lying on
their spots read there (``scripts/eval_calibration.py`` gives the figures).

They do not quite: the ones at the ends read 13-21 mm towards the table's middle, as if the table
were stretched (README, "How far the found calibration is off"). These limits keep it from
getting worse, and say by how much it is off today.
"""

from __future__ import annotations

import numpy as np
import pytest

from snooker.pipeline.evaluation import spot_offsets

pytestmark = [pytest.mark.footage, pytest.mark.slow]

MAX_FROM_SPOT_MM = 40.0
"""A coloured ball this close to its spot is taken to lie on it."""
LIMITS_MM = {"yellow": 14.5, "green": 14.5, "brown": 18.5, "blue": 3.5, "pink": 14.5, "black": 22.5}
"""Largest median offset from its spot, along the table, per colour (measured on 2026-12-04:
13.1, 12.8, 17.0, 2.1, 12.8 and 21.1 mm, all towards the middle)."""
ACROSS_LIMIT_MM = 5.5
"""Largest median offset across the table (measured: at most 4.2 mm, the yellow)."""
MIN_BALLS = 15


@pytest.fixture(scope="module")
def offsets(bucharest) -> dict[str, np.ndarray]:
    stills = sorted(p for p in (bucharest / "Task1").glob("*.jpg") if p.stem != "42")
    return {name: np.array(values) for name, values in spot_offsets(stills, MAX_FROM_SPOT_MM).items()}


@pytest.mark.parametrize("colour", sorted(LIMITS_MM))
def test_a_ball_on_its_spot_reads_there(offsets, colour):
    values = offsets[colour]
    assert len(values) >= MIN_BALLS, (colour, len(values))
    dx, dy = np.median(values, axis=0)
    assert abs(dy) <= LIMITS_MM[colour], (colour, dy)
    assert abs(dx) <= ACROSS_LIMIT_MM, (colour, dx)
