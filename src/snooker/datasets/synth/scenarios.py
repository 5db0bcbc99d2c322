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


def _free(layout: dict, xy, clearance: float = D + 2.0, table: TableSpec = STANDARD_TABLE) -> bool:
    if not table.on_playing_area(np.asarray(xy), margin_mm=-5.0)[0]:
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
        layout = _colours_on_spots()
        red = np.array([r.uniform(400, 1400), r.uniform(1200, 2800)])
        angle = r.uniform(0, 2 * math.pi)
        direction = np.array([math.cos(angle), math.sin(angle)])
        white = red - direction * r.uniform(250, 600)
        if not _free(layout, tuple(red)) or not _free(layout, tuple(white)):
            return None
        layout.update({"red-1": tuple(map(float, red)), CUE_BALL: tuple(map(float, white))})
        aim = _aim(white, red) + r.uniform(-25, 25)
        shot = Shot(float(r.uniform(900, 1800)), aim, top=float(r.uniform(0.1, 0.4)))
        first = simulate(layout, shot, fps=config.fps, config=config.physics)
        last = first.pieces[CUE_BALL][-2] if len(first.pieces[CUE_BALL]) > 1 else None
        if last is None or CUE_BALL not in first.final_layout or np.linalg.norm(last.v0) == 0:
            return None
        heading = np.asarray(last.v0) / np.linalg.norm(last.v0)
        rest = np.asarray(first.final_layout[CUE_BALL])
        second = rest + heading * (D + r.uniform(0.05, 0.3))
        others = {b: xy for b, xy in {**layout, **first.final_layout}.items() if b != CUE_BALL}
        if not _free(others, tuple(second)):
            return None
        layout["red-2"] = tuple(map(float, second))
        return layout, shot

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
    **{f"plain_pot_{p}": plain_pot(p) for p in POCKET_NAMES},
}
"""Every named scenario: name → function(rng, ScenarioConfig) -> Scenario."""


def make_scenario(name: str, seed: int, config: ScenarioConfig | None = None) -> Scenario:
    """The scenario ``name`` for ``seed`` (deterministic: same name and seed, same trajectory)."""
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}; known: {', '.join(sorted(SCENARIOS))}")
    index = sorted(SCENARIOS).index(name)
    rng = np.random.default_rng([seed, index])
    return SCENARIOS[name](rng, config or ScenarioConfig())
