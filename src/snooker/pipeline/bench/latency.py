"""Rest → ruling latency on synthetic strokes whose truth says when the last ball came to rest."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from snooker.pipeline.analyze import AnalysisConfig, Detector
from snooker.pipeline.bench.throughput import run_pipeline
from snooker.vision.types import Frame


@dataclass(frozen=True)
class RollingClipConfig:
    """A synthetic stroke with exact truth: the cue ball rolls in a straight line and stops.

    Used for the rest → ruling latency when the synthetic-footage package offers no clips. The cue
    ball decelerates uniformly (rolling resistance), so the frame it stops on is known exactly.

    - ``image_size``: (width, height) px of the broadcast camera.
    - ``fps``: frames per second.
    - ``still_before_s``: seconds at rest before the stroke (the tracker confirms the balls).
    - ``still_after_s``: seconds rendered after the cue ball stopped (must exceed the stroke
      segmenter's rest duration plus its motion window, or no stroke is emitted).
    - ``start_mm``: where the cue ball starts (table mm).
    - ``speed_mm_s``: its initial speed; ``deceleration_mm_s2``: its uniform deceleration.
    - ``heading_spread_deg``: the heading up the table is drawn within ± this (degrees).
    - ``object_balls``: balls left on their spots, off the cue ball's path.
    - ``shutter_fraction``: fraction of the frame period the shutter is open (motion blur).
    """

    image_size: tuple[int, int] = (1280, 720)
    fps: float = 30.0
    still_before_s: float = 1.0
    still_after_s: float = 2.0
    start_mm: tuple[float, float] = (889.0, 600.0)
    speed_mm_s: float = 1100.0
    deceleration_mm_s2: float = 550.0
    heading_spread_deg: float = 12.0
    object_balls: tuple[str, ...] = ("black", "pink", "blue")
    shutter_fraction: float = 0.5

    def __post_init__(self) -> None:
        if self.fps <= 0 or self.speed_mm_s <= 0 or self.deceleration_mm_s2 <= 0:
            raise ValueError("fps, speed_mm_s and deceleration_mm_s2 must be positive")
        if not 0.0 <= self.shutter_fraction <= 1.0:
            raise ValueError(f"shutter_fraction must lie in [0, 1], got {self.shutter_fraction}")


@dataclass(frozen=True)
class ScenarioClipConfig:
    """Synthetic strokes from the synthetic package's scenario library, filmed by its clip renderer.

    - ``scenarios``: scenario names (``snooker.datasets.synth.scenarios.SCENARIOS``), used in turn.
    - ``image_size``: (width, height) px of the broadcast camera; ``fps``: frames per second.
    - ``tail_s``: seconds filmed after every ball rests (must exceed the stroke segmenter's rest
      duration plus its motion window, or no stroke is emitted before the clip ends).
    """

    scenarios: tuple[str, ...] = ("miss", "pack_split", "plain_pot_top_left")
    image_size: tuple[int, int] = (1280, 720)
    fps: float = 30.0
    tail_s: float = 1.6


@dataclass
class SyntheticClip:
    """A synthetic stroke: frames, the exact view, and the first frame on which every ball rests."""

    name: str
    fps: float
    view: object
    rest_frame: int
    frames: Callable[[], Iterator[Frame]]
    """Makes the clip's frames (rendered on demand, so a clip is never held whole in memory)."""


def rolling_clip(config: RollingClipConfig, seed: int) -> SyntheticClip:
    """A cue ball rolling up the table and stopping, rendered by the synthetic-footage renderer."""
    from snooker.calibration.table import STANDARD_TABLE
    from snooker.datasets.synth.camera import Camera
    from snooker.datasets.synth.render import Renderer, RenderOptions

    rng = np.random.default_rng(seed)
    heading = math.radians(90.0 + rng.uniform(-config.heading_spread_deg, config.heading_spread_deg))
    direction = np.array([math.cos(heading), math.sin(heading)])
    start = np.asarray(config.start_mm, dtype=float)
    stop_s = config.speed_mm_s / config.deceleration_mm_s2
    radius = STANDARD_TABLE.ball_radius_mm
    spots = STANDARD_TABLE.spots
    camera = Camera.broadcast(image_size=config.image_size)
    renderer = Renderer(camera, RenderOptions.randomised(rng))
    period = 1.0 / config.fps
    roll_start = config.still_before_s
    rest_time = roll_start + stop_s
    rest_frame = math.ceil(rest_time * config.fps - 1e-9)
    total = rest_frame + math.ceil(config.still_after_s * config.fps)
    noise_seed = int(rng.integers(0, 2**31))

    def cue_at(t: float) -> np.ndarray:
        s = min(max(t - roll_start, 0.0), stop_s)
        travelled = config.speed_mm_s * s - 0.5 * config.deceleration_mm_s2 * s * s
        return start + direction * travelled

    def frames() -> Iterator[Frame]:
        noise = np.random.default_rng(noise_seed)
        for index in range(total):
            t = index * period
            positions = {name: tuple(spots[name]) for name in config.object_balls}
            positions["white"] = tuple(cue_at(t))
            shutter = np.linspace(
                t, t + period * config.shutter_fraction, renderer.options.motion_blur_samples
            )
            path = np.array([[*cue_at(s), radius] for s in shutter])
            moving = bool(np.ptp(path[:, :2], axis=0).max() > 0)
            image, _ = renderer.render(positions, noise, motion={"white": path} if moving else None)
            yield Frame(index=index, t=t, image=image)

    return SyntheticClip(f"rolling-{seed}", config.fps, camera.table_view(), rest_frame, frames)


def scenario_clip(config: ScenarioClipConfig, seed: int) -> SyntheticClip:
    """Scenario ``seed`` (in turn over ``config.scenarios``), simulated and rendered by the synthetic
    package (player's cue and arm, score graphic, motion blur, noise); its truth's ``rest_time``
    (every ball at rest) gives the rest frame. Raises ImportError where that package lacks them."""
    from snooker.datasets.synth.camera import Camera
    from snooker.datasets.synth.clip import ClipConfig, render_frames
    from snooker.datasets.synth.render import RenderOptions
    from snooker.datasets.synth.scenarios import ScenarioConfig, make_scenario

    name = config.scenarios[seed % len(config.scenarios)]
    scenario = make_scenario(name, seed, ScenarioConfig(fps=config.fps, tail_s=config.tail_s))
    trajectory = scenario.trajectory
    camera = Camera.broadcast(image_size=config.image_size)
    options = RenderOptions.randomised(np.random.default_rng(seed))
    times = trajectory.frame_times

    def frames() -> Iterator[Frame]:
        for index, image, _labels in render_frames(trajectory, camera, options, seed, ClipConfig()):
            yield Frame(index=index, t=float(times[index]), image=image)

    rest_frame = math.ceil(trajectory.rest_time * config.fps - 1e-9)
    return SyntheticClip(f"{name}-{seed}", config.fps, camera.table_view(), rest_frame, frames)


def synthetic_clips(
    count: int, scenarios: ScenarioClipConfig, rolling: RollingClipConfig, seed: int
) -> list[SyntheticClip]:
    """``count`` synthetic strokes with their exact rest frame: the synthetic package's scenarios
    where it has them, else a cue ball rolling to a stop."""
    try:
        return [scenario_clip(scenarios, seed + k) for k in range(count)]
    except ImportError:
        return [rolling_clip(rolling, seed + k) for k in range(count)]


def rest_to_ruling(clip: SyntheticClip, detector: Detector, config: AnalysisConfig) -> dict[str, Any]:
    """Frames and time from the truth's rest frame to the frame on which the ruling is emitted.

    ``processing_ms`` is the pipeline's own time (every stage but the frame source, which here
    renders rather than decodes) over the frames from the rest frame to the emitting frame (what
    an offline run spends); live, the ruling arrives ``latency_video_ms`` after the balls stopped
    plus the emitting frame's processing (``ruling_frame_ms``). ``stroke_end_frame`` is where the
    tracker itself saw the last ball stop; the latency is negative when the ruling came while a
    ball still crept slower than the tracker's rest threshold.
    """
    run = run_pipeline(clip.frames(), detector, view=clip.view, config=config)
    result: dict[str, Any] = {
        "clip": clip.name,
        "fps": clip.fps,
        "frames": run.frames,
        "rest_frame": clip.rest_frame,
        "strokes": run.strokes,
        "referee_errors": run.referee_errors,
    }
    emitted = [e for e in run.emitted if e["ruled"] and not e["at_finish"]]
    if not emitted:
        result["emitted_frame"] = None
        result["emitted_at_finish"] = [e for e in run.emitted if e["at_finish"]]
        return result
    emitted_frame, stroke_end = emitted[0]["frame"], emitted[0]["end_frame"]
    rows = run.clock.rows
    per_frame = [sum(seconds for stage, seconds in row.items() if stage != "decode") for row in rows]
    result.update(
        {
            "emitted_frame": emitted_frame,
            "stroke_end_frame": stroke_end,
            "latency_frames": emitted_frame - clip.rest_frame,
            "frames_after_tracker_rest": emitted_frame - stroke_end,
            "latency_video_ms": round((emitted_frame - clip.rest_frame) / clip.fps * 1000.0, 1),
            "processing_ms": round(sum(per_frame[clip.rest_frame : emitted_frame + 1]) * 1000.0, 1),
            "ruling_frame_ms": round(per_frame[emitted_frame] * 1000.0, 1)
            if emitted_frame < len(rows)
            else None,
        }
    )
    return result
