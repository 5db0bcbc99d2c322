"""Scripted strokes, each named for what it shows, deterministic from a seed.

A scenario builds a layout and a shot from the seed's random generator, simulates it, and checks
that the outcome is what its name says; when a candidate does not show it (a pot that missed, a
rattle that dropped), the next candidate from the same generator is tried. So the same seed gives
the same scenario, and every scenario's truth is what its name promises.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from snooker.balls import COLOURS, CUE_BALL, POCKET_NAMES
from snooker.calibration.table import STANDARD_TABLE, TableSpec
from snooker.datasets.synth.physics import PhysicsConfig, Shot, Trajectory, simulate
from snooker.datasets.synth.truth import stroke_truths

R = STANDARD_TABLE.ball_radius_mm
D = STANDARD_TABLE.ball_diameter_mm


class ScenarioError(RuntimeError):
    """No candidate from the generator showed what the scenario is named for."""


@dataclass(frozen=True)
class Scenario:
    """A simulated, checked scenario: its name, the ball on, and the trajectory."""

    name: str
    ball_on: str
    trajectory: Trajectory
    description: str


@dataclass(frozen=True)
class ScenarioConfig:
    """Search limits and the physics used by every scenario."""

    attempts: int = 60
    """Candidates tried before a scenario gives up."""
    physics: PhysicsConfig = field(default_factory=PhysicsConfig)
    fps: float = 30.0
    lead_in_s: float = 0.5
    tail_s: float = 0.6


def _aim(src, dst) -> float:
    return math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0]))


def _free(
    layout: dict, xy, clearance: float = D + 2.0, table: TableSpec = STANDARD_TABLE, cushion_mm: float = 5.0
) -> bool:
    """Whether ``xy`` lies at least ``cushion_mm`` beyond a ball radius from every cushion and
    ``clearance`` from every ball of ``layout``."""
    if not table.on_playing_area(np.asarray(xy), margin_mm=-cushion_mm)[0]:
        return False
    return all(math.dist(xy, p) >= clearance for p in layout.values())


def _colours_on_spots(table: TableSpec = STANDARD_TABLE) -> dict:
    return {c: table.spots[c] for c in COLOURS}


def _scatter_reds(
    rng, layout: dict, n: int, keep_clear: list[tuple], table: TableSpec = STANDARD_TABLE
) -> dict:
    """Add ``n`` reds at random free places at least 90 mm from each segment in ``keep_clear``."""
    out = dict(layout)
    k = 1 + sum(1 for b in out if b.startswith("red-"))
    tries = 0
    while n > 0 and tries < 500:
        tries += 1
        xy = (float(rng.uniform(80, table.width_mm - 80)), float(rng.uniform(900, table.length_mm - 80)))
        if not _free(out, xy, D + 20):
            continue
        if any(_segment_distance(np.asarray(xy), np.asarray(a), np.asarray(b)) < 90 for a, b in keep_clear):
            continue
        out[f"red-{k}"] = xy
        k += 1
        n -= 1
    return out


def _segment_distance(p, a, b) -> float:
    ab = b - a
    t = float(np.clip((p - a) @ ab / max(ab @ ab, 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def _search(name: str, rng, config: ScenarioConfig, build: Callable, check: Callable) -> tuple:
    for _ in range(config.attempts):
        candidate = build(rng)
        if candidate is None:
            continue
        layout, shots = candidate[0], candidate[1]
        try:
            traj = simulate(
                layout,
                shots,
                fps=config.fps,
                lead_in_s=config.lead_in_s,
                tail_s=config.tail_s,
                config=config.physics,
            )
        except ValueError:
            continue
        strokes = stroke_truths(traj)
        if check(traj, strokes, candidate):
            return traj, candidate
    raise ScenarioError(f"scenario {name}: no candidate in {config.attempts} showed it")


def _pocket_target(pocket: str, table: TableSpec = STANDARD_TABLE) -> np.ndarray:
    """A point a little inside the pocket mouth to aim object balls at."""
    p = table.pockets[pocket]
    mouth, drop = np.asarray(p.mouth_centre), np.asarray(p.drop_centre)
    return mouth + 0.3 * (drop - mouth)


def _pocket_axis_deg(pocket: str, table: TableSpec = STANDARD_TABLE) -> float:
    p = table.pockets[pocket]
    return _aim(p.drop_centre, p.mouth_centre)  # pointing from the pocket into the table


def _straight_pot(rng, pocket: str, object_ball: str, spread_deg: float, extra_reds: int = 3):
    target = _pocket_target(pocket)
    axis = _pocket_axis_deg(pocket) + rng.uniform(-spread_deg, spread_deg)
    direction = np.array([math.cos(math.radians(axis)), math.sin(math.radians(axis))])
    obj = target + direction * rng.uniform(250, 900)
    white = obj + direction * rng.uniform(350, 900)
    layout = {b: xy for b, xy in _colours_on_spots().items() if b != object_ball}
    if not _free(layout, tuple(obj)) or not _free(layout, tuple(white)):
        return None
    layout[object_ball] = tuple(map(float, obj))
    layout[CUE_BALL] = tuple(map(float, white))
    for bid, xy in list(layout.items()):
        if bid not in (object_ball, CUE_BALL) and (_segment_distance(np.asarray(xy), white, target) < D + 5):
            del layout[bid]
    layout = _scatter_reds(rng, layout, extra_reds, [(white, obj), (obj, target)])
    return layout, Shot(float(rng.uniform(1800, 3200)), _aim(white, obj), top=float(rng.uniform(-0.3, 0.4)))


# ------------------------------------------------------------------------------ the scenarios
def plain_pot(pocket: str):
    """A straight pot of a red into ``pocket``."""

    def make(rng, config: ScenarioConfig) -> Scenario:
        spread = 25.0 if pocket.startswith("middle") else 20.0

        def build(r):
            made = _straight_pot(r, pocket, "red-1", spread)
            return made

        def check(traj, strokes, _):
            log = strokes[0]["log"]
            return (
                log["first_contact"] == ["red"]
                and [p["pocket"] for p in log["potted"]] == [pocket]
                and log["cue_ball"] == "on_table"
            )

        traj, _ = _search(f"plain_pot_{pocket}", rng, config, build, check)
        return Scenario(f"plain_pot_{pocket}", "red", traj, f"a red potted straight into {pocket}")

    return make


def ball_not_on_hit_first(rng, config: ScenarioConfig) -> Scenario:
    """Red on; the cue ball hits a colour first."""

    def build(r):
        layout = _colours_on_spots()
        colour = str(r.choice(["blue", "pink", "black", "green", "yellow", "brown"]))
        target = np.asarray(layout[colour])
        angle = r.uniform(0, 2 * math.pi)
        white = target + np.array([math.cos(angle), math.sin(angle)]) * r.uniform(300, 800)
        if not _free(layout, tuple(white)):
            return None
        layout[CUE_BALL] = tuple(map(float, white))
        layout = _scatter_reds(r, layout, 5, [(white, target)])
        return layout, Shot(float(r.uniform(1200, 2500)), _aim(white, target), top=0.2), colour

    def check(traj, strokes, cand):
        return strokes[0]["log"]["first_contact"] == [cand[2]]

    traj, _ = _search("ball_not_on_hit_first", rng, config, build, check)
    return Scenario("ball_not_on_hit_first", "red", traj, "red on, the cue ball hits a colour first")


def two_balls_hit_at_once(rng, config: ScenarioConfig) -> Scenario:
    """The cue ball meets a red and a colour at the same instant (symmetric aim)."""

    def build(r):
        layout = _colours_on_spots()
        colour = str(r.choice(["pink", "black"]))
        del layout[colour]
        centre = np.array([r.uniform(400, 1400), r.uniform(1500, 2800)])
        across = r.uniform(0, math.pi)
        offset = np.array([math.cos(across), math.sin(across)]) * (D + r.uniform(4, 20)) / 2
        red, col = centre + offset, centre - offset
        normal = np.array([-offset[1], offset[0]]) / np.linalg.norm(offset)
        white = centre + normal * r.uniform(350, 800) * (1 if r.random() < 0.5 else -1)
        for xy in (red, col, white):
            if not _free(layout, tuple(xy)):
                return None
        layout.update(
            {
                "red-1": tuple(map(float, red)),
                colour: tuple(map(float, col)),
                CUE_BALL: tuple(map(float, white)),
            }
        )
        return layout, Shot(float(r.uniform(1500, 3000)), _aim(white, centre))

    def check(traj, strokes, _):
        return len(strokes[0]["log"]["first_contact"]) == 2

    traj, _ = _search("two_balls_hit_at_once", rng, config, build, check)
    return Scenario("two_balls_hit_at_once", "red", traj, "the cue ball hits a red and a colour at once")


def in_off(rng, config: ScenarioConfig) -> Scenario:
    """The cue ball follows a red into a pocket (or goes in off it)."""

    def build(r):
        pocket = str(r.choice(POCKET_NAMES))
        made = _straight_pot(r, pocket, "red-1", 12.0)
        if made is None:
            return None
        layout, shot = made
        return layout, Shot(
            shot.speed_mm_s, shot.angle_deg + r.uniform(-2.5, 2.5), top=float(r.uniform(0.45, 0.6))
        )

    def check(traj, strokes, _):
        log = strokes[0]["log"]
        return log["cue_ball"] == "potted" and log["first_contact"] == ["red"]

    traj, _ = _search("in_off", rng, config, build, check)
    return Scenario("in_off", "red", traj, "the cue ball goes into a pocket after hitting a red")


def forced_off_table(rng, config: ScenarioConfig) -> Scenario:
    """A red driven hard into a side cushion jumps off the table (scripted jump)."""

    def build(r):
        layout = _colours_on_spots()
        side_x = 0.0 if r.random() < 0.5 else STANDARD_TABLE.width_mm
        y = r.uniform(2000, 3000)
        red = np.array([abs(side_x - r.uniform(250, 500)), y])
        white = red + np.array(
            [(red[0] - side_x) / abs(red[0] - side_x) * r.uniform(300, 600), r.uniform(-150, 150)]
        )
        if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        return layout, Shot(float(r.uniform(5000, 7000)), _aim(white, red), leaves_table=("red-1",))

    def check(traj, strokes, _):
        return strokes[0]["log"]["off_table"] == ["red"] and strokes[0]["log"]["first_contact"] == ["red"]

    traj, _ = _search("forced_off_table", rng, config, build, check)
    return Scenario("forced_off_table", "red", traj, "a red is forced off the table")


def touching_ball(rng, config: ScenarioConfig) -> Scenario:
    """The cue ball hits a red, rolls on and comes to rest touching another red.

    Built in two passes: the stroke is simulated without the second red, which is then placed
    just ahead of where the cue ball stopped, along its last direction of travel (the cue ball
    stops a fraction of a millimetre short of it); the stroke is simulated again with it.
    """

    def build(r):
        return _red_where_the_cue_ball_stops(r, config, TOUCHING_GAP_MM)

    def check(traj, strokes, _):
        log = strokes[0]["log"]
        return (
            log["touching"] == ["red"]
            and strokes[0]["touching_ids"] == ["red-2"]
            and log["first_contact"] == ["red"]
        )

    traj, _ = _search("touching_ball", rng, config, build, check)
    return Scenario(
        "touching_ball", "red", traj, "the cue ball hits a red and comes to rest touching another"
    )


def pot_rattles_out(rng, config: ScenarioConfig) -> Scenario:
    """A red sent at a corner pocket hits the jaws and stays out."""

    def build(r):
        pocket = str(r.choice(["baulk_left", "baulk_right", "top_left", "top_right"]))
        made = _straight_pot(r, pocket, "red-1", 15.0, extra_reds=2)
        if made is None:
            return None
        layout, shot = made
        return (
            layout,
            Shot(shot.speed_mm_s * r.uniform(0.9, 1.6), shot.angle_deg + r.uniform(-2.2, 2.2), top=0.2),
            pocket,
        )

    def check(traj, strokes, cand):
        jaw_hits = [
            e
            for e in traj.events
            if e.kind == "cushion" and e.balls == ("red-1",) and e.where.startswith("jaw:")
        ]
        return (
            bool(jaw_hits)
            and not strokes[0]["log"]["potted"]
            and strokes[0]["log"]["first_contact"] == ["red"]
        )

    traj, _ = _search("pot_rattles_out", rng, config, build, check)
    return Scenario("pot_rattles_out", "red", traj, "a red hits the jaws of a pocket and stays out")


def pack_split(rng, config: ScenarioConfig) -> Scenario:
    """The break-off: from the D into the side of the full pack."""
    table = STANDARD_TABLE

    def build(r):
        layout = dict(table.rack_positions())
        cx, by = table.d_centre
        white = (cx + r.uniform(60, 250) * (1 if r.random() < 0.5 else -1), by - r.uniform(0, 60))
        if not table.in_d(np.asarray(white))[0] or not _free(layout, white):
            return None
        layout[CUE_BALL] = tuple(map(float, white))
        back_row = sorted((b for b in layout if b.startswith("red-")), key=lambda b: -layout[b][1])[:5]
        end_red = max(back_row, key=lambda b: layout[b][0] * np.sign(white[0] - cx))
        target = np.asarray(layout[end_red]) + np.array([np.sign(white[0] - cx) * r.uniform(30, 45), 0.0])
        side = -0.3 * np.sign(white[0] - cx)
        return layout, Shot(float(r.uniform(6500, 8500)), _aim(white, target), top=-0.1, side=float(side))

    def check(traj, strokes, _):
        log = strokes[0]["log"]
        moved = sum(
            1
            for b in traj.balls
            if b.startswith("red-") and any(b in e.balls for e in traj.events if e.kind == "ball_ball")
        )
        return log["first_contact"] == ["red"] and log["cue_ball"] == "on_table" and moved >= 3

    traj, _ = _search("pack_split", rng, config, build, check)
    return Scenario("pack_split", "red", traj, "the break-off splits the pack")


def stroke_while_ball_moving(rng, config: ScenarioConfig) -> Scenario:
    """A second stroke is played while a red from the first one still rolls."""

    def build(r):
        layout = _colours_on_spots()
        red = np.array([r.uniform(400, 1400), r.uniform(1300, 2600)])
        angle = r.uniform(math.radians(60), math.radians(120))
        white = red - np.array([math.cos(angle), math.sin(angle)]) * r.uniform(300, 600)
        if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        first = Shot(float(r.uniform(1500, 2500)), _aim(white, red), top=0.0)
        second = Shot(
            float(r.uniform(800, 1500)), float(r.uniform(0, 360)), time_s=float(r.uniform(0.9, 1.4))
        )
        return layout, [first, second]

    def check(traj, strokes, _):
        return (
            len(strokes) == 2
            and bool(strokes[1]["balls_moving_at_strike"])
            and strokes[0]["log"]["first_contact"] == ["red"]
        )

    traj, _ = _search("stroke_while_ball_moving", rng, config, build, check)
    return Scenario("stroke_while_ball_moving", "red", traj, "a stroke is played while a ball still moves")


def miss(rng, config: ScenarioConfig) -> Scenario:
    """The cue ball hits nothing."""

    def build(r):
        layout = _scatter_reds(r, _colours_on_spots(), 6, [])
        white = (float(r.uniform(300, 1400)), float(r.uniform(200, 600)))
        if not _free(layout, white):
            return None
        layout[CUE_BALL] = white
        return layout, Shot(float(r.uniform(800, 2500)), float(r.uniform(0, 360)))

    def check(traj, strokes, _):
        return strokes[0]["log"]["first_contact"] == [] and strokes[0]["log"]["cue_ball"] == "on_table"

    traj, _ = _search("miss", rng, config, build, check)
    return Scenario("miss", "red", traj, "the cue ball hits no ball")


# ------------------------------------------------------------------------------ harder situations
def _unit(angle_rad: float) -> np.ndarray:
    return np.array([math.cos(angle_rad), math.sin(angle_rad)])


TOUCHING_GAP_MM = (0.05, 0.3)
"""How far (mm) beyond touching ``touching_ball`` places the red the cue ball stops against."""
NEAR_GAP_MM = (15.0, 25.0)
"""How far (mm) beyond touching ``cue_ball_rests_near_ball`` places the red the cue ball stops short of."""
LIP_GAP_MM = (3.0, 20.0)
"""How far (mm) outside the pocket's capture circle ``red_stops_in_the_jaws`` aims the red to stop..."""
LIP_GAP_MOST_MM = 25.0
"""...and the most its check accepts (the bisected speed leaves the red a little beyond the aim)."""
LIP_SPEEDS_MM_S = (400.0, 4000.0)
"""Cue-ball speeds (mm/s) between which ``red_stops_in_the_jaws`` bisects: short, then potted..."""
LIP_BISECTIONS = 16
"""...in this many halvings."""
THIN_CUT_TRAVEL_MM = (50.0, 150.0)
"""How far (mm) the red of ``thin_cut`` moves."""
OPEN_RED_Y_MM = (1200, 2800)
"""Where along the table (y, mm) the red of a red-and-cue-ball scenario stands, in the open."""


def _red_and_cue_ball_in_the_open(r, red_y_mm: tuple[float, float], gap_mm: tuple[float, float]):
    """The colours on their spots, ``red-1`` in the open (x 400-1400 mm, y drawn from ``red_y_mm``)
    and the cue ball a distance drawn from ``gap_mm`` from it in a random direction: (layout, red,
    cue ball) with the two places as arrays, or None where either lands on another ball. The draws
    come in that order (red x, red y, direction, distance), which the scenarios' seeds rely on."""
    layout = _colours_on_spots()
    red = np.array([r.uniform(400, 1400), r.uniform(*red_y_mm)])
    direction = _unit(r.uniform(0, 2 * math.pi))
    white = red - direction * r.uniform(*gap_mm)
    if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
        return None
    layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
    return layout, red, white


def _red_where_the_cue_ball_stops(r, config: ScenarioConfig, gap_mm: tuple[float, float]):
    """A red in the open and the cue ball sent at it with top spin; the stroke simulated, a second
    red placed ahead of where the cue ball stopped, along its last heading, a gap drawn from
    ``gap_mm`` beyond touching (the stroke is then simulated again with it). None where the draw
    does not fit."""
    placed = _red_and_cue_ball_in_the_open(r, OPEN_RED_Y_MM, (250, 600))
    if placed is None:
        return None
    layout, red, white = placed
    aim = _aim(white, red) + r.uniform(-25, 25)
    shot = Shot(float(r.uniform(900, 1800)), aim, top=float(r.uniform(0.1, 0.4)))
    first = _simulate_or_none(layout, shot, config)
    if first is None or CUE_BALL not in first.final_layout or len(first.pieces[CUE_BALL]) < 2:
        return None
    last = first.pieces[CUE_BALL][-2]
    if np.linalg.norm(last.v0) == 0:
        return None
    heading = np.asarray(last.v0) / np.linalg.norm(last.v0)
    second = np.asarray(first.final_layout[CUE_BALL]) + heading * (D + r.uniform(*gap_mm))
    others = {b: xy for b, xy in {**layout, **first.final_layout}.items() if b != CUE_BALL}
    if not _free(others, tuple(second)):
        return None
    layout["red-2"] = tuple(map(float, second))
    return layout, shot


def _clear_paths(layout: dict, keep: tuple[str, ...], segments: list[tuple]) -> dict:
    """``layout`` without the balls (other than ``keep``) within a ball's width of any segment."""
    return {
        b: xy
        for b, xy in layout.items()
        if b in keep
        or all(_segment_distance(np.asarray(xy), np.asarray(a), np.asarray(c)) >= D + 5 for a, c in segments)
    }


def _simulate_or_none(layout: dict, shot, config: ScenarioConfig) -> Trajectory | None:
    try:
        return simulate(layout, shot, fps=config.fps, config=config.physics)
    except (ValueError, RuntimeError):
        return None


def kiss_two_in_quick_succession(rng, config: ScenarioConfig) -> Scenario:
    """The cue ball cuts a red and, a frame or a few later, kisses a colour lying on its path.

    The colour lies along the tangent line the stunned cue ball leaves the red on, 10–60 mm
    beyond the contact; the red is the first contact, the colour follows 35–150 ms later.
    """

    def build(r):
        colour = str(r.choice(["blue", "pink", "black"]))
        layout = {b: xy for b, xy in _colours_on_spots().items() if b != colour}
        red = np.array([r.uniform(400, 1400), r.uniform(1300, 2800)])
        d = _unit(r.uniform(0, 2 * math.pi))
        cut = math.radians(r.uniform(25, 55)) * (1 if r.random() < 0.5 else -1)
        n = np.array(
            [d[0] * math.cos(cut) - d[1] * math.sin(cut), d[0] * math.sin(cut) + d[1] * math.cos(cut)]
        )
        ghost = red - D * n
        white = ghost - d * r.uniform(200, 450)
        tangent = d - (d @ n) * n
        tangent /= np.linalg.norm(tangent)
        col = ghost + tangent * (D + r.uniform(10, 60)) + n * r.uniform(-10, 10)
        layout = _clear_paths(layout, (), [(white, ghost), (ghost, col), (red, red + n * 600)])
        for xy in (red, white, col):
            if not _free(layout, tuple(xy)):
                return None
        if math.dist(col, red) < D + 2 or math.dist(col, white) < D + 2:
            return None
        layout.update(
            {
                "red-1": tuple(map(float, red)),
                colour: tuple(map(float, col)),
                CUE_BALL: tuple(map(float, white)),
            }
        )
        shot = Shot(float(r.uniform(1200, 2500)), _aim(white, ghost), top=float(r.uniform(-0.15, 0.15)))
        return layout, shot, colour

    def check(traj, strokes, cand):
        contacts = [e for e in traj.events if e.kind == "ball_ball" and CUE_BALL in e.balls]
        if strokes[0]["log"]["first_contact"] != ["red"] or len(contacts) < 2:
            return False
        second = contacts[1]
        return cand[2] in second.balls and 0.035 <= second.t - contacts[0].t <= 0.15

    traj, _ = _search("kiss_two_in_quick_succession", rng, config, build, check)
    return Scenario(
        "kiss_two_in_quick_succession",
        "red",
        traj,
        "the cue ball hits a red, then a colour a few frames later (the red is first)",
    )


def double_into_middle(rng, config: ScenarioConfig) -> Scenario:
    """A red doubled off the side cushion across the table into the opposite middle pocket.

    The red's direction is found by simulating it alone (struck as a ball, no spin, as a full-ball
    contact leaves it) over a fan of angles around the mirror aim; the cue ball is then placed
    straight behind it.
    """
    table = STANDARD_TABLE

    def build(r):
        right = r.random() < 0.5
        pocket = "middle_left" if right else "middle_right"
        nose = table.width_mm - R if right else R
        inward = -1.0 if right else 1.0
        red = np.array(
            [
                nose + inward * r.uniform(40, 250),
                table.length_mm / 2 + r.choice([-1, 1]) * r.uniform(250, 650),
            ]
        )
        target = _pocket_target(pocket)
        mirror = np.array([2 * nose - target[0], target[1]])
        aim = _aim(red, mirror)
        distance = r.uniform(300, 600)
        speed = float(r.uniform(2800, 4200))
        impact = math.sqrt(
            max(speed**2 - 2 * config.physics.mu_slide * config.physics.gravity_mm_s2 * distance, 1e4)
        )
        red_speed = 0.5 * (1 + config.physics.e_ball) * impact
        good = []
        for off in np.arange(-5.0, 5.01, 0.25):
            alone = _simulate_or_none({"red-1": tuple(red)}, Shot(red_speed, aim + off, ball="red-1"), config)
            if alone is not None and any(e.kind == "pot" and e.where == pocket for e in alone.events):
                good.append(off)
        if not good:
            return None
        aim += good[len(good) // 2]
        direction = _unit(math.radians(aim))
        white = red - direction * distance
        bounce = red + direction * (abs(nose - red[0]) / max(abs(direction[0]), 1e-6))
        layout = _clear_paths(_colours_on_spots(), (), [(white, red), (red, bounce), (bounce, target)])
        if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        layout = _scatter_reds(r, layout, 2, [(white, red), (red, bounce), (bounce, target)])
        return layout, Shot(speed, aim, top=0.0), pocket

    def check(traj, strokes, cand):
        log = strokes[0]["log"]
        pots = [e for e in traj.events if e.kind == "pot"]
        cushions = [
            e
            for e in traj.events
            if e.kind == "cushion" and e.balls == ("red-1",) and not e.where.startswith("jaw:")
        ]
        return (
            log["first_contact"] == ["red"]
            and log["potted"] == [{"ball": "red", "pocket": cand[2]}]
            and log["cue_ball"] == "on_table"
            and bool(cushions)
            and bool(pots)
            and cushions[0].t < pots[0].t
        )

    traj, _ = _search("double_into_middle", rng, config, build, check)
    return Scenario("double_into_middle", "red", traj, "a red doubled off a cushion into a middle pocket")


def cue_ball_rests_near_ball(rng, config: ScenarioConfig) -> Scenario:
    """Like ``touching_ball``, but the cue ball stops 15–25 mm short of the second red: not touching."""

    def build(r):
        return _red_where_the_cue_ball_stops(r, config, NEAR_GAP_MM)

    def check(traj, strokes, _):
        log = strokes[0]["log"]
        after = traj.final_layout
        if CUE_BALL not in after or "red-2" not in after:
            return False
        gap = math.dist(after[CUE_BALL], after["red-2"]) - D
        near = NEAR_GAP_MM[0] <= gap <= NEAR_GAP_MM[1]
        return log["touching"] == [] and log["first_contact"] == ["red"] and near

    traj, _ = _search("cue_ball_rests_near_ball", rng, config, build, check)
    return Scenario(
        "cue_ball_rests_near_ball", "red", traj, "the cue ball stops 15-25 mm from a red, not touching it"
    )


def _capture_gap(xy, pocket: str, geo) -> float:
    """How far a ball centre at ``xy`` is outside ``pocket``'s capture circle (mm)."""
    drop = np.asarray(STANDARD_TABLE.pockets[pocket].drop_centre)
    return float(np.linalg.norm(np.asarray(xy) - drop)) - geo.capture_radius_mm(pocket)


def _red_short_of_the_lip(r, config: ScenarioConfig, geo):
    """A red sent slowly straight at a corner pocket, the cue-ball speed bisected between a stroke
    that leaves it short and one that pots it, for the largest that leaves it at least a gap drawn
    from ``LIP_GAP_MM`` outside the capture circle: (layout, shot, pocket), None where the draw
    does not fit."""
    pocket = str(r.choice(["baulk_left", "baulk_right", "top_left", "top_right"]))
    made = _straight_pot(r, pocket, "red-1", spread_deg=12.0, extra_reds=2)
    if made is None:
        return None
    layout, shot = made
    want = r.uniform(*LIP_GAP_MM)

    def short_enough(speed):
        traj = _simulate_or_none(layout, Shot(speed, shot.angle_deg, top=0.0), config)
        if traj is None:
            return None
        if any(e.kind == "pot" for e in traj.events) or "red-1" not in traj.final_layout:
            return False
        return _capture_gap(traj.final_layout["red-1"], pocket, geo) >= want

    found = _bisect_speeds(short_enough, *LIP_SPEEDS_MM_S, slow_answer=True)
    if found is None:
        return None
    return layout, Shot(found[0], shot.angle_deg, top=0.0), pocket


def _bisect_speeds(answer, lo: float, hi: float, slow_answer: bool) -> tuple[float, float] | None:
    """[lo, hi] (mm/s) narrowed ``LIP_BISECTIONS`` times around the speed where ``answer(speed)``
    turns from ``slow_answer`` (at ``lo``) to the other (at ``hi``); None where it does not, or
    where ``answer`` cannot tell (None)."""
    if answer(lo) is not slow_answer or answer(hi) is not (not slow_answer):
        return None
    for _ in range(LIP_BISECTIONS):
        mid = 0.5 * (lo + hi)
        ok = answer(mid)
        if ok is None:
            return None
        lo, hi = (mid, hi) if ok is slow_answer else (lo, mid)
    return lo, hi


def red_stops_in_the_jaws(rng, config: ScenarioConfig) -> Scenario:
    """A red sent slowly at a corner pocket stops on the lip, 3–20 mm short of dropping
    (``_red_short_of_the_lip``)."""
    from snooker.datasets.synth.geometry import GeometryConfig, TableGeometry

    geo = TableGeometry(STANDARD_TABLE, GeometryConfig())

    def build(r):
        return _red_short_of_the_lip(r, config, geo)

    def check(traj, strokes, cand):
        log = strokes[0]["log"]
        if log["potted"] or log["first_contact"] != ["red"] or "red-1" not in traj.final_layout:
            return False
        return 0.0 < _capture_gap(traj.final_layout["red-1"], cand[2], geo) <= LIP_GAP_MOST_MM

    traj, _ = _search("red_stops_in_the_jaws", rng, config, build, check)
    return Scenario(
        "red_stops_in_the_jaws", "red", traj, "a red stops on the lip of a corner pocket, not potted"
    )


def two_reds_potted(rng, config: ScenarioConfig) -> Scenario:
    """A red potted, and the cue ball runs on to pot a second red into another pocket.

    Two passes: the first pot is simulated alone, then the second red is placed on the cue ball's
    path after the contact, so that the cue ball meets it on the line of centres to a pocket.
    """
    table = STANDARD_TABLE

    def build(r):
        first_pocket = str(r.choice(POCKET_NAMES))
        target = _pocket_target(first_pocket)
        axis = math.radians(_pocket_axis_deg(first_pocket) + r.uniform(-20, 20))
        red = target + _unit(axis) * r.uniform(250, 800)
        u = -_unit(axis)  # the red's way to the pocket
        cut = math.radians(r.uniform(15, 45)) * (1 if r.random() < 0.5 else -1)
        d = np.array(
            [u[0] * math.cos(cut) - u[1] * math.sin(cut), u[0] * math.sin(cut) + u[1] * math.cos(cut)]
        )
        ghost = red - D * u
        white = ghost - d * r.uniform(250, 600)
        layout = _clear_paths(_colours_on_spots(), (), [(white, ghost), (red, target)])
        if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        shot = Shot(float(r.uniform(2500, 4000)), _aim(white, ghost), top=float(r.uniform(-0.2, 0.3)))
        first = _simulate_or_none(layout, shot, config)
        if first is None or [e.where for e in first.events if e.kind == "pot"] != [first_pocket]:
            return None
        contacts = [e for e in first.events if e.kind == "ball_ball" and CUE_BALL in e.balls]
        if len(contacts) != 1:
            return None
        t_hit = contacts[0].t
        stops = [
            e.t for e in first.events if e.kind in ("cushion", "rest") and CUE_BALL in e.balls and e.t > t_hit
        ]
        t_end = min(stops, default=first.rest_time)
        if t_end - t_hit < 0.1:
            return None
        t = t_hit + r.uniform(0.1, 0.8) * (t_end - t_hit)
        times = np.array([t - 0.01, t])
        p = first.position(CUE_BALL, times)[:, :2]
        heading = (p[1] - p[0]) / max(np.linalg.norm(p[1] - p[0]), 1e-9)
        cue_at = p[1]
        best = None
        for pocket in POCKET_NAMES:
            if pocket == first_pocket:
                continue
            target = _pocket_target(pocket)
            u = (target - cue_at) / np.linalg.norm(target - cue_at)
            cut = math.degrees(math.acos(float(np.clip(u @ heading, -1, 1))))
            if cut < 45 and (best is None or cut < best[0]):
                best = (cut, pocket, u)
        if best is None:
            return None
        _, second_pocket, u = best
        red2 = cue_at + D * u
        target = _pocket_target(second_pocket)
        if not table.on_playing_area(red2, margin_mm=-5.0)[0]:
            return None
        others = {b: xy for b, xy in layout.items() if b != CUE_BALL}
        if not _free(others, tuple(red2)) or math.dist(layout[CUE_BALL], red2) < D + 5:
            return None
        layout = _clear_paths(layout, ("red-1", CUE_BALL), [(red2, target)])
        layout["red-2"] = tuple(map(float, red2))
        return layout, shot, first_pocket, second_pocket

    def check(traj, strokes, cand):
        log = strokes[0]["log"]
        return (
            log["first_contact"] == ["red"]
            and sorted(p["pocket"] for p in log["potted"]) == sorted([cand[2], cand[3]])
            and all(p["ball"] == "red" for p in log["potted"])
            and log["cue_ball"] == "on_table"
        )

    traj, _ = _search("two_reds_potted", rng, config, build, check)
    return Scenario("two_reds_potted", "red", traj, "two reds potted in one stroke, into two pockets")


def thin_cut(rng, config: ScenarioConfig) -> Scenario:
    """The cue ball just grazes a red, which moves only 50–150 mm."""

    def build(r):
        layout = _colours_on_spots()
        red = np.array([r.uniform(400, 1400), r.uniform(1200, 2800)])
        d = _unit(r.uniform(0, 2 * math.pi))
        cut = math.radians(r.uniform(68, 84)) * (1 if r.random() < 0.5 else -1)
        n = np.array(
            [d[0] * math.cos(cut) - d[1] * math.sin(cut), d[0] * math.sin(cut) + d[1] * math.cos(cut)]
        )
        ghost = red - D * n
        white = ghost - d * r.uniform(250, 700)
        layout = _clear_paths(layout, (), [(white, ghost), (red, red + n * 200)])
        if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        layout = _scatter_reds(r, layout, 3, [(white, ghost + d * 900), (red, red + n * 300)])
        return layout, Shot(float(r.uniform(700, 2200)), _aim(white, ghost), top=float(r.uniform(0.0, 0.3)))

    def check(traj, strokes, _):
        log = strokes[0]["log"]
        if log["first_contact"] != ["red"] or log["potted"] or "red-1" not in traj.final_layout:
            return False
        moved = math.dist(traj.start_layout["red-1"], traj.final_layout["red-1"])
        others_still = all(
            traj.start_layout[b] == traj.final_layout.get(b)
            for b in traj.balls
            if b not in ("red-1", CUE_BALL)
        )
        return THIN_CUT_TRAVEL_MM[0] <= moved <= THIN_CUT_TRAVEL_MM[1] and others_still

    traj, _ = _search("thin_cut", rng, config, build, check)
    return Scenario("thin_cut", "red", traj, "a thin cut: the red moves only 50-150 mm")


IN_OFF_TOPS = (-0.4, -0.3, -0.2, -0.1, 0.0, 0.1, 0.2)
"""Tip heights (fractions of the radius) ``pot_then_in_off`` tries, keeping the middle one of
those that send the cue ball into the second pocket."""
QUICK_SUCCESSION_S = 1.0
"""The most time (s) between the two pots of ``two_reds_one_pocket``."""
SLOW_POT_SPEED_MM_S = (60.0, 400.0)
"""How fast (mm/s) the red of ``slow_roll_along_cushion`` enters the pocket (the tracker's
``pot_min_speed_mm_s`` is 60 mm/s)..."""
SLOW_ROLL_MIN_MM = 500.0
"""...after rolling at least this far (mm) along the cushion..."""
SLOW_ROLL_CUSHION_GAP_MM = (0.5, 4.0)
"""...its centre this far (mm) beyond a ball radius from the cushion nose when it sets off."""


def pot_then_in_off(rng, config: ScenarioConfig) -> Scenario:
    """A red cut into one pocket, and the cue ball runs off it into another (the in-off after a pot).

    The contact point lies on the circle whose diameter joins the two pocket targets (Thales), so
    the red's line to its pocket and the stunned cue ball's tangent line to the other meet at a
    right angle there; the cue ball comes in at a 20-55 degree cut, struck with the middle one of
    the ``IN_OFF_TOPS`` that send it into the second pocket.
    """
    table = STANDARD_TABLE

    def build(r):
        first, second = (str(p) for p in r.choice(POCKET_NAMES, size=2, replace=False))
        t1, t2 = _pocket_target(first), _pocket_target(second)
        centre, radius = (t1 + t2) / 2, float(np.linalg.norm(t1 - t2)) / 2
        ghost = centre + _unit(r.uniform(0, 2 * math.pi)) * radius
        if not table.on_playing_area(ghost, margin_mm=-150.0)[0]:
            return None
        if min(np.linalg.norm(ghost - t1), np.linalg.norm(ghost - t2)) < 300:
            return None
        u = (t1 - ghost) / np.linalg.norm(t1 - ghost)
        t = (t2 - ghost) / np.linalg.norm(t2 - ghost)
        alpha = math.radians(r.uniform(20, 55))
        d = math.cos(alpha) * u + math.sin(alpha) * t
        red = ghost + D * u
        white = ghost - d * r.uniform(250, 600)
        layout = _clear_paths(_colours_on_spots(), (), [(white, ghost), (red, t1), (ghost, t2)])
        if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        speed, aim = float(r.uniform(2500, 5000)), _aim(white, ghost)
        good = []
        for top in IN_OFF_TOPS:
            traj = _simulate_or_none(layout, Shot(speed, aim, top=top), config)
            if traj is not None and [(e.balls[0], e.where) for e in traj.events if e.kind == "pot"] == [
                ("red-1", first),
                (CUE_BALL, second),
            ]:
                good.append(top)
        if not good:
            return None
        return layout, Shot(speed, aim, top=good[len(good) // 2]), first

    def check(traj, strokes, cand):
        log = strokes[0]["log"]
        pots = [e.balls[0] for e in traj.events if e.kind == "pot"]
        return (
            log["first_contact"] == ["red"]
            and log["potted"] == [{"ball": "red", "pocket": cand[2]}]
            and log["cue_ball"] == "potted"
            and pots == ["red-1", CUE_BALL]
        )

    traj, _ = _search("pot_then_in_off", rng, config, build, check)
    return Scenario(
        "pot_then_in_off", "red", traj, "a red potted, then the cue ball runs into another pocket"
    )


def two_reds_one_pocket(rng, config: ScenarioConfig) -> Scenario:
    """Two reds in a line to a pocket: the cue ball drives the far one into the near one, which
    drops, and the far one follows it into the same pocket within ``QUICK_SUCCESSION_S``."""

    def build(r):
        pocket = str(r.choice(POCKET_NAMES))
        spread = 25.0 if pocket.startswith("middle") else 20.0
        target = _pocket_target(pocket)
        out = _unit(math.radians(_pocket_axis_deg(pocket) + r.uniform(-spread, spread)))
        near = target + out * r.uniform(150, 450)
        far = near + out * (D + r.uniform(150, 450))
        white = far + out * r.uniform(250, 500)
        layout = _clear_paths(_colours_on_spots(), (), [(white, target)])
        for xy in (near, far, white):
            if not _free(layout, tuple(xy)):
                return None
        layout.update(
            {
                "red-1": tuple(map(float, far)),
                "red-2": tuple(map(float, near)),
                CUE_BALL: tuple(map(float, white)),
            }
        )
        layout = _scatter_reds(r, layout, 2, [(white, target)])
        return (
            layout,
            Shot(float(r.uniform(2000, 4500)), _aim(white, far), top=float(r.uniform(-0.4, 0.0))),
            pocket,
        )

    def check(traj, strokes, cand):
        log = strokes[0]["log"]
        pots = [e for e in traj.events if e.kind == "pot"]
        return (
            log["first_contact"] == ["red"]
            and log["potted"] == [{"ball": "red", "pocket": cand[2]}] * 2
            and log["cue_ball"] == "on_table"
            and len(pots) == 2
            and pots[1].t - pots[0].t <= QUICK_SUCCESSION_S
        )

    traj, _ = _search("two_reds_one_pocket", rng, config, build, check)
    return Scenario(
        "two_reds_one_pocket", "red", traj, "two reds potted into the same pocket one after the other"
    )


def slow_roll_along_cushion(rng, config: ScenarioConfig) -> Scenario:
    """A red lying against a side cushion is sent slowly along it into a corner pocket.

    The cue-ball speed is bisected for the least that still pots the red, then raised a little, so
    that the red dies into the pocket after a long roll hugging the cushion.
    """
    table = STANDARD_TABLE

    def build(r):
        pocket = str(r.choice(["baulk_left", "baulk_right", "top_left", "top_right"]))
        x = R + r.uniform(*SLOW_ROLL_CUSHION_GAP_MM)
        if pocket.endswith("right"):
            x = table.width_mm - x
        toward = 1.0 if pocket.startswith("top") else -1.0
        end_y = table.length_mm if toward > 0 else 0.0
        red = np.array([x, end_y - toward * r.uniform(700, 1500)])
        white = red - np.array([0.0, toward]) * r.uniform(250, 500)
        layout = _clear_paths(_colours_on_spots(), (), [(white, np.array([x, end_y]))])
        if not _free(layout, tuple(red), cushion_mm=0.0) or not _free(layout, tuple(white), cushion_mm=0.0):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        layout = _scatter_reds(r, layout, 3, [(white, np.array([x, end_y]))])
        aim = _aim(white, red)

        def pots(speed):
            traj = _simulate_or_none(layout, Shot(speed, aim, top=0.0), config)
            if traj is None:
                return None
            return any(e.kind == "pot" and e.balls == ("red-1",) and e.where == pocket for e in traj.events)

        found = _bisect_speeds(pots, *LIP_SPEEDS_MM_S, slow_answer=False)
        if found is None:
            return None
        return layout, Shot(found[1] * r.uniform(1.0, 1.1), aim, top=0.0), pocket

    def check(traj, strokes, cand):
        log = strokes[0]["log"]
        pot = [e for e in traj.events if e.kind == "pot" and e.balls == ("red-1",)]
        if (
            log["first_contact"] != ["red"]
            or log["potted"] != [{"ball": "red", "pocket": cand[2]}]
            or not pot
        ):
            return False
        if log["cue_ball"] != "on_table":
            return False
        t = pot[0].t
        p = traj.position("red-1", np.array([t - 0.02, t - 0.01]))[:, :2]
        speed = float(np.linalg.norm(p[1] - p[0])) / 0.01
        rolled = abs(traj.start_layout["red-1"][1] - p[1][1])
        return SLOW_POT_SPEED_MM_S[0] <= speed <= SLOW_POT_SPEED_MM_S[1] and rolled >= SLOW_ROLL_MIN_MM

    traj, _ = _search("slow_roll_along_cushion", rng, config, build, check)
    return Scenario(
        "slow_roll_along_cushion", "red", traj, "a red rolls slowly along a cushion into a corner pocket"
    )


HANG_S = (0.9, 1.5)
"""How long (s) after the balls stopped the red of ``red_hangs_then_drops`` drops: a moment
(3.9(c)), longer than a stroke finder's usual wait for rest (0.7 s) and well short of
``TruthConfig.edge_moment_s``."""
TOPPLE_SPEED_MM_S = 150.0
"""How fast (mm/s) a ball hanging on the edge of a pocket sets off rolling in when it drops."""


def red_hangs_then_drops(rng, config: ScenarioConfig) -> Scenario:
    """A red stops on the lip of a corner pocket (``_red_short_of_the_lip``), hangs there a
    moment (``HANG_S`` after every ball stopped) and drops: potted in the stroke (3.9(c))."""
    from snooker.datasets.synth.geometry import GeometryConfig, TableGeometry

    geo = TableGeometry(STANDARD_TABLE, GeometryConfig())

    def build(r):
        made = _red_short_of_the_lip(r, config, geo)
        if made is None:
            return None
        layout, shot, pocket = made
        first = _simulate_or_none(layout, shot, config)
        if first is None or "red-1" not in first.final_layout:
            return None
        at = first.final_layout["red-1"]
        drop = _aim(at, STANDARD_TABLE.pockets[pocket].drop_centre)
        when = first.rest_time - config.lead_in_s + r.uniform(*HANG_S)
        return layout, [shot, Shot(TOPPLE_SPEED_MM_S, drop, time_s=when, ball="red-1", topple=True)], pocket

    def check(traj, strokes, cand):
        log = strokes[0]["log"]
        rests = [e.t for e in traj.events if e.kind == "rest"]
        topples = [e for e in traj.events if e.kind == "topple"]
        return (
            len(strokes) == 1
            and log["first_contact"] == ["red"]
            and log["potted"] == [{"ball": "red", "pocket": cand[2]}]
            and log["cue_ball"] == "on_table"
            and len(topples) == 1
            and len(rests) == 2
            and HANG_S[0] - 1e-6 <= topples[0].t - rests[0] <= HANG_S[1] + 1e-6
        )

    traj, _ = _search("red_hangs_then_drops", rng, config, build, check)
    return Scenario(
        "red_hangs_then_drops", "red", traj, "a red hangs a moment on the lip of a pocket, then drops"
    )


CREEP_SPEED_MM_S = (60.0, 150.0)
"""How fast (mm/s) the red of ``stroke_while_ball_creeps`` still runs when the cue ball is struck."""


def _speed_mm_s(traj: Trajectory, ball: str, t: float, dt: float = 0.005) -> float:
    p = traj.position(ball, np.array([t - dt, t + dt]))[:, :2]
    return float(np.linalg.norm(p[1] - p[0])) / (2 * dt)


def stroke_while_ball_creeps(rng, config: ScenarioConfig) -> Scenario:
    """A variant of ``stroke_while_ball_moving``: the cue ball, at rest again, is struck while the
    red it sent off is all but stopped, still creeping at ``CREEP_SPEED_MM_S`` (3.12(b): a foul)."""

    def build(r):
        placed = _red_and_cue_ball_in_the_open(r, (1300, 2600), (300, 600))
        if placed is None:
            return None
        layout, red, white = placed
        first = Shot(float(r.uniform(1200, 2500)), _aim(white, red), top=float(r.uniform(-0.3, 0.0)))
        alone = _simulate_or_none(layout, first, config)
        if alone is None or "red-1" not in alone.final_layout:
            return None
        times = np.arange(config.lead_in_s, alone.rest_time, 0.01)
        cue_still = ~alone.moving(CUE_BALL, times)
        creeping = [
            t
            for t, still in zip(times, cue_still, strict=True)
            if still and CREEP_SPEED_MM_S[0] <= _speed_mm_s(alone, "red-1", t) <= CREEP_SPEED_MM_S[1]
        ]
        if not creeping:
            return None
        when = float(r.choice(creeping)) - config.lead_in_s
        second = Shot(float(r.uniform(800, 1500)), float(r.uniform(0, 360)), time_s=when)
        return layout, [first, second]

    def check(traj, strokes, _):
        strike = [e.t for e in traj.events if e.kind == "strike"]
        return (
            len(strokes) == 2
            and strokes[1]["balls_moving_at_strike"] == ["red-1"]
            and strokes[0]["log"]["first_contact"] == ["red"]
            and CREEP_SPEED_MM_S[0] - 1.0
            <= _speed_mm_s(traj, "red-1", strike[1] - 0.006)
            <= CREEP_SPEED_MM_S[1] + 1.0
        )

    traj, _ = _search("stroke_while_ball_creeps", rng, config, build, check)
    return Scenario(
        "stroke_while_ball_creeps", "red", traj, "a stroke is played while a red still creeps to a stop"
    )


PUSH_AIM_DEG = 30.0
"""How far (deg) off the line of centres ``touching_ball_pushed`` may aim the cue ball into the red
it touches (a wider aim plays away from it, or slides off it)."""
PUSH_SPEEDS_MM_S = (600.0, 1500.0)
"""The cue-ball speeds (mm/s) ``touching_ball_pushed`` draws from..."""
PUSH_TOP = (0.3, 0.6)
"""...and the top spin (tip offset, radii): the cue ball follows the red on. Struck with little
spin it stops nearly dead against the red it pushes (creeping 2 mm a frame at 30 fps), and the
stroke segmenter, which starts a stroke from the cue ball's own run, finds no stroke at all: a
limit of stroke segmentation, not of reading the push."""
PUSH_FOLLOW_MM = 150.0
"""The least the cue ball travels in ``touching_ball_pushed`` (mm), for the same reason."""


def _pushed_on(strokes: list[dict], ball: str) -> bool:
    """Whether the simulated ``strokes`` are one push stroke on ``ball``: the cue ball, resting
    against it, hit it first and moved it, and ran on at least ``PUSH_FOLLOW_MM``."""
    log = strokes[0]["log"]
    before, after = log["positions"]["before"], log["positions"]["after"]
    return (
        len(strokes) == 1
        and log.get("touching_moved") == [ball]
        and log["first_contact"] == [ball]
        and CUE_BALL in after
        and math.dist(before[CUE_BALL], after[CUE_BALL]) >= PUSH_FOLLOW_MM
    )


def touching_ball_pushed(rng, config: ScenarioConfig) -> Scenario:
    """The cue ball rests touching a red (no gap: the simulator strikes a ball resting against
    another) and is played into it: the red moves with the strike, a push stroke (3.8(b))."""

    def build(r):
        placed = _red_and_cue_ball_in_the_open(r, OPEN_RED_Y_MM, (D, D))
        if placed is None:
            return None
        layout, red, white = placed
        aim = _aim(white, red) + r.uniform(-PUSH_AIM_DEG, PUSH_AIM_DEG)
        return layout, Shot(float(r.uniform(*PUSH_SPEEDS_MM_S)), aim, top=float(r.uniform(*PUSH_TOP)))

    def check(traj, strokes, _):
        return _pushed_on(strokes, "red")

    traj, _ = _search("touching_ball_pushed", rng, config, build, check)
    return Scenario(
        "touching_ball_pushed", "red", traj, "the cue ball rests touching a red and is played into it"
    )


PUSHED_COLOUR_REDS = 1
"""Reds ``touching_colour_pushed`` scatters about the table besides the colour (a red is on, so
the colour pushed is also a ball not on hit first)."""


def touching_colour_pushed(rng, config: ScenarioConfig) -> Scenario:
    """The colour variant of ``touching_ball_pushed``: the cue ball rests touching a colour drawn
    from all six, moved off its spot into the open, and is played into it: the colour moves with the
    strike, a push stroke (3.8(b)) on a ball not on (a red stands elsewhere)."""

    def build(r):
        placed = _red_and_cue_ball_in_the_open(r, OPEN_RED_Y_MM, (D, D))
        if placed is None:
            return None
        layout, place, white = placed
        colour = str(r.choice(COLOURS))
        layout[colour] = layout.pop("red-1")
        aim = _aim(white, place) + r.uniform(-PUSH_AIM_DEG, PUSH_AIM_DEG)
        shot = Shot(float(r.uniform(*PUSH_SPEEDS_MM_S)), aim, top=float(r.uniform(*PUSH_TOP)))
        layout = _scatter_reds(r, layout, PUSHED_COLOUR_REDS, [(tuple(white), tuple(place))])
        return layout, shot, colour

    def check(traj, strokes, cand):
        return _pushed_on(strokes, cand[2])

    traj, _ = _search("touching_colour_pushed", rng, config, build, check)
    return Scenario(
        "touching_colour_pushed",
        "red",
        traj,
        "the cue ball rests touching a colour in the open and is played into it",
    )


SCENARIOS: dict[str, Callable] = {
    "ball_not_on_hit_first": ball_not_on_hit_first,
    "two_balls_hit_at_once": two_balls_hit_at_once,
    "in_off": in_off,
    "forced_off_table": forced_off_table,
    "touching_ball": touching_ball,
    "pot_rattles_out": pot_rattles_out,
    "pack_split": pack_split,
    "stroke_while_ball_moving": stroke_while_ball_moving,
    "miss": miss,
    "kiss_two_in_quick_succession": kiss_two_in_quick_succession,
    "double_into_middle": double_into_middle,
    "cue_ball_rests_near_ball": cue_ball_rests_near_ball,
    "red_stops_in_the_jaws": red_stops_in_the_jaws,
    "two_reds_potted": two_reds_potted,
    "thin_cut": thin_cut,
    "pot_then_in_off": pot_then_in_off,
    "two_reds_one_pocket": two_reds_one_pocket,
    "slow_roll_along_cushion": slow_roll_along_cushion,
    "red_hangs_then_drops": red_hangs_then_drops,
    "stroke_while_ball_creeps": stroke_while_ball_creeps,
    "touching_ball_pushed": touching_ball_pushed,
    "touching_colour_pushed": touching_colour_pushed,
    **{f"plain_pot_{p}": plain_pot(p) for p in POCKET_NAMES},
}
"""Every named scenario: name → function(rng, ScenarioConfig) -> Scenario."""

_ADDED_LATER: tuple[str, ...] = (
    "kiss_two_in_quick_succession",
    "double_into_middle",
    "cue_ball_rests_near_ball",
    "red_stops_in_the_jaws",
    "two_reds_potted",
    "thin_cut",
    "pot_then_in_off",
    "two_reds_one_pocket",
    "slow_roll_along_cushion",
    "red_hangs_then_drops",
    "stroke_while_ball_creeps",
    "touching_ball_pushed",
    "touching_colour_pushed",
)
"""Scenarios added after the first library, in the order they were added: they draw their seeds
after the first ones, so that adding a scenario never changes another one's draws."""

_SEED_ORDER: tuple[str, ...] = (
    *sorted(set(SCENARIOS) - set(_ADDED_LATER)),
    *_ADDED_LATER,
)
"""Each scenario's index in its generator's seed: the first library sorted, then the later ones."""


def make_scenario(name: str, seed: int, config: ScenarioConfig | None = None) -> Scenario:
    """The scenario ``name`` for ``seed`` (deterministic: same name and seed, same trajectory)."""
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}; known: {', '.join(sorted(SCENARIOS))}")
    index = _SEED_ORDER.index(name)
    rng = np.random.default_rng([seed, index])
    return SCENARIOS[name](rng, config or ScenarioConfig())
