"""The cue ball in views without a calibrated table (``snooker.vision.otherview``), on drawn side
views: a perspective table of green cloth, shaded balls growing down the frame, a white tinted by
the cloth, and what is not a ball (a hand, a white cue shaft, a shirt cuff over the cushion)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from snooker.vision.otherview import (
    OtherViewConfig,
    OtherViewCueBall,
    _circles_in_holes,
    _sized_alike,
    ball_candidates,
    whiteness,
)

H, W = 720, 1280
CLOTH_BGR = (20, 125, 25)
TABLE = np.array([[200, 330], [1080, 330], [1280, 640], [0, 640]], np.int32)
"""The table's cloth as a side camera sees it: the far cushion at the top, narrower."""
BALL_BGR = {
    "white": (150, 235, 215),  # a white lit over green cloth, as broadcasts grade it
    "yellow": (20, 200, 235),
    "pink": (150, 140, 235),
    "red": (20, 20, 170),
    "blue": (150, 60, 10),
    "black": (25, 25, 25),
}


def radius_at(y: float) -> float:
    """Ball radius (px) in the drawn view: nearer (lower) balls are larger."""
    return 9.0 + (y - 330.0) * 0.045


def side_view(balls: list[tuple[str, float, float]], extras: tuple[str, ...] = ()) -> np.ndarray:
    """A drawn side view with ``balls`` (name, x, y px) and ``extras`` ("hand", "cue", "cuff")."""
    image = np.full((H, W, 3), (40, 30, 60), np.uint8)
    noise = np.random.default_rng(1).normal(0, 3, (H, W, 3))
    cv2.fillConvexPoly(image, TABLE, CLOTH_BGR)
    for name, x, y in balls:
        r = radius_at(y)
        cv2.ellipse(
            image, (int(x), int(y + 0.5 * r)), (int(1.2 * r), int(0.5 * r)), 0, 0, 360, (8, 60, 10), -1
        )
        base = np.array(BALL_BGR[name], float)
        for k in range(int(r), 0, -1):
            shade = 0.55 + 0.45 * (1 - k / r) ** 0.5
            cv2.circle(image, (int(x), int(y + 0.15 * (r - k))), k, tuple(float(v) for v in base * shade), -1)
        cv2.circle(image, (int(x - 0.3 * r), int(y - 0.35 * r)), max(1, int(0.18 * r)), (255, 255, 255), -1)
    if "hand" in extras:
        cv2.line(image, (560, 420), (470, 0), (60, 40, 40), 40)
        cv2.ellipse(image, (560, 420), (46, 30), 20, 0, 360, (150, 180, 230), -1)
    if "cue" in extras:
        cv2.line(image, (700, 470), (1000, 470), (225, 235, 240), 9)
    if "cuff" in extras:
        cv2.ellipse(image, (640, 322), (16, 14), 0, 0, 360, (245, 245, 245), -1)
        cv2.rectangle(image, (600, 250), (680, 316), (60, 40, 150), -1)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


LAYOUT = [("red", 380, 400), ("red", 900, 420), ("blue", 640, 380), ("black", 300, 560), ("pink", 820, 520)]


def nearest(candidates, x: float, y: float):
    return min(candidates, key=lambda c: np.hypot(c.x_px - x, c.y_px - y))


@pytest.mark.parametrize(
    "balls, extras, white_at",
    [
        ([*LAYOUT, ("white", 520, 480)], (), (520, 480)),
        ([*LAYOUT, ("white", 600, 440), ("yellow", 700, 600)], ("hand",), (600, 440)),
        ([*LAYOUT, ("white", 650, 470)], ("cue",), (650, 470)),
        ([*LAYOUT, ("white", 250, 600)], ("cuff",), (250, 600)),
        ([*LAYOUT, ("white", 560, 345)], (), (560, 345)),
    ],
    ids=["alone", "hand_and_yellow_nearby", "white_cue_shaft_beside", "cuff_over_far_cushion", "far_white"],
)
def test_the_whitest_ball_is_the_white_among_things_that_are_not_balls(balls, extras, white_at):
    follower = OtherViewCueBall()
    seen = follower(side_view(balls, extras), 0.0)
    assert seen is not None and not seen.held
    assert np.hypot(seen.x_px - white_at[0], seen.y_px - white_at[1]) < 0.5 * radius_at(white_at[1])
    assert seen.r_px == pytest.approx(radius_at(white_at[1]), rel=0.3)


def test_every_drawn_ball_is_a_candidate_with_its_size():
    balls = [*LAYOUT, ("white", 520, 480)]
    candidates = ball_candidates(side_view(balls))
    for _name, x, y in balls:
        found = nearest(candidates, x, y)
        assert np.hypot(found.x_px - x, found.y_px - y) < 0.4 * radius_at(y)
        assert found.r_px == pytest.approx(radius_at(y), rel=0.3)


@pytest.mark.parametrize(
    "extra, where",
    [
        ("cue", (850, 470)),
        ("cuff", (640, 322)),
        pytest.param(
            "hand",
            (560, 420),
            marks=pytest.mark.xfail(
                strict=True,
                reason="known limit: a hand and its arm drawn as round blobs agree in size with the "
                "balls once a disc's area counts up to the radii's 0.8 quantile (measured better on "
                "Task4's other views than the median: 72.9 % against 68.5 %); with the white in view "
                "it is still the whiter (hand_and_yellow_nearby)",
            ),
        ),
    ],
)
def test_what_is_not_a_ball_is_not_a_candidate(extra, where):
    candidates = ball_candidates(side_view(LAYOUT, (extra,)))
    assert all(np.hypot(c.x_px - where[0], c.y_px - where[1]) > 25 for c in candidates)


@pytest.mark.parametrize(
    "image",
    [
        np.full((H, W, 3), (40, 30, 60), np.uint8),
        np.random.default_rng(0).integers(0, 255, (H, W, 3), np.uint8),
    ],
    ids=["no_cloth", "noise"],
)
def test_no_table_no_cue_ball(image):
    assert ball_candidates(image) == []
    assert OtherViewCueBall()(image, 0.0) is None


@pytest.mark.parametrize(
    "others",
    [
        [[150, 48, 18], [208, -6, 79], [180, 15, 25]],  # pink, yellow, skin
        [[220, 18, -40], [220, 30, 30]],  # as light, but coloured across the cloth's direction
    ],
    ids=["pink_yellow_skin", "same_lightness_other_hues"],
)
def test_whiteness_discounts_only_the_cloths_own_colour(others):
    """A white over green cloth (Lab a < 0, b > 0) reads (220, -18, 40): whiter than the rest."""
    lab = np.array([[220, -18, 40], *others], float)
    scores = whiteness(lab, np.tile([-50.0, 45.0], (len(lab), 1)))
    assert scores[0] >= 200 and (scores[1:] <= scores[0] - 25).all()


def test_whiteness_of_a_grey_over_grey_cloth_is_its_lightness():
    assert whiteness(np.array([[180.0, 0.0, 0.0]]), np.zeros((1, 2)))[0] == pytest.approx(180.0)


def test_small_discs_beside_a_ball_do_not_outvote_it():
    balls = [(50, 542, 20.4), (414, 446, 17.2), (1113, 451, 14.6), (717, 422, 14.2), (741, 472, 13.0)]
    ferrule = [(1235, 456, 5.0), (1262, 456, 5.0), (1173, 456, 4.0), (1181, 456, 4.0)]
    kept = _sized_alike(balls + ferrule, OtherViewConfig())
    assert set(balls) <= set(kept)
    assert not set(ferrule) & set(kept)


class TestFollowing:
    def test_a_hidden_cue_ball_is_held_then_let_go(self):
        config = OtherViewConfig(hold_s=0.5)
        follower = OtherViewCueBall(config)
        seen = follower(side_view([*LAYOUT, ("white", 520, 480)]), 0.0)
        hidden = side_view([*LAYOUT, ("yellow", 700, 600)])
        held = follower(hidden, 0.3)
        assert held is not None and held.held and (held.x_px, held.y_px) == (seen.x_px, seen.y_px)
        assert follower(hidden, 0.9) is None

    def test_a_yellow_is_not_taken_for_the_hidden_cue_ball(self):
        follower = OtherViewCueBall()
        follower(side_view([*LAYOUT, ("white", 520, 480), ("yellow", 900, 560)]), 0.0)
        held = follower(side_view([*LAYOUT, ("yellow", 900, 560)]), 0.1)
        assert held is not None and held.held and abs(held.x_px - 520) < 10

    def test_the_ball_is_followed_as_it_rolls_and_taken_up_after_a_cut(self):
        follower = OtherViewCueBall()
        for k, x in enumerate(range(300, 700, 40)):
            seen = follower(side_view([*LAYOUT, ("white", x, 480)]), k / 30)
            assert seen is not None and not seen.held and abs(seen.x_px - x) < 5
        cut = follower(side_view([("red", 400, 400), ("white", 1000, 600)]), 0.5)
        assert cut is not None and not cut.held and abs(cut.x_px - 1000) < 8

    def test_reset_forgets_the_last_sighting(self):
        follower = OtherViewCueBall()
        follower(side_view([*LAYOUT, ("white", 520, 480)]), 0.0)
        follower.reset()
        assert follower(side_view(LAYOUT), 0.1) is None


@pytest.mark.parametrize(
    "change",
    [
        {"ring_radii": (0.9, 1.5)},
        {"ring_radii": (1.6, 1.3)},
        {"min_closed_fraction": 0.0},
        {"min_ring_cloth": 1.5},
        {"edge_within_radii": 2.5},
        {"hold_s": -1.0},
        {"follow_radii": 0.0},
    ],
)
def test_config_rejects_nonsense(change):
    with pytest.raises(ValueError):
        replace(OtherViewConfig(), **change)


@given(
    lightness=st.floats(0, 255),
    towards_cloth=st.floats(0, 60),
    across=st.floats(-60, 60),
    cloth_angle=st.floats(0, 2 * np.pi),
    cloth_chroma=st.floats(5, 80),
)
def test_whiteness_ignores_the_cloths_tint_and_counts_any_other(
    lightness, towards_cloth, across, cloth_angle, cloth_chroma
):
    """Chroma towards the cloth's costs nothing; across it or away from it costs its size."""
    unit = np.array([np.cos(cloth_angle), np.sin(cloth_angle)])
    normal = np.array([-unit[1], unit[0]])
    cloth_ab = (cloth_chroma * unit)[None]
    tinted = np.array([[lightness, *(towards_cloth * unit)]])
    assert whiteness(tinted, cloth_ab)[0] == pytest.approx(lightness, abs=1e-6)
    skewed = np.array([[lightness, *(towards_cloth * unit + across * normal)]])
    assert whiteness(skewed, cloth_ab)[0] == pytest.approx(lightness - abs(across), abs=1e-6)
    away = np.array([[lightness, *(-towards_cloth * unit)]])
    assert whiteness(away, cloth_ab)[0] == pytest.approx(lightness - towards_cloth, abs=1e-6)


def _merged_hole(ball_xy: tuple[int, int] = (205, 150)) -> tuple[np.ndarray, np.ndarray]:
    """A white ball of radius 15 px merged with a dark sleeve into one hole in the cloth (the
    image softened as a camera's is: a drawn edge is aliased)."""
    image = np.full((300, 400, 3), CLOTH_BGR, np.uint8)
    holes = np.zeros((300, 400), np.uint8)
    for canvas, sleeve, ball in ((image, (60, 40, 40), (200, 235, 225)), (holes, 1, 1)):
        cv2.rectangle(canvas, (110, 125), (195, 175), sleeve, -1)
        cv2.circle(canvas, ball_xy, 15, ball, -1)
    return cv2.GaussianBlur(image, (5, 5), 1.5), holes


@pytest.mark.parametrize(
    "balls, expected",
    [
        ([(60, 60, 12.0), (330, 230, 13.0)], [(205, 150)]),
        ([(60, 60, 12.0), (330, 230, 13.0), (205, 150, 13.0)], []),  # already a ball there
        ([(60, 60, 4.0), (330, 230, 5.0)], []),  # balls this size: the circle is too large
        ([], []),  # no balls to size circles by
    ],
    ids=["found_by_its_rim", "already_a_ball", "other_sizes", "no_sizes"],
)
def test_looking_closer_finds_a_ball_merged_with_a_sleeve_by_its_rim(balls, expected):
    image, holes = _merged_hole()
    circles = _circles_in_holes(image, holes, balls, OtherViewConfig())
    assert [(round(x / 5) * 5, round(y / 5) * 5) for x, y, _ in circles] == expected
    for _x, _y, r in circles:
        assert r * OtherViewConfig().radius_scale == pytest.approx(15, abs=2)


def test_a_follower_looks_closer_only_with_nothing_to_hold(monkeypatch):
    import snooker.vision.otherview as otherview

    asked = []
    real = otherview.ball_candidates

    def spy(image, config=None, look_closer=False):
        asked.append(look_closer)
        return real(image, config, look_closer)

    monkeypatch.setattr(otherview, "ball_candidates", spy)
    follower = OtherViewCueBall(OtherViewConfig(hold_s=0.5))
    follower(side_view(LAYOUT), 0.0)  # nothing seen yet: look closer
    follower(side_view([*LAYOUT, ("white", 520, 480)]), 0.1)  # nothing to hold: look closer; seen
    seen = follower(side_view(LAYOUT), 0.2)  # hidden: held, not looked for closer
    follower(side_view(LAYOUT), 0.9)  # held too long: look closer again
    assert asked == [True, True, False, True]
    assert seen is not None and seen.held
