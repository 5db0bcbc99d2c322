"""Ground truth of a simulated clip: per-frame positions, events, and the strokes a perfect
tracker would report (CONTRACTS.md §1 frame-log lines and §3 analysis strokes).

Ball names in strokes are rule names (``red``, ``yellow`` …); ids (``red-7``) appear in positions.
Frame indices: frame ``i`` shows time ``i / fps``; an event at time ``t`` is first visible in
frame ``ceil(t * fps)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from snooker.balls import BALL_VALUES, CUE_BALL, RED, ball_kind
from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.physics import Trajectory

SCHEMA = "snooker.synth.truth/1"


@dataclass(frozen=True)
class TruthConfig:
    """How the truth is read off a trajectory."""

    touching_gap_mm: float = 0.5
    """The cue ball touches a ball when the gap between their surfaces is at most this at rest."""
    edge_moment_s: float = 2.0
    """A ball that topples into a pocket (a ``topple`` event) at most this long (s) after the balls
    of a stroke came to rest balanced a moment on the edge and fell: it is potted in that stroke
    (3.9(c)). Later, it fell by itself (3.9(a)): an ``edge_fall`` line, the ball replaced. The
    rules name no time; the scenarios keep clear of this one."""
    decimals_mm: int = 2
    decimals_px: int = 2
    push_step_s: float = 0.001
    """A ball touching the cue ball at the strike moved with it (a push, 3.8(b)) when the cue ball
    hits it before their surfaces were ever more than ``touching_gap_mm`` apart, sampled this often
    (s) from the strike to that contact."""


def frame_of(t: float, fps: float) -> int:
    """The first frame index that shows time ``t`` (s)."""
    return math.ceil(t * fps - 1e-6)


def stroke_truths(
    traj: Trajectory, ball_on: str | list[str] | None = None, config: TruthConfig | None = None
) -> list[dict]:
    """One dict per strike: ``log`` (the frame-log stroke line), ``analysis`` (the analysis.json
    stroke), ``expected`` (fouls by the simple rules, when the ball on is given — one name for
    every stroke or a list, one per stroke) and times. A stroke ends when the balls come to rest,
    or at the next strike if that comes first; a ball that topples into a pocket within
    ``config.edge_moment_s`` of that rest is part of the stroke, which then ends at the next rest
    (3.9(c); see :func:`edge_falls` for the later ones)."""
    config = config or TruthConfig()
    strikes = [e for e in traj.events if e.kind == "strike"]
    rests = [e.t for e in traj.events if e.kind == "rest"]
    out = []
    for n, strike in enumerate(strikes):
        t0 = strike.t
        t_next = strikes[n + 1].t if n + 1 < len(strikes) else math.inf
        t1 = min([t for t in rests if t >= t0] + [t_next])
        while any(t1 < e.t < t_next and e.t - t1 <= config.edge_moment_s for e in _topples(traj)):
            t1 = min([t for t in rests if t > t1] + [t_next])
        within = [e for e in traj.events if t0 <= e.t <= t1 and e.t < t_next and e.kind != "rest"]
        on = ball_on[n] if isinstance(ball_on, list) else ball_on
        out.append(_one_stroke(traj, strike.balls[0], t0, t1, within, n, on, config))
    return out


def _topples(traj: Trajectory) -> list:
    return [e for e in traj.events if e.kind == "topple"]


def edge_falls(traj: Trajectory, config: TruthConfig | None = None) -> list[dict]:
    """The balls that toppled into a pocket by themselves longer than ``config.edge_moment_s``
    after the balls came to rest (3.9(a)): ``{"t", "line"}``, ``line`` the frame log's
    ``edge_fall`` line (the ball replaced, no score)."""
    config = config or TruthConfig()
    rests = [e.t for e in traj.events if e.kind == "rest"]
    out = []
    for topple in _topples(traj):
        rested = max((t for t in rests if t <= topple.t), default=-math.inf)
        potted = any(e.kind == "pot" and e.balls == topple.balls and e.t >= topple.t for e in traj.events)
        if potted and topple.t - rested > config.edge_moment_s:
            out.append({"t": topple.t, "line": {"type": "edge_fall", "ball": ball_kind(topple.balls[0])}})
    return out


def _one_stroke(traj, cue, t0, t1, events, index, ball_on, config) -> dict:
    fps = traj.fps
    contacts = [e for e in events if e.kind == "ball_ball" and cue in e.balls]
    first: list[str] = []
    if contacts:
        t_first = contacts[0].t
        simultaneous = [e for e in contacts if e.t - t_first <= 1e-6]
        first = sorted({b for e in simultaneous for b in e.balls if b != cue})
    pots = [e for e in events if e.kind == "pot"]
    offs = [e for e in events if e.kind == "off_table"]
    cue_state = "on_table"
    if any(e.balls[0] == cue for e in pots):
        cue_state = "potted"
    elif any(e.balls[0] == cue for e in offs):
        cue_state = "off_table"
    before = _layout_at(traj, t0 - 1e-9)
    after = _layout_at(traj, t1)
    touching = []
    if cue in after:
        for bid, xy in after.items():
            if bid != cue and math.dist(xy, after[cue]) - 2 * traj.ball_radius_mm <= config.touching_gap_mm:
                touching.append(bid)
    moving_at_strike = sorted(b for b in traj.balls if b != cue and traj.moving(b, np.array([t0 - 1e-9]))[0])
    touching_moved = _pushed(traj, cue, t0, before, contacts, config)
    potted = [{"ball": ball_kind(e.balls[0]), "pocket": e.where} for e in pots if e.balls[0] != cue]
    log = {
        "type": "stroke",
        "first_contact": [ball_kind(b) for b in first],
        "potted": potted,
        "off_table": [ball_kind(e.balls[0]) for e in offs if e.balls[0] != cue],
        "cue_ball": cue_state,
        "touching": sorted(ball_kind(b) for b in touching),
        "positions": {
            "before": {
                b: [round(x, config.decimals_mm), round(y, config.decimals_mm)]
                for b, (x, y) in before.items()
            },
            "after": {
                b: [round(x, config.decimals_mm), round(y, config.decimals_mm)] for b, (x, y) in after.items()
            },
        },
    }
    if moving_at_strike:
        log["moving_at_strike"] = [ball_kind(b) for b in moving_at_strike]  # a foul, 3.12(b)
    if touching_moved:
        log["touching_moved"] = [ball_kind(b) for b in touching_moved]  # a push stroke, 3.8(b)
    analysis = {
        "start_frame": frame_of(t0, fps),
        "end_frame": frame_of(t1, fps),
        "first_contact": log["first_contact"],
        "potted": [
            {"ball": ball_kind(e.balls[0]), "pocket": e.where, "frame": frame_of(e.t, fps)}
            for e in pots
            if e.balls[0] != cue
        ],
        "off_table": log["off_table"],
        "cue_ball": cue_state,
        "touching": log["touching"],
    }
    result = {
        "index": index,
        "t_start": round(t0, 9),
        "t_end": round(t1, 9),
        "first_contact_ids": first,
        "touching_ids": sorted(touching),
        "balls_moving_at_strike": moving_at_strike,
        "touching_moved_ids": touching_moved,
        "log": log,
        "analysis": analysis,
    }
    if ball_on is not None:
        result["expected"] = expected_fouls(log, ball_on)
    return result


def _pushed(
    traj: Trajectory, cue: str, t0: float, before: dict, contacts: list, config: TruthConfig
) -> list[str]:
    """The balls touching the cue ball at the strike (``before``, the layout then) that it hit
    before it ever got clear of them (a push, 3.8(b)): the ids, sorted."""
    if cue not in before:
        return []
    reach = 2 * traj.ball_radius_mm + config.touching_gap_mm
    out = []
    for ball, xy in before.items():
        if ball == cue or math.dist(xy, before[cue]) > reach:
            continue
        hits = [e.t for e in contacts if ball in e.balls]
        if not hits:
            continue
        times = np.linspace(t0, hits[0], max(2, math.ceil((hits[0] - t0) / config.push_step_s) + 1))
        gaps = np.linalg.norm(traj.position(cue, times)[:, :2] - traj.position(ball, times)[:, :2], axis=1)
        if np.all(gaps <= reach):
            out.append(ball)
    return sorted(out)


def expected_fouls(log: dict, ball_on: str) -> dict:
    """Fouls of a stroke by the simple rules (3.12/3.15 subset): ``{"foul", "reasons",
    "penalty"}``. ``ball_on`` is ``red``, a colour name, or ``colour`` (any colour)."""

    def is_on(name: str) -> bool:
        if ball_on == "colour":
            return name not in (RED, CUE_BALL)
        return name == ball_on

    reasons: list[str] = []
    values = [BALL_VALUES[ball_on]] if ball_on in BALL_VALUES else []
    first = log["first_contact"]
    if not first:
        reasons.append("no_ball_hit")
    elif not all(is_on(b) for b in first) or (ball_on == "colour" and len(first) > 1):
        reasons.append("wrong_ball_first")
        values += [BALL_VALUES[b] for b in first]
    wrong_pots = [p["ball"] for p in log["potted"] if not is_on(p["ball"])]
    if wrong_pots:
        reasons.append("potted_ball_not_on")
        values += [BALL_VALUES[b] for b in wrong_pots]
    if log["cue_ball"] == "potted":
        reasons.append("in_off")
    if log["cue_ball"] == "off_table":
        reasons.append("cue_ball_off_table")
    if log["off_table"]:
        reasons.append("ball_off_table")
        values += [BALL_VALUES[b] for b in log["off_table"]]
    if log.get("moving_at_strike"):
        reasons.append("balls_moving")
        values += [BALL_VALUES[b] for b in log["moving_at_strike"]]
    if log.get("touching_moved"):
        reasons.append("push_stroke")
        values += [BALL_VALUES[b] for b in log["touching_moved"]]
    foul = bool(reasons)
    return {"foul": foul, "reasons": reasons, "penalty": max([4, *values]) if foul else 0}


def _layout_at(traj: Trajectory, t: float) -> dict[str, tuple[float, float]]:
    out = {}
    for b in traj.balls:
        p = traj.position(b, np.array([max(t, 0.0)]))[0]
        if np.all(np.isfinite(p)) and abs(p[2] - traj.ball_radius_mm) < 1e-6:
            out[b] = (float(p[0]), float(p[1]))
    return out


def clip_truth(
    traj: Trajectory,
    camera: Camera,
    name: str,
    ball_on: str | list[str] | None = None,
    frame_labels: list[dict] | None = None,
    extra: dict | None = None,
    config: TruthConfig | None = None,
) -> dict:
    """The whole truth document of a clip (JSON-ready)."""
    config = config or TruthConfig()
    times = traj.frame_times
    positions = traj.positions(times)
    frames = []
    for k, t in enumerate(times):
        balls = []
        for b in traj.balls:
            p = positions[b][k]
            if not np.all(np.isfinite(p)):
                continue
            px = camera.project(p[None, :])[0]
            rad = float(camera.ball_radius_px(p[None, :], traj.ball_radius_mm)[0])
            entry = {
                "id": b,
                "ball": ball_kind(b),
                "x_mm": round(float(p[0]), config.decimals_mm),
                "y_mm": round(float(p[1]), config.decimals_mm),
                "z_mm": round(float(p[2]), config.decimals_mm),
                "x_px": round(float(px[0]), config.decimals_px),
                "y_px": round(float(px[1]), config.decimals_px),
                "r_px": round(rad, config.decimals_px),
                "moving": bool(traj.moving(b, np.array([t]))[0]),
            }
            balls.append(entry)
        frame = {"i": k, "t": round(float(t), 6), "balls": balls}
        if frame_labels is not None:
            frame["visible"] = {lab["id"]: lab["visible"] for lab in frame_labels[k]["balls"]}
        frames.append(frame)
    strokes = stroke_truths(traj, ball_on, config)
    log = [(s["t_start"], s["log"]) for s in strokes] + [
        (f["t"], f["line"]) for f in edge_falls(traj, config)
    ]
    doc = {
        "schema": SCHEMA,
        "name": name,
        "fps": traj.fps,
        "frames_count": len(times),
        "size": [camera.width, camera.height],
        "ball_on": ball_on,
        "camera": camera.to_dict(),
        "calibration": camera.calibration(),
        "shots": [s.__dict__ | {"leaves_table": list(s.leaves_table)} for s in traj.shots],
        "events": [e.to_dict() | {"frame": frame_of(e.t, traj.fps)} for e in traj.events],
        "strokes": strokes,
        "frame_log": [line for _, line in sorted(log, key=lambda entry: entry[0])],
        "frames": frames,
    }
    if extra:
        doc.update(extra)
    return doc
