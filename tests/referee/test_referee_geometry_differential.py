"""Differential test (the thirtieth audit): the referee's rule geometry against a second, brute-force
implementation written from the rules and the public docstrings (reference_geometry.py), over random
layouts with the cue ball on the table — near-touching balls, balls near-tangent to a line of aim,
the cue ball in a pocket's jaws among them.

Compared: ``snookered`` (Section 2), ``effective_snookering_balls`` (Section 2, 16(b)-(c), for
3.10(b)), ``clear_path_to_any_part`` (3.14(b)), ``full_ball_available`` (3.14(c)) and ``touching``
(3.8, as a set: the order of two balls equally near is not a rule's). The reference
answers each question on both sides of ``SLACK_MM``; a layout whose answer flips within it (a
boundary no measurement settles) is not compared for that question, and such layouts must stay rare
(``MAX_BOUNDARY_SHARE``) so that the comparison is not vacuous.
"""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_geometry import Layout, _nose_segments, _point_segment_distance, robust

from snooker.calibration.table import STANDARD_TABLE as TABLE
from snooker.referee import geometry as geo

R = TABLE.ball_radius_mm
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
NEAR_TOUCH_GAPS_MM = (0.0, 0.01, 0.3, 0.9, 1.1, 2.0, 5.0)
"""Gaps between a ball placed near another and that ball (mm): touching, within the referee's touch
tolerance (1 mm) and just beyond it."""
NEAR_TANGENT_OFFSETS_MM = (0.0, 0.02, 0.2, 1.0, 3.0)
"""How far (mm) a ball is put off a diameter or a radius from a line of aim (grazing it)."""
OVERLAP_ALLOWED_MM = 0.5
"""How far two logged balls may overlap (a tracker's placing error)."""
MAX_BOUNDARY_SHARE = 0.15
"""At most this share of the questions asked may fall on a boundary finer than ``SLACK_MM``."""


def _clear_of_noses(p: tuple[float, float]) -> bool:
    return all(float(_point_segment_distance(np.array(p), a, b)) >= R for a, b in _nose_segments(TABLE))


def random_layout(rng: random.Random):
    """A cue ball (on the cloth or in a pocket's jaws), one to six object balls, and the balls on:
    the reds, or one colour, sometimes with one more ball on (a free ball)."""
    while True:
        if rng.random() < 0.15:
            mx, my = rng.choice(list(TABLE.pockets.values())).mouth_centre
            cue = (mx + rng.uniform(-40, 40), my + rng.uniform(-40, 40))
        else:
            cue = (rng.uniform(R, TABLE.width_mm - R), rng.uniform(R, TABLE.length_mm - R))
        if (
            _clear_of_noses(cue)
            and -R <= cue[0] <= TABLE.width_mm + R
            and -R <= cue[1] <= TABLE.length_mm + R
        ):
            break
    n = rng.randint(1, 6)
    n_reds = rng.randint(0, n)
    names = [f"red-{i + 1}" for i in range(n_reds)] + rng.sample(COLOURS, n - n_reds)
    balls: dict[str, tuple[float, float]] = {}
    placed = [cue]
    for name in names:
        for _ in range(200):
            kind = rng.random()
            if kind < 0.3:
                a = rng.choice(placed)
                angle = rng.uniform(0, 2 * math.pi)
                gap = 2 * R + rng.choice(NEAR_TOUCH_GAPS_MM)
                p = (a[0] + gap * math.cos(angle), a[1] + gap * math.sin(angle))
            elif kind < 0.6 and len(placed) >= 2:
                b = rng.choice(placed[1:])
                f = rng.uniform(0.2, 0.8)
                length = math.dist(cue, b) or 1.0
                nx, ny = -(b[1] - cue[1]) / length, (b[0] - cue[0]) / length
                off = rng.choice((2 * R, 4 * R, 0.0, R)) + rng.choice((-1, 1)) * rng.choice(
                    NEAR_TANGENT_OFFSETS_MM
                )
                p = (cue[0] + f * (b[0] - cue[0]) + off * nx, cue[1] + f * (b[1] - cue[1]) + off * ny)
            elif rng.random() < 0.5:
                p = (cue[0] + rng.uniform(-400, 400), cue[1] + rng.uniform(-400, 400))
            else:
                p = (rng.uniform(R, TABLE.width_mm - R), rng.uniform(R, TABLE.length_mm - R))
            if TABLE.on_playing_area([p])[0] and all(
                math.dist(p, q) >= 2 * R - OVERLAP_ALLOWED_MM for q in placed
            ):
                balls[name] = p
                placed.append(p)
                break
    if not balls:  # nowhere found for any (rare): one red far from the cue ball
        balls["red-1"] = (
            TABLE.width_mm / 2,
            TABLE.length_mm - 200.0 if cue[1] < TABLE.length_mm / 2 else 200.0,
        )
    reds = sorted(b for b in balls if b.startswith("red"))
    colours = [b for b in balls if not b.startswith("red")]
    on = set(reds) if reds and (not colours or rng.random() < 0.5) else {rng.choice(colours)}
    if rng.random() < 0.2:
        on.add(rng.choice(sorted(balls)))
    return cue, balls, sorted(on)


def compare(cue, balls, on) -> tuple[dict, int]:
    """The questions on which the referee differs from the reference's robust answer, and how many
    fell on a boundary (not compared)."""
    reference = Layout(cue, balls, on, TABLE)
    reds = {b for b in balls if b.startswith("red")}
    reds_on = all(b in reds for b in on)
    questions = {
        "snookered": (lambda s: reference.snookered(s), lambda: geo.snookered(cue, balls, on)),
        "effective": (
            lambda s: reference.effective(s, reds_on),
            lambda: sorted(geo.effective_snookering_balls(cue, balls, on)),
        ),
        "clear_path": (lambda s: reference.clear_path(s), lambda: geo.clear_path_to_any_part(cue, balls, on)),
        "full_ball": (
            lambda s: reference.full_ball(s, reds),
            lambda: geo.full_ball_available(cue, balls, on),
        ),
        "touching": (lambda s: sorted(reference.touching(s)), lambda: sorted(geo.touching(cue, balls))),
    }
    differ, boundary = {}, 0
    for name, (ours, referee) in questions.items():
        answer = robust(ours)
        if answer is None:
            boundary += 1
        elif answer != referee():
            differ[name] = {"reference": answer, "referee": referee()}
    return differ, boundary


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.randoms(use_true_random=False))
def test_the_rule_geometry_agrees_with_a_brute_force_reference(rng):
    layout = random_layout(rng)
    differ, _ = compare(*layout)
    assert differ == {}, layout


def test_seeded_layouts_agree_and_reach_both_answers_of_every_question():
    """A fixed set of layouts (plain ``random``, seeded): no disagreement, few boundary cases, and
    between them every question answered both ways (so that the comparison is not vacuous)."""
    seen: set[tuple[str, object]] = set()
    boundary = asked = 0
    for seed in range(30):
        cue, balls, on = random_layout(random.Random(seed))
        differ, on_boundary = compare(cue, balls, on)
        assert differ == {}, (seed, cue, balls, on)
        boundary += on_boundary
        asked += 5
        seen.update(
            {
                ("snookered", geo.snookered(cue, balls, on)),
                ("effective", bool(geo.effective_snookering_balls(cue, balls, on))),
                ("clear_path", geo.clear_path_to_any_part(cue, balls, on)),
                ("full_ball", geo.full_ball_available(cue, balls, on)),
            }
        )
    assert boundary <= MAX_BOUNDARY_SHARE * asked
    assert seen == {
        (q, a) for q in ("snookered", "effective", "clear_path", "full_ball") for a in (True, False)
    }


IN_HAND_GRID_MM = 4.0
"""Spacing of the placements in the D the reference tries with the cue ball in hand (mm)."""
PLACEMENT_MARGIN_MM = 0.1
"""Placements the reference tries keep this much beyond the referee's no-touch distance (a
diameter plus its 1 mm touch tolerance), so that none is one the referee may not use."""


def shielded_ball_on(rng: random.Random):
    """The cue ball in hand; one or two balls on up the table (on the top cushion or near the
    middle), each with up to two balls not on close in front of it, towards the D."""
    reds = rng.random() < 0.5
    names_on = (
        [f"red-{i + 1}" for i in range(rng.randint(1, 2))]
        if reds
        else [rng.choice(("pink", "black", "blue"))]
    )
    others = [c for c in COLOURS if c not in names_on]
    rng.shuffle(others)
    balls: dict[str, tuple[float, float]] = {}
    for name in names_on:
        x = rng.uniform(200, TABLE.width_mm - 200)
        y = rng.choice([TABLE.length_mm - R, TABLE.length_mm - R - 10, rng.uniform(900, 1500)])
        balls[name] = (x, y)
        for _ in range(rng.randint(0, 2)):
            off = rng.choice([-1, 1]) * rng.choice([0, R, 1.5 * R, 2 * R]) + rng.uniform(-4, 4)
            p = (x + off, y - rng.choice([2 * R, 2.2 * R, 3 * R]) - rng.uniform(0, 3))
            if TABLE.on_playing_area([p])[0] and all(math.dist(p, q) >= 2 * R - 0.2 for q in balls.values()):
                balls[others.pop()] = p
    return balls, names_on


def _d_placements() -> np.ndarray:
    cx, cy = TABLE.d_centre
    r = TABLE.d_radius_mm
    xs = np.arange(cx - r, cx + r + 0.1, IN_HAND_GRID_MM)
    ys = np.arange(cy - r, cy + 0.1, IN_HAND_GRID_MM)
    grid = np.array([(x, y) for x in xs for y in ys])
    return np.concatenate([grid[TABLE.in_d(grid)], TABLE.d_boundary(400)])


def test_in_hand_snookered_agrees_with_the_reference_over_the_d():
    """Section 2: "With the cue ball in-hand, it is snookered only if that holds from every position
    on or inside the D." The reference tries a grid of placements clear of every ball; the referee
    must call the cue ball snookered exactly when no placement tried is (robustly) free — seeded
    layouts, both answers reached."""
    placements = _d_placements()
    answers = set()
    for seed in (100, 101, 102, 103):
        balls, on = shielded_ball_on(random.Random(seed))
        centres = np.array(list(balls.values()))
        free_placement = None
        for p in placements:
            if np.min(np.hypot(*(centres - p).T)) <= 2 * R + 1.0 + PLACEMENT_MARGIN_MM:
                continue
            if robust(Layout(tuple(p), balls, on, TABLE).snookered) is False:
                free_placement = tuple(p)
                break
        referee = geo.snookered(None, balls, on)
        assert referee == (free_placement is None), (seed, balls, on, free_placement)
        answers.add(referee)
    assert answers == {True, False}
