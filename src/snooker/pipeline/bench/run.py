"""One benchmark run: the configuration, every measurement in turn, and the printed tables."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

from snooker.pipeline.analyze import AnalysisConfig, Detector
from snooker.pipeline.bench.latency import (
    RollingClipConfig,
    ScenarioClipConfig,
    rest_to_ruling,
    synthetic_clips,
)
from snooker.pipeline.bench.throughput import batch, live, long_video, memory, throughput
from snooker.pipeline.bench.timing import (
    BENCH_SCHEMA,
    STAGES,
    BenchError,
    Reporter,
    machine_info,
    peak_rss_mib,
)
from snooker.pipeline.bench.yolo import (
    yolo_input_sizes,
    yolo_network_timing,
    yolo_note,
    yolo_realtime_analysis,
)
from snooker.pipeline.tracking import TrackingWorker


@dataclass(frozen=True)
class BenchConfig:
    """What one benchmark run measures (units in the names).

    - ``clips``: real 1280×720 clips for throughput, stages, memory and live.
    - ``detectors``: detector names (``snooker.vision.detector``); one that cannot be loaded (YOLO
      without weights) is reported as skipped.
    - ``max_frames_per_clip``: frames read from each clip for throughput (count).
    - ``batch_jobs``: the clips are also analysed this many at a time by the ``analyze`` command
      (worker processes), against plain decoding of the same frames (count; 0 skips).
    - ``long_video``: a long video (a match; ``scripts/make_long_video.py`` joins the clips into
      one) analysed in one process and with ``--jobs batch_jobs`` (at least 2), against plain
      decoding of it (None skips).
    - ``memory_frames``: frames of the first clip run under tracemalloc (count; 0 skips).
    - ``live_clips``: how many of ``clips`` are played live at their own frame rate (0 skips).
    - ``live_max_s``: a live run is stopped after this many seconds.
    - ``synthetic_clips``: synthetic strokes for the rest → ruling latency (0 skips).
    - ``scenario_clip``: those strokes (the synthetic package's scenarios); ``rolling_clip`` the
      stand-in where that package has none.
    - ``yolo_network``: time the YOLO network's forward pass (torch; onnxruntime if exportable).
    - ``yolo_ball_radii_px``: network-input ball radii to time (the detector's is the first).
    - ``yolo_repeats``: forward passes per size (the first is a warm-up, not counted).
    - ``realtime_fps``: the frame rate "real time" means (frames per second).
    - ``thinning_factors``: N of "detect only every Nth frame while the balls rest" projections.
    - ``seed``: seeds the synthetic clips.
    - ``tracking_worker``: throughput with the tracking in a worker process, as ``analyze`` of one
      video runs it (started once for all clips and up before measuring begins, like the
      imports); False: in the frame loop.
    """

    clips: tuple[Path, ...] = ()
    detectors: tuple[str, ...] = ("classic", "yolo")
    max_frames_per_clip: int = 150
    batch_jobs: int = 2
    long_video: Path | None = None
    memory_frames: int = 60
    live_clips: int = 1
    live_max_s: float = 30.0
    synthetic_clips: int = 2
    scenario_clip: ScenarioClipConfig = field(default_factory=ScenarioClipConfig)
    rolling_clip: RollingClipConfig = field(default_factory=RollingClipConfig)
    yolo_network: bool = True
    yolo_ball_radii_px: tuple[float, ...] = (8.0, 6.0, 4.0)
    yolo_repeats: int = 11
    realtime_fps: float = 30.0
    thinning_factors: tuple[int, ...] = (2, 5, 10)
    seed: int = 0
    tracking_worker: bool = True
    analysis: AnalysisConfig = field(default_factory=AnalysisConfig)

    def __post_init__(self) -> None:
        if self.max_frames_per_clip < 1:
            raise ValueError("max_frames_per_clip must be at least 1")
        if self.batch_jobs < 0:
            raise ValueError("batch_jobs must be at least 0")
        if self.yolo_repeats < 2:
            raise ValueError("yolo_repeats must be at least 2 (one warm-up, one timed)")
        if self.realtime_fps <= 0:
            raise ValueError("realtime_fps must be positive")
        if any(n < 1 for n in self.thinning_factors):
            raise ValueError("thinning_factors must be at least 1")


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

    section("throughput", lambda: _throughput_section(config, detectors, report))
    if config.batch_jobs > 0:
        report(f"bench: the clips {config.batch_jobs} at a time (analyze --jobs) …")
        section(
            "batch",
            lambda: {
                name: batch(config.clips, name, config.batch_jobs, config.max_frames_per_clip)
                for name in detectors
            },
        )
    if config.long_video is not None and "classic" in detectors:
        report(f"bench: one long video, in one process and {config.batch_jobs or 2} at once …")
        section("long_video", lambda: long_video(config.long_video, "classic", config.batch_jobs or 2))
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
        section(
            "latency",
            lambda: [
                rest_to_ruling(clip, detectors["classic"], config.analysis)
                for clip in synthetic_clips(
                    config.synthetic_clips, config.scenario_clip, config.rolling_clip, config.seed
                )
            ],
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


def _throughput_section(
    config: BenchConfig, detectors: dict[str, Detector], report: Reporter
) -> dict[str, Any]:
    """Throughput, with the tracking in a worker process started here when the config says so
    (once per run, like the imports; measuring begins once it is up, so that its start, a fresh
    interpreter on the other core, does not slow the first clip's plain decoding)."""
    clips, frames, analysis, nth = (
        config.clips,
        config.max_frames_per_clip,
        config.analysis,
        config.thinning_factors,
    )
    if not config.tracking_worker:
        return throughput(clips, detectors, frames, analysis, report, every_nth=nth)
    with TrackingWorker() as worker:
        worker.wait_started()
        return throughput(clips, detectors, frames, analysis, report, every_nth=nth, tracking_worker=worker)


def _yolo_section(config: BenchConfig, doc: dict[str, Any], report: Reporter) -> dict[str, Any]:
    from snooker import calibration

    capture = cv2.VideoCapture(str(config.clips[0]))
    ok, image = capture.read()
    capture.release()
    if not ok:
        raise BenchError(f"cannot read a frame of {config.clips[0]}")
    view = calibration.find_table(image)
    sizes = yolo_input_sizes(image, view, config.yolo_ball_radii_px)
    network = yolo_network_timing(sizes, config.yolo_repeats, report)
    classic = doc.get("throughput", {}).get("total", {}).get("classic")
    rest_fraction = (
        round(classic["frames_all_at_rest"] / classic["frames_tracked"], 3)
        if classic and classic["frames_tracked"]
        else None
    )
    network["realtime"] = yolo_realtime_analysis(
        network, rest_fraction, config.realtime_fps, config.thinning_factors
    )
    yolo = doc.get("throughput", {}).get("total", {}).get("yolo", {})
    gate = yolo.get("gates", {}).get("detection", {})
    ran = gate.get("full", 0) + gate.get("partial", 0)
    share = ran / (ran + gate["reused"]) if gate and ran + gate["reused"] else None
    network["note"] = yolo_note(network, network["realtime"], share)
    return network


def _config_record(config: BenchConfig) -> dict[str, Any]:
    return {
        "clips": [str(p) for p in config.clips],
        "detectors": list(config.detectors),
        "max_frames_per_clip": config.max_frames_per_clip,
        "batch_jobs": config.batch_jobs,
        "long_video": None if config.long_video is None else str(config.long_video),
        "memory_frames": config.memory_frames,
        "live_clips": config.live_clips,
        "live_max_s": config.live_max_s,
        "synthetic_clips": config.synthetic_clips,
        "yolo_network": config.yolo_network,
        "realtime_fps": config.realtime_fps,
        "seed": config.seed,
    }


def _throughput_lines(total: dict[str, Any]) -> list[str]:
    header = f"{'':<18}{'frames':>8}{'fps':>10}{'ratio':>9}{'to fastest':>12}"
    lines = ["", "throughput (same frames, same run; ratio to plain decoding as OpenCV comes)", header]
    decodings = ("decode", "decode_one_thread")
    fastest = max(total[name]["fps"] for name in decodings)
    for name in decodings:
        row = total[name]
        ratio = row["fps"] / total["decode"]["fps"]
        lines.append(
            f"{name:<18}{row['frames']:>8}{row['fps']:>10.1f}{ratio:>9.3f}{row['fps'] / fastest:>12.3f}"
        )
    names = [name for name in total if name not in decodings]
    for name in names:
        row = total[name]
        to_fastest = row["ratio_to_fastest_decode"]
        lines.append(
            f"{name:<18}{row['frames']:>8}{row['fps']:>10.2f}{row['ratio_to_decode']:>9.3f}{to_fastest:>12.3f}"
        )
    for name in names:
        stages = total[name]["stages"]
        lines += ["", f"stages, {name} (ms per frame)", f"{'stage':<13}{'median':>9}{'p95':>9}{'mean':>9}"]
        for stage in STAGES:
            s = stages[stage]
            lines.append(f"{stage:<13}{s['median_ms']:>9.2f}{s['p95_ms']:>9.2f}{s['mean_ms']:>9.2f}")
        if total[name].get("tracking_in_worker"):
            lines.append(
                f"(tracking in a worker process: {total[name]['tracking_worker_mean_ms']:.2f} ms "
                "a tracked frame there, beside the frame loop)"
            )
        cpu_line = _cpu_line(total[name].get("cpu", {}), total["decode"], total["decode_one_thread"])
        if cpu_line:
            lines.append(cpu_line)
        lines.append(
            f"(skipped {total[name]['skipped']}, all balls at rest on "
            f"{total[name]['frames_all_at_rest']}/{total[name]['frames_tracked']} tracked frames)"
        )
        searches = total[name].get("table_searches", {})
        if searches:
            lines.append(
                f"searches for the table: {searches.get('made', 0)} made, {searches.get('skipped', 0)} "
                "skipped (the frame looked like the one the last failed search was made on)"
            )
        for gate, counts in total[name].get("gates", {}).items():
            if counts:
                lines.append(f"fast path, {gate}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        spent = total[name].get("gate_ms_per_frame", {})
        if spent.get("detection"):
            detection, view_check = spent["detection"], spent.get("view_check", {})
            second_look = detection.get("second_look", 0.0)
            gate_own = stages["detection"]["mean_ms"] - detection["full"] - detection["partial"] - second_look
            lines.append(
                f"detection, ms a frame: full detections {detection['full']:.2f} (and second looks that "
                f"found no ball more {second_look:.2f}), region searches and following "
                f"{detection['partial']:.2f}, the gate's own {gate_own:.2f}; the view check's full "
                f"checks {view_check.get('full', 0.0):.2f}"
            )
        projected = total[name]["projected"]
        lines.append(
            f"projected ratio (not measured): detection every Nth frame at rest "
            f"{projected['detect_every_nth_at_rest']}; and the view check every Nth "
            f"{projected['and_check_view_every_nth']}"
        )
    lines.append("")
    return lines


def _cpu_line(cpu: dict[str, Any], decode: dict[str, Any], one_thread: dict[str, Any]) -> str | None:
    """The CPU a pipeline used, in core-ms a frame, beside plain decoding's (None: not measured)."""
    if cpu.get("process_ms_per_frame") is None:
        return None
    worker = cpu.get("worker_ms_per_frame")
    in_worker = f", the tracking worker {worker:.2f}" if worker is not None else ""
    decoding = ""
    if decode.get("cpu_ms_per_frame") is not None and one_thread.get("cpu_ms_per_frame") is not None:
        decoding = (
            f"; plain decoding {decode['cpu_ms_per_frame']:.2f} "
            f"({one_thread['cpu_ms_per_frame']:.2f} on one thread)"
        )
    return (
        f"CPU, core-ms a frame: the frame loop's process {cpu['process_ms_per_frame']:.2f} (decoding "
        f"included){in_worker}; {cpu['cores_busy']:.2f} cores busy on average{decoding}"
    )


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
    for name, row in doc.get("batch", {}).items():
        lines.append(
            f"batch {name}: {row['clips']} clips, {row['jobs']} at a time (analyze --jobs): "
            f"{row['analyze_fps']} fps; plain decoding {row['decode_fps']['one_by_one']} fps one by one, "
            f"{row['decode_fps']['at_once']} fps {row['jobs']} at a time; ratio {row['ratio_to_decode']:.3f} "
            f"to the faster ({row['ratio_to_decode_one_by_one']:.3f} to one by one)"
        )
    long = doc.get("long_video")
    if long:
        parts = f"jobs_{long['jobs']}"
        joined = (
            "handed over" if long[parts]["handed_over"] else "never handed over: the first read to the end"
        )
        if not long[parts]["split"]:
            joined = "too short to split: one process"
        lines.append(
            f"long video {Path(long['video']).name} ({long['frames']} frames): plain decoding "
            f"{long['decode_fps']} fps; analyze {long['one_process']['analyze_fps']} fps in one process "
            f"(ratio {long['one_process']['ratio_to_decode']:.3f}), {long[parts]['analyze_fps']} fps with "
            f"--jobs {long['jobs']} (ratio {long[parts]['ratio_to_decode']:.3f}; "
            f"{joined})"
        )
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
                f"{r['frames_dropped']} dropped of {r['frames_offered']} ({r['dropped_fraction']:.1%}; "
                f"{r.get('dropped_finding_the_table')} of them while the table was first found), "
                f"{r['processed_fps']} fps processed; keeps up: {r['keeps_up']}"
                + (
                    f" (cue ball not looked for in {r['other_views_not_followed']} frames of other views)"
                    if r.get("other_views_not_followed")
                    else ""
                )
            )
    network = doc.get("yolo_network")
    if network:
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
                f"{option['ms_per_frame']:>8.1f} ms (min {option['min_ms']:.1f})  "
                f"x{option['speedup_needed']:.1f} "
                f"of the {budget} ms budget" + (f"; every Nth at rest: {nth}" if nth else "")
            )
        if "note" in network:
            lines.append(f"YOLO note: {network['note']}")
    lines.append(f"peak RSS (MiB): {doc['peak_rss_mib']}")
    for name, error in doc.get("errors", {}).items():
        lines.append(f"FAILED {name}: {error}")
    return "\n".join(lines)
