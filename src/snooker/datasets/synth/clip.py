"""Turn a simulated trajectory into a video (mp4) and its truth document (JSON).

The player's cue and arms cover the cue ball's surroundings from when the balls came to rest
before each strike (from the start before the first) until just after it; the
broadcast score graphic sits over the bottom cushion; moving balls are motion-blurred over the
shutter interval; every frame gets sensor noise, and the mp4 encoder adds compression.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from snooker.datasets.synth.camera import Camera
from snooker.datasets.synth.physics import Trajectory
from snooker.datasets.synth.render import Renderer, RenderOptions, ScoreGraphic, cue_and_arm
from snooker.datasets.synth.truth import clip_truth


@dataclass(frozen=True)
class ClipConfig:
    """How a clip is filmed."""

    shutter_fraction: float = 0.5
    """Exposure time as a fraction of the frame interval (motion blur length)."""
    player_leaves_after_s: float = 0.25
    """The cue and arms stay in the picture this long after a strike."""
    tip_gap_mm: float = 25.0
    """Cue tip to cue ball before the strike."""
    follow_through_mm: float = 120.0
    """How far the cue moves on through the cue ball's place after the strike."""
    player_occluders: bool = True
    score_graphic: bool = True
    break_points: int | None = None
    """The break shown in a box above the score bar (over the near rail); None: no box."""
    fourcc: str = "mp4v"


def with_settle(traj: Trajectory, settle_s: float) -> Trajectory:
    """The trajectory filmed until ``settle_s`` after the balls came to rest (at least as long as
    it was): a tracker needs to see the balls rest a while before it calls a stroke over."""
    return replace(traj, duration_s=max(traj.duration_s, traj.rest_time + settle_s))


def player_arrivals(traj: Trajectory, strikes: list) -> list[float]:
    """When the player's cue and arms come into the picture for each of ``strikes`` (s): once
    every ball has come to rest after the strike before (a player gets down on a shot when the
    balls have stopped, the colours re-spotted); for the first strike, and for one struck again
    while a ball still ran, from the start (they stay after the strike before). Drawn from the
    strike before, the cue and arms of a whole frame's next shot rode along with the running cue
    ball, over balls and pockets, aimed for a shot not yet chosen."""
    rests = [e.t for e in traj.events if e.kind == "rest"]
    out = []
    for before, shot in zip([None, *strikes[:-1]], strikes, strict=True):
        between = [t for t in rests if before is not None and before.time_s < t <= shot.time_s]
        out.append(min(between) if between else -math.inf)
    return out


def render_frames(traj: Trajectory, camera: Camera, options: RenderOptions, seed: int, config: ClipConfig):
    """Yield (frame index, BGR uint8 image, labels) for every frame of the trajectory."""
    renderer = Renderer(camera, options)
    rng = np.random.default_rng(seed)
    times = traj.frame_times
    shutter = config.shutter_fraction / traj.fps
    offsets = np.linspace(-shutter / 2, shutter / 2, options.motion_blur_samples)
    graphic = ScoreGraphic(break_points=config.break_points) if config.score_graphic else None
    strikes = [s for s in traj.shots if not s.topple]  # a ball toppling by itself has no player
    arrives = player_arrivals(traj, strikes)
    for k, t in enumerate(times):
        positions = {}
        motion = {}
        for b in traj.balls:
            p = traj.position(b, np.array([t]))[0]
            if not np.all(np.isfinite(p)):
                continue
            positions[b] = tuple(p)
            if traj.moving(b, np.array([t]))[0]:
                path = traj.position(b, t + offsets)
                path = path[np.all(np.isfinite(path), axis=1)]
                if len(path):
                    motion[b] = path
        occluders = ()
        if config.player_occluders:
            upcoming = [s for s in strikes if t <= s.time_s + config.player_leaves_after_s]
            if upcoming and t >= arrives[len(strikes) - len(upcoming)]:
                shot = upcoming[0]
                cue_xy = traj.position(shot.ball, np.array([min(t, shot.time_s)]))[0]
                if np.all(np.isfinite(cue_xy)):
                    gap = config.tip_gap_mm - (config.follow_through_mm if t > shot.time_s else 0.0)
                    occluders = cue_and_arm(tuple(cue_xy[:2]), shot.angle_deg, tip_gap_mm=gap)
        image, labels = renderer.render(
            positions, rng, motion=motion, occluders=occluders, score_graphic=graphic
        )
        yield k, image, labels


def write_clip(
    traj: Trajectory,
    camera: Camera,
    out_stem: Path,
    name: str,
    ball_on: str | None,
    seed: int,
    options: RenderOptions | None = None,
    config: ClipConfig | None = None,
    render_video: bool = True,
    extra: dict | None = None,
) -> dict:
    """Write ``<out_stem>.mp4`` (unless ``render_video`` is false), ``<out_stem>.json`` (the truth)
    and ``<out_stem>.calibration.json`` (the camera's calibration, which ``snooker-referee analyze
    --calibration`` loads).

    Returns the truth document. The truth does not depend on the video: the same trajectory and
    camera give the same JSON whether or not frames are rendered (visibility aside, which is
    only added when frames are rendered).
    """
    config = config or ClipConfig()
    options = options or RenderOptions()
    out_stem = Path(out_stem)
    out_stem.parent.mkdir(parents=True, exist_ok=True)
    labels_per_frame = None
    if render_video:
        video_path = out_stem.with_suffix(".mp4")
        writer = cv2.VideoWriter(
            str(video_path), cv2.VideoWriter_fourcc(*config.fourcc), traj.fps, (camera.width, camera.height)
        )
        if not writer.isOpened():
            raise RuntimeError(f"cannot open a {config.fourcc} video writer for {video_path}")
        labels_per_frame = []
        try:
            for _, image, labels in render_frames(traj, camera, options, seed, config):
                writer.write(image)
                labels_per_frame.append({"balls": [b.to_dict() for b in labels.balls]})
        finally:
            writer.release()
    truth = clip_truth(traj, camera, name, ball_on, labels_per_frame, extra)
    truth["video"] = out_stem.with_suffix(".mp4").name if render_video else None
    out_stem.with_suffix(".json").write_text(json.dumps(truth, separators=(",", ":")))
    calibration_path(out_stem).write_text(json.dumps(truth["calibration"]["table_view"], indent=1) + "\n")
    return truth


def calibration_path(out_stem: Path) -> Path:
    """Where the calibration file of the clip ``<out_stem>.mp4`` is written."""
    out_stem = Path(out_stem)
    return out_stem.parent / f"{out_stem.name}.calibration.json"
