"""The cue ball in views without a calibrated table (``snooker.vision.otherview``), on drawn side
views: a perspective table of green cloth, shaded balls growing down the frame, a white tinted by
the cloth, and what is not a ball (a hand, a white cue shaft, a shirt cuff over the cushion).

The follower picks by whiteness here (``learned_score=False``): the learned score is trained on
broadcast frames, and a drawn hand is nothing like a real one (it scores 0.83). The scored
follower's choices are tested with a stand-in score whose preferences are known; the learned
score itself is tested on the footage (``test_cueball_score_footage.py``)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from side_views import CLOTH_BGR, LAYOUT, H, W, radius_at, side_view

from snooker.vision import otherview
from snooker.vision.cueball_score import SCALAR_FEATURES, ScoreFeatureConfig
from snooker.vision.otherview import (
    OtherViewConfig,
    OtherViewCueBall,
    _apart,
    _circles_in_holes,
    _disc_medians,
    _holes,
    _ring_cloth_medians,
    _sized_alike,
    _white_discs,
    ball_candidates,
    whiteness,
)

BY_WHITENESS = OtherViewConfig(learned_score=False)


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
    follower = OtherViewCueBall(BY_WHITENESS)
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
    assert OtherViewCueBall(BY_WHITENESS)(image, 0.0) is None


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
        config = replace(BY_WHITENESS, hold_s=0.5)
        follower = OtherViewCueBall(config)
        seen = follower(side_view([*LAYOUT, ("white", 520, 480)]), 0.0)
        hidden = side_view([*LAYOUT, ("yellow", 700, 600)])
        held = follower(hidden, 0.3)
        assert held is not None and held.held and (held.x_px, held.y_px) == (seen.x_px, seen.y_px)
        assert follower(hidden, 0.9) is None

    def test_a_yellow_is_not_taken_for_the_hidden_cue_ball(self):
        follower = OtherViewCueBall(BY_WHITENESS)
        follower(side_view([*LAYOUT, ("white", 520, 480), ("yellow", 900, 560)]), 0.0)
        held = follower(side_view([*LAYOUT, ("yellow", 900, 560)]), 0.1)
        assert held is not None and held.held and abs(held.x_px - 520) < 10

    def test_the_ball_is_followed_as_it_rolls_and_taken_up_after_a_cut(self):
        follower = OtherViewCueBall(BY_WHITENESS)
        for k, x in enumerate(range(300, 700, 40)):
            seen = follower(side_view([*LAYOUT, ("white", x, 480)]), k / 30)
            assert seen is not None and not seen.held and abs(seen.x_px - x) < 5
        cut = follower(side_view([("red", 400, 400), ("white", 1000, 600)]), 0.5)
        assert cut is not None and not cut.held and abs(cut.x_px - 1000) < 8

    def test_reset_forgets_the_last_sighting(self):
        follower = OtherViewCueBall(BY_WHITENESS)
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
        {"min_score": 1.5},
        {"score_margin": -0.1},
        {"white_disc_table_margin_px": -1},
        {"white_disc_cloth_step_px": 0},
        {"white_disc_max_growth": 0.5},
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


def _white_in_contact() -> np.ndarray:
    """Two white balls of radius 15 px that make one hole with something else: one pressed
    against a dark sleeve wider than it (no distance peak of its own), one with a red ball it
    touches; and a lone red (softened as a camera's image is)."""
    image = np.full((300, 400, 3), CLOTH_BGR, np.uint8)
    cv2.rectangle(image, (110, 120), (210, 180), (60, 40, 40), -1)
    cv2.circle(image, (215, 150), 15, (200, 235, 225), -1)
    cv2.circle(image, (300, 80), 15, (30, 30, 190), -1)
    cv2.circle(image, (300, 110), 15, (200, 235, 225), -1)
    cv2.circle(image, (80, 250), 15, (30, 30, 190), -1)
    return cv2.GaussianBlur(image, (5, 5), 1.5)


@pytest.mark.parametrize(
    "taken, expected",
    [
        ([], [(215, 150), (300, 110)]),
        ([(215, 150, 13.0)], [(300, 110)]),  # already a candidate there
    ],
    ids=["both_whites", "one_already_taken"],
)
def test_white_discs_find_white_balls_merged_with_a_sleeve_or_a_red(taken, expected):
    image = _white_in_contact()
    frame = _holes(image, OtherViewConfig())
    assert frame is not None
    discs = _white_discs(image, frame, taken, OtherViewConfig())
    assert len(discs) == len(expected)
    for (x, y, r), (ex, ey) in zip(sorted(discs), sorted(expected), strict=True):
        assert np.hypot(x - ex, y - ey) < 5  # in the ball (drawn evenly lit: at its centre)
        assert 0.6 * 15 < r * OtherViewConfig().radius_scale < 1.4 * 15


def test_white_discs_are_candidates_only_when_scored_and_switched_on():
    image = _white_in_contact()
    scored = ball_candidates(image, OtherViewConfig(), scorer=BandedScore())
    off = ball_candidates(image, replace(OtherViewConfig(), white_discs=False), scorer=BandedScore())
    unscored = ball_candidates(image, OtherViewConfig())

    def near(found, x, y):
        return any(np.hypot(c.x_px - x, c.y_px - y) < 5 for c in found)

    assert near(scored, 215, 150) and near(scored, 300, 110)
    assert not near(off, 215, 150) and not near(unscored, 215, 150)


def test_a_follower_looks_closer_only_with_nothing_to_hold(monkeypatch):
    import snooker.vision.otherview as otherview

    asked = []
    real = otherview.ball_candidates

    def spy(image, config=None, look_closer=False, scorer=None):
        asked.append(look_closer)
        return real(image, config, look_closer, scorer)

    monkeypatch.setattr(otherview, "ball_candidates", spy)
    follower = OtherViewCueBall(replace(BY_WHITENESS, hold_s=0.5))
    follower(side_view(LAYOUT), 0.0)  # nothing seen yet: look closer
    follower(side_view([*LAYOUT, ("white", 520, 480)]), 0.1)  # nothing to hold: look closer; seen
    seen = follower(side_view(LAYOUT), 0.2)  # hidden: held, not looked for closer
    follower(side_view(LAYOUT), 0.9)  # held too long: look closer again
    assert asked == [True, True, False, True]
    assert seen is not None and seen.held


class BandedScore:
    """A stand-in for the learned score with known preferences: by the candidate's ball radius
    as measured (px, in a 720-px frame; ~1.7 px over the drawn one): 0 below 15 px, ``middle`` up
    to 20 px and ``large`` beyond."""

    features = ScoreFeatureConfig()

    def __init__(self, middle: float = 0.6, large: float = 0.8) -> None:
        self.middle, self.large = middle, large

    def __call__(self, features: np.ndarray) -> np.ndarray:
        radius = features[:, SCALAR_FEATURES.index("radius_over_height")] * H
        return np.select([radius >= 20, radius >= 15], [self.large, self.middle], 0.0)


SMALL = [("red", 380, 400), ("blue", 640, 380)]
"""Balls measured ~13-14 px: scored 0 by the stand-in."""
WHITE_MIDDLE = ("white", 520, 450)
"""Measured ~16 px: scored ``middle``."""
BLACK_LARGE = ("black", 300, 600)
"""Measured ~23 px: scored ``large``."""


class TestScoredFollowing:
    def test_the_best_scored_is_taken_not_the_whitest(self):
        follower = OtherViewCueBall(scorer=BandedScore())
        seen = follower(side_view([*SMALL, WHITE_MIDDLE, BLACK_LARGE]), 0.0)
        assert seen is not None and abs(seen.x_px - 300) < 8 and seen.score == pytest.approx(0.8)

    @pytest.mark.parametrize("margin, taken_x", [(0.3, 520), (0.1, 300)], ids=["stays", "switches"])
    def test_a_sighting_continues_unless_one_elsewhere_scores_more_by_the_margin(self, margin, taken_x):
        follower = OtherViewCueBall(OtherViewConfig(score_margin=margin), scorer=BandedScore())
        first = follower(side_view([*SMALL, WHITE_MIDDLE]), 0.0)
        assert first is not None and abs(first.x_px - 520) < 8
        seen = follower(side_view([*SMALL, WHITE_MIDDLE, BLACK_LARGE]), 0.1)
        assert seen is not None and not seen.held and abs(seen.x_px - taken_x) < 8

    @pytest.mark.parametrize("fallback", [True, False])
    def test_with_nothing_scored_and_nothing_held_the_whitest_is_taken(self, fallback):
        follower = OtherViewCueBall(
            OtherViewConfig(whiteness_fallback=fallback), scorer=BandedScore(0.0, 0.0)
        )
        seen = follower(side_view([*SMALL, WHITE_MIDDLE, BLACK_LARGE]), 0.0)
        if fallback:
            assert seen is not None and abs(seen.x_px - 520) < 8 and seen.score == 0.0
        else:
            assert seen is None

    def test_a_held_sighting_is_not_given_up_for_the_whitest(self):
        follower = OtherViewCueBall(scorer=BandedScore())
        first = follower(side_view([*SMALL, BLACK_LARGE]), 0.0)
        assert first is not None and abs(first.x_px - 300) < 8
        held = follower(side_view([*SMALL, ("white", 700, 350)]), 0.1)  # a small white, scored 0
        assert held is not None and held.held and abs(held.x_px - 300) < 8

    def test_the_learned_score_can_be_turned_off(self):
        follower = OtherViewCueBall(BY_WHITENESS, scorer=BandedScore())
        assert follower.scorer is None
        seen = follower(side_view([*SMALL, WHITE_MIDDLE, BLACK_LARGE]), 0.0)
        assert seen is not None and abs(seen.x_px - 520) < 8 and seen.score is None

    def test_candidates_looked_for_ahead_are_what_the_follower_would_look_for(self):
        """Scored, what is looked for does not depend on the last sighting: candidates found ahead
        (on another thread) give the same sightings; ranked by whiteness it does, and none are."""
        frames = [side_view([*SMALL, WHITE_MIDDLE]), side_view(SMALL), side_view([*SMALL, BLACK_LARGE])]
        ahead, alone = OtherViewCueBall(scorer=BandedScore()), OtherViewCueBall(scorer=BandedScore())
        for k, image in enumerate(frames):
            found = ahead.candidates(image)
            assert found == ball_candidates(image, ahead.config, look_closer=True, scorer=ahead.scorer)
            assert ahead(image, k / 30, found) == alone(image, k / 30)
        assert OtherViewCueBall(BY_WHITENESS).candidates(frames[0]) is None

    def test_the_packaged_score_is_the_default(self):
        from snooker.vision.cueball_score import packaged_model

        assert OtherViewCueBall().scorer is packaged_model()


@given(
    seed=st.integers(0, 2**31 - 1),
    x=st.integers(-8, 47),
    y=st.integers(-8, 37),
    radius=st.floats(1.0, 12.0),
    cloth_share=st.floats(0.0, 1.0),
)
def test_compiled_ring_and_core_medians_match_numpy(seed, x, y, radius, cloth_share):
    """The compiled medians give NumPy's median of the pixels of the image within each disc or
    ring, inside the image or reaching over its edges (or centred beyond them); a ring with no
    cloth in it: NaN."""
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    cloth = rng.random((30, 40)) < cloth_share
    rows, columns = np.mgrid[0:30, 0:40]
    squared = (columns - x) ** 2 + (rows - y) ** 2
    core = max(1, int(radius))
    disc = squared <= core * core
    found = _disc_medians(lab, np.array([x]), np.array([y]), np.array([core]))[0]
    if disc.any():
        assert np.array_equal(found, np.median(lab[disc].astype(float), axis=0))
    else:
        assert np.all(np.isnan(found))
    inner, outer = 1.3, 1.7
    ring = (squared >= (inner * radius) ** 2) & (squared <= (outer * radius) ** 2) & cloth
    found = _ring_cloth_medians(lab, cloth, np.array([x]), np.array([y]), np.array([radius]), inner, outer)[0]
    if ring.any():
        assert np.array_equal(found, np.median(lab[ring][:, 1:3].astype(float), axis=0))
    else:
        assert np.all(np.isnan(found))


@given(
    seed=st.integers(0, 2**31 - 1),
    blobs=st.integers(0, 6),
    height=st.integers(8, 60),
    width=st.integers(8, 80),
)
def test_the_distance_to_the_cloth_over_the_holes_box_is_the_whole_frames(seed, blobs, height, width):
    """Holes anywhere (touching the frame's edges too): the box's distances are the whole frame's
    there, and the whole frame's are 0 beyond the box."""
    from snooker.vision.otherview import _distance_to_cloth

    rng = np.random.default_rng(seed)
    holes = np.zeros((height, width), np.uint8)
    for _ in range(blobs):
        x, y = int(rng.integers(-5, width + 5)), int(rng.integers(-5, height + 5))
        if rng.random() < 0.5:
            cv2.circle(holes, (x, y), int(rng.integers(1, 15)), 1, -1)
        else:
            cv2.rectangle(holes, (x, y), (x + int(rng.integers(1, 20)), y + int(rng.integers(1, 20))), 1, -1)
    whole = cv2.distanceTransform(holes, cv2.DIST_L2, 5)
    distance, (x0, y0) = _distance_to_cloth(holes)
    h, w = distance.shape
    assert np.array_equal(distance, whole[y0 : y0 + h, x0 : x0 + w])
    beyond = np.ones_like(holes, bool)
    beyond[y0 : y0 + h, x0 : x0 + w] = False
    assert not whole[beyond].any()


def test_the_float_grey_and_saturation_are_the_8_bit_values_widened():
    from snooker.vision.otherview import _FrameImages

    rng = np.random.default_rng(3)
    bgr = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    images = _FrameImages(bgr, hsv)
    everywhere = (np.array([26]), np.array([18]), np.array([30]))
    grey, saturation = images.grey.near(*everywhere), images.saturation.near(*everywhere)
    assert grey.dtype == np.float32 and saturation.dtype == np.float32
    assert np.array_equal(grey, cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32))
    assert np.array_equal(saturation, hsv[..., 1].astype(np.float32))


@given(
    points=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.floats(1.0, 8.0)), max_size=12),
    taken=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.floats(1.0, 8.0)), max_size=4),
)
def test_compiled_apart_keeps_what_the_plain_rule_keeps(points, taken):
    separation = OtherViewConfig().peak_separation
    kept: list[tuple[int, int, float]] = []
    expected = []
    for k, (x, y, r) in enumerate(points):
        if all((x - a) ** 2 + (y - b) ** 2 >= (separation * max(r, c)) ** 2 for a, b, c in taken + kept):
            kept.append((x, y, r))
            expected.append(k)
    xs = np.array([p[0] for p in points], np.int64)
    ys = np.array([p[1] for p in points], np.int64)
    radii = np.array([p[2] for p in points], np.float64)
    found = _apart(xs, ys, radii, np.array(taken, np.float64).reshape(-1, 3), separation)
    assert found.tolist() == expected


def test_a_white_disc_is_the_lit_top_of_a_ball_the_size_of_the_others():
    """A ball lit from above shows white only on its top half: the white disc there is grown to
    the size the other balls give at its place and moved down to the ball's centre."""
    image = np.full((300, 400, 3), CLOTH_BGR, np.uint8)
    for x, y in ((60, 60), (330, 60), (60, 240), (330, 240)):
        cv2.circle(image, (x, y), 15, (30, 30, 190), -1)
    cv2.circle(image, (200, 150), 15, (70, 80, 70), -1)
    cv2.ellipse(image, (200, 150), (15, 15), 0, 180, 360, (200, 235, 225), -1)
    image = cv2.GaussianBlur(image, (5, 5), 1.5)
    config = OtherViewConfig()
    frame = _holes(image, config)
    assert frame is not None and len(frame.alike) >= 4

    def disc(grow: bool) -> tuple[int, int, float]:
        found = _white_discs(image, frame, [], replace(config, white_disc_ball_size=grow))
        return min(found, key=lambda d: np.hypot(d[0] - 200, d[1] - 150))

    x, y, r = disc(grow=False)
    assert y < 146 and r * config.radius_scale < 12  # the lit half: smaller, higher
    x, y, r = disc(grow=True)
    assert abs(x - 200) <= 2 and abs(y - 150) <= 4
    assert r * config.radius_scale == pytest.approx(15, abs=3)


@settings(deadline=None)  # the first example compiles the kernel
@given(
    seed=st.integers(0, 2**16),
    cloth=st.tuples(st.floats(-60, 60, width=32), st.floats(-60, 60, width=32)),
)
def test_an_images_whiteness_compiled_is_the_array_statements(seed, cloth):
    rng = np.random.default_rng(seed)
    lab = rng.uniform([0, -128, -128], [255, 127, 127], (9, 11, 3)).astype(np.float32)
    lab[0, 0] = [50.0, 0.0, 0.0]  # no chroma: along and across both zero
    cloth_ab = np.array(cloth, np.float32)
    norm = np.linalg.norm(cloth_ab, axis=-1, keepdims=True)
    direction = np.divide(cloth_ab, norm, out=np.zeros_like(cloth_ab), where=norm > 0)
    along = lab[..., 1] * direction[..., 0] + lab[..., 2] * direction[..., 1]
    across = np.abs(lab[..., 1] * direction[..., 1] - lab[..., 2] * direction[..., 0])
    expected = lab[..., 0] - across - np.maximum(-along, 0.0)
    got = whiteness(lab, cloth_ab)
    assert got.dtype == np.float32 and np.array_equal(got, expected)


def test_a_conversion_made_near_points_holds_the_whole_frames_values_there() -> None:
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (90, 160, 3), dtype=np.uint8)
    lab = otherview._Converted(image, otherview._to_lab, (90, 160, 3), np.uint8)
    xs, ys, reaches = np.array([5, 80, 157]), np.array([3, 45, 88]), np.array([4, 10, 6])
    made = lab.near(xs, ys, reaches)
    whole = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    for x, y, reach in zip(xs, ys, reaches, strict=True):
        box = np.s_[max(0, y - reach) : y + reach + 1, max(0, x - reach) : x + reach + 1]
        np.testing.assert_array_equal(made[box], whole[box])
    assert lab.near(xs[:1], ys[:1], reaches[:1]) is made  # one array a frame, filled as asked
