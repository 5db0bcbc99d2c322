"""The standard table's geometry: spots, D, pockets and rack as the rules describe them."""

import math

import numpy as np
import pytest

from snooker.calibration.table import STANDARD_TABLE, TableSpec


def test_spots_follow_section_3_2():
    s = STANDARD_TABLE.spots
    assert s["brown"] == (889.0, 737.0)
    assert s["yellow"] == (889.0 + 292.0, 737.0)  # right-hand corner of the D from baulk
    assert s["green"] == (889.0 - 292.0, 737.0)
    assert s["blue"] == (889.0, 3569.0 / 2)
    assert s["pink"][1] == pytest.approx((3569.0 / 2 + 3569.0) / 2)
    assert s["black"][1] == pytest.approx(3569.0 - 324.0)


def test_d_includes_lines_and_excludes_outside():
    inside = [(889.0, 737.0), (889.0 - 292.0, 737.0), (889.0, 737.0 - 292.0), (889.0, 600.0)]
    outside = [(889.0, 738.0), (889.0 - 293.0, 737.0), (889.0, 737.0 - 293.0), (100.0, 100.0)]
    assert STANDARD_TABLE.in_d(np.array(inside)).all()
    assert not STANDARD_TABLE.in_d(np.array(outside)).any()
    assert STANDARD_TABLE.in_d(STANDARD_TABLE.d_boundary()).all()


def test_pockets_are_at_corners_and_middles():
    p = STANDARD_TABLE.pockets
    assert list(p) == ["baulk_left", "baulk_right", "middle_left", "middle_right", "top_left", "top_right"]
    assert p["middle_left"].mouth_centre == (0.0, 3569.0 / 2)
    assert p["top_right"].drop_centre[0] > 1778.0 and p["top_right"].drop_centre[1] > 3569.0
    for pocket in p.values():
        a, b = pocket.jaws
        assert math.dist(a, b) == pytest.approx(pocket.mouth_width_mm)


def test_cushions_join_pocket_jaws_without_overlap():
    total = sum(math.dist(c.start, c.end) for c in STANDARD_TABLE.cushions)
    perimeter = 2 * (3569.0 + 1778.0)
    assert 0.9 * perimeter < total < perimeter


@pytest.mark.parametrize("reds", [15, 10, 6])
def test_rack_is_tight_and_clear_of_the_pink(reds):
    rack = STANDARD_TABLE.rack_positions(reds)
    red_xy = np.array([xy for k, xy in rack.items() if k.startswith("red-")])
    assert len(red_xy) == reds
    d = STANDARD_TABLE.ball_diameter_mm
    gaps = np.hypot(*(red_xy[:, None, :] - red_xy[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() == pytest.approx(d)
    pink = np.array(rack["pink"])
    assert np.hypot(*(red_xy - pink).T).min() > d
    assert STANDARD_TABLE.on_playing_area(red_xy).all()


def test_a_rack_that_is_not_a_triangle_is_refused():
    with pytest.raises(ValueError, match="triangle"):
        TableSpec().rack_positions(7)
