"""The rule geometry (snookered, clear path, full ball, spots, touching) on hand-built layouts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snooker.balls import COLOURS
from snooker.calibration.table import STANDARD_TABLE
from snooker.referee import geometry as geo
from snooker.referee.geometry import (
    GeometryConfig,
    clear_path_to_any_part,
    full_ball_available,
    respot_positions,
    snookered,
    spot_occupied,
    touching,
)

D = STANDARD_TABLE.ball_diameter_mm
CX = STANDARD_TABLE.centre_x_mm
SPOTS = STANDARD_TABLE.spots
CUE = (CX, 1000.0)
FAR = (CX, 2000.0)


# ---------------------------------------------------------------------------------------------
# Fixed cue ball


@pytest.mark.parametrize(
    ("case", "cue", "balls", "on", "expected"),
    [
        ("open table", CUE, {"red-1": FAR}, ["red-1"], False),
        ("directly behind a colour", CUE, {"red-1": FAR, "blue": (CX, 1500.0)}, ["red-1"], True),
        ("one edge blocked", CUE, {"red-1": FAR, "blue": (CX + 40.0, 1500.0)}, ["red-1"], True),
        ("other edge blocked", CUE, {"red-1": FAR, "blue": (CX - 40.0, 1500.0)}, ["red-1"], True),
        ("blocker clear of both edges", CUE, {"red-1": FAR, "blue": (CX + 80.0, 1500.0)}, ["red-1"], False),
        ("red behind a red", CUE, {"red-1": FAR, "red-2": (CX, 1500.0)}, ["red-1", "red-2"], False),
        (
            "one red free among hidden",
            CUE,
            {"red-1": FAR, "blue": (CX, 1500.0), "red-2": (300.0, 900.0)},
            ["red-1", "red-2"],
            False,
        ),
        ("colour on behind a red", CUE, {"pink": FAR, "red-1": (CX, 1500.0)}, ["pink"], True),
        (
            "any colour on: one hidden, another in view",
            CUE,
            {"pink": FAR, "red-1": (CX, 1500.0), "green": (400.0, 1200.0)},
            ["pink", "green"],
            False,
        ),
        (
            "any colour on: all hidden",
            CUE,
            {"pink": FAR, "red-1": (CX, 1500.0), "green": (CX, 1400.0), "red-2": (CX, 1200.0)},
            ["pink", "green"],
            True,
        ),
        ("blocker behind the ball on", CUE, {"red-1": FAR, "blue": (CX, 2300.0)}, ["red-1"], False),
        ("blocker behind the cue ball", CUE, {"red-1": FAR, "blue": (CX, 700.0)}, ["red-1"], False),
        (
            "cue ball touching a ball not on, playing away",
            CUE,
            {"red-1": FAR, "blue": (CX, 1000.0 - D)},
            ["red-1"],
            False,
        ),
        (
            "cue ball touching the ball on",
            CUE,
            {"red-1": (CX, 1000.0 + D), "blue": (CX, 1300.0)},
            ["red-1"],
            False,
        ),
        ("ball on against a cushion", CUE, {"red-1": (D / 2, 2000.0)}, ["red-1"], False),
        (
            "cue ball and ball on along the cushion",
            (D / 2, 1000.0),
            {"black": (D / 2, 3000.0)},
            ["black"],
            False,
        ),
    ],
)
def test_snookered_with_the_cue_ball_on_the_table(case, cue, balls, on, expected):
    assert snookered(cue, balls, on) is expected, case


@pytest.mark.parametrize(
    ("case", "balls", "on", "any_part", "full_ball"),
    [
        ("open", {"pink": FAR}, ["pink"], True, True),
        ("hidden", {"pink": FAR, "blue": (CX, 1500.0)}, ["pink"], False, False),
        (
            "half hidden colour: centre line crossed",
            {"pink": FAR, "blue": (CX + 40.0, 1500.0)},
            ["pink"],
            True,
            False,
        ),
        (
            "edge hidden colour: centre line clear",
            {"pink": FAR, "blue": (CX + 70.0, 1500.0)},
            ["pink"],
            True,
            True,
        ),
        (
            "edge hidden red: full width not clear",
            {"red-1": FAR, "blue": (CX + 70.0, 1500.0)},
            ["red-1"],
            True,
            False,
        ),
        ("red hidden by a red only", {"red-1": FAR, "red-2": (CX, 1500.0)}, ["red-1", "red-2"], True, True),
        (
            "colour right behind the red's edge",
            {"red-1": FAR, "blue": (CX + D, 2000.0 + 10.0)},
            ["red-1"],
            True,
            False,
        ),
    ],
)
def test_clear_path_and_full_ball(case, balls, on, any_part, full_ball):
    assert clear_path_to_any_part(CUE, balls, on) is any_part, case
    assert full_ball_available(CUE, balls, on) is full_ball, case


def test_a_wall_with_a_gap_narrower_than_the_cue_ball_hides_everything():
    wall = {f"red-{k + 1}": (CX + (k - 3) * (D + 2.0), 1500.0) for k in range(7)}
    balls = {"black": FAR, **wall}
    assert snookered(CUE, balls, ["black"])
    assert not clear_path_to_any_part(CUE, balls, ["black"])
    assert not full_ball_available(CUE, balls, ["black"])


def test_thin_contact_past_a_blocker_is_a_clear_path_but_not_a_full_ball():
    # The blue covers all of the pink but a sliver on the right.
    balls = {"pink": FAR, "blue": (CX - 30.0, 1500.0)}
    assert snookered(CUE, balls, ["pink"])
    assert clear_path_to_any_part(CUE, balls, ["pink"])
    assert not full_ball_available(CUE, balls, ["pink"])


# ---------------------------------------------------------------------------------------------
# Cue ball in hand


def _snookered_at(points, balls, on):
    return [snookered((float(x), float(y)), balls, on) for x, y in points]


def test_in_hand_snookered_from_part_of_the_d_only_is_not_snookered():
    balls = {"red-1": (CX, 1800.0), "pink": (CX - 40.0, 1500.0)}
    left, right = (CX - 250.0, 700.0), (CX + 250.0, 700.0)
    assert _snookered_at([left, right], balls, ["red-1"]) == [True, False]
    assert not snookered(None, balls, ["red-1"])


def _corner_hideout() -> dict[str, tuple[float, float]]:
    wall = {c: (60.0 + 55.0 * k, 3230.0) for k, c in enumerate(["yellow", "green", "brown", "blue", "pink"])}
    return {"red-1": (100.0, 3300.0), **wall}


def test_in_hand_snookered_from_the_whole_d():
    balls = _corner_hideout()
    grid = geo._d_grid(STANDARD_TABLE, geo.DEFAULT_GEOMETRY_CONFIG)[::97]
    assert all(_snookered_at(grid, balls, ["red-1"]))
    assert snookered(None, balls, ["red-1"])
    assert not clear_path_to_any_part(None, balls, ["red-1"])
    assert not full_ball_available(None, balls, ["red-1"])


def _gap_wall(half_gap: float, x0: float = CX + 2.5) -> dict[str, tuple[float, float]]:
    """The black far up the table behind a wall of reds with one gap centred on x = x0."""
    balls = {"black": (x0, 2500.0)}
    for k in range(7):
        balls[f"red-{k + 1}"] = (x0 - half_gap - (D + 1.5) * k, 1550.0)
        balls[f"red-{k + 8}"] = (x0 + half_gap + (D + 1.5) * k, 1550.0)
    return balls


def _critical_half_gap() -> float:
    """The narrowest gap through which the black's both edges are seen from (x0, baulk line)."""
    low, high = 60.0, 120.0
    for _ in range(50):
        mid = (low + high) / 2.0
        if snookered((CX + 2.5, STANDARD_TABLE.baulk_line_y_mm), _gap_wall(mid), ["black"]):
            low = mid
        else:
            high = mid
    return high


def test_in_hand_finds_a_sliver_of_the_d_narrower_than_the_sampling_grid():
    half_gap = _critical_half_gap()
    open_wall, shut_wall = _gap_wall(half_gap + 0.05), _gap_wall(half_gap - 0.05)
    grid = geo._d_grid(STANDARD_TABLE, geo.DEFAULT_GEOMETRY_CONFIG)
    legal = geo._legal_placements(
        grid, np.array(list(open_wall.values())), STANDARD_TABLE, geo.DEFAULT_GEOMETRY_CONFIG
    )
    assert all(_snookered_at(legal[::7], open_wall, ["black"]))
    assert not snookered(None, open_wall, ["black"])
    assert snookered(None, shut_wall, ["black"])


@pytest.mark.parametrize(("slack", "expected"), [(0.05, True), (-0.05, False)])
def test_in_hand_gap_just_wider_or_narrower_than_the_cue_ball(slack, expected):
    # The cue ball (a diameter wide either side of its centre's path) only fits if the gap's
    # half-width exceeds a diameter; then the black's centre line is open through it too.
    balls = _gap_wall(D + slack)
    assert clear_path_to_any_part(None, balls, ["black"]) is expected
    assert full_ball_available(None, balls, ["black"]) is expected
    assert snookered(None, balls, ["black"])


def test_in_hand_never_places_the_cue_ball_touching_a_ball():
    # A ball on inside the D is reachable from everywhere except from on top of it.
    balls = {"brown": SPOTS["brown"]}
    question = geo._can_hit_both_edges(balls, ["brown"], STANDARD_TABLE, geo.DEFAULT_GEOMETRY_CONFIG)
    where = question.where_in_hand(STANDARD_TABLE, geo.DEFAULT_GEOMETRY_CONFIG)
    assert where is not None
    assert math.dist(where, SPOTS["brown"]) > D
    assert STANDARD_TABLE.in_d(where)[0]


def test_in_hand_with_the_d_filled_has_no_placement_and_is_snookered():
    cfg = geo.DEFAULT_GEOMETRY_CONFIG
    points = geo._d_grid(STANDARD_TABLE, GeometryConfig(d_sampling_step_mm=70.0))
    fine = geo._d_grid(STANDARD_TABLE, GeometryConfig(d_sampling_step_mm=2.0))
    assert len(geo._legal_placements(fine, points, STANDARD_TABLE, cfg)) == 0
    blockers = {f"red-{k}": (float(x), float(y)) for k, (x, y) in enumerate(points, start=1)}
    blockers["black"] = SPOTS["black"]
    assert snookered(None, blockers, ["black"])
    assert not clear_path_to_any_part(None, blockers, ["black"])


# ---------------------------------------------------------------------------------------------
# Spots (3.7) and touching


def test_own_spot_free():
    assert respot_positions(["pink"], {"red-1": (300.0, 2000.0)}) == {"pink": SPOTS["pink"]}


def test_own_spot_occupied_goes_to_the_highest_free_spot():
    balls = {"red-1": SPOTS["blue"], "black": SPOTS["black"]}
    assert respot_positions(["blue"], balls) == {"blue": SPOTS["pink"]}


def test_spot_covered_by_the_cue_ball_is_occupied():
    assert spot_occupied(SPOTS["blue"], {}, cue=(CX + D, SPOTS["blue"][1]))
    assert respot_positions(["blue"], {}, cue=SPOTS["blue"]) == {"blue": SPOTS["black"]}


def test_a_colour_whose_own_spot_is_free_keeps_it_before_a_displaced_colour_is_placed():
    # 3.7(d): only a colour whose own spot is occupied moves. Black's spot is covered, pink's is
    # free: pink goes on its own spot, black then takes the highest free spot (blue).
    balls = {"red-1": SPOTS["black"]}
    placed = respot_positions(["pink", "black"], balls)
    assert placed == {"pink": SPOTS["pink"], "black": SPOTS["blue"]}
    assert list(placed) == ["pink", "black"]


def test_several_displaced_colours_higher_value_first_each_an_obstacle_for_the_next():
    # 3.7(e): both own spots covered: black takes the highest free spot (blue), pink the next (brown).
    balls = {"red-1": SPOTS["black"], "red-2": SPOTS["pink"]}
    placed = respot_positions(["pink", "black"], balls)
    assert placed == {"pink": SPOTS["brown"], "black": SPOTS["blue"]}


def _all_spots_covered() -> dict[str, tuple[float, float]]:
    # Reds just beside (not on) each spot, each touching a ball placed on the spot.
    return {f"red-{k}": (x + D * 0.6, y) for k, (x, y) in enumerate(SPOTS.values(), start=1)}


@pytest.mark.parametrize("colour", ["yellow", "green", "brown", "blue", "pink", "black"])
def test_all_spots_occupied_goes_towards_the_top_cushion(colour):
    balls = _all_spots_covered()
    (x, y) = respot_positions([colour], balls)[colour]
    sx, sy = SPOTS[colour]
    assert x == pytest.approx(sx)
    assert sy < y < sy + 2 * D
    assert not touching((x, y), balls)


def test_all_spots_and_the_way_up_taken_pink_and_black_go_just_below_their_spots():
    balls = _all_spots_covered()
    top = STANDARD_TABLE.length_mm
    for colour in ("pink", "black"):
        sx, sy = SPOTS[colour]
        column = {f"red-{10 + k}": (sx, y) for k, y in enumerate(np.arange(sy + D, top, D + 0.5))}
        crowded = {**balls, **column, "blue": (sx + 0.6 * D, sy - 0.5 * D)}
        (x, y) = respot_positions([colour], crowded)[colour]
        assert x == pytest.approx(sx)
        assert y < sy
        assert not touching((x, y), crowded)


def test_respotting_ignores_the_old_position_of_the_colour_itself():
    assert respot_positions(["black"], {"black": (100.0, 100.0)}) == {"black": SPOTS["black"]}


@pytest.mark.parametrize(
    ("colours", "message"),
    [(["red"], "only colours"), (["pink", "pink"], "twice"), (["white"], "only colours")],
)
def test_respot_rejects_bad_requests(colours, message):
    with pytest.raises(ValueError, match=message):
        respot_positions(colours, {})


def test_touching_lists_nearest_first_within_tolerance():
    balls = {
        "red-1": (CX, 1000.0 + D + 0.5),
        "red-2": (CX + D, 1000.0),
        "pink": (CX, 1000.0 - D - 5.0),
    }
    assert touching(CUE, balls) == ["red-2", "red-1"]
    assert touching(CUE, balls, GeometryConfig(touch_tolerance_mm=0.0)) == ["red-2"]


def test_spot_occupied_by_a_near_ball_but_not_by_a_distant_one():
    assert spot_occupied(SPOTS["pink"], {"red-1": (CX + D, SPOTS["pink"][1])})
    assert not spot_occupied(SPOTS["pink"], {"red-1": (CX + D + 5.0, SPOTS["pink"][1])})


# ---------------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    ("balls", "on", "message"),
    [
        ({"red-1": FAR}, ["red-2"], "not on the table"),
        ({"red-1": FAR}, [], "no ball is on"),
        ({"white": FAR, "red-1": FAR}, ["red-1"], "cue ball"),
        ({"purple": FAR}, ["purple"], "unknown ball"),
        ({"red-1": (math.nan, 1.0)}, ["red-1"], "finite"),
        ({"red-1": (1.0,)}, ["red-1"], "pair"),
    ],
)
def test_bad_input_is_named(balls, on, message):
    for question in (snookered, clear_path_to_any_part, full_ball_available):
        with pytest.raises(ValueError, match=message):
            question(CUE, balls, on)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"touch_tolerance_mm": -1.0},
        {"d_sampling_step_mm": 0.0},
        {"boundary_offset_mm": 1e-9},
        {"batch_size": 0},
        {"same_distance_mm": -0.5},
    ],
)
def test_config_rejects_nonsense(kwargs):
    with pytest.raises(ValueError, match="GeometryConfig"):
        GeometryConfig(**kwargs)


# ---------------------------------------------------------------------------------------------
# Properties

_coord_x = st.integers(30, 1748).map(float)
_coord_y = st.integers(30, 3539).map(float)
_position = st.tuples(_coord_x, _coord_y)


_crowded = st.tuples(st.integers(750, 1050).map(float), st.integers(1000, 1350).map(float))


@st.composite
def _layouts(draw, max_balls: int = 12):
    """A cue-ball position and non-overlapping balls, some of them on; often crowded together."""
    where = draw(st.sampled_from([_position, _crowded]))
    cue = draw(where)
    count = draw(st.integers(1, max_balls))
    placed: list[tuple[float, float]] = []
    for _ in range(count):
        p = draw(where)
        if all(math.dist(p, q) >= D for q in [*placed, cue]):
            placed.append(p)
    assume(placed)
    pool = draw(st.permutations([*COLOURS, *(f"red-{k}" for k in range(1, 10))]))
    names = pool[: len(placed)]
    balls = dict(zip(names, placed, strict=True))
    on_flags = draw(st.lists(st.booleans(), min_size=len(names), max_size=len(names)))
    on = [n for n, flag in zip(names, on_flags, strict=True) if flag] or [names[0]]
    return cue, balls, on


def _mirror(p):
    return (STANDARD_TABLE.width_mm - p[0], p[1])


_fast = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_fast
@given(_position, _position)
def test_a_lone_ball_on_is_never_snookered(cue, target):
    assume(math.dist(cue, target) >= D)
    balls = {"pink": target}
    assert not snookered(cue, balls, ["pink"])
    assert clear_path_to_any_part(cue, balls, ["pink"])
    assert full_ball_available(cue, balls, ["pink"])


@_fast
@given(_layouts(), _position)
def test_adding_a_ball_on_never_snookers(layout, extra):
    cue, balls, on = layout
    assume(all(math.dist(extra, q) >= D for q in [*balls.values(), cue]))
    more = {**balls, "red-15": extra}
    assert snookered(cue, more, [*on, "red-15"]) <= snookered(cue, balls, on)
    assert clear_path_to_any_part(cue, more, [*on, "red-15"]) >= clear_path_to_any_part(cue, balls, on)


@_fast
@given(_layouts())
def test_turning_a_ball_not_on_into_a_ball_on_never_snookers(layout):
    cue, balls, on = layout
    off = [n for n in balls if n not in on]
    assume(off)
    assert snookered(cue, balls, [*on, off[0]]) <= snookered(cue, balls, on)


@_fast
@given(_layouts())
def test_removing_a_ball_not_on_never_snookers(layout):
    cue, balls, on = layout
    off = [n for n in balls if n not in on]
    assume(off)
    fewer = {n: p for n, p in balls.items() if n != off[0]}
    assert snookered(cue, fewer, on) <= snookered(cue, balls, on)
    assert full_ball_available(cue, fewer, on) >= full_ball_available(cue, balls, on)


@_fast
@given(_layouts())
def test_the_answers_are_consistent_with_each_other(layout):
    cue, balls, on = layout
    any_part = clear_path_to_any_part(cue, balls, on)
    if not snookered(cue, balls, on):
        assert any_part
    if full_ball_available(cue, balls, on):
        assert any_part


@_fast
@given(_layouts())
def test_mirror_symmetry_with_the_cue_ball_on_the_table(layout):
    cue, balls, on = layout
    mirrored = {n: _mirror(p) for n, p in balls.items()}
    for question in (snookered, clear_path_to_any_part, full_ball_available):
        assert question(cue, balls, on) == question(_mirror(cue), mirrored, on)


@_fast
@given(_layouts(), st.floats(0.0, 2.0 * math.pi))
def test_cushions_do_not_matter_so_rotating_everything_changes_nothing(layout, angle):
    """A cushion never snookers; for the miss questions (angled, 3.14) the cushions are turned off
    (``cushion_tolerance_mm`` of a radius) since a rotated layout leaves the table."""
    cue, balls, on = layout
    c, s = math.cos(angle), math.sin(angle)

    def turn(p):
        return (c * p[0] - s * p[1], s * p[0] + c * p[1])

    turned = {n: turn(p) for n, p in balls.items()}
    assert snookered(cue, balls, on) == snookered(turn(cue), turned, on)
    no_cushions = GeometryConfig(cushion_tolerance_mm=D / 2.0)
    for question in (clear_path_to_any_part, full_ball_available):
        unturned = question(cue, balls, on, config=no_cushions)
        assert unturned == question(turn(cue), turned, on, config=no_cushions)
        assert unturned == question(cue, balls, on)  # on the cloth the cushions never stop a line


@st.composite
def _in_hand_layouts(draw):
    """Balls crowding the baulk area, so that the D is often partly or wholly screened."""
    count = draw(st.integers(2, 9))
    placed: list[tuple[float, float]] = []
    for _ in range(count):
        p = (float(draw(st.integers(450, 1330))), float(draw(st.integers(500, 1400))))
        if all(math.dist(p, q) >= D for q in placed):
            placed.append(p)
    assume(len(placed) >= 2)
    names = [f"red-{k + 1}" for k in range(len(placed) - 1)] + ["black"]
    balls = dict(zip(names, placed, strict=True))
    on = draw(st.sampled_from([["black"], names[:1], names[:-1]]))
    return balls, on


_in_hand = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_COARSE = GeometryConfig(d_sampling_step_mm=150.0)


@_in_hand
@given(_in_hand_layouts())
def test_in_hand_mirror_symmetry(layout):
    balls, on = layout
    mirrored = {n: _mirror(p) for n, p in balls.items()}
    assert snookered(None, balls, on) == snookered(None, mirrored, on)


@_in_hand
@given(_in_hand_layouts())
def test_in_hand_answers_do_not_depend_on_the_sampling_grid(layout):
    """The critical placements alone find what a dense grid finds, and every witness is genuine.

    The coarse search also leaves out the balls that cannot matter from the D; the fine one keeps all.
    """
    balls, on = layout
    cfg, table = geo.DEFAULT_GEOMETRY_CONFIG, STANDARD_TABLE
    for make in (geo._can_hit_both_edges, geo._any_part_open, geo._full_ball_open):
        coarse = make(balls, on, table, _COARSE, in_hand=True).where_in_hand(table, _COARSE)
        fine = make(balls, on, table, cfg).where_in_hand(table, cfg)
        assert (coarse is None) == (fine is None), make.__name__
        for where in (coarse, fine):
            if where is not None:
                assert table.in_d(where)[0]
                assert not touching(tuple(where), balls, cfg)
                assert make(balls, on, table, cfg).answer(tuple(where), table, cfg)


@_fast
@given(
    st.sets(st.sampled_from(["yellow", "green", "brown", "blue", "pink", "black"]), min_size=1), _layouts()
)
def test_spotted_colours_never_touch_anything(colours, layout):
    cue, balls, _ = layout
    placed = respot_positions(sorted(colours), balls, cue=cue)
    assert set(placed) == colours
    staying = {n: p for n, p in balls.items() if n not in colours}
    for name, where in placed.items():
        others = [*staying.values(), cue, *(p for n, p in placed.items() if n != name)]
        assert all(math.dist(where, q) > D for q in others)
    first = max(colours, key=list(SPOTS).index)
    if not spot_occupied(SPOTS[first], staying, cue=cue):
        assert placed[first] == SPOTS[first]


# ---------------------------------------------------------------------------------------------
# An independent, brute-force reading of the definitions (segments and sampled directions)


def _segment_gap(p, q, c) -> float:
    """Distance from point c to the segment p→q (mm)."""
    p, q, c = np.asarray(p), np.asarray(q), np.asarray(c)
    span = q - p
    t = np.clip(np.dot(c - p, span) / max(np.dot(span, span), 1e-12), 0.0, 1.0)
    return float(np.linalg.norm(p + t * span - c))


def _sweep_is_clear(cue, contact, obstacles) -> bool:
    """The cue ball's centre moves cue→contact without coming within a diameter of an obstacle."""
    return all(_segment_gap(cue, contact, c) >= D - 1e-6 for c in obstacles)


def _edge_contacts(cue, target):
    """Where the cue ball's centre is when it grazes ``target`` on its left and right edges."""
    dx, dy = target[0] - cue[0], target[1] - cue[1]
    dist = math.hypot(dx, dy)
    half = math.asin(min(D / dist, 1.0))
    reach = math.sqrt(max(dist * dist - D * D, 0.0))
    base = math.atan2(dy, dx)
    return [(cue[0] + reach * math.cos(a), cue[1] + reach * math.sin(a)) for a in (base - half, base + half)]


def _first_hits(cue, angles, balls, within_cushions: bool = False) -> list[str | None]:
    """For each direction, the id of the first ball the cue ball meets (solving |p + t·u - c| = D).
    ``within_cushions``: None where the cue ball's centre would meet it beyond a radius inside the
    cushions' lines (the cue ball would strike a cushion first; the rule geometry knows the
    cushions, this sampling only the rectangle they bound)."""
    names = list(balls)
    u = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    w = np.array([balls[n] for n in names]) - np.asarray(cue)
    b = u @ w.T
    disc = b * b - (np.sum(w * w, axis=1) - D * D)[None, :]
    t = np.where((disc > 0.0) & (b > 0.0), b - np.sqrt(np.maximum(disc, 0.0)), np.inf)
    first = np.argmin(t, axis=1)
    hits = [names[k] if np.isfinite(t[i, k]) else None for i, k in enumerate(first)]
    if not within_cushions:
        return hits
    reach = np.where(np.isfinite(t[np.arange(len(first)), first]), t[np.arange(len(first)), first], 0.0)
    contact = np.asarray(cue) + reach[:, None] * u
    radius = D / 2
    inside = (
        (contact[:, 0] >= radius)
        & (contact[:, 0] <= STANDARD_TABLE.width_mm - radius)
        & (contact[:, 1] >= radius)
        & (contact[:, 1] <= STANDARD_TABLE.length_mm - radius)
    )
    return [hit if ok else None for hit, ok in zip(hits, inside, strict=True)]


def _reference_snookered(cue, balls, on) -> bool:
    obstacles = [p for n, p in balls.items() if n not in on]
    return not any(
        all(_sweep_is_clear(cue, contact, obstacles) for contact in _edge_contacts(cue, balls[n])) for n in on
    )


_SAMPLED_DIRECTIONS = 1440


@_fast
@given(_layouts())
def test_snookered_matches_a_brute_force_reading_of_the_definition(layout):
    cue, balls, on = layout
    assert snookered(cue, balls, on) == _reference_snookered(cue, balls, on)


@_fast
@given(_layouts())
def test_every_sampled_open_direction_is_found(layout):
    cue, balls, on = layout
    angles = np.linspace(0.0, 2.0 * math.pi, _SAMPLED_DIRECTIONS, endpoint=False)
    sampled_open = any(hit in on for hit in _first_hits(cue, angles, balls, within_cushions=True))
    if sampled_open:
        assert clear_path_to_any_part(cue, balls, on)


@_fast
@given(_layouts())
def test_full_ball_matches_sampled_paths(layout):
    """A colour: exactly its centre line. A red: every sampled path across it (exact ⊂ sampled)."""
    cue, balls, on = layout
    obstacles = [p for n, p in balls.items() if n not in on]
    colour_centre_clear, red_width_clear = False, False
    for name in on:
        centre = balls[name]
        dist = math.dist(cue, centre)
        contact = (
            cue[0] + (centre[0] - cue[0]) * (1 - D / dist),
            cue[1] + (centre[1] - cue[1]) * (1 - D / dist),
        )
        centre_clear = _sweep_is_clear(cue, contact, obstacles)
        if not name.startswith("red"):
            colour_centre_clear |= centre_clear
            continue
        half = math.asin(min(D / dist, 1.0))
        base = math.atan2(centre[1] - cue[1], centre[0] - cue[0])
        others = {n: p for n, p in balls.items() if n not in on or n == name}
        across = base + np.linspace(-half, half, 201)[1:-1]
        edges_clear = all(_sweep_is_clear(cue, c, obstacles) for c in _edge_contacts(cue, centre))
        red_width_clear |= edges_clear and all(hit == name for hit in _first_hits(cue, across, others))
    available = full_ball_available(cue, balls, on)
    if colour_centre_clear:
        assert available
    if available:
        assert colour_centre_clear or red_width_clear


def test_snookering_balls_nearest_to_the_cue_ball_first():
    balls = {"red-1": FAR, "pink": (CX + 10.0, 1800.0), "blue": (CX - 20.0, 1300.0), "green": (100.0, 1500.0)}
    assert geo.snookering_balls(CUE, balls, ["red-1"]) == ["blue", "pink"]
    assert geo.snookering_balls(CUE, {"red-1": FAR, "green": (100.0, 1500.0)}, ["red-1"]) == []


@pytest.mark.parametrize(
    ("left", "right", "right_farther_mm", "effective"),
    [
        # side by side, each hiding one side of the red: both as near, whichever name sorts first
        ("pink", "blue", 0.0, {"pink", "blue"}),
        ("blue", "pink", 0.0, {"pink", "blue"}),
        ("blue", "pink", 0.5, {"pink", "blue"}),  # within same_distance_mm (1 mm)
        ("blue", "pink", 30.0, {"blue"}),  # the nearer one alone
        ("pink", "blue", 30.0, {"pink"}),
    ],
)
def test_effective_snookering_balls_are_the_nearest_and_every_one_as_near(
    left, right, right_farther_mm, effective
):
    balls = {"red-1": (CX, 2200.0), left: (CX - 30.0, 1400.0), right: (CX + 30.0, 1400.0 + right_farther_mm)}
    assert set(geo.snookering_balls(CUE, balls, ["red-1"])) == {"pink", "blue"}
    assert set(geo.effective_snookering_balls(CUE, balls, ["red-1"])) == effective
    assert geo.effective_snookering_balls(CUE, {"red-1": (CX, 2200.0)}, ["red-1"]) == []


@_fast
@given(_layouts())
def test_without_its_snookering_balls_the_cue_ball_is_not_snookered(layout):
    cue, balls, on = layout
    culprits = geo.snookering_balls(cue, balls, on)
    assert bool(culprits) == snookered(cue, balls, on)
    cleared = {n: p for n, p in balls.items() if n not in culprits}
    assert not snookered(cue, cleared, on)
