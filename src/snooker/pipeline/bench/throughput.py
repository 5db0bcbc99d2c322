"""Throughput of the offline pipeline against plain decoding, per-stage times, memory and live drops."""

from __future__ import annotations

import json
import math
import multiprocessing
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from snooker.pipeline.analyze import AnalysisConfig, Detector, VideoAnalysis, frame_log_lines
from snooker.pipeline.bench.timing import (
    PROCESS_STAGE,
    STAGES,
    BenchError,
    Reporter,
    StageClock,
    peak_rss_mib,
    summarise_ms,
)
from snooker.pipeline.tracking import TrackingWorker
from snooker.vision.sources import open_video
from snooker.vision.types import Frame


def decode_clip(path: Path, max_frames: int | None, threads: int = 0) -> dict[str, Any]:
    """Plain decoding: open ``path`` with ``cv2.VideoCapture`` and read up to ``max_frames`` frames
    (None: the whole file); the decoder uses ``threads`` threads (0: OpenCV's choice)."""
    started, cpu_started = time.perf_counter(), time.process_time()
    capture = open_video(str(path), threads)
    try:
        if not capture.isOpened():
            raise BenchError(f"cannot open {path} as a video")
        frames = 0
        shape: tuple[int, ...] | None = None
        while max_frames is None or frames < max_frames:
            ok, image = capture.read()
            if not ok or image is None:
                break
            shape = image.shape
            frames += 1
        fps = capture.get(cv2.CAP_PROP_FPS)
    finally:
        capture.release()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if frames == 0:
        raise BenchError(f"{path} has no decodable frame")
    assert shape is not None
    return {
        "frames": frames,
        "wall_s": wall,
        "cpu_s": cpu,
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
    table_searches: dict[str, int] = field(default_factory=dict)
    """Searches for the table: ``made``, and ``skipped`` on frames that looked like the one the last
    failed search was made on (``VideoAnalysis.search_gate``)."""
    strokes: int = 0
    rulings: int = 0
    referee_errors: list[str] = field(default_factory=list)
    emitted: list[dict[str, Any]] = field(default_factory=list)
    """Per stroke: ``frame`` it was emitted (and ruled) on, its ``end_frame``, ``ruled``, and
    ``at_finish`` (emitted only when the input ended, as a truncated stroke)."""
    gates: dict[str, dict[str, int]] = field(default_factory=dict)
    """What the fast path's gates did (``detection``, ``view_check``): frames whose result was
    reused, searched in changed regions only (``partial``), or computed in full."""
    gate_seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    """Seconds of each gate's stage spent in the wrapped call on its ``full`` frames and in the
    searches of changed regions on its ``partial`` ones (the rest of the stage is the gate's own)."""
    tracking_worker_s: float | None = None
    """Seconds the tracking stage took in its worker process (None: tracked in the frame loop,
    timed as its ``tracking`` stage)."""
    cpu_s: float = 0.0
    """CPU seconds of the frame loop's process over the run (all its threads: decoding, the loop,
    OpenCV's pool)."""
    tracking_worker_cpu_s: float | None = None
    """CPU seconds of the tracking worker process over the run (None: no worker)."""

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
            "table_searches": dict(self.table_searches),
            "strokes": self.strokes,
            "rulings": self.rulings,
            "referee_errors": list(self.referee_errors),
            "gates": {name: dict(counts) for name, counts in self.gates.items()},
            "gate_ms_per_frame": {
                name: {kind: round(1000.0 * seconds / self.frames, 4) for kind, seconds in kinds.items()}
                for name, kinds in self.gate_seconds.items()
                if self.frames
            },
            "tracking_in_worker": self.tracking_worker_s is not None,
            "tracking_worker_mean_ms": (
                round(1000.0 * self.tracking_worker_s / self.frames_tracked, 4)
                if self.tracking_worker_s is not None and self.frames_tracked
                else None
            ),
            "cpu": self.cpu_use(),
        }

    def cpu_use(self) -> dict[str, float | None]:
        """CPU the run used: core-ms a frame in the frame loop's process and in the tracking worker,
        and the cores they kept busy on average (their CPU seconds over the run's wall seconds)."""
        worker = self.tracking_worker_cpu_s
        if self.frames == 0 or self.wall_s <= 0:
            return {"process_ms_per_frame": None, "worker_ms_per_frame": None, "cores_busy": None}
        return {
            "process_ms_per_frame": round(1000.0 * self.cpu_s / self.frames, 4),
            "worker_ms_per_frame": None if worker is None else round(1000.0 * worker / self.frames, 4),
            "cores_busy": round((self.cpu_s + (worker or 0.0)) / self.wall_s, 3),
        }


def run_pipeline(
    frames: Iterator[Frame],
    detector: Detector,
    view: object | None = None,
    config: AnalysisConfig | None = None,
    find_table: Callable[[np.ndarray], object] | None = None,
    shows_table: Callable[[np.ndarray, object], bool] | None = None,
    max_frames: int | None = None,
    analysis: VideoAnalysis | None = None,
) -> PipelineRun:
    """Run ``VideoAnalysis`` and a referee over ``frames``, timing every stage of every frame.

    ``frames`` is an iterator of frames (its ``next`` is the decode stage); ``max_frames`` >= 1.
    The referee rules each stroke as the pipeline emits it, as ``snooker-referee analyze --referee``
    does. ``find_table`` / ``shows_table`` default to the calibration package's (the frame loop's
    own defaults, the view check behind the fast path's gate). ``analysis``, when given, is the frame
    loop to run (made by the caller, e.g. to prepare frames on the reader thread); the arguments it
    would otherwise be made from are then not used; where it tracks in a worker process
    (``VideoAnalysis(tracking_worker=...)``) the tracking is timed there, and waiting for the
    worker at the end counts in the wall time.
    """
    from snooker.referee import Referee

    clock = StageClock()
    if analysis is None:
        analysis = VideoAnalysis(
            detector, view=view, config=config, find_table=find_table, shows_table=shows_table
        )
    # time the stages as the frame loop calls them (the detector and the view check behind their
    # fast-path gates, whose own work counts in their stage; this object only)
    gates = {"detection": analysis.detector, "view_check": analysis.shows_table}
    analysis.detector = clock.wrap("detection", analysis.detector)
    analysis.find_table = clock.wrap("calibration", analysis.find_table)
    analysis.shows_table = clock.wrap("calibration", analysis.shows_table)
    if analysis.other_view is not None:
        analysis.other_view = clock.wrap("other_view", analysis.other_view)
    if analysis.tracking_worker is None:
        analysis.tracker.update = clock.wrap("tracking", analysis.tracker.update)  # type: ignore[method-assign]
        analysis.segmenter.push = clock.wrap("tracking", analysis.segmenter.push)  # type: ignore[method-assign]
    referee = Referee()
    referee.apply(frame_log_lines([])[0])
    run = PipelineRun(clock)
    iterator = iter(frames)
    frame: Frame | None = None
    last_index = -1
    started, cpu_started = time.perf_counter(), time.process_time()
    while max_frames is None or run.frames < max_frames:
        with clock.measure("decode"):
            frame = next(iterator, None)
        if frame is None:
            clock.end_frame()
            clock.rows.pop()  # the failed read of the end is no frame (its time stays in wall_s)
            break
        with clock.measure(PROCESS_STAGE):
            outcome = analysis.process(frame)
        with clock.measure("referee"):
            _rule(referee, outcome.strokes, run, frame.index, at_finish=False)
        clock.end_frame()
        run.frames += 1
        last_index = frame.index
    finished = analysis.finish()
    run.wall_s, run.cpu_s = time.perf_counter() - started, time.process_time() - cpu_started
    _rule(referee, finished, run, last_index, at_finish=True)
    if analysis.tracking_error is not None:
        raise BenchError(analysis.tracking_error)
    run.frames_tracked = len(analysis.frames)
    run.frames_all_at_rest = sum(
        not any(ball["moving"] for ball in record["balls"]) for record in analysis.frames
    )
    if analysis.tracking_worker is not None:
        run.tracking_worker_s = analysis.stage.times.seconds
        run.tracking_worker_cpu_s = analysis.stage.times.worker_cpu_s
    run.skipped = dict(analysis.skipped)
    run.table_searches = {"made": len(analysis.views), "skipped": analysis.search_gate.skipped}
    run.gates = {name: gate_counts(gate) for name, gate in gates.items()}
    run.gate_seconds = {name: gate_seconds(gate) for name, gate in gates.items()}
    return run


def gate_counts(gate: object) -> dict[str, int]:
    """Frames a fast-path gate reused, searched in part, followed (the detection gate: balls known
    in the changed places followed instead of searched) and computed in full — each frame once
    (all in full when the stage has no gate: its calls are then not counted here)."""
    counts = getattr(gate, "counts", None)
    if counts is None:
        return {}
    followed = getattr(counts, "followed", 0)
    result = {"reused": counts.reused, "partial": counts.partial - followed, "full": counts.full}
    if hasattr(counts, "followed"):
        result["followed"] = followed
    return result


def gate_seconds(gate: object) -> dict[str, float]:
    """Seconds a fast-path gate spent in the wrapped call on the frames it computed in ``full``, in
    the detector's searches of changed regions (``partial``; the detection gate only) and in the
    views' second full detections that found no ball more (``second_look``, the detection gate
    only: a detector's work, not the gate's own, though its frames are counted as they went on);
    empty when the stage has no gate."""
    counts = getattr(gate, "counts", None)
    if counts is None:
        return {}
    return {"full": counts.full_s, "partial": counts.partial_s, "second_look": counts.second_look_s}


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
    path: Path,
    detector: Detector,
    max_frames: int,
    config: AnalysisConfig,
    view: object | None = None,
    tracking_worker: TrackingWorker | None = None,
) -> PipelineRun:
    """The offline pipeline over the first ``max_frames`` frames of a clip, from the real frame source
    read ahead on its own thread (as ``snooker-referee analyze`` reads it).

    Opening the source counts as decoding (as opening the capture does for plain decoding). With
    ``view`` (a known calibration, as ``analyze --calibration`` gives) the table is not searched for;
    with ``tracking_worker`` the tracking runs in that process (as ``analyze`` of one video runs it).
    """
    from snooker.vision.sources import SourceError, open_source, read_ahead

    analysis = VideoAnalysis(detector, view=view, config=config, tracking_worker=tracking_worker)
    clock_open = time.perf_counter()
    try:
        frames = read_ahead(open_source(path), prepare=analysis.prepare)
        frames.__enter__()
    except SourceError as exc:
        raise BenchError(str(exc)) from exc
    open_s = time.perf_counter() - clock_open
    try:
        run = run_pipeline(iter(frames), detector, max_frames=max_frames, analysis=analysis)
    except SourceError as exc:
        raise BenchError(str(exc)) from exc
    finally:
        frames.close()
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
    tracking_worker: TrackingWorker | None = None,
) -> dict[str, Any]:
    """Each detector's pipeline against plain decoding of the same frames, clip by clip.

    ``view``: a known calibration for every clip (None: the pipeline finds the table itself);
    ``tracking_worker``: a started worker process every clip's tracking runs in (None: in the
    frame loop);
    ``every_nth``: the thinning factors :func:`projected_ratios` projects.

    Plain decoding runs before and after each clip's pipeline runs (its mean is used), so a change
    in the machine's load during the clip affects both sides alike. ``ratio_to_decode`` is to
    OpenCV's plain decoding as it comes (its decoder's threads of its choosing);
    ``ratio_to_fastest_decode`` to the faster of that and the same decoding on one thread (which
    the pipeline itself uses, see ``SourceConfig.decoder_threads``, and which can be the faster).
    """
    per_clip: list[dict[str, Any]] = []
    runs: dict[str, list[PipelineRun]] = {name: [] for name in detectors}
    decode_frames, decode_wall, one_thread_wall, decode_cpu, one_thread_cpu = 0, 0.0, 0.0, 0.0, 0.0
    for path in clips:
        decode_clip(path, max_frames)  # warms the file cache; not counted
        before = decode_clip(path, max_frames)
        one_before = decode_clip(path, max_frames, threads=1)
        entry: dict[str, Any] = {"clip": path.name, "width": before["width"], "height": before["height"]}
        for name, detector in detectors.items():
            report(f"bench: {path.name}: {name} pipeline …")
            run = analyze_clip(path, detector, max_frames, config, view, tracking_worker)
            runs[name].append(run)
            entry[name] = {"frames": run.frames, "fps": round(run.frames / run.wall_s, 3)}
        after = decode_clip(path, max_frames)
        one_after = decode_clip(path, max_frames, threads=1)
        decode_s = (before["wall_s"] + after["wall_s"]) / 2
        one_thread_s = (one_before["wall_s"] + one_after["wall_s"]) / 2
        entry["decode"] = {"frames": before["frames"], "fps": round(before["frames"] / decode_s, 3)}
        entry["decode_one_thread"] = {
            "frames": before["frames"],
            "fps": round(before["frames"] / one_thread_s, 3),
        }
        fastest = max(entry["decode"]["fps"], entry["decode_one_thread"]["fps"])
        for name in detectors:
            entry[name]["ratio_to_decode"] = round(entry[name]["fps"] / entry["decode"]["fps"], 4)
            entry[name]["ratio_to_fastest_decode"] = round(entry[name]["fps"] / fastest, 4)
        decode_frames += before["frames"]
        decode_wall += decode_s
        one_thread_wall += one_thread_s
        decode_cpu += (before["cpu_s"] + after["cpu_s"]) / 2
        one_thread_cpu += (one_before["cpu_s"] + one_after["cpu_s"]) / 2
        per_clip.append(entry)
        report(
            f"bench: {path.name}: "
            + ", ".join(f"{k} {entry[k]['fps']:.1f} fps" for k in ("decode", *detectors))
        )
    decode_fps = decode_frames / decode_wall if decode_wall > 0 else math.nan
    one_thread_fps = decode_frames / one_thread_wall if one_thread_wall > 0 else math.nan

    def decoding(fps: float, cpu_s: float) -> dict[str, Any]:
        per_frame = round(1000.0 * cpu_s / decode_frames, 4) if decode_frames else None
        return {"frames": decode_frames, "fps": round(fps, 3), "cpu_ms_per_frame": per_frame}

    summary: dict[str, Any] = {
        "decode": decoding(decode_fps, decode_cpu),
        "decode_one_thread": decoding(one_thread_fps, one_thread_cpu),
    }
    for name, detector_runs in runs.items():
        merged = _merge_runs(detector_runs)
        merged["ratio_to_decode"] = round(merged["fps"] / decode_fps, 4)
        merged["ratio_to_fastest_decode"] = round(merged["fps"] / max(decode_fps, one_thread_fps), 4)
        merged["projected"] = projected_ratios(merged, decode_fps, every_nth)
        summary[name] = merged
    return {"clips": per_clip, "total": summary}


def batch(clips: tuple[Path, ...], detector: str, jobs: int, max_frames: int) -> dict[str, Any]:
    """Clips analysed ``jobs`` at a time by ``snooker-referee analyze CLIP... --jobs N`` (the
    command itself, run as a program: its start and its worker processes' counted, outputs
    written), against plain decoding of the same frames one clip after another and ``jobs`` clips
    at once (worker processes too); the ratio is to the faster of the two decodings."""
    for path in clips:
        decode_clip(path, max_frames)  # warms the file cache; not counted
    started = time.perf_counter()
    one_by_one = [decode_clip(path, max_frames) for path in clips]
    one_by_one_s = time.perf_counter() - started
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(decode_clip, clips, [max_frames] * len(clips)))
    at_once_s = time.perf_counter() - started
    frames = sum(d["frames"] for d in one_by_one)
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as out:
        started = time.perf_counter()
        options = ["--out", out, "--detector", detector, "--jobs", str(jobs), "--max-frames", str(max_frames)]
        command = [sys.executable, "-m", "snooker.cli", "analyze", *map(str, clips), *options]
        finished = subprocess.run(command, capture_output=True, text=True, check=False)
        analyze_s = time.perf_counter() - started
        code = finished.returncode
        analysed = sum(
            json.loads(doc.read_text(encoding="utf-8"))["video"]["frames"]
            for doc in Path(out).rglob("analysis.json")
        )
    if code != 0 or analysed != frames:
        said = finished.stderr.strip().splitlines()[-1:] or ["nothing said"]
        raise BenchError(f"the batch analysis failed (exit {code}; {analysed} of {frames} frames): {said[0]}")
    decode_fps = {"one_by_one": frames / one_by_one_s, "at_once": frames / at_once_s}
    analyze_fps = frames / analyze_s
    return {
        "clips": len(clips),
        "jobs": jobs,
        "frames": frames,
        "analyze_fps": round(analyze_fps, 2),
        "decode_fps": {k: round(v, 2) for k, v in decode_fps.items()},
        "ratio_to_decode": round(analyze_fps / max(decode_fps.values()), 4),
        "ratio_to_decode_one_by_one": round(analyze_fps / decode_fps["one_by_one"], 4),
    }


def long_video(path: Path, detector: str, jobs: int) -> dict[str, Any]:
    """One long video analysed by ``snooker-referee analyze VIDEO`` in one process and with
    ``--jobs N`` (read from N starts at once, each part handing over to the next: see
    ``snooker.pipeline.segments``), against plain decoding of the same file in one process; also
    whether it was split (a short video is not) and the parts handed over (else the first read to
    the end, as one process would)."""
    decode_clip(path, None)  # warms the file cache; not counted
    started = time.perf_counter()
    frames = decode_clip(path, None)["frames"]
    decode_fps = frames / (time.perf_counter() - started)
    runs: dict[str, Any] = {}
    for label, count in (("one_process", 1), (f"jobs_{jobs}", jobs)):
        with tempfile.TemporaryDirectory(prefix="bench-long-") as out:
            options = ["--out", out, "--detector", detector, "--jobs", str(count)]
            command = [sys.executable, "-m", "snooker.cli", "analyze", str(path), *options]
            started = time.perf_counter()
            finished = subprocess.run(command, capture_output=True, text=True, check=False)
            analyze_s = time.perf_counter() - started
            analysed = json.loads((Path(out) / "analysis.json").read_text(encoding="utf-8"))["video"][
                "frames"
            ]
        if finished.returncode != 0 or analysed != frames:
            said = finished.stderr.strip().splitlines()[-1:] or ["nothing said"]
            raise BenchError(
                f"the long video's analysis failed (exit {finished.returncode}; "
                f"{analysed} of {frames} frames): {said[0]}"
            )
        runs[label] = {
            "analyze_fps": round(frames / analyze_s, 2),
            "ratio_to_decode": round(frames / analyze_s / decode_fps, 4),
            "split": "segments in" in finished.stderr,
            "handed_over": "segments in" in finished.stderr and "read on to the end" not in finished.stderr,
        }
    return {"video": str(path), "frames": frames, "jobs": jobs, "decode_fps": round(decode_fps, 2), **runs}


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
        if run.tracking_worker_s is not None:
            merged.tracking_worker_s = (merged.tracking_worker_s or 0.0) + run.tracking_worker_s
        merged.cpu_s += run.cpu_s
        if run.tracking_worker_cpu_s is not None:
            merged.tracking_worker_cpu_s = (merged.tracking_worker_cpu_s or 0.0) + run.tracking_worker_cpu_s
        merged.strokes += run.strokes
        merged.rulings += run.rulings
        merged.referee_errors += run.referee_errors
        _add_into(merged.skipped, run.skipped)
        _add_into(merged.table_searches, run.table_searches)
        for name, counts in run.gates.items():
            _add_into(merged.gates.setdefault(name, {}), counts)
        for name, kinds in run.gate_seconds.items():
            _add_into(merged.gate_seconds.setdefault(name, {}), kinds)
    return merged.summary()


def _add_into(total: dict[str, Any], amounts: dict[str, Any]) -> None:
    """Add ``amounts`` (counts or seconds) into ``total``, key by key, in place."""
    for key, amount in amounts.items():
        total[key] = total.get(key, 0) + amount


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


def live(path: Path, detector: Detector, max_s: float, config: AnalysisConfig) -> dict[str, Any]:
    """Play ``path`` at its own frame rate through ``LiveTable``; count frames processed and dropped
    (those dropped while the table was first found apart: a one-off at the start)."""
    from snooker.pipeline.live import LiveTable, LiveTableConfig
    from snooker.record.session import MatchSession
    from snooker.vision.sources import SourceError, open_source

    session = MatchSession(None)
    session.apply(frame_log_lines([])[0], origin="bench")
    messages: list[str] = []
    seen: list[tuple[int, bool]] = []

    def first_table(outcome: Any, status: Any) -> None:
        seen.append((outcome.frame.index, outcome.state is not None))

    table = LiveTable(
        session,
        detector,
        config=LiveTableConfig(analysis=config, status_every_s=max_s + 1.0),
        report=messages.append,
        on_frame=first_table,
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
    startup = startup_drops(seen)
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
        "dropped_finding_the_table": startup,
        "dropped_after_the_table_was_found": None if startup is None else status.frames_dropped - startup,
        "processed_fps": round(status.frames_processed / elapsed, 3),
        "elapsed_s": round(elapsed, 3),
        "max_queue_latency_ms": round(status.max_latency_s * 1000.0, 1),
        "strokes_ruled": status.strokes,
        "other_views_not_followed": status.other_views_not_followed,
        "ended": status.ended,
        "keeps_up": status.frames_dropped == 0 and status.frames_failed == 0,
        "gates": {
            "detection": gate_counts(table.analysis.detector),
            "view_check": gate_counts(table.analysis.shows_table),
        },
    }


def startup_drops(seen: list[tuple[int, bool]]) -> int | None:
    """Frames dropped up to the one after the first frame with a table: while the table was being
    found. ``seen``: (source frame index, had a table) of each frame processed, in order (the
    indices count every frame the source gave, so a gap is frames dropped)."""
    first = next((k for k, (_, tracked) in enumerate(seen) if tracked), None)
    if first is None:
        return None
    end = seen[first + 1][0] if first + 1 < len(seen) else seen[first][0] + 1
    return end - (first + 1)
