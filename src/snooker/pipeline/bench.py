"""Benchmarks of the referee's pipeline on this machine, as ratios to plain decoding in the same run.

What is measured (``scripts/bench.py`` runs it all and writes one JSON document):

- **throughput**: frames per second of the offline pipeline (``VideoAnalysis`` + the referee, fed by
  the real frame source) against a plain ``cv2.VideoCapture`` read loop over the same frames of the
  same clips; the ratio is the figure (absolute times vary with the machine and its load).
- **stages**: wall time per frame of decode, calibration check, detection, tracking (tracker and
  stroke segmenter), referee, and the frame loop's own bookkeeping ("other"), in ms (median, p95).
  The stages are timed by wrapping the very callables ``VideoAnalysis`` calls, so the pipeline
  measured is the real one, in its own order.
- **rest → ruling latency** on synthetic clips whose truth says when the last ball came to rest:
  frames (and ms of video) until the pipeline emits the stroke and its ruling, and the processing
  time spent in between.
- **memory**: peak Python allocations (tracemalloc, in a separate pass: tracing slows the
  pipeline) and the process's peak resident size (``getrusage``).
- **live**: a file source paced at its own frame rate through ``LiveTable`` (the live loop with its
  drop-oldest queue); frames processed and dropped.
- **YOLO network**: ms per forward pass of the detector's network at the input sizes the table crop
  gives (torch, and onnxruntime when an ONNX export can be made), with the model size.

Times are wall-clock (``time.perf_counter``) in seconds internally and reported in ms.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import platform
import resource
import subprocess
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from snooker.pipeline.analyze import AnalysisConfig, Detector, VideoAnalysis, frame_log_lines
from snooker.vision.types import Frame

BENCH_SCHEMA = "snooker.bench/1"
STAGES: tuple[str, ...] = ("decode", "calibration", "detection", "tracking", "referee", "other")
"""Per-frame stages, in the order the pipeline runs them; "other" is the frame loop's bookkeeping."""
_PROCESS = "process"
"""Internal clock key: the whole ``VideoAnalysis.process`` call ("other" is what its stages leave)."""
_NESTED_IN_PROCESS: tuple[str, ...] = ("calibration", "detection", "tracking")

Reporter = Callable[[str], None]


class BenchError(RuntimeError):
    """A benchmark input that cannot be used (a clip that does not open, no clips at all)."""


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
class StruckClipConfig:
    """A synthetic stroke from the synthetic package's physics: the cue ball struck at a red.

    - ``image_size``, ``fps``: the broadcast camera's picture (px) and frame rate.
    - ``lead_in_s`` / ``tail_s``: seconds before the strike / after every ball rests (the tail must
      exceed the stroke segmenter's rest duration plus its motion window).
    - ``cue_area_mm``: (x0, y0, x1, y1) where the cue ball is placed (table mm).
    - ``red_ahead_mm``: (min, max) distance of the red up the table from the cue ball.
    - ``red_side_mm``: the red lies at most this far to either side of the cue ball.
    - ``cut_deg``: the aim misses the red's centre by at most this angle (a cut).
    - ``speed_mm_s``: (min, max) cue-ball speed.
    - ``top``: tip offset above centre (fraction of the radius).
    - ``colours``: colours left on their spots.
    - ``shutter_fraction``: fraction of the frame period the shutter is open (motion blur).
    """

    image_size: tuple[int, int] = (1280, 720)
    fps: float = 30.0
    lead_in_s: float = 0.7
    tail_s: float = 1.6
    cue_area_mm: tuple[float, float, float, float] = (600.0, 500.0, 1180.0, 900.0)
    red_ahead_mm: tuple[float, float] = (450.0, 700.0)
    red_side_mm: float = 150.0
    cut_deg: float = 10.0
    speed_mm_s: tuple[float, float] = (1500.0, 2300.0)
    top: float = 0.2
    colours: tuple[str, ...] = ("black", "pink")
    shutter_fraction: float = 0.5


@dataclass(frozen=True)
class BenchConfig:
    """What one benchmark run measures (units in the names).

    - ``clips``: real 1280×720 clips for throughput, stages, memory and live.
    - ``detectors``: detector names (``snooker.vision.detector``); one that cannot be loaded (YOLO
      without weights) is reported as skipped.
    - ``max_frames_per_clip``: frames read from each clip for throughput (count).
    - ``memory_frames``: frames of the first clip run under tracemalloc (count; 0 skips).
    - ``live_clips``: how many of ``clips`` are played live at their own frame rate (0 skips).
    - ``live_max_s``: a live run is stopped after this many seconds.
    - ``synthetic_clips``: synthetic strokes for the rest → ruling latency (0 skips).
    - ``struck_clip``: those strokes (physics from the synthetic package); ``rolling_clip`` the
      stand-in where that package has no physics.
    - ``yolo_network``: time the YOLO network's forward pass (torch; onnxruntime if exportable).
    - ``yolo_ball_radii_px``: network-input ball radii to time (the detector's is the first).
    - ``yolo_repeats``: forward passes per size (the first is a warm-up, not counted).
    - ``realtime_fps``: the frame rate "real time" means (frames per second).
    - ``seed``: seeds the synthetic clips.
    """

    clips: tuple[Path, ...] = ()
    detectors: tuple[str, ...] = ("classic", "yolo")
    max_frames_per_clip: int = 150
    memory_frames: int = 60
    live_clips: int = 1
    live_max_s: float = 30.0
    synthetic_clips: int = 2
    struck_clip: StruckClipConfig = field(default_factory=StruckClipConfig)
    rolling_clip: RollingClipConfig = field(default_factory=RollingClipConfig)
    yolo_network: bool = True
    yolo_ball_radii_px: tuple[float, ...] = (8.0, 6.0, 4.0)
    yolo_repeats: int = 6
    realtime_fps: float = 30.0
    seed: int = 0
    analysis: AnalysisConfig = field(default_factory=AnalysisConfig)

    def __post_init__(self) -> None:
        if self.max_frames_per_clip < 1:
            raise ValueError("max_frames_per_clip must be at least 1")
        if self.yolo_repeats < 2:
            raise ValueError("yolo_repeats must be at least 2 (one warm-up, one timed)")
        if self.realtime_fps <= 0:
            raise ValueError("realtime_fps must be positive")


# --------------------------------------------------------------------------- small helpers
def summarise_ms(seconds: list[float] | np.ndarray) -> dict[str, float]:
    """Median, 95th percentile, mean and total of durations given in seconds, reported in ms."""
    values = np.asarray(seconds, dtype=float) * 1000.0
    if values.size == 0:
        return {"median_ms": math.nan, "p95_ms": math.nan, "mean_ms": math.nan, "total_ms": 0.0}
    return {
        "median_ms": round(float(np.median(values)), 3),
        "p95_ms": round(float(np.percentile(values, 95)), 3),
        "mean_ms": round(float(values.mean()), 3),
        "total_ms": round(float(values.sum()), 3),
    }


def peak_rss_mib() -> float:
    """The process's peak resident set size so far (MiB; Linux reports ``ru_maxrss`` in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1)


def machine_info() -> dict[str, Any]:
    """What the numbers were measured on, so runs can be compared."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    info: dict[str, Any] = {
        "utc": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": _cpu_model(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "usable_cpus": usable,
        "load_average_1_5_15": [round(v, 2) for v in os.getloadavg()],
        "opencv": cv2.__version__,
        "opencv_threads": cv2.getNumThreads(),
        "numpy": np.__version__,
        "git_commit": _git_commit(),
    }
    return info


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def _git_commit() -> str | None:
    repo = Path(__file__).resolve().parents[3]
    try:
        out = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None


class StageClock:
    """Wall time per pipeline stage, one row per frame.

    ``wrap(stage, fn)`` returns ``fn`` timed into ``stage``; ``measure(stage)`` times a block;
    ``now`` is the clock (seconds).
    ``end_frame()`` closes the frame's row: "other" is the part of ``VideoAnalysis.process`` its
    nested stages (calibration, detection, tracking) do not account for.
    """

    def __init__(self, now: Callable[[], float] = time.perf_counter) -> None:
        self.rows: list[dict[str, float]] = []
        self._now = now
        self._current = self._empty()

    @staticmethod
    def _empty() -> dict[str, float]:
        return dict.fromkeys((*STAGES, _PROCESS), 0.0)

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.measure(stage):
                return fn(*args, **kwargs)

        return timed

    @contextmanager
    def measure(self, stage: str) -> Iterator[None]:
        if stage not in self._current:
            raise KeyError(f"unknown stage {stage!r}")
        started = self._now()
        try:
            yield
        finally:
            self._current[stage] += self._now() - started

    def end_frame(self) -> dict[str, float]:
        row = self._current
        nested = sum(row[stage] for stage in _NESTED_IN_PROCESS)
        row["other"] = max(0.0, row.pop(_PROCESS) - nested)
        self.rows.append(row)
        self._current = self._empty()
        return row

    def per_stage(self) -> dict[str, list[float]]:
        """Seconds per frame for each stage (aligned lists)."""
        return {stage: [row[stage] for row in self.rows] for stage in STAGES}


# --------------------------------------------------------------------------- throughput
def decode_clip(path: Path, max_frames: int) -> dict[str, Any]:
    """Plain decoding: open ``path`` with ``cv2.VideoCapture`` and read up to ``max_frames`` frames."""
    started = time.perf_counter()
    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise BenchError(f"cannot open {path} as a video")
        frames = 0
        shape: tuple[int, ...] | None = None
        while frames < max_frames:
            ok, image = capture.read()
            if not ok or image is None:
                break
            shape = image.shape
            frames += 1
        fps = capture.get(cv2.CAP_PROP_FPS)
    finally:
        capture.release()
    wall = time.perf_counter() - started
    if frames == 0:
        raise BenchError(f"{path} has no decodable frame")
    assert shape is not None
    return {
        "frames": frames,
        "wall_s": wall,
        "fps": frames / wall,
        "width": int(shape[1]),
        "height": int(shape[0]),
        "video_fps": float(fps),
    }


@dataclass
class PipelineRun:
    """One run of the offline pipeline over frames: per-stage clock, counts and rulings."""

    clock: StageClock
    frames: int = 0
    wall_s: float = 0.0
    frames_tracked: int = 0
    frames_all_at_rest: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    strokes: int = 0
    rulings: int = 0
    referee_errors: list[str] = field(default_factory=list)
    emitted: list[dict[str, Any]] = field(default_factory=list)
    """Per stroke: ``frame`` it was emitted (and ruled) on, its ``end_frame``, ``ruled``, and
    ``at_finish`` (emitted only when the input ended, as a truncated stroke)."""

    def summary(self) -> dict[str, Any]:
        per_stage = self.clock.per_stage()
        stage_totals = sum(sum(values) for values in per_stage.values())
        return {
            "frames": self.frames,
            "wall_s": round(self.wall_s, 4),
            "fps": round(self.frames / self.wall_s, 3) if self.wall_s > 0 else math.nan,
            "stages": {stage: summarise_ms(values) for stage, values in per_stage.items()},
            "stage_sum_s": round(stage_totals, 4),
            "frames_tracked": self.frames_tracked,
            "frames_all_at_rest": self.frames_all_at_rest,
            "skipped": dict(self.skipped),
            "strokes": self.strokes,
            "rulings": self.rulings,
            "referee_errors": list(self.referee_errors),
        }


def run_pipeline(
    frames: Iterator[Frame],
    detector: Detector,
    view: object | None = None,
    config: AnalysisConfig | None = None,
    find_table: Callable[[np.ndarray], object] | None = None,
    shows_table: Callable[[np.ndarray, object], bool] | None = None,
    max_frames: int | None = None,
) -> PipelineRun:
    """Run ``VideoAnalysis`` and a referee over ``frames``, timing every stage of every frame.

    ``frames`` is an iterator of frames (its ``next`` is the decode stage); ``max_frames`` >= 1.
    The referee rules each stroke as the pipeline emits it, as ``snooker-referee analyze --referee``
    does. ``find_table`` / ``shows_table`` default to the calibration package's.
    """
    from snooker.referee import Referee

    if find_table is None or shows_table is None:
        from snooker import calibration

        find_table = find_table or calibration.find_table
        shows_table = shows_table or calibration.shows_table
    clock = StageClock()
    analysis = VideoAnalysis(
        clock.wrap("detection", detector),
        view=view,
        config=config,
        find_table=clock.wrap("calibration", find_table),
        shows_table=clock.wrap("calibration", shows_table),
    )
    # time the tracker and the stroke segmenter where the frame loop calls them (this object only)
    analysis.tracker.update = clock.wrap("tracking", analysis.tracker.update)  # type: ignore[method-assign]
    analysis.segmenter.push = clock.wrap("tracking", analysis.segmenter.push)  # type: ignore[method-assign]
    referee = Referee()
    referee.apply(frame_log_lines([])[0])
    run = PipelineRun(clock)
    iterator = iter(frames)
    frame: Frame | None = None
    last_index = -1
    started = time.perf_counter()
    while max_frames is None or run.frames < max_frames:
        with clock.measure("decode"):
            frame = next(iterator, None)
        if frame is None:
            clock.end_frame()
            clock.rows.pop()  # the failed read of the end is no frame (its time stays in wall_s)
            break
        with clock.measure(_PROCESS):
            outcome = analysis.process(frame)
        with clock.measure("referee"):
            _rule(referee, outcome.strokes, run, frame.index, at_finish=False)
        clock.end_frame()
        run.frames += 1
        last_index = frame.index
        if outcome.state is not None:
            run.frames_tracked += 1
            run.frames_all_at_rest += not any(ball.moving for ball in outcome.state.balls)
    run.wall_s = time.perf_counter() - started
    _rule(referee, analysis.finish(), run, last_index, at_finish=True)
    run.skipped = dict(analysis.skipped)
    return run


def _rule(referee: Any, strokes: list[Any], run: PipelineRun, frame_index: int, at_finish: bool) -> None:
    for stroke in strokes:
        run.strokes += 1
        ruled = True
        try:
            referee.apply(stroke.to_log_line())
        except Exception as exc:  # a referee bug is reported in the results, never hidden
            run.referee_errors.append(f"frame {frame_index}: {type(exc).__name__}: {exc}")
            ruled = False
        run.rulings += ruled
        run.emitted.append(
            {"frame": frame_index, "end_frame": stroke.end_frame, "ruled": ruled, "at_finish": at_finish}
        )


def analyze_clip(
    path: Path, detector: Detector, max_frames: int, config: AnalysisConfig, view: object | None = None
) -> PipelineRun:
    """The offline pipeline over the first ``max_frames`` frames of a clip, from the real frame source.

    Opening the source counts as decoding (as opening the capture does for plain decoding). With
    ``view`` (a known calibration, as ``analyze --calibration`` gives) the table is not searched for.
    """
    from snooker.vision.sources import SourceError, open_source

    clock_open = time.perf_counter()
    try:
        source = open_source(path)
        source.open()
    except SourceError as exc:
        raise BenchError(str(exc)) from exc
    open_s = time.perf_counter() - clock_open
    try:
        run = run_pipeline(iter(source), detector, view=view, config=config, max_frames=max_frames)
    finally:
        source.close()
    run.wall_s += open_s
    if run.clock.rows:
        run.clock.rows[0]["decode"] += open_s
    return run


def throughput(
    clips: tuple[Path, ...],
    detectors: dict[str, Detector],
    max_frames: int,
    config: AnalysisConfig,
    report: Reporter,
    view: object | None = None,
    every_nth: tuple[int, ...] = (2, 5, 10),
) -> dict[str, Any]:
    """Each detector's pipeline against plain decoding of the same frames, clip by clip.

    ``view``: a known calibration for every clip (None: the pipeline finds the table itself);
    ``every_nth``: the thinning factors :func:`projected_ratios` projects.

    Plain decoding runs before and after each clip's pipeline runs (its mean is used), so a change
    in the machine's load during the clip affects both sides alike.
    """
    per_clip: list[dict[str, Any]] = []
    runs: dict[str, list[PipelineRun]] = {name: [] for name in detectors}
    decode_frames, decode_wall = 0, 0.0
    for path in clips:
        decode_clip(path, max_frames)  # warms the file cache; not counted
        before = decode_clip(path, max_frames)
        entry: dict[str, Any] = {"clip": path.name, "width": before["width"], "height": before["height"]}
        for name, detector in detectors.items():
            report(f"bench: {path.name}: {name} pipeline …")
            run = analyze_clip(path, detector, max_frames, config, view)
            runs[name].append(run)
            entry[name] = {"frames": run.frames, "fps": round(run.frames / run.wall_s, 3)}
        after = decode_clip(path, max_frames)
        decode_s = (before["wall_s"] + after["wall_s"]) / 2
        entry["decode"] = {"frames": before["frames"], "fps": round(before["frames"] / decode_s, 3)}
        for name in detectors:
            entry[name]["ratio_to_decode"] = round(entry[name]["fps"] / entry["decode"]["fps"], 4)
        decode_frames += before["frames"]
        decode_wall += decode_s
        per_clip.append(entry)
        report(
            f"bench: {path.name}: "
            + ", ".join(f"{k} {entry[k]['fps']:.1f} fps" for k in ("decode", *detectors))
        )
    decode_fps = decode_frames / decode_wall if decode_wall > 0 else math.nan
    summary: dict[str, Any] = {"decode": {"frames": decode_frames, "fps": round(decode_fps, 3)}}
    for name, detector_runs in runs.items():
        merged = _merge_runs(detector_runs)
        merged["ratio_to_decode"] = round(merged["fps"] / decode_fps, 4)
        merged["projected"] = projected_ratios(merged, decode_fps, every_nth)
        summary[name] = merged
    return {"clips": per_clip, "total": summary}


def projected_ratios(
    summary: dict[str, Any], decode_fps: float, every_nth: tuple[int, ...]
) -> dict[str, Any]:
    """Ratios to plain decoding the measured stage means project to — not measurements.

    ``detect_every_nth_at_rest``: detection runs on every frame while a ball moves but on every Nth
    frame while all rest (the fraction of tracked frames measured here); ``and_check_view_every_nth``:
    the calibration check also runs on every Nth frame only.
    """
    mean_s = {stage: summary["stages"][stage]["mean_ms"] / 1000.0 for stage in STAGES}
    tracked = summary["frames_tracked"]
    rest = summary["frames_all_at_rest"] / tracked if tracked else 0.0
    base = sum(mean_s.values()) - mean_s["detection"] - mean_s["calibration"]

    def ratio(detect_share: float, check_share: float) -> float:
        per_frame = base + mean_s["detection"] * detect_share + mean_s["calibration"] * check_share
        return round(1.0 / per_frame / decode_fps, 4) if per_frame > 0 else math.nan

    return {
        "rest_fraction": round(rest, 3),
        "detect_every_nth_at_rest": {str(n): ratio((1 - rest) + rest / n, 1.0) for n in every_nth},
        "and_check_view_every_nth": {str(n): ratio((1 - rest) + rest / n, 1.0 / n) for n in every_nth},
    }


def _merge_runs(runs: list[PipelineRun]) -> dict[str, Any]:
    """Totals over clips; stage statistics over all their frames."""
    merged = PipelineRun(StageClock())
    for run in runs:
        merged.clock.rows.extend(run.clock.rows)
        merged.frames += run.frames
        merged.wall_s += run.wall_s
        merged.frames_tracked += run.frames_tracked
        merged.frames_all_at_rest += run.frames_all_at_rest
        merged.strokes += run.strokes
        merged.rulings += run.rulings
        merged.referee_errors += run.referee_errors
        for reason, count in run.skipped.items():
            merged.skipped[reason] = merged.skipped.get(reason, 0) + count
    return merged.summary()


# --------------------------------------------------------------------------- memory
def memory(path: Path, detector: Detector, frames: int, config: AnalysisConfig) -> dict[str, Any]:
    """Peak traced Python/numpy allocations while the pipeline runs ``frames`` frames of ``path``."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    baseline, _ = tracemalloc.get_traced_memory()
    try:
        run = analyze_clip(path, detector, frames, config)
        current, peak = tracemalloc.get_traced_memory()
    finally:
        if not was_tracing:
            tracemalloc.stop()
    return {
        "clip": path.name,
        "frames": run.frames,
        "tracemalloc_peak_mib": round((peak - baseline) / 2**20, 2),
        "tracemalloc_retained_mib": round((current - baseline) / 2**20, 2),
        "peak_rss_mib": peak_rss_mib(),
    }


# --------------------------------------------------------------------------- live
def live(path: Path, detector: Detector, max_s: float, config: AnalysisConfig) -> dict[str, Any]:
    """Play ``path`` at its own frame rate through ``LiveTable``; count frames processed and dropped."""
    from snooker.pipeline.live import LiveTable, LiveTableConfig
    from snooker.record.session import MatchSession
    from snooker.vision.sources import SourceError, open_source

    session = MatchSession(None)
    session.apply(frame_log_lines([])[0], origin="bench")
    messages: list[str] = []
    table = LiveTable(
        session,
        detector,
        config=LiveTableConfig(analysis=config, status_every_s=max_s + 1.0),
        report=messages.append,
    )
    try:
        source = open_source(path)
    except SourceError as exc:
        raise BenchError(str(exc)) from exc
    timer = threading.Timer(max_s, table.stop)
    timer.start()
    started = time.perf_counter()
    try:
        status = table.run(source)
    finally:
        timer.cancel()
    elapsed = time.perf_counter() - started
    offered = status.frames_processed + status.frames_failed + status.frames_dropped
    return {
        "clip": path.name,
        "source_fps": round(float(source.fps), 3),
        "frames_offered": offered,
        "frames_read": source.stats.frames_read,
        "frames_processed": status.frames_processed,
        "frames_dropped": status.frames_dropped,
        "frames_failed": status.frames_failed,
        "frames_skipped_no_table": status.frames_skipped,
        "dropped_fraction": round(status.frames_dropped / offered, 4) if offered else math.nan,
        "processed_fps": round(status.frames_processed / elapsed, 3),
        "elapsed_s": round(elapsed, 3),
        "max_queue_latency_ms": round(status.max_latency_s * 1000.0, 1),
        "strokes_ruled": status.strokes,
        "ended": status.ended,
        "keeps_up": status.frames_dropped == 0 and status.frames_failed == 0,
    }


# --------------------------------------------------------------------------- rest → ruling latency
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


def struck_clip(config: StruckClipConfig, seed: int) -> SyntheticClip:
    """The cue ball struck at a red, simulated by ``snooker.datasets.synth.physics`` and rendered.

    The truth's ``rest_time`` (every ball at rest) gives the rest frame. Raises ImportError where
    the synthetic package has no physics.
    """
    from snooker.calibration.table import STANDARD_TABLE
    from snooker.datasets.synth.camera import Camera
    from snooker.datasets.synth.physics import Shot, simulate
    from snooker.datasets.synth.render import Renderer, RenderOptions

    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = config.cue_area_mm
    cue = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
    offset = np.array(
        [rng.uniform(-config.red_side_mm, config.red_side_mm), rng.uniform(*config.red_ahead_mm)]
    )
    red = cue + offset
    layout = {"white": tuple(cue), "red-1": tuple(red)}
    layout.update({name: tuple(STANDARD_TABLE.spots[name]) for name in config.colours})
    aim = math.degrees(math.atan2(*(red - cue)[::-1])) + rng.uniform(-config.cut_deg, config.cut_deg)
    shot = Shot(speed_mm_s=float(rng.uniform(*config.speed_mm_s)), angle_deg=aim, top=config.top)
    trajectory = simulate(layout, shot, fps=config.fps, lead_in_s=config.lead_in_s, tail_s=config.tail_s)
    camera = Camera.broadcast(image_size=config.image_size)
    renderer = Renderer(camera, RenderOptions.randomised(rng))
    period = 1.0 / config.fps
    samples = renderer.options.motion_blur_samples
    noise_seed = int(rng.integers(0, 2**31))
    times = trajectory.frame_times

    def frames() -> Iterator[Frame]:
        noise = np.random.default_rng(noise_seed)
        for index, t in enumerate(times):
            shutter = np.linspace(t, t + period * config.shutter_fraction, samples)
            positions, motion = {}, {}
            for ball in trajectory.balls:
                path = trajectory.position(ball, shutter)
                if np.isnan(path[0]).any():
                    continue  # potted or gone
                positions[ball] = tuple(path[0])
                if trajectory.moving(ball, np.array([t]))[0]:
                    motion[ball] = path[~np.isnan(path).any(axis=1)]
            image, _ = renderer.render(positions, noise, motion=motion or None)
            yield Frame(index=index, t=float(t), image=image)

    rest_frame = math.ceil(trajectory.rest_time * config.fps - 1e-9)
    return SyntheticClip(f"struck-{seed}", config.fps, camera.table_view(), rest_frame, frames)


def synthetic_clips(
    count: int, struck: StruckClipConfig, rolling: RollingClipConfig, seed: int
) -> list[SyntheticClip]:
    """``count`` synthetic strokes with their exact rest frame: physics-simulated where the
    synthetic package has its physics, else a cue ball rolling to a stop."""
    try:
        return [struck_clip(struck, seed + k) for k in range(count)]
    except ImportError:
        return [rolling_clip(rolling, seed + k) for k in range(count)]


def rest_to_ruling(clip: SyntheticClip, detector: Detector, config: AnalysisConfig) -> dict[str, Any]:
    """Frames and time from the truth's rest frame to the frame on which the ruling is emitted.

    ``processing_ms`` is the pipeline's own time (every stage but the frame source, which here
    renders rather than decodes) over the frames from the rest frame to the emitting frame (what
    an offline run spends); live, the ruling arrives ``latency_video_ms`` after the balls stopped
    plus the emitting frame's processing (``ruling_frame_ms``).
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
            "latency_video_ms": round((emitted_frame - clip.rest_frame) / clip.fps * 1000.0, 1),
            "processing_ms": round(sum(per_frame[clip.rest_frame : emitted_frame + 1]) * 1000.0, 1),
            "ruling_frame_ms": round(per_frame[emitted_frame] * 1000.0, 1)
            if emitted_frame < len(rows)
            else None,
        }
    )
    return result


# --------------------------------------------------------------------------- YOLO network
def yolo_input_sizes(
    frame_bgr: np.ndarray, view: object, radii_px: tuple[float, ...]
) -> list[dict[str, Any]]:
    """The network input (height, width) the YOLO detector's table crop gives for each ball radius."""
    from snooker.vision.yolo_input import InputConfig, prepare_input

    sizes = []
    for radius in radii_px:
        prepared = prepare_input(frame_bgr, view, InputConfig(target_ball_radius_px=radius))
        height, width = prepared.image.shape[:2]
        sizes.append({"ball_radius_px": radius, "height": int(height), "width": int(width)})
    return sizes


def yolo_network_timing(sizes: list[dict[str, Any]], repeats: int, report: Reporter) -> dict[str, Any]:
    """ms per forward pass of the detector's network (the shipped weights, else its architecture).

    Timing depends on the architecture and input size, not on the trained values, so without
    shipped weights the untrained architecture (``yolo11n`` with 8 classes) is timed and says so.
    """
    from snooker.vision.yolo import DEFAULT_WEIGHTS, YoloConfig
    from snooker.vision.yolo_offline import import_ultralytics

    offline = YoloConfig().offline
    import_ultralytics(offline)
    import torch

    model, source = _yolo_model(DEFAULT_WEIGHTS)
    parameters = int(sum(p.numel() for p in model.parameters()))
    result: dict[str, Any] = {
        "model": source,
        "parameters": parameters,
        "size_fp32_mib": round(parameters * 4 / 2**20, 2),
        "weights_file_mib": round(DEFAULT_WEIGHTS.stat().st_size / 2**20, 2)
        if DEFAULT_WEIGHTS.is_file()
        else None,
        "threads": offline.threads,
        "torch": torch.__version__,
        "sizes": [],
    }
    onnx_path, onnx_note = _onnx_export(model, sizes)
    result["onnxruntime_note"] = onnx_note
    session = _onnx_session(onnx_path, offline.threads) if onnx_path is not None else None
    for size in sizes:
        blob = np.zeros((1, 3, size["height"], size["width"]), dtype=np.float32)
        entry = dict(size)
        with torch.inference_mode():
            tensor = torch.from_numpy(blob)
            entry["torch"] = summarise_ms(_repeat(lambda t=tensor: model(t), repeats))
        if session is not None:
            feed = {session.get_inputs()[0].name: blob}
            entry["onnxruntime"] = summarise_ms(_repeat(lambda f=feed: session.run(None, f), repeats))
        result["sizes"].append(entry)
        report(
            f"bench: YOLO network {size['height']}x{size['width']}: "
            f"torch {entry['torch']['median_ms']:.0f} ms"
        )
    if onnx_path is not None:
        onnx_path.unlink(missing_ok=True)
    return result


def _repeat(call: Callable[[], Any], repeats: int) -> list[float]:
    call()  # warm-up: allocations, kernel selection
    durations = []
    for _ in range(repeats - 1):
        started = time.perf_counter()
        call()
        durations.append(time.perf_counter() - started)
    return durations


def _yolo_model(weights: Path) -> tuple[Any, str]:
    if weights.is_file() and weights.suffix == ".pt":
        from ultralytics.nn.tasks import load_checkpoint

        model, _ = load_checkpoint(str(weights), device="cpu", fuse=True)
        return model.float().eval(), f"shipped weights {weights.name}"
    from ultralytics.nn.tasks import DetectionModel

    from snooker.balls import BALL_NAMES

    model = DetectionModel("yolo11n.yaml", nc=len(BALL_NAMES), verbose=False).float().eval().fuse()
    return model, "yolo11n architecture, untrained (no shipped weights yet; timing does not depend on them)"


def _onnx_export(model: Any, sizes: list[dict[str, Any]]) -> tuple[Path | None, str]:
    """Export ``model`` to a temporary ONNX file with a dynamic input size (needs the onnx package)."""
    try:
        import onnx  # noqa: F401  (the exporter needs it; checked here for a clear note)
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        return None, f"not measured: {exc.name} is not installed (the ONNX export needs it)"
    import torch

    handle, name = tempfile.mkstemp(suffix=".onnx")
    os.close(handle)
    path = Path(name)
    sample = torch.zeros(1, 3, sizes[0]["height"], sizes[0]["width"])
    try:
        with torch.no_grad():
            torch.onnx.export(
                model,
                sample,
                str(path),
                dynamo=False,
                input_names=["images"],
                output_names=["output"],
                dynamic_axes={"images": {2: "height", 3: "width"}},
            )
    except Exception as exc:  # an exporter problem is a note in the results, not a failed benchmark
        path.unlink(missing_ok=True)
        return None, f"not measured: ONNX export failed ({type(exc).__name__}: {exc})"
    return path, "measured (exported from the same model, CPU execution provider)"


def _onnx_session(path: Path, threads: int) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def yolo_realtime_analysis(
    network: dict[str, Any], rest_fraction: float | None, realtime_fps: float, every_nth: tuple[int, ...]
) -> dict[str, Any]:
    """What would bring the YOLO network under the real-time budget, from the measured numbers.

    For each input size and runtime: ms per frame, the speed-up still needed, and the mean ms per
    frame when the network runs on every frame while balls move but only every Nth frame while
    every ball rests (``rest_fraction`` of frames, measured by the classical pipeline's tracker).
    """
    budget_ms = 1000.0 / realtime_fps
    rows = []
    for size in network.get("sizes", []):
        for runtime in ("torch", "onnxruntime"):
            if runtime not in size:
                continue
            ms = size[runtime]["median_ms"]
            row: dict[str, Any] = {
                "input": f"{size['height']}x{size['width']}",
                "ball_radius_px": size["ball_radius_px"],
                "runtime": runtime,
                "ms_per_frame": ms,
                "speedup_needed": round(ms / budget_ms, 2),
            }
            if rest_fraction is not None:
                row["every_nth_at_rest_ms"] = {
                    str(n): round(ms * ((1.0 - rest_fraction) + rest_fraction / n), 1) for n in every_nth
                }
            rows.append(row)
    return {"budget_ms": round(budget_ms, 2), "rest_fraction": rest_fraction, "options": rows}


# --------------------------------------------------------------------------- the whole run
def run_bench(config: BenchConfig, report: Reporter) -> dict[str, Any]:
    """Every measurement of the module docstring, as one JSON-ready document."""
    from snooker.vision.detector import make_detector

    if not config.clips:
        raise BenchError("no clips to benchmark (give the real 1280x720 clips)")
    missing = [str(p) for p in config.clips if not Path(p).is_file()]
    if missing:
        raise BenchError(f"clips not found: {', '.join(missing)}")
    doc: dict[str, Any] = {
        "schema": BENCH_SCHEMA,
        "machine": machine_info(),
        "config": _config_record(config),
    }
    detectors: dict[str, Detector] = {}
    skipped: dict[str, str] = {}
    for name in config.detectors:
        try:
            detectors[name] = make_detector(name)
        except (ImportError, FileNotFoundError, ValueError) as exc:
            skipped[name] = f"{type(exc).__name__}: {exc}"
            report(f"bench: detector {name} skipped ({exc})")
    doc["detectors_skipped"] = skipped
    peak_rss: dict[str, float] = {"start": peak_rss_mib()}
    errors: dict[str, str] = {}
    doc["errors"] = errors
    started = time.perf_counter()

    def section(name: str, measure: Callable[[], Any]) -> None:
        """Run one measurement; a failure is recorded and reported, and the others still run."""
        try:
            doc[name] = measure()
        except Exception as exc:  # one broken measurement must not lose the rest of the run
            errors[name] = f"{type(exc).__name__}: {exc}"
            report(f"bench: {name} failed: {errors[name]}")
        peak_rss[f"after_{name}"] = peak_rss_mib()

    section(
        "throughput",
        lambda: throughput(config.clips, detectors, config.max_frames_per_clip, config.analysis, report),
    )
    if config.memory_frames > 0:
        section(
            "memory",
            lambda: {
                name: memory(config.clips[0], detector, config.memory_frames, config.analysis)
                for name, detector in detectors.items()
            },
        )
    if config.synthetic_clips > 0 and "classic" in detectors:
        report("bench: rest → ruling latency on synthetic clips …")
        clips = synthetic_clips(config.synthetic_clips, config.struck_clip, config.rolling_clip, config.seed)
        section(
            "latency", lambda: [rest_to_ruling(clip, detectors["classic"], config.analysis) for clip in clips]
        )
    if config.live_clips > 0:
        section(
            "live",
            lambda: {
                name: [
                    live(path, detector, config.live_max_s, config.analysis)
                    for path in config.clips[: config.live_clips]
                ]
                for name, detector in detectors.items()
            },
        )
    if config.yolo_network:
        section("yolo_network", lambda: _yolo_section(config, doc, report))
    peak_rss["end"] = peak_rss_mib()
    doc["peak_rss_mib"] = peak_rss
    doc["machine"]["load_average_end"] = [round(v, 2) for v in os.getloadavg()]
    doc["bench_wall_s"] = round(time.perf_counter() - started, 1)
    return doc


def _yolo_section(config: BenchConfig, doc: dict[str, Any], report: Reporter) -> dict[str, Any]:
    from snooker import calibration

    capture = cv2.VideoCapture(str(config.clips[0]))
    ok, image = capture.read()
    capture.release()
    if not ok:
        return {"error": f"cannot read {config.clips[0]}"}
    try:
        view = calibration.find_table(image)
        network = yolo_network_timing(
            yolo_input_sizes(image, view, config.yolo_ball_radii_px), config.yolo_repeats, report
        )
    except (ImportError, RuntimeError, ValueError) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    classic = doc.get("throughput", {}).get("total", {}).get("classic")
    rest_fraction = (
        round(classic["frames_all_at_rest"] / classic["frames_tracked"], 3)
        if classic and classic["frames_tracked"]
        else None
    )
    network["realtime"] = yolo_realtime_analysis(network, rest_fraction, config.realtime_fps, (2, 3, 5, 10))
    return network


def _config_record(config: BenchConfig) -> dict[str, Any]:
    return {
        "clips": [str(p) for p in config.clips],
        "detectors": list(config.detectors),
        "max_frames_per_clip": config.max_frames_per_clip,
        "memory_frames": config.memory_frames,
        "live_clips": config.live_clips,
        "live_max_s": config.live_max_s,
        "synthetic_clips": config.synthetic_clips,
        "yolo_network": config.yolo_network,
        "realtime_fps": config.realtime_fps,
        "seed": config.seed,
    }


# --------------------------------------------------------------------------- the printed table
def _throughput_lines(total: dict[str, Any]) -> list[str]:
    lines = ["", "throughput (same frames, same run)", f"{'':<10}{'frames':>8}{'fps':>10}{'ratio':>9}"]
    lines.append(f"{'decode':<10}{total['decode']['frames']:>8}{total['decode']['fps']:>10.1f}{1.0:>9.3f}")
    names = [name for name in total if name != "decode"]
    for name in names:
        row = total[name]
        lines.append(f"{name:<10}{row['frames']:>8}{row['fps']:>10.2f}{row['ratio_to_decode']:>9.3f}")
    for name in names:
        stages = total[name]["stages"]
        lines += ["", f"stages, {name} (ms per frame)", f"{'stage':<13}{'median':>9}{'p95':>9}{'mean':>9}"]
        for stage in STAGES:
            s = stages[stage]
            lines.append(f"{stage:<13}{s['median_ms']:>9.2f}{s['p95_ms']:>9.2f}{s['mean_ms']:>9.2f}")
        lines.append(
            f"(skipped {total[name]['skipped']}, all balls at rest on "
            f"{total[name]['frames_all_at_rest']}/{total[name]['frames_tracked']} tracked frames)"
        )
        projected = total[name]["projected"]
        lines.append(
            f"projected ratio (not measured): detection every Nth frame at rest "
            f"{projected['detect_every_nth_at_rest']}; and the view check every Nth "
            f"{projected['and_check_view_every_nth']}"
        )
    lines.append("")
    return lines


def format_report(doc: dict[str, Any]) -> str:
    """The benchmark document as plain-text tables."""
    machine = doc["machine"]
    lines = [
        f"machine: {machine['processor']}, {machine['usable_cpus']} usable CPUs, load "
        f"{machine['load_average_1_5_15'][0]} → {machine.get('load_average_end', ['?'])[0]}, "
        f"OpenCV {machine['opencv']} ({machine['opencv_threads']} threads), commit {machine['git_commit']}",
    ]
    total = doc.get("throughput", {}).get("total")
    if total:
        lines += _throughput_lines(total)
    for entry in doc.get("latency", []):
        if entry.get("emitted_frame") is None:
            lines.append(f"latency {entry['clip']}: no stroke emitted ({entry['frames']} frames)")
            continue
        lines.append(
            f"latency {entry['clip']}: rest frame {entry['rest_frame']} → ruling at frame "
            f"{entry['emitted_frame']}: {entry['latency_frames']} frames = "
            f"{entry['latency_video_ms']} ms of video, "
            f"{entry['processing_ms']} ms processing (ruling frame {entry['ruling_frame_ms']} ms); "
            f"the tracker saw the stroke end at frame {entry['stroke_end_frame']}"
        )
    for name, mem in doc.get("memory", {}).items():
        lines.append(
            f"memory {name}: tracemalloc peak {mem['tracemalloc_peak_mib']} MiB over {mem['frames']} frames; "
            f"peak RSS {mem['peak_rss_mib']} MiB"
        )
    for name, runs in doc.get("live", {}).items():
        for r in runs:
            lines.append(
                f"live {name} {r['clip']} @ {r['source_fps']} fps: {r['frames_processed']} processed, "
                f"{r['frames_dropped']} dropped of {r['frames_offered']} ({r['dropped_fraction']:.1%}), "
                f"{r['processed_fps']} fps processed; keeps up: {r['keeps_up']}"
            )
    network = doc.get("yolo_network")
    if network and "sizes" in network:
        lines += [
            "",
            f"YOLO network: {network['model']}; {network['parameters']:,} parameters "
            f"({network['size_fp32_mib']} MiB fp32), {network['threads']} threads; "
            f"onnxruntime {network['onnxruntime_note']}",
        ]
        budget = network["realtime"]["budget_ms"]
        for option in network["realtime"]["options"]:
            nth = option.get("every_nth_at_rest_ms", {})
            lines.append(
                f"  {option['input']:>9} r={option['ball_radius_px']:.0f}px {option['runtime']:<12}"
                f"{option['ms_per_frame']:>8.1f} ms  x{option['speedup_needed']:.1f} "
                f"of the {budget} ms budget" + (f"; every Nth at rest: {nth}" if nth else "")
            )
    elif network:
        lines.append(f"YOLO network: {network.get('error')}")
    lines.append(f"peak RSS (MiB): {doc['peak_rss_mib']}")
    for name, error in doc.get("errors", {}).items():
        lines.append(f"FAILED {name}: {error}")
    return "\n".join(lines)
