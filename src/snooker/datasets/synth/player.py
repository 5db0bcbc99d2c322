"""Whole frames played by a simple player, as one trajectory, for end-to-end runs.

The player looks for straight-line pots of a ball on (clear path to the ghost-ball position and
from the object ball to the pocket, cut under ``max_cut_deg``), takes the one with the smallest
cut, and hits it at a random-ish speed; with no pot on it rolls the cue ball at the nearest ball on.
Between strokes potted colours are re-spotted while reds remain (own spot, else the highest free
spot), and a potted cue ball is placed in the D. Strokes are simulated one by one and joined in
time; ``balls_on`` says what the ball on was for each stroke (a nominated colour after a red).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from snooker.balls import COLOURS, CUE_BALL, ball_kind
from snooker.calibration.table import STANDARD_TABLE, TableSpec
from snooker.datasets.synth.physics import (
    POTTED,
    Event,
    PhysicsConfig,
    Piece,
    Shot,
    Trajectory,
    simulate,
)

D = STANDARD_TABLE.ball_diameter_mm


@dataclass(frozen=True)
class PlayerConfig:
    """How the simple player plays."""

    max_strokes: int = 6
    max_cut_deg: float = 55.0
    min_speed_mm_s: float = 1500.0
    max_speed_mm_s: float = 4500.0
    clearance_mm: float = D + 2.0
    """A path is clear when no other ball centre comes closer than this to it."""
    gap_between_strokes_s: float = 0.8
    """Time between the balls coming to rest and the next strike."""
    fps: float = 30.0


@dataclass(frozen=True)
class Game:
    trajectory: Trajectory
    balls_on: list[str]


def _segment_distance(p, a, b) -> float:
    ab = b - a
    t = float(np.clip((p - a) @ ab / max(float(ab @ ab), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def _clear(layout: dict, a, b, skip: set, clearance: float) -> bool:
    return all(
        _segment_distance(np.asarray(xy), a, b) >= clearance for bid, xy in layout.items() if bid not in skip
    )


def _candidates(layout: dict, ball_on: str) -> list[str]:
    if ball_on == "red":
        return [b for b in layout if ball_kind(b) == "red"]
    if ball_on == "colour":
        return [b for b in layout if ball_kind(b) in COLOURS]
    return [b for b in layout if b == ball_on]


def choose_shot(layout: dict, ball_on: str, rng, config: PlayerConfig, table: TableSpec = STANDARD_TABLE):
    """(Shot, target ball id) for the player's next stroke."""
    white = np.asarray(layout[CUE_BALL])
    options = []
    for target in _candidates(layout, ball_on):
        obj = np.asarray(layout[target])
        for pocket in table.pockets.values():
            aim_point = np.asarray(pocket.mouth_centre) + 0.3 * (
                np.asarray(pocket.drop_centre) - pocket.mouth_centre
            )
            to_pocket = aim_point - obj
            to_pocket /= np.linalg.norm(to_pocket)
            ghost = obj - to_pocket * D
            if not table.on_playing_area(ghost)[0]:
                continue
            approach = ghost - white
            if np.linalg.norm(approach) < 1.0:
                continue
            cut = math.degrees(math.acos(np.clip(approach @ to_pocket / np.linalg.norm(approach), -1, 1)))
            if cut > config.max_cut_deg:
                continue
            skip = {CUE_BALL, target}
            if not _clear(layout, white, ghost, skip, config.clearance_mm):
                continue
            if not _clear(layout, obj, aim_point, skip, config.clearance_mm):
                continue
            options.append((cut + float(rng.uniform(0, 5)), target, ghost))
    speed = float(rng.uniform(config.min_speed_mm_s, config.max_speed_mm_s))
    if options:
        _, target, ghost = min(options, key=lambda o: o[0])
        angle = math.degrees(math.atan2(ghost[1] - white[1], ghost[0] - white[0]))
        return Shot(speed, angle, top=float(rng.uniform(-0.3, 0.4))), target
    candidates = _candidates(layout, ball_on)
    target = min(candidates, key=lambda b: np.linalg.norm(np.asarray(layout[b]) - white))
    obj = np.asarray(layout[target])
    angle = math.degrees(math.atan2(obj[1] - white[1], obj[0] - white[0]))
    return Shot(speed * 0.7, angle, top=0.2), target


def _respot(layout: dict, colour: str, table: TableSpec) -> None:
    order = [colour, *[c for c in reversed(COLOURS) if c != colour]]
    for spot_colour in order:
        spot = table.spots[spot_colour]
        if all(math.dist(spot, xy) >= D + 0.5 for xy in layout.values()):
            layout[colour] = spot
            return


def _place_in_d(layout: dict, table: TableSpec, rng) -> None:
    cx, by = table.d_centre
    for _ in range(200):
        xy = (cx + float(rng.uniform(-200, 200)), by - float(rng.uniform(20, 200)))
        if table.in_d(np.asarray(xy))[0] and all(math.dist(xy, p) >= D + 0.5 for p in layout.values()):
            layout[CUE_BALL] = xy
            return


def play_frame(
    seed: int,
    config: PlayerConfig | None = None,
    physics: PhysicsConfig | None = None,
    table: TableSpec = STANDARD_TABLE,
) -> Game:
    """Play up to ``max_strokes`` strokes from a random mid-frame position (deterministic)."""
    config = config or PlayerConfig()
    rng = np.random.default_rng([seed, 7])
    layout: dict = {c: table.spots[c] for c in COLOURS}
    k = 1
    while k <= int(rng.integers(4, 9)):
        xy = (float(rng.uniform(80, table.width_mm - 80)), float(rng.uniform(900, table.length_mm - 80)))
        if all(math.dist(xy, p) >= D + 20 for p in layout.values()):
            layout[f"red-{k}"] = xy
            k += 1
    _place_in_d(layout, table, rng)
    all_ids = list(layout)
    ball_on = "red"
    strokes: list[Trajectory] = []
    balls_on: list[str] = []
    for _ in range(config.max_strokes):
        if not any(ball_kind(b) != CUE_BALL for b in layout):
            break
        shot, target = choose_shot(layout, ball_on, rng, config, table)
        on_for_truth = ball_kind(target) if ball_on == "colour" else ball_on
        lead = config.gap_between_strokes_s if strokes else 0.5
        traj = simulate(layout, shot, table, physics, config.fps, lead_in_s=lead, tail_s=0.0)
        strokes.append(traj)
        balls_on.append(on_for_truth)
        potted = [e.balls[0] for e in traj.events if e.kind in ("pot", "off_table")]
        new_layout = dict(traj.final_layout)
        reds_left = any(ball_kind(b) == "red" for b in new_layout)
        foul = CUE_BALL in potted or any(
            ball_kind(b) != ball_kind(on_for_truth) for b in potted if b != CUE_BALL
        )
        first = next((e for e in traj.events if e.kind == "ball_ball" and CUE_BALL in e.balls), None)
        hit = None if first is None else next(b for b in first.balls if b != CUE_BALL)
        if hit is None or ball_kind(hit) != ball_kind(on_for_truth):
            foul = True
        for b in potted:
            if ball_kind(b) in COLOURS and (reds_left or foul or ball_on in ("red", "colour")):
                _respot(new_layout, b, table)
        if CUE_BALL in potted:
            _place_in_d(new_layout, table, rng)
        scored = [b for b in potted if b != CUE_BALL]
        if foul or not scored:
            ball_on = "red" if reds_left else _lowest_colour(new_layout)
        elif ball_on == "red":
            ball_on = "colour"
        else:
            ball_on = "red" if reds_left else _lowest_colour(new_layout)
        layout = new_layout
        if ball_on is None:
            break
    return Game(_join(strokes, all_ids, config.fps, table), balls_on)


def _lowest_colour(layout: dict) -> str | None:
    for c in COLOURS:
        if c in layout:
            return c
    return None


def _join(strokes: list[Trajectory], ids: list[str], fps: float, table: TableSpec) -> Trajectory:
    """One trajectory made of consecutive strokes; a ball absent from a stroke is shown potted."""
    offset = 0.0
    pieces: dict[str, list[Piece]] = {b: [] for b in ids}
    events: list[Event] = []
    energy = []
    shots = []
    for traj in strokes:
        for b in ids:
            if b in traj.pieces:
                for p in traj.pieces[b]:
                    t_end = p.t_end + offset if math.isfinite(p.t_end) else math.inf
                    pieces[b].append(Piece(p.t0 + offset, p.mode, p.r0, p.v0, p.a, t_end, p.vz))
            else:
                pieces[b].append(Piece(offset, POTTED, (math.nan, math.nan), (0.0, 0.0), (0.0, 0.0)))
        events += [Event(e.t + offset, e.kind, e.balls, e.where, e.speed_mm_s) for e in traj.events]
        energy += [(t + offset, e) for t, e in traj.energy]
        shots += [Shot(**{**s.__dict__, "time_s": s.time_s + offset}) for s in traj.shots]
        offset += traj.rest_time
    first, last = strokes[0], strokes[-1]
    return Trajectory(
        balls=tuple(ids),
        events=events,
        pieces=pieces,
        fps=fps,
        duration_s=offset + 0.6,
        rest_time=offset,
        start_layout=first.start_layout,
        final_layout=last.final_layout,
        ball_radius_mm=table.ball_radius_mm,
        gravity_mm_s2=first.gravity_mm_s2,
        shots=tuple(shots),
        energy=energy,
    )
